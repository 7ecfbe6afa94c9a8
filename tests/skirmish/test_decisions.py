"""The table's two decisions as core events: heroism spent after seeing a roll (``hold``, ``spend``) and
the friends marked one by one within 5 cm of a dead model (``mark_near``, then ``near``).

Rule 2 of docs/rules-notes.md: «Nel corso della partita è possibile spendere questi punti per modificare
un tiro di dado di +1 per ogni punto speso», spent after the roll is seen, by the hero who rolls.
Rule 8: «Un modello amico entro 5 cm da lui è ucciso» calls a morale test, 5 cm included.
"""

import pytest

from companion.errors import IllegalAction, InvalidInput
from companion.skirmish.core import (
    EndCard,
    EndGame,
    Game,
    Hold,
    Kill,
    Line,
    MarkNear,
    Near,
    PlayCard,
    Roll,
    Shoot,
    Spend,
    apply,
    event_to_json,
    heroism_need,
    parse_event,
)
from tests.skirmish.conftest import kinds, run


def shot(game: Game) -> Game:
    """Lorien (Tiro 3, two heroism points) shoots the first Orco: a 3+ is needed."""
    return run(game, PlayCard("tiro2"), Shoot((Line(0, 10),), 2))


def test_a_failed_roll_its_hero_can_turn_is_held_then_points_are_spent(game):
    game = shot(game)
    assert heroism_need(game, (1,)) == (2, 2) and heroism_need(game, (2,)) == (1, 2)
    held = apply(game, Hold((1,)))
    assert held.held == (1,) and held.pending == game.pending  # nothing settled yet
    assert list(held.legal) == [Spend(0), Spend(2)]  # keep it, or the 2 points that turn it
    assert Spend(1) in held.legal  # wasteful, not forbidden: the roll still fails
    after = apply(held, Spend(2))
    assert after.held is None and after.bands[0].models[0].heroism == 0
    assert kinds(after) == [("salvezza", 1, 2)]
    assert after == apply(game, Roll((1,), heroism=2))  # the same as the roll with its points at once


def test_keeping_a_held_roll_lets_it_fail(game):
    game = shot(game)
    kept = run(game, Hold((2,)), Spend(0))
    assert kept == apply(game, Roll((2,))) and kept.bands[0].models[0].heroism == 2 and not kept.pending


def test_only_a_roll_heroism_can_turn_is_held(game):
    game = shot(game)
    with pytest.raises(IllegalAction, match="not held"):
        apply(game, Hold((3,)))  # a success
    assert Hold((3,)) not in game.legal and Hold((1,)) in game.legal
    assert [e for e in game.legal if isinstance(e, Hold)] == [Hold((1,)), Hold((2,))]
    no_hero = run(game.__class__.new(game.bands), Roll((1, 5)))
    assert not any(isinstance(e, Hold) for e in no_hero.legal)  # a deployment roll: no heroism
    arciere = run(game, Roll((5,)), Roll((6,)), EndCard(), PlayCard("tiro2"), EndCard(),
                  PlayCard("tiro3"), Shoot((Line(1, 10),), 3))
    with pytest.raises(IllegalAction, match="not held"):
        apply(arciere, Hold((1,)))  # the Arciere is no hero
    with pytest.raises(IllegalAction, match="d6"):
        apply(game, Hold((7,)))  # a malformed roll is refused as a roll


def test_while_a_roll_is_held_only_the_heroism_answer_is_taken(game):
    held = apply(shot(game), Hold((1,)))
    for event in (Roll((1,)), Hold((1,)), EndGame(), EndCard(), Kill(1, 0)):
        with pytest.raises(IllegalAction, match="heroism points are spent"):
            apply(held, event)
    with pytest.raises(IllegalAction, match="2 heroism points, not 3"):
        apply(held, Spend(3))
    with pytest.raises(IllegalAction, match="no roll is waiting"):
        apply(game, Spend(1))
    with pytest.raises(InvalidInput):
        apply(held, Spend(-1))


def test_friends_are_marked_one_by_one_then_near_answers_with_them(game):
    game = run(game, PlayCard("tiro2"), Shoot((Line(1, 20),), 2), Roll((6,)), Roll((1,)))
    assert kinds(game) == [("near", 1, 2)]
    assert list(game.legal) == [MarkNear(0), MarkNear(1), MarkNear(3), Near(())]  # the dead Orco is out
    marked = run(game, MarkNear(3), MarkNear(1), MarkNear(0), MarkNear(0))  # marked twice: unmarked
    assert marked.near == (1, 3) and marked.pending == game.pending
    assert Near((1, 3)) in list(marked.legal)
    after = apply(marked, Near(marked.near))
    assert after.near == () and kinds(after) == [("morale", 1, 1), ("morale", 1, 3)]
    assert after == apply(game, Near((1, 3)))
    with pytest.raises(IllegalAction, match="not in play"):
        apply(game, MarkNear(2))
    with pytest.raises(IllegalAction):
        apply(after, MarkNear(1))  # no death waits now: a morale roll does


def test_the_decisions_round_trip_through_json_and_the_state(game):
    for event in (Hold((1,)), Spend(2), MarkNear(3)):
        assert parse_event(event_to_json(event)) == event
    held = apply(shot(game), Hold((1,)))
    assert held.to_json()["held"] == [1] and Game.from_json(held.to_json()) == held
    assert "held" not in game.to_json() and "near" not in game.to_json()  # absent while unset
    near = run(game, PlayCard("tiro2"), Shoot((Line(1, 20),), 2), Roll((6,)), Roll((1,)), MarkNear(1))
    assert near.to_json()["near"] == [1] and Game.from_json(near.to_json()) == near
    bad = {**game.to_json(), "held": [1]}
    with pytest.raises(InvalidInput, match="held"):
        Game.from_json(bad)  # nothing awaited: no roll can be held
    with pytest.raises(InvalidInput, match="near"):
        Game.from_json({**game.to_json(), "near": [1]})
