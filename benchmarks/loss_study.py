"""Where the found dice are lost: each boxed d6 set read by the models trained without it, die by die.

    python3 benchmarks/loss_study.py [--set aws nell ...] [--every N] [--json]

For every labelled die: did the finder find it (a peak matched by centre, as ``vision_eval.py`` matches),
did the face reader keep it (its "none" under ``NONE_DROP``, a class at ``WEAKEST`` or more, not a token),
and is it among the dice ``read_table`` reports? A die the face reader kept but the table does not report
was dropped by a reading rule (one object per place, an emblem or numeral of no die's size, cut by the
frame's edge, believed by neither stage beside dice both believe: ``vision.learned.BELIEVED``). A die with
no class at ``WEAKEST`` is reported (asked) when the finder found it at ``vision.learned.FOUND_ASKED`` or
more and the frame does not cut it, so "face reader: no class" counts only
the others. Phantoms (reported dice that match no label) are counted by what they were read as.
It reads the photos twice (the finder and the face reader alone, then ``read_table``); nothing in it
changes what the product does. The seventh session of 2026-11-26 found the cluster boxes this way.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import vision_eval as ve

from vision import read_table
from vision.data import match_boxes, photo_set
from vision.faces import read_faces
from vision.finder import find_objects
from vision.learned import MAX_TURNED, NONE_DROP, SCREEN, WEAKEST, _label

SETS = ("matteop65", "aws", "nell")
STAGES = ("finder missed", "face reader: none", "face reader: no class", "face reader: token",
          "dropped by a reading rule", "reported")


def _stage(found_i: int | None, reading: Any) -> str:
    if found_i is None:
        return "finder missed"
    if reading.p("none") >= NONE_DROP:
        return "face reader: none"
    label = _label(reading)
    if reading.p(label) < WEAKEST:
        return "face reader: no class"
    if label == "token":
        return "face reader: token"
    return "dropped by a reading rule"


def study(name: str, every: int = 1) -> dict[str, Any]:
    """Counts of labelled dice by the stage that lost them, and phantoms by what they were read as."""
    models = ve.leave_out_models(name)
    finder, faces = models[:2]
    lost: Counter[str] = Counter()
    phantoms: Counter[str] = Counter()
    photos = photo_set(name)[::every]
    for photo in photos:
        image = photo.load()
        labels = [d.bbox for d in photo.dice if d.bbox is not None]
        found = find_objects(image, model=finder)
        readings = read_faces(image, found, model=faces, screen=SCREEN, most=MAX_TURNED)  # as read_view does
        by_label = dict(match_boxes(labels, [f.box(image.shape) for f in found]))
        dice = read_table(image, models=models).dice   # as vision_eval.py --leave-out
        pairs = match_boxes(labels, [d.bbox for d in dice])
        reported = {i for i, _ in pairs}
        for i in range(len(labels)):
            if i in reported:
                lost["reported"] += 1
            else:
                j = by_label.get(i)
                lost[_stage(j, None if j is None else readings[j])] += 1
        matched = {j for _, j in pairs}
        for j, d in enumerate(dice):
            if j not in matched:
                phantoms["unknown" if d.value is None else f"d{d.sides} {d.value}"] += 1
    return {"set": name, "photos": len(photos), "labelled": sum(lost.values()),
            "stages": {s: lost[s] for s in STAGES}, "phantoms": dict(phantoms.most_common())}


def format_study(r: dict[str, Any]) -> str:
    n = max(1, r["labelled"])
    lines = [f"== {r['set']} (left out): {r['photos']} photos, {r['labelled']} labelled dice"]
    lines += [f"   {s:28s} {c:5d}  {100 * c / n:5.1f}%" for s, c in r["stages"].items()]
    total = sum(r["phantoms"].values())
    top = ", ".join(f"{k} {v}" for k, v in list(r["phantoms"].items())[:8])
    lines.append(f"   phantoms {total} ({total / max(1, r['photos']):.2f} a photo): {top}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--set", nargs="+", choices=SETS, default=list(SETS))
    ap.add_argument("--every", type=int, default=1, help="one photo in N (speed)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.every < 1:
        ap.error("--every must be 1 or more")
    rows = [study(name, args.every) for name in args.set]
    print(json.dumps(rows, indent=1) if args.json else "\n".join(format_study(r) for r in rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
