"""GobCon through the table flow: a whole game driven by camera readings, choices and card forms."""

from __future__ import annotations

import json

import pytest

from companion.errors import IllegalAction, InvalidInput
from companion.games import find_game
from companion.gobcon.flow import FLOW
from tests.readings import camera


def scan(*pips: int) -> dict[str, object]:
    """A reading in the shape ``goblin-companion scan`` prints: plain d6s."""
    dice = [{"bbox": [9 * i, 0, 9, 9], "sides": 6, "value": v, "confidence": 0.9} for i, v in enumerate(pips)]
    return {"dice": dice, "tokens": []}


def roll(state, pips):
    action = FLOW.propose(state, camera(scan(pips)))
    assert action is not None and action["type"] == "reading"
    return FLOW.apply(state, action)


def pick(state, label):
    """The players select a choice by its label (NEXT ... CONFIRM)."""
    for choice in FLOW.choices(state):
        if choice.label == label:
            return FLOW.apply(state, choice.action)
    raise AssertionError(f"no choice {label!r} in {[c.label for c in FLOW.choices(state)]}")


RISIKO = {"type": "partita", "name": "Risiko", "category": "board",
          "payoff": {"king": 3, "green": 1, "black": 0, "darth": -1}}  # fmt: skip


def test_the_registry_finds_the_flow():
    assert find_game("gobcon") is FLOW


def test_a_whole_game_through_the_flow():
    schema = FLOW.setup_schema()
    assert [o["key"] for o in schema["options"]] == ["target", "timed", "deck_end", "first"]
    state = FLOW.start({"players": ["Anna", "Bruno", "Carla"], "options": {"target": 6, "first": "Bruno"}})
    view = FLOW.view(state)
    json.dumps(view)
    assert view["current"] == "Bruno" and view["phase"] == "turn" and FLOW.expects(state) is None
    assert [c.label for c in FLOW.choices(state)] == ["End Bruno's turn"]
    # Bruno buys a board game (2 GP) and proposes Risiko
    catan = {"type": "card", "player": "Bruno", "kind": "acquisti", "name": "Catan", "gp": 2}
    catan["category"] = "board"
    state = FLOW.apply(state, catan)
    state = FLOW.apply(state, RISIKO)
    assert FLOW.view(state)["partita"]["stage"] == "declare"
    state = pick(state, "Carla takes part")
    state = pick(state, "Anna stays out")
    exp = FLOW.expects(state)
    assert exp is not None and exp.prompt == "gobcon.roll"
    assert [(s.key, s.label, s.sides) for s in exp.slots] == [("p1", "Bruno goblin die", 6)]
    state = roll(state, 1)  # Bruno's Darth: he proposed it, so Black
    state = roll(state, 6)  # Carla's King
    view = FLOW.view(state)
    assert view["partita"] is None and view["last_partita"]["rolls"][0]["rule"] == "proposer-darth"
    assert {p["name"]: (p["pile"], p["card_gp"], p["total"]) for p in view["players"]} == {
        "Anna": (0, 0, 0), "Bruno": (0, 2, 2), "Carla": (3, 0, 3),
    }  # fmt: skip
    assert view["recent"][0]["name"] == "Risiko"
    state = pick(state, "End Bruno's turn")
    # Carla plays the remembered Risiko again; a King for her wins at 6 GP
    state = pick(state, "Partita Risiko (board, K+3 G+1 B+0 D-1)")
    state = pick(state, "Anna takes part")
    state = pick(state, "Bruno takes part")
    state = pick(state, "Malus -1 on Carla's roll")
    assert FLOW.expects(state).params["steps"] == -1
    state = roll(state, 4)  # Green -1 = Black: 0 GP
    state = roll(state, 6)  # Anna's King
    state = FLOW.apply(state, {"type": "reading", "values": {"p1": "king"}})  # Bruno types his icon die
    view = FLOW.view(state)
    assert [r["face"] for r in view["last_partita"]["rolls"]] == ["black", "king", "green"]
    state = pick(state, "End Carla's turn")
    state = FLOW.apply(state, {"type": "tokens", "player": "Anna", "delta": 3})
    view = FLOW.view(state)
    assert view["over"] and view["outcome"]["winner_names"] == ["Anna"] and view["outcome"]["totals"][0] == 6
    assert FLOW.choices(state) == [] and FLOW.expects(state) is None
    json.dumps(view)


def test_logorrea_man_is_passed_on_from_the_choices():
    """«deve passare Logorrea-Man ad un avversario che abbia carte Acquisti»: the only choices then."""
    state = FLOW.start({"players": ["Anna", "Bruno", "Carla"]})
    for action in (
        {"type": "card", "player": "Anna", "kind": "acquisti", "name": "Gioco", "gp": 1},
        {"type": "end-turn"},
        {"type": "card", "player": "Bruno", "kind": "acquisti", "name": "Dado", "gp": 1},
        {"type": "card", "player": "Anna", "kind": "amici", "name": "Logorrea-Man", "gp": 1},
        {"type": "partita", "name": "Risiko", "category": "board", "payoff": "K+3 G+1 B+0 D-1"},
        {"type": "declare", "player": "Carla", "join": False},
        {"type": "declare", "player": "Anna", "join": True},
    ):
        state = FLOW.apply(state, action)
    assert FLOW.expects(state) is not None
    state = FLOW.apply(state, {"type": "discard", "player": "Anna", "card": 1})
    assert FLOW.expects(state) is None  # no roll until Logorrea-Man has moved on
    choices = FLOW.choices(state)
    assert [(c.label, c.key) for c in choices] == [
        ("Anna passes Logorrea-Man to Bruno", "gobcon.choice.give"),
        ("Discard Anna's Logorrea-Man", "gobcon.choice.discard"),  # a Speciale may discard it
    ]
    assert FLOW.view(state)["awaiting"]["kind"] == "pass-logorrea"
    state = pick(state, "Anna passes Logorrea-Man to Bruno")
    assert FLOW.expects(state).slots[0].key == "p1"  # the Partita goes on: Bruno, the proposer, rolls


def test_propose_ignores_dice_that_do_not_fit():
    state = FLOW.start({"players": ["Anna", "Bruno"]})
    assert FLOW.propose(state, camera(scan(6))) is None  # no roll awaited
    state = FLOW.apply(state, RISIKO)
    state = pick(state, "Bruno stays out")
    assert FLOW.propose(state, camera({"dice": [{"sides": 20, "value": 17, "confidence": 1.0}]})) is None
    icon = {"dice": [{"sides": 6, "value": None, "face": "Darth", "confidence": 0.8}]}
    assert FLOW.propose(state, camera(icon)) == {"type": "reading", "values": {"p0": "darth"}}


def test_bad_actions_raise():
    state = FLOW.start({"players": ["Anna", "Bruno"], "timed": True, "target": None})
    with pytest.raises(InvalidInput):
        FLOW.apply(state, {"type": "reading", "values": {"p0": 9}})
    with pytest.raises(IllegalAction):
        FLOW.apply(state, {"type": "reading", "values": {"p0": 6}})
    with pytest.raises(InvalidInput):
        FLOW.start({"players": ["Anna", "Bruno"], "target": None})
    assert "Time is up: this is the last turn" in [c.label for c in FLOW.choices(state)]
