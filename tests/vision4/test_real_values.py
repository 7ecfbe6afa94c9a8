"""The hand-labelled Lurig values the polyhedral network trains on (tools/lurig_train_values.json) and the
ones it is measured on (benchmarks/lurig_values.json) are different photos, and a fold left out of training
is left out whole."""

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

from vision.data import lurig_fold

ROOT = Path(__file__).resolve().parents[2]
TRAIN = ROOT / "tools" / "lurig_train_values.json"
MEASURE = ROOT / "benchmarks" / "lurig_values.json"


def _train_poly():
    spec = importlib.util.spec_from_file_location("train_poly", ROOT / "tools" / "train_poly.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_no_photo_is_both_trained_on_and_measured():
    train = json.loads(TRAIN.read_text())["values"]
    measure = json.loads(MEASURE.read_text())["values"]
    assert len(train) >= 200 and len(measure) == 103
    assert not set(train) & set(measure)


def test_each_value_is_a_face_of_its_die():
    for name, value in json.loads(TRAIN.read_text())["values"].items():
        sides = int(name.split("_")[0][1:])
        assert sides in (6, 8, 10, 20) and 1 <= value <= sides, (name, value)


@pytest.mark.slow
def test_a_fold_left_out_of_the_real_items_is_left_out_whole(photos):
    tp = _train_poly()
    train = json.loads(TRAIN.read_text())["values"]
    images, boxes, labels = tp.real_items(TRAIN, hold_out="wood", copies=2)
    kept = [n for n in train if lurig_fold(n) != "wood"]
    assert len(labels) == 2 * len(kept) > 0
    assert images.shape[1:] == (tp.RENDER_SIZE, tp.RENDER_SIZE, 3)
    # every die's box lies inside its item, as a render's does
    x, y, w, h = boxes.T
    assert (x > -1).all() and (y > -1).all() and (x + w < tp.RENDER_SIZE + 1).all()
    assert (y + h < tp.RENDER_SIZE + 1).all()
    # the labels are the photos' values, in the network's classes
    want = sorted(tp.label_index(f"d{n.split('_')[0][1:]}", train[n]) for n in kept for _ in range(2))
    assert sorted(labels.tolist()) == want
    assert len(np.unique(labels)) > 10
