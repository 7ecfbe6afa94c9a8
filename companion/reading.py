"""What the camera read in one frame, typed: the one value that travels from ``vision`` (which makes it)
through the session to a flow's ``propose``, and becomes JSON once, where it is stored and shown.

``TableReading.to_json()`` is the JSON shape ``goblin-companion scan`` prints, the event log keeps and
the page shows under ``proposal.reading``::

    {"width": 640, "height": 480,
     "dice":   [{"bbox": [x, y, w, h], "sides": 6 | null, "value": 4 | null, "confidence": 0.97,
                 "zone": "p0"}, ...],
     "tokens": [{"bbox": [...], "face": "alive" | "dead" | null, "confidence": 0.9, "zone": "toss"}, ...],
     "zones":  ["p0", "p1", "toss"],
     "light":  "burnt" | "dark"}

``TableReading.from_json`` is the other edge (a reading given as JSON: a ``--reader`` of one's own, tests),
and ``from_json(r.to_json()) == r``. The frame's size, every box and confidence are required, as vision
always gives them; a ``zone`` and ``zones`` (which the camera worker adds: the tray's zone names, so a
flow knows whether a toss zone exists) may be left out, and then stay out of the JSON. A die's ``sides``
and ``value`` are always written (``null``: not known). Only a die a person fixed on the correction page
carries ``"manual": true`` with its ``sides_confidence`` and ``value_confidence`` (1.0), and a die a person
added there (one the camera missed) also ``"added": true``. ``light`` is there only when the frame was
exposed for another light (``vision.exposure``): burnt white or dark.

``vision.reading`` re-exports these classes: vision builds them, the flows read them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Final, Literal, get_args

from companion.errors import InvalidInput
from companion.jsonvalues import present

BBox = tuple[int, int, int, int]
"""x, y, w, h in frame pixels, top-left origin."""

MAX_OBJECTS: Final = 1000
"""At most this many dice, and as many tokens, in a JSON reading (vision finds at most 150)."""

MAX_ZONES: Final = 64

Light = Literal["burnt", "dark"]
"""A frame's ``light`` when it was exposed for another light (``vision.exposure.light``)."""
LIGHTS: Final[tuple[str, ...]] = get_args(Light)


@dataclass(frozen=True, slots=True)
class Die:
    """One die: its box, sides (6 for a pip d6, ``None`` if unknown), value (``None`` if unread).

    ``percentile`` marks a percentile d10 (sides 10, value 0, 10, .., 90; its "00" face is 0); a plain
    d10's "0" face is value 10. JSON carries ``"percentile": true`` only for such a die. ``face`` is a
    printed face read by teach mode (a GobCon icon), ``manual`` a die a person fixed, ``added`` one a person
    added (the camera missed it; it is manual too)."""

    bbox: BBox
    sides: int | None
    value: int | None
    confidence: float
    zone: str | None
    percentile: bool = False
    face: str | None = None
    sides_confidence: float | None = None
    value_confidence: float | None = None
    manual: bool = False
    added: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"bbox": list(self.bbox), "sides": self.sides, "value": self.value,
                               "confidence": round(float(self.confidence), 3)}
        out.update(present(zone=self.zone, percentile=self.percentile or None, face=self.face,
                           sides_confidence=self.sides_confidence, value_confidence=self.value_confidence,
                           manual=self.manual or None, added=self.added or None))
        return out

    @classmethod
    def from_json(cls, obj: Any, where: str = "die") -> Die:
        """A die of a JSON reading; ``InvalidInput`` naming ``where`` and the field that is wrong."""
        if not isinstance(obj, Mapping):
            raise InvalidInput(f"{where} must be a JSON object, not {_short(obj)}")
        return cls(_bbox(obj, where), _count(obj, "sides", where), _count(obj, "value", where),
                   _confidence(obj, where), _text(obj, "zone", where),
                   _flag(obj, "percentile", where), _text(obj, "face", where),
                   _number(obj, "sides_confidence", where), _number(obj, "value_confidence", where),
                   _flag(obj, "manual", where), _flag(obj, "added", where))

    def fixed(self, sides: int, value: int) -> Die:
        """This die as a person corrected it: ``sides`` and ``value`` for sure, marked manual."""
        return replace(self, sides=sides, value=value, confidence=1.0, sides_confidence=1.0,
                       value_confidence=1.0, manual=True)


@dataclass(frozen=True, slots=True)
class Token:
    """One token: its box and face (``"alive"``, ``"dead"`` or ``None`` when not recognised)."""

    bbox: BBox
    face: str | None
    confidence: float
    zone: str | None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"bbox": list(self.bbox), "face": self.face,
                               "confidence": round(float(self.confidence), 3)}
        if self.zone is not None:
            out["zone"] = self.zone
        return out

    @classmethod
    def from_json(cls, obj: Any, where: str = "token") -> Token:
        if not isinstance(obj, Mapping):
            raise InvalidInput(f"{where} must be a JSON object, not {_short(obj)}")
        return cls(_bbox(obj, where), _text(obj, "face", where), _confidence(obj, where),
                   _text(obj, "zone", where))


