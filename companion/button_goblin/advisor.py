"""The attack advisor: what each legal attack of a Button Goblin position is worth.

Pure: no I/O, no clock; the only randomness is a ``random.Random`` built from the ``seed`` given.

For every legal attack of the player to move, :func:`advise` gives

- **the score change** (``score_change``): how the mover's lead (its points minus the opponent's, as if
  the round ended now) changes. Scores depend only on the dice's sizes and on who holds them, never on
  the values they show, so the change is the same for every re-roll outcome: the exact expectation over
  the re-rolls is this one number (the tests check it against an enumeration);
- **the opponent's best reply one ply ahead**: the attackers are re-rolled (a berserk die at its halved
  size), and in each resulting position the opponent plays the reply that raises its own lead most
  (``reply.expected_gain`` is its exact expectation over the re-roll outcomes, a fraction, with the
  chance the opponent has no attack and must pass, and the replies most likely to be best). Outcomes
  the opponent cannot tell apart are merged before they are enumerated (see *Enumeration*);
  ``expected_net`` is ``score_change - reply.expected_gain``;
- **the round-win probability** (``win``): a Monte Carlo simulation from the attack to the end of the
  round, re-rolling dice with the seeded generator, both players following :data:`POLICY`, with a
  Wilson 95% interval.

Enumeration
    The opponent's best reply depends on a re-rolled die's value ``x`` only through (a) the best gain
    of capturing that die alone when it shows ``x`` (power, skill with fire, shadow, disintegration, a
    speed or berserk attack on it alone) and (b) ``x`` itself when some speed or berserk die of the
    opponent could take it together with other dice (``x`` at most that die's value). Values with the
    same (a) and (b) are one class; identical re-rolled dice are enumerated as multisets. When the
    classes still combine into more than :data:`MAX_EXACT_COMBOS` cases, ``MAX_SAMPLED`` outcomes are
    drawn instead (``reply.exact`` is then false): the time is bounded whatever the position.

Policy (:data:`POLICY`, ``"greedy"``)
    A player attacks with the legal attack that raises its lead most right now (:func:`gain`); among
    equal gains, the first the rules core lists; it passes only when it has no attack. The same for
    both sides, and for the opponent's reply above.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import combinations_with_replacement, product
from typing import Final

from companion.button_goblin import playout
from companion.button_goblin.core import (
    Attack,
    Die,
    Player,
    Position,
    apply,
    canonical_fire,
    captured_points,
    describe,
    generate_attacks,
    half_up,
    kept_points,
    scores,
    with_values,
)
from companion.errors import IllegalAction, InvalidInput

POLICY: Final = "greedy"
"""Both sides attack with the largest immediate gain (first listed on ties), passing only when they must."""

TURN_BUDGET: Final = 7_000
"""Simulated turns of one call by default, shared evenly by its attacks: each attack plays whole
rounds until its share is spent (about 15 microseconds a turn on one core here)."""

MIN_SIMULATIONS: Final = 16
"""Rounds each attack plays at least under the turn budget (a round lasts at most 27 turns)."""

MAX_SIMULATIONS: Final = 20_000
"""The most rounds per attack a caller may ask for."""

MAX_TOTAL_SIMULATIONS: Final = 200_000
"""The most rounds one call may ask for over all its attacks (about half a minute)."""

MAX_EXACT_COMBOS: Final = 600
"""Classes of re-roll outcomes enumerated exactly per attack; beyond it, :data:`MAX_SAMPLED` are drawn."""

MAX_SAMPLED: Final = 300

MAX_ANALYSED: Final = 64
"""Attacks analysed per call (those of largest score change): the roster's positions mostly have fewer
(a Lobo against Jelerak with four dice each has been drawn with 65; the 65th gets no reply analysis)."""

TOP_REPLIES: Final = 3
"""How many of the opponent's likeliest best replies an attack lists."""

Z95: Final = 1.959963984540054


@dataclass(frozen=True)
class Reply:
    """One of the opponent's best replies: the mover's dice it captures (``()``: a pass)."""

    captures: tuple[int, ...]
    gain: int
    """The opponent's lead change by this reply."""
    probability: Fraction
    """Share of the re-roll outcomes in which this is the best reply (ties: the larger capture, then the
    lower indices)."""
    example: Attack | None
    """One attack that makes it, in a position where it is best (None for a pass)."""
    text: str


