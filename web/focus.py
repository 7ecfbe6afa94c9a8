"""The focus aid from the settings page: ``GET /api/focus`` (``companion.focus.FocusMeter.state``: the
camera's latest frame's sharpness figure, the page keeps the best it has seen) and ``GET /api/focus.jpg``
(the square it measures, at the camera's full resolution: ``FocusMeter.view``; 404 before a picture).
Read-only: no PIN. Without a meter (an app built without a camera) both answer 404 ``not-found`` saying so.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify
from werkzeug.exceptions import NotFound

from web.api import jpeg_response, part

bp = Blueprint("focus", __name__, url_prefix="/api")

EXTENSION = "goblin.focus"
"""``app.extensions[EXTENSION]`` holds the ``companion.focus.FocusMeter`` (None: a table with no camera)."""


def meter() -> Any:
    return part(EXTENSION, "this companion has no camera to focus (it was started without one)")


@bp.get("/focus")
def focus() -> Response:
    response = jsonify(meter().state())
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/focus.jpg")
def focus_jpg() -> Response:
    view = meter().view()
    if view is None:
        raise NotFound("the camera has no picture to show yet")
    frame_id, image = view
    return jpeg_response(image, **{"X-Frame": str(frame_id)})
