"""Dadoteck: the pure rules core (rulebook ``003_244a4805fe21d406.txt``).

Players are indices into ``Game.players``. A ``Game`` is an immutable position; events are explicit
value objects; ``apply(game, event)`` returns the next position and never changes its argument. The
dice are rolled at the table: every roll reaches the core as a ``Roll`` event.

Phases: ``placement`` (every pawn rolls a free square, in any order), ``initiative`` (every player
rolls a d20, then the players of each group still tied re-roll among themselves, separate ties in any
order, nested ties again among themselves), ``movement`` (one roll per
pawn in initiative order), ``square`` (the mover picks n-1, n or n+1 after a 13 or 17), ``victim`` (the
mover picks whom the Assassination eliminates) and ``over``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Literal, TypeAlias

from companion.errors import InvalidInput
from companion.messages import Message, word
from companion.rules import Judge, Legal, player_index

Square: TypeAlias = int
"""A square of the board, 1 to 20."""
Player: TypeAlias = int
"""A player's index in ``Game.players``."""

SQUARES: tuple[Square, ...] = tuple(range(1, 21))
SUICIDE: Square = 1
"""Il Suicidio: whoever lands here is eliminated and squashes nobody."""
ASSASSINATION: Square = 20
"""L'Assassinio: squash the occupant, then eliminate another player of the mover's choice."""
COWARDS: tuple[Square, ...] = (13, 17)
"""I Pusillanimi: the mover settles on n-1, n or n+1."""
MIN_DIE = 2
"""The fewest faces a speed-up die may have (a die with one face decides nothing)."""
MAX_DIE = 20
"""The most faces a die may have: the game starts with the d20 and the speed-up dice only get smaller."""
DIE_SIZES: tuple[int, ...] = tuple(range(MIN_DIE, MAX_DIE + 1))
"""Every die the optional speed-up rules may switch to (always to a smaller one): any number of faces
from ``MIN_DIE`` to ``MAX_DIE``, a d3, d7 or d16 as well as the usual d4, d6, d8, d10 and d12."""
MAX_PLAYERS = 20

Phase = Literal["placement", "initiative", "movement", "square", "victim", "over"]
PHASES: tuple[Phase, ...] = ("placement", "initiative", "movement", "square", "victim", "over")
Cause = Literal["squashed", "suicide", "assassinated"]
CAUSES: tuple[Cause, ...] = ("squashed", "suicide", "assassinated")
Termination = Literal["last-pawn", "declined", "no-survivor"]
TERMINATIONS: tuple[Termination, ...] = ("last-pawn", "declined", "no-survivor")


# --------------------------------------------------------------------------------------------- events


@dataclass(frozen=True)
class Roll:
    """A d20 (or speed-up die) roll by ``player``: placement, initiative or movement, by phase."""

    player: Player
    value: int
    type: ClassVar[str] = "roll"

    def notation(self) -> str:
        return f"roll {self.player} {self.value}"


@dataclass(frozen=True)
class ChooseSquare:
    """After a 13 or 17: where the mover settles (n-1, n or n+1)."""

    square: Square
    type: ClassVar[str] = "square"

    def notation(self) -> str:
        return f"square {self.square}"


@dataclass(frozen=True)
class ChooseVictim:
    """After a 20: the other player the Assassination eliminates."""

    player: Player
    type: ClassVar[str] = "victim"

    def notation(self) -> str:
        return f"victim {self.player}"


@dataclass(frozen=True)
class Decline:
    """The last pawn, still to move, declines to roll and wins."""

    type: ClassVar[str] = "decline"

    def notation(self) -> str:
        return "decline"


@dataclass(frozen=True)
class SetInitiativeDie:
    """Speed-up rule: a smaller initiative die from this initiative phase on."""

    sides: int
    type: ClassVar[str] = "initiative-die"

    def notation(self) -> str:
        return f"initiative-die {self.sides}"


@dataclass(frozen=True)
class SetMovementDie:
    """Speed-up rule: a smaller movement die (a smaller board) from this turn on."""

    sides: int
    type: ClassVar[str] = "movement-die"

    def notation(self) -> str:
        return f"movement-die {self.sides}"