@dataclass(frozen=True)
class WinEstimate:
    """The round-win probability by simulation, with its Wilson 95% interval."""

    wins: int
    ties: int
    simulations: int

    @property
    def probability(self) -> float:
        return self.wins / self.simulations if self.simulations else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.simulations)


@dataclass(frozen=True)
class AttackAdvice:
    """What one legal attack is worth."""

    attack: Attack
    text: str
    score_change: int
    points: tuple[int, int]
    """How the mover's and the opponent's points change (the same for every re-roll)."""
    rerolled: tuple[int, ...]
    outcomes: int
    """Re-roll outcomes (the product of the re-rolled dice's faces)."""
    analysed: bool
    """False for an attack beyond the :data:`MAX_ANALYSED` of largest score change: it has no reply
    and no simulation (such positions are far beyond the roster's)."""
    classes: int = 0
    """Classes of outcomes the opponent can tell apart, evaluated one by one."""
    exact: bool = False
    expected_reply: Fraction | None = None
    pass_probability: Fraction | None = None
    replies: tuple[Reply, ...] = ()
    win: WinEstimate | None = None

    @property
    def expected_net(self) -> Fraction | None:
        return None if self.expected_reply is None else self.score_change - self.expected_reply


@dataclass(frozen=True)
class Advice:
    """The advice for a position: one entry per legal attack, in the rules core's order."""

    position: Position
    seed: int
    simulations: int | None
    """The rounds asked per attack; None: the turn budget (each attack's ``win`` says how many)."""
    attacks: tuple[AttackAdvice, ...]

    @property
    def must_pass(self) -> bool:
        return not self.attacks

    @property
    def best(self) -> AttackAdvice | None:
        """The analysed attack with the highest expected net change (then win probability), if any."""
        analysed = [a for a in self.attacks if a.expected_net is not None]
        if not analysed:
            return None
        return max(analysed, key=lambda a: (a.expected_net or 0, a.win.probability if a.win else 0.0))


# ------------------------------------------------------------------------------------------- helpers


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (``(0, 1)`` for no trials)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def lead(position: Position, player: int) -> int:
    """``player``'s points minus the opponent's, if the round ended now."""
    points = scores(position)
    if points is None:
        raise InvalidInput("the advisor needs every die's size (write d8=5, not 5)")
    return points[player] - points[1 - player]


def gain(position: Position, attack: Attack) -> int:
    """How much ``attack`` raises the mover's lead (the same as :func:`lead` after ``apply`` minus before)."""
    mine, theirs = position.mover.dice, position.opponent.dice
    nulled = any(mine[i].has("NU") for i in (*attack.attackers, *(f for f, _ in attack.fire)))
    total = 0
    for j in attack.targets:
        target = theirs[j]
        taken = 0 if nulled else captured_points(target)
        total += (taken or 0) + (kept_points(target) or 0)
    return total + _own(mine, attack.attackers, attack.kind)


def value_counts(die: Die, cap: int) -> list[tuple[int, int]]:
    """``(value, ways)`` of a re-roll of ``die`` for values up to ``cap``, then one entry for all the
    values above it (shown as ``cap + 1``), so a d1000 costs no more than ``cap``."""
    sides = die.sides or (0,)
    if len(sides) == 1:
        n = sides[0]
        if n == 0:
            return [(0, 1)]
        out = [(v, 1) for v in range(1, min(n, cap) + 1)]
        if n > cap:
            out.append((cap + 1, n - cap))
        return out
    n = sides[0]
    if n == 0:
        return [(0, 1)]
    out = []
    above = 0
    for s in range(2, 2 * n + 1):
        ways = min(s - 1, 2 * n - s + 1)
        if s <= cap:
            out.append((s, ways))
        else:
            above += ways
    if above:
        out.append((max(cap + 1, 2), above))
    return out


def faces(die: Die) -> int:
    """How many equally likely outcomes a re-roll of ``die`` has."""
    sides = die.sides or (0,)
    return math.prod(max(1, s) for s in sides)


def roll(die: Die, rng: random.Random) -> int:
    return sum(rng.randint(1, s) if s else 0 for s in (die.sides or (0,)))


