"""Time the attack advisor (``companion.button_goblin.advisor.advise``) on the heaviest roster positions.

Run: ``taskset -c 0 python3 benchmarks/advisor_bench.py [positions-per-pairing]`` (pure Python: one core;
``taskset`` pins it so the numbers do not depend on the other work on the machine). For each pairing of
``button_goblin_bench.PAIRINGS`` it rolls random positions (seeded) and times one ``advise`` call each
with the defaults (the page's and the command line's: the turn budget), as wall time and as CPU time
of this process (the machine is shared: CPU time is what the call costs, wall time what a player waits).
It prints the median, the 95th percentile and the maximum per pairing and overall, how many attacks
were analysed, how many rounds each simulated, and how many replies were enumerated exactly.
Target: every call under 200 ms.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout, not an installed copy
sys.path.insert(0, str(Path(__file__).resolve().parent))

from button_goblin_bench import PAIRINGS, roll

from companion.button_goblin import Position
from companion.button_goblin.advisor import TURN_BUDGET, advise


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def main(argv: list[str]) -> int:
    count = int(argv[0]) if argv else 30
    rng = random.Random(20261125)
    walls: list[float] = []
    cpus: list[float] = []
    exact = total = 0
    print(f"turn budget {TURN_BUDGET}; {count} positions per pairing")
    print(f"{'mover':>14} vs {'opponent':<14} {'attacks':>7} {'rounds':>6} "
          f"{'wall med':>8} {'p95':>6} {'max':>6} {'cpu med':>8} {'p95':>6} {'max':>6}  (ms)")
    for mover, mswing, opponent, oswing in PAIRINGS:
        wall: list[float] = []
        cpu: list[float] = []
        attacks: list[int] = []
        rounds: list[int] = []
        for _ in range(count):
            position = Position((roll(rng, mover, mswing), roll(rng, opponent, oswing)), 0)
            start_wall, start_cpu = time.perf_counter(), time.process_time()
            advice = advise(position, seed=1)
            wall.append((time.perf_counter() - start_wall) * 1000)
            cpu.append((time.process_time() - start_cpu) * 1000)
            attacks.append(len(advice.attacks))
            for item in advice.attacks:
                if item.win is not None:
                    rounds.append(item.win.simulations)
                total += 1
                exact += item.exact
        walls += wall
        cpus += cpu
        print(f"{mover:>14} vs {opponent:<14} {statistics.median(attacks):>7.0f} "
              f"{statistics.median(rounds) if rounds else 0:>6.0f} "
              f"{statistics.median(wall):>8.1f} {p95(wall):>6.1f} {max(wall):>6.1f} "
              f"{statistics.median(cpu):>8.1f} {p95(cpu):>6.1f} {max(cpu):>6.1f}")
    print(f"overall ({len(walls)} positions): wall median {statistics.median(walls):.1f} ms, "
          f"p95 {p95(walls):.1f} ms, max {max(walls):.1f} ms; cpu median {statistics.median(cpus):.1f} ms, "
          f"p95 {p95(cpus):.1f} ms, max {max(cpus):.1f} ms; replies exact for {exact} of {total} attacks "
          f"(target: under 200 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
