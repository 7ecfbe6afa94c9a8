"""``goblin-companion gobcon``: referee a GobCon state and an event, as JSON.

    goblin-companion gobcon new Anna Bruno Carla [--target 20 | --no-target] [--timed] [--deck-end]
    goblin-companion gobcon apply [INPUT]     # INPUT: {"state": ..., "event": ...} or {"state", "events"}
    goblin-companion gobcon apply --state S --event E
    goblin-companion gobcon show [INPUT]      # INPUT: {"state": ...} or the state itself

INPUT, S and E are a file path, ``-`` for stdin (the default) or inline JSON. Bad input: exit 2 and one
line on stderr.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.gobcon import views
from companion.gobcon.codec import event_from_json, event_to_json
from companion.gobcon.core import DEFAULT_TARGET, Game, apply, new_game
from companion.jsoncli import Parser, apply_each, apply_input, emit, read_json, run, state_document

PROGRAM = "goblin-companion gobcon"


def _parser() -> Parser:
    parser = Parser(prog=PROGRAM, description="Referee a GobCon state and an event, as JSON.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    new = sub.add_parser("new", help="a new game; the first player's turn begins")
    new.add_argument("players", nargs="+", help="the players' names in clockwise order, 2 to 6")
    new.add_argument("--target", type=int, default=DEFAULT_TARGET, help="GP to win at once (default 20)")
    new.add_argument("--no-target", action="store_true", help="no GP target (a timed game)")
    new.add_argument("--timed", action="store_true", help="a timed game: 'time-up' ends it after that turn")
    new.add_argument(
        "--deck-end", action="store_true", help="optional rule: the game ends when the deck runs out"
    )
    new.add_argument("--first", type=int, default=0, help="index of the first player (default 0)")
    app = sub.add_parser("apply", help="apply one event (or a list) to a state")
    app.add_argument("input", nargs="?", help='{"state": ..., "event"|"events": ...}: path, - or inline')
    app.add_argument("--state", help="the state alone: path, - or inline JSON")
    app.add_argument("--event", help="the event alone: path, - or inline JSON")
    show = sub.add_parser("show", help="describe a state: ledger, Partita, awaited step, legal events")
    show.add_argument("input", nargs="?", help='{"state": ...} or the state: path, - or inline')
    return parser


def _answer(game: Game) -> dict[str, Any]:
    return {
        "state": game.to_json(),
        "log": views.news(game),
        "awaiting": views.awaiting(game),
        "totals": {name: game.total(p) for p, name in enumerate(game.players)},
        "outcome": views.outcome(game),
    }


def _apply(args: Any) -> int:
    state_raw, events_raw = apply_input(args.input, args.state, args.event, lambda _text: False)

    def step(game: Game, raw: Any) -> tuple[Game, Any]:
        event = event_from_json(raw, game.players)
        return apply(game, event), event_to_json(event)

    game, applied, log = apply_each(Game.from_json(state_raw), events_raw, step, views.news)
    answer = _answer(game)
    answer["events"] = applied
    answer["log"] = log
    emit(answer)
    return 0


def _show(args: Any) -> int:
    game = Game.from_json(state_document(read_json(args.input)))
    emit(
        {
            "state": game.to_json(),
            "awaiting": views.awaiting(game),
            "players": views.players(game),
            "partita": views.partita(game, game.partita, live=True),
            "last_partita": views.partita(game, game.last, live=False),
            "recent": [views.partita_card(c) for c in game.recent],
            "legal": [event_to_json(e) for e in game.legal],
            "outcome": views.outcome(game),
        }
    )
    return 0


def main(argv: Sequence[str]) -> int:
    def body() -> int:
        args = _parser().parse_args(list(argv))
        if args.command == "new":
            target = None if args.no_target else args.target
            game = new_game(
                args.players, target=target, timed=args.timed, deck_end=args.deck_end, first=args.first
            )
            emit(_answer(game))
            return 0
        if args.command == "apply":
            return _apply(args)
        return _show(args)

    return run(PROGRAM, body)
