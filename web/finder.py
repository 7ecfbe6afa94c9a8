"""The table's own die finder from the settings page: ``GET /api/finder`` (which finder the table reads
with, and how many confirmed photos its set holds), ``GET /api/dataset.zip`` (the table's set, to fit a
finder on where torch is: ``tools/fit_table_finder.py``), ``POST /api/finder`` (the fitted ``.onnx`` as
the body, raw, ``Content-Type: application/octet-stream``, the PIN in ``X-Table-PIN``; checked as
``goblin-companion finder install`` checks it), ``POST /api/finder/compare`` (the table's latest photos read
with its finder and the shipped one: ``companion.tablefinder.compare``; one at a time, else 409
``compare-running``), ``POST /api/finder/fit`` (``{"minutes": M}``, optional, default 20: the shipped
finder fitted on the table's set here, in the background, and installed when it reads the held-back photos
better: ``companion.finderfit``; 409 ``fit-running`` while one runs; ``GET /api/finder``'s ``"fit"`` is its
progress, ``"last_fit"`` the card of the last, ``"fit_error"`` why the last ended without one),
``POST /api/finder/fit/stop`` (the fit under way ends at its next step, nothing installed),
``POST /api/finder/fit/install`` (the last fit left out because its held-back photos read it worse,
installed all the same: ``companion.finderfit.install_kept``) and
``POST /api/finder/forget`` (back to the shipped one).

A body that is no die finder is 400 ``invalid-input`` saying why, and the finder in use stays; over
``MAX_BYTES`` it is 413 before a byte is read. One zip is made at a time (each is a copy of the set, up to
200 MB, on the state directory's card): another download meanwhile is 429 ``too-many-requests``. Without
a ``companion.tablefinder.TableFinder`` (an app built without the table's set) every endpoint answers 404.
"""

from __future__ import annotations

import tempfile
import threading
from typing import Any

from flask import Blueprint, Response, jsonify, request, send_file
from werkzeug.exceptions import RequestEntityTooLarge, TooManyRequests

from companion.errors import InvalidInput
from companion.tablefinder import MAX_BYTES
from web.api import check_pin, control, part

bp = Blueprint("finder", __name__, url_prefix="/api")

EXTENSION = "goblin.finder"
"""``app.extensions[EXTENSION]`` holds the ``TableFinder`` (or None)."""
_ZIPPING = threading.Lock()  # held while a zip of the set is written (``dataset_zip``)


def finder() -> Any:
    return part(EXTENSION, "this companion has no table finder (it was started without the table's set)")


@bp.get("/finder")
def finder_state() -> Response:
    return jsonify(finder().state())


@bp.post("/finder")
def finder_install() -> Response:
    table = finder()
    request.max_content_length = MAX_BYTES  # the 413's limit, and a body with no Content-Length is cut there
    if request.content_length is not None and request.content_length > MAX_BYTES:
        raise RequestEntityTooLarge()
    check_pin({})
    return jsonify(table.install_bytes(request.get_data(cache=False)))


@bp.post("/finder/forget")
@control
def finder_forget(data: dict[str, Any]) -> Response:
    return jsonify(finder().forget())


@bp.post("/finder/compare")
@control
def finder_compare(data: dict[str, Any]) -> Response:
    """Seconds of reading (two readings of up to 40 photos): one at a time (409 ``compare-running``)."""
    return jsonify(finder().compare())


@bp.post("/finder/fit")
@control
def finder_fit(data: dict[str, Any]) -> Response:
    """Start fitting the finder here: minutes of the Pi's CPU, in a niced thread (the camera first)."""
    minutes = data.get("minutes")
    if minutes is not None and (isinstance(minutes, bool) or not isinstance(minutes, int | float)):
        raise InvalidInput(f"'minutes' must be a number, not {str(minutes)[:40]!r}")
    return jsonify(finder().fit(None if minutes is None else float(minutes)))


@bp.post("/finder/fit/install")
@control
def finder_fit_install(data: dict[str, Any]) -> Response:
    """The last fit made here that was left out, installed all the same (400 when there is none)."""
    return jsonify(finder().install_fit())


@bp.post("/finder/fit/stop")
@control
def finder_fit_stop(data: dict[str, Any]) -> Response:
    return jsonify(finder().cancel_fit())


@bp.get("/dataset.zip")
def dataset_zip() -> Response:
    """The set zipped into an anonymous file in the state directory (400 photos are 200 MB: not in memory),
    which the response closes, and so removes, once sent."""
    table = finder()
    if not _ZIPPING.acquire(blocking=False):  # one at a time: each is a copy of the set on the card
        raise TooManyRequests("the table's set is being zipped for another download: try again when it ends")
    try:
        table.state_dir.mkdir(parents=True, exist_ok=True)
        out = tempfile.TemporaryFile(dir=table.state_dir)  # noqa: SIM115 - send_file closes it
        try:
            table.dataset.write_zip(out)
            out.seek(0)
        except BaseException:
            out.close()
            raise
    finally:
        _ZIPPING.release()
    return send_file(out, mimetype="application/zip", as_attachment=True,
                     download_name="goblin-table-set.zip")
