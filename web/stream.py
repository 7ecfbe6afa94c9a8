"""Live updates: ``/api/stream`` pushes the snapshot as Server-Sent Events whenever it changes.

The first event is the current snapshot; then each ``session.wait_for_change`` that returns a newer
version sends one ``state`` event. Comment lines (``: ping``) keep idle connections alive and let the
server notice a phone that went away. After ``SSE_MAX_SECONDS`` the stream ends and the browser's
EventSource reconnects by itself (``retry`` hint), so no server thread is held forever.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, current_app

bp = Blueprint("stream", __name__, url_prefix="/api")


def _event(snapshot: Any) -> str:
    data = json.dumps(snapshot, separators=(",", ":"), ensure_ascii=False)
    return f"event: state\nid: {snapshot.get('version', '')}\ndata: {data}\n\n"


def events(session: Any, *, heartbeat: float, limit: float) -> Iterator[str]:
    """The SSE text of one live connection (ends after ``limit`` seconds)."""
    deadline = time.monotonic() + limit
    yield "retry: 1000\n\n"
    snapshot = session.snapshot()
    version = int(snapshot["version"])
    yield _event(snapshot)
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return
        seen = session.wait_for_change(version, min(heartbeat, left))
        if seen > version:
            snapshot = session.snapshot()
            version = int(snapshot["version"])
            yield _event(snapshot)
        else:
            yield ": ping\n\n"


@bp.get("/stream")
def stream() -> Response:
    session = current_app.extensions["goblin"]
    heartbeat = float(current_app.config["SSE_HEARTBEAT"])
    limit = float(current_app.config["SSE_MAX_SECONDS"])
    response = Response(events(session, heartbeat=heartbeat, limit=limit), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response
