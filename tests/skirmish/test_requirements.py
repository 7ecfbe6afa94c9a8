"""The issue's requirement list for the skirmish rules, line by line, through the command line's JSON
(``skirmish test`` / ``shoot`` / ``assault`` / ``apply``), as the acceptance scripts drive it."""

from fractions import Fraction
from itertools import product

import pytest

from companion.errors import IllegalAction
from companion.skirmish.cli import cmd_apply, cmd_assault, cmd_new, cmd_shoot, cmd_test

BAND = {"name": "E", "models": ["L|T3|A3|S4|P20|eroe2", "A|T4|A5|S5|P8", "B|T5|A5|S5|P8", "C|T4|A4|S4|P6"]}
TARGET = "O|A4|S4|P6"


def shoot(card="tiro2", **line):
    return cmd_shoot(
        {"band": BAND, "target": TARGET, "card": card, "shooters": [{"model": 1, "distance": 10, **line}]}
    )


def enumerate_chance(target, dice=1, heroism=0):
    rolls = list(product(range(1, 7), repeat=dice))
    return Fraction(sum(1 for r in rolls if sum(r) + heroism >= target), len(rolls))


@pytest.mark.parametrize(
    ("characteristic", "needs"), [(0, "certain"), (1, "certain"), (6, "6+"), (7, "impossible")]
)
def test_a_test_is_a_d6_at_least_the_characteristic_without_automatic_results(characteristic, needs):
    answer = cmd_test({"kind": "tiro", "characteristic": characteristic, "heroism": 1})
    assert answer["needs"] == needs
    assert Fraction(answer["chance"]) == enumerate_chance(characteristic)
    assert Fraction(answer["chance_with_heroism"]) == enumerate_chance(characteristic, heroism=1)


def test_shooting_limits():
    shoot(distance=30, moved=8)  # 30 cm and 8 cm are allowed
    for line in ({"distance": 30.5}, {"moved": 8.5}, {"engaged": True}, {"nearer": [{}]}):
        with pytest.raises(IllegalAction):
            shoot(**line)
    with pytest.raises(IllegalAction):
        cmd_shoot(
            {
                "band": BAND,
                "target": TARGET,
                "card": "tiro2",
                "target_engaged": True,
                "shooters": [{"model": 1, "distance": 9}],
            }
        )
    assert shoot(nearer=[{"cover": True}, {"engaged": True}])["test"]["target"] == 4
    assert shoot(cover=True)["test"]["target"] == 5


def test_several_shooters_one_test_best_tiro_and_save_penalties():
    lines = [{"model": i, "distance": 10} for i in (1, 2, 3)]
    with pytest.raises(IllegalAction):
        cmd_shoot({"band": BAND, "target": TARGET, "card": "tiro2", "shooters": lines})
    answer = cmd_shoot({"band": BAND, "target": TARGET, "card": "tiro3", "shooters": lines})
    assert (answer["test"]["characteristic"], answer["test"]["target"]) == (4, 2)
    assert answer["save"]["target"] == 6
    lines[2]["nearer"] = [{}]
    with pytest.raises(IllegalAction):
        cmd_shoot({"band": BAND, "target": TARGET, "card": "tiro3", "shooters": lines})


def test_assault_charge_and_modifiers():
    cav = cmd_assault(
        {"attacker": "Lupo|A4|S5|P10|cavalleria|possente", "target": "Orco|A4|S5|P6", "distance": 6}
    )
    assert (cav["charge"]["dice"], cav["charge"]["target"]) == (2, 6)
    assert Fraction(cav["charge"]["chance"]) == enumerate_chance(6, 2)
    assert (cav["test"]["target"], cav["save"]["target"]) == (3, 6)
    foot = cmd_assault(
        {"attacker": "Orco|A4|S5|P6", "target": "Elfo|A4|S4|P6", "distance": 4.2, "extra_contacts": True}
    )
    assert (foot["charge"]["dice"], foot["charge"]["target"], foot["save"]["target"]) == (1, 5, 5)
    later = cmd_assault(
        {"attacker": "Lupo|A4|S5|P10|cavalleria", "target": "Orco|A4|S5|P6", "contact_this_turn": False}
    )
    assert later["test"]["target"] == 4
    horse = cmd_assault({"attacker": "Lupo|A4|S5|P10|cavalleria", "target": "Cav|A4|S5|P6|cavalleria"})
    assert horse["test"]["target"] == 4


