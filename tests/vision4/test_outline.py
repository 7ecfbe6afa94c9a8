"""A numeral die the finder boxed at one face or its numeral is read at its outline
(``vision.learned._outline_found``), and a box drawn round a whole die is left as it is."""

import numpy as np
import pytest

from vision import read_table
from vision.data import photo_set
from vision.finder import Found, find_objects
from vision.learned import OUTLINE_GROWS, _outline_found
from vision.poly.synth import scene


def _centre(box: tuple[float, float, float, float]) -> tuple[float, float]:
    x, y, w, h = box
    return x + w / 2, y + h / 2


@pytest.mark.parametrize("seed", [4647, 4646])
def test_a_box_that_cut_a_die_grows_to_the_die_and_a_whole_box_stays(seed):
    """Seed 4647: six dice on a light tray, each boxed at 0.45 of its size, grow back to within 15% of the
    die. Seed 4646: dark dice on a dark tray, whose outline is not found; a box grows there only to the die,
    never past it, and never shrinks."""
    s = scene(np.random.default_rng(seed), count=6, profile="table")
    grown = 0
    for die in s.dice:
        cx, cy = _centre(die.bbox)
        long_side = max(die.bbox[2], die.bbox[3])
        whole = Found(cx, cy, die.bbox[2], die.bbox[3], 1.0)
        assert _outline_found(s.image, whole, [whole]) is whole, die.kind
        cut = Found(cx, cy, 0.45 * die.bbox[2], 0.45 * die.bbox[3], 1.0)
        got = _outline_found(s.image, cut, [cut])
        if got is not cut:
            grown += 1
            assert 0.85 * long_side <= got.side <= 1.15 * long_side, (die.kind, got.side, long_side)
            assert abs(got.cx - cx) < 0.1 * long_side and abs(got.cy - cy) < 0.1 * long_side
    if seed == 4647:
        assert grown == 6
    else:
        assert grown < 6, "the premise: dark dice on the dark tray, whose outlines die_mask cannot find"


def test_an_outline_that_holds_another_found_object_is_not_one_die():
    s = scene(np.random.default_rng(4647), count=6, profile="table")
    die = s.dice[0]
    cx, cy = _centre(die.bbox)
    cut = Found(cx, cy, 0.45 * die.bbox[2], 0.45 * die.bbox[3], 1.0)
    assert _outline_found(s.image, cut, [cut]) is not cut, "the premise: alone, it grows"
    beside = Found(cx + 0.4 * die.bbox[2], cy, 10, 10, 0.5)
    assert _outline_found(s.image, cut, [cut, beside]) is cut


def test_real_dice_boxed_by_the_finder_keep_their_boxes(photos):
    """Lurig photos of dice with hard shadows and glare (their outlines 1.4-2 times the finder's box): the
    finder's box lies round the whole die, so the outline does not replace it."""
    names = {"d6_color282.jpg", "d10_wood0832.jpg", "d8_wood752.jpg", "d6_wood0406.jpg"}
    kept = 0
    for photo in (p for p in photo_set("lurig") if p.path.name in names):
        image = photo.load()
        found = find_objects(image)
        for f in found[:3]:
            assert _outline_found(image, f, found) is f, (photo.path.name, f)
        kept += 1
    assert kept == len(names)


def test_a_d6_the_finder_boxed_at_its_numeral_is_read_as_a_d6():
    """A rendered numeral d6 of 64 px whose "3" the shipped finder boxes far inside it (tuning seed 818181,
    frame 64): at its outline, a d6 "3". (Frame 21's "1" of 69 px, boxed at 29 px and read a d4 at the box,
    was the case until the sixty-third session's finder, whose box there is read a d6 "1" but not grown.)"""
    rng = np.random.default_rng(818181)
    for _ in range(65):
        s = scene(rng, count=10, width=1280, height=960, profile="table")
    (truth,) = [d for d in s.dice if d.kind == "d6" and d.value == 3 and d.bbox[:2] == (404, 149)]
    tx, ty = _centre(truth.bbox)
    (f,) = [f for f in find_objects(s.image) if abs(f.cx - tx) < 20 and abs(f.cy - ty) < 20]
    assert f.side * OUTLINE_GROWS < max(truth.bbox[2], truth.bbox[3]), "the premise: the finder cut the die"
    (die,) = [d for d in read_table(s.image).dice if abs(_centre(d.bbox)[0] - tx) < 20
              and abs(_centre(d.bbox)[1] - ty) < 20]
    assert (die.sides, die.value) == (6, 3)
    assert die.bbox[2] > 0.85 * truth.bbox[2]


