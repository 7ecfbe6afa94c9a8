"""One JSON command line for every game, over its ``RULES`` (``companion.rules.Rules``).

``goblin-companion GAME ...`` and ``goblin-companion rules GAME ...`` are this module with a small
description of what is the game's own: how ``new`` reads its setup, the answer it prints (the game's
richer views), ``show`` or ``legal``, and any extra commands (a Goblins combat, a skirmish shot).
Reading the state and the events, applying them through ``RULES`` one by one (all or nothing), and the
exit-status discipline (JSON on stdout; bad input: exit 2 and one line on stderr) are written once here.

The games' command lines come in two shapes, kept as they were (scripts drive them, and
``tests/cli_corpus`` replays them byte for byte):

- ``DocumentCli`` (Dadoteck, GobCon, ``rules``): ``new ARGS``, ``apply [INPUT]`` or ``apply --state S
  --event E``, ``show [INPUT]``; INPUT, S and E are a path, ``-`` (stdin) or inline JSON; indented JSON
  out; errors ``PROGRAM: message``.
- ``ArgumentCli`` (Goblins, skirmish): ``COMMAND [JSON | @FILE | -]``; compact JSON out; errors
  ``PROGRAM COMMAND: message``.
- ``FlagCli`` (Button Goblin): ``COMMAND [--FLAG VALUE ...] < JSON``; compact ASCII JSON out; errors
  ``LABEL: message``.

A sixth game needs neither: ``goblin-companion rules GAME`` drives it (``RULES_CLI``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, TextIO

from companion import jsonvalues
from companion.errors import GoblinError, InvalidInput
from companion.jsoncli import (
    Parser,
    apply_each,
    apply_input,
    emit,
    help_requested,
    loads,
    read_argument,
    read_json,
    read_text,
    run,
    state_document,
)
from companion.rules import Rules

JSON = Any
AnyRules = Rules[Any, Any]

INPUT_HELP = '{"state": ..., "event"|"events": ...}: path, - or inline'
STATE_HELP = "the state alone: path, - or inline JSON"
SHOW_INPUT_HELP = '{"state": ...} or the state: path, - or inline'
MAX_LISTED = 200
"""The most legal events a ``rules`` answer lists (``legal_count`` says how many there are)."""


def json_object(value: JSON, what: str) -> Mapping[str, JSON]:
    """``value`` if it is a JSON object; else ``InvalidInput`` naming ``what`` (quoted, cut to 200)."""
    return jsonvalues.json_object(value, what, most=200)


def decode(rules: AnyRules, state: Any, raw: JSON) -> Any:
    """An event from JSON, or from the game's notation when ``raw`` is a string."""
    return rules.parse_event(state, raw) if isinstance(raw, str) else rules.event_from_json(state, raw)


def protocol_answer(rules: AnyRules, state: Any) -> dict[str, JSON]:
    """The one answer of ``rules GAME``: the state, who is awaited, the outcome, the legal events."""
    outcome = rules.outcome(state)
    legal: list[dict[str, JSON]] = []
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


# ------------------------------------------------------------------------------------ the document shape


