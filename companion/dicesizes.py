"""The sizes of the common polyhedral dice: those the camera types, the page offers and the games ask for."""

from __future__ import annotations

from typing import Final

DIE_SIDES: Final = (4, 6, 8, 10, 12, 20)
"""d4, d6, d8, d10, d12 and d20, smallest first."""
