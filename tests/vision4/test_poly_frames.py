"""Vision IV end to end on whole frames: a percentile pair read from one photo, tetrahedral d4s read at their
apex, one big die filling a 640x480 frame, and a frame of ten polyhedral dice (read_table, one thread).
The real-photo floors are in test_types.py; docs/vision-poly.md has the full runs."""

import importlib.util
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import read_table
from vision.faces import crop
from vision.finder import Found
from vision.learned import POLY_CROP
from vision.percentile import percentile_rolls
from vision.poly import read_polyhedral
from vision.poly.synth import render, scene
from vision.types import SIDES, read_types
from vision.zones import Zones

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("poly_eval", ROOT / "benchmarks" / "poly_eval.py")
assert _spec is not None and _spec.loader is not None
poly_eval = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(poly_eval)

ONE_ZONE = Zones.from_json({"table": [[0, 0], [1, 0], [1, 1], [0, 1]]})


def _burks(photos: Path, name: str) -> np.ndarray:
    image = cv2.imread(str(photos / "burksbuilds__dicetower-dev" / "images" / name))
    assert image is not None, name
    return image


@pytest.mark.parametrize(("tens", "units", "want"), [("D100_A_7.jpg", "D10_A_4.jpg", 63),
                                                      ("D100_A_1.jpg", "D10_A_1.jpg", 100)])
def test_a_percentile_pair_in_one_photo_reads_as_one_result(photos, tens, units, want):
    # two real photos side by side (each one die on the tray), shrunk as a phone photo would be
    frame = np.hstack([_burks(photos, tens), _burks(photos, units)])
    frame = cv2.resize(frame, (frame.shape[1] // 2, frame.shape[0] // 2), interpolation=cv2.INTER_AREA)
    reading = read_table(frame, zones=ONE_ZONE)
    rolls = percentile_rolls(reading.dice)
    assert len(rolls) == 1, [d.to_json() for d in reading.dice]
    assert rolls[0].tens.bbox[0] < rolls[0].units.bbox[0]
    assert rolls[0].value == want, rolls[0].to_json()


#: of 40 rendered tetrahedral d4s ("table" profile, seed 4044), read on their true box by the type reader
#: and then read_polyhedral(sides=4) at the apex, at least this many typed d4 and valued right;
#: measured 2026-11-25 (comment)
TETRA_TYPED, TETRA_VALUED = 38, 37     # measured 40, 40


def test_tetrahedral_d4s_are_read_at_their_apex():
    rng = np.random.default_rng(4044)
    typed = valued = 0
    for _ in range(40):
        r = render(rng, size=128, kind="d4t")
        x, y, w, h = r.bbox
        f = Found(x + w / 2, y + h / 2, w, h, 1.0)
        sides = SIDES[int(np.argmax(read_types(r.image, [f])[0]))]
        got = read_polyhedral(crop(r.image, f, scale=POLY_CROP, size=max(32, min(256, round(POLY_CROP * w)))),
                              sides=sides)
        typed += sides == 4
        valued += sides == 4 and got.value == r.value
    assert typed >= TETRA_TYPED and valued >= TETRA_VALUED, (typed, valued)


#: of 12 rendered dice each filling most of a 640x480 frame (seed 6406), found whole (a box at least half
#: the die's) and typed right at least this many times; measured 2026-11-25 (comment). Low: the face
#: reader takes many big numeral dice for pip d6s (docs/vision-poly.md), so they never reach the type reader
BIG_FOUND, BIG_TYPED = 8, 4     # measured 9, 5


def test_a_rendered_die_filling_a_640x480_frame_is_found_and_typed():
    rng = np.random.default_rng(6406)
    found = typed = 0
    for _ in range(12):
        s = scene(rng, count=1, width=640, height=480, sizes=(400, 470))
        truth = s.dice[0]
        die = max(read_table(s.image).dice, key=lambda d: d.bbox[2] * d.bbox[3], default=None)
        if die is None or max(die.bbox[2:]) < max(truth.bbox[2:]) / 2:
            continue
        found += 1
        typed += die.sides == poly_eval.KIND_SIDES[truth.kind]
    assert found >= BIG_FOUND and typed >= BIG_TYPED, (found, typed)


def test_a_frame_of_ten_polyhedral_dice_is_read_within_the_time_and_their_types_on_true_boxes():
    # the speed target (300 ms a frame of ten, one core) and the type and numeral readers on the dice's
    # true boxes; through read_table the face reader still loses many (docs/vision-poly.md). Measured on
    # these 3 frames: median 111 ms CPU, 30 of 30 typed and 29 valued on the true boxes, none wrong and sure
    r = poly_eval.evaluate_scenes(3, seed=919191)
    assert r["dice"] == 30
    assert r["ms_median"] < 300, r
    assert r["box_type_right"] >= 28 and r["box_value_right"] >= 27 and r["box_wrong_sure"] == 0, r
