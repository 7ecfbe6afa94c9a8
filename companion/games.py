"""The registry of games the table session can referee: ``find_game(name)``.

Each game's package exposes its table flow (see ``companion.flow``) as ``FLOW`` in ``<package>.flow``;
it is imported only when the game is asked for.
"""

from __future__ import annotations

import importlib
from typing import Any

from companion.errors import InvalidInput
from companion.flow import Flow
from companion.messages import Message

GAMES: dict[str, str] = {
    "button-goblin": "companion.button_goblin.flow",
    "dadoteck": "companion.dadoteck.flow",
    "gobcon": "companion.gobcon.flow",
    "goblins": "companion.goblins.flow",
    "skirmish": "companion.skirmish.flow",
}


def available_games() -> list[str]:
    """Names of the games whose flow can be imported."""
    names = []
    for name, module in GAMES.items():
        try:
            importlib.import_module(module)
        except ModuleNotFoundError:
            continue
        names.append(name)
    return names


def find_game(name: str) -> Flow[Any]:
    """The table flow of the game called ``name`` (e.g. ``"button-goblin"``)."""
    if name not in GAMES:
        text = f"unknown game {name!r}; one of: {', '.join(GAMES)}"
        raise InvalidInput(Message("error.input.unknown_game", text,
                                   {"value": repr(name), "options": ", ".join(GAMES)}))
    flow: Flow[Any] = importlib.import_module(GAMES[name]).FLOW
    return flow
