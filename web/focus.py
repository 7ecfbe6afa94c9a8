"""The focus aid from the settings page: ``GET /api/focus`` (``companion.focus.FocusMeter.state``: the
camera's latest frame's sharpness figure, the page keeps the best it has seen). Read-only: no PIN. Without
a meter (an app built without a camera) it answers 404 ``not-found`` saying so.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify

from web.api import part

bp = Blueprint("focus", __name__, url_prefix="/api")

EXTENSION = "goblin.focus"
"""``app.extensions[EXTENSION]`` holds the ``companion.focus.FocusMeter`` (None: a table with no camera)."""


@bp.get("/focus")
def focus() -> Response:
    meter = part(EXTENSION, "this companion has no camera to focus (it was started without one)")
    response = jsonify(meter.state())
    response.headers["Cache-Control"] = "no-store"
    return response
