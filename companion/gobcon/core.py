"""GobCon: the pure rules core (rulebook ``002_0e3f69c9c6e66a54.txt``).

What the companion referees: the goblin dice (icon dice, or plain d6s mapped 6 King / 4-5 Green /
2-3 Black / 1 Darth), bonus and malus as steps along King > Green > Black > Darth, the resolution of a
Partita (declarations, rolls in turn order, one King only, the proposer's Darth), the GP ledger (token
piles never below zero from a Partita, the GP of the cards in play on top), the Divieti, and the end
of the game (a GP target, a timed game, or the optional empty-deck end).

Hands and the deck are hidden or physical and are not tracked: the players tell the companion which
card is played, with the values printed on it (the card text has precedence over the rulebook, so the
companion keeps only what the ledger and the Partite need).

Players are indices into ``Game.players``, in clockwise turn order.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from enum import IntEnum
from typing import Any, ClassVar, Literal, TypeAlias

from companion.errors import InvalidInput
from companion.messages import Message
from companion.rules import Judge, Legal

Player: TypeAlias = int
"""A player's index in ``Game.players`` (clockwise turn order)."""


class Face(IntEnum):
    """A goblin die result, worst to best: a bonus moves it up one step, a malus down one."""

    DARTH = 0
    BLACK = 1
    GREEN = 2
    KING = 3

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Face:
        """A face from its name (``"king"``, ``"green"``, ``"black"``, ``"darth"``)."""
        try:
            return cls[text.strip().upper()]
        except (KeyError, AttributeError):
            raise InvalidInput(f"unknown goblin face {text!r}; one of: king, green, black, darth") from None

    def __repr__(self) -> str:
        return f"Face.{self.name}"


FACE_OF_PIPS: dict[int, Face] = {
    1: Face.DARTH,
    2: Face.BLACK,
    3: Face.BLACK,
    4: Face.GREEN,
    5: Face.GREEN,
    6: Face.KING,
}
"""A plain d6 read as a goblin die."""


def face_of_pips(pips: int) -> Face:
    """The goblin face of a plain d6 showing ``pips`` (6 King, 4-5 Green, 2-3 Black, 1 Darth)."""
    if isinstance(pips, bool) or not isinstance(pips, int) or pips not in FACE_OF_PIPS:
        raise InvalidInput(Message("error.input.die_value", f"a d6 shows 1 to 6, got {pips!r}",
                                   {"sides": 6, "value": repr(pips)}))
    return FACE_OF_PIPS[pips]


def shift(face: Face, steps: int) -> Face:
    """``face`` moved ``steps`` along the scale (bonus > 0, malus < 0), clamped to Darth..King."""
    return Face(max(Face.DARTH, min(Face.KING, face + steps)))


Category = Literal["3d", "board", "card", "gdr"]
CATEGORIES: tuple[Category, ...] = ("3d", "board", "card", "gdr")
Kind = Literal["amici", "acquisti", "speciale"]
KINDS: tuple[Kind, ...] = ("amici", "acquisti", "speciale")
Effect = Literal["bonus", "malus", "divieto"]
EFFECTS: tuple[Effect, ...] = ("bonus", "malus", "divieto")
Termination = Literal["target", "time", "deck"]
TERMINATIONS: tuple[Termination, ...] = ("target", "time", "deck")
LOGORREA_MAN = "logorrea-man"
DEFAULT_TARGET = 20
RECENT = 6
"""How many payoff tables the page remembers."""


@dataclass(frozen=True)
class Payoff:
    """A Partita card's table: the GP each (final) face wins or loses."""

    king: int
    green: int
    black: int
    darth: int

    def gp(self, face: Face) -> int:
        return (self.darth, self.black, self.green, self.king)[face]

    def notation(self) -> str:
        return f"K{self.king:+d} G{self.green:+d} B{self.black:+d} D{self.darth:+d}"

    @classmethod
    def parse(cls, text: str) -> Payoff:
        """A table from ``"K+3 G+1 B+0 D-1"`` (letters K, G, B, D, each once)."""
        values: dict[str, int] = {}
        for word in text.split():
            letter, number = word[:1].upper(), word[1:]
            if letter not in "KGBD" or letter in values or not number.lstrip("+-").isdigit():
                raise InvalidInput(f"bad payoff table {text!r}: write it like 'K+3 G+1 B+0 D-1'")
            values[letter] = int(number)
        if len(values) != 4:
            raise InvalidInput(f"bad payoff table {text!r}: it needs K, G, B and D")
        return cls(values["K"], values["G"], values["B"], values["D"])

    def to_json(self) -> dict[str, int]:
        return {"king": self.king, "green": self.green, "black": self.black, "darth": self.darth}

    def __repr__(self) -> str:
        return f"Payoff.parse({self.notation()!r})"


