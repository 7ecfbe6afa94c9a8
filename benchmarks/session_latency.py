"""Timings of the table session over a real SQLite file (WAL, synchronous=FULL).

    python3 benchmarks/session_latency.py [DIR]

Prints JSON: the events in the longest seeded match found, the time to replay its log on start,
and CONFIRM -> snapshot latency (the camera proposal confirmed, the new snapshot built), median and max.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1]))

from companion.session import TableSession
from companion.store import Store
from tests.session.conftest import camera_reading, play_step

SETUP = {"players": [{"name": "Anna", "button": "Madness"}, {"name": "Bruno", "button": "Madness"}]}


def wait(session: TableSession, version: int, seen: list[float]) -> None:
    session.wait_for_change(version, 5)
    seen.append(time.perf_counter())


def main() -> None:
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp())
    confirms: list[float] = []
    woke: list[float] = []
    best: tuple[int, Path] = (0, root)
    for seed in range(6):
        folder = root / f"m{seed}"
        with Store(folder) as store:
            session = TableSession(store)
            session.new_game("button-goblin", SETUP)
            rng = random.Random(seed)
            while not session.snapshot()["over"]:
                snap = session.snapshot()
                if snap["expects"] is not None:
                    session.offer_reading(camera_reading(snap, rng))
                    version = session.version
                    seen: list[float] = []
                    waiter = threading.Thread(target=wait, args=(session, version, seen))
                    waiter.start()
                    started = time.perf_counter()
                    session.confirm()
                    session.snapshot()
                    confirms.append(time.perf_counter() - started)
                    waiter.join()
                    woke.append(seen[0] - started)
                else:
                    play_step(session, rng)
            best = max(best, (session.step, folder))
    steps, folder = best
    runs = []
    for _ in range(5):
        started = time.perf_counter()
        with Store(folder) as store:
            session = TableSession(store)
            session.snapshot()
        runs.append(time.perf_counter() - started)
    print(json.dumps({
        "longest_match_events": steps,
        "replay_on_start_ms": round(min(runs) * 1000, 1),
        "confirm_to_snapshot_ms": {"median": round(statistics.median(confirms) * 1000, 2),
                                   "max": round(max(confirms) * 1000, 2), "n": len(confirms)},
        "confirm_to_waiter_woken_ms": {"median": round(statistics.median(woke) * 1000, 2),
                                       "max": round(max(woke) * 1000, 2)},
    }))


if __name__ == "__main__":
    main()
