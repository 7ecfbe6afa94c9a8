"""Regression tests of the Button Goblin audit: each deviation from the issue or the rulebook, pinned.

The command line is driven in-process through ``companion.cli.main`` with a real byte stdin, so that
encoding and exit-status behaviour are those of the installed command.
"""

import io
import json
import sys

import pytest

from companion.cli import main


def cli(capsys, monkeypatch, *args: str, stdin: bytes | str = b""):
    """Run ``goblin-companion button-goblin ARGS`` in-process: (exit status, stdout JSON or None, stderr)."""
    raw = stdin.encode() if isinstance(stdin, str) else stdin
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8"))
    status = main(["button-goblin", *args])
    out, err = capsys.readouterr()
    return status, (json.loads(out) if out.strip() else None), err


def one_error_line(status, out, err) -> str:
    assert status == 2 and out is None
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert len(err) < 400, err
    return err


# ---------------------------------------------------------------------- 1: undecodable or deep input


def test_non_utf8_stdin_is_one_clear_error_line(capsys, monkeypatch):
    err = one_error_line(*cli(capsys, monkeypatch, "analyze", stdin=b'{"to_move": 0, "players": "\xff\xfe"}'))
    assert "UTF-8" in err and "0xff" in err


def test_very_deep_json_is_one_clear_error_line(capsys, monkeypatch):
    err = one_error_line(*cli(capsys, monkeypatch, "analyze", stdin="[" * 100_000 + "]" * 100_000))
    assert "nested too deeply" in err


def test_deep_but_parsable_json_is_quoted_briefly(capsys, monkeypatch):
    err = one_error_line(*cli(capsys, monkeypatch, "analyze", stdin="[" * 500 + "]" * 500))
    assert "position must be a JSON object" in err


def test_huge_numbers_are_one_clear_error_line(capsys, monkeypatch):
    err = one_error_line(*cli(capsys, monkeypatch, "analyze", stdin='{"to_move": 1' + "0" * 5000 + "}"))
    assert "too large" in err
    err = one_error_line(*cli(capsys, monkeypatch, "analyze", "--position", "A: " + "7" * 5000 + " | B: 1"))
    assert "too large" in err


def test_a_byte_order_mark_is_accepted(capsys, monkeypatch):
    status, out, err = cli(capsys, monkeypatch, "analyze",
                           stdin=b"\xef\xbb\xbf" + b'{"players": [{"dice": [{"sides": 6, "value": 2}]},'
                                                   b' {"dice": [{"sides": 6, "value": 3}]}]}')
    assert status == 0, err
    assert out["initiative"]["player"] == 0


@pytest.mark.parametrize("args", [("analyze",), ("apply",)])
def test_empty_stdin_still_says_what_was_expected(capsys, monkeypatch, args):
    err = one_error_line(*cli(capsys, monkeypatch, *args, stdin=b""))
    assert "got nothing" in err


# ------------------------------------------------------------------------------ 2: unknown keys


def position_json(a_dice=None, b_dice=None, **extra):
    return {"to_move": 0, "players": [
        {"name": "Anna", "dice": a_dice or [{"sides": 6, "value": 5}, {"sides": 8, "value": 2}]},
        {"name": "Bruno", "dice": b_dice or [{"sides": 6, "value": 4},
                                             {"sides": 12, "value": 3, "skills": ["FU"]}]},
    ], **extra}


def test_unknown_key_in_a_player_is_refused_by_name(capsys, monkeypatch):
    position = position_json()
    position["players"][1]["dices"] = []
    err = one_error_line(*cli(capsys, monkeypatch, "analyze", stdin=json.dumps(position)))
    assert "player 1 has unknown key 'dices'" in err


def test_unknown_key_in_a_fire_entry_is_refused_by_name(capsys, monkeypatch):
    position = position_json(a_dice=[{"sides": 6, "value": 3}, {"sides": 8, "value": 5, "skills": ["FU"]}])
    attack = {"type": "power", "attackers": [0], "targets": [0], "fire": [{"die": 1, "to": 4, "too": 3}]}
    err = one_error_line(*cli(capsys, monkeypatch, "apply", stdin=json.dumps({"position": position,
                                                                             "attack": attack})))
    assert "fire entry 0 has unknown key 'too'" in err


