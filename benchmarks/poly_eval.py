"""Polyhedral dice on real photos and on renders: type accuracy, value accuracy per type, ms per die.

    python3 benchmarks/poly_eval.py [FOLDER ...]   # default: ../shared/dice-photos/burksbuilds__dicetower-dev
    python3 benchmarks/poly_eval.py --renders 1000 --seed 515151   # renders of a seed nothing trained on
    python3 benchmarks/poly_eval.py --held-out 1000                # the network's held-out half (odd chunks)
    python3 benchmarks/poly_eval.py --fit-fusion                   # how NUMERAL_WEIGHT was fitted
    python3 benchmarks/poly_eval.py --types                        # Vision IV: type, whole videos left out
    python3 benchmarks/poly_eval.py --types --parts burks          # only the parts named
    python3 benchmarks/poly_eval.py --scenes 100 --seed 919191     # frames of ten rendered dice, read_table
    python3 benchmarks/poly_eval.py --lurig-values                 # values of real dice of many brands

Each labelled photo holds one die on a dark tray: ``vision.poly.locate_die`` boxes it and
``vision.poly.read_polyhedral`` reads the box, on one OpenCV thread (ms: CPU time of this process,
so other jobs on the machine do not count). A label's d10 value 0 is the face
printed "0", which counts as 10; file names starting with D100 are percentile dice (0, 10, .., 90).
``benchmarks/vision_eval.py`` can import ``evaluate`` and ``format_report``. The model never saw these
photos: it is trained on synthetic renders only (tools/train_poly.py).

On renders (``evaluate_renders``) it also says whose failure a wrong value is: the network alone and
the numeral reader alone (restricted to the true type's numerals) are scored beside the fused reader.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from vision.poly import (  # noqa: E402
    CLASS_TEXTS,
    CLASSES,
    KIND_SIDES,
    NUMERAL_WEIGHT,
    fuse,
    locate_die,
    network_probabilities,
    prepare,
    read_polyhedral,
    reading_from_probabilities,
)
from vision.poly.numeral import read_numeral_and_die  # noqa: E402
from vision.poly.silhouette import side_weights, silhouette  # noqa: E402
from vision.poly.synth import Render, render  # noqa: E402

TRAIN_SEED = 20261125
"""tools/train_poly.py's seed: chunk c of 500 renders comes from default_rng((TRAIN_SEED, c)); the odd
chunks are its held-out half, never trained on."""
TRAIN_CHUNK = 500
RENDER_SIZE = 128
"""tools/train_poly.py's render side (the "table" profile of vision.poly.synth)."""

DEFAULT = ROOT.parent / "shared" / "dice-photos" / "burksbuilds__dicetower-dev"
for candidate in (DEFAULT, Path("/work/shared/dice-photos/burksbuilds__dicetower-dev")):
    if candidate.exists():
        DEFAULT = candidate
        break


def expected(file: str, sides: int, value: int) -> tuple[str, int]:
    """(kind, value) as read_polyhedral reports it for a label."""
    name = Path(file).name
    if name.upper().startswith("D100"):
        return "d100", value
    if sides == 10 and value == 0:
        return "d10", 10
    return f"d{sides}", value


