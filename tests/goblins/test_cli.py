"""``python3 -m companion goblins ...``: JSON in, the referee's answer out, exit 2 on bad input."""

import functools
import json

import pytest

from companion.goblins.cli import main
from tests.helpers import game_cli_answer

run = functools.partial(game_cli_answer, "goblins")


def test_new_apply_and_round_trip_through_the_command_line():
    code, out, err = run("new", '{"players": ["Arnaldo", "Bea"]}')
    assert code == 0, err
    state = json.loads(out)["state"]
    request = {
        "state": state,
        "events": [
            {"type": "play_hero", "hero": "Cavalleria|4|0"},
            {"type": "adjust", "player": 0, "troops": 1},
            {"type": "face", "terrain": "Ladro di 1° livello|wood|5|2|-"},
        ],
    }
    code, out, err = run("apply", stdin=json.dumps(request))
    assert code == 0, err
    answer = json.loads(out)
    assert answer["awaiting"] == "toss"
    assert answer["toss"] == {"purpose": "troops", "player": 0, "count": 5, "machine": None, "hero": None}
    assert "victory: attack 10 vs defence 5" in answer["log"]
    code, out, err = run(
        "apply", json.dumps({"state": answer["state"], "event": {"type": "toss", "alive": 3, "dead": 2}})
    )
    assert code == 0, err
    final = json.loads(out)["state"]
    assert final["armies"][0]["troops"] == 6 and final["phase"] == "D"


def test_combat_evaluates_enzo():
    army = {"name": "Enzo", "troops": 0, "heroes": ["Assassino|2|0"], "machines": ["Ariete|ram|3|1|1"]}
    code, out, _ = run("combat", json.dumps({"army": army, "terrain": "Arciere Arcano|walls|11|5|-"}))
    answer = json.loads(out)
    assert code == 0
    assert (answer["modified_defence"], answer["result"], answer["epic_death_allowed"]) == (
        8,
        "defeat",
        False,
    )
    assert [t["purpose"] for t in answer["losses"]] == ["hero", "crew"]


def test_brawl_evaluates_a_tie():
    code, out, _ = run(
        "brawl", '{"attacker": {"name": "A", "troops": 3}, "defender": {"name": "B", "troops": 3}}'
    )
    assert code == 0 and json.loads(out)["winner"] == "tie" and json.loads(out)["toss_each"] == 3


def test_legal_lists_events():
    code, out, _ = run("new", '{"players": ["A", "B"]}')
    code, out, _ = run("legal", json.dumps({"state": json.loads(out)["state"]}))
    assert code == 0 and {"type": "reinforce", "goblins": 2} in json.loads(out)["legal"]


@pytest.mark.parametrize(
    ("args", "stdin", "needle"),
    [
        (("apply",), "{bad", "not valid JSON"),
        (("new", '{"players": ["Solo"]}'), None, "2 to 6 players"),
        (("fly",), None, "'fly'"),
        (("combat", '{"army": {"name": "A"}, "terrain": "X|moon|1|1|-"}'), None, "'moon'"),
        (("apply", '{"state": {"armies": []}, "event": {"type": "end_turn"}}'), None, "2 to 6 armies"),
    ],
)
def test_bad_input_exits_2_with_one_line(args, stdin, needle):
    code, out, err = run(*args, stdin=stdin)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and needle in err


def test_an_illegal_event_exits_2(capsys):
    _, out, _ = run("new", '{"players": ["A", "B"]}')
    state = json.loads(out)["state"]
    assert (
        main(["apply", json.dumps({"state": state, "event": {"type": "toss", "alive": 1, "dead": 0}})]) == 2
    )
    assert capsys.readouterr().err.strip() == "goblin-companion goblins apply: no toss is awaited now"
