"""JSON views of a GobCon position, shared by the command line and the table flow."""

from __future__ import annotations

from typing import Any

from companion.gobcon.codec import roll_to_json
from companion.gobcon.core import CATEGORIES, Game, Partita, PartitaCard


def players(game: Game) -> list[dict[str, Any]]:
    """Each player's ledger: token pile, cards in play with the value they count for, total."""
    g = game
    out = []
    for p, name in enumerate(g.players):
        ledger = g.ledger(p)
        amici = g.amici(p)
        out.append(
            {
                "index": p,
                "name": name,
                "current": p == g.current,
                "pile": ledger.pile,
                "cards": [
                    {
                        "id": c.id,
                        "kind": c.kind,
                        "name": c.name,
                        "gp": c.gp,
                        "value": value,
                        "category": c.category,
                        "effect": c.effect,
                        "amount": c.amount,
                    }
                    for c, value in ledger.cards
                ],
                "card_gp": ledger.total - ledger.pile,
                "total": ledger.total,
                "amici": None if amici is None else amici.name,
                "banned": [c for c in CATEGORIES if g.banned(p, c)],
                "steps": {c: g.steps(p, c) for c in CATEGORIES if g.steps(p, c)},
            }
        )
    return out


def partita_card(card: PartitaCard) -> dict[str, Any]:
    return {"name": card.name, "category": card.category, "payoff": card.payoff.to_json()}


def partita(game: Game, part: Partita | None, *, live: bool) -> dict[str, Any] | None:
    """A Partita (the one being resolved when ``live``): declarations, rolls, who is next."""
    if part is None:
        return None
    g = game
    name = g.players.__getitem__
    nxt_declarer = g.next_declarer() if live else None
    nxt_roller = g.next_roller() if live else None
    participants = g.participants() if live else (part.proposer, *(q for q, j in part.declarations if j))
    return {
        **partita_card(part.card),
        "proposer": part.proposer,
        "proposer_name": name(part.proposer),
        "stage": ("declare" if nxt_declarer is not None else "roll") if live else "done",
        "excluded": [name(q) for q in part.excluded],
        "declarations": [{"player": q, "name": name(q), "join": j} for q, j in part.declarations],
        "participants": [name(q) for q in participants],
        "rolls": [{"player": r.player, "name": name(r.player), **roll_to_json(r)} for r in part.rolls],
        "modifiers": [{"player": q, "name": name(q), "steps": s} for q, s in part.extra],
        "aex_equo": part.aex_equo,
        "next_declarer": None if nxt_declarer is None else name(nxt_declarer),
        "next_roller": None if nxt_roller is None else name(nxt_roller),
        "next_roller_steps": None if nxt_roller is None else g.roll_steps(nxt_roller),
    }


def awaiting(game: Game) -> dict[str, Any]:
    """What the referee waits for next."""
    g = game
    phase = g.phase
    if phase == "over":
        return {"phase": phase, "kind": "nothing", "message": "the game is over"}
    owed = g.logorrea_owed()
    if owed is not None:
        holder, card, to = owed
        to_names = [g.players[q] for q in to]
        return {
            "phase": phase,
            "kind": "pass-logorrea",
            "player": holder,
            "name": g.players[holder],
            "card": card.id,
            "options": list(to),
            "option_names": to_names,
            "to_names": ", ".join(to_names),
            "message": f"{g.players[holder]} has no Acquisti left: pass Logorrea-Man to an opponent "
            + f"with Acquisti ({', '.join(to_names)})",
        }
    if phase == "declare":
        p = g.next_declarer()
        assert p is not None
        waiting = g.declarers()
        return {
            "phase": phase,
            "kind": "declare",
            "player": p,
            "name": g.players[p],
            "players": list(waiting),
            "names": [g.players[q] for q in waiting],
            "message": f"{g.players[p]}: do you take part in the Partita?",
        }
    if phase == "roll":
        p = g.next_roller()
        assert p is not None
        steps = g.roll_steps(p)
        extra = f" ({steps:+d} step(s))" if steps else ""
        return {
            "phase": phase,
            "kind": "roll",
            "player": p,
            "name": g.players[p],
            "steps": steps,
            "message": f"{g.players[p]}: roll the goblin die{extra}",
        }
    who = g.players[g.current]
    last = " (the last turn: time is up)" if g.time_up else ""
    return {
        "phase": phase,
        "kind": "turn",
        "player": g.current,
        "name": who,
        "played": list(g.played),
        "message": f"{who}'s turn{last}: play cards, propose a Partita, or end the turn",
    }


def outcome(game: Game) -> dict[str, Any] | None:
    if game.outcome is None:
        return None
    winners = list(game.outcome.winners)
    return {
        "termination": game.outcome.termination,
        "winners": winners,
        "winner_names": [game.players[p] for p in winners],
        "tie": len(winners) > 1,
        "totals": [game.total(p) for p in range(len(game.players))],
    }


def news(game: Game) -> list[str]:
    return [n.text(game.players) for n in game.news]
