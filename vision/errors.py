"""Errors of the vision package: plain ``ValueError`` subclasses (vision depends on nothing of ours).

``companion`` callers may catch ``ValueError``; the ``scan`` command turns them into error lines.
"""

from __future__ import annotations


class InvalidVisionInput(ValueError):
    """An argument the vision functions cannot use; the message names the argument and quotes it."""
