"""The players' dice at a real table over a real SQLite file: rolls of confirmed readings go to the named
die, undo takes them back, a restart keeps them, rolls the camera cannot attribute wait for the players,
hand entries, the CSV, the caps, and the schema migration of a file written before the dice."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from pathlib import Path

import pytest

from companion.dice import MAX_DICE, MAX_DIE_NAME, MAX_ENTRY, DiceBook, UnknownDie
from companion.errors import IllegalAction, InvalidInput
from companion.session import TableSession
from companion.store import SCHEMA_VERSION, Store
from tests.dice.conftest import PIG, pig_rolls, roll, seeded
from tests.helpers import copy_to_old_file
from tests.session.conftest import D6_SETUP
from tests.session.test_matches import OLD_EVENTS
from tests.web.conftest import FIRST_ROLL, camera_reading

pytestmark = pytest.mark.usefixtures("pig")


def test_confirmed_rolls_go_to_the_named_die_at_the_table_and_undo_takes_them_back(db: Path) -> None:
    with Store(db) as store:
        book, session = DiceBook(store), TableSession(store)
        red = book.name_die("il d6 rosso", 6, "red")
        assert red["rolls"] == 0 and red["verdict"]["kind"] == "too-few" and red["colour"] == "red"
        session.new_game("pig", PIG)
        pig_rolls(session, [6, 5, 6, 2])
        session.correct({"type": "reading", "values": {"die": 4}})  # a person's own entry: hand-entered
        got = book.die_report(red["id"])
        assert got["rolls"] == 5 and got["hand"] == 1 and got["camera"] == 4
        assert [f["count"] for f in got["faces"]] == [0, 1, 0, 1, 1, 2]
        session.undo()  # the 4 is taken back: it no longer counts (it stays in the file)
        assert book.die_report(red["id"])["rolls"] == 4
        assert store.db.execute("SELECT COUNT(*) FROM rolls").fetchone()[0] == 5
        roll(session, 3)
        # a hold is a choice, not a roll
        session.choose(0)
        assert book.die_report(red["id"])["rolls"] == 5
    with Store(db) as store:  # across a restart and into the next match
        book, session = DiceBook(store), TableSession(store)
        assert [f["count"] for f in book.die_report(red["id"])["faces"]] == [0, 1, 1, 0, 1, 2]
        session.new_game("pig", PIG, archive=True)
        pig_rolls(session, [1, 1])
        assert book.die_report(red["id"])["rolls"] == 7
        assert book.report()["unattributed"] == {"rolls": 0, "by_sides": {}}


def test_rolls_the_table_cannot_attribute_wait_and_the_players_give_them_to_a(store: Store,
                                                                             session: TableSession) -> None:
    book = DiceBook(store)
    red = book.name_die("il d6 rosso", 6, "red")["id"]
    d20 = book.name_die("il d20 blu", 20, "blue")["id"]
    session.new_game("button-goblin", D6_SETUP)  # eight d6 in one reading: which one is the red?
    session.offer_reading(camera_reading(FIRST_ROLL))
    session.confirm()
    report = book.report()
    assert report["unattributed"] == {"rolls": 8, "by_sides": {"6": 8}}
    assert [d["rolls"] for d in report["dice"]] == [0, 0]
    waiting = book.unattributed()
    assert sorted(r["value"] for r in waiting) == sorted(FIRST_ROLL.values())
    assert all(r["game_id"] == session.game_id and r["step"] == 1 and not r["hand"] for r in waiting)
    with pytest.raises(IllegalAction, match="is of a d6, not of a d20 like il d20 blu"):
        book.assign([waiting[0]["id"], waiting[1]["id"]], d20)
    assert book.report()["unattributed"]["rolls"] == 8  # all or nothing
    after = book.assign([waiting[0]["id"], waiting[1]["id"]], red)
    assert after["assigned"] == 2 and after["unattributed"]["rolls"] == 6
    assert book.die_report(red)["rolls"] == 2
    with pytest.raises(UnknownDie, match="no die 99"):
        book.assign([waiting[2]["id"]], 99)
    with pytest.raises(IllegalAction, match="no roll 123456"):
        book.assign([123456], red)
    for bad in ([], "1,2", [True], list(range(501))):
        with pytest.raises(InvalidInput):
            book.assign(bad, red)
    # a die put away is no longer given rolls; the only d6 at the table is
    book.update_die(red, at_table=False)
    blue6 = book.name_die("d6 verde", 6, "green")["id"]
    session.new_game("pig", PIG, archive=True)
    pig_rolls(session, [3])
    assert book.die_report(blue6)["rolls"] == 1 and book.die_report(red)["rolls"] == 2
    # two d6 at the table: nobody knows which one rolled
    book.update_die(red, at_table=True)
    pig_rolls(session, [4])
    assert book.report()["unattributed"]["rolls"] == 7


def test_hand_entries_values_or_a_tally_and_the_last_entry_taken_back(store: Store) -> None:
    book = DiceBook(store)
    d20 = book.name_die("d20 d'oro", 20, "gold")["id"]
    got = book.enter_rolls(d20, values=[20, 20, 1])
    assert got["added"] == 3 and got["rolls"] == 3 and got["hand"] == 3 and got["camera"] == 0
    got = book.enter_rolls(d20, counts={"20": 10, "3": 2})
    assert got["added"] == 12 and got["faces"][19]["count"] == 12
    got = book.enter_rolls(d20, counts=[5] * 20)
    assert got["rolls"] == 115 and got["verdict"]["kind"] != "too-few"
    assert book.undo_entry(d20)["removed"] == 100
    assert book.undo_entry(d20)["removed"] == 12
    assert book.die_report(d20)["rolls"] == 3
    bad = [dict(values=[0]), dict(values=[21]), dict(values=[2.5]), dict(values=[]), dict(values="20 3"),
           dict(counts=[1] * 19), dict(counts={"21": 1}), dict(counts={"x": 1}), dict(counts={"2": -1}),
           dict(counts={"2": 0}), dict(counts="lots"), dict(), dict(values=[1], counts=[1] * 20),
           dict(values=[1] * (MAX_ENTRY + 1)), dict(counts={"1": MAX_ENTRY, "2": 1})]
    for entry in bad:
        with pytest.raises(InvalidInput):
            book.enter_rolls(d20, **entry)  # type: ignore[arg-type]
    assert book.die_report(d20)["rolls"] == 3  # nothing half written
    with pytest.raises(UnknownDie):
        book.enter_rolls(4242, values=[1])


def test_a_loaded_die_entered_by_hand_is_named_and_a_fair_one_is_not(store: Store) -> None:
    book = DiceBook(store)
    loaded = book.name_die("il d20 rosso", 20, "red")["id"]
    fair = book.name_die("il d20 bianco", 20, "white")["id"]
    book.enter_rolls(loaded, values=seeded(3, [1.0] * 19 + [2.5], 600))
    book.enter_rolls(fair, values=seeded(3, [1.0] * 20, 600))
    verdicts = {d["name"]: d["verdict"] for d in book.report()["dice"]}
    assert verdicts["il d20 rosso"]["kind"] == "face-high" and verdicts["il d20 rosso"]["face"] == 20
    assert verdicts["il d20 rosso"]["it"].startswith("il 20 esce troppo spesso: p ")
    assert verdicts["il d20 bianco"] == {**verdicts["il d20 bianco"], "kind": "fair",
                                         "it": "nessun segno di squilibrio dopo 600 tiri"}


def test_naming_checks_and_caps(store: Store) -> None:
    book = DiceBook(store)
    first = book.name_die("  il   d20  rosso ", 20)
    assert first["name"] == "il d20 rosso" and first["colour"] == "" and first["at_table"] is True
    with pytest.raises(IllegalAction, match="already named 'il d20 rosso'"):
        book.name_die("il d20 rosso", 20)
    for name, sides, colour, match in [
        ("", 6, "", "needs a name"), ("x" * (MAX_DIE_NAME + 1), 6, "", "at most 40 characters"),
        ("a\x00b", 6, "", "without control characters"), ("\ud800", 6, "", "printable Unicode"),
        (7, 6, "", "is text"),
        ("d1", 1, "", r"2\.\.100 sides"), ("d", 101, "", r"2\.\.100 sides"), ("d", "6", "", "whole number"),
        ("d", 6, "fuchsia", "colour must be one of"),
    ]:
        with pytest.raises(InvalidInput, match=match):
            book.name_die(name, sides, colour)
    for n in range(1, MAX_DICE):
        book.name_die(f"dado {n}", 6)
    with pytest.raises(IllegalAction, match=f"already has {MAX_DICE} named dice"):
        book.name_die("uno di troppo", 6)
    renamed = book.update_die(first["id"], name="il d20 rubino", colour="red")
    assert renamed["name"] == "il d20 rubino" and renamed["colour"] == "red"
    with pytest.raises(IllegalAction, match="already named 'dado 1'"):
        book.update_die(first["id"], name="dado 1")
    with pytest.raises(UnknownDie, match="no die 0"):
        book.update_die(0, name="x")
    with pytest.raises(InvalidInput, match="true or false"):
        book.update_die(first["id"], at_table="yes")


def test_a_removed_die_leaves_its_rolls_waiting_for_another(store: Store) -> None:
    book = DiceBook(store)
    a = book.name_die("vecchio d6", 6)["id"]
    book.enter_rolls(a, values=[1, 2, 3])
    assert book.remove_die(a) == {"removed": a, "rolls_kept": 3}
    report = book.report()
    assert report["dice"] == [] and report["unattributed"] == {"rolls": 3, "by_sides": {"6": 3}}
    b = book.name_die("nuovo d6", 6)["id"]
    book.assign([r["id"] for r in book.unattributed()], b)
    assert book.die_report(b)["rolls"] == 3 and book.die_report(b)["hand"] == 3
    with pytest.raises(UnknownDie):
        book.remove_die(a)


def test_csv_of_one_die_and_of_all(store: Store, session: TableSession) -> None:
    book = DiceBook(store)
    red = book.name_die("=rosso", 6, "red")["id"]  # a name a spreadsheet would run as a formula
    session.new_game("pig", PIG)
    pig_rolls(session, [5, 6])
    book.enter_rolls(red, values=[2])
    session.new_game("button-goblin", D6_SETUP, archive=True)
    session.offer_reading(camera_reading(FIRST_ROLL))
    session.confirm()
    rows = list(csv.DictReader(io.StringIO("".join(book.csv(red)))))
    assert [(r["die"], r["sides"], r["colour"], r["value"], r["entered"], r["step"]) for r in rows] == [
        ("'=rosso", "6", "red", "5", "camera", "1"), ("'=rosso", "6", "red", "6", "camera", "2"),
        ("'=rosso", "6", "red", "2", "hand", "")]
    assert rows[0]["at_utc"].endswith("Z") and rows[0]["die_id"] == str(red)
    everything = list(csv.DictReader(io.StringIO("".join(book.csv()))))
    assert len(everything) == 11 and sum(r["die"] == "" for r in everything) == 8
    with pytest.raises(UnknownDie):
        book.csv(77)


def test_the_export_streams_in_batches(store: Store) -> None:
    book = DiceBook(store)
    d4 = book.name_die("d4", 4)["id"]
    book.enter_rolls(d4, values=[1, 2, 3, 4] * 1250)
    rows = list(store.roll_rows(d4, batch=7))
    assert len(rows) == 5000 and [r[5] for r in rows[:5]] == [1, 2, 3, 4, 1]
    assert len({r[0] for r in rows}) == 5000


#: The schema as version 2 wrote it (before the players' dice).
V2_SCHEMA = """
CREATE TABLE games (id INTEGER PRIMARY KEY AUTOINCREMENT, game TEXT NOT NULL, setup TEXT NOT NULL,
                    started REAL NOT NULL, finished REAL, archived REAL, summary TEXT);
