"""``/api/calibration``, ``/api/teach``, ``/api/calibration/forget`` and the settings section, through
the Flask test client over a real TableSession (SQLite file) and a real calibration file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.calibration import Calibrator
from companion.session import TableSession
from tests.helpers import Camera
from tests.teach.conftest import tray
from vision import Calibration
from web import create_app

PIN = {"X-Table-PIN": "2468"}


@pytest.fixture
def calibration_file(tmp_path: Path) -> Path:
    return tmp_path / "state" / "calibration.json"


@pytest.fixture
def app(session: TableSession, camera: Camera, calibration_file: Path) -> Flask:
    return create_app({"TESTING": True, "TABLE_PIN": "2468"}, session=session,
                      calibrator=Calibrator(calibration_file, frames=camera))


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def teach(client: FlaskClient, body: Any, headers: dict[str, str] | None = None) -> Any:
    return client.post("/api/teach", json=body, headers=PIN if headers is None else headers)


def test_teach_alive_then_dead_and_read_the_state(client: FlaskClient, camera: Camera,
                                                  calibration_file: Path) -> None:
    assert client.get("/api/calibration").json["calibrated"] is False
    camera.frame = tray(["alive"] * 3, seed=1)
    got = teach(client, {"kind": "token", "label": "alive"})
    assert got.status_code == 200, got.json
    assert got.json["learned"] == 3 and got.json["tokens"] == {"alive": 3}
    camera.frame = tray(["dead"] * 2, seed=2)
    got = teach(client, {"label": "dead", "step": 0})  # kind defaults to token; the page sends its step
    assert got.json["learned"] == 2
    state = client.get("/api/calibration").json
    assert state == {"calibrated": True, "examples": 5, "tokens": {"alive": 3, "dead": 2}, "faces": {},
                     "tuned": False,
                     "file": str(calibration_file), "error": None,
                     "last": {"kind": "token", "label": "dead", "learned": 2}}
    assert Calibration.load(calibration_file).labels("token") == ["alive", "dead"]
    forgot = client.post("/api/calibration/forget", json={}, headers=PIN)
    assert forgot.status_code == 200 and forgot.json["calibrated"] is False and not calibration_file.exists()


@pytest.mark.parametrize("body, words", [
    ({}, "needs \"label\""),
    ({"label": "skull"}, "\"alive\" or \"dead\", not 'skull'"),
    ({"label": 3}, "not 3"),
    ({"kind": "coin", "label": "alive"}, "kind must be \"token\" or \"face\", not 'coin'"),
    ({"kind": "face", "label": "six"}, "value it stands for"),
    ([1, 2], "must be a JSON object"),
])
def test_bad_requests_are_400_naming_what_was_wrong(client: FlaskClient, camera: Camera, body: Any,
                                                    words: str, calibration_file: Path) -> None:
    camera.frame = tray(["alive"] * 3, seed=1)
    got = teach(client, body)
    assert got.status_code == 400 and got.json["error"] == "invalid-input"
    assert words in got.json["detail"]
    assert not calibration_file.exists()


def test_not_json_is_400(client: FlaskClient) -> None:
    got = client.post("/api/teach", data=b"label=alive", headers=PIN, content_type="application/json")
    assert got.status_code == 400 and "not valid JSON" in got.json["detail"]


def test_the_pin_guards_teach_and_forget(client: FlaskClient, camera: Camera, calibration_file: Path) -> None:
    camera.frame = tray(["alive"] * 3, seed=1)
    assert teach(client, {"label": "alive"}, headers={}).json["error"] == "pin-required"
    assert teach(client, {"label": "alive"}, headers={"X-Table-PIN": "1"}).json["error"] == "wrong-pin"
    assert not calibration_file.exists()
    assert teach(client, {"label": "alive", "pin": "2468"}, headers={}).status_code == 200
    assert client.post("/api/calibration/forget", json={}).status_code == 403
    assert calibration_file.exists()
    assert client.get("/api/calibration").status_code == 200  # reading needs no PIN
    assert client.get("/api/teach").status_code == 405


def test_no_picture_and_no_token_are_409_with_their_own_codes(client: FlaskClient, camera: Camera) -> None:
    from vision import synth

    got = teach(client, {"label": "alive"})
    assert got.status_code == 409 and got.json["error"] == "no-picture"
    camera.frame = synth.tray(seed=3)
    got = teach(client, {"label": "alive"})
    assert got.status_code == 409 and got.json["error"] == "nothing-to-teach"
    assert "no goblin token" in got.json["detail"]
    assert client.get("/api/calibration").json["examples"] == 0


def test_teaching_changes_no_game(client: FlaskClient, camera: Camera, session: TableSession) -> None:
    from tests.web.conftest import D6_SETUP

    session.new_game("button-goblin", D6_SETUP)
    session.correct({"type": "reading", "values": {"p0.1": 2, "p0.2": 5, "p0.3": 6, "p0.4": 3,
                                                   "p1.1": 4, "p1.2": 1, "p1.3": 6, "p1.4": 2}})
    before = {k: v for k, v in session.export().items() if k != "exported"}
    camera.frame = tray(["dead"] * 3, seed=2)
    assert teach(client, {"label": "dead"}).status_code == 200
    client.post("/api/calibration/forget", json={}, headers=PIN)
    assert {k: v for k, v in session.export().items() if k != "exported"} == before and session.step == 1


def test_settings_has_the_teach_section_in_both_languages(client: FlaskClient) -> None:
    html = client.get("/settings").get_data(as_text=True)
    for text in ("Insegna al tavolo", "Vivo", "Morto", "Insegna dalla fotocamera",
                 "Dimentica la calibrazione", "Non calibrato"):
        assert text in html, text
    assert 'id="teach"' in html and 'id="calibration-banner"' not in html
    html = client.get("/settings?lang=en").get_data(as_text=True)
    for text in ("Teach the table", "Alive", "Dead", "Teach from the camera", "Forget the calibration"):
        assert text in html, text


def test_an_unreadable_file_is_a_banner_on_every_page(session: TableSession, tmp_path: Path) -> None:
    path = tmp_path / "calibration.json"
    path.write_text('{"format": "goblin-companion-calibration", "version": 9, "size": 32}', encoding="utf-8")
    client = create_app({"TESTING": True}, session=session, calibrator=Calibrator(path)).test_client()
    for page in ("/", "/settings", "/setup", "/correct", "/join"):
        html = client.get(page).get_data(as_text=True)
        assert 'id="calibration-banner"' in html, page
        assert "Il file di calibrazione non si può leggere" in html and "unsupported version" in html
        assert "nessuna mossa confermata è persa" in html
    assert client.get("/api/state").status_code == 200
    assert "cannot be read" in client.get("/settings?lang=en").get_data(as_text=True)


def test_without_a_calibrator_the_endpoints_say_so(session: TableSession) -> None:
    client = create_app({"TESTING": True}, session=session).test_client()
    got = client.get("/api/calibration")
    assert got.status_code == 404 and "no camera calibration" in got.json["detail"]
    assert client.post("/api/teach", json={"label": "alive"}).status_code == 404
    assert 'id="teach"' not in client.get("/settings").get_data(as_text=True)
