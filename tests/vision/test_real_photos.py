"""Accuracy on a sample of the real labelled photos (see benchmarks/vision_eval.py for the full run).

Thresholds are the accuracy documented in docs/cli.md (scan), measured on the full matteop65 set,
minus a margin for the sample: the test fails if the reader gets worse than documented.
"""

import importlib.util
from pathlib import Path

import pytest

from vision.data import photo_set

_spec = importlib.util.spec_from_file_location(
    "vision_eval", Path(__file__).resolve().parents[2] / "benchmarks" / "vision_eval.py")
assert _spec is not None and _spec.loader is not None
vision_eval = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(vision_eval)


@pytest.mark.slow
@pytest.mark.parametrize("split", ["dev", "held-out"])
def test_matteop65_sample_meets_documented_accuracy(photos, split):
    chosen = [p for p in photo_set("matteop65") if (split == "held-out") == p.held_out][::4]
    r = vision_eval.evaluate("matteop65", chosen)
    assert r["labelled"] >= 60
    assert r["found_pct"] >= 94.0, r
    assert r["right_pct"] >= 88.0, r
    assert r["phantom_per_100"] <= 40.0, r

