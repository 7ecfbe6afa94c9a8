"""The new pieces on images drawn at known places: the outline rules and the numeral reader."""

import cv2
import numpy as np
import pytest

from vision.poly import CLASSES, fuse, reading_from_probabilities
from vision.poly.numeral import (
    GLYPHS,
    NumeralReading,
    die_mask,
    find_numeral,
    read_numeral,
    read_numeral_and_die,
    spans_crop,
)
from vision.poly.silhouette import RULED_OUT, Silhouette, side_weights, silhouette
from vision.poly.synth import _glyph


def _canvas():
    return np.zeros((200, 240), np.uint8)


def test_a_long_rounded_rectangle_is_a_barrel_d4():
    m = _canvas()
    cv2.rectangle(m, (40, 70), (190, 150), 255, -1)
    for x in (40, 190):                     # round the ends
        m[:, x - 20:x + 21] = 0
        cv2.circle(m, (x, 110), 40, 255, -1)
    m[:, :20] = 0
    m[:, 211:] = 0
    sil = silhouette(m)
    assert sil.shape == "barrel", sil
    w = side_weights(sil)
    assert w[4] == 1.0 and w[10] == RULED_OUT and w[20] == RULED_OUT


def test_a_hexagon_with_sharp_ends_is_a_d10():
    m = _canvas()
    pts = np.array([[30, 100], [80, 60], [160, 60], [210, 100], [160, 140], [80, 140]], np.int32)
    cv2.fillPoly(m, [pts], 255)
    sil = silhouette(m)
    assert sil.shape == "kite", sil
    w = side_weights(sil)
    assert w[10] == 1.0 and w[4] == RULED_OUT and w[6] == RULED_OUT


@pytest.mark.parametrize("draw", [
    lambda m: cv2.rectangle(m, (70, 50), (170, 150), 255, -1),                       # d6
    lambda m: cv2.circle(m, (120, 100), 70, 255, -1),                                # d12, d20
    lambda m: cv2.fillPoly(m, [np.array([[120, 30], [200, 170], [40, 170]], np.int32)], 255),  # d4
])
def test_other_outlines_rule_nothing_out(draw):
    m = _canvas()
    draw(m)
    assert silhouette(m).shape == "other"
    assert set(side_weights(silhouette(m)).values()) == {1.0}


def test_an_empty_mask_is_an_empty_silhouette():
    assert silhouette(_canvas()) == Silhouette(1.0, 0.0, 0.0)
    with pytest.raises(ValueError, match="mask"):
        silhouette(np.zeros((3, 4, 3), np.uint8))


