import json

import numpy as np
import pytest

from vision.poly import (
    CLASSES,
    INPUT,
    PolyReading,
    locate_die,
    prepare,
    read_polyhedral,
    reading_from_probabilities,
)
from vision.poly.synth import render


def _die():
    r = render(np.random.default_rng(11), size=96, kind="d20", face=16)
    x, y, w, h = r.bbox
    return r.image[y:y + h, x:x + w].copy()


def test_reading_is_frozen_and_json():
    reading = read_polyhedral(_die())
    assert isinstance(reading, PolyReading)
    with pytest.raises(AttributeError):
        reading.value = 3  # type: ignore[misc]
    obj = json.loads(json.dumps(reading.to_json()))
    assert set(obj) == {"sides", "sides_confidence", "value", "value_confidence", "percentile"}
    assert 0 <= obj["sides_confidence"] <= 1 and 0 <= obj["value_confidence"] <= 1


def test_input_is_not_modified_and_mask_places_the_die():
    crop = _die()
    before = crop.copy()
    padded = np.zeros((crop.shape[0] + 60, crop.shape[1] + 60, 3), np.uint8)
    padded[30:-30, 30:-30] = crop
    mask = np.zeros(padded.shape[:2], np.uint8)
    mask[30:-30, 30:-30] = 1
    a = prepare(crop)
    b = prepare(padded, mask=mask)
    assert np.array_equal(crop, before)
    assert a.shape == (2, INPUT, INPUT) and a.dtype == np.float32
    assert np.abs(a - b).mean() < 0.2
    assert read_polyhedral(padded, mask=mask).value == read_polyhedral(crop).value


def test_bad_input_names_the_argument():
    with pytest.raises(ValueError, match="crop_bgr"):
        read_polyhedral(np.zeros((20, 20), np.uint8))
    with pytest.raises(ValueError, match="crop_bgr"):
        read_polyhedral(np.zeros((20, 20, 3), np.float32))
    with pytest.raises(ValueError, match="mask"):
        read_polyhedral(np.zeros((20, 20, 3), np.uint8), mask=np.zeros((5, 5)))
    with pytest.raises(ValueError, match="mask is empty"):
        read_polyhedral(np.zeros((20, 20, 3), np.uint8), mask=np.zeros((20, 20)))
    with pytest.raises(ValueError, match="image"):
        locate_die(np.zeros((20, 20), np.uint8))


def test_confidences_come_from_the_class_probabilities():
    p = np.zeros(len(CLASSES))
    p[CLASSES.index(("d10", 10))] = 0.5
    p[CLASSES.index(("d100", 30))] = 0.3
    p[CLASSES.index(("d12", 10))] = 0.2
    r = reading_from_probabilities(p)
    assert (r.sides, r.value, r.percentile) == (10, 10, False)
    assert r.sides_confidence == pytest.approx(0.8) and r.value_confidence == pytest.approx(0.625)
    assert not r.sure


def test_locate_die_on_a_dark_tray():
    image = np.full((300, 400, 3), 12, np.uint8)
    image[100:160, 220:290] = (40, 40, 200)
    assert locate_die(image) == (220, 100, 70, 60)
    assert locate_die(np.full((300, 400, 3), 12, np.uint8)) is None


def test_a_tiny_crop_reads_with_low_confidence_instead_of_failing():
    crop = np.random.default_rng(0).integers(0, 255, (10, 7, 3), dtype=np.uint8)
    assert not read_polyhedral(crop).sure
    assert not read_polyhedral(np.full((1, 2, 3), 200, np.uint8)).sure   # read_table can cut such slivers
    with pytest.raises(ValueError, match="empty"):
        read_polyhedral(np.zeros((0, 9, 3), np.uint8))


def test_a_numeral_that_overrules_the_network_is_never_sure(monkeypatch):
    # burks D20_A_1 through read_table: the network gave its long-flagged "1" 0.54 and "7" 0.18, the
    # numeral reader read a sure "7", and the fused reading was a sure 7 (0.84) before this rule
    import vision.poly as poly
    from vision.poly import DISAGREE
    from vision.poly.numeral import NumeralReading

    r = render(np.random.default_rng(2), size=128, kind="d20", face=0)
    x, y, w, h = r.bbox
    crop = r.image[y:y + h, x:x + w].copy()
    p = np.full(len(CLASSES), 0.002)
    p[CLASSES.index(("d20", 1))], p[CLASSES.index(("d20", 7))] = 0.54, 0.18
    monkeypatch.setattr(poly, "class_probabilities", lambda batch: np.tile(p / p.sum(), (len(batch), 1)))
    agree = read_polyhedral(crop)
    assert (agree.sides, agree.value) == (20, 1)

    def numeral(text):
        def read(image, mask=None):
            scores = {"1": 0.22, "7": 0.22, text: 1.0}
            return NumeralReading(text, 1.0, 0.0, scores, 1), np.full(image.shape[:2], 255, np.uint8)
        return read

    monkeypatch.setattr(poly, "read_numeral_and_die", numeral("7"))
    overruled = read_polyhedral(crop)
    assert overruled.value == 7 and not overruled.sure
    assert overruled.value_confidence <= DISAGREE
    monkeypatch.setattr(poly, "read_numeral_and_die", numeral("1"))
    both = read_polyhedral(crop)
    assert both.value == 1 and both.value_confidence > DISAGREE
