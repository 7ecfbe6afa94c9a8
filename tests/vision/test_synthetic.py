"""read_table on drawings with objects at known places (drawings only test geometry, not accuracy)."""

from functools import partial

import numpy as np
import pytest

from vision import InvalidVisionInput, Zones, annotate, synth
from vision import read_table as _read_table
from vision.pips import UNEXPLAINED_CONFIDENCE

#: Vision I's rule reader: these tests pin its mechanisms (it stays as the learned reader's pip counter)
read_table = partial(_read_table, reader="rules")


def _near(box, x, y):
    bx, by, bw, bh = box
    return abs(bx + bw / 2 - x) < bw / 2 and abs(by + bh / 2 - y) < bh / 2


def test_empty_and_black_frames_read_nothing():
    for frame, light in ((synth.tray(kind="felt"), None), (synth.tray(kind="wood"), None),
                         (synth.tray(kind="white"), None), (np.zeros((480, 640, 3), np.uint8), "dark"),
                         (np.full((480, 640, 3), 255, np.uint8), "burnt")):
        reading = read_table(frame)
        assert reading.dice == () and reading.tokens == ()
        # a white tray is not burnt; a black or a white frame says why nothing is there (vision.exposure)
        expected = {"width": 640, "height": 480, "dice": [], "tokens": []}
        assert reading.to_json() == (expected if light is None else {**expected, "light": light})


@pytest.mark.parametrize("kind", ["felt", "wood", "white"])
def test_every_face_is_found_where_drawn_and_read(kind):
    img = synth.tray(kind=kind, seed=3)
    body = (235, 235, 235) if kind != "white" else (250, 250, 250)
    drawn = [synth.draw_die(img, 60 + 100 * (v - 1), 120 + 200 * (v % 2), 50, v, angle=17 * v, body=body)
             for v in range(1, 7)]
    reading = read_table(img)
    assert len(reading.dice) == 6
    for d in drawn:
        hits = [r for r in reading.dice if _near(r.bbox, d.x, d.y)]
        assert len(hits) == 1, (d, reading.dice)
        assert hits[0].value == d.value and hits[0].sides == 6
        assert hits[0].confidence >= 0.7


def test_white_pips_on_coloured_dice_and_touching_dice():
    img = synth.tray(kind="felt", seed=5)
    a = synth.draw_die(img, 300, 240, 44, 5, body=(40, 40, 200), pip=(240, 240, 240), shadow=False)
    b = synth.draw_die(img, 345, 240, 44, 3, body=(40, 40, 200), pip=(240, 240, 240), shadow=False)
    c = synth.draw_die(img, 322, 286, 44, 6, body=(180, 60, 30), pip=(240, 240, 240), shadow=False)
    reading = read_table(img)
    got = sorted((d.value for d in reading.dice), key=lambda v: v or 0)
    assert got == [3, 5, 6]
    for d in (a, b, c):
        assert any(_near(r.bbox, d.x, d.y) and r.value == d.value for r in reading.dice)


def test_small_far_dice_are_read():
    img = synth.tray(kind="felt", width=1280, height=960, seed=1)
    drawn = [synth.draw_die(img, 200 + 150 * v, 480, 30, v, angle=8 * v) for v in range(1, 7)]
    reading = read_table(img)
    assert sorted(d.value for d in reading.dice) == [d.value for d in drawn]


def test_zones_default_halves_and_polygons():
    img = synth.tray(kind="felt")
    synth.draw_die(img, 100, 240, 50, 4)
    synth.draw_die(img, 540, 240, 50, 2)
    reading = read_table(img)
    assert [(d.value, d.zone) for d in reading.dice] == [(4, "p0"), (2, "p1")]
    zones = Zones.from_json({"top": [[0, 0], [1, 0], [1, 0.5], [0, 0.5]],
                             "bottom": [[0, 0.5], [1, 0.5], [1, 1], [0, 1]]})
    img2 = synth.tray(kind="felt")
    synth.draw_die(img2, 320, 100, 50, 6)
    synth.draw_die(img2, 320, 380, 50, 1)
    assert {(d.value, d.zone) for d in read_table(img2, zones=zones).dice} == {(6, "top"), (1, "bottom")}
    assert Zones.from_json(zones.to_json()) == zones
    assert eval(repr(zones), {"Zones": Zones}) == zones


