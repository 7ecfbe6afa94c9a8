"""A Button Goblin match through the ``companion.rules.Rules`` protocol: its events and state as JSON.

The events of ``companion.button_goblin.match`` (players by index or name)::

    {"type": "swing", "player": 0, "sizes": {"X": 8}}       # {} keeps the sizes already set
    {"type": "roll", "values": {"p0.1": 5, "p1.3": 12}}     # player p, die index: its value (a twin's sum)
    {"type": "focus", "player": 1, "dice": {"2": 1}}        # die index: the value it is turned down to
    {"type": "decline", "player": 1}
    {"type": "power", "attackers": [1], "targets": [0], "fire": [...]}, {"type": "pass"}   # the round's

and its state, everything a ``Match`` holds: the players (name, button, VE meaning, swing sizes, rounds
won), the phase, the round and the rounds played, the round's position (``jsonio``'s), the initiative
with its reason, who may focus or must re-roll which dice, the tied rolls of this round.
``match_from_json`` checks that these agree (a position only while a round is played, the rounds won
those the rounds played say, ...), so ``apply`` never meets a state it cannot handle.
"""

from __future__ import annotations

import re
from typing import get_args

from companion.button_goblin import roundrules
from companion.button_goblin.core import ATTACK_KINDS, match_outcome
from companion.button_goblin.jsonio import position_from_json, position_to_json
from companion.button_goblin.match import (
    Decline,
    Focus,
    Match,
    MatchEvent,
    Phase,
    Roll,
    RoundResult,
    Swing,
    allows,
    awaiting,
    candidates,
    check_phase,
    from_setup,
    new_match,
    outcome,
    player_setup,
)
from companion.button_goblin.match import apply as apply_event
from companion.errors import InvalidInput
from companion.jsonvalues import json_bool, json_list, json_object
from companion.messages import Message, message_json
from companion.rules import JSON, CoreRules, Rules, json_notation, player_index

EVENT_KEYS: dict[str, tuple[str, ...]] = {
    "swing": ("player", "sizes"), "roll": ("values",), "focus": ("player", "dice"), "decline": ("player",)}
"""The keys of the match's own events besides ``type`` (the round's are ``roundrules``')."""

PHASES: tuple[Phase, ...] = get_args(Phase)
_DIE_KEY = re.compile(r"p([01])\.(\d{1,3})")


def _int(value: JSON, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"{what} must be an integer, got {value!r}"[:200])
    return value


def _optional_int(value: JSON, what: str) -> int | None:
    return None if value is None else _int(value, what)


# ------------------------------------------------------------------------------------------------ events


def event_to_json(event: MatchEvent) -> dict[str, JSON]:
    """The event as JSON; the round's attacks and pass as ``roundrules`` writes them."""
    if isinstance(event, Swing):
        return {"type": "swing", "player": event.player, "sizes": dict(event.sizes)}
    if isinstance(event, Roll):
        return {"type": "roll", "values": {f"p{p}.{i}": v for p, i, v in event.values}}
    if isinstance(event, Focus):
        return {"type": "focus", "player": event.player, "dice": {str(i): v for i, v in event.dice}}
    if isinstance(event, Decline):
        return {"type": "decline", "player": event.player}
    return roundrules.event_to_json(event)


def event_notation(event: MatchEvent) -> str:
    """One line: ``swing player=0 sizes={"X":8}``, ``roll values={"p0.1":5}``, ``power attackers=[1] ...``."""
    if isinstance(event, Swing | Roll | Focus | Decline):
        return json_notation(event_to_json(event))
    return roundrules.event_notation(event)


