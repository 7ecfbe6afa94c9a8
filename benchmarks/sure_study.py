"""Where should "sure" begin? Each d6 set's reliability left out, with a bar cross-fitted on the other sets.

    python3 benchmarks/sure_study.py [--cache FILE] [--write]

The issue asks that a reading at 0.8 or more ("sure") be right at least 99.5% of the time on every set
left out. Reads each d6 set once with the models trained without it (``drop_study.readings``, the same
cache), then, for each set, finds the lowest bar b (0.80, 0.81, ... 0.99) at which the *other* sets'
readings at b or more are right 99.5% of the time (phantoms count as wrong), and prints the set's own sure
readings at 0.8 and at b. So nothing of a set chooses its own bar; "pooled" is the bar all four would
give a shipped reader. The readings are the readers' own confidences (``drop_study.readings`` leaves the
bar off). Since the twenty-sixth session each face reader's card holds its bar (``sure_from``): the shipped
reader's is the pooled one, each left-out reader's the one fitted without its set, and ``vision.learned``
reports a die read at the bar as 0.8 (``_reported``). ``--write`` puts the bars in those cards (the models
in ``benchmarks/models`` and ``vision/models``), as the twenty-sixth session did. Polyhedral readings
(sides other than 6) are left out of the fit: since the fifty-ninth session they become sure at a bar of their
own, the type reader's card's (``benchmarks/poly_sure.py``), so the face reader's bar does not decide them.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import drop_study as ds

from companion.reading import TableReading

TARGET = 99.5
#: the bars tried, from the benchmark's own "sure" (``vision_eval.SURE``) up in hundredths
BARS = tuple(round(ds.ve.SURE + 0.01 * k, 2) for k in range(round((1 - ds.ve.SURE) * 100)))


def not_polyhedral(readings: list[TableReading]) -> list[TableReading]:
    """``readings`` without their polyhedral dice (sides other than 6 and known), whose "sure" bar is not the
    face reader's: a d6 or an unknown object stays, emblems included."""
    return [dataclasses.replace(r, dice=tuple(d for d in r.dice if d.sides in (6, None))) for r in readings]


def at_or_above(rel: list[tuple[float, bool]], bar: float) -> tuple[float, int, int]:
    """% right, readings and wrong readings among ``rel`` at ``bar`` or more."""
    got = [ok for c, ok in rel if c >= bar]
    return (100 * sum(got) / len(got) if got else 100.0), len(got), len(got) - sum(got)


def lowest_bar(rel: list[tuple[float, bool]]) -> float:
    return next((b for b in BARS if at_or_above(rel, b)[0] >= TARGET), BARS[-1])


def write_bar(card: Path, bar: float, fitted_on: list[str]) -> None:
    """Put ``bar`` in the model card ``card`` as ``sure_from``, saying what it was fitted on. (Polyhedral
    readings have their own bar since the fifty-ninth session, on the type reader's card:
    ``benchmarks/poly_sure.py``.)"""
    got = json.loads(card.read_text(encoding="utf-8"))
    got["sure_from"] = bar
    got["sure_from_fitted"] = ("the lowest bar (0.80, 0.81, ...) from which the readings of "
                               f"{', '.join(fitted_on)}, each read by its left-out readers, were right "
                               "99.5% of the time, phantoms counted wrong (benchmarks/sure_study.py)")
    card.write_text(json.dumps(got, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cache", type=Path, default=Path("/tmp/goblin-loo-readings.pkl"))
    ap.add_argument("--write", action="store_true", help="put each bar in its face reader's card")
    args = ap.parse_args()
    cached = ds.readings(args.cache)
    rel = {n: ds.score(n, not_polyhedral(cached[n]), 0.0, False)["reliability"] for n in ds.SETS}
    root = Path(__file__).resolve().parents[1]
    for n in ds.SETS:
        others = [o for o in ds.SETS if o != n]
        bar = lowest_bar([x for o in others for x in rel[o]])
        (p0, n0, w0), (p1, n1, w1) = at_or_above(rel[n], ds.ve.SURE), at_or_above(rel[n], bar)
        print(f"{n:10} bar {bar:.2f} (fitted on the other sets): sure right {p0:.2f}% of {n0} ({w0} wrong) "
              f"-> {p1:.2f}% of {n1} ({w1} wrong)")
        if args.write:
            write_bar(root / "benchmarks" / "models" / f"faces-no-{n}.json", bar, others)
    pooled = lowest_bar([x for n in ds.SETS for x in rel[n]])
    print(f"pooled: bar {pooled:.2f}")
    if args.write:
        write_bar(root / "vision" / "models" / "faces.json", pooled, list(ds.SETS))


if __name__ == "__main__":
    main()
