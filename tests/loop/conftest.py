"""Fixtures for the loop tests: gpiozero's MockFactory, a clock for the buttons, a still-tray detector."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Still:
    """Settle state of :func:`still`: settled after two frames equal to the one before."""

    settled: bool
    same: int
    last: Any


def still(state: Still | None, frame: np.ndarray) -> Still:
    """A settle step for replayed photos (equal frames mean a still tray)."""
    if state is None or state.last.shape != frame.shape or not np.array_equal(state.last, frame):
        return Still(False, 0, frame)
    return Still(state.same + 1 >= 2, state.same + 1, frame)
