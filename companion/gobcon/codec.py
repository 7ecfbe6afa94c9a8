"""GobCon JSON: states and events to and from JSON, with errors that quote the bad input."""

from __future__ import annotations

import json
import re
from typing import Any, cast

from companion.errors import InvalidInput
from companion.gobcon.core import (
    CATEGORIES,
    EFFECTS,
    EVENT_TYPES,
    KINDS,
    TERMINATIONS,
    AexEquo,
    Card,
    Category,
    DeckEmpty,
    Declare,
    Discard,
    Effect,
    EndTurn,
    Event,
    Face,
    Game,
    Give,
    GoblinRoll,
    Kind,
    Modifier,
    Note,
    Outcome,
    Partita,
    PartitaCard,
    Payoff,
    PlayCard,
    PlayPartita,
    RollResult,
    TimeUp,
    Tokens,
    face_of_pips,
)
from companion.jsonvalues import json_bool as _bool
from companion.jsonvalues import json_list as _list
from companion.jsonvalues import json_object as _obj
from companion.messages import Message, word
from companion.rules import player_index

# --------------------------------------------------------------------------------------- small pieces


def _named(what: str) -> Message:
    """The field ``what`` names (``a card's 'gp'`` names ``gp``), as a word the page translates."""
    quoted = re.search(r"'(\w+)'", what)
    return word("field", quoted[1]) if quoted else word("error.what", what)


