"""Input limits: every body is bounded (size, nesting, strings, numbers, Unicode) with one clear 4xx, nothing
invalid is stored, and the live stream survives whatever is already in the log."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.session import TableSession
from companion.store import Store
from companion.zones import ZoneKeeper
from tests.web.conftest import D6_SETUP
from web import create_app
from web.limits import MAX_BODY, MAX_DEPTH, check_value


def post_raw(client: FlaskClient, path: str, raw: bytes) -> Any:
    return client.post(path, data=raw, content_type="application/json")


def error_of(response: Any, status: int, code: str) -> str:
    assert response.status_code == status, response.get_data(as_text=True)[:300]
    assert response.mimetype == "application/json"
    assert response.json["error"] == code, response.json
    return str(response.json["detail"])


def unchanged(session: TableSession, before: tuple[int, int | None, int]) -> None:
    record = session.store.load()
    assert (session.version, session.game_id, 0 if record is None else len(record.events)) == before


def state_of(session: TableSession) -> tuple[int, int | None, int]:
    record = session.store.load()
    return session.version, session.game_id, 0 if record is None else len(record.events)


def test_a_10_mb_body_is_413_and_not_read(client: FlaskClient, attacking: TableSession) -> None:
    before = state_of(attacking)
    name = "A" * (10 * 1024 * 1024)
    raw = json.dumps({"game": "gobcon", "setup": {"players": [name, "Bea"]}}).encode()
    started = time.perf_counter()
    detail = error_of(post_raw(client, "/api/new-game", raw), 413, "payload-too-large")
    assert time.perf_counter() - started < 1.0
    assert str(MAX_BODY) in detail
    unchanged(attacking, before)


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 2000, 30_000])
def test_deep_json_is_400_not_500(client: FlaskClient, session: TableSession, depth: int) -> None:
    before = state_of(session)
    raw = b'{"step": ' + b"[" * depth + b"]" * depth + b"}"
    assert len(raw) < MAX_BODY
    assert "nested deeper" in error_of(post_raw(client, "/api/confirm", raw), 400, "invalid-input")
    unchanged(session, before)


def test_100000_deep_json_is_refused_not_500(client: FlaskClient) -> None:
    raw = b"[" * 100_000 + b"]" * 100_000
    assert client.post("/api/undo", data=raw, content_type="application/json").status_code == 413


@pytest.mark.parametrize(("body", "fragment"), [
    ('{"game": "gobcon", "setup": {"players": ["\\ud800", "Bea"]}}', "not valid Unicode"),
    ('{"game": "gobcon", "setup": {"players": ["Ada", "Bea"]}, "\\udfff": 1}', "not valid Unicode"),
    ('{"step": NaN}', "NaN"),
    ('{"step": Infinity}', "Infinity"),
    ('{"step": 1e400}', "out of range"),
    ('{"index": 10000000000}', "out of range"),
    ('{"step": 1' + "0" * 5000 + "}", "not valid JSON"),
    ('{"action": {"type": "' + "x" * 201 + '"}}', "at most 200"),
    ('{"x": [' + ",".join(["1"] * 6000) + "]}", "more than"),
])
def test_a_body_out_of_bounds_is_400(client: FlaskClient, attacking: TableSession, body: str,
                                     fragment: str) -> None:
    before = state_of(attacking)
    path = "/api/new-game" if "game" in body else "/api/choose" if "index" in body else "/api/confirm"
    assert fragment in error_of(post_raw(client, path, body.encode()), 400, "invalid-input")
    unchanged(attacking, before)


def test_not_utf8_is_400(client: FlaskClient, session: TableSession) -> None:
    error_of(post_raw(client, "/api/confirm", b'{"step": "\xed\xa0\x80"}'), 400, "invalid-input")


@pytest.mark.parametrize("name", ["x" * 41, "\ud800", "Ada\udc00"])
def test_a_name_is_at_most_40_characters_of_valid_unicode(client: FlaskClient, session: TableSession,
                                                         name: str) -> None:
    for game, setup in (("gobcon", {"players": [name, "Bea"]}),
                        ("button-goblin", {"players": [dict(D6_SETUP["players"][0], name=name),
                                                       D6_SETUP["players"][1]]}),
                        ("skirmish", {"bands": [{"name": name, "models": ["Lor|T3|A3|S4|P20"]},
                                                {"name": "Orchi", "models": ["Grok|T4|A3|S4|P15"]}]})):
        response = client.post("/api/new-game", json={"game": game, "setup": setup})
        assert response.status_code == 400, (game, response.json)
        if len(name) > 40:
            assert response.json["key"] == "error.input.name"
            assert "at most 40 characters" in response.json["detail"]
        # the session holds it too, for callers other than the page
        with pytest.raises(Exception, match="at most 40 characters"):
            session.new_game(game, setup)
    assert session.game_id is None and session.store.load() is None


def test_a_40_character_name_is_fine(client: FlaskClient) -> None:
    name = "Ä" * 40
    state = client.post("/api/new-game", json={"game": "gobcon", "setup": {"players": [name, "Bea"]}}).json
    assert state["game"] == "gobcon"


@pytest.mark.parametrize(("zones", "fragment"), [
    ({"../../etc": [[0, 0], [1, 0], [1, 1]]}, "not a zone of the tray"),
    ({"p20": [[0, 0], [1, 0], [1, 1]]}, "not a zone of the tray"),
    ({"p0": [[0.5, 0.5]] * 65}, "at most 64"),
])
def test_zones_are_named_for_a_player_and_capped(session: TableSession, tmp_path: Path,
                                                 zones: dict[str, Any], fragment: str) -> None:
    keeper = ZoneKeeper(tmp_path / "zones.json", {"p0": [[0, 0], [1, 0], [1, 1]]})
    client = create_app({"TESTING": True}, session=session, zones=keeper).test_client()
    assert fragment in error_of(client.post("/api/zones", json={"zones": zones}), 400, "invalid-input")
    assert not keeper.path.exists()


def test_zones_with_100000_points_are_not_read(session: TableSession, tmp_path: Path) -> None:
    keeper = ZoneKeeper(tmp_path / "zones.json", {"p0": [[0, 0], [1, 0], [1, 1]]})
    client = create_app({"TESTING": True}, session=session, zones=keeper).test_client()
    response = client.post("/api/zones", json={"zones": {"p0": [[0.5, 0.5]] * 100_000}})
    error_of(response, 413, "payload-too-large")
    assert not keeper.path.exists()


def test_a_stored_zones_file_with_100000_points_is_not_used(tmp_path: Path) -> None:
    path = tmp_path / "zones.json"
    path.write_text(json.dumps({"zones": {"p0": [[0.5, 0.5]] * 100_000}}), encoding="utf-8")
    keeper = ZoneKeeper(path, {"p0": [[0, 0], [1, 0], [1, 1]]})
    assert keeper.state()["source"] == "config" and "at most 64" in keeper.state()["error"]


def read_stream(client: FlaskClient) -> list[dict[str, Any]]:
    response = client.get("/api/stream", buffered=False)
    events = []
    for chunk in response.response:
        text = chunk.decode() if isinstance(chunk, bytes) else chunk
        if text.startswith("event: state"):
            events.append(json.loads(text.split("data: ", 1)[1]))
            break
    response.close()
    return events


def test_the_stream_survives_a_bad_name_already_in_the_log(db: Path) -> None:
    """An older version stored a lone surrogate: every phone's stream died, also after a restart."""
    with Store(db) as store:
        game = store.start_game("gobcon", {"players": ["\ud800", "Bea"]})
    with Store(db) as store:
        session = TableSession(store)
        assert session.game_id == game
        client = create_app({"TESTING": True, "SSE_MAX_SECONDS": 0.5}, session=session).test_client()
        events = read_stream(client)
        assert events and events[0]["game"] == "gobcon"
        assert client.get("/api/state").status_code == 200
        assert client.get("/api/export").status_code == 200
        assert client.get("/").status_code == 200


def test_check_value_walks_without_recursion() -> None:
    deep: Any = []
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(Exception, match="nested deeper"):
        check_value(deep)
    assert check_value({"a": [1, 2.5, "x", None, True]}) == {"a": [1, 2.5, "x", None, True]}
