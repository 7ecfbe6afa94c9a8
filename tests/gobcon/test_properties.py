"""Property tests: random play keeps every ledger equal to its parts, piles >= 0, and JSON round-trips."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.gobcon import (
    CATEGORIES,
    Face,
    Game,
    GoblinRoll,
    Payoff,
    PlayCard,
    PlayPartita,
    Tokens,
    apply,
    event_from_json,
    event_to_json,
    illegal_reason,
    new_game,
)
from companion.gobcon.flow import FLOW
from tests.helpers import offered_choices_apply
from tests.readings import camera


def free_event(data: st.DataObject, game: Game) -> object:
    """An event carrying typed-in data, which the legal view does not list."""
    n = len(game.players)
    kind = data.draw(st.integers(0, 4))
    player = data.draw(st.integers(0, n - 1))
    gp = data.draw(st.integers(-3, 4))
    category = data.draw(st.sampled_from(CATEGORIES))
    if kind == 0:
        kind = data.draw(st.sampled_from(["amici", "acquisti"]))
        name = data.draw(st.sampled_from(["Carta", "Logorrea-Man"])) if kind == "amici" else "Carta"
        return PlayCard(player, kind, name, gp, data.draw(st.sampled_from([None, category])))
    if kind == 1:
        effect = data.draw(st.sampled_from(["bonus", "malus", "divieto"]))
        return PlayCard(player, "speciale", "Speciale", gp, category, effect, data.draw(st.integers(1, 2)))
    if kind == 2:
        return PlayPartita("Partita", category, Payoff(*(data.draw(st.integers(-3, 4)) for _ in range(4))))
    if kind == 3:
        return Tokens(player, gp or 1)
    return GoblinRoll(player, data.draw(st.sampled_from(list(Face))))


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 6), st.integers(3, 40), st.data())
def test_random_play_keeps_the_ledger_sound(players, target, data):
    game = new_game([f"P{i}" for i in range(players)], target=target, timed=True)
    for _ in range(40):
        if game.outcome is not None:
            break
        legal = list(game.legal)
        if legal and data.draw(st.booleans()):
            event = data.draw(st.sampled_from(legal))
        else:
            event = free_event(data, game)
        if illegal_reason(game, event) is not None:  # type: ignore[arg-type]
            continue
        assert event_from_json(json.loads(json.dumps(event_to_json(event))), game.players) == event
        game = apply(game, event)  # type: ignore[arg-type]
        for p in range(players):
            ledger = game.ledger(p)
            assert ledger.pile >= 0
            assert ledger.total == ledger.pile + sum(v for _, v in ledger.cards) == game.total(p)
            assert sum(1 for c in game.cards[p] if c.kind == "amici") <= 1
        if not any(game.has_acquisti(p) for p in range(players)):  # «scartato immediatamente»
            assert not any(c.is_logorrea for cards in game.cards for c in cards)
        if game.outcome is not None and game.outcome.termination == "target":
            assert game.total(game.outcome.winners[0]) >= target
        elif game.outcome is None:
            assert all(game.total(p) < target for p in range(players))
        assert Game.from_json(json.loads(json.dumps(game.to_json()))) == game


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 6), st.data())
def test_every_choice_the_flow_offers_applies_and_the_view_is_json(players, data):
    names = [f"P{i}" for i in range(players)]
    state = FLOW.start({"players": names, "target": 8, "timed": True, "deck_end": True})
    for step in range(80):
        offered = offered_choices_apply(FLOW, state)
        if offered is None:
            break
        choices, expectation = offered
        if state.phase == "turn" and step % 5 == 0 and "partita" not in state.played:
            payoff = {"king": 3, "green": 1, "black": 0, "darth": -1}
            action = {"type": "partita", "name": "P", "category": "card", "payoff": payoff}
        elif expectation is not None and (not choices or data.draw(st.booleans())):
            pips = data.draw(st.integers(1, 6))
            reading = {"dice": [{"bbox": [0, 0, 9, 9], "sides": 6, "value": pips, "confidence": 0.9}]}
            action = FLOW.propose(state, camera(reading))
            assert action == {"type": "reading", "values": {expectation.slots[0].key: pips}}
        else:
            action = data.draw(st.sampled_from(choices)).action
        state = FLOW.apply(state, action)