Event: TypeAlias = Roll | ChooseSquare | ChooseVictim | Decline | SetInitiativeDie | SetMovementDie
EVENT_TYPES: tuple[str, ...] = ("roll", "square", "victim", "decline", "initiative-die", "movement-die")


def parse_event(text: str) -> Event:
    """An event from its notation, e.g. ``"roll 2 12"``, ``"square 14"``, ``"decline"``."""
    words = text.split()
    if not words:
        raise InvalidInput(f"empty event {text!r}")
    kind, args = words[0], words[1:]
    wanted = {"roll": 2, "square": 1, "victim": 1, "decline": 0, "initiative-die": 1, "movement-die": 1}
    if kind not in wanted:
        raise InvalidInput(f"unknown event {text!r}; one of: {', '.join(EVENT_TYPES)}")
    if len(args) != wanted[kind] or not all(a.lstrip("-").isdigit() for a in args):
        raise InvalidInput(f"bad event {text!r}: {kind!r} takes {wanted[kind]} whole number(s)")
    n = [int(a) for a in args]
    if kind == "roll":
        return Roll(n[0], n[1])
    if kind == "square":
        return ChooseSquare(n[0])
    if kind == "victim":
        return ChooseVictim(n[0])
    if kind == "initiative-die":
        return SetInitiativeDie(n[0])
    if kind == "movement-die":
        return SetMovementDie(n[0])
    return Decline()


# ------------------------------------------------------------------------------------------- position


@dataclass(frozen=True)
class Elimination:
    """A pawn out of the game: who, in which turn, how, by whom, and from which square."""

    player: Player
    turn: int
    cause: Cause
    by: Player | None = None
    square: Square | None = None


@dataclass(frozen=True)
class Outcome:
    """How the game ended: ``winner`` is None when no pawn survived."""

    termination: Termination
    winner: Player | None


@dataclass(frozen=True)
class Note:
    """One thing the last event did, for the log and the page (``text`` renders it in English)."""

    what: str
    player: Player | None = None
    value: int | None = None
    other: Player | None = None

    def text(self, names: tuple[str, ...]) -> str:
        p = names[self.player] if self.player is not None else "-"
        o = names[self.other] if self.other is not None else "-"
        v = self.value
        return {
            "placed": f"{p} is placed on square {v}",
            "occupied": f"square {v} is taken: {p} rolls again",
            "initiative": f"{p} rolls {v} for initiative",
            "tie": f"tie on {v}: these players roll again",
            "order": "initiative order fixed",
            "moved": f"{p} moves to square {v}",
            "stayed": f"{p} rolled its own square {v} and stays",
            "squashed": f"{p} squashes {o} on square {v}",
            "suicide": f"{p} lands on Suicide (1) and is out",
            "choose-square": f"{p} rolled {v}: choose square {(v or 0) - 1}, {v} or {(v or 0) + 1}",
            "choose-square-edge": f"{p} rolled {v}: choose square {(v or 0) - 1} or {v} (the board ends)",
            "choose-victim": f"{p} is on Assassination (20): choose a victim",
            "no-victim": f"{p} is on Assassination (20) with nobody else left to eliminate",
            "assassinated": f"{p} eliminates {o}",
            "declined": f"{p}, the last pawn, declines to roll and wins",
            "initiative-die": f"initiative die is now a d{v}",
            "movement-die": f"movement die is now a d{v}",
            "turn": f"turn {v} begins: roll for initiative",
            "winner": f"{p} wins",
            "no-winner": "no pawn is left: no winner",
        }.get(self.what, self.what)


