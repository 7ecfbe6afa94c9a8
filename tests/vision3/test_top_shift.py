"""The face reader's square moved up each die's box (``vision.faces.TOP_SHIFT``): off in the product, and
where a study turns it on, every crop the readers read is the moved one."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from tests.helpers import benchmark
from vision import faces
from vision.data import photo_set
from vision.finder import Found

top_shift = benchmark("top_shift")


def _oblique_photo() -> tuple[np.ndarray, list[Found]]:
    """An aws phone photo taken from in front of the table, its dice at their labelled boxes."""
    photo = next(p for p in photo_set("aws") if p.path.name == "IMG_20191112_101208.jpg")
    found = [Found(x + w / 2, y + h / 2, w, h, 1.0) for x, y, w, h in (d.bbox for d in photo.dice)]
    return photo.load(), found


def test_the_product_reads_at_the_box_centre() -> None:
    frame, found = _oblique_photo()
    assert faces.TOP_SHIFT == 0.0
    assert faces.at_top(found, frame.shape) is found


def test_a_moved_square_is_what_every_reader_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    frame, found = _oblique_photo()
    centred = faces.read_faces(frame, found)
    moved = [replace(f, cy=f.cy - 0.2 * f.h) for f in found]
    at_moved = faces.read_faces(frame, moved)
    monkeypatch.setattr(faces, "TOP_SHIFT", 0.2)
    shifted = faces.read_faces(frame, found)
    for a, b in zip(shifted, at_moved, strict=True):
        np.testing.assert_allclose(a.probabilities, b.probabilities, atol=1e-6)
        np.testing.assert_allclose(a.embedding, b.embedding, atol=1e-6)
    assert any(not np.allclose(a.probabilities, c.probabilities, atol=1e-3)
               for a, c in zip(shifted, centred, strict=True))


def test_a_die_filling_its_frame_is_not_moved(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(faces, "TOP_SHIFT", 0.2)
    shape = (60, 60, 3)
    filling, small = Found(30, 30, 50, 50, 0.9), Found(30, 30, 20, 20, 0.9)
    got = faces.at_top([filling, small], shape)
    assert got[0] == filling
    assert got[1].cy == pytest.approx(26.0) and got[1].cx == 30 and got[1].h == 20


def test_the_study_refuses_a_shift_out_of_the_box(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        top_shift.main(["--shift", "0.9", "--set", "aws"])
    assert "--shift must lie between -0.5 and 0.5" in capsys.readouterr().err
    assert faces.TOP_SHIFT == 0.0
