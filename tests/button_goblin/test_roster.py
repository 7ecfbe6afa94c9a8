"""The roster: all 76 buttons load, recipes parse as printed, errors point at the bad token."""

import re

import pytest

from companion.button_goblin import BUTTONS, ROSTER, find_button, parse_recipe
from companion.button_goblin.core import Player, Position, initiative
from companion.button_goblin.roster import DieSpec, parse_roster
from companion.errors import InvalidInput


def test_all_76_buttons_load_with_unique_names():
    assert len(ROSTER) == 76
    assert len(BUTTONS) == 76
    assert ROSTER[0].name == "Lobo" and ROSTER[-1].name == "Jamil"


@pytest.mark.parametrize("button", ROSTER, ids=lambda b: b.name)
def test_every_button_builds_its_dice_and_plays(button):
    swing = {letter: 8 for letter in button.swing_letters}
    ve = "VA" if button.needs_ve else None
    dice = button.dice(swing, ve)
    assert len(dice) == len(button.recipe)
    assert parse_recipe(button.format()) == button.recipe
    rolled = tuple(d.__class__(d.sides, d.low if d.size else 0, d.skills) for d in dice)
    position = Position((Player(button.name, rolled), Player("Madness", tuple(
        d.__class__(d.sides, 20, d.skills) for d in BUTTONS["Madness"].dice()))))
    assert initiative(position).player == 0
    assert position.legal.count() >= 0


def test_recipes_exactly_as_printed():
    assert BUTTONS["Lobo"].format() == "0 [NU], X, X, W [FU], Y [VA]"
    assert BUTTONS["SimoneC"].recipe[1] == DieSpec((10, 10), None, ("GE",))
    assert BUTTONS["Elisa"].recipe[0].skills == ("VO", "OM")
    assert BUTTONS["Racca"].recipe[0] == DieSpec((1000,), None, ("DS",))
    assert BUTTONS["Antonio"].format() == "8, 6, 10, 12 [VE], 20"  # the printed order, 8 before 6
    assert BUTTONS["Madness"].swing_letters == ()
    assert BUTTONS["Lobo"].swing_letters == ("X", "W", "Y")


def test_ve_is_flagged_and_the_players_choose_its_meaning():
    assert [b.name for b in ROSTER if b.needs_ve] == ["Antonio", "Alisa"]
    alisa = BUTTONS["Alisa"]
    with pytest.raises(InvalidInput, match="VE"):
        alisa.dice({"X": 6})
    assert alisa.dice({"X": 6}, "VA")[0].skills == ("VA",)
    assert alisa.dice({"X": 6}, "VO")[0].skills == ("VO",)
    assert alisa.dice({"X": 6}, "none")[0].skills == ()


def test_swing_sizes_shared_x_and_free_w_y():
    lobo = BUTTONS["Lobo"]
    dice = lobo.dice({"X": 6, "W": 12, "Y": 20})
    assert [d.size for d in dice] == [0, 6, 6, 12, 20]
    with pytest.raises(InvalidInput, match=r"4\.\.20"):
        lobo.dice({"X": 3, "W": 12, "Y": 20})
    with pytest.raises(InvalidInput, match="needs a size for swing Y"):
        lobo.dice({"X": 4, "W": 12})


@pytest.mark.parametrize(
    ("text", "quoted"),
    [
        ("4, 6 [FX], 8", "'FX' at column 7"),
        ("4, Q, 8", "'Q' at column 4"),
        ("4, (10,10), 8", "'(10,10)' at column 4"),
        ("4, 6 [GE]", "'6 [GE]' at column 4"),
    ],
)
def test_recipe_errors_point_at_the_token(text, quoted):
    with pytest.raises(InvalidInput, match=re.escape(quoted)):
        parse_recipe(text)


def test_roster_lines_name_the_bad_line():
    with pytest.raises(InvalidInput, match="line 2 \\(Bad\\)"):
        parse_roster("Good\t4, 6\nBad\t4, 6 [ZZ]\n")


def test_find_button_forgives_case_and_spaces():
    assert find_button("noctua  cojuntas").name == "Noctua Cojuntas"
    with pytest.raises(InvalidInput, match="'Nobody'"):
        find_button("Nobody")
