"""The ``dadoteck`` command line, run as ``python3 -m companion dadoteck ...``."""

from __future__ import annotations

import functools
import json

import pytest

from companion.dadoteck.cli import main
from tests.helpers import game_cli, refused_in_one_line

run = functools.partial(game_cli, "dadoteck")


def test_new_apply_show_through_the_command_line(tmp_path):
    done = run("new", "Anna", "Bruno")
    assert done.returncode == 0, done.stderr
    state = json.loads(done.stdout)["state"]
    bruno = {"type": "roll", "player": "Bruno", "value": 20}
    events = ["roll 0 20", bruno, "roll 1 1", "roll 0 7", "roll 1 9"]
    done = run("apply", stdin=json.dumps({"state": state, "events": events}))
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["state"]["squares"] == [20, 1]
    assert "square 20 is taken: Bruno rolls again" in answer["log"]
    assert answer["awaiting"]["kind"] == "roll" and answer["awaiting"]["names"] == ["Bruno"]
    path = tmp_path / "state.json"
    path.write_text(json.dumps(answer["state"]))
    done = run("apply", "--state", str(path), "--event", "roll 1 11")
    answer = json.loads(done.stdout)
    assert answer["awaiting"]["kind"] == "roll" and answer["awaiting"]["names"] == ["Anna"]
    assert answer["state"]["squares"] == [20, 11] and answer["log"] == ["Bruno moves to square 11"]
    done = run("apply", "--state", str(path), "--event", '{"type": "roll", "player": 1, "value": 20}')
    answer = json.loads(done.stdout)
    assert answer["outcome"] == {"termination": "last-pawn", "winner": 1, "winner_name": "Bruno"}
    done = run("show", str(path))
    shown = json.loads(done.stdout)
    assert shown["board"][19]["name"] == "Anna" and shown["board"][0]["name"] == "Bruno"
    assert shown["initiative"]["order"] == ["Bruno", "Anna"]
    assert shown["legal"] == [{"type": "roll", "player": 1, "name": "Bruno", "values": [1, 20]}]


def test_a_whole_game_in_one_call_reports_the_winner():
    state = json.loads(run("new", "Anna", "Bruno").stdout)["state"]
    events = ["roll 0 5", "roll 1 9", "roll 0 3", "roll 1 2", "roll 0 9"]
    answer = json.loads(run("apply", stdin=json.dumps({"state": state, "events": events})).stdout)
    assert answer["outcome"] == {"termination": "last-pawn", "winner": 0, "winner_name": "Anna"}
    assert answer["awaiting"]["kind"] == "nothing"


def test_a_d16_board_through_the_command_line():
    """«si può usare un dado con meno facce»: a d16 (no list of dice), and «via via anche i Pusillanimi»."""
    state = json.loads(run("new", "Anna", "Bruno", "Carla", "--speedup").stdout)["state"]
    events = ["roll 0 2", "roll 1 5", "roll 2 8", "movement-die 16", "initiative-die 3"]
    done = run("apply", stdin=json.dumps({"state": state, "events": events}))
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["log"][-2:] == ["movement die is now a d16", "initiative die is now a d3"]
    assert answer["awaiting"]["die"] == 3
    shown = json.loads(run("show", stdin=json.dumps(answer)).stdout)
    assert [b["square"] for b in shown["board"] if b["active"]] == [1, 13]
    assert [b["in_play"] for b in shown["board"]].count(True) == 16
    done = run("apply", "--state", json.dumps(answer["state"]), "--event", "movement-die 21")
    assert done.returncode == 2 and "2 to 20 faces" in done.stderr


NEW = '{"players": ["A", "B"], "squares": [null, null]}'


@pytest.mark.parametrize(
    ("args", "stdin", "quoted"),
    [
        (("apply",), "{not json", "bad JSON"),
        (("apply",), '{"state": ' + NEW + ', "event": "fly 3"}', "'fly 3'"),
        (("apply",), '{"state": ' + NEW + ', "event": "roll 0 21"}', "21"),
        (("apply",), '{"state": {"players": ["A"], "squares": [null]}, "event": "roll 0 2"}', "['A']"),
        (("apply",), '{"state": {"players": ["A", "B"], "squares": [3, 3]}, "event": "decline"}', "[3, 3]"),
        (("new", "Anna", "Anna"), "", "'Anna'"),
        (("show", "/no/such/file.json"), "", "/no/such/file.json"),
        (("teleport",), "", "teleport"),
    ],
)
def test_bad_input_exits_2_with_one_line(args, stdin, quoted):
    refused_in_one_line(run(*args, stdin=stdin), quoted)


def test_an_illegal_event_in_a_list_names_its_index(capsys):
    state = {"players": ["A", "B"], "squares": [None, None]}
    doc = json.dumps({"state": state, "events": ["roll 0 4", "roll 0 5"]})
    assert main(["apply", doc]) == 2
    err = capsys.readouterr().err
    assert "event 1" in err and "'roll 0 5'" in err


def test_help_exits_0(capsys):
    assert main(["--help"]) == 0
    assert "apply" in capsys.readouterr().out
