"""Goblin Companion: the rules cores of five tabletop games and the table session that referees them.

The rules cores (one module or package per game) are pure: no I/O, no clock, no randomness they are not
given. Positions are immutable values and actions are explicit objects.
"""

__version__ = "0.1.0"