def test_flow_actions_refuse_unknown_keys():
    from companion.button_goblin.flow import FLOW
    from companion.errors import InvalidInput

    state = FLOW.start({"players": [{"button": "Madness"}, {"button": "Luperto"}]})
    with pytest.raises(InvalidInput, match="unknown key 'valeus'"):
        FLOW.apply(state, {"type": "reading", "valeus": {}})
    for action in ({"type": "pass", "player": 0}, {"type": "decline", "player": 1, "player2": 0},
                   {"type": "attack", "kind": "power", "attackers": [0], "targets": [0], "player": 0}):
        with pytest.raises(InvalidInput, match=r"unknown key 'player2?'"):
            FLOW.apply(state, action)


# ------------------------------------------------------------------------------ 3: dice per player


def test_more_than_twelve_dice_per_player_are_refused(capsys, monkeypatch):
    many = [{"sides": 20, "value": 1 + k % 20, "skills": ["VA"]} for k in range(13)]
    err = one_error_line(*cli(capsys, monkeypatch, "analyze", stdin=json.dumps(position_json(a_dice=many))))
    assert "Anna has 13 dice in play" in err and "at most 12" in err
    captured = position_json()
    captured["players"][0]["captured"] = [{"sides": 6}] * 13
    err = one_error_line(*cli(capsys, monkeypatch, "analyze", stdin=json.dumps(captured)))
    assert "Anna has 13 captured dice" in err
    notation = "A: " + " ".join(["d20=3"] * 13) + " | B: d6=2"
    err = one_error_line(*cli(capsys, monkeypatch, "analyze", "--position", notation))
    assert "A has 13 dice in play" in err


def test_twelve_speed_dice_against_twelve_ones_are_analysed_quickly(capsys, monkeypatch):
    import time

    mine = [{"sides": 20, "value": 6, "skills": ["VA"]}] * 12
    theirs = [{"sides": 20, "value": 1}] * 12
    start = time.perf_counter()
    status, out, err = cli(capsys, monkeypatch, "analyze", stdin=json.dumps(position_json(mine, theirs)))
    assert status == 0, err
    assert time.perf_counter() - start < 3.0
    speed = [a for a in out["attacks"] if a["type"] == "speed"]
    assert len(speed) == 12 * 924  # each die takes any 6 of the 12 ones: C(12, 6)


# ------------------------------------------------------------------------------ 4: twins are equal


def test_a_twin_of_unequal_dice_is_refused_everywhere(capsys, monkeypatch):
    from companion.button_goblin import Die, parse_recipe
    from companion.errors import InvalidInput

    twin = position_json(b_dice=[{"sides": [10, 8], "value": 4, "skills": ["GE"]}])
    err = one_error_line(*cli(capsys, monkeypatch, "analyze", stdin=json.dumps(twin)))
    assert "two equal dice" in err and "(10,8)" in err
    err = one_error_line(*cli(capsys, monkeypatch, "analyze", "--position", "A: d6=2 | B: d(10,8)=5"))
    assert "two equal dice" in err
    with pytest.raises(InvalidInput, match=r"two equal dice.*'\(10,8\) \[GE\]' at column 4"):
        parse_recipe("4, (10,8) [GE]")
    # «un gemello da 8 è mostrato come (8, 8) e trattato come un dado a 16 facce»
    assert Die((8, 8), 16).size == 16


# ------------------------------------------------------------------------------ 5: focus turn-down


def test_focus_is_offered_only_to_the_player_without_initiative():
    from companion.button_goblin import Position
    from companion.button_goblin.core import focus_options, focus_reduce
    from companion.errors import IllegalAction

    # B already has initiative (2 against 3): turning its focus die down would only keep it
    position = Position.parse("A: d6=3 | B: d6=2[FO] d4=3")
    assert focus_options(position, 1) == []
    with pytest.raises(IllegalAction, match="B already has initiative"):
        focus_reduce(position, 1, {0: 1})
    # all dice equal: nobody has initiative, the round is re-rolled, no focus
    tied = Position.parse("A: d6=2[FO] | B: d6=2")
    assert focus_options(tied, 0) == []
    with pytest.raises(IllegalAction, match="re-rolled"):
        focus_reduce(tied, 0, {0: 1})
    # the player without initiative may, and then the other may answer
    duel = Position.parse("A: d6=4[FO] d8=8 | B: d6=3[FO] d8=7")
    assert {0: 2} in focus_options(duel, 0) and focus_options(duel, 1) == []
    after = focus_reduce(duel, 0, {0: 2})
    assert focus_options(after, 0) == [] and {0: 1} in focus_options(after, 1)


