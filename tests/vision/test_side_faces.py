"""Top faces, not sides: a die seen obliquely shows a side face next to its top, foreshortened along
the direction to its top; two dice touching, both seen from above, are both read."""

import cv2
import numpy as np
import pytest

from vision import read_table, synth

_GRID = {2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)], 4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
         5: [(-1, -1), (1, -1), (-1, 1), (1, 1), (0, 0)]}


def oblique_die(img, x, y, size, top, side, squash=0.45):
    """Draw (in place) a white die seen from above and in front: its top face centred at (x, y), and
    below it its front face, compressed vertically by ``squash`` and lit less (pips flattened too)."""
    h = size / 2
    cv2.rectangle(img, (round(x - h), round(y - h)), (round(x + h), round(y + h)), (235, 235, 235), -1)
    fy = y + h + squash * h                 # the side face's centre
    cv2.rectangle(img, (round(x - h), round(y + h)), (round(x + h), round(y + h + 2 * squash * h)),
                  (185, 185, 185), -1)
    a, r = 0.27 * size, 0.09 * size
    for gx, gy in _GRID[top]:
        cv2.circle(img, (round(x + gx * a), round(y + gy * a)), round(r), (20, 20, 20), -1, cv2.LINE_AA)
    for gx, gy in _GRID[side]:
        cv2.ellipse(img, (round(x + gx * a), round(fy + gy * a * squash)), (round(r), round(r * squash)),
                    0, 0, 360, (20, 20, 20), -1, cv2.LINE_AA)


@pytest.mark.parametrize("top, side", [(5, 2), (3, 4), (2, 5), (4, 3)])
def test_a_foreshortened_side_face_is_not_read(top, side):
    img = synth.tray(kind="felt", seed=top)
    oblique_die(img, 320, 220, 60, top, side)
    before = img.copy()
    reading = read_table(img)
    assert np.array_equal(img, before)
    assert [d.value for d in reading.dice] == [top], reading.dice


@pytest.mark.parametrize("a, b", [(5, 2), (3, 6), pytest.param(1, 4, marks=pytest.mark.xfail(
    strict=True, reason="known limit: a 1 touching a 4 (one pip group) is read as one 3, at 0.5 confidence "
    "since the doubt rule (0.74 before)"))])
def test_two_touching_white_dice_from_above_are_both_read(a, b):
    img = synth.tray(kind="felt", seed=a + b)
    synth.draw_die(img, 300, 240, 50, a, shadow=False)
    synth.draw_die(img, 351, 240, 50, b, shadow=False)
    reading = read_table(img)
    assert sorted(d.value for d in reading.dice) == sorted([a, b]), reading.dice
    assert all(d.confidence >= 0.7 for d in reading.dice), reading.dice


def test_a_1_touching_a_4_is_never_a_confident_wrong_value():
    img = synth.tray(kind="felt", seed=5)
    synth.draw_die(img, 300, 240, 50, 1, shadow=False)
    synth.draw_die(img, 351, 240, 50, 4, shadow=False)
    reading = read_table(img)
    assert all(d.confidence <= 0.5 for d in reading.dice if d.value not in (1, 4)), reading.dice
