"""``goblin-companion dadoteck``: referee a Dadoteck state and an event, as JSON.

    goblin-companion dadoteck new Anna Bruno Carla [--speedup]
    goblin-companion dadoteck apply [INPUT]     # INPUT: {"state": ..., "event": ...} or {"state", "events"}
    goblin-companion dadoteck apply --state S --event E
    goblin-companion dadoteck show [INPUT]      # INPUT: {"state": ...} or the state itself

INPUT, S and E are a file path, ``-`` for stdin (the default) or inline JSON. Bad input: exit 2 and one
line on stderr. The command line is ``companion.gamecli``'s over ``RULES``; this module says what is
Dadoteck's own: the ``new`` arguments and the answers (``views``).
"""

from __future__ import annotations

import argparse
from typing import Any

from companion.dadoteck import views
from companion.dadoteck.core import EVENT_TYPES, Game, new_game
from companion.dadoteck.rules import RULES
from companion.gamecli import AnyRules, DocumentCli

PROGRAM = "goblin-companion dadoteck"


def _new_arguments(new: argparse.ArgumentParser) -> None:
    new.add_argument("players", nargs="+", help="the players' names, 2 to 20")
    new.add_argument("--speedup", action="store_true", help="allow the optional speed-up rules")


def _answer(_rules: AnyRules, game: Game) -> dict[str, Any]:
    return {
        "state": game.to_json(),
        "log": views.news(game),
        "awaiting": views.awaiting(game),
        "outcome": views.outcome(game),
    }


def _show(_rules: AnyRules, game: Game) -> dict[str, Any]:
    return {
        "state": game.to_json(),
        "turn": game.turn,
        "awaiting": views.awaiting(game),
        "board": views.board(game),
        "initiative": views.initiative(game),
        "eliminations": views.eliminations(game),
        "legal": views.legal(game),
        "outcome": views.outcome(game),
    }


def _is_notation(text: str) -> bool:
    first = text.split()[0] if text.split() else ""
    return not text.lstrip().startswith(("{", "[")) and first in EVENT_TYPES


CLI = DocumentCli(
    program=PROGRAM,
    description="Referee a Dadoteck state and an event, as JSON.",
    rules=lambda _args: RULES,
    new_help="a new game in the placement phase",
    new_arguments=_new_arguments,
    new=lambda _rules, args: new_game(args.players, speedup=args.speedup),
    answer=_answer,
    show_help="describe a state: board, initiative, awaited roll, legal events",
    show=_show,
    event_help="the event alone: path, - or inline JSON, or notation like 'roll 0 12'",
    notation=_is_notation,
    log=views.news,
)
main = CLI.main
