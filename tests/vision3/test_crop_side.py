"""A face reader's card may say the side of the square it reads (``"crop"``, vision.faces.crop_side): a
reader trained at another size (tools/train_faces.py --crop) reads the frame at that size."""

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from vision import faces, synth
from vision.finder import Found, turned_outputs

ROOT = Path(__file__).resolve().parents[2]
LOO = ROOT / "benchmarks" / "models"


def _reader(folder: Path, name: str, **card) -> str:
    source = LOO / "faces-no-aws.onnx"
    shutil.copy(source, folder / f"{name}.onnx")
    base = json.loads(source.with_suffix(".json").read_text(encoding="utf-8"))
    base.pop("ensemble", None)
    base.pop("crop", None)           # the installed reader's own side: the test says which side it reads
    (folder / f"{name}.json").write_text(json.dumps({**base, **card}), encoding="utf-8")
    return str(folder / f"{name}.onnx")


def _frame_and_dice() -> tuple[np.ndarray, list[Found]]:
    frame = synth.tray(320, 240, kind="felt", seed=3)
    dice = [(90.0, 120.0, 2), (220.0, 110.0, 5)]
    for x, y, value in dice:
        synth.draw_die(frame, x, y, 48, value, angle=15.0)
    return frame, [Found(x, y, 50.0, 50.0, 0.9) for x, y, _ in dice]


def test_a_reader_whose_card_says_56_reads_56_px_squares(tmp_path):
    model = _reader(tmp_path, "wide", crop=56)
    frame, found = _frame_and_dice()
    assert faces.crop_side(model) == 56
    got = faces.read_faces(frame, found, model=model)
    crops = [faces.crop(frame, f, size=56) for f in found]
    n = len(faces.CLASSES)
    logits = turned_outputs(crops, model, turns=4, batch=8)[:, :n] / faces.temperature(model)
    want = np.exp(logits - logits.max(axis=1, keepdims=True))
    want /= want.sum(axis=1, keepdims=True)
    np.testing.assert_allclose([r.probabilities for r in got], want, atol=1e-9)
    # the same reader read at the installed side reads other numbers: the side is what its card says
    plain = faces.read_faces(frame, found, model=_reader(tmp_path, "plain"))
    moved = [float(np.abs(a.probabilities - b.probabilities).max()) for a, b in zip(got, plain, strict=True)]
    assert max(moved) > 1e-4


def test_a_card_without_a_side_reads_40(tmp_path):
    assert faces.crop_side(_reader(tmp_path, "plain")) == faces.CROP == 40


@pytest.mark.parametrize("first", ["faces", "faces-no-chase", "faces-no-aws", "faces-no-nell",
                                   "faces-no-matteop65"])
def test_the_installed_pairs_read_56_then_40(first):
    """The two-scale pairs installed in the fifty-third session (docs/vision.md, "Fifty-second session" and
    "Fifty-third session"): each first reader reads 56 px squares, its second reader beside it 40."""
    home = ROOT / "vision" / "models" if first == "faces" else LOO
    readers = faces.members(str(home / f"{first}.onnx"))
    assert [faces.crop_side(m) for m in readers] == [56, 40]
    assert Path(readers[1]).parent == home and Path(readers[1]).name.startswith("faces2")


@pytest.mark.parametrize("side", [8, 300, "56", 40.5])
def test_a_side_no_reader_could_read_is_an_error_that_names_it(tmp_path, side):
    model = _reader(tmp_path, "bad", crop=side)
    with pytest.raises(ValueError, match="crop"):
        faces.crop_side(model)


def test_the_readers_of_an_ensemble_each_read_their_own_side(tmp_path):
    """A pair whose first reader reads 56 px and whose second reads 40: each reads the square it was trained
    on, cut from the frame, and the pair's probabilities are the softmax of their mean calibrated logits."""
    first = _reader(tmp_path, "a", crop=56, ensemble=["b.onnx"])
    second = _reader(tmp_path, "b")
    frame, found = _frame_and_dice()
    n = len(faces.CLASSES)
    got = faces.read_faces(frame, found, model=first)
    mean = sum(turned_outputs([faces.crop(frame, f, size=faces.crop_side(m)) for f in found], m, turns=4,
                              batch=8)[:, :n] / faces.temperature(m) for m in (first, second)) / 2
    want = np.exp(mean - mean.max(axis=1, keepdims=True))
    want /= want.sum(axis=1, keepdims=True)
    np.testing.assert_allclose([r.probabilities for r in got], want, atol=1e-9)
    # the second reader fed the first's 56 px squares (or those squares shrunk) would read other numbers
    wrong = sum(turned_outputs([faces.crop(frame, f, size=40) for f in found], m, turns=4,
                               batch=8)[:, :n] / faces.temperature(m) for m in (first, second)) / 2
    assert float(np.abs(wrong - mean).max()) > 1e-4


def test_the_screened_read_cuts_the_second_readers_squares_from_the_frame(tmp_path, monkeypatch):
    """``read_faces(screen=...)`` reads a subset of the objects at every turn: the second reader's squares
    are cut for those objects, not for the first ones of the list."""
    monkeypatch.setattr(faces, "PIP_ONE_TURN", 1.01)    # every die read at every turn, as ``plain`` is
    first = _reader(tmp_path, "a", crop=56, ensemble=["b.onnx"])
    _reader(tmp_path, "b")
    frame, found = _frame_and_dice()
    nothing = Found(300.0, 20.0, 30.0, 30.0, 0.3)      # bare felt: screened out, read once
    screened = faces.read_faces(frame, [nothing, *found], model=first, screen=0.9)
    plain = faces.read_faces(frame, found, model=first)
    kept = [r for r in screened[1:] if r.whole]
    assert len(kept) == 2
    np.testing.assert_allclose([r.probabilities for r in kept], [r.probabilities for r in plain], atol=1e-9)


def test_a_mixed_pair_given_crops_without_a_cutter_resizes_them(tmp_path):
    first = _reader(tmp_path, "a", crop=56, ensemble=["b.onnx"])
    _reader(tmp_path, "b")
    frame, found = _frame_and_dice()
    crops = [faces.crop(frame, f, size=56) for f in found]
    got = faces.read_crops(crops, model=first)
    assert all(np.isfinite(r.probabilities).all() and abs(r.probabilities.sum() - 1) < 1e-9 for r in got)
    cut = faces.read_crops(crops, model=first,
                           cut=faces.cutter(frame, found))
    assert [r.label for r in got] == [r.label for r in cut]
