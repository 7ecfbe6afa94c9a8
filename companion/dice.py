"""The players' own dice: named once, their rolls kept across matches, and how fair each one is.

- **Naming**: "il d20 rosso" is a name (at most :data:`MAX_DIE_NAME` characters, unique), the die's sides
  and optionally a colour (:data:`COLOURS`). At most :data:`MAX_DICE` dice per table.
- **Rolls**: every confirmed dice reading (``{"type": "reading", "values": {...}}`` of a flow that expects
  dice) is a roll of each die in it, written with its step (:func:`rolls_of`, ``Store.append``); a step
  a person entered or fixed (``source`` ``"manual"``) gives hand-entered rolls. Players may also enter
  rolls by hand on the dice page (a list of values, or a tally per face), marked hand-entered too.
- **Which die**: a roll goes to the named die *at the table* that is the only one of its sides there,
  when the reading holds only one die of those sides (``companion.store.attribute``); any other roll
  waits, unattributed, until the players give it to a die on the dice page (:meth:`DiceBook.assign`).
- **Taught from the camera** (optional): a die put alone on the tray is taught by its look (its colour
  against the tray, ``vision.looks``, up to :data:`MAX_LOOKS` examples); after each confirmed camera
  reading, a die of the reading whose look is nearest one taught die of its sides (and clearly nearer
  than any other) gets its roll (:meth:`DiceBook.attribute_by_look`). Two dice that look alike are never
  told apart: their rolls wait for the players.
- **Fairness**: :mod:`companion.dicestats` on each die's face counts (:meth:`DiceBook.report`), also as
  CSV (:meth:`DiceBook.csv`).

Every method checks its input and raises ``InvalidInput`` (malformed), :class:`UnknownDie` or
``IllegalAction``; nothing is half written (each change is one transaction of the store).
"""

from __future__ import annotations

import csv
import io
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Final

from companion import dicestats
from companion.errors import IllegalAction, InvalidInput
from companion.flow import Action, Expectation
from companion.messages import Message, word
from companion.store import NamedDie, NewRoll, Source, Store

#: The most dice one table may name.
MAX_DICE: Final = 64
#: The most characters of a die's name.
MAX_DIE_NAME: Final = 40
#: Sides a named die may have: the usual polyhedra, and anything from a coin (2) to a d100.
SIDES: Final = (dicestats.MIN_SIDES, dicestats.MAX_SIDES)
#: Colours a die may be given (the page names them in its language: ``dice.colour.<name>``).
COLOURS: Final = ("", "red", "blue", "green", "yellow", "orange", "purple", "pink", "white", "black", "grey",
                  "brown", "gold", "clear")
#: The most rolls one hand entry (values or a tally) may add.
MAX_ENTRY: Final = 10_000
#: The most rolls one request may give to a die.
MAX_ASSIGN: Final = 500
#: Unattributed rolls the dice page lists (the newest).
UNATTRIBUTED_SHOWN: Final = 200

#: The most looks kept per die (the newest): teach it again under another light to add one.
MAX_LOOKS: Final = 8

#: The CSV export's columns, in order.
CSV_COLUMNS: Final = ("roll", "die_id", "die", "sides", "colour", "value", "entered", "game_id", "step",
                      "at_utc")


