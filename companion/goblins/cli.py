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

from typing import Any

from companion.errors import InvalidInput
from companion.gamecli import AnyRules, ArgumentCli, json_object
from companion.goblins.core import (
    Army,
    Game,
    Terrain,
    brawl_tosses,
    epic_death_allowed,
    event_to_json,
    loss_tosses,
    modified_defence,
    requirements_met,
    wins,
)
from companion.goblins.rules import RULES

JSON = Any
PROG = "goblin-companion goblins"


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


def _new(data: JSON) -> Game:
    obj = json_object(data, "input")
    players = obj.get("players")
    if not isinstance(players, list):
        raise InvalidInput(f"'new' needs \"players\": a list of 2 to 6 names, got {players!r}")
    centre = obj.get("centre", 1)
    troops = obj.get("troops", 5)
    if isinstance(troops, bool) or not isinstance(troops, int) or troops < 0:
        raise InvalidInput(f"'troops' must be a non-negative integer, got {troops!r}")
    return Game.new(players, centre, troops)


def _legal(_rules: AnyRules, game: Game) -> JSON:
    """What the game waits for, and the core's legal events (a toss: every alive/dead split)."""
    return {"awaiting": game.awaiting, "legal": [event_to_json(e) for e in game.legal]}


def cmd_combat(data: JSON) -> JSON:
    """Evaluates a combat against a terrain once the machines are known."""
    obj = json_object(data, "input")
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
    obj = json_object(data, "input")
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


EXTRAS = {"combat": cmd_combat, "brawl": cmd_brawl}
CLI = ArgumentCli(PROG, __doc__ or "", RULES, new=_new, answer=answer, legal=_legal, extras=EXTRAS)
main = CLI.main
cmd_new, cmd_apply, cmd_legal = CLI.cmd_new, CLI.cmd_apply, CLI.cmd_legal
