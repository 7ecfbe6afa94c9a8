"""``goblin-companion skirmish``: referee the skirmish rules from JSON.

Commands (the JSON input is the argument, ``@FILE``, or stdin when absent or ``-``)::

    skirmish new      '{"bands": [BAND, BAND], "time_limit_min": 60}'
    skirmish apply    '{"state": STATE, "event": EVENT}'        # or "events": [EVENT, ...]
    skirmish legal    '{"state": STATE}'
    skirmish test     '{"kind": "tiro", "characteristic": 4, "modifiers": [{"label": "cover", "value": -1}]}'
    skirmish shoot    '{"band": BAND, "target": MODEL, "card": "tiro3", "shooters": [LINE, ...]}'
    skirmish assault  '{"attacker": MODEL, "target": MODEL, "distance": 4.5, "extra_contacts": false}'

A BAND is ``{"name": "Elfi", "models": ["Lorien|T3|A3|S4|P20|eroe2|capitano", ...]}``; a MODEL is its
notation. Output is one JSON object on stdout; bad input: exit status 2 and one line on stderr.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion.errors import GoblinError, InvalidInput
from companion.jsoncli import read_argument
from companion.skirmish.checks import Check, Modifier
from companion.skirmish.core import (
    CARDS,
    Band,
    Game,
    Model,
    apply,
    assault_check,
    charge_check,
    event_to_json,
    parse_event,
    save_check,
    shooting_check,
)

JSON = Any
PROG = "goblin-companion skirmish"


def read_input(args: Sequence[str]) -> JSON:
    """The JSON input: the argument, ``@FILE``, or stdin."""
    return read_argument(args)


def _obj(value: JSON, what: str) -> Mapping[str, JSON]:
    if not isinstance(value, Mapping):
        raise InvalidInput(f"{what} must be a JSON object, got {value!r}"[:200])
    return value


def answer(game: Game) -> dict[str, JSON]:
    """The referee's answer: state, log, the roll or answer awaited (with its odds), the outcome."""
    head = game.pending[0] if game.pending else None
    awaiting: JSON = None
    if head is not None:
        awaiting = {
            "kind": head.kind,
            "band": head.band,
            "model": head.model,
            "dice": head.dice,
            "check": None if game.check is None else game.check.describe(),
        }
    elif game.outcome is None:
        awaiting = {"kind": game.stage, "band": game.to_play}
    return {
        "state": game.to_json(),
        "log": list(game.log),
        "awaiting": awaiting,
        "points": list(game.points),
        "outcome": None if game.outcome is None else game.outcome.to_json(),
    }


def cmd_new(data: JSON) -> JSON:
    obj = _obj(data, "input")
    bands = obj.get("bands")
    if not isinstance(bands, list) or len(bands) != 2:
        raise InvalidInput(f"'new' needs \"bands\": a list of two bands, got {bands!r}"[:200])
    minutes = obj.get("time_limit_min", 60)
    if minutes is not None and (isinstance(minutes, bool) or not isinstance(minutes, int) or minutes <= 0):
        raise InvalidInput(f"'time_limit_min' must be a positive number of minutes or null, got {minutes!r}")
    return answer(Game.new([Band.from_json(b) for b in bands], None if minutes is None else minutes * 60))


def cmd_apply(data: JSON) -> JSON:
    obj = _obj(data, "input")
    game = Game.from_json(obj.get("state"))
    if "events" in obj:
        events = obj["events"]
        if not isinstance(events, list):
            raise InvalidInput(f"'events' must be a list of events, got {events!r}")
    elif "event" in obj:
        events = [obj["event"]]
    else:
        raise InvalidInput('\'apply\' needs "event" (or "events") next to "state"')
    log: list[str] = []
    for event in events:
        game = apply(game, parse_event(event))
        log.extend(game.log)
    out = answer(game)
    out["log"] = log
    return out


def cmd_legal(data: JSON) -> JSON:
    game = Game.from_json(_obj(data, "input").get("state"))
    return {"legal": [event_to_json(e) for e in list(game.legal)[:216]]}


def cmd_test(data: JSON) -> JSON:
    return Check.from_json(dict(_obj(data, "input"))).describe()


def cmd_shoot(data: JSON) -> JSON:
    obj = _obj(data, "input")
    band = Band.from_json(obj.get("band"))
    target = Model.from_json(obj.get("target"))
    card = obj.get("card", "tiro3")
    if card not in CARDS:
        raise InvalidInput(f"card {card!r} is not one of {', '.join(CARDS)}")
    event = parse_event(
        {
            "type": "shoot",
            "target": 0,
            "shooters": obj.get("shooters"),
            "target_engaged": obj.get("target_engaged", False),
        }
    )
    assert event.type == "shoot"
    check, save = shooting_check(band, event.lines, target, card, target_engaged=event.target_engaged)
    return {"test": check.describe(), "save": save_answer(target, save)}


def save_answer(target: Model, mods: Sequence[Modifier]) -> JSON:
    return save_check(target, tuple(mods)).describe()


def cmd_assault(data: JSON) -> JSON:
    obj = _obj(data, "input")
    attacker, target = Model.from_json(obj.get("attacker")), Model.from_json(obj.get("target"))
    event = parse_event(
        {
            "type": "assault",
            "attacker": 0,
            "target": 0,
            "distance": obj.get("distance", 0),
            "extra_contacts": obj.get("extra_contacts", False),
            "contact_this_turn": obj.get("contact_this_turn", True),
        }
    )
    assert event.type == "assault"
    check, save = assault_check(
        attacker,
        target,
        contact_this_turn=event.contact_this_turn or event.distance > 0,  # a charge enters contact now
        extra_contacts=event.extra_contacts,
    )
    charge = charge_check(attacker, event.distance).describe() if event.distance > 0 else None
    return {"charge": charge, "test": check.describe(), "save": save_answer(target, save)}


COMMANDS: dict[str, Callable[[JSON], JSON]] = {
    "new": cmd_new,
    "apply": cmd_apply,
    "legal": cmd_legal,
    "test": cmd_test,
    "shoot": cmd_shoot,
    "assault": cmd_assault,
}

USAGE = f"usage: {PROG} {{{','.join(COMMANDS)}}} [JSON | @FILE | -]"


def main(argv: Sequence[str]) -> int:
    args = list(argv)
    if not args:
        print(f"{PROG}: missing command; {USAGE}", file=sys.stderr)
        return 2
    if args[0] in ("-h", "--help", "help"):
        print(USAGE + "\n\n" + (__doc__ or "").split("\n\n", 1)[1].rstrip())
        return 0
    command, rest = args[0], args[1:]
    if command not in COMMANDS:
        print(f"{PROG}: unknown command {command!r}; one of: {', '.join(COMMANDS)}", file=sys.stderr)
        return 2
    try:
        result = COMMANDS[command](read_input(rest))
    except (GoblinError, ValueError) as exc:
        print(f"{PROG} {command}: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    print(json.dumps(result, ensure_ascii=False))
    return 0
