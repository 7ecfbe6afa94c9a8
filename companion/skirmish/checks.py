"""Tests and their odds: the target number, every modifier explained, the exact chance of success.

A test (``Check``) succeeds when the dice total, plus the heroism points spent, is at least the target.
The target is the characteristic minus the modifiers that help the roll (a bonus of +1 lowers it, a
penalty of -1 raises it). There is no automatic success or failure: a target of 1 or less is certain,
and on one die a target of 7 or more is impossible unless heroism points are spent.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any, Literal, get_args

from companion.errors import InvalidInput
from companion.messages import Message

JSON = Any
CheckKind = Literal["tiro", "assalto", "salvezza", "morale", "rout", "charge", "deploy", "first"]
CHECK_KINDS: tuple[str, ...] = get_args(CheckKind)
SIDES = 6


@cache
def _totals(dice: int) -> tuple[int, ...]:
    """``counts[s]``: how many of the ``6**dice`` outcomes total ``s``."""
    counts = [1]
    for _ in range(dice):
        nxt = [0] * (len(counts) + SIDES)
        for total, ways in enumerate(counts):
            for face in range(1, SIDES + 1):
                nxt[total + face] += ways
        counts = nxt
    return tuple(counts)


def chance_at_least(target: int, dice: int = 1) -> Fraction:
    """The exact probability that ``dice`` d6 total at least ``target``."""
    counts = _totals(dice)
    hits = sum(ways for total, ways in enumerate(counts) if total >= target)
    return Fraction(hits, SIDES**dice)


@dataclass(frozen=True)
class Modifier:
    """One modifier to a roll: positive helps (+1 per extra shooter), negative hurts (cover -1)."""

    label: str
    value: int

    def __str__(self) -> str:
        return f"{self.value:+d} {self.label}"

    def to_json(self) -> JSON:
        return {"label": self.label, "value": self.value}

    @classmethod
    def from_json(cls, value: JSON) -> Modifier:
        if not isinstance(value, dict) or not isinstance(value.get("label"), str):
            raise InvalidInput(f"a modifier is {{'label': str, 'value': int}}, got {value!r}")
        v = value.get("value")
        if isinstance(v, bool) or not isinstance(v, int):
            raise InvalidInput(f"modifier value must be an integer, got {v!r}")
        return cls(value["label"], v)


@dataclass(frozen=True)
class Check:
    """A test: ``dice`` d6 (plus spent heroism) must reach ``target``."""

    kind: CheckKind
    characteristic: int
    modifiers: tuple[Modifier, ...] = ()
    dice: int = 1
    heroism: int = 0
    """Heroism points the roller may still spend on it, after seeing the roll."""
    label: str = ""
    """Who rolls and why, e.g. ``"Ugo shoots at Orco"``."""

    @property
    def target(self) -> int:
        """The total the dice must reach."""
        return self.characteristic - sum(m.value for m in self.modifiers)

    def succeeds(self, total: int, spent: int = 0) -> bool:
        return total + spent >= self.target

    def chance(self, spend: int = 0) -> Fraction:
        """The exact chance of success when ``spend`` heroism points are added to the roll."""
        return chance_at_least(self.target - spend, self.dice)

    @property
    def needs(self) -> str:
        """The target in players' words: ``"4+"``, ``"certain"``, ``"impossible"``."""
        low, high = self.dice, SIDES * self.dice
        if self.target <= low:
            return "certain"
        if self.target > high:
            return "impossible"
        return f"{self.target}+"

    def needs_message(self) -> str:
        """``needs`` as the page translates it: "certain" and "impossible" are words, "4+" is not."""
        needs = self.needs
        return Message(f"skirmish.needs.{needs}", needs) if needs in ("certain", "impossible") else needs

    def explain(self) -> str:
        """``"Tiro 4, +1 extra shooter, -1 cover: 4+ on 1d6, chance 1/2"``."""
        return str(self.explain_message())

    def explain_message(self) -> Message:
        """``explain()`` with its message key and parameters (each modifier a word the page translates)."""
        parts = [f"{self.kind} {self.characteristic}", *(str(m) for m in self.modifiers)]
        chance = self.chance()
        text = f"{', '.join(parts)}: {self.needs} on {self.dice}d6, chance {chance}"
        heroism: str = ""
        if self.heroism:
            extra = f" ({self.chance(self.heroism)} spending all {self.heroism} heroism points)"
            heroism = Message(
                "skirmish.log.check_heroism",
                extra,
                {"chance": str(self.chance(self.heroism)), "points": self.heroism},
            )
            text += extra
        modifiers = [
            Message(
                "skirmish.modifier",
                str(m),
                {"value": f"{m.value:+d}", "label": Message(f"modifier.{m.label}", m.label)},
            )
            for m in self.modifiers
        ]
        params = {
            "kind": Message(f"skirmish.kind.{self.kind}", self.kind),
            "characteristic": self.characteristic,
            "modifiers": modifiers,
            "needs": self.needs_message(),
            "dice": self.dice,
            "chance": str(chance),
            "heroism": heroism,
        }
        return Message("skirmish.log.check_modified" if modifiers else "skirmish.log.check", text, params)

    def to_json(self) -> JSON:
        return {
            "kind": self.kind,
            "characteristic": self.characteristic,
            "modifiers": [m.to_json() for m in self.modifiers],
            "dice": self.dice,
            "heroism": self.heroism,
            "label": self.label,
        }

    def describe(self) -> JSON:
        """Everything a page shows before the roll: target, modifiers, exact chances."""
        return {
            **self.to_json(),
            "target": self.target,
            "needs": self.needs,
            "chance": str(self.chance()),
            "chance_percent": round(float(self.chance()) * 100, 1),
            "chance_with_heroism": str(self.chance(self.heroism)),
            "explain": self.explain(),
        }

    @classmethod
    def from_json(cls, value: JSON) -> Check:
        if not isinstance(value, dict):
            raise InvalidInput(f"a check must be a JSON object, got {value!r}")
        kind = value.get("kind")
        if kind not in CHECK_KINDS:
            raise InvalidInput(f"check kind {kind!r} is not one of {', '.join(CHECK_KINDS)}")
        ints = {}
        for key, default in (("characteristic", None), ("dice", 1), ("heroism", 0)):
            v = value.get(key, default)
            if isinstance(v, bool) or not isinstance(v, int):
                raise InvalidInput(f"check {key!r} must be an integer, got {v!r}")
            ints[key] = v
        if not 1 <= ints["dice"] <= 3 or ints["heroism"] < 0:
            raise InvalidInput(f"check: 1 to 3 dice and no negative heroism, got {value!r}")
        mods = value.get("modifiers", [])
        if not isinstance(mods, list):
            raise InvalidInput(f"check modifiers must be a list, got {mods!r}")
        label = value.get("label", "")
        if not isinstance(label, str):
            raise InvalidInput(f"check label must be a string, got {label!r}")
        return cls(
            kind,
            ints["characteristic"],
            tuple(Modifier.from_json(m) for m in mods),
            ints["dice"],
            ints["heroism"],
            label,
        )
