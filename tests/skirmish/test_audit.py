"""Regressions found by the line-by-line audit of the skirmish core against the rulebook."""

from companion.skirmish.core import (
    Assault,
    Band,
    ChooseFirst,
    Game,
    Kill,
    Model,
    Near,
    OffTable,
    PlayCard,
    Roll,
    apply,
)
from tests.skirmish.conftest import kinds, orcs, playing, run


def six() -> Game:
    """Band 0 of six plain models (G0 the captain) against the orcs, a Speciale card in play."""
    band = Band("Sei", tuple(Model.parse(f"G{i}|A4|S5|P5") for i in range(6)))
    return run(Game.new([band, orcs()]), Roll((1, 2)), Roll((2, 1)), ChooseFirst(1), PlayCard("speciale"))


def test_the_captains_death_calls_a_rout_test_after_an_earlier_below_half_test():
    # «Quando una banda è ridotta sotto il 50% della sua forza iniziale, o quando è messo fuori
    # combattimento il capitano, occorre fare subito un test speciale»: two events, each calls the test.
    game = six()
    for i in (1, 2, 3):
        game = run(game, Kill(0, i), Near(()))
    game = run(game, Kill(0, 4), Near(()))  # 2 of 6: below half
    assert kinds(game) == [("rout", 0, None)]
    game = run(game, Roll((6, 6)), Kill(0, 0))  # the captain dies: the band tests again
    assert kinds(game) == [("rout", 0, None), ("morale", 0, 5)]


def test_dropping_below_half_calls_a_rout_test_after_the_captains():
    game = run(six(), Kill(0, 0))  # the captain: one rout test, everybody's morale
    assert kinds(game)[0] == ("rout", 0, None)
    game = run(game, Roll((6, 6)), *[Roll((6,))] * 5)
    game = run(game, Kill(0, 1), Near(()), Kill(0, 2), Near(()))  # 3 of 6: not below half
    assert game.pending == ()
    game = run(game, Kill(0, 3), Near(()))  # 2 of 6: below half, first time
    assert kinds(game) == [("rout", 0, None)]
    game = run(game, Roll((6, 6)), Kill(0, 4), Near(()))  # still below half: not again
    assert game.pending == ()


def test_one_death_that_is_the_captain_and_below_half_calls_one_rout_test():
    game = six()
    for i in (1, 2, 3):
        game = run(game, Kill(0, i), Near(()))
    game = run(game, Kill(0, 0))  # 2 of 6 and the captain: one rout test
    assert [k for k in kinds(game) if k[0] == "rout"] == [("rout", 0, None)]
    game = run(game, Roll((6, 6)), Roll((6,)), Roll((6,)), Kill(0, 4), Near(()))
    assert game.pending == ()  # the below-half test was that one


def test_a_fleeing_captain_calls_a_rout_test_after_an_earlier_below_half_test():
    game = six()
    for i in (1, 2, 3):
        game = run(game, Kill(0, i), Near(()))
    game = run(game, Kill(0, 4), Near((0,)))  # below half; the captain stood within 5 cm
    assert kinds(game) == [("rout", 0, None), ("morale", 0, 0)]
    game = run(game, Roll((6, 6)), Roll((2,)), Roll((6, 6, 6)), OffTable(True))
    assert kinds(game) == [("rout", 0, None)]


def test_a_cavalry_charge_makes_contact_this_turn_whatever_the_flag_says():
    # «la cavalleria che assalta la fanteria ottiene un bonus di +1 al test d'Assalto nel turno in cui entra
    # in contatto»: a charge (distance > 0) enters contact now, so the bonus applies.
    game = run(playing(first=1), PlayCard("assalto2"))
    game = apply(game, Assault(1, 3, distance=6, contact_this_turn=False))  # Lupo charges Lancia
    assert game.pending[0].kind == "charge" and game.pending[0].dice == 2
    game = apply(game, Roll((3, 4)))
    assert [(m.label, m.value) for m in game.pending[0].check.modifiers] == [("cavalry charging infantry", 1)]


def test_the_assault_command_gives_the_bonus_to_a_charge():
    from companion.skirmish.cli import cmd_assault

    out = cmd_assault(
        {
            "attacker": "Lupo|A4|S5|P10|cavalleria",
            "target": "Orco|A4|S5|P6",
            "distance": 6,
            "contact_this_turn": False,
        }
    )
    assert out["test"]["target"] == 3
