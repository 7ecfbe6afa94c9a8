"""Dadoteck rules core: placement, initiative, movement, the special squares, the end, the speed-up rules."""

from __future__ import annotations

import pytest

from companion.dadoteck import (
    ChooseSquare,
    ChooseVictim,
    Decline,
    Game,
    Outcome,
    Roll,
    SetInitiativeDie,
    SetMovementDie,
    apply,
    new_game,
    parse_event,
)
from companion.errors import IllegalAction, InvalidInput
from companion.rules import find_rules

from .conftest import moving, play

# ------------------------------------------------------------------------------------------ placement


def test_placement_rerolls_on_an_occupied_square(four):
    g = play(four, "roll 0 7", "roll 1 7")
    assert g.squares == (7, None, None, None)
    assert [n.what for n in g.news] == ["occupied"]
    g = play(g, "roll 1 8")
    assert g.squares[1] == 8


def test_placement_has_no_order_and_special_squares_are_inert(four):
    g = play(four, "roll 3 1", "roll 1 20", "roll 0 13", "roll 2 17")
    assert g.squares == (13, 20, 17, 1)
    assert g.eliminations == ()
    assert g.phase == "initiative" and g.turn == 1
    assert g.groups == ((0, 1, 2, 3),)


def test_a_placed_pawn_cannot_roll_again_for_placement(four):
    g = play(four, "roll 0 5")
    with pytest.raises(IllegalAction, match="roll 0 9"):
        apply(g, Roll(0, 9))


# ----------------------------------------------------------------------------------------- initiative


def _placed(game: Game) -> Game:
    return play(game, *(f"roll {p} {s}" for p, s in enumerate((2, 5, 8, 11, 14, 16)[: len(game.players)])))


def test_rulebook_initiative_example(four):
    g = play(_placed(four), "roll 0 19", "roll 1 12", "roll 2 12", "roll 3 6")
    assert g.phase == "initiative"
    assert g.awaited_rollers() == (1, 2)
    g = play(g, "roll 1 3", "roll 2 20")
    assert g.phase == "movement"
    assert [g.players[p] for p in g.order] == ["A", "C", "B", "D"]
    assert g.rounds == (((0, 19), (1, 12), (2, 12), (3, 6)), ((1, 3), (2, 20)))


def test_nested_ties_reroll_inside_the_tie_break(four):
    g = play(_placed(four), "roll 0 10", "roll 1 10", "roll 2 10", "roll 3 4")
    g = play(g, "roll 0 5", "roll 1 5", "roll 2 2")
    assert g.phase == "initiative" and g.awaited_rollers() == (0, 1)
    g = play(g, "roll 1 7", "roll 0 1")
    assert [g.players[p] for p in g.order] == ["B", "A", "C", "D"]


def test_separate_ties_are_broken_in_any_order(four):
    """«è necessario che pratichino uno spareggio, perciò essi tireranno un'altra volta il dado e
    stabiliranno un ordine tra loro»: each tie is settled among its own players, so separate ties do not
    wait for one another; a nested tie re-rolls inside its own group meanwhile."""
    g = play(_placed(four), "roll 0 10", "roll 1 10", "roll 2 5", "roll 3 5")
    assert g.tied_groups == ((0, 1), (2, 3)) and g.awaited_rollers() == (0, 1, 2, 3)
    g = play(g, "roll 2 4", "roll 0 3")  # the lower tie first, the two ties interleaved
    assert g.awaited_rollers() == (1, 3)
    assert Game.from_json(g.to_json()) == g
    g = play(g, "roll 3 4")  # C and D tie again: only they re-roll, A and B's tie still waits for B
    assert g.tied_groups == ((0, 1), (2, 3)) and g.rolls == ((0, 3),)
    g = play(g, "roll 3 18", "roll 1 4", "roll 2 9")
    assert [g.players[p] for p in g.order] == ["B", "A", "D", "C"]
    first = ((0, 10), (1, 10), (2, 5), (3, 5))
    assert g.rounds == (first, ((2, 4), (3, 4)), ((0, 3), (1, 4)), ((3, 18), (2, 9)))