def evaluate(folder: Path = DEFAULT) -> dict[str, object]:
    """Read every labelled polyhedral die in ``folder``; the numbers and each die's result."""
    cv2.setNumThreads(1)
    labels = json.loads((folder / "labels.json").read_text())
    rows = []
    spent = 0.0
    read_polyhedral(np.zeros((64, 64, 3), np.uint8))   # load the models outside the clock
    for entry in labels["images"]:
        if len(entry["dice"]) != 1 or entry["dice"][0].get("sides") is None:
            continue
        die = entry["dice"][0]
        image = cv2.imread(str(folder / entry["file"]))
        if image is None:
            raise FileNotFoundError(folder / entry["file"])
        box = locate_die(image)
        kind, value = expected(entry["file"], die["sides"], die["value"])
        if box is None:
            rows.append({"file": entry["file"], "kind": kind, "value": value, "found": False,
                         "type_ok": False, "value_ok": False})
            continue
        x, y, w, h = box
        crop = image[y:y + h, x:x + w]
        t = time.process_time()
        reading = read_polyhedral(crop)
        spent += time.process_time() - t
        got_kind = "d100" if reading.percentile else f"d{reading.sides}"
        type_ok = reading.sides == die["sides"]
        rows.append({"file": entry["file"], "kind": kind, "value": value, "found": True,
                     "type_ok": type_ok, "value_ok": type_ok and got_kind == kind and reading.value == value,
                     "read": f"{got_kind}={reading.value}",
                     "sides_confidence": round(reading.sides_confidence, 3),
                     "value_confidence": round(reading.value_confidence, 3), "sure": reading.sure})
    n = len(rows)
    per_kind: dict[str, list[int]] = {}
    for r in rows:
        right_total = per_kind.setdefault(str(r["kind"]), [0, 0])
        right_total[0] += bool(r["value_ok"])
        right_total[1] += 1
    found = sum(bool(r["found"]) for r in rows)
    return {
        "folder": str(folder),
        "dice": n,
        "type_accuracy": sum(bool(r["type_ok"]) for r in rows) / n,
        "value_accuracy": sum(bool(r["value_ok"]) for r in rows) / n,
        "value_accuracy_by_kind": {k: v[0] / v[1] for k, v in sorted(per_kind.items())},
        "ms_per_die": 1000 * spent / max(1, found),
        "wrong_but_sure": sum(1 for r in rows if not r["value_ok"] and r.get("sure")),
        "failures": [r for r in rows if not r["value_ok"]],
    }


FIT_SETS = ((515151, 128, 1000), (616161, 192, 1000))
"""(seed, size, count) of the renders that vision.poly.NUMERAL_WEIGHT was fitted on ("table" profile):
no photo, no render that trained either model; 192 px stands for a die seen closer than training's."""


POWERS = (1.0, 2.0, 3.0, 4.0, 6.0, 8.0)
FLOORS = (0.03, 0.05, 0.1, 0.2, 0.3, 0.5, 1.0)


def fit_fusion(sets: tuple[tuple[int, int, int], ...] = FIT_SETS) -> dict[int, tuple[float, float]]:
    """``vision.poly.NUMERAL_WEIGHT`` fitted on renders of ``sets``: for each die type, among the
    (power, floor) settings that mark no wrong reading of that type sure, the best mean log-likelihood
    of the true class. Renders are grouped by the type the first step reads (the numeral does not
    change it), so each type's setting is fitted on the renders it will be used for."""
    cv2.setNumThreads(1)
    by_type: dict[int, list[tuple[np.ndarray, dict[int, float], object, int]]] = {}
    for seed, size, count in sets:
        rng = np.random.default_rng(seed)
        for _ in range(count):
            crop, kind, value = _crop_of(render(rng, size=size))
            p = _network(crop)
            numeral, die = read_numeral_and_die(crop)
            weights = side_weights(silhouette(die))
            sides = reading_from_probabilities(fuse(p, weights, None)).sides
            by_type.setdefault(sides, []).append((p, weights, numeral, CLASSES.index((kind, value))))
    fitted: dict[int, tuple[float, float]] = dict(NUMERAL_WEIGHT)
    for sides, seen in sorted(by_type.items()):
        scored = []
        for power in POWERS:
            for floor in FLOORS:
                setting = {**fitted, sides: (power, floor)}
                ll = 0.0
                wrong_sure = 0
                for p, weights, numeral, truth in seen:
                    q = fuse(p, weights, numeral, numeral_weight=setting)  # type: ignore[arg-type]
                    ll += float(np.log(max(q[truth], 1e-6)))
                    r = reading_from_probabilities(q)
                    kind = "d100" if r.percentile else f"d{r.sides}"
                    wrong_sure += r.sure and (kind, r.value) != CLASSES[truth]
                scored.append((wrong_sure == 0, ll / len(seen), power, floor))
        best = max(scored)
        fitted[sides] = (best[2], best[3])
        print(f"d{sides}: {len(seen)} renders, power {best[2]} floor {best[3]}, "
              f"log-likelihood {best[1]:.4f}", flush=True)
    return fitted


def _network(crop: np.ndarray) -> np.ndarray:
    """The network's class probabilities alone, as read_polyhedral computes them."""
    return network_probabilities(prepare(crop))


