"""Pure functions from images to readings: dice (sides, value, confidence), goblin tokens (alive or
dead), and whether the table has settled. Images are BGR uint8 arrays of shape (H, W, 3). No camera code
lives here: frames come from ``hardware`` (or from files) and are never modified.
"""