@dataclass(frozen=True)
class Card:
    """A card in play in front of a player: its kind, name, printed GP and bonus/malus/divieto icon."""

    id: int
    kind: Kind
    name: str
    gp: int = 0
    category: Category | None = None
    effect: Effect | None = None
    amount: int = 1
    """Steps of a bonus or malus."""

    @property
    def is_logorrea(self) -> bool:
        return self.kind == "amici" and self.name.strip().lower().replace(" ", "-") == LOGORREA_MAN


@dataclass(frozen=True)
class PartitaCard:
    """A Partita card as the players entered it: kept to offer it again."""

    name: str
    category: Category
    payoff: Payoff


@dataclass(frozen=True)
class RollResult:
    """One roll of a Partita: the face rolled, the net steps, the face that counts, the GP."""

    player: Player
    rolled: Face
    steps: int
    face: Face
    gp: int
    """The table's GP for ``face``."""
    change: int
    """What the pile actually changed by (a loss stops at zero)."""
    rule: Literal["", "one-king", "proposer-darth"] = ""
    """Which rule changed the face after the modifiers."""


@dataclass(frozen=True)
class Partita:
    """A Partita being resolved (or just resolved)."""

    proposer: Player
    card: PartitaCard
    excluded: tuple[Player, ...] = ()
    """Players kept out by a Divieto on the category when the card was played."""
    declarations: tuple[tuple[Player, bool], ...] = ()
    rolls: tuple[RollResult, ...] = ()
    extra: tuple[tuple[Player, int], ...] = ()
    """One-shot bonus (+) and malus (-) steps for a player's roll, from cards played during it."""
    aex_equo: bool = False


@dataclass(frozen=True)
class Outcome:
    """How the game ended: more than one winner is a tie."""

    termination: Termination
    winners: tuple[Player, ...]


@dataclass(frozen=True)
class Note:
    """One thing the last event did, for the log and the page."""

    what: str
    player: Player | None = None
    value: int | None = None
    other: Player | None = None
    text_: str = ""
    """Free words (a card's name, a face) the English text needs."""

    def text(self, names: tuple[str, ...]) -> str:
        p = names[self.player] if self.player is not None else "-"
        o = names[self.other] if self.other is not None else "-"
        v, t = self.value, self.text_
        return {
            "card": f"{p} has {t} in play",
            "cancel": f"{p}: the Speciali bonus and malus on {t} cancel out and are both discarded",
            "discard": f"{p} discards {t}",
            "logorrea-gone": f"nobody has Acquisti in play any more: {p}'s {t} is discarded",
            "give": f"{p} passes {t} to {o}",
            "replaced": f"{p} discards {t} to make room for the new Amici",
            "partita": f"{p} proposes the Partita {t}",
            "excluded": f"{p} is kept out of the Partita by a Divieto",
            "join": f"{p} takes part",
            "pass": f"{p} does not take part",
            "roll": f"{p} rolls {t}, {v:+d} GP" if v is not None else f"{p} rolls {t}",
            "one-king": f"{p}: only one King per Partita, it counts as Green",
            "proposer-darth": f"{p} proposed the Partita: Darth counts as Black",
            "floor": f"{p}'s pile cannot go below zero",
            "modifier": f"{p} gets {v:+d} step(s) on this roll" if v is not None else "",
            "aex-equo": "Aex Equo: more than one King may count in this Partita",
            "partita-over": f"the Partita {t} is resolved",
            "tokens": f"{p}'s pile changes by {v:+d} GP" if v is not None else "",
            "turn": f"{p}'s turn",
            "time-up": "time is up: this turn is the last",
            "deck-empty": "the deck is empty",
            "winner": f"{p} wins with {v} GP",
            "tie": f"tie at {v} GP: {t}",
        }.get(self.what, self.what)


