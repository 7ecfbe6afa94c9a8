"""Issue 2, bullet by bullet, through the JSON command line ``goblin-companion button-goblin``.

Every test drives ``analyze`` or ``apply`` the way a script does (argv, stdin bytes, stdout JSON, exit
status, one stderr line), in-process through ``companion.cli.main``; one test runs the real
``python3 -m companion`` process. Bullets the command line does not expose (the roster, swing sizes,
the focus duel, rounds and the match) are checked through the API the table flow uses.
"""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = "Lobo: 2 2 6 9 13 | SdP: 2 4 5 13 18"


def run(capsys, monkeypatch, *args: str, stdin: object = None):
    """(exit status, stdout JSON or None, stderr) of ``button-goblin ARGS`` with ``stdin`` as JSON."""
    raw = b"" if stdin is None else json.dumps(stdin).encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8"))
    status = main(["button-goblin", *args])
    out, err = capsys.readouterr()
    return status, (json.loads(out) if out.strip() else None), err


@pytest.fixture
def cli(capsys, monkeypatch):
    def analyze(position: str | dict) -> dict:
        if isinstance(position, str):
            status, out, err = run(capsys, monkeypatch, "analyze", "--position", position)
        else:
            status, out, err = run(capsys, monkeypatch, "analyze", stdin=position)
        assert status == 0, err
        assert err == ""
        return out

    def apply(position: str | dict, attack: dict) -> dict:
        if isinstance(position, str):
            args, data = ("apply", "--position", position), {"attack": attack}
        else:
            args, data = ("apply",), {"position": position, "attack": attack}
        status, out, err = run(capsys, monkeypatch, *args, stdin=data)
        assert status == 0, err
        return out

    def fails(*args: str, stdin: object = None) -> str:
        status, out, err = run(capsys, monkeypatch, *args, stdin=stdin)
        assert status == 2 and out is None
        assert err.startswith("button-goblin: ") and err.count("\n") == 1
        return err

    analyze.apply = apply
    analyze.fails = fails
    return analyze


def attacks(out: dict, kind: str | None = None) -> set[tuple]:
    return {(a["type"], tuple(a["attackers"]), tuple(a["targets"]), a["fire"])
            for a in out["attacks"] if kind in (None, a["type"])}


def die(sides, value=None, *skills, **flags):
    out = {"sides": sides, "skills": list(skills), **flags}
    if value is not None:
        out["value"] = value
    return out


def position(mine, theirs, to_move=0, mine_captured=(), theirs_captured=(), passes=0):
    return {"to_move": to_move, "passes": passes, "players": [
        {"name": "Anna", "dice": list(mine), "captured": list(mine_captured)},
        {"name": "Bruno", "dice": list(theirs), "captured": list(theirs_captured)}]}


# ------------------------------------------------------------------------------------ dice and recipes


def test_a_zero_sided_die_shows_zero_and_zero_counts_for_initiative(cli):
    out = cli("A: d0=0[NU] d6=5 | B: d4=1 d6=2")
    assert out["initiative"]["player"] == 0
    assert "0 against 1" in out["initiative"]["reason"]
    assert "outside 0..0" in cli.fails("analyze", "--position", "A: d0=1 | B: d4=1")


def test_a_size_of_1000_works(cli):
    out = cli("> Racca: d1000=600[DS] d10=3 | B: d20=17 d20=20")
    assert not attacks(out, "disintegration")  # 17 and 20 are below 600
    out = cli("> Racca: d1000=15[DS] d10=3 | B: d20=17 d20=20")
    assert attacks(out, "disintegration") == {("disintegration", (0,), (0,), 0),
                                              ("disintegration", (0,), (1,), 0)}
    assert out["scores"] == [0 + 5, 10 + 10]  # a DS die that never captured scores nothing


def test_a_twin_is_one_die_of_summed_size_showing_2_to_20(cli):
    twin = die([10, 10], 20, "GE")
    out = cli(position([twin], [die(20, 20)]))
    assert out["attacks"] == [{"type": "power", "attackers": [0], "targets": [0], "fire": 0},
                              {"type": "skill", "attackers": [0], "targets": [0], "fire": 0}]
    assert out["scores"] == [10, 10]  # kept: half of 20
    assert "outside 2..20" in cli.fails("analyze", stdin=position([die([10, 10], 1)], [die(6, 2)]))
    assert "outside 2..20" in cli.fails("analyze", stdin=position([die([10, 10], 21)], [die(6, 2)]))
    assert "two equal dice" in cli.fails("analyze", stdin=position([die([10, 8], 5)], [die(6, 2)]))
    after = cli.apply(position([die(20, 20)], [twin]), {"type": "power", "attackers": [0], "targets": [0]})
    assert after["position"]["players"][0]["captured"] == [{"sides": [10, 10], "value": 20, "skills": ["GE"]}]
    assert cli(after["position"])["scores"] == [10 + 20, 0]


