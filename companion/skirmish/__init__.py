"""The skirmish rules: rules core (``core``, ``checks``), command line (``cli``), table flow (``flow``)."""

from companion.skirmish.checks import Check, Modifier, chance_at_least
from companion.skirmish.core import (
    CARDS,
    Assault,
    Band,
    Game,
    Line,
    Model,
    Outcome,
    Roll,
    Shoot,
    apply,
    assault_check,
    event_to_json,
    parse_event,
    shooting_check,
)

__all__ = [
    "CARDS",
    "Assault",
    "Band",
    "Check",
    "Game",
    "Line",
    "Model",
    "Modifier",
    "Outcome",
    "Roll",
    "Shoot",
    "apply",
    "assault_check",
    "chance_at_least",
    "event_to_json",
    "parse_event",
    "shooting_check",
]
