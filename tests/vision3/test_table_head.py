"""``goblin-companion tune`` fits the table's head (vision.tune): the face reader's last layer adapted to the
table's confirmed photos, kept in the calibration file, used only with the reader it was fitted on."""

import base64
from pathlib import Path

import numpy as np
import pytest

from vision import Calibration, InvalidVisionInput
from vision.data import photo_set
from vision.faces import CLASSES, FaceReading, reader_id
from vision.learned import adapted
from vision.teach import EMBEDDING, TableHead
from vision.tune import LEAST_EXAMPLES, MOST_FITTED, _thinned, fit_head, tune

ROOT = Path(__file__).resolve().parents[2]
EIGHT_BYTES = "AAAAAAAAAAA="   # base64 of two floats: too few for a head
HUGE = base64.b64encode(np.full(len(CLASSES) * EMBEDDING, 3e38, "<f4").tobytes()).decode()
NELL_LEFT_OUT = (str(ROOT / "benchmarks" / "models" / "finder-no-nell.onnx"),
                 str(ROOT / "benchmarks" / "models" / "faces-no-nell.onnx"), "types")


def _unit(rng, n):
    v = rng.normal(size=(n, EMBEDDING))
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def _reading(label, p=0.7):
    probs = np.full(len(CLASSES), (1 - p) / (len(CLASSES) - 1))
    probs[CLASSES.index(label)] = p
    return probs


def _table(rng, per_value=20, misread=None, only=None):
    """Embeddings of a table's confirmed dice: each value near a direction of its own, read by the reader
    as its value, or as ``misread[value]``; ``only``: {value: count} in place of ``per_value``."""
    x, p, y = [], [], []
    for value in "123456":
        centre = _unit(rng, 1)[0]
        n = (only or {}).get(value, per_value)
        near = centre + 0.1 * _unit(rng, n)
        x.append(near / np.linalg.norm(near, axis=1, keepdims=True))
        p += [_reading((misread or {}).get(value, value))] * n
        y += [CLASSES.index(value)] * n
    return np.vstack(x), np.stack(p), np.array(y)


def test_a_head_learns_what_the_table_confirmed_where_the_reader_was_wrong():
    x, p, y = _table(np.random.default_rng(3), misread={"3": "5"})
    assert [CLASSES[i] for i in p.argmax(axis=1)].count("5") == 40
    head = fit_head(x, p, y, "reader")
    assert head is not None
    assert np.array_equal(head.adapt(p, x).argmax(axis=1), y)
    # "not a die" was never confirmed here, and emblem, numeral and token are never adapted
    for name in ("none", "emblem", "numeral", "token"):
        k = CLASSES.index(name)
        assert not head.weights[k].any() and head.bias[k] == 0


def test_no_head_until_every_value_was_confirmed_often_enough():
    """Fitted on a set of 1s alone, a head reads everything as 1 (chase's first ten photos did)."""
    rng = np.random.default_rng(4)
    x, p, y = _table(rng, only={"6": LEAST_EXAMPLES - 1})
    assert fit_head(x, p, y, "reader") is None
    x, p, y = _table(rng, only={"6": LEAST_EXAMPLES})
    assert fit_head(x, p, y, "reader") is not None
    ones = y == CLASSES.index("1")
    assert fit_head(x[ones], p[ones], y[ones], "reader") is None


def test_thinning_keeps_every_die_and_bounds_what_is_fitted():
    classes = np.array([0] * 50_000 + [3] * 700)
    kept = _thinned(classes)
    assert len(kept) == MOST_FITTED and np.sum(classes[kept] == 3) == 700
    assert np.array_equal(_thinned(np.array([0, 3, 0])), [0, 1, 2])


def test_the_head_is_kept_in_the_calibration_file_and_read_back(tmp_path):
    rng = np.random.default_rng(5)
    head = TableHead(rng.normal(size=(len(CLASSES), EMBEDDING)), rng.normal(size=len(CLASSES)), "abc")
    cal = Calibration().with_head(head)
    cal.save(tmp_path / "c.json")
    back = Calibration.load(tmp_path / "c.json")
    assert back.head is not None and back.head.reader == "abc"
    assert np.allclose(back.head.weights, head.weights, atol=1e-6)
    assert back == Calibration.load(tmp_path / "c.json")
    assert back != Calibration()


def test_a_head_keeps_the_top_read_it_was_fitted_with_and_an_older_file_reads_as_fitted_at_the_centre(
        tmp_path):
    rng = np.random.default_rng(8)
    weights, bias = rng.normal(size=(len(CLASSES), EMBEDDING)), rng.normal(size=len(CLASSES))
    Calibration().with_head(TableHead(weights, bias, "abc", 0.2)).save(tmp_path / "new.json")
    back = Calibration.load(tmp_path / "new.json")
    assert back.head is not None and back.head.top_read == 0.2
    assert not back.head.same(TableHead(weights, bias, "abc"))
    older = Calibration().with_head(TableHead(weights, bias, "abc")).to_json()
    assert "top_read" not in older["head"]          # a file written before the field is the same file
    assert Calibration.from_json(older).head.top_read == 0.0


