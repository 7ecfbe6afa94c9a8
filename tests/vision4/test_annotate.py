"""vision.annotate on big frames."""

import numpy as np

from vision import annotate
from vision.reading import Die, TableReading


def test_annotate_scales_a_big_photo_down_before_drawing():
    """A phone's 12 MP photo is drawn on at the size the phones are shown (vision.annotate max_side)."""
    frame = np.full((3000, 4000, 3), 90, np.uint8)
    reading = TableReading(4000, 3000, (Die((2000, 1000, 400, 400), 6, 5, 0.95, "p0"),))
    small = annotate(frame, reading, max_side=1280)
    assert small.shape == (960, 1280, 3)
    # the green box is drawn where the die is, at the new scale (x 640..768, y 320..448)
    assert tuple(small[384, 640]) == (0, 200, 0) and tuple(small[320, 700]) == (0, 200, 0)
    assert tuple(small[384, 700]) == (90, 90, 90)
    assert annotate(frame[:480, :640], TableReading(640, 480), max_side=1280).shape == (480, 640, 3)
