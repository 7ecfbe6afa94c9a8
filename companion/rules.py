"""One shape for the five games' rules: the ``Rules`` protocol, its legal view, outcome and notation.

Modelled on python-chess's ``Board`` and ``LegalMoveGenerator``, with immutable states::

    rules = find_rules("dadoteck")
    state = rules.new_game({"players": ["Anna", "Bruno"]})
    legal = rules.legal(state)                 # lazy: for e in legal, e in legal, len(legal), bool(legal)
    event = rules.parse_event(state, "roll 0 12")
    state = rules.apply(state, event)          # a new state; raises IllegalAction if event not in legal
    rules.outcome(state)                       # None, or Outcome(termination, winners)
    rules.awaiting(state)                      # the players the game waits on now
    rules.event_to_json(event)                 # {"type": "roll", ...}; event_from_json(state, data) back
    rules.event_notation(event)                # "roll 0 12"; parse_event(state, text) back

``legal(state)`` is the one place that decides what may be played: ``event in legal`` is a direct
check (it never scans the list), iteration lists the events the table can pick from. A few events
carry what the players type or measure (a GobCon card's name and GP, a skirmish shot's distances);
those are checked by ``in`` and ``apply`` but not listed, the way a chess GUI does not list every
promotion it accepts. Errors are the companion's one tree (``companion.errors``): ``InvalidInput``
for malformed input, ``IllegalAction`` for a well-formed event the rules forbid now, both
``ValueError``.

Each game's package has a ``rules`` module with ``RULES``, an object of this shape over its core; the
protocol conformance test (``tests/test_rules.py``) runs the same checks over all five.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar, cast, runtime_checkable

from companion.errors import IllegalAction, InvalidInput

JSON = Any
"""A JSON-serialisable value."""

S = TypeVar("S")
E = TypeVar("E")
E_co = TypeVar("E_co", covariant=True)

MAX_NOTATION = 4000
"""The longest event notation read (a bound on what a user may send, not a rule)."""


@dataclass(frozen=True)
class Outcome:
    """How a game (or, for Button Goblin, a round) ended: the winners, none for nobody, several for a tie.

    ``termination`` is the game's own word for why it ended (``"last-pawn"``, ``"target"``, ``"rout"``...).
    """

    termination: str
    winners: tuple[int, ...] = ()

    @property
    def winner(self) -> int | None:
        """The one winner, or None (nobody, or a tie)."""
        return self.winners[0] if len(self.winners) == 1 else None


@runtime_checkable
class LegalView(Protocol[E_co]):
    """What ``Rules.legal`` returns: a lazy view of the legal events of one state."""

    def __iter__(self) -> Iterator[E_co]: ...

    def __contains__(self, event: object) -> bool: ...

    def __len__(self) -> int: ...

    def __bool__(self) -> bool: ...

    def count(self) -> int: ...


class Legal(Generic[S, E]):
    """A ``LegalView`` from a generator of candidates and a legality check.

    ``events(state)`` yields candidates (possibly illegal ones: only those ``check`` accepts are
    listed); ``check(state, event)`` decides ``event in legal`` directly. ``exact``: ``events`` yields
    only legal events (a move generator), so listing does not check each again.
    """

    def __init__(
        self, state: S, events: Callable[[S], Iterable[E]], check: Callable[[S, object], bool],
        exact: bool = False,
    ) -> None:
        self.state = state
        self._events = events
        self._check = check
        self._exact = exact

    def __iter__(self) -> Iterator[E]:
        if self._exact:
            return iter(self._events(self.state))
        return (event for event in self._events(self.state) if self._check(self.state, event))

    def __contains__(self, event: object) -> bool:
        return self._check(self.state, event)

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def count(self) -> int:
        return len(self)

    def __bool__(self) -> bool:
        return any(True for _ in self)

    def __repr__(self) -> str:
        return f"<Legal {len(self)} event(s)>"


@runtime_checkable
class Rules(Protocol[S, E]):
    """The rules of one game over its immutable state ``S`` and events ``E``."""

    @property
    def name(self) -> str:
        """The registry name (``"dadoteck"``), as ``companion.games.find_game`` knows it."""
        ...

    @property
    def title(self) -> str: ...

    def new_game(self, setup: Mapping[str, JSON]) -> S:
        """A new game from the setup JSON (the shape the game's table flow takes)."""
        ...

    def legal(self, state: S) -> LegalView[E]:
        """The events legal now, lazily."""
        ...

    def apply(self, state: S, event: E) -> S:
        """The state after ``event``; ``IllegalAction`` (quoting it) when it is not in ``legal(state)``."""
        ...

    def outcome(self, state: S) -> Outcome | None:
        """How the game ended, or None while it goes on."""
        ...

    def awaiting(self, state: S) -> tuple[int, ...]:
        """The players (indices) the game waits on now; empty once it is over."""
        ...

    def event_to_json(self, event: E) -> dict[str, JSON]:
        """The event as a JSON object with a ``"type"``."""
        ...

    def event_from_json(self, state: S, data: JSON) -> E:
        """An event from JSON (players by index or name where the game allows); ``InvalidInput`` if bad."""
        ...

    def event_notation(self, event: E) -> str:
        """The event as one short line of text."""
        ...

    def parse_event(self, state: S, text: str) -> E:
        """An event from its notation; ``InvalidInput`` quoting the text if bad."""
        ...

    def state_to_json(self, state: S) -> JSON:
        """The state as JSON (the shape the game's command line prints)."""
        ...

    def state_from_json(self, data: JSON) -> S:
        """A state from JSON; ``InvalidInput`` if malformed or not reachable by the rules."""
        ...


# ------------------------------------------------------------------------------------ the key=value notation

_KEY = re.compile(r"\s*([A-Za-z_][\w-]*)=")


def json_notation(data: Mapping[str, JSON]) -> str:
    """A JSON event as one line: its type, then ``key=value`` with each value in compact JSON.

    ``{"type": "declare", "player": 1, "join": true}`` -> ``declare player=1 join=true``.
    """
    words = [str(data["type"])]
    for key, value in data.items():
        if key != "type":
            words.append(f"{key}={json.dumps(value, ensure_ascii=False, separators=(',', ':'))}")
    return " ".join(words)


def parse_json_notation(text: str) -> dict[str, JSON]:
    """The JSON object of a ``json_notation`` line; ``InvalidInput`` quoting the text if it is not one."""
    if not isinstance(text, str):
        raise InvalidInput(f"an event notation is text, got {text!r}")
    if len(text) > MAX_NOTATION:
        raise InvalidInput(f"an event notation is at most {MAX_NOTATION} characters, got {len(text)}")
    body = text.strip()
    kind, _, rest = body.partition(" ")
    if not kind or "=" in kind:
        raise InvalidInput(f"bad event {text!r}: it starts with its type, e.g. 'declare player=1 join=true'")
    out: dict[str, JSON] = {"type": kind}
    decoder = json.JSONDecoder()
    at = 0
    rest = rest.strip()
    while at < len(rest):
        match = _KEY.match(rest, at)
        if match is None:
            raise InvalidInput(f"bad event {text!r}: expected key=value at {rest[at:at + 40]!r}")
        key = match[1]
        if key in out:
            raise InvalidInput(f"bad event {text!r}: {key!r} is given twice")
        try:
            value, at = decoder.raw_decode(rest, match.end())
        except ValueError:
            raise InvalidInput(f"bad event {text!r}: the value of {key!r} is not JSON") from None
        out[key] = value
        while at < len(rest) and rest[at].isspace():
            at += 1
    return out


def setup_players(setup: object) -> tuple[tuple[str, ...], Mapping[str, JSON]]:
    """The players' names and the options of a setup: ``{"players": [...], "options": {...}}``, or the
    options beside the players."""
    if not isinstance(setup, Mapping):
        raise InvalidInput(f"the setup is a JSON object, got {setup!r}")
    players = setup.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise InvalidInput(f"setup 'players' must be a list of names, got {players!r}")
    options = setup.get("options", setup)
    if not isinstance(options, Mapping):
        raise InvalidInput(f"setup 'options' must be an object, got {options!r}")
    return tuple(p.strip() for p in players), options


def player_index(players: tuple[str, ...], value: Any) -> int:
    """A player given by index or by name."""
    if isinstance(value, str):
        if value in players:
            return players.index(value)
        raise InvalidInput(f"no player named {value!r}; players: {list(players)!r}")
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"a player is an index or a name, got {value!r}")
    if not 0 <= value < len(players):
        raise InvalidInput(f"no player {value!r}; players are 0 to {len(players) - 1}")
    return value


