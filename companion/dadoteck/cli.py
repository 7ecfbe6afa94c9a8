"""``goblin-companion dadoteck``: referee a Dadoteck state and an event, as JSON.

    goblin-companion dadoteck new Anna Bruno Carla [--speedup]
    goblin-companion dadoteck apply [INPUT]     # INPUT: {"state": ..., "event": ...} or {"state", "events"}
    goblin-companion dadoteck apply --state S --event E
    goblin-companion dadoteck show [INPUT]      # INPUT: {"state": ...} or the state itself

INPUT, S and E are a file path, ``-`` for stdin (the default) or inline JSON. Bad input: exit 2 and one
line on stderr.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.dadoteck import views
from companion.dadoteck.core import EVENT_TYPES, Game, apply, event_from_json, event_to_json, new_game
from companion.jsoncli import Parser, apply_each, apply_input, emit, read_json, run, state_document

PROGRAM = "goblin-companion dadoteck"


def _parser() -> Parser:
    parser = Parser(prog=PROGRAM, description="Referee a Dadoteck state and an event, as JSON.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    new = sub.add_parser("new", help="a new game in the placement phase")
    new.add_argument("players", nargs="+", help="the players' names, 2 to 20")
    new.add_argument("--speedup", action="store_true", help="allow the optional speed-up rules")
    app = sub.add_parser("apply", help="apply one event (or a list) to a state")
    app.add_argument("input", nargs="?", help='{"state": ..., "event"|"events": ...}: path, - or inline')
    app.add_argument("--state", help="the state alone: path, - or inline JSON")
    app.add_argument("--event", help="the event alone: path, - or inline JSON, or notation like 'roll 0 12'")
    show = sub.add_parser("show", help="describe a state: board, initiative, awaited roll, legal events")
    show.add_argument("input", nargs="?", help='{"state": ...} or the state: path, - or inline')
    return parser


def _answer(game: Game) -> dict[str, Any]:
    return {
        "state": game.to_json(),
        "log": views.news(game),
        "awaiting": views.awaiting(game),
        "outcome": views.outcome(game),
    }


def _apply(args: Any) -> int:
    state_raw, events_raw = apply_input(args.input, args.state, args.event, _is_notation)

    def step(game: Game, raw: Any) -> tuple[Game, Any]:
        event = event_from_json(raw, game.players)
        return apply(game, event), event_to_json(event)

    game, applied, log = apply_each(Game.from_json(state_raw), events_raw, step, views.news)
    answer = _answer(game)
    answer["events"] = applied
    answer["log"] = log
    emit(answer)
    return 0


def _is_notation(text: str) -> bool:
    first = text.split()[0] if text.split() else ""
    return not text.lstrip().startswith(("{", "[")) and first in EVENT_TYPES


def _show(args: Any) -> int:
    game = Game.from_json(state_document(read_json(args.input)))
    emit(
        {
            "state": game.to_json(),
            "turn": game.turn,
            "awaiting": views.awaiting(game),
            "board": views.board(game),
            "initiative": views.initiative(game),
            "eliminations": views.eliminations(game),
            "legal": views.legal(game),
            "outcome": views.outcome(game),
        }
    )
    return 0


def main(argv: Sequence[str]) -> int:
    def body() -> int:
        args = _parser().parse_args(list(argv))
        if args.command == "new":
            emit(_answer(new_game(args.players, speedup=args.speedup)))
            return 0
        if args.command == "apply":
            return _apply(args)
        return _show(args)

    return run(PROGRAM, body)