BAD_TOP = {"classes": list(CLASSES), "reader": "abc",
           "weights": base64.b64encode(np.zeros(len(CLASSES) * EMBEDDING, "<f4").tobytes()).decode("ascii"),
           "bias": base64.b64encode(np.zeros(len(CLASSES), "<f4").tobytes()).decode("ascii")}

BAD_HEADS = [({"reader": "abc"}, "classes"),
             ({**BAD_TOP, "top_read": 0.9}, "top_read must be a number from 0 to 0.5"),
             ({**BAD_TOP, "top_read": "0.2"}, "top_read must be a number"),
             ({**BAD_TOP, "top_read": True}, "top_read must be a number"),
             ({**BAD_TOP, "top_read": -0.1}, "top_read must be a number"),
             ({"classes": list(CLASSES), "weights": EIGHT_BYTES, "bias": EIGHT_BYTES, "reader": "abc"},
              "weights are not"),
             ({"classes": list(CLASSES), "weights": "%%", "bias": "", "reader": "abc"}, "malformed"),
             ({"classes": list(CLASSES), "weights": HUGE, "bias": HUGE[:16], "reader": "abc"}, "within")]


@pytest.mark.parametrize("bad, says", BAD_HEADS)
def test_a_malformed_head_is_refused_saying_what_is_wrong(bad, says):
    obj = Calibration().to_json()
    obj["head"] = bad
    with pytest.raises(InvalidVisionInput, match=says):
        Calibration.from_json(obj)


def test_a_head_of_a_reader_with_other_classes_is_left_unused_and_the_examples_stay(tmp_path):
    rng = np.random.default_rng(7)
    head = TableHead(rng.normal(size=(len(CLASSES), EMBEDDING)), rng.normal(size=len(CLASSES)), "abc")
    obj = Calibration().with_head(head).to_json()
    obj["examples"] = Calibration().teach(np.full((40, 40, 3), 200, np.uint8), kind="face",
                                          label="6").to_json()["examples"]
    obj["head"]["classes"] = [*CLASSES, "d20"]
    back = Calibration.from_json(obj)
    assert back.head is None and len(back.examples) == 1


def test_a_head_fitted_on_another_reader_changes_nothing():
    rng = np.random.default_rng(6)
    readings = [FaceReading(_reading("4"), e) for e in _unit(rng, 3)]
    big = np.zeros((len(CLASSES), EMBEDDING))
    big[CLASSES.index("none")] = 50.0
    elsewhere = Calibration().with_head(TableHead(big, np.zeros(len(CLASSES)), "another reader"))
    assert all(a is b for a, b in zip(adapted(readings, elsewhere, "faces"), readings, strict=True))
    mine = Calibration().with_head(TableHead(np.zeros((len(CLASSES), EMBEDDING)), np.zeros(len(CLASSES)),
                                             reader_id("faces")))
    zeros = adapted(readings, mine, "faces")        # a head of zeros reads as the reader reads
    assert all(np.allclose(a.probabilities, b.probabilities) for a, b in zip(zeros, readings, strict=True))


@pytest.mark.slow
def test_tune_on_a_table_never_seen_reads_its_held_back_dice_better():
    """nell read by the readers trained without it: 40 confirmed photos (8 held back by tune itself). Since
    the fifty-third session's 56 px readers, nell's first forty leave no room (65 of 70 held-back dice right
    before tuning and after); the next forty do."""
    photos = []
    for p in photo_set("nell")[40:80]:
        photos.append((p.load(), [(d.bbox, d.value) for d in p.dice]))
    cal, report = tune(photos, models=NELL_LEFT_OUT)
    assert report.kept and report.reason is None
    assert cal.head is not None and cal.head.reader == reader_id(NELL_LEFT_OUT[1])
    assert report.right_after > report.right_before
    assert report.sure_wrong_after <= report.sure_wrong_before
    assert report.taught_dice > 200 and report.not_dice > 0


@pytest.mark.slow
def test_tune_keeps_nothing_from_too_few_faces_or_too_few_dice_held_back():
    nell = sorted(photo_set("nell")[:40], key=lambda p: -len(p.dice))
    photos = [(p.load(), [(d.bbox, d.value) for d in p.dice]) for p in [*nell[:4], nell[-1]]]
    ones = [(image, [(box, v) for box, v in dice if v == 1]) for image, dice in photos]
    cal, report = tune([p for p in ones if p[1]], models=NELL_LEFT_OUT)
    assert (report.kept, report.reason, cal.head) == (False, "too-few-faces", None)
    few = photos                          # the fifth, held back, has too few dice to judge a head on
    assert sum(len(d) for _, d in few[4:]) < 10
    cal, report = tune(few, models=NELL_LEFT_OUT)
    assert (report.kept, report.reason, cal.head) == (False, "too-few-held-back", None)
