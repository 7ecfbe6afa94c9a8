"""Table tests: one small position per rule, checked against the rulebook's sentences."""

import pytest

from companion.button_goblin import PASS, Attack, Die, Position, apply, initiative, round_outcome, scores
from companion.button_goblin.core import (
    clear_focus,
    focus_options,
    focus_reduce,
    half_up,
    illegal_reason,
    kept_points,
)
from companion.errors import IllegalAction, InvalidInput


def keys(position):
    return {a.key for a in position.legal}


def fire_of(position):
    return {a.key: a.fire_points(position) for a in position.legal}


# ---------------------------------------------------------------------------- dice


def test_zero_sided_die_shows_zero_and_counts_for_initiative():
    p = Position.parse("A: d0=0[NU] d6=5 | B: d4=1 d6=6")
    assert initiative(p).player == 0
    with pytest.raises(InvalidInput, match=r"outside 0\.\.0"):
        Die.parse("d0=1")


def test_racca_d1000_works():
    die = Die.parse("d1000=999[DS]")
    assert die.size == 1000 and die.high == 1000


def test_twin_die_is_one_die_of_summed_size():
    twin = Die.parse("d(10,10)=20")
    assert twin.size == 20 and twin.low == 2
    with pytest.raises(InvalidInput, match=r"outside 2\.\.20"):
        Die.parse("d(10,10)=1")
    p = Position.parse("> A: d(10,10)=14 | B: d20=14 d6=3")
    assert ("power", (0,), (0,)) in keys(p)
    after = apply(p, Attack("power", (0,), (0,)))
    assert scores(after) == (20 + 10, 3)  # d20 captured + twin kept (half of 20) | d6 kept


# ---------------------------------------------------------------------------- initiative


@pytest.mark.parametrize(
    ("text", "winner"),
    [
        ("A: 1 5 | B: 2 3", 0),
        ("A: 2 2 6 | B: 2 4 5", 0),  # the tied 2s cancel, then 2 < 4
        ("A: 3 4 | B: 3 4 9", 1),  # every comparable die ties: more dice goes first
        ("A: 3 4 9 | B: 3 4", 0),
        ("A: 3 4 | B: 3 4", None),  # all equal: re-roll
    ],
)
def test_initiative(text, winner):
    assert initiative(Position.parse(text)).player == winner


# ---------------------------------------------------------------------------- power and skill


def test_power_captures_equal_or_lower():
    p = Position.parse("> A: d8=5 | B: d6=5 d6=6 d4=1")
    assert {k for k in keys(p) if k[0] == "power"} == {("power", (0,), (0,)), ("power", (0,), (2,))}


def test_skill_needs_an_exact_sum():
    p = Position.parse("> A: d6=2 d6=3 d8=4 | B: d12=7 d12=8")
    skills = {k for k in keys(p) if k[0] == "skill"}
    assert ("skill", (1, 2), (0,)) in skills
    assert ("skill", (0, 1), (1,)) not in skills  # 2+3 = 5, not 8
    assert illegal_reason(p, Attack("skill", (0, 1), (1,))) == "the attackers sum to 5, not 8"


def test_must_attack_when_possible_and_round_ends_on_two_passes():
    p = Position.parse("> A: d6=1 | B: d6=6")
    with pytest.raises(IllegalAction, match="may not pass"):
        apply(Position.parse("> A: d6=6 | B: d6=1"), PASS)
    once = apply(p, PASS)
    assert once.passes == 1 and once.to_move == 1
    assert round_outcome(once) is None
    with pytest.raises(IllegalAction, match="may not pass"):
        apply(once, PASS)
    done = apply(Position.parse("A: d4=4 | > B: d6=1 d6=1 ; passes 1"), PASS)
    outcome = round_outcome(done)
    assert outcome is not None and outcome.scores == (2, 6) and outcome.winner == 1


# ---------------------------------------------------------------------------- speed (VA)


def test_speed_captures_any_set_summing_to_its_value_and_still_attacks_normally():
    p = Position.parse("> A: d8=7[VA] | B: d4=3 d6=4 d10=7 d12=9")
    got = keys(p)
    assert ("speed", (0,), (0, 1)) in got
    assert ("speed", (0,), (2,)) in got
    assert ("power", (0,), (0,)) in got and ("skill", (0,), (2,)) in got  # "Oltre ai normali attacchi"
    assert not any(k[0] == "speed" and 3 in k[2] for k in got)
    after = apply(p, Attack("speed", (0,), (0, 1)))
    assert [d.value for d in after.players[1].dice] == [7, 9]
    assert len(after.players[0].captured) == 2


# ---------------------------------------------------------------------------- berserk (FG)


def test_berserk_never_joins_skill_attacks_but_power_attacks():
    p = Position.parse("> A: d20=9[FG] d4=1 | B: d10=10 d10=9 d4=4 d6=5")
    got = keys(p)
    assert not any(k[0] == "skill" and 0 in k[1] for k in got)
    assert ("power", (0,), (1,)) in got
    assert ("berserk", (0,), (2, 3)) in got and ("berserk", (0,), (1,)) in got