# --------------------------------------------------------------------------------------------- events


@dataclass(frozen=True)
class PlayCard:
    """An Amici, Acquisti or Speciale card put in play in front of ``player``."""

    player: Player
    kind: Kind
    name: str
    gp: int = 0
    category: Category | None = None
    effect: Effect | None = None
    amount: int = 1
    type: ClassVar[str] = "card"


@dataclass(frozen=True)
class Discard:
    """A card in play in front of ``player`` leaves the game (its id is ``card``)."""

    player: Player
    card: int
    type: ClassVar[str] = "discard"


@dataclass(frozen=True)
class Give:
    """A card in play passes from ``player`` to ``to`` (Logorrea-Man's way)."""

    player: Player
    card: int
    to: Player
    type: ClassVar[str] = "give"


@dataclass(frozen=True)
class PlayPartita:
    """The player in turn plays a Partita card."""

    name: str
    category: Category
    payoff: Payoff
    type: ClassVar[str] = "partita"


@dataclass(frozen=True)
class Declare:
    """A player says whether it takes part in the Partita."""

    player: Player
    join: bool
    type: ClassVar[str] = "declare"


@dataclass(frozen=True)
class GoblinRoll:
    """A participant's goblin die."""

    player: Player
    face: Face
    type: ClassVar[str] = "roll"


@dataclass(frozen=True)
class Modifier:
    """A one-shot bonus (+) or malus (-) on a participant's roll in this Partita."""

    player: Player
    steps: int
    type: ClassVar[str] = "modifier"


@dataclass(frozen=True)
class AexEquo:
    """The "Aex Equo" card: more than one King may count in this Partita."""

    type: ClassVar[str] = "aex-equo"


@dataclass(frozen=True)
class Tokens:
    """GP tokens taken (+) or given back (-) by a card's effect; the pile stops at zero."""

    player: Player
    delta: int
    type: ClassVar[str] = "tokens"


@dataclass(frozen=True)
class EndTurn:
    type: ClassVar[str] = "end-turn"


@dataclass(frozen=True)
class TimeUp:
    """The agreed time is over: the current turn is the last."""

    type: ClassVar[str] = "time-up"


@dataclass(frozen=True)
class DeckEmpty:
    """The last card was drawn (ends the game only with the deck-end option)."""

    type: ClassVar[str] = "deck-empty"


Event: TypeAlias = (
    PlayCard
    | Discard
    | Give
    | PlayPartita
    | Declare
    | GoblinRoll
    | Modifier
    | AexEquo
    | Tokens
    | EndTurn
    | TimeUp
    | DeckEmpty
)
EVENT_TYPES: tuple[str, ...] = (
    "card", "discard", "give", "partita", "declare", "roll", "modifier", "aex-equo", "tokens", "end-turn",
    "time-up", "deck-empty",
)  # fmt: skip


# ------------------------------------------------------------------------------------------- position


@dataclass(frozen=True)
class Ledger:
    """A player's GP: the token pile, each card's value as it counts now, and the total."""

    pile: int
    cards: tuple[tuple[Card, int], ...]
    total: int