def event_from_json(match: Match, data: JSON) -> MatchEvent:
    """An event of ``match`` from JSON; ``InvalidInput`` if malformed. An attack while no round is being
    played is ``IllegalAction`` (it cannot be read without the round's dice)."""
    obj = json_object(data, "event", most=200)
    kind = obj.get("type")
    if kind == "pass" or kind in ATTACK_KINDS:
        if match.position is None:  # no round is played now: IllegalAction saying what the match waits for
            check_phase(match, "pass" if kind == "pass" else "attack")
            raise AssertionError(f"phase {match.phase!r} has no position")
        return roundrules.event_from_json(match.position, obj)
    if kind not in EVENT_KEYS:
        known = ", ".join([*EVENT_KEYS, *ATTACK_KINDS, "pass"])
        raise InvalidInput(f"unknown event type {kind!r}; one of: {known}"[:300])
    unknown = sorted(set(obj) - {"type", *EVENT_KEYS[kind]})
    if unknown:
        raise InvalidInput(f"a {kind!r} event has unknown key {unknown[0]!r}; known: "
                           f"{', '.join(EVENT_KEYS[kind])}")
    if kind == "roll":
        values = []
        for key, value in json_object(obj.get("values"), "roll values", most=200).items():
            found = _DIE_KEY.fullmatch(key)
            if found is None:
                raise InvalidInput(f"a roll names each die 'p<player>.<die>' ('p0.1'), not {key!r}"[:200])
            values.append((int(found[1]), int(found[2]), _int(value, f"the value of {key}")))
        return Roll(tuple(values))
    player = player_index(match.names, obj.get("player"))
    if kind == "decline":
        return Decline(player)
    if kind == "swing":
        sizes = json_object(obj.get("sizes", {}), "swing sizes", most=200)
        return Swing(player, tuple((str(k), _int(v, f"swing {k}")) for k, v in sizes.items()))
    dice = []
    for key, value in json_object(obj.get("dice"), "focus dice", most=200).items():
        if not key.isdigit() or len(key) > 3:
            raise InvalidInput(f"a focus die is its index, e.g. \"2\", not {key!r}"[:200])
        dice.append((int(key), _int(value, f"the focus value of die {key}")))
    if not dice:
        raise InvalidInput("a focus event turns at least one die down: \"dice\": {die index: value}")
    return Focus(player, tuple(dice))


# ------------------------------------------------------------------------------------------------- state


def match_to_json(match: Match) -> dict[str, JSON]:
    """Everything the match holds, as JSON (``match_from_json`` reads it back)."""
    return {
        "players": [{"name": match.names[p], "button": match.buttons[p].name, "ve": match.ve[p],
                     "swing": match.sizes(p), "swing_done": match.swing_done[p], "rounds_won": match.wins[p]}
                    for p in (0, 1)],
        "phase": match.phase,
        "round": match.round_number,
        "rounds": [{"round": r.number, "scores": list(r.scores), "winner": r.winner, "final": r.final}
                   for r in match.history],
        "position": None if match.position is None else position_to_json(match.position),
        "initiative": None if match.start_initiative is None else {
            "player": match.start_initiative[0], "reason": message_json(match.start_initiative[1])},
        "focus_player": match.focus_player,
        "reroll_player": match.reroll_player,
        "reroll_dice": list(match.reroll_dice),
        "tied_rolls": match.tied_rolls,
    }


STATE_KEYS = ("players", "phase", "round", "rounds", "position", "initiative", "focus_player",
              "reroll_player", "reroll_dice", "tied_rolls")


def match_from_json(data: JSON) -> Match:
    """A match from ``match_to_json``; ``InvalidInput`` if malformed or if its parts disagree."""
    obj = json_object(data, "match", most=200)
    unknown = sorted(set(obj) - set(STATE_KEYS))
    if unknown:
        raise InvalidInput(f"match has unknown key {unknown[0]!r}; known: {', '.join(STATE_KEYS)}")
    raw_players = json_list(obj.get("players"), "match players")
    if len(raw_players) != 2:
        raise InvalidInput(f"a match has two players, not {len(raw_players)}")
    start = new_match(*zip(*(player_setup(p, n, ("swing_done", "rounds_won"))
                             for n, p in enumerate(raw_players)), strict=True))
    done = tuple(json_bool(p.get("swing_done", False), f"player {n} swing_done")
                 for n, p in enumerate(raw_players))
    wins = tuple(_int(p.get("rounds_won", 0), f"player {n} rounds_won") for n, p in enumerate(raw_players))
    phase = obj.get("phase")
    if phase not in PHASES:
        raise InvalidInput(f"match phase must be one of {', '.join(PHASES)}, got {phase!r}"[:200])
    history = tuple(_round(r, n) for n, r in enumerate(json_list(obj.get("rounds", []), "match rounds")))
    position = None if obj.get("position") is None else position_from_json(obj["position"])
    initiative = obj.get("initiative")
    start_initiative: tuple[int | None, Message] | None = None
    if initiative is not None:
        init = json_object(initiative, "match initiative", most=200)
        start_initiative = (_optional_int(init.get("player"), "initiative player"),
                            Message.from_json(init.get("reason"), "initiative reason"))
    match = Match(
        start.names, start.buttons, start.ve, start.swing, (done[0], done[1]), phase,
        round_number=_int(obj.get("round", 1), "match round"), wins=(wins[0], wins[1]), history=history,
        position=position, start_initiative=start_initiative,
        focus_player=_optional_int(obj.get("focus_player"), "focus_player"),
        reroll_player=_optional_int(obj.get("reroll_player"), "reroll_player"),
        reroll_dice=tuple(_int(i, "a reroll die") for i in json_list(obj.get("reroll_dice", []),
                                                                       "reroll_dice")),
        tied_rolls=_int(obj.get("tied_rolls", 0), "tied_rolls"))
    _check_consistent(match)
    return match


