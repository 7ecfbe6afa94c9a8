"""Dadoteck's ``companion.rules.Rules``: the protocol over ``companion.dadoteck.core``."""

from __future__ import annotations

from collections.abc import Mapping

from companion.dadoteck import core
from companion.dadoteck.core import Event, Game
from companion.dadoteck.flow import FLOW
from companion.rules import JSON, Legal, Outcome, Rules


def _check(game: Game, event: object) -> bool:
    return isinstance(event, Event) and core.illegal_reason(game, event) is None


class DadoteckRules:
    """Events are the core's; the notation is its own (``roll 0 12``, ``square 14``, ``decline``)."""

    name = "dadoteck"
    title = "Dadoteck"

    def new_game(self, setup: Mapping[str, JSON]) -> Game:
        return FLOW.start(setup)

    def legal(self, state: Game) -> Legal[Game, Event]:
        return Legal(state, lambda g: iter(g.legal._candidates()), _check)

    def apply(self, state: Game, event: Event) -> Game:
        return core.apply(state, event)

    def outcome(self, state: Game) -> Outcome | None:
        o = state.outcome
        if o is None:
            return None
        return Outcome(o.termination, () if o.winner is None else (o.winner,))

    def awaiting(self, state: Game) -> tuple[int, ...]:
        if state.phase in ("square", "victim") or (state.phase == "movement" and state.can_decline()):
            return (state.order[state.cursor],)
        return state.awaited_rollers()

    def event_to_json(self, event: Event) -> dict[str, JSON]:
        return core.event_to_json(event)

    def event_from_json(self, state: Game, data: JSON) -> Event:
        return core.event_from_json(data, state.players)

    def event_notation(self, event: Event) -> str:
        return event.notation()

    def parse_event(self, state: Game, text: str) -> Event:
        return core.parse_event(text)

    def state_to_json(self, state: Game) -> JSON:
        return state.to_json()

    def state_from_json(self, data: JSON) -> Game:
        return Game.from_json(data)


RULES: Rules[Game, Event] = DadoteckRules()
