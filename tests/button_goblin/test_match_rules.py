"""A whole Button Goblin match through the rules protocol (``find_rules("button-goblin")`` with the
flow's setup): the swing sizes, the roll, the focus duel, the attacks and re-rolls, round after round,
to the outcome; its events and state through JSON and the notation."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import pytest

from companion.button_goblin.core import PASS, Position
from companion.button_goblin.match import Decline, Focus, Match, Roll, Swing, rolled, to_read
from companion.button_goblin.matchjson import match_from_json, match_to_json
from companion.errors import IllegalAction, InvalidInput
from companion.messages import Message
from companion.rules import Outcome, find_rules
from tests.test_rules import walk

RULES = find_rules("button-goblin")
SETUP = {"players": [{"name": "Anna", "button": "Jones"}, {"name": "Bruno", "button": "Alisa", "ve": "VA"}]}
"""Jones has a swing die (X) and a d1; Alisa a VE die the setup must mean."""
FOCUS = {"players": [{"name": "Anna", "button": "Sargon", "swing": {"X": 10}},
                     {"name": "Bruno", "button": "DomenicoDG"}]}
"""Both have focus dice: a focus duel comes now and then."""


def roll_json(state: Any, rng: random.Random) -> list[dict[str, Any]]:
    """A roll of the dice the match reads now, each showing a value it can show (none otherwise)."""
    if not isinstance(state, Match) or not to_read(state):
        return []
    wanted = set(to_read(state))
    values = {f"p{p}.{i}": rng.randint(die.low, die.high or die.low)
              for p, die, i in rolled(state) if (p, i) in wanted}
    return [{"type": "roll", "values": values}]


def play(seed: int, setup: dict[str, Any] = SETUP, most: int = 3000) -> tuple[list[Any], list[Any]]:
    """A seeded match played to its end through ``RULES`` alone: the states and the events."""
    rng = random.Random(seed)
    state = RULES.new_game(setup)
    states, events = [state], []
    for _ in range(most):
        if RULES.outcome(state) is not None:
            return states, events
        listed = list(RULES.legal(state))
        event = (rng.choice(listed) if listed
                 else RULES.event_from_json(state, roll_json(state, rng)[0]))
        state = RULES.apply(state, event)
        states.append(state)
        events.append(event)
    raise AssertionError(f"no outcome after {most} events")


def test_the_flows_setup_starts_a_match_and_a_position_a_round() -> None:
    match = RULES.new_game(SETUP)
    assert isinstance(match, Match) and match.phase == "swing" and RULES.awaiting(match) == (0,)
    assert next(iter(RULES.legal(match))) == Swing(0, (("X", 4),))
    assert isinstance(RULES.new_game({"position": "Lobo: 2 | SdP: 3"}), Position)
    with pytest.raises(InvalidInput, match="has a VE die the rulebook never defines"):
        RULES.new_game({"players": [{"button": "Jones"}, {"button": "Alisa"}]})
    with pytest.raises(InvalidInput, match="a list of two players"):
        RULES.new_game({"players": [{"button": "Jones"}]})


@pytest.mark.parametrize("setup", [SETUP, FOCUS], ids=["swing", "focus"])
@pytest.mark.parametrize("seed", range(3))
def test_a_match_walk_keeps_every_promise_of_the_protocol(setup: dict[str, Any], seed: int) -> None:
    walk(RULES, setup, seed, roll_json, steps_most=150)


@pytest.mark.parametrize("seed", range(4))
def test_a_match_is_played_to_three_rounds_won(seed: int) -> None:
    states, events = play(seed)
    last = states[-1]
    outcome = RULES.outcome(last)
    assert isinstance(outcome, Outcome) and outcome.termination == "match"
    assert outcome.winner is not None and last.wins[outcome.winner] == 3 and last.wins[1 - outcome.winner] < 3
    assert RULES.awaiting(last) == () and not RULES.legal(last)
    assert [r.number for r in last.history] == list(range(1, len(last.history) + 1))
    assert all(RULES.outcome(s) is None for s in states[:-1])
    kinds = {RULES.event_to_json(e)["type"] for e in events}
    assert {"swing", "roll", "pass"} <= kinds and kinds & {"power", "skill"}
    with pytest.raises(IllegalAction, match="over"):
        RULES.apply(last, PASS)


def test_every_kind_of_event_round_trips_through_json_and_the_notation() -> None:
    seen: dict[str, tuple[Any, Any]] = {}
    for seed in range(6):
        states, events = play(seed, FOCUS)
        for state, event in zip(states, events, strict=False):
            seen.setdefault(RULES.event_to_json(event)["type"], (state, event))
    assert {"swing", "roll", "focus", "decline", "pass"} <= set(seen), sorted(seen)
    for state, event in seen.values():
        data = json.loads(json.dumps(RULES.event_to_json(event)))
        assert RULES.event_from_json(state, data) == event
        assert RULES.parse_event(state, RULES.event_notation(event)) == event
    state, focus = seen["focus"]
    assert isinstance(focus, Focus)
    assert RULES.event_to_json(focus) == {"type": "focus", "player": focus.player,
                                          "dice": {str(i): v for i, v in focus.dice}}
    named = {"type": "decline", "player": state.names[focus.player]}
    assert RULES.event_from_json(state, named) == Decline(focus.player)
    assert RULES.event_notation(Roll(((0, 1, 5), (1, 0, 12)))) == 'roll values={"p0.1":5,"p1.0":12}'


def test_the_state_round_trips_at_every_phase() -> None:
    phases = set()
    for seed in range(3):
        for state in play(seed)[0] + play(seed, FOCUS)[0]:
            data = json.loads(json.dumps(RULES.state_to_json(state)))
            assert RULES.state_from_json(data) == state
            phases.add(state.phase)
    assert phases == {"swing", "roll", "focus", "play", "reroll", "over"}


@pytest.mark.parametrize("bad, said", [
    ({"type": "jump"}, "unknown event type 'jump'"),
    ({"type": "swing", "player": 0, "sizes": {"X": 8}, "extra": 1}, "unknown key 'extra'"),
    ({"type": "swing", "player": 2, "sizes": {}}, "no player 2"),
    ({"type": "swing", "player": "Carla"}, "no player named 'Carla'"),
    ({"type": "swing", "player": 0, "sizes": {"X": "8"}}, "swing X must be an integer"),
    ({"type": "roll", "values": {"0.1": 3}}, "a roll names each die 'p<player>.<die>'"),
    ({"type": "roll", "values": {"p0.1": 2.5}}, "the value of p0.1 must be an integer"),
    ({"type": "focus", "player": 0, "dice": {}}, "at least one die"),
    ({"type": "focus", "player": 0, "dice": {"x": 1}}, "a focus die is its index"),
    ({"type": "decline"}, "a player is an index or a name"),
])
def test_a_malformed_match_event_is_invalid_input_quoting_it(bad: dict[str, Any], said: str) -> None:
    with pytest.raises(InvalidInput, match=said):
        RULES.event_from_json(RULES.new_game(SETUP), bad)


def test_an_attack_before_the_dice_are_rolled_is_illegal_not_malformed() -> None:
    match = RULES.new_game(SETUP)
    with pytest.raises(IllegalAction, match=r"'attack'.*'swing'"):
        RULES.event_from_json(match, {"type": "power", "attackers": [0], "targets": [0]})
    with pytest.raises(IllegalAction):
        RULES.parse_event(match, "pass")
    with pytest.raises(InvalidInput, match=r"must be 4\.\.20 sides, not 30"):
        RULES.apply(match, RULES.parse_event(match, 'swing player=0 sizes={"X":30}'))


def _over_state() -> dict[str, Any]:
    return json.loads(json.dumps(match_to_json(play(0)[0][-1])))


@pytest.mark.parametrize("change, said", [
    (lambda d: d.update(phase="fly"), "match phase must be one of"),
    (lambda d: d.update(colour="red"), "unknown key 'colour'"),
    (lambda d: d["players"][0].update(rounds_won=0), "rounds won .* but the rounds played say"),
    (lambda d: d.update(phase="play"), "the match ends at three rounds won"),
    (lambda d: d.update(position=None), "a position is given exactly while a round is played"),
    (lambda d: d.update(round=9), "round 9 after"),
    (lambda d: d.update(focus_player=1), "focus_player 1 at phase 'over'"),
    (lambda d: d["players"][1].update(button="Nobody"), "no button called 'Nobody'"),
    (lambda d: d["rounds"].reverse(), "not numbered 1, 2, 3"),
    (lambda d: d["initiative"].update(reason="words"), "initiative reason must be"),
])
def test_a_state_whose_parts_disagree_is_invalid_input(change: Any, said: str) -> None:
    data = _over_state()
    assert isinstance(match_from_json(data), Match)
    change(data)
    with pytest.raises(InvalidInput, match=said):
        RULES.state_from_json(data)


def test_a_state_between_rounds_keeps_no_position_nor_initiative() -> None:
    states, _ = play(1)
    between = next(s for s in states if s.history and s.position is None)
    data = match_to_json(between)
    assert data["position"] is None and data["initiative"] is None and data["round"] == 2
    with pytest.raises(InvalidInput, match="initiative is given exactly"):
        match_from_json({**data, "initiative": {"player": 0, "reason": Message("k", "t").to_json()}})
    rerolling = next(s for s in states if s.phase == "reroll")
    bad = replace(rerolling, reroll_dice=(99,))
    with pytest.raises(InvalidInput, match=r"reroll_dice \[99\]"):
        match_from_json(match_to_json(bad))


def test_a_message_round_trips_with_its_translated_parameters() -> None:
    inner = Message("bg.why.lowest", "Anna has the lowest die, 1 against 2", {"name": "Anna", "low": 1})
    outer = Message("bg.why.took_focus", "Anna took it", {"name": "Anna", "reason": inner, "list": [inner]})
    back = Message.from_json(json.loads(json.dumps(outer.to_json())))
    assert back == outer and back.key == outer.key and back.params["reason"].key == "bg.why.lowest"
    assert back.to_json() == outer.to_json()
    with pytest.raises(InvalidInput, match="reason must be"):
        Message.from_json({"key": "k", "text": 3, "params": {}}, "reason")
