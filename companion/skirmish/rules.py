"""The skirmish rules' ``companion.rules.Rules``: the protocol over ``companion.skirmish.core``.

Shots, assaults, deaths and flights depend on what is measured on the table: ``in`` and ``apply`` take
them, the view does not list them.
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.rules import JSON, CoreRules, Outcome, Rules
from companion.skirmish import core
from companion.skirmish.core import Event, Game


def new_game(setup: Mapping[str, JSON]) -> Game:
    """The game of the table flow's setup (``bands``, ``time_limit_min``)."""
    from companion.skirmish.flow import FLOW  # the flow's setup, once (imported here: the flow imports RULES)

    return FLOW.start(setup)


def _outcome(game: Game) -> Outcome | None:
    o = game.outcome
    return None if o is None else Outcome(o.termination, () if o.winner is None else (o.winner,))


RULES: Rules[Game, Event] = CoreRules(
    name="skirmish",
    title="Skirmish rules",
    start=new_game,
    events=lambda g: g.legal,
    check=lambda g, e: e in g.legal,
    step=core.apply,
    end=_outcome,
    waits_on=lambda g: () if g.outcome is not None else (g.player,),
    to_json=core.event_to_json,
    from_json=lambda g, data: core.parse_event(data),
    dump=Game.to_json,
    load=Game.from_json,
)
