"""Ringed 1s in the face reader's renders (``tools/v3_data.render(ringed=True)``, ``train_faces.py
--ringed``): half the rendered 1s get a ring round their pip, as brands mark the 1; everything else of the
tray is drawn as without it. Training only; these tests hold the promise the trainer relies on."""

import numpy as np

from tests.vision3.training_tools import v3_data

SEEDS = range(900, 1000)


def _changed_inside(plain, ringed, box):
    cx, cy, w, h, _ = box
    y0, x0 = max(0, int(cy - h / 2)), max(0, int(cx - w / 2))
    a = plain.image[y0:int(cy + h / 2), x0:int(cx + w / 2)].astype(int)
    b = ringed.image[y0:int(cy + h / 2), x0:int(cx + w / 2)].astype(int)
    return int(np.abs(a - b).sum(2).max()) > 60


def test_about_half_the_ones_get_a_ring_and_no_other_die_changes():
    ones = ringed_ones = 0
    for seed in SEEDS:
        plain = v3_data.render(seed, patterned=True)
        ringed = v3_data.render(seed, patterned=True, ringed=True)
        assert ringed.objects == plain.objects, seed
        for box in ringed.objects:
            if box[4] == 1:
                ones += 1
                ringed_ones += _changed_inside(plain, ringed, box)
            elif not any(b[4] == 1 and abs(b[0] - box[0]) < (b[2] + box[2]) / 2
                         and abs(b[1] - box[1]) < (b[3] + box[3]) / 2 for b in ringed.objects):
                assert not _changed_inside(plain, ringed, box), (seed, box)
    assert ones > 40
    assert 0.3 < ringed_ones / ones < 0.7, (ringed_ones, ones)


def test_a_ring_circles_the_pip_off_it():
    img = np.full((100, 100, 3), 200, np.uint8)
    v3_data._ring(img, np.random.default_rng(3), 50.0, 50.0, 6.0, np.array([20.0, 20.0, 200.0]))
    changed = np.abs(img.astype(int) - 200).sum(2) > 30
    ys, xs = np.nonzero(changed)
    d = np.hypot(xs - 50, ys - 50)
    assert changed.sum() > 20
    assert d.min() >= 6 and d.max() <= 6 * 2.6 + 4   # round the pip, not on it, and near it