@pytest.mark.parametrize("bad", [{}, {"p0": [[0, 0], [1, 1]]}, {"p0": [[0, 0], [2, 0], [0, 1]]}, [1, 2],
                                 {"p0": "abc"}, {"": [[0, 0], [1, 0], [0, 1]]}])
def test_bad_zones_are_rejected_naming_the_problem(bad):
    with pytest.raises(InvalidVisionInput, match="zone"):
        Zones.from_json(bad)


def test_point_outside_every_zone_goes_to_the_nearest():
    zones = Zones.from_json({"a": [[0, 0], [0.3, 0], [0.3, 1], [0, 1]],
                             "b": [[0.7, 0], [1, 0], [1, 1], [0.7, 1]]})
    assert zones.zone_of(0.4, 0.5) == "a" and zones.zone_of(0.6, 0.5) == "b"


@pytest.mark.parametrize("bad, word", [
    ("not an image", "numpy array"), (np.zeros((10, 10, 3), np.float32), "uint8"),
    (np.zeros((10, 10), np.uint8), "shape"), (np.zeros((4, 4, 3), np.uint8), "too small"),
])
def test_bad_frames_are_rejected_naming_the_argument(bad, word):
    with pytest.raises(InvalidVisionInput, match=word) as err:
        read_table(bad)
    assert "frame" in str(err.value)


def test_reference_frame_must_match_and_helps_nothing_break():
    empty = synth.tray(kind="wood", seed=2)
    img = empty.copy()
    synth.draw_die(img, 320, 240, 50, 5)
    assert [d.value for d in read_table(img, reference=empty).dice] == [5]
    with pytest.raises(InvalidVisionInput, match="reference"):
        read_table(img, reference=empty[:100])


def test_input_is_not_modified_and_annotate_returns_a_copy():
    img = synth.tray(kind="felt")
    synth.draw_die(img, 320, 240, 50, 3)
    before = img.copy()
    reading = read_table(img)
    out = annotate(img, reading)
    assert np.array_equal(img, before)
    assert out.shape == img.shape and out.dtype == np.uint8
    assert not np.array_equal(out, img)
    # the box is drawn around the die
    x, y, w, _ = reading.dice[0].bbox
    assert not np.array_equal(out[y, x : x + w], img[y, x : x + w])


def test_large_frames_are_read_on_a_working_copy():
    img = synth.tray(kind="felt", width=4000, height=3000, seed=4)
    synth.draw_die(img, 1000, 1500, 300, 6, angle=20)
    synth.draw_die(img, 3000, 1500, 300, 2)
    reading = read_table(img)
    assert [(d.value, d.zone) for d in reading.dice] == [(6, "p0"), (2, "p1")]
    x, y, w, h = reading.dice[0].bbox
    assert abs(x + w / 2 - 1000) < 40 and abs(y + h / 2 - 1500) < 40


def test_non_pip_dice_are_unknown_and_go_to_vision_ii_when_installed(monkeypatch):
    """A die with no pips (a numeral die) reads sides=None, value=None, low confidence; when
    ``vision.poly.read_polyhedral`` exists, read_table hands it the die's crop."""
    import sys
    import types

    import vision.poly.numeral  # noqa: F401  (the real numeral reader, loaded before vision.poly is faked)

    img = synth.tray(kind="felt", seed=8)
    synth.draw_die(img, 200, 240, 60, 1, pip=(235, 235, 235))      # a blank face: no pips
    synth.draw_die(img, 450, 240, 60, 3)
    monkeypatch.setitem(sys.modules, "vision.poly", None)            # Vision II absent
    reading = read_table(img)
    assert [(d.sides, d.value) for d in reading.dice] == [(None, None), (6, 3)]
    assert reading.dice[0].confidence < 0.5

    crops = []

    def read_polyhedral(crop):
        crops.append(crop.shape)
        return types.SimpleNamespace(sides=8, sides_confidence=0.9, value=7, value_confidence=0.95)

    monkeypatch.setitem(sys.modules, "vision.poly", types.SimpleNamespace(read_polyhedral=read_polyhedral))
    reading = read_table(img)
    assert [(d.sides, d.value) for d in reading.dice] == [(8, 7), (6, 3)]
    assert len(crops) == 1 and crops[0][0] >= 50
    # the face is blank: the numeral reader reads no "7" there, so the reading is not sure whatever the
    # polyhedral reader says (a die's sure value needs both of Vision II's readers)
    assert reading.dice[0].confidence == UNEXPLAINED_CONFIDENCE


