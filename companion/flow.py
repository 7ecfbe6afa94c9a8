"""The contract between a game's rules core and the table session.

A *table flow* is the referee's script for one game at a real table. It is pure, like the rules core it
wraps: the session owns the clock, the camera, the buttons, the event log and the page, and asks the flow
only pure questions:

- ``start(setup)``: the state of a new game from the options chosen on the setup page;
- ``apply(state, action)``: the state after one confirmed action (raises ``InvalidInput`` /
  ``IllegalAction`` and leaves nothing changed: states are immutable);
- ``expects(state)``: what the camera should read now (``None`` when nothing is to be read);
- ``propose(state, reading)``: the action a camera reading stands for, for the players to confirm or
  correct (``None`` when the reading does not fit what is expected);
- ``choices(state)``: the actions the players may pick now (the GPIO NEXT button cycles through them,
  CONFIRM applies the selected one);
- ``view(state)``: everything the page shows, as JSON.

Actions are JSON objects with a ``"type"`` key. The session stores the setup and every confirmed action
in its event log and rebuilds the state by replaying them, so ``apply`` must be deterministic and a
state needs no serialisation of its own.

Camera readings reach ``propose`` typed, as ``vision`` made them: a ``companion.reading.TableReading``
(its ``dice`` with ``sides``, ``value``, ``confidence``, ``zone``; its ``tokens`` with ``face`` and ``zone``;
the tray's ``zones``). It becomes JSON (the shape ``goblin-companion scan`` prints) only where the session
stores and shows it.

A reading action, the kind ``propose`` returns and the correction form edits, is one of::

    {"type": "reading", "values": {SLOT_KEY: value, ...}}         # dice, one value per expected slot
    {"type": "reading", "alive": n, "dead": m}                     # a toss of goblin tokens

so the page can offer the same correction form for every game.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Literal, Protocol, TypeVar

from companion.errors import InvalidInput
from companion.reading import TableReading
from companion.rules import Rules

JSON = Any
"""A JSON-serialisable value (dict, list, str, int, float, bool or None)."""

Action = Mapping[str, JSON]
"""A confirmed or proposed action: a JSON object with a ``"type"`` key."""


@dataclass(frozen=True)
class Slot:
    """One die the camera should read: its key in a reading action, and what the players see."""

    key: str
    """Stable key in ``{"type": "reading", "values": {key: value}}``, e.g. ``"p0.3"``."""
    label: str
    """Short human label, e.g. ``"Lobo d8"``."""
    sides: int | None
    """Faces of the physical die, or None when any die will do."""
    zone: str | None = None
    """Tray zone the die should lie in (``"p0"``, ``"p1"``, ``"toss"``...), or None for anywhere."""
    low: int = 1
    """Smallest value the slot accepts."""
    high: int | None = None
    """Largest value the slot accepts (default: ``sides``)."""


def player_slot(player: int) -> str:
    """The slot key of the one die a player rolls (``"p2"``), as Dadoteck and GobCon read it."""
    return f"p{player}"


def slot_player(key: str, players: int) -> int:
    """The player of a ``player_slot`` key; ``InvalidInput`` naming the slots for any other key."""
    if key.startswith("p") and key[1:].isdigit() and int(key[1:]) < players:
        return int(key[1:])
    raise InvalidInput(f"unknown slot {key!r}; slots are p0 to p{players - 1}")


@dataclass(frozen=True)
class Expectation:
    """What the camera should read next, and how a person enters it by hand."""

    kind: Literal["dice", "tokens"]
    prompt: str
    """Message key for the page, e.g. ``"roll.initial"``; the page translates it."""
    slots: tuple[Slot, ...] = ()
    """For dice: one slot per die to read."""
    zone: str | None = None
    """For tokens: the zone of the toss (None: the whole tray)."""
    count: int | None = None
    """For tokens: how many tokens are tossed, when known."""
    params: Mapping[str, JSON] = field(default_factory=dict)
    """Values to put into the translated prompt (a player's name, a count)."""


@dataclass(frozen=True)
class Choice:
    """An action the players may pick now, with the words the page shows for it."""

    action: Action
    label: str
    """Short English description; the page may replace it with a translation of ``key``."""
    group: str = ""
    """Grouping on the page (e.g. ``"power"``, ``"skill"``, ``"square"``)."""
    key: str = ""
    """Message key for a translated label (optional)."""
    params: Mapping[str, JSON] = field(default_factory=dict)

    def to_json(self) -> dict[str, JSON]:
        """The choice as a game's view lists it: ``action``, ``label``, ``group``, ``key``, ``params``."""
        return {"action": dict(self.action), "label": self.label, "group": self.group, "key": self.key,
                "params": dict(self.params)}


S = TypeVar("S")


class Flow(Protocol[S]):
    """A game's table flow. Implementations are stateless objects; all state lives in ``S``."""

    game: str
    """Registry name, e.g. ``"button-goblin"``."""
    title: str
    """Human title, e.g. ``"Button Goblin"``."""

    def setup_schema(self) -> Mapping[str, JSON]:
        """What the setup page asks (players, options), as JSON the page renders into a form."""
        ...

    def start(self, setup: Mapping[str, JSON]) -> S:
        """A new game. Raises ``InvalidInput`` for a bad setup."""
        ...

    def apply(self, state: S, action: Action) -> S:
        """The state after one confirmed action. Raises ``InvalidInput`` or ``IllegalAction``."""
        ...

    def expects(self, state: S) -> Expectation | None:
        """What the camera should read now, or None."""
        ...

    def propose(self, state: S, reading: TableReading) -> Action | None:
        """The reading action a camera reading stands for, or None if it does not fit."""
        ...

    def choices(self, state: S) -> Sequence[Choice]:
        """The actions the players may pick now (empty while a reading is awaited or at the end)."""
        ...

    def view(self, state: S) -> Mapping[str, JSON]:
        """Everything the page shows, as JSON. Always has ``"game"``, ``"phase"`` and ``"over"``."""
        ...


class TableFlow(Generic[S]):
    """What every game's flow shares: it is named and titled as its rules are (``Rules.name`` and
    ``Rules.title``: the registry name and the title are written once, in ``rules.py``), and its setup
    form is those two and the game's own ``form``. A game's flow subclasses it and writes the rest of
    ``Flow``: ``FLOW = GameFlow(RULES)``."""

    form: ClassVar[Mapping[str, JSON]] = {}
    """What the setup page asks besides ``game`` and ``title``: ``players`` and ``options``, or ``fields``."""

    def __init__(self, rules: Rules[Any, Any]) -> None:
        self.game: str = rules.name
        self.title: str = rules.title

    def setup_schema(self) -> Mapping[str, JSON]:
        """``game``, ``title`` and a copy of ``form`` (the caller may change it)."""
        return {"game": self.game, "title": self.title, **copy.deepcopy(self.form)}
