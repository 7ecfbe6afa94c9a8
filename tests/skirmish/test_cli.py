"""``python3 -m companion skirmish ...``: JSON in, the referee's answer out, exit 2 on bad input."""

import functools
import json

import pytest

from tests.helpers import game_cli_answer

BANDS = [
    {"name": "Elfi", "models": ["Lorien|T3|A3|S4|P20|eroe2|capitano", "Arciere|T4|A5|S5|P8"]},
    {"name": "Orchi", "models": ["Grum|A3|S4|P20|eroe1|possente", "Orco|A4|S5|P6"]},
]


run = functools.partial(game_cli_answer, "skirmish")


def test_a_game_through_the_command_line():
    code, out, err = run("new", json.dumps({"bands": BANDS, "time_limit_min": 60}))
    assert code == 0, err
    answer = json.loads(out)
    assert answer["awaiting"]["kind"] == "deploy" and answer["awaiting"]["dice"] == 2
    events = [
        {"type": "roll", "dice": [2, 5]},
        {"type": "roll", "dice": [6, 1]},
        {"type": "choose_first", "band": 0},
        {"type": "play_card", "card": "tiro2"},
        {
            "type": "shoot",
            "target": 1,
            "shooters": [{"model": 0, "distance": 12}, {"model": 1, "distance": 20, "moved": 8}],
        },
    ]
    code, out, err = run("apply", stdin=json.dumps({"state": answer["state"], "events": events}))
    assert code == 0, err
    answer = json.loads(out)
    check = answer["awaiting"]["check"]
    assert (check["target"], check["chance"], check["chance_with_heroism"]) == (2, "5/6", "1")
    code, out, err = run(
        "apply",
        json.dumps(
            {
                "state": answer["state"],
                "events": [{"type": "roll", "dice": [4]}, {"type": "roll", "dice": [5]}],
            }
        ),
    )
    answer = json.loads(out)
    assert code == 0 and answer["points"] == [6, 0] and answer["awaiting"]["kind"] == "near"


def test_test_gives_target_and_probability():
    code, out, _ = run("test", '{"kind": "morale", "characteristic": 4}')
    assert code == 0 and json.loads(out)["chance"] == "1/2"


def test_assault_evaluates_charge_test_and_save():
    code, out, _ = run(
        "assault",
        '{"attacker": "Lupo|A4|S5|P10|cavalleria", "target": "Orco|A4|S5|P6", '
        '"distance": 7, "extra_contacts": true}',
    )
    answer = json.loads(out)
    assert code == 0 and answer["charge"]["dice"] == 2 and answer["test"]["target"] == 3
    assert answer["save"]["target"] == 6


@pytest.mark.parametrize(
    ("args", "stdin", "needle"),
    [
        (("apply",), "[1,", "not valid JSON"),
        (("new", '{"bands": []}'), None, "two bands"),
        (("test", '{"kind": "luck", "characteristic": 4}'), None, "'luck'"),
        (
            (
                "shoot",
                json.dumps(
                    {
                        "band": BANDS[0],
                        "target": "Orco|A4|S5|P6",
                        "card": "tiro2",
                        "shooters": [{"model": 1, "distance": 10, "moved": 9}],
                    }
                ),
            ),
            None,
            "more than 8 cm",
        ),
        (("roll",), None, "'roll'"),
    ],
)
def test_bad_input_exits_2_with_one_line(args, stdin, needle):
    code, out, err = run(*args, stdin=stdin)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and needle in err
