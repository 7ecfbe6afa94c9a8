"""Teach mode on the objects the finder found: their face-reader embeddings are kept, and other photos of
the same dice are read by the nearest taught face. Drawings (an emblem face: a star in a ring, as a
maker's logo in place of the 6), so the test says which mechanism works, not how well on real dice."""

from pathlib import Path

import numpy as np

from vision import Calibration, read_table, synth
from vision.teach import Calibration as _Calibration

INK = (40, 40, 150)
BODY = (235, 235, 235)


def emblem_frame(seed, positions, pips=()):
    rng = np.random.default_rng(seed)
    img = synth.tray(640, 480, kind="wood", seed=seed)
    for x, y in positions:
        synth.draw_logo_die(img, x, y, 64, angle=float(rng.uniform(0, 90)), body=BODY, ink=INK)
    for x, y, v in pips:
        synth.draw_die(img, x, y, 64, v, angle=float(rng.uniform(0, 90)))
    return img


def emblems(reading):
    return sorted((d for d in reading.dice), key=lambda d: d.bbox[0])


def test_three_emblems_taught_as_6_are_read_as_6_on_another_photo():
    teach_photo = emblem_frame(1, [(150, 240), (330, 160), (500, 330)])
    cal, n = Calibration().teach_found(teach_photo, kind="face", label="6")
    assert n == 3
    other = emblem_frame(2, [(120, 120), (420, 380)], pips=[(300, 260, 3), (520, 110, 5)])
    got = {(round(d.bbox[0] / 100), d.value) for d in read_table(other, calibration=cal).dice}
    values = sorted(d.value for d in read_table(other, calibration=cal).dice)
    assert values == [3, 5, 6, 6], got


def test_an_emblem_nobody_taught_is_asked_not_guessed():
    reading = read_table(emblem_frame(3, [(200, 200), (450, 300)]))
    assert len(reading.dice) == 2
    for d in reading.dice:
        assert d.value is None or d.confidence < 0.8, d


def test_embeddings_survive_the_calibration_file(tmp_path):
    cal, n = Calibration().teach_found(emblem_frame(1, [(150, 240), (330, 160)]), kind="face", label="6")
    assert n == 2
    cal.save(tmp_path / "calibration.json")
    back = _Calibration.load(tmp_path / "calibration.json")
    assert [e.label for e in back.examples] == ["6", "6"]
    for a, b in zip(cal.examples, back.examples, strict=True):
        assert a.embedding is not None and b.embedding is not None
        assert np.allclose(a.embedding, b.embedding, atol=1e-6)


def test_a_frame_with_nothing_teaches_nothing():
    cal, n = Calibration().teach_found(synth.tray(640, 480, kind="white"), kind="token", label="alive")
    assert n == 0 and cal.examples == ()


def test_each_face_reader_brings_its_own_taught_cosine(tmp_path):
    """The cosine that makes a taught match is the face reader's own (its card): a reader whose card asks
    for 0.999 takes none of the emblems taught as 6 for a 6, and without the field the default is used."""
    import json
    import shutil

    from vision.faces import taught_cosine
    from vision.finder import model_path
    from vision.learned import TAUGHT_COSINE, read_view

    strict = tmp_path / "strict.onnx"
    shutil.copyfile(model_path("faces"), strict)
    assert taught_cosine(str(strict), TAUGHT_COSINE) == TAUGHT_COSINE
    # the shipped card but for its cosine, its ensemble member beside it: without the card's "crop" the 56 px
    # reader would read 40 px squares (the sixty-second session's reader read these emblems "4" so)
    card = json.loads(model_path("faces").with_suffix(".json").read_text(encoding="utf-8"))
    strict.with_suffix(".json").write_text(json.dumps({**card, "taught_cosine": 0.999}))
    for member in card["ensemble"]:
        src = model_path(Path(member).stem)
        for suffix in (".onnx", ".json"):
            shutil.copyfile(src.with_suffix(suffix), (tmp_path / member).with_suffix(suffix))
    assert taught_cosine(str(strict)) == 0.999
    cal, n = Calibration().teach_found(emblem_frame(1, [(150, 240), (330, 160), (500, 330)]),
                                       kind="face", label="6")
    assert n == 3
    other = emblem_frame(2, [(120, 120), (420, 380)])
    taught = [d[2] for d in read_view(other, cal)[0]]
    assert taught == [6, 6], taught
    untaught = read_view(other, cal, models=("finder", str(strict), "types"))[0]
    assert [d[2] for d in untaught] == [None, None], untaught


def _unit(v):
    return v / np.linalg.norm(v)


def test_two_taught_tokens_near_one_direction_are_told_apart_about_their_centre():
    """Tokens share one "token" direction in the reader's embedding; what tells a live one from a dead one
    is what is left about their common centre. A dead token seen under another light is a hundredth
    nearer the dead example than the live one in raw cosine (too close to call), and clearly dead about
    the centre; an untaught object away from both is still nobody's."""
    from vision.teach import Example

    rng = np.random.default_rng(0)
    token, live, dead, light = (_unit(rng.normal(size=64)) for _ in range(4))
    alive_e, dead_e = _unit(3 * token + live), _unit(3 * token + dead)
    seen = _unit(3 * token + 0.55 * dead + 0.45 * live + 0.3 * light)
    patch = np.zeros((32, 32), np.uint8)
    cal = _Calibration((Example("token", "alive", patch, alive_e), Example("token", "dead", patch, dead_e)))
    raw_gap = float(seen @ dead_e - seen @ alive_e)
    assert 0 < raw_gap < 0.05, raw_gap
    kind, label, confidence = cal.nearest(seen, threshold=0.7)
    assert (kind, label) == ("token", "dead") and confidence == min(0.95, float(seen @ dead_e))
    assert cal.nearest(_unit(rng.normal(size=64)), threshold=0.7) is None
    # one label taught: the raw cosine alone, as before
    one = _Calibration((Example("token", "alive", patch, alive_e),))
    assert one.nearest(seen, threshold=0.7)[:2] == ("token", "alive")
