"""A synthetic sweep over the conditions the product will meet: dice colours, trays, sizes, touching dice,
mild rotation and logo faces. Drawings test geometry, not accuracy (the labelled photos are for that), but
one rule holds on any picture: a face the reader cannot explain is never read with confidence. A wrong
value read with confidence >= 0.8 is the worst outcome, so the sweep asserts there is none.

``python3 -m tests.vision.test_sweep`` prints the per-condition table (found, right, wrong and sure).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import partial

import numpy as np
import pytest

from vision import read_table as _read_table
from vision import synth

#: Vision I's rule reader: these tests pin its mechanisms (it stays as the learned reader's pip counter)
read_table = partial(_read_table, reader="rules")

SURE = 0.8

#: die styles: body and pip colours (BGR)
STYLES: dict[str, tuple[synth.Colour, synth.Colour]] = {
    "white/black": ((235, 235, 235), (20, 20, 20)),
    "red/white": ((40, 40, 200), (240, 240, 240)),
    "blue/white": ((190, 80, 30), (240, 240, 240)),
    "green/white": ((60, 150, 40), (240, 240, 240)),
    "black/white": ((35, 35, 35), (235, 235, 235)),
    "ivory/black": ((200, 232, 245), (25, 25, 25)),
    "yellow/red": ((40, 210, 240), (40, 40, 190)),
}
TRAYS = ("black", "felt", "wood", "white")
#: die sizes in a 640x480 frame: far (many dice), mid, close-up
SIZES = {"small": 24, "mid": 40, "large": 72}


@dataclass
class Tally:
    """Per-condition counts: dice drawn, found (any reading there), read right, wrong and sure (a wrong
    value at >= 0.8, phantoms included)."""

    drawn: int = 0
    found: int = 0
    right: int = 0
    wrong_sure: int = 0

    def add(self, other: Tally) -> None:
        self.drawn += other.drawn
        self.found += other.found
        self.right += other.right
        self.wrong_sure += other.wrong_sure


def frame(style: str, tray: str, size: str, seed: int = 0) -> tuple[np.ndarray, list[synth.Drawn]]:
    """One frame: d6 faces 1-6 (small dice: the set three times), two touching pairs, mild rotation,
    and one logo die (an emblem instead of its 6 or its 1: ``value`` None)."""
    rng = np.random.default_rng(seed * 1000 + sum(map(ord, style + tray + size)))
    body, pip = STYLES[style]
    s = SIZES[size]
    img = synth.tray(kind=tray, seed=seed)
    cell = 2.4 * s
    cols, rows = int(620 // cell), int(460 // cell)
    cells = [(10 + cell * (i + 0.5), 10 + cell * (j + 0.5)) for j in range(rows) for i in range(cols)]
    order = rng.permutation(len(cells))
    sets = 3 if size == "small" else 1
    drawn: list[synth.Drawn] = []
    k = 0

    def angle() -> float:
        return float(rng.uniform(-20, 20))

    for _ in range(sets):
        # a touching pair side by side (1, 2) and one above the other (5, 6), each pair turned as one
        for (va, vb), (dx, dy) in (((1, 2), (1.0, 0.0)), ((5, 6), (0.0, 1.0))):
            cx, cy = cells[order[k]]
            k += 1
            a = angle()
            c, sn = math.cos(math.radians(a)), math.sin(math.radians(a))
            ux, uy = (dx * c - dy * sn) * s / 2, (dx * sn + dy * c) * s / 2
            drawn.append(synth.draw_die(img, cx - ux, cy - uy, s, va, angle=a, body=body, pip=pip))
            drawn.append(synth.draw_die(img, cx + ux, cy + uy, s, vb, angle=a, body=body, pip=pip))
        for v in (3, 4):
            cx, cy = cells[order[k]]
            k += 1
            drawn.append(synth.draw_die(img, cx, cy, s, v, angle=angle(), body=body, pip=pip))
    cx, cy = cells[order[k]]
    drawn.append(synth.draw_logo_die(img, cx, cy, s, angle=angle(), body=body, ink=pip))
    return synth.lighting(img, noise=2.0, seed=seed), drawn


def measure(style: str, tray: str, size: str, seed: int = 0) -> tuple[Tally, Tally]:
    """(pip dice, logo dice) tallies of one frame."""
    img, drawn = frame(style, tray, size, seed)
    dice = list(read_table(img).dice)
    pips, logos = Tally(), Tally()
    used: set[int] = set()
    for d in drawn:
        t = logos if d.value is None else pips
        t.drawn += 1
        near = [(math.hypot(r.bbox[0] + r.bbox[2] / 2 - d.x, r.bbox[1] + r.bbox[3] / 2 - d.y), i)
                for i, r in enumerate(dice) if i not in used]
        near = [(dist, i) for dist, i in near if dist <= 0.6 * d.size]
        if not near:
            continue
        i = min(near)[1]
        used.add(i)
        r = dice[i]
        t.found += 1
        if d.value is not None and r.value == d.value and r.sides == 6:
            t.right += 1
        elif r.value is not None and r.confidence >= SURE:
            t.wrong_sure += 1       # a logo die has no value a pip reader can know
    for i, r in enumerate(dice):
        if i not in used and r.value is not None and r.confidence >= SURE:
            pips.wrong_sure += 1     # a sure phantom
    return pips, logos


#: measured floors per (style, tray), over the three sizes: (found, right) of the pip dice drawn
FLOORS: dict[tuple[str, str], tuple[int, int]] = {
    ("white/black", "black"): (24, 19), ("white/black", "felt"): (24, 19),
    ("white/black", "wood"): (23, 16), ("white/black", "white"): (22, 16),
    ("red/white", "black"): (24, 15), ("red/white", "felt"): (25, 19),
    ("red/white", "wood"): (25, 20), ("red/white", "white"): (24, 17),
    ("blue/white", "black"): (21, 14), ("blue/white", "felt"): (23, 14),
    ("blue/white", "wood"): (25, 20), ("blue/white", "white"): (24, 19),
    ("green/white", "black"): (23, 13), ("green/white", "felt"): (25, 20),
    ("green/white", "wood"): (24, 18), ("green/white", "white"): (24, 19),
    ("black/white", "black"): (14, 14), ("black/white", "felt"): (24, 19),
    ("black/white", "wood"): (24, 19), ("black/white", "white"): (25, 19),
    ("ivory/black", "black"): (25, 20), ("ivory/black", "felt"): (24, 16),
    ("ivory/black", "wood"): (22, 10), ("ivory/black", "white"): (22, 17),
    ("yellow/red", "black"): (21, 11), ("yellow/red", "felt"): (25, 18),
    ("yellow/red", "wood"): (22, 16), ("yellow/red", "white"): (22, 17),
}
#: conditions still read wrong and sure, as strict xfails (kept visible): none since a 2 or 3 with a
#: pip-coloured spot where a larger layout has a pip is doubted (a small 6 as a 2, a small 3 as a 2)
KNOWN_SURE_WRONG: dict[tuple[str, str], str] = {}


def _cases() -> list:
    return [pytest.param(style, tray, marks=pytest.mark.xfail(reason=KNOWN_SURE_WRONG[(style, tray)],
                                                                strict=True))
            if (style, tray) in KNOWN_SURE_WRONG else pytest.param(style, tray)
            for style in STYLES for tray in TRAYS]


@pytest.mark.parametrize("style, tray", _cases())
def test_no_wrong_reading_is_sure(style, tray):
    total, logo = Tally(), Tally()
    for size in SIZES:
        p, lg = measure(style, tray, size)
        total.add(p)
        logo.add(lg)
    assert total.wrong_sure == 0 and logo.wrong_sure == 0, (style, tray, total, logo)
    found, right = FLOORS.get((style, tray), (0, 0))
    assert total.found >= found and total.right >= right, (style, tray, total)


def table() -> dict[str, dict[str, Tally]]:
    """Tallies by style, tray, size, and of the logo dice."""
    out: dict[str, dict[str, Tally]] = {"style": {}, "tray": {}, "size": {}, "logo": {}}
    for style in STYLES:
        for tray in TRAYS:
            for size in SIZES:
                p, lg = measure(style, tray, size)
                for key, name in (("style", style), ("tray", tray), ("size", size)):
                    out[key].setdefault(name, Tally()).add(p)
                out["logo"].setdefault(tray, Tally()).add(lg)
    return out


if __name__ == "__main__":
    for key, rows in table().items():
        print(f"{key:<6} {'condition':<12} {'drawn':>5} {'found':>5} {'right':>5} {'wrong&sure':>10}")
        for name, t in rows.items():
            print(f"{'':<6} {name:<12} {t.drawn:>5} {t.found:>5} {t.right:>5} {t.wrong_sure:>10}")
