"""The issue's requirement list for Goblins, line by line, through the command line's JSON (``goblins
combat`` / ``brawl`` / ``apply``), as the acceptance scripts drive it."""

import pytest

from companion.goblins.cli import cmd_apply, cmd_brawl, cmd_combat, cmd_new


def combat(army, terrain, **extra):
    return cmd_combat({"army": army, "terrain": terrain, **extra})


def losses(answer):
    return [(t["purpose"], t["count"]) for t in answer["losses"]]


def play(troops, events, players=("A", "B")):
    state = cmd_new({"players": list(players), "troops": troops})["state"]
    return cmd_apply({"state": state, "events": events})


def toss(alive, dead):
    return {"type": "toss", "alive": alive, "dead": dead}


def test_attack_is_troops_plus_heroes_and_crews_do_not_count():
    army = {"name": "A", "troops": 3, "heroes": ["H|2|0"], "machines": ["Torre|plain|1|2|2"]}
    answer = combat(army, "X|wood|20|1|-")
    assert (answer["attack"], answer["modified_defence"]) == (5, 19)


@pytest.mark.parametrize(
    ("requires", "army", "met"),
    [
        ("hero", {}, False),
        ("hero", {"heroes": ["H|1|0"]}, True),
        ("hero", {"machines": ["M|plain|0|1|1"]}, False),
        ("machine", {"heroes": ["H|1|0"]}, False),
        ("machine", {"machines": ["M|plain|0|1|1"]}, True),
    ],
)
def test_requirements_a_hero_or_a_machine_and_a_defeat_still_tosses(requires, army, met):
    answer = combat({"name": "A", "troops": 9, **army}, f"X|wood|3|1|{requires}")
    assert answer["requirements_met"] is met
    assert answer["result"] == ("victory" if met else "defeat")
    assert losses(answer) == [("troops", 3)]


def test_a_modified_defence_of_zero_or_less_is_an_automatic_win():
    answer = combat({"name": "A", "troops": 0, "machines": ["M|plain|5|1|1"]}, "X|wood|5|1|-")
    assert (answer["automatic"], answer["result"], answer["losses"]) == (True, "victory", [])


def test_the_ram_tosses_its_crew_at_the_start_of_phase_c_and_a_dead_crew_removes_it():
    out = play(
        4,
        [
            {"type": "play_machine", "machine": "Ariete|ram|3|1|1"},
            {"type": "face", "terrain": "X|wood|6|2|-"},
        ],
    )
    assert out["toss"]["purpose"] == "ram"
    out = cmd_apply({"state": out["state"], "event": toss(0, 1)})
    assert out["state"]["armies"][0]["machines"] == []
    assert "modified defence 6 - 0 = 6; attack 3" in out["log"]


@pytest.mark.parametrize(
    ("alive", "dead", "md", "troops", "machines"), [(1, 1, 7, 4, 1), (0, 2, 2, 3, 1), (2, 0, 12, 5, 0)]
)
def test_the_cannon_tosses_two_army_goblins(alive, dead, md, troops, machines):
    out = play(
        7,
        [
            {"type": "play_machine", "machine": "Cannone|cannon|5|2|2"},
            {"type": "face", "terrain": "X|wood|12|2|-"},
        ],
    )
    assert out["awaiting"] == "fire_cannon"
    out = cmd_apply(
        {"state": out["state"], "events": [{"type": "fire_cannon", "fire": True}, toss(alive, dead)]}
    )
    army = out["state"]["armies"][0]
    assert (army["troops"], len(army["machines"])) == (troops, machines)
    assert any(line.startswith(f"modified defence 12 - {12 - md} = {md}") for line in out["log"])


def test_win_iff_requirements_and_attack_reaches_the_modified_defence():
    assert combat({"name": "A", "troops": 5}, "X|wood|5|1|-")["result"] == "victory"
    assert combat({"name": "A", "troops": 4}, "X|wood|5|1|-")["result"] == "defeat"
    assert losses(combat({"name": "A", "troops": 4}, "X|wood|5|1|-")) == [("troops", 4)]


