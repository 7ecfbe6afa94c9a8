"""Side faces in the face reader's renders (tools/v3_data.render(sides=True)): a tilted camera sees a die's
sides, with pips of other values than the top's; the label stays the top. Training only; these tests hold
the promise the trainer relies on."""


import math

import cv2
import numpy as np

from tests.vision3.training_tools import v3_data

SEEDS = range(500, 530)


def test_sides_keep_each_die_what_it_was_and_box_it_whole():
    grown = 0
    for seed in SEEDS:
        plain, sided = v3_data.render(seed), v3_data.render(seed, sides=True)
        assert [o[4] for o in sided.objects] == [o[4] for o in plain.objects], seed
        for (px, py, pw, ph, _), (sx, sy, sw, sh, _) in zip(plain.objects, sided.objects, strict=True):
            assert sw >= pw and sh >= ph
            assert abs(sx - px) <= (sw - pw) / 2 + 1e-6 and abs(sy - py) <= (sh - ph) / 2 + 1e-6
            grown += sw > pw or sh > ph
    assert grown > 50


def test_sides_change_nothing_away_from_the_dice():
    for seed in SEEDS:
        plain, sided = v3_data.render(seed), v3_data.render(seed, sides=True)
        far = np.ones(plain.image.shape[:2], bool)
        for x, y, w, h, _ in sided.objects:
            far[max(0, int(y - h)): int(y + h) + 1, max(0, int(x - w)): int(x + w) + 1] = False
        diff = np.abs(plain.image.astype(int) - sided.image).sum(2)[far]
        assert diff.size == 0 or np.percentile(diff, 99) < 15, seed


def test_a_side_face_carries_the_pips_of_another_value_and_the_top_stays():
    img = np.full((200, 200, 3), 90, np.uint8)
    top = np.array([[60.0, 60.0], [140.0, 60.0], [140.0, 140.0], [60.0, 140.0]])
    cv2.fillConvexPoly(img, top.astype(np.int32), (230, 230, 230))
    before = img.copy()
    v3_data._side_faces(img, np.random.default_rng(1), top, np.array([0.0, 40.0]), np.array([230.0] * 3),
                        np.array([10.0] * 3), value=1)
    assert np.array_equal(img[62:138, 62:138], before[62:138, 62:138]), "the top face is not painted over"
    side = img[142:178, 62:138]
    assert (side != before[142:178, 62:138]).any()
    ink = (side.max(2) < 60).astype(np.uint8)
    pips, _ = cv2.findContours(ink, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    assert 2 <= len(pips) <= 5, len(pips)   # not 1 (the top's value) nor 6 (its opposite)
    assert (img[:58] == 90).all() and (img[:, :58] == 90).all(), "the far sides are not seen"


def test_each_side_face_boxed_alone_lies_off_its_die_top_inside_its_whole_box():
    found = 0
    for seed in SEEDS:
        plain, sided = v3_data.render(seed), v3_data.render(seed, sides=True)
        assert plain.parts == []
        for cx, cy, size, own in sided.parts:
            found += 1
            x, y, w, h, label = sided.objects[own]
            assert label != v3_data.TOKEN
            assert abs(cx - x) <= w / 2 and abs(cy - y) <= h / 2, (seed, own)
            tx, ty, tw, _, _ = plain.objects[own]   # the top face, boxed 1.2 times its side
            assert math.hypot(cx - tx, cy - ty) >= 0.45 * tw / 1.2, (seed, own)
            assert 0.3 * tw / 1.2 <= size <= 2.5 * tw / 1.2
    assert found > 50


def test_a_side_face_at_another_die_is_no_lone_part():
    die = (100.0, 100.0, 60.0, 60.0, 3)
    other = (170.0, 100.0, 60.0, 60.0, 5)
    s = v3_data.Sample("render", "t", np.zeros((200, 300, 3), np.uint8), [die, other],
                       parts=[(100.0, 140.0, 50.0, 0), (145.0, 100.0, 50.0, 0)])
    assert v3_data.lone_parts(s) == [(100.0, 140.0, 50.0)]   # the second's centre is 25 px from the other
    s.objects = [die]
    assert len(v3_data.lone_parts(s)) == 2


def test_off_other_dice_measures_each_die_but_the_skipped_by_its_own_box():
    small = (100.0, 100.0, 20.0, 20.0, 1)      # 0.6 of its box: 12 px
    large = (200.0, 100.0, 80.0, 40.0, 2)      # 0.6 of its longer side: 48 px
    s = v3_data.Sample("render", "t", np.zeros((200, 300, 3), np.uint8), [small, large])
    assert not v3_data.off_other_dice(s, 111.0, 100.0)
    assert v3_data.off_other_dice(s, 113.0, 100.0)
    assert not v3_data.off_other_dice(s, 153.0, 100.0)        # 47 px from the large die
    assert v3_data.off_other_dice(s, 151.0, 100.0)            # 49 px
    assert not v3_data.off_other_dice(s, 170.0, 100.0)
    assert v3_data.off_other_dice(s, 170.0, 100.0, skip=1)    # the large die is its own
    assert not v3_data.off_other_dice(s, 100.0, 100.0, skip=1)
