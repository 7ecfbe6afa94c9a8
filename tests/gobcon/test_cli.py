"""The ``gobcon`` command line, run as ``python3 -m companion gobcon ...``."""

from __future__ import annotations

import functools
import json

import pytest

from companion.gobcon.cli import main
from tests.helpers import game_cli, refused_in_one_line

run = functools.partial(game_cli, "gobcon")


def test_a_partita_through_the_command_line(tmp_path):
    done = run("new", "Anna", "Bruno", "Carla", "--target", "5")
    assert done.returncode == 0, done.stderr
    state = json.loads(done.stdout)["state"]
    assert state["target"] == 5
    events = [
        {"type": "partita", "name": "Risiko", "category": "board", "payoff": "K+3 G+1 B+0 D-1"},
        {"type": "declare", "player": "Bruno", "join": True},
        {"type": "declare", "player": "Carla", "join": True},
        {"type": "roll", "player": "Anna", "pips": 1},
        {"type": "roll", "player": "Bruno", "pips": 6},
    ]
    done = run("apply", stdin=json.dumps({"state": state, "events": events}))
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert "Anna proposed the Partita: Darth counts as Black" in answer["log"]
    assert answer["awaiting"] == {
        "phase": "roll", "kind": "roll", "player": 2, "name": "Carla", "steps": 0,
        "message": "Carla: roll the goblin die",
    }  # fmt: skip
    assert answer["totals"] == {"Anna": 0, "Bruno": 3, "Carla": 0}
    path = tmp_path / "state.json"
    path.write_text(json.dumps({"state": answer["state"]}))
    done = run("apply", "--state", str(path), "--event", '{"type": "roll", "player": 2, "face": "king"}')
    answer = json.loads(done.stdout)
    assert answer["log"][:2] == [
        "Carla rolls king, +1 GP",
        "Carla: only one King per Partita, it counts as Green",
    ]
    shown = json.loads(run("show", str(path)).stdout)
    assert shown["partita"]["next_roller"] == "Carla" and shown["partita"]["stage"] == "roll"
    assert {"type": "modifier", "player": 2, "steps": 1} in shown["legal"]
    assert [e["face"] for e in shown["legal"] if e["type"] == "roll"] == ["darth", "black", "green", "king"]
    assert shown["recent"] == [{"name": "Risiko", "category": "board",
                                "payoff": {"king": 3, "green": 1, "black": 0, "darth": -1}}]  # fmt: skip


def test_timed_game_without_target_from_the_command_line():
    state = json.loads(run("new", "Anna", "Bruno", "--no-target", "--timed").stdout)["state"]
    events = [{"type": "tokens", "player": 1, "delta": 2}, {"type": "time-up"}, {"type": "end-turn"}]
    answer = json.loads(run("apply", stdin=json.dumps({"state": state, "events": events})).stdout)
    assert answer["outcome"]["winner_names"] == ["Bruno"] and answer["outcome"]["termination"] == "time"


GAME = '{"players": ["A", "B"]}'


@pytest.mark.parametrize(
    ("args", "stdin", "quoted"),
    [
        (("apply",), "[1, 2", "bad JSON"),
        (("apply",), '{"state": ' + GAME + ', "event": {"type": "roll", "player": 1, "pips": 7}}', "7"),
        (("apply",), '{"state": ' + GAME + ', "event": {"type": "party"}}', "'party'"),
        (("apply",), '{"state": ' + GAME + ', "event": {"type": "tokens", "player": "Zed"}}', "'Zed'"),
        (("apply",), '{"state": ' + GAME + ', "event": {"type": "end-turn"}, "events": []}', "exactly one"),
        (("apply",), '{"state": {"players": ["A", "B"], "piles": [-1, 0]}, "event": {"type": "x"}}', "-1"),
        (("new", "Solo"), "", "['Solo']"),
        (("new", "A", "B", "--target", "x"), "", "'x'"),
    ],
)
def test_bad_input_exits_2_with_one_line(args, stdin, quoted):
    refused_in_one_line(run(*args, stdin=stdin), quoted)


def test_an_illegal_roll_is_refused_quoting_it(capsys):
    state = {"players": ["A", "B"]}
    doc = json.dumps({"state": state, "event": {"type": "roll", "player": 0, "face": "king"}})
    assert main(["apply", doc]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and '"face": "king"' in err and "no Partita" in err
