"""Combat against a terrain: the rulebook's examples, machines, losses, Epic Death."""

import pytest

from companion.errors import IllegalAction
from companion.goblins.core import (
    CANNON,
    RAM,
    Adjust,
    Army,
    ChooseHeroes,
    Declare,
    DiscardMachine,
    Face,
    FireCannon,
    Hero,
    Machine,
    Terrain,
    Toss,
    TossRequest,
    apply,
    epic_death_allowed,
    loss_tosses,
    wins,
)
from tests.goblins.conftest import with_army

CAVALLERIA = Hero.parse("Cavalleria|4|2")
ASSASSINO = Hero.parse("Assassino|2|0")
LADRO = Terrain.parse("Ladro di 1° livello|wood|5|2|-")
LEGO_LAS = Terrain.parse("Lego-Las|walls|10|3|-")
ARCIERE = Terrain.parse("Arciere Arcano|walls|11|5|-")


def run(game, *events):
    for event in events:
        game = apply(game, event)
    return game


# ------------------------------------------------------------------------------------- rulebook examples


def test_arnaldo_wins_and_tosses_five_of_his_six_goblins():
    game = run(with_army(Army("Arnaldo", 6, (CAVALLERIA,))), Face(LADRO))
    assert game.armies[0].attack == 10
    assert game.combat.won is True
    assert game.tosses == (TossRequest("troops", 0, 5),)
    game = apply(game, Toss(3, 2))
    arnaldo = game.armies[0]
    assert arnaldo.troops == 6 - 2 + 2  # two lost, two reinforcements (the Ladro's VP)
    assert arnaldo.pile == (LADRO,) and game.combat is None and game.phase == "D"


def test_arnaldo_with_one_troop_tosses_only_that_troop_not_the_hero():
    game = run(with_army(Army("Arnaldo", 1, (CAVALLERIA,))), Face(LADRO))
    assert game.armies[0].attack == 5 and game.combat.won is True
    assert game.tosses == (TossRequest("troops", 0, 1),)
    game = apply(game, Toss(0, 1))
    assert game.armies[0].heroes == (CAVALLERIA,)  # the hero is no loss while a troop was tossed
    assert game.armies[0].troops == 0 + LADRO.vp


def test_dante_ram_and_cannon_bring_lego_las_to_two():
    # Dante's example counts 4 troops after the Cannon: one ammunition goblin died (-5) and was lost.
    game = run(with_army(Army("Dante", 5, (), (RAM, CANNON))), Face(LEGO_LAS))
    assert game.tosses == (TossRequest("ram", 0, 1, machine=0),)
    game = run(game, Toss(1, 0), FireCannon(True))
    assert game.tosses == (TossRequest("cannon", 0, 2, machine=1),)
    game = apply(game, Toss(1, 1))
    assert game.armies[0].troops == 4
    assert game.combat.won is True and game.combat.reduction == 8
    assert game.tosses == (TossRequest("troops", 0, 2),)  # "lancia solo 2 dei suoi 4 Goblin"


def test_enzo_loses_his_assassin_and_tosses_the_ram_crew():
    game = run(with_army(Army("Enzo", 0, (ASSASSINO,), (RAM,))), Face(ARCIERE), Toss(1, 0))
    assert game.combat.reduction == 3 and game.combat.won is False
    assert game.tosses == (TossRequest("hero", 0, 1, hero=0), TossRequest("crew", 0, 1, machine=0))
    game = run(game, Toss(0, 1), Toss(1, 0))
    enzo = game.armies[0]
    assert enzo.heroes == () and enzo.machines == (RAM,) and enzo.pile == ()
    assert "goes back" in game.log[-1]


# ---------------------------------------------------------------------------------------------- machines


def test_a_dead_ram_crew_removes_the_ram_before_the_comparison():
    game = run(with_army(Army("Ada", 4, (), (RAM,))), Face(Terrain.parse("Mura|walls|6|2|-")), Toss(0, 1))
    assert game.armies[0].machines == ()
    assert game.combat.won is False and game.combat.reduction == 0
    assert game.tosses == (TossRequest("troops", 0, 4),)  # 4 troops, budget 6, no crew left to toss