# ------------------------------------------------------------------------------------- rules over a core


def applies(step: Callable[[S, E], S], state: S, event: E) -> bool:
    """Whether ``step`` takes ``event`` in ``state`` (neither ``IllegalAction`` nor ``InvalidInput``): the
    ``in`` of a core whose ``apply`` is the one place that decides what is legal."""
    try:
        step(state, event)
    except (IllegalAction, InvalidInput):
        return False
    return True


@dataclass(frozen=True)
class Judge(Generic[S, E]):
    """The legality of a core that says why it refuses an event: ``reason(state, event)`` is the words
    of the refusal, or None for a legal event; ``kinds`` is the core's event type (a union). ``allows``
    is the core's ``check`` (what ``in`` decides); ``refuse`` is the first step of its ``apply``."""

    kinds: Any
    reason: Callable[[S, E], str | None]
    notation: Callable[[E], object]
    """What the refusal quotes (with ``repr``): the event's notation."""

    def allows(self, state: S, event: object) -> bool:
        """Whether ``event`` is one of the core's events and legal in ``state``."""
        return isinstance(event, self.kinds) and self.reason(state, cast(E, event)) is None

    def refuse(self, state: S, event: E) -> None:
        """``IllegalAction`` quoting the event and the reason, unless ``event`` is legal in ``state``."""
        reason = self.reason(state, event)
        if reason is not None:
            raise IllegalAction(f"{self.notation(event)!r}: {reason}")


