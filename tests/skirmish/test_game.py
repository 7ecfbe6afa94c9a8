"""Turn order, the card cycle, deaths and the morale and rout tests they call, victory, JSON."""

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import IllegalAction, InvalidInput
from companion.skirmish.core import (
    CARDS,
    Assault,
    Band,
    ChooseFirst,
    Clock,
    Disengage,
    EndCard,
    EndGame,
    Game,
    Kill,
    Line,
    Model,
    Near,
    OffTable,
    PlayCard,
    Roll,
    Shoot,
    apply,
    event_to_json,
    parse_event,
)
from tests.skirmish.conftest import elves, kinds, orcs, playing, run

# --------------------------------------------------------------------------------------------- turn order


def test_lowest_deploys_first_highest_chooses_the_first_card_and_ties_roll_again():
    game = Game.new([elves(), orcs()])
    assert kinds(game) == [("deploy", 0, None)]
    game = apply(game, Roll((3, 3)))
    assert kinds(game) == [("deploy", 0, None)] and "roll again" in game.log[0]
    game = apply(game, Roll((5, 2)))
    assert game.deploys_first == 1 and game.stage == "first"
    game = run(game, Roll((4, 4)), Roll((2, 6)))
    assert game.chooser == 1 and game.stage == "choose_first"
    game = apply(game, ChooseFirst(0))
    assert game.to_play == 0 and game.stage == "play"


def test_the_card_cycle_keeps_each_card_out_until_all_five_are_played(game):
    order = ["tiro2", "assalto3", "speciale", "tiro3", "assalto2"]
    for i, card in enumerate(order):
        game = run(game, PlayCard(card), EndCard())
        assert game.to_play == 1  # the bands alternate
        if i < 4:
            assert card not in game.bands[0].hand
            with pytest.raises(IllegalAction):
                apply(run(game, PlayCard("speciale" if i < 2 else "tiro2"), EndCard()), PlayCard(card))
        game = run(game, PlayCard(game.bands[1].hand[0]), EndCard())
    assert game.bands[0].hand == CARDS and game.bands[0].turns == 1 and game.bands[1].turns == 1


# ------------------------------------------------------------------------------------------------ shooting


def test_a_shot_then_a_failed_save_kills_and_asks_who_was_near(game):
    game = run(game, PlayCard("tiro2"), Shoot((Line(1, 20), Line(2, 25)), 2))
    head = game.pending[0]
    assert head.kind == "tiro" and head.check.target == 3  # Tiro 4, +1 for the second shooter
    game = apply(game, Roll((3,)))
    save = game.pending[0]
    assert (save.kind, save.band, save.model) == ("salvezza", 1, 2)
    assert save.check.target == 6  # Salvezza 5, -1 for the second shooter
    game = apply(game, Roll((5,)))
    assert game.bands[1].models[2].status == "dead" and kinds(game) == [("near", 1, 2)]
    game = apply(game, Near((1, 3)))
    assert kinds(game) == [("morale", 1, 1), ("morale", 1, 3)]
    assert game.pending[0].check.target == 4
    with pytest.raises(IllegalAction, match="already acted"):
        apply(run(game, Roll((4,)), Roll((6,))), Shoot((Line(1, 10),), 3))


def test_a_failed_morale_test_flees_3d6_toward_the_own_edge(game):
    game = run(game, PlayCard("tiro2"), Shoot((Line(1, 20),), 2), Roll((6,)), Roll((1,)), Near((3,)))
    game = apply(game, Roll((3,)))
    assert kinds(game) == [("flee", 1, 3)] and game.pending[0].dice == 3
    game = apply(game, Roll((2, 3, 4)))
    assert "flees 9 cm" in game.log[0] and kinds(game) == [("off_table", 1, 3)]
    game = apply(game, OffTable(True))
    assert game.bands[1].models[3].status == "fled"
    assert game.points == (6, 0)  # the dead Orco counts, the fled one does not


# ----------------------------------------------------------------------------------------------- assault


def test_cavalry_charge_then_assault_then_a_possente_save():
    game = playing(first=1)
    game = run(game, PlayCard("assalto2"), Assault(1, 1, distance=7.5))
    assert (
        kinds(game) == [("charge", 1, 1)] and game.pending[0].dice == 2 and game.pending[0].check.target == 8
    )
    game = apply(game, Roll((5, 3)))
    assault = game.pending[0]
    assert assault.kind == "assalto" and assault.check.target == 3  # A4, +1 cavalry charging infantry
    game = apply(game, Roll((3,)))
    assert game.pending[0].kind == "salvezza" and game.pending[0].check.target == 5


