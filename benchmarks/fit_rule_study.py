"""Can the held-back photos judge a fit? Many tables of a set fitted as the Pi fits them, each judged by the
product's rule on its held-back photos and read on the other half of the set, which it never saw
(docs/vision.md, "Can six held-back photos judge a fit?").

    python3 benchmarks/fit_rule_study.py [--sets aws nell] [--skips 0 30 60 90] [--steps 900] [--jobs 2]
        [--frozen-backbone] [--out ROWS.jsonl]
    python3 benchmarks/fit_rule_study.py --from ROWS.jsonl [...]      # tabulate rows already measured

Each table is ``fit_here_eval.py SET --skip K --steps N --before --json`` (30 photos of the first half,
the other half read) and the same with ``--second`` (the halves swapped). The truth is the players'
corrections on the other half (missed + phantoms + wrong values) with the fit against without it; the
table shows each table's truth and the rule's decision, and the last line how often they agree. One thread
a job; ``--jobs`` jobs at once (16 tables of 900 steps: about 40 minutes with two cores).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent


def tables(sets: list[str], skips: list[int]) -> list[tuple[str, int, bool]]:
    return [(s, k, second) for s in sets for second in (False, True) for k in skips]


def run(table: tuple[str, int, bool], steps: int, folder: Path, more: list[str]) -> list[dict]:
    name, skip, second = table
    out = folder / f"fit-{name}-{'second' if second else 'first'}-{skip}.onnx"
    cmd = [sys.executable, str(HERE / "fit_here_eval.py"), name, "--skip", str(skip), "--steps", str(steps),
           "--before", "--json", "--out", str(out)] + (["--second"] if second else []) + more
    done = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


def tabulate(rows: list[dict]) -> list[str]:
    """One line a table (its fitted and before rows paired) and the agreement of rule and truth."""
    pairs: dict[tuple, dict[str, dict]] = {}
    for r in rows:
        key = (r["set"], r.get("table_half", "first"), r["skip"])
        pairs.setdefault(key, {})[r["finder"]] = r
    lines = ["set   half   photos   other half's corrections  held back  rule installs  agrees"]
    agree = n = 0
    for key in sorted(pairs):
        got = pairs[key]
        if "fitted" not in got or "before" not in got:
            continue
        fitted, before = got["fitted"], got["before"]
        helps = fitted["corrections"] < before["corrections"]
        installs = bool(fitted["would_install"])
        n += 1
        agree += helps == installs
        held = fitted["held_corrections"]
        lines.append(f"{key[0]:5s} {key[1]:6s} {key[2]:3d}-{key[2] + fitted['table_photos'] - 1:<3d} "
                     f"{before['corrections']:5d} -> {fitted['corrections']:<5d} "
                     f"{'helps' if helps else 'HARMS':5s}   {held[0]:3d} -> {held[1]:<3d}  "
                     f"{'yes' if installs else 'no':13s}  {'yes' if helps == installs else 'NO'}")
    lines.append(f"the rule agrees with the other half on {agree} of {n} tables")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", nargs="+", default=["aws", "nell"])
    ap.add_argument("--skips", nargs="+", type=int, default=[0, 30, 60, 90])
    ap.add_argument("--steps", type=int, default=900)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", type=Path, help="keep every row here (JSON lines)")
    ap.add_argument("--models", type=Path, default=Path("/tmp/fit-rule-study"), help="where the fits go")
    ap.add_argument("--from", dest="rows", nargs="+", type=Path, help="tabulate these rows instead")
    ap.add_argument("--frozen-backbone", action="store_true", help="fit the top-down path and heads only")
    args = ap.parse_args(argv)
    if args.rows:
        rows = [json.loads(line) for f in args.rows for line in f.read_text().splitlines() if line.strip()]
    else:
        args.models.mkdir(parents=True, exist_ok=True)
        with ThreadPoolExecutor(max(1, args.jobs)) as pool:
            more = ["--frozen-backbone"] if args.frozen_backbone else []
            done = pool.map(lambda t: run(t, args.steps, args.models, more), tables(args.sets, args.skips))
            rows = [r for got in done for r in got]
        if args.out:
            args.out.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    print("\n".join(tabulate(rows)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