@dataclass(frozen=True)
class Game:
    """A GobCon position. Start with ``new_game``; advance with ``apply``."""

    players: tuple[str, ...]
    piles: tuple[int, ...]
    cards: tuple[tuple[Card, ...], ...]
    """The cards in play in front of each player."""
    current: Player = 0
    turn: int = 1
    played: tuple[str, ...] = ()
    """Which once-per-turn kinds (amici, acquisti, partita) the player in turn has played."""
    partita: Partita | None = None
    last: Partita | None = None
    """The last Partita resolved, for the page."""
    recent: tuple[PartitaCard, ...] = ()
    target: int | None = DEFAULT_TARGET
    timed: bool = False
    deck_end: bool = False
    time_up: bool = False
    next_card: int = 1
    news: tuple[Note, ...] = ()
    outcome: Outcome | None = None

    # ---- the ledger
    def steps(self, player: Player, category: Category) -> int:
        """Net bonus (+) / malus (-) steps of ``player``'s cards in play on ``category``."""
        net = 0
        for c in self.cards[player]:
            if c.category == category and c.effect == "bonus":
                net += c.amount
            elif c.category == category and c.effect == "malus":
                net -= c.amount
        return net

    def banned(self, player: Player, category: Category) -> bool:
        """Whether a Divieto keeps ``player`` out of ``category``."""
        return any(c.effect == "divieto" and c.category == category for c in self.cards[player])

    def card_value(self, player: Player, card: Card) -> int:
        if card.kind == "acquisti" and card.category is not None:
            return max(0, card.gp + self.steps(player, card.category))
        return card.gp

    def ledger(self, player: Player) -> Ledger:
        parts = tuple((c, self.card_value(player, c)) for c in self.cards[player])
        return Ledger(self.piles[player], parts, self.piles[player] + sum(v for _, v in parts))

    def total(self, player: Player) -> int:
        return self.ledger(player).total

    def amici(self, player: Player) -> Card | None:
        return next((c for c in self.cards[player] if c.kind == "amici"), None)

    def find_card(self, player: Player, card_id: int) -> Card | None:
        return next((c for c in self.cards[player] if c.id == card_id), None)

    def has_acquisti(self, player: Player) -> bool:
        return any(c.kind == "acquisti" for c in self.cards[player])

    def logorrea_owed(self) -> tuple[Player, Card, tuple[Player, ...]] | None:
        """Logorrea-Man in front of a player with no Acquisti left, while an opponent has some: who must
        pass it, the card, and the opponents (clockwise) it may go to. None when nothing is owed."""
        for p, cards in enumerate(self.cards):
            for c in cards:
                if c.is_logorrea and not self.has_acquisti(p):
                    to = tuple(q for q in self.clockwise_from(p)[1:] if self.has_acquisti(q))
                    if to:
                        return p, c, to
        return None

    # ---- the Partita
    @property
    def phase(self) -> Literal["turn", "declare", "roll", "over"]:
        if self.outcome is not None:
            return "over"
        if self.partita is None:
            return "turn"
        return "declare" if self.next_declarer() is not None else "roll"

    def clockwise_from(self, player: Player) -> tuple[Player, ...]:
        n = len(self.players)
        return tuple((player + i) % n for i in range(n))

    def next_declarer(self) -> Player | None:
        return next(iter(self.declarers()), None)

    def declarers(self) -> tuple[Player, ...]:
        """Everyone who still must declare, in the turn order they declare in (``next_declarer`` first)."""
        p = self.partita
        if p is None:
            return ()
        done = {q for q, _ in p.declarations}
        return tuple(q for q in self.clockwise_from(p.proposer)[1:] if q not in p.excluded and q not in done)

    def participants(self) -> tuple[Player, ...]:
        """Who rolls in the Partita, in turn order starting with the proposer."""
        p = self.partita
        if p is None:
            return ()
        joined = {q for q, j in p.declarations if j}
        return tuple(q for q in self.clockwise_from(p.proposer) if q == p.proposer or q in joined)

    def next_roller(self) -> Player | None:
        p = self.partita
        if p is None or self.next_declarer() is not None:
            return None
        rolled = {r.player for r in p.rolls}
        for q in self.participants():
            if q not in rolled and not self.banned(q, p.card.category):
                return q
        return None

    def roll_steps(self, player: Player) -> int:
        """Net steps on ``player``'s roll in the Partita: cards in play plus one-shot modifiers."""
        p = self.partita
        if p is None:
            return 0
        return self.steps(player, p.card.category) + sum(s for q, s in p.extra if q == player)

    @property
    def legal(self) -> LegalEvents:
        return LegalEvents(self)

    def to_json(self) -> dict[str, Any]:
        from companion.gobcon.codec import game_to_json

        return game_to_json(self)

    @classmethod
    def from_json(cls, data: Any) -> Game:
        from companion.gobcon.codec import game_from_json

        return game_from_json(data)

    def __repr__(self) -> str:
        return f"Game.from_json({self.to_json()!r})"