@dataclass(frozen=True)
class Game:
    """A Dadoteck position. Build a new one with ``new_game``; advance it with ``apply``."""

    players: tuple[str, ...]
    squares: tuple[Square | None, ...]
    """Each player's square; None before placement and once eliminated."""
    phase: Phase = "placement"
    turn: int = 0
    """0 during placement, then 1, 2, ..."""
    speedup: bool = False
    """Whether the optional speed-up rules (smaller dice) are in use."""
    initiative_die: int = 20
    movement_die: int = 20
    eliminations: tuple[Elimination, ...] = ()
    groups: tuple[tuple[Player, ...], ...] = ()
    """Initiative: the players in order, groups of more than one still tied."""
    rolls: tuple[tuple[Player, int], ...] = ()
    """Initiative: the rolls so far of the groups now rolling (each tied group keeps its rolls here until
    all its players have rolled; separate ties roll in any order)."""
    rounds: tuple[tuple[tuple[Player, int], ...], ...] = ()
    """Initiative: every complete round of rolls of this turn (the first, then the tie-breaks)."""
    order: tuple[Player, ...] = ()
    """Movement: this turn's initiative order."""
    cursor: int = 0
    """Movement: the mover's index in ``order``."""
    pending: Square | None = None
    """The special square (13, 17, 20) whose choice is awaited."""
    news: tuple[Note, ...] = ()
    """What the last event did."""
    outcome: Outcome | None = None

    # ---- views
    @property
    def alive(self) -> tuple[Player, ...]:
        out = {e.player for e in self.eliminations}
        return tuple(p for p in range(len(self.players)) if p not in out)

    def is_alive(self, player: Player) -> bool:
        return all(e.player != player for e in self.eliminations)

    def occupant(self, square: Square) -> Player | None:
        for p, s in enumerate(self.squares):
            if s == square:
                return p
        return None

    @property
    def mover(self) -> Player | None:
        """The player whose movement (or choice) is awaited."""
        if self.phase in ("movement", "square", "victim"):
            return self.order[self.cursor]
        return None

    def special(self, square: Square) -> str | None:
        """The special square's name if it counts with the current movement die."""
        if square == SUICIDE:
            return "suicide"
        if square > self.movement_die:
            return None
        if square == ASSASSINATION:
            return "assassination"
        if square in COWARDS:
            return "cowards"
        return None

    @property
    def tied_groups(self) -> tuple[tuple[Player, ...], ...]:
        """Initiative: every group still tied (highest first); each rolls, in any order."""
        return tuple(group for group in self.groups if len(group) > 1)

    @property
    def rolling_group(self) -> tuple[Player, ...]:
        """Initiative: the first group still tied (see ``tied_groups`` for all of them)."""
        return next(iter(self.tied_groups), ())

    @property
    def legal(self) -> LegalEvents:
        return LegalEvents(self)

    def can_decline(self) -> bool:
        return self.phase == "movement" and len(self.alive) == 1

    def square_options(self) -> tuple[Square, ...]:
        """After a 13 or 17: n-1, n and n+1, those still on the board of the movement die."""
        if self.phase != "square" or self.pending is None:
            return ()
        return tuple(s for s in (self.pending - 1, self.pending, self.pending + 1) if s <= self.movement_die)

    def victim_options(self) -> tuple[Player, ...]:
        if self.phase != "victim":
            return ()
        return tuple(p for p in self.alive if p != self.mover)

    def awaited_rollers(self) -> tuple[Player, ...]:
        """Who may roll now (placement: every pawn not placed yet)."""
        if self.phase == "placement":
            return tuple(p for p, s in enumerate(self.squares) if s is None)
        if self.phase == "initiative":
            done = {p for p, _ in self.rolls}
            return tuple(p for group in self.tied_groups for p in group if p not in done)
        if self.phase == "movement":
            return (self.order[self.cursor],)
        return ()

    def die(self) -> int:
        """Faces of the die the awaited roll uses."""
        if self.phase == "initiative":
            return self.initiative_die
        if self.phase == "movement":
            return self.movement_die
        return 20

    def can_change_dice(self) -> bool:
        return self.speedup and self.phase == "initiative" and not self.rolls and not self.rounds

    # ---- JSON
    def to_json(self) -> dict[str, Any]:
        return {
            "players": list(self.players),
            "squares": list(self.squares),
            "phase": self.phase,
            "turn": self.turn,
            "speedup": self.speedup,
            "initiative_die": self.initiative_die,
            "movement_die": self.movement_die,
            "eliminations": [
                {"player": e.player, "turn": e.turn, "cause": e.cause, "by": e.by, "square": e.square}
                for e in self.eliminations
            ],
            "groups": [list(g) for g in self.groups],
            "rolls": [[p, v] for p, v in self.rolls],
            "rounds": [[[p, v] for p, v in r] for r in self.rounds],
            "order": list(self.order),
            "cursor": self.cursor,
            "pending": self.pending,
            "news": [
                {"what": n.what, "player": n.player, "value": n.value, "other": n.other} for n in self.news
            ],
            "outcome": None
            if self.outcome is None
            else {"termination": self.outcome.termination, "winner": self.outcome.winner},
        }

    @classmethod
    def from_json(cls, data: Any) -> Game:
        """A position from ``to_json``'s shape; raises ``InvalidInput`` quoting what is wrong."""
        return _game_from_json(data)

    def __repr__(self) -> str:
        return f"Game.from_json({self.to_json()!r})"


