"""Touching dice in the finder's renders (tools/v3_data.render(touching=True), sixtieth session): on half
the trays the dice lie against each other, as aws's dice do, where the finders trained without it drew one
box round two or three of them. Training only; these tests hold what the trainer relies on."""

import itertools
import math

import numpy as np

from tests.vision3.training_tools import v3_data

SEEDS = range(600, 660)


def _packed(seed: int) -> bool:
    return bool(np.random.default_rng([seed, 6]).random() < 0.5)


def _gaps(sample) -> list[float]:
    """Each pair of dice's centre distance over their mean drawn size (boxes are 1.2 times the size)."""
    dice = [(x, y, w / 1.2) for x, y, w, _h, _label in sample.objects]
    return [math.hypot(a[0] - b[0], a[1] - b[1]) / ((a[2] + b[2]) / 2)
            for a, b in itertools.combinations(dice, 2)]


def test_half_the_trays_are_packed_and_the_rest_drawn_as_before():
    packed = [_packed(seed) for seed in SEEDS]
    assert 0.3 < np.mean(packed) < 0.7
    for seed, p in zip(SEEDS, packed, strict=True):
        if not p:
            plain, touching = v3_data.render(seed), v3_data.render(seed, touching=True)
            assert touching.objects == plain.objects, seed
            assert np.array_equal(touching.image, plain.image), seed


def test_packed_dice_touch_and_never_overlap_past_a_die_apart():
    touching = spread = trays = 0
    for seed in SEEDS:
        s = v3_data.render(seed, touching=True)
        h, w = s.image.shape[:2]
        for x, y, _w, _h, _label in s.objects:
            assert 0 < x < w and 0 < y < h, seed
        gaps = _gaps(s)
        if not gaps:
            continue
        # sizes vary 0.85-1.15 around the tray's die: a die apart of the summed sizes' half at least
        assert min(gaps) >= 2 * v3_data.PACKED_APART - 1e-6 if _packed(seed) else min(gaps) >= 1.5 - 1e-6
        if _packed(seed):
            trays += 1
            touching += min(gaps) < 1.3
        else:
            spread += min(gaps) < 1.3
    assert spread == 0           # without packing, no two dice come within half a die
    assert trays >= 15 and touching >= 0.8 * trays   # most packed trays of two dice hold a touching pair