def test_the_rulebook_examples():
    arnaldo = combat({"name": "Arnaldo", "troops": 6, "heroes": ["Cavalleria|4|2"]}, "Ladro|wood|5|2|-")
    assert (arnaldo["attack"], arnaldo["result"], losses(arnaldo)) == (10, "victory", [("troops", 5)])
    one = combat({"name": "Arnaldo", "troops": 1, "heroes": ["Cavalleria|4|2"]}, "Ladro|wood|5|2|-")
    assert (one["attack"], one["result"], losses(one)) == (5, "victory", [("troops", 1)])
    dante = combat(
        {"name": "Dante", "troops": 4, "machines": ["Ariete|ram|3|1|1", "Cannone|cannon|5|2|2"]},
        "Lego-Las|walls|10|3|-",
    )
    assert (dante["modified_defence"], dante["result"], losses(dante)) == (2, "victory", [("troops", 2)])
    enzo = combat(
        {"name": "Enzo", "troops": 0, "heroes": ["Assassino|2|0"], "machines": ["Ariete|ram|3|1|1"]},
        "Arciere Arcano|walls|11|5|-",
    )
    assert (enzo["modified_defence"], enzo["result"], losses(enzo)) == (
        8,
        "defeat",
        [("hero", 1), ("crew", 1)],
    )


def test_losses_never_exceed_the_modified_defence_and_symbolic_goblins_only_without_troops():
    assert losses(combat({"name": "A", "troops": 9, "heroes": ["H|3|0"]}, "X|wood|4|1|-")) == [("troops", 4)]
    two = combat(
        {"name": "A", "troops": 0, "heroes": ["H|1|0", "K|1|0", "J|1|0"]}, "X|wood|2|1|-", heroes=[0, 2]
    )
    assert [(t["purpose"], t["hero"]) for t in two["losses"]] == [("hero", 0), ("hero", 2)]


def test_victory_occupies_gains_the_vp_as_goblins_and_takes_the_card():
    out = play(5, [{"type": "face", "terrain": "X|wood|3|2|-"}, toss(3, 0)])
    army = out["state"]["armies"][0]
    assert (army["troops"], [t["name"] for t in army["pile"]]) == (7, ["X"])


def test_defeat_goes_back():
    out = play(2, [{"type": "face", "terrain": "X|wood|3|2|-"}, toss(1, 1)])
    assert out["state"]["armies"][0]["pile"] == [] and out["state"]["phase"] == "D"
    assert any("goes back where it came from" in line for line in out["log"])


@pytest.mark.parametrize(("troops", "defence", "allowed"), [(4, 8, True), (4, 7, False)])
def test_epic_death_threshold(troops, defence, allowed):
    assert combat({"name": "A", "troops": troops}, f"X|wood|{defence}|1|-")["epic_death_allowed"] is allowed
    assert not combat({"name": "A", "troops": 0, "heroes": ["H|1|0"]}, "X|wood|8|1|-")["epic_death_allowed"]
    assert not combat({"name": "A", "troops": 1}, "X|wood|8|1|hero")["epic_death_allowed"]


def test_epic_death_all_dead_wins_else_survivors_toss_again_and_retreat():
    start = [
        {"type": "play_machine", "machine": "Ariete|ram|3|1|1"},
        {"type": "face", "terrain": "X|wood|9|2|-"},
        toss(1, 0),
    ]
    out = play(3, start)
    assert out["awaiting"] == "declare"
    won = cmd_apply(
        {"state": out["state"], "events": [{"type": "declare", "epic": True}, toss(0, 2), toss(0, 1)]}
    )
    assert [t["name"] for t in won["state"]["armies"][0]["pile"]] == ["X"] and won["state"]["armies"][0][
        "troops"
    ] == 2
    lost = cmd_apply(
        {"state": out["state"], "events": [{"type": "declare", "epic": True}, toss(1, 1), toss(1, 0)]}
    )
    assert [t["purpose"] for t in lost["state"]["tosses"]] == ["survivor_troops", "survivor_crew"]
    lost = cmd_apply({"state": lost["state"], "events": [toss(1, 0), toss(1, 0)]})
    assert lost["state"]["armies"][0]["pile"] == [] and any("goes back" in line for line in lost["log"])


def test_brawl():
    win = cmd_brawl(
        {
            "attacker": {"name": "A", "troops": 2, "heroes": ["H|3|0"], "machines": ["R|ram|3|1|1"]},
            "defender": {"name": "B", "troops": 4},
        }
    )
    assert (win["attacker_attack"], win["defender_attack"], win["winner"], win["toss_each"]) == (
        6,
        4,
        "attacker",
        4,
    )
    assert [(t["purpose"], t["count"]) for t in win["attacker_losses"]] == [("troops", 2), ("crew", 1)]
    tie = cmd_brawl(
        {"attacker": {"name": "A", "troops": 1, "heroes": ["H|3|0"]}, "defender": {"name": "B", "troops": 4}}
    )
    assert (tie["winner"], tie["toss_each"]) == ("tie", 4)


def test_the_end_when_the_city_centre_is_taken_and_the_tie_breaks():
    out = play(5, [{"type": "face", "terrain": "C|centre|3|3|-"}, toss(3, 0)])
    assert out["outcome"] == {"winners": [0], "winner": 0, "termination": "city_taken"}