def test_awaiting_names_every_tied_group_still_to_roll(four):
    """«Se necessario si praticheranno spareggi anche all'interno degli spareggi»: the page and the
    command line name every tie now rolling, not just the first."""
    from companion.dadoteck import views

    g = play(_placed(four), "roll 0 10", "roll 1 10", "roll 2 5", "roll 3 5", "roll 2 1")
    awaiting = views.awaiting(g)
    assert awaiting["groups"] == [[0, 1], [2, 3]] and awaiting["group_names"] == [["A", "B"], ["C", "D"]]
    assert awaiting["players"] == [0, 1, 3] and awaiting["purpose"] == "tie-break"
    assert awaiting["message"] == "A, B and D (separate ties, in any order): roll the d20"
    assert find_rules("dadoteck").awaiting(g) == (0, 1, 3)  # the protocol names them too
    one = views.awaiting(play(_placed(four), "roll 0 19", "roll 1 12", "roll 2 12", "roll 3 6"))
    assert one["groups"] == [[1, 2]] and one["message"] == "B, C: roll the d20 for the tie-break"


@pytest.mark.parametrize(
    ("rolls", "match"),
    [([[1, 4], [1, 5]], "one per player"), ([[0, 4]], "one per player"), ([[1, 4], [2, 6]], "not split")],
)
def test_a_state_with_impossible_tie_rolls_is_refused(four, rolls, match):
    g = play(_placed(four), "roll 0 19", "roll 1 12", "roll 2 12", "roll 3 6")
    assert g.groups == ((0,), (1, 2), (3,))
    with pytest.raises(InvalidInput, match=match):
        Game.from_json({**g.to_json(), "rolls": rolls})


def test_a_player_not_tied_cannot_roll_in_the_tie_break(four):
    g = play(_placed(four), "roll 0 19", "roll 1 12", "roll 2 12", "roll 3 6")
    with pytest.raises(IllegalAction):
        apply(g, Roll(0, 4))
    with pytest.raises(IllegalAction):
        apply(g, Roll(1, 21))


# ------------------------------------------------------------------------------------------- movement


def test_a_free_square_moves_the_pawn():
    g = moving([3, 9], [0, 1])
    g = play(g, "roll 0 11")
    assert g.squares == (11, 9) and g.mover == 1


def test_squashing_eliminates_at_once_even_a_pawn_that_has_not_moved():
    g = moving([3, 9, 15], [0, 1, 2])
    g = play(g, "roll 0 9")
    assert g.squares == (9, None, 15)
    assert g.eliminations[-1].cause == "squashed" and g.eliminations[-1].by == 0
    assert g.mover == 2  # B, squashed before its move, is skipped
    with pytest.raises(IllegalAction, match="C's move"):
        apply(g, Roll(1, 4))


def test_own_square_means_nothing_even_on_a_special_square():
    for square in (1, 13, 17, 20):
        g = moving([square, 9, 6], [0, 1, 2])
        g = play(g, f"roll 0 {square}")
        assert g.phase == "movement" and g.mover == 1
        assert g.squares == (square, 9, 6) and g.eliminations == ()
        assert [n.what for n in g.news] == ["stayed"]


def test_suicide_eliminates_the_mover_and_spares_the_occupant():
    g = moving([5, 1, 9], [0, 1, 2])  # B was placed on 1, where placement is harmless
    g = play(g, "roll 0 1")
    assert g.squares == (None, 1, 9)
    assert g.eliminations[-1].cause == "suicide" and g.eliminations[-1].player == 0