def _renders(seed: int | None, n: int, size: int = RENDER_SIZE,
             profile: str = "table") -> Iterator[tuple[np.ndarray, str, int]]:
    """(crop, kind, value) of ``n`` renders: of ``seed``, or of train_poly's held-out chunks if None."""
    if seed is None:
        chunk = 1
        while n > 0:
            rng = np.random.default_rng((TRAIN_SEED, chunk))
            for _ in range(min(n, TRAIN_CHUNK)):
                yield _crop_of(render(rng, size=RENDER_SIZE))
            n -= TRAIN_CHUNK
            chunk += 2
    else:
        rng = np.random.default_rng(seed)
        for _ in range(n):
            yield _crop_of(render(rng, size=size, profile=profile))


def _crop_of(r: Render) -> tuple[np.ndarray, str, int]:
    """The render cut to its die's box, and its label as read_polyhedral reports it (d10 "0" is 10)."""
    x, y, w, h = r.bbox
    return r.image[y:y + h, x:x + w], r.kind, (10 if (r.kind, r.value) == ("d10", 0) else r.value)


def evaluate_renders(n: int = 1000, seed: int | None = None, size: int = RENDER_SIZE,
                     profile: str = "table") -> dict[str, object]:
    """Read ``n`` synthetic renders (``size`` px, ``profile`` of vision.poly.synth) of ``seed``, or of
    the network's held-out half (as trained) when ``seed`` is None; the fused reader's numbers, and the
    network's and the numeral reader's alone."""
    cv2.setNumThreads(1)
    per_kind: dict[str, list[int]] = {}
    rows = []
    spent = 0.0
    read_polyhedral(np.zeros((64, 64, 3), np.uint8))   # load the models outside the clock
    for crop, kind, value in _renders(seed, n, size, profile):
        t = time.process_time()
        reading = read_polyhedral(crop)
        spent += time.process_time() - t
        p = _network(crop)
        numeral, _ = read_numeral_and_die(crop)
        truth = CLASSES.index((kind, value))
        own = [i for i, c in enumerate(CLASSES) if c[0] == kind]
        scores = [numeral.scores.get(CLASS_TEXTS[i], 0.0) for i in own]
        got_kind = "d100" if reading.percentile else f"d{reading.sides}"
        ok = got_kind == kind and reading.value == value
        row = {"kind": kind, "value": value, "read": f"{got_kind}={reading.value}",
               "type_ok": reading.sides == KIND_SIDES[kind], "value_ok": ok, "sure": reading.sure,
               "net_ok": CLASSES[int(np.argmax(p))] == (kind, value),
               "numeral_ok": max(scores) > 0 and own[int(np.argmax(scores))] == truth,
               "value_confidence": round(reading.value_confidence, 3)}
        rows.append(row)
        counts = per_kind.setdefault(kind, [0, 0, 0, 0])
        counts[0] += ok
        counts[1] += row["net_ok"]
        counts[2] += row["numeral_ok"]
        counts[3] += 1
    total = len(rows)
    return {
        "folder": f"{total} {profile} renders of seed {seed} at {size} px" if seed is not None else
                  f"{total} held-out renders (seed {TRAIN_SEED}, odd chunks)",
        "dice": total,
        "type_accuracy": sum(r["type_ok"] for r in rows) / total,
        "value_accuracy": sum(r["value_ok"] for r in rows) / total,
        "value_accuracy_by_kind": {k: c[0] / c[3] for k, c in sorted(per_kind.items())},
        "network_value_accuracy_by_kind": {k: c[1] / c[3] for k, c in sorted(per_kind.items())},
        "numeral_value_accuracy_by_kind": {k: c[2] / c[3] for k, c in sorted(per_kind.items())},
        "network_value_accuracy": sum(r["net_ok"] for r in rows) / total,
        "ms_per_die": 1000 * spent / max(1, total),
        "wrong_but_sure": sum(1 for r in rows if not r["value_ok"] and r["sure"]),
        "failures": [],
        "render_failures": [r for r in rows if not r["value_ok"]],
    }


MODELS = ROOT / "benchmarks" / "models"


#: the finder and face reader every read here uses (``--models`` swaps in a candidate's files)
SEEING: tuple[str, str] = ("finder", "faces")


#: a folder of candidate type readers (``--types-from``): its ``types-no-<fold>.onnx`` and ``types.onnx``,
#: each with its card beside it, replace the installed ones where it has them
CANDIDATE_TYPES: Path | None = None