def test_swing_x_w_y_sizes_4_to_20_every_x_shared():
    from companion.button_goblin import find_button
    from companion.errors import InvalidInput

    lobo = find_button("Lobo")
    assert lobo.swing_letters == ("X", "W", "Y")
    dice = lobo.dice({"X": 6, "W": 20, "Y": 4})
    assert [d.size for d in dice] == [0, 6, 6, 20, 4]  # both X share one size; W and Y are free
    for bad in ({"X": 3, "W": 4, "Y": 4}, {"X": 21, "W": 4, "Y": 4}, {"X": 6, "W": 6}):
        with pytest.raises(InvalidInput):
            lobo.dice(bad)


# --------------------------------------------------------------------------------------------- roster


def test_the_roster_notation_all_76_buttons_and_ve():
    from companion.button_goblin import ROSTER, find_button, parse_recipe
    from companion.errors import InvalidInput

    assert len(ROSTER) == 76
    for text in ("4 [FO]", "X [VA]", "(10,10) [GE]", "6 [VO, OM]", "1000 [DS]", "0 [NU]"):
        assert parse_recipe(text)[0].format().replace(" ", "") == text.replace(" ", "")
    with pytest.raises(InvalidInput, match=r"unknown skill: 'QQ' at column 4"):
        parse_recipe("4 [QQ]")
    assert [b.name for b in ROSTER if b.needs_ve] == ["Antonio", "Alisa"]
    with pytest.raises(InvalidInput, match="VE"):
        find_button("Alisa").dice({"X": 8})
    assert find_button("Alisa").dice({"X": 8}, "VO")[0].skills == ("VO",)


# ----------------------------------------------------------------------------------------- initiative


def test_lowest_single_die_wins_and_equal_lowest_cancel_pairwise(cli):
    out = cli(EXAMPLE)
    reason = "Lobo has the lowest die, 2 against 4 (tied 2 cancelled)"
    assert out["initiative"] == {"player": 0, "reason": reason}


def test_all_comparable_tied_more_dice_goes_first_and_all_equal_rerolls(cli):
    assert cli("A: 2 3 | B: 3 2 4")["initiative"]["player"] == 1
    tie = cli("A: 2 3 | B: 3 2")["initiative"]
    assert tie["player"] is None and "re-rolled" in tie["reason"]


def test_focus_bars_the_winners_turned_down_die_in_its_first_attack_only(cli):
    # Anna won initiative by turning her focus d6 down to 1: it may not attack now
    barred = die(6, 1, "FO", focus_reduced=True)
    start = position([barred, die(8, 4)], [die(6, 1), die(10, 4)])
    out = cli(start)
    assert out["attacks"] and all(0 not in a["attackers"] for a in out["attacks"])
    after = cli.apply(start, {"type": "power", "attackers": [1], "targets": [1]})["position"]
    assert not any(d.get("focus_reduced") for p in after["players"] for d in p["dice"])
    power = {"type": "power", "attackers": [0], "targets": [0]}
    assert "die 0" in cli.fails("apply", stdin={"position": start, "attack": power})


def test_focus_only_by_the_player_without_initiative_only_to_win_then_alternate():
    from companion.button_goblin import Position
    from companion.button_goblin.core import focus_options, focus_reduce
    from companion.errors import IllegalAction

    start = Position.parse("A: d6=4[FO] d8=8 | B: d6=3[FO] d8=7")
    assert focus_options(start, 1) == []  # B already has initiative
    with pytest.raises(IllegalAction, match="win"):
        focus_reduce(start, 0, {0: 3})  # 3 against 3, then 8 against 7: still B
    answer = focus_reduce(start, 0, {0: 2})
    assert focus_options(answer, 1)  # now B may answer
    final = focus_reduce(answer, 1, {0: 1})
    assert final.to_move == 1 and focus_options(final, 1) == []


# -------------------------------------------------------------------------------------------- attacks


def test_the_rulebooks_worked_example(cli):
    out = cli(EXAMPLE)
    assert not [a for a in out["attacks"] if a["targets"] == [4]]  # the 18 cannot be captured
    on_13 = {(a["type"], tuple(a["attackers"])) for a in out["attacks"] if a["targets"] == [3]}
    assert on_13 == {("power", (4,)), ("skill", (4,)), ("skill", (0, 1, 3))}  # 13, or 9+2+2
    after = cli.apply(EXAMPLE, {"type": "skill", "attackers": [0, 1, 3], "targets": [3]})
    assert after["reroll"] == [0, 1, 3]
    assert after["position"]["to_move"] == 1
    assert [d["value"] for d in after["position"]["players"][1]["dice"]] == [2, 4, 5, 18]
    assert [d["value"] for d in after["position"]["players"][0]["dice"]] == [2, 2, 6, 9, 13]  # old values