""" + OLD_EVENTS + "PRAGMA user_version=2;\n"


def _version_2_copy(db: Path) -> tuple[Path, dict[str, object]]:
    with Store(db) as store:
        session = TableSession(store)
        session.new_game("pig", PIG)
        pig_rolls(session, [6, 4, 1])
        expected = session.export()
        old = copy_to_old_file(store, db, "v2.sqlite3", V2_SCHEMA, "*")
    return old, expected


def test_a_version_2_file_gains_the_dice_and_keeps_every_step(db: Path) -> None:
    old, expected = _version_2_copy(db)
    for _ in range(2):  # opening twice migrates once
        with Store(old) as store:
            assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 3
            assert store.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            session = TableSession(store)
            got = session.export()
            assert json.dumps(got["events"][:3]) == json.dumps(expected["events"])
            assert got["steps"] == 3 and got["view"] == expected["view"]
            book = DiceBook(store)
            assert book.report()["unattributed"]["rolls"] == 0  # steps before the dice are not counted
            if not store.named_dice():
                book.name_die("il d6 rosso", 6)
            pig_rolls(session, [5])
            session.undo()
    with Store(old) as store:
        assert [d.name for d in store.named_dice()] == ["il d6 rosso"]
        # each reopen confirmed a 5 and took it back: nothing counts
        assert DiceBook(store).report()["dice"][0]["rolls"] == 0


def test_a_migration_that_fails_leaves_the_version_2_file_as_it_was(db: Path) -> None:
    old, _ = _version_2_copy(db)
    with sqlite3.connect(old) as raw:  # something in the way: a view where the rolls table goes
        raw.execute("CREATE VIEW rolls AS SELECT id FROM events")
    raw.close()
    before = old.read_bytes()
    with pytest.raises(InvalidInput, match="cannot use"):
        Store(old)
    with sqlite3.connect(old) as raw:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == 2
        tables = {r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert "dice" not in tables and raw.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 3
    raw.close()
    assert len(old.read_bytes()) == len(before)
