"""Where should "sure" begin for polyhedral readings? Each type reader's bar, fitted on unreported renders.

    python3 benchmarks/poly_sure.py [--frames 160] [--seed 20265910] [--write]

A polyhedral reading's confidence is its type's probability times its value's (``vision.learned``), not the
face reader's, so the face reader's bar (``benchmarks/sure_study.py``, fitted on pip d6s) does not say
where it is right 99.5% of the time; ``vision.learned.bars`` reads its own from the type reader's card
(``sure_from``). It is fitted here on ``--frames`` frames of ten rendered dice (``vision.poly.synth.scene``,
1280x960, one frame in two in the "table" profile and one in two in "brands": bodies, inks and fonts of
many makers) of a seed no reader was trained on and no benchmark reports (``SEED``; ``poly_eval --scenes``
reports 919191). Each frame is read by ``vision.learned.raw_view`` (the readers' own confidences, no bar)
with the shipped finder and face reader and each type reader in turn (the shipped one and the four
``benchmarks/models/types-no-<fold>``); the polyhedral readings are kept (``RawView.polyhedral``), right
when their type, value and percentile are the rendered die's, wrong otherwise (a phantom too), and the
bar is the lowest of 0.80, 0.81, ... from which they are right 99.5% of the time (``sure_study``'s rule).
The real polyhedral photos (Lurig, burks) stay the measure: none of them chooses a bar. ``--write`` puts
each bar in its type reader's card.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import poly_eval as pe  # noqa: E402
import sure_study as ss  # noqa: E402

#: the renders' seed: a seed of this session, drawn by no trainer (theirs are in their cards) and reported by
#: no benchmark (``poly_eval --scenes`` reports 919191)
SEED = 20265910
FOLDS = ("wood", "color", "other", "burks")


def readers() -> dict[str, Path]:
    """Each type reader's name for ``read_view`` and its card."""
    out = {"types": ROOT / "vision" / "models" / "types.json"}
    for fold in FOLDS:
        out[str(ROOT / "benchmarks" / "models" / f"types-no-{fold}.onnx")] = \
            ROOT / "benchmarks" / "models" / f"types-no-{fold}.json"
    return out


def reliability(frames: int, seed: int, types: str) -> list[tuple[float, bool]]:
    """(confidence, right) of every polyhedral reading of ``frames`` rendered frames read with ``types``."""
    from vision.learned import raw_view
    from vision.poly.synth import scene

    rng = np.random.default_rng(seed)
    rel: list[tuple[float, bool]] = []
    for i in range(frames):
        s = scene(rng, count=10, width=1280, height=960, profile="brands" if i % 2 else "table")
        raw = raw_view(s.image, models=("finder", "faces", types))
        read = [d for d in raw.dice if d[0] in raw.polyhedral]
        boxed = [SimpleNamespace(bbox=d[0]) for d in read]
        used: set[int] = set()
        for t in s.dice:
            j = pe.match_die(t.bbox, boxed, used)
            if j is None:
                continue
            used.add(j)
            _, sides, value, conf, percentile = read[j]
            rel.append((conf, pe.rendered_right(t, sides, value, percentile)[1]))
        rel += [(read[j][3], False) for j in range(len(read)) if j not in used]
    return rel


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--frames", type=int, default=160)
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--write", action="store_true", help="put each bar in its type reader's card")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    for name, card in readers().items():
        t0 = time.time()
        rel = reliability(args.frames, args.seed, name)
        bar = ss.lowest_bar(rel)
        bins = " ".join(f"{b:.2f}: {p:.2f}% of {n}" for b in (0.80, 0.84, 0.88, 0.92)
                        for p, n, _ in [ss.at_or_above(rel, b)])
        print(f"{card.stem}: {len(rel)} polyhedral readings, bar {bar:.2f} ({bins}; "
              f"{time.time() - t0:.0f} s)", flush=True)
        if args.write:
            got = json.loads(card.read_text(encoding="utf-8"))
            got["sure_from"] = bar
            got["sure_from_fitted"] = (
                f"the lowest bar (0.80, 0.81, ...) from which the polyhedral readings (type times value) of "
                f"{args.frames} rendered frames of ten dice (vision.poly.synth.scene, seed {args.seed}, "
                f"'table' and 'brands' profiles), read with this type reader, were right 99.5% of the time, "
                f"phantoms counted wrong: {len(rel)} readings (benchmarks/poly_sure.py)")
            card.write_text(json.dumps(got, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
