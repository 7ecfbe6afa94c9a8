"""Fast greedy play-outs of a Button Goblin round, for the advisor's Monte Carlo simulation.

The rules core (``core``) is the referee: immutable, validated positions and every legal attack
listed. A simulation plays thousands of rounds, so this module keeps a round as plain tuples and finds
only the policy's attack, without listing the others. It is the same rules for the turns of a round
after the first (no focus bar survives a turn), and ``tests/button_goblin/test_playout.py`` checks it
against the core: the attack it picks is legal there, has the largest gain there, and leads to the
same dice and scores.

Policy (``choose``): the attack with the largest gain in the mover's lead, as if the round ended
then; among equal gains, the one that captures more dice, then the lowest target indices, then the
kind in the order power, skill, speed, berserk, shadow, disintegration, then the lowest attackers,
then the least fire. A player passes only when it has no attack.

Pure: the only randomness is the ``random.Random`` passed in.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from companion.button_goblin.core import Position, captured_points

NU: Final = 1
VO: Final = 2
DS: Final = 4
FU: Final = 8
OM: Final = 16
VA: Final = 32
FG: Final = 64
BITS: Final = {"NU": NU, "VO": VO, "DS": DS, "FU": FU, "OM": OM, "VA": VA, "FG": FG}

KINDS: Final = ("power", "skill", "speed", "berserk", "shadow", "disintegration")

Dice = tuple[int, tuple[int, ...], int, bool]
"""A die: (value, sides, skill bits, has captured). Its size is ``sum(sides)``."""

Move = tuple[int, tuple[int, ...], int, tuple[int, ...], int]
"""An attack: (gain, targets, kind index into :data:`KINDS`, attackers, fire points)."""


@dataclass(frozen=True)
class Round:
    """A round between turns: each side's dice in play and the points it banked by capturing."""

    dice: tuple[tuple[Dice, ...], tuple[Dice, ...]]
    banked: tuple[int, int]
    to_move: int
    passes: int = 0


def from_position(position: Position) -> Round:
    """The round of a core position (every size known; focus bars are dropped: they last one turn)."""
    sides_of = []
    banked = []
    for player in position.players:
        dice = []
        for d in player.dice:
            bits = 0
            for code in d.skills:
                bits |= BITS.get(code, 0)
            dice.append((d.value or 0, d.sides or (0,), bits, d.has_captured))
        sides_of.append(tuple(dice))
        banked.append(sum(captured_points(c) or 0 for c in player.captured))
    return Round((sides_of[0], sides_of[1]), (banked[0], banked[1]), position.to_move, position.passes)


def low(die: Dice) -> int:
    return sum(1 for s in die[1] if s > 0)


def kept(die: Dice) -> int:
    """What a die in play is worth to its owner at the end of the round (``core.kept_points``)."""
    bits, size = die[2], sum(die[1])
    if bits & NU:
        return 0
    if bits & VO:
        return -size
    if bits & DS and not die[3]:
        return 0
    return (size + 1) // 2


