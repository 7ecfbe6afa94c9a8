"""The finder's training windows (``vision.windows``): a die filling the window, as the finder's coarse look
sees a small crop, and its target where the die is."""

from __future__ import annotations

import numpy as np

from vision.windows import FILL_SHARE, WIN, batch, filling_window


class Photo:
    def __init__(self, image: np.ndarray, objects: list[tuple[float, float, float, float, int]]) -> None:
        self.image, self.objects = image, objects


def tray_with_bar(w: int = 40, h: int = 24) -> Photo:
    """A grey 400x300 tray with one red w x h "die" centred at (250, 120): longer across than down, so a
    window turned a quarter must turn its box too."""
    img = np.full((300, 400, 3), 128, np.uint8)
    img[120 - h // 2:120 + h // 2, 250 - w // 2:250 + w // 2] = (0, 0, 255)
    return Photo(img, [(250.0, 120.0, float(w), float(h), 3)])


def test_the_die_fills_the_window_and_its_box_lies_on_it() -> None:
    rng = np.random.default_rng(5)
    for _ in range(40):
        got = filling_window(tray_with_bar(), rng)
        assert got is not None
        img, objs = got
        assert img.shape == (WIN, WIN, 3) and objs.shape == (1, 4)
        cx, cy, w, h = objs[0]
        assert FILL_SHARE[0] * WIN - 1 <= max(w, h) <= FILL_SHARE[1] * WIN + 1
        assert abs(w / h - 40 / 24) < 0.05 or abs(h / w - 40 / 24) < 0.05
        # coloured inside the box (its middle half; the jitter turns the hue a little), grey well outside it
        inner = img[int(cy - h / 4):int(cy + h / 4), int(cx - w / 4):int(cx + w / 4)].reshape(-1, 3)
        assert np.median(np.ptp(inner.astype(int), axis=1)) > 60
        outside = np.ones((WIN, WIN), bool)
        y0, x0 = max(0, int(cy - h * 0.7)), max(0, int(cx - w * 0.7))
        outside[y0:int(cy + h * 0.7), x0:int(cx + w * 0.7)] = False
        if outside.any():
            rest = img[outside].astype(int)
            assert np.median(np.ptp(rest, axis=1)) < 40


def test_a_photo_with_no_die_big_enough_gives_no_filling_window() -> None:
    rng = np.random.default_rng(1)
    assert filling_window(tray_with_bar(12, 10), rng) is None
    assert filling_window(Photo(np.zeros((50, 50, 3), np.uint8), []), rng) is None


def test_batch_draws_its_filling_share_from_the_filling_photos() -> None:
    drawn = {"plain": 0, "filled": 0}

    def plain() -> Photo:
        drawn["plain"] += 1
        return tray_with_bar(20, 20)

    def filled() -> Photo:
        drawn["filled"] += 1
        return tray_with_bar()

    rng = np.random.default_rng(3)
    x, _, box, mask = batch(plain, rng, 64, filling=0.25, pick_filled=filled)
    assert x.shape == (64, 3, WIN, WIN) and mask.shape[0] == 64
    assert 6 <= drawn["filled"] <= 30 and drawn["plain"] == 64 - drawn["filled"]
    # a filling window's box is logged as log(side / 16): at least 0.55 * 160 = 88 px across
    big = [(box[i, :2][:, mask[i, 0] > 0] > np.log(80 / 16)).any() for i in range(64)]
    assert sum(big) >= drawn["filled"]
    # at no filling share no random number is drawn for it: an older recipe replays as it was
    drawn.update(plain=0, filled=0)
    with_filled = batch(plain, np.random.default_rng(8), 16, pick_filled=filled)
    assert drawn == {"plain": 16, "filled": 0}
    without = batch(plain, np.random.default_rng(8), 16)
    assert all(np.array_equal(a, b) for a, b in zip(with_filled, without, strict=True))