def candidates(g: Game) -> Iterator[Event]:
    """Every event without typed-in data that might be legal now (``LegalEvents`` keeps the legal ones):
    the Partite played lately (``recent``) are cards on the table, so playing one again is listed."""
    n = len(g.players)
    for p in range(n):
        yield Declare(p, True)
        yield Declare(p, False)
        for face in Face:
            yield GoblinRoll(p, face)
        for steps in (1, -1):
            yield Modifier(p, steps)
        for c in g.cards[p]:
            yield Discard(p, c.id)
            if c.is_logorrea:
                for q in g.clockwise_from(p)[1:]:
                    yield Give(p, c.id, q)
    yield AexEquo()
    yield EndTurn()
    for partita in g.recent:
        yield PlayPartita(partita.name, partita.category, partita.payoff)
    yield TimeUp()
    yield DeckEmpty()


class LegalEvents(Legal[Game, Event]):
    """Events legal now with no free data (declarations, rolls, turn and Partita steps), lazily.

    Card plays carry what the players type (names, GP), so they are checked with ``in`` but never listed.
    """

    def __init__(self, game: Game) -> None:
        super().__init__(game, candidates, is_legal)
        self.game = game


def new_game(
    players: tuple[str, ...] | list[str],
    *,
    target: int | None = DEFAULT_TARGET,
    timed: bool = False,
    deck_end: bool = False,
    first: Player = 0,
) -> Game:
    """A game about to start: ``players`` in clockwise order, ``first`` plays first."""
    names = tuple(players)
    if not 2 <= len(names) <= 6:
        text = f"GobCon needs 2 to 6 players, got {len(names)}: {list(names)!r}"
        raise InvalidInput(Message("error.input.players", text,
                                   {"game": "GobCon", "low": 2, "high": 6, "n": len(names)}))
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise InvalidInput(f"a player's name must be a non-empty string, got {name!r}")
    if len(set(names)) != len(names):
        raise InvalidInput(f"player names must differ: {list(names)!r}")
    if target is not None and (isinstance(target, bool) or not isinstance(target, int) or target < 1):
        raise InvalidInput(f"the GP target must be a whole number from 1, or null, got {target!r}")
    if target is None and not timed:
        raise InvalidInput("a game with no GP target must be timed (timed: true)")
    if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < len(names):
        raise InvalidInput(f"the first player must be 0 to {len(names) - 1}, got {first!r}")
    return Game(
        players=names,
        piles=(0,) * len(names),
        cards=((),) * len(names),
        current=first,
        target=target,
        timed=timed,
        deck_end=deck_end,
        news=(Note("turn", first),),
    )


# ---------------------------------------------------------------------------------------------- rules


def _name(g: Game, p: Player) -> str:
    return g.players[p]