#: What the dice refuse, in English, by message key; the page translates the key (``web/i18n``).
MESSAGES: Final[Mapping[str, str]] = {
    "dice.error.name_text": "a die's name is text, not {value}",
    "dice.error.name_empty": "a die needs a name, such as \"il d20 rosso\"",
    "dice.error.name_long": "a die's name has at most {most} characters, not {length}",
    "dice.error.name_bad": "a die's name must be printable Unicode, without control characters: {value}",
    "dice.error.name_taken": "a die is already named {value}",
    "dice.error.full": "the table already has {most} named dice: remove one first",
    "dice.error.int": "{what} must be a whole number, not {value}",
    "dice.error.sides": "a die has {low}..{high} sides, not {value}",
    "dice.error.colour": "colour must be one of {options} (or none), not {value}",
    "dice.error.flag": "{what} must be true or false, not {value}",
    "dice.error.unknown": "no die {die}: the table's dice are {known}",
    "dice.error.entry_one": "give the rolls as \"values\" (the faces rolled) "
                            "or \"counts\" (a tally per face)",
    "dice.error.values": "\"values\" must be a list of the faces rolled, not {value}",
    "dice.error.too_many": "one entry holds at most {most} rolls, not {count}",
    "dice.error.roll_int": "roll {n} must be a whole number, not {value}",
    "dice.error.roll_face": "roll {n}: a d{sides} shows 1..{sides}, not {value}",
    "dice.error.tally_length": "a tally of a d{sides} has {sides} counts (face 1 first), not {count}",
    "dice.error.tally_face": "a tally of a d{sides} counts faces 1..{sides}, not {value}",
    "dice.error.tally": "\"counts\" must be a list of {sides} counts or {{\"face\": count}}, not {value}",
    "dice.error.count_int": "the count of face {face} must be a whole number, not {value}",
    "dice.error.count_negative": "the count of face {face} cannot be negative ({value})",
    "dice.error.tally_empty": "the tally holds no roll",
    "dice.error.no_entry": "no roll of {name} was entered on this page: nothing to take back",
    "dice.error.roll_list": "\"rolls\" must be a list of roll numbers, not {value}",
    "dice.error.assign_many": "at most {most} rolls at a time, not {count}",
    "dice.error.no_roll": "no roll {roll}",
    "dice.error.roll_sides": "roll {roll} is of a d{sides}, not of a d{wanted} like {name}",
    "dice.error.no_camera": "this companion has no camera to teach dice from",
    "dice.error.no_picture": "the camera has no picture yet: wait for it, then teach again",
    "dice.error.nothing_to_teach": "no d{sides} found in the picture: put {name} alone on the tray, "
                                   "away from the edges",
}


def _bad(key: str, /, **params: Any) -> InvalidInput:
    return InvalidInput(Message.of(MESSAGES, key, **params))


def _shown(value: object) -> str:
    """A bad input as an error quotes it: its repr, cut at 60 characters."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


class UnknownDie(IllegalAction):
    """A die number the table never named (or has forgotten)."""

    code = "unknown-die"


class NoPicture(IllegalAction):
    """Teaching a die needs the camera's picture, and there is none (yet, or no camera)."""

    code = "no-picture"


class NothingToTeach(IllegalAction):
    """The camera's picture holds no die of the named die's sides."""

    code = "nothing-to-teach"


Frame = Any
"""A BGR uint8 HxWx3 numpy array."""


def rolls_of(expectation: Expectation | None, action: Action, source: Source) -> list[NewRoll]:
    """The rolls a confirmed ``action`` holds: one per die slot of ``expectation`` (what the flow
    expected before it) whose value the reading action gives, when the slot names its die's sides
    (2..100) and the value is a face of it (1..sides; a percentile die's 0..90 is not a face). Rolls of a
    ``"manual"`` step are hand-entered."""
    if expectation is None or expectation.kind != "dice" or action.get("type") != "reading":
        return []
    values = action.get("values")
    if not isinstance(values, Mapping):
        return []
    out = []
    for slot in expectation.slots:
        value, sides = values.get(slot.key), slot.sides
        if (isinstance(sides, int) and dicestats.MIN_SIDES <= sides <= dicestats.MAX_SIDES
                and isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= sides):
            out.append(NewRoll(sides, value, source == "manual"))
    return out