def candidates(g: Game) -> Iterator[Event]:
    """Every event that might be legal now (``LegalEvents`` keeps the legal ones)."""
    if g.phase in ("placement", "initiative", "movement"):
        for p in g.awaited_rollers():
            for v in range(1, g.die() + 1):
                yield Roll(p, v)
    for s in g.square_options():
        yield ChooseSquare(s)
    for p in g.victim_options():
        yield ChooseVictim(p)
    yield Decline()
    if g.can_change_dice():
        for sides in range(g.initiative_die - 1, MIN_DIE - 1, -1):
            yield SetInitiativeDie(sides)
        for sides in range(g.movement_die - 1, MIN_DIE - 1, -1):
            yield SetMovementDie(sides)


class LegalEvents(Legal[Game, Event]):
    """The events legal now, generated lazily: ``for e in legal``, ``e in legal``, ``len(legal)``."""

    def __init__(self, game: Game) -> None:
        super().__init__(game, candidates, is_legal)
        self.game = game

    def __repr__(self) -> str:
        return f"<LegalEvents {', '.join(e.notation() for e in self)}>"


def new_game(players: tuple[str, ...] | list[str], *, speedup: bool = False) -> Game:
    """A game in the placement phase."""
    names = tuple(players)
    if not 2 <= len(names) <= MAX_PLAYERS:
        text = f"Dadoteck needs 2 to {MAX_PLAYERS} players, got {len(names)}: {list(names)!r}"
        raise InvalidInput(Message("error.input.players", text,
                                   {"game": "Dadoteck", "low": 2, "high": MAX_PLAYERS, "n": len(names)}))
    for n in names:
        if not isinstance(n, str) or not n.strip():
            raise InvalidInput(f"a player's name must be a non-empty string, got {n!r}")
    if len(set(names)) != len(names):
        raise InvalidInput(f"player names must differ: {list(names)!r}")
    return Game(players=names, squares=(None,) * len(names), speedup=speedup)


# ---------------------------------------------------------------------------------------------- rules


def illegal_reason(game: Game, event: Event) -> str | None:
    """Why ``event`` is not legal in ``game`` (None when it is)."""
    g = game
    n = len(g.players)
    if g.phase == "over":
        return "the game is over"
    if isinstance(event, Roll):
        if not 0 <= event.player < n:
            return f"no player {event.player}"
        name = g.players[event.player]
        if g.phase in ("square", "victim"):
            return f"a choice is awaited ({'square' if g.phase == 'square' else 'victim'}), not a roll"
        if not 1 <= event.value <= g.die():
            return f"{event.value} is not a face of the d{g.die()}"
        if event.player not in g.awaited_rollers():
            if g.phase == "movement":
                return f"it is {g.players[g.order[g.cursor]]}'s move, not {name}'s"
            if not g.is_alive(event.player):
                return f"{name} is out of the game"
            return f"{name} has no roll to make now"
        return None
    if isinstance(event, ChooseSquare):
        if g.phase != "square":
            return "no square to choose now"
        if event.square not in g.square_options():
            return f"square {event.square} is not one of {list(g.square_options())}"
        return None
    if isinstance(event, ChooseVictim):
        if g.phase != "victim":
            return "no victim to choose now"
        if event.player == g.mover:
            return "the victim cannot be the mover"
        if event.player not in g.victim_options():
            return f"player {event.player} is not in play"
        return None
    if isinstance(event, Decline):
        if not g.can_decline():
            return "only the last pawn, when it is its move, may decline to roll"
        return None
    # the speed-up dice
    if not g.speedup:
        return "the speed-up rules are not in use in this game"
    if not g.can_change_dice():
        return "dice change only at the start of an initiative phase, before anyone rolls"
    if not MIN_DIE <= event.sides <= MAX_DIE:
        return f"d{event.sides} is not a die of the speed-up rules: {MIN_DIE} to {MAX_DIE} faces"
    current = g.initiative_die if isinstance(event, SetInitiativeDie) else g.movement_die
    if event.sides >= current:
        return f"the die only gets smaller: d{event.sides} is not smaller than the d{current} in use"
    if isinstance(event, SetInitiativeDie) and event.sides < len(g.alive):
        return f"a d{event.sides} has fewer faces than the {len(g.alive)} players in play"
    return None


