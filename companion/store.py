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

Schema versions: 1 had no ``archived`` or ``summary``; opening such a file adds both columns and archives
every game but the newest, in one transaction (a crash leaves the file as it was).

Durability: WAL journal with ``synchronous=FULL``, one transaction per write. After a ``kill -9`` or a
power cut, reopening the file gives exactly the events whose write returned.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal

from companion.errors import IllegalAction, InvalidInput

#: The file name under the state directory.
DB_NAME: Final = "companion.sqlite3"

Source = Literal["camera", "choice", "manual"]
"""Where a confirmed action came from: a camera proposal, a legal choice (page tap or NEXT/CONFIRM),
or a person's own entry (a correction)."""
SOURCES: Final[tuple[Source, ...]] = ("camera", "choice", "manual")

SCHEMA_VERSION: Final = 2
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
"""
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
        if self.proposal is not None:
            out["proposal"] = self.proposal
        if self.reading is not None:
            out["reading"] = self.reading
        if self.undone is not None:
            out["undone"] = self.undone
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
    ) -> Event:
        """Record the confirmed action of ``step`` (which must be the next one)."""
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
