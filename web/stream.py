"""Live updates: ``/api/stream`` pushes the snapshot as Server-Sent Events whenever it changes.

The first event is the current snapshot; then each ``session.wait_for_change`` that returns a newer
version sends one ``state`` event. Comment lines (``: ping``) keep idle connections alive and let the
server notice a phone that went away. After ``SSE_MAX_SECONDS`` the stream ends and the browser's
EventSource reconnects by itself (``retry`` hint), so no server thread is held forever; and
``stop_streams(app)`` ends them all within half a second when the server is about to stop.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any, Final

from flask import Blueprint, Flask, Response, current_app

bp = Blueprint("stream", __name__, url_prefix="/api")

STOP: Final = "goblin.stop-streams"
"""``app.extensions[STOP]``: a ``threading.Event`` that ends every live stream (see :func:`stop_streams`)."""
WAKE: Final = 0.5
"""Seconds a stream waits at most before it checks whether the server is stopping."""


def _event(snapshot: Any) -> str:
    data = json.dumps(snapshot, separators=(",", ":"))  # ASCII: a stored lone surrogate cannot break it
    return f"event: state\nid: {snapshot.get('version', '')}\ndata: {data}\n\n"


def events(
    session: Any, *, heartbeat: float, limit: float, stop: threading.Event | None = None
) -> Iterator[str]:
    """The SSE text of one live connection (ends after ``limit`` seconds, or soon after ``stop`` is set)."""
    now = time.monotonic()
    deadline, next_ping = now + limit, now + heartbeat
    yield "retry: 1000\n\n"
    snapshot = session.snapshot()
    version = int(snapshot["version"])
    yield _event(snapshot)
    while stop is None or not stop.is_set():
        now = time.monotonic()
        if now >= deadline:
            return
        # wait in short slices so a server that stops is not held up by an idle phone
        seen = session.wait_for_change(version, max(0.0, min(WAKE, next_ping - now, deadline - now)))
        if seen > version:
            snapshot = session.snapshot()
            version = int(snapshot["version"])
            yield _event(snapshot)
            next_ping = time.monotonic() + heartbeat
        elif time.monotonic() >= next_ping:
            yield ": ping\n\n"
            next_ping = time.monotonic() + heartbeat


def stop_streams(app: Flask) -> None:
    """End every open live stream within ``WAKE`` seconds (call before stopping the server)."""
    app.extensions[STOP].set()


@bp.get("/stream")
def stream() -> Response:
    session = current_app.extensions["goblin"]
    heartbeat = float(current_app.config["SSE_HEARTBEAT"])
    limit = float(current_app.config["SSE_MAX_SECONDS"])
    stop = current_app.extensions[STOP]
    response = Response(events(session, heartbeat=heartbeat, limit=limit, stop=stop),
                        mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response