def _check(position: Position) -> None:
    if position.passes >= 2:
        raise IllegalAction("the round is over: both players passed; nothing to advise")
    for p in position.players:
        for d in (*p.dice, *p.captured):
            if d.size is None:
                raise InvalidInput(f"the advisor needs every die's size: {p.name}'s {d.format()!r} has none "
                                   "(write e.g. d8=5, not 5)")


# --------------------------------------------------------------------------------------------- replies


@dataclass(frozen=True)
class _Best:
    """The opponent's best reply in one position: the target set and gain, and one attack that makes it."""

    captures: tuple[int, ...]
    gain: int
    attack: Attack | None


def best_reply(position: Position) -> _Best:
    """The mover's best attack in ``position`` by :func:`gain`; ties go to the larger capture, then the
    lower indices (a rule that depends on what is captured, not on the order attacks are listed)."""
    best: dict[tuple[int, ...], tuple[int, Attack]] = {}
    for attack in generate_attacks(position):
        g = gain(position, attack)
        seen = best.get(attack.targets)
        if seen is None or g > seen[0]:
            best[attack.targets] = (g, attack)
    if not best:
        return _Best((), 0, None)
    targets = min(best, key=lambda t: (-best[t][0], -len(t), t))
    g, attack = best[targets]
    return _Best(targets, g, attack)


AttackSpec = tuple[str, tuple[int, ...], tuple[int, ...], int]
"""An attack as (kind, attackers, targets, fire points); :func:`_attack` makes it an ``Attack``."""

Candidate = tuple[tuple[int, ...], int, AttackSpec]
"""A reply: the mover's dice it captures, the opponent's gain, and one attack that makes it."""


def _spec(attack: Attack, position: Position) -> AttackSpec:
    return (attack.kind, attack.attackers, attack.targets, attack.fire_points(position))


def _attack(spec: AttackSpec, position: Position) -> Attack:
    """The attack ``spec`` by the mover of ``position``, its fire spent the canonical way."""
    kind, attackers, targets, points = spec
    fire = canonical_fire(position.mover.dice, attackers, points) if points else ()
    return Attack(kind, attackers, targets, fire)  # type: ignore[arg-type]


def _better(a: Candidate | None, b: Candidate | None) -> Candidate | None:
    """The better reply of two in :func:`best_reply`'s order: more gain, more dice, lower indices."""
    if a is None:
        return b
    if b is None:
        return a
    return a if (-a[1], -len(a[0]), a[0]) <= (-b[1], -len(b[0]), b[0]) else b


def _own(dice: Sequence[Die], attackers: Sequence[int], kind: str) -> int:
    """How an attack changes its own attackers' worth (a berserk die halves, a DS die has captured)."""
    total = 0
    for i in attackers:
        die = dice[i]
        after = die
        if kind == "berserk":
            after = replace(die, sides=(half_up(die.size or 0),), value=None,
                            skills=tuple(s for s in die.skills if s != "FG"))
        if after.has("DS") and not after.has_captured:
            after = replace(after, has_captured=True)
        if after is not die:
            total += (kept_points(after) or 0) - (kept_points(die) or 0)
    return total


SingleSpec = tuple[str, tuple[int, ...], int]
"""An attack on one die, without the die: its kind, its attackers and the fire points it spends."""


class _Singles:
    """The best attack on one die alone, by the die's value, for each set of attacking dice (cached).

    For a set of attacking dice, ``table`` lists per value the most an attack can add to the attacker's
    own dice (``own``) when it does not null the capture, and when it does: a die ``t`` showing ``x``
    is then worth ``own + captured_points(t) + kept_points(t)`` (or ``own + kept_points(t)`` when
    nulled). The rules are those of ``core.generate_attacks`` restricted to one target;
    ``test_advisor.py`` compares the two on random positions.
    """

    def __init__(self) -> None:
        self.tables: dict[tuple[tuple[Die, ...], int], list[tuple[tuple[int, SingleSpec] | None,
                                                                  tuple[int, SingleSpec] | None]]] = {}

    def table(self, dice: tuple[Die, ...], top: int) -> list[tuple[tuple[int, SingleSpec] | None,
                                                                   tuple[int, SingleSpec] | None]]:
        """Per value ``0..top``: (best own gain and attack not nulled, best own gain and attack nulled)."""
        key = (dice, top)
        found = self.tables.get(key)
        if found is None:
            found = self.tables[key] = _single_table(dice, top)
        return found

    def values(self, attacker: Player, die: Die, top: int) -> list[tuple[int, SingleSpec] | None]:
        """Per value ``0..top``: the best gain of an attack of ``attacker`` on ``die`` alone, and how."""
        rows = self.table(attacker.dice, max(top, 40))
        if top >= len(rows):
            rows = self.table(attacker.dice, top)
        return [_worth(die, rows[x]) for x in range(top + 1)]


