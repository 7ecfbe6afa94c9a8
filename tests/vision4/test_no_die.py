"""The type reader's "none" class (``tools/train_types.py --none``, fifty-ninth session): a printed label or
a key that the face reader calls a numeral reaches the type reader, which can now say it is no die; such an
object is not reported (``vision.learned.read_view``), as one the face reader holds "none"."""

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from vision import read_table, types
from vision.data import photo_set
from vision.faces import crop, read_faces
from vision.finder import find_objects

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / "benchmarks" / "models"
MATTEO_LEFT_OUT = (str(MODELS / "finder-no-matteop65.onnx"), str(MODELS / "faces-no-matteop65.onnx"), "types")


def test_every_type_reader_can_say_no_die():
    for name in ("types", *(str(MODELS / f"types-no-{f}.onnx") for f in ("wood", "color", "other", "burks"))):
        assert types.classes(name) == (*types.TYPES, types.NONE), name


def test_the_types_share_what_no_die_leaves():
    crops = [np.full((types.CROP, types.CROP, 3), v, np.uint8) for v in (0, 120, 250)]
    p = types.read_type_crops(crops)
    assert p.shape == (3, len(types.TYPES)) and (p >= 0).all()
    assert np.allclose(p.sum(axis=1) + types.no_die(p), 1.0)
    assert types.no_die(np.array([[0.5, 0.5, 0, 0, 0, 0]]))[0] == 0.0


def _copy(tmp_path: Path, classes: list[str]) -> str:
    onnx = tmp_path / "reader.onnx"
    shutil.copy(ROOT / "vision" / "models" / "types.onnx", onnx)
    card = json.loads((ROOT / "vision" / "models" / "types.json").read_text())
    onnx.with_suffix(".json").write_text(json.dumps({**card, "classes": classes}))
    return str(onnx)


def test_a_card_that_names_other_classes_than_the_reader_gives_is_refused(tmp_path):
    crops = [np.zeros((types.CROP, types.CROP, 3), np.uint8)]
    with pytest.raises(ValueError, match="7 outputs, its card names 6 classes"):
        types.read_type_crops(crops, model=_copy(tmp_path, list(types.TYPES)))
    with pytest.raises(ValueError, match="classes"):
        types.read_type_crops(crops, model=_copy(tmp_path, [*types.TYPES[::-1], types.NONE]))


#: matteop65 photos on which the type reader without "none" typed the cable tag printed "C12.0" a d4 (read by
#: the models trained without matteop65; fifty-eighth session), and where the tag lies: (x, y, w, h)
TAGGED = {"two_9.jpg": (172, 47, 61, 61), "five_13.jpg": (157, 37, 62, 62), "five_44.jpg": (48, 93, 57, 57),
          "four_20.jpg": (107, 113, 70, 69), "six_33.jpg": (136, 382, 93, 91), "six_35.jpg": (64, 27, 81, 75),
          "six_40.jpg": (102, 124, 69, 64), "four_7.jpg": (90, 86, 62, 58)}
#: of them, at least this many read with no die at the tag and every labelled die's value (measured 8 with
#: finder9; 6 with the sixty-eighth session's finder for that fold, finder-rims2's: five_13's tag is read a
#: "6" at 0.11 and four_7's a d4 "3" at 0.22, both asked. That fold's phantoms, 70 -> 76 on 396 photos, are
#: part of the trade installed there: docs/vision.md, "Sixty-eighth session")
TAGS_DROPPED = 6


def _at(dice, box):
    x, y, w, h = box
    return [d for d in dice if abs(d.bbox[0] + d.bbox[2] / 2 - (x + w / 2)) < w / 2
            and abs(d.bbox[1] + d.bbox[3] / 2 - (y + h / 2)) < h / 2]


def test_a_cable_tag_read_as_a_numeral_is_no_die(photos):
    """The premise, read by the models trained without matteop65: the finder finds the tag and the face
    reader calls it a numeral face. The type reader holds it no die, so no die is reported there, and every
    die of the photo is still read."""
    name, (x, y, w, h) = next(iter(TAGGED.items()))
    photo = next(p for p in photo_set("matteop65") if p.path.name == name)
    image = photo.load()
    found = [f for f in find_objects(image, model=MATTEO_LEFT_OUT[0])
             if abs(f.cx - (x + w / 2)) < w / 3 and abs(f.cy - (y + h / 2)) < h / 3]
    assert found, "the premise: the finder finds the tag"
    (r,) = read_faces(image, found[:1], model=MATTEO_LEFT_OUT[1])
    assert r.label == "numeral", "the premise: the face reader calls it a numeral"
    p = types.read_type_crops([crop(image, found[0], scale=types.CROP_SCALE, size=types.CROP)])
    assert types.no_die(p)[0] >= 0.5
    reading = read_table(image, models=MATTEO_LEFT_OUT)
    assert not _at(reading.dice, (x, y, w, h))
    assert sorted(d.value for d in reading.dice) == sorted(d.value for d in photo.dice)


def test_the_tag_is_no_die_on_the_photos_where_it_was_typed_a_d4(photos):
    by_name = {p.path.name: p for p in photo_set("matteop65")}
    dropped = 0
    for name, box in TAGGED.items():
        photo = by_name[name]
        dice = read_table(photo.load(), models=MATTEO_LEFT_OUT).dice
        dropped += not _at(dice, box) and sorted(d.value for d in dice) == sorted(d.value for d in photo.dice)
    assert dropped >= TAGS_DROPPED, dropped
