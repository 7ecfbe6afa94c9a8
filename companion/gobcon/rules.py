"""GobCon's ``companion.rules.Rules``: the protocol over ``companion.gobcon.core`` and its codec."""

from __future__ import annotations

from collections.abc import Mapping

from companion.gobcon import codec, core
from companion.gobcon.core import Event, Game
from companion.gobcon.flow import FLOW
from companion.rules import JSON, Legal, Outcome, Rules, json_notation, parse_json_notation


def _check(game: Game, event: object) -> bool:
    return isinstance(event, Event) and core.illegal_reason(game, event) is None


class GobConRules:
    """Card plays carry what the players type (name, GP): checked by ``in``, not listed."""

    name = "gobcon"
    title = "GobCon"

    def new_game(self, setup: Mapping[str, JSON]) -> Game:
        return FLOW.start(setup)

    def legal(self, state: Game) -> Legal[Game, Event]:
        return Legal(state, lambda g: iter(g.legal._candidates()), _check)

    def apply(self, state: Game, event: Event) -> Game:
        return core.apply(state, event)

    def outcome(self, state: Game) -> Outcome | None:
        o = state.outcome
        return None if o is None else Outcome(o.termination, o.winners)

    def awaiting(self, state: Game) -> tuple[int, ...]:
        owed = state.logorrea_owed()
        if state.outcome is not None:
            return ()
        if owed is not None:
            return (owed[0],)
        if state.phase == "declare":
            return state.declarers()
        if state.phase == "roll":
            roller = state.next_roller()
            return () if roller is None else (roller,)
        return (state.current,)

    def event_to_json(self, event: Event) -> dict[str, JSON]:
        return codec.event_to_json(event)

    def event_from_json(self, state: Game, data: JSON) -> Event:
        return codec.event_from_json(data, state.players)

    def event_notation(self, event: Event) -> str:
        return json_notation(codec.event_to_json(event))

    def parse_event(self, state: Game, text: str) -> Event:
        return codec.event_from_json(parse_json_notation(text), state.players)

    def state_to_json(self, state: Game) -> JSON:
        return state.to_json()

    def state_from_json(self, data: JSON) -> Game:
        return Game.from_json(data)


RULES: Rules[Game, Event] = GobConRules()
