"""Faint dice (``tools/v3_data.render(faint=True)``, ``train_faces.py --faint``): training renders whose
pips differ from the body more in hue than in light, as the red pips of nell-byler's dark dice. Training
only; these tests hold what the trainer relies on: the ink's difference from the body is in
``FAINT_CONTRAST``, the dice and their labels are the plain render's (the ink comes from a generator of
its own), and the pips are really drawn faint."""

import numpy as np

from tests.vision3.training_tools import v3_data
from vision.faces import CLASSES


def test_faint_ink_differs_from_the_body_by_the_faint_contrast_only():
    rng = np.random.default_rng(7)
    lo, hi = v3_data.FAINT_CONTRAST
    for _ in range(500):
        body = rng.uniform(0, 255, 3)
        ink = v3_data._faint_ink(rng, body)
        diff = float(np.abs(ink - body).sum())
        assert lo - 1 <= diff <= hi + 1, (body, ink)


def test_a_faint_tray_holds_the_plain_trays_dice():
    for seed in (v3_data.FAINT_SEED * 10_000 + i for i in range(5)):
        plain, faint = v3_data.render(seed), v3_data.render(seed, faint=True)
        assert plain.objects == faint.objects
        assert not np.array_equal(plain.image, faint.image)


def test_the_pips_of_a_faint_die_are_near_its_body():
    # the brightest and darkest parts of a lone pip die's top face differ by less than a plain die's
    spreads = {}
    for faint in (False, True):
        got = []
        for seed in range(80):
            s = v3_data.render(seed, faint=faint)
            for cx, cy, w, _, label in s.objects:
                if CLASSES[label] in "23456" and w > 50:
                    r = int(w / 1.2 * 0.4)
                    face = s.image[int(cy) - r:int(cy) + r, int(cx) - r:int(cx) + r].astype(float).sum(2)
                    if face.size:
                        got.append(np.percentile(face, 95) - np.percentile(face, 5))
        spreads[faint] = float(np.median(got))
    assert spreads[True] < 0.6 * spreads[False], spreads