def _types_model(fold: str | None) -> str:
    """The type reader trained without ``fold`` (benchmarks/models, or ``CANDIDATE_TYPES`` where it has one),
    else the shipped one (in-sample); ``fold=None``: the shipped one."""
    name = "types" if fold is None else f"types-no-{fold}"
    folders = [CANDIDATE_TYPES] if fold is None else [CANDIDATE_TYPES, MODELS]
    for path in (folder / f"{name}.onnx" for folder in folders if folder is not None):
        if path.exists():
            return str(path)
    return "types"


LIVE = False
"""``--live``: read as the live table reads (``serve``: no percentile d10 on the table,
``read_table(percentile=False)``)."""


def _read_die(image: np.ndarray, models: tuple[str, ...]) -> tuple[object | None, float]:
    """The die ``vision.read_table`` reports nearest the photo's centre (single-die photos), and ms."""
    from vision import read_table

    t0 = time.process_time()
    reading = read_table(image, models=models, percentile=not LIVE)
    ms = (time.process_time() - t0) * 1000
    h, w = image.shape[:2]
    best = min(reading.dice, key=lambda d: (d.bbox[0] + d.bbox[2] / 2 - w / 2) ** 2
               + (d.bbox[1] + d.bbox[3] / 2 - h / 2) ** 2, default=None)
    return best, ms


def evaluate_types(every: int = 1, parts: tuple[str, ...] | None = None) -> list[dict[str, object]]:
    """Vision IV's type (and value) reading through ``read_table``, each part of the real photos read by the
    type reader trained without it: the three Lurig folds (whole videos out) and burks (``parts``: only
    those named, e.g. ``("burks",)``)."""
    from vision.data import LURIG_FOLDS, lurig_fold, photo_set

    rows = []
    lurig = photo_set("lurig") if parts is None or set(parts) & set(LURIG_FOLDS) else []
    burks = [p for p in photo_set("burks") if p.dice]
    todo = [(f"lurig {fold}", fold, [p for p in lurig if lurig_fold(p.path) == fold][::every])
             for fold in LURIG_FOLDS] + [("burks", "burks", burks)]
    if parts is not None:
        unknown = set(parts) - {*LURIG_FOLDS, "burks"}
        if unknown:
            raise ValueError(f"parts: unknown {sorted(unknown)}; known: {[*LURIG_FOLDS, 'burks']}")
    chosen = [(name, fold, photos) for name, fold, photos in todo if parts is None or fold in parts]
    for name, fold, photos in chosen:
        model = _types_model(fold)
        models = (*SEEING, model)
        n = found = right = sure = wrong_sure = values = value_right = 0
        ms: list[float] = []
        confusion: dict[str, int] = {}
        for p in photos:
            truth = p.dice[0]
            die, t = _read_die(p.load(), models)
            ms.append(t)
            n += 1
            if die is None:
                confusion[f"d{truth.sides}->none"] = confusion.get(f"d{truth.sides}->none", 0) + 1
                continue
            found += 1
            ok = die.sides == truth.sides
            if truth.value is not None:
                values += 1
                kind, want = expected(p.path.name, int(truth.sides), truth.value)
                ok = ok and die.value == want and die.percentile == (kind == "d100")
                value_right += ok
            right += die.sides == truth.sides
            sure += die.confidence >= 0.8
            wrong_sure += die.confidence >= 0.8 and not ok
            key = f"d{truth.sides}->d{die.sides}"
            confusion[key] = confusion.get(key, 0) + 1
        rows.append({"part": name, "model": Path(model).name, "photos": n, "found": found,
                     "type_right": right, "values": values, "value_right": value_right, "sure": sure,
                     "wrong_sure": wrong_sure, "ms_median": float(np.median(ms)) if ms else 0.0,
                     "confusion": dict(sorted(confusion.items()))})
    return rows


LURIG_VALUES = ROOT / "benchmarks" / "lurig_values.json"
"""Top-face values of Lurig photos read by eye (Lurig labels only the type): the one real set of many
brands' numerals with values here; measured on, never trained on."""


