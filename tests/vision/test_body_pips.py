"""Pips of dice bodies the grey threshold takes whole, and readings that lose pips (drawings)."""

import math
from functools import partial

import cv2
import pytest

from vision import read_table as _read_table
from vision import synth
from vision.pips import find_pips

#: Vision I's rule reader: these tests pin its mechanisms (it stays as the learned reader's pip counter)
read_table = partial(_read_table, reader="rules")


def _pips_on(pips, die, dark):
    return [p for p in pips if p.dark == dark and math.hypot(p.x - die.x, p.y - die.y) < die.size / 2]


@pytest.mark.parametrize("body", [(40, 40, 200), (190, 80, 30)])
def test_white_pips_of_small_coloured_dice_on_a_dark_tray_are_found(body):
    # the grey threshold takes a coloured body brighter than the tray whole, pips and all: the pips are
    # found in the image's whiteness inside the body. (A lighter green body is often taken whole as one
    # light disc, a "pip", and its pips are not sought: a known limit, see docs/vision.md.)
    img = synth.tray(kind="black", seed=3)
    drawn = [synth.draw_die(img, 80 + 90 * v, 240, 24, v, angle=7 * v, body=body, pip=(240, 240, 240))
             for v in range(2, 7)]
    pips = find_pips(img)
    for d in drawn:
        assert len(_pips_on(pips, d, dark=False)) == d.value, (body, d)
    reading = read_table(img)
    assert sorted(r.value for r in reading.dice) == [2, 3, 4, 5, 6]


def test_red_pips_of_small_yellow_dice_on_a_dark_tray_are_found():
    # the dark tray drags the threshold window's mean below the red pips: they are found against the
    # body's own level
    img = synth.tray(kind="black", seed=4)
    drawn = [synth.draw_die(img, 80 + 90 * v, 240, 24, v, angle=5 * v, body=(40, 210, 240), pip=(40, 40, 190))
             for v in range(2, 7)]
    pips = find_pips(img)
    for d in drawn:
        assert len(_pips_on(pips, d, dark=True)) == d.value, d


def test_two_touching_dice_are_no_dark_pip():
    # two touching green dice on a white tray are one dark blob with their pips as holes: not a pip (two
    # such "pips" made a huge 2 that hid every die near it as its side face)
    img = synth.tray(kind="white", seed=2)
    body, pip = (60, 150, 40), (240, 240, 240)
    for y in (150, 330):
        synth.draw_die(img, 188, y, 24, 1, body=body, pip=pip)
        synth.draw_die(img, 212, y, 24, 2, body=body, pip=pip)
    lone = synth.draw_die(img, 260, 240, 24, 6, body=body, pip=pip)
    assert not [p for p in find_pips(img) if p.dark and p.r > 6]
    at_lone = [r.value for r in read_table(img).dice
               if math.hypot(r.bbox[0] + r.bbox[2] / 2 - lone.x, r.bbox[1] + r.bbox[3] / 2 - lone.y) < 12]
    assert at_lone == [6]


def test_a_two_with_a_pip_at_its_centre_is_not_sure():
    # a small 3 whose centre pip is flatter than its corners (a few anti-aliased pixels) reads from its
    # corners alone as a 2: the pip-coloured spot at the 2's centre makes it a proposal, not sure
    img = synth.tray(kind="wood", seed=1)
    synth.draw_die(img, 320, 240, 24, 2, body=(40, 210, 240), pip=(40, 40, 190))
    cv2.ellipse(img, (320, 240), (3, 1), 45, 0, 360, (40, 40, 190), -1, cv2.LINE_AA)
    reading = read_table(img)
    assert reading.dice and all(r.value != 2 or r.confidence < 0.8 for r in reading.dice), reading.dice