def test_power_and_skill(cli):
    out = cli(position([die(8, 5), die(6, 3)], [die(10, 5), die(12, 8), die(4, 2)]))
    assert attacks(out, "power") == {("power", (0,), (0,), 0), ("power", (0,), (2,), 0),
                                     ("power", (1,), (2,), 0)}
    assert attacks(out, "skill") == {("skill", (0,), (0,), 0), ("skill", (0, 1), (1,), 0)}


def test_speed_captures_any_set_summing_to_its_value(cli):
    out = cli(position([die(20, 7, "VA")], [die(6, 3), die(6, 4), die(8, 7), die(4, 1)]))
    assert attacks(out, "speed") == {("speed", (0,), (0, 1), 0), ("speed", (0,), (2,), 0)}
    assert ("power", (0,), (2,), 0) in attacks(out)  # speed dice keep the normal attacks


def test_berserk_never_skill_attacks_captures_like_speed_then_halves(cli):
    start = position([die(20, 7, "FG"), die(4, 1)], [die(6, 3), die(6, 4), die(8, 8)])
    out = cli(start)
    assert attacks(out, "berserk") == {("berserk", (0,), (0, 1), 0)}
    assert not [a for a in out["attacks"] if a["type"] == "skill" and 0 in a["attackers"]]
    after = cli.apply(start, {"type": "berserk", "attackers": [0], "targets": [0, 1]})
    assert after["reroll"] == [0]
    assert after["position"]["players"][0]["dice"][0] == {"sides": 10, "value": 7, "skills": []}
    odd = cli.apply(position([die(9, 7, "FG")], [die(6, 3), die(6, 4)]),
                    {"type": "berserk", "attackers": [0], "targets": [0, 1]})
    assert odd["position"]["players"][0]["dice"][0] == {"sides": 5, "value": 5, "skills": []}  # half of 9, up


def test_shadow_and_disintegration_reverse_power_within_size(cli):
    for skill, kind in (("OM", "shadow"), ("DS", "disintegration")):
        out = cli(position([die(10, 2, skill)], [die(20, 1), die(20, 2), die(20, 10), die(20, 12)]))
        assert attacks(out, kind) == {(kind, (0,), (1,), 0), (kind, (0,), (2,), 0)}  # 2..10, not 12, not 1
        assert not attacks(out, "power")


def test_fire_never_power_attacks_helps_power_and_skill_within_range_and_stays_lowered(cli):
    start = position([die(12, 10), die(10, 4, "FU"), die(6, 1, "FU")], [die(20, 12), die(20, 13), die(20, 4)])
    out = cli(start)
    assert ("power", (0,), (0,), 2) in attacks(out)  # 10 + 2 fire points
    assert not [a for a in attacks(out, "power") if a[2] == (1,)]  # 10 + 3 would leave the d12's range
    assert ("skill", (0, 2), (1,), 2) in attacks(out)  # 10 + 1 raised by 2, each within its size
    assert not [a for a in attacks(out, "power") if a[1] != (0,)]  # fire dice never power-attack
    assert ("skill", (1,), (2,), 0) in attacks(out)  # but they may make a skill attack
    fired = {"type": "power", "attackers": [0], "targets": [0], "fire": [{"die": 1, "to": 2}]}
    after = cli.apply(start, fired)
    assert after["reroll"] == [0]
    assert after["position"]["players"][0]["dice"][1]["value"] == 2  # the fire die stays lowered
    assert "not 0" in cli.fails("apply", stdin={"position": start, "attack": {
        "type": "power", "attackers": [0], "targets": [0], "fire": [{"die": 1, "to": 0}]}})


def test_must_attack_if_possible_pass_only_when_none_round_ends_on_two_passes(cli):
    # fire dice make no power attack, and 5 and 6 are no exact sums: neither player can attack
    start = position([die(6, 5, "FU")], [die(6, 6, "FU")], mine_captured=[die(8)])
    assert cli(start)["attacks"] == []
    once = cli.apply(start, {"type": "pass"})
    assert once["position"]["passes"] == 1 and once["reroll"] == []
    attackable = position([die(6, 6)], [die(6, 5)])
    assert "may not pass" in cli.fails("apply", stdin={"position": attackable, "attack": {"type": "pass"}})
    twice = cli.apply(once["position"], {"type": "pass"})
    assert twice["position"]["passes"] == 2
    assert cli(twice["position"])["attacks"] == []
    assert "round is over" in cli.fails("apply", stdin={"position": twice["position"], "attack": {
        "type": "power", "attackers": [0], "targets": [0]}})