def _worth(die: Die, row: tuple[tuple[int, SingleSpec] | None, tuple[int, SingleSpec] | None]
           ) -> tuple[int, SingleSpec] | None:
    """The best of a value's row of :meth:`_Singles.table` for capturing ``die``."""
    plain, nulled = row
    kept = kept_points(die) or 0
    a = None if plain is None else (plain[0] + kept + (captured_points(die) or 0), plain[1])
    b = None if nulled is None else (nulled[0] + kept, nulled[1])
    if a is None or (b is not None and b[0] > a[0]):
        return b
    return a


def _single_table(dice: tuple[Die, ...], top: int) -> list[tuple[tuple[int, SingleSpec] | None,
                                                                 tuple[int, SingleSpec] | None]]:
    rows: list[list[tuple[int, SingleSpec] | None]] = [[None, None] for _ in range(top + 1)]
    sources = [(i, d.value - d.low) for i, d in enumerate(dice)
               if d.has("FU") and not d.focus_reduced and d.value is not None and d.value - d.low > 0]
    fire_total = sum(spare for _, spare in sources)
    null_fire = any(dice[i].has("NU") for i, _ in sources)

    def put(x: int, own: int, nulled: bool, spec: SingleSpec) -> None:
        if 0 <= x <= top:
            slot = 1 if nulled else 0
            seen = rows[x][slot]
            if seen is None or own > seen[0]:
                rows[x][slot] = (own, spec)

    def fire_nulls(attackers: tuple[int, ...], points: int) -> bool:
        return playout.fire_nulls(sources, attackers, points, lambda i: dice[i].has("NU"))

    def ranged(kind: str, attackers: tuple[int, ...], base: int, extra: int) -> None:
        own = _own(dice, attackers, kind)
        null = any(dice[i].has("NU") for i in attackers)
        for x in range(max(base, 0), min(base + extra, top) + 1):
            points = x - base
            nulled = null or (null_fire and points > 0 and fire_nulls(attackers, points))
            put(x, own, nulled, (kind, attackers, points))

    free = [i for i, d in enumerate(dice) if not d.focus_reduced]
    for i in free:
        d = dice[i]
        v = d.value or 0
        room = (d.high or 0) - v
        if not (d.has("FU") or d.has("OM") or d.has("DS")):
            own = _own(dice, (i,), "power")
            null = d.has("NU")
            for x in range(0, min(v, top) + 1):
                put(x, own, null, ("power", (i,), 0))
            ranged("power", (i,), v, min(fire_total, room))
        for code, kind in (("VA", "speed"), ("FG", "berserk")):
            if d.has(code):
                put(v, _own(dice, (i,), kind), d.has("NU"), (kind, (i,), 0))
        for code, kind in (("OM", "shadow"), ("DS", "disintegration")):
            if d.has(code):
                own = _own(dice, (i,), kind)
                for x in range(v, min(d.high or 0, top) + 1):
                    put(x, own, d.has("NU"), (kind, (i,), 0))
    skill = [i for i in free if not dice[i].has("FG")]
    spare_of = dict(sources)
    for mask in range(1, 1 << len(skill)):
        members = tuple(skill[k] for k in range(len(skill)) if mask >> k & 1)
        total = sum(dice[i].value or 0 for i in members)
        room = sum((dice[i].high or 0) - (dice[i].value or 0) for i in members)
        extra = min(fire_total - sum(spare_of.get(i, 0) for i in members), room)
        ranged("skill", members, total, extra)
    return [(a, b) for a, b in rows]


