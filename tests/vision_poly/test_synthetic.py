"""Renders the training never saw (another seed): type and value accuracy, and 6 against 9."""

import cv2
import numpy as np
import pytest

from benchmarks.poly_eval import evaluate_renders, format_report
from vision.poly import read_polyhedral
from vision.poly.synth import KINDS, render, scene

TYPE_FLOOR = 0.98   # 0.996 on these 280 renders; tools/train_poly.py measures the held-out ones (poly.json)
VALUE_FLOOR = 0.97   # 0.993 here ("table" renders, 128 px; 0.879 before, harsh 96 px)
WRONG_BUT_SURE = 1   # 0 here; docs/vision-poly.md


def _read(r):
    x, y, w, h = r.bbox
    return read_polyhedral(r.image[y:y + h, x:x + w])


@pytest.mark.slow
def test_unseen_renders_are_read():
    result = evaluate_renders(280, 777_001)
    assert result["type_accuracy"] >= TYPE_FLOOR, format_report(result)
    assert result["value_accuracy"] >= VALUE_FLOOR, format_report(result)
    assert result["wrong_but_sure"] <= WRONG_BUT_SURE, format_report(result)


@pytest.mark.parametrize("kind", ["d10", "d12", "d20"])
def test_six_and_nine_are_told_apart_by_the_mark(kind):
    # a 6 turned upside down is a 9 but for the dot or bar under it: swaps between them must be rare
    rng = np.random.default_rng(99)
    swaps = total = 0
    for value in (6, 9):
        face = value if kind == "d10" else value - 1
        for _ in range(20):
            got = _read(render(rng, size=96, kind=kind, face=face)).value
            swaps += got == 15 - value
            total += 1
    # measured 2-6 of 40 here (7-10% on 120 renders of another seed); chance is about 20 of 40
    assert swaps <= 8, f"{swaps} of {total} sixes and nines swapped"


def test_every_kind_renders_with_its_label():
    rng = np.random.default_rng(3)
    for kind in KINDS:
        r = render(rng, kind=kind, face=0)
        assert r.image.dtype == np.uint8 and r.image.shape == (128, 128, 3)
        assert r.kind == ("d4" if kind == "d4t" else kind)
        x, y, w, h = r.bbox
        assert x >= 0 and y >= 0 and 20 < w <= 128 - x and 20 < h <= 128 - y


def test_a_profile_is_table_harsh_or_brands():
    # "harsh" is the first, illegible-at-times profile, "brands" the table camera with dice of many
    # makers; anything else is a typo
    rng = np.random.default_rng(4)
    for profile in ("table", "harsh", "brands"):
        assert render(rng, size=96, kind="d20", profile=profile).image.shape == (96, 96, 3)
    with pytest.raises(ValueError, match="profile must be one of 'table', 'harsh', 'brands', not 'blurry'"):
        render(rng, profile="blurry")


def test_a_die_drawn_on_a_given_tray_keeps_the_tray_around_it():
    tray = np.full((96, 96, 3), 0.3, np.float32)
    r = render(np.random.default_rng(5), size=96, kind="d8", tray=tray)
    assert r.mask is not None and r.mask.shape == (96, 96)
    outside = r.mask == 0
    assert abs(float(np.median(r.image[outside])) - 0.3 * 255) < 12     # noise, blur, JPEG only
    with pytest.raises(ValueError, match="tray: expected shape"):
        render(np.random.default_rng(5), size=96, tray=np.zeros((64, 64, 3)))


