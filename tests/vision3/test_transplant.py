"""Pip transplants (tools/v3_data.pip_transplant): a real numeral d6 of the Lurig set, its numeral erased and
pips painted, taught to the face reader as a pip d6 so that a marbled or translucent body is no sign of a
numeral. Training only; these tests hold what the trainer relies on: the painted pips are a face the pip
counter reads as the label says, the numeral is gone, and a photo with no box gives nothing."""


import cv2
import numpy as np
import pytest

from tests.vision3.training_tools import v3_data
from vision.poly.numeral import read_numeral

DIGITS = {str(v) for v in range(1, 7)}


@pytest.fixture(scope="module")
def lurig_d6(photos):
    samples = [s for s in v3_data.load_source("lurig") if "/d6/" in s.name]
    return samples[::8]


def _transplants(samples):
    rng = np.random.default_rng(7)
    return [(s, t) for s in samples if (t := v3_data.pip_transplant(s, rng)) is not None]


def test_a_transplant_is_a_pip_d6_of_the_die_s_size(lurig_d6):
    pairs = _transplants(lurig_d6)
    assert len(pairs) >= 0.3 * len(lurig_d6)          # photos whose numeral could not be erased give none
    assert {t.objects[0][4] for _, t in pairs} <= set(range(1, 7))
    for _, t in pairs:
        w, h = t.objects[0][2:4]
        assert t.source == "lurig-pips" and t.crop_only
        assert abs(min(w, h) - v3_data.TRANSPLANT_SIDE) < 1
        assert t.image.shape[0] >= 1.7 * max(w, h)       # the whole die and a margin of tray


def test_as_many_pips_are_painted_as_the_value_says(lurig_d6):
    rng = np.random.default_rng(3)
    checked = 0
    for s in lurig_d6[:12]:
        got = v3_data.erase_numeral(v3_data.die_window(s)[0])
        if got is None:
            continue
        erased, _, at = got
        for value in range(1, 7):
            ink = np.array([255.0, 255.0, 0.0]) if erased.mean() < 128 else np.array([0.0, 0.0, 255.0])
            painted = v3_data.paint_pips(erased, rng, ink, at, value, 60.0)
            changed = (np.abs(painted.astype(int) - erased).max(axis=2) > 40).astype(np.uint8)
            assert cv2.connectedComponents(changed)[0] - 1 == value, (s.name, value)
        checked += 1
    assert checked >= 4


def test_the_numeral_is_erased(lurig_d6):
    clear = gone = 0
    for s, t in _transplants(lurig_d6):
        cx, cy, w, h, _ = s.objects[0]
        half = int(0.6 * max(w, h))
        x0, y0 = max(0, int(cx) - half), max(0, int(cy) - half)
        was = read_numeral(s.image[y0:int(cy) + half, x0:int(cx) + half])
        if was.text in DIGITS and was.score >= 0.8:        # a numeral Vision II reads clearly
            clear += 1
            now = read_numeral(t.image)
            gone += not (now.text == was.text and now.score >= 0.8)
    assert clear >= 5 and gone >= 0.8 * clear, (gone, clear)


def test_weights_choose_the_painted_values(lurig_d6):
    rng = np.random.default_rng(11)
    lone = [t.objects[0][4] for s in lurig_d6[:30]
            if (t := v3_data.pip_transplant(s, rng, (1, 0, 1, 0, 0, 0))) is not None]
    assert len(lone) >= 5 and set(lone) <= {1, 3} and len(set(lone)) == 2, lone


def test_faint_transplants_paint_pips_near_the_body(lurig_d6):
    """``pip_transplant(faint=True)``: the pips differ from the body under them by ``FAINT_CONTRAST`` (the
    red pips of nell-byler's dark marbled dice); the plain ones by 90 or more. The painted pixels at the pip
    centres are compared with the body around them."""
    def spread(faint: bool) -> list[float]:
        rng = np.random.default_rng(5)
        out = []
        for s in lurig_d6[:40]:
            t = v3_data.pip_transplant(s, rng, faint=faint)
            if t is None:
                continue
            erased = v3_data.erase_numeral(v3_data.die_window(s)[0])
            assert erased is not None          # the transplant was made from it
            diff = np.abs(t.image.astype(float) - erased[0]).sum(axis=2)
            out.append(float(np.percentile(diff, 99.7)))
        return out

    faint, plain = spread(True), spread(False)
    assert len(faint) >= 5 and len(plain) >= 5
    hi = v3_data.FAINT_CONTRAST[1]
    assert np.median(faint) < 0.8 * np.median(plain), (np.median(faint), np.median(plain))
    assert max(faint) <= 2 * hi, faint