def _reach(dice: Sequence[Die]) -> int:
    """A value above which no attack of these dice can take a die alone."""
    total = sum(d.value or 0 for d in dice)
    high = max((d.high or 0 for d in dice if d.has("OM") or d.has("DS")), default=0)
    return max(2 * total, high) + 1


def _multiset_weights(group: int, classes: int) -> Iterator[tuple[tuple[int, ...], int]]:
    """Each multiset of ``group`` picks among ``classes`` (as sorted class indices) and its multinomial."""
    for pick in combinations_with_replacement(range(classes), group):
        weight = math.factorial(group)
        for c in set(pick):
            weight //= math.factorial(pick.count(c))
        yield pick, weight


@dataclass(frozen=True)
class _ReplyStats:
    expected: Fraction
    pass_probability: Fraction
    replies: tuple[Reply, ...]
    classes: int
    exact: bool


class _Replies:
    """The opponent's best reply in ``after`` as a function of the re-rolled dice's values.

    A reply captures a set of the mover's dice. Sets of dice that are not re-rolled are the same in
    every outcome (found once by the rules core); a re-rolled die alone is :class:`_Singles`; a set of
    several dice with a re-rolled one can only fall to a speed or berserk attack, which needs the
    values to sum to that die's value. ``tests/button_goblin/test_advisor.py`` checks the result against
    the rules core in every position of an enumeration.
    """

    def __init__(self, after: Position, rerolled: Sequence[int],
                 singles: Sequence[Sequence[tuple[int, SingleSpec] | None]]) -> None:
        me, opponent = after.opponent, after.mover  # the opponent moves in ``after``
        self.rerolled = tuple(rerolled)
        slot_of = {i: slot for slot, i in enumerate(rerolled)}
        fixed: Candidate | None = None
        for attack in generate_attacks(after):
            if not any(j in slot_of for j in attack.targets):
                fixed = _better(fixed, (attack.targets, gain(after, attack), _spec(attack, after)))
        self.fixed = fixed
        self.singles = singles
        self.opponent, self.me = opponent, me
        self.multi: list[tuple[tuple[int, ...], int, AttackSpec, tuple[int, ...], int]] = []
        speedy = [(i, kind, opponent.dice[i].value or 0, _own(opponent.dice, (i,), kind),
                   opponent.dice[i].has("NU"))
                  for i, d in enumerate(opponent.dice)
                  for code, kind in (("VA", "speed"), ("FG", "berserk")) if d.has(code)]
        if not speedy:
            return
        most = max(v for _, _, v, _, _ in speedy)
        worth = [(kept_points(d) or 0) + (captured_points(d) or 0) for d in me.dice]
        kept = [kept_points(d) or 0 for d in me.dice]
        # subsets of the mover's dice whose fixed part and lowest re-rolls fit under some speed value
        subsets: list[tuple[tuple[int, ...], int, int, int, int]] = [((), 0, 0, 0, 0)]
        for j, d in enumerate(me.dice):
            part = 0 if j in slot_of else d.value or 0
            floor = d.low if j in slot_of else 0
            subsets += [((*m, j), f + part, lo + floor, w + worth[j], k + kept[j])
                        for m, f, lo, w, k in subsets if f + part + lo + floor <= most]
        best: dict[tuple[tuple[int, ...], int], tuple[int, AttackSpec]] = {}
        for members, fixed_sum, low, w, k in subsets:
            if len(members) < 2 or not any(j in slot_of for j in members):
                continue
            for i, kind, value, own, null in speedy:
                need = value - fixed_sum
                if need < low:
                    continue
                g = own + (k if null else w)
                seen = best.get((members, need))
                if seen is None or g > seen[0]:
                    best[(members, need)] = (g, (kind, (i,), members, 0))
        for (members, need), (g, spec) in best.items():
            slots = tuple(slot_of[j] for j in members if j in slot_of)
            self.multi.append((members, g, spec, slots, need))

    def single(self, slot: int, value: int) -> Candidate | None:
        index = self.rerolled[slot]
        row = self.singles[slot]
        found = row[value] if value < len(row) else None
        if found is None:
            return None
        g, (kind, attackers, points) = found
        return ((index,), g, (kind, attackers, (index,), points))

    def best(self, values: Sequence[int]) -> Candidate | None:
        """The best reply when re-rolled die ``slot`` shows ``values[slot]`` (None: the opponent passes)."""
        top = self.fixed
        for slot, value in enumerate(values):
            top = _better(top, self.single(slot, value))
        for members, g, attack, slots, need in self.multi:
            if sum(values[s] for s in slots) == need:
                top = _better(top, (members, g, attack))
        return top