def illegal_reason(game: Game, event: Event) -> str | None:
    """Why ``event`` is not legal in ``game`` (None when it is)."""
    g = game
    n = len(g.players)
    if g.outcome is not None:
        return "the game is over"
    for attr in ("player", "to"):
        who = getattr(event, attr, None)
        if who is not None and not 0 <= who < n:
            return f"no player {who}"
    partita = g.partita
    owed = g.logorrea_owed()
    if owed is not None:
        holder, lm, to = owed
        if not (isinstance(event, Discard | Give) and (event.player, event.card) == (holder, lm.id)):
            return (
                f"{_name(g, holder)} has no Acquisti left and must first pass Logorrea-Man (#{lm.id}) to an "
                f"opponent with Acquisti in play: {', '.join(_name(g, q) for q in to)}"
            )
    if isinstance(event, PlayCard):
        return _card_reason(g, event)
    if isinstance(event, Discard | Give):
        card = g.find_card(event.player, event.card)
        if card is None:
            return f"{_name(g, event.player)} has no card #{event.card} in play"
        if isinstance(event, Give) and event.to == event.player:
            return "a card is passed to another player"
        if isinstance(event, Give) and card.is_logorrea:
            if g.has_acquisti(event.player):
                return (
                    f"{_name(g, event.player)} still has Acquisti in play: Logorrea-Man passes on only "
                    "when they are gone"
                )
            if not g.has_acquisti(event.to):
                other = _name(g, event.to)
                return f"Logorrea-Man passes to an opponent with Acquisti in play, and {other} has none"
        return None
    if isinstance(event, PlayPartita):
        if partita is not None:
            return "a Partita is being resolved"
        if "partita" in g.played:
            return f"{_name(g, g.current)} has already played a Partita this turn"
        if g.banned(g.current, event.category):
            return f"a Divieto keeps {_name(g, g.current)} from proposing a {event.category} Partita"
        return None
    if isinstance(event, Declare):
        if partita is None:
            return "no Partita is being resolved"
        if event.player == partita.proposer:
            return "the proposer takes part anyway"
        if event.player in partita.excluded:
            return f"a Divieto keeps {_name(g, event.player)} out of this Partita"
        nxt = g.next_declarer()
        if nxt is None:
            return "everybody has declared"
        if event.player != nxt:
            return f"{_name(g, nxt)} declares first (turn order)"
        return None
    if isinstance(event, GoblinRoll):
        if partita is None:
            return "no Partita is being resolved"
        if g.next_declarer() is not None:
            return f"{_name(g, g.next_declarer() or 0)} has not declared yet"
        nxt = g.next_roller()
        if event.player not in g.participants():
            return f"{_name(g, event.player)} does not take part in this Partita"
        if any(r.player == event.player for r in partita.rolls):
            return f"{_name(g, event.player)} has already rolled"
        if event.player != nxt:
            who = "nobody" if nxt is None else _name(g, nxt)
            return f"roll out of turn order: {who} rolls next"
        return None
    if isinstance(event, Modifier):
        if partita is None:
            return "no Partita is being resolved"
        if event.steps == 0 or abs(event.steps) > 3:
            return f"a modifier is -3 to +3 steps, not 0: {event.steps}"
        if any(r.player == event.player for r in partita.rolls):
            return f"{_name(g, event.player)} has already rolled"
        if event.player in partita.excluded or any(
            q == event.player and not j for q, j in partita.declarations
        ):
            return f"{_name(g, event.player)} does not take part in this Partita"
        return None
    if isinstance(event, AexEquo):
        if partita is None:
            return "no Partita is being resolved"
        if partita.aex_equo:
            return "Aex Equo is already in play for this Partita"
        return None
    if isinstance(event, Tokens):
        if event.delta == 0:
            return "a change of 0 GP changes nothing"
        return None
    if isinstance(event, EndTurn):
        if partita is not None:
            return "the Partita must be resolved first"
        return None
    if isinstance(event, TimeUp):
        if not g.timed:
            return "this game is not timed"
        if g.time_up:
            return "time is already up"
        return None
    if not g.deck_end:
        return "without the deck-end option the discards are reshuffled into a new deck"
    return None


def _card_reason(g: Game, e: PlayCard) -> str | None:
    name = _name(g, e.player)
    if e.kind not in KINDS:
        return f"unknown card kind {e.kind!r}"
    if e.effect in ("bonus", "malus", "divieto") and e.category is None:
        return f"a {e.effect} card needs its category"
    if e.effect == "divieto" and e.kind != "speciale":
        return "only Speciali carry a Divieto"
    if e.kind == "acquisti" and e.effect is not None:
        return "Acquisti carry no bonus, malus or Divieto"
    if not 1 <= e.amount <= 3:
        return f"a bonus or malus is 1 to 3 steps, got {e.amount}"
    logorrea = Card(0, e.kind, e.name).is_logorrea
    if e.kind == "speciale":
        if e.gp == 0 and e.effect is None:
            return (
                "a Speciale the companion keeps has GP or a bonus, malus or Divieto; use its effect instead"
            )
        return None
    if logorrea:
        return None  # played at once when drawn, by whoever drew it
    if e.player != g.current:
        return f"{name} may play {e.kind.capitalize()} only in its own turn"
    if g.partita is not None:
        return "a Partita is being resolved"
    if e.kind in g.played:
        return f"{name} has already played an {e.kind.capitalize()} card this turn"
    if e.kind == "amici":
        current = g.amici(e.player)
        if current is not None and current.is_logorrea:
            return f"{name} cannot play other Amici while Logorrea-Man is in play"
        if current is not None:
            return f"{name} already has the Amici {current.name!r} in play (#{current.id}): discard it first"
        return None
    if e.category is not None and g.banned(e.player, e.category):
        return f"a Divieto keeps {name} from playing {e.category} Acquisti"
    return None


def _notation(event: Event) -> str:
    from companion.gobcon.codec import event_notation

    return event_notation(event)


JUDGE: Judge[Game, Event] = Judge(Event, illegal_reason, _notation)
"""What is legal, and the refusal of what is not, by ``illegal_reason``."""
is_legal = JUDGE.allows


