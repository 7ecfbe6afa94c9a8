"""Goblins: Epic Death's ``companion.rules.Rules``: the protocol over ``companion.goblins.core``.

Cards played (terrains, heroes, machines) and card effects carry typed data: ``in`` and ``apply`` take
them, the view does not list them. Heroes chosen for an Epic Death are listed as every subset of the
army's heroes (a table has a few).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from itertools import combinations

from companion.goblins import core
from companion.goblins.core import ChooseHeroes, Event, Game
from companion.rules import JSON, CoreRules, Outcome, Rules


def new_game(setup: Mapping[str, JSON]) -> Game:
    """The game of the table flow's setup (players, centre, troops; the card catalogues are the flow's)."""
    from companion.goblins.flow import FLOW  # the flow's setup, once (imported here: the flow imports RULES)

    return FLOW.start(setup).game


def _events(game: Game) -> Iterator[Event]:
    yield from game.legal
    if game.awaiting == "choose_heroes":
        heroes = range(len(game.armies[game.current].heroes))
        for size in range(len(heroes) + 1):
            for chosen in combinations(heroes, size):
                yield ChooseHeroes(chosen)


def _awaiting(game: Game) -> tuple[int, ...]:
    if game.awaiting == "shout" and game.outcome is not None:
        return game.outcome.winners
    if game.outcome is not None:
        return ()
    return (game.tosses[0].player,) if game.tosses else (game.current,)


RULES: Rules[Game, Event] = CoreRules(
    name="goblins",
    title="Goblins: Epic Death",
    start=new_game,
    events=_events,
    check=lambda g, e: e in g.legal,
    step=core.apply,
    end=lambda g: None if g.outcome is None else Outcome(g.outcome.termination, g.outcome.winners),
    waits_on=_awaiting,
    to_json=core.event_to_json,
    from_json=lambda g, data: core.parse_event(data),
    dump=Game.to_json,
    load=Game.from_json,
)
