"""Would dropping the unsure finds help? The leave-one-out rows with every die under a confidence t removed.

    python3 benchmarks/drop_study.py [--cache FILE]

Reads each d6 set once with the models trained without it (as ``vision_eval.py --leave-out``; the
readings are kept in ``--cache`` so a second run only scores them), then scores the rows again with every
die reported under t removed: once removing all of them, once keeping the untaught emblems (an emblem
must be asked). The cost is what the players do by hand per photo, one tap each: a labelled die not read
right plus a phantom to dismiss. For each set, t is the one that costs least on the *other* sets
(cross-fitted), so nothing of a set chooses its own threshold. A study, not a setting of the product.
"""

from __future__ import annotations

import argparse
import dataclasses
import pickle
import sys
from pathlib import Path
from typing import Any
from unittest import mock

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import vision_eval as ve

from companion.reading import Die, TableReading
from vision import learned, read_table
from vision.data import LabelledPhoto, photo_set

SETS = ("matteop65", "chase", "aws", "nell")
GRID = (0.0, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65)


def readings(cache: Path) -> dict[str, list[TableReading]]:
    """Each set read by the models trained without it, with the readers' own confidences: the face reader
    card's "sure" bar (``vision.learned._reported``) is left off, because ``sure_study.py`` fits it."""
    if cache.exists():
        got: dict[str, list[TableReading]] = pickle.loads(cache.read_bytes())
        return got
    out: dict[str, list[TableReading]] = {}
    with mock.patch.object(learned, "sure_from", lambda _model, default: default):
        for name in SETS:
            models = ve.leave_out_models(name)
            out[name] = [read_table(p.load(), models=models) for p in photo_set(name)]
            print(name, len(out[name]), "photos read", flush=True)
    cache.write_bytes(pickle.dumps(out))
    return out


def kept(d: Die, t: float, emblems: bool) -> bool:
    return (emblems and d.value is None and d.sides == 6) or d.confidence >= t


def score(name: str, cached: list[TableReading], t: float, emblems: bool) -> dict[str, Any]:
    photos = photo_set(name)
    shapes = {p.path: (r.height, r.width, 3) for p, r in zip(photos, cached, strict=True)}
    it = iter(cached)

    def read(_: np.ndarray) -> TableReading:
        r = next(it)
        return dataclasses.replace(r, dice=tuple(d for d in r.dice if kept(d, t, emblems)))

    load = LabelledPhoto.load
    def blank(self: LabelledPhoto) -> np.ndarray:   # the readings are cached: only the shape is used
        return np.broadcast_to(np.zeros((1, 1, 3), np.uint8), shapes[self.path])

    LabelledPhoto.load = blank  # type: ignore[method-assign]
    try:
        r = ve.evaluate(name, photos, read)
    finally:
        LabelledPhoto.load = load  # type: ignore[method-assign]
    r["taps"] = round(((r["labelled"] - r["right"]) + r["phantom"]) / r["frames"], 3)
    return r


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cache", type=Path, default=Path("/tmp/goblin-loo-readings.pkl"))
    args = ap.parse_args()
    cached = readings(args.cache)
    for emblems in (False, True):
        print("== keep untaught emblems" if emblems else "== remove every die under t")
        res = {(n, t): score(n, cached[n], t, emblems) for n in SETS for t in GRID}
        for n in SETS:
            others = [o for o in SETS if o != n]
            best = min(GRID, key=lambda t: sum(res[o, t]["taps"] for o in others))
            a, b = res[n, 0.0], res[n, best]
            cols = ("found_pct", "right_pct", "phantom_per_photo", "taps")
            print(f"   {n:10} t={best:<5}", "  ".join(f"{c} {a[c]} -> {b[c]}" for c in cols))


if __name__ == "__main__":
    main()