def _use_network(path: Path | str) -> None:
    """Read polyhedral values with the network in ``path`` from now on (``vision.poly.MODEL_PATH``)."""
    from vision import poly

    if Path(poly.MODEL_PATH) != Path(path):
        poly.MODEL_PATH = Path(path)  # type: ignore[misc]
        poly._forget_nets()


def evaluate_lurig_values(path: Path = LURIG_VALUES, networks: Path | None = None) -> dict[str, object]:
    """Type and value through ``read_table`` on the hand-labelled Lurig photos, each read by the type reader
    trained without its fold (whole videos out) and, with ``networks``, by that folder's polyhedral network
    trained without the fold's labelled photos (``poly-no-<fold>.onnx``, ``tools/train_poly.py
    --real-hold-out``). Per type: photos, found, type right, value right, sure, wrong and sure; and each
    miss."""
    from vision import poly
    from vision.data import lurig_fold, photo_set

    installed = poly.MODEL_PATH

    values = json.loads(path.read_text())["values"]
    photos = {p.path.name: p for p in photo_set("lurig") if p.path.name in values}
    missing = sorted(set(values) - set(photos))
    if missing:
        raise FileNotFoundError(f"{path.name}: photos not in the Lurig set: {missing[:5]}")
    rows: dict[str, list[int]] = {}
    misses: list[str] = []
    for name, want in sorted(values.items()):
        p = photos[name]
        sides = int(p.dice[0].sides)
        row = rows.setdefault(f"d{sides}", [0] * 6)
        if networks is not None:
            _use_network(networks / f"poly-no-{lurig_fold(p.path)}.onnx")
        die, _ = _read_die(p.load(), (*SEEING, _types_model(lurig_fold(p.path))))
        row[0] += 1
        if die is None:
            misses.append(f"{name}: d{sides}={want}, nothing found")
            continue
        typed = die.sides == sides
        right = typed and die.value == want
        sure = die.confidence >= 0.8
        for k, hit in enumerate((True, typed, right, sure, sure and not right), start=1):
            row[k] += hit
        if not right:
            misses.append(f"{name}: d{sides}={want}, read d{die.sides}={die.value} at {die.confidence:.2f}")
    _use_network(installed)
    return {"rows": dict(sorted(rows.items(), key=lambda kv: int(kv[0][1:]))), "misses": misses}


def format_lurig_values(r: dict[str, object]) -> str:
    rows = r["rows"]
    assert isinstance(rows, dict)
    total = [sum(c) for c in zip(*rows.values(), strict=True)]
    lines = ["top-face values of hand-labelled Lurig photos through read_table (type reader without the "
             "photo's fold)", f"{'type':6} {'photos':>6} {'found':>6} {'typed':>6} {'value':>6} {'sure':>5} "
             f"{'wrong&sure':>10}"]
    for name, c in [*rows.items(), ("all", total)]:
        lines.append(f"{name:6} {c[0]:6d} {c[1]:6d} {c[2]:6d} {c[3]:6d} {c[4]:5d} {c[5]:10d}")
    misses = r["misses"]
    assert isinstance(misses, list)
    lines += [f"  miss {m}" for m in misses]
    return "\n".join(lines)


SCENE_SEED = 919191
"""Seed of ``--scenes``: no model was trained on it (tools/train_poly.py and tools/train_types.py use
20261125 and 20261126)."""


def rendered_right(truth: Any, sides: int | None, value: int | None, percentile: bool) -> tuple[bool, bool]:
    """(type right, type and value right) of a reading of the rendered die ``truth`` (a
    ``vision.poly.synth`` render: its d10 face "0" counts as 10, a d100 must be read as a percentile die);
    also ``benchmarks/poly_sure.py``'s."""
    value_true = 10 if (truth.kind, truth.value) == ("d10", 0) else truth.value
    type_ok = sides == KIND_SIDES[truth.kind]
    return type_ok, type_ok and value == value_true and percentile == (truth.kind == "d100")


def match_die(box: tuple[float, float, float, float], dice: list, used: set[int]) -> int | None:
    """Index of the read die not in ``used`` whose box centre lies inside ``box`` (x, y, w, h), nearest its
    centre (also ``benchmarks/pair_confusions.py``'s)."""
    x, y, w, h = box
    cx, cy = x + w / 2, y + h / 2
    best, far = None, float("inf")
    for i, d in enumerate(dice):
        dx, dy = d.bbox[0] + d.bbox[2] / 2 - cx, d.bbox[1] + d.bbox[3] / 2 - cy
        if i in used or abs(dx) > w / 2 or abs(dy) > h / 2:
            continue
        if dx * dx + dy * dy < far:
            best, far = i, dx * dx + dy * dy
    return best


