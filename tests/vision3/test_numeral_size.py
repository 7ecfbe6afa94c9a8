"""A numeral die far smaller than the frame's sure d6s is not reported (vision.learned.NUMERAL_LEAST):
polyhedral dice are the size of a d6 or larger, and the aws carpet's flecks were read as numerals."""

from pathlib import Path

import numpy as np

from vision import read_table
from vision.data import photo_set
from vision.faces import read_faces
from vision.finder import find_objects
from vision.learned import NONE_DROP, NUMERAL_LEAST, _label, _sure_d6

ROOT = Path(__file__).resolve().parents[2]
AWS_LEFT_OUT = (str(ROOT / "benchmarks" / "models" / "finder-no-aws.onnx"),
                str(ROOT / "benchmarks" / "models" / "faces-no-aws.onnx"), "types")


def test_an_aws_carpet_photo_whose_flecks_are_numerals_reports_none_of_them(photos):
    """Image_88 (aws, a dark striped carpet), read by the models trained without aws: flecks far smaller
    than its three sure dice are read as numeral dice (5 until the fifty-seventh session, 2 to the RandConv
    reader of the fifty-eighth). (Until the twenty-fourth session the photo was
    Image_83, a shag carpet: 16 such flecks on 2026-11-26, 3 once the aws finder of 2026-11-27 learnt natural
    trays, none once the face reader had the swirl-vein stage.)"""
    photo = next(p for p in photo_set("aws") if p.path.name == "Image_88.jpg")
    image = photo.load()
    found = find_objects(image, model=AWS_LEFT_OUT[0])
    readings = read_faces(image, found, model=AWS_LEFT_OUT[1])
    kept = [(f, r) for f, r in zip(found, readings, strict=True) if r.p("none") < NONE_DROP]
    sure = [f.side for f, r in kept if _sure_d6(r)]
    assert sure, "no sure die in the photo: the rule has nothing to compare with"
    least = NUMERAL_LEAST * float(np.median(sure))
    small = [f for f, r in kept if _label(r) == "numeral" and f.side < least]
    assert len(small) >= 2, "the flecks are no longer read as numerals: this test has nothing to check"
    dice = read_table(image, models=AWS_LEFT_OUT).dice
    numerals = [d for d in dice if d.sides != 6]
    assert all(max(d.bbox[2], d.bbox[3]) >= least - 2 for d in numerals)
    assert sum(d.sides == 6 and d.value is not None for d in dice) >= len(sure)   # the dice stay