def _int(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad("dice.error.int", what=word("dice.what", what), value=_shown(value))
    return value


def check_name(name: object) -> str:
    """A die's name: 1..:data:`MAX_DIE_NAME` characters of printable Unicode, spaces at the ends removed."""
    if not isinstance(name, str):
        raise _bad("dice.error.name_text", value=_shown(name))
    name = " ".join(name.split())
    if not name:
        raise _bad("dice.error.name_empty")
    if len(name) > MAX_DIE_NAME:
        raise _bad("dice.error.name_long", most=MAX_DIE_NAME, length=len(name))
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        raise _bad("dice.error.name_bad", value=_shown(name)) from None
    if not name.isprintable():
        raise _bad("dice.error.name_bad", value=_shown(name))
    return name


def check_sides(sides: object) -> int:
    sides = _int(sides, "sides")
    if not SIDES[0] <= sides <= SIDES[1]:
        raise _bad("dice.error.sides", low=SIDES[0], high=SIDES[1], value=sides)
    return sides


def check_colour(colour: object) -> str:
    if colour is None:
        return ""
    if not isinstance(colour, str) or colour not in COLOURS:
        raise _bad("dice.error.colour", options=", ".join(c for c in COLOURS if c), value=_shown(colour))
    return colour


def check_flag(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise _bad("dice.error.flag", what=word("dice.what", what), value=_shown(value))
    return value


def entry_values(sides: int, *, values: object = None, counts: object = None) -> list[int]:
    """The rolls of one hand entry of a d``sides``: ``values`` (a list of faces, in the order rolled), or
    ``counts`` (a tally: a list of ``sides`` counts, face 1 first, or ``{"face": count}``), not both."""
    if (values is None) == (counts is None):
        raise _bad("dice.error.entry_one")
    out: list[int] = []
    if values is not None:
        if not isinstance(values, list) or not values:
            raise _bad("dice.error.values", value=_shown(values))
        if len(values) > MAX_ENTRY:
            raise _bad("dice.error.too_many", most=MAX_ENTRY, count=len(values))
        for n, value in enumerate(values, start=1):
            if isinstance(value, bool) or not isinstance(value, int):
                raise _bad("dice.error.roll_int", n=n, value=_shown(value))
            if not 1 <= value <= sides:
                raise _bad("dice.error.roll_face", n=n, sides=sides, value=value)
            out.append(value)
        return out
    if isinstance(counts, list):
        if len(counts) != sides:
            raise _bad("dice.error.tally_length", sides=sides, count=len(counts))
        tally = {face: count for face, count in enumerate(counts, start=1)}
    elif isinstance(counts, Mapping):
        tally = {}
        for key, count in counts.items():
            face = int(key) if isinstance(key, str) and key.isascii() and key.isdigit() else None
            if face is None or not 1 <= face <= sides:
                raise _bad("dice.error.tally_face", sides=sides, value=_shown(key))
            tally[face] = count
    else:
        raise _bad("dice.error.tally", sides=sides, value=_shown(counts))
    total = 0
    for face, count in sorted(tally.items()):
        if isinstance(count, bool) or not isinstance(count, int):
            raise _bad("dice.error.count_int", face=face, value=_shown(count))
        if count < 0:
            raise _bad("dice.error.count_negative", face=face, value=count)
        total += count
        if total > MAX_ENTRY:
            raise _bad("dice.error.too_many", most=MAX_ENTRY, count=sum(
                c for c in tally.values() if isinstance(c, int)))
        out.extend([face] * count)
    if not out:
        raise _bad("dice.error.tally_empty")
    return out


def _at_utc(at: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(at))


class DiceBook:
    """The table's named dice and their rolls, over the session's :class:`~companion.store.Store`.

    Parameters
    ----------
    store
        The event log the session writes.
    frames
        ``() -> frame or None``: the camera's latest frame, to teach a die's look from (None: no camera).
    reader
        ``frame -> reading JSON`` (``{"dice": [{"bbox", "sides", "confidence", ...}]}``): where the dice
        are in a frame (the companion's own reader).
    """

    def __init__(self, store: Store, *, frames: Callable[[], Frame | None] | None = None,
                 reader: Callable[[Frame], Mapping[str, Any]] | None = None) -> None:
        self.store = store
        self.frames = frames
        self.reader = reader

    @property
    def can_teach(self) -> bool:
        return self.frames is not None and self.reader is not None

    def _die(self, die_id: object) -> NamedDie:
        die_id = _int(die_id, "die")
        die = self.store.die(die_id)
        if die is None:
            known = ", ".join(str(d.id) for d in self.store.named_dice()) or "-"
            raise UnknownDie(Message.of(MESSAGES, "dice.error.unknown", die=die_id, known=known))
        return die

    def _free_name(self, name: str, die_id: int | None = None) -> str:
        if any(d.name == name and d.id != die_id for d in self.store.named_dice()):
            raise IllegalAction(Message.of(MESSAGES, "dice.error.name_taken", value=repr(name)))
        return name

    # -- naming ------------------------------------------------------------------------------------

    def name_die(self, name: object, sides: object, colour: object = "", *,
                 at_table: object = True) -> dict[str, Any]:
        """Name a physical die; its :meth:`report` entry."""
        name, sides = check_name(name), check_sides(sides)
        colour, here = check_colour(colour), check_flag(at_table, "at_table")
        if len(self.store.named_dice()) >= MAX_DICE:
            raise IllegalAction(Message.of(MESSAGES, "dice.error.full", most=MAX_DICE))
        die = self.store.add_die(self._free_name(name), sides, colour, at_table=here, most=MAX_DICE)
        return self.die_report(die.id)

    def update_die(self, die_id: object, *, name: object = None, colour: object = None,
                   at_table: object = None) -> dict[str, Any]:
        """Rename a die, change its colour, or put it at the table or away (None: unchanged)."""
        die = self._die(die_id)
        new_name = None if name is None else self._free_name(check_name(name), die.id)
        self.store.update_die(die.id, name=new_name,
                              colour=None if colour is None else check_colour(colour),
                              at_table=None if at_table is None else check_flag(at_table, "at_table"))
        return self.die_report(die.id)

    def remove_die(self, die_id: object) -> dict[str, Any]:
        """Forget a die; its rolls are kept, waiting for a die (``{"removed": id, "rolls_kept": n}``)."""
        die = self._die(die_id)
        return {"removed": die.id, "rolls_kept": self.store.remove_die(die.id)}

    # -- the camera ------------------------------------------------------------------------------

    def teach_look(self, die_id: object) -> dict[str, Any]:
        """Teach a die's look from the camera's latest frame: the die is alone on the tray (of the dice
        of its sides found there, the surest is taken). The die's report with ``taught``: its looks."""
        from vision.looks import die_look

        die = self._die(die_id)
        if self.frames is None or self.reader is None:
            raise NoPicture(Message.of(MESSAGES, "dice.error.no_camera"))
        frame = self.frames()
        if frame is None:
            raise NoPicture(Message.of(MESSAGES, "dice.error.no_picture"))
        found = [d for d in self.reader(frame).get("dice") or () if isinstance(d, Mapping)
                 and d.get("sides") in (die.sides, None) and isinstance(d.get("bbox"), list | tuple)]
        if not found:
            raise NothingToTeach(Message.of(MESSAGES, "dice.error.nothing_to_teach", sides=die.sides,
                                            name=die.name))
        best = max(found, key=lambda d: (d.get("sides") == die.sides, float(d.get("confidence") or 0.0)))
        looks = [*die.looks, die_look(frame, best["bbox"])][-MAX_LOOKS:]
        self.store.set_looks(die.id, looks)
        return {**self.die_report(die.id), "taught": len(looks)}

    def forget_looks(self, die_id: object) -> dict[str, Any]:
        """Forget what the camera was taught of a die."""
        die = self._die(die_id)
        self.store.set_looks(die.id, [])
        return self.die_report(die.id)

    def attribute_by_look(self, reading: Mapping[str, Any], frame: Frame) -> int:
        """After a confirmed camera reading (``reading``, read from ``frame``): give the step's rolls that
        wait for a die to the taught die each reading die looks like (``vision.looks.nearest_die``
        among the taught dice of its sides). A taught die recognised twice in one reading gets neither
        roll (one die cannot show two faces). Returns how many rolls were given."""
        from vision.looks import die_look, nearest_die

        taught: dict[int, dict[int, tuple[tuple[float, float, float], ...]]] = {}
        for die in self.store.named_dice():
            if die.looks:
                taught.setdefault(die.sides, {})[die.id] = die.looks
        if not taught:
            return 0
        seen: list[tuple[int, int, int]] = []  # (sides, value, die)
        for d in reading.get("dice") or ():
            if not isinstance(d, Mapping):
                continue
            sides, value, box = d.get("sides"), d.get("value"), d.get("bbox")
            if sides not in taught or not isinstance(value, int) or not isinstance(box, list | tuple):
                continue
            try:
                die_id = nearest_die(die_look(frame, box), taught[sides])
            except ValueError:
                continue
            if die_id is not None:
                seen.append((sides, value, die_id))
        twice = {die for _, _, die in seen if sum(1 for s in seen if s[2] == die) > 1}
        waiting = [r for r in self.store.last_event_rolls() if r[3] is None]
        given = 0
        for sides, value, die_id in seen:
            if die_id in twice:
                continue
            roll = next((r for r in waiting if r[1] == sides and r[2] == value), None)
            if roll is not None:
                waiting.remove(roll)
                self.store.assign_rolls([roll[0]], die_id)
                given += 1
        return given

    # -- rolls -------------------------------------------------------------------------------------

    def enter_rolls(self, die_id: object, *, values: object = None, counts: object = None) -> dict[str, Any]:
        """Rolls of a die entered by hand (see :func:`entry_values`); the die's report with ``added``."""
        die = self._die(die_id)
        added = self.store.add_rolls(die.id, entry_values(die.sides, values=values, counts=counts))
        return {**self.die_report(die.id), "added": added}

    def undo_entry(self, die_id: object) -> dict[str, Any]:
        """Take back the last hand entry of a die on the dice page; the report with ``removed``."""
        die = self._die(die_id)
        try:
            removed = self.store.undo_hand_rolls(die.id)
        except IllegalAction:
            raise IllegalAction(Message.of(MESSAGES, "dice.error.no_entry", name=die.name)) from None
        return {**self.die_report(die.id), "removed": removed}

    def assign(self, roll_ids: object, die_id: object) -> dict[str, Any]:
        """Give unattributed (or misattributed) rolls to die ``die_id`` (None: to no die)."""
        if not isinstance(roll_ids, list) or not roll_ids:
            raise _bad("dice.error.roll_list", value=_shown(roll_ids))
        if len(roll_ids) > MAX_ASSIGN:
            raise _bad("dice.error.assign_many", most=MAX_ASSIGN, count=len(roll_ids))
        ids = [_int(r, "roll") for r in roll_ids]
        die = None if die_id is None else self._die(die_id)
        target = None if die is None else die.id
        sides = self.store.roll_sides(ids)
        for roll in ids:
            if roll not in sides:
                raise IllegalAction(Message.of(MESSAGES, "dice.error.no_roll", roll=roll))
            if die is not None and sides[roll] != die.sides:
                raise IllegalAction(Message.of(MESSAGES, "dice.error.roll_sides", roll=roll,
                                               sides=sides[roll], wanted=die.sides, name=die.name))
        assigned = self.store.assign_rolls(ids, target)
        return {"assigned": assigned, "die": target, **self.report()}

    # -- reports -----------------------------------------------------------------------------------

    def _counts(self, die_id: int | None = None) -> tuple[dict[int | None, dict[int, list[int]]],
                                                          dict[int | None, int]]:
        """die id -> sides -> counts per face, and die id -> rolls entered by hand (of every die, or of
        ``die_id`` only)."""
        counts: dict[int | None, dict[int, list[int]]] = {}
        hand: dict[int | None, int] = {}
        for die, sides, value, n, by_hand in self.store.roll_counts(die_id):
            faces = counts.setdefault(die, {}).setdefault(sides, [0] * sides)
            faces[value - 1] += n
            hand[die] = hand.get(die, 0) + by_hand
        return counts, hand

    def _entry(self, die: NamedDie, counts: Mapping[int, list[int]], hand: int) -> dict[str, Any]:
        faces = counts.get(die.sides, [0] * die.sides)
        stats = dicestats.report(die.sides, faces).to_json()
        return {**die.to_json(), "hand": hand, "camera": stats["rolls"] - hand, **stats}

    def die_report(self, die_id: object) -> dict[str, Any]:
        """One die: its name, sides, colour, rolls (``hand`` of them entered by hand) and fairness
        (:func:`companion.dicestats.report`'s JSON)."""
        die = self._die(die_id)
        counts, hand = self._counts(die.id)
        return self._entry(die, counts.get(die.id, {}), hand.get(die.id, 0))

    def report(self) -> dict[str, Any]:
        """Every named die (:meth:`die_report` each) and the rolls that wait for a die, by sides."""
        counts, hand = self._counts()
        dice = [self._entry(die, counts.get(die.id, {}), hand.get(die.id, 0))
                for die in self.store.named_dice()]
        waiting = {str(sides): sum(faces) for sides, faces in sorted(counts.get(None, {}).items())}
        return {"format": "goblin-companion/dice-1", "alpha": dicestats.ALPHA,
                "threshold": dicestats.THRESHOLD, "confidence": dicestats.CONFIDENCE, "dice": dice,
                "unattributed": {"rolls": sum(waiting.values()), "by_sides": waiting}}

    def unattributed(self) -> list[dict[str, Any]]:
        """The newest :data:`UNATTRIBUTED_SHOWN` rolls that wait for a die."""
        return self.store.unattributed(limit=UNATTRIBUTED_SHOWN)

    def csv(self, die_id: object = None) -> Iterator[str]:
        """Every roll that counts, of one die (``die_id``) or of all (unattributed ones too), as CSV
        lines (:data:`CSV_COLUMNS`; ``entered``: ``hand`` or ``camera``; ``step`` empty for a roll entered
        on the dice page). A generator: a long history is streamed, never held at once."""
        target = None if die_id is None else self._die(die_id).id
        return self._csv_lines(target)

    def _csv_lines(self, die_id: int | None) -> Iterator[str]:
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\r\n")

        def line(row: Sequence[Any]) -> str:
            buffer.seek(0)
            buffer.truncate()
            writer.writerow(row)
            return buffer.getvalue()

        yield line(CSV_COLUMNS)
        for roll, die, name, sides, colour, value, hand, game_id, step, at in self.store.roll_rows(die_id):
            yield line((roll, "" if die is None else die, _safe_cell(name or ""), sides, colour or "", value,
                        "hand" if hand else "camera", "" if game_id is None else game_id,
                        "" if step is None else step, _at_utc(at)))


def _safe_cell(text: str) -> str:
    """A name as a spreadsheet shows it, never as a formula (``=``, ``+``, ``-``, ``@`` lead a quote)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
