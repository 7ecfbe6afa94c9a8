"""Only the table's own page may act on it: another site's requests, foreign Host names (DNS rebinding)
and non-JSON bodies are refused before they reach the session; every response carries the security headers."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.session import TableSession
from web import create_app
from web.guard import allowed_host, own_names


def confirmed(session: TableSession) -> int:
    record = session.store.load()
    return 0 if record is None else len(record.events)


@pytest.mark.parametrize(("headers", "data", "status", "code"), [
    # another page's form, text/plain "simple" request, or fetch with its own Origin
    ({"Content-Type": "text/plain", "Origin": "http://evil.example"}, b'{"step": 0}', 403, "cross-origin"),
    ({"Content-Type": "application/x-www-form-urlencoded"}, b"step=0", 415, "unsupported-media-type"),
    ({"Content-Type": "text/plain"}, b'{"step": 0}', 415, "unsupported-media-type"),
    ({"Content-Type": "multipart/form-data; boundary=x"}, b"--x--", 415, "unsupported-media-type"),
    ({"Content-Type": "application/json", "Origin": "http://evil.example"}, b'{"step": 0}', 403,
     "cross-origin"),
    ({"Content-Type": "application/json", "Origin": "null"}, b'{"step": 0}', 403, "cross-origin"),
    ({"Content-Type": "application/json", "Origin": "http://localhost:9999"}, b'{"step": 0}', 403,
     "cross-origin"),
    ({"Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"}, b'{"step": 0}', 403,
     "cross-origin"),
    ({}, b'{"step": 0}', 415, "unsupported-media-type"),  # a body with no type at all
])
def test_a_request_from_another_page_confirms_nothing(client: FlaskClient, playing: TableSession,
                                                      headers: dict[str, str], data: bytes, status: int,
                                                      code: str) -> None:
    version = playing.version
    response = client.post("/api/confirm", data=data, headers=headers)
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.json["error"] == code
    assert response.json["detail"]
    assert playing.step == 0 and confirmed(playing) == 0 and playing.version == version


def test_a_cross_site_new_game_does_not_replace_the_match(client: FlaskClient,
                                                          attacking: TableSession) -> None:
    game = attacking.game_id
    response = client.post("/api/new-game", data=b'{"game": "dadoteck", "setup": {"players": ["A", "B"]}}',
                           headers={"Content-Type": "text/plain;charset=UTF-8", "Origin": "http://evil.example"})
    assert response.status_code == 403
    assert attacking.game_id == game and attacking.step == 1


@pytest.mark.parametrize("headers", [
    {"Content-Type": "application/json"},                                    # curl, a script
    {"Content-Type": "application/json; charset=utf-8", "Origin": "http://localhost"},  # the page itself
    {"Content-Type": "application/json", "Sec-Fetch-Site": "same-origin", "Origin": "http://localhost"},
])
def test_the_page_and_scripts_still_act(client: FlaskClient, playing: TableSession,
                                        headers: dict[str, str]) -> None:
    response = client.post("/api/confirm", data=b'{"step": 0}', headers=headers)
    assert response.status_code == 200, response.json
    assert confirmed(playing) == 1


def test_an_empty_body_without_a_type_is_allowed(client: FlaskClient, playing: TableSession) -> None:
    assert client.post("/api/confirm").status_code == 200  # curl -X POST with no data
    assert confirmed(playing) == 1


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8080", "192.168.1.40.evil.example",
                                  "localhost.evil.example"])
def test_a_foreign_host_name_is_refused_dns_rebinding(client: FlaskClient, playing: TableSession,
                                                      host: str) -> None:
    for method, path in (("GET", "/api/state"), ("GET", "/"), ("POST", "/api/confirm")):
        response = client.open(path, method=method, json={}, headers={"Host": host, "Origin": f"http://{host}"})
        assert response.status_code == 403, (method, path)
        if path.startswith("/api/"):
            assert response.json["error"] == "wrong-host"
        assert "Anna" not in response.get_data(as_text=True)  # nothing of the match leaks
    assert confirmed(playing) == 0


@pytest.mark.parametrize("host", ["192.168.1.40:8080", "127.0.0.1", "[::1]:8080", "localhost:8080",
                                  "10.0.0.7"])
def test_the_tables_own_addresses_answer(client: FlaskClient, playing: TableSession, host: str) -> None:
    assert client.get("/api/state", headers={"Host": host}).status_code == 200
    response = client.post("/api/confirm", json={"step": 0}, headers={"Host": host, "Origin": f"http://{host}"})
    assert response.status_code == 200, response.json


def test_own_names() -> None:
    names = own_names("http://tavolo.lan:8080/", ["Goblin.Example"])
    assert {"localhost", "tavolo.lan", "goblin.example"} <= names
    import socket

    machine = socket.gethostname().lower().split(".")[0]
    assert allowed_host(f"{machine}.local:8080", names) and allowed_host(machine, names)
    assert allowed_host("TAVOLO.lan:80", names) and not allowed_host("tavolo.lan.evil.example", names)
    assert allowed_host("[fe80::1]:8080", names) and not allowed_host("", names)


def test_configured_hosts_are_allowed(session: TableSession) -> None:
    app = create_app({"TESTING": True, "ALLOWED_HOSTS": ["goblin.example"], "TABLE_URL": "http://tavolo:8080/"},
                     session=session)
    client = app.test_client()
    assert client.get("/api/state", headers={"Host": "goblin.example:8080"}).status_code == 200
    assert client.get("/api/state", headers={"Host": "tavolo:8080"}).status_code == 200
    assert client.get("/api/state", headers={"Host": "other.example"}).status_code == 403


@pytest.mark.parametrize("path", ["/", "/setup", "/settings", "/join", "/api/state", "/api/nothing",
                                  "/static/app.js", "/api/qr.svg"])
def test_every_response_carries_the_security_headers(client: FlaskClient, path: str) -> None:
    response = client.get(path)
    csp = response.headers["Content-Security-Policy"]
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert "unsafe-inline" not in csp and "http" not in csp
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_the_pages_need_nothing_inline(app: Flask, client: FlaskClient, attacking: TableSession) -> None:
    """No inline script, event handler or style attribute that the CSP would block."""
    import re

    for path in ("/", "/setup", "/settings", "/join", "/correct"):
        html = client.get(path).get_data(as_text=True)
        scripts = re.findall(r"<script([^>]*)>", html)
        assert all("src=" in attrs or 'type="application/json"' in attrs for attrs in scripts), scripts
        assert not re.search(r"\son[a-z]+=", html), path
        assert not re.search(r"\sstyle=", html), path
