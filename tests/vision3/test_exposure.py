"""A burnt or dark frame: ``vision.exposure.light`` names it, and ``read_table``'s reading says so (the
page tells the players; docs/vision.md, "Seventy-fourth session")."""

import json

import numpy as np

from vision import learned
from vision.data import photo_set
from vision.exposure import badly_exposed, light
from vision.table import read_table


def over_exposed(image: np.ndarray) -> np.ndarray:
    """camera_probe's "bright" look: x1.6 + 20, clipped."""
    return np.clip(image.astype(np.float32) * 1.6 + 20, 0, 255).astype(np.uint8)


def test_real_photos_as_shot_are_not_flagged_and_over_exposed_or_dark_ones_are(photos):
    for name in ("matteop65", "nell", "aws"):
        image = photo_set(name)[0].load()
        assert light(image) is None, name
        assert light((image * 0.35).astype(np.uint8)) is None, name   # dim, and read well (camera probe)
        assert light((image * 0.05).astype(np.uint8)) == "dark", name
    assert light(over_exposed(photo_set("matteop65")[0].load())) == "burnt"


def test_a_saturated_colour_an_empty_frame_and_a_grey_frame():
    blue = np.zeros((120, 160, 3), np.uint8)
    blue[:, :, 0] = 255
    assert light(blue) is None                       # 255 in one channel is a colour, not burnt white
    assert light(np.zeros((0, 0, 3), np.uint8)) is None
    assert light(np.full((120, 160), 255, np.uint8)) == "burnt"
    assert light(np.full((3, 5, 3), 255, np.uint8)) == "burnt"      # smaller than a step: one pixel read
    assert light(np.full((120, 160, 1), 20, np.uint8)) == "dark"
    white = np.full((120, 160, 3), 128, np.uint8)
    white[:, :40] = 255                              # a quarter of the frame white: burnt
    assert badly_exposed(white)
    white[:, 20:40] = 128                            # an eighth: a white card on the tray, not burnt
    assert not badly_exposed(white)


def four_fives() -> np.ndarray:
    """matteop65's five_32.jpg: four "5"s, each read sure."""
    (photo,) = [p for p in photo_set("matteop65") if p.path.name == "five_32.jpg"]
    return photo.load()


def test_a_burnt_frame_is_read_as_ever_and_its_reading_says_so(photos):
    image = four_fives()
    shot = read_table(image)
    assert shot.light is None and "light" not in shot.to_json()
    assert sum(d.value == 5 and d.confidence >= learned.SURE for d in shot.dice) >= 3
    burnt = read_table(over_exposed(image))
    assert burnt.light == "burnt" and burnt.to_json()["light"] == "burnt"
    assert [d.value for d in burnt.dice].count(5) >= 3            # still read, and proposed
    assert read_table((image * 0.05).astype(np.uint8), reader="rules").light == "dark"


def test_the_tray_is_what_is_judged_not_a_white_sheet_beside_it(photos):
    image = four_fives().copy()
    w = image.shape[1]
    image[:, : w // 3] = 255                         # a sheet of paper over the left third, off the tray
    assert light(image) == "burnt"
    reading = read_table(image, tray=[[0.4, 0], [1, 0], [1, 1], [0.4, 1]])
    assert reading.light is None and any(d.confidence >= learned.SURE for d in reading.dice)


def test_scan_names_a_burnt_photo_in_json_and_in_its_line(photos, tmp_path, capsys):
    import cv2

    from companion.cli import main

    shot, burnt = tmp_path / "shot.png", tmp_path / "burnt.png"
    cv2.imwrite(str(shot), four_fives())
    cv2.imwrite(str(burnt), over_exposed(four_fives()))
    assert main(["scan", "--json", str(shot), str(burnt)]) == 0
    first, second = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert "light" not in first and second["light"] == "burnt"
    assert [d["value"] for d in second["dice"]].count(5) >= 3
    assert main(["scan", str(burnt)]) == 0
    assert capsys.readouterr().out.rstrip().endswith("; light: burnt")
