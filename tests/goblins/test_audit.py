"""Regressions found by the line-by-line audit of the Goblins core against the rulebook."""

from companion.goblins.core import (
    Army,
    ChooseHeroes,
    Face,
    Hero,
    Machine,
    Terrain,
    TossRequest,
    active_reduction,
    apply,
)
from tests.goblins.conftest import with_army

TORRE = Machine.parse("Torre|plain|1|1|1")


def test_a_plain_machine_is_subtracted_once_when_the_heroes_are_chosen():
    # «Al Valore di Difesa del Terreno affrontato si deve sottrarre quello delle Macchine in gioco e
    # attivate»: once. Defence 3 - Torre 1 = 2: an army without troops and three heroes tosses for two.
    heroes = tuple(Hero.parse(f"{n}|1|0") for n in ("H", "K", "J"))
    game = apply(with_army(Army("A", 0, heroes, (TORRE,))), Face(Terrain.parse("X|wood|3|2|-")))
    assert game.awaiting == "choose_heroes"
    assert active_reduction(game.armies[0], game.combat) == 1
    game = apply(game, ChooseHeroes((0, 2)))
    assert game.tosses == (TossRequest("hero", 0, 1, hero=0), TossRequest("hero", 0, 1, hero=2))
    assert active_reduction(game.armies[0], game.combat) == 1  # what the table shows as the reduction


def test_declaring_and_choosing_heroes_log_only_what_they_did():
    # the log is what the last event did; the command line joins the logs of a list of events
    from companion.goblins.cli import cmd_apply, cmd_new

    state = cmd_new({"players": ["A", "B"], "troops": 2})["state"]
    out = cmd_apply(
        {
            "state": state,
            "events": [
                {"type": "face", "terrain": "X|wood|9|2|-"},
                {"type": "declare", "epic": False},
            ],
        }
    )
    assert out["log"].count("modified defence 9 - 0 = 9; attack 2") == 1
    heroes = [{"type": "play_hero", "hero": f"{n}|1|0"} for n in "HKJ"]
    state = cmd_new({"players": ["A", "B"], "troops": 0})["state"]
    out = cmd_apply(
        {
            "state": state,
            "events": [
                *heroes,
                {"type": "face", "terrain": "X|wood|2|2|-"},
                {"type": "choose_heroes", "heroes": [0, 1]},
            ],
        }
    )
    assert out["log"].count("victory: attack 3 vs defence 2") == 1