def test_assassination_squashes_the_occupant_and_asks_for_a_victim():
    g = moving([5, 20, 9, 14], [0, 1, 2, 3])
    g = play(g, "roll 0 20")
    assert g.phase == "victim" and g.squares[0] == 20 and g.squares[1] is None
    assert set(g.victim_options()) == {2, 3}
    from companion.dadoteck import views

    assert {k: v for k, v in views.awaiting(g).items() if k not in ("can_decline", "can_change_dice")} == {
        "phase": "victim", "kind": "victim", "player": 0, "name": "A", "options": [2, 3],
        "option_names": ["C", "D"], "message": "A chooses whom to eliminate: C, D"}
    for bad in (0, 1):
        with pytest.raises(IllegalAction):
            apply(g, ChooseVictim(bad))
    g = apply(g, ChooseVictim(3))
    assert g.squares == (20, None, 9, None)
    assert g.eliminations[-1].cause == "assassinated" and g.eliminations[-1].by == 0
    assert g.phase == "movement" and g.mover == 2


def test_assassination_when_the_only_other_player_sits_on_20_asks_for_no_victim():
    g = moving([5, 20], [0, 1])
    g = play(g, "roll 0 20")
    assert g.phase == "over"
    assert g.outcome == Outcome("last-pawn", 0)
    assert "no-victim" in [n.what for n in g.news]


def test_assassination_on_a_free_20_with_one_other_player_still_asks():
    g = moving([5, 7], [0, 1])
    g = play(g, "roll 0 20")
    assert g.phase == "victim" and g.victim_options() == (1,)
    g = play(g, "victim 1")
    assert g.outcome == Outcome("last-pawn", 0)


def test_cowards_13_next_to_occupied_12_and_14():
    start = moving([5, 12, 14, 2], [0, 1, 2, 3])
    g = play(start, "roll 0 13")
    assert g.phase == "square" and g.square_options() == (12, 13, 14)
    with pytest.raises(IllegalAction):
        apply(g, ChooseSquare(15))
    left = play(g, "square 12")
    assert left.squares == (12, None, 14, 2) and left.mover == 2
    right = play(g, "square 14")
    assert right.squares == (14, 12, None, 2) and right.mover == 1
    middle = play(g, "square 13")
    assert middle.squares == (13, 12, 14, 2) and middle.eliminations == ()


def test_cowards_17_and_choosing_the_own_square():
    g = moving([16, 18, 3], [0, 1, 2])
    g = play(g, "roll 0 17")
    assert g.square_options() == (16, 17, 18)
    stay = play(g, "square 16")
    assert stay.squares == (16, 18, 3) and stay.eliminations == () and stay.mover == 1
    hit = play(g, "square 18")
    assert hit.squares == (18, None, 3)


def test_a_turn_ends_and_the_next_initiative_starts():
    g = moving([3, 9, 15], [2, 0, 1])
    g = play(g, "roll 2 4", "roll 0 5", "roll 1 6")
    assert g.phase == "initiative" and g.turn == 2 and g.groups == ((0, 1, 2),)


# -------------------------------------------------------------------------------------------- the end


def test_decline_only_for_the_last_pawn_on_its_move():
    g = moving([5, 9, 12], [0, 1, 2])
    with pytest.raises(IllegalAction, match="last pawn"):
        apply(g, Decline())


def test_a_turn_ending_with_one_pawn_that_has_moved_ends_the_game():
    g = play(moving([5, 9, 12], [0, 1, 2]), "roll 0 9", "roll 2 9")  # A squashes B, C squashes A
    assert g.outcome == Outcome("last-pawn", 2) and g.phase == "over"
    g = play(moving([5, 9, 12], [1, 0, 2]), "roll 1 12", "roll 0 12")  # B squashes C, A squashes B
    assert g.outcome == Outcome("last-pawn", 0)
    g = play(moving([5, 9], [0, 1]), "roll 0 9")
    assert g.outcome == Outcome("last-pawn", 0)
    g = play(moving([5, 9, 12], [0, 1, 2]), "roll 0 12", "roll 1 1")  # A squashes C, B's suicide
    assert g.outcome == Outcome("last-pawn", 0)


