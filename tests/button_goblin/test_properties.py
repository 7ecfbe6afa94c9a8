"""Property tests: notation round trip, listed attacks apply, unlisted ones never do."""

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.button_goblin import Attack, Die, Player, Position, apply
from companion.button_goblin.core import ATTACK_KINDS, canonical_fire, illegal_reason
from companion.errors import IllegalAction

SIDES = [(0,), (1,), (2,), (4,), (6,), (8,), (10,), (12,), (20,), (1000,), (10, 10), (6, 6)]
SKILL_SETS = [(), (), (), ("VA",), ("FG",), ("FU",), ("FU",), ("OM",), ("DS",), ("NU",), ("VO",),
              ("FO",), ("OM", "VO"), ("FU", "VA")]


@st.composite
def dice(draw, *, compact=False, in_play=True):
    if compact:
        return Die(None, draw(st.integers(0, 20)))
    sides = draw(st.sampled_from(SIDES))
    probe = Die(sides, None)
    high = probe.high if probe.high is not None else 20
    value = draw(st.integers(probe.low, min(high, 40)))
    skills = draw(st.sampled_from(SKILL_SETS))
    return Die(sides, value, skills, has_captured="DS" in skills and draw(st.booleans()),
               focus_reduced=in_play and "FO" in skills and draw(st.booleans()))


@st.composite
def positions(draw, *, max_dice=5, compact=False):
    players = []
    for name in ("Anna", "Bruno Rossi"):
        mine = tuple(draw(st.lists(dice(compact=compact), max_size=max_dice)))
        taken = tuple(draw(st.lists(dice(compact=compact, in_play=False), max_size=2)))
        players.append(Player(name, mine, taken))
    return Position((players[0], players[1]), draw(st.integers(0, 1)), draw(st.integers(0, 1)))


@settings(max_examples=200, deadline=None)
@given(st.one_of(positions(), positions(compact=True)))
def test_parse_format_round_trip(position):
    assert Position.parse(position.format()) == position
    assert eval(repr(position)) == position  # the repr is notation by design


@settings(max_examples=150, deadline=None)
@given(positions())
def test_every_listed_attack_applies_cleanly(position):
    listed = list(position.legal)
    assert len({a.key for a in listed}) == len(listed)  # each (type, attackers, targets) once
    for attack in listed:
        assert attack in position.legal
        after = apply(position, attack)
        me, them = after.players[position.to_move], after.players[1 - position.to_move]
        assert len(them.dice) == len(position.opponent.dice) - len(attack.targets)
        assert len(me.captured) == len(position.mover.captured) + len(attack.targets)
        assert after.to_move == 1 - position.to_move and after.passes == 0
        assert not any(d.focus_reduced for d in me.dice)


def _candidates(position):
    n, m = len(position.mover.dice), len(position.opponent.dice)
    for kind in ATTACK_KINDS:
        groups = [c for k in range(1, n + 1) for c in combinations(range(n), k)] if kind == "skill" \
            else [(i,) for i in range(n)]
        targets = [c for k in range(1, m + 1) for c in combinations(range(m), k)] \
            if kind in ("speed", "berserk") else [(j,) for j in range(m)]
        for a in groups:
            for t in targets:
                yield Attack(kind, a, t)


@settings(max_examples=120, deadline=None)
@given(positions(max_dice=4))
def test_no_attack_outside_the_list_applies(position):
    listed = {a.key: a for a in position.legal}
    for bare in _candidates(position):
        known = listed.get(bare.key)
        if known is None:
            assert illegal_reason(position, bare) is not None, bare
            try:
                apply(position, bare)
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"{bare} applied but is not listed")
            continue
        points = known.fire_points(position)
        assert (illegal_reason(position, bare) is None) == (points == 0)
        if points:
            # one point less fire never suffices for a skill attack or a power attack
            try:
                less = Attack(bare.kind, bare.attackers, bare.targets,
                              canonical_fire(position.mover.dice, bare.attackers, points - 1))
            except IllegalAction:
                continue
            assert illegal_reason(position, less) is not None
