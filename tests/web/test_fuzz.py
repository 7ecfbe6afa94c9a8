"""Fuzzing the JSON API: random bodies, types, sizes and Unicode (lone surrogates included) on every control
action and read. Never a server error; after every 4xx the table, its log and its zones are as they were."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.calibration import Calibrator
from companion.dataset import TableDataset
from companion.session import TableSession
from companion.store import Store
from companion.tuner import Tuner
from companion.zones import ZoneKeeper
from tests.web.conftest import D6_SETUP, FIRST_ROLL, camera_reading
from web import create_app

POSTS = ["/api/new-game", "/api/confirm", "/api/next", "/api/select", "/api/choose", "/api/correct",
         "/api/fix-die", "/api/undo", "/api/pin", "/api/zones", "/api/zones/reset", "/api/teach",
         "/api/resume", "/api/matches", "/api/tune", "/api/nothing"]
GETS = ["/api/state", "/api/export", "/api/games", "/api/zones", "/api/address", "/api/matches",
        "/api/snapshot.jpg", "/api/tune", "/settings", "/"]
KEYS = ["step", "position", "index", "game", "setup", "action", "type", "sides", "value", "remove", "zones",
        "preset", "toss", "pin", "players", "name", "bands", "models", "values", "archive", "game_id", "p0"]

#: Any character, lone surrogates too (hypothesis leaves them out unless asked)
text = st.text(st.characters(exclude_categories=()), max_size=60)
scalars = st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70),
                    st.floats(allow_nan=True, allow_infinity=True), text,
                    st.sampled_from(["button-goblin", "gobcon", "dadoteck", "goblins", "skirmish", "reading",
                                     "left-right", "p0", "toss", "Lor|T3|A3|S4|P20", "0:0:0"]),
                    st.integers(-3, 12))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=6), st.dictionaries(st.one_of(st.sampled_from(KEYS), text), inner, max_size=6)),
    max_leaves=40)
bodies = st.one_of(
    st.dictionaries(st.sampled_from(KEYS), values, max_size=6).map(lambda d: json.dumps(d).encode()),
    values.map(lambda v: json.dumps(v).encode()),
    st.binary(max_size=200),
    st.integers(1, 70_000).map(lambda n: b'{"game": "gobcon", "setup": {"players": ["' + b"x" * n + b'"]}}'),
    st.integers(1, 40_000).map(lambda n: b"[" * n + b"]" * n),
    st.sampled_from([b'{"step": NaN}', b'{"index": 1e999}', b'{"pin": "\\ud800"}', b"", b"null", b"{",
                     b'{"zones": {"../../etc": [[0,0],[1,0],[1,1]]}}', b'\xff\xfe{"step": 0}']),
)
content_types = st.sampled_from(["application/json", "application/json; charset=utf-8", "text/plain",
                                 "application/x-www-form-urlencoded", None])


def observed(session: TableSession, keeper: ZoneKeeper) -> tuple[Any, ...]:
    record = session.store.load(with_undone=True)
    return (session.version, session.game_id, session.snapshot_json(),
            None if record is None else [e.to_json() for e in record.events], session.games(),
            json.dumps(keeper.state()), keeper.path.exists() and keeper.path.read_bytes())


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[FlaskClient, TableSession, ZoneKeeper]]:
    with Store(tmp_path / "companion.sqlite3") as store:
        session = TableSession(store)
        keeper = ZoneKeeper(tmp_path / "zones.json", {"p0": [[0, 0], [1, 0], [1, 1]]})
        tuner = Tuner(TableDataset(tmp_path / "dataset"), Calibrator(tmp_path / "calibration.json"))
        app: Flask = create_app({"TESTING": True, "SSE_MAX_SECONDS": 0.2}, session=session, zones=keeper,
                                tuner=tuner)
        session.new_game("button-goblin", D6_SETUP)
        session.offer_reading(camera_reading(FIRST_ROLL))
        yield app.test_client(), session, keeper


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                   HealthCheck.too_slow])
@given(path=st.sampled_from(POSTS), body=bodies, kind=content_types)
def test_no_body_breaks_the_server_and_a_refusal_changes_nothing(
    table: tuple[FlaskClient, TableSession, ZoneKeeper], path: str, body: bytes, kind: str | None
) -> None:
    client, session, keeper = table
    before = observed(session, keeper)
    response = client.post(path, data=body, content_type=kind) if kind else client.post(path, data=body)
    assert response.status_code < 500, (path, body[:200], response.get_data(as_text=True)[:500])
    assert response.mimetype == "application/json"
    answer = response.json
    if response.status_code >= 400:
        assert isinstance(answer["error"], str) and isinstance(answer["detail"], str) and answer["detail"]
        assert observed(session, keeper) == before, (path, body[:200], answer)
    # whatever happened, every read still answers and the state is valid JSON a stream can send
    for get in GETS:
        assert client.get(get).status_code < 500, get
    assert json.loads(session.snapshot_json())["version"] == session.version


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(query=st.dictionaries(st.sampled_from(["lang", "download", "v", "game", "step", "from", "limit"]),
                             text, max_size=3))
def test_no_query_breaks_a_read(table: tuple[FlaskClient, TableSession, ZoneKeeper],
                                query: dict[str, str]) -> None:
    client, _, _ = table
    safe = {k: v.encode("utf-8", "surrogatepass").decode("utf-8", "replace") for k, v in query.items()}
    for get in GETS:
        assert client.get(get, query_string=safe).status_code < 500, (get, safe)
