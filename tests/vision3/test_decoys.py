"""Decoys in the face reader's renders (tools/v3_data.render(decoys=True)): die-sized round things that are
no die (a tray's well, a coin, a hole, a printed ring), read as "none". Training only; these tests hold the
promise the trainer relies on: decoys change nothing else a seed draws, and never lie on a die."""

import math

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