def _die_with(text, angle, mark="", *, ink=(245, 245, 245), body=(40, 40, 190)):
    """A die-coloured disc on a dark tray with ``text`` at its centre, turned ``angle`` degrees CCW."""
    img = np.full((160, 160, 3), 15, np.uint8)
    cv2.circle(img, (80, 80), 70, body, -1)
    g = _glyph(text, f"hershey:{cv2.FONT_HERSHEY_SIMPLEX}", mark, 2)      # float (64, 64)
    m = cv2.getRotationMatrix2D((32, 32), angle, 1.0)
    m[:, 2] += 80 - 32
    alpha = cv2.warpAffine(g, m, (160, 160))[..., None]
    out = img * (1 - alpha) + np.array(ink, np.float32) * alpha
    return np.clip(out, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("text", ["4", "7", "12", "20", "50"])
@pytest.mark.parametrize("angle", [0, 40, 135, 250])
def test_a_numeral_is_read_at_any_spin(text, angle):
    got = read_numeral(_die_with(text, angle))
    assert got.text == text, got
    assert got.digits == len(text)


def test_dark_ink_on_a_light_die_is_read_too():
    got = read_numeral(_die_with("3", 70, ink=(20, 20, 20), body=(60, 230, 230)))
    assert got.text == "3", got


@pytest.mark.parametrize("mark", ["bar", "dot"])
def test_six_and_nine_are_told_apart_by_the_mark(mark):
    # upside down, a 6 with its mark looks like a 9 with the mark above it: the mark says which it is
    assert read_numeral(_die_with("6", 180, mark)).text == "6"
    assert read_numeral(_die_with("9", 180, mark)).text == "9"
    assert read_numeral(_die_with("6", 0, mark)).text == "6"
    assert read_numeral(_die_with("9", 0, mark)).text == "9"


def test_the_crop_is_not_modified_and_a_plain_die_has_no_numeral():
    crop = _die_with("5", 20)
    before = crop.copy()
    read_numeral(crop)
    assert np.array_equal(crop, before)
    plain = np.full((120, 120, 3), 15, np.uint8)
    cv2.circle(plain, (60, 60), 50, (40, 40, 190), -1)
    got = read_numeral(plain)
    assert got.text == "" and got.digits == 0 and got.score == 0
    assert die_mask(plain)[60, 60] == 255 and die_mask(plain)[2, 2] == 0


def test_the_numeral_and_the_outline_vote_with_the_network():
    # the network leans to a d10 "3", the outline says barrel, the numeral says "3": a d4 3
    p = np.full(len(CLASSES), 1e-4)
    p[CLASSES.index(("d10", 3))] = 0.7
    p[CLASSES.index(("d4", 3))] = 0.2
    scores = {g: 0.0 for g in GLYPHS} | {"3": 1.0, "8": 0.3}
    numeral = NumeralReading("3", 1.0, 0.0, scores, 1)
    weights = {4: 1.0, 6: RULED_OUT, 8: RULED_OUT, 10: RULED_OUT, 12: RULED_OUT, 20: RULED_OUT}
    r = reading_from_probabilities(fuse(p / p.sum(), weights, numeral))
    assert (r.sides, r.value) == (4, 3)
    # a numeral the reader could not find leaves the network's reading
    none = NumeralReading("", 0.0, 0.0, {g: 0.0 for g in GLYPHS}, 0)
    r = reading_from_probabilities(fuse(p / p.sum(), {s: 1.0 for s in (4, 6, 8, 10, 12, 20)}, none))
    assert (r.sides, r.value) == (10, 3)


@pytest.mark.parametrize("angle", [0, 90, 200])
def test_a_thin_one_set_wide_of_its_zero_is_one_numeral(angle):
    # percentile dice set "1" and "0" apart by a third of their height; the "1" is a bare stem
    img = np.full((160, 160, 3), 15, np.uint8)
    cv2.circle(img, (80, 80), 72, (200, 230, 240), -1)
    ink = np.zeros((160, 160), np.uint8)
    cv2.line(ink, (60, 66), (60, 94), 255, 3)                   # the 1: 28 px tall, 3 px wide
    cv2.ellipse(ink, ((87, 80), (18, 28), 0.0), 255, 3)        # the 0, 13 px to its right
    m = cv2.getRotationMatrix2D((80, 80), angle, 1.0)
    ink = cv2.warpAffine(ink, m, (160, 160)) > 127
    img[ink] = (30, 30, 30)
    glyph, digits, _ = find_numeral(img)
    assert digits == 2
    assert np.count_nonzero(glyph) >= 0.9 * np.count_nonzero(ink)


def test_a_die_the_colour_of_its_tray_is_read_inside_the_crop():
    # no outline to find: the shape rules nothing out, and the numeral is sought in the crop itself
    crop = np.full((120, 120, 3), (40, 40, 190), np.uint8)
    g = _glyph("7", f"hershey:{cv2.FONT_HERSHEY_SIMPLEX}", "", 2)
    m = cv2.getRotationMatrix2D((32, 32), 30, 1.0)
    m[:, 2] += 60 - 32
    alpha = cv2.warpAffine(g, m, (120, 120))[..., None]
    crop = np.clip(crop * (1 - alpha) + 245 * alpha, 0, 255).astype(np.uint8)
    got, die = read_numeral_and_die(crop)
    assert got.text == "7", got
    assert not die.any() and not spans_crop(die)
    assert set(side_weights(silhouette(die)).values()) == {1.0}


def test_the_numeral_picks_the_value_but_not_the_type():
    # the network is sure of a d8 and unsure of its value; the numeral reads "12" better than "3"
    p = np.full(len(CLASSES), 1e-4)
    p[CLASSES.index(("d8", 3))] = 0.45
    p[CLASSES.index(("d8", 8))] = 0.40
    p[CLASSES.index(("d12", 12))] = 0.05
    scores = {g: 0.0 for g in GLYPHS} | {"12": 1.0, "8": 0.99, "3": 0.2}
    numeral = NumeralReading("12", 1.0, 0.0, scores, 2)
    ones = {s: 1.0 for s in (4, 6, 8, 10, 12, 20)}
    q = fuse(p / p.sum(), ones, numeral)
    r = reading_from_probabilities(q)
    assert (r.sides, r.value) == (8, 8)
    assert r.sides_confidence == pytest.approx(reading_from_probabilities(p / p.sum()).sides_confidence)
    # the weight is the die type's: a high floor leaves the network almost alone
    flat = {s: (1.0, 10.0) for s in ones}
    assert reading_from_probabilities(fuse(p / p.sum(), ones, numeral, numeral_weight=flat)).value == 3


@pytest.mark.parametrize(("draw", "cube_like"), [
    (lambda m: cv2.rectangle(m, (70, 50), (170, 150), 255, -1), True),          # a d6 from above
    (lambda m: cv2.fillPoly(m, [np.array([[120, 30], [200, 170], [40, 170]], np.int32)], 255),
     False),                                                                   # a d4 from above
    (lambda m: cv2.rectangle(m, (20, 70), (220, 150), 255, -1), False),         # long: a barrel
])
def test_only_a_short_full_outline_is_a_cubes(draw, cube_like):
    m = _canvas()
    draw(m)
    assert silhouette(m).cube_like is cube_like
    assert not silhouette(_canvas()).cube_like   # no mask: no say


def _speckled(die: np.ndarray, seed: int, count: int = 90) -> np.ndarray:
    """``die`` with ``count`` dark specks of 2-3 px scattered over its body (a speckled die's)."""
    rng = np.random.default_rng(seed)
    out = die.copy()
    for _ in range(count):
        r, a = 62 * np.sqrt(rng.uniform()), rng.uniform(0, 2 * np.pi)
        centre = (int(80 + r * np.cos(a)), int(80 + r * np.sin(a)))
        cv2.circle(out, centre, int(rng.integers(1, 3)), (25, 30, 30), -1)
    return out


@pytest.mark.parametrize("seed", range(4))
def test_a_speckled_bodys_specks_are_no_mark_of_the_numeral(seed):
    """Specks beside a numeral are not taken as its 6/9 mark (``MOST_MARKS``): the glyph cut out is the
    digit's ink, and the numeral is read (a teal speckled Lurig d10's "2" was read "12", "13" and "00")."""
    die = _die_with("2", 30, ink=(200, 235, 235), body=(170, 170, 90))
    clean, _, _ = find_numeral(die)
    glyph, digits, _ = find_numeral(_speckled(die, seed))
    assert digits == 1
    # a speck touching the digit's strokes is part of its ink (at most a speck's width past its box); none
    # apart from it is taken
    ys, xs = np.nonzero(clean)
    outside = glyph.copy()
    outside[max(0, ys.min() - 5):ys.max() + 6, max(0, xs.min() - 5):xs.max() + 6] = 0
    assert np.count_nonzero(outside) == 0
    assert read_numeral(_speckled(die, seed)).text == "2"


@pytest.mark.parametrize("angle", [0, 35, 120, 250])
def test_the_edge_between_two_faces_is_no_digit_of_the_numeral(angle):
    """A thin line across the top face (the edge between two faces, or the glare along it) can pass nearer
    the die's centre than the numeral, and is no digit (``LINE_THIN``): a Lurig d20's "15" a little off the
    die's centre was read "1" off the glare along its edge. The numeral is read."""
    img = np.full((160, 160, 3), 15, np.uint8)
    cv2.circle(img, (80, 80), 70, (40, 40, 190), -1)
    g = _glyph("15", f"hershey:{cv2.FONT_HERSHEY_SIMPLEX}", "", 2)
    m = np.float32([[1, 0, 80 - 32], [0, 1, 102 - 32]])             # the numeral 22 px below the centre
    ink = cv2.warpAffine(g, m, (160, 160))
    cv2.line(ink, (45, 76), (115, 76), 1.0, 2)        # the edge, 70 px long, 4 px off the centre
    turn = cv2.getRotationMatrix2D((80, 80), angle, 1.0)
    alpha = cv2.warpAffine(ink, turn, (160, 160))[..., None]
    die = np.clip(img * (1 - alpha) + 245 * alpha, 0, 255).astype(np.uint8)
    got = read_numeral(die)
    assert got.text == "15", got


@pytest.mark.parametrize("angle", [0, 35, 120])
def test_a_big_one_is_still_a_digit(angle):
    # a d6's "1" stands 0.3-0.45 of the die tall, but its stroke is as heavy as its height asks
    img = np.full((160, 160, 3), 15, np.uint8)
    cv2.circle(img, (80, 80), 70, (40, 40, 190), -1)
    ink = np.zeros((160, 160), np.uint8)
    cv2.line(ink, (80, 55), (80, 105), 255, 7)                 # 50 px tall (0.4 of the die), 7 px wide
    cv2.line(ink, (80, 55), (70, 63), 255, 6)                  # its flag
    m = cv2.getRotationMatrix2D((80, 80), angle, 1.0)
    img[cv2.warpAffine(ink, m, (160, 160)) > 127] = (245, 245, 245)
    glyph, digits, _ = find_numeral(img)
    assert digits == 1 and np.count_nonzero(glyph) > 200
