"""The finder's pasted trays (``tools/v3_data.pasted``, ``train_finder.py --pasted``): real dice cut from
their photos and laid on another table. The finder learns a die wherever a box says one is, so a box must
hold a pasted die, and a die must not bring the corners of its box (its own tray) along."""

import numpy as np

from tests.vision3.training_tools import v3_data


def _donors():
    nell = v3_data.load_source("nell", limit=6)
    return v3_data.donor_dice(nell)


def test_a_cut_die_keeps_its_middle_and_drops_the_corners_of_its_box(photos):
    donors = _donors()
    assert len(donors) >= 20
    cut = 0
    for crop, mask, _ in donors:
        h, w = mask.shape
        assert mask.shape == crop.shape[:2] and mask.min() >= 0 and mask.max() <= 1
        assert mask[h // 2, w // 2] > 0.9 and mask.mean() > 1 / 3
        cut += max(mask[0, 0], mask[0, -1], mask[-1, 0], mask[-1, -1]) < 0.5
    assert cut == len(donors)   # a box's corners are its tray's: a rounded square or the die's outline


def test_every_box_holds_a_pasted_die_and_a_tray_is_the_same_from_its_seed(photos):
    donors = _donors()
    lurig = v3_data.load_source("lurig", limit=4)
    for index in range(6):
        tray = v3_data.pasted(index, donors, lurig)
        again = v3_data.pasted(index, donors, lurig)
        assert np.array_equal(tray.image, again.image) and tray.objects == again.objects
        h, w = tray.image.shape[:2]
        assert tray.objects
        plain = v3_data.pasted(index, donors, lurig, seed=v3_data.PASTE_SEED + 1)
        assert not np.array_equal(plain.image, tray.image)
        for cx, cy, bw, bh, _ in tray.objects:
            assert cx - bw / 2 >= 0 and cx + bw / 2 <= w and cy - bh / 2 >= 0 and cy + bh / 2 <= h
            assert 0.5 < bw / bh < 2 and min(bw, bh) >= 8