def game(*events, bands=None):
    bands = bands or [
        {"name": "Elfi", "models": ["Lorien|T3|A3|S4|P20|eroe2", "Arciere|T4|A5|S5|P8", "Lancia|A4|S4|P6"]},
        {
            "name": "Orchi",
            "models": ["Grum|A3|S4|P20|eroe1", "Orco|A4|S5|P6", "Orco|A4|S5|P6", "Orco|A4|S5|P6"],
        },
    ]
    state = cmd_new({"bands": bands})["state"]
    return cmd_apply({"state": state, "events": list(events)})


DEPLOY = [
    {"type": "roll", "dice": [2, 5]},
    {"type": "roll", "dice": [6, 1]},
    {"type": "choose_first", "band": 0},
]


def test_deployment_lowest_deploys_highest_chooses_equal_rolls_again():
    out = game({"type": "roll", "dice": [3, 3]})
    assert out["awaiting"]["kind"] == "deploy"
    out = game(*DEPLOY[:2])
    assert (out["state"]["deploys_first"], out["state"]["chooser"]) == (0, 0)


def test_heroism_is_one_pool_spent_after_the_roll():
    shot = {"type": "shoot", "target": 1, "shooters": [{"model": 0, "distance": 10}]}
    out = game(*DEPLOY, {"type": "play_card", "card": "tiro2"}, shot)
    assert out["awaiting"]["check"]["chance_with_heroism"] == "1"
    out = cmd_apply({"state": out["state"], "event": {"type": "roll", "dice": [1], "heroism": 2}})
    assert out["state"]["bands"][0]["models"][0]["heroism"] == 0
    with pytest.raises(IllegalAction):
        cmd_apply(
            {
                "state": out["state"],
                "events": [{"type": "roll", "dice": [1]}, {"type": "roll", "dice": [1], "heroism": 1}],
            }
        )


def test_morale_rout_and_victory_points():
    out = game(*DEPLOY, {"type": "play_card", "card": "speciale"}, {"type": "kill", "band": 1, "model": 1})
    assert out["awaiting"]["kind"] == "near"
    out = cmd_apply({"state": out["state"], "event": {"type": "near", "models": [0]}})
    assert out["awaiting"]["kind"] == "morale" and out["awaiting"]["check"]["target"] == 4
    out = cmd_apply(
        {
            "state": out["state"],
            "events": [{"type": "roll", "dice": [3]}, {"type": "roll", "dice": [1, 2, 3]}],
        }
    )
    assert out["awaiting"]["kind"] == "off_table"
    out = cmd_apply({"state": out["state"], "events": [{"type": "off_table", "off": True}]})
    assert out["awaiting"]["kind"] == "rout" and out["awaiting"]["dice"] == 2  # the captain fled
    out = cmd_apply({"state": out["state"], "event": {"type": "roll", "dice": [3, 4]}})
    assert out["outcome"] == {"winner": 0, "termination": "rout", "points": [6, 0]}  # fled models give no VP


def test_the_card_cycle_and_a_points_draw():
    cards = ["tiro2", "tiro3", "assalto2", "assalto3", "speciale"]
    events = [e for c in cards for e in ({"type": "play_card", "card": c}, {"type": "end_card"})]
    out = game(*DEPLOY, *events[:2])
    with pytest.raises(IllegalAction):
        cmd_apply(
            {
                "state": out["state"],
                "events": [
                    {"type": "play_card", "card": "speciale"},
                    {"type": "end_card"},
                    {"type": "play_card", "card": "tiro2"},
                ],
            }
        )
    out = game(
        *DEPLOY,
        *[e for pair in zip(events[::2], events[1::2], events[::2], events[1::2], strict=True) for e in pair],
    )
    assert [b["turns"] for b in out["state"]["bands"]] == [1, 1]
    out = cmd_apply({"state": out["state"], "event": {"type": "clock", "elapsed": 3600}})
    assert out["outcome"] == {"winner": None, "termination": "time", "points": [0, 0]}
