"""Training windows for the die finder: a window of a photo scaled so its dice measure 10 .. 110 px
(log-uniform), turned, flipped, with colour, blur, noise and JPEG jitter, and the targets the finder learns
from it (the die-centre heatmap, the box at each die's cell). ``tools/train_finder.py`` trains the shipped
finder on them with torch, ``vision.netfit`` fits it to a table on the Pi with numpy: the same windows.

Pure: numpy and OpenCV on the images given, randomness only from the generator given.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Protocol

import cv2
import numpy as np


class Photo(Protocol):
    """A photo and its dice: ``objects`` holds (centre x, centre y, width, height, value) in pixels."""

    @property
    def image(self) -> np.ndarray: ...

    @property
    def objects(self) -> Sequence[tuple[float, float, float, float, int]]: ...


WIN = 160
STRIDE = 4


def recolour(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A die's value is its pips' layout, whatever the colours: turn the hue anywhere, swap the colour
    channels, drop the colour, or swap light and dark (white pips on a dark body become dark pips on a
    light one). A table never seen brings colours the training sets did not have."""
    k = int(rng.integers(4))
    if k == 0:
        hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV)
        hsv[..., 0] = ((hsv[..., 0].astype(np.int32) + int(rng.integers(180))) % 180).astype(np.uint8)
        return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)
    if k == 1:
        return np.ascontiguousarray(img[..., rng.permutation(3)])
    if k == 2:
        return cv2.cvtColor(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    return 255 - img


def camera(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One harsh camera: under-exposed with sensor noise, out of focus, or heavily compressed
    (``benchmarks/camera_probe.py`` found the readers lose 3-13 points found on such frames)."""
    kind = int(rng.integers(3))
    if kind == 0:
        out = img.astype(np.float32) * rng.uniform(0.3, 0.7) + rng.normal(0, rng.uniform(3, 14), img.shape)
        return np.clip(out, 0, 255).astype(np.uint8)
    if kind == 1:
        return cv2.GaussianBlur(img, (0, 0), rng.uniform(1.2, 2.4))
    ok, data = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(12, 35))])
    return np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR)) if ok else img


def jitter(img: np.ndarray, rng: np.random.Generator, colour: float = 0.0, harsh: float = 0.0) -> np.ndarray:
    """Colour, contrast, blur, noise and JPEG; ``colour`` of the images are first recoloured (``recolour``),
    ``harsh`` of them then seen by a harsh camera (``camera``): no random number is drawn for either when
    0, so older recipes replay as they were."""
    if colour and rng.random() < colour:
        img = recolour(img, rng)
    if harsh and rng.random() < harsh:
        img = camera(img, rng)
    out: np.ndarray = img.astype(np.float32)
    if rng.random() < 0.8:
        hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV).astype(np.float32)
        hsv[..., 0] = (hsv[..., 0] + rng.uniform(-12, 12)) % 180
        hsv[..., 1] *= rng.uniform(0.6, 1.4)
        out = cv2.cvtColor(np.clip(hsv, 0, 255).astype(np.uint8), cv2.COLOR_HSV2BGR).astype(np.float32)
    out = (out - 128) * rng.uniform(0.7, 1.3) + 128 + rng.uniform(-35, 35)
    if rng.random() < 0.3:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.4, 1.6))
    if rng.random() < 0.4:
        out += rng.normal(0, rng.uniform(2, 10), out.shape)
    out = np.clip(out, 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        q = int(rng.integers(30, 90))
        out = np.asarray(cv2.imdecode(cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, q])[1],
                                      cv2.IMREAD_COLOR))
    return out


def window(s: Photo, rng: np.random.Generator, colour: float = 0.0,
           harsh: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """One training window and its objects (cx, cy, w, h) in window pixels; ``harsh`` of the windows
    are seen by a harsh camera (``camera``)."""
    h, w = s.image.shape[:2]
    sizes = [max(o[2], o[3]) for o in s.objects]
    med = float(np.median(sizes)) if sizes else float(np.exp(rng.uniform(math.log(20), math.log(200))))
    big = len(s.objects) <= 2
    target = float(np.exp(rng.uniform(math.log(10), math.log(150 if big else 110))))
    f = target / med
    side = WIN / f
    if s.objects and rng.random() < 0.75:
        pick = s.objects[int(rng.integers(len(s.objects)))]
        cx, cy = pick[0] + rng.uniform(-0.5, 0.5) * side * 0.8, pick[1] + rng.uniform(-0.5, 0.5) * side * 0.8
    else:
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    x0, y0 = cx - side / 2, cy - side / 2
    m = np.array([[f, 0, -x0 * f], [0, f, -y0 * f]], np.float32)
    border = cv2.BORDER_REFLECT if rng.random() < 0.5 else cv2.BORDER_CONSTANT
    img = cv2.warpAffine(s.image, m, (WIN, WIN), flags=cv2.INTER_AREA if f < 1 else cv2.INTER_LINEAR,
                         borderMode=border, borderValue=tuple(int(v) for v in rng.integers(0, 256, 3)))
    objs = _placed(s, x0, y0, f)
    if border == cv2.BORDER_REFLECT and (x0 < 0 or y0 < 0 or x0 + side > w or y0 + side > h):
        # reflected dice are real-looking dice with no label: use a constant border instead
        img = cv2.warpAffine(s.image, m, (WIN, WIN), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return _turned(img, objs, rng, colour, harsh)


def _placed(s: Photo, x0: float, y0: float, f: float) -> list[tuple[float, float, float, float]]:
    """``s``'s objects whose centre falls in the window at (``x0``, ``y0``) scaled by ``f``, in window px."""
    objs = []
    for ox, oy, ow, oh, _ in s.objects:
        nx, ny = (ox - x0) * f, (oy - y0) * f
        if 0 <= nx < WIN and 0 <= ny < WIN:
            objs.append((nx, ny, ow * f, oh * f))
    return objs


def _turned(img: np.ndarray, objs: list[tuple[float, float, float, float]], rng: np.random.Generator,
            colour: float, harsh: float) -> tuple[np.ndarray, np.ndarray]:
    """A window and its objects turned a random number of quarter turns, flipped half the time, jittered."""
    k = int(rng.integers(4))
    img = np.ascontiguousarray(np.rot90(img, k))
    o = np.array(objs, np.float32).reshape(-1, 4)
    for _ in range(k):   # np.rot90 turns counter-clockwise: (x, y) -> (y, W - x)
        o = np.stack([o[:, 1], WIN - o[:, 0], o[:, 3], o[:, 2]], 1) if len(o) else o
    if rng.random() < 0.5:
        img = np.ascontiguousarray(img[:, ::-1])
        if len(o):
            o[:, 0] = WIN - o[:, 0]
    return jitter(img, rng, colour, harsh), o


#: a filling window's die measures this share of the window (long side): chase's crops hold a die with a
#: margin of 4-20% of its side on each side, 0.71-0.93 of the crop, which the finder's coarse look
#: (``vision.finder.FIRST_SIDES``) brings to the window's size; wider on both sides
FILL_SHARE = (0.55, 0.95)
#: ... and the die was first seen at this many px (long side), as a small crop's die is before the coarse
#: look enlarges it: the enlargement's blur is part of what the finder must read through
FILL_SEEN = (36.0, 80.0)


def filling_window(s: Photo, rng: np.random.Generator, colour: float = 0.0,
                   harsh: float = 0.0) -> tuple[np.ndarray, np.ndarray] | None:
    """A training window that one of ``s``'s dice fills (``FILL_SHARE``), seen at a small crop's
    resolution (``FILL_SEEN``) and enlarged, as the finder's coarse look sees a die filling a small
    frame; its objects as ``window`` gives them. None when ``s`` has no die of at least 16 px. A die's pips
    are then as big as the dice of an ordinary window: the finder must learn they are not dice."""
    dice = [o for o in s.objects if max(o[2], o[3]) >= 16]
    if not dice:
        return None
    ox, oy, ow, oh, _ = dice[int(rng.integers(len(dice)))]
    long = max(ow, oh)
    share = float(rng.uniform(*FILL_SHARE))
    f = share * WIN / long
    side = WIN / f
    room = (1 - share) / 2 * side
    cx, cy = ox + rng.uniform(-room, room), oy + rng.uniform(-room, room)
    x0, y0 = cx - side / 2, cy - side / 2
    seen = float(rng.uniform(*FILL_SEEN))
    low = max(8, min(WIN, round(seen / share)))   # the small crop's side, px
    fl = low / side
    m = np.array([[fl, 0, -x0 * fl], [0, fl, -y0 * fl]], np.float32)
    small = cv2.warpAffine(s.image, m, (low, low), flags=cv2.INTER_AREA if fl < 1 else cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_REPLICATE)
    img = cv2.resize(small, (WIN, WIN), interpolation=cv2.INTER_LINEAR)
    return _turned(img, _placed(s, x0, y0, f), rng, colour, harsh)


def targets(objs: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    g = WIN // STRIDE
    hm = np.zeros((g, g), np.float32)
    box = np.zeros((4, g, g), np.float32)
    mask = np.zeros((g, g), np.float32)
    yy, xx = np.mgrid[0:g, 0:g].astype(np.float32)
    for cx, cy, w, h in objs:
        gx, gy = cx / STRIDE, cy / STRIDE
        ix, iy = min(g - 1, int(gx)), min(g - 1, int(gy))
        sigma = max(0.6, 0.12 * min(w, h) / STRIDE)
        hm = np.maximum(hm, np.exp(-((xx - ix) ** 2 + (yy - iy) ** 2) / (2 * sigma ** 2)))
        box[:, iy, ix] = (math.log(max(w, 2) / 16), math.log(max(h, 2) / 16), gx - ix, gy - iy)
        mask[iy, ix] = 1
    return hm, box, mask


def batch(pick: Callable[[], Photo], rng: np.random.Generator, n: int, colour: float = 0.0,
          harsh: float = 0.0, filling: float = 0.0, pick_filled: Callable[[], Photo] | None = None
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``n`` windows of the photos ``pick`` draws (it draws from ``rng`` before each window), stacked as the
    finder takes them: images (n, 3, WIN, WIN) float32 in 0..1, heatmaps (n, 1, g, g), boxes (n, 4, g, g)
    and box masks (n, 1, g, g), g = WIN / STRIDE. A ``filling`` share of them are ``filling_window``s of
    the photos ``pick_filled`` draws (photos whose boxes hold the whole die)."""
    xs, hms, boxes, masks = [], [], [], []
    for _ in range(n):
        got = None
        if filling and pick_filled is not None and rng.random() < filling:   # none drawn at 0: old recipes
            got = filling_window(pick_filled(), rng, colour, harsh)          # replay as they were
        img, objs = got if got is not None else window(pick(), rng, colour, harsh)
        hm, box, mask = targets(objs)
        xs.append(img.transpose(2, 0, 1))
        hms.append(hm)
        boxes.append(box)
        masks.append(mask)
    return (np.stack(xs).astype(np.float32) / 255, np.stack(hms)[:, None], np.stack(boxes),
            np.stack(masks)[:, None])
