"""Renders the training never saw (another seed): type and value accuracy, and 6 against 9."""

import numpy as np
import pytest

from vision.poly import read_polyhedral
from vision.poly.synth import KINDS, render

TYPE_FLOOR = 0.98   # 0.996 on these 280 renders; tools/train_poly.py measures the held-out ones (poly.json)
VALUE_FLOOR = 0.83   # 0.861 here with the numeral reader (0.846 with the network alone)


def _read(r):
    x, y, w, h = r.bbox
    return read_polyhedral(r.image[y:y + h, x:x + w])


def _expected(kind, value):
    return ("d10", 10) if (kind, value) == ("d10", 0) else (kind, value)


@pytest.mark.slow
def test_unseen_renders_are_read():
    rng = np.random.default_rng(777_001)
    right = right_type = n = 0
    sides = {"d4": 4, "d6": 6, "d8": 8, "d10": 10, "d100": 10, "d12": 12, "d20": 20}
    for _ in range(280):
        r = render(rng, size=96)
        got = _read(r)
        kind, value = _expected(r.kind, r.value)
        right_type += got.sides == sides[kind]
        right += got.sides == sides[kind] and got.value == value and got.percentile == (kind == "d100")
        n += 1
    assert right_type / n >= TYPE_FLOOR, right_type / n
    assert right / n >= VALUE_FLOOR, right / n


@pytest.mark.parametrize("kind", ["d10", "d12", "d20"])
def test_six_and_nine_are_told_apart_by_the_mark(kind):
    # a 6 turned upside down is a 9 but for the dot or bar under it: swaps between them must be rare
    rng = np.random.default_rng(99)
    swaps = total = 0
    for value in (6, 9):
        face = value if kind == "d10" else value - 1
        for _ in range(20):
            got = _read(render(rng, size=96, kind=kind, face=face)).value
            swaps += got == 15 - value
            total += 1
    # measured 2-6 of 40 here (7-10% on 120 renders of another seed); chance is about 20 of 40
    assert swaps <= 8, f"{swaps} of {total} sixes and nines swapped"


def test_every_kind_renders_with_its_label():
    rng = np.random.default_rng(3)
    for kind in KINDS:
        r = render(rng, kind=kind, face=0)
        assert r.image.dtype == np.uint8 and r.image.shape == (128, 128, 3)
        assert r.kind == ("d4" if kind == "d4t" else kind)
        x, y, w, h = r.bbox
        assert x >= 0 and y >= 0 and 20 < w <= 128 - x and 20 < h <= 128 - y


def test_a_render_says_where_its_top_numeral_is_and_how_it_is_turned():
    # the numeral reader's own convention: turning the image by ``angle`` makes the numeral upright
    from vision.poly.numeral import read_numeral

    rng = np.random.default_rng(5)
    agree = read = 0
    for _ in range(40):
        r = render(rng, size=192, kind=str(rng.choice(["d6", "d8", "d12"])))
        x, y, w, h = r.bbox
        assert x <= r.centre[0] <= x + w and y <= r.centre[1] <= y + h
        got = read_numeral(r.image[y:y + h, x:x + w])
        if got.text == str(r.value):
            read += 1
            agree += abs((got.angle - r.angle + 180) % 360 - 180) <= 15
    assert read >= 10 and agree >= 0.9 * read, (agree, read)
    assert np.isnan(render(rng, kind="d4t").angle)
