"""The JSON API: every endpoint, and bad input that gets a clear JSON error and loses nothing."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask, jsonify
from flask.testing import FlaskClient

from companion.games import GAMES
from companion.session import TableSession
from companion.store import Store
from tests.web.conftest import D6_SETUP, FIRST_ROLL, camera_reading


def error_of(response: Any, status: int, code: str) -> str:
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/json"
    body = response.json
    assert body["error"] == code, body
    assert isinstance(body["detail"], str) and body["detail"]
    return str(body["detail"])


# ------------------------------------------------------------------------------------------ reading


def test_state_before_any_game(client: FlaskClient) -> None:
    state = client.get("/api/state").json
    assert state["game"] is None and state["step"] == 0 and state["choices"] == []


def test_games_lists_every_game_with_its_setup_schema(client: FlaskClient) -> None:
    games = client.get("/api/games").json
    assert [g["game"] for g in games] == list(GAMES)
    for game in games:
        schema = game["setup_schema"]
        assert schema["game"] == game["game"]
        assert "players" in schema or "fields" in schema
    bg = next(g for g in games if g["game"] == "button-goblin")["setup_schema"]
    assert "Lobo" in next(f for f in bg["fields"] if f["key"] == "button")["options"]


def test_new_game_starts_and_the_state_shows_it(client: FlaskClient) -> None:
    state = client.post("/api/new-game", json={"game": "button-goblin", "setup": D6_SETUP}).json
    assert state["game"] == "button-goblin" and state["step"] == 0
    assert state["expects"]["kind"] == "dice"
    assert sorted(s["key"] for s in state["expects"]["slots"]) == sorted(FIRST_ROLL)
    assert client.get("/api/state").json["version"] == state["version"]


@pytest.mark.parametrize("setup", [
    {"players": ["Ada", "Bea", "Cid"]},                       # dadoteck
    {"players": ["Ada", "Bea"], "target": 10},                # gobcon
])
def test_new_game_of_other_games(client: FlaskClient, setup: dict[str, Any]) -> None:
    for game in ("dadoteck", "gobcon"):
        state = client.post("/api/new-game", json={"game": game, "setup": setup}).json
        assert state["game"] == game


def test_confirm_accepts_the_cameras_reading(client: FlaskClient, playing: TableSession) -> None:
    state = client.post("/api/confirm", json={"step": 0}).json
    assert state["step"] == 1
    assert state["history"][0]["action"] == {"type": "reading", "values": FIRST_ROLL}
    assert state["history"][0]["manual"] is False


def test_select_next_choose(client: FlaskClient, attacking: TableSession) -> None:
    choices = client.get("/api/state").json["choices"]
    assert len(choices) >= 2
    state = client.post("/api/select", json={"index": 1, "step": 1}).json
    assert state["selected"] == 1 and state["step"] == 1
    state = client.post("/api/next", json={"step": 1}).json
    assert state["selected"] == 2 % len(choices)
    chosen = choices[0]["action"]
    state = client.post("/api/choose", json={"index": 0, "step": 1}).json
    assert state["step"] == 2
    assert state["history"][-1]["action"] == chosen


def test_confirm_applies_the_selected_choice(client: FlaskClient, attacking: TableSession) -> None:
    choices = client.get("/api/state").json["choices"]
    client.post("/api/select", json={"index": len(choices) - 1, "step": 1})
    state = client.post("/api/confirm", json={"step": 1}).json
    assert state["history"][-1]["action"] == choices[-1]["action"]


def test_correct_is_logged_as_manual(client: FlaskClient, playing: TableSession) -> None:
    fixed = dict(FIRST_ROLL, **{"p0.1": 1})
    state = client.post("/api/correct", json={"action": {"type": "reading", "values": fixed}, "step": 0}).json
    assert state["step"] == 1
    assert state["history"][0] == {**state["history"][0], "action": {"type": "reading", "values": fixed},
                                   "manual": True}


def test_undo_takes_back_the_last_step(client: FlaskClient, attacking: TableSession) -> None:
    client.post("/api/choose", json={"index": 0, "step": 1})
    state = client.post("/api/undo", json={"step": 2}).json
    assert state["step"] == 1 and state["view"]["phase"] == "play"
    state = client.post("/api/undo", json={"step": 1}).json
    assert state["step"] == 0
    error_of(client.post("/api/undo", json={"step": 0}), 409, "illegal-action")


def test_export_is_the_whole_match(client: FlaskClient, attacking: TableSession) -> None:
    response = client.get("/api/export")
    data = response.json
    assert data["game"] == "button-goblin" and data["setup"] == D6_SETUP
    assert [e["action"] for e in data["events"]] == [{"type": "reading", "values": FIRST_ROLL}]
    download = client.get("/api/export?download=1")
    assert "attachment" in download.headers["Content-Disposition"]


def test_export_without_a_game_is_a_json_error(client: FlaskClient) -> None:
    error_of(client.get("/api/export"), 409, "illegal-action")


def test_snapshot_jpg(client: FlaskClient, session: TableSession) -> None:
    detail = error_of(client.get("/api/snapshot.jpg"), 404, "not-found")
    assert "no image" in detail
    client.post("/api/new-game", json={"game": "button-goblin", "setup": D6_SETUP})
    jpeg = (Path(__file__).parents[2] / "companion" / "demo" / "table_01.jpg").read_bytes()
    session.offer_reading(camera_reading(FIRST_ROLL), image=jpeg)
    response = client.get("/api/snapshot.jpg")
    assert response.status_code == 200 and response.mimetype == "image/jpeg"
    assert response.data == jpeg
    assert response.headers["Cache-Control"] == "no-store"


def test_qr_svg_encodes_an_ip_address_not_a_local_name(client: FlaskClient) -> None:
    address = client.get("/api/address", headers={"Host": "goblin.local:8080"}).json["url"]
    assert re.fullmatch(r"http://\d+\.\d+\.\d+\.\d+:8080/", address), address
    assert not address.startswith("http://127.")
    response = client.get("/api/qr.svg", headers={"Host": "goblin.local:8080"})
    assert response.mimetype == "image/svg+xml"
    assert response.data.startswith(b"<svg") and b"<path" in response.data


def test_address_keeps_an_ip_the_phone_already_used(client: FlaskClient) -> None:
    assert client.get("/api/address", headers={"Host": "192.168.1.40:8000"}).json["url"] == \
        "http://192.168.1.40:8000/"


def test_configured_table_url_wins(session: TableSession) -> None:
    from web import create_app
    app = create_app({"TABLE_URL": "http://10.0.0.7:8000/"}, session=session)
    assert app.test_client().get("/api/address").json["url"] == "http://10.0.0.7:8000/"


# --------------------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(("path", "raw", "code", "fragment"), [
    ("/api/confirm", b"{\"step\": ", "invalid-input", "not valid JSON"),
    ("/api/confirm", b"[1, 2]", "invalid-input", "JSON object"),
    ("/api/confirm", b"\"hello\"", "invalid-input", "JSON object"),
    ("/api/confirm", b"{\"step\": \"1\"}", "invalid-input", "'step' must be an integer"),
    ("/api/confirm", b"{\"step\": true}", "invalid-input", "'step' must be an integer"),
    ("/api/choose", b"{\"step\": 0}", "invalid-input", "needs 'index'"),
    ("/api/select", b"{\"index\": 1.5}", "invalid-input", "'index' must be an integer"),
    ("/api/choose", b"{\"index\": 99}", "invalid-input", "no choice 99"),
    ("/api/correct", b"{\"action\": [1]}", "invalid-input", "\"action\" must be a JSON object"),
    ("/api/new-game", b"{\"game\": \"chess\"}", "invalid-input", "unknown game 'chess'"),
    ("/api/new-game", b"{\"game\": \"button-goblin\", \"setup\": []}", "invalid-input", "\"setup\""),
    ("/api/new-game", b"{\"game\": \"button-goblin\", \"setup\": {\"players\": []}}", "invalid-input",
     "players"),
])
def test_bad_input_is_a_clear_400_and_loses_nothing(
    client: FlaskClient, attacking: TableSession, db: Path, path: str, raw: bytes, code: str, fragment: str
) -> None:
    before = client.get("/api/state").json
    detail = error_of(client.post(path, data=raw, content_type="application/json"), 400, code)
    assert fragment in detail
    after = client.get("/api/state").json
    for key in ("step", "history", "game"):
        assert after[key] == before[key]
    with Store(db) as again:  # and the confirmed step is on disk
        assert TableSession(again).step == 1


def test_a_reading_out_of_range_is_400(client: FlaskClient, playing: TableSession) -> None:
    bad = dict(FIRST_ROLL, **{"p0.1": 9})
    detail = error_of(client.post("/api/correct", json={"action": {"type": "reading", "values": bad}}),
                      400, "invalid-input")
    assert "p0.1" in detail and "9" in detail
    assert client.get("/api/state").json["proposal"] is not None  # the camera's reading still waits


def test_an_illegal_attack_is_409_and_nothing_confirmed_is_lost(
    client: FlaskClient, attacking: TableSession
) -> None:
    before = client.get("/api/state").json
    legal = [c["action"] for c in before["choices"]]
    bogus = {"type": "attack", "kind": "power", "attackers": [4], "targets": [3]}   # Anna's 3 cannot take a 6
    assert bogus not in legal
    detail = error_of(client.post("/api/correct", json={"action": bogus, "step": 1}), 409, "illegal-action")
    assert "illegal power attack" in detail
    after = client.get("/api/state").json
    assert after["step"] == 1 and after["history"] == before["history"]


def test_a_stale_step_is_409_and_changes_nothing(client: FlaskClient, attacking: TableSession) -> None:
    before = client.get("/api/state").json
    for path, body in (("/api/confirm", {}), ("/api/choose", {"index": 0}), ("/api/undo", {}),
                       ("/api/select", {"index": 0}), ("/api/next", {})):
        detail = error_of(client.post(path, json={**body, "step": 0}), 409, "stale-step")
        assert "stale" in detail
    after = client.get("/api/state").json
    assert (after["step"], after["history"], after["selected"]) == (1, before["history"], before["selected"])


def test_a_stale_position_is_409_and_a_bad_one_400(client: FlaskClient, attacking: TableSession) -> None:
    before = client.get("/api/state").json
    stale = before["position"].rsplit(":", 1)[0] + ":0"   # same game, same step, another event
    for path, body in (("/api/confirm", {}), ("/api/choose", {"index": 0}), ("/api/undo", {})):
        detail = error_of(client.post(path, json={**body, "step": 1, "position": stale}), 409, "stale-step")
        assert f"position {stale} is stale" in detail
    detail = error_of(client.post("/api/undo", json={"position": 1}), 400, "invalid-input")
    assert "'position' must be the snapshot's" in detail
    after = client.get("/api/state").json
    assert (after["step"], after["history"]) == (1, before["history"])
    ok = client.post("/api/undo", json={"step": 1, "position": before["position"]})
    assert ok.status_code == 200 and ok.json["step"] == 0


def test_no_endpoint_and_wrong_method_are_json(client: FlaskClient) -> None:
    error_of(client.get("/api/nothing-here"), 404, "not-found")
    error_of(client.get("/api/confirm"), 405, "method-not-allowed")


def test_a_bug_is_a_json_500_not_an_html_page(
    client: FlaskClient, session: TableSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*, step: int | None = None, position: str | None = None) -> dict[str, Any]:
        raise RuntimeError("the dice rolled off the table")

    monkeypatch.setattr(session, "confirm", broken)
    detail = error_of(client.post("/api/confirm", json={}), 500, "internal-error")
    assert "RuntimeError: the dice rolled off the table" in detail


# -------------------------------------------------------------------------------------------- PIN


@pytest.fixture
def pin_client(session: TableSession) -> FlaskClient:
    from web import create_app
    app: Flask = create_app({"TESTING": True, "TABLE_PIN": "4321"}, session=session)
    return app.test_client()


def test_control_actions_need_the_pin(pin_client: FlaskClient, session: TableSession) -> None:
    body = {"game": "button-goblin", "setup": D6_SETUP}
    assert "PIN" in error_of(pin_client.post("/api/new-game", json=body), 403, "pin-required")
    error_of(pin_client.post("/api/new-game", json=body, headers={"X-Table-PIN": "1234"}), 403, "wrong-pin")
    error_of(pin_client.post("/api/new-game", json={**body, "pin": "432"}), 403, "wrong-pin")
    assert session.snapshot()["game"] is None
    assert pin_client.post("/api/new-game", json=body, headers={"X-Table-PIN": "4321"}).status_code == 200
    session.offer_reading(camera_reading(FIRST_ROLL))
    for path in ("/api/confirm", "/api/next", "/api/undo", "/api/correct", "/api/fix-die"):
        error_of(pin_client.post(path, json={"step": 0}), 403, "pin-required")
    assert session.step == 0
    assert pin_client.post("/api/confirm", json={"step": 0, "pin": "4321"}).json["step"] == 1
    assert pin_client.post("/api/pin", json={"pin": "4321"}).json == {"ok": True, "pin": True}
    error_of(pin_client.post("/api/pin", json={"pin": "0000"}), 403, "wrong-pin")


def test_spectators_watch_without_the_pin(pin_client: FlaskClient) -> None:
    for path in ("/api/state", "/api/games", "/api/qr.svg", "/api/address", "/", "/join", "/settings"):
        assert pin_client.get(path).status_code == 200, path


# ------------------------------------------------------------------- malformed input, said in Italian

ENGLISH = re.compile(r"\b(must|needs?|the|not valid|integer|notation|expected|unknown|got|one of|nothing|"
                     r"players|camera)\b")  # a quoted JSON field such as 'index' is code, not words


def italian(body: dict[str, Any]) -> str:
    """An error answer as the Italian page shows it: its key's Italian text with the params filled (from the
    page's catalogue and the game's words, which a game's page has)."""
    from web.i18n import all_words

    messages = all_words("it")
    assert body.get("key") in messages, body

    def fmt(value: Any) -> str:
        if isinstance(value, dict) and "key" in value:
            return str(messages.get(value["key"], value["text"]))
        return str(value)

    text = messages[body["key"]]
    for name, value in body["params"].items():
        text = text.replace("{" + name + "}", fmt(value))
    assert not re.search(r"\{\w+\}", text), (body, text)
    return text


