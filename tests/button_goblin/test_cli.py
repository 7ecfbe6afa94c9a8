"""The JSON command line, driven as users and scripts drive it: ``python3 -m companion button-goblin``."""

import functools
import json

import pytest

from tests.helpers import game_cli

EXAMPLE = "Lobo: 2 2 6 9 13 | SdP: 2 4 5 13 18"


run = functools.partial(game_cli, "button-goblin")


POSITION = {
    "to_move": 0,
    "players": [
        {"name": "Lobo", "dice": [{"sides": 0, "value": 0, "skills": ["NU"]}, {"sides": 8, "value": 5},
                                  {"sides": 12, "value": 3, "skills": ["FU"]},
                                  {"sides": [10, 10], "value": 14, "skills": ["GE"]}],
         "captured": [{"sides": 6}]},
        {"name": "SdP", "dice": [{"sides": 8, "value": 7}, {"sides": 20, "value": 18, "skills": ["VO"]}],
         "captured": []},
    ],
}


def test_analyze_the_rulebook_example_with_position_flag():
    done = run("analyze", "--position", EXAMPLE)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["initiative"]["player"] == 0
    on_13 = [a for a in out["attacks"] if a["targets"] == [3]]
    assert {(a["type"], tuple(a["attackers"])) for a in on_13} == {("power", (4,)), ("skill", (4,)),
                                                                   ("skill", (0, 1, 3))}
    assert not [a for a in out["attacks"] if a["targets"] == [4]]
    assert out["scores"] is None  # the example gives no sizes


def test_analyze_json_lists_fire_and_scores():
    done = run("analyze", stdin=json.dumps(POSITION))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert {"type": "power", "attackers": [1], "targets": [0], "fire": 2} in out["attacks"]
    assert {"type": "power", "attackers": [3], "targets": [0], "fire": 0} in out["attacks"]
    assert out["scores"] == [0 + 4 + 6 + 10 + 6, 4 - 20]
    keys = [(a["type"], a["attackers"], a["targets"]) for a in out["attacks"]]
    assert len(keys) == len({json.dumps(k) for k in keys})


def test_apply_reports_rerolls_and_keeps_old_values():
    attack = {"type": "power", "attackers": [1], "targets": [0], "fire": [{"die": 2, "to": 1}]}
    done = run("apply", stdin=json.dumps({"position": POSITION, "attack": attack}))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["reroll"] == [1]
    lobo, sdp = out["position"]["players"]
    assert lobo["dice"][1]["value"] == 5 and lobo["dice"][2]["value"] == 1
    assert lobo["captured"][-1] == {"sides": 8, "value": 7, "skills": []}
    assert [d["value"] for d in sdp["dice"]] == [18]
    assert out["position"]["to_move"] == 1


def test_apply_with_null_die_marks_the_capture():
    pos = {"to_move": 0, "players": [{"name": "A", "dice": [{"sides": 6, "value": 6, "skills": ["NU"]}]},
                                     {"name": "B", "dice": [{"sides": 8, "value": 2}]}]}
    done = run("apply", stdin=json.dumps({"position": pos, "attack": {"type": "power", "attackers": [0],
                                                                      "targets": [0]}}))
    out = json.loads(done.stdout)
    assert out["position"]["players"][0]["captured"] == [{"sides": 8, "value": 2, "skills": ["NU"]}]


def test_apply_with_position_flag():
    done = run("apply", "--position", EXAMPLE,
               stdin=json.dumps({"attack": {"type": "skill", "attackers": [0, 1, 3], "targets": [3]}}))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["reroll"] == [0, 1, 3]


@pytest.mark.parametrize(
    ("args", "stdin", "needle"),
    [
        (["analyze"], "{not json", "malformed JSON"),
        (["analyze"], json.dumps({**POSITION, "players": [
            {"name": "A", "dice": [{"sides": 8, "value": 2, "skills": ["ZZ"]}]}, {"name": "B"}]}), "'ZZ'"),
        (["analyze"], json.dumps({"players": [{"name": "A", "dice": [{"sides": 8, "value": 9}]},
                                              {"name": "B"}]}), "value 9 is outside 1..8"),
        (["apply", "--position", EXAMPLE], json.dumps({"attack": {"type": "power", "attackers": [0],
                                                                   "targets": [4]}}), "illegal power attack"),
        (["apply", "--position", EXAMPLE], json.dumps({"attack": {"type": "smash", "attackers": [0],
                                                                   "targets": [4]}}), "'smash'"),
        (["analyze", "--position", "Lobo: 2 2 x | SdP: 3"], "", "'x'"),
        (["frobnicate"], "", "'frobnicate'"),
        (["analyze"], "", "nothing"),
    ],
)
def test_bad_input_exits_2_with_one_line(args, stdin, needle):
    done = run(*args, stdin=stdin)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], done.stderr


