"""The table's memory: an SQLite event log of games and their confirmed steps.

The session never stores a game state; it stores what a person confirmed and rebuilds the state by
replaying the log through the game's flow (``companion.flow``). One file under the state directory::

    games(id, game, setup, started, finished, archived, summary)
    events(id, game_id, step, action, source, manual, proposal, reading, at, undone, undone_at)

``step`` is the position of a confirmed action in its game (1, 2, ...). Undo does not delete: it marks the
last live event ``undone = 'undo'``, so the next confirmation takes the same step number again and the
export still shows what was taken back. A partial unique index keeps one live event per step.

Matches are kept, never replaced: starting a game archives the one at the table (``archived`` is when)
in the same transaction, and an archived match that was not finished can be resumed (:meth:`Store.resume`).
The *current* game is the one not archived; there is at most one. ``summary`` caches what the list of
matches shows (players, over, winners) as JSON, written when a game is archived.

The players' physical dice and their rolls (``companion.dice``; version 3)::

    dice(id, name, sides, colour, at_table, created, look)
    rolls(id, die_id, sides, value, hand, event_id, at)

``look`` is what the camera was taught of the die (JSON, ``companion.dice``; NULL: never taught).
A roll is one die's value in a confirmed reading (``event_id``: its step, written in the same
transaction as the step) or one entered on the dice page (``event_id`` NULL). ``die_id`` is NULL until
the roll is attributed to a named die. A roll counts while its step stands: the rolls of an undone
step stay in the file and are left out of every count (:data:`LIVE_ROLLS`).

Schema versions: 1 had no ``archived`` or ``summary``; opening such a file adds both columns and archives
every game but the newest. 2 had no ``dice`` or ``rolls``; opening it adds both, empty (the steps
confirmed before are not counted as rolls: a step's action does not say each value's die type). Each
migration is one transaction with the rest (a crash leaves the file as it was).

Durability: WAL journal with ``synchronous=FULL``, one transaction per write. After a ``kill -9`` or a
power cut, reopening the file gives exactly the events whose write returned.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal

from companion.errors import IllegalAction, InvalidInput
from companion.jsonvalues import present

log = logging.getLogger(__name__)

#: The file name under the state directory.
DB_NAME: Final = "companion.sqlite3"

Source = Literal["camera", "choice", "manual"]
"""Where a confirmed action came from: a camera proposal, a legal choice (page tap or NEXT/CONFIRM),
or a person's own entry (a correction)."""
SOURCES: Final[tuple[Source, ...]] = ("camera", "choice", "manual")

