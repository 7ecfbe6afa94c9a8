"""The event log: a real SQLite file, WAL and synchronous=FULL, undo as a record, and kill -9."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from companion.errors import IllegalAction, InvalidInput
from companion.store import DB_NAME, Store


def test_file_is_wal_with_full_sync(db: Path) -> None:
    with Store(db) as store:
        assert store.path == db and db.exists()
        assert store.journal_mode() == "wal"
        assert store.synchronous() == 2  # FULL


def test_a_state_directory_holds_the_file(tmp_path: Path) -> None:
    with Store(tmp_path / "state") as store:
        assert store.path == tmp_path / "state" / DB_NAME


def test_events_keep_order_source_and_manual_flag(store: Store) -> None:
    game = store.start_game("button-goblin", {"players": []})
    store.append(game, 1, {"type": "swing"}, source="choice")
    store.append(game, 2, {"type": "reading", "values": {"p0.1": 3}}, source="manual",
                 proposal={"type": "reading", "values": {"p0.1": 5}}, reading={"dice": []})
    record = store.load()
    assert record is not None and record.id == game and record.step == 2
    first, second = record.events
    assert (first.step, first.source, first.manual) == (1, "choice", False)
    assert (second.step, second.manual) == (2, True)
    assert second.proposal == {"type": "reading", "values": {"p0.1": 5}}


def test_only_the_next_step_can_be_appended(store: Store) -> None:
    game = store.start_game("button-goblin", {})
    with pytest.raises(IllegalAction, match="step 2 is not the next one: the log has 0 steps"):
        store.append(game, 2, {"type": "pass"}, source="choice")
    with pytest.raises(InvalidInput, match="source must be one of"):
        store.append(game, 1, {"type": "pass"}, source="robot")  # type: ignore[arg-type]
    with pytest.raises(InvalidInput, match="the action is not JSON"):
        store.append(game, 1, {"type": {1, 2}}, source="choice")
    assert store.load() is not None and store.load().step == 0  # type: ignore[union-attr]


def test_undo_is_a_record_and_the_step_is_taken_again(store: Store) -> None:
    game = store.start_game("g", {})
    store.append(game, 1, {"type": "a"}, source="choice")
    store.append(game, 2, {"type": "b"}, source="choice")
    store.undo(game, 2)
    store.append(game, 2, {"type": "c"}, source="choice")
    live = store.load()
    assert live is not None and [e.action["type"] for e in live.events] == ["a", "c"]
    everything = store.load(with_undone=True)
    assert everything is not None
    undone = [(e.action["type"], e.undone) for e in everything.events]
    assert undone == [("a", None), ("b", "undo"), ("c", None)]
    with pytest.raises(IllegalAction, match="step 3 is not in the log"):
        store.undo(game, 3)


def test_the_live_step_index_refuses_two_events_for_one_step(db: Path) -> None:
    with Store(db) as store:
        game = store.start_game("g", {})
        store.append(game, 1, {"type": "a"}, source="choice")
    raw = sqlite3.connect(db)
    with pytest.raises(sqlite3.IntegrityError):
        raw.execute("INSERT INTO events (game_id, step, action, source, manual, at) "
                    "VALUES (?, 1, '{}', 'choice', 0, 0)", (game,))
    raw.close()


def test_a_file_that_is_not_sqlite_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "x.sqlite3"
    bad.write_bytes(b"this is not a database" * 100)
    with pytest.raises(InvalidInput, match=r"cannot use .*x\.sqlite3.* as the event log"):
        Store(bad)


def test_a_closed_store_says_so(db: Path) -> None:
    store = Store(db)
    store.close()
    store.close()
    with pytest.raises(IllegalAction, match="is closed"):
        store.load()


WRITER = """
import os, signal, sys
from companion.store import Store
store = Store(sys.argv[1])
game = store.start_game("g", {"n": 1})
for step in range(1, 51):
    store.append(game, step, {"type": "tick", "n": step}, source="choice")
    print(step, flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_every_append_that_returned_survives_kill_9(db: Path) -> None:
    done = subprocess.run([sys.executable, "-c", WRITER, str(db)], capture_output=True, text=True,
                          cwd=Path(__file__).parents[2], timeout=60)
    assert done.returncode == -signal.SIGKILL
    printed = [int(line) for line in done.stdout.split()]
    assert printed[-1] == 50
    with Store(db) as store:
        record = store.load()
        assert record is not None
        assert [e.action["n"] for e in record.events] == list(range(1, 51))
    assert os.path.exists(str(db) + "-wal") or db.stat().st_size > 0