def apply(game: Game, event: Event) -> Game:
    """The position after ``event``. Raises ``IllegalAction`` (quoting the event) if it is not legal."""
    JUDGE.refuse(game, event)
    g = replace(game, news=())
    if isinstance(event, PlayCard):
        g = _play_card(g, event)
    elif isinstance(event, Discard):
        card = g.find_card(event.player, event.card)
        assert card is not None
        g = _remove(g, event.player, card.id)
        g = _say(g, Note("discard", event.player, text_=card.name))
    elif isinstance(event, Give):
        g = _give(g, event)
    elif isinstance(event, PlayPartita):
        g = _play_partita(g, event)
    elif isinstance(event, Declare):
        g = _declare(g, event)
    elif isinstance(event, GoblinRoll):
        return _roll(g, event)  # checks the target after each roll itself
    elif isinstance(event, Modifier):
        p = g.partita
        assert p is not None
        g = replace(g, partita=replace(p, extra=(*p.extra, (event.player, event.steps))))
        g = _say(g, Note("modifier", event.player, event.steps))
    elif isinstance(event, AexEquo):
        assert g.partita is not None
        g = _say(replace(g, partita=replace(g.partita, aex_equo=True)), Note("aex-equo"))
    elif isinstance(event, Tokens):
        g = _add_tokens(g, event.player, event.delta)
        g = _say(g, Note("tokens", event.player, g.piles[event.player] - game.piles[event.player]))
    elif isinstance(event, EndTurn):
        return _end_turn(g)
    elif isinstance(event, TimeUp):
        return _say(replace(g, time_up=True), Note("time-up"))
    else:
        return _finish(_say(g, Note("deck-empty")), "deck")
    # Logorrea-Man leaves at once when nobody has Acquisti; a Divieto played during a Partita may leave
    # nobody to roll
    return _check_target(_close_partita_if_done(_drop_idle_logorrea(g)))


def _drop_idle_logorrea(g: Game) -> Game:
    """«Logorrea-Man viene scartato immediatamente se nessun giocatore ha più Acquisti in gioco»."""
    if any(g.has_acquisti(p) for p in range(len(g.players))):
        return g
    for p, cards in enumerate(g.cards):
        for c in cards:
            if c.is_logorrea:
                g = _say(_remove(g, p, c.id), Note("logorrea-gone", p, text_=c.name))
    return g


def _say(g: Game, note: Note) -> Game:
    return replace(g, news=(*g.news, note))


def _with_cards(g: Game, player: Player, cards: tuple[Card, ...]) -> Game:
    return replace(g, cards=tuple(cards if p == player else c for p, c in enumerate(g.cards)))


def _remove(g: Game, player: Player, card_id: int) -> Game:
    return _with_cards(g, player, tuple(c for c in g.cards[player] if c.id != card_id))


def _add_tokens(g: Game, player: Player, delta: int) -> Game:
    pile = max(0, g.piles[player] + delta)
    return replace(g, piles=tuple(pile if p == player else x for p, x in enumerate(g.piles)))


def _play_card(g: Game, e: PlayCard) -> Game:
    card = Card(g.next_card, e.kind, e.name, e.gp, e.category, e.effect, e.amount)
    g = replace(g, next_card=g.next_card + 1)
    if e.kind in ("amici", "acquisti") and not card.is_logorrea:
        g = replace(g, played=(*g.played, e.kind))
    g, kept = _put(g, e.player, card)
    if not kept:
        return g
    return _say(g, Note("card", e.player, card.gp, text_=f"{card.name} (#{card.id})"))


def _put(g: Game, player: Player, card: Card) -> tuple[Game, bool]:
    """Put ``card`` in front of ``player``: an Amici replaces the one in play (only Logorrea-Man and a
    passed card get there with one in play); a Speciale bonus meeting its malus cancels with it."""
    if card.kind == "amici":
        old = g.amici(player)
        if old is not None:
            g = _say(_remove(g, player, old.id), Note("replaced", player, text_=old.name))
    if card.kind == "speciale" and card.effect in ("bonus", "malus"):
        opposite = "malus" if card.effect == "bonus" else "bonus"
        pair = next(
            (
                c
                for c in g.cards[player]
                if c.kind == "speciale" and c.effect == opposite and c.category == card.category
            ),
            None,
        )
        if pair is not None:
            g = _remove(g, player, pair.id)
            return _say(g, Note("cancel", player, text_=card.category or "")), False
    return _with_cards(g, player, (*g.cards[player], card)), True


