"""Teach mode from the phone: ``/api/calibration``, ``/api/teach``, ``/api/calibration/forget``; and the
table's head from its confirmed photos: ``GET /api/tune`` (``companion.tuner.Tuner.state``) and
``POST /api/tune`` (start a run in the background; 409 ``tune-running`` when one runs, 409 ``too-few-photos``
when the table's set is too small); ``POST /api/tune/forget`` drops the head (the taught examples stay).

The table's calibration (which token face is alive, which is dead) is taught from the camera's latest
frame. Views call one ``companion.calibration.Calibrator`` method each; the two POSTs are control
actions (the table PIN when one is set). Without a calibrator (an app built without a camera) every
endpoint answers 404 ``not-found`` saying so.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify

from companion.errors import InvalidInput
from web.api import control, part

bp = Blueprint("calibration", __name__, url_prefix="/api")

EXTENSION = "goblin.calibration"
"""``app.extensions[EXTENSION]`` holds the ``Calibrator`` (or None)."""
TUNER = "goblin.tuner"
"""``app.extensions[TUNER]`` holds the ``companion.tuner.Tuner`` (or None)."""


def calibrator() -> Any:
    return part(EXTENSION, "this companion has no camera calibration (it was started without a calibrator)")


@bp.get("/calibration")
def calibration() -> Response:
    return jsonify(calibrator().state())


@bp.post("/teach")
@control
def teach(data: dict[str, Any]) -> Response:
    if "label" not in data:
        raise InvalidInput("the body needs \"label\": \"alive\" or \"dead\" for a token, a value like \"6\" "
                           "for a die face")
    return jsonify(calibrator().teach_from_camera(kind=data.get("kind", "token"), label=data["label"]))


@bp.post("/calibration/forget")
@control
def forget(data: dict[str, Any]) -> Response:
    return jsonify(calibrator().forget())


def tuner() -> Any:
    return part(TUNER, "this companion cannot tune (it was started without the table's set of photos)")


@bp.get("/tune")
def tune_state() -> Response:
    return jsonify(tuner().state())


@bp.post("/tune")
@control
def tune_start(data: dict[str, Any]) -> tuple[Response, int]:
    return jsonify(tuner().start()), 202


@bp.post("/tune/forget")
@control
def tune_forget(data: dict[str, Any]) -> Response:
    """The table's head forgotten (the taught examples stay): the tune section's state."""
    tuning = tuner()
    tuning.calibrator.drop_head()
    return jsonify(tuning.state())
