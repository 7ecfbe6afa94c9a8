"""The camera's turn from the phone: ``GET /api/camera/turn``, ``POST /api/camera/turn``.

Views call one ``companion.turn.TurnKeeper`` method each; the POST is a control action (the table PIN when
one is set). ``GET`` answers ``{"turn": 0 | 90 | 180 | 270, "source": "page" | "config", "camera": bool,
...}``;
``POST`` takes ``{"turn": 0 | 90 | 180 | 270}`` (kept, and the camera's picture turns from its next frame)
or ``{"turn": null}`` (``camera.turn`` again) and answers the new state. A table with no camera refuses the
POST (409 ``no-camera``). Without a keeper (an app built without one) both answer 404 ``not-found``.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify

from companion.errors import InvalidInput
from web.api import control, part

bp = Blueprint("turn", __name__, url_prefix="/api")

EXTENSION = "goblin.turn"
"""``app.extensions[EXTENSION]`` holds the ``TurnKeeper`` (or None)."""


def keeper() -> Any:
    return part(EXTENSION, "this companion sets no camera turn from the page "
                           "(it was started without a turn keeper)")


@bp.get("/camera/turn")
def turn() -> Response:
    return jsonify(keeper().state())


@bp.post("/camera/turn")
@control
def set_turn(data: dict[str, Any]) -> Response:
    if "turn" not in data:
        raise InvalidInput("the body needs \"turn\": 0, 90, 180 or 270 (degrees clockwise), or null for "
                           "the configured one")
    return jsonify(keeper().set(data["turn"]))
