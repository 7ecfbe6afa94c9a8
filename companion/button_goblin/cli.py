"""``goblin-companion button-goblin analyze|apply|advise [--position NOTATION]``: JSON in, JSON out.

``analyze`` reads a position and prints the initiative, the legal attacks of the player to move and
the scores if the round ended now. ``apply`` reads a position and an attack and prints the position
after it with the dice to re-roll. ``advise`` reads a position and prints what each legal attack is
worth (``companion.button_goblin.advisor``). Bad input exits 2 with one line on stderr.

A spec of ``companion.gamecli.FlagCli`` over ``RULES``: the legal attacks, the event codec and
``apply`` are the protocol's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from companion.button_goblin import advisor
from companion.button_goblin.core import PASS, Position, initiative, rerolls, scores
from companion.button_goblin.jsonio import JSON, attack_to_json, show
from companion.button_goblin.roundrules import ROUND_RULES as RULES
from companion.errors import InvalidInput
from companion.gamecli import FlagCli, FlagCommand

USAGE = "usage: goblin-companion button-goblin analyze|apply [--position NOTATION] < input.json"
ADVISE_USAGE = ("usage: goblin-companion button-goblin advise [--position NOTATION] [--seed N] "
                "[--simulations N] < position.json")
Read = Callable[[str], JSON]


def analyze(position: Position) -> dict[str, JSON]:
    """The ``analyze`` output for a position."""
    who = initiative(position)
    points = scores(position)
    return {
        "initiative": {"player": who.player, "reason": who.reason},
        "attacks": [attack_to_json(a, position) for a in RULES.legal(position) if a != PASS],
        "scores": list(points) if points is not None else None,
    }


def apply_json(position: Position, attack: JSON) -> dict[str, JSON]:
    """The ``apply`` output for a position and an attack object (or ``{"type": "pass"}``)."""
    event = RULES.event_from_json(position, attack)
    after = RULES.apply(position, event)
    return {"position": RULES.state_to_json(after), "reroll": list(rerolls(event))}


def _position(flags: Mapping[str, str], read: Read) -> Position:
    notation = flags.get("--position")
    if notation is not None:
        return RULES.new_game({"position": notation})
    return RULES.state_from_json(read("a position"))


def _int_flag(flags: Mapping[str, str], flag: str) -> int | None:
    raw = flags.get(flag)
    if raw is None:
        return None
    text = raw.strip()
    if not text.lstrip("-").isdigit() or len(text) > 12:
        raise InvalidInput(f"{flag} takes a whole number, not {raw[:20]!r}; {ADVISE_USAGE}")
    return int(text)


def cmd_analyze(flags: Mapping[str, str], read: Read) -> JSON:
    return analyze(_position(flags, read))


def cmd_apply(flags: Mapping[str, str], read: Read) -> JSON:
    data = read("{\"position\": ..., \"attack\": ...}")
    if not isinstance(data, dict) or "attack" not in data:
        raise InvalidInput('apply expects a JSON object with an "attack" (and a "position", or --position)')
    extra = set(data) - {"position", "attack"}
    if extra:
        raise InvalidInput(f"apply input has unknown key {show(sorted(extra)[0])}")
    if "--position" in flags and "position" in data:
        raise InvalidInput("give the position either with --position or in the JSON, not both")
    if "--position" not in flags and "position" not in data:
        raise InvalidInput("apply input needs a \"position\" (or use --position)")
    return apply_json(_position(flags, lambda _what: data["position"]), data["attack"])


def cmd_advise(flags: Mapping[str, str], read: Read) -> JSON:
    """``advise``: every legal attack of the position with its worth (see ``docs/cli.md``)."""
    seed, simulations = _int_flag(flags, "--seed"), _int_flag(flags, "--simulations")
    position = _position(flags, read)
    return advisor.to_json(advisor.advise(position, seed=seed or 0, simulations=simulations))


CLI = FlagCli("button-goblin", USAGE, RULES, {
    "analyze": FlagCommand(cmd_analyze, ("--position",)),
    "apply": FlagCommand(cmd_apply, ("--position",)),
    "advise": FlagCommand(cmd_advise, ("--position", "--seed", "--simulations"), ADVISE_USAGE, True),
}, listed=("analyze", "apply"))
main = CLI.main
