"""Would the table notice a fitted finder that loses dice? ``companion.tablefinder.compare`` played on a
labelled set: the second part of the set's photos (``tune_eval.split``) plays the photos confirmed after a
fitted finder (``tools/fit_table_finder.py``) was installed; their labels play the dice the players confirmed
(every die the camera missed added, every phantom removed). As ``compare`` does, each photo is read by the
whole reader with the fitted finder and with the finder trained without the set (the shipped one, for a set
the table never trained on), and ``judge`` gives the verdict on the latest ``MOST_COMPARED`` photos as they
come in.

    python3 benchmarks/finder_compare.py SET[:interleaved|halves] --fitted FILE.onnx [--every 10] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import vision_eval as ve
from tune_eval import split

from companion.tablefinder import MOST_COMPARED, judge, photo_row
from vision import read_table
from vision._cv import set_threads
from vision.data import LabelledPhoto


def rows(photos: list[LabelledPhoto], fitted: tuple[str, ...], shipped: tuple[str, ...]
         ) -> list[tuple[int, int, int, int, int]]:
    """``judge``'s row of each photo: its labelled dice, then missed and phantoms with each finder."""
    out = []
    for photo in photos:
        labels = [d.bbox for d in photo.dice if d.bbox is not None]
        out.append(photo_row(photo.load(), labels, fitted, shipped,
                             lambda image, models: read_table(image, models=models)))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("set", help="matteop65, aws or nell, with :interleaved or :halves (default halves)")
    ap.add_argument("--fitted", required=True, help="the fitted finder")
    ap.add_argument("--every", type=int, default=10, help="the verdict every N photos")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    set_threads(1)
    name, _, how = args.set.partition(":")
    _, after = split(ve.labelled(name, False), how or "halves")
    shipped = ve.leave_out_models(name)
    played = rows(after, (args.fitted, *shipped[1:]), shipped)
    series = [{"after_photos": n, **judge(played[max(0, n - MOST_COMPARED):n])}
              for n in [*range(args.every, len(played), args.every), len(played)]]
    whole = judge(played)
    result = {"set": name, "split": how or "halves", "fitted": args.fitted, "all": whole, "series": series}
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"{name} ({result['split']}), fitted {args.fitted}, all {whole['photos']} photos: table "
          f"{whole['table']}, shipped {whole['shipped']} -> {whole['verdict']}")
    for row in series:
        table, ship = row["table"], row["shipped"]
        print(f"  after {row['after_photos']:4d} photos, latest {row['photos']}: missed {table['missed']} vs "
              f"{ship['missed']}, phantoms {table['phantoms']} vs {ship['phantoms']} -> {row['verdict']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
