"""Readings for tests: a flow's ``propose`` takes the camera's typed ``TableReading``."""

from __future__ import annotations

from typing import Any

from companion.reading import TableReading


def camera(obj: dict[str, Any]) -> TableReading:
    """The reading vision would make of a test's short JSON: what the test leaves out gets vision's usual
    values (a 640x480 frame, boxes left to right in the order given, confidence 0), then
    ``TableReading.from_json`` reads it as it reads any reading given as JSON."""
    full = {"width": 640, "height": 480, **obj}
    for key in ("dice", "tokens"):
        if isinstance(full.get(key), list):
            full[key] = [{"bbox": [10 + 40 * n, 10, 30, 30], "confidence": 0.0, **item}
                         if isinstance(item, dict) else item for n, item in enumerate(full[key])]
    return TableReading.from_json(full)
