"""The face reader's square moved up each die's box (``benchmarks/top_shift.py``): a study, never the
product's reading; where it is turned on, every crop the readers read is the moved one."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from tests.helpers import benchmark
from vision import faces, learned, tune
from vision.data import photo_set
from vision.finder import Found

top_shift = benchmark("top_shift")


def _oblique_photo() -> tuple[np.ndarray, list[Found]]:
    """An aws phone photo taken from in front of the table, its dice at their labelled boxes."""
    photo = next(p for p in photo_set("aws") if p.path.name == "IMG_20191112_101208.jpg")
    found = [Found(x + w / 2, y + h / 2, w, h, 1.0) for x, y, w, h in (d.bbox for d in photo.dice)]
    return photo.load(), found


def test_the_product_reads_with_the_face_readers_own_function() -> None:
    assert learned.read_faces is faces.read_faces and tune.read_faces is faces.read_faces


def test_a_moved_square_is_what_every_reader_reads() -> None:
    frame, found = _oblique_photo()
    centred = faces.read_faces(frame, found)
    at_moved = faces.read_faces(frame, [replace(f, cy=f.cy - 0.2 * f.h) for f in found])
    shifted = top_shift.shifted(faces.read_faces, 0.2, 1.0)(frame, found)
    for a, b in zip(shifted, at_moved, strict=True):
        np.testing.assert_allclose(a.probabilities, b.probabilities, atol=1e-6)
        np.testing.assert_allclose(a.embedding, b.embedding, atol=1e-6)
    assert any(not np.allclose(a.probabilities, c.probabilities, atol=1e-3)
               for a, c in zip(shifted, centred, strict=True))


def test_a_die_filling_its_frame_or_below_the_rows_is_not_moved() -> None:
    shape = (60, 60, 3)
    filling, small = Found(30, 30, 50, 50, 0.9), Found(30, 30, 20, 20, 0.9)
    assert faces.moved_up(filling, shape, 0.2, 1.0) is filling
    moved = faces.moved_up(small, shape, 0.2, 1.0)
    assert moved.cy == pytest.approx(26.0) and moved.cx == 30 and moved.h == 20
    assert faces.moved_up(small, shape, 0.2, 0.4) is small     # its centre (30) lies under the top 24 rows


def test_the_study_refuses_a_shift_out_of_the_box(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        top_shift.main(["--shift", "0.9", "--set", "aws"])
    assert "--shift must lie between -0.5 and 0.5" in capsys.readouterr().err
    assert learned.read_faces is faces.read_faces
