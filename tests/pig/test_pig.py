"""The new-game checklist (docs/new-game.md), proved: Pig, a sixth game written by it, is found by the
registry, keeps every promise of the rules protocol and is played at the table through the session."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.errors import IllegalAction
from companion.games import GAMES, GameEntry, find_game, find_rules
from companion.rules import Outcome
from companion.session import TableSession
from companion.store import Store
from tests.pig.flow import FLOW
from tests.pig.rules import RULES
from tests.test_rules import walk


@pytest.fixture(autouse=True)
def registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(GAMES, "pig", GameEntry("tests.pig", "Pig: a test game"))  # the checklist's one line
    yield


def test_the_registry_finds_the_sixth_game() -> None:
    assert find_game("pig") is FLOW and find_rules("pig") is RULES


@pytest.mark.parametrize("seed", range(4))
def test_pig_keeps_every_promise_of_the_rules_protocol(seed: int) -> None:
    walk(find_rules("pig"), {"players": ["Anna", "Bruno"], "target": 12}, seed, [])


def test_pig_at_the_table_camera_choices_undo_and_a_restart(tmp_path: Path) -> None:
    def roll(session: TableSession, value: int) -> None:
        die = {"bbox": [0, 0, 9, 9], "sides": 6, "value": value, "confidence": 0.9}
        session.offer_reading({"width": 64, "height": 48, "dice": [die]})
        session.confirm()

    with Store(tmp_path / "table.sqlite3") as store:
        session = TableSession(store)
        session.new_game("pig", {"players": ["Anna", "Bruno"], "target": 10})
        assert session.snapshot()["expects"]["slots"][0]["label"] == "Anna d6"
        roll(session, 6)
        roll(session, 5)
        [hold] = session.snapshot()["choices"]
        assert hold["label"] == "Anna holds 11" and hold["action"] == {"type": "hold"}
        session.choose(0)
        view = session.snapshot()["view"]
        assert view["over"] and view["scores"] == {"Anna": 11, "Bruno": 0}
        with pytest.raises(IllegalAction):
            session.correct({"type": "roll", "value": 3})
        session.undo()
        assert not session.snapshot()["view"]["over"]
    with Store(tmp_path / "table.sqlite3") as store:  # a restart replays the log
        view = TableSession(store).snapshot()["view"]
        assert view["turn_total"] == 11 and view["current"] == "Anna"


def test_the_outcome_is_the_protocols() -> None:
    state = RULES.new_game({"players": ["Anna", "Bruno"], "target": 3})
    for event in ({"type": "roll", "value": 4}, {"type": "hold"}):
        state = RULES.apply(state, RULES.event_from_json(state, event))
    assert RULES.outcome(state) == Outcome("target", (0,)) and RULES.awaiting(state) == ()
    four = RULES.event_from_json(state, {"type": "roll", "value": 4})
    assert RULES.parse_event(state, "roll value=4") == four