def evaluate_scenes(n: int = 100, seed: int = SCENE_SEED, count: int = 10, width: int = 1280,
                    height: int = 960, models: tuple[str, ...] = ("finder", "faces", "types"),
                    profile: str = "table") -> dict[str, object]:
    """``n`` frames of ``count`` rendered dice ("table" profile, ``vision.poly.synth.scene``) read by
    ``read_table`` on one OpenCV thread: found, type and value right, wrong-and-sure (confidence >= 0.8),
    phantoms, and CPU ms per frame (``time.process_time``)."""
    from vision import read_table
    from vision.faces import crop
    from vision.finder import Found
    from vision.learned import POLY_CROP
    from vision.poly.synth import scene
    from vision.types import SIDES, read_types

    cv2.setNumThreads(1)
    rng = np.random.default_rng(seed)
    dice = found = typed = valued = sure = wrong_sure = phantoms = 0
    box_typed = box_valued = box_sure = box_wrong_sure = 0
    box_ms = 0.0
    ms: list[float] = []
    per_kind: dict[str, list[int]] = {}
    confusion: dict[str, int] = {}
    read_table(np.zeros((64, 64, 3), np.uint8), models=models)   # load the models outside the clock
    for _ in range(n):
        s = scene(rng, count=count, width=width, height=height, profile=profile)
        t0 = time.process_time()
        reading = read_table(s.image, models=models)
        ms.append((time.process_time() - t0) * 1000)
        read = list(reading.dice)
        used: set[int] = set()
        # the type reader and read_polyhedral on each die's true box: what the finder and face reader cost
        boxes = [Found(x + w / 2, y + h / 2, w, h, 1.0) for x, y, w, h in (t.bbox for t in s.dice)]
        t0 = time.process_time()
        p_types = read_types(s.image, boxes, model=models[2])
        for f, truth, p_type in zip(boxes, s.dice, p_types, strict=True):
            square = crop(s.image, f, scale=POLY_CROP, size=max(32, min(256, round(POLY_CROP * f.side))))
            got = read_polyhedral(square, sides=SIDES[int(np.argmax(p_type))])
            ok_type, ok = rendered_right(truth, got.sides, got.value, got.percentile)
            conf = min(float(np.max(p_type)), float(got.value_confidence))
            box_typed += ok_type
            box_valued += ok
            box_sure += conf >= 0.8
            box_wrong_sure += conf >= 0.8 and not ok
        box_ms += (time.process_time() - t0) * 1000
        for truth in s.dice:
            dice += 1
            kind = truth.kind
            counts = per_kind.setdefault(kind, [0, 0, 0])
            counts[2] += 1
            i = match_die(truth.bbox, read, used)
            if i is None:
                confusion[f"{kind}->none"] = confusion.get(f"{kind}->none", 0) + 1
                continue
            used.add(i)
            d = read[i]
            found += 1
            type_ok, ok = rendered_right(truth, d.sides, d.value, d.percentile)
            typed += type_ok
            valued += ok
            counts[0] += type_ok
            counts[1] += ok
            sure += d.confidence >= 0.8
            wrong_sure += d.confidence >= 0.8 and not ok
            if not type_ok:
                key = f"{kind}->d{d.sides}"
                confusion[key] = confusion.get(key, 0) + 1
        phantoms += len(read) - len(used)
    return {"frames": n, "seed": seed, "size": f"{width}x{height}", "dice": dice, "found": found,
            "type_right": typed, "value_right": valued, "sure": sure, "wrong_sure": wrong_sure,
            "phantoms": phantoms, "ms_median": float(np.median(ms)), "ms_max": float(np.max(ms)),
            "box_type_right": box_typed, "box_value_right": box_valued, "box_sure": box_sure,
            "box_wrong_sure": box_wrong_sure, "box_ms_per_die": box_ms / max(1, dice),
            "by_kind": dict(sorted(per_kind.items())), "confusion": dict(sorted(confusion.items())),
            "profile": profile}


