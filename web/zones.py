"""The tray's zones from the phone: ``GET /api/zones``, ``POST /api/zones``, ``POST /api/zones/tray``,
``POST /api/zones/reset``.

Views call one ``companion.zones.ZoneKeeper`` method each; the POSTs are control actions (the table
PIN when one is set). ``POST /api/zones`` takes ``{"preset": "left-right" | "right-left" | "top-bottom"
| "bottom-top", "toss": false}`` or ``{"zones": {"p0": [[x, y], ...], ...}}``; ``POST /api/zones/tray``
takes ``{"tray": [[x, y], ...]}`` (only what lies inside is read) or ``{"tray": null}`` (``camera.tray``
again). Without a keeper (an app built without a camera) every endpoint answers 404 ``not-found`` saying
so.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify

from companion.errors import InvalidInput
from web.api import control, part

bp = Blueprint("zones", __name__, url_prefix="/api")

EXTENSION = "goblin.zones"
"""``app.extensions[EXTENSION]`` holds the ``ZoneKeeper`` (or None)."""


def keeper() -> Any:
    return part(EXTENSION, "this companion sets no zones from the page "
                           "(it was started without a zone keeper)")


@bp.get("/zones")
def zones() -> Response:
    return jsonify(keeper().state())


@bp.post("/zones")
@control
def set_zones(data: dict[str, Any]) -> Response:
    if "zones" in data:
        if "preset" in data:
            raise InvalidInput("give \"preset\" or \"zones\", not both")
        return jsonify(keeper().set(data["zones"]))
    if "preset" not in data:
        raise InvalidInput("the body needs \"preset\" (left-right, right-left, top-bottom, bottom-top) "
                           "or \"zones\": {\"p0\": [[x, y], ...], ...}")
    return jsonify(keeper().choose(data["preset"], data.get("toss", False)))


@bp.post("/zones/tray")
@control
def set_tray(data: dict[str, Any]) -> Response:
    if "tray" not in data:
        raise InvalidInput("the body needs \"tray\": [[x, y], ...] (fractions of the picture), or null for "
                           "the configured one")
    return jsonify(keeper().set_tray(data["tray"]))


@bp.post("/zones/reset")
@control
def reset(data: dict[str, Any]) -> Response:
    return jsonify(keeper().reset())