def _round(data: JSON, n: int) -> RoundResult:
    obj = json_object(data, f"round {n + 1}", most=200)
    scores = json_list(obj.get("scores"), f"round {n + 1} scores")
    if len(scores) != 2:
        raise InvalidInput(f"round {n + 1} has two scores, not {scores!r}"[:200])
    winner = _optional_int(obj.get("winner"), f"round {n + 1} winner")
    final = obj.get("final", "")
    if not isinstance(final, str):
        raise InvalidInput(f"round {n + 1} final must be a position's notation, got {final!r}"[:200])
    return RoundResult(_int(obj.get("round"), f"round {n + 1} number"),
                       (_int(scores[0], "a score"), _int(scores[1], "a score")), winner, final)


def _check_consistent(match: Match) -> None:
    """``InvalidInput`` naming the first part of ``match`` that disagrees with the others."""
    def bad(text: str) -> InvalidInput:
        return InvalidInput(f"inconsistent match: {text}")

    phase, position = match.phase, match.position
    for p in (0, 1):
        letters = match.buttons[p].swing_letters
        if match.swing_done[p] and not all(letter in match.sizes(p) for letter in letters):
            raise bad(f"{match.names[p]}'s swing is done but not every swing die has a size")
    if phase == "swing" and all(match.swing_done):
        raise bad("the phase is 'swing' but both players have chosen their swing sizes")
    if phase != "swing" and not all(match.swing_done):
        raise bad(f"the phase is {phase!r} but a player has not chosen the swing sizes")
    if [r.number for r in match.history] != list(range(1, len(match.history) + 1)):
        raise bad("the rounds played are not numbered 1, 2, 3...")
    for r in match.history:
        if r.winner not in (None, 0, 1):
            raise bad(f"round {r.number} has no player {r.winner}")
    counted = tuple(sum(r.winner == p for r in match.history) for p in (0, 1))
    if counted != match.wins:
        raise bad(f"rounds won {list(match.wins)} but the rounds played say {list(counted)}")
    over = match_outcome(match.wins) is not None
    if over != (phase == "over"):
        raise bad(f"rounds won {list(match.wins)} and phase {phase!r}: the match ends at three rounds won")
    expected_round = len(match.history) + (0 if over else 1)
    if match.round_number != expected_round:
        raise bad(f"round {match.round_number} after {len(match.history)} round(s) played")
    if (position is not None) != (phase in ("focus", "play", "reroll", "over")):
        raise bad(f"a position is given exactly while a round is played or over, not at phase {phase!r}")
    if position is not None:
        if tuple(p.name for p in position.players) != match.names:
            raise bad("the position's players are not the match's")
        if position.to_move not in (0, 1):
            raise bad(f"the position's player to move is {position.to_move}")
    if (match.focus_player is not None) != (phase == "focus") or match.focus_player not in (None, 0, 1):
        raise bad(f"focus_player {match.focus_player!r} at phase {phase!r}")
    if (match.reroll_player is not None) != (phase == "reroll") or match.reroll_player not in (None, 0, 1):
        raise bad(f"reroll_player {match.reroll_player!r} at phase {phase!r}")
    if bool(match.reroll_dice) != (phase == "reroll"):
        raise bad(f"reroll_dice {list(match.reroll_dice)} at phase {phase!r}")
    if match.reroll_player is not None and position is not None:
        dice = position.players[match.reroll_player].dice
        if any(not 0 <= i < len(dice) for i in match.reroll_dice):
            raise bad(f"reroll_dice {list(match.reroll_dice)}: {match.names[match.reroll_player]} has "
                      f"{len(dice)} dice")
    if (match.start_initiative is None) != (position is None):
        raise bad(f"the initiative is given exactly while a round is played or over, not at phase {phase!r}")
    if match.start_initiative is not None and match.start_initiative[0] not in (0, 1):
        raise bad(f"the initiative is {match.names}'s players', not {match.start_initiative[0]!r}")
    if match.tied_rolls < 0 or (match.tied_rolls and phase == "swing"):
        raise bad(f"tied_rolls {match.tied_rolls} at phase {phase!r}")


MATCH_RULES: Rules[Match, MatchEvent] = CoreRules(
    name="button-goblin",
    title="Button Goblin",
    start=from_setup,
    events=candidates,
    check=allows,
    step=apply_event,
    end=outcome,
    waits_on=awaiting,
    to_json=event_to_json,
    from_json=event_from_json,
    dump=match_to_json,
    load=match_from_json,
    notation=event_notation,
    exact=True,
)
"""A whole match, first to three rounds, through the protocol (``match.legal`` decides)."""