def _reply_stats(after: Position, mover: int, rerolled: Sequence[int], singles: _Singles,
                 rng: random.Random) -> _ReplyStats:
    """The opponent's best reply in ``after`` over every re-roll of ``rerolled`` (the mover's dice)."""
    me = after.players[mover]
    opponent = after.players[1 - mover]
    multi = [d.value or 0 for d in opponent.dice if d.has("VA") or d.has("FG")]
    vmax = max(multi, default=-1)
    cap = _reach(opponent.dice)
    # classes per re-rolled die: key -> [ways, representative value]
    per_die: list[list[tuple[int, int]]] = []
    rep_of: list[dict[int, int]] = []  # value -> its class's representative value
    single_of: list[list[tuple[int, SingleSpec] | None]] = []  # per value: best capture of the die alone
    for i in rerolled:
        die = me.dice[i]
        classes: dict[tuple[int | None, int | None], list[int]] = {}
        reps: dict[int, int] = {}
        counts = value_counts(die, cap)
        best_of = singles.values(opponent, die, min(cap, max(v for v, _ in counts)))
        single_of.append(best_of)
        for value, ways in counts:
            found = best_of[value] if value <= cap else None
            key = (None if found is None else found[0], value if value <= vmax else None)
            if key in classes:
                classes[key][0] += ways
            else:
                classes[key] = [ways, value]
            reps[value] = classes[key][1]
        per_die.append([(w, v) for w, v in classes.values()])
        rep_of.append(reps)
    total = math.prod(faces(me.dice[i]) for i in rerolled)
    replies = _Replies(after, rerolled, single_of)
    # identical dice with identical classes are exchangeable: enumerate multisets
    groups: dict[tuple[object, ...], list[int]] = {}
    for slot, i in enumerate(rerolled):
        d = me.dice[i]
        groups.setdefault((d.sides, d.skills, d.has_captured, tuple(per_die[slot])), []).append(slot)
    combos = math.prod(math.comb(len(per_die[slots[0]]) + len(slots) - 1, len(slots))
                       for slots in groups.values())
    tally: dict[tuple[int, ...], tuple[int, Candidate | None, tuple[int, ...]]] = {}
    weighted = 0  # sum of ways x gain
    passes = 0

    def evaluate(values: tuple[int, ...], ways: int) -> None:
        nonlocal weighted, passes
        best = replies.best(values)
        captures = () if best is None else best[0]
        weighted += ways * (0 if best is None else best[1])
        if best is None:
            passes += ways
        seen = tally.get(captures)
        tally[captures] = (ways if seen is None else seen[0] + ways, best, values)

    exact = combos <= MAX_EXACT_COMBOS
    if exact:
        group_list = list(groups.values())
        choices = [list(_multiset_weights(len(slots), len(per_die[slots[0]]))) for slots in group_list]
        for picks in product(*choices):
            chosen = [0] * len(rerolled)
            ways = 1
            for slots, (pick, multiplicity) in zip(group_list, picks, strict=True):
                ways *= multiplicity
                for slot, c in zip(slots, pick, strict=True):
                    w, v = per_die[slot][c]
                    ways *= w
                    chosen[slot] = v
            evaluate(tuple(chosen), ways)
        evaluated, denominator = combos, total
    else:
        drawn: dict[tuple[int, ...], int] = {}
        for _ in range(MAX_SAMPLED):
            sample = tuple(rep_of[slot][min(roll(me.dice[i], rng), cap + 1)]
                           for slot, i in enumerate(rerolled))
            drawn[sample] = drawn.get(sample, 0) + 1
        for drawn_values, count in drawn.items():
            evaluate(drawn_values, count)
        evaluated, denominator = len(drawn), MAX_SAMPLED
    out = []
    for captures, (ways, best, values) in sorted(tally.items(), key=lambda kv: (-kv[1][0], kv[0])):
        if best is None:
            out.append(Reply((), 0, Fraction(ways, denominator), None, "pass"))
        else:
            shown = with_values(after, mover, dict(zip(rerolled, values, strict=True)))
            attack = _attack(best[2], shown)
            out.append(Reply(captures, best[1], Fraction(ways, denominator), attack, describe(shown, attack)))
        if len(out) >= TOP_REPLIES:
            break
    return _ReplyStats(Fraction(weighted, denominator), Fraction(passes, denominator), tuple(out), evaluated,
                       exact)


