"""Accuracy on the real burksbuilds photos (never used for training); the floors are the numbers
documented in docs/vision-poly.md."""

import cv2
import pytest

from benchmarks.poly_eval import evaluate, format_report
from vision.poly import locate_die

TYPE_FLOOR = 0.98   # measured 1.000 (docs/vision-poly.md); the target 0.98
VALUE_FLOOR = 0.95   # measured 0.965 (83 of 86); the target 0.95


@pytest.fixture(scope="module")
def result(burksbuilds):
    return evaluate(burksbuilds)


def test_every_labelled_die_is_found(result):
    assert result["dice"] == 86
    assert not [r for r in result["failures"] if not r["found"]]


def test_type_accuracy(result):
    assert result["type_accuracy"] >= TYPE_FLOOR, format_report(result)


def test_value_accuracy(result):
    assert result["value_accuracy"] >= VALUE_FLOOR, format_report(result)


def test_empty_tray_has_no_die(burksbuilds):
    image = cv2.imread(str(burksbuilds / "images" / "background_1.jpg"))
    assert locate_die(image) is None


def test_wrong_readings_are_not_marked_sure(result):
    # what the reader gets wrong must come with low confidence, so the page asks the players
    assert result["wrong_but_sure"] == 0, format_report(result)


def test_a_die_the_network_reads_surely_at_the_first_look_is_not_turned(burksbuilds, monkeypatch):
    """``vision.poly.ONE_TURN``: a burks die whose unturned look the network reads at 0.95 or more keeps that
    look, read in one pass; the others are the mean of the four quarter turns, as every die was before."""
    import numpy as np

    import vision.poly as poly

    xs = []
    for path in sorted((burksbuilds / "images").glob("*.jpg"))[::4]:
        image = cv2.imread(str(path))
        box = locate_die(image)
        if box is not None:
            x, y, w, h = box
            xs.append(poly.prepare(image[y:y + h, x:x + w]))
    one = poly.class_probabilities(np.stack(xs))
    four = [poly.class_probabilities(np.stack([np.rot90(x, k, axes=(1, 2)) for k in range(4)])).mean(axis=0)
            for x in xs]
    sure = one.max(axis=1) >= poly.ONE_TURN
    assert 0 < sure.sum() < len(xs), "the premise: some dice sure at one look, some not"
    passes = []
    read = poly.class_probabilities
    monkeypatch.setattr(poly, "class_probabilities", lambda batch: passes.append(len(batch)) or read(batch))
    for x, p1, p4, s in zip(xs, one, four, sure, strict=True):
        passes.clear()
        got = poly.network_probabilities(x)
        assert np.allclose(got, p1 if s else p4, atol=1e-6) and passes == ([1] if s else [1, 3])
    assert not np.allclose(one[~sure], np.stack(four)[~sure], atol=1e-3)
