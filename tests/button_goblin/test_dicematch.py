"""Matching the camera's physical dice to a button's recipe: plain, swing, twin and ambiguous cases."""

import pytest

from companion.button_goblin.core import Die
from companion.button_goblin.dicematch import SeenDie, match_dice
from companion.button_goblin.roster import find_button
from companion.errors import InvalidInput


def seen(sides, value, x=0, conf=1.0, vconf=1.0):
    return SeenDie(sides, value, conf, vconf, (x, 0, 40, 40))


def d(*sides, skills=()):
    return Die(tuple(sides), None, tuple(skills))


def test_plain_recipe_matches_by_type_in_any_order():
    recipe = [d(4), d(8), d(12), d(20)]
    table = [seen(20, 17, 0), seen(4, 3, 100), seen(12, 9, 200), seen(8, 8, 300)]
    m = match_dice(recipe, table)
    assert m.complete
    assert m.values() == {0: 3, 1: 8, 2: 9, 3: 17}
    assert {a.recipe: a.dice for a in m.assigned} == {0: (1,), 1: (3,), 2: (2,), 3: (0,)}
    assert m.slot_values(0, recipe, table) == {"p0.0": 3, "p0.1": 8, "p0.2": 9, "p0.3": 17}


def test_same_size_same_skills_are_interchangeable():
    m = match_dice([d(6), d(6), d(10)], [seen(6, 2, 0), seen(10, 10, 50), seen(6, 5, 90)])
    assert m.complete
    assert sorted(m.values().values()) == [2, 5, 10]


def test_swing_sizes_from_the_roster_button():
    lobo = find_button("Lobo")                     # 0 [NU], X, X, W [FU], Y [VA]
    recipe = list(lobo.dice({"X": 8, "W": 10, "Y": 12}, None))
    table = [seen(12, 12, 0), seen(8, 1, 60), seen(10, 4, 120), seen(8, 6, 180)]
    m = match_dice(recipe, table)
    assert m.complete, m.questions
    assert m.values() == {0: 0, 1: 1, 2: 6, 3: 4, 4: 12}   # the d0 needs no die and shows 0
    # W chosen as 8 too: a d8 [FU] among two plain d8s cannot be told apart by type
    recipe = list(lobo.dice({"X": 8, "W": 8, "Y": 12}, None))
    m = match_dice(recipe, [seen(12, 12, 0), seen(8, 1, 60), seen(8, 2, 120), seen(8, 6, 180)])
    assert [q.kind for q in m.questions] == ["which"] and m.questions[0].recipe == (1, 2, 3)
    assert m.values() == {0: 0, 4: 12}


def test_swing_size_not_chosen_is_a_question():
    m = match_dice([Die(None, None), d(6)], [seen(6, 3), seen(10, 2, 50)])
    assert sorted(q.kind for q in m.questions) == ["extra", "swing"]


def test_roster_twin_and_a_swing_of_the_same_size():
    manu = find_button("Manu")                     # 4, 6, (10,10) [GE], 12, X
    recipe = list(manu.dice({"X": 10}, None))
    table = [seen(4, 4, 0), seen(10, 3, 200), seen(10, 10, 245), seen(6, 2, 400), seen(12, 5, 600),
             seen(10, 7, 800)]
    m = match_dice(recipe, table)
    assert m.complete, m.questions
    assert m.values() == {0: 4, 1: 2, 2: 13, 3: 5, 4: 7}


def test_swing_die_of_chosen_size():
    recipe = [d(4), d(16), d(20)]          # a swing X chosen as 16: read as any die of 16 sides
    m = match_dice(recipe, [seen(4, 1), seen(20, 20, 50), seen(16, 11, 100)])
    assert m.complete and m.values() == {0: 1, 1: 11, 2: 20}


def test_twin_is_two_dice_side_by_side_summed():
    m = match_dice([d(10, 10), d(6)], [seen(10, 4, 0), seen(6, 6, 300), seen(10, 9, 45)])
    assert m.complete
    assert m.values() == {0: 13, 1: 6}
    table = [seen(10, 4, 0), seen(6, 6, 300), seen(10, 9, 45)]
    assert m.slot_values(1, [d(10, 10), d(6)], table) == {"p1.0a": 4, "p1.0b": 9, "p1.1": 6}


def test_twin_beside_a_single_of_its_size_is_found_by_position():
    table = [seen(8, 2, 0), seen(8, 7, 500), seen(8, 5, 45)]
    m = match_dice([d(8), d(8, 8)], table)
    assert m.complete
    assert {a.recipe: a.dice for a in m.assigned} == {0: (1,), 1: (0, 2)}
    assert m.values() == {0: 7, 1: 7}


def test_twin_beside_a_single_spread_evenly_is_a_question():
    table = [seen(8, 2, 0), seen(8, 7, 100), seen(8, 5, 200)]
    m = match_dice([d(8), d(8, 8)], table)
    assert not m.complete
    assert [q.kind for q in m.questions] == ["which"]
    assert m.values() == {}


def test_same_size_different_skills_is_a_question_not_a_guess():
    m = match_dice([d(12, skills=("FU",)), d(12), d(4)], [seen(12, 3, 0), seen(12, 9, 50), seen(4, 2, 100)])
    assert [q.kind for q in m.questions] == ["which"]
    assert m.questions[0].recipe == (0, 1)
    assert m.values() == {2: 2}


def test_missing_and_extra_dice_are_questions():
    m = match_dice([d(4), d(6), d(8)], [seen(4, 1), seen(8, 3, 50), seen(20, 20, 90)])
    kinds = sorted(q.kind for q in m.questions)
    assert kinds == ["extra", "missing"]
    assert m.values() == {0: 1, 2: 3}


def test_low_confidence_type_and_value_are_asked():
    m = match_dice([d(10), d(12)], [seen(10, 7, 0, conf=0.4), seen(12, 6, 50, vconf=0.5)])
    kinds = sorted(q.kind for q in m.questions)
    assert kinds == ["missing", "type", "value"]
    assert m.values() == {}
    assert "6" in next(q.message for q in m.questions if q.kind == "value")


def test_reading_json_is_checked():
    die = SeenDie.from_json({"bbox": [1, 2, 30, 30], "sides": 20, "value": 14, "confidence": 0.9})
    assert die == SeenDie(20, 14, 0.9, 0.9, (1, 2, 30, 30))
    with pytest.raises(InvalidInput, match="confidence"):
        SeenDie.from_json({"sides": 20, "value": 14, "confidence": 2})
    with pytest.raises(InvalidInput, match="sides"):
        SeenDie.from_json({"sides": "d20", "value": 14})