# ------------------------------------------------------------------------------------------ simulation


def win_estimate(after: Position, player: int, rerolled: Sequence[int], rng: random.Random, *,
                 rounds: int | None = None, turns: int = 0) -> WinEstimate:
    """Round wins of ``player`` in rounds played from ``after``, the attackers re-rolled first.

    ``rounds``: exactly that many; else whole rounds until ``turns`` turns are played (at least
    :data:`MIN_SIMULATIONS` rounds), so long rounds get fewer simulations and the time stays bounded.
    """
    wins = ties = played = spent = 0
    base = playout.from_position(after)
    mine = list(base.dice[player])
    while (played < rounds) if rounds is not None else (spent < turns or played < MIN_SIMULATIONS):
        for i in rerolled:
            _, sides, bits, has = mine[i]
            mine[i] = (playout.roll(sides, rng), sides, bits, has)
        dice = (tuple(mine), base.dice[1]) if player == 0 else (base.dice[0], tuple(mine))
        winner, took = playout.playout(playout.Round(dice, base.banked, base.to_move, base.passes), rng)
        played += 1
        spent += took
        if winner == player:
            wins += 1
        elif winner is None:
            ties += 1
    return WinEstimate(wins, ties, played)


# ---------------------------------------------------------------------------------------------- advise


def advise(position: Position, *, seed: int = 0, simulations: int | None = None) -> Advice:
    """The advice for every legal attack of the player to move (see the module docstring).

    ``simulations``: the Monte Carlo rounds per attack (0..:data:`MAX_SIMULATIONS`, and at most
    :data:`MAX_TOTAL_SIMULATIONS` over all attacks); None (the default) shares :data:`TURN_BUDGET`
    turns among the attacks, which keeps the heaviest roster positions under 200 ms.
    Raises ``InvalidInput`` for a position with an unknown die size or bad arguments, and
    ``IllegalAction`` when the round is over.
    """
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidInput(f"the seed must be an integer, not {seed!r}")
    if simulations is not None and (isinstance(simulations, bool) or not isinstance(simulations, int)
                                    or not 0 <= simulations <= MAX_SIMULATIONS):
        raise InvalidInput(f"simulations must be an integer 0..{MAX_SIMULATIONS}, not {simulations!r}")
    _check(position)
    attacks = list(generate_attacks(position))
    if simulations is not None and simulations * len(attacks) > MAX_TOTAL_SIMULATIONS:
        raise InvalidInput(f"{simulations} simulations for each of {len(attacks)} attacks is more than "
                           f"{MAX_TOTAL_SIMULATIONS} rounds; ask for at most "
                           f"{MAX_TOTAL_SIMULATIONS // len(attacks)}")
    mover = position.to_move
    before = scores(position)
    assert before is not None
    changes = []
    for attack in attacks:
        now = scores(apply(position, attack))
        assert now is not None
        changes.append((now[mover] - before[mover], now[1 - mover] - before[1 - mover]))
    ranked = sorted(range(len(attacks)), key=lambda k: changes[k][1] - changes[k][0])
    analysed = set(ranked[:MAX_ANALYSED])
    turns = TURN_BUDGET // max(1, len(analysed))
    singles = _Singles()
    out = []
    for index, attack in enumerate(attacks):
        points = changes[index]
        common = {"attack": attack, "text": describe(position, attack), "score_change": points[0] - points[1],
                  "points": points, "rerolled": attack.attackers}
        after = apply(position, attack)
        outcomes = math.prod(faces(after.players[mover].dice[i]) for i in attack.attackers)
        if index not in analysed:
            out.append(AttackAdvice(**common, outcomes=outcomes, analysed=False))  # type: ignore[arg-type]
            continue
        rng = random.Random(seed * 1_000_003 + index)
        stats = _reply_stats(after, mover, attack.attackers, singles, rng)
        win = win_estimate(after, mover, attack.attackers, rng, rounds=simulations, turns=turns)
        out.append(AttackAdvice(
            **common, outcomes=outcomes, analysed=True,  # type: ignore[arg-type]
            classes=stats.classes, exact=stats.exact, expected_reply=stats.expected,
            pass_probability=stats.pass_probability, replies=stats.replies, win=win))
    return Advice(position, seed, simulations, tuple(out))


