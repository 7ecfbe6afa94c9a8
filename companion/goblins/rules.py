"""Goblins: Epic Death's ``companion.rules.Rules``: the protocol over ``companion.goblins.core``."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from itertools import combinations

from companion.goblins import core
from companion.goblins.core import ChooseHeroes, Event, Game
from companion.goblins.flow import FLOW
from companion.rules import JSON, Legal, Outcome, Rules, json_notation, parse_json_notation


def _events(game: Game) -> Iterator[Event]:
    yield from game.legal
    if game.awaiting == "choose_heroes":  # the core checks subsets by ``in``; a table has only a few heroes
        heroes = range(len(game.armies[game.current].heroes))
        for size in range(len(heroes) + 1):
            for chosen in combinations(heroes, size):
                yield ChooseHeroes(chosen)


def _check(game: Game, event: object) -> bool:
    return event in game.legal


class GoblinsRules:
    """Cards played (heroes, machines, terrains) and card effects carry typed data: checked, not listed."""

    name = "goblins"
    title = "Goblins: Epic Death"

    def new_game(self, setup: Mapping[str, JSON]) -> Game:
        return FLOW.start(setup).game

    def legal(self, state: Game) -> Legal[Game, Event]:
        return Legal(state, _events, _check)

    def apply(self, state: Game, event: Event) -> Game:
        return core.apply(state, event)

    def outcome(self, state: Game) -> Outcome | None:
        o = state.outcome
        return None if o is None else Outcome(o.termination, o.winners)

    def awaiting(self, state: Game) -> tuple[int, ...]:
        if state.awaiting == "shout":
            assert state.outcome is not None
            return state.outcome.winners
        if state.outcome is not None:
            return ()
        if state.tosses:
            return (state.tosses[0].player,)
        return (state.current,)

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


RULES: Rules[Game, Event] = GoblinsRules()
