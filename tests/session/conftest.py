"""Fixtures for the session tests: a real SQLite file in tmp_path and a seeded player."""

from __future__ import annotations

import random
from typing import Any

from companion.session import TableSession

#: Two Lobo buttons with every swing die a d6: a match of d6s only (plus each button's d0).
D6_SETUP: dict[str, Any] = {"players": [
    {"name": "Anna", "button": "Lobo", "swing": {"X": 6, "W": 6, "Y": 6}},
    {"name": "Bruno", "button": "Lobo", "swing": {"X": 6, "W": 6, "Y": 6}},
]}
#: Two buttons with swing dice chosen at the table and polyhedral dice.
MIXED_SETUP: dict[str, Any] = {"players": [
    {"name": "Anna", "button": "Raven"}, {"name": "Bruno", "button": "Alisa", "ve": "VA"},
]}


def camera_reading(snap: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A vision-shaped reading of the whole tray: one random die per expected slot, in the slot's zone,
    and, during a re-roll, the dice that stay as they lie (Button Goblin's view)."""
    dice = []
    for slot in snap["expects"]["slots"]:
        dice.append({"sides": slot["sides"], "value": rng.randint(slot["low"], slot["high"]),
                     "zone": slot["zone"]})
    if snap["game"] == "button-goblin" and snap["view"]["phase"] == "reroll":
        for player in snap["view"]["players"]:
            for die in player["dice"]:
                if not die["reroll"] and not die["twin"] and die["size"] > 1:
                    dice.append({"sides": die["size"], "value": die["value"], "zone": f"p{player['index']}"})
    for n, die in enumerate(dice):
        die.update(bbox=[10 + 40 * n, 10, 30, 30], confidence=0.9)
    return {"width": 640, "height": 480, "dice": dice, "tokens": []}


def play_step(session: TableSession, rng: random.Random) -> dict[str, Any]:
    """One step of a seeded game: a camera reading confirmed, or a random legal choice."""
    snap = session.snapshot()
    if snap["expects"] is not None:
        snap = session.offer_reading(camera_reading(snap, rng))
        assert snap["proposal"] is not None, snap["reading"]
        return session.confirm(step=snap["step"])
    assert snap["choices"], snap["view"]["phase"]
    return session.choose(rng.randrange(len(snap["choices"])), step=snap["step"])