def taken(die: Dice) -> int:
    """What a captured die is worth to its captor (``core.captured_points``)."""
    bits, size = die[2], sum(die[1])
    if bits & NU:
        return 0
    if bits & VO:
        return -((size + 1) // 2)
    return size


def _after(die: Dice, kind: int) -> Dice:
    """An attacker after its attack, before its re-roll: a berserk die halves, a DS die has captured."""
    value, sides, bits, has = die
    if kind == 3:  # berserk
        half = -(-sum(sides) // 2)
        sides, bits, value = (half,), bits & ~FG, min(value, half)
    if bits & DS:
        has = True
    return (value, sides, bits, has)


def scores(state: Round) -> tuple[int, int]:
    """Each side's points if the round ended now."""
    a = state.banked[0] + sum(kept(d) for d in state.dice[0])
    b = state.banked[1] + sum(kept(d) for d in state.dice[1])
    return (a, b)


def _fire(mine: Sequence[Dice]) -> list[tuple[int, int]]:
    return [(i, d[0] - low(d)) for i, d in enumerate(mine) if d[2] & FU and d[0] - low(d) > 0]


def fire_nulls(sources: Sequence[tuple[int, int]], attackers: Sequence[int], points: int,
               null: Callable[[int], bool]) -> bool:
    """Whether the fire dice spent for ``points`` (``sources``: (die, spare points), earliest first, the
    attackers left out) include a die that is ``null``. The advisor and the playouts spend fire alike."""
    left = points
    for i, spare in sources:
        if left <= 0:
            break
        if i in attackers:
            continue
        if null(i):
            return True
        left -= spare
    return False


def _fire_nulls(mine: Sequence[Dice], sources: Sequence[tuple[int, int]], attackers: Sequence[int],
                points: int) -> bool:
    return fire_nulls(sources, attackers, points, lambda i: bool(mine[i][2] & NU))


def choose(mine: Sequence[Dice], theirs: Sequence[Dice]) -> Move | None:
    """The policy's attack of ``mine`` on ``theirs`` (see the module docstring); None: no attack."""
    if not mine or not theirs:
        return None
    values = [t[0] for t in theirs]
    worth = [taken(t) + kept(t) for t in theirs]
    lost = [kept(t) for t in theirs]
    sources = _fire(mine)
    fire_total = sum(spare for _, spare in sources)
    null_fire = any(mine[i][2] & NU for i, _ in sources)
    base = [kept(d) for d in mine]
    own = [kept(_after(d, 0)) - base[i] for i, d in enumerate(mine)]
    best: Move | None = None
    best_key: tuple[object, ...] = ()
    top_gain = -1 << 60

    def consider(g: int, targets: tuple[int, ...], kind: int, attackers: tuple[int, ...],
                 points: int) -> None:
        nonlocal best, best_key, top_gain
        key = (-g, -len(targets), targets, kind, attackers, points)
        if best is None or key < best_key:
            best, best_key, top_gain = (g, targets, kind, attackers, points), key, g

    for i, d in enumerate(mine):
        v, sides, bits, _ = d
        if bits & (FU | OM | DS):
            continue
        reach = v + min(fire_total, sum(sides) - v)
        mine_own = own[i]
        for j, x in enumerate(values):
            if x <= reach:
                points = x - v if x > v else 0
                nulled = bits & NU or (points and null_fire and _fire_nulls(mine, sources, (i,), points))
                g = mine_own + (lost[j] if nulled else worth[j])
                if g >= top_gain:
                    consider(g, (j,), 0, (i,), points)
    spare_of = dict(sources)
    subsets: list[tuple[tuple[int, ...], int, int, int, int, int]] = [((), 0, 0, 0, 0, 0)]
    highest = max(values)
    for i, d in enumerate(mine):
        if d[2] & FG:
            continue
        v = d[0]
        room, spare, o, nu = sum(d[1]) - v, spare_of.get(i, 0), own[i], d[2] & NU
        # values never go below 0, so a subset already summing past every target has no useful superset
        subsets += [((*m, i), t + v, r + room, f + spare, w + o, n | nu) for m, t, r, f, w, n in subsets
                    if t + v <= highest]
    most = max(max(worth), max(lost))
    for members, total, room, inside, mine_own, null in subsets[1:]:
        if mine_own + most < top_gain:
            continue
        top = total + min(fire_total - inside, room)
        for j, x in enumerate(values):
            if total <= x <= top:
                points = x - total
                nulled = null or (points and null_fire and _fire_nulls(mine, sources, members, points))
                g = mine_own + (lost[j] if nulled else worth[j])
                if g >= top_gain:
                    consider(g, (j,), 1, members, points)
    groups: list[tuple[tuple[int, ...], int, int, int]] | None = None
    for i, d in enumerate(mine):
        v, sides, bits, _ = d
        if bits & (VA | FG):
            for flag, kind in ((VA, 2), (FG, 3)):
                if bits & flag:
                    if groups is None:
                        groups = [((), 0, 0, 0)]
                        for j, x in enumerate(values):
                            groups += [((*g, j), s + x, w + worth[j], k + lost[j]) for g, s, w, k in groups]
                    mine_own = own[i] if kind == 2 else kept(_after(d, 3)) - base[i]
                    for targets, total, w, k in groups[1:]:
                        if total == v:
                            consider(mine_own + (k if bits & NU else w), targets, kind, (i,), 0)
        if bits & (OM | DS):
            for flag, kind in ((OM, 4), (DS, 5)):
                if bits & flag:
                    top = sum(sides)
                    for j, x in enumerate(values):
                        if v <= x <= top:
                            g = own[i] + (lost[j] if bits & NU else worth[j])
                            if g >= top_gain:
                                consider(g, (j,), kind, (i,), 0)
    return best


def roll(sides: Sequence[int], rng: random.Random) -> int:
    """A re-roll: each physical die uniform on 1..its sides (a d0 shows 0)."""
    if len(sides) == 1:
        s = sides[0]
        return int(rng.random() * s) + 1 if s else 0
    return sum(int(rng.random() * s) + 1 if s else 0 for s in sides)


def play(state: Round, move: Move | None, rng: random.Random) -> Round:
    """The round after the mover's ``move`` (None: a pass), its attackers re-rolled with ``rng``."""
    p = state.to_move
    if move is None:
        return Round(state.dice, state.banked, 1 - p, state.passes + 1)
    _, targets, kind, attackers, points = move
    mine = list(state.dice[p])
    theirs = state.dice[1 - p]
    nulled = any(mine[i][2] & NU for i in attackers)
    left = points
    for i, spare in _fire(mine):
        if left <= 0:
            break
        if i in attackers:
            continue
        step = min(spare, left)
        value, sides, bits, has = mine[i]
        mine[i] = (value - step, sides, bits, has)
        nulled = nulled or bool(bits & NU)
        left -= step
    gained = 0 if nulled else sum(taken(theirs[j]) for j in targets)
    for i in attackers:
        value, sides, bits, has = _after(mine[i], kind)
        mine[i] = (roll(sides, rng), sides, bits, has)
    kept_theirs = tuple(t for j, t in enumerate(theirs) if j not in targets)
    banked = list(state.banked)
    banked[p] += gained
    dice = (tuple(mine), kept_theirs) if p == 0 else (kept_theirs, tuple(mine))
    return Round(dice, (banked[0], banked[1]), 1 - p, 0)


def playout(state: Round, rng: random.Random) -> tuple[int | None, int]:
    """Play the round to its end by the policy: the winner (None: a tie) and the turns it took."""
    turns = 0
    while state.passes < 2:
        p = state.to_move
        state = play(state, choose(state.dice[p], state.dice[1 - p]), rng)
        turns += 1
    a, b = scores(state)
    return (None if a == b else (0 if a > b else 1)), turns
