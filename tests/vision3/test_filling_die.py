"""A frame in which nothing is reported is read once more as one die filling it (vision.learned.FILLING,
``_filling_die``): a phone's photo of one die, or a crop of one die, where the finder found only its pips."""

from pathlib import Path

import cv2
import numpy as np

from vision import learned, read_table
from vision.data import photo_set
from vision.learned import SURE, UNCONFIRMED

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / "benchmarks" / "models"
CHASE_LEFT_OUT = ("finder", str(MODELS / "faces-no-chase.onnx"), "types")
AWS_LEFT_OUT = (str(MODELS / "finder-no-aws.onnx"), str(MODELS / "faces-no-aws.onnx"), "types")


def _photo(source, name):
    return next(p for p in photo_set(source) if p.path.name == name)


def test_a_die_filling_the_frame_whose_pips_alone_were_found_is_read_whole(photos, monkeypatch):
    """chase DJI_..._0223_D_detection_2 (a translucent "4" filling a 63x61 crop), read by the face reader
    trained without chase: the finder finds four pip-sized objects, each read "none" or a token, so before
    the rule the crop reported nothing. Read whole, it is the "4", asked, its box the frame."""
    photo = _photo("chase", "DJI_20241005234237_0223_D_detection_2.jpg")
    assert [d.value for d in photo.dice] == [4]
    image = photo.load()
    monkeypatch.setattr(learned, "FILLING", False)
    assert read_table(image, models=CHASE_LEFT_OUT).dice == (), "the premise: nothing reported"
    monkeypatch.setattr(learned, "FILLING", True)
    (die,) = read_table(image, models=CHASE_LEFT_OUT).dice
    h, w = image.shape[:2]
    assert die.value == 4 and die.sides == 6
    assert die.confidence <= UNCONFIRMED < SURE
    assert die.bbox == (0, 0, w, h)


def test_a_large_photo_of_one_die_is_read_whole_too(photos):
    """The same "4" as a phone would frame it, 20 times larger (1260x1220): brought down by area
    (``FILLING_SIDE``) and read whole, the same die, its box the large frame."""
    image = _photo("chase", "DJI_20241005234237_0223_D_detection_2.jpg").load()
    large = cv2.resize(image, None, fx=20, fy=20, interpolation=cv2.INTER_CUBIC)
    assert max(large.shape[:2]) > learned.FILLING_SIDE
    (die,) = read_table(large, models=CHASE_LEFT_OUT).dice
    assert die.value == 4 and die.confidence < SURE
    assert die.bbox == (0, 0, large.shape[1], large.shape[0])


def test_an_empty_tray_or_a_blank_frame_reports_no_die_filling_it(photos):
    """aws Image_89 (no die in it, labels empty) and a plain grey frame: read whole, neither is a die."""
    photo = _photo("aws", "Image_89.jpg")
    assert photo.dice == ()
    assert read_table(photo.load(), models=AWS_LEFT_OUT).dice == ()
    blank = np.full((480, 640, 3), 128, np.uint8)
    assert read_table(blank).dice == ()
    assert read_table(blank[:60, :60].copy()).dice == ()


def test_a_trays_part_of_the_frame_is_never_read_as_one_die(photos):
    """With a tray outline the camera looks at a tray, whose dice are a tray's size smaller: the crop of
    chase's "4" read whole without a tray, read with a tray that is the whole crop, reports nothing."""
    image = _photo("chase", "DJI_20241005234237_0223_D_detection_2.jpg").load()
    assert len(read_table(image, models=CHASE_LEFT_OUT).dice) == 1, "the premise: read whole without a tray"
    whole = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]
    assert read_table(image, models=CHASE_LEFT_OUT, tray=whole).dice == ()


def test_the_pips_of_one_die_read_as_small_dice_give_way_to_the_die(photos, monkeypatch):
    """chase's 0177 "4" ten times larger (580x610, a phone held close), read by the shipped models: the
    finder's scale brings its pips to a die's size and they are reported as small dice, each under
    ``WEAKEST``. Read whole, the picture is the "4", which replaces them (``FILLING_UNDER``)."""
    image = _photo("chase", "DJI_20241005233608_0177_D_detection_2.jpg").load()
    large = cv2.resize(image, None, fx=10, fy=10, interpolation=cv2.INTER_CUBIC)
    monkeypatch.setattr(learned, "FILLING_UNDER", None)
    small = read_table(large).dice
    assert len(small) >= 2 and all(d.confidence < learned.WEAKEST for d in small), "the premise: pips as dice"
    monkeypatch.setattr(learned, "FILLING_UNDER", learned.WEAKEST)
    (die,) = read_table(large).dice
    assert die.value == 4 and die.confidence < SURE
    assert die.bbox == (0, 0, large.shape[1], large.shape[0])


def test_an_emblem_asked_keeps_its_place(photos):
    """chase's 0166 (a casino "1" ringed by the casino's name): the face reader trained without chase calls
    the finder's box an emblem, asked with no value. The picture read whole reads a "1", but only pip dice
    with a value give way to it: a die whose face is a maker's emblem must stay asked, not be filled in."""
    image = _photo("chase", "DJI_20241005233427_0166_D_detection_2.jpg").load()
    (whole,) = learned._filling_die(image, None, CHASE_LEFT_OUT[1])
    assert whole[2] == 1, "the premise: read whole, a pip value"
    (die,) = read_table(image, models=CHASE_LEFT_OUT).dice
    assert die.value is None and die.sides == 6 and die.confidence < learned.WEAKEST