JUDGE: Judge[Game, Event] = Judge(Event, illegal_reason, lambda e: e.notation())
"""What is legal, and the refusal of what is not, by ``illegal_reason``."""
is_legal = JUDGE.allows


def apply(game: Game, event: Event) -> Game:
    """The position after ``event``. Raises ``IllegalAction`` (quoting the event) if it is not legal."""
    JUDGE.refuse(game, event)
    g = replace(game, news=())
    if isinstance(event, Roll):
        if g.phase == "placement":
            return _place(g, event)
        if g.phase == "initiative":
            return _initiative(g, event)
        return _move(g, event.value)
    if isinstance(event, ChooseSquare):
        g = replace(g, phase="movement", pending=None)
        return _settle(g, event.square)
    if isinstance(event, ChooseVictim):
        mover = g.order[g.cursor]
        g = _eliminate(g, event.player, "assassinated", mover)
        g = replace(
            g, phase="movement", pending=None, news=(*g.news, Note("assassinated", mover, None, event.player))
        )
        return _next_mover(g)
    if isinstance(event, Decline):
        mover = g.order[g.cursor]
        return replace(g, phase="over", outcome=Outcome("declined", mover), news=(Note("declined", mover),))
    if isinstance(event, SetInitiativeDie):
        return replace(g, initiative_die=event.sides, news=(Note("initiative-die", value=event.sides),))
    return replace(g, movement_die=event.sides, news=(Note("movement-die", value=event.sides),))


def _place(g: Game, roll: Roll) -> Game:
    if g.occupant(roll.value) is not None:
        return replace(g, news=(Note("occupied", roll.player, roll.value),))
    squares = list(g.squares)
    squares[roll.player] = roll.value
    g = replace(g, squares=tuple(squares), news=(Note("placed", roll.player, roll.value),))
    if any(s is None for s in g.squares):
        return g
    return _new_turn(g)


def _new_turn(g: Game) -> Game:
    turn = g.turn + 1
    return replace(
        g,
        phase="initiative",
        turn=turn,
        groups=(g.alive,),
        rolls=(),
        rounds=(),
        order=(),
        cursor=0,
        news=(*g.news, Note("turn", value=turn)),
    )


def _initiative(g: Game, roll: Roll) -> Game:
    rolls = (*g.rolls, (roll.player, roll.value))
    news: tuple[Note, ...] = (Note("initiative", roll.player, roll.value),)
    group = next(x for x in g.tied_groups if roll.player in x)
    mine = tuple((p, v) for p, v in rolls if p in group)
    if len(mine) < len(group):
        return replace(g, rolls=rolls, news=news)
    # the whole group has rolled: split it by value, highest first, keeping any new ties together;
    # the rolls of other ties still under way stay
    rolls = tuple((p, v) for p, v in rolls if p not in group)
    values = dict(mine)
    split = tuple(
        tuple(p for p in group if values[p] == v) for v in sorted(set(values.values()), reverse=True)
    )
    news += tuple(Note("tie", value=values[sub[0]]) for sub in split if len(sub) > 1)
    at = g.groups.index(group)
    groups = (*g.groups[:at], *split, *g.groups[at + 1 :])
    g = replace(g, groups=groups, rolls=rolls, rounds=(*g.rounds, mine), news=news)
    if any(len(x) > 1 for x in groups):
        return g
    return replace(
        g,
        phase="movement",
        order=tuple(x[0] for x in groups),
        cursor=0,
        news=(*g.news, Note("order")),
    )


