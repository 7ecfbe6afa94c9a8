"""Which physical die on the table is which die of a Button Goblin recipe.

Pure. The camera reads a player's zone as a list of physical dice (sides, value, confidences, box);
the button's dice are known once the swing sizes are chosen. ``match_dice`` pairs them by type:

- a die is matched to the recipe die of its size;
- a twin die (``sides == (10, 10)``) is the two physical dice of its sizes that lie side by side, and
  its value is their sum;
- anything the camera cannot settle alone becomes a ``Question`` for the players, never a guess: a die
  whose type or value was read with low confidence, a die too many or too few of a size, two recipe
  dice of one size that differ (other skills, or one is half of a twin) with no way to tell which
  physical die is which, a swing die whose size is not chosen yet.

Dice with the same size and the same skills are interchangeable, so any assignment among them is right.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from companion.button_goblin.core import Die
from companion.errors import InvalidInput

CONFIDENT: Final = 0.8
"""Type and value confidences below this are put to the players (vision.poly.CONFIDENT)."""
PAIR_RATIO: Final = 0.6
"""Two dice are "side by side" when their distance is at most this share of any rival pairing's."""

QuestionKind = Literal["type", "value", "missing", "extra", "which", "swing"]


@dataclass(frozen=True)
class SeenDie:
    """One physical die as the camera read it; ``bbox`` is ``(x, y, w, h)`` in frame pixels."""

    sides: int | None
    value: int | None
    sides_confidence: float = 1.0
    value_confidence: float = 1.0
    bbox: tuple[int, int, int, int] | None = None

    @classmethod
    def from_json(cls, obj: Mapping[str, object]) -> SeenDie:
        """A die from a ``read_table`` reading: ``{"sides", "value", "confidence"}`` plus optional
        ``"sides_confidence"``, ``"value_confidence"`` and ``"bbox"``."""
        def number(key: str, default: float) -> float:
            raw = obj.get(key, default)
            if isinstance(raw, bool) or not isinstance(raw, int | float) or not 0 <= raw <= 1:
                raise InvalidInput(f"die {key} must be a number 0..1, not {raw!r}")
            return float(raw)

        def count(key: str) -> int | None:
            raw = obj.get(key)
            if raw is not None and (isinstance(raw, bool) or not isinstance(raw, int)):
                raise InvalidInput(f"die {key} must be an integer or null, not {raw!r}")
            return raw

        both = number("confidence", 1.0)
        raw_box = obj.get("bbox")
        box: tuple[int, int, int, int] | None = None
        if raw_box is not None:
            if (not isinstance(raw_box, list | tuple) or len(raw_box) != 4
                    or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in raw_box)):
                raise InvalidInput(f"die bbox must be [x, y, w, h], not {raw_box!r}")
            box = (int(raw_box[0]), int(raw_box[1]), int(raw_box[2]), int(raw_box[3]))
        return cls(count("sides"), count("value"), number("sides_confidence", both),
                   number("value_confidence", both), box)

    @property
    def centre(self) -> tuple[float, float] | None:
        if self.bbox is None:
            return None
        x, y, w, h = self.bbox
        return (x + w / 2, y + h / 2)


@dataclass(frozen=True)
class Question:
    """Something the players must settle: ``dice`` are indices into the reading, ``recipe`` into the
    button's dice."""

    kind: QuestionKind
    message: str
    dice: tuple[int, ...] = ()
    recipe: tuple[int, ...] = ()

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "message": self.message, "dice": list(self.dice),
                "recipe": list(self.recipe)}


@dataclass(frozen=True)
class Assigned:
    """Recipe die ``recipe`` is the physical dice ``dice`` (two for a twin); ``value`` their sum, or None
    while a part's value is in question."""

    recipe: int
    dice: tuple[int, ...]
    value: int | None