@dataclass(frozen=True)
class DocumentCli:
    """``PROGRAM [GAME] new|apply|show``: a game's command line in the document shape.

    ``rules(args)`` is the game's ``RULES`` (the ``rules`` command takes it from its GAME argument);
    ``new(rules, args)`` the state the ``new`` arguments describe; ``answer`` what ``new`` and ``apply``
    print (``apply`` adds ``"events"``, the events applied as JSON, and, with ``log``, replaces the
    answer's ``"log"`` with what was said after each event); ``show`` what ``show`` prints.
    """

    program: str
    description: str
    rules: Callable[[argparse.Namespace], AnyRules]
    new_help: str
    new_arguments: Callable[[argparse.ArgumentParser], None]
    new: Callable[[AnyRules, argparse.Namespace], Any]
    answer: Callable[[AnyRules, Any], dict[str, JSON]]
    show_help: str
    show: Callable[[AnyRules, Any], dict[str, JSON]]
    event_help: str = "the event alone: path, - or inline JSON"
    notation: Callable[[str], bool] = lambda _text: False
    """Which ``--event`` strings are the game's notation (the others are read as JSON)."""
    log: Callable[[Any], list[JSON]] | None = None
    leading: Callable[[argparse.ArgumentParser], None] = lambda _parser: None
    """Arguments before the command (``rules`` takes the GAME there)."""
    decode: Callable[[AnyRules, Any, JSON], Any] = lambda rules, state, raw: rules.event_from_json(state, raw)
    """An event of the input (``decode`` also reads a string as the game's notation)."""

    @classmethod
    def of(
        cls,
        rules: AnyRules,
        new_help: str,
        new_arguments: Callable[[argparse.ArgumentParser], None],
        new: Callable[[AnyRules, argparse.Namespace], Any],
        answer: Callable[[AnyRules, Any], dict[str, JSON]],
        show_help: str,
        show: Callable[[AnyRules, Any], dict[str, JSON]],
        **options: Any,
    ) -> DocumentCli:
        """One game's command line, ``goblin-companion <its name>``."""
        return cls(f"goblin-companion {rules.name}", f"Referee a {rules.title} state and an event, as JSON.",
                   lambda _args: rules, new_help, new_arguments, new, answer, show_help, show, **options)

    def parser(self) -> Parser:
        parser = Parser(prog=self.program, description=self.description)
        self.leading(parser)
        sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
        self.new_arguments(sub.add_parser("new", help=self.new_help))
        app = sub.add_parser("apply", help="apply one event (or a list) to a state")
        app.add_argument("input", nargs="?", help=INPUT_HELP)
        app.add_argument("--state", help=STATE_HELP)
        app.add_argument("--event", help=self.event_help)
        show = sub.add_parser("show", help=self.show_help)
        show.add_argument("input", nargs="?", help=SHOW_INPUT_HELP)
        return parser

    def apply(self, rules: AnyRules, args: argparse.Namespace) -> dict[str, JSON]:
        state_raw, events_raw = apply_input(args.input, args.state, args.event, self.notation)

        def step(state: Any, raw: JSON) -> tuple[Any, JSON]:
            event = self.decode(rules, state, raw)
            return rules.apply(state, event), rules.event_to_json(event)

        start = rules.state_from_json(state_document(state_raw))
        state, applied, said = apply_each(start, events_raw, step, self.log or (lambda _state: []))
        out = {**self.answer(rules, state), "events": applied}
        if self.log is not None:
            out["log"] = said
        return out

    def main(self, argv: Sequence[str]) -> int:
        def body() -> int:
            args = self.parser().parse_args(list(argv))
            rules = self.rules(args)
            if args.command == "new":
                emit(self.answer(rules, self.new(rules, args)))
            elif args.command == "apply":
                emit(self.apply(rules, args))
            else:
                emit(self.show(rules, rules.state_from_json(state_document(read_json(args.input)))))
            return 0

        return run(self.program, body)


# ------------------------------------------------------------------------------------ the argument shape


@dataclass(frozen=True)
class ArgumentCli:
    """``PROGRAM COMMAND [JSON | @FILE | -]``: a game's command line in the argument shape.

    ``new`` reads the setup JSON into a state; ``answer`` is what ``new`` and ``apply`` print (``apply``
    replaces its ``"log"`` with what ``log`` said after each event); ``legal`` answers ``legal``;
    ``extras`` are the game's own commands. ``doc`` (the module's docstring) is the ``--help`` text.
    """

    program: str
    doc: str
    rules: AnyRules
    new: Callable[[JSON], Any]
    answer: Callable[[Any], dict[str, JSON]]
    legal: Callable[[AnyRules, Any], dict[str, JSON]]
    extras: Mapping[str, Callable[[JSON], JSON]] = field(default_factory=dict)
    log: Callable[[Any], list[JSON]] = lambda state: list(state.log)
    """What an event said (default: the state's ``log``, the lines of the last event)."""

    @property
    def commands(self) -> dict[str, Callable[[JSON], JSON]]:
        return {"new": self.cmd_new, "apply": self.cmd_apply, "legal": self.cmd_legal, **self.extras}

    @property
    def usage(self) -> str:
        return f"usage: {self.program} {{{','.join(self.commands)}}} [JSON | @FILE | -]"

    def cmd_new(self, data: JSON) -> JSON:
        return self.answer(self.new(data))

    def cmd_apply(self, data: JSON) -> JSON:
        obj = json_object(data, "input")
        state = self.rules.state_from_json(obj.get("state"))
        if "events" in obj:
            events = obj["events"]
            if not isinstance(events, list):
                raise InvalidInput(f"'events' must be a list of events, got {events!r}")
        elif "event" in obj:
            events = [obj["event"]]
        else:
            raise InvalidInput('\'apply\' needs "event" (or "events") next to "state"')
        log: list[JSON] = []
        for raw in events:
            state = self.rules.apply(state, self.rules.event_from_json(state, raw))
            log.extend(self.log(state))
        out = self.answer(state)
        out["log"] = log
        return out

    def cmd_legal(self, data: JSON) -> JSON:
        return self.legal(self.rules, self.rules.state_from_json(json_object(data, "input").get("state")))

    def main(self, argv: Sequence[str]) -> int:
        args = list(argv)
        if not args:
            print(f"{self.program}: missing command; {self.usage}", file=sys.stderr)
            return 2
        if args[0] in ("-h", "--help", "help"):
            print(self.usage + "\n\n" + self.doc.split("\n\n", 1)[1].rstrip())
            return 0
        command, rest = args[0], args[1:]
        commands = self.commands
        if command not in commands:
            said = f"{self.program}: unknown command {command!r}; one of: {', '.join(commands)}"
            print(said, file=sys.stderr)
            return 2
        try:
            result = commands[command](read_argument(rest))
        except (GoblinError, ValueError) as exc:
            print(f"{self.program} {command}: {' '.join(str(exc).split())}", file=sys.stderr)
            return 2
        print(json.dumps(result, ensure_ascii=False))
        return 0