def _move(g: Game, value: int) -> Game:
    mover = g.order[g.cursor]
    if g.squares[mover] == value:
        return _next_mover(replace(g, news=(Note("stayed", mover, value),)))
    special = g.special(value)
    if special == "suicide":
        g = _eliminate(g, mover, "suicide", None)
        return _next_mover(replace(g, news=(Note("suicide", mover, value),)))
    if special == "cowards":
        what = "choose-square" if value + 1 <= g.movement_die else "choose-square-edge"
        return replace(g, phase="square", pending=value, news=(Note(what, mover, value),))
    g = _settle(g, value)
    return g


def _settle(g: Game, square: Square) -> Game:
    """The mover ends on ``square``, squashing its occupant; on 20 the Assassination follows."""
    mover = g.order[g.cursor]
    if g.squares[mover] == square:
        return _next_mover(replace(g, news=(*g.news, Note("stayed", mover, square))))
    occupant = g.occupant(square)
    if occupant is not None:
        g = _eliminate(g, occupant, "squashed", mover)
        g = replace(g, news=(*g.news, Note("squashed", mover, square, occupant)))
    squares = list(g.squares)
    squares[mover] = square
    g = replace(g, squares=tuple(squares), news=(*g.news, Note("moved", mover, square)))
    if g.special(square) == "assassination":
        if any(p != mover for p in g.alive):
            return replace(g, phase="victim", pending=square, news=(*g.news, Note("choose-victim", mover)))
        g = replace(g, news=(*g.news, Note("no-victim", mover)))
    return _next_mover(g)


def _eliminate(g: Game, player: Player, cause: Cause, by: Player | None) -> Game:
    squares = list(g.squares)
    square = squares[player]
    squares[player] = None
    return replace(
        g,
        squares=tuple(squares),
        eliminations=(*g.eliminations, Elimination(player, g.turn, cause, by, square)),
    )


def _next_mover(g: Game) -> Game:
    """Pass the move to the next living pawn of the order; at the end of the turn, check for the end."""
    cursor = g.cursor + 1
    while cursor < len(g.order) and not g.is_alive(g.order[cursor]):
        cursor += 1
    if cursor < len(g.order):
        return replace(g, cursor=cursor)
    alive = g.alive
    if len(alive) == 1:
        return replace(
            g, phase="over", outcome=Outcome("last-pawn", alive[0]), news=(*g.news, Note("winner", alive[0]))
        )
    if not alive:
        return replace(
            g, phase="over", outcome=Outcome("no-survivor", None), news=(*g.news, Note("no-winner"))
        )
    return _new_turn(replace(g, cursor=cursor))


# ------------------------------------------------------------------------------------------------ JSON


def event_to_json(event: Event) -> dict[str, Any]:
    if isinstance(event, Roll):
        return {"type": "roll", "player": event.player, "value": event.value}
    if isinstance(event, ChooseSquare):
        return {"type": "square", "square": event.square}
    if isinstance(event, ChooseVictim):
        return {"type": "victim", "player": event.player}
    if isinstance(event, Decline):
        return {"type": "decline"}
    return {"type": event.type, "sides": event.sides}


def _needs(data: Mapping[str, Any], key: str, what: str) -> InvalidInput:
    """``what`` (an event) lacks the field ``key``."""
    return InvalidInput(Message("error.input.event_needs", f"{what} needs {key!r}: {dict(data)!r}",
                                {"event": data.get("type"), "field": word("field", key)}))


def _int(data: Mapping[str, Any], key: str, what: str) -> int:
    if key not in data:
        raise _needs(data, key, what)
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int):
        text = f"{what}: {key!r} must be a whole number, got {value!r}"
        params = {"event": data.get("type"), "field": word("field", key), "value": repr(value)}
        raise InvalidInput(Message("error.input.event_int", text, params))
    return value


