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


def test_a_card_without_a_side_reads_the_installed_40():
    assert faces.crop_side("faces") == faces.CROP == 40


@pytest.mark.parametrize("side", [8, 300, "56", 40.5])
def test_a_side_no_reader_could_read_is_an_error_that_names_it(tmp_path, side):
    model = _reader(tmp_path, "bad", crop=side)
    with pytest.raises(ValueError, match="crop"):
        faces.crop_side(model)


def test_an_ensemble_of_readers_reading_different_sides_is_an_error(tmp_path):
    first = _reader(tmp_path, "a", crop=56, ensemble=["b.onnx"])
    _reader(tmp_path, "b")
    with pytest.raises(ValueError, match="different sides"):
        faces.members(first)
