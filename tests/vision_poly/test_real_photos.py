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
