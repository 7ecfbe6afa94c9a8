"""``goblin-companion goblins``: referee Goblins: Epic Death from JSON.

Commands (the JSON input is the argument, ``@FILE``, or stdin when absent or ``-``)::

    goblins new     '{"players": ["Arnaldo", "Bea"], "centre": 1}'
    goblins apply   '{"state": STATE, "event": EVENT}'        # or "events": [EVENT, ...]
    goblins legal   '{"state": STATE}'
    goblins combat  '{"army": ARMY, "terrain": TERRAIN, "reduction": 8}'
    goblins brawl   '{"attacker": ARMY, "defender": ARMY}'

Output is one JSON object on stdout. Bad input (malformed JSON, a wrong field, an event the rules do not
allow now): exit status 2 and one line on stderr.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion.errors import GoblinError, InvalidInput
from companion.goblins.core import (
    Army,
    Game,
    Terrain,
    apply,
    brawl_tosses,
    epic_death_allowed,
    event_to_json,
    loss_tosses,
    modified_defence,
    parse_event,
    requirements_met,
    wins,
)
from companion.jsoncli import read_argument

JSON = Any
PROG = "goblin-companion goblins"


def read_input(args: Sequence[str]) -> JSON:
    """The JSON input: the argument, ``@FILE``, or stdin."""
    return read_argument(args)


def _obj(value: JSON, what: str) -> Mapping[str, JSON]:
    if not isinstance(value, Mapping):
        raise InvalidInput(f"{what} must be a JSON object, got {value!r}"[:200])
    return value


def answer(game: Game) -> dict[str, JSON]:
    """The referee's answer about a game: state, log, what it waits for, the outcome."""
    toss = game.toss
    return {
        "state": game.to_json(),
        "log": list(game.log),
        "awaiting": game.awaiting,
        "toss": None if toss is None else toss.to_json(),
        "outcome": None if game.outcome is None else game.outcome.to_json(),
    }


def cmd_new(data: JSON) -> JSON:
    obj = _obj(data, "input")
    players = obj.get("players")
    if not isinstance(players, list):
        raise InvalidInput(f"'new' needs \"players\": a list of 2 to 6 names, got {players!r}")
    centre = obj.get("centre", 1)
    troops = obj.get("troops", 5)
    if isinstance(troops, bool) or not isinstance(troops, int) or troops < 0:
        raise InvalidInput(f"'troops' must be a non-negative integer, got {troops!r}")
    return answer(Game.new(players, centre, troops))


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
    return {"awaiting": game.awaiting, "legal": [event_to_json(e) for e in game.legal]}


def cmd_combat(data: JSON) -> JSON:
    """Evaluates a combat against a terrain once the machines are known."""
    obj = _obj(data, "input")
    army = Army.from_json(obj.get("army"))
    terrain = Terrain.from_json(obj.get("terrain"))
    if "reduction" in obj:
        reduction = obj["reduction"]
        if isinstance(reduction, bool) or not isinstance(reduction, int) or reduction < 0:
            raise InvalidInput(f"'reduction' must be a non-negative integer, got {reduction!r}")
    else:
        reduction = sum(m.reduction for m in army.machines if m.crewed)
    heroes = obj.get("heroes")
    if heroes is not None and (
        not isinstance(heroes, list) or any(isinstance(h, bool) or not isinstance(h, int) for h in heroes)
    ):
        raise InvalidInput(f"'heroes' must be a list of hero indices, got {heroes!r}")
    md = modified_defence(terrain, reduction)
    if army.troops == 0 and heroes is None and len(army.heroes) > max(md, 0):
        heroes = list(range(max(md, 0)))
    return {
        "attack": army.attack,
        "defence": terrain.defence,
        "reduction": reduction,
        "modified_defence": md,
        "requirements_met": requirements_met(army, terrain),
        "automatic": md <= 0 and requirements_met(army, terrain),
        "result": "victory" if wins(army, terrain, reduction) else "defeat",
        "epic_death_allowed": epic_death_allowed(army, terrain, reduction),
        "losses": [t.to_json() for t in loss_tosses(army, 0, md, heroes)],
        "reinforcements": terrain.vp if wins(army, terrain, reduction) else 0,
    }


def cmd_brawl(data: JSON) -> JSON:
    obj = _obj(data, "input")
    att, dfn = Army.from_json(obj.get("attacker")), Army.from_json(obj.get("defender"))
    va, vd = att.brawl_attack, dfn.brawl_attack
    winner = "tie" if va == vd else ("attacker" if va > vd else "defender")
    budget = min(va, vd)
    return {
        "attacker_attack": va,
        "defender_attack": vd,
        "winner": winner,
        "toss_each": budget,
        "attacker_losses": [t.to_json() for t in brawl_tosses(att, 0, budget)],
        "defender_losses": [t.to_json() for t in brawl_tosses(dfn, 1, budget)],
    }


COMMANDS: dict[str, Callable[[JSON], JSON]] = {
    "new": cmd_new,
    "apply": cmd_apply,
    "legal": cmd_legal,
    "combat": cmd_combat,
    "brawl": cmd_brawl,
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
        message = " ".join(str(exc).split())
        print(f"{PROG} {command}: {message}", file=sys.stderr)
        return 2
    print(json.dumps(result, ensure_ascii=False))
    return 0
