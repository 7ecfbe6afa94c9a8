"""Targets, modifiers and exact chances, checked against enumeration of every die face."""

from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import IllegalAction
from companion.skirmish.checks import Check, Modifier, chance_at_least
from companion.skirmish.core import Line, Model, Nearer, assault_check, charge_check, shooting_check
from tests.skirmish.conftest import elves, orcs


def enumerate_chance(target: int, dice: int, spend: int = 0) -> Fraction:
    faces = list(product(range(1, 7), repeat=dice))
    return Fraction(sum(1 for f in faces if sum(f) + spend >= target), len(faces))


@pytest.mark.parametrize("dice", [1, 2, 3])
@pytest.mark.parametrize("target", range(-2, 21))
def test_chance_matches_exact_enumeration(target, dice):
    assert chance_at_least(target, dice) == enumerate_chance(target, dice)


def test_no_automatic_success_or_failure():
    assert Check("tiro", 1).chance() == 1 and Check("tiro", 1).needs == "certain"
    assert Check("tiro", 0).chance() == 1
    assert Check("tiro", 7).chance() == 0 and Check("tiro", 7).needs == "impossible"
    assert Check("tiro", 7, heroism=1).chance(1) == Fraction(1, 6)  # a 6 plus one heroism point
    assert Check("tiro", 6).chance() == Fraction(1, 6)  # a natural 6 is no more than a 6
    assert Check("rout", 8, dice=2).chance() == Fraction(15, 36)


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 7), st.lists(st.integers(-3, 3), max_size=4), st.integers(0, 4), st.integers(1, 3))
def test_modifier_stacking_against_enumeration(char, values, heroism, dice):
    check = Check("assalto", char, tuple(Modifier(f"m{i}", v) for i, v in enumerate(values)), dice, heroism)
    assert check.target == char - sum(values)
    for spend in range(heroism + 1):
        assert check.chance(spend) == enumerate_chance(char - sum(values), dice, spend)


def test_three_shooters_use_the_best_tiro_plus_two_and_cover():
    band = elves()
    band = band.__class__(band.name, (*band.models, Model.parse("Tiratore|T2|A5|S5|P12")))
    lines = (Line(1, 12), Line(2, 30, moved=8, cover=True), Line(4, 5, nearer=(Nearer(cover=True),)))
    check, save = shooting_check(band, lines, orcs().models[2], "tiro3")
    assert check.characteristic == 2  # the Tiratore's Tiro is the best
    assert [(m.label, m.value) for m in check.modifiers] == [("extra shooters", 2), ("cover", -1)]
    assert check.target == 1 and check.chance() == 1
    assert [(m.label, m.value) for m in save] == [("extra shooters", -2)]
    assert "needs" not in check.explain() and "certain on 1d6, chance 1" in check.explain()


@pytest.mark.parametrize(
    ("lines", "card", "needle"),
    [
        ((Line(1, 30.5),), "tiro2", "range"),
        ((Line(1, 10, moved=8.5),), "tiro2", "more than 8 cm"),
        ((Line(1, 10, engaged=True),), "tiro2", "out of a combat"),
        ((Line(1, 10, nearer=(Nearer(),)),), "tiro2", "nearest"),
        ((Line(1, 10), Line(2, 10), Line(0, 10)), "tiro2", "1 to 2 models"),
        ((Line(3, 10),), "tiro2", "no Tiro"),
        ((Line(1, 10),), "assalto2", "Tiro card"),
    ],
)
def test_illegal_shots(lines, card, needle):
    with pytest.raises(IllegalAction, match=needle):
        shooting_check(elves(), lines, orcs().models[2], card)


def test_no_shooting_into_a_combat_but_engaged_nearer_enemies_may_be_skipped():
    with pytest.raises(IllegalAction, match="into a combat"):
        shooting_check(elves(), (Line(1, 10),), orcs().models[2], "tiro2", target_engaged=True)
    check, _ = shooting_check(
        elves(), (Line(1, 10, nearer=(Nearer(engaged=True),)),), orcs().models[2], "tiro2"
    )
    assert check.target == 4


def test_assault_modifiers():
    wolf, grum, orc, archer = orcs().models[1], orcs().models[0], orcs().models[2], elves().models[1]
    check, save = assault_check(wolf, archer)
    assert [m.value for m in check.modifiers] == [1] and check.target == 3
    check, _ = assault_check(wolf, archer, contact_this_turn=False)
    assert check.target == 4
    check, _ = assault_check(wolf, Model.parse("Cavaliere|A3|S3|P9|cavalleria"))
    assert check.modifiers == ()  # cavalry against cavalry: no bonus
    _, save = assault_check(grum, archer, extra_contacts=True)
    assert [(m.label, m.value) for m in save] == [("Possente", -1), ("more enemies in base contact", -1)]
    _, save = assault_check(orc, archer)
    assert save == ()


def test_the_charge_roll_must_cover_the_distance():
    orc, wolf = orcs().models[2], orcs().models[1]
    assert charge_check(orc, 4.5).target == 5 and charge_check(orc, 4.5).dice == 1
    assert charge_check(wolf, 9).dice == 2 and charge_check(wolf, 9).chance() == enumerate_chance(9, 2)
