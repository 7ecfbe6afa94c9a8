"""The attack advisor through the page's API: ``GET /api/advice``, on request only."""

from __future__ import annotations

from typing import Any

import pytest
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