# ------------------------------------------------------------------------------ 6: focus bar only on FO


def test_focus_reduced_is_refused_on_a_die_without_focus(capsys, monkeypatch):
    barred = position_json(a_dice=[{"sides": 6, "value": 5, "focus_reduced": True}, {"sides": 8, "value": 2}])
    err = one_error_line(*cli(capsys, monkeypatch, "analyze", stdin=json.dumps(barred)))
    assert "not a focus (FO) die" in err and "player 0 die 0" in err
    err = one_error_line(*cli(capsys, monkeypatch, "analyze", "--position", "> A: d6=5! d8=2 | B: d6=4"))
    assert "not a focus (FO) die" in err and "d6=5!" in err
    fine = position_json(a_dice=[{"sides": 6, "value": 5, "skills": ["FO"], "focus_reduced": True},
                                 {"sides": 8, "value": 2}])
    status, out, err = cli(capsys, monkeypatch, "analyze", stdin=json.dumps(fine))
    assert status == 0, err
    assert all(0 not in a["attackers"] for a in out["attacks"])
    captured = position_json()
    captured["players"][0]["captured"] = [{"sides": 6, "skills": ["FO"], "focus_reduced": True}]
    err = one_error_line(*cli(capsys, monkeypatch, "analyze", stdin=json.dumps(captured)))
    assert "captured" in err and "focus" in err


# ------------------------------------------------------------------------------ 7: bars last one turn


@pytest.mark.parametrize("attack", [{"type": "power", "attackers": [0], "targets": [1]}, {"type": "pass"}])
def test_no_focus_bar_survives_a_turn_on_either_side(capsys, monkeypatch, attack):
    # the opponent's barred focus die («l'avversario non ha questa restrizione») must not sit out its turn
    position = position_json(
        a_dice=[{"sides": 6, "value": 5}, {"sides": 8, "value": 2, "skills": ["FO"], "focus_reduced": True}],
        b_dice=[{"sides": 6, "value": 6, "skills": ["FO"], "focus_reduced": True}, {"sides": 6, "value": 4}])
    if attack["type"] == "pass":
        position["players"][0]["dice"] = [{"sides": 6, "value": 1}]
    status, out, err = cli(capsys, monkeypatch, "apply", stdin=json.dumps({"position": position,
                                                                          "attack": attack}))
    assert status == 0, err
    after = out["position"]
    assert after["to_move"] == 1
    assert not any(d.get("focus_reduced") for p in after["players"] for d in p["dice"])
    status, analysis, err = cli(capsys, monkeypatch, "analyze", stdin=json.dumps(after))
    assert any(a["attackers"] == [0] for a in analysis["attacks"])  # Bruno's d6 showing 6 attacks now


# ------------------------------------------------------------------------------ 8: names


@pytest.mark.parametrize("name", ["Lo;bo", "Lobo\tII", "x" * 41, "Lo|bo", "Lo:bo", " "])
def test_names_that_would_break_the_notation_are_refused(capsys, monkeypatch, name):
    from companion.button_goblin import Player
    from companion.button_goblin.flow import FLOW
    from companion.errors import InvalidInput

    with pytest.raises(InvalidInput, match="bad player name"):
        Player(name, ())
    with pytest.raises(InvalidInput, match="bad player name"):
        FLOW.start({"players": [{"button": "Lobo", "name": name}, {"button": "SdP"}]})
    position = position_json()
    position["players"][0]["name"] = name
    err = one_error_line(*cli(capsys, monkeypatch, "analyze", stdin=json.dumps(position)))
    assert "bad player name" in err


def test_a_name_with_a_semicolon_would_not_round_trip():
    from companion.button_goblin import Die, Player, Position
    from companion.errors import InvalidInput

    # «;» starts the '; passes N' suffix of the notation: such a name could never be parsed back
    with pytest.raises(InvalidInput):
        Position.parse("Lo;bo: 2 | SdP: 3")
    ok = Position((Player("Bruno Rossi-2 (B)", (Die((6,), 2),)), Player("Anna", (Die((6,), 3),))), 0, 1)
    assert Position.parse(ok.format()) == ok


