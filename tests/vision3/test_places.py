"""Of two objects found at one place, the more confident is kept (vision.learned._one_per_place)."""

from pathlib import Path

from vision import read_table
from vision.data import match_boxes, photo_set
from vision.learned import _one_per_place

ROOT = Path(__file__).resolve().parents[2]
NELL_LEFT_OUT = (str(ROOT / "benchmarks" / "models" / "finder-no-nell.onnx"),
                 str(ROOT / "benchmarks" / "models" / "faces-no-nell.onnx"), "types")


def test_a_side_face_beside_its_top_gives_way_to_the_surer_reading():
    top = ((100, 100, 40, 40), 6, 4, 0.95, False)
    side = ((118, 104, 30, 38), 6, 2, 0.55, False)
    assert _one_per_place([side, top]) == [top]


def test_a_box_around_a_cluster_of_dice_does_not_swallow_them():
    """A box found around three dice, less sure than each, is the cluster, not a die with marks inside."""
    dice = [((100, 100, 40, 40), 6, 3, 0.97, False), ((142, 100, 40, 40), 6, 5, 0.9, False),
            ((121, 142, 40, 40), 6, 1, 0.85, False)]
    cluster = ((95, 95, 130, 130), 6, 4, 0.6, False)
    got = _one_per_place([cluster, *dice])
    assert sorted(got) == sorted(dice)


def test_dice_apart_are_all_kept():
    dice = [((0, 0, 40, 40), 6, 3, 0.9, False), ((50, 0, 40, 40), 6, 2, 0.8, False),
            ((100, 0, 40, 40), 6, 6, 0.7, False)]
    assert sorted(_one_per_place(dice)) == sorted(dice)


def test_nell_photos_whose_dice_a_cluster_box_swallowed_find_them(photos):
    """Read by the models trained without nell-byler, a box found around a group of dice (2-5 times their
    side, read as a "4" or a numeral) took the place of the dice inside it: 3, 2 and 2 of these photos'
    7, 7 and 9 dice were found (2026-11-26)."""
    found = 0
    labelled = 0
    for name in ("IMG_20191208_112205.jpg", "IMG_20191209_095405.jpg", "IMG_20191209_095740.jpg"):
        photo = next(p for p in photo_set("nell") if p.path.name == name)
        dice = read_table(photo.load(), models=NELL_LEFT_OUT).dice
        labels = [d.bbox for d in photo.dice]
        labelled += len(labels)
        found += len(match_boxes(labels, [d.bbox for d in dice]))
    assert labelled == 23
    assert found >= 18
