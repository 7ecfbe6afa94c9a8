"""Per-player zones of the tray: named polygons in fractions of the frame's width and height."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from vision.errors import InvalidVisionInput

Point = tuple[float, float]


def inside(x: float, y: float, poly: Sequence[Point]) -> bool:
    """Whether a point (fractions of width and height) lies inside ``poly``."""
    within = False
    n = len(poly)
    for i in range(n):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % n]
        if (y1 > y) != (y2 > y):
            xc = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
            if x < xc:
                within = not within
    return within


def _distance(x: float, y: float, poly: Sequence[Point]) -> float:
    best = math.inf
    n = len(poly)
    for i in range(n):
        (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % n]
        dx, dy = x2 - x1, y2 - y1
        length2 = dx * dx + dy * dy
        t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((x - x1) * dx + (y - y1) * dy) / length2))
        best = min(best, math.hypot(x - x1 - t * dx, y - y1 - t * dy))
    return best


#: a tray's outline has at most this many points (as a zone drawn on the page: ``companion.zones.MAX_POINTS``)
TRAY_POINTS = 64
#: a tray polygon's bounding box is at least this share of the frame's side (a smaller one is a typing
#: slip, not a tray: a die is a tenth of a tray camera's frame or more)
TRAY_LEAST = 0.05


def polygon(poly: Any, what: str) -> tuple[Point, ...]:
    """``[[x, y], ...]`` (3+ points, fractions of width and height) as a tuple of points; the error says
    ``what`` was wrong."""
    if not isinstance(poly, Sequence) or isinstance(poly, str) or len(poly) < 3:
        raise InvalidVisionInput(f"{what} needs a polygon of 3+ points, got {poly!r}")
    points = []
    for pt in poly:
        ok = (isinstance(pt, Sequence) and not isinstance(pt, str) and len(pt) == 2
              and all(isinstance(v, int | float) and not isinstance(v, bool) for v in pt))
        if not ok or not all(-0.001 <= float(v) <= 1.001 for v in pt):
            raise InvalidVisionInput(f"{what} point {pt!r} must be [x, y] fractions between 0 and 1")
        points.append((float(pt[0]), float(pt[1])))
    return tuple(points)


def tray_polygon(poly: Any) -> tuple[Point, ...]:
    """The tray's outline (``read_table(tray=)``): a polygon as :func:`polygon` takes it, whose bounding box
    is at least ``TRAY_LEAST`` of the frame each way."""
    if isinstance(poly, Sequence) and not isinstance(poly, str) and len(poly) > TRAY_POINTS:
        raise InvalidVisionInput(f"tray: the outline has {len(poly)} points; at most {TRAY_POINTS}")
    points = polygon(poly, "tray")
    xs, ys = [x for x, _ in points], [y for _, y in points]
    if max(xs) - min(xs) < TRAY_LEAST or max(ys) - min(ys) < TRAY_LEAST:
        raise InvalidVisionInput(f"tray: the polygon {poly!r} spans less than {TRAY_LEAST:g} of the frame "
                                 "across or down: no tray is that small")
    return points


@dataclass(frozen=True, slots=True)
class Zones:
    """Named polygons, each a tuple of (x, y) points in fractions (0..1) of the frame size.

    A point belongs to the first zone that contains it; a point in no zone belongs to the nearest one,
    so every reading has a zone.

    >>> Zones.halves().zone_of(0.2, 0.5)
    'p0'
    """

    zones: tuple[tuple[str, tuple[Point, ...]], ...]

    @classmethod
    def halves(cls) -> Zones:
        """Two zones: ``p0`` the left half of the frame, ``p1`` the right half."""
        return cls((("p0", ((0.0, 0.0), (0.5, 0.0), (0.5, 1.0), (0.0, 1.0))),
                    ("p1", ((0.5, 0.0), (1.0, 0.0), (1.0, 1.0), (0.5, 1.0)))))

    @classmethod
    def from_json(cls, obj: Any) -> Zones:
        """``{"p0": [[x, y], ...], "p1": [...]}`` (fractions of width and height, 3+ points each)."""
        if not isinstance(obj, Mapping) or not obj:
            raise InvalidVisionInput(f"zones: expected a non-empty object of name -> polygon, got {obj!r}")
        out = []
        for name, poly in obj.items():
            if not isinstance(name, str) or not name:
                raise InvalidVisionInput(f"zones: zone name must be a non-empty string, got {name!r}")
            out.append((name, polygon(poly, f"zones: zone {name!r}")))
        return cls(tuple(out))

    def to_json(self) -> dict[str, list[list[float]]]:
        return {name: [[x, y] for x, y in poly] for name, poly in self.zones}

    def zone_of(self, fx: float, fy: float) -> str:
        """Name of the zone of a point given in fractions of width and height."""
        for name, poly in self.zones:
            if inside(fx, fy, poly):
                return name
        return min(self.zones, key=lambda z: _distance(fx, fy, z[1]))[0]

    def __repr__(self) -> str:
        return f"Zones.from_json({self.to_json()!r})"
