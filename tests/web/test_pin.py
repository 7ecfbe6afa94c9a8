"""The PIN against guessing: a few wrong tries a minute per client and overall, then a growing wait that the
answer states (429, Retry-After, "retry_after"). The clock is injected: no test sleeps."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.session import TableSession
from tests.helpers import Clock
from tests.web.conftest import D6_SETUP, FIRST_ROLL, camera_reading
from web import create_app
from web import pin as pin_module
from web.pin import CLIENT_TRIES, FIRST_WAIT, TABLE_TRIES

PIN = "4826"


@pytest.fixture
def pin_app(session: TableSession, clock: Clock) -> Flask:
    session.new_game("button-goblin", D6_SETUP)
    session.offer_reading(camera_reading(FIRST_ROLL))
    return create_app({"TESTING": True, "TABLE_PIN": PIN}, session=session, clock=clock)


def client_at(app: Flask, address: str) -> FlaskClient:
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def try_pin(client: FlaskClient, pin: str, path: str = "/api/pin") -> Any:
    return client.post(path, json={}, headers={"X-Table-PIN": pin})


def test_five_wrong_tries_then_a_wait_that_the_answer_states(pin_app: Flask, clock: Clock) -> None:
    phone = client_at(pin_app, "192.168.1.50")
    for _ in range(CLIENT_TRIES):
        assert try_pin(phone, "0000").json["error"] == "wrong-pin"
    locked = try_pin(phone, PIN)  # even the right PIN waits: otherwise guessing would go on
    assert locked.status_code == 429
    assert locked.json["error"] == "too-many-tries"
    assert locked.json["retry_after"] == FIRST_WAIT == int(locked.headers["Retry-After"])
    assert locked.json["key"] == "error.pin.wait" and locked.json["params"] == {"seconds": 30}
    assert "try again in 30 s" in locked.json["detail"]
    clock.now += 20
    assert try_pin(phone, PIN).json["retry_after"] == 10
    clock.now += 10
    assert try_pin(phone, PIN).status_code == 200


def test_the_wait_grows_and_a_right_pin_resets_it(pin_app: Flask, clock: Clock) -> None:
    phone = client_at(pin_app, "192.168.1.51")
    waits = []
    for _ in range(4):
        for _ in range(CLIENT_TRIES):
            assert try_pin(phone, "1111").status_code == 403
        locked = try_pin(phone, "1111")
        waits.append(locked.json["retry_after"])
        clock.now += locked.json["retry_after"]
    assert waits == [30, 60, 120, 240]
    assert try_pin(phone, PIN).status_code == 200
    for _ in range(CLIENT_TRIES):
        try_pin(phone, "1111")
    assert try_pin(phone, "1111").json["retry_after"] == 30


def test_a_locked_out_guesser_does_not_lock_out_the_other_phones(pin_app: Flask,
                                                                  session: TableSession) -> None:
    guesser, player = client_at(pin_app, "192.168.1.66"), client_at(pin_app, "192.168.1.20")
    for _ in range(CLIENT_TRIES + 3):
        try_pin(guesser, "9999")
    assert try_pin(guesser, PIN, "/api/confirm").status_code == 429
    assert session.step == 0
    response = player.post("/api/confirm", json={"step": 0}, headers={"X-Table-PIN": PIN})
    assert response.status_code == 200 and session.step == 1


def test_guesses_from_many_addresses_lock_the_table_but_not_its_players(pin_app: Flask, clock: Clock) -> None:
    player = client_at(pin_app, "192.168.1.20")
    assert try_pin(player, PIN).status_code == 200  # a phone already in the game
    for n in range(TABLE_TRIES):
        assert try_pin(client_at(pin_app, f"10.0.{n}.1"), "0000").status_code == 403
    newcomer = client_at(pin_app, "10.9.9.9")
    assert try_pin(newcomer, PIN).status_code == 429
    assert try_pin(player, PIN).status_code == 200
    clock.now += FIRST_WAIT
    assert try_pin(newcomer, PIN).status_code == 200


def test_10000_guesses_in_5_seconds_no_longer_find_the_pin(pin_app: Flask, clock: Clock) -> None:
    """The issue's attack: every 4-digit PIN in 5 s (0.5 ms apart), the right one among them."""
    guesser = client_at(pin_app, "192.168.1.99")
    answers: dict[int, int] = {}
    for guess in range(10_000):
        clock.now += 0.0005
        status = try_pin(guesser, f"{guess:04d}").status_code
        answers[status] = answers.get(status, 0) + 1
    assert answers.get(200, 0) == 0
    assert answers[403] == CLIENT_TRIES  # the rest waited
    assert answers[429] == 10_000 - CLIENT_TRIES


def test_no_pin_is_not_a_wrong_try(pin_app: Flask) -> None:
    phone = client_at(pin_app, "192.168.1.52")
    for _ in range(3 * CLIENT_TRIES):
        assert phone.post("/api/pin", json={}).json["error"] == "pin-required"
    assert try_pin(phone, PIN).status_code == 200


def test_the_pin_is_compared_in_constant_time(pin_app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[bytes, bytes]] = []
    original = pin_module.hmac.compare_digest

    def spy(a: bytes, b: bytes) -> bool:
        seen.append((a, b))
        return original(a, b)

    monkeypatch.setattr(pin_module.hmac, "compare_digest", spy)
    assert try_pin(client_at(pin_app, "192.168.1.53"), "12").status_code == 403
    assert seen == [(b"12", PIN.encode())]


def test_many_addresses_are_remembered_within_a_bound(pin_app: Flask) -> None:
    guard = pin_app.extensions[pin_module.EXTENSION]
    for n in range(pin_module.MAX_CLIENTS + 200):
        guard.check(f"10.1.{n // 250}.{n % 250}", PIN, PIN)
    assert len(guard._clients) == pin_module.MAX_CLIENTS
