"""How fast the Dadoteck and GobCon cores referee: random games, events per second.

Run from the repository root: PYTHONPATH=. python3 benchmarks/dadoteck_gobcon.py
"""

from __future__ import annotations

import json
import random
import time

from companion import dadoteck, gobcon


def dadoteck_game(rng: random.Random, players: int) -> int:
    game = dadoteck.new_game([f"P{i}" for i in range(players)])
    events = 0
    while game.outcome is None:
        game = dadoteck.apply(game, rng.choice(list(game.legal)))
        events += 1
    return events


def gobcon_game(rng: random.Random, players: int) -> int:
    game = gobcon.new_game([f"P{i}" for i in range(players)])
    table = gobcon.Payoff.parse("K+3 G+1 B+0 D-1")
    events = 0
    while game.outcome is None:
        if game.phase == "turn" and "partita" not in game.played:
            event: gobcon.Event = gobcon.PlayPartita("P", "card", table)
        elif game.phase == "roll":
            event = gobcon.GoblinRoll(game.next_roller() or 0, gobcon.face_of_pips(rng.randint(1, 6)))
        elif game.phase == "declare":
            event = gobcon.Declare(game.next_declarer() or 0, rng.random() < 0.7)
        else:
            event = gobcon.EndTurn()
        game = gobcon.apply(game, event)
        events += 1
    return events


def measure(name: str, play: object, games: int) -> None:
    rng = random.Random(2026)
    start = time.perf_counter()
    events = sum(play(rng, 2 + g % 5) for g in range(games))  # type: ignore[operator]
    seconds = time.perf_counter() - start
    print(f"{name}: {games} games, {events} events in {seconds:.2f} s: {events / seconds:,.0f} events/s")


def round_trip(games: int = 200) -> None:
    rng = random.Random(7)
    states = []
    for _ in range(games):
        game = dadoteck.new_game(["A", "B", "C", "D"])
        for _ in range(rng.randint(0, 20)):
            if game.outcome is not None:
                break
            game = dadoteck.apply(game, rng.choice(list(game.legal)))
        states.append(game)
    start = time.perf_counter()
    for game in states:
        dadoteck.Game.from_json(json.loads(json.dumps(game.to_json())))
    per = (time.perf_counter() - start) / len(states) * 1e6
    print(f"dadoteck state JSON round trip: {per:.0f} µs per state")


if __name__ == "__main__":
    measure("dadoteck", dadoteck_game, 300)
    measure("gobcon", gobcon_game, 300)
    round_trip()
