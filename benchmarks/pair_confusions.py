"""What a face-reader pair calls emblems and numerals, at the objects' true boxes, on renders no reader
trained on: numeral d6s called "emblem" (an emblem is asked with no value, so a numeral d6's value is
lost) and pip dice's emblem faces called "numeral" (handed to Vision II, which reads a value off a logo).

    python3 benchmarks/pair_confusions.py [--first faces] [--seed 424242] [--nd6-trays 60]
                                          [--emblem-trays 300] [--plain-emblems] [--json]
                                          [--through FINDER]

``--first``: the first reader (a name in vision/models or a path to an .onnx); its card's ``ensemble`` names
the others. Each kind of object is read three ways: by the first reader alone, by the others alone (each),
and by the pair as the product reads (``vision.faces.read_faces``, each reader at its side, one call a tray).
The numeral d6 trays are ``tools/v3_data.numeral_d6_render(i, seed=SEED)``, drawn as the training trays are
from another seed; the emblems are the emblem faces of ``tools/v3_data.render(SEED * 1000 + i)`` (letters
of every kind; with ``--plain-emblems``, as ``train_faces.py --plain-emblems`` draws them, none that is
drawn like a digit: 12 of the 26 letters are, and an emblem "S" is a numeral d6's "5" to anyone). Training
seeds are 2026xxxx-based, so neither set was trained on; 424242 is the tuning seed (``poly_eval.py``).
``--through FINDER`` adds what reaches the page: the same trays read by ``vision.read_table`` with FINDER,
the first reader's pair and the shipped type reader; the numeral d6s found, valued right, sure and wrong
and sure, and the emblem faces given a value and how many of those sure (the thirty-first session's second
rule: the true-box counts overstated what a player meets).
Why (thirtieth and thirty-first sessions): the face readers' numeral-d6 stages were judged by these two
counts, and the script that counted them was lost with each session's machine.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from vision.faces import crop, crop_side, members, read_crops, read_faces  # noqa: E402
from vision.finder import Found  # noqa: E402

Box = tuple[float, float, float, float]          # x, y, w, h
#: the confidence the product reports as sure
SURE = 0.8


def numeral_d6_trays(seed: int, n: int) -> list[tuple[np.ndarray, list[Box], list[int]]]:
    """``n`` trays of numeral d6s (``v3_data.numeral_d6_scene`` of ``seed``): the dice's boxes and values."""
    import v3_data

    out = []
    for i in range(n):
        _, sc = v3_data.numeral_d6_scene(i, seed=seed)
        boxes = [(float(x), float(y), float(w), float(h)) for x, y, w, h in (d.bbox for d in sc.dice)]
        out.append((sc.image, boxes, [int(d.value) for d in sc.dice]))
    return out


def emblem_trays(seed: int, n: int, plain: bool = False) -> list[tuple[np.ndarray, list[Box]]]:
    """The emblem faces of ``n`` training-style renders (``v3_data.render``) and their boxes; ``plain``: their
    letters none that is drawn like a digit (``v3_data.UNLIKE_DIGITS``)."""
    import v3_data

    out = []
    for i in range(n):
        s = v3_data.render(seed * 1000 + i, plain_emblems=plain)
        out.append((s.image, [(cx - w / 2, cy - h / 2, w, h) for cx, cy, w, h, c in s.objects
                              if c == v3_data.EMBLEM]))
    return out


def count(trays: list[tuple[np.ndarray, list[Box]]], label: str, first: str) -> dict[str, int]:
    """Objects of ``trays`` read as ``label``: by each reader alone and by the pair."""
    readers = members(first)
    got = {"objects": 0, "pair": 0, **{Path(r).stem: 0 for r in readers}}
    for image, boxes in trays:
        if not boxes:
            continue
        found = [Found(x + w / 2, y + h / 2, w, h, 1.0) for x, y, w, h in boxes]
        got["objects"] += len(found)
        for r in readers:     # each reader alone, at the side its card names
            crops = [crop(image, f, size=crop_side(r)) for f in found]
            got[Path(r).stem] += sum(x.label == label for x in read_crops(crops, model=r, ensemble=False))
        got["pair"] += sum(x.label == label for x in read_faces(image, found, model=first))
    return got


def through_table(numerals: list[tuple[np.ndarray, list[Box], list[int]]],
                  emblems: list[tuple[np.ndarray, list[Box]]],
                  models: tuple[str, str, str]) -> dict[str, int]:
    """What ``read_table`` reports at the numeral d6s and the emblem faces (``--through``)."""
    from poly_eval import match_die

    from vision import read_table

    got = dict.fromkeys(("numeral_d6", "found", "valued_right", "sure", "wrong_and_sure", "emblems",
                         "emblems_given_a_value", "emblems_sure"), 0)
    for image, boxes, values in numerals:
        dice, used = list(read_table(image, models=models).dice), set[int]()
        for box, value in zip(boxes, values, strict=True):
            got["numeral_d6"] += 1
            k = match_die(box, dice, used)
            if k is None:
                continue
            used.add(k)
            d = dice[k]
            ok = d.sides == 6 and d.value == value
            sure = d.confidence >= SURE
            got["found"] += 1
            got["valued_right"] += ok
            got["sure"] += sure
            got["wrong_and_sure"] += sure and not ok
    for image, boxes in emblems:
        dice, used = list(read_table(image, models=models).dice), set[int]()
        for box in boxes:
            got["emblems"] += 1
            k = match_die(box, dice, used)
            if k is None:
                continue
            used.add(k)
            if dice[k].value is not None:
                got["emblems_given_a_value"] += 1
                got["emblems_sure"] += dice[k].confidence >= SURE
    return got


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--first", default="faces", help="the first reader (its card names the others)")
    ap.add_argument("--seed", type=int, default=424242)
    ap.add_argument("--nd6-trays", type=int, default=60)
    ap.add_argument("--emblem-trays", type=int, default=300)
    ap.add_argument("--plain-emblems", action="store_true",
                    help="emblems of letters none of which is drawn like a digit (an \"S\" is a \"5\")")
    ap.add_argument("--through", metavar="FINDER",
                    help="also read the trays with read_table, this finder and the first reader's pair")
    ap.add_argument("--json", action="store_true", help="one JSON object instead of the table")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    if not (0 < args.nd6_trays <= 5000 and 0 < args.emblem_trays <= 5000):
        ap.error("--nd6-trays and --emblem-trays must lie in 1..5000")
    numerals = numeral_d6_trays(args.seed, args.nd6_trays)
    emblems = emblem_trays(args.seed, args.emblem_trays, args.plain_emblems)
    result: dict[str, Any] = {
        "first": args.first, "seed": args.seed, "plain_emblems": args.plain_emblems,
        "numeral_d6_called_emblem": count([(im, b) for im, b, _ in numerals], "emblem", args.first),
        "emblem_called_numeral": count(emblems, "numeral", args.first)}
    if args.through:
        result["through_read_table"] = through_table(numerals, emblems, (args.through, args.first, "types"))
    if args.json:
        print(json.dumps(result))
        return
    for key in ("numeral_d6_called_emblem", "emblem_called_numeral"):
        row = result[key]
        print(f"{key}: {row['objects']} objects; " + ", ".join(f"{k} {v}" for k, v in row.items()
                                                               if k != "objects"))
    if args.through:
        print("through read_table: " + ", ".join(f"{k} {v}" for k, v in result["through_read_table"].items()))


if __name__ == "__main__":
    main(sys.argv[1:])
