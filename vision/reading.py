"""Frozen readings: what the camera saw in one frame."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

BBox = tuple[int, int, int, int]   # x, y, w, h in frame pixels, top-left origin
TokenFace = Literal["alive", "dead"]


@dataclass(frozen=True, slots=True)
class Die:
    """One die: its box, sides (6 for a pip d6, ``None`` if unknown), value (``None`` if unread).

    ``percentile`` marks a percentile d10 (sides 10, value 0, 10, .., 90; its "00" face is 0); a plain
    d10's "0" face is value 10. JSON carries ``"percentile": true`` only for such a die."""

    bbox: BBox
    sides: int | None
    value: int | None
    confidence: float
    zone: str
    percentile: bool = False

    def to_json(self) -> dict[str, Any]:
        out = {"bbox": list(self.bbox), "sides": self.sides, "value": self.value,
               "confidence": round(float(self.confidence), 3), "zone": self.zone}
        if self.percentile:
            out["percentile"] = True
        return out


@dataclass(frozen=True, slots=True)
class Token:
    """One token: its box and face (``"alive"``, ``"dead"`` or ``None`` when not recognised)."""

    bbox: BBox
    face: str | None
    confidence: float
    zone: str

    def to_json(self) -> dict[str, Any]:
        return {"bbox": list(self.bbox), "face": self.face, "confidence": round(float(self.confidence), 3),
                "zone": self.zone}


@dataclass(frozen=True, slots=True)
class TableReading:
    """Everything read in one frame of ``width`` x ``height`` pixels."""

    width: int
    height: int
    dice: tuple[Die, ...] = field(default=())
    tokens: tuple[Token, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        return {"width": self.width, "height": self.height, "dice": [d.to_json() for d in self.dice],
                "tokens": [t.to_json() for t in self.tokens]}

    def count_tokens(self) -> dict[str, int]:
        """How many tokens show each face (``"unknown"`` for unrecognised ones)."""
        out: dict[str, int] = {}
        for t in self.tokens:
            key = t.face or "unknown"
            out[key] = out.get(key, 0) + 1
        return out

    def values(self) -> list[int | None]:
        """Dice values, left to right."""
        return [d.value for d in sorted(self.dice, key=lambda d: d.bbox[0])]