@pytest.mark.parametrize(("index", "value", "x"), [(14, 2, 41), (21, 1, 71)])
def test_a_tetrahedral_d4_the_finder_boxed_at_its_middle_is_read_at_its_outline(monkeypatch, index, value, x):
    """Tuning seed 818181: tetrahedral d4s the finder boxed inside their corners (where the value is
    printed): read another value at the box, their own at the outline. (Frames 10 and 13's d4s, boxed at 0.7
    of their size, were the cases until the sixty-third session's finder, which boxes them whole.)"""
    import vision.learned as learned

    rng = np.random.default_rng(818181)
    for _ in range(index + 1):
        s = scene(rng, count=10, width=1280, height=960, profile="table")
    (truth,) = [d for d in s.dice if d.kind == "d4" and d.value == value and d.bbox[0] == x]
    tx, ty = _centre(truth.bbox)

    def read() -> tuple[int | None, int | None]:
        (die,) = [d for d in read_table(s.image).dice if abs(_centre(d.bbox)[0] - tx) < 20
                  and abs(_centre(d.bbox)[1] - ty) < 20]
        return die.sides, die.value

    assert read() == (4, value)
    monkeypatch.setattr(learned, "D4_GROWS", 10.0)   # the outline never taken: the finder's box is read
    assert read()[1] != value, "the premise: the box cut the corners"


def test_a_d4_outline_is_taken_from_a_box_at_its_middle_but_not_from_a_speck_of_it():
    """``cut=False`` (a die typed d4): a box at 0.7 of a tetrahedron grows to it, where the edge test keeps
    it (a box's edge crosses a triangle only partly); a box at 0.4 (the outline over ``D4_MOST`` times the
    box: more likely a shadow or a neighbour than this die's corners) stays."""
    from vision.learned import D4_MOST

    s = scene(np.random.default_rng(4748), count=6, profile="table", kind="d4t")
    assert D4_MOST < 1 / 0.4
    for die in s.dice:
        cx, cy = _centre(die.bbox)
        long_side = max(die.bbox[2], die.bbox[3])
        middle = Found(cx, cy, 0.7 * die.bbox[2], 0.7 * die.bbox[3], 1.0)
        assert _outline_found(s.image, middle, [middle]) is middle, "the premise: the edge test keeps it"
        got = _outline_found(s.image, middle, [middle], cut=False)
        assert 0.85 * long_side <= got.side <= 1.15 * long_side
        speck = Found(cx, cy, 0.4 * die.bbox[2], 0.4 * die.bbox[3], 1.0)
        assert _outline_found(s.image, speck, [speck], cut=False) is speck


def test_a_long_die_boxed_across_its_middle_grows_along_it_and_a_one_sided_shadow_does_not():
    """A barrel d4 lying down, boxed at its middle (the finder's box as wide as the die is thick): the box's
    ends lie on the die, its long sides on the tray, which the test all round refused (tuning seed 717171,
    frame 23: read as a d6 "3"). Drawn here: a light bar on a dark tray, boxed at its middle, grows to the
    bar; a die boxed whole with a shadow of its own colour on one side only stays as it is."""
    import cv2

    image = np.full((480, 640, 3), (40, 60, 30), np.uint8)
    cv2.rectangle(image, (220, 214), (388, 266), (200, 205, 210), -1)        # 169 x 53, lying down
    middle = Found(304, 240, 60, 53, 1.0)
    got = _outline_found(image, middle, [middle])
    assert got is not middle
    assert 160 <= got.w <= 180 and 48 <= got.h <= 60 and abs(got.cx - 304) < 4
    also_along = Found(240, 304, 53, 60, 1.0)                               # the same, standing up
    upright = np.ascontiguousarray(np.transpose(image, (1, 0, 2)))
    turned = _outline_found(upright, also_along, [also_along])
    assert turned is not also_along and 160 <= turned.h <= 180

    shadowed = np.full((480, 640, 3), (40, 60, 30), np.uint8)
    cv2.rectangle(shadowed, (280, 214), (333, 266), (200, 205, 210), -1)     # a die 54 px a side ...
    cv2.rectangle(shadowed, (334, 214), (400, 266), (200, 205, 210), -1)     # ... its glare run off one way
    whole = Found(307, 240, 54, 53, 1.0)
    assert _outline_found(shadowed, whole, [whole]) is whole
