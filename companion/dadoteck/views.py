"""JSON views of a Dadoteck position, shared by the command line and the table flow."""

from __future__ import annotations

from typing import Any

from companion.dadoteck.core import SQUARES, Game, event_to_json


def _names(game: Game, players: tuple[int, ...] | list[int]) -> list[str]:
    return [game.players[p] for p in players]


def awaiting(game: Game) -> dict[str, Any]:
    """What the referee waits for next: a roll (by whom, which die), a choice, or nothing."""
    g = game
    base: dict[str, Any] = {
        "phase": g.phase,
        "can_decline": g.can_decline(),
        "can_change_dice": g.can_change_dice(),
    }
    if g.phase == "over":
        return {**base, "kind": "nothing", "message": "the game is over"}
    if g.phase in ("square", "victim"):  # the mover chooses among options
        mover = g.order[g.cursor]
        options = list(g.square_options() if g.phase == "square" else g.victim_options())
        chooses = {**base, "kind": g.phase, "player": mover, "name": g.players[mover], "options": options}
        if g.phase == "square":
            listed = f"{', '.join(map(str, options[:-1]))} or {options[-1]}"
            return {**chooses, "message": f"{g.players[mover]} chooses square {listed}"}
        names = _names(g, options)
        return {**chooses, "option_names": names,
                "message": f"{g.players[mover]} chooses whom to eliminate: {', '.join(names)}"}
    rollers = list(g.awaited_rollers())
    names = _names(g, rollers)
    if g.phase == "placement":
        message = f"{', '.join(names)}: roll the d20 to place your pawn"
        purpose = "placement"
    elif g.phase == "initiative":
        purpose = "tie-break" if g.rounds else "initiative"
        message = f"{', '.join(names)}: roll the d{g.initiative_die} for " + (
            "the tie-break" if g.rounds else "initiative"
        )
        if len(g.tied_groups) > 1:
            done = {p for p, _ in g.rolls}
            ties = [", ".join(g.players[p] for p in group if p not in done) for group in g.tied_groups]
            message = f"{' and '.join(ties)} (separate ties, in any order): roll the d{g.initiative_die}"
    else:
        purpose = "movement"
        message = f"{names[0]}: roll the d{g.movement_die} to move"
        if g.can_decline():
            message += ", or decline to roll and win"
    # the initiative: every group rolling now (all players, then each tie, separate ties in any order)
    groups = [list(group) for group in g.tied_groups] if g.phase == "initiative" else []
    return {
        **base,
        "kind": "roll",
        "purpose": purpose,
        "players": rollers,
        "names": names,
        "groups": groups,
        "group_names": [_names(g, group) for group in groups],
        "die": g.die(),
        "message": message,
    }


def board(game: Game) -> list[dict[str, Any]]:
    """The 20 squares: special name, whether it counts with the movement die, and the pawn on it."""
    out = []
    for s in SQUARES:
        pawn = game.occupant(s)
        special = {1: "suicide", 13: "cowards", 17: "cowards", 20: "assassination"}.get(s)
        out.append(
            {
                "square": s,
                "special": special,
                "active": special is not None and game.special(s) is not None,
                "in_play": s <= game.movement_die,
                "pawn": pawn,
                "name": None if pawn is None else game.players[pawn],
            }
        )
    return out


def eliminations(game: Game) -> list[dict[str, Any]]:
    return [
        {
            "player": e.player,
            "name": game.players[e.player],
            "turn": e.turn,
            "cause": e.cause,
            "by": e.by,
            "by_name": None if e.by is None else game.players[e.by],
            "square": e.square,
        }
        for e in game.eliminations
    ]


def initiative(game: Game) -> dict[str, Any]:
    g = game
    return {
        "die": g.initiative_die,
        "rounds": [[{"player": p, "name": g.players[p], "value": v} for p, v in r] for r in g.rounds],
        "rolling": [{"player": p, "name": g.players[p], "value": v} for p, v in g.rolls],
        "groups": [_names(g, list(x)) for x in g.groups] if g.phase == "initiative" else [],
        "order": _names(g, list(g.order)),
    }


def outcome(game: Game) -> dict[str, Any] | None:
    if game.outcome is None:
        return None
    w = game.outcome.winner
    return {
        "termination": game.outcome.termination,
        "winner": w,
        "winner_name": None if w is None else game.players[w],
    }


def legal(game: Game) -> list[dict[str, Any]]:
    """The legal events, rolls folded into one entry per roller (``{"type": "roll", "values": [1, 20]}``)."""
    out: list[dict[str, Any]] = []
    rollers: dict[int, list[int]] = {}
    for e in game.legal:
        j = event_to_json(e)
        if j["type"] == "roll":
            rollers.setdefault(j["player"], []).append(j["value"])
        else:
            out.append(j)
    rolls = [
        {"type": "roll", "player": p, "name": game.players[p], "values": [min(v), max(v)]}
        for p, v in rollers.items()
    ]
    return rolls + out


def news(game: Game) -> list[str]:
    return [n.text(game.players) for n in game.news]
