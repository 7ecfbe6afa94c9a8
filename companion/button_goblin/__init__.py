"""Button Goblin: the rules core (``core``), the roster (``roster``), the command line (``cli``) and the
table flow (``flow``)."""

from companion.button_goblin.core import (
    PASS,
    Attack,
    Die,
    Initiative,
    LegalAttacks,
    MatchOutcome,
    Player,
    Position,
    RoundOutcome,
    apply,
    initiative,
    match_outcome,
    rerolls,
    round_outcome,
    scores,
    with_values,
)
from companion.button_goblin.roster import BUTTONS, ROSTER, Button, DieSpec, find_button, parse_recipe

__all__ = [
    "BUTTONS",
    "PASS",
    "ROSTER",
    "Attack",
    "Button",
    "Die",
    "DieSpec",
    "Initiative",
    "LegalAttacks",
    "MatchOutcome",
    "Player",
    "Position",
    "RoundOutcome",
    "apply",
    "find_button",
    "initiative",
    "match_outcome",
    "parse_recipe",
    "rerolls",
    "round_outcome",
    "scores",
    "with_values",
]