def format_scenes(r: dict[str, object]) -> str:
    n = max(1, int(r["dice"]))  # type: ignore[call-overload]
    by_kind = r["by_kind"]
    assert isinstance(by_kind, dict)
    return "\n".join([
        f"{r['frames']} frames of {r['size']}, seed {r['seed']}: {n} rendered dice "
        f"({r['profile']!r} profile) through read_table",
        f"  found {100 * int(r['found']) / n:.1f}%  type {100 * int(r['type_right']) / n:.1f}%  "  # type: ignore[call-overload]
        f"value {100 * int(r['value_right']) / n:.1f}%  sure {r['sure']}  "  # type: ignore[call-overload]
        f"wrong-and-sure {100 * int(r['wrong_sure']) / n:.2f}% ({r['wrong_sure']})  "  # type: ignore[call-overload]
        f"phantoms {r['phantoms']}",
        f"  CPU ms per frame (one thread): median {r['ms_median']:.0f}, max {r['ms_max']:.0f}; "
        f"per die {float(r['ms_median']) * int(r['frames']) / n:.1f}",  # type: ignore[arg-type, call-overload]
        f"  on the true boxes (type reader, then read_polyhedral among that type): "
        f"type {100 * int(r['box_type_right']) / n:.1f}%  value {100 * int(r['box_value_right']) / n:.1f}%  "  # type: ignore[call-overload]
        f"sure {r['box_sure']}  wrong-and-sure {100 * int(r['box_wrong_sure']) / n:.2f}%  "  # type: ignore[call-overload]
        f"{float(r['box_ms_per_die']):.1f} ms per die",  # type: ignore[arg-type]
        "  type / value right by kind: "
        + "  ".join(f"{k} {c[0]}/{c[1]} of {c[2]}" for k, c in by_kind.items()),
        "  misses: " + "  ".join(f"{k} {c}" for k, c in r["confusion"].items()),  # type: ignore[attr-defined]
    ])


def format_types(rows: list[dict[str, object]]) -> str:
    lines = ["type (and value where labelled) through read_table; each part read by the type reader trained "
             "without it", f"{'part':12} {'model':22} {'photos':>6} {'found%':>7} {'type%':>7} {'value%':>7} "
             f"{'sure':>5} {'wrong&sure%':>11} {'ms':>6}"]
    for r in rows:
        n = max(1, int(r["photos"]))  # type: ignore[call-overload]
        v = int(r["values"])  # type: ignore[call-overload]
        value = f"{100 * int(r['value_right']) / v:7.1f}" if v else "      -"  # type: ignore[call-overload]
        lines.append(f"{r['part']:12} {r['model']:22} {n:6d} {100 * int(r['found']) / n:7.1f} "  # type: ignore[call-overload]
                     f"{100 * int(r['type_right']) / n:7.1f} {value} {r['sure']:>5} "  # type: ignore[call-overload]
                     f"{100 * int(r['wrong_sure']) / n:11.2f} {r['ms_median']:6.1f}")  # type: ignore[call-overload]
        lines.append("    " + "  ".join(f"{k} {c}" for k, c in r["confusion"].items()))  # type: ignore[attr-defined]
    return "\n".join(lines)