def _int(value: Any, what: str, *, low: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(Message("error.input.whole", f"{what} must be a whole number, got {value!r}",
                                   {"what": _named(what), "value": repr(value)}))
    if low is not None and value < low:
        raise InvalidInput(Message("error.input.at_least", f"{what} must be at least {low}, got {value!r}",
                                   {"what": _named(what), "low": low, "value": repr(value)}))
    return value


def _opt_int(value: Any, what: str) -> int | None:
    return None if value is None else _int(value, what)


def _str(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InvalidInput(f"{what} must be a non-empty string, got {value!r}")
    return value


def category(value: Any) -> Category:
    if isinstance(value, str) and value.strip().lower() in CATEGORIES:
        return cast(Category, value.strip().lower())
    text = f"unknown category {value!r}; one of: {', '.join(CATEGORIES)}"
    params = {"what": word("error.what", "category"), "value": repr(value), "options": ", ".join(CATEGORIES)}
    raise InvalidInput(Message("error.input.unknown", text, params))


def _opt_category(value: Any) -> Category | None:
    return None if value is None else category(value)


def payoff_from_json(value: Any) -> Payoff:
    """A payoff table from ``{"king": 3, "green": 1, "black": 0, "darth": -1}`` or ``"K+3 G+1 B+0 D-1"``."""
    if isinstance(value, str):
        return Payoff.parse(value)
    data = _obj(value, "a payoff table")
    if set(data) != {"king", "green", "black", "darth"}:
        raise InvalidInput(f"a payoff table gives GP for king, green, black and darth, got {dict(data)!r}")
    return Payoff(*(_int(data[k], f"payoff {k!r}") for k in ("king", "green", "black", "darth")))


def face_from_json(value: Any) -> Face:
    """A face from its name, or a plain d6's pips (1-6)."""
    if isinstance(value, str):
        return Face.parse(value)
    return face_of_pips(value)


# --------------------------------------------------------------------------------------------- events


def event_to_json(event: Event) -> dict[str, Any]:
    e = event
    if isinstance(e, PlayCard):
        return {
            "type": "card",
            "player": e.player,
            "kind": e.kind,
            "name": e.name,
            "gp": e.gp,
            "category": e.category,
            "effect": e.effect,
            "amount": e.amount,
        }
    if isinstance(e, Discard):
        return {"type": "discard", "player": e.player, "card": e.card}
    if isinstance(e, Give):
        return {"type": "give", "player": e.player, "card": e.card, "to": e.to}
    if isinstance(e, PlayPartita):
        return {"type": "partita", "name": e.name, "category": e.category, "payoff": e.payoff.to_json()}
    if isinstance(e, Declare):
        return {"type": "declare", "player": e.player, "join": e.join}
    if isinstance(e, GoblinRoll):
        return {"type": "roll", "player": e.player, "face": e.face.label}
    if isinstance(e, Modifier):
        return {"type": "modifier", "player": e.player, "steps": e.steps}
    if isinstance(e, Tokens):
        return {"type": "tokens", "player": e.player, "delta": e.delta}
    return {"type": e.type}


def event_notation(event: Event) -> str:
    """The event as one line of JSON (how errors quote it)."""
    return json.dumps(event_to_json(event), ensure_ascii=False)


def _kind_and_effect(
    kind: Any, effect: Any, kinds_said: str, effects_said: str
) -> tuple[Kind, Effect | None]:
    """A card's kind, one of ``KINDS``, and its effect, one of ``EFFECTS`` or none."""
    if kind not in KINDS:
        raise InvalidInput(f"unknown card kind {kind!r}{kinds_said}")
    if effect is not None and effect not in EFFECTS:
        raise InvalidInput(f"unknown card effect {effect!r}{effects_said}")
    return kind, effect


def event_from_json(data: Any, players: tuple[str, ...]) -> Event:
    """An event from JSON; players by index or name; a roll by ``"face"`` or by a d6's ``"pips"``."""
    d = _obj(data, "an event")
    kind = d.get("type")
    if kind not in EVENT_TYPES:
        text = f"unknown event type {kind!r} in {dict(d)!r}; one of: {', '.join(EVENT_TYPES)}"
        raise InvalidInput(Message("error.input.unknown_event", text, {"value": repr(kind)}))
    what = f"event {kind!r}"

    def need(key: str) -> Any:
        if key not in d:
            raise InvalidInput(Message("error.input.event_needs", f"{what} needs {key!r}: {dict(d)!r}",
                                       {"event": kind, "field": word("field", key)}))
        return d[key]

    def who(key: str = "player") -> int:
        return player_index(players, need(key))

    if kind == "card":
        k, effect = _kind_and_effect(need("kind"), d.get("effect"), f"; one of: {', '.join(KINDS)}",
                                     f"; one of: {', '.join(EFFECTS)} or null")
        return PlayCard(
            who(),
            k,
            _str(need("name"), "a card's name"),
            _int(d.get("gp", 0), "a card's 'gp'"),
            _opt_category(d.get("category")),
            effect,
            _int(d.get("amount", 1), "a card's 'amount'"),
        )
    if kind == "discard":
        return Discard(who(), _int(need("card"), "'card' (the card's number)"))
    if kind == "give":
        return Give(who(), _int(need("card"), "'card' (the card's number)"), who("to"))
    if kind == "partita":
        return PlayPartita(
            _str(d.get("name", "Partita"), "a Partita's name"),
            category(need("category")),
            payoff_from_json(need("payoff")),
        )
    if kind == "declare":
        return Declare(who(), _bool(need("join"), "'join'"))
    if kind == "roll":
        if ("face" in d) == ("pips" in d):
            raise InvalidInput(f"{what} needs exactly one of 'face' or 'pips': {dict(d)!r}")
        return GoblinRoll(who(), face_from_json(d["face"] if "face" in d else d["pips"]))
    if kind == "modifier":
        return Modifier(who(), _int(need("steps"), "'steps'"))
    if kind == "tokens":
        return Tokens(who(), _int(need("delta"), "'delta'"))
    plain: dict[str, Event] = {"aex-equo": AexEquo(), "end-turn": EndTurn(), "time-up": TimeUp()}
    return plain.get(kind, DeckEmpty())


# --------------------------------------------------------------------------------------------- states


def _card_to_json(c: Card) -> dict[str, Any]:
    return {
        "id": c.id,
        "kind": c.kind,
        "name": c.name,
        "gp": c.gp,
        "category": c.category,
        "effect": c.effect,
        "amount": c.amount,
    }


def _card_from_json(value: Any) -> Card:
    d = _obj(value, "a card")
    k, effect = _kind_and_effect(d.get("kind"), d.get("effect"), f" in {dict(d)!r}", f" in {dict(d)!r}")
    return Card(
        _int(d.get("id"), "a card's 'id'", low=1),
        k,
        _str(d.get("name"), "a card's name"),
        _int(d.get("gp", 0), "a card's 'gp'"),
        _opt_category(d.get("category")),
        effect,
        _int(d.get("amount", 1), "a card's 'amount'", low=1),
    )


def _pcard_to_json(c: PartitaCard) -> dict[str, Any]:
    return {"name": c.name, "category": c.category, "payoff": c.payoff.to_json()}


def _pcard_from_json(value: Any) -> PartitaCard:
    d = _obj(value, "a Partita card")
    return PartitaCard(
        _str(d.get("name"), "a Partita's name"),
        category(d.get("category")),
        payoff_from_json(d.get("payoff")),
    )


def roll_to_json(r: RollResult) -> dict[str, Any]:
    """One goblin die of a Partita: who rolled what, the steps taken, the face it became, its GP."""
    return {"player": r.player, "rolled": r.rolled.label, "steps": r.steps, "face": r.face.label,
            "gp": r.gp, "change": r.change, "rule": r.rule}


def _partita_to_json(p: Partita) -> dict[str, Any]:
    return {
        "proposer": p.proposer,
        "card": _pcard_to_json(p.card),
        "excluded": list(p.excluded),
        "declarations": [[q, j] for q, j in p.declarations],
        "rolls": [roll_to_json(r) for r in p.rolls],
        "extra": [[q, s] for q, s in p.extra],
        "aex_equo": p.aex_equo,
    }


def _partita_from_json(value: Any) -> Partita | None:
    if value is None:
        return None
    d = _obj(value, "a Partita")
    rolls = []
    for r in _list(d.get("rolls", []), "a Partita's 'rolls'"):
        r = _obj(r, "a roll")
        rule = r.get("rule", "")
        if rule not in ("", "one-king", "proposer-darth"):
            raise InvalidInput(f"unknown roll rule {rule!r}")
        rolls.append(
            RollResult(
                _int(r.get("player"), "a roll's player"),
                Face.parse(_str(r.get("rolled"), "a roll's rolled face")),
                _int(r.get("steps", 0), "a roll's steps"),
                Face.parse(_str(r.get("face"), "a roll's face")),
                _int(r.get("gp"), "a roll's gp"),
                _int(r.get("change"), "a roll's change"),
                rule,
            )
        )
    declarations = []
    for item in _list(d.get("declarations", []), "'declarations'"):
        if not isinstance(item, list) or len(item) != 2:
            raise InvalidInput(f"a declaration is [player, join], got {item!r}")
        declarations.append((_int(item[0], "a declaration's player"), _bool(item[1], "a declaration's join")))
    extra = []
    for item in _list(d.get("extra", []), "'extra'"):
        if not isinstance(item, list) or len(item) != 2:
            raise InvalidInput(f"a modifier is [player, steps], got {item!r}")
        extra.append((_int(item[0], "a modifier's player"), _int(item[1], "a modifier's steps")))
    return Partita(
        _int(d.get("proposer"), "the proposer"),
        _pcard_from_json(d.get("card")),
        tuple(_int(q, "an excluded player") for q in _list(d.get("excluded", []), "'excluded'")),
        tuple(declarations),
        tuple(rolls),
        tuple(extra),
        _bool(d.get("aex_equo", False), "'aex_equo'"),
    )


def game_to_json(g: Game) -> dict[str, Any]:
    return {
        "players": list(g.players),
        "piles": list(g.piles),
        "cards": [[_card_to_json(c) for c in cards] for cards in g.cards],
        "current": g.current,
        "turn": g.turn,
        "played": list(g.played),
        "partita": None if g.partita is None else _partita_to_json(g.partita),
        "last": None if g.last is None else _partita_to_json(g.last),
        "recent": [_pcard_to_json(c) for c in g.recent],
        "target": g.target,
        "timed": g.timed,
        "deck_end": g.deck_end,
        "time_up": g.time_up,
        "next_card": g.next_card,
        "news": [
            {"what": n.what, "player": n.player, "value": n.value, "other": n.other, "text": n.text_}
            for n in g.news
        ],
        "outcome": None
        if g.outcome is None
        else {"termination": g.outcome.termination, "winners": list(g.outcome.winners)},
    }


def game_from_json(data: Any) -> Game:
    """A position from ``game_to_json``'s shape; raises ``InvalidInput`` quoting what is wrong."""
    from companion.gobcon.core import new_game

    d = _obj(data, "a GobCon state")
    unknown = set(d) - set(game_to_json(new_game(["a", "b"])))
    if unknown:
        raise InvalidInput(f"unknown state field(s) {sorted(unknown)!r}")
    if "players" not in d:
        raise InvalidInput("a GobCon state needs 'players'")
    players = _list(d["players"], "'players'")
    target = d.get("target", 20)
    timed = _bool(d.get("timed", False), "'timed'")
    base = new_game(
        players, target=target, timed=timed, deck_end=_bool(d.get("deck_end", False), "'deck_end'")
    )
    n = len(base.players)
    piles = _list(d.get("piles", [0] * n), "'piles'")
    cards = _list(d.get("cards", [[] for _ in range(n)]), "'cards'")
    if len(piles) != n or len(cards) != n:
        raise InvalidInput(f"'piles' and 'cards' need one entry per player ({n}): {piles!r}, {cards!r}")
    news = []
    for item in _list(d.get("news", []), "'news'"):
        item = _obj(item, "a news entry")
        news.append(
            Note(
                _str(item.get("what"), "a news entry's 'what'"),
                _opt_int(item.get("player"), "news player"),
                _opt_int(item.get("value"), "news value"),
                _opt_int(item.get("other"), "news other"),
                str(item.get("text", "")),
            )
        )
    outcome = None
    if d.get("outcome") is not None:
        o = _obj(d["outcome"], "'outcome'")
        if o.get("termination") not in TERMINATIONS:
            raise InvalidInput(f"bad outcome {dict(o)!r}")
        outcome = Outcome(
            o["termination"], tuple(_int(p, "a winner") for p in _list(o.get("winners"), "winners"))
        )
    played = _list(d.get("played", []), "'played'")
    if any(k not in ("amici", "acquisti", "partita") for k in played):
        raise InvalidInput(f"'played' lists amici, acquisti or partita, got {played!r}")
    game = Game(
        players=base.players,
        piles=tuple(_int(x, "a pile", low=0) for x in piles),
        cards=tuple(tuple(_card_from_json(c) for c in _list(cs, "a player's cards")) for cs in cards),
        current=_int(d.get("current", 0), "'current'"),
        turn=_int(d.get("turn", 1), "'turn'", low=1),
        played=tuple(played),
        partita=_partita_from_json(d.get("partita")),
        last=_partita_from_json(d.get("last")),
        recent=tuple(_pcard_from_json(c) for c in _list(d.get("recent", []), "'recent'")),
        target=base.target,
        timed=base.timed,
        deck_end=base.deck_end,
        time_up=_bool(d.get("time_up", False), "'time_up'"),
        next_card=_int(d.get("next_card", 1), "'next_card'", low=1),
        news=tuple(news),
        outcome=outcome,
    )
    validate(game)
    return game


def validate(game: Game) -> None:
    """Raise ``InvalidInput`` if ``game`` is not a position the rules can reach."""
    g = game
    n = len(g.players)
    if not 0 <= g.current < n:
        raise InvalidInput(f"'current' must be a player 0 to {n - 1}, got {g.current}")
    ids = [c.id for cards in g.cards for c in cards]
    if len(set(ids)) != len(ids) or any(i >= g.next_card for i in ids):
        raise InvalidInput(f"card ids must be distinct and below 'next_card' ({g.next_card}): {ids!r}")
    for p, cards in enumerate(g.cards):
        if sum(1 for c in cards if c.kind == "amici") > 1:
            raise InvalidInput(f"{g.players[p]!r} has more than one Amici in play")
    for part in (g.partita, g.last):
        if part is None:
            continue
        everyone = [
            part.proposer,
            *part.excluded,
            *(q for q, _ in part.declarations),
            *(r.player for r in part.rolls),
        ]
        if any(not 0 <= q < n for q in everyone):
            raise InvalidInput(f"a Partita names a player outside 0 to {n - 1}: {everyone!r}")
    if g.outcome is not None and any(not 0 <= p < n for p in g.outcome.winners):
        raise InvalidInput(f"the outcome names unknown winners {g.outcome.winners!r}")