def test_a_short_charge_makes_no_contact():
    game = run(playing(first=1), PlayCard("assalto3"), Assault(2, 1, distance=6), Roll((5,)))
    assert game.pending == () and "falls short" in game.log[-1]
    with pytest.raises(IllegalAction, match="Assalto card"):
        run(playing(first=1), PlayCard("tiro2"), Assault(2, 1))


def test_possente_lowers_the_save():
    game = run(playing(first=1), PlayCard("assalto2"), Assault(0, 3, extra_contacts=True), Roll((3,)))
    assert [m.value for m in game.pending[0].save or game.pending[0].check.modifiers] == [-1, -1]
    assert game.pending[0].check.target == 6


# ------------------------------------------------------------------------------------------------ heroes


def test_heroism_is_one_pool_spent_after_seeing_the_roll(game):
    game = run(game, PlayCard("tiro2"), Shoot((Line(0, 10),), 1))
    assert game.pending[0].check.heroism == 2 and game.pending[0].check.target == 3
    with pytest.raises(IllegalAction, match="2 heroism points, not 3"):
        apply(game, Roll((1,), heroism=3))
    game = apply(game, Roll((1,), heroism=2))
    assert game.bands[0].models[0].heroism == 0 and game.pending[0].kind == "salvezza"
    game = run(
        game, Roll((6,)), EndCard(), PlayCard("tiro2"), EndCard(), PlayCard("tiro3"), Shoot((Line(0, 10),), 1)
    )
    assert game.pending[0].check.heroism == 0  # the pool lasts the whole game


def test_heroism_is_not_spent_by_a_model_that_is_no_hero(game):
    game = run(game, PlayCard("tiro2"), Shoot((Line(1, 10),), 1))
    with pytest.raises(IllegalAction, match="0 heroism points"):
        apply(game, Roll((3,), heroism=1))


# ---------------------------------------------------------------------------------------- morale and rout


def test_the_captains_death_calls_one_rout_test_and_one_morale_test_per_model(game):
    game = apply(game, Kill(1, 0))
    assert kinds(game) == [("rout", 1, None), ("morale", 1, 1), ("morale", 1, 2), ("morale", 1, 3)]
    assert game.pending[0].dice == 2 and game.pending[0].check.target == 8
    game = apply(game, Roll((4, 4)))
    assert "holds" in game.log[-1]
    assert not game.bands[1].rout_tested  # 3 of 4 left: the test for dropping below half is still to come


def test_a_failed_rout_test_loses_the_game(game):
    game = run(game, Kill(1, 0), Roll((3, 4)))
    assert game.outcome.winner == 0 and game.outcome.termination == "rout" and game.pending == ()
    with pytest.raises(IllegalAction):
        apply(game, EndCard())


def test_half_strength_is_not_below_half_and_the_rout_test_is_taken_once():
    band = Band("Dieci", tuple(Model.parse(f"G{i}|A4|S5|P5") for i in range(10)))
    game = run(Game.new([band, orcs()]), Roll((1, 2)), Roll((2, 1)), ChooseFirst(1), PlayCard("speciale"))
    for i in range(1, 6):  # 9, 8, 7, 6, 5 left: never below half
        game = run(game, Kill(0, i), Near(()))
    assert game.pending == () and not game.bands[0].rout_tested
    game = run(game, Kill(0, 6), Near(()))  # 4 of 10: strictly below half
    assert kinds(game) == [("rout", 0, None)]
    game = run(game, Roll((6, 2)), Kill(0, 7), Near(()))
    assert game.pending == ()  # already taken once


def test_one_death_gives_a_model_one_morale_test_even_with_two_reasons(game):
    game = apply(game, Kill(1, 0))  # the captain: everybody tests once, no "near" question
    assert [k for k in kinds(game) if k[0] == "morale"] == [
        ("morale", 1, 1),
        ("morale", 1, 2),
        ("morale", 1, 3),
    ]


def test_a_fled_captain_calls_the_rout_test(game):
    game = run(game, Kill(1, 1), Near((0,)), Roll((2,)), Roll((6, 6, 6)))
    assert kinds(game) == [("off_table", 1, 0)]
    game = apply(game, OffTable(True))
    assert kinds(game) == [("rout", 1, None)]


# ------------------------------------------------------------------------------------------------ victory


def test_victory_points_and_a_draw(game):
    game = run(game, Kill(1, 2), Near(()), Kill(0, 3), Near(()))
    assert game.points == (6, 6)
    game = apply(game, EndGame())
    assert game.outcome.winner is None and game.outcome.points == (6, 6)


def test_the_clock_ends_the_game_on_points(game):
    game = run(game, Kill(1, 1), Near(()))
    game = apply(game, Clock(3599))
    assert game.outcome is None
    with pytest.raises(IllegalAction):
        apply(game, Clock(10))
    game = apply(game, Clock(3600))
    assert game.outcome.termination == "time" and game.outcome.winner == 0
    assert apply(playing(time_limit=None), Clock(99999)).outcome is None