def test_berserk_attack_halves_the_die_rounded_up():
    p = Position.parse("> A: d7=6[FG,VO] | B: d4=2 d4=4")
    after = apply(p, Attack("berserk", (0,), (0, 1)))
    die = after.players[0].dice[0]
    assert die.sides == (4,) and die.skills == ("VO",)
    assert die.value == 4  # shows at most its new size until the re-roll is read
    power_after = apply(Position.parse("> A: d20=9[FG] | B: d4=2"), Attack("power", (0,), (0,)))
    assert power_after.players[0].dice[0].sides == (20,)  # only the berserk attack halves


# ---------------------------------------------------------------------------- shadow (OM)


def test_shadow_reverse_power_within_its_size_and_no_power():
    p = Position.parse("> A: d10=2[OM] | B: d4=1 d6=2 d10=10 d12=12")
    shadow = {k for k in keys(p) if k[0] == "shadow"}
    assert shadow == {("shadow", (0,), (1,)), ("shadow", (0,), (2,))}  # 2..10, not the 12, not the 1
    assert not any(k[0] == "power" for k in keys(p))
    assert ("skill", (0,), (1,)) in keys(p)  # only power attacks are forbidden


# ---------------------------------------------------------------------------- disintegration (DS)


def test_disintegration_reverse_power_and_scoring():
    p = Position.parse("> A: d10=6[DS] d4=4 | B: d6=5 d8=6 d10=10 d12=11")
    ds = {k for k in keys(p) if k[0] == "disintegration"}
    assert ds == {("disintegration", (0,), (1,)), ("disintegration", (0,), (2,))}
    assert not any(k[0] == "power" and k[1] == (0,) for k in keys(p))
    assert kept_points(p.players[0].dice[0]) == 0
    after = apply(p, Attack("disintegration", (0,), (1,)))
    assert after.players[0].dice[0].has_captured
    assert kept_points(after.players[0].dice[0]) == 5
    # captured by the opponent, it scores its size for the captor
    q = Position.parse("A: d10=6[DS] | > B: d20=15")
    taken = apply(q, Attack("power", (0,), (0,)))
    assert scores(taken) == (0, 10 + 10)


def test_disintegration_die_that_joins_a_skill_attack_has_captured():
    p = Position.parse("> A: d10=3[DS] d4=2 | B: d6=5")
    after = apply(p, Attack("skill", (0, 1), (0,)))
    assert after.players[0].dice[0].has_captured


# ---------------------------------------------------------------------------- fire (FU)


def test_fire_never_power_attacks_but_joins_skill_attacks():
    p = Position.parse("> A: d6=5[FU] d4=1 | B: d6=5 d6=6")
    got = keys(p)
    assert not any(k[0] == "power" and k[1] == (0,) for k in got)
    assert ("skill", (0,), (0,)) in got
    assert ("skill", (0, 1), (1,)) in got


def test_fire_raises_a_power_attacker_with_the_least_fire():
    p = Position.parse("> A: d8=5 d10=4[FU] | B: d8=7 d10=9 d12=11")
    fires = fire_of(p)
    assert fires[("power", (0,), (0,))] == 2
    assert ("power", (0,), (1,)) not in fires  # 5 + 3 = 8 is the d8's top: it cannot reach 9
    attack = next(a for a in p.legal if a.key == ("power", (0,), (0,)))
    after = apply(p, attack)
    assert after.players[0].dice[1].value == 2  # the fire die stays turned down
    with pytest.raises(IllegalAction, match="less than 7"):
        apply(p, Attack("power", (0,), (0,)))


def test_fire_never_goes_below_one():
    p = Position.parse("> A: d20=10 d6=3[FU] | B: d20=13 d20=12")
    fires = fire_of(p)
    assert fires == {("power", (0,), (1,)): 2, ("skill", (0,), (1,)): 2, ("skill", (0, 1), (0,)): 0}
    assert "go down to 1..2, not 0" in illegal_reason(p, Attack("power", (0,), (0,), ((1, 0),)))


def test_fire_raises_several_skill_attackers_and_a_fire_die_does_not_fuel_itself():
    p = Position.parse("> A: d4=3 d4=3 d6=6[FU] d6=6[FU] | B: d20=11 d20=8")
    fires = fire_of(p)
    # 3+3 reaches 8 with 2 fire points, one on each d4, but never 11: each d4 has one point of room
    assert fires[("skill", (0, 1), (1,))] == 2
    assert ("skill", (0, 1), (0,)) not in fires
    # a fire die that attacks is fuelled by the other fire die only
    q = Position.parse("> A: d6=2[FU] d6=6[FU] | B: d20=5")
    only = [a for a in q.legal if a.key == ("skill", (0,), (0,))]
    assert len(only) == 1 and only[0].fire == ((1, 3),)
    assert illegal_reason(q, Attack("skill", (0,), (0,), ((0, 1),))) == \
        "fire die 0 attacks: a fire die helps other dice"


