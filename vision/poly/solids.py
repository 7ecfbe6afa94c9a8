"""The real geometry of the dice solids, for rendering synthetic training crops.

Each solid is a convex polyhedron: ``vertices`` (N, 3) float and ``faces`` (tuples of vertex indices,
counter-clockwise seen from outside). Only ``synth`` uses this module.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache

import numpy as np

PHI = (1 + 5**0.5) / 2


@dataclass(frozen=True)
class Solid:
    name: str
    vertices: np.ndarray
    faces: tuple[tuple[int, ...], ...]

    def normal(self, face: int) -> np.ndarray:
        pts = self.vertices[list(self.faces[face])]
        n = np.cross(pts[1] - pts[0], pts[2] - pts[0])
        out: np.ndarray = n / np.linalg.norm(n)
        return out

    def centre(self, face: int) -> np.ndarray:
        out: np.ndarray = self.vertices[list(self.faces[face])].mean(axis=0)
        return out


def _ordered(vertices: np.ndarray, faces: list[list[int]]) -> tuple[tuple[int, ...], ...]:
    """Faces with their vertices sorted counter-clockwise around the outward normal."""
    out = []
    for face in faces:
        pts = vertices[face]
        c = pts.mean(axis=0)
        n = c / np.linalg.norm(c)  # convex and centred at the origin: the centre points outward enough
        a = pts[0] - c
        a -= n * (a @ n)
        a /= np.linalg.norm(a)
        b = np.cross(n, a)
        angles = [np.arctan2((p - c) @ b, (p - c) @ a) for p in pts]
        out.append(tuple(int(face[i]) for i in np.argsort(angles)))
    return tuple(out)


def _by_edge(vertices: np.ndarray, size: int) -> list[list[int]]:
    """All vertex sets of ``size`` that are pairwise one shortest edge apart (triangle faces)."""
    d = np.linalg.norm(vertices[:, None] - vertices[None], axis=2)
    edge = d[d > 1e-9].min()
    close = np.abs(d - edge) < 1e-6
    return [list(c) for c in itertools.combinations(range(len(vertices)), size)
            if all(close[i, j] for i, j in itertools.combinations(c, 2))]


def _icosa_vertices() -> np.ndarray:
    pts = []
    for s1 in (-1, 1):
        for s2 in (-1, 1):
            pts += [(0, s1, s2 * PHI), (s1, s2 * PHI, 0), (s2 * PHI, 0, s1)]
    return np.array(pts, float)


@cache
def solid(name: str) -> Solid:
    """The solid for ``name``: one of tetra, cube, octa, trapezo, dodeca, icosa."""
    if name == "tetra":
        v = np.array([(1, 1, 1), (1, -1, -1), (-1, 1, -1), (-1, -1, 1)], float)
        f = _by_edge(v, 3)
    elif name == "cube":
        v = np.array(list(itertools.product((-1, 1), repeat=3)), float)
        f = [[i for i in range(8) if v[i, axis] == sign] for axis in range(3) for sign in (-1, 1)]
    elif name == "octa":
        v = np.array([(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)], float)
        f = _by_edge(v, 3)
    elif name == "icosa":
        v = _icosa_vertices()
        f = _by_edge(v, 3)
    elif name == "dodeca":
        iv = _icosa_vertices()
        tri = _by_edge(iv, 3)
        v = np.array([iv[t].mean(axis=0) for t in tri])
        f = [[k for k, t in enumerate(tri) if i in t] for i in range(len(iv))]
    elif name == "trapezo":
        z0 = 0.11
        c = np.cos(np.radians(36))
        h = z0 * (1 + c) / (1 - c)   # keeps each kite planar
        ring = [(np.cos(np.radians(36 * k)), np.sin(np.radians(36 * k)), z0 if k % 2 == 0 else -z0)
                for k in range(10)]
        v = np.array([(0, 0, h), (0, 0, -h), *ring], float)
        f = []
        for k in range(0, 10, 2):
            f.append([0, 2 + k, 2 + (k + 1) % 10, 2 + (k + 2) % 10])
            f.append([1, 2 + (k + 1) % 10, 2 + (k + 2) % 10, 2 + (k + 3) % 10])
    else:
        raise ValueError(f"unknown solid {name!r}")
    v = v / np.linalg.norm(v, axis=1).max()
    return Solid(name, v, _ordered(v, f))
