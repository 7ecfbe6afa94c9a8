"""Frozen readings: what the camera saw in one frame.

The classes live in ``companion.reading`` (plain dataclasses, no dependencies): the reading ``vision``
makes is the very object a game's flow reads, with no conversion on the way; it becomes JSON
(``to_json``) only where the table stores and shows it.
"""

from __future__ import annotations

from typing import Literal

from companion.reading import BBox, Die, TableReading, Token

TokenFace = Literal["alive", "dead"]

__all__ = ["BBox", "Die", "TableReading", "Token", "TokenFace"]
