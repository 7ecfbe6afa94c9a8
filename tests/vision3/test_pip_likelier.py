"""A die the face reader calls a numeral while its likeliest pip value is likelier than the numeral reading
(the product of "numeral", the type's and the value's probabilities) is read as that pip d6, and asked
(vision.learned._pip_likelier)."""

from pathlib import Path

import numpy as np

from vision import read_table
from vision.data import photo_set
from vision.faces import CLASSES, FaceReading
from vision.learned import SURE, _pip_likelier

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / "benchmarks" / "models"
NELL_LEFT_OUT = (str(MODELS / "finder-no-nell.onnx"), str(MODELS / "faces-no-nell.onnx"),
                 "types")


def _reading(**p):
    probabilities = np.zeros(len(CLASSES))
    for label, v in p.items():
        probabilities[CLASSES.index(label.lstrip("_"))] = v
    return FaceReading(probabilities, np.zeros(64))


def test_the_likelier_reading_wins():
    r = _reading(numeral=0.5, _4=0.3, _2=0.1, none=0.1)
    assert _pip_likelier(r, numeral=0.5 * 0.9 * 0.9) is None      # Vision II sure of its numeral
    assert _pip_likelier(r, numeral=0.5 * 0.9 * 0.5) == "4"       # 0.225 < 0.3
    assert _pip_likelier(_reading(numeral=0.9, _4=0.05, none=0.05), numeral=0.9 * 0.1 * 0.5) == "4"
    assert _pip_likelier(_reading(numeral=0.9, _4=0.05, none=0.05), numeral=0.9 * 0.2 * 0.5) is None


def test_a_pip_die_called_a_numeral_is_read_by_its_pips(photos, monkeypatch):
    """nell IMG_20191209_100300 (a pip die showing 1), read by the models trained without nell: the face
    reader calls it a numeral, and Vision II's numeral reading of it is less likely than the face reader's
    "1". It reads 1, asked; without the rule, what Vision II reads of it (here a numeral d6's "6"). (Until
    the twenty-fourth session the photo was IMG_20191209_100253, a veined "1", then IMG_20191208_111316's
    "3" until the fifty-eighth, then IMG_20191208_111548's "3" until the sixty-third, then
    IMG_20191208_111826's "1" until the sixty-eighth, whose nell finder (finder-rims2's) boxes that die so
    that the reader reads it itself. Sixteen nell photos hold such a die with that finder.)"""
    photo = next(p for p in photo_set("nell") if p.path.name == "IMG_20191209_100300.jpg")
    image = photo.load()

    def the_die(dice):
        (die,) = [d for d in dice if abs(d.bbox[0] + d.bbox[2] / 2 - 367) < 15
                  and abs(d.bbox[1] + d.bbox[3] / 2 - 301) < 15]
        return die

    assert the_die(photo.dice).value == 1       # the labelled die at that place
    die = the_die(read_table(image, models=NELL_LEFT_OUT).dice)
    assert (die.sides, die.value) == (6, 1) and die.confidence < SURE
    monkeypatch.setattr("vision.learned._pip_likelier", lambda r, numeral: None)
    without = the_die(read_table(image, models=NELL_LEFT_OUT).dice)
    assert (without.sides, without.value) != (6, 1)
