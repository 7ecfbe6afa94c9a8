"""The face reader's square moved up each die's box, measured: a study (the product reads every object at its
box's centre, and a pip die of the frame's upper half again at its top for its value alone,
``vision.learned.TOP_READ``).

    python3 benchmarks/top_shift.py --shift 0.2 [--fills 0.6] [--rows 0.5] [--tune] [ARGS ...]

ARGS go to ``vision_eval.py`` as they are (``--leave-out --errata --set aws --half first``), or to
``tune_eval.py`` with ``--tune``. Why: a die photographed from in front of the table is boxed with its front
face under its top (whose centre lies 0.18-0.32 of the box's height above the box's centre), and the face
reader, which averages four quarter turns, reads the larger face. 0.2 in every box: 52 dice more right on
the first halves of the four sets left out, where it was chosen, none on their second halves (sixty-ninth
session, docs/vision.md).
"""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision import faces, learned, tune


def shifted(read: Callable[..., Any], shift: float, rows: float) -> Callable[..., Any]:
    """``read`` (``vision.faces.read_faces``) reading each box moved up ``shift`` of its height where its
    centre lies in the frame's top ``rows`` (``vision.faces.moved_up``): the readings, one a box, are
    returned for the boxes as given."""

    @functools.wraps(read)
    def read_moved(frame: Any, found: list[Any], **kw: Any) -> Any:
        return read(frame, [faces.moved_up(f, frame.shape, shift, rows) for f in found], **kw)

    return read_moved


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shift", type=float, required=True,
                    help="share of the box's height the square is moved up (negative: down)")
    ap.add_argument("--fills", type=float, default=faces.FILLS_FRAME,
                    help="a box taller than this share of the frame is not moved")
    ap.add_argument("--rows", type=float, default=1.0,
                    help="only a box whose centre lies in this share of the frame's height from its top")
    ap.add_argument("--tune", action="store_true", help="run tune_eval.py instead of vision_eval.py")
    args, rest = ap.parse_known_args(argv)
    if not -0.5 <= args.shift <= 0.5:
        ap.error("--shift must lie between -0.5 and 0.5 (a share of the box's height)")
    if not 0.0 <= args.rows <= 1.0:
        ap.error("--rows must lie between 0 and 1 (a share of the frame's height)")
    faces.FILLS_FRAME = args.fills
    # every face reading read_table and tune make (the top reading's included) is of the moved boxes
    learned.read_faces = tune.read_faces = shifted(faces.read_faces, args.shift, args.rows)
    if args.tune:
        import tune_eval
        return tune_eval.main(rest)
    import vision_eval
    return vision_eval.main(rest)


if __name__ == "__main__":
    raise SystemExit(main())
