"""Synthetic tray pictures with objects drawn at known places, for unit tests and demos.

These are drawings, not photos: accuracy is never claimed on them (the labelled real photos are for
that). Dice are drawn straight from above (top face only), tokens as printed discs: a goblin head
(``"alive"``: a face with pointed ears and two eyes) or a skull (``"dead"``: a cranium, dark eye
sockets, teeth).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.pips import _LAYOUTS

Colour = tuple[int, int, int]


def tray(width: int = 640, height: int = 480, *, kind: str = "felt", seed: int = 0) -> np.ndarray:
    """An empty tray, BGR uint8 (height, width, 3): ``"felt"`` (green), ``"wood"`` (grain), ``"white"``,
    ``"black"`` (a near-black tray)."""
    rng = np.random.default_rng(seed)
    img: np.ndarray
    if kind == "felt":
        img = np.empty((height, width, 3), np.float32)
        img[:] = (60, 110, 40)
        img += rng.normal(0, 4, img.shape)
    elif kind == "wood":
        y = np.arange(height, dtype=np.float32)[:, None]
        x = np.arange(width, dtype=np.float32)[None, :]
        grain = np.sin(y / 6.0 + 3 * np.sin(x / 90.0)) * 10 + np.sin(y / 1.7 + x / 40.0) * 4
        img = np.empty((height, width, 3), np.float32)
        img[..., 0] = 120 + grain
        img[..., 1] = 165 + grain
        img[..., 2] = 200 + grain
        img += rng.normal(0, 3, img.shape)
    elif kind == "white":
        img = np.full((height, width, 3), 228, np.float32) + rng.normal(0, 3, (height, width, 3))
    elif kind == "black":
        img = np.full((height, width, 3), 22, np.float32) + rng.normal(0, 3, (height, width, 3))
    else:
        raise ValueError(f"kind: expected 'felt', 'wood', 'white' or 'black', got {kind!r}")
    return np.clip(img, 0, 255).astype(np.uint8)


def polka_dots(width: int, height: int, *, period: int, radius: int, cloth: Colour, dot: Colour,
               stagger: bool = False) -> np.ndarray:
    """A polka-dot cloth, BGR uint8 (height, width, 3): ``dot`` discs of ``radius`` every ``period`` px on
    ``cloth``, every other row shifted half a period when ``stagger``. No die on it: any two by two of its
    dots is a "4" face without its die (``benchmarks/cloth_phantoms.py``)."""
    img = np.empty((height, width, 3), np.uint8)
    img[:] = cloth
    for row, y in enumerate(range(period // 2, height, period)):
        shift = period // 2 if stagger and row % 2 else 0
        for x in range(period // 2 + shift, width, period):
            cv2.circle(img, (x, y), radius, dot, -1, cv2.LINE_AA)
    return img


@dataclass(frozen=True, slots=True)
class Drawn:
    """What was drawn where: ``kind`` ``"die"`` (value) or ``"token"`` (face), centre and size in px."""

    kind: str
    x: float
    y: float
    size: float
    value: int | None = None
    face: str | None = None


def draw_die(img: np.ndarray, x: float, y: float, size: float, value: int, *, angle: float = 0.0,
             body: Colour = (235, 235, 235), pip: Colour = (20, 20, 20), shadow: bool = True) -> Drawn:
    """Draw a d6 top face (in place) centred at (x, y), ``size`` px wide, rotated by ``angle`` degrees."""
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    half = size / 2
    corners = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
    rot = np.array([[c, -s], [s, c]])
    pts = corners @ rot.T + [x, y]
    if shadow:
        cv2.fillConvexPoly(img, np.round(pts + size * 0.08).astype(np.int32),
                           tuple(int(v * 0.6) for v in img[int(y), int(x)]), cv2.LINE_AA)
    cv2.fillConvexPoly(img, np.round(pts).astype(np.int32), body, cv2.LINE_AA)
    a = size * 0.27
    r = size * 0.09
    for px, py in _LAYOUTS[value] @ rot.T * a + [x, y]:
        cv2.circle(img, (round(px * 16), round(py * 16)), round(r * 16), pip, -1, cv2.LINE_AA, shift=4)
    return Drawn("die", x, y, size, value=value)


def draw_logo_die(img: np.ndarray, x: float, y: float, size: float, *, angle: float = 0.0,
                  body: Colour = (235, 235, 235), ink: Colour = (20, 20, 20), shadow: bool = True) -> Drawn:
    """Draw (in place) a d6 top face whose marks are an emblem instead of pips (a maker's logo on the
    6 or the 1): a five-pointed star with a ring around it. ``value`` of the result is None: no pip
    reader can tell which face the emblem stands for."""
    draw_die(img, x, y, size, 1, angle=angle, body=body, pip=body, shadow=shadow)
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    star = []
    for k in range(10):
        t = math.pi * k / 5 - math.pi / 2
        rr = size * (0.3 if k % 2 == 0 else 0.12)
        u, v = rr * math.cos(t), rr * math.sin(t)
        star.append((x + u * c - v * s, y + u * s + v * c))
    cv2.fillPoly(img, [np.round(np.array(star) * 16).astype(np.int32)], ink, cv2.LINE_AA, shift=4)
    cv2.circle(img, (round(x * 16), round(y * 16)), round(size * 0.38 * 16), ink,
               max(1, round(size * 0.03)), cv2.LINE_AA, shift=4)
    return Drawn("die", x, y, size, value=None)


def draw_token(img: np.ndarray, x: float, y: float, size: float, face: str, *, angle: float = 0.0,
               paper: Colour = (200, 225, 235), ink: Colour = (40, 40, 40)) -> Drawn:
    """Draw a round printed token (in place): ``face`` ``"alive"`` (goblin head) or ``"dead"`` (skull)."""
    r = size / 2
    cv2.circle(img, (round(x), round(y)), round(r), paper, -1, cv2.LINE_AA)
    cv2.circle(img, (round(x), round(y)), round(r), ink, max(1, round(r / 14)), cv2.LINE_AA)
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))

    def at(u: float, v: float) -> tuple[int, int]:
        return (round(x + (u * c - v * s) * r), round(y + (u * s + v * c) * r))

    t = max(1, round(r / 12))
    if face == "alive":
        green = (60, 150, 70)
        outline = [(-0.45, -0.35), (-0.85, -0.6), (-0.5, 0.0), (-0.35, 0.45), (0.0, 0.6), (0.35, 0.45),
                   (0.5, 0.0), (0.85, -0.6), (0.45, -0.35), (0.0, -0.5)]
        head = np.array([at(u, v) for u, v in outline], np.int32)
        cv2.fillPoly(img, [head], green, cv2.LINE_AA)
        cv2.polylines(img, [head], True, ink, t, cv2.LINE_AA)
        for u in (-0.22, 0.22):
            cv2.circle(img, at(u, -0.05), max(1, round(r * 0.1)), (20, 200, 230), -1, cv2.LINE_AA)
        axes = (max(1, round(r * 0.22)), max(1, round(r * 0.1)))
        cv2.ellipse(img, at(0.0, 0.25), axes, angle, 0, 180, ink, t, cv2.LINE_AA)
    elif face == "dead":
        bone = (235, 240, 240)
        cv2.circle(img, at(0.0, -0.12), round(r * 0.5), bone, -1, cv2.LINE_AA)
        jaw = np.array([at(-0.3, 0.2), at(0.3, 0.2), at(0.25, 0.6), at(-0.25, 0.6)], np.int32)
        cv2.fillConvexPoly(img, jaw, bone, cv2.LINE_AA)
        for u in (-0.2, 0.2):
            cv2.circle(img, at(u, -0.1), max(1, round(r * 0.14)), ink, -1, cv2.LINE_AA)
        cv2.fillConvexPoly(img, np.array([at(0.0, 0.1), at(-0.07, 0.25), at(0.07, 0.25)], np.int32), ink)
        for u in (-0.15, 0.0, 0.15):
            cv2.line(img, at(u, 0.38), at(u, 0.58), ink, t, cv2.LINE_AA)
    else:
        raise ValueError(f"face: expected 'alive' or 'dead', got {face!r}")
    return Drawn("token", x, y, size, face=face)


def lighting(img: np.ndarray, *, gain: float = 1.0, gradient: float = 0.0, noise: float = 0.0,
             seed: int = 0) -> np.ndarray:
    """A copy with another exposure (``gain``), a left-to-right light falloff and sensor noise."""
    w = img.shape[1]
    ramp = 1.0 - gradient * np.linspace(0, 1, w, dtype=np.float32)[None, :, None]
    out = img.astype(np.float32) * gain * ramp
    if noise:
        out += np.random.default_rng(seed).normal(0, noise, out.shape)
    return np.clip(out, 0, 255).astype(np.uint8)
