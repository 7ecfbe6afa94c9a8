"""A die is reported "sure" (0.8) from the confidence its face reader's card names (``sure_from``), not
from 0.8 itself: readings at 0.80-0.90 were right 88-97% of the time left out (vision.learned._reported)."""

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from vision import faces, learned
from vision.data import photo_set

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / "vision" / "models"


def test_the_bar_becomes_sure_and_nothing_is_raised():
    grid = np.linspace(0.0, 1.0, 1001)
    got = np.array([learned._reported(float(p), 0.9) for p in grid])
    assert learned._reported(0.9, 0.9) == pytest.approx(learned.SURE)
    assert learned._reported(1.0, 0.9) == pytest.approx(1.0)
    assert learned._reported(0.7, 0.9) == pytest.approx(0.5 + 0.2 * 0.3 / 0.4)
    # under KEPT_BELOW (where the drop rules and the "believed" bar live) nothing moves
    np.testing.assert_array_equal(got[grid <= learned.KEPT_BELOW], grid[grid <= learned.KEPT_BELOW])
    assert np.all(np.diff(got) > 0)          # the order of readings is kept
    assert np.all(got <= grid + 1e-12)       # a confidence is never raised
    assert not np.any((got >= learned.SURE) & (grid < 0.9))   # sure only from the bar
    # a bar at 0.8 reports the reader's own probability
    assert [learned._reported(float(p), 0.8) for p in grid] == list(grid)


def _card(folder: Path, **card) -> str:
    for name in ("faces", "faces2"):
        shutil.copy(MODELS / f"{name}.onnx", folder / f"{name}.onnx")
        shutil.copy(MODELS / f"{name}.json", folder / f"{name}.json")
    base = json.loads((MODELS / "faces.json").read_text(encoding="utf-8"))
    base.pop("sure_from", None)
    (folder / "faces.json").write_text(json.dumps({**base, **card}), encoding="utf-8")
    return str(folder / "faces.onnx")


def test_the_card_says_where_sure_begins(tmp_path):
    assert faces.sure_from(_card(tmp_path, sure_from=0.93)) == pytest.approx(0.93)
    assert faces.sure_from(_card(tmp_path)) == pytest.approx(0.8)
    for bad in (0.7, 1.0):
        with pytest.raises(ValueError, match="sure_from"):
            faces.sure_from(_card(tmp_path, sure_from=bad))
    # every shipped and left-out reader's card holds its fitted bar (0.80, the lowest benchmarks/sure_study.py
    # tries, is one: chase's since the fifty-third session) and says what it was fitted on
    for card in [MODELS / "faces.json", *sorted((ROOT / "benchmarks" / "models").glob("faces-no-*.json"))]:
        got = json.loads(card.read_text(encoding="utf-8"))
        assert 0.8 <= got["sure_from"] < 1.0 and "sure_study.py" in got["sure_from_fitted"], card.name


def test_real_photos_dice_are_reported_through_the_bar(tmp_path, photos):
    plain = tmp_path / "plain"
    barred = tmp_path / "barred"
    plain.mkdir()
    barred.mkdir()
    models = ("finder", _card(plain), "types")
    models_barred = ("finder", _card(barred, sure_from=0.99), "types")
    moved = 0
    for p in photo_set("matteop65")[15:19]:
        frame = p.load()
        before, tokens = learned.read_view(frame, models=models)
        after, tokens_after = learned.read_view(frame, models=models_barred)
        assert tokens == tokens_after
        # the same dice in the same places with the same values: only what is reported moved
        assert [d[:3] for d in before] == [d[:3] for d in after]
        for (*_, old, _), (*_, new, _) in zip(before, after, strict=True):
            assert new == pytest.approx(learned._reported(old, 0.99))
            moved += old >= learned.SURE > new
    assert moved > 0     # some value the reader gave 0.80-0.99 is now asked


def test_a_taught_face_keeps_its_cosine(tmp_path):
    """A taught face's confidence is its cosine to what the players taught (``Calibration.nearest``), not a
    reader's probability: the bar does not move it. The emblems drawn in test_teach_found, taught as 6."""
    from tests.vision3.test_teach_found import emblem_frame
    from vision import Calibration

    cal, n = Calibration().teach_found(emblem_frame(1, [(150, 240), (330, 160), (500, 330)]),
                                       kind="face", label="6")
    assert n == 3
    other = emblem_frame(2, [(120, 120), (420, 380)])
    plain = tmp_path / "plain"
    barred = tmp_path / "barred"
    plain.mkdir()
    barred.mkdir()
    before, _ = learned.read_view(other, cal, models=("finder", _card(plain), "types"))
    after, _ = learned.read_view(other, cal, models=("finder", _card(barred, sure_from=0.99), "types"))
    assert [d[2] for d in before] == [6, 6]
    assert after == before
    assert all(learned._reported(d[3], 0.99) < d[3] for d in before)   # the bar would have moved them


def test_the_study_fits_the_lowest_bar_the_other_sets_allow_and_writes_it(tmp_path):
    """benchmarks/sure_study.py: the lowest bar from which readings are 99.5% right, written into a card
    that the reader then takes (``--write``)."""
    from tests.helpers import benchmark

    study = benchmark("sure_study")
    # 1000 right readings at 0.95, and 10 wrong ones at 0.85: right 99.0% from 0.8, 100% from 0.86
    rel = [(0.95, True)] * 1000 + [(0.85, False)] * 10
    assert study.lowest_bar(rel) == pytest.approx(0.86)
    assert study.lowest_bar([(0.95, True)] * 10) == pytest.approx(0.8)
    model = _card(tmp_path)
    study.write_bar(Path(model).with_suffix(".json"), 0.86, ["aws", "nell"])
    assert faces.sure_from(model) == pytest.approx(0.86)
    card = json.loads(Path(model).with_suffix(".json").read_text(encoding="utf-8"))
    assert "aws, nell" in card["sure_from_fitted"] and card["ensemble"] == ["faces2.onnx"]


def test_the_study_fits_the_face_readers_bar_without_polyhedral_readings():
    """Polyhedral readings have a bar of their own (the type reader's card): a d8 sure and wrong must not
    raise the face reader's bar, and a d6, an emblem or an untyped object must still count."""
    from companion.reading import Die, TableReading
    from tests.helpers import benchmark

    study = benchmark("sure_study")
    dice = (Die((0, 0, 9, 9), 8, 3, 0.9, None), Die((20, 0, 9, 9), 6, 4, 0.9, None),
            Die((40, 0, 9, 9), 6, None, 0.3, None), Die((60, 0, 9, 9), None, None, 0.2, None),
            Die((80, 0, 9, 9), 20, 17, 0.95, None))
    got = study.not_polyhedral([TableReading(100, 10, dice)])
    assert [d.bbox[0] for d in got[0].dice] == [20, 40, 60]
    assert (got[0].width, got[0].height) == (100, 10)