# -------------------------------------------------------------------------------------- applying, scores


def test_captured_dice_go_to_the_pile_and_scores(cli):
    start = position([die(8, 5), die(0, 0, "NU")], [die(10, 5), die(20, 4, "VO"), die(6, 1)])
    assert cli(start)["scores"] == [4 + 0, 5 - 20 + 3]
    after = cli.apply(start, {"type": "power", "attackers": [0], "targets": [1]})
    me = after["position"]["players"][0]
    assert me["captured"] == [{"sides": 20, "value": 4, "skills": ["VO"]}]
    assert cli(after["position"])["scores"] == [4 + 0 - 10, 5 + 3]  # a captured poison die costs half
    nulled = cli.apply(start, {"type": "skill", "attackers": [0, 1], "targets": [0]})
    assert nulled["position"]["players"][0]["captured"][0]["skills"] == ["NU"]
    assert cli(nulled["position"])["scores"] == [4 + 0 + 0, -20 + 3]  # captured with a null die: 0


def test_disintegration_scores_only_if_captured_or_has_captured(cli):
    ds = die(10, 3, "DS")
    assert cli(position([ds], [die(6, 2)]))["scores"] == [0, 3]
    reverse = {"type": "disintegration", "attackers": [0], "targets": [0]}
    after = cli.apply(position([ds], [die(6, 4)]), reverse)
    assert after["position"]["players"][0]["dice"][0]["has_captured"] is True
    assert cli(after["position"])["scores"] == [5 + 6, 0]
    taken = cli.apply(position([die(6, 4)], [ds]), {"type": "power", "attackers": [0], "targets": [0]})
    assert cli(taken["position"])["scores"] == [3 + 10, 0]


def test_rounds_ties_replay_first_to_three_wins():
    from companion.button_goblin import match_outcome, round_outcome
    from companion.button_goblin.core import Position

    assert round_outcome(Position.parse("A: d6=1 | B: d6=2 ; passes 2")).winner is None  # 3-3: replayed
    assert round_outcome(Position.parse("A: d8=1 | B: d6=2 ; passes 2")).winner == 0
    assert match_outcome((2, 2)) is None and match_outcome((3, 1)).winner == 0


# ------------------------------------------------------------------------------------------- notation


def test_compact_and_full_notation_parse_format_and_quote_errors(cli):
    from companion.button_goblin import Position

    full = "> Lobo: d0=0[NU] d8=5 d(10,10)=14 d12=7[FU] {d20=13} | SdP: d4=2 d20=18[VA] ; passes 1"
    assert Position.parse(full).format() == full
    out = cli(full)
    assert out["scores"] == [0 + 4 + 10 + 6 + 20, 2 + 10]
    assert "'d8=9'" in cli.fails("analyze", "--position", "A: d8=9 | B: 2")
    assert "'x7'" in cli.fails("analyze", "--position", "A: x7 | B: 2")


# ---------------------------------------------------------------------------------- the JSON contract


def test_each_type_attackers_targets_listed_once(cli):
    out = cli(position([die(6, 3, "VA"), die(6, 3, "FG"), die(4, 3), die(12, 2, "FU")],
                       [die(6, 3), die(4, 1), die(4, 2)]))
    keys = [(a["type"], tuple(a["attackers"]), tuple(a["targets"])) for a in out["attacks"]]
    assert len(keys) == len(set(keys)) and len(keys) > 10


@pytest.mark.parametrize(("stdin", "needle"), [
    (b"{not json", "malformed JSON"),
    (b'{"players": [{"dice": [{"sides": 6, "value": 2, "skills": ["ZZ"]}]}, {"dice": []}]}',
     "unknown skill 'ZZ'"),
    (b'{"players": [{"dice": [{"sides": 6, "value": 7}]}, {"dice": []}]}', "value 7 is outside 1..6"),
    (b'{"players": [{"dice": [{"sides": 6, "value": 2}]}, {"dice": []}], "turn": 0}', "unknown key 'turn'"),
])
def test_bad_input_exits_2_with_one_line(capsys, monkeypatch, stdin, needle):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
    assert main(["button-goblin", "analyze"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and needle in err


def test_an_illegal_attack_exits_2_with_the_reason(cli):
    err = cli.fails("apply", "--position", EXAMPLE, stdin={"attack": {"type": "power", "attackers": [3],
                                                                      "targets": [4]}})
    assert "illegal power attack: 9 is less than 18" in err


def test_the_installed_command_line_as_a_process():
    command = [sys.executable, "-m", "companion", "button-goblin", "apply", "--position", EXAMPLE]
    done = subprocess.run(command,
                          input='{"attack": {"type": "power", "attackers": [4], "targets": [3]}}',
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["reroll"] == [4] and len(out["position"]["players"][1]["dice"]) == 4
