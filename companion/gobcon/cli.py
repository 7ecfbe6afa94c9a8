"""``goblin-companion gobcon``: referee a GobCon state and an event, as JSON.

    goblin-companion gobcon new Anna Bruno Carla [--target 20 | --no-target] [--timed] [--deck-end]
    goblin-companion gobcon apply [INPUT]     # INPUT: {"state": ..., "event": ...} or {"state", "events"}
    goblin-companion gobcon apply --state S --event E
    goblin-companion gobcon show [INPUT]      # INPUT: {"state": ...} or the state itself

INPUT, S and E are a file path, ``-`` for stdin (the default) or inline JSON. Bad input: exit 2 and one
line on stderr. The command line is ``companion.gamecli``'s over ``RULES``; this module says what is
GobCon's own: the ``new`` arguments and the answers (``views``).
"""

from __future__ import annotations

import argparse
from typing import Any

from companion.gamecli import AnyRules, DocumentCli
from companion.gobcon import views
from companion.gobcon.core import DEFAULT_TARGET, Game, new_game
from companion.gobcon.rules import RULES

PROGRAM = "goblin-companion gobcon"


def _new_arguments(new: argparse.ArgumentParser) -> None:
    new.add_argument("players", nargs="+", help="the players' names in clockwise order, 2 to 6")
    new.add_argument("--target", type=int, default=DEFAULT_TARGET, help="GP to win at once (default 20)")
    new.add_argument("--no-target", action="store_true", help="no GP target (a timed game)")
    new.add_argument("--timed", action="store_true", help="a timed game: 'time-up' ends it after that turn")
    new.add_argument(
        "--deck-end", action="store_true", help="optional rule: the game ends when the deck runs out"
    )
    new.add_argument("--first", type=int, default=0, help="index of the first player (default 0)")


def _new(_rules: AnyRules, args: argparse.Namespace) -> Game:
    target = None if args.no_target else args.target
    return new_game(args.players, target=target, timed=args.timed, deck_end=args.deck_end, first=args.first)


def _answer(_rules: AnyRules, game: Game) -> dict[str, Any]:
    return {
        "state": game.to_json(),
        "log": views.news(game),
        "awaiting": views.awaiting(game),
        "totals": {name: game.total(p) for p, name in enumerate(game.players)},
        "outcome": views.outcome(game),
    }


def _show(rules: AnyRules, game: Game) -> dict[str, Any]:
    return {
        "state": game.to_json(),
        "awaiting": views.awaiting(game),
        "players": views.players(game),
        "partita": views.partita(game, game.partita, live=True),
        "last_partita": views.partita(game, game.last, live=False),
        "recent": [views.partita_card(c) for c in game.recent],
        "legal": [rules.event_to_json(e) for e in game.legal],
        "outcome": views.outcome(game),
    }


CLI = DocumentCli(
    program=PROGRAM,
    description="Referee a GobCon state and an event, as JSON.",
    rules=lambda _args: RULES,
    new_help="a new game; the first player's turn begins",
    new_arguments=_new_arguments,
    new=_new,
    answer=_answer,
    show_help="describe a state: ledger, Partita, awaited step, legal events",
    show=_show,
    log=views.news,
)
main = CLI.main
