"""Pig's ``companion.rules.Rules``."""

from __future__ import annotations

from companion.rules import CoreRules, Outcome, Rules, setup_players
from tests.pig import core
from tests.pig.core import Event, Game


def new_game(setup: object) -> Game:
    players, options = setup_players(setup)
    return core.new_game(list(players), options.get("target", 20))


RULES: Rules[Game, Event] = CoreRules(
    name="pig",
    title="Pig",
    start=new_game,
    events=core.events,
    check=core.JUDGE.allows,
    step=core.apply,
    end=lambda g: None if g.winner is None else Outcome("target", (g.winner,)),
    waits_on=lambda g: () if g.winner is not None else (g.current,),
    to_json=core.event_to_json,
    from_json=lambda g, data: core.event_from_json(data),
    dump=core.game_to_json,
    load=core.game_from_json,
)
