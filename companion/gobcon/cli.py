"""``goblin-companion gobcon new|apply|show``: GobCon's command line, as JSON (``docs/cli.md``).

A ``companion.gamecli.DocumentCli`` over ``RULES``; GobCon's own part is the ``new`` arguments (the
players clockwise, the GP target, a timed game, the deck's end, the first player) and the answers.
"""

from __future__ import annotations

import argparse
from typing import Any

from companion.gamecli import AnyRules, DocumentCli
from companion.gobcon import views
from companion.gobcon.core import DEFAULT_TARGET, Game, new_game
from companion.gobcon.rules import RULES


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


CLI = DocumentCli.of(RULES, "a new game; the first player's turn begins", _new_arguments, _new, _answer,
                     "describe a state: ledger, Partita, awaited step, legal events", _show, log=views.news)
main = CLI.main
