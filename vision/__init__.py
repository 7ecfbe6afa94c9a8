"""Pure functions from images to readings: dice (sides, value, confidence), goblin tokens (alive or
dead), whether the table has settled, and how sharp the picture is. Images are BGR uint8 arrays of shape
(H, W, 3). No camera code lives here: frames come from ``hardware`` (or from files) and are never
modified.

>>> from vision import read_table, Zones
>>> import numpy as np
>>> read_table(np.zeros((480, 640, 3), np.uint8)).to_json()
{'width': 640, 'height': 480, 'dice': [], 'tokens': []}
"""

from vision.errors import InvalidVisionInput
from vision.focus import Focus, sharpness
from vision.reading import Die, TableReading, Token
from vision.settle import SettleState, settle_step, still_mean
from vision.table import annotate, read_table
from vision.teach import Calibration
from vision.zones import Zones

__all__ = [
    "Calibration",
    "Die",
    "Focus",
    "InvalidVisionInput",
    "SettleState",
    "TableReading",
    "Token",
    "Zones",
    "annotate",
    "read_table",
    "settle_step",
    "sharpness",
    "still_mean",
]
