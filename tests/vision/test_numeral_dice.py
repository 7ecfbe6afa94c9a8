"""read_table's rules for dice that are not pip d6s (drawn objects and hand-made faces at known places)."""

import cv2
import numpy as np

from vision import table as T
from vision.pips import Face, Pip


def _face(x, y, r, n, dark=False):
    """A face of ``n`` pips of radius ``r`` set diagonally around (x, y), read as ``n`` for sure."""
    pips = tuple(Pip(x + k * 2.5 * r, y + k * 2.5 * r, r, 120.0, (40.0, 40.0, 200.0), dark)
                 for k in range(n))
    half = 2.5 * r * (n - 1) / 2 + 1.8 * r
    cx, cy = x + 2.5 * r * (n - 1) / 2, y + 2.5 * r * (n - 1) / 2
    return Face(pips, n, 1.0, (cx - half, cy - half, 2 * half, 2 * half))


def _body(x, y, side, circularity=0.84):
    return T.Body((x, y, side, side), float(side * side), circularity, np.zeros((0, 1, 2), np.int32))


class _Reading:
    def __init__(self, sides, sides_confidence=0.9):
        self.sides, self.sides_confidence = sides, sides_confidence


def test_a_die_inside_a_closed_ring_of_foreground_is_found():
    # a tray's rim (or a shadow) closing a ring around the die must not hide it
    mask = np.zeros((480, 640), np.uint8)
    cv2.rectangle(mask, (20, 20), (620, 460), 255, 12)
    cv2.rectangle(mask, (300, 200), (350, 270), 255, -1)
    boxes = [b.box for b in T.find_bodies(mask, min_side=8, max_side=128)]
    assert (300, 200, 51, 71) in boxes


def test_small_marks_on_a_numeral_die_are_never_a_sure_d6():
    # the dot and the hole of a "6." on an 80 px d20 look like a 2 of tiny pips
    frame = np.zeros((480, 640, 3), np.uint8)
    marks, body = _face(300, 300, 2.7, 2), _body(270, 270, 80)
    capped = T._numeral_marks_dropped([marks], [body], frame, 1.0, None)
    assert [f.confidence for f in capped] == [0.5]          # no Vision II: kept, but doubtful
    assert T._numeral_marks_dropped([marks], [body], frame, 1.0, lambda crop: _Reading(20)) == []
    kept = T._numeral_marks_dropped([marks], [body], frame, 1.0, lambda crop: _Reading(6))
    assert [f.confidence for f in kept] == [0.5]            # Vision II sees a d6: still doubtful


def test_a_pip_face_that_fills_its_die_is_left_alone():
    frame = np.zeros((480, 640, 3), np.uint8)
    face, body = _face(300, 300, 6.0, 2), _body(290, 290, 50, circularity=0.68)
    assert T._numeral_marks_dropped([face], [body], frame, 1.0, lambda crop: _Reading(20)) == [face]


def test_light_specks_of_the_trays_own_colour_are_not_a_die():
    tray = np.array([15.0, 5.0, 2.0])
    specks = _face(100, 100, 2.2, 2)
    specks = Face(tuple(Pip(p.x, p.y, p.r, 90.0, (30.0, 10.0, 12.0), False) for p in specks.pips),
                  2, 1.0, specks.box)
    assert T._light_specks_on_tray(specks, tray)
    on_a_red_die = _face(100, 100, 4.0, 2)                 # white pips on a red die: a face
    assert not T._light_specks_on_tray(on_a_red_die, tray)
    dark = _face(100, 100, 4.0, 2, dark=True)
    assert not T._light_specks_on_tray(dark, np.array([40.0, 40.0, 200.0]))


def test_dice_far_smaller_than_a_sure_die_are_dropped():
    big = ((100, 100, 80, 80), 20, 14, 0.9, False)
    speck = ((400, 50, 20, 20), 6, 2, 1.0, False)
    near = ((300, 100, 60, 60), 6, 3, 0.9, False)
    assert T._small_dice_dropped([big, speck, near]) == [big, near]
    unsure = ((100, 100, 80, 80), 20, 14, 0.5, False)
    assert T._small_dice_dropped([unsure, speck]) == [unsure, speck]   # the speck is then the sure one
