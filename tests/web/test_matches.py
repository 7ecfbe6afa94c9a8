"""The API of kept matches: new-game asks before archiving a match in progress, /api/matches lists them,
/api/export?game_id= exports any of them, /api/resume brings back one that was not finished."""

from __future__ import annotations

import json
import random
import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from companion.session import TableSession
from tests.web.conftest import D6_SETUP, play_step
from tests.web.test_error_keys import check_key
from web import create_app

OTHER = {"game": "dadoteck", "setup": {"players": ["Carla", "Dario"]}}


def error_of(response: Any, status: int, code: str) -> str:
    assert response.status_code == status, (response.status_code, response.json)
    assert response.json["error"] == code, response.json
    return str(response.json["detail"])


def test_a_new_game_over_a_match_in_progress_is_409_until_archive_is_said(
        client: FlaskClient, attacking: TableSession) -> None:
    first, before = attacking.game_id, attacking.snapshot()
    response = client.post("/api/new-game", json=OTHER)
    detail = error_of(response, 409, "game-in-progress")
    assert "Button Goblin" in detail and "step 1" in detail
    assert response.json["key"] == "error.session.game_in_progress"
    check_key(response.json)
    assert attacking.snapshot() == before  # nothing changed, nothing lost
    error_of(client.post("/api/new-game", json={**OTHER, "archive": "yes"}), 400, "invalid-input")
    started = client.post("/api/new-game", json={**OTHER, "archive": True})
    assert started.status_code == 200 and started.json["game"] == "dadoteck"
    matches = client.get("/api/matches").json["matches"]
    assert [(m["game_id"], m["game"], m["current"], m["resumable"]) for m in matches] == [
        (started.json["game_id"], "dadoteck", True, False), (first, "button-goblin", False, True)]
    assert matches[0]["players"] == ["Carla", "Dario"] and matches[1]["players"] == ["Anna", "Bruno"]
    assert matches[1]["steps"] == 1 and matches[1]["winners"] == [] and not matches[1]["over"]


def test_any_match_exports_and_a_bad_id_is_a_clear_error(client: FlaskClient,
                                                         attacking: TableSession) -> None:
    first = attacking.game_id
    client.post("/api/new-game", json={**OTHER, "archive": True})
    old = client.get(f"/api/export?game_id={first}&download=1")
    assert old.json["game_id"] == first and old.json["game"] == "button-goblin" and old.json["steps"] == 1
    assert old.json["setup"] == D6_SETUP
    assert f"goblin-match-{first}.json" in old.headers["Content-Disposition"]
    assert client.get("/api/export").json["game"] == "dadoteck"  # the one at the table, as before
    error_of(client.get("/api/export?game_id=999"), 409, "illegal-action")
    for bad in ("x", "-1", "1e3", "9" * 40):
        assert "game_id" in error_of(client.get(f"/api/export?game_id={bad}"), 400, "invalid-input")
        assert "game_id" in error_of(client.get(f"/api/matches?before={bad}"), 400, "invalid-input")


def test_resume_brings_back_an_unfinished_match(client: FlaskClient, attacking: TableSession) -> None:
    first = attacking.game_id
    second = client.post("/api/new-game", json={**OTHER, "archive": True}).json["game_id"]
    error_of(client.post("/api/resume", json={}), 400, "invalid-input")
    error_of(client.post("/api/resume", json={"game_id": 999}), 409, "illegal-action")
    for bad in ("1", True, None):
        assert "game_id" in error_of(client.post("/api/resume", json={"game_id": bad}), 400, "invalid-input")
    back = client.post("/api/resume", json={"game_id": first})
    assert back.status_code == 200 and back.json["game_id"] == first and back.json["step"] == 1
    assert back.json["view"]["phase"] == "play"
    assert {m["game_id"]: m["current"] for m in client.get("/api/matches").json["matches"]} == {
        second: False, first: True}


def test_the_pin_guards_archiving(session: TableSession) -> None:
    app: Flask = create_app({"TESTING": True, "TABLE_PIN": "4321"}, session=session)
    client = app.test_client()
    body = {"game": "button-goblin", "setup": D6_SETUP}
    assert client.post("/api/new-game", json=body, headers={"X-Table-PIN": "4321"}).status_code == 200
    error_of(client.post("/api/new-game", json={**OTHER, "archive": True}), 403, "pin-required")
    error_of(client.post("/api/resume", json={"game_id": 1}), 403, "pin-required")
    assert client.get("/api/matches").status_code == 200  # watching needs no PIN


def test_a_finished_match_is_exported_not_resumed(client: FlaskClient, session: TableSession) -> None:
    client.post("/api/new-game", json={"game": "button-goblin", "setup": D6_SETUP})
    rng = random.Random(0)
    while not session.snapshot()["over"]:
        play_step(session, rng)
    finished = session.game_id
    client.post("/api/new-game", json=OTHER)  # over: archived without a question
    response = client.post("/api/resume", json={"game_id": finished})
    assert "is over" in error_of(response, 409, "illegal-action")
    assert response.json["key"] == "error.session.not_resumable"
    check_key(response.json)
    listed = client.get("/api/matches").json["matches"][1]
    assert listed["game_id"] == finished and listed["over"] and len(listed["winners"]) == 1


def embedded(html: str) -> dict[str, str]:
    blob = re.search(r'<script type="application/json" id="messages">(.*?)</script>', html, re.S)
    assert blob is not None
    data: dict[str, str] = json.loads(blob.group(1))
    return data


def test_the_setup_page_alone_carries_the_words_of_the_list(client: FlaskClient) -> None:
    setup, table = (embedded(client.get(path).get_data(as_text=True)) for path in ("/setup", "/"))
    assert setup["matches.archive_ask"].startswith("È in corso una partita di {title}")
    assert "setup.start" in setup and "teach.learned" not in setup
    assert not any(k.startswith(("matches.", "setup.", "teach.", "zones.")) for k in table)
    assert table["action.confirm"] == "Conferma" and "error.game-in-progress" in table


def test_the_list_pages_and_a_bad_before_is_a_clear_error(client: FlaskClient, session: TableSession) -> None:
    for _ in range(52):
        client.post("/api/new-game", json=OTHER)
    first = client.get("/api/matches").json
    assert len(first["matches"]) == 50 and first["more"]
    older = client.get(f"/api/matches?before={first['matches'][-1]['game_id']}").json
    assert len(older["matches"]) == 2 and not older["more"]
    for bad in ("x", "-3", "9" * 40):
        assert "game_id" in error_of(client.get(f"/api/matches?before={bad}"), 400, "invalid-input")