@dataclass(frozen=True)
class DiceMatch:
    assigned: tuple[Assigned, ...]
    questions: tuple[Question, ...]

    @property
    def complete(self) -> bool:
        return not self.questions

    def values(self) -> dict[int, int]:
        """Recipe die index -> value, for the dice fully read."""
        return {a.recipe: a.value for a in self.assigned if a.value is not None}

    def slot_values(self, player: int, recipe: Sequence[Die], seen: Sequence[SeenDie]) -> dict[str, int]:
        """Values keyed like the Button Goblin flow's reading slots: ``p0.3``, twins ``p0.2a`` / ``p0.2b``."""
        out: dict[str, int] = {}
        for a in self.assigned:
            parts = [s for s in recipe[a.recipe].sides or () if s > 1]
            for n, d in enumerate(a.dice):
                value = seen[d].value
                if value is None or seen[d].value_confidence < CONFIDENT:
                    continue
                suffix = "" if len(parts) == 1 else "ab"[n]
                out[f"p{player}.{a.recipe}{suffix}"] = value
        return out

    def to_json(self) -> dict[str, object]:
        assigned = [{"recipe": a.recipe, "dice": list(a.dice), "value": a.value} for a in self.assigned]
        return {"assigned": assigned,
                "questions": [q.to_json() for q in self.questions], "complete": self.complete}


def match_dice(recipe: Sequence[Die], seen: Sequence[SeenDie], *, confident: float = CONFIDENT) -> DiceMatch:
    """Match the physical dice ``seen`` in one player's zone to the button's dice ``recipe``.

    Parameters
    ----------
    recipe : the player's dice (``Die``; sizes known, a swing die whose size is unknown has sides None).
    seen : the dice read in the player's zone.
    confident : type and value confidences below this become questions.
    """
    questions: list[Question] = []
    for i, die in enumerate(recipe):
        if die.sides is None:
            questions.append(Question("swing", f"the size of die {i + 1} ({die.label}) is not chosen yet",
                                      recipe=(i,)))
    sure: dict[int, list[int]] = {}
    for d, look in enumerate(seen):
        if look.sides is None or look.sides_confidence < confident:
            guess = f"a d{look.sides}?" if look.sides is not None else "unknown"
            questions.append(Question("type", f"which die is die #{d + 1}? ({guess})", dice=(d,)))
        else:
            sure.setdefault(look.sides, []).append(d)

    # the physical dice each size needs: (recipe index, part number)
    needs: dict[int, list[tuple[int, int]]] = {}
    for i, die in enumerate(recipe):
        for n, s in enumerate(die.sides or ()):
            if s > 1:   # a d0 or d1 shows a fixed value: no physical die to read
                needs.setdefault(s, []).append((i, n))

    parts: dict[tuple[int, int], int] = {}   # (recipe index, part) -> physical die
    settled: set[int] = set()               # recipe dice whose every part found its die
    for size in sorted(set(needs) | set(sure)):
        want, have = needs.get(size, []), sure.get(size, [])
        if len(have) < len(want):
            recipe_ids = tuple(sorted({i for i, _ in want}))
            questions.append(Question("missing", f"{len(want) - len(have)} d{size} missing: the recipe has "
                                      f"{len(want)}, the camera sees {len(have)}", tuple(have), recipe_ids))
            continue
        if len(have) > len(want):
            questions.append(Question("extra", f"{len(have) - len(want)} d{size} too many: the recipe has "
                                      f"{len(want)}, the camera sees {len(have)}", tuple(have)))
            continue
        found = _assign_size(recipe, want, have, seen)
        if isinstance(found, Question):
            questions.append(found)
            continue
        parts.update(found)

    assigned = []
    for i, die in enumerate(recipe):
        keys = [(i, n) for n, s in enumerate(die.sides or ()) if s > 1]
        if die.sides is None or not all(k in parts for k in keys):
            continue
        settled.add(i)
        dice = tuple(parts[k] for k in keys)
        fixed = sum(s for s in die.sides if s <= 1)
        doubtful = [d for d in dice if seen[d].value is None or seen[d].value_confidence < confident]
        for d in doubtful:
            questions.append(Question("value", f"what does die #{d + 1} (d{seen[d].sides}, {die.label}) show?"
                                      + (f" (read {seen[d].value}?)" if seen[d].value is not None else ""),
                                      (d,), (i,)))
        value = None if doubtful else fixed + sum(int(seen[d].value or 0) for d in dice)
        assigned.append(Assigned(i, dice, value))
    return DiceMatch(tuple(assigned), tuple(questions))


