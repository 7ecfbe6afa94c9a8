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

from collections.abc import Sequence
from typing import Any

from companion.errors import InvalidInput
from companion.gamecli import AnyRules, ArgumentCli, json_object, listed
from companion.skirmish.checks import Check, Modifier
from companion.skirmish.core import (
    CARDS,
    Band,
    Game,
    Model,
    assault_check,
    charge_check,
    parse_event,
    save_check,
    shooting_check,
)
from companion.skirmish.rules import RULES

JSON = Any
PROG = "goblin-companion skirmish"
MAX_LEGAL = 216
"""The most events ``legal`` lists (every roll of three dice)."""


def awaiting(game: Game) -> JSON:
    """The roll or answer awaited, with its odds; when nothing is owed, the stage and the band to play."""
    head = game.pending[0] if game.pending else None
    if head is not None:
        return {
            "kind": head.kind,
            "band": head.band,
            "model": head.model,
            "dice": head.dice,
            "check": None if game.check is None else game.check.describe(),
        }
    return None if game.outcome is not None else {"kind": game.stage, "band": game.to_play}


def answer(game: Game) -> dict[str, JSON]:
    """The referee's answer: state, log, the roll or answer awaited (with its odds), the outcome."""
    return {
        "state": game.to_json(),
        "log": list(game.log),
        "awaiting": awaiting(game),
        "points": list(game.points),
        "outcome": None if game.outcome is None else game.outcome.to_json(),
    }


def _new(data: JSON) -> Game:
    obj = json_object(data, "input")
    bands = obj.get("bands")
    if not isinstance(bands, list) or len(bands) != 2:
        raise InvalidInput(f"'new' needs \"bands\": a list of two bands, got {bands!r}"[:200])
    minutes = obj.get("time_limit_min", 60)
    if minutes is not None and (isinstance(minutes, bool) or not isinstance(minutes, int) or minutes <= 0):
        raise InvalidInput(f"'time_limit_min' must be a positive number of minutes or null, got {minutes!r}")
    return Game.new([Band.from_json(b) for b in bands], None if minutes is None else minutes * 60)


def _legal(rules: AnyRules, game: Game) -> JSON:
    return {"legal": listed(rules, game, MAX_LEGAL)}


def cmd_test(data: JSON) -> JSON:
    return Check.from_json(dict(json_object(data, "input"))).describe()


def cmd_shoot(data: JSON) -> JSON:
    obj = json_object(data, "input")
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
    obj = json_object(data, "input")
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


EXTRAS = {"test": cmd_test, "shoot": cmd_shoot, "assault": cmd_assault}
CLI = ArgumentCli(PROG, __doc__ or "", RULES, new=_new, answer=answer, legal=_legal, extras=EXTRAS)
main = CLI.main
cmd_new, cmd_apply, cmd_legal = CLI.cmd_new, CLI.cmd_apply, CLI.cmd_legal
