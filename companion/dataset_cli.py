"""``goblin-companion dataset export DIR [--config FILE]`` and ``goblin-companion tune [--config FILE]
[--dry-run]``: the table's own labelled set (``companion.dataset``: every reading the players confirmed,
kept under ``<state dir>/dataset``).

``dataset export DIR`` copies it (``labels.json`` in the format of ``../shared/dice-photos`` and its
photos) and prints ``{"exported": N, "dir": DIR}``. ``dataset info`` prints ``{"photos": N, "dice": N,
"dir": ...}``.

``tune`` adapts the face reader to this table's dice (``vision.tune``: the table's head, fitted on the
photos not held back), measures it on the held-back photos before and after, and saves it in the table's
calibration only if it read them at least as well (unless ``--dry-run``). One JSON line:
``{"photos", "taught_dice", "held_back_dice", "right_before", "right_after", "right_before_pct",
"right_after_pct", "sure_wrong_before", "sure_wrong_after", "kept", "saved", "calibration", "method",
"not_dice", "unconfirmed_before", "unconfirmed_after"}`` (docs/cli.md). The settings page runs the same
(``companion.tuner``).

Bad input (no such set, an unreadable photo, a bad directory) is one stderr line and exit status 2.
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.config import load_config
from companion.dataset import FOLDER, TableDataset
from companion.errors import GoblinError, InvalidInput
from companion.jsoncli import Parser


def _parser(prog: str) -> Parser:
    p = Parser(prog=prog, description="the table's own labelled set of confirmed readings")
    p.add_argument("--config", metavar="FILE", help="TOML settings (default: $GOBLIN_CONFIG)")
    return p


def _dataset(config: str | None) -> tuple[TableDataset, Any]:
    cfg = load_config(config)
    return TableDataset(cfg.state_path() / FOLDER), cfg


def dataset_main(argv: Sequence[str]) -> int:
    p = _parser("goblin-companion dataset")
    p.add_argument("action", choices=["export", "info"])
    p.add_argument("dir", nargs="?", metavar="DIR", help="where to write the set (export)")
    try:
        args = p.parse_args(list(argv))
        data, _ = _dataset(args.config)
        if args.action == "info":
            print(json.dumps({**data.counts(), "dir": str(data.root)}))
            return 0
        if not args.dir:
            raise InvalidInput("dataset export needs a directory: goblin-companion dataset export DIR")
        try:
            n = data.export(Path(args.dir))
        except OSError as exc:
            raise InvalidInput(f"cannot write {args.dir!r}: {exc.strerror or exc}") from None
    except (GoblinError, ValueError) as exc:
        print(f"goblin-companion dataset: {exc}", file=sys.stderr)
        return 2
    print(json.dumps({"exported": n, "dir": args.dir}))
    return 0


def tune_main(argv: Sequence[str]) -> int:
    p = _parser("goblin-companion tune")
    p.add_argument("--dry-run", action="store_true", help="measure only; leave the calibration as it is")
    try:
        args = p.parse_args(list(argv))
        result = run_tune(args.config, dry_run=args.dry_run)
    except (GoblinError, ValueError) as exc:
        print(f"goblin-companion tune: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(result))
    return 0


def run_tune(config: str | None, *, dry_run: bool = False) -> dict[str, Any]:
    from companion.calibration import load_calibration, save_calibration
    from companion.tablefinder import TableModels
    from companion.tuner import AUTO_JOB, table_photos
    from vision.tune import tune

    data, cfg = _dataset(config)
    through = data.newest()
    photos = table_photos(data)
    path = cfg.calibration_path()
    calibration = load_calibration(path)
    with tempfile.TemporaryDirectory(prefix="tuning-", dir=data.root) as folder:   # serve may drop photos
        tuned, report = tune(photos.pinned(Path(folder)), calibration,
                             models=TableModels(cfg.state_path())())
    saved = report.kept and not dry_run
    if not dry_run:   # a run from the terminal is the table's last run too: serve counts from it
        data.mark(AUTO_JOB, through)
    if saved:   # onto the file as it is now: a token taught on the page while tune ran stays
        latest = load_calibration(path)
        save_calibration((latest if latest is not None else tuned).with_head(tuned.head), path)
    return {**report.to_json(), "saved": saved, "calibration": str(path)}