def test_apply_accepts_fire_points_from_the_analysis():
    analysis = json.loads(run("analyze", stdin=json.dumps(POSITION)).stdout)
    attack = next(a for a in analysis["attacks"] if a["fire"])
    done = run("apply", stdin=json.dumps({"position": POSITION, "attack": attack}))
    assert done.returncode == 0, done.stderr
    lowered = json.loads(done.stdout)["position"]["players"][0]["dice"][2]["value"]
    assert lowered == 3 - attack["fire"]


def test_pass_through_apply_only_without_attacks():
    done = run("apply", "--position", "> A: d6=1 | B: d6=6", stdin='{"attack": {"type": "pass"}}')
    assert json.loads(done.stdout) == {"position": {"to_move": 1, "passes": 1, "players": [
        {"name": "A", "dice": [{"sides": 6, "value": 1, "skills": []}], "captured": []},
        {"name": "B", "dice": [{"sides": 6, "value": 6, "skills": []}], "captured": []}]}, "reroll": []}
    refused = run("apply", "--position", "> A: d6=6 | B: d6=1", stdin='{"attack": {"type": "pass"}}')
    assert refused.returncode == 2 and "may not pass" in refused.stderr


def test_advise_prints_every_legal_attack_with_its_worth():
    notation = "> A: d4=3 d6=2 d4=1[FU] | B: d6=4 d4=2 d3=3[VA]"
    done = run("advise", "--position", notation, "--seed", "5", "--simulations", "50")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    analyzed = json.loads(run("analyze", "--position", notation).stdout)
    assert [a["attack"] for a in out["attacks"]] == analyzed["attacks"]
    assert out["seed"] == 5 and out["simulations"] == 50 and out["policy"] == "greedy"
    assert sum(a["best"] for a in out["attacks"]) == 1
    for item in out["attacks"]:
        assert item["win"]["simulations"] == 50
        assert item["win"]["low"] <= item["win"]["probability"] <= item["win"]["high"]
        assert item["expected_net"] == pytest.approx(item["score_change"] - item["reply"]["expected_gain"])
    again = json.loads(run("advise", "--position", notation, "--seed", "5", "--simulations", "50").stdout)
    assert again == out  # reproducible by seed
    # the same from JSON on stdin, with the default turn budget
    done = run("advise", stdin=json.dumps(POSITION))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["turn_budget"] == 7000


@pytest.mark.parametrize("args, stdin, words", [
    (["advise", "--position", "A: 3 | B: 4"], "", "needs every die's size"),
    (["advise", "--position", "> A: d6=3 | B: d4=4 ; passes 2"], "", "round is over"),
    (["advise", "--seed", "x", "--position", "> A: d6=3 | B: d4=4"], "", "--seed takes a whole number"),
    (["advise", "--simulations", "-5", "--position", "> A: d6=3 | B: d4=4"], "", "simulations must be"),
    (["advise", "--fast"], "", "unexpected argument '--fast'"),
    (["advise"], "{oops", "malformed JSON"),
    (["advise"], "", "expected a position"),
])
def test_advise_errors_are_one_line_and_exit_2(args, stdin, words):
    done = run(*args, stdin=stdin)
    assert done.returncode == 2 and done.stdout == ""
    assert words in done.stderr and done.stderr.count("\n") == 1


def test_advise_help_and_the_old_usage_unchanged():
    assert "advise [--position NOTATION] [--seed N]" in run("advise", "--help").stdout
    usage = "usage: goblin-companion button-goblin analyze|apply [--position NOTATION] < input.json\n"
    assert run("--help").stdout == usage  # recorded in tests/cli_corpus
