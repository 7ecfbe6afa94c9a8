"""Property tests: random legal play keeps the board sound and the state JSON round-trips."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.dadoteck import Game, apply, event_from_json, event_to_json, new_game
from companion.dadoteck.flow import FLOW
from tests.helpers import offered_choices_apply
from tests.readings import camera


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 6), st.booleans(), st.data())
def test_random_legal_play_keeps_one_square_per_pawn(players, speedup, data):
    game = new_game([f"P{i}" for i in range(players)], speedup=speedup)
    for _ in range(120):
        legal = list(game.legal)
        if game.phase == "over":
            assert legal == [] and game.outcome is not None
            break
        assert legal, game
        event = data.draw(st.sampled_from(legal))
        assert event_from_json(json.loads(json.dumps(event_to_json(event))), game.players) == event
        game = apply(game, event)
        placed = [s for s in game.squares if s is not None]
        assert len(placed) == len(set(placed)), "a square holds two pawns"
        for p in range(players):
            if not game.is_alive(p):
                assert game.squares[p] is None, "an eliminated pawn is still on the board"
            elif game.phase != "placement":
                assert game.squares[p] is not None, "a pawn in play is on no square"
        assert Game.from_json(json.loads(json.dumps(game.to_json()))) == game
        if game.outcome is not None and game.outcome.winner is not None:
            assert game.alive == (game.outcome.winner,)


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 5), st.booleans(), st.data())
def test_every_choice_the_flow_offers_applies_and_the_view_is_json(players, speedup, data):
    state = FLOW.start({"players": [f"P{i}" for i in range(players)], "speedup": speedup})
    for _ in range(80):
        offered = offered_choices_apply(FLOW, state)
        if offered is None:
            break
        choices, expectation = offered
        if expectation is not None and (not choices or data.draw(st.booleans())):
            slot = expectation.slots[0]
            value = data.draw(st.integers(1, slot.sides or 20))
            die = {"bbox": [0, 0, 9, 9], "sides": slot.sides, "value": value, "confidence": 0.9}
            reading = {"dice": [die]}
            action = FLOW.propose(state, camera(reading))
            assert action == {"type": "reading", "values": {slot.key: value}}
        else:
            action = data.draw(st.sampled_from(choices)).action
        state = FLOW.apply(state, action)