# ---------------------------------------------------------------------------------------- the flag shape


@dataclass(frozen=True)
class FlagCommand:
    """One command of a ``FlagCli``: ``run(flags, read)`` gets the flags given (``{"--position": ...}``)
    and ``read(what)``, the JSON on stdin (an error names ``what`` when there is none)."""

    run: Callable[[Mapping[str, str], Callable[[str], JSON]], JSON]
    flags: tuple[str, ...] = ()
    usage: str | None = None
    """The command's own usage (its ``--help``, and said with its errors); None: the program's."""
    needs_value: bool = False
    """A flag without its value is "FLAG needs a value" (else "unexpected argument")."""


@dataclass(frozen=True)
class FlagCli:
    """``PROGRAM COMMAND [--FLAG VALUE | --FLAG=VALUE ...] < JSON``: a game's command line in the flag
    shape. Compact ASCII JSON out; errors ``LABEL: message``; ``-h``/``--help`` first prints ``usage``,
    anywhere after a command with its own usage prints that."""

    label: str
    usage: str
    rules: AnyRules
    commands: Mapping[str, FlagCommand]
    listed: tuple[str, ...]
    """The commands an unknown one is told to be (``expected 'analyze' or 'apply'``)."""

    def read(self, stdin: TextIO) -> Callable[[str], JSON]:
        def read(what: str) -> JSON:
            text = read_text(stdin)
            if not text.strip():
                raise InvalidInput(f"expected {what} as JSON on stdin, got nothing")
            return loads(text, "stdin", wording="malformed JSON on")

        return read

    def run(self, argv: Sequence[str], stdin: TextIO) -> JSON:
        args = list(argv)
        command = self.commands.get(args[0]) if args else None
        if command is None:
            expected = " or ".join(repr(name) for name in self.listed)
            raise InvalidInput(f"expected {expected}, got {args[0] if args else 'nothing'!r}; {self.usage}")
        usage = command.usage or self.usage
        flags: dict[str, str] = {}
        rest = args[1:]
        while rest:
            flag = rest.pop(0)
            name, eq, value = flag.partition("=")
            if name not in command.flags or not (eq or rest or command.needs_value):
                raise InvalidInput(f"unexpected argument {flag!r}; {usage}")
            if not eq:
                if not rest:
                    raise InvalidInput(f"{name} needs a value; {usage}")
                value = rest.pop(0)
            flags[name] = value
        return command.run(flags, self.read(stdin))

    def main(self, argv: Sequence[str]) -> int:
        args = list(argv)
        if args[:1] in (["-h"], ["--help"]):
            print(self.usage)
            return 0
        own = self.commands[args[0]].usage if args and args[0] in self.commands else None
        if own is not None and help_requested(args[1:]):
            print(own)
            return 0
        try:
            out = self.run(args, sys.stdin)
        except (GoblinError, ValueError) as error:
            print(f"{self.label}: {' '.join(str(error).split())}", file=sys.stderr)
            return 2
        print(json.dumps(out))
        return 0


def listed(rules: AnyRules, state: Any, most: int | None = None) -> list[JSON]:
    """The legal events of ``state`` as JSON, at most ``most`` of them."""
    return [rules.event_to_json(e) for e in islice(rules.legal(state), most)]


# ------------------------------------------------------------------------------ rules GAME, for any game


def _game_argument(parser: argparse.ArgumentParser) -> None:
    from companion.games import GAMES

    parser.add_argument("game", help=f"one of: {', '.join(GAMES)}")


def _setup_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("setup", nargs="?", help="the setup JSON: path, - or inline")


def _rules_of(args: argparse.Namespace) -> AnyRules:
    from companion.games import find_rules

    return find_rules(args.game)


RULES_CLI = DocumentCli(
    program="goblin-companion rules",
    description="Any game through the rules protocol, as JSON.",
    rules=_rules_of,
    new_help="a new game from its setup",
    new_arguments=_setup_argument,
    new=lambda rules, args: rules.new_game(read_json(args.setup)),
    answer=protocol_answer,
    show_help="the state, who is awaited, the outcome and the legal events",
    show=protocol_answer,
    event_help="the event alone: path, - or inline JSON, or its notation",
    notation=lambda text: not text.lstrip().startswith(("{", "[")),
    leading=_game_argument,
    decode=decode,
)
"""``goblin-companion rules GAME new|apply|show``: every game in ``companion.games.GAMES`` (a sixth one
included), one answer shape (``protocol_answer``)."""
