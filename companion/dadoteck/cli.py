"""``goblin-companion dadoteck new|apply|show``: Dadoteck's command line, as JSON (``docs/cli.md``).

A ``companion.gamecli.DocumentCli`` over ``RULES``; this module names what is Dadoteck's own: the
``new`` arguments (the players, ``--speedup``), the answers (``views``) and the event notation.
"""

from __future__ import annotations

import argparse
from typing import Any

from companion.dadoteck import views
from companion.dadoteck.core import EVENT_TYPES, Game, new_game
from companion.dadoteck.rules import RULES
from companion.gamecli import AnyRules, DocumentCli


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


CLI = DocumentCli.of(
    RULES, "a new game in the placement phase", _new_arguments,
    lambda _rules, args: new_game(args.players, speedup=args.speedup), _answer,
    "describe a state: board, initiative, awaited roll, legal events", _show, log=views.news,
    event_help="the event alone: path, - or inline JSON, or notation like 'roll 0 12'", notation=_is_notation)
main = CLI.main
