"""Decoys in the face reader's renders (tools/v3_data.render(decoys=True)): die-sized round things that are
no die (a tray's well, a coin, a hole, a printed ring), read as "none". Training only; these tests hold the
promise the trainer relies on: decoys change nothing else a seed draws, and never lie on a die."""

import math

import cv2
import numpy as np

from tests.vision3.training_tools import v3_data

SEEDS = range(300, 340)


def test_decoys_leave_a_seeds_dice_as_they_were():
    for seed in SEEDS:
        plain, decoyed = v3_data.render(seed), v3_data.render(seed, decoys=True)
        assert decoyed.objects == plain.objects, seed
        if not decoyed.decoys:
            assert np.array_equal(decoyed.image, plain.image), seed
        else:
            assert not np.array_equal(decoyed.image, plain.image), seed


def test_decoys_lie_in_the_frame_and_off_every_die():
    counts = []
    for seed in SEEDS:
        s = v3_data.render(seed, decoys=True, patterned=True)
        h, w = s.image.shape[:2]
        counts.append(len(s.decoys))
        for cx, cy, size in s.decoys:
            assert 0 < cx < w and 0 < cy < h
            for ox, oy, ow, _oh, _label in s.objects:
                # boxes are 1.2 times the drawn size; drawn objects keep 0.75 of their summed sizes apart
                assert math.hypot(cx - ox, cy - oy) >= 0.75 * (size + ow) / 1.2 - 1e-6, seed
    assert max(counts) <= 6
    assert 0.25 < np.mean([c > 0 for c in counts]) < 0.75   # half the trays


def test_a_decoy_is_drawn_where_it_is_recorded():
    """The decoy's place differs from the same seed's plain tray (beyond the JPEG's few levels): the label
    points at what was drawn."""
    found = 0
    for seed in SEEDS:
        plain, decoyed = v3_data.render(seed), v3_data.render(seed, decoys=True)
        diff = np.abs(plain.image.astype(int) - decoyed.image).sum(2)
        for cx, cy, size in decoyed.decoys:
            r = int(size * 0.6)   # the decoy's radius is 0.4-0.6 of its size; a ring is only its outline
            y, x = int(cy), int(cx)
            inside = diff[max(0, y - r): y + r + 1, max(0, x - r): x + r + 1]
            assert np.percentile(inside, 99) > 15, (seed, cx, cy)   # away from decoys: 4 at most
            found += 1
    assert found > 20


def test_printed_decoys_leave_a_seeds_dice_and_round_decoys_as_they_were():
    """Keys, labels and print (render(printed=True), twenty-fourth session) come from a generator of their
    own: the dice and the round decoys a seed draws stay; the printed ones are added to ``decoys``."""
    added = 0
    for seed in SEEDS:
        decoyed, printed = v3_data.render(seed, decoys=True), v3_data.render(seed, decoys=True, printed=True)
        assert printed.objects == decoyed.objects, seed
        assert printed.decoys[: len(decoyed.decoys)] == decoyed.decoys, seed
        extra = printed.decoys[len(decoyed.decoys):]
        added += bool(extra)
        h, w = printed.image.shape[:2]
        for cx, cy, size in extra:
            assert 0 < cx < w and 0 < cy < h
            for ox, oy, ow, _oh, _label in printed.objects:
                assert math.hypot(cx - ox, cy - oy) >= 0.75 * (size + ow) / 1.2 - 1e-6, seed
        assert np.array_equal(printed.image, decoyed.image) == (not extra), seed
    assert 0.25 < added / len(SEEDS) < 0.75   # half the trays


def test_a_printed_decoy_never_shows_one_digit_alone():
    """A digit alone on a square is a numeral die, which the face reader must keep reading as one: every
    legend and string a printed decoy writes has a letter or two characters or more."""
    rng = np.random.default_rng(0)
    strings = [v3_data._printed_text(rng) for _ in range(2000)] + list(v3_data.KEY_LEGENDS)
    assert all(len(t) >= 2 or not t.isdigit() for t in strings)
    assert all(len(t) >= 2 for t in strings[:2000])


def test_dotted_cloths_keep_a_seeds_dice_and_are_dots_at_pip_scale():
    """render(dotted=True) (twenty-seventh session) lays half the trays as polka-dot cloths from a generator
    of its own: the dice a seed draws stay; the cloth's dots are pip-sized to a die apart, and they differ
    from the cloth in light."""
    dotted = 0
    for seed in range(24):
        plain, cloth = v3_data.render(seed, decoys=True), v3_data.render(seed, decoys=True, dotted=True)
        assert cloth.objects == plain.objects, seed
        assert cloth.decoys == plain.decoys, seed
        dotted += not np.array_equal(cloth.image, plain.image)
    assert 6 <= dotted <= 18          # about half
    rng = np.random.default_rng(5)
    for die in (20.0, 60.0):
        img = v3_data._dotted_cloth(rng, 240, 320, die)
        grey = cv2.cvtColor(np.clip(img, 0, 255).astype(np.uint8), cv2.COLOR_BGR2GRAY)
        lo, hi = np.percentile(grey, [5, 95])
        assert hi - lo >= 40          # dots and cloth apart in light
        light = (grey > (lo + hi) / 2).astype(np.uint8)
        minority = light if light.mean() < 0.5 else 1 - light
        _, _, stats, _ = cv2.connectedComponentsWithStats(minority)
        inner = [s for s in stats[1:] if s[0] > 0 and s[1] > 0 and s[0] + s[2] < 320 and s[1] + s[3] < 240]
        assert len(inner) >= 4
        sides = np.median([max(s[2], s[3]) for s in inner])
        assert 0.05 * die <= sides <= 1.0 * die   # from a pip to most of a die across
