"""``goblin-companion rules GAME``: one JSON command line over the rules protocol, for every game."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.games import GAMES, GameEntry, find_rules
from tests.cli_corpus.record import run
from tests.test_rules import SETUPS


def ok(argv: list[str], stdin: str = "") -> dict[str, Any]:
    done = run(["rules", *argv], stdin)
    assert done["code"] == 0 and done["stderr"] == "", done
    answer: dict[str, Any] = json.loads(done["stdout"])
    return answer


def refused(argv: list[str], stdin: str = "") -> str:
    done = run(["rules", *argv], stdin)
    assert done["code"] == 2 and done["stdout"] == "" and done["stderr"].count("\n") == 1, done
    return str(done["stderr"])


@pytest.mark.parametrize("name", list(SETUPS))
def test_new_apply_show_answer_the_same_shape_for_every_game(name: str) -> None:
    rules = find_rules(name)
    new = ok([name, "new", json.dumps(SETUPS[name])])
    assert set(new) == {"game", "state", "awaiting", "outcome", "legal", "legal_count"}
    state = rules.state_from_json(new["state"])
    assert new["legal_count"] == len(rules.legal(state)) >= len(new["legal"]) > 0
    assert new["awaiting"] == list(rules.awaiting(state)) and new["outcome"] is None
    first = new["legal"][0]
    by_json = ok([name, "apply"], json.dumps({"state": new["state"], "event": first["event"]}))
    by_text = ok([name, "apply", "--state", json.dumps(new), "--event", first["notation"]])
    assert by_json == by_text and by_json["events"] == [first["event"]]
    after = rules.apply(state, rules.event_from_json(state, first["event"]))
    assert by_json["state"] == rules.state_to_json(after)
    assert ok([name, "show"], json.dumps({"state": by_json["state"]})) == {
        k: v for k, v in by_json.items() if k != "events"}


def test_errors_are_one_line_and_name_the_event() -> None:
    assert "unknown game 'chess'" in refused(["chess", "new", "{}"])
    new = ok(["dadoteck", "new", json.dumps(SETUPS["dadoteck"])])
    events = ["roll 0 5", "roll 0 6"]
    said = refused(["dadoteck", "apply"], json.dumps({"state": new["state"], "events": events}))
    assert "event 1: 'roll 0 6'" in said
    assert "event 0" in refused(["dadoteck", "apply"], json.dumps({"state": new["state"], "event": "fly 3"}))
    assert "event 0" in refused(["gobcon", "apply"], json.dumps({"state": ok(["gobcon", "new", json.dumps(
        SETUPS["gobcon"])])["state"], "event": "declare player=1 join=tru"}))


def test_a_sixth_game_gets_the_command_line_for_free(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(GAMES, "pig", GameEntry("tests.pig", "Pig: a test game"))
    new = ok(["pig", "new", '{"players": ["Anna", "Bruno"], "target": 5}'])
    answer = ok(["pig", "apply"], json.dumps({"state": new["state"], "events": ["roll value=6", "hold"]}))
    assert answer["outcome"] == {"termination": "target", "winners": [0]} and answer["awaiting"] == []


def test_a_whole_button_goblin_match_is_played_through_the_command_line() -> None:
    from tests.button_goblin.test_match_rules import RULES, SETUP, play

    states, events = play(2)
    new = ok(["button-goblin", "new", json.dumps(SETUP)])
    assert new["state"]["phase"] == "swing" and new["awaiting"] == [0] and new["outcome"] is None
    texts = [RULES.event_notation(e) for e in events]
    done = ok(["button-goblin", "apply"], json.dumps({"state": new["state"], "events": texts}))
    winner = states[-1].wins.index(3)
    assert done["outcome"] == {"termination": "match", "winners": [winner]}
    assert done["awaiting"] == [] and done["legal"] == [] and done["state"]["phase"] == "over"
    assert done["state"] == RULES.state_to_json(states[-1]) and len(done["events"]) == len(events)
    assert ok(["button-goblin", "show", json.dumps(done["state"])])["outcome"] == done["outcome"]
    half = len(events) // 2
    said = refused(["button-goblin", "apply"], json.dumps({"state": new["state"],
                                                           "events": [*texts[:half], texts[half - 1]]}))
    assert f"event {half}:" in said