def test_two_suicides_in_a_two_pawn_game_leave_no_winner():
    g = play(moving([5, 9], [0, 1]), "roll 0 1")
    assert g.can_decline() and g.mover == 1
    g = play(g, "roll 1 1")
    assert g.outcome == Outcome("no-survivor", None)


@pytest.fixture
def last_to_move() -> Game:
    """C is the last pawn and has still to move (A and B rolled Suicide)."""
    g = moving([5, 9, 12], [0, 1, 2])
    g = play(g, "roll 0 1")  # A's suicide
    g = play(g, "roll 1 1")  # B's suicide: C is alone and still to move
    assert g.mover == 2 and g.alive == (2,) and g.can_decline()
    return g


def test_last_pawn_declines_and_wins(last_to_move):
    g = apply(last_to_move, Decline())
    assert g.outcome == Outcome("declined", 2) and g.phase == "over"


def test_last_pawn_rolls_onto_suicide_and_nobody_wins(last_to_move):
    g = play(last_to_move, "roll 2 1")
    assert g.outcome == Outcome("no-survivor", None)


def test_last_pawn_rolls_survives_and_wins_when_the_turn_ends(last_to_move):
    g = play(last_to_move, "roll 2 20")
    assert g.outcome == Outcome("last-pawn", 2) and g.squares[2] == 20


def test_nothing_is_legal_once_the_game_is_over(last_to_move):
    g = apply(last_to_move, Decline())
    assert not g.legal and g.legal.count() == 0
    with pytest.raises(IllegalAction, match="over"):
        apply(g, Roll(2, 3))


# ----------------------------------------------------------------------------------------- legal view


def test_legal_view_counts_and_checks(four):
    assert four.legal.count() == 4 * 20
    assert Roll(0, 20) in four.legal and Roll(0, 21) not in four.legal
    assert bool(four.legal)
    g = play(moving([5, 12, 14, 2], [0, 1, 2, 3]), "roll 0 13")
    assert set(g.legal) == {ChooseSquare(12), ChooseSquare(13), ChooseSquare(14)}


# ------------------------------------------------------------------------------------ speed-up rules


def _speedy(players: int = 3) -> Game:
    return _placed(new_game([chr(65 + i) for i in range(players)], speedup=True))


def test_speedup_must_be_chosen_in_the_setup(four):
    g = _placed(four)
    with pytest.raises(IllegalAction, match="not in use"):
        apply(g, SetInitiativeDie(8))


def test_initiative_die_only_shrinks_and_keeps_a_face_per_player():
    g = _speedy(5)
    with pytest.raises(IllegalAction, match="fewer faces than the 5 players"):
        apply(g, SetInitiativeDie(4))
    g = apply(g, SetInitiativeDie(6))
    assert g.initiative_die == 6 and g.die() == 6
    with pytest.raises(IllegalAction, match="only gets smaller"):
        apply(g, SetInitiativeDie(8))
    with pytest.raises(IllegalAction, match="not a face"):
        apply(g, Roll(0, 7))


def test_dice_change_only_before_the_initiative_rolls():
    g = play(_speedy(3), "roll 0 3")
    with pytest.raises(IllegalAction, match="start of an initiative phase"):
        apply(g, SetMovementDie(12))


def test_a_smaller_movement_die_shrinks_the_board_and_its_special_squares():
    g = _speedy(3)  # pawns on 2, 5, 8
    g = apply(g, SetMovementDie(12))
    g = play(g, "roll 0 3", "roll 1 2", "roll 2 1")
    assert g.special(13) is None and g.special(20) is None and g.special(1) == "suicide"
    assert g.legal.count() == 12
    g = play(g, "roll 0 12")
    assert g.squares[0] == 12


def test_a_pawn_above_the_small_board_cannot_be_hit_until_it_moves():
    g = moving([18, 3, 5], [1, 2, 0], speedup=True, movement_die=12)
    assert all(e.value != 18 for e in g.legal if isinstance(e, Roll))
    g = play(g, "roll 1 5")  # B squashes C
    assert g.squares == (18, 5, None)
    g = play(g, "roll 0 5")  # A comes down from 18 and squashes B
    assert g.squares == (5, None, None)


