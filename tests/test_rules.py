"""The ``Rules`` protocol, run over all five games: one shape, legality decided once, immutable states.

A seeded random walk through each game checks at every step that the legal view is consistent (``in``,
``len``, iteration, ``bool``), that every listed event round-trips through JSON and the text notation
and applies without touching the state it came from, that events seen elsewhere and not in ``legal``
are refused by ``apply`` with the one error tree, and that the state round-trips through JSON.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from companion.errors import GoblinError, IllegalAction, InvalidInput
from companion.games import GAMES
from companion.rules import (
    Legal,
    LegalView,
    Outcome,
    Rules,
    find_rules,
    json_notation,
    parse_json_notation,
)

SETUPS: dict[str, dict[str, Any]] = {
    "button-goblin": {"position": "Anna: d4=3 d6=5 d8=2 d12=9[FU] d20=17 | Bruno: d6=4 d8=8[VA] d20=11"},
    "dadoteck": {"players": ["Anna", "Bruno", "Carla"], "speedup": True},
    "gobcon": {"players": ["Ada", "Bea", "Cleo"], "target": 8},
    "goblins": {"players": ["Arnaldo", "Bice"], "terrains": ["Torre|walls|8|2|-"],
                "heroes": ["Cavalleria|4|2"]},
    "skirmish": {"bands": [
        {"name": "Elfi", "models": ["Lor|T3|A3|S4|P20|eroe2|capitano", "Arc|T4|A4|S5|P10"]},
        {"name": "Orchi", "models": ["Grok|T4|A3|S4|P15|capitano", "Orco|T5|A4|S5|P5"]}]},
}
TYPED: dict[str, list[dict[str, Any]]] = {  # events carrying typed-in data: checked by ``in``, not listed
    "button-goblin": [],
    "dadoteck": [],
    "gobcon": [
        {"type": "partita", "name": "Risiko", "category": "board", "payoff": "K+3 G+1 B+0 D-1"},
        {"type": "card", "player": 0, "kind": "acquisti", "name": "Catan", "gp": 2, "category": "board"},
        {"type": "card", "player": 1, "kind": "acquisti", "name": "Dado", "gp": 1},
        {"type": "card", "player": 2, "kind": "amici", "name": "Logorrea-Man", "gp": 1},
        {"type": "card", "player": 1, "kind": "speciale", "name": "Malus", "category": "board",
         "effect": "malus"},
        {"type": "tokens", "player": 2, "delta": 2},
    ],
    "goblins": [
        {"type": "face", "terrain": "Torre|walls|8|2|-"},
        {"type": "face", "terrain": "Porta|centre|3|1|-"},
        {"type": "play_hero", "hero": "Cavalleria|4|0"},
    ],
    "skirmish": [
        {"type": "shoot", "target": 1, "shooters": [{"model": 0, "distance": 12}]},
        {"type": "assault", "attacker": 1, "target": 0, "distance": 0},
    ],
}
RARE = {"end_game", "time-up", "deck-empty"}  # events that end a game at once: seldom taken on the walk
STEPS = 60
SAMPLE = 12  # listed events checked in full per step (each is applied once)


def refused(rules: Rules[Any, Any], state: Any, event: Any) -> GoblinError | None:
    try:
        rules.apply(state, event)
    except GoblinError as error:
        assert isinstance(error, ValueError) and isinstance(error, InvalidInput | IllegalAction), error
        return error
    return None


def test_the_registry_names_the_five_games_like_the_flows() -> None:
    assert set(GAMES) == set(SETUPS)
    for name in GAMES:
        rules = find_rules(name)
        assert isinstance(rules, Rules) and rules.name == name
    with pytest.raises(InvalidInput, match="unknown game 'chess'"):
        find_rules("chess")


@pytest.mark.parametrize("name", list(SETUPS))
@pytest.mark.parametrize("seed", range(3))
def test_a_random_walk_keeps_every_promise_of_the_protocol(name: str, seed: int) -> None:
    walk(find_rules(name), SETUPS[name], seed, TYPED[name])


Typed = list[dict[str, Any]] | Callable[[Any, random.Random], list[dict[str, Any]]]


def walk(rules: Rules[Any, Any], setup: dict[str, Any], seed: int, typed_events: Typed,
         steps_most: int = STEPS) -> Any:
    """A seeded random walk from ``setup`` checking the protocol at every step; the last state.

    ``typed_events``: events carrying typed-in data (JSON), or a function of the state giving them (a
    Button Goblin roll); one of them is taken now and then, and always when nothing is listed."""
    rng = random.Random(seed)
    state = rules.new_game(setup)
    pool: list[Any] = []  # events legal somewhere along the walk
    steps = 0
    for _ in range(steps_most):
        steps += 1
        assert dataclasses.is_dataclass(state) and type(state).__dataclass_params__.frozen
        before = json.dumps(rules.state_to_json(state), sort_keys=True)
        assert rules.state_from_json(json.loads(before)) == state
        legal = rules.legal(state)
        assert isinstance(legal, LegalView)
        events = list(legal)
        assert len(legal) == legal.count() == len(events) and bool(legal) == bool(events)
        outcome = rules.outcome(state)
        awaiting = rules.awaiting(state)
        assert all(isinstance(p, int) and p >= 0 for p in awaiting)
        assert (outcome is None) <= bool(awaiting), "a game going on waits on somebody"
        if not awaiting:
            assert isinstance(outcome, Outcome) and not events, "nothing is legal once the game is over"
            break
        for event in rng.sample(events, min(SAMPLE, len(events))):
            assert event in legal
            data = rules.event_to_json(event)
            assert isinstance(data, dict) and isinstance(data["type"], str)
            assert rules.event_from_json(state, json.loads(json.dumps(data))) == event
            text = rules.event_notation(event)
            assert "\n" not in text and rules.parse_event(state, text) == event
            after = rules.apply(state, event)
            assert json.dumps(rules.state_to_json(state), sort_keys=True) == before, "apply changed its input"
            assert after is not state
        for other in rng.sample(pool, min(SAMPLE, len(pool))):
            if other in legal:
                assert refused(rules, state, other) is None, other
            else:
                assert refused(rules, state, other) is not None, f"{other!r} is not in legal but applies"
        pool.extend(e for e in events if e not in pool)
        typed_json = typed_events(state, rng) if callable(typed_events) else typed_events
        typed = [rules.event_from_json(state, data) for data in typed_json]
        typed = [e for e in typed if e in legal]
        for event in typed:
            assert refused(rules, state, event) is None, event  # in legal, though not listed
            assert rules.parse_event(state, rules.event_notation(event)) == event
        if typed and (not events or rng.random() < 0.3):
            state = rules.apply(state, rng.choice(typed))
            continue
        if not events:
            break
        common = [e for e in events if rules.event_to_json(e)["type"] not in RARE]
        state = rules.apply(state, rng.choice(common if common and rng.random() < 0.95 else events))
    assert steps > 3 and len(pool) >= 3
    return state


@pytest.mark.parametrize("name", list(SETUPS))
@pytest.mark.parametrize("bad", [None, 7, "", [], {"type": "no-such-event"}, {"type": 3}, "fly to=1"])
def test_bad_events_are_invalid_input(name: str, bad: Any) -> None:
    rules = find_rules(name)
    state = rules.new_game(SETUPS[name])
    with pytest.raises(InvalidInput):
        if isinstance(bad, str):
            rules.parse_event(state, bad)
        else:
            rules.event_from_json(state, bad)


@pytest.mark.parametrize("name", list(SETUPS))
def test_a_bad_setup_or_state_is_invalid_input(name: str) -> None:
    rules = find_rules(name)
    with pytest.raises(InvalidInput):
        rules.new_game({})
    with pytest.raises(InvalidInput):
        rules.state_from_json({"what": "not a state"})


def test_the_key_value_notation_round_trips_and_quotes_bad_text() -> None:
    data = {"type": "partita", "name": "Risiko del Nord", "category": "board",
            "payoff": {"king": 3, "green": 1, "black": 0, "darth": -1}, "join": True, "none": None}
    text = json_notation(data)
    assert text.startswith("partita name=\"Risiko del Nord\" category=\"board\" payoff={")
    assert parse_json_notation(text) == data
    assert parse_json_notation("  end-turn  ") == {"type": "end-turn"}
    for bad in ("", "player=1", "declare player", "declare player=tru", "declare player=1 player=2",
                "x" * 5000):
        with pytest.raises(InvalidInput):
            parse_json_notation(bad)


def test_the_legal_view_decides_in_directly() -> None:
    calls: list[int] = []
    legal: Legal[int, int] = Legal(10, lambda n: range(n), lambda n, e: (calls.append(1), isinstance(e, int)
                                                                          and e % 2 == 0 and 0 <= e < n)[1])
    assert 4 in legal and calls == [1]  # one check, no scan of the list
    assert list(legal) == [0, 2, 4, 6, 8] and len(legal) == legal.count() == 5 and legal
    assert 11 not in legal and "4" not in legal