# ------------------------------------------------------------------------------------------------ JSON


def _number(value: Fraction) -> float:
    return round(float(value), 6)


def _dice_names(dice: Sequence[Die], indices: Sequence[int], *, values: bool) -> str:
    """``"d6 #2 (4) + d8"``: each die by size, which of that size when there are several, and its value."""
    words = []
    for i in indices:
        die = dice[i]
        same = [j for j, d in enumerate(dice) if d.size_text() == die.size_text()]
        nth = f" #{same.index(i) + 1}" if len(same) > 1 else ""
        words.append(f"{die.size_text()}{nth}" + (f" ({die.value})" if values else ""))
    return " + ".join(words)


def _reply_json(reply: Reply, after: Position, rerolled: Sequence[int]) -> dict[str, object]:
    """A reply, with its words: the opponent's dice with their values, the mover's without (re-rolled)."""
    out: dict[str, object] = {
        "captures": list(reply.captures), "gain": reply.gain,
        "probability": _number(reply.probability), "probability_exact": str(reply.probability),
    }
    if reply.example is None:
        out.update(attack=None, message={"key": "bg.advice.reply_pass", "params": {},
                                         "text": "the opponent has no attack and passes"})
        return out
    attack = reply.example
    attackers = _dice_names(after.mover.dice, attack.attackers, values=True)
    mine = after.opponent.dice
    targets = " + ".join(_dice_names(mine, (j,), values=j not in rerolled) for j in attack.targets)
    out["attack"] = {"type": attack.kind, "attackers": list(attack.attackers),
                     "targets": list(attack.targets), "fire": attack.fire_points(after)}
    out["message"] = {"key": "bg.advice.reply", "params": {"kind": attack.kind, "attackers": attackers,
                                                           "targets": targets},
                      "text": f"{attack.kind}: their {attackers} takes your {targets}"}
    return out


def to_json(advice: Advice) -> dict[str, object]:
    """The advice as the JSON ``goblin-companion button-goblin advise`` prints (see ``docs/cli.md``)."""
    position = advice.position
    best = advice.best
    attacks = []
    for item in advice.attacks:
        entry: dict[str, object] = {
            "attack": {"type": item.attack.kind, "attackers": list(item.attack.attackers),
                       "targets": list(item.attack.targets), "fire": item.attack.fire_points(position)},
            "text": item.text,
            "score_change": item.score_change,
            "points": list(item.points),
            "rerolled": list(item.rerolled),
            "outcomes": item.outcomes,
            "analysed": item.analysed,
            "best": item is best,
        }
        if item.analysed and item.expected_reply is not None and item.pass_probability is not None \
                and item.expected_net is not None and item.win is not None:
            after = apply(position, item.attack)
            low, high = item.win.interval
            entry["expected_net"] = _number(item.expected_net)
            entry["expected_net_exact"] = str(item.expected_net)
            entry["reply"] = {
                "expected_gain": _number(item.expected_reply),
                "expected_gain_exact": str(item.expected_reply),
                "pass_probability": _number(item.pass_probability),
                "pass_probability_exact": str(item.pass_probability),
                "exact": item.exact,
                "classes": item.classes,
                "likeliest": [_reply_json(r, after, item.rerolled) for r in item.replies],
            }
            entry["win"] = {"probability": round(item.win.probability, 4), "low": round(low, 4),
                            "high": round(high, 4), "ties": item.win.ties, "wins": item.win.wins,
                            "simulations": item.win.simulations}
        attacks.append(entry)
    return {
        "position": position.format(),
        "player": position.to_move,
        "name": position.mover.name,
        "policy": POLICY,
        "seed": advice.seed,
        "simulations": advice.simulations,
        "turn_budget": TURN_BUDGET if advice.simulations is None else None,
        "must_pass": advice.must_pass,
        "attacks": attacks,
    }
