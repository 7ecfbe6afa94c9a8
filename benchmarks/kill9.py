"""kill -9 during a fast stream of confirms: is every confirmed step still there?

    python3 benchmarks/kill9.py [--trials 100] [--before 0.3,1.5] [--keep DIR]

Starts ``goblin-companion serve`` as systemd would (a subprocess over one state directory; replay camera, a
reader that sees no dice, no buttons), confirms steps as fast as the API answers (``/api/select`` +
``/api/confirm`` of a choice, or ``/api/correct`` of a reading the game expects; a new game when one ends),
and sends SIGKILL at a random moment (``--before``: seconds after the first confirm). Then, with the
process dead, it opens the SQLite file itself: every step the API answered 200 for must be there (a
*lost* step is one the page was told was confirmed and is not), and ``PRAGMA integrity_check`` must say
``ok``. The next trial starts the service again on the same file, checks that it resumes at the step
the file holds, and goes on. Prints one JSON line per trial (with ``-v``) and a summary.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.streams import SETUP  # noqa: E402  (the same match)


def call(base: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method="GET" if body is None else "POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def start(state: Path) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "serve", "--state-dir", str(state), "--camera", "replay",
         "--reader", "benchmarks.streams:no_dice", "--no-buttons", "--no-led", "--host", "127.0.0.1",
         "--port", "0"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        env={**os.environ, "GPIOZERO_PIN_FACTORY": "mock", "PYTHONPATH": str(ROOT)})
    assert process.stdout is not None
    line = process.stdout.readline()
    if not line:
        raise SystemExit(f"serve exited with {process.wait(10)}")
    return process, json.loads(line)["url"].rstrip("/")


class Player(threading.Thread):
    """Confirms steps until the server dies; ``confirmed``: (game_id, step, action) the API answered 200."""

    def __init__(self, base: str, seed: int) -> None:
        super().__init__(daemon=True)
        self.base, self.rng = base, random.Random(seed)
        self.confirmed: list[tuple[int, int, Any]] = []
        self.first = threading.Event()

    def run(self) -> None:
        try:
            while True:
                self.step()
        except (OSError, http.client.HTTPException, ValueError):
            return  # the server is gone (also in the middle of an answer)

    def step(self) -> None:
        _, state = call(self.base, "/api/state")
        if state["game"] is None or state["over"]:
            call(self.base, "/api/new-game", {"game": "button-goblin", "setup": SETUP, "archive": True})
            return
        expects, step = state["expects"], state["step"]
        if expects is not None and expects["kind"] == "dice":
            values = {s["key"]: self.rng.randint(s["low"], s["high"]) for s in expects["slots"]}
            status, after = call(self.base, "/api/correct",
                                 {"action": {"type": "reading", "values": values}, "step": step})
        else:
            call(self.base, "/api/select", {"index": self.rng.randrange(max(1, len(state["choices"]))),
                                            "step": step})
            status, after = call(self.base, "/api/confirm", {"step": step})
        if status == 200:
            last = after["history"][-1]
            self.confirmed.append((after["game_id"], after["step"], last["action"]))
            self.first.set()


def stored(db: Path) -> tuple[dict[tuple[int, int], Any], int | None, str]:
    """The live steps in the file (``(game_id, step) -> action``), the match at the table (not archived),
    and ``PRAGMA integrity_check``."""
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT game_id, step, action FROM events WHERE undone IS NULL").fetchall()
        table = con.execute("SELECT max(id) FROM games WHERE archived IS NULL").fetchone()[0]
        check = con.execute("PRAGMA integrity_check").fetchone()[0]
    con.close()
    return {(g, s): json.loads(a) for g, s, a in rows}, table, str(check)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=100)
    parser.add_argument("--before", default="0.3,1.5",
                        help="kill between these seconds after the first confirm")
    parser.add_argument("--keep", help="state directory to use (default: a new temporary one)")
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument("-v", "--verbose", action="store_true", help="one line per trial")
    args = parser.parse_args()
    low, high = (float(x) for x in args.before.split(","))
    state = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="kill9-"))
    db = state / "companion.sqlite3"
    rng = random.Random(args.seed)
    totals: dict[str, Any] = {"trials": 0, "confirmed": 0, "steps_lost": 0, "wrong_action": 0,
                              "resumed_wrong": 0, "integrity_check": "ok", "restart_s": [],
                              "confirms_per_s": []}
    expected_step: int | None = None
    for trial in range(args.trials):
        begun = time.monotonic()
        process, base = start(state)
        totals["restart_s"].append(time.monotonic() - begun)
        _, now = call(base, "/api/state")
        if expected_step is not None and now["step"] != expected_step:
            totals["resumed_wrong"] += 1
        player = Player(base, rng.randrange(1 << 30))
        player.start()
        player.first.wait(10)
        wait = rng.uniform(low, high)
        time.sleep(wait)
        process.send_signal(signal.SIGKILL)
        process.wait(10)
        if process.stdout is not None:
            process.stdout.close()
        player.join(10)
        steps, current, check = stored(db)
        lost = [c for c in player.confirmed if (c[0], c[1]) not in steps]
        wrong = [c for c in player.confirmed if (c[0], c[1]) in steps and steps[(c[0], c[1])] != c[2]]
        expected_step = max((s for g, s in steps if g == current), default=0) if current is not None else None
        totals["trials"] += 1
        totals["confirmed"] += len(player.confirmed)
        totals["steps_lost"] += len(lost)
        totals["wrong_action"] += len(wrong)
        totals["confirms_per_s"].append(len(player.confirmed) / wait)
        if check != "ok":
            totals["integrity_check"] = check
        if args.verbose:
            print(json.dumps({"trial": trial + 1, "killed_after_s": round(wait, 2),
                              "confirmed": len(player.confirmed), "lost": len(lost), "wrong": len(wrong),
                              "integrity_check": check}), flush=True)
    # the last restart: the service comes back at the file's step
    process, base = start(state)
    _, now = call(base, "/api/state")
    if expected_step is not None and now["step"] != expected_step:
        totals["resumed_wrong"] += 1
    process.send_signal(signal.SIGTERM)
    process.wait(10)
    restarts = sorted(totals.pop("restart_s"))
    rates = totals.pop("confirms_per_s")
    print(json.dumps({**totals, "restart_median_s": round(restarts[len(restarts) // 2], 2),
                      "confirms_per_s_median": round(sorted(rates)[len(rates) // 2], 1),
                      "state_dir": str(state)}), flush=True)


if __name__ == "__main__":
    main()
