"""benchmarks/filling.py cuts chase-like frames (one die filling a 51-81 px crop) from other sets' photos."""

import numpy as np
import pytest

from tests.helpers import benchmark

filling = benchmark("filling")


def test_a_cut_holds_the_die_with_its_margin_at_the_asked_size():
    image = np.zeros((200, 300, 3), np.uint8)
    image[80:120, 100:140] = 255                      # a 40 px die
    got = filling.cut(image, (100.0, 80.0, 40.0, 40.0), 0.1, 60.0)
    assert got is not None and got.shape[:2] == (60, 60)
    # the margin is 4 px of 48 in the window: 5 of 60 in the crop, black around a white die
    assert got[:4].max() == 0 and got[:, :4].max() == 0
    assert got[8:52, 8:52].min() == 255


def test_a_die_the_edge_cuts_or_too_small_to_enlarge_is_not_cut():
    image = np.zeros((200, 300, 3), np.uint8)
    assert filling.cut(image, (2.0, 80.0, 40.0, 40.0), 0.1, 60.0) is None       # margin past the left edge
    assert filling.cut(image, (270.0, 160.0, 40.0, 40.0), 0.0, 60.0) is None    # the die itself past it
    assert filling.cut(image, (260.0, 160.0, 40.0, 40.0), 0.0, 60.0) is not None  # touching it, inside
    assert filling.cut(image, (100.0, 80.0, 15.0, 15.0), 0.1, 60.0) is None     # under LEAST
    with pytest.raises(ValueError, match="margin"):
        filling.cut(image, (100.0, 80.0, 40.0, 40.0), -0.1, 60.0)


def test_crops_of_a_real_set_are_chase_sized_repeatable_and_read(photos):
    from vision.data import photo_set

    nell = photo_set("nell")[:12]
    first = filling.crops(nell, 15, seed=3)
    again = filling.crops(nell, 15, seed=3)
    assert len(first) == 15
    assert all(np.array_equal(a, b) and u == v for (a, u), (b, v) in zip(first, again, strict=True))
    assert all(51 <= max(c.shape[:2]) <= 81 for c, _ in first)
    valued = sorted(d.value for p in nell for d in p.dice if d.value is not None)
    assert all(v in valued for _, v in first)
    got = filling.score(first, filling.ve.leave_out_models("nell"))
    # nell left out finds 98-99% of these crops and reads about nine in ten (docs/vision.md): a reader that
    # lost the die filling the frame would fall far under these floors
    assert got["crops"] == 15 and got["found_pct"] >= 80 and got["right_pct"] >= 60
