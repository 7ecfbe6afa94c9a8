"""A pip die not read sure that is far smaller than the frame's sure d6s is not reported
(vision.learned.PIP_LEAST): the weave of a cloth around one big die was read as a crowd of tiny dice."""

from pathlib import Path

import numpy as np

from vision import read_table
from vision.data import photo_set
from vision.faces import read_faces
from vision.finder import find_objects
from vision.learned import NONE_DROP, PIP_LEAST, SURE, _flecks_dropped, _label

ROOT = Path(__file__).resolve().parents[2]
AWS_LEFT_OUT = (str(ROOT / "benchmarks" / "models" / "finder-no-aws.onnx"),
                str(ROOT / "benchmarks" / "models" / "faces-no-aws.onnx"), "types")


def test_the_specks_of_a_terrazzo_floor_far_smaller_than_its_dice_are_not_reported(photos):
    """Image_3 (aws: a terrazzo floor, a few dice), read by the models trained without aws: the face reader
    calls specks of the stone pip dice, some of them a fifth of the die it reads sure or less (and, with a
    finder trained on natural trays, the weave of a cloth around one big die: IMG_20191112_111809, 79)."""
    photo = next(p for p in photo_set("aws") if p.path.name == "Image_3.jpg")
    image = photo.load()
    dice = read_table(image, models=AWS_LEFT_OUT).dice
    sure = [max(d.bbox[2], d.bbox[3]) for d in dice if d.sides == 6 and d.confidence >= SURE]
    assert sure, "no die is read sure: the rule has nothing to compare with"
    least = PIP_LEAST * float(np.median(sure))
    found = find_objects(image, model=AWS_LEFT_OUT[0])
    readings = read_faces(image, found, model=AWS_LEFT_OUT[1])
    specks = [f for f, r in zip(found, readings, strict=True)
              if r.p("none") < NONE_DROP and _label(r).isdigit() and f.side < least]
    assert len(specks) >= 4, "the specks are no longer read as dice: this test has nothing to check"
    assert not [d for d in dice if d.sides == 6 and d.value is not None and d.confidence < SURE
                and max(d.bbox[2], d.bbox[3]) < least]
    assert len(sure) >= 1 and len(dice) > len(specks)       # the dice and the bigger specks (asked) stay


def die(x, side, value, conf, sides=6):
    return ((x, 0, side, side), sides, value, conf, False)


def test_only_pip_dice_not_sure_and_far_smaller_than_the_sure_ones_are_dropped():
    small = round(60 * PIP_LEAST) - 2
    dice = [die(0, 60, 3, 0.95), die(100, 64, 5, 0.9), die(200, small, 4, 0.6),     # dropped
            die(300, small, 1, 0.9),              # sure: kept (the specks rule caps it, not this one)
            die(400, small, None, 0.3),           # an emblem asked: _emblems_die_sized decides
            die(500, small, 3, 0.5, sides=8),     # a numeral die: NUMERAL_LEAST decides
            die(600, round(60 * PIP_LEAST) + 2, 2, 0.6)]                           # inside: kept
    assert _flecks_dropped(dice) == dice[:2] + dice[3:]


def test_without_a_sure_pip_die_nothing_is_dropped():
    dice = [die(0, 60, 3, 0.7), die(100, 10, 4, 0.6), die(200, 12, 6, 0.95, sides=20)]
    assert _flecks_dropped(dice) == dice