@dataclass(frozen=True, slots=True)
class TableReading:
    """Everything read in one frame of ``width`` x ``height`` pixels, the tray's ``zones`` when the
    camera worker named them, and the frame's ``light`` when it was burnt or dark (``LIGHTS``)."""

    width: int
    height: int
    dice: tuple[Die, ...] = field(default=())
    tokens: tuple[Token, ...] = field(default=())
    zones: tuple[str, ...] | None = None
    light: Light | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"width": self.width, "height": self.height,
                               "dice": [d.to_json() for d in self.dice],
                               "tokens": [t.to_json() for t in self.tokens]}
        if self.zones is not None:
            out["zones"] = list(self.zones)
        if self.light is not None:
            out["light"] = self.light
        return out

    @classmethod
    def from_json(cls, obj: Any) -> TableReading:
        """A reading given as JSON (the shape above); ``InvalidInput`` saying what is wrong."""
        if not isinstance(obj, Mapping):
            raise InvalidInput(f"a reading is a JSON object with \"dice\" and \"tokens\", not {_short(obj)}")
        dice = _items(obj, "dice")
        tokens = _items(obj, "tokens")
        zones = obj.get("zones")
        if zones is not None and (not isinstance(zones, list) or len(zones) > MAX_ZONES
                                  or not all(isinstance(z, str) for z in zones)):
            raise InvalidInput(f"a reading's \"zones\" is a list of at most {MAX_ZONES} zone names, "
                               f"not {_short(zones)}")
        light = obj.get("light")
        if light is not None and light not in LIGHTS:
            raise InvalidInput(f"a reading's \"light\" is one of {', '.join(LIGHTS)} or absent, "
                               f"not {_short(light)}")
        return cls(_size(obj, "width"), _size(obj, "height"),
                   tuple(Die.from_json(d, f"die {n}") for n, d in enumerate(dice)),
                   tuple(Token.from_json(t, f"token {n}") for n, t in enumerate(tokens)),
                   None if zones is None else tuple(zones), light)

    def with_zones(self, zones: tuple[str, ...]) -> TableReading:
        """The same reading naming the tray's zones (kept if it already names them)."""
        return self if self.zones is not None else replace(self, zones=tuple(zones))

    def die_side(self) -> int | None:
        """The median long side (px) of its dice's boxes, or None when it has no die."""
        sides = sorted(max(d.bbox[2], d.bbox[3]) for d in self.dice)
        return sides[len(sides) // 2] if sides else None

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


# ------------------------------------------------------------------------------- the JSON edge


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _items(obj: Mapping[str, Any], key: str) -> list[Any]:
    items = obj.get(key)
    if items is None:
        return []
    if not isinstance(items, list) or len(items) > MAX_OBJECTS:
        raise InvalidInput(f"a reading's \"{key}\" is a list of at most {MAX_OBJECTS} objects, "
                           f"not {_short(items)}")
    return items


def _count(obj: Mapping[str, Any], key: str, where: str) -> int | None:
    value = obj.get(key)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidInput(f"{where}: \"{key}\" must be a whole number or null, not {_short(value)}")
    return value


def _size(obj: Mapping[str, Any], key: str) -> int:
    value = obj.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise InvalidInput(f"a reading's \"{key}\" must be the frame's size in pixels, not {_short(value)}")
    return value


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _confidence(obj: Mapping[str, Any], where: str) -> float:
    value: Any = obj.get("confidence")
    if not _is_number(value):
        raise InvalidInput(f"{where}: \"confidence\" must be a number, not {_short(value)}")
    return float(value)


def _number(obj: Mapping[str, Any], key: str, where: str) -> float | None:
    value = obj.get(key)
    if value is not None and not _is_number(value):
        raise InvalidInput(f"{where}: \"{key}\" must be a number or null, not {_short(value)}")
    return None if value is None else float(value)


def _text(obj: Mapping[str, Any], key: str, where: str) -> str | None:
    value = obj.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise InvalidInput(f"{where}: \"{key}\" must be text or null, not {_short(value)}")
    return value


def _flag(obj: Mapping[str, Any], key: str, where: str) -> bool:
    value = obj.get(key, False)
    if not isinstance(value, bool):
        raise InvalidInput(f"{where}: \"{key}\" must be true or false, not {_short(value)}")
    return value


def _bbox(obj: Mapping[str, Any], where: str) -> BBox:
    box = obj.get("bbox")
    if (not isinstance(box, list | tuple) or len(box) != 4
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in box)):
        raise InvalidInput(f"{where}: \"bbox\" must be [x, y, w, h] in whole pixels, not {_short(box)}")
    return (box[0], box[1], box[2], box[3])
