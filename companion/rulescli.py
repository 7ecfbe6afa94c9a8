"""``goblin-companion rules GAME ...``: any game through the rules protocol, one JSON shape for all.

    goblin-companion rules GAME new [SETUP]              # SETUP: the setup JSON of the game's table flow
    goblin-companion rules GAME apply [INPUT]            # {"state": ..., "event": E} or {"state", "events"}
    goblin-companion rules GAME apply --state S --event E
    goblin-companion rules GAME show [INPUT]             # {"state": ...} or the state alone

Events are JSON objects or the game's one-line notation (``"roll 0 12"``, ``"declare player=1
join=true"``). Every answer is ``{"game", "state", "awaiting", "outcome", "legal", "legal_count"}``
(``apply`` adds ``"events"``, the events applied as JSON). SETUP, INPUT, S and E are a file path, ``-``
for stdin (the default) or inline JSON. Bad input: exit 2 and one line on stderr. The games' own
commands (``goblin-companion dadoteck ...``) keep their richer answers; this one is the same for every
game in ``companion.games.GAMES``, a sixth one included.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.games import GAMES, find_rules
from companion.jsoncli import Parser, apply_each, apply_input, emit, read_json, run, state_document
from companion.rules import Rules

PROGRAM = "goblin-companion rules"
MAX_LISTED = 200
"""The most legal events an answer lists (``legal_count`` says how many there are)."""


def _parser() -> Parser:
    parser = Parser(prog=PROGRAM, description="Any game through the rules protocol, as JSON.")
    parser.add_argument("game", help=f"one of: {', '.join(GAMES)}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    new = sub.add_parser("new", help="a new game from its setup")
    new.add_argument("setup", nargs="?", help="the setup JSON: path, - or inline")
    app = sub.add_parser("apply", help="apply one event (or a list) to a state")
    app.add_argument("input", nargs="?", help='{"state": ..., "event"|"events": ...}: path, - or inline')
    app.add_argument("--state", help="the state alone: path, - or inline JSON")
    app.add_argument("--event", help="the event alone: path, - or inline JSON, or its notation")
    show = sub.add_parser("show", help="the state, who is awaited, the outcome and the legal events")
    show.add_argument("input", nargs="?", help='{"state": ...} or the state: path, - or inline')
    return parser


def answer(rules: Rules[Any, Any], state: Any) -> dict[str, Any]:
    """The one answer shape: the state, who is awaited, the outcome, the legal events (listed ones)."""
    outcome = rules.outcome(state)
    legal: list[dict[str, Any]] = []
    count = 0
    for event in rules.legal(state):
        count += 1
        if len(legal) < MAX_LISTED:
            legal.append({"event": rules.event_to_json(event), "notation": rules.event_notation(event)})
    return {
        "game": rules.name,
        "state": rules.state_to_json(state),
        "awaiting": list(rules.awaiting(state)),
        "outcome": None if outcome is None else {"termination": outcome.termination,
                                                 "winners": list(outcome.winners)},
        "legal": legal,
        "legal_count": count,
    }


def _event(rules: Rules[Any, Any], state: Any, raw: Any) -> Any:
    return rules.parse_event(state, raw) if isinstance(raw, str) else rules.event_from_json(state, raw)


def _apply(rules: Rules[Any, Any], args: Any) -> dict[str, Any]:
    state_raw, events_raw = apply_input(args.input, args.state, args.event,
                                        lambda text: not text.lstrip().startswith(("{", "[")))

    def step(state: Any, raw: Any) -> tuple[Any, Any]:
        event = _event(rules, state, raw)
        return rules.apply(state, event), rules.event_to_json(event)

    start = rules.state_from_json(state_document(state_raw))
    state, applied, _ = apply_each(start, events_raw, step, lambda _state: [])
    return {**answer(rules, state), "events": applied}


def main(argv: Sequence[str]) -> int:
    def body() -> int:
        args = _parser().parse_args(list(argv))
        rules = find_rules(args.game)
        if args.command == "new":
            emit(answer(rules, rules.new_game(read_json(args.setup))))
        elif args.command == "apply":
            emit(_apply(rules, args))
        else:
            emit(answer(rules, rules.state_from_json(state_document(read_json(args.input)))))
        return 0

    return run(PROGRAM, body)