def test_swirl_veins_stay_inside_the_die():
    """``draw_swirls``: light veins across a die (nell-byler's dark marbled dice), never on the tray around
    it, and light: the pixels it changes are brighter than the dark body they cross."""
    rng = np.random.default_rng(3)
    body = np.full((200, 200, 3), 40, np.uint8)
    box = (100.0, 100.0, 96.0, 96.0)
    changed_any = 0
    for _ in range(30):
        out = v3_data.draw_swirls(body, rng, box)
        diff = np.abs(out.astype(int) - body).sum(axis=2)
        ys, xs = np.nonzero(diff)
        if len(xs):
            changed_any += 1
            assert xs.min() >= 100 - 0.5 * 96 and xs.max() <= 100 + 0.5 * 96   # inner 90%, softened
            assert ys.min() >= 100 - 0.5 * 96 and ys.max() <= 100 + 0.5 * 96
            assert out[ys, xs].astype(int).sum(axis=1).min() >= body[0, 0].astype(int).sum()
    assert changed_any >= 25
    assert np.array_equal(body, np.full((200, 200, 3), 40, np.uint8)), "the image given is not drawn on"


def _painted(value, seed, casino, logo=False):
    tray = np.full((200, 200, 3), (40, 40, 160), np.uint8)
    out = v3_data.paint_pips(tray, np.random.default_rng(seed), np.array([240.0, 240.0, 240.0]), (100, 100),
                             value, 60.0, casino=casino, logo=logo)
    return (np.abs(out.astype(int) - tray).max(axis=2) > 100).astype(np.uint8)   # half the ink's contrast


def test_a_casino_one_is_a_big_pip_ringed_by_letters():
    """``paint_pips(casino=True)`` on a "1": the pip at the face's centre, bigger than a plain "1"'s, and
    letters in a ring around it (apart from the pip, all within the face)."""
    for seed in range(6):
        plain, casino = _painted(1, seed, False), _painted(1, seed, True)
        _, lab, stats, _ = cv2.connectedComponentsWithStats(casino)
        pip = lab[100, 100]
        assert pip > 0 and stats[pip, cv2.CC_STAT_AREA] > 1.5 * plain.sum()
        letters = (lab > 0) & (lab != pip)
        assert letters.sum() > 0.3 * stats[pip, cv2.CC_STAT_AREA], seed
        ys, xs = np.nonzero(letters)
        d = np.hypot(xs - 100, ys - 100)
        assert d.min() > np.sqrt(stats[pip, cv2.CC_STAT_AREA] / np.pi) and d.max() < 32, seed
        angles = np.arctan2(ys - 100, xs - 100)
        assert np.ptp(angles) > np.pi, seed           # around the pip, not to one side


def test_casino_print_leaves_the_pips_and_fills_no_face_without_room():
    """On other faces the print goes only where no pip is near (a 2, 3 or 4); a 5 or a 6 is painted as
    without it, draw for draw."""
    for value in (5, 6):
        for seed in range(4):
            assert np.array_equal(_painted(value, seed, True), _painted(value, seed, False))
    printed = 0
    for value in (2, 3, 4):
        for seed in range(8):
            plain, casino = _painted(value, seed, False), _painted(value, seed, True)
            assert np.all(casino >= plain)             # every pip still there
            extra = casino.astype(bool) & ~cv2.dilate(plain, np.ones((3, 3), np.uint8)).astype(bool)
            printed += extra.any()
    assert 6 <= printed <= 18                          # about half of the 24 faces


def test_a_logo_marks_the_middle_of_a_two_four_or_six_and_is_no_pip():
    """``paint_pips(logo=True)``: a 1, 3 or 5 is painted as without it, draw for draw; on a 2, 4 or 6 every
    pip is still there and a mark lies in the face's middle, clear of the pips; one 10 px wide or more (every
    mark on a 2 or a 4 here) is drawn in strokes: less ink than a filled disc as wide."""
    for value in (1, 3, 5):
        for seed in range(3):
            assert np.array_equal(_painted(value, seed, False, logo=True), _painted(value, seed, False))
    marked = 0
    for value in (2, 4, 6):
        for seed in range(10):
            plain, logo = _painted(value, seed, False), _painted(value, seed, False, logo=True)
            assert np.all(logo >= plain), (value, seed)                  # every pip still there
            extra = (logo.astype(bool) & ~cv2.dilate(plain, np.ones((3, 3), np.uint8)).astype(bool))
            if not extra.any():
                continue
            marked += 1
            ys, xs = np.nonzero(extra)
            assert np.hypot(xs.mean() - 100, ys.mean() - 100) < 4, (value, seed)   # in the middle
            width = max(np.ptp(xs), np.ptp(ys)) + 1
            assert width >= 10 or value == 6, (value, seed)
            if width >= 10:
                assert extra.sum() < 0.9 * np.pi * (width / 2) ** 2, (value, seed)   # strokes, not a disc
    assert marked >= 24                                   # nearly every even face carries one
