"""Vision IV's type reader (vision.types): the model through cv2.dnn, a die filling the frame found and
typed, the d4, and floors on the real sets each read by the model trained without them
(benchmarks/poly_eval.py --types has the full runs; docs/vision-poly.md the numbers)."""

import importlib.util
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import finder, read_table, types
from vision.data import LURIG_FOLDS, photo_set

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("poly_eval", ROOT / "benchmarks" / "poly_eval.py")
assert _spec is not None and _spec.loader is not None
poly_eval = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(poly_eval)


def test_card_names_the_file_and_the_held_out_models_exist():
    card = finder.model_card("types")
    assert card["sha256"] == finder.sha256(finder.model_path("types"))
    assert card["command"].startswith("python3 tools/train_types.py")
    assert card["classes"] == [*types.TYPES, types.NONE]
    for fold in (*LURIG_FOLDS, "burks"):
        assert (ROOT / "benchmarks" / "models" / f"types-no-{fold}.onnx").is_file(), fold


def test_type_reader_gives_probabilities_over_the_types():
    crops = [np.full((types.CROP, types.CROP, 3), v, np.uint8) for v in (0, 120, 250)]
    p = types.read_type_crops(crops)
    assert p.shape == (3, len(types.TYPES))
    assert np.allclose(p.sum(axis=1) + types.no_die(p), 1.0)    # "none": tests/vision4/test_no_die.py
    assert types.read_type_crops([]).shape == (0, len(types.TYPES))


def test_a_type_read_surely_at_the_first_look_is_not_turned(photos):
    """``types.ONE_TURN``: crops of burks and Lurig photos whose unturned look reads a type at 0.99 or more
    keep that look; the others are the mean of the eight looks of ``types.dihedral_outputs``. (Every thirtieth
    Lurig photo from the sixth: at the boxes of the sixty-third session's finder every crop of every
    hundredth was sure at one look, 35 of 35; of every thirtieth, 80 of 82. At the sixty-eighth session's
    finder's boxes those 82 were all sure; of every fifth Lurig photo 11 of 400 are not, 5 of them from the
    sixth on.)"""
    from vision.faces import crop

    crops = []
    for photo in [p for p in photo_set("burks") if p.dice][::6] + photo_set("lurig")[5::30]:
        image = photo.load()
        crops += [crop(image, f, scale=types.CROP_SCALE, size=types.CROP)
                  for f in finder.find_objects(image)[:1]]
    one = types._probabilities(finder.turned_outputs(crops, "types", turns=1, batch=8), "types")
    eight = types._probabilities(types.dihedral_outputs(crops), "types")
    sure = one.max(axis=1) >= types.ONE_TURN
    assert 0 < sure.sum() < len(crops), "the premise: some crops sure at one look, some not"
    got = types.read_type_crops(crops)
    k = len(types.TYPES)   # the reader's outputs end with "none", which ``read_type_crops`` leaves out
    assert np.allclose(got[sure], one[sure, :k]) and np.allclose(got[~sure], eight[~sure, :k])
    assert not np.allclose(one[~sure], eight[~sure])


def test_a_crop_and_its_mirror_image_are_typed_alike(photos):
    """The eight looks (four turns of the crop, four of its mirror) are the same set for a crop and its
    mirror image, so a die seen from the other side is typed the same; four turns alone do not do that."""
    from vision.faces import crop

    crops = []
    for photo in photo_set("lurig")[5::100]:
        image = photo.load()
        crops += [crop(image, f, scale=types.CROP_SCALE, size=types.CROP)
                  for f in finder.find_objects(image)[:1]]
    mirrors = [np.ascontiguousarray(c[:, ::-1]) for c in crops]
    assert np.allclose(types.dihedral_outputs(crops), types.dihedral_outputs(mirrors), atol=1e-4)
    four = finder.turned_outputs(crops, "types", turns=4, batch=8)
    assert not np.allclose(four, finder.turned_outputs(mirrors, "types", turns=4, batch=8), atol=1e-4)
    with pytest.raises(ValueError, match="turns must be 1 or 4"):
        types.read_type_crops(crops, turns=2)


def _filling(photo) -> np.ndarray:
    """A Lurig photo (480x480, one die) cut and enlarged so the die fills much of a 640x480 frame."""
    return cv2.resize(photo.load()[60:420], (640, 480), interpolation=cv2.INTER_LINEAR)


