"""Accuracy of Vision I's rule reader on the real labelled photos (see benchmarks/vision_eval.py for the
full run and the rules). The rule reader is no longer the default (Vision III's learned reader is, with its
own floors in tests/vision3); it stays as the learned reader's pip counter, so its floors stay too.

The thresholds are the accuracy documented in docs/cli.md (scan section) minus a small margin for
sampling: the tests fail if the reader gets worse than documented. The held-out split (every 5th
matteop65 photo) was never looked at while tuning; it is read whole, the development split sampled.
"""

import importlib.util
from pathlib import Path

import pytest

from vision import read_table
from vision.data import photo_set

_spec = importlib.util.spec_from_file_location(
    "vision_eval", Path(__file__).resolve().parents[2] / "benchmarks" / "vision_eval.py")
assert _spec is not None and _spec.loader is not None
vision_eval = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(vision_eval)


def rules(image):
    return read_table(image, reader="rules")


@pytest.mark.slow
def test_matteop65_development_sample(photos):
    chosen = [p for p in photo_set("matteop65") if not p.held_out][::4]
    r = vision_eval.evaluate("matteop65", chosen, rules)
    assert r["labelled"] >= 200
    assert r["found_pct"] >= 99.2, r           # measured 99.6
    assert r["right_pct"] >= 98.5, r           # measured 98.81 (98.02 before smeared pips were kept)
    assert r["phantom_per_100"] <= 2.0, r      # measured 1.25 (was 2.5 before the side rules)
    assert r["wrong_sure"] <= 1, r             # measured 0


@pytest.mark.slow
def test_matteop65_held_out_split(photos):
    chosen = [p for p in photo_set("matteop65") if p.held_out]
    r = vision_eval.evaluate("matteop65", chosen, rules)
    assert r["labelled"] == 246
    assert r["found_pct"] >= 99.5, r           # measured 100
    assert r["right_pct"] >= 99.2, r           # measured 99.59 (was 99.19)
    assert r["phantom_per_100"] <= 1.3, r      # measured 0 (one phantom in 79 frames is 1.27)
    assert r["wrong_sure"] <= 1, r             # measured 0


@pytest.mark.slow
def test_translucent_casino_dice_crops(photos):
    """The chase crops: red and blue translucent dice, white pips, ~70 px crops (enlarged)."""
    r = vision_eval.evaluate("chase", photo_set("chase")[::5], rules)
    assert r["frames"] >= 50
    assert r["found_pct"] >= 91.0, r           # measured 92.86
    assert r["right_pct"] >= 69.5, r           # measured 71.43
    assert r["phantom_per_100"] <= 3.6, r      # measured 0
    assert r["wrong_sure"] <= 2, r             # measured 1: a wrong value read with confidence >= 0.8