SCHEMA_VERSION: Final = 3
_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS games (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    game     TEXT NOT NULL,
    setup    TEXT NOT NULL,
    started  REAL NOT NULL,
    finished REAL,
    archived REAL,
    summary  TEXT
);
CREATE TABLE IF NOT EXISTS events (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id   INTEGER NOT NULL REFERENCES games(id),
    step      INTEGER NOT NULL CHECK (step >= 1),
    action    TEXT NOT NULL,
    source    TEXT NOT NULL CHECK (source IN ('camera', 'choice', 'manual')),
    manual    INTEGER NOT NULL CHECK (manual IN (0, 1)),
    proposal  TEXT,
    reading   TEXT,
    at        REAL NOT NULL,
    undone    TEXT,
    undone_at REAL
);
CREATE UNIQUE INDEX IF NOT EXISTS live_step ON events (game_id, step) WHERE undone IS NULL;
CREATE TABLE IF NOT EXISTS dice (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    name     TEXT NOT NULL UNIQUE,
    sides    INTEGER NOT NULL CHECK (sides BETWEEN 2 AND 100),
    colour   TEXT NOT NULL DEFAULT '',
    at_table INTEGER NOT NULL DEFAULT 1 CHECK (at_table IN (0, 1)),
    created  REAL NOT NULL,
    look     TEXT
);
CREATE TABLE IF NOT EXISTS rolls (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    die_id   INTEGER REFERENCES dice(id),
    sides    INTEGER NOT NULL CHECK (sides BETWEEN 2 AND 100),
    value    INTEGER NOT NULL CHECK (value BETWEEN 1 AND sides),
    hand     INTEGER NOT NULL CHECK (hand IN (0, 1)),
    event_id INTEGER REFERENCES events(id),
    at       REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS rolls_die ON rolls (die_id, value);
CREATE INDEX IF NOT EXISTS rolls_event ON rolls (event_id);
"""
#: The rolls that count: entered on the dice page, or of a step that was not taken back.
LIVE_ROLLS: Final = ("(r.event_id IS NULL OR EXISTS "
                     "(SELECT 1 FROM events e WHERE e.id = r.event_id AND e.undone IS NULL))")
#: Version 1 -> 2: keep every match; all but the newest become archived (when: their last event, or start).
_MIGRATE_2: Final = (
    "ALTER TABLE games ADD COLUMN archived REAL",
    "ALTER TABLE games ADD COLUMN summary TEXT",
    "UPDATE games SET archived = COALESCE(finished, "
    "(SELECT MAX(at) FROM events e WHERE e.game_id = games.id), started) "
    "WHERE id < (SELECT MAX(id) FROM games)",
)


@dataclass(frozen=True)
class Event:
    """One confirmed action of a game, as stored."""

    id: int
    step: int
    action: dict[str, Any]
    source: Source
    manual: bool
    at: float
    proposal: dict[str, Any] | None = None
    """The camera's proposal at the time, when a person confirmed or corrected one."""
    reading: dict[str, Any] | None = None
    """The camera reading the proposal came from."""
    undone: str | None = None
    """None while the step stands; ``"undo"`` once taken back, or why replay had to drop it."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"step": self.step, "action": self.action, "source": self.source,
                               "manual": self.manual, "at": self.at}
        out.update(present(proposal=self.proposal, reading=self.reading, undone=self.undone))
        return out


@dataclass(frozen=True)
class GameRecord:
    """One game as stored: its setup and its live (not undone) events in step order."""

    id: int
    game: str
    setup: dict[str, Any]
    started: float
    finished: float | None
    events: tuple[Event, ...]

    @property
    def step(self) -> int:
        return len(self.events)


@dataclass(frozen=True)
class NewRoll:
    """A roll to record with a confirmed step: a d``sides`` showing ``value``; ``hand`` when a person
    entered it; ``die_id`` when the camera already knows which named die it was."""

    sides: int
    value: int
    hand: bool
    die_id: int | None = None


@dataclass(frozen=True)
class NamedDie:
    """One of the players' physical dice, as stored."""

    id: int
    name: str
    sides: int
    colour: str
    at_table: bool
    created: float
    looks: tuple[tuple[float, float, float], ...] = ()
    """What the camera was taught of it (``vision.looks``), newest last."""

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "sides": self.sides, "colour": self.colour,
                "at_table": self.at_table, "created": self.created, "looks": len(self.looks)}


def _looks(text: str | None) -> tuple[tuple[float, float, float], ...]:
    """The ``look`` column: a JSON list of ``[lightness, r, g]`` (anything else reads as nothing taught)."""
    try:
        data = json.loads(text) if text else []
        return tuple((float(a), float(b), float(c)) for a, b, c in data)
    except (TypeError, ValueError):
        log.warning("a die's taught look is unreadable; it reads as never taught: %.80r", text)
        return ()


def _die_row(row: Sequence[Any]) -> NamedDie:
    return NamedDie(row[0], row[1], row[2], row[3], bool(row[4]), row[5], _looks(row[6]))


def attribute(rolls: Sequence[NewRoll], at_table: Mapping[int, Sequence[int]]) -> list[int | None]:
    """Which named die each roll of one reading is (None: the players say, on the dice page).

    A roll the camera attributed keeps its die. Otherwise a d``s`` roll is the named die at the table
    with ``s`` sides when that die is the only one of its sides at the table *and* the reading holds
    only one d``s`` (two d6 rolled together with one named d6: which of the two was it?).
    ``at_table``: sides -> ids of the named dice at the table."""
    alone = {s for s in {r.sides for r in rolls} if sum(1 for r in rolls if r.sides == s) == 1}
    out: list[int | None] = []
    for roll in rolls:
        if roll.die_id is not None:
            out.append(roll.die_id)
            continue
        ids = at_table.get(roll.sides, ())
        out.append(ids[0] if len(ids) == 1 and roll.sides in alone else None)
    return out