def test_any_die_with_a_face_per_player_may_be_used():
    """«si può usare un dado con meno facce, purché il numero di giocatori sia minore o uguale al numero
    di facce del dado scelto come alternativo»: any die, not a list; a d3 for three players, a d16."""
    g = _speedy(3)
    for sides in (19, 16, 7, 3):
        assert SetInitiativeDie(sides) in g.legal and SetMovementDie(sides) in g.legal
    g = play(g, "initiative-die 3", "movement-die 16")
    assert (g.initiative_die, g.movement_die) == (3, 16)
    with pytest.raises(IllegalAction, match="fewer faces than the 3 players"):
        apply(g, SetInitiativeDie(2))
    g = play(g, "roll 0 3", "roll 1 2", "roll 2 1")
    assert g.legal.count() == 16 and Roll(0, 16) in g.legal and Roll(0, 17) not in g.legal
    # the JSON state keeps any size and refuses what no die has
    assert Game.from_json(g.to_json()) == g
    with pytest.raises(InvalidInput, match="2 to 20 faces"):
        Game.from_json({**g.to_json(), "movement_die": 21})


@pytest.mark.parametrize("sides", [0, 1, 21, 100])
def test_a_die_outside_two_to_twenty_faces_is_refused(sides):
    """The game starts with «1D20» and the speed-up dice have «meno facce»: none above 20; one face
    decides nothing."""
    with pytest.raises(IllegalAction, match="2 to 20 faces"):
        apply(_speedy(2), SetMovementDie(sides))


def test_the_special_squares_drop_out_one_at_a_time_as_the_die_shrinks():
    """«Notare che oltre ad escludere l'Assassinio e via via anche i Pusillanimi»: a d16 board keeps 13
    while 17 and 20 are gone; a d17 keeps 17 but not 18; a d13 keeps 13 but not 14."""
    d16 = moving([5, 3, 8], [0, 1, 2], speedup=True, movement_die=16)
    assert [s for s in (1, 13, 17, 20) if d16.special(s)] == [1, 13]
    g = play(d16, "roll 0 13")
    assert set(g.legal) == {ChooseSquare(12), ChooseSquare(13), ChooseSquare(14)}
    d17 = play(moving([5, 3, 16], [0, 1, 2], speedup=True, movement_die=17), "roll 0 17")
    assert set(d17.legal) == {ChooseSquare(16), ChooseSquare(17)}
    assert d17.news[0].text(d17.players) == "A rolled 17: choose square 16 or 17 (the board ends)"
    g = play(d17, "square 16")
    assert g.squares == (16, 3, None)
    d13 = play(moving([5, 3, 14], [0, 1, 2], speedup=True, movement_die=13), "roll 0 13")
    assert set(d13.legal) == {ChooseSquare(12), ChooseSquare(13)}
    d12 = moving([5, 3, 8], [0, 1, 2], speedup=True, movement_die=12)
    assert [s for s in (1, 13, 17, 20) if d12.special(s)] == [1]


# ------------------------------------------------------------------------------------------ notation


def test_event_notation_round_trips():
    for text in ("roll 2 12", "square 14", "victim 3", "decline", "initiative-die 8", "movement-die 12"):
        assert parse_event(text).notation() == text
    assert repr(Roll(2, 12)) == "Roll(player=2, value=12)"


@pytest.mark.parametrize("text", ["", "fly 3", "roll 2", "roll a b", "square"])
def test_bad_notation_is_invalid_input_quoting_it(text):
    with pytest.raises(InvalidInput) as info:
        parse_event(text)
    assert repr(text) in str(info.value)


def test_state_repr_is_evaluable():
    g = moving([18, 3, 5], [1, 2, 0])
    assert eval(repr(g), {"Game": Game}) == g
