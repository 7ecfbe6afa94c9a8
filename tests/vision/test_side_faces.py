"""Top faces, not sides: a die seen obliquely shows a side face next to its top, foreshortened along
the direction to its top; two dice touching, both seen from above, are both read."""

import math
from functools import partial

import cv2
import numpy as np
import pytest

from vision import read_table as _read_table
from vision import synth
from vision.pips import Face, Pip
from vision.table import _side_faces_dropped

#: Vision I's rule reader: these tests pin its mechanisms (it stays as the learned reader's pip counter)
read_table = partial(_read_table, reader="rules")

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


@pytest.mark.parametrize("a, b", [(5, 2), (3, 6), (1, 4)])
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


def low_camera_die(img, x, y, size, top, side=None, *, top_squash=0.6, side_squash=0.6, side_grey=200):
    """Draw (in place) a white die seen by an oblique camera held upright: its top face centred at
    (x, y), compressed vertically by ``top_squash`` (pips too), and, when ``side`` is given, its front
    face below it, compressed by ``side_squash`` and lit ``side_grey``."""
    h = size / 2
    th = h * top_squash
    cv2.rectangle(img, (round(x - h), round(y - th)), (round(x + h), round(y + th)), (235, 235, 235), -1)
    a, r = 0.27 * size, 0.09 * size
    for gx, gy in _GRID.get(top, [(0, 0)]):
        cv2.ellipse(img, (round(x + gx * a), round(y + gy * a * top_squash)),
                    (round(r), round(r * top_squash)), 0, 0, 360, (20, 20, 20), -1, cv2.LINE_AA)
    if side is None:
        return
    sh = h * side_squash
    fy = y + th + sh
    cv2.rectangle(img, (round(x - h), round(y + th)), (round(x + h), round(fy + sh)), (side_grey,) * 3, -1)
    for gx, gy in _GRID.get(side, [(0, 0)]):
        cv2.ellipse(img, (round(x + gx * a), round(fy + gy * a * side_squash)),
                    (round(r), round(r * side_squash)), 0, 0, 360, (20, 20, 20), -1, cv2.LINE_AA)


def _oblique_table(seed):
    """A tray with three lone dice seen by the same oblique camera: they show the tops' shape."""
    img = synth.tray(kind="felt", seed=seed)
    for k, v in enumerate((2, 4, 5)):
        low_camera_die(img, 120 + 200 * k, 400, 60, v)
    return img


@pytest.mark.parametrize("top, side", [(2, 4), (4, 2), (5, 3)])
def test_a_side_rounder_than_its_top_is_told_by_the_other_dice(top, side):
    # a low camera sees the front face of a near die rounder than its top: the top is the face
    # foreshortened like the tops of the lone dice of the frame
    img = _oblique_table(seed=top)
    low_camera_die(img, 320, 160, 60, top, side, top_squash=0.55, side_squash=0.85, side_grey=215)
    before = img.copy()
    reading = read_table(img)
    assert np.array_equal(img, before)
    near = [d.value for d in reading.dice if d.bbox[1] < 300]
    assert near == [top], reading.dice


def _face(value, x, y, *, squash=0.6, grey=230.0, a=9.0, r=4.0):
    """A read face of ``value`` pips (a grid offset ``a``, pips of radius ``r``) centred at (x, y),
    seen compressed vertically by ``squash``, on a face of grey level ``grey``."""
    xx, yy = (r / 2) ** 2, (r * squash / 2) ** 2          # second moments of a pip ellipse
    pips = tuple(Pip(x + gx * a, y + gy * a * squash, r * math.sqrt(squash), 150.0, (grey,) * 3, True,
                     squash, True, (xx, yy, 0.0)) for gx, gy in _GRID.get(value, [(0, 0)]))
    half = a + 1.8 * r
    return Face(pips, value, 0.5, (x - half, y - half, 2 * half, 2 * half))


@pytest.mark.parametrize("top, side", [(2, 4), (4, 2), (3, 5)])
def test_a_side_as_flat_as_its_top_is_the_lower_face_of_an_upright_oblique_view(top, side):
    # a camera at 45 degrees sees a die's top and front face alike: of the two, one above the other,
    # the lower is the side when the frame's lone tops show an oblique camera held upright
    gray = np.full((480, 640), 120, np.uint8)
    cv2.rectangle(gray, (290, 140), (350, 215), 230, -1)          # the die's body, top and front
    lone = [_face(v, 120 + 200 * k, 400) for k, v in enumerate((2, 4, 5))]
    faces = [*lone, _face(top, 320, 160), _face(side, 320, 196, grey=222.0)]
    kept = _side_faces_dropped(faces, gray)
    assert [f.value for f in kept if f.centre[1] < 300] == [top]
    # seen from straight above (round tops), nothing tells the two apart: both are kept
    round_faces = [_face(f.value, *f.centre, squash=1.0) for f in faces]
    assert len(_side_faces_dropped(round_faces, gray)) == 5


def test_two_faces_one_above_the_other_with_a_seam_between_are_two_dice():
    gray = np.full((480, 640), 120, np.uint8)
    cv2.rectangle(gray, (290, 140), (350, 215), 230, -1)
    cv2.line(gray, (290, 178), (350, 178), 60, 2)                  # the seam between two dice
    lone = [_face(v, 120 + 200 * k, 400) for k, v in enumerate((2, 4, 5))]
    faces = [*lone, _face(4, 320, 160), _face(2, 320, 196, grey=222.0)]
    assert len(_side_faces_dropped(faces, gray)) == 5


def test_two_dice_touching_one_behind_the_other_are_both_read_in_an_oblique_view():
    # the near die hides the far one's front face; a dark seam (shadow) runs between them
    img = _oblique_table(seed=7)
    low_camera_die(img, 320, 120, 60, 4)
    low_camera_die(img, 320, 157, 60, 2)
    cv2.line(img, (290, 138), (350, 138), (60, 60, 60), 2)
    reading = read_table(img)
    assert sorted(d.value for d in reading.dice if d.bbox[1] < 300) == [2, 4], reading.dice
