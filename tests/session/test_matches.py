"""Matches are kept, not replaced: a new game archives the one at the table (asking first while it is in
progress), the list of matches, export and resume of any of them, and files written before the list."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest

from companion.errors import IllegalAction, InvalidInput
from companion.session import GameInProgress, TableSession
from companion.store import SCHEMA_VERSION, Store
from tests.helpers import copy_to_old_file
from tests.session.conftest import D6_SETUP, MIXED_SETUP, play_step

#: The events table as versions 1 and 2 wrote it (before the players' dice).
OLD_EVENTS = """
CREATE TABLE events (id INTEGER PRIMARY KEY AUTOINCREMENT, game_id INTEGER NOT NULL REFERENCES games(id),
    step INTEGER NOT NULL CHECK (step >= 1), action TEXT NOT NULL,
    source TEXT NOT NULL CHECK (source IN ('camera', 'choice', 'manual')),
    manual INTEGER NOT NULL CHECK (manual IN (0, 1)), proposal TEXT, reading TEXT, at REAL NOT NULL,
    undone TEXT, undone_at REAL);
CREATE UNIQUE INDEX live_step ON events (game_id, step) WHERE undone IS NULL;
"""

#: The schema as version 1 wrote it (before ``archived`` and ``summary``).
V1_SCHEMA = """
CREATE TABLE games (id INTEGER PRIMARY KEY AUTOINCREMENT, game TEXT NOT NULL, setup TEXT NOT NULL,
                    started REAL NOT NULL, finished REAL);
""" + OLD_EVENTS + "PRAGMA user_version=1;\n"


def played(session: TableSession, setup: dict[str, object], steps: int, seed: int = 1,
           archive: bool = False) -> int:
    session.new_game("button-goblin", setup, archive=archive)
    rng = random.Random(seed)
    for _ in range(steps):
        play_step(session, rng)
    assert session.game_id is not None
    return session.game_id


def test_a_new_game_over_one_in_progress_is_refused_and_changes_nothing(session: TableSession,
                                                                        store: Store) -> None:
    first = played(session, D6_SETUP, 3)
    before, version = session.snapshot(), session.version
    with pytest.raises(GameInProgress, match=r"a match of Button Goblin is in progress \(step 3\)") as caught:
        session.new_game("button-goblin", MIXED_SETUP)
    assert caught.value.code == "game-in-progress"
    assert session.version == version and session.snapshot() == before
    assert [g["id"] for g in store.games()] == [first]
    # a game with no confirmed step is nothing to lose: replaced without a word, and still kept
    second = played(session, MIXED_SETUP, 0, archive=True)
    third = played(session, D6_SETUP, 0)
    assert [g["id"] for g in store.games()] == [third, second, first]


def test_the_list_of_matches_says_date_game_players_and_result(session: TableSession) -> None:
    first = played(session, D6_SETUP, 0)
    rng = random.Random(0)
    while not session.snapshot()["over"]:
        play_step(session, rng)
    winner = session.snapshot()["view"]["outcome"]["name"]
    finished_steps = session.step
    second = played(session, MIXED_SETUP, 2, seed=3)  # the finished match needs no confirmation
    matches = session.matches()["matches"]
    assert [m["game_id"] for m in matches] == [second, first]
    now, old = matches
    assert now["current"] and now["archived"] is None and not now["resumable"] and not now["over"]
    assert now["players"] == ["Anna", "Bruno"] and now["steps"] == 2 and now["winners"] == []
    assert not old["current"] and old["archived"] is not None and old["finished"] is not None
    assert old["over"] and old["winners"] == [winner] and old["steps"] == finished_steps
    assert not old["resumable"] and old["title"] == "Button Goblin" and old["started"] <= old["archived"]
    # any of them exports, the archived one as it ended
    exported = session.export(first)
    assert exported["game_id"] == first and exported["over"] and exported["steps"] == finished_steps
    with pytest.raises(IllegalAction, match=f"match {first} is over"):
        session.resume(first)


def test_an_archived_match_resumes_where_it_was_and_survives_a_restart(db: Path) -> None:
    with Store(db) as store:
        session = TableSession(store)
        first = played(session, D6_SETUP, 5, seed=2)
        at_5 = session.snapshot()
        second = played(session, MIXED_SETUP, 2, seed=3, archive=True)
        with pytest.raises(GameInProgress):
            session.resume(first)
        assert session.game_id == second
        resumed = session.resume(first, archive=True)
        assert resumed["game_id"] == first and resumed["step"] == 5
        assert resumed["view"] == at_5["view"] and resumed["history"] == at_5["history"]
        listed = session.matches()["matches"]
        assert {m["game_id"]: m["resumable"] for m in listed} == {second: True, first: False}
    with Store(db) as store:  # after a restart the table stands at the resumed match, not the newest
        again = TableSession(store)
        assert again.game_id == first and again.step == 5
        assert again.undo(step=5)["step"] == 4
        play_step(again, random.Random(9))
        back = again.resume(second, archive=True)
        assert back["game_id"] == second and back["step"] == 2
        assert store.load(first) is not None and store.load(first).step == 5  # type: ignore[union-attr]


def test_a_file_written_before_the_list_is_migrated_and_keeps_every_step(db: Path) -> None:
    # the same two matches written by this version, then copied into a version-1 file as that one wrote it
    with Store(db) as store:
        session = TableSession(store)
        first = played(session, D6_SETUP, 4, seed=2)
        second = played(session, MIXED_SETUP, 3, seed=3, archive=True)
        expected = {g: session.export(g) for g in (first, second)}
        old = copy_to_old_file(store, db, "old.sqlite3", V1_SCHEMA, "id, game, setup, started, finished")
    for _ in range(2):  # opening twice migrates once
        with Store(old) as store:
            assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 3
            assert store.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            session = TableSession(store)
            assert session.game_id == second and session.step == 3  # the newest was at the table
            matches = session.matches()["matches"]
            assert [(m["game_id"], m["steps"], m["current"], m["resumable"]) for m in matches] == [
                (second, 3, True, False), (first, 4, False, True)]
            assert matches[1]["players"] == ["Anna", "Bruno"] and matches[1]["archived"] is not None
            for game_id, export in expected.items():
                got = session.export(game_id)
                assert json.dumps(got["events"]) == json.dumps(export["events"])
                assert got["view"] == export["view"]
    with Store(old) as store:  # the summary worked out by replay is kept
        summary = store.db.execute("SELECT summary FROM games WHERE id = ?", (first,)).fetchone()[0]
        assert json.loads(summary)["players"] == ["Anna", "Bruno"]


def test_a_file_from_a_newer_version_is_refused_untouched(db: Path) -> None:
    with Store(db):
        pass
    with sqlite3.connect(db) as raw:
        raw.execute("PRAGMA user_version=9")
    raw.close()
    with pytest.raises(Exception, match="newer version"):
        Store(db)
    with sqlite3.connect(db) as raw:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == 9
    raw.close()


def test_the_list_comes_in_pages_of_at_most_fifty(session: TableSession) -> None:
    ids = [played(session, D6_SETUP, 0) for _ in range(53)]
    first = session.matches()
    assert [m["game_id"] for m in first["matches"]] == ids[::-1][:50] and first["more"]
    rest = session.matches(before=first["matches"][-1]["game_id"])
    assert [m["game_id"] for m in rest["matches"]] == ids[::-1][50:] and not rest["more"]
    assert session.matches(limit=2)["matches"][0]["current"]
    with pytest.raises(InvalidInput, match=r"1\.\.50"):
        session.matches(limit=51)
