"""Live updates: ``/api/stream`` pushes the snapshot as Server-Sent Events whenever it changes.

The first event is the current snapshot; then each ``session.wait_for_change`` that returns a newer
version sends one ``state`` event. Comment lines (``: ping``) keep idle connections alive and let the
server notice a phone that went away. ``stop_streams(app)`` ends them all within half a second when the
server is about to stop.

**What a stream may cost.** waitress gives each request a worker thread for as long as it runs, so a live
stream holds one; 32 phones once froze the whole table. So:

- at most ``SSE_MAX_STREAMS`` streams are live at once (default 16, half of waitress's 32 threads; the
  other threads always answer the page and the actions). A phone beyond them gets the snapshot at once,
  a ``retry`` hint of ``SSE_POLL_SECONDS`` and the end of the answer (``X-Stream: poll``): its browser's
  EventSource comes back by itself after that pause and gets the table as it is then. That is the
  polling fallback, with no change to the page: such a phone sees a step within a few seconds;
- a live stream ends after ``SSE_MAX_SECONDS`` (default 120) or once it has sent ``SSE_MAX_BYTES``
  (default 512 KB), and the browser reconnects. A phone that never reads is never waited for: what it
  does not read stays in waitress's buffer, which never grows past ``SSE_MAX_BYTES`` plus one snapshot
  (waitress's ``outbuf_high_watermark`` is set above that in ``companion.serve``, so a send never blocks
  the thread), and its slot is free again after ``SSE_MAX_SECONDS``;
- every stream sends the session's one JSON text of each version (``snapshot_text``), which carries only
  the last 30 steps of history (``/api/history`` pages the rest): a few kilobytes, not the whole match.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any, Final

from flask import Blueprint, Flask, Response, current_app, jsonify

bp = Blueprint("stream", __name__, url_prefix="/api")

STOP: Final = "goblin.stop-streams"
"""``app.extensions[STOP]``: a ``threading.Event`` that ends every live stream (see :func:`stop_streams`)."""
SLOTS: Final = "goblin.stream-slots"
"""``app.extensions[SLOTS]``: the :class:`Slots` of live streams."""
WAKE: Final = 0.5
"""Seconds a stream waits at most before it checks whether the server is stopping."""


class Slots:
    """At most ``limit`` live streams at once (thread-safe); ``open`` counts them now, ``turned_away``
    the phones sent to polling so far."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.open = 0
        self.turned_away = 0
        self._lock = threading.Lock()

    def take(self) -> bool:
        with self._lock:
            if self.open >= self.limit:
                self.turned_away += 1
                return False
            self.open += 1
            return True

    def give_back(self) -> None:
        with self._lock:
            self.open -= 1


def _event(version: int, text: str) -> str:
    # the session's JSON is ASCII (json.dumps' default): a stored lone surrogate cannot break the stream
    return f"event: state\nid: {version}\ndata: {text}\n\n"


def events(
    session: Any, *, heartbeat: float, limit: float, stop: threading.Event | None = None,
    max_bytes: int | None = None,
) -> Iterator[str]:
    """The SSE text of one live connection (ends after ``limit`` seconds or ``max_bytes`` sent, or soon
    after ``stop`` is set)."""
    now = time.monotonic()
    deadline, next_ping = now + limit, now + heartbeat
    yield "retry: 1000\n\n"
    version, text = session.snapshot_text()
    sent = len(text)
    yield _event(version, text)
    while stop is None or not stop.is_set():
        now = time.monotonic()
        if now >= deadline or (max_bytes is not None and sent >= max_bytes):
            return
        # wait in short slices so a server that stops is not held up by an idle phone
        seen = session.wait_for_change(version, max(0.0, min(WAKE, next_ping - now, deadline - now)))
        if seen > version:
            version, text = session.snapshot_text()
            sent += len(text)
            yield _event(version, text)
            next_ping = time.monotonic() + heartbeat
        elif time.monotonic() >= next_ping:
            yield ": ping\n\n"
            next_ping = time.monotonic() + heartbeat


class _Live:
    """A live stream's body that gives its slot back when waitress closes it (even if never iterated)."""

    def __init__(self, body: Iterator[str], slots: Slots) -> None:
        self._body, self._slots, self._closed = body, slots, False

    def __iter__(self) -> Iterator[str]:
        return self

    def __next__(self) -> str:
        try:
            return next(self._body)
        except BaseException:  # the stream ended (or failed): its slot is free at once
            self.close()
            raise

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            close = getattr(self._body, "close", None)
            if close is not None:
                close()
            self._slots.give_back()


def stop_streams(app: Flask) -> None:
    """End every open live stream within ``WAKE`` seconds (call before stopping the server)."""
    app.extensions[STOP].set()


def stream_state(app: Flask) -> dict[str, int]:
    """Live streams now, their limit, and the phones sent to polling so far (the benchmark reads it)."""
    slots: Slots = app.extensions[SLOTS]
    return {"open": slots.open, "limit": slots.limit, "turned_away": slots.turned_away}


@bp.get("/streams")
def streams() -> Response:
    """How many phones follow the table live now (``open`` of ``limit``), and how many were sent to poll."""
    slots: Slots = current_app.extensions[SLOTS]
    return jsonify({"open": slots.open, "limit": slots.limit, "turned_away": slots.turned_away})


@bp.get("/stream")
def stream() -> Response:
    session = current_app.extensions["goblin"]
    config = current_app.config
    slots: Slots = current_app.extensions[SLOTS]
    if not slots.take():
        # the polling fallback: the table as it is now, then the browser comes back after the pause
        version, text = session.snapshot_text()
        pause = round(float(config["SSE_POLL_SECONDS"]) * 1000)
        # streamed (no Content-Length), so waitress closes the connection after it: the browser's EventSource
        # sees the end, and a phone that never reads holds no connection either
        response = Response(iter([f"retry: {pause}\n\n{_event(version, text)}"]),
                            mimetype="text/event-stream")
        response.headers["X-Stream"] = "poll"
    else:
        body = events(session, heartbeat=float(config["SSE_HEARTBEAT"]),
                      limit=float(config["SSE_MAX_SECONDS"]), stop=current_app.extensions[STOP],
                      max_bytes=int(config["SSE_MAX_BYTES"]))
        response = Response(_Live(body, slots), mimetype="text/event-stream")
        response.headers["X-Stream"] = "live"
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response