@pytest.mark.parametrize(
    ("alive", "dead", "reduction", "troops_after", "machines_after"),
    [
        (1, 1, 3 + 5, 3, ("Ariete", "Cannone")),
        (0, 2, 3 + 10, 2, ("Ariete", "Cannone")),  # the card rules: two dead is -10, not "non funzionante"
        (2, 0, 3, 4, ("Ariete",)),  # two alive: the Cannon is discarded, its crew eliminated untossed
    ],
)
def test_the_cannon_follows_its_card(alive, dead, reduction, troops_after, machines_after):
    game = run(
        with_army(Army("Dante", 4, (), (RAM, CANNON))),
        Face(Terrain.parse("Torre|walls|20|3|-")),
        Toss(1, 0),
        FireCannon(True),
        Toss(alive, dead),
    )
    assert game.combat.reduction == reduction
    assert game.armies[0].troops == troops_after
    assert tuple(m.name for m in game.armies[0].machines) == machines_after


def test_a_cannon_without_two_army_goblins_cannot_fire_and_holding_fire_counts_nothing():
    game = run(with_army(Army("Ada", 1, (ASSASSINO,), (CANNON,))), Face(LADRO))
    assert game.awaiting == "toss" and game.combat.reduction == 0  # straight to the losses
    game = run(with_army(Army("Ada", 3, (), (CANNON,))), Face(LADRO), FireCannon(False))
    assert game.combat.reduction == 0 and game.combat.won is False


def test_plain_machines_count_while_crewed_and_a_zero_defence_is_an_automatic_win():
    catapult = Machine.parse("Catapulta|plain|6|2|2")
    game = run(with_army(Army("Ada", 1, (), (catapult,))), Face(LADRO))
    assert game.combat is None and game.armies[0].pile == (LADRO,)  # nothing to toss: budget 5 - 6 < 0
    assert "automatic victory: the modified defence is zero or less" in game.log


def test_requirements_decide_even_a_winning_attack():
    keep = Terrain.parse("Rocca|walls|3|2|hero")
    army = Army("Ada", 9)
    assert not wins(army, keep, 0)
    game = run(with_army(army), Face(keep))
    assert game.combat.won is False
    assert wins(Army("Ada", 9, (ASSASSINO,)), keep, 0)
    assert wins(Army("Ada", 9, (), (RAM,)), Terrain.parse("Ponte|river|3|1|machine"), 0)


# ------------------------------------------------------------------------------------------------ losses


def test_never_more_goblins_than_the_modified_defence():
    assert loss_tosses(Army("Ada", 9), 0, 3) == (TossRequest("troops", 0, 3),)
    assert loss_tosses(Army("Ada", 9), 0, 0) == ()


def test_crews_are_tossed_only_when_the_attack_does_not_reach_the_defence():
    army = Army("Ada", 2, (ASSASSINO,), (Machine.parse("Torre|plain|1|3|3"),))
    assert loss_tosses(army, 0, 4) == (TossRequest("troops", 0, 2),)  # attack 4 reaches 4
    assert loss_tosses(army, 0, 6) == (TossRequest("troops", 0, 2), TossRequest("crew", 0, 3, machine=0))
    assert loss_tosses(army, 0, 5) == (TossRequest("troops", 0, 2), TossRequest("crew", 0, 3, machine=0))
    # the crew toss is cut to what is left of the budget
    assert loss_tosses(Army("Ada", 0, (), (Machine.parse("Torre|plain|1|3|3"),)), 0, 2) == (
        TossRequest("crew", 0, 2, machine=0),
    )