def test_annihilation_ends_the_game():
    band = Band("Solo", (Model.parse("Eroe|A3|S3|P30|eroe1"),))
    game = run(Game.new([band, orcs()]), Roll((1, 2)), Roll((2, 1)), ChooseFirst(1), Kill(0, 0))
    assert kinds(game) == [("rout", 0, None)]
    game = apply(game, Roll((6, 6)))
    assert game.outcome.termination == "annihilation" and game.outcome.winner == 1


# -------------------------------------------------------------------------------------- notation and JSON


def test_model_notation_round_trips_and_repr_evaluates():
    for text in ("Lorien|T3|A3|S4|P20|eroe2|capitano", "Lupo|A4|S5|P10|cavalleria"):
        model = Model.parse(text)
        assert Model.parse(model.notation()) == model and eval(repr(model)) == model
    dead = replace(Model.parse("Orco|A4|S5|P6"), status="dead")
    assert eval(repr(dead)) == dead


@pytest.mark.parametrize(
    "bad", ["", "Orco|A4|S5", "Orco|A4|S5|P6|volante", "Orco|A4|A5|S5|P6", "X|A1|S1|P1|eroe5"]
)
def test_bad_model_notation(bad):
    with pytest.raises(InvalidInput):
        Model.parse(bad)


def test_bad_events():
    for bad in (
        {"type": "roll", "dice": ["6"]},
        {"type": "play_card", "card": "tiro4"},
        {"type": "nap"},
        {"type": "shoot", "target": 1, "shooters": [{"model": 0, "distance": -3}]},
    ):
        with pytest.raises(InvalidInput):
            parse_event(bad)


def test_event_json_round_trips():
    events = [
        Roll((1, 2), 1),
        ChooseFirst(1),
        PlayCard("tiro3"),
        Shoot((Line(0, 12.5, 3, cover=True),), 2),
        Assault(1, 2, 4.0, True, False),
        Kill(1, 2),
        Near((1, 2)),
        OffTable(True),
        EndCard(),
        Clock(5),
        EndGame(),
    ]
    for event in events:
        assert parse_event(event_to_json(event)) == event


@st.composite
def games(draw):
    """Games reached by a handful of listed events and kills."""
    game = Game.new([elves(), orcs()], draw(st.sampled_from([None, 3600])))
    for _ in range(draw(st.integers(0, 25))):
        if game.outcome is not None:
            break
        if game.stage in ("play", "card") and not game.pending and draw(st.integers(0, 4)) == 0:
            side = draw(st.integers(0, 1))
            alive = [i for i, m in enumerate(game.bands[side].models) if m.in_play]
            if alive:
                game = apply(game, Kill(side, draw(st.sampled_from(alive))))
                continue
        legal = [e for e in game.legal if not isinstance(e, EndGame)] or list(game.legal)
        if not legal:
            break
        game = apply(game, draw(st.sampled_from(legal[:40])))
    return game


@settings(max_examples=60, deadline=None)
@given(games())
def test_state_json_round_trips(game):
    assert Game.from_json(game.to_json()) == game


def test_a_tiro_card_counts_its_shooters_over_several_shots(game):
    game = run(game, PlayCard("tiro2"), Shoot((Line(1, 20),), 2), Roll((1,)))
    game = apply(game, Shoot((Line(2, 20),), 2))
    game = apply(game, Roll((1,)))
    with pytest.raises(IllegalAction, match="lets 2 models shoot in all"):
        apply(game, Shoot((Line(0, 20),), 2))


def test_a_model_fleeing_a_combat_gives_no_free_assault_test():
    game = run(playing(first=1), PlayCard("assalto2"), Assault(2, 3), Roll((6,)), Roll((1,)), Near((1,)))
    game = run(
        game, Roll((1,)), Roll((1, 1, 2)), OffTable(False)
    )  # the Arciere flees 4 cm, out of the combat
    assert game.pending == () and game.stage == "card" and game.bands[0].models[1].status == "ok"
    assert game.log == ("Arciere stays on the table",)


def test_leaving_a_combat_gives_each_enemy_in_contact_an_assault_test(game):
    game = run(game, PlayCard("speciale"), Disengage(3, (1, 2)))
    assert kinds(game) == [("assalto", 1, 1), ("assalto", 1, 2)]
    assert game.pending[0].check.target == 4  # the Lupo gets no charge bonus here
    game = run(game, Roll((5,)), Roll((1,)))  # hit, the Lancia fails its save and dies
    assert game.bands[0].models[3].status == "dead"
    assert kinds(game) == [("near", 0, 3)]  # the Orco's blow falls on nobody
    with pytest.raises(IllegalAction):
        apply(playing(), Disengage(3, (1,)))  # no card in play
