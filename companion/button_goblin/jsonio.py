"""Positions and attacks as the JSON of the ``button-goblin`` command line (and the table flow)."""

from __future__ import annotations

import reprlib
from collections.abc import Mapping
from typing import Any

from companion.button_goblin.core import (
    ATTACK_KINDS,
    Attack,
    Die,
    Player,
    Position,
    canonical_fire,
    kind_word,
    refuse,
)
from companion.errors import IllegalAction, InvalidInput
from companion.jsonvalues import json_list, json_object
from companion.messages import Message, error_message, word

JSON = Any

_SHORT = reprlib.Repr()
_SHORT.maxlevel, _SHORT.maxstring, _SHORT.maxother, _SHORT.maxlist, _SHORT.maxdict = 2, 40, 40, 4, 4


def show(value: JSON) -> str:
    """``value`` quoted for an error line: short, one line, safe on deeply nested input."""
    return _SHORT.repr(value)


def _int(value: JSON, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(Message("error.input.int", f"{what} must be an integer, not {show(value)}",
                                   {"what": word("error.what", what), "value": show(value)}))
    return value


def _obj(value: JSON, what: str) -> Mapping[str, JSON]:
    return json_object(value, what, quote=show, got="not")


def _list(value: JSON, what: str) -> list[JSON]:
    return json_list(value, what, kind="a JSON list", quote=show, got="not")


def _only(obj: Mapping[str, JSON], keys: tuple[str, ...], what: str) -> None:
    unknown = sorted(set(obj) - set(keys))
    if unknown:
        raise InvalidInput(f"{what} has unknown key {show(unknown[0])}; known: {', '.join(keys)}")


def die_from_json(data: JSON, what: str, *, captured: bool = False) -> Die:
    obj = _obj(data, what)
    unknown = set(obj) - {"sides", "value", "skills", "has_captured", "focus_reduced"}
    if unknown:
        raise InvalidInput(f"{what} has unknown key {show(sorted(unknown)[0])}")
    raw = obj.get("sides")
    sides: tuple[int, ...] | None
    if raw is None:
        sides = None
    elif isinstance(raw, list):
        if len(raw) != 2:
            raise InvalidInput(f"{what}: a twin die has two sizes, not {show(raw)}")
        sides = (_int(raw[0], f"{what} sides"), _int(raw[1], f"{what} sides"))
    else:
        sides = (_int(raw, f"{what} sides"),)
    value = obj.get("value")
    if value is not None:
        value = _int(value, f"{what} value")
    elif not captured:
        raise InvalidInput(f"{what} needs a value")
    skills = []
    for code in _list(obj.get("skills", []), f"{what} skills"):
        if not isinstance(code, str):
            raise InvalidInput(f"{what}: a skill is a two-letter code, not {show(code)}")
        skills.append(code)
    if "GE" in skills:
        if sides is None or len(sides) != 2:
            raise InvalidInput(f"{what}: GE needs two sizes, e.g. \"sides\": [10, 10]")
        skills = [s for s in skills if s != "GE"]
    flags = {}
    for flag in ("has_captured", "focus_reduced"):
        if flag in obj:
            if not isinstance(obj[flag], bool):
                raise InvalidInput(f"{what} {flag} must be true or false, not {show(obj[flag])}")
            flags[flag] = obj[flag]
    try:
        return Die(sides, value, tuple(skills), **flags)
    except InvalidInput as error:
        raise InvalidInput(f"{what}: {error}") from None


def die_to_json(die: Die) -> dict[str, JSON]:
    sides: JSON = None
    if die.sides is not None:
        sides = list(die.sides) if die.twin else die.sides[0]
    skills = sorted([*die.skills, "GE"]) if die.twin else list(die.skills)
    out: dict[str, JSON] = {"sides": sides, "value": die.value, "skills": skills}
    if die.has_captured:
        out["has_captured"] = True
    if die.focus_reduced:
        out["focus_reduced"] = True
    return out


def position_from_json(data: JSON) -> Position:
    obj = _obj(data, "position")
    unknown = set(obj) - {"to_move", "players", "passes"}
    if unknown:
        raise InvalidInput(f"position has unknown key {show(sorted(unknown)[0])}")
    players_raw = _list(obj.get("players"), "position players")
    if len(players_raw) != 2:
        raise InvalidInput(f"position needs two players, not {len(players_raw)}")
    players = []
    for n, raw in enumerate(players_raw):
        p = _obj(raw, f"player {n}")
        _only(p, ("name", "dice", "captured"), f"player {n}")
        name = p.get("name", f"Player {n + 1}")
        if not isinstance(name, str):
            raise InvalidInput(f"player {n} name must be a string, not {show(name)}")
        dice = tuple(die_from_json(d, f"player {n} die {i}")
                     for i, d in enumerate(_list(p.get("dice", []), f"player {n} dice")))
        captured = tuple(die_from_json(d, f"player {n} captured die {i}", captured=True)
                         for i, d in enumerate(_list(p.get("captured", []), f"player {n} captured")))
        players.append(Player(name, dice, captured))
    to_move = _int(obj.get("to_move", 0), "to_move")
    passes = _int(obj.get("passes", 0), "passes")
    return Position((players[0], players[1]), to_move, passes)


def position_to_json(position: Position) -> dict[str, JSON]:
    out: dict[str, JSON] = {
        "to_move": position.to_move,
        "players": [
            {"name": p.name, "dice": [die_to_json(d) for d in p.dice],
             "captured": [die_to_json(d) for d in p.captured]}
            for p in position.players
        ],
    }
    if position.passes:
        out["passes"] = position.passes
    return out


def attack_from_json(data: JSON, position: Position) -> Attack:
    """An attack object; ``fire`` is a list of ``{"die", "to"}`` or a number of points to spend."""
    obj = _obj(data, "attack")
    unknown = set(obj) - {"type", "attackers", "targets", "fire"}
    if unknown:
        raise InvalidInput(f"attack has unknown key {show(sorted(unknown)[0])}")
    kind = obj.get("type")
    if kind not in ATTACK_KINDS:
        raise InvalidInput(f"unknown attack type {show(kind)}; one of: {', '.join(ATTACK_KINDS)}")
    attackers = tuple(_int(i, "attacker index") for i in _list(obj.get("attackers"), "attackers"))
    targets = tuple(_int(i, "target index") for i in _list(obj.get("targets"), "targets"))
    raw_fire = obj.get("fire", [])
    fire: tuple[tuple[int, int], ...]
    if isinstance(raw_fire, int) and not isinstance(raw_fire, bool):
        if raw_fire < 0:
            raise InvalidInput(f"fire points cannot be negative: {raw_fire}")
        try:
            fire = canonical_fire(position.mover.dice, attackers, raw_fire) if raw_fire else ()
        except IllegalAction as error:
            reason = error_message(error) or str(error)
            said = refuse("bg.illegal.attack", kind=kind_word(str(kind)), reason=reason)
            raise IllegalAction(said) from None
    else:
        entries = []
        for n, entry in enumerate(_list(raw_fire, "fire")):
            e = _obj(entry, f"fire entry {n}")
            _only(e, ("die", "to"), f"fire entry {n}")
            die = _int(e.get("die"), f"fire entry {n} die")
            entries.append((die, _int(e.get("to"), f"fire entry {n} to")))
        fire = tuple(entries)
    return Attack(kind, attackers, targets, fire)


def attack_to_json(attack: Attack, position: Position) -> dict[str, JSON]:
    """The analysis form: ``fire`` is the total fire points the attack needs."""
    return {"type": attack.kind, "attackers": list(attack.attackers), "targets": list(attack.targets),
            "fire": attack.fire_points(position)}


def attack_action_json(attack: Attack) -> dict[str, JSON]:
    """The apply form: ``fire`` lists the fire dice and the values they are turned down to."""
    return {"type": attack.kind, "attackers": list(attack.attackers), "targets": list(attack.targets),
            "fire": [{"die": i, "to": v} for i, v in attack.fire]}