@dataclass(frozen=True)
class CoreRules(Generic[S, E]):
    """A ``Rules`` made of a core's own functions: a game says which, and nothing is written twice.

    ``events(state)`` yields the candidates the legal view lists (``check`` keeps the legal ones and
    decides ``in``). The notation is ``json_notation`` of the JSON codec unless the game has its own
    (``notation`` and ``parse``).
    """

    name: str
    title: str
    start: Callable[[Mapping[str, JSON]], S]
    events: Callable[[S], Iterable[E]]
    check: Callable[[S, object], bool]
    step: Callable[[S, E], S]
    end: Callable[[S], Outcome | None]
    waits_on: Callable[[S], tuple[int, ...]]
    to_json: Callable[[E], dict[str, JSON]]
    from_json: Callable[[S, JSON], E]
    dump: Callable[[S], JSON]
    load: Callable[[JSON], S]
    notation: Callable[[E], str] | None = None
    parse: Callable[[str], E] | None = None
    exact: bool = False
    """``events`` yields only legal events (see ``Legal``)."""

    def new_game(self, setup: Mapping[str, JSON]) -> S:
        return self.start(setup)

    def legal(self, state: S) -> Legal[S, E]:
        return Legal(state, self.events, self.check, self.exact)

    def apply(self, state: S, event: E) -> S:
        return self.step(state, event)

    def outcome(self, state: S) -> Outcome | None:
        return self.end(state)

    def awaiting(self, state: S) -> tuple[int, ...]:
        return self.waits_on(state)

    def event_to_json(self, event: E) -> dict[str, JSON]:
        return self.to_json(event)

    def event_from_json(self, state: S, data: JSON) -> E:
        return self.from_json(state, data)

    def event_notation(self, event: E) -> str:
        return self.notation(event) if self.notation is not None else json_notation(self.to_json(event))

    def parse_event(self, state: S, text: str) -> E:
        if self.parse is not None:
            return self.parse(text)
        return self.from_json(state, parse_json_notation(text))

    def state_to_json(self, state: S) -> JSON:
        return self.dump(state)

    def state_from_json(self, data: JSON) -> S:
        return self.load(data)


# ------------------------------------------------------------------------------------------------ registry


def find_rules(name: str) -> Rules[Any, Any]:
    """The rules of the game called ``name``, from the one registry (``companion.games.GAMES``)."""
    from companion.games import find_rules as find

    return find(name)
