"""Percentile rolls: a percentile d10 ("00" .. "90") and a plain d10 ("1" .. "0") rolled together read as one
result from 1 to 100, for the games that ask for it.

The tens die gives 0, 10, .., 90 (its "00" face is 0) and the units die 1 .. 10 (its "0" face is 10, as
``vision.reading.Die`` reports it); the result is ``tens + units % 10``, and "00" with "0" is 100 (the usual
reading: 00 + 0 is a hundred, not zero).

Pairs are made in the same zone, nearest first: each percentile die takes the closest plain d10 not yet
taken. A percentile die with no plain d10 in its zone, or a plain d10 with none, stays unpaired. A pair's
confidence is the lower of its two dice's; a die whose value is unread gives no result (``value=None``),
so the players are asked.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from vision.reading import Die


@dataclass(frozen=True, slots=True)
class PercentileRoll:
    """One 1-100 result: the percentile die (tens), the plain d10 (units) and what they read together."""

    tens: Die
    units: Die
    value: int | None
    confidence: float

    def to_json(self) -> dict[str, Any]:
        return {"value": self.value, "confidence": round(float(self.confidence), 3),
                "tens": self.tens.to_json(), "units": self.units.to_json()}


def percentile_value(tens: int | None, units: int | None) -> int | None:
    """``tens`` in 0, 10, .., 90 and ``units`` in 1 .. 10 as one result 1 .. 100; None if either is unread
    or not a face of its die."""
    if tens is None or units is None or tens not in range(0, 100, 10) or units not in range(1, 11):
        return None
    value = tens + units % 10
    return 100 if value == 0 else value


def _centre(d: Die) -> tuple[float, float]:
    x, y, w, h = d.bbox
    return x + w / 2, y + h / 2


def percentile_rolls(dice: Sequence[Die]) -> list[PercentileRoll]:
    """The percentile rolls among ``dice`` (any order), nearest pairs first; bounded by len(dice) ** 2."""
    tens = [d for d in dice if d.percentile]
    units = [d for d in dice if d.sides == 10 and not d.percentile]
    pairs = sorted(((math.dist(_centre(t), _centre(u)), i, j) for i, t in enumerate(tens)
                    for j, u in enumerate(units) if t.zone == u.zone))
    used_t: set[int] = set()
    used_u: set[int] = set()
    out = []
    for _, i, j in pairs:
        if i in used_t or j in used_u:
            continue
        used_t.add(i)
        used_u.add(j)
        t, u = tens[i], units[j]
        out.append(PercentileRoll(t, u, percentile_value(t.value, u.value), min(t.confidence, u.confidence)))
    return sorted(out, key=lambda r: _centre(r.tens)[0])
