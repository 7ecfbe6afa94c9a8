"""The one registry of the games the companion referees: ``find_game(name)`` and ``find_rules(name)``.

Each game is a package under ``companion/`` (see ``docs/new-game.md``): ``<package>.rules`` has its
``RULES`` (``companion.rules.Rules``), ``<package>.flow`` its table flow ``FLOW`` (``companion.flow``)
and ``<package>.cli`` its command line ``main``. The session, the command line (``companion.cli``),
the setup page and the API's list of games are all derived from ``GAMES``; a game's modules are imported
only when it is asked for.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.errors import InvalidInput
from companion.flow import Flow
from companion.messages import Message

if TYPE_CHECKING:
    from companion.rules import Rules


@dataclass(frozen=True)
class GameEntry:
    """Where a game lives, and what its command line does (the help line of ``goblin-companion``)."""

    package: str
    command: str


GAMES: dict[str, GameEntry] = {
    "button-goblin": GameEntry("companion.button_goblin", "Button Goblin: analyze or apply a position"),
    "dadoteck": GameEntry("companion.dadoteck", "Dadoteck: referee a state and an event"),
    "gobcon": GameEntry("companion.gobcon", "GobCon: referee a state and an event"),
    "goblins": GameEntry("companion.goblins", "Goblins: Epic Death: referee a state and an event"),
    "skirmish": GameEntry("companion.skirmish", "Skirmish rules: referee a state and an event"),
}


def available_games() -> list[str]:
    """Names of the games whose flow can be imported."""
    names = []
    for name, entry in GAMES.items():
        try:
            importlib.import_module(f"{entry.package}.flow")
        except ModuleNotFoundError:
            continue
        names.append(name)
    return names


def _entry(name: str) -> GameEntry:
    if name not in GAMES:
        text = f"unknown game {name!r}; one of: {', '.join(GAMES)}"
        raise InvalidInput(Message("error.input.unknown_game", text,
                                   {"value": repr(name), "options": ", ".join(GAMES)}))
    return GAMES[name]


def find_game(name: str) -> Flow[Any]:
    """The table flow of the game called ``name`` (e.g. ``"button-goblin"``)."""
    flow: Flow[Any] = importlib.import_module(f"{_entry(name).package}.flow").FLOW
    return flow


def find_rules(name: str) -> Rules[Any, Any]:
    """The rules (``companion.rules.Rules``) of the game called ``name``."""
    rules: Rules[Any, Any] = importlib.import_module(f"{_entry(name).package}.rules").RULES
    return rules
