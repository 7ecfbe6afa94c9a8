"""On a table that taught no token, a "token" the face reader is unsure of is a die: its own classes decide
(vision.learned._token_read). A token it is sure of is still found and not told
(tests/vision/test_teach.py)."""

from pathlib import Path

from vision import learned, read_table
from vision.data import photo_set
from vision.faces import read_faces
from vision.finder import find_objects
from vision.learned import SURE, TOKEN_SURE

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / "benchmarks" / "models"
AWS_LEFT_OUT = (str(MODELS / "finder-no-aws.onnx"), str(MODELS / "faces-no-aws.onnx"), "types")


def test_a_lone_pip_read_as_a_token_is_a_die(photos):
    """aws IMG_20191112_101805, read by the models trained without aws: a red die showing a "1" (label box
    (109, 222, 60, 68)) that the face reader calls a token at 0.44. Reported as a token of no face, the die
    would be lost; it is a "1", asked. (Until the fifty-third session the premise was IMG_20191112_102122's
    black "1", which the 56 px readers read as a "1" outright; then IMG_20191112_111207's "1", which the
    RandConv reader of the fifty-eighth session reads outright too; then IMG_20191112_111630's "1", which
    the sixty-third session's finder boxes so that the reader reads it a "1" itself.)"""
    photo = next(p for p in photo_set("aws") if p.path.name == "IMG_20191112_101805.jpg")
    image = photo.load()
    (label,) = [d for d in photo.dice if abs(d.bbox[0] + d.bbox[2] / 2 - 139) < 20
                and abs(d.bbox[1] + d.bbox[3] / 2 - 256) < 20]
    assert label.value == 1
    found = [f for f in find_objects(image, model=AWS_LEFT_OUT[0])
             if abs(f.cx - 138) < 20 and abs(f.cy - 242) < 20]
    assert len(found) == 1
    (r,) = read_faces(image, found, model=AWS_LEFT_OUT[1])
    assert r.label == "token" and r.p("token") < SURE, "the premise: an unsure token"
    reading = read_table(image, models=AWS_LEFT_OUT)
    assert reading.tokens == ()
    (die,) = [d for d in reading.dice if abs(d.bbox[0] + d.bbox[2] / 2 - 138) < 20
              and abs(d.bbox[1] + d.bbox[3] / 2 - 242) < 20]
    assert die.value == 1 and die.confidence < SURE


def test_a_token_read_under_the_token_bar_is_a_die(photos, monkeypatch):
    """aws Image_103, read by the models trained without aws: a black die showing a "1" (label box (101, 23,
    45, 44)) that the face reader calls a token at 0.84, over ``SURE`` but under ``TOKEN_SURE`` (seventy-
    second session). On a table that taught no token it is a die: a "1", asked."""
    photo = next(p for p in photo_set("aws") if p.path.name == "Image_103.jpg")
    image = photo.load()
    (label,) = [d for d in photo.dice if d.bbox == (101, 23, 45, 44)]
    assert label.value == 1
    found = [f for f in find_objects(image, model=AWS_LEFT_OUT[0])
             if abs(f.cx - 123) < 20 and abs(f.cy - 45) < 20]
    assert len(found) == 1
    (r,) = read_faces(image, found, model=AWS_LEFT_OUT[1])
    assert r.label == "token" and SURE <= r.p("token") < TOKEN_SURE, "the premise: a token between the bars"
    reading = read_table(image, models=AWS_LEFT_OUT)
    assert reading.tokens == ()
    (die,) = [d for d in reading.dice if abs(d.bbox[0] + d.bbox[2] / 2 - 123) < 20
              and abs(d.bbox[1] + d.bbox[3] / 2 - 45) < 20]
    assert die.value == 1 and die.confidence < SURE
    monkeypatch.setattr(learned, "TOKEN_SURE", SURE)     # the bar before: a token of no face, the die lost
    reading = read_table(image, models=AWS_LEFT_OUT)
    assert len(reading.tokens) == 1
    assert not [d for d in reading.dice if abs(d.bbox[0] + d.bbox[2] / 2 - 123) < 20
                and abs(d.bbox[1] + d.bbox[3] / 2 - 45) < 20]