def _dumps(value: object, what: str) -> str:
    try:
        return json.dumps(value, sort_keys=True, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as error:
        raise InvalidInput(f"{what} is not JSON: {error} ({value!r:.200})") from error


def _loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


class Store:
    """The SQLite event log. Thread-safe (one connection behind a lock); a context manager.

    Parameters
    ----------
    path
        The database file (its folder is created), or a state directory, in which :data:`DB_NAME` is used.
    clock
        Wall clock for the ``at`` columns, injected for tests.
    """

    def __init__(self, path: str | Path, *, clock: Callable[[], float] = time.time) -> None:
        path = Path(path)
        if path.is_dir() or not path.suffix:  # a state directory
            path = path / DB_NAME
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._clock = clock
        self._lock = threading.Lock()
        try:
            self._db: sqlite3.Connection | None = sqlite3.connect(
                path, isolation_level=None, check_same_thread=False, timeout=10.0)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise InvalidInput(f"{str(path)!r} was written by a newer version (schema {version}); "
                                   f"this one reads schema {SCHEMA_VERSION}")
            self._migrate()
        except sqlite3.DatabaseError as error:
            raise InvalidInput(f"cannot use {str(path)!r} as the event log: {error}") from error

    def _migrate(self) -> None:
        """Create the tables, or bring an older file up to :data:`SCHEMA_VERSION`, in one transaction."""
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            columns = {row[1] for row in db.execute("PRAGMA table_info(games)")}
            if columns and "archived" not in columns:
                for statement in _MIGRATE_2:
                    db.execute(statement)
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    # -- plumbing ----------------------------------------------------------------------------------

    @property
    def db(self) -> sqlite3.Connection:
        if self._db is None:
            raise IllegalAction(f"the event log {str(self.path)!r} is closed")
        return self._db

    def _write(self, sql: str, args: tuple[Any, ...]) -> sqlite3.Cursor:
        with self._lock:
            db = self.db
            db.execute("BEGIN IMMEDIATE")
            try:
                cursor = db.execute(sql, args)
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
            return cursor

    def journal_mode(self) -> str:
        with self._lock:
            return str(self.db.execute("PRAGMA journal_mode").fetchone()[0])

    def synchronous(self) -> int:
        """SQLite's ``synchronous`` level of this connection (2 is FULL)."""
        with self._lock:
            return int(self.db.execute("PRAGMA synchronous").fetchone()[0])

    def close(self) -> None:
        """Close the file. Idempotent."""
        with self._lock:
            db, self._db = self._db, None
        if db is not None:
            db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Store({str(self.path)!r})"

    # -- games -------------------------------------------------------------------------------------

    def _transaction(self, work: Callable[[sqlite3.Connection], Any]) -> Any:
        with self._lock:
            db = self.db
            db.execute("BEGIN IMMEDIATE")
            try:
                result = work(db)
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
            return result

    def start_game(self, game: str, setup: Mapping[str, Any], *,
                   summary: Mapping[str, Any] | None = None) -> int:
        """Record a new game; it becomes the current one and the one at the table is archived (with
        ``summary``, what the list of matches shows of it), in one transaction. Returns the new id."""
        setup_text = _dumps(dict(setup), "the setup")
        summary_text = None if summary is None else _dumps(dict(summary), "the summary")

        def work(db: sqlite3.Connection) -> int:
            now = self._clock()
            db.execute("UPDATE games SET archived = ?, summary = COALESCE(?, summary) WHERE archived IS NULL",
                       (now, summary_text))
            cursor = db.execute("INSERT INTO games (game, setup, started) VALUES (?, ?, ?)",
                                (game, setup_text, now))
            assert cursor.lastrowid is not None
            return cursor.lastrowid

        return int(self._transaction(work))

    def resume(self, game_id: int, *, summary: Mapping[str, Any] | None = None) -> None:
        """Make archived game ``game_id`` the current one again; the one at the table is archived (with
        ``summary``), in one transaction."""
        summary_text = None if summary is None else _dumps(dict(summary), "the summary")

        def work(db: sqlite3.Connection) -> None:
            row = db.execute("SELECT archived FROM games WHERE id = ?", (game_id,)).fetchone()
            if row is None:
                raise IllegalAction(f"no game {game_id} in the log")
            if row[0] is None:
                return  # already the current one
            db.execute("UPDATE games SET archived = ?, summary = COALESCE(?, summary) WHERE archived IS NULL",
                       (self._clock(), summary_text))
            db.execute("UPDATE games SET archived = NULL WHERE id = ?", (game_id,))

        self._transaction(work)

    def set_summary(self, game_id: int, summary: Mapping[str, Any]) -> None:
        """Keep what the list of matches shows of ``game_id`` (computed once for a migrated file)."""
        self._write("UPDATE games SET summary = ? WHERE id = ?",
                    (_dumps(dict(summary), "the summary"), game_id))

    def current_game_id(self) -> int | None:
        with self._lock:
            row = self.db.execute(
                "SELECT id FROM games WHERE archived IS NULL ORDER BY id DESC LIMIT 1").fetchone()
        return None if row is None else int(row[0])

    def load(self, game_id: int | None = None, *, with_undone: bool = False) -> GameRecord | None:
        """A game (default: the current one) with its live events in step order, or None if none."""
        with self._lock:
            db = self.db
            if game_id is None:
                row = db.execute("SELECT id, game, setup, started, finished FROM games "
                                 "WHERE archived IS NULL ORDER BY id DESC LIMIT 1").fetchone()
            else:
                row = db.execute("SELECT id, game, setup, started, finished FROM games WHERE id = ?",
                                 (game_id,)).fetchone()
            if row is None:
                return None
            where = "" if with_undone else "AND undone IS NULL"
            rows = db.execute(
                "SELECT id, step, action, source, manual, at, proposal, reading, undone FROM events "
                f"WHERE game_id = ? {where} ORDER BY id", (row[0],)).fetchall()
        events = tuple(Event(r[0], r[1], json.loads(r[2]), r[3], bool(r[4]), r[5], _loads(r[6]),
                             _loads(r[7]), r[8]) for r in rows)
        if not with_undone:
            events = tuple(sorted(events, key=lambda e: e.step))
        return GameRecord(row[0], row[1], json.loads(row[2]), row[3], row[4], events)

    def games(self) -> list[dict[str, Any]]:
        """Every game, newest first: id, game, started, finished and its number of live steps."""
        with self._lock:
            rows = self.db.execute(
                "SELECT g.id, g.game, g.started, g.finished, "
                "(SELECT COUNT(*) FROM events e WHERE e.game_id = g.id AND e.undone IS NULL) "
                "FROM games g ORDER BY g.id DESC").fetchall()
        return [{"id": r[0], "game": r[1], "started": r[2], "finished": r[3], "steps": r[4]} for r in rows]

    def matches(self, *, limit: int = -1, before: int | None = None) -> list[dict[str, Any]]:
        """Games, newest first (at most ``limit``, -1: all; only ids below ``before``), for the list of
        matches: :meth:`games`' keys plus ``setup``, ``archived`` (None for the current game) and
        ``summary`` (None until one is kept)."""
        with self._lock:
            rows = self.db.execute(
                "SELECT g.id, g.game, g.started, g.finished, "
                "(SELECT COUNT(*) FROM events e WHERE e.game_id = g.id AND e.undone IS NULL), "
                "g.setup, g.archived, g.summary FROM games g WHERE g.id < ? ORDER BY g.id DESC LIMIT ?",
                (before if before is not None else 2**62, limit)).fetchall()
        return [{"id": r[0], "game": r[1], "started": r[2], "finished": r[3], "steps": r[4],
                 "setup": json.loads(r[5]), "archived": r[6], "summary": _loads(r[7])} for r in rows]

    def finish(self, game_id: int, finished: bool = True) -> None:
        """Mark a game finished (or not, after an undo of its last step)."""
        self._write("UPDATE games SET finished = ? WHERE id = ?",
                    (self._clock() if finished else None, game_id))

    # -- events ------------------------------------------------------------------------------------

    def append(
        self,
        game_id: int,
        step: int,
        action: Mapping[str, Any],
        *,
        source: Source,
        proposal: Mapping[str, Any] | None = None,
        reading: Mapping[str, Any] | None = None,
        rolls: Sequence[NewRoll] = (),
    ) -> Event:
        """Record the confirmed action of ``step`` (which must be the next one), and the dice ``rolls``
        it holds, attributed to the named dice (:func:`attribute`), in the same transaction."""
        if source not in SOURCES:
            raise InvalidInput(f"source must be one of {', '.join(SOURCES)}, not {source!r}")
        at = self._clock()
        args = (game_id, step, _dumps(dict(action), "the action"), source, int(source == "manual"),
                None if proposal is None else _dumps(dict(proposal), "the proposal"),
                None if reading is None else _dumps(dict(reading), "the reading"), at)
        with self._lock:
            db = self.db
            db.execute("BEGIN IMMEDIATE")
            try:
                live = db.execute("SELECT COUNT(*) FROM events WHERE game_id = ? AND undone IS NULL",
                                  (game_id,)).fetchone()[0]
                if live + 1 != step:
                    raise IllegalAction(f"step {step} is not the next one: the log has {live} steps")
                cursor = db.execute(
                    "INSERT INTO events (game_id, step, action, source, manual, proposal, reading, at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", args)
                if rolls:
                    self._insert_rolls(db, cursor.lastrowid, rolls, at)
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
        assert cursor.lastrowid is not None
        return Event(cursor.lastrowid, step, json.loads(args[2]), source, source == "manual", at,
                     _loads(args[5]), _loads(args[6]))

    def undo(self, game_id: int, step: int, reason: str = "undo") -> None:
        """Take back live ``step`` and every live step after it (normally just the last one)."""
        changed = self._write(
            "UPDATE events SET undone = ?, undone_at = ? WHERE game_id = ? AND step >= ? AND undone IS NULL",
            (reason, self._clock(), game_id, step)).rowcount
        if changed == 0:
            raise IllegalAction(f"step {step} is not in the log, nothing to take back")

    # -- the players' dice -------------------------------------------------------------------------

    def _insert_rolls(self, db: sqlite3.Connection, event_id: int | None, rolls: Sequence[NewRoll],
                      at: float) -> None:
        at_table: dict[int, list[int]] = {}
        known: dict[int, int] = {}
        for die_id, sides, here in db.execute("SELECT id, sides, at_table FROM dice"):
            known[die_id] = sides
            if here:
                at_table.setdefault(sides, []).append(die_id)
        dice = attribute(rolls, at_table)
        rows = []
        for roll, die_id in zip(rolls, dice, strict=True):
            if die_id is not None and known.get(die_id) != roll.sides:
                die_id = None  # a die removed meanwhile, or one of other sides: the players say
            rows.append((die_id, roll.sides, roll.value, int(roll.hand), event_id, at))
        db.executemany("INSERT INTO rolls (die_id, sides, value, hand, event_id, at) "
                       "VALUES (?, ?, ?, ?, ?, ?)", rows)

    def add_die(self, name: str, sides: int, colour: str = "", *, at_table: bool = True,
                most: int = 64) -> NamedDie:
        """Name a physical die (at most ``most`` dice; names are unique). IllegalAction when full or taken."""

        def work(db: sqlite3.Connection) -> int:
            if db.execute("SELECT COUNT(*) FROM dice").fetchone()[0] >= most:
                raise IllegalAction(f"the table already has {most} named dice: remove one first")
            if db.execute("SELECT 1 FROM dice WHERE name = ?", (name,)).fetchone():
                raise IllegalAction(f"a die is already named {name!r}")
            cursor = db.execute("INSERT INTO dice (name, sides, colour, at_table, created) "
                                "VALUES (?, ?, ?, ?, ?)", (name, sides, colour, int(at_table), self._clock()))
            assert cursor.lastrowid is not None
            return cursor.lastrowid

        die = self.die(int(self._transaction(work)))
        assert die is not None
        return die

    def die(self, die_id: int) -> NamedDie | None:
        with self._lock:
            row = self.db.execute("SELECT id, name, sides, colour, at_table, created, look FROM dice "
                                  "WHERE id = ?", (die_id,)).fetchone()
        return None if row is None else _die_row(row)

    def named_dice(self) -> list[NamedDie]:
        """Every named die, in the order they were named."""
        with self._lock:
            rows = self.db.execute(
                "SELECT id, name, sides, colour, at_table, created, look FROM dice ORDER BY id").fetchall()
        return [_die_row(r) for r in rows]

    def update_die(self, die_id: int, *, name: str | None = None, colour: str | None = None,
                   at_table: bool | None = None) -> NamedDie:
        """Rename a die, change its colour, or say whether it is at the table."""

        def work(db: sqlite3.Connection) -> None:
            if db.execute("SELECT 1 FROM dice WHERE id = ?", (die_id,)).fetchone() is None:
                raise IllegalAction(f"no die {die_id}")
            if name is not None:
                if db.execute("SELECT 1 FROM dice WHERE name = ? AND id != ?", (name, die_id)).fetchone():
                    raise IllegalAction(f"a die is already named {name!r}")
                db.execute("UPDATE dice SET name = ? WHERE id = ?", (name, die_id))
            if colour is not None:
                db.execute("UPDATE dice SET colour = ? WHERE id = ?", (colour, die_id))
            if at_table is not None:
                db.execute("UPDATE dice SET at_table = ? WHERE id = ?", (int(at_table), die_id))

        self._transaction(work)
        die = self.die(die_id)
        assert die is not None
        return die

    def set_looks(self, die_id: int, looks: Sequence[Sequence[float]]) -> None:
        """Keep what the camera was taught of a die (an empty list: forget it)."""
        text = _dumps([[float(v) for v in look] for look in looks], "the looks") if looks else None
        if self._write("UPDATE dice SET look = ? WHERE id = ?", (text, die_id)).rowcount == 0:
            raise IllegalAction(f"no die {die_id}")

    def last_event_rolls(self) -> list[tuple[int, int, int, int | None]]:
        """``(roll id, sides, value, die id)`` of the newest live step's rolls (what a confirm just wrote)."""
        with self._lock:
            rows = self.db.execute(
                "SELECT r.id, r.sides, r.value, r.die_id FROM rolls r WHERE r.event_id = "
                "(SELECT MAX(id) FROM events WHERE undone IS NULL) ORDER BY r.id").fetchall()
        return [(r[0], r[1], r[2], r[3]) for r in rows]

    def remove_die(self, die_id: int) -> int:
        """Forget a named die; its rolls are kept, no longer attributed (the players may give them to
        another die). Returns how many rolls it had."""

        def work(db: sqlite3.Connection) -> int:
            if db.execute("SELECT 1 FROM dice WHERE id = ?", (die_id,)).fetchone() is None:
                raise IllegalAction(f"no die {die_id}")
            moved = db.execute("UPDATE rolls SET die_id = NULL WHERE die_id = ?", (die_id,)).rowcount
            db.execute("DELETE FROM dice WHERE id = ?", (die_id,))
            return int(moved)

        return int(self._transaction(work))

    def roll_counts(self, die_id: int | None = None) -> list[tuple[int | None, int, int, int, int]]:
        """``(die_id, sides, value, rolls, of them by hand)`` of the rolls that count (:data:`LIVE_ROLLS`),
        of every die (and of none), or of die ``die_id`` only."""
        where, args = ("", ()) if die_id is None else (" AND r.die_id = ?", (die_id,))
        with self._lock:
            rows = self.db.execute(
                f"SELECT r.die_id, r.sides, r.value, COUNT(*), SUM(r.hand) FROM rolls r WHERE {LIVE_ROLLS}"
                f"{where} GROUP BY r.die_id, r.sides, r.value", args).fetchall()
        return [(r[0], r[1], r[2], r[3], r[4]) for r in rows]

    def add_rolls(self, die_id: int, values: Sequence[int]) -> int:
        """Rolls of a named die entered by hand on the dice page, all in one transaction."""

        def work(db: sqlite3.Connection) -> int:
            row = db.execute("SELECT sides FROM dice WHERE id = ?", (die_id,)).fetchone()
            if row is None:
                raise IllegalAction(f"no die {die_id}")
            self._insert_rolls(db, None, [NewRoll(row[0], v, True, die_id) for v in values], self._clock())
            return len(values)

        return int(self._transaction(work))

    def undo_hand_rolls(self, die_id: int) -> int:
        """Take back the last rolls entered by hand on the dice page for ``die_id`` (one entry: they share
        their time); how many. Rolls of confirmed steps are never deleted here."""

        def work(db: sqlite3.Connection) -> int:
            last = db.execute("SELECT MAX(at) FROM rolls WHERE die_id = ? AND event_id IS NULL AND hand = 1",
                              (die_id,)).fetchone()[0]
            if last is None:
                raise IllegalAction(f"no roll of die {die_id} was entered on the dice page")
            return int(db.execute("DELETE FROM rolls WHERE die_id = ? AND event_id IS NULL AND hand = 1 "
                                  "AND at = ?", (die_id, last)).rowcount)

        return int(self._transaction(work))

    def assign_rolls(self, roll_ids: Sequence[int], die_id: int | None) -> int:
        """Attribute rolls to named die ``die_id`` (None: to no die), all or none: every roll must exist
        and have the die's sides."""

        def work(db: sqlite3.Connection) -> int:
            sides = None
            if die_id is not None:
                row = db.execute("SELECT sides FROM dice WHERE id = ?", (die_id,)).fetchone()
                if row is None:
                    raise IllegalAction(f"no die {die_id}")
                sides = row[0]
            for roll_id in roll_ids:
                found = db.execute("SELECT sides FROM rolls WHERE id = ?", (roll_id,)).fetchone()
                if found is None:
                    raise IllegalAction(f"no roll {roll_id}")
                if sides is not None and found[0] != sides:
                    raise IllegalAction(f"roll {roll_id} is of a d{found[0]}, not of a d{sides}")
                db.execute("UPDATE rolls SET die_id = ? WHERE id = ?", (die_id, roll_id))
            return len(roll_ids)

        return int(self._transaction(work))

    def roll_sides(self, roll_ids: Sequence[int]) -> dict[int, int]:
        """``roll id -> sides`` of those of ``roll_ids`` that exist."""
        out: dict[int, int] = {}
        with self._lock:
            for start in range(0, len(roll_ids), 500):
                chunk = list(roll_ids[start:start + 500])
                marks = ",".join("?" * len(chunk))
                rows = self.db.execute(f"SELECT id, sides FROM rolls WHERE id IN ({marks})", chunk).fetchall()
                out.update((r[0], r[1]) for r in rows)
        return out

    def unattributed(self, *, limit: int = 200) -> list[dict[str, Any]]:
        """Rolls that count but belong to no named die yet, newest first (at most ``limit``): ``id``,
        ``sides``, ``value``, ``hand``, ``game_id``, ``step`` (None: entered on the dice page), ``at``."""
        with self._lock:
            rows = self.db.execute(
                "SELECT r.id, r.sides, r.value, r.hand, e.game_id, e.step, r.at FROM rolls r "
                f"LEFT JOIN events e ON e.id = r.event_id WHERE r.die_id IS NULL AND {LIVE_ROLLS} "
                "ORDER BY r.id DESC LIMIT ?", (limit,)).fetchall()
        return [{"id": r[0], "sides": r[1], "value": r[2], "hand": bool(r[3]), "game_id": r[4], "step": r[5],
                 "at": r[6]} for r in rows]

    def roll_rows(self, die_id: int | None = None, *, batch: int = 2000) -> Iterator[tuple[Any, ...]]:
        """Every roll that counts (of die ``die_id``, or all), oldest first, for the export: ``(roll id,
        die id, die name, sides, colour, value, hand, game id, step, at)``; read ``batch`` rows at a time,
        so a long history is never held at once."""
        where = LIVE_ROLLS + ("" if die_id is None else " AND r.die_id = ?")
        last = 0
        while True:
            args: tuple[Any, ...] = (last,) if die_id is None else (last, die_id)
            with self._lock:
                rows = self.db.execute(
                    "SELECT r.id, r.die_id, d.name, r.sides, d.colour, r.value, r.hand, e.game_id, e.step, "
                    "r.at FROM rolls r LEFT JOIN dice d ON d.id = r.die_id "
                    "LEFT JOIN events e ON e.id = r.event_id "
                    f"WHERE r.id > ? AND {where} ORDER BY r.id LIMIT {int(batch)}", args).fetchall()
            yield from (tuple(r) for r in rows)
            if len(rows) < batch:
                return
            last = rows[-1][0]