def test_a_die_cut_by_the_frame_border_is_not_read():
    """Half a 6 (one column of pips) inside the picture would read 3 or 2: nothing is reported instead."""
    img = synth.tray(kind="felt", seed=6)
    synth.draw_die(img, 640 - 8, 200, 56, 6, angle=90, shadow=False)     # a column of 3 pips inside
    synth.draw_die(img, 320, -6, 56, 6, shadow=False)                    # the top row outside
    synth.draw_die(img, 300, 300, 56, 5)
    reading = read_table(img)
    assert [(d.value, d.sides) for d in reading.dice] == [(5, 6)], reading.dice
    # the same 6s moved inside are read
    img = synth.tray(kind="felt", seed=6)
    synth.draw_die(img, 640 - 40, 200, 56, 6, angle=90, shadow=False)
    synth.draw_die(img, 320, 40, 56, 6, shadow=False)
    assert sorted(d.value for d in read_table(img).dice) == [6, 6]


def test_a_one_near_the_border_is_read():
    """A lone centre pip seen whole is a 1 even when the face's edge is cut: a larger layout would add
    pips in pairs around it, one of each pair inside the picture."""
    img = synth.tray(kind="felt", seed=7)
    synth.draw_die(img, 320, 480 - 14, 56, 1, shadow=False)
    assert [d.value for d in read_table(img).dice] == [1]


def test_a_wide_frame_is_read_at_full_size():
    """Two 640x480 views side by side (the demo photos): small pips stay measurable; each view's
    edges are borders (a die cut by the seam is not read)."""
    img = np.hstack([synth.tray(kind="wood", seed=8), synth.tray(kind="felt", seed=9)])
    for i, v in enumerate(range(1, 7)):
        synth.draw_die(img, 70 + 200 * i, 150 + 150 * (i % 2), 30, v, angle=11 * v)
    synth.draw_die(img, 640 + 6, 420, 40, 6, angle=90, shadow=False)      # cut by the seam
    reading = read_table(img)
    assert [d.value for d in reading.dice] == [1, 2, 3, 4, 5, 6], reading.dice
    assert [d.zone for d in reading.dice] == ["p0"] * 3 + ["p1"] * 3


def test_a_dot_of_a_printed_pattern_is_not_a_one_but_a_one_beside_a_die_is():
    import cv2

    img = synth.tray(kind="felt", seed=6)
    # a light cloth printed with dark dashes and one round dot among them: the dot is not alone on
    # a plain face, so it is no die's 1 (it was read as a 1 at 0.8)
    cv2.rectangle(img, (220, 160), (420, 320), (200, 200, 200), -1)
    cv2.circle(img, (320, 240), 3, (40, 40, 40), -1, cv2.LINE_AA)
    for sx in (-1, 1):
        cv2.ellipse(img, (320 + 9 * sx, 240 - 3 * sx), (2, 5), 0, 0, 360, (40, 40, 40), -1, cv2.LINE_AA)
    # a 1 touching a 6: the 6's pips lie beyond the 1's face
    one = synth.draw_die(img, 150, 240, 44, 1, shadow=False)
    six = synth.draw_die(img, 195, 240, 44, 6, shadow=False)
    reading = read_table(img)
    assert not any(_near(d.bbox, 320, 240) for d in reading.dice), reading.dice
    for d in (one, six):
        assert any(_near(r.bbox, d.x, d.y) and r.value == d.value for r in reading.dice), reading.dice


def test_a_dot_of_small_print_far_smaller_than_the_dice_pips_is_not_a_one():
    import cv2

    img = synth.tray(kind="wood", seed=2)
    four = synth.draw_die(img, 200, 260, 80, 4, shadow=False)
    one = synth.draw_die(img, 460, 260, 80, 1, shadow=False)
    # a white label with one small printed dot (the dice pips have a radius of 7 px here, the dot under 3)
    cv2.rectangle(img, (300, 80), (380, 120), (235, 235, 235), -1)
    cv2.circle(img, (340, 100), 2, (30, 30, 30), -1, cv2.LINE_AA)
    reading = read_table(img)
    assert not any(_near(d.bbox, 340, 100) for d in reading.dice), reading.dice
    for d in (four, one):
        assert any(_near(r.bbox, d.x, d.y) and r.value == d.value for r in reading.dice), reading.dice
