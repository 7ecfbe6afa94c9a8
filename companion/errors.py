"""The one error hierarchy of the companion.

Every error the rules cores, the session or the command lines raise on bad input is a ``GoblinError``,
and also the built-in it behaves like, so callers may catch either. Messages quote the bad input.

- ``InvalidInput``: the input is malformed (syntax, types, a value outside its range).
- ``IllegalAction``: the input is well formed but the rules forbid it in this position.
- ``AmbiguousAction``: the input could mean more than one thing; the players must say which.
"""

from __future__ import annotations


class GoblinError(Exception):
    """Root of every error the companion raises on purpose."""


class InvalidInput(GoblinError, ValueError):
    """Malformed input: bad syntax, a wrong type, a value out of range."""


class IllegalAction(GoblinError, ValueError):
    """A well-formed action that the rules do not allow in the current position."""


class AmbiguousAction(GoblinError, ValueError):
    """An input that matches more than one reading; the players must choose."""
