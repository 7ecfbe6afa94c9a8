"""The live stream: the snapshot at once, then one event per change, heartbeats in between."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

from flask.testing import FlaskClient

from companion.session import TableSession
from tests.web.conftest import D6_SETUP, FIRST_ROLL, camera_reading


def read_events(client: FlaskClient, during: Any = None) -> tuple[list[dict[str, Any]], list[float], str]:
    """The ``state`` events of one stream (which SSE_MAX_SECONDS ends), their arrival times, the text."""
    response = client.get("/api/stream", buffered=False)
    assert response.status_code == 200
    assert response.mimetype == "text/event-stream"
    assert response.headers["Cache-Control"] == "no-cache"
    if during is not None:
        threading.Timer(0.3, during).start()
    events, times, raw = [], [], []
    for chunk in response.response:
        text = chunk.decode() if isinstance(chunk, bytes) else chunk
        raw.append(text)
        if text.startswith("event: state"):
            data = text.split("data: ", 1)[1]
            events.append(json.loads(data))
            times.append(time.monotonic())
    response.close()
    return events, times, "".join(raw)


def test_stream_sends_the_snapshot_then_each_change(client: FlaskClient, playing: TableSession) -> None:
    confirmed_at: list[float] = []

    def confirm() -> None:
        confirmed_at.append(time.monotonic())
        playing.confirm(step=0)

    events, times, raw = read_events(client, confirm)
    assert raw.startswith("retry: 1000\n\n")
    assert events[0]["step"] == 0 and events[0]["proposal"] is not None
    after = [e for e in events if e["step"] == 1]
    assert after, [e["version"] for e in events]
    assert after[0]["history"][0]["action"] == {"type": "reading", "values": FIRST_ROLL}
    delay = times[events.index(after[0])] - confirmed_at[0]
    assert delay < 0.5, delay
    versions = [e["version"] for e in events]
    assert versions == sorted(set(versions))
    assert ": ping\n\n" in raw  # heartbeats while nothing changes


def test_stream_ends_so_a_gone_phone_frees_its_thread(client: FlaskClient, session: TableSession) -> None:
    started = time.monotonic()
    events, _, raw = read_events(client)
    took = time.monotonic() - started
    assert 1.4 <= took < 3.0, took  # SSE_MAX_SECONDS = 1.5 in the test config
    assert len(events) == 1 and events[0]["game"] is None
    assert raw.count(": ping") >= 4  # heartbeat 0.2 s


def test_fast_changes_coalesce_into_the_latest_state(
        app: Any, client: FlaskClient, session: TableSession) -> None:
    """Four changes in a row reach a phone as the table stands after them: the last event is the latest
    state, versions only go up. The stream is read until that state arrives (however slow the machine),
    not for a fixed time."""
    app.config["SSE_MAX_SECONDS"] = 60.0  # the test ends the stream itself once it has what it waits for
    played = threading.Event()

    def play() -> None:
        session.new_game("button-goblin", D6_SETUP)
        session.offer_reading(camera_reading(FIRST_ROLL))
        session.confirm()
        session.undo()
        played.set()

    response = client.get("/api/stream", buffered=False)
    assert response.status_code == 200
    events: list[dict[str, Any]] = []
    deadline = time.monotonic() + 30
    for chunk in response.response:  # a ping every 0.2 s: the deadline is checked even when nothing comes
        text = chunk.decode() if isinstance(chunk, bytes) else chunk
        if text.startswith("event: state"):
            events.append(json.loads(text.split("data: ", 1)[1]))
            if len(events) == 1:  # the phone has the table as it was: now play, fast
                threading.Thread(target=play).start()
        if played.is_set() and events and events[-1]["version"] == session.version:
            break
        assert time.monotonic() < deadline, [e["version"] for e in events]
    response.close()
    assert (events[0]["game"], events[0]["step"]) == (None, 0)
    versions = [e["version"] for e in events]
    assert versions == sorted(set(versions))
    last = events[-1]
    # the last event is the table as it stands: the roll taken back, asked for again
    assert last["version"] == session.version
    assert (last["game"], last["step"], last["proposal"]) == ("button-goblin", 0, None)
    assert last["expects"]["prompt"] == "roll.initial"


def test_stop_streams_ends_open_streams_at_once(app: Any, client: FlaskClient) -> None:
    from web import stop_streams

    app.config["SSE_MAX_SECONDS"] = 60.0
    app.config["SSE_HEARTBEAT"] = 30.0
    threading.Timer(0.3, stop_streams, args=(app,)).start()
    started = time.monotonic()
    events, _, _ = read_events(client)
    assert time.monotonic() - started < 1.5
    assert len(events) == 1
