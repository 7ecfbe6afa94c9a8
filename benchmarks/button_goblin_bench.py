"""Time legal-attack enumeration on the heaviest positions the Button Goblin roster allows.

Run: ``python3 benchmarks/button_goblin_bench.py [rolls-per-pairing]``. For each pairing it rolls many
random positions (seeded), times ``list(position.legal)`` for each (best of 3 runs), and prints the
median and the maximum. Target: median under 1 ms, none over 20 ms.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout, not an installed copy

from companion.button_goblin import BUTTONS, Player, Position

PAIRINGS = [
    # (mover, swing, opponent, swing)
    ("Madness", {}, "Virginio", {"X": 20}),
    ("Virginio", {"X": 20}, "Madness", {}),
    ("Madness", {}, "Lobo", {"X": 20, "W": 20, "Y": 20}),
    ("Lobo", {"X": 20, "W": 20, "Y": 20}, "Madness", {}),
    ("Raven", {"X": 20}, "Madness", {}),
    ("Darule", {"X": 20}, "Madness", {}),
    ("Madness", {}, "Scavezzacollo", {}),
    ("Scavezzacollo", {}, "Madness", {}),
    ("Racca", {}, "Madness", {}),
    ("SimoneC", {"X": 20}, "Favar", {"X": 20}),
]


def roll(rng: random.Random, name: str, swing: dict[str, int]) -> Player:
    dice = []
    for die in BUTTONS[name].dice(swing):
        sides = die.sides or (0,)
        value = sum(rng.randint(1, s) if s else 0 for s in sides)
        dice.append(replace(die, value=value))
    return Player(name, tuple(dice))


def main(argv: list[str]) -> int:
    rolls = int(argv[0]) if argv else 300
    rng = random.Random(20261122)
    worst = 0.0
    medians = []
    print(f"{'mover':>14} vs {'opponent':<14} {'attacks':>8} {'median ms':>10} {'max ms':>8}")
    for mover, mswing, opponent, oswing in PAIRINGS:
        times = []
        counts = []
        for _ in range(rolls):
            position = Position((roll(rng, mover, mswing), roll(rng, opponent, oswing)), 0)
            best = float("inf")
            for _ in range(3):
                start = time.perf_counter()
                attacks = list(position.legal)
                best = min(best, time.perf_counter() - start)
            times.append(best * 1000)
            counts.append(len(attacks))
        median, top = statistics.median(times), max(times)
        medians.append(median)
        worst = max(worst, top)
        print(f"{mover:>14} vs {opponent:<14} {statistics.median(counts):>8.0f} {median:>10.3f} {top:>8.3f}")
    print(f"overall: median of medians {statistics.median(medians):.3f} ms, "
          f"worst median {max(medians):.3f} ms, max {worst:.3f} ms "
          f"(target: median < 1 ms, max < 20 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