def test_fire_points_in_a_skill_attack_are_exact():
    p = Position.parse("> A: d8=4 d6=2 d10=9[FU] | B: d20=9")
    fires = fire_of(p)
    assert fires[("skill", (0, 1), (0,))] == 3
    too_much = Attack("skill", (0, 1), (0,), ((2, 5),))
    assert illegal_reason(p, too_much) == "the attackers sum to 10, not 9"


def test_fire_helps_no_special_attack():
    p = Position.parse("> A: d8=4[VA] d10=9[FU] | B: d4=2 d4=3")
    assert illegal_reason(p, Attack("speed", (0,), (0, 1), ((1, 8),))) == \
        "fire helps only power and skill attacks, not speed"


# ---------------------------------------------------------------------------- null (NU)


def test_null_die_and_what_it_captures_score_nothing():
    p = Position.parse("> A: d0=0[NU] d6=4[NU] d8=3 | B: d8=7 d4=4")
    after = apply(p, Attack("skill", (1, 2), (0,)))
    assert after.players[0].captured[0].skills == ("NU",)
    assert scores(after) == (0 + 0 + 4 + 0, 2)
    plain = apply(p, Attack("power", (1,), (1,)))
    assert scores(plain) == (0 + 0 + 4 + 0, 4)


def test_zero_die_can_join_a_skill_attack_and_nulls_the_capture():
    p = Position.parse("> A: d0=0[NU] d8=5 | B: d8=5")
    assert ("skill", (0, 1), (0,)) in keys(p)
    after = apply(p, Attack("skill", (0, 1), (0,)))
    assert scores(after)[0] == 0 + 4 + 0


# ---------------------------------------------------------------------------- poison (VO)


def test_poison_kept_costs_full_size_captured_costs_half_rounded_up():
    assert kept_points(Die.parse("d12=3[VO]")) == -12
    p = Position.parse("> A: d8=8 | B: d5=5[VO] d4=1")
    after = apply(p, Attack("power", (0,), (0,)))
    assert scores(after) == (4 - half_up(5), 2)
    assert half_up(5) == 3


# ---------------------------------------------------------------------------- scores and rounds


def test_scores_captured_size_and_kept_half_rounded_up():
    p = Position.parse("A: d7=3 {d8=2 d(10,10)=5} | B: d20=19 {d6=1}")
    assert scores(p) == (4 + 8 + 20, 10 + 6)


def test_tied_round_has_no_winner():
    p = Position.parse("A: d8=1 | > B: d8=1 ; passes 2")
    outcome = round_outcome(p)
    assert outcome is not None and outcome.winner is None and outcome.scores == (4, 4)


# ---------------------------------------------------------------------------- focus (FO)


def test_focus_only_to_win_initiative_outright():
    p = Position.parse("A: d6=2 d8=5 | B: d6=4[FO] d8=6")
    assert initiative(p).player == 0
    with pytest.raises(IllegalAction, match="only to win initiative"):
        focus_reduce(p, 1, {0: 2})  # a tie on 2 is not a win: 2 2 vs 5 6 goes on, 5 < 6
    won = focus_reduce(p, 1, {0: 1})
    assert initiative(won).player == 1 and won.to_move == 1
    assert won.players[1].dice[0].focus_reduced
    assert {0: 1} in focus_options(p, 1)


def test_focus_die_is_barred_from_the_first_attack_only():
    p = Position.parse("A: d6=2 d8=5 | B: d6=4[FO] d8=6")
    won = focus_reduce(p, 1, {0: 1})
    assert not any(0 in a.attackers for a in won.legal)
    assert "sits out this first attack" in illegal_reason(won, Attack("power", (0,), (0,)))
    after = apply(won, next(iter(won.legal)))
    assert not any(d.focus_reduced for d in after.players[1].dice)


def test_the_loser_of_a_focus_duel_keeps_no_bar():
    p = Position.parse("A: d6=2 d8=5[FO] | B: d6=4[FO] d8=6")
    b_won = focus_reduce(p, 1, {0: 1})
    assert focus_options(b_won, 0) == [{1: 1}]  # A answers: 1 2 against 1 6, the 1s cancel
    a_won = focus_reduce(b_won, 0, {1: 1})
    assert focus_options(a_won, 1) == []  # B's focus die is already at 1
    assert initiative(a_won).player == 0
    settled = clear_focus(a_won, 1)
    assert not any(d.focus_reduced for d in settled.players[1].dice)
    assert settled.players[0].dice[1].focus_reduced


def test_focus_bar_lasts_the_winners_first_turn_even_a_pass():
    p = Position.parse("> A: d6=6[FO]! d4=1 | B: d6=5")
    assert not p.legal  # the d6 could take the 5, but it was turned down by focus
    after = apply(p, PASS)
    assert not any(d.focus_reduced for d in after.players[0].dice)


def test_a_null_fire_die_that_helps_nulls_the_capture():
    p = Position.parse("> A: d8=5 d6=4[FU,NU] | B: d8=7")
    attack = next(a for a in p.legal if a.key == ("power", (0,), (0,)))
    assert attack.fire == ((1, 2),)
    after = apply(p, attack)
    assert after.players[0].captured[0].has("NU")
