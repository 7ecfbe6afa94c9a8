"""GobCon's ``companion.rules.Rules``: the protocol over ``companion.gobcon.core`` and its codec.

Card plays carry what the players type (name, GP...): ``in`` and ``apply`` take them, the view does not
list them.
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.errors import InvalidInput
from companion.gobcon import codec, core
from companion.gobcon.core import DEFAULT_TARGET, Event, Game
from companion.rules import JSON, CoreRules, Outcome, Rules, player_index, setup_players


def new_game(setup: Mapping[str, JSON]) -> Game:
    """A game from the setup: players clockwise, ``target``, ``timed``, ``deck_end``, ``first``."""
    names, options = setup_players(setup)
    timed = options.get("timed", False)
    deck_end = options.get("deck_end", False)
    for key, value in (("timed", timed), ("deck_end", deck_end)):
        if not isinstance(value, bool):
            raise InvalidInput(f"setup {key!r} must be true or false, got {value!r}")
    target = options.get("target", DEFAULT_TARGET)
    first_raw = options.get("first", 0)
    first = player_index(names, first_raw) if len(set(names)) == len(names) and names else 0
    return core.new_game(names, target=target, timed=timed, deck_end=deck_end, first=first)


def _awaiting(game: Game) -> tuple[int, ...]:
    owed = game.logorrea_owed()
    if game.outcome is not None:
        return ()
    if owed is not None:
        return (owed[0],)
    if game.phase == "declare":
        return game.declarers()
    if game.phase == "roll":
        roller = game.next_roller()
        return () if roller is None else (roller,)
    return (game.current,)


RULES: Rules[Game, Event] = CoreRules(
    name="gobcon",
    title="GobCon",
    start=new_game,
    events=core.candidates,
    check=core.is_legal,
    step=core.apply,
    end=lambda g: None if g.outcome is None else Outcome(g.outcome.termination, g.outcome.winners),
    waits_on=_awaiting,
    to_json=codec.event_to_json,
    from_json=lambda g, data: codec.event_from_json(data, g.players),
    dump=Game.to_json,
    load=Game.from_json,
)