def format_report(result: dict[str, object]) -> str:
    by_kind = result["value_accuracy_by_kind"]
    assert isinstance(by_kind, dict)
    lines = [f"polyhedral dice: {result['folder']}",
             f"  dice {result['dice']}  type accuracy {result['type_accuracy']:.3f}  "
             f"value accuracy {result['value_accuracy']:.3f}  "
             f"{result['ms_per_die']:.1f} ms per die (1 thread)",
             "  value accuracy by type: " + "  ".join(f"{k} {v:.2f}" for k, v in by_kind.items()),
             f"  wrong readings marked sure: {result['wrong_but_sure']}"]
    for name, what in (("network", "network alone"), ("numeral", "numeral alone, given the true type")):
        alone = result.get(f"{name}_value_accuracy_by_kind")
        if isinstance(alone, dict):
            lines.append(f"  {what}: " + "  ".join(f"{k} {v:.2f}" for k, v in alone.items()))
    failures = result["failures"]
    assert isinstance(failures, list)
    for r in failures:
        got = r.get("read", "no die found")
        lines.append(f"  FAIL {r['file']}: want {r['kind']}={r['value']}, read {got} "
                     f"(sides {r.get('sides_confidence')}, value {r.get('value_confidence')})")
    return "\n".join(lines)


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="*", type=Path, help="labelled photo folders (default: burksbuilds)")
    ap.add_argument("--renders", type=int, help="read this many renders of --seed instead of photos")
    ap.add_argument("--seed", type=int, default=515151, help="the renders' seed (default 515151)")
    ap.add_argument("--size", type=int, default=RENDER_SIZE, help="the renders' side in pixels (default 128)")
    ap.add_argument("--profile", choices=("table", "harsh", "brands"), default="table",
                    help="how --renders (and --scenes) are drawn (vision.poly.synth.render; harsh: the first "
                         "profile, brands: dice of many makers)")
    ap.add_argument("--held-out", type=int, metavar="N",
                    help="read N renders of the network's held-out half instead of photos")
    ap.add_argument("--fit-fusion", action="store_true", help="score vision.poly.fuse's settings on FIT_SETS")
    ap.add_argument("--types", action="store_true",
                    help="Vision IV: type through read_table on Lurig (whole videos left out) and burks")
    ap.add_argument("--every", type=int, default=1, help="with --types: read one Lurig photo in N")
    ap.add_argument("--parts", nargs="+", metavar="PART",
                    help="with --types: only these parts (wood, color, other, burks)")
    ap.add_argument("--scenes", type=int, metavar="N",
                    help=f"read N frames of ten rendered dice through read_table (--seed; {SCENE_SEED} "
                         "is unseen)")
    ap.add_argument("--lurig-values", action="store_true",
                    help="type and value on the hand-labelled Lurig photos (benchmarks/lurig_values.json)")
    ap.add_argument("--models", nargs=2, metavar=("FINDER", "FACES"),
                    help="read with these finder and face reader .onnx files (their .json cards beside them) "
                         "instead of the shipped ones (to compare a candidate)")
    ap.add_argument("--types-from", type=Path, metavar="DIR",
                    help="read with DIR's types-no-<fold>.onnx (--types, --lurig-values) and types.onnx "
                         "(--scenes) where it has them, cards beside them (a candidate type reader)")
    ap.add_argument("--numerals", type=Path, metavar="NPZ",
                    help="read with this numeral reader instead of vision/poly/numerals.npz (to compare)")
    ap.add_argument("--live", action="store_true",
                    help="with --lurig-values, --types: read as the live table reads (serve): no percentile "
                         "d10 on the table, read_table(percentile=False)")
    ap.add_argument("--networks-from", type=Path, metavar="DIR",
                    help="with --lurig-values: read each photo with DIR's poly-no-<fold>.onnx, the "
                         "polyhedral network trained without its fold's labelled photos "
                         "(tools/train_poly.py --real)")
    ap.add_argument("--network", type=Path, metavar="ONNX",
                    help="read with this network instead of vision/poly/poly.onnx (to compare)")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    global SEEING, CANDIDATE_TYPES, LIVE
    CANDIDATE_TYPES = args.types_from
    LIVE = args.live
    if args.models:
        SEEING = (args.models[0], args.models[1])
    if args.network:
        _use_network(args.network)
    if args.numerals:
        from vision.poly import numeral

        numeral.MODEL_PATH = args.numerals  # type: ignore[misc]
        numeral._model.cache_clear()
    if args.scenes:
        seed = SCENE_SEED if args.seed == 515151 else args.seed
        models = (*SEEING, _types_model(None))
        print(format_scenes(evaluate_scenes(args.scenes, seed, profile=args.profile, models=models)))
    elif args.lurig_values:
        print(format_lurig_values(evaluate_lurig_values(networks=args.networks_from)))
    elif args.types:
        print(format_types(evaluate_types(args.every, tuple(args.parts) if args.parts else None)))
    elif args.fit_fusion:
        print("NUMERAL_WEIGHT =", fit_fusion())
    elif args.held_out:
        print(format_report(evaluate_renders(args.held_out, None)))
    elif args.renders:
        print(format_report(evaluate_renders(args.renders, args.seed, args.size, args.profile)))
    else:
        for folder in args.folders or [DEFAULT]:
            print(format_report(evaluate(folder)))


if __name__ == "__main__":
    main(sys.argv[1:])
