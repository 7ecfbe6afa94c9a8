"""Photos of real dice that ``goblin-companion serve`` replays when there is no camera (see ATTRIBUTION.md).

Two Lobo buttons whose swing dice are all d6 play with these: each photo shows four d6 on each half.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

#: The folder of demo photos (a replay source reads every image in it, in name order).
DEMO_DIR: Final = Path(__file__).parent

#: A Button Goblin setup the demo photos fit: every die a d6 (each Lobo's d0 needs no reading).
DEMO_SETUP: Final = {"players": [
    {"name": "Anna", "button": "Lobo", "swing": {"X": 6, "W": 6, "Y": 6}},
    {"name": "Bruno", "button": "Lobo", "swing": {"X": 6, "W": 6, "Y": 6}},
]}