def test_an_army_without_troops_chooses_its_heroes_when_it_has_more_than_the_budget():
    heroes = (ASSASSINO, CAVALLERIA, Hero.parse("Mago|3|1"))
    game = run(with_army(Army("Ada", 0, heroes)), Face(Terrain.parse("Siepe|wood|2|1|-")))
    assert game.awaiting == "choose_heroes"
    with pytest.raises(IllegalAction):
        apply(game, ChooseHeroes((0,)))
    game = apply(game, ChooseHeroes((2, 0)))
    assert game.tosses == (TossRequest("hero", 0, 1, hero=0), TossRequest("hero", 0, 1, hero=2))
    game = run(game, Toss(0, 1), Toss(1, 0))  # the Assassino dies, the Mago lives
    assert game.armies[0].heroes == (CAVALLERIA, heroes[2])


def test_a_dead_hero_shifts_the_later_hero_tosses():
    heroes = (ASSASSINO, CAVALLERIA)
    game = run(with_army(Army("Ada", 0, heroes)), Face(Terrain.parse("Bastione|walls|9|3|-")))
    game = run(game, Toss(0, 1), Toss(0, 1))
    assert game.armies[0].heroes == ()


# ----------------------------------------------------------------------------------------------- Epic Death


@pytest.mark.parametrize(
    ("attack", "defence", "allowed"), [(4, 8, True), (4, 7, False), (4, 9, True), (1, 2, True), (1, 1, False)]
)
def test_epic_death_threshold_allows_exactly_half(attack, defence, allowed):
    terrain = Terrain("T", defence, 2)
    assert epic_death_allowed(Army("Ada", attack), terrain, 0) is allowed


def test_epic_death_needs_a_troop_and_the_requirements():
    assert not epic_death_allowed(Army("Ada", 0, (ASSASSINO,)), Terrain("T", 10, 2), 0)
    assert not epic_death_allowed(Army("Ada", 2), Terrain("T", 10, 2, requires="hero"), 0)
    assert epic_death_allowed(Army("Ada", 2, (ASSASSINO,)), Terrain("T", 10, 2, requires="hero"), 0)


def test_epic_death_is_declared_before_the_toss_and_all_dead_wins():
    terrain = Terrain("Drago", 11, 4, "centre")
    game = run(with_army(Army("Ada", 2, (), (RAM,)), centre=2), Face(terrain), Toss(1, 0))
    assert game.awaiting == "declare"  # 11 - 3 = 8, attack 2
    with pytest.raises(IllegalAction):
        apply(game, Toss(2, 0))
    game = apply(game, Declare(True))
    assert game.tosses == (TossRequest("epic_troops", 0, 2), TossRequest("epic_crew", 0, 1, machine=0))
    game = run(game, Toss(0, 2), Toss(0, 1))
    ada = game.armies[0]
    assert ada.pile == (terrain,) and ada.troops == 4 and ada.machines[0].crew == 0
    assert game.centre == 1 and game.phase == "D"


def test_a_failed_epic_death_tosses_the_survivors_again_and_retreats():
    game = run(with_army(Army("Ada", 3)), Face(Terrain("Drago", 8, 4)), Declare(True), Toss(1, 2))
    assert game.tosses == (TossRequest("survivor_troops", 0, 1),)
    game = apply(game, Toss(0, 1))
    assert game.armies[0].troops == 0 and game.armies[0].pile == ()
    assert "goes back" in game.log[-1]


def test_declining_epic_death_fights_normally():
    game = run(with_army(Army("Ada", 3)), Face(Terrain("Drago", 8, 4)), Declare(False))
    assert game.combat.won is False and game.tosses == (TossRequest("troops", 0, 3),)


def test_card_effects_cannot_break_a_combat_in_progress():
    game = run(with_army(Army("Dante", 3, (), (RAM, CANNON))), Face(LEGO_LAS), Toss(1, 0))
    assert game.awaiting == "fire_cannon"
    with pytest.raises(IllegalAction, match="not during it"):
        apply(game, DiscardMachine(0, 0))
    game = apply(game, Adjust(0, -2))  # an action card leaves one goblin: no ammunition
    with pytest.raises(IllegalAction, match="two army goblins"):
        apply(game, FireCannon(True))
    assert apply(game, FireCannon(False)).combat.reduction == 3
