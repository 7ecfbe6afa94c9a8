"""A phone as the table's camera: ``POST /api/photo``.

The body is the photo itself, raw (``Content-Type: image/jpeg``, ``image/png`` or ``image/webp``), not a
multipart form: a form is what another site's page may post without the table's consent, while an
``image/*`` body from another site needs a CORS preflight the table never grants (``web.guard`` takes
these types on this endpoint only). The table PIN goes in the ``X-Table-PIN`` header, the step and
position the page showed in the query (``?step=3&position=...``).

The view calls one ``companion.photos.PhotoDesk`` method, which reads the photo on the vision worker
and answers the snapshot with the new proposal. Without a desk (an app built without the vision worker)
the endpoint answers 404 ``not-found``.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, request

from companion.errors import InvalidInput
from web.api import check_pin, part
from web.guard import PHOTO_PATH, PHOTO_TYPES

bp = Blueprint("photo", __name__, url_prefix="/api")

EXTENSION = "goblin.photos"
"""``app.extensions[EXTENSION]`` holds the ``PhotoDesk`` (or None)."""

__all__ = ["EXTENSION", "PHOTO_PATH", "PHOTO_TYPES", "bp"]


def desk() -> Any:
    return part(EXTENSION, "this table takes no photos from phones (it was started without a vision worker)")


def _query_step() -> tuple[int | None, str | None]:
    raw = request.args.get("step")
    step = None
    if raw is not None:
        if not raw.isascii() or not raw.lstrip("-").isdigit() or len(raw) > 12:
            raise InvalidInput(f"step must be an integer, not {raw[:40]!r}")
        step = int(raw)
    position = request.args.get("position")
    if position is not None and len(position) > 200:
        raise InvalidInput("position is longer than a snapshot's position can be")
    return step, position


@bp.post("/photo")
def photo() -> tuple[Response, int]:
    taker = desk()
    taker.check_size(request.content_length)  # 413 before a byte of the body is read
    step, position = _query_step()
    check_pin({})
    request.max_content_length = taker.max_bytes  # a body with no Content-Length is cut here too
    result = taker.submit(request.get_data(cache=False), step=step, position=position)
    return jsonify(result), 202 if result["photo"]["pending"] else 200