def _give(g: Game, e: Give) -> Game:
    card = g.find_card(e.player, e.card)
    assert card is not None
    g = _remove(g, e.player, card.id)
    g = _say(g, Note("give", e.player, other=e.to, text_=card.name))
    return _put(g, e.to, card)[0]


def _play_partita(g: Game, e: PlayPartita) -> Game:
    card = PartitaCard(e.name, e.category, e.payoff)
    excluded = tuple(p for p in g.clockwise_from(g.current)[1:] if g.banned(p, e.category))
    recent = (card, *(c for c in g.recent if c != card))[:RECENT]
    g = replace(
        g,
        played=(*g.played, "partita"),
        partita=Partita(g.current, card, excluded=excluded),
        recent=recent,
    )
    g = _say(g, Note("partita", g.current, text_=f"{e.name} ({e.category}, {e.payoff.notation()})"))
    for p in excluded:
        g = _say(g, Note("excluded", p))
    return _close_partita_if_done(g)


def _declare(g: Game, e: Declare) -> Game:
    p = g.partita
    assert p is not None
    g = replace(g, partita=replace(p, declarations=(*p.declarations, (e.player, e.join))))
    return _say(g, Note("join" if e.join else "pass", e.player))


def _roll(g: Game, e: GoblinRoll) -> Game:
    p = g.partita
    assert p is not None
    steps = g.roll_steps(e.player)
    face = shift(e.face, steps)
    rule: Literal["", "one-king", "proposer-darth"] = ""
    if face == Face.KING and not p.aex_equo and any(r.face == Face.KING for r in p.rolls):
        face, rule = Face.GREEN, "one-king"
    if face == Face.DARTH and e.player == p.proposer:
        face, rule = Face.BLACK, "proposer-darth"
    gp = p.card.payoff.gp(face)
    before = g.piles[e.player]
    g = _add_tokens(g, e.player, gp)
    change = g.piles[e.player] - before
    result = RollResult(e.player, e.face, steps, face, gp, change, rule)
    g = replace(g, partita=replace(p, rolls=(*p.rolls, result)))
    shown = e.face.label if steps == 0 else f"{e.face.label} {steps:+d} = {shift(e.face, steps).label}"
    g = _say(g, Note("roll", e.player, gp, text_=shown))
    if rule:
        g = _say(g, Note(rule, e.player))
    if change != gp:
        g = _say(g, Note("floor", e.player))
    g = _check_target(g)
    return g if g.outcome is not None else _close_partita_if_done(g)


def _close_partita_if_done(g: Game) -> Game:
    p = g.partita
    if p is None or g.next_declarer() is not None or g.next_roller() is not None:
        return g
    return _say(replace(g, partita=None, last=p), Note("partita-over", text_=p.card.name))


def _check_target(g: Game) -> Game:
    if g.target is None or g.outcome is not None:
        return g
    for p in g.clockwise_from(g.current):
        total = g.total(p)
        if total >= g.target:
            # the game ends at once, even in the middle of a Partita: later rolls are not made
            last = g.partita if g.partita is not None else g.last
            g = replace(g, outcome=Outcome("target", (p,)), partita=None, last=last)
            return _say(g, Note("winner", p, total))
    return g


def _end_turn(g: Game) -> Game:
    if g.time_up:
        return _finish(g, "time")
    nxt = (g.current + 1) % len(g.players)
    return _say(replace(g, current=nxt, turn=g.turn + 1, played=()), Note("turn", nxt))


def _finish(g: Game, termination: Termination) -> Game:
    totals = [g.total(p) for p in range(len(g.players))]
    best = max(totals)
    winners = tuple(p for p, t in enumerate(totals) if t == best)
    if g.partita is not None:
        g = replace(g, last=g.partita, partita=None)
    g = replace(g, outcome=Outcome(termination, winners))
    if len(winners) == 1:
        return _say(g, Note("winner", winners[0], best))
    return _say(g, Note("tie", value=best, text_=", ".join(g.players[p] for p in winners)))
