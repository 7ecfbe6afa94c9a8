"""Tray rims with a screw hole in the finder's renders (tools/v3_data.render(rims=True), sixty-fifth session):
a light bar about a die wide with one dark round hole near its end is a "1" without its die, and the finders
that saw dice filling their window read such a hole in nell-byler's tray rim as one. Training only; these
tests hold what the trainer relies on."""

import math

import numpy as np

from tests.vision3.training_tools import v3_data

SEEDS = range(700, 790)


def _rimmed(seed: int) -> bool:
    return bool(np.random.default_rng([seed, 8]).random() < 1 / 3)


def test_a_third_of_the_trays_get_rims_and_the_rest_are_drawn_as_before():
    rimmed = [_rimmed(seed) for seed in SEEDS]
    assert 0.2 < np.mean(rimmed) < 0.45
    for seed, r in zip(SEEDS, rimmed, strict=True):
        if not r:
            plain, rims = v3_data.render(seed, decoys=True), v3_data.render(seed, decoys=True, rims=True)
            assert rims.objects == plain.objects and rims.decoys == plain.decoys, seed
            assert np.array_equal(rims.image, plain.image), seed


def test_each_hole_is_dark_in_its_bar_and_kept_off_every_die():
    holes = 0
    for seed in SEEDS:
        if not _rimmed(seed):
            continue
        plain, s = v3_data.render(seed, decoys=True), v3_data.render(seed, decoys=True, rims=True)
        assert s.objects == plain.objects, seed     # the dice are where they were...
        new = s.decoys[len(plain.decoys):]
        assert s.decoys[:len(plain.decoys)] == plain.decoys, seed
        grey = s.image.astype(float).mean(axis=2)
        h, w = grey.shape
        for x, y, size in new:
            width = size / 1.2
            for dx, dy, dw, _dh, _label in s.objects:          # ...and no hole lies on one
                assert math.hypot(dx - x, dy - y) > width / 2 + dw / 2.4, seed
            if not (width < x < w - width and width < y < h - width):
                continue
            holes += 1
            r = max(1, int(width * 0.08))
            hole = grey[int(y) - r:int(y) + r + 1, int(x) - r:int(x) + r + 1].mean()
            ring = np.array([grey[int(y + width * 0.38 * math.sin(a)), int(x + width * 0.38 * math.cos(a))]
                             for a in np.linspace(0, 2 * math.pi, 16, endpoint=False)])
            assert hole < np.median(ring), (seed, x, y)   # darker than the bar round it
    assert holes >= 8
