"""The match core (``companion.button_goblin.match``): swing sizes, the roll, the focus duel and the
re-rolls are events its legal view decides, not the table flow."""

import random
from dataclasses import replace

import pytest

from companion.button_goblin.core import PASS, Attack, Position
from companion.button_goblin.match import (
    Decline,
    Focus,
    Roll,
    Swing,
    apply,
    awaiting,
    check_open,
    legal,
    new_match,
    rolled,
    to_read,
)
from companion.button_goblin.roster import ROSTER, find_button
from companion.dicesizes import DIE_SIDES
from companion.errors import IllegalAction, InvalidInput


def match(first, second, a=None, b=None):
    return new_match(["Anna", "Bruno"], [find_button(first), find_button(second)], [None, None],
                     [a or {}, b or {}])


def roll(m, values):
    """A roll of every die to read: ``values`` maps (player, die) to a value, the rest show 1."""
    return Roll(tuple((p, i, values.get((p, i), 1)) for p, i in to_read(m)))


def test_swing_lists_the_real_dice_and_takes_any_size_of_the_rulebook():
    m = match("Jones", "Luperto")
    assert m.phase == "swing" and awaiting(m) == (0,)
    assert list(legal(m)) == [Swing(0, (("X", s),)) for s in DIE_SIDES]
    assert Swing(0, (("X", 7),)) in legal(m)  # 4..20 are all swing sizes; only the common ones are listed
    assert Swing(0, (("X", 21),)) not in legal(m)
    assert Swing(0, (("Q", 8),)) not in legal(m)
    assert roll(m, {}) not in legal(m) and PASS not in legal(m)
    with pytest.raises(InvalidInput, match=r"swing X must be 4\.\.20 sides, not 3"):
        apply(m, Swing(0, (("X", 3),)))
    after = apply(m, Swing(0, (("X", 7),)))
    assert after.phase == "roll" and after.sizes(0) == {"X": 7}


def test_a_swing_kept_from_the_last_round_is_a_listed_choice():
    m = replace(match("Jones", "Luperto", {"X": 8}), swing_done=(False, True), phase="swing")
    assert next(iter(legal(m))) == Swing(0)  # keep X=d8
    assert apply(m, Swing(0)).phase == "roll"


def test_the_roll_reads_every_die_but_the_d1_and_is_checked_by_in():
    m = match("Jones", "Luperto", {"X": 8})
    assert (0, 0) not in to_read(m) and len(to_read(m)) == 9  # Jones' d1 always shows 1
    assert list(legal(m)) == []  # values are read, not picked
    assert roll(m, {}) in legal(m)
    assert roll(m, {(0, 1): 7}) not in legal(m)  # a d6 shows 1..6
    assert Roll(roll(m, {}).values[1:]) not in legal(m)  # a die missing
    with pytest.raises(InvalidInput, match=r"d6 \(die 1\) shows 1\.\.6, not 7"):
        apply(m, roll(m, {(0, 1): 7}))
    after = apply(m, roll(m, {(0, 2): 2, (1, 0): 3}))
    assert after.position is not None and after.position.players[0].dice[0].value == 1


def test_all_dice_equal_is_rolled_again():
    m = match("Madness", "Madness")
    after = apply(m, roll(m, {}))
    assert after.phase == "roll" and after.tied_rolls == 1 and after.position is None


def test_the_focus_duel_is_the_players_choice_among_the_legal_moves():
    m = match("Gjmbob", "Luperto")
    values = {(0, 0): 3, (0, 1): 4, (0, 2): 5, (0, 3): 6, (0, 4): 7, (1, 0): 2, (1, 1): 5, (1, 2): 5,
              (1, 3): 5, (1, 4): 5}
    duel = apply(m, roll(m, values))
    assert duel.phase == "focus" and duel.focus_player == 0 and awaiting(duel) == (0,)
    listed = list(legal(duel))
    assert Focus(0, ((1, 1),)) in listed and listed[-1] == Decline(0)
    assert Focus(0, ((1, 3),)) not in legal(duel)  # 3 does not beat Bruno's 2
    assert Focus(1, ((1, 1),)) not in legal(duel) and Decline(1) not in legal(duel)
    with pytest.raises(IllegalAction, match="it is Anna who may use focus now"):
        apply(duel, Decline(1))
    took = apply(duel, Focus(0, ((1, 1),)))
    assert took.phase == "play" and took.position is not None and took.position.to_move == 0
    kept = apply(duel, Decline(0))
    assert kept.phase == "play" and kept.position is not None and kept.position.to_move == 1


def test_the_attackers_are_rerolled_the_d1_without_reading():
    m = match("Jones", "Luperto", {"X": 8})
    m = apply(m, roll(m, {(0, 1): 2, (0, 2): 9, (0, 3): 19, (0, 4): 7, (1, 0): 2, (1, 1): 3, (1, 2): 4,
                          (1, 3): 5, (1, 4): 6}))
    assert m.phase == "play" and m.position is not None
    m = replace(m, position=Position(m.position.players, 0))
    attack = Attack("skill", (0, 1), (1,))  # Jones' d1 (1) and d6 (2) take Bruno's d8 (3)
    assert attack in legal(m)
    after = apply(m, attack)
    assert after.phase == "reroll" and after.reroll_dice == (1,) and to_read(after) == ((0, 1),)
    assert after.position is not None and after.position.players[0].dice[0].value == 1
    assert PASS not in legal(after) and awaiting(after) == (0,)
    back = apply(after, Roll(((0, 1, 6),)))
    assert back.phase == "play" and back.position is not None and back.position.players[0].dice[1].value == 6


def test_the_third_round_won_ends_the_match_and_nothing_is_legal_after():
    m = match("Luperto", "Luperto")
    position = Position.parse("> Anna: d4=1 {d20=13 d20=13} | Bruno: d20=18 ; passes 1")
    m = replace(m, phase="play", wins=(2, 1), position=position)
    assert list(legal(m)) == [PASS]
    over = apply(m, PASS)
    assert over.phase == "over" and over.wins == (3, 1) and over.history[-1].winner == 0
    assert list(legal(over)) == [] and PASS not in legal(over) and awaiting(over) == ()
    with pytest.raises(IllegalAction, match="the match is over"):
        check_open(over)


@pytest.mark.parametrize("seed", range(6))
def test_every_listed_event_is_legal_and_applies(seed):
    rng = random.Random(seed)
    buttons = [b for b in ROSTER if not b.needs_ve]
    m = new_match(["A", "B"], [rng.choice(buttons), rng.choice(buttons)], [None, None], [{}, {}])
    for _ in range(150):
        if m.phase == "over":
            break
        events = list(legal(m))
        if m.phase in ("roll", "reroll"):
            assert events == []
            read = set(to_read(m))
            event = Roll(tuple((p, i, d.low + rng.randrange(2)) for p, d, i in rolled(m) if (p, i) in read))
        else:
            assert events and all(e in legal(m) for e in events)
            event = rng.choice(events)
        assert event in legal(m)
        m = apply(m, event)