# ------------------------------------------------------------------------------ 9: unknown sizes


def test_a_die_of_unknown_size_never_goes_below_one(capsys, monkeypatch):
    from companion.button_goblin import Die, Position
    from companion.button_goblin.core import focus_options

    # a die showing 3 is not a d0, so whatever its size it cannot be turned down to 0
    status, out, err = cli(capsys, monkeypatch, "analyze", "--position", "> A: d6=2 d?=3[FU] | B: d6=5")
    assert status == 0, err
    assert {"type": "power", "attackers": [0], "targets": [0], "fire": 3} not in out["attacks"]
    assert {"type": "power", "attackers": [0], "targets": [0], "fire": 2} not in out["attacks"]  # 2+2 < 5
    status, out, err = cli(capsys, monkeypatch, "analyze", "--position", "> A: d6=3 d?=3[FU] | B: d6=5")
    assert {"type": "power", "attackers": [0], "targets": [0], "fire": 2} in out["attacks"]
    attack = {"type": "power", "attackers": [0], "targets": [0], "fire": [{"die": 1, "to": 0}]}
    err = one_error_line(*cli(capsys, monkeypatch, "apply", "--position", "> A: d6=3 d?=3[FU] | B: d6=5",
                              stdin=json.dumps({"attack": attack})))
    assert "can go down to 1..2, not 0" in err
    assert focus_options(Position.parse("A: d?=2[FO] d6=5 | B: d6=1 d6=6"), 0) == [{0: 1}]
    assert Die(None, 0).low == 0 and Die(None, 7).low == 1  # a 0 can only be a d0


# ------------------------------------------------------------------------------ 10: roster columns


@pytest.mark.parametrize(("recipe", "message"), [
    ("4, , 8", "missing die: ',' at column 4"),
    ("4, 6,", "missing die: '(end)' at column 6"),
    ("4, 6 [FO,], 8", "empty skill: ']' at column 10"),
    ("4, 6 [FO, ], 8", "empty skill: ']' at column 11"),
    ("4, 6 [FO", "unclosed '[': '[FO' at column 6"),
    ("4, (10,10 [GE]", "unclosed '(': '(10,10 [GE]' at column 4"),
    ("4, 6x, 8", "bad die: '6x' at column 4"),
    ("4, 6 [ZZ], 8", "unknown skill: 'ZZ' at column 7"),
    ("4, 6 [VO,  ZZ]", "unknown skill: 'ZZ' at column 12"),
])
def test_recipe_errors_point_at_the_bad_token(recipe, message):
    from companion.button_goblin import parse_recipe
    from companion.errors import InvalidInput

    with pytest.raises(InvalidInput) as caught:
        parse_recipe(recipe)
    assert str(caught.value) == f"{message} of {recipe!r}"


# ------------------------------------------------------------------------------ 11: other findings


def test_a_key_given_twice_is_refused_not_silently_overwritten(capsys, monkeypatch):
    text = ('{"to_move": 0, "players": [{"name": "A", "dice": [{"sides": 6, "value": 2, "value": 5}]},'
            ' {"name": "B", "dice": [{"sides": 6, "value": 3}]}]}')
    err = one_error_line(*cli(capsys, monkeypatch, "analyze", stdin=text))
    assert "key 'value' given twice" in err


def test_has_captured_is_refused_on_a_die_without_disintegration(capsys, monkeypatch):
    marked = position_json(a_dice=[{"sides": 6, "value": 5, "has_captured": True}])
    err = one_error_line(*cli(capsys, monkeypatch, "analyze", stdin=json.dumps(marked)))
    assert "not a disintegration (DS) die" in err
    err = one_error_line(*cli(capsys, monkeypatch, "analyze", "--position", "A: d6=5* | B: d6=4"))
    assert "not a disintegration (DS) die" in err
    fine = position_json(a_dice=[{"sides": 10, "value": 5, "skills": ["DS"], "has_captured": True}])
    status, out, err = cli(capsys, monkeypatch, "analyze", stdin=json.dumps(fine))
    assert status == 0, err
    assert out["scores"][0] == 5  # a DS die that has captured scores half its size when kept
