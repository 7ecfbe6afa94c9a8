"""Polyhedral dice on real photos: type accuracy, value accuracy per type and milliseconds per die.

    python3 benchmarks/poly_eval.py [FOLDER ...]   # default: ../shared/dice-photos/burksbuilds__dicetower-dev

Each labelled photo holds one die on a dark tray: ``vision.poly.locate_die`` boxes it and
``vision.poly.read_polyhedral`` reads the box, on one OpenCV thread. A label's d10 value 0 is the face
printed "0", which counts as 10; file names starting with D100 are percentile dice (0, 10, .., 90).
``benchmarks/vision_eval.py`` can import ``evaluate`` and ``format_report``. The model never saw these
photos: it is trained on synthetic renders only (tools/train_poly.py).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from vision.poly import locate_die, read_polyhedral  # noqa: E402

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
        t = time.perf_counter()
        reading = read_polyhedral(crop)
        spent += time.perf_counter() - t
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


def format_report(result: dict[str, object]) -> str:
    by_kind = result["value_accuracy_by_kind"]
    assert isinstance(by_kind, dict)
    lines = [f"polyhedral dice: {result['folder']}",
             f"  dice {result['dice']}  type accuracy {result['type_accuracy']:.3f}  "
             f"value accuracy {result['value_accuracy']:.3f}  "
             f"{result['ms_per_die']:.1f} ms per die (1 thread)",
             "  value accuracy by type: " + "  ".join(f"{k} {v:.2f}" for k, v in by_kind.items()),
             f"  wrong readings marked sure: {result['wrong_but_sure']}"]
    failures = result["failures"]
    assert isinstance(failures, list)
    for r in failures:
        got = r.get("read", "no die found")
        lines.append(f"  FAIL {r['file']}: want {r['kind']}={r['value']}, read {got} "
                     f"(sides {r.get('sides_confidence')}, value {r.get('value_confidence')})")
    return "\n".join(lines)


def main(argv: list[str]) -> None:
    for folder in [Path(a) for a in argv] or [DEFAULT]:
        print(format_report(evaluate(folder)))


if __name__ == "__main__":
    main(sys.argv[1:])