@pytest.mark.parametrize(("path", "raw"), [
    ("/api/confirm", "{bad"),
    ("/api/confirm", "[1]"),
    ("/api/select", "{}"),
    ("/api/select", '{"index": "1"}'),
    ("/api/confirm", '{"step": "1"}'),
    ("/api/new-game", '{"game": 3}'),
    ("/api/new-game", '{"game": "chess"}'),
    ("/api/new-game", '{"game": "gobcon", "setup": {"players": ["Ada"]}}'),
    ("/api/new-game", '{"game": "goblins", "setup": {"players": ["A", "B"], "terrains": ["Torre"]}}'),
    ("/api/new-game", '{"game": "button-goblin", "setup": {"players": [{"button": "Nope"}, {}]}}'),
    ("/api/correct", '{"action": "x"}'),
    ("/api/undo", "{}"),
])
def test_a_malformed_request_carries_a_key_the_italian_page_translates(
        client: FlaskClient, path: str, raw: str) -> None:
    response = client.post(path, data=raw, content_type="application/json")
    assert response.status_code in (400, 409)
    body = response.json
    assert isinstance(body["detail"], str) and body["detail"]  # the API's English words stay
    said = italian(body)
    assert not ENGLISH.search(said), (body, said)


def test_a_bad_form_value_in_a_game_is_said_in_italian(client: FlaskClient) -> None:
    client.post("/api/new-game", json={"game": "goblins", "setup": {"players": ["Ada", "Bea"]}})
    for action in ({"type": "face", "terrain": "Torre"}, {"type": "face", "terrain": "Torre|tower|3|2|-"},
                   {"type": "adjust", "player": 0}, {"type": "adjust", "player": 0, "troops": "x"},
                   {"type": "nope"}):
        body = client.post("/api/correct", json={"action": action}).json
        said = italian(body)
        assert not ENGLISH.search(said), (body, said)
    body = client.post("/api/correct", json={"action": {"type": "adjust", "player": 0}}).json
    assert italian(body) == "manca il campo «truppe»"


def test_the_api_answers_with_the_sessions_snapshot_text_as_jsonify_wrote_it(
        app: Flask, client: FlaskClient, session: TableSession) -> None:
    """The snapshot is written to JSON once per version; the API sends that text, byte for byte what
    ``jsonify`` of the snapshot wrote when it parsed and dumped it again (keys in the session's order)."""
    answers = [client.post("/api/new-game", json={"game": "button-goblin", "setup": D6_SETUP})]
    session.offer_reading(camera_reading(FIRST_ROLL))
    answers += [client.get("/api/state"), client.post("/api/confirm", json={"step": 0}),
                client.post("/api/undo", json={})]
    for response in answers:
        assert response.status_code == 200 and response.mimetype == "application/json"
        data = json.loads(response.get_data())
        with app.test_request_context():
            assert response.get_data() == jsonify(data).get_data()
        assert list(data)[:3] == ["version", "step", "position"]
    assert json.loads(answers[1].get_data())["proposal"]["reading"] == camera_reading(FIRST_ROLL)
    version, text = session.snapshot_text()
    assert client.get("/api/state").get_data() == (text + "\n").encode() and version == session.version
