"""The skirmish rules' ``companion.rules.Rules``: the protocol over ``companion.skirmish.core``."""

from __future__ import annotations

from collections.abc import Mapping

from companion.rules import JSON, Legal, Outcome, Rules, json_notation, parse_json_notation
from companion.skirmish import core
from companion.skirmish.core import Event, Game
from companion.skirmish.flow import FLOW


def _check(game: Game, event: object) -> bool:
    return event in game.legal


class SkirmishRules:
    """Shots, assaults, deaths and flights depend on what is measured on the table: checked, not listed."""

    name = "skirmish"
    title = "Skirmish rules"

    def new_game(self, setup: Mapping[str, JSON]) -> Game:
        return FLOW.start(setup).game

    def legal(self, state: Game) -> Legal[Game, Event]:
        return Legal(state, lambda g: iter(g.legal), _check)

    def apply(self, state: Game, event: Event) -> Game:
        return core.apply(state, event)

    def outcome(self, state: Game) -> Outcome | None:
        o = state.outcome
        if o is None:
            return None
        return Outcome(o.termination, () if o.winner is None else (o.winner,))

    def awaiting(self, state: Game) -> tuple[int, ...]:
        return () if state.outcome is not None else (state.player,)

    def event_to_json(self, event: Event) -> dict[str, JSON]:
        data = core.event_to_json(event)
        assert isinstance(data, dict)
        return data

    def event_from_json(self, state: Game, data: JSON) -> Event:
        return core.parse_event(data)

    def event_notation(self, event: Event) -> str:
        return json_notation(self.event_to_json(event))

    def parse_event(self, state: Game, text: str) -> Event:
        return core.parse_event(parse_json_notation(text))

    def state_to_json(self, state: Game) -> JSON:
        return state.to_json()

    def state_from_json(self, data: JSON) -> Game:
        return Game.from_json(data)


RULES: Rules[Game, Event] = SkirmishRules()