def event_from_json(data: Any, players: tuple[str, ...]) -> Event:
    """An event from JSON (``{"type": "roll", "player": "Anna", "value": 12}``); players by index or name."""
    if isinstance(data, str):
        return parse_event(data)
    if not isinstance(data, Mapping) or not isinstance(data.get("type"), str):
        raise InvalidInput(f"an event is an object with a 'type', got {data!r}")
    kind = data["type"]
    what = f"event {kind!r}"
    if kind == "roll":
        if "player" not in data:
            raise _needs(data, "player", what)
        return Roll(player_index(players, data["player"]), _int(data, "value", what))
    if kind == "square":
        return ChooseSquare(_int(data, "square", what))
    if kind == "victim":
        if "player" not in data:
            raise _needs(data, "player", what)
        return ChooseVictim(player_index(players, data["player"]))
    if kind == "decline":
        return Decline()
    if kind == "initiative-die":
        return SetInitiativeDie(_int(data, "sides", what))
    if kind == "movement-die":
        return SetMovementDie(_int(data, "sides", what))
    text = f"unknown event type {kind!r}; one of: {', '.join(EVENT_TYPES)}"
    raise InvalidInput(Message("error.input.unknown_event", text, {"value": repr(kind)}))


def _opt_int(value: Any, what: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"{what} must be a whole number or null, got {value!r}")
    return value


def _req_int(value: Any, what: str) -> int:
    result = _opt_int(value, what)
    if result is None:
        raise InvalidInput(f"{what} must be a whole number, got null")
    return result


def _pairs(value: Any, what: str) -> tuple[tuple[int, int], ...]:
    if not isinstance(value, list):
        raise InvalidInput(f"{what} must be a list of [player, value] pairs, got {value!r}")
    out = []
    for item in value:
        if not isinstance(item, list) or len(item) != 2:
            raise InvalidInput(f"{what}: each entry is [player, value], got {item!r}")
        out.append((_req_int(item[0], what), _req_int(item[1], what)))
    return tuple(out)


def _game_from_json(data: Any) -> Game:
    if not isinstance(data, Mapping):
        raise InvalidInput(f"a Dadoteck state is a JSON object, got {data!r}")
    known = set(Game.__dataclass_fields__)
    unknown = set(data) - known
    if unknown:
        raise InvalidInput(f"unknown state field(s) {sorted(unknown)!r}")
    if "players" not in data or "squares" not in data:
        raise InvalidInput("a Dadoteck state needs 'players' and 'squares'")
    base = new_game(list(data["players"]) if isinstance(data["players"], list) else data["players"])
    n = len(base.players)
    squares_raw = data["squares"]
    if not isinstance(squares_raw, list) or len(squares_raw) != n:
        raise InvalidInput(f"'squares' must list one square (or null) per player, got {squares_raw!r}")
    squares = tuple(_opt_int(s, "a square") for s in squares_raw)
    taken = [s for s in squares if s is not None]
    if any(not 1 <= s <= 20 for s in taken) or len(set(taken)) != len(taken):
        raise InvalidInput(f"'squares' must be distinct squares 1 to 20: {squares_raw!r}")
    phase = data.get("phase", "placement")
    if phase not in PHASES:
        raise InvalidInput(f"unknown phase {phase!r}; one of: {', '.join(PHASES)}")
    elims = []
    for e in data.get("eliminations", []):
        if not isinstance(e, Mapping) or e.get("cause") not in CAUSES:
            raise InvalidInput(f"bad elimination {e!r}")
        elims.append(
            Elimination(
                _req_int(e.get("player"), "elimination player"),
                _req_int(e.get("turn"), "elimination turn"),
                e["cause"],
                _opt_int(e.get("by"), "elimination by"),
                _opt_int(e.get("square"), "elimination square"),
            )
        )
    news = []
    for item in data.get("news", []):
        if not isinstance(item, Mapping) or not isinstance(item.get("what"), str):
            raise InvalidInput(f"bad news entry {item!r}")
        news.append(
            Note(
                item["what"],
                _opt_int(item.get("player"), "news player"),
                _opt_int(item.get("value"), "news value"),
                _opt_int(item.get("other"), "news other"),
            )
        )
    outcome_raw = data.get("outcome")
    outcome = None
    if outcome_raw is not None:
        if not isinstance(outcome_raw, Mapping) or outcome_raw.get("termination") not in TERMINATIONS:
            raise InvalidInput(f"bad outcome {outcome_raw!r}")
        outcome = Outcome(outcome_raw["termination"], _opt_int(outcome_raw.get("winner"), "winner"))
    groups_raw = data.get("groups", [])
    if not isinstance(groups_raw, list) or not all(isinstance(x, list) for x in groups_raw):
        raise InvalidInput(f"'groups' must be a list of lists of players, got {groups_raw!r}")
    rounds_raw = data.get("rounds", [])
    if not isinstance(rounds_raw, list):
        raise InvalidInput(f"'rounds' must be a list, got {rounds_raw!r}")
    order_raw = data.get("order", [])
    if not isinstance(order_raw, list):
        raise InvalidInput(f"'order' must be a list of players, got {order_raw!r}")
    speedup = data.get("speedup", False)
    if not isinstance(speedup, bool):
        raise InvalidInput(f"'speedup' must be true or false, got {speedup!r}")
    game = Game(
        players=base.players,
        squares=squares,
        phase=phase,
        turn=_req_int(data.get("turn", 0), "'turn'"),
        speedup=speedup,
        initiative_die=_req_int(data.get("initiative_die", 20), "'initiative_die'"),
        movement_die=_req_int(data.get("movement_die", 20), "'movement_die'"),
        eliminations=tuple(elims),
        groups=tuple(tuple(_req_int(p, "a group's player") for p in x) for x in groups_raw),
        rolls=_pairs(data.get("rolls", []), "'rolls'"),
        rounds=tuple(_pairs(r, "'rounds'") for r in rounds_raw),
        order=tuple(_req_int(p, "'order'") for p in order_raw),
        cursor=_req_int(data.get("cursor", 0), "'cursor'"),
        pending=_opt_int(data.get("pending"), "'pending'"),
        news=tuple(news),
        outcome=outcome,
    )
    validate(game)
    return game


