"""Dadoteck's ``companion.rules.Rules``: the protocol over ``companion.dadoteck.core``.

The notation is the core's own (``roll 0 12``, ``square 14``, ``decline``).
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.dadoteck import core
from companion.dadoteck.core import Event, Game
from companion.errors import InvalidInput
from companion.rules import JSON, CoreRules, Outcome, Rules, setup_players


def new_game(setup: Mapping[str, JSON]) -> Game:
    """A game from the setup: ``{"players": [...], "speedup": false}`` (or ``"options": {...}``)."""
    players, options = setup_players(setup)
    speedup = options.get("speedup", False)
    if not isinstance(speedup, bool):
        raise InvalidInput(f"setup 'speedup' must be true or false, got {speedup!r}")
    return core.new_game(players, speedup=speedup)


def _outcome(game: Game) -> Outcome | None:
    o = game.outcome
    return None if o is None else Outcome(o.termination, () if o.winner is None else (o.winner,))


def _awaiting(game: Game) -> tuple[int, ...]:
    if game.phase in ("square", "victim") or (game.phase == "movement" and game.can_decline()):
        return (game.order[game.cursor],)
    return game.awaited_rollers()


RULES: Rules[Game, Event] = CoreRules(
    name="dadoteck",
    title="Dadoteck",
    start=new_game,
    events=core.candidates,
    check=core.is_legal,
    step=core.apply,
    end=_outcome,
    waits_on=_awaiting,
    to_json=core.event_to_json,
    from_json=lambda g, data: core.event_from_json(data, g.players),
    dump=Game.to_json,
    load=Game.from_json,
    notation=lambda e: e.notation(),
    parse=core.parse_event,
)
