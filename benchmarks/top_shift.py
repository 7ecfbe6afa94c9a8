"""The face reader's square moved up each die's box (``vision.faces.TOP_SHIFT``), measured: a study, the
product reads at the box's centre.

    python3 benchmarks/top_shift.py --shift 0.2 [--fills 0.6] [--rows 0.5] [--tune] [ARGS ...]

ARGS go to ``vision_eval.py`` as they are (``--leave-out --errata --set aws --half first``), or to
``tune_eval.py`` with ``--tune``. Why: a die photographed from in front of the table is boxed with its front
face under its top, and the face reader, which averages four quarter turns, reads the larger face. The
sixty-ninth session's numbers are in docs/vision.md.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision import faces


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shift", type=float, required=True,
                    help="share of the box's height the square is moved up (negative: down)")
    ap.add_argument("--fills", type=float, default=faces.FILLS_FRAME,
                    help="a box taller than this share of the frame is not moved")
    ap.add_argument("--rows", type=float, default=faces.TOP_ROWS,
                    help="only a box whose centre lies in this share of the frame's height from its top")
    ap.add_argument("--tune", action="store_true", help="run tune_eval.py instead of vision_eval.py")
    args, rest = ap.parse_known_args(argv)
    if not -0.5 <= args.shift <= 0.5:
        ap.error("--shift must lie between -0.5 and 0.5 (a share of the box's height)")
    if not 0.0 <= args.rows <= 1.0:
        ap.error("--rows must lie between 0 and 1 (a share of the frame's height)")
    faces.TOP_SHIFT, faces.FILLS_FRAME, faces.TOP_ROWS = args.shift, args.fills, args.rows
    if args.tune:
        import tune_eval
        return tune_eval.main(rest)
    import vision_eval
    return vision_eval.main(rest)


if __name__ == "__main__":
    raise SystemExit(main())