def _role(die: Die) -> tuple[tuple[str, ...], tuple[int, ...] | None]:
    return (die.skills, die.sides)


def _assign_size(recipe: Sequence[Die], want: list[tuple[int, int]], have: list[int],
                 seen: Sequence[SeenDie]) -> dict[tuple[int, int], int] | Question:
    """Physical dice ``have`` (all of one size) for the recipe parts ``want`` (same count), or a question."""
    size = seen[have[0]].sides
    # physical dice in reading order, left to right: any order is right among interchangeable dice
    order = sorted(have, key=lambda d: (seen[d].centre or (0.0, 0.0), d))
    dice_ids = sorted({i for i, _ in want})
    roles = {_role(recipe[i]) for i in dice_ids}
    twins = [i for i in dice_ids if recipe[i].twin and sum(1 for j, _ in want if j == i) == 2]
    if len(roles) == 1 and not twins:
        return {key: d for key, d in zip(want, order, strict=True)}
    if len(roles) == 1 and len(dice_ids) == 1:
        return {key: d for key, d in zip(want, order, strict=True)}   # the two halves of the one twin
    singles = [i for i in dice_ids if i not in twins]
    if len({_role(recipe[i]) for i in twins}) == 1 and len({_role(recipe[i]) for i in singles}) <= 1:
        pairs = _side_by_side(order, len(twins), seen)
        if pairs is not None:
            out: dict[tuple[int, int], int] = {}
            for twin, (a, b) in zip(twins, pairs, strict=True):
                out[(twin, 0)], out[(twin, 1)] = a, b
            rest = [d for d in order if all(d not in p for p in pairs)]
            rest_keys = [(i, n) for i, n in want if i in singles]
            out.update(zip(rest_keys, rest, strict=True))
            return out
    names = ", ".join(f"{i + 1} ({recipe[i].label})" for i in dice_ids)
    return Question("which", f"which d{size} is which? the recipe has {names}", tuple(order), tuple(dice_ids))


def _side_by_side(dice: list[int], twins: int, seen: Sequence[SeenDie]) -> list[tuple[int, int]] | None:
    """The ``twins`` pairs of dice lying side by side, when the closest pairing clearly beats the others."""
    centres = [seen[d].centre for d in dice]
    if any(c is None for c in centres):
        return None
    if len(dice) == 2 * twins and twins == 1:
        return [(dice[0], dice[1])]

    def dist(a: int, b: int) -> float:
        ca, cb = centres[a], centres[b]
        assert ca is not None and cb is not None
        return math.dist(ca, cb)

    scored = []
    for chosen in itertools.combinations(range(len(dice)), 2 * twins):
        for pairing in _pairings(list(chosen)):
            scored.append((max(dist(a, b) for a, b in pairing), pairing))
    scored.sort(key=lambda s: s[0])
    best, pairing = scored[0]
    rival = next((cost for cost, p in scored[1:] if set(p) != set(pairing)), math.inf)
    if best > PAIR_RATIO * rival:
        return None
    return [(dice[a], dice[b]) for a, b in pairing]


def _pairings(items: list[int]) -> list[list[tuple[int, int]]]:
    if not items:
        return [[]]
    first, rest = items[0], items[1:]
    out = []
    for k, other in enumerate(rest):
        for tail in _pairings(rest[:k] + rest[k + 1:]):
            out.append([(first, other), *tail])
    return out