#: of the Lurig photos ``[::50]`` (40, every type) enlarged to fill a 640x480 frame: found whole (a die
#: at least 150 px wide) and typed right at least this many times; measured 2026-11-25 (in the comment)
FILLING_FOUND, FILLING_TYPED = 30, 28     # measured 32, 30 (shipped model: these videos were trained on)


def test_a_die_filling_a_640x480_frame_is_found_and_typed(photos):
    found = typed = 0
    for photo in photo_set("lurig")[::50]:
        reading = read_table(_filling(photo))
        die = max(reading.dice, key=lambda d: d.bbox[2] * d.bbox[3], default=None)
        if die is None or die.bbox[2] < 150:
            continue
        found += 1
        typed += die.sides == photo.dice[0].sides
    assert found >= FILLING_FOUND and typed >= FILLING_TYPED, (found, typed)


def _enlarged(image: np.ndarray, f: finder.Found, fill: float) -> np.ndarray:
    """``image`` cut round the object ``f`` so that its box spans ``fill`` of a 640x480 frame's height."""
    h = f.side / fill
    w = h * 4 / 3
    m = np.float32([[640 / w, 0, -(f.cx - w / 2) * 640 / w], [0, 480 / h, -(f.cy - h / 2) * 480 / h]])
    return cv2.warpAffine(image, m, (640, 480), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


@pytest.mark.parametrize(("fill", "floor"), [(0.85, 42), (1.0, 39)])  # measured 43, 41 of 43 (before: 38, 34)
def test_a_polyhedral_die_as_tall_as_the_frame_is_one_die(photos, fill, floor):
    """burks dice (one in two) enlarged until the die spans 0.85 and all of a 640x480 frame's height: the
    160 px look finds the die at 0.92-0.95 and the 512 px look its numerals and faces at 0.5-0.72. The finder
    took the die for a heap holding them and dropped it (``vision.finder.WHOLE_MARGIN``); what was read was
    a numeral or a face, typed as a small d6."""
    found = typed = 0
    shots = [p for p in photo_set("burks") if p.dice][::2]
    for photo in shots:
        image = photo.load()
        frame = _enlarged(image, finder.find_objects(image)[0], fill)
        die = max(read_table(frame).dice, key=lambda d: d.bbox[2] * d.bbox[3], default=None)
        if die is None or max(die.bbox[2:]) < 0.5 * fill * 480:
            continue
        found += 1
        typed += die.sides == photo.dice[0].sides
    assert len(shots) == 43
    assert found >= floor and typed >= floor, (found, typed)


def test_barrel_d4s_are_read_from_their_top_face(photos):
    """burks' d4s are barrels (long prisms) with the numeral on the face that lies up: type 4, and the
    value of that face (a tetrahedral d4 is read at its apex; ``vision.poly``)."""
    d4s = [p for p in photo_set("burks") if p.path.name.startswith("D4_")]
    got = [max(read_table(p.load()).dice, key=lambda d: d.confidence, default=None) for p in d4s]
    typed = sum(d is not None and d.sides == 4 for d in got)
    right = sum(d is not None and d.sides == 4 and d.value == p.dice[0].value
                for d, p in zip(got, d4s, strict=True))
    assert len(d4s) == 20
    assert typed >= 20 and right >= 19, (typed, right)


#: part -> (found, type right, value right, wrong-and-sure at most), in photos, on Lurig ``[::8]`` of each
#: fold and all of burks, each read by the type reader trained without it; measured 2026-11-25 (comment)
HELD_OUT_FLOORS = {
    "lurig wood": (99, 96, 0, 1),       # measured 103, 100, -, 0 of 103 photos (2026-12-03, an unsure d4
                                        # with a cube's outline read as its second type; 103, 94, -, 0 with
                                        # the type readers of the fifteenth session, 2026-11-27; finder8 with
                                        # the readers of before 103, 88, -, 3: the reader without this fold
                                        # called the orange d6s' flagged "1" a d4 at 0.81-0.87)
    "lurig color": (63, 62, 0, 1),      # measured 65, 65, -, 0 (before 65, 63, -, 0)
    "lurig other": (80, 77, 0, 1),      # measured 83, 80, -, 0 (before 83, 75, -, 0)
    "burks": (84, 84, 83, 1),           # measured 86, 86, 85, 0 of 86 (before 86, 86, 86, 0)
}


@pytest.mark.slow
def test_each_held_out_part_is_read_at_least_as_measured(photos):
    rows = {r["part"]: r for r in poly_eval.evaluate_types(every=8)}
    assert set(rows) == set(HELD_OUT_FLOORS)
    for part, (found, typed, valued, wrong_sure) in HELD_OUT_FLOORS.items():
        r = rows[part]
        assert not r["model"].startswith("types.onnx"), "a held-out model is missing"
        assert r["found"] >= found and r["type_right"] >= typed, (part, r)
        assert r["value_right"] >= valued and r["wrong_sure"] <= wrong_sure, (part, r)


#: of the 103 hand-labelled Lurig photos (benchmarks/lurig_values.json: d6, d8, d10, d20 of several brands),
#: read through read_table with the type reader trained without each photo's fold: (found, typed, value
#: right, wrong and sure at most); measured 103, 95, 83, 2 (finder8, a die's confidence the product of its
#: type's and value's, 2026-11-27; finder6 with the least of the two 102, 95, 79, 1; with finder8 and the
#: least 4 wrong and sure: a pink d8 typed d4 at 0.81, a d6 "1" typed d4 at 0.80). The two left: a d20's
#: "6" read 9 at 0.84 and a d8's flagged "1" read 7 at 0.91. Forty-sixth session: 103, 101, 89, 0 (the d20's
#: label was wrong: its top face is a turned "9.", benchmarks/lurig_values.json says why; speckles are no
#: mark of a numeral); the floor keeps a few photos' room for the value, none for a sure mistake
LURIG_VALUE_FLOORS = (102, 99, 86, 0)


@pytest.mark.slow
def test_real_dice_of_many_brands_are_valued_at_least_as_measured(photos):
    r = poly_eval.evaluate_lurig_values()
    total = [sum(c) for c in zip(*r["rows"].values(), strict=True)]
    assert total[0] == 103
    found, typed, valued, wrong_sure = LURIG_VALUE_FLOORS
    assert total[1] >= found and total[2] >= typed and total[3] >= valued, (total, r["misses"])
    assert total[5] <= wrong_sure, r["misses"]


#: an orange speckled numeral d6 of the Lurig wooden table, its flagged "1" up, that the type reader trained
#: without the wood videos called a d4 at 0.77 (it never saw the die) until the fifty-ninth session (the
#: reader trained with "none" types it a d6 outright); its outline is a square
CUBE_TYPED_D4 = "d6_wood0046.jpg"


@pytest.mark.slow
def test_an_unsure_d4_with_a_cubes_outline_is_read_as_the_second_type(photos):
    """``vision.learned._unsure_d4_turned`` on the die's own square: the probabilities the reader gave it
    (d4 0.77, d6 next) make it a d6; a d4 read surely stays a d4, and so does an unsure one whose outline is
    no cube's (a real tetrahedral d4)."""
    from vision import learned
    from vision.types import SIDES

    image = next(p for p in photo_set("lurig") if p.path.name == CUBE_TYPED_D4).load()
    h, w = image.shape[:2]
    f = min(finder.find_objects(image), key=lambda f: np.hypot(f.cx - w / 2, f.cy - h / 2))
    square = learned._poly_square(image, f)
    unsure = np.array([0.77, 0.2, 0.01, 0.01, 0.005, 0.005])
    assert SIDES[learned._unsure_d4_turned(square, unsure)] == 6
    assert SIDES[learned._unsure_d4_turned(square, np.array([0.85, 0.13, 0.01, 0.005, 0.0025, 0.0025]))] == 4
    d4 = next(p for p in photo_set("lurig") if p.path.name.startswith("d4_") and p.dice[0].sides == 4).load()
    f = min(finder.find_objects(d4), key=lambda f: np.hypot(f.cx - d4.shape[1] / 2, f.cy - d4.shape[0] / 2))
    assert SIDES[learned._unsure_d4_turned(learned._poly_square(d4, f), unsure)] == 4
    # a barrel d4 whose mask comes out square, typed surely by the reader that never saw burks, stays a d4
    barrel = next(p for p in photo_set("burks") if p.path.name == "D4_A_1.jpg").load()
    (d4,) = read_table(barrel, models=(*poly_eval.SEEING, str(poly_eval.MODELS / "types-no-burks.onnx"))).dice
    assert d4.sides == 4
