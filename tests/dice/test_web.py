"""The dice API over a real session and SQLite file: naming, hand entries, the rolls that wait, CSV, and
every kind of bad request getting a clear 4xx with a key the page translates (the table PIN applies)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.dice import MAX_DICE
from companion.session import TableSession
from tests.dice.conftest import seeded
from tests.web.conftest import D6_SETUP, FIRST_ROLL, camera_reading

PIN = {"X-Table-PIN": "97531"}
I18N = Path(__file__).resolve().parents[2] / "web" / "i18n"
CATALOGUES = {lang: json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8")) for lang in ("it", "en")}


def post(client: FlaskClient, path: str, body: Any = None, *, pin: bool = True) -> Any:
    return client.post(path, json=body if body is not None else {}, headers=PIN if pin else {})


def named(client: FlaskClient, name: str, sides: int, colour: str = "") -> int:
    response = post(client, "/api/dice", {"name": name, "sides": sides, "colour": colour})
    assert response.status_code == 200, response.json
    return int(response.json["id"])


def test_name_enter_read_and_export(client: FlaskClient) -> None:
    assert client.get("/api/dice").json["dice"] == []
    red = named(client, "il d20 rosso", 20, "red")
    values = seeded(5, [1.0] * 19 + [3.0], 300)
    got = post(client, f"/api/dice/{red}/rolls", {"values": values})
    assert got.status_code == 200 and got.json["added"] == 300 and got.json["verdict"]["kind"] == "face-high"
    one = client.get(f"/api/dice/{red}").json
    assert one["rolls"] == 300
    assert [f["count"] for f in one["faces"]] == [values.count(v) for v in range(1, 21)]
    listed = client.get("/api/dice").json
    assert [d["name"] for d in listed["dice"]] == ["il d20 rosso"] and listed["waiting"] == []
    assert listed["colours"][0] == "" and listed["max_dice"] == MAX_DICE
    response = client.get(f"/api/dice.csv?die={red}")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert response.headers["Content-Disposition"] == f"attachment; filename=goblin-die-{red}.csv"
    rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
    assert [int(r["value"]) for r in rows] == values and {r["entered"] for r in rows} == {"hand"}
    everything = client.get("/api/dice.csv")
    assert everything.headers["Content-Disposition"] == "attachment; filename=goblin-dice.csv"
    # tally, rename, put away, take back the entry, remove
    d6 = named(client, "il d6 bianco", 6, "white")
    assert post(client, f"/api/dice/{d6}/rolls", {"counts": [40] * 6}).json["verdict"]["kind"] == "fair"
    changed = post(client, f"/api/dice/{d6}/update", {"name": "il d6 avorio", "at_table": False}).json
    assert changed["name"] == "il d6 avorio" and changed["at_table"] is False
    assert post(client, f"/api/dice/{d6}/undo-entry").json["removed"] == 240
    assert post(client, f"/api/dice/{d6}/remove").json == {"removed": d6, "rolls_kept": 0}
    assert [d["id"] for d in client.get("/api/dice").json["dice"]] == [red]


def test_waiting_rolls_are_listed_and_assigned(client: FlaskClient, session: TableSession) -> None:
    d6 = named(client, "il d6 rosso", 6, "red")
    assert post(client, "/api/new-game", {"game": "button-goblin", "setup": D6_SETUP}).status_code == 200
    session.offer_reading(camera_reading(FIRST_ROLL))
    assert post(client, "/api/confirm").status_code == 200
    waiting = client.get("/api/dice").json["waiting"]
    assert len(waiting) == 8 and {w["step"] for w in waiting} == {1}
    ids = [w["id"] for w in waiting[:3]]
    done = post(client, "/api/dice/assign", {"rolls": ids, "die": d6})
    assert done.status_code == 200 and done.json["assigned"] == 3
    assert done.json["unattributed"]["rolls"] == 5 and done.json["dice"][0]["rolls"] == 3
    assert done.json["dice"][0]["camera"] == 3 and done.json["dice"][0]["hand"] == 0
    # undo of the step takes its rolls out of every count
    assert post(client, "/api/undo").status_code == 200
    after = client.get("/api/dice").json
    assert after["dice"][0]["rolls"] == 0 and after["unattributed"]["rolls"] == 0 and after["waiting"] == []


def _catalogued(body: dict[str, Any]) -> None:
    assert body["key"] in CATALOGUES["it"] and body["key"] in CATALOGUES["en"], body
    italian = CATALOGUES["it"][body["key"]]
    names = {n for n in body["params"]}
    assert all(f"{{{n}}}" in italian for n in names if f"{{{n}}}" in CATALOGUES["en"][body["key"]]), body


@pytest.mark.parametrize(("path", "body", "status", "key"), [
    ("/api/dice", {"name": "", "sides": 6}, 400, "dice.error.name_empty"),
    ("/api/dice", {"name": "x" * 41, "sides": 6}, 400, "dice.error.name_long"),
    ("/api/dice", {"name": ["x"], "sides": 6}, 400, "dice.error.name_text"),
    ("/api/dice", {"name": "d", "sides": 7.5}, 400, "dice.error.int"),
    ("/api/dice", {"name": "d", "sides": 1}, 400, "dice.error.sides"),
    ("/api/dice", {"name": "d", "sides": 6, "colour": "fuchsia"}, 400, "dice.error.colour"),
    ("/api/dice", {"name": "d", "sides": 6, "at_table": "si"}, 400, "dice.error.flag"),
    ("/api/dice", {"name": "il d20", "sides": 20}, 409, "dice.error.name_taken"),
    ("/api/dice/{die}/rolls", {"values": [21]}, 400, "dice.error.roll_face"),
    ("/api/dice/{die}/rolls", {"values": ["tre"]}, 400, "dice.error.roll_int"),
    ("/api/dice/{die}/rolls", {"values": []}, 400, "dice.error.values"),
    ("/api/dice/{die}/rolls", {}, 400, "dice.error.entry_one"),
    ("/api/dice/{die}/rolls", {"counts": [1, 2]}, 400, "dice.error.tally_length"),
    ("/api/dice/{die}/rolls", {"counts": {"0": 3}}, 400, "dice.error.tally_face"),
    ("/api/dice/{die}/rolls", {"counts": {"5": -3}}, 400, "dice.error.count_negative"),
    ("/api/dice/{die}/rolls", {"counts": {"5": "3"}}, 400, "dice.error.count_int"),
    ("/api/dice/{die}/rolls", {"counts": {"5": 0}}, 400, "dice.error.tally_empty"),
    ("/api/dice/{die}/rolls", {"counts": "many"}, 400, "dice.error.tally"),
    ("/api/dice/{die}/rolls", {"counts": {"1": 10_001}}, 400, "dice.error.too_many"),
    ("/api/dice/{die}/undo-entry", {}, 409, "dice.error.no_entry"),
    ("/api/dice/{die}/update", {"name": "  "}, 400, "dice.error.name_empty"),
    ("/api/dice/777/rolls", {"values": [1]}, 404, "dice.error.unknown"),
    ("/api/dice/777/update", {"name": "x"}, 404, "dice.error.unknown"),
    ("/api/dice/777/remove", {}, 404, "dice.error.unknown"),
    ("/api/dice/assign", {"rolls": [1], "die": 777}, 404, "dice.error.unknown"),
    ("/api/dice/assign", {"rolls": "1", "die": 1}, 400, "dice.error.roll_list"),
    ("/api/dice/assign", {"rolls": list(range(501)), "die": 1}, 400, "dice.error.assign_many"),
    ("/api/dice/assign", {"rolls": [424242], "die": 1}, 409, "dice.error.no_roll"),
])
def test_bad_requests_get_a_clear_4xx_with_a_key(client: FlaskClient, path: str, body: dict[str, Any],
                                                 status: int, key: str) -> None:
    die = named(client, "il d20", 20)
    before = client.get("/api/dice").json
    response = post(client, path.format(die=die), body)
    assert response.status_code == status, response.json
    assert response.json["key"] == key and response.json["detail"], response.json
    _catalogued(response.json)
    assert client.get("/api/dice").json == before  # nothing changed


def test_control_actions_need_the_pin_and_reads_do_not(client: FlaskClient) -> None:
    refused = post(client, "/api/dice", {"name": "d", "sides": 6}, pin=False)
    assert refused.status_code == 403 and refused.json["error"] == "pin-required"
    assert client.get("/api/dice").json["dice"] == []
    assert client.get("/dice").status_code == 200


@pytest.mark.parametrize(("query", "status", "error"), [
    ("?die=abc", 400, "invalid-input"), ("?die=-1", 400, "invalid-input"),
    ("?die=" + "9" * 19, 400, "invalid-input"),
    ("?who=all", 400, "invalid-input"), ("?die=55", 404, "unknown-die"),
])
def test_bad_csv_requests(client: FlaskClient, query: str, status: int, error: str) -> None:
    response = client.get(f"/api/dice.csv{query}")
    assert response.status_code == status and response.json["error"] == error, response.json


def test_an_unknown_die_page_path_is_404_json(client: FlaskClient) -> None:
    response = client.get("/api/dice/31337")
    assert response.status_code == 404 and response.json["error"] == "unknown-die"
    assert "no die 31337" in response.json["detail"]
    assert client.get("/api/dice/x").status_code == 404