def validate(game: Game) -> None:
    """Raise ``InvalidInput`` if ``game`` is not a position the rules can reach."""
    g = game
    n = len(g.players)
    players = set(range(n))
    if not (MIN_DIE <= g.initiative_die <= MAX_DIE and MIN_DIE <= g.movement_die <= MAX_DIE):
        raise InvalidInput(
            f"dice have {MIN_DIE} to {MAX_DIE} faces: d{g.initiative_die}, d{g.movement_die}"
        )
    out = [e.player for e in g.eliminations]
    if len(set(out)) != len(out) or not set(out) <= players:
        raise InvalidInput(f"eliminations name unknown or repeated players: {out!r}")
    for p in out:
        if g.squares[p] is not None:
            raise InvalidInput(f"eliminated player {g.players[p]!r} still has a square")
    if g.phase != "placement":
        for p in g.alive:
            if g.squares[p] is None:
                raise InvalidInput(f"player {g.players[p]!r} in play has no square in phase {g.phase!r}")
    if g.phase == "initiative":
        flat = [p for grp in g.groups for p in grp]
        if sorted(flat) != list(g.alive) or not g.tied_groups:
            raise InvalidInput(f"initiative groups {g.groups!r} must split the players in play")
        rollers = [p for p, _ in g.rolls]
        tied = {p for group in g.tied_groups for p in group}
        if len(set(rollers)) != len(rollers) or not set(rollers) <= tied:
            raise InvalidInput(f"initiative rolls {g.rolls!r} must be one per player of a tie still rolling")
        if any(set(group) <= set(rollers) for group in g.tied_groups):
            raise InvalidInput(f"initiative rolls {g.rolls!r} complete a tie that was not split")
    if g.phase in ("movement", "square", "victim"):
        if not 0 <= g.cursor < len(g.order) or not set(g.order) <= players:
            raise InvalidInput(f"movement order {list(g.order)!r} / cursor {g.cursor} do not fit")
        if not g.is_alive(g.order[g.cursor]):
            raise InvalidInput("the mover is out of the game")
    if (g.phase in ("square", "victim")) != (g.pending is not None):
        raise InvalidInput(f"'pending' {g.pending!r} does not fit phase {g.phase!r}")
    if (g.phase == "over") != (g.outcome is not None):
        raise InvalidInput(f"'outcome' {g.outcome!r} does not fit phase {g.phase!r}")
