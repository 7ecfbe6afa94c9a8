"""The attack advisor through the page's API: ``GET /api/advice``, on request only."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.errors import GoblinError
from companion.messages import error_message
from companion.session import TableSession
from tests.web.conftest import D6_SETUP


def test_advice_is_never_in_the_snapshot(client: FlaskClient, attacking: TableSession) -> None:
    snap = client.get("/api/state").json
    assert "advice" not in snap and "advice" not in snap["view"]


def test_advice_lists_every_legal_attack_of_the_table(client: FlaskClient, attacking: TableSession) -> None:
    response = client.get("/api/advice")
    assert response.status_code == 200, response.json
    data: dict[str, Any] = response.json
    snap = client.get("/api/state").json
    assert data["step"] == snap["step"] and data["position"] == snap["position"]
    advice = data["advice"]
    assert advice["position"] == snap["view"]["notation"]
    choices = [(c["action"]["kind"], c["action"]["attackers"], c["action"]["targets"])
               for c in snap["choices"]]
    assert [(a["attack"]["type"], a["attack"]["attackers"], a["attack"]["targets"])
            for a in advice["attacks"]] == choices
    assert sum(a["best"] for a in advice["attacks"]) == 1
    # the same seed gives the same numbers; another seed, other simulations
    assert client.get("/api/advice").json == data
    assert client.get("/api/advice?seed=1").json["advice"]["seed"] == 1


def test_advice_when_nothing_is_to_be_attacked_is_refused_with_a_key(
        client: FlaskClient, playing: TableSession) -> None:
    response = client.get("/api/advice")  # the first roll is not confirmed yet
    assert response.status_code == 409 and response.json["key"] == "bg.illegal.no_advice", response.json
    assert client.get("/api/advice?seed=x").status_code == 400


def test_advice_before_any_game_and_for_a_game_without_advisor(session: TableSession) -> None:
    with pytest.raises(GoblinError) as raised:
        session.advice()
    said = error_message(raised.value)
    assert said is not None and said.key == "error.session.no_game"
    session.new_game("dadoteck", {"players": ["Anna", "Bruno"]}, archive=True)
    with pytest.raises(GoblinError) as raised:
        session.advice()
    said = error_message(raised.value)
    assert said is not None and said.key == "error.session.no_advice", raised.value
    assert "Dadoteck has no attack advisor" in str(raised.value)
    assert D6_SETUP


# ---------------------------------------------------------------- bounded: one at a time, kept by position

class Gate:
    """Holds every advice computation until released, counting them (a slow advisor, without sleeping)."""

    def __init__(self) -> None:
        self.entered, self.release, self.calls = threading.Event(), threading.Event(), 0

    def wrap(self, advise: Any) -> Any:
        def held(flow: Any, state: Any, *, seed: int = 0) -> Any:
            self.calls += 1
            self.entered.set()
            assert self.release.wait(10), "the test never released the advisor"
            return advise(flow, state, seed=seed)
        return held


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> Gate:
    from companion.button_goblin import flow

    held = Gate()
    cls = next(c for c in vars(flow).values() if isinstance(c, type) and "advise" in vars(c))
    monkeypatch.setattr(cls, "advise", held.wrap(cls.advise))
    return held


def test_one_advice_is_worked_out_at_a_time_and_another_is_told_to_wait(
        app: Flask, client: FlaskClient, attacking: TableSession, gate: Gate) -> None:
    answers: list[Any] = []

    def ask(path: str) -> None:
        response = app.test_client().get(path)
        answers.append((response.status_code, response.json))

    first = threading.Thread(target=ask, args=("/api/advice",))
    first.start()
    assert gate.entered.wait(10)
    # the Pi is busy with that one: another position or seed is refused at once, saying why
    busy = client.get("/api/advice?seed=1")
    assert busy.status_code == 429, busy.json
    assert busy.json["error"] == "too-many-requests" and busy.json["key"] == "error.advice.busy"
    assert busy.headers["Retry-After"] == "1" and busy.json["retry_after"] == 1
    assert "another position" in busy.json["detail"]
    # the same position from another phone waits for that answer instead of working it out again
    second = threading.Thread(target=ask, args=("/api/advice",))
    second.start()
    gate.release.set()
    first.join(10)
    second.join(10)
    assert [status for status, _ in answers] == [200, 200] and answers[0][1] == answers[1][1]
    assert gate.calls == 1
    # once it is done, the other seed is worked out
    assert client.get("/api/advice?seed=1").status_code == 200 and gate.calls == 2


def test_advice_is_kept_by_position_until_the_table_moves_on(
        client: FlaskClient, attacking: TableSession, gate: Gate) -> None:
    gate.release.set()
    first = client.get("/api/advice").json
    for _ in range(5):
        assert client.get("/api/advice").json == first
    assert gate.calls == 1
    # selecting a choice changes the snapshot, not the position: still kept
    assert client.post("/api/select", json={"index": 0}).status_code == 200
    assert client.get("/api/advice").json == first and gate.calls == 1
    # a confirmed attack is another position: worked out again, for that position
    assert client.post("/api/confirm", json={"step": first["step"]}).status_code == 200
    response = client.get("/api/advice")
    assert gate.calls == 2 or response.status_code == 409, response.json  # (no attack to choose: refused)
    if response.status_code == 200:
        assert response.json["position"] != first["position"]


def test_the_busy_answer_is_said_in_both_languages() -> None:
    from web.i18n import words_for

    for lang in ("it", "en"):
        words = words_for(lang, "button-goblin")
        assert "error.too-many-requests" in words and "error.advice.busy" in words, lang
