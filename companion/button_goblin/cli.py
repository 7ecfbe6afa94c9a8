"""``goblin-companion button-goblin analyze|apply|advise [--position NOTATION]``: JSON in, JSON out.

``analyze`` reads a position and prints the initiative, the legal attacks of the player to move and
the scores if the round ended now. ``apply`` reads a position and an attack and prints the position
after it with the dice to re-roll. ``advise`` reads a position and prints what each legal attack is
worth (``companion.button_goblin.advisor``). Bad input exits 2 with one line on stderr.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import TextIO

from companion.button_goblin import advisor
from companion.button_goblin.core import PASS, Position, apply, initiative, rerolls, scores
from companion.button_goblin.jsonio import (
    JSON,
    attack_from_json,
    attack_to_json,
    position_from_json,
    position_to_json,
    show,
)
from companion.errors import GoblinError, InvalidInput
from companion.jsoncli import loads, read_text

USAGE = "usage: goblin-companion button-goblin analyze|apply [--position NOTATION] < input.json"
ADVISE_USAGE = ("usage: goblin-companion button-goblin advise [--position NOTATION] [--seed N] "
                "[--simulations N] < position.json")


def analyze(position: Position) -> dict[str, JSON]:
    """The ``analyze`` output for a position."""
    who = initiative(position)
    points = scores(position)
    return {
        "initiative": {"player": who.player, "reason": who.reason},
        "attacks": [attack_to_json(a, position) for a in position.legal],
        "scores": list(points) if points is not None else None,
    }


def apply_json(position: Position, attack: JSON) -> dict[str, JSON]:
    """The ``apply`` output for a position and an attack object (or ``{"type": "pass"}``)."""
    if isinstance(attack, dict) and attack.get("type") == "pass":
        if set(attack) != {"type"}:
            raise InvalidInput("a pass has no other keys than \"type\"")
        return {"position": position_to_json(apply(position, PASS)), "reroll": []}
    action = attack_from_json(attack, position)
    after = apply(position, action)
    return {"position": position_to_json(after), "reroll": list(rerolls(action))}


def _read_json(stdin: TextIO, what: str) -> JSON:
    text = read_text(stdin)
    if not text.strip():
        raise InvalidInput(f"expected {what} as JSON on stdin, got nothing")
    return loads(text, "stdin", wording="malformed JSON on")


def _int_flag(flag: str, raw: str) -> int:
    text = raw.strip()
    if not text.lstrip("-").isdigit() or len(text) > 12:
        raise InvalidInput(f"{flag} takes a whole number, not {raw[:20]!r}; {ADVISE_USAGE}")
    return int(text)


def advise_command(argv: Sequence[str], stdin: TextIO) -> dict[str, JSON]:
    """``advise``: every legal attack of the position with its worth (see ``docs/cli.md``)."""
    rest = list(argv)
    notation: str | None = None
    seed, simulations = 0, None
    while rest:
        flag = rest.pop(0)
        name, eq, inline = flag.partition("=")
        if name not in ("--position", "--seed", "--simulations"):
            raise InvalidInput(f"unexpected argument {flag!r}; {ADVISE_USAGE}")
        if not eq:
            if not rest:
                raise InvalidInput(f"{name} needs a value; {ADVISE_USAGE}")
            inline = rest.pop(0)
        if name == "--position":
            notation = inline
        elif name == "--seed":
            seed = _int_flag(name, inline)
        else:
            simulations = _int_flag(name, inline)
    position = Position.parse(notation) if notation is not None else \
        position_from_json(_read_json(stdin, "a position"))
    return advisor.to_json(advisor.advise(position, seed=seed, simulations=simulations))


def run(argv: Sequence[str], stdin: TextIO) -> dict[str, JSON]:
    args = list(argv)
    if args[:1] == ["advise"]:
        return advise_command(args[1:], stdin)
    if not args or args[0] not in ("analyze", "apply"):
        raise InvalidInput(f"expected 'analyze' or 'apply', got {args[0] if args else 'nothing'!r}; {USAGE}")
    command, rest = args[0], args[1:]
    notation: str | None = None
    while rest:
        flag = rest.pop(0)
        if flag == "--position" and rest:
            notation = rest.pop(0)
        elif flag.startswith("--position="):
            notation = flag.split("=", 1)[1]
        else:
            raise InvalidInput(f"unexpected argument {flag!r}; {USAGE}")
    if command == "analyze":
        if notation is not None:
            return analyze(Position.parse(notation))
        return analyze(position_from_json(_read_json(stdin, "a position")))
    data = _read_json(stdin, "{\"position\": ..., \"attack\": ...}")
    if not isinstance(data, dict) or "attack" not in data:
        raise InvalidInput('apply expects a JSON object with an "attack" (and a "position", or --position)')
    extra = set(data) - {"position", "attack"}
    if extra:
        raise InvalidInput(f"apply input has unknown key {show(sorted(extra)[0])}")
    if notation is not None:
        if "position" in data:
            raise InvalidInput("give the position either with --position or in the JSON, not both")
        position = Position.parse(notation)
    else:
        if "position" not in data:
            raise InvalidInput("apply input needs a \"position\" (or use --position)")
        position = position_from_json(data["position"])
    return apply_json(position, data["attack"])


def main(argv: Sequence[str]) -> int:
    if list(argv[:1]) in (["-h"], ["--help"]):
        print(USAGE)
        return 0
    if list(argv[:1]) == ["advise"] and any(a in ("-h", "--help") for a in argv[1:]):
        print(ADVISE_USAGE)
        return 0
    try:
        out = run(argv, sys.stdin)
    except GoblinError as error:
        print(f"button-goblin: {' '.join(str(error).split())}", file=sys.stderr)
        return 2
    print(json.dumps(out))
    return 0
