"""Dadoteck through the table flow: a whole game driven by camera readings and choices."""

from __future__ import annotations

import json

import pytest

from companion.dadoteck.flow import FLOW
from companion.errors import IllegalAction, InvalidInput
from companion.games import find_game
from tests.readings import camera


def scan(*values: int, sides: int | None = 20) -> dict[str, object]:
    """A reading in the shape ``goblin-companion scan`` prints."""
    return {
        "dice": [
            {"bbox": [10 * i, 0, 10, 10], "sides": sides, "value": v, "confidence": 0.9 - i / 10}
            for i, v in enumerate(values)
        ],
        "tokens": [],
    }


def roll(state, value):
    """The camera reads ``value``; the players confirm the proposal."""
    action = FLOW.propose(state, camera(scan(value)))
    assert action is not None and action["type"] == "reading"
    return FLOW.apply(state, action)


def test_the_registry_finds_the_flow():
    assert find_game("dadoteck") is FLOW


def test_a_whole_game_through_the_flow():
    schema = FLOW.setup_schema()
    assert schema["players"]["min"] == 2 and schema["options"][0]["key"] == "speedup"
    state = FLOW.start({"players": ["Anna", "Bruno", "Carla"], "speedup": False})
    json.dumps(FLOW.view(state))
    # placement: one d20 goes round; an occupied square is re-rolled
    exp = FLOW.expects(state)
    assert exp is not None and exp.kind == "dice" and exp.prompt == "dadoteck.placement"
    assert [(s.key, s.label, s.sides) for s in exp.slots] == [("p0", "Anna d20", 20)]
    for value in (12, 12, 14, 6):
        state = roll(state, value)
    assert state.squares == (12, 14, 6)
    # initiative: Anna 10, Bruno 10, Carla 3, then Bruno 8 beats Anna 2
    for value in (10, 10, 3):
        state = roll(state, value)
    assert FLOW.expects(state).prompt == "dadoteck.tie-break"
    assert FLOW.expects(state).slots[0].label == "Anna d20"
    state = roll(state, 2)
    state = roll(state, 8)
    view = FLOW.view(state)
    assert view["initiative"]["order"] == ["Bruno", "Anna", "Carla"]
    assert view["mover"] == "Bruno" and view["awaiting"]["kind"] == "roll"
    # Bruno rolls 13 and squashes Anna on 12
    state = roll(state, 13)
    assert FLOW.expects(state) is None
    labels = [c.label for c in FLOW.choices(state)]
    assert labels == ["Square 12 (squash Anna)", "Square 13", "Square 14 (stay)"]
    state = FLOW.apply(state, FLOW.choices(state)[0].action)
    view = FLOW.view(state)
    assert view["eliminations"][0]["name"] == "Anna" and view["eliminations"][0]["by_name"] == "Bruno"
    assert view["mover"] == "Carla"
    # Carla rolls 20: nobody there, Bruno is the only possible victim
    state = roll(state, 20)
    assert [c.action for c in FLOW.choices(state)] == [{"type": "victim", "player": 1}]
    state = FLOW.apply(state, {"type": "victim", "player": "Bruno"})
    view = FLOW.view(state)
    assert view["over"] is True and view["outcome"]["winner_name"] == "Carla"
    assert view["board"][19]["name"] == "Carla"
    assert FLOW.expects(state) is None and FLOW.choices(state) == []
    json.dumps(view)


def test_the_last_pawn_is_offered_to_decline():
    state = FLOW.start({"players": ["Anna", "Bruno"]})
    for value in (5, 9, 12, 3):  # placement, then Anna first
        state = roll(state, value)
    state = roll(state, 1)  # Anna's suicide
    decline = [c for c in FLOW.choices(state) if c.group == "decline"]
    assert decline and decline[0].label == "Bruno declines to roll and wins"
    assert FLOW.expects(state).slots[0].label == "Bruno d20"
    state = FLOW.apply(state, decline[0].action)
    assert FLOW.view(state)["outcome"] == {"termination": "declined", "winner": 1, "winner_name": "Bruno"}


def test_speedup_choices_and_the_smaller_die_slot():
    state = FLOW.start({"players": ["Anna", "Bruno", "Carla"], "options": {"speedup": True}})
    for value in (5, 9, 12):
        state = roll(state, value)
    groups = {c.group for c in FLOW.choices(state)}
    assert groups == {"speedup"}
    actions = [c.action for c in FLOW.choices(state)]
    assert {"type": "initiative-die", "sides": 4} in actions
    assert {"type": "movement-die", "sides": 12} in actions
    state = FLOW.apply(state, {"type": "movement-die", "sides": 8})
    state = FLOW.apply(state, {"type": "initiative-die", "sides": 4})
    slot = FLOW.expects(state).slots[0]
    assert slot.sides == 4 and slot.label == "Anna d4"
    assert FLOW.propose(state, camera(scan(7))) is None  # a d20's 7 does not fit a d4
    assert FLOW.propose(state, camera(scan(3, sides=4))) == {"type": "reading", "values": {"p0": 3}}
    view = FLOW.view(state)
    assert [b["in_play"] for b in view["board"]].count(True) == 8
    assert not any(b["active"] for b in view["board"] if b["square"] in (13, 17, 20))


def test_any_smaller_die_is_offered_the_usual_ones_first():
    """«si può usare un dado con meno facce»: the flow offers every die the core allows, d4..d12 first."""
    state = FLOW.start({"players": ["Anna", "Bruno", "Carla"], "options": {"speedup": True}})
    for value in (5, 9, 12):
        state = roll(state, value)
    actions = [c.action for c in FLOW.choices(state)]
    assert actions[:4] == [{"type": "initiative-die", "sides": 4}, {"type": "movement-die", "sides": 4},
                           {"type": "initiative-die", "sides": 6}, {"type": "movement-die", "sides": 6}]
    assert {"type": "movement-die", "sides": 16} in actions
    assert {"type": "initiative-die", "sides": 3} in actions
    assert {"type": "initiative-die", "sides": 2} not in actions  # fewer faces than the three players
    state = FLOW.apply(state, {"type": "movement-die", "sides": 16})
    view = FLOW.view(state)
    assert [b["in_play"] for b in view["board"]].count(True) == 16
    assert [b["square"] for b in view["board"] if b["active"]] == [1, 13]


def test_bad_actions_raise_and_leave_the_state():
    state = FLOW.start({"players": ["Anna", "Bruno"]})
    with pytest.raises(InvalidInput):
        FLOW.apply(state, {"type": "reading", "values": {"p9": 3}})
    with pytest.raises(InvalidInput):
        FLOW.apply(state, {"type": "reading", "values": {"p0": "three"}})
    with pytest.raises(IllegalAction):
        FLOW.apply(state, {"type": "victim", "player": 1})
    with pytest.raises(InvalidInput):
        FLOW.start({"players": ["Solo"]})
    assert FLOW.propose(state, camera({"dice": []})) is None
