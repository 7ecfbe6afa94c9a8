"""The boxes training derives for the Lurig photos (tools/v3_data.py, kept in tools/lurig_boxes.json): the
finder, the face reader and the type reader learn from them, and the product never reads them."""

import json

import numpy as np

from tests.vision3.training_tools import v3_data
from vision.data import photo_set


def _plausible(box, side: int) -> bool:
    """A die's box on a 480 px Lurig photo: about square, neither a speck nor the whole photo."""
    return 0.5 < box[2] / box[3] < 2.0 and 30 < max(box[2], box[3]) < 0.8 * side


def test_the_kept_boxes_are_what_the_code_derives(photos):
    kept = json.loads(v3_data.LURIG_BOXES.read_text())
    assert len(kept) == 2000
    for p in photo_set("lurig")[::250]:
        key = next(k for k in kept if k.endswith("/" + p.path.name))
        image = p.load()
        box = v3_data._segment_one(image, dark_tray=False)
        got = None if box is None else [round(v, 1) for v in v3_data._tighten(image, box)]
        assert got == kept[key], p.path.name


def test_wooden_table_photos_are_boxed_on_the_die_or_left_unboxed(photos):
    """The border's median colour alone boxed grain or the whole photo on most wooden-table photos (the
    kept boxes were checked by eye on 24 of them); on plain paper it agrees with the kept boxes."""
    kept = json.loads(v3_data.LURIG_BOXES.read_text())
    wood = {k: v for k, v in kept.items() if "_wood" in k}
    boxed = [v for v in wood.values() if v is not None]
    assert len(boxed) >= 0.9 * len(wood), (len(boxed), len(wood))
    assert sum(_plausible(b, 480) for b in boxed) >= 0.97 * len(boxed)
    agree = {"wood": [], "color": []}
    for p in photo_set("lurig")[::10]:
        part = "wood" if "_wood" in p.path.name else "color" if "_color" in p.path.name else None
        key = next(k for k in kept if k.endswith("/" + p.path.name))
        if part is None or kept[key] is None:
            continue
        old = v3_data._differs_from_border(p.load(), dark_tray=False)
        agree[part].append(old is not None and v3_data._iou(old, kept[key]) > 0.5)
    rates = {k: float(np.mean(v)) for k, v in agree.items()}
    assert rates["wood"] < 0.6 and rates["color"] > 0.9, rates


def test_a_shadow_on_the_tray_is_not_part_of_the_die():
    """A grey die with the lamp's shadow to its lower right, on a light tray: the box is the die's."""
    image = np.full((480, 480, 3), (200, 215, 225), np.uint8)
    image[230:330, 230:330] = (150, 165, 175)          # the shadow: the tray's colour, darker
    image[200:300, 200:300] = (90, 40, 160)            # the die
    rng = np.random.default_rng(0)
    image = np.clip(image + rng.normal(0, 3, image.shape), 0, 255).astype(np.uint8)
    box = v3_data._segment_one(image, dark_tray=False)
    assert box is not None
    cx, cy, w, h = v3_data._tighten(image, box)
    assert abs(cx - 250) <= 6 and abs(cy - 250) <= 6, (cx, cy)
    assert abs(w - 100) <= 12 and abs(h - 100) <= 12, (w, h)