def test_a_scene_lays_dice_apart_on_one_tray_with_their_labels():
    s = scene(np.random.default_rng(6), count=10, width=640, height=480, sizes=(64, 96))
    assert s.image.shape == (480, 640, 3) and s.image.dtype == np.uint8 and len(s.dice) == 10
    boxes = [d.bbox for d in s.dice]
    for i, (x, y, w, h) in enumerate(boxes):
        assert x >= 0 and y >= 0 and x + w <= 640 and y + h <= 480
        for x2, y2, w2, h2 in boxes[i + 1:]:
            assert x + w <= x2 or x2 + w2 <= x or y + h <= y2 or y2 + h2 <= y, "dice overlap"
    x, y, w, h = boxes[0]
    die = s.image[y:y + h, x:x + w].astype(float)
    assert die.std() > 5    # something is drawn there
    assert {d.kind for d in s.dice} <= {"d4", "d6", "d8", "d10", "d100", "d12", "d20"}

def test_table_renders_keep_the_die_large_enough_to_read():
    # the "table" profile never shrinks a die below MIN_DIE_PX: a small die is downscaled less than
    # the harsh profile would, so its picture keeps more detail (sharpness = variance of the Laplacian)
    import cv2

    from vision.poly.synth import MIN_DIE_PX

    def detail(profile):
        out = []
        for seed in range(30):
            r = render(np.random.default_rng(seed), size=64, kind="d20", profile=profile)
            out.append(cv2.Laplacian(cv2.cvtColor(r.image, cv2.COLOR_BGR2GRAY), cv2.CV_64F).var())
        return np.median(out)

    assert MIN_DIE_PX >= 40
    assert detail("table") > 1.3 * detail("harsh")


def test_a_render_says_where_its_top_numeral_is_and_how_it_is_turned():
    # the numeral reader's own convention: turning the image by ``angle`` makes the numeral upright
    from vision.poly.numeral import read_numeral

    rng = np.random.default_rng(5)
    agree = read = 0
    for _ in range(40):
        r = render(rng, size=192, kind=str(rng.choice(["d6", "d8", "d12"])))
        x, y, w, h = r.bbox
        assert x <= r.centre[0] <= x + w and y <= r.centre[1] <= y + h
        got = read_numeral(r.image[y:y + h, x:x + w])
        if got.text == str(r.value):
            read += 1
            agree += abs((got.angle - r.angle + 180) % 360 - 180) <= 15
    assert read >= 10 and agree >= 0.9 * read, (agree, read)
    assert np.isnan(render(rng, kind="d4t").angle)


def test_the_numeral_weight_is_fitted_on_renders_by_a_reproducible_command():
    # a few renders only: every type it saw gets a setting from the grid, the others keep theirs
    from benchmarks.poly_eval import FLOORS, POWERS, fit_fusion
    from vision.poly import NUMERAL_WEIGHT

    fitted = fit_fusion(((515151, 96, 24),))
    assert set(fitted) == set(NUMERAL_WEIGHT)
    assert all(power in POWERS and floor in FLOORS for power, floor in fitted.values())


def _corners(mask: np.ndarray) -> int:
    contours, _ = cv2.findContours((mask > 127).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hull = cv2.convexHull(max(contours, key=cv2.contourArea))
    return len(cv2.approxPolyDP(hull, 0.03 * cv2.arcLength(hull, True), True))


def test_a_tilted_camera_sees_a_cubes_side_faces_and_keeps_the_die_in_the_picture():
    # from above a d6 is a square; from 45 degrees off the vertical a side face or two show, and its
    # outline has five or six corners unless the view lies along a face
    flat = [_corners(render(np.random.default_rng(s), kind="d6").mask) for s in range(12)]
    tilted = [_corners(render(np.random.default_rng(s), kind="d6", tilt=45).mask) for s in range(12)]
    assert flat == [4] * 12
    assert sum(c >= 5 for c in tilted) >= 8, tilted
    for s, kind in enumerate(KINDS):
        r = render(np.random.default_rng(s), kind=kind, tilt=60)
        x, y, w, h = r.bbox
        assert x > 0 and y > 0 and x + w < 128 and y + h < 128, (kind, r.bbox)
    with pytest.raises(ValueError, match=r"tilt must be 0 \.\. 60 degrees, not 75"):
        render(np.random.default_rng(0), tilt=75)
