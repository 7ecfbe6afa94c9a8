"""Live updates that scale: a small snapshot (recent history, the rest by pages), a bounded number of live
streams with a polling answer for the rest, and a real waitress that keeps answering with many phones open,
some never reading."""

from __future__ import annotations

import contextlib
import json
import random
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from waitress import wasyncore
from waitress.server import create_server

from companion.serve import CONNECTION_LIMIT, OUTBUF_HIGH_WATERMARK
from companion.session import HISTORY_RECENT, TableSession
from tests.web.conftest import D6_SETUP, play_step
from web import create_app, stop_streams
from web.stream import stream_state


def play(session: TableSession, steps: int, seed: int = 1) -> None:
    rng = random.Random(seed)
    session.new_game("gobcon", {"players": ["Ada", "Bea", "Cid"]}, archive=True)
    while session.step < steps:
        if session.snapshot()["over"]:
            session.undo()
        play_step(session, rng)


def test_the_snapshot_carries_recent_history_and_pages_give_the_rest(client: FlaskClient,
                                                                      session: TableSession) -> None:
    play(session, 75)
    state = client.get("/api/state").json
    assert state["step"] == 75
    assert [h["step"] for h in state["history"]] == list(range(75 - HISTORY_RECENT + 1, 76))
    assert state["history_from"] == 75 - HISTORY_RECENT + 1
    pages = [client.get(f"/api/history?from={start}&limit=20").json for start in (1, 21, 41, 61)]
    assert [h["step"] for page in pages for h in page["history"]] == list(range(1, 76))
    assert all(page["steps"] == 75 and page["game_id"] == state["game_id"] for page in pages)
    everything = client.get("/api/history").json["history"]
    exported = client.get("/api/export").json["events"]
    assert [h["action"] for h in everything] == [e["action"] for e in exported]
    assert everything[-HISTORY_RECENT:] == state["history"]


@pytest.mark.parametrize("query", ["from=0", "limit=0", "limit=501", "from=x", "limit=1e3", "from=-4"])
def test_a_bad_history_page_is_400(client: FlaskClient, query: str) -> None:
    response = client.get(f"/api/history?{query}")
    assert response.status_code == 400 and response.json["error"] == "invalid-input"


def test_the_snapshot_stays_small_however_long_the_match(client: FlaskClient, session: TableSession) -> None:
    play(session, 20)
    short = len(client.get("/api/state").data)
    play(session, 400, seed=2)
    long = len(client.get("/api/state").data)
    assert long < short + 4000, (short, long)


def first_event(chunks: Iterator[Any]) -> tuple[str, dict[str, Any]]:
    raw = ""
    for chunk in chunks:
        raw += chunk.decode() if isinstance(chunk, bytes) else chunk
        if "event: state" in raw and raw.endswith("\n\n"):
            return raw, json.loads(raw.split("data: ", 1)[1])
    raise AssertionError(raw)


@pytest.fixture
def config() -> dict[str, Any]:
    return {"TESTING": True, "SSE_HEARTBEAT": 0.2, "SSE_MAX_SECONDS": 5, "SSE_MAX_STREAMS": 2,
            "SSE_POLL_SECONDS": 2.5}


def test_beyond_the_live_streams_a_phone_gets_the_state_and_polls(app: Flask, client: FlaskClient,
                                                                   session: TableSession) -> None:
    live = [client.get("/api/stream", buffered=False) for _ in range(2)]
    assert [r.headers["X-Stream"] for r in live] == ["live", "live"]
    assert stream_state(app) == {"open": 2, "limit": 2, "turned_away": 0}
    polled = client.get("/api/stream")
    assert polled.headers["X-Stream"] == "poll" and polled.mimetype == "text/event-stream"
    text = polled.get_data(as_text=True)
    assert text.startswith("retry: 2500\n\n")
    assert json.loads(text.split("data: ", 1)[1])["version"] == session.version
    _, snapshot = first_event(live[0].response)
    assert snapshot["version"] == session.version
    live[0].close()  # the phone went away: its slot is free again
    assert stream_state(app)["open"] == 1
    again = client.get("/api/stream", buffered=False)
    assert again.headers["X-Stream"] == "live"
    for response in (again, live[1]):
        response.close()
    assert stream_state(app) == {"open": 0, "limit": 2, "turned_away": 1}


def test_a_stream_ends_after_its_byte_budget(session: TableSession) -> None:
    app = create_app({"TESTING": True, "SSE_HEARTBEAT": 5, "SSE_MAX_SECONDS": 30, "SSE_MAX_BYTES": 3000},
                     session=session)
    session.new_game("button-goblin", D6_SETUP)
    response = app.test_client().get("/api/stream", buffered=False)
    stop = threading.Event()

    def notes() -> None:
        while not stop.is_set():
            session.note("x")
            time.sleep(0.02)

    threading.Thread(target=notes, daemon=True).start()
    started = time.monotonic()
    events = sum(1 for chunk in response.response if b"event: state" in (chunk if isinstance(chunk, bytes)
                                                                          else chunk.encode()))
    stop.set()
    assert time.monotonic() - started < 10
    size = len(session.snapshot_json())
    assert 3000 / size <= events <= 3000 / size + 2
    assert stream_state(app)["open"] == 0


# --------------------------------------------------------------------------- a real waitress


class Server:
    def __init__(self, app: Flask, threads: int) -> None:
        self.app = app
        self.server: Any = create_server(app, host="127.0.0.1", port=0, threads=threads, channel_timeout=120,
                                         connection_limit=CONNECTION_LIMIT,
                                         outbuf_high_watermark=OUTBUF_HIGH_WATERMARK)
        self.port = self.server.effective_port
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.loop, daemon=True)
        self.thread.start()

    def loop(self) -> None:
        while not self.stop.is_set():
            wasyncore.loop(timeout=0.05, map=self.server._map, count=1)

    def close(self) -> None:
        stop_streams(self.app)
        self.server.task_dispatcher.shutdown(timeout=5)
        self.stop.set()
        self.thread.join(5)
        self.server.close()


def open_stream(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # a phone that never reads fills up fast
    sock.sendall(b"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
    return sock


def timed(url: str, data: bytes | None = None) -> float:
    request = urllib.request.Request(url, data=data, method="POST" if data is not None else "GET",
                                     headers={"Content-Type": "application/json"})
    started = time.perf_counter()
    with urllib.request.urlopen(request, timeout=10) as answer:
        answer.read()
    return time.perf_counter() - started


def test_40_phones_some_never_reading_do_not_freeze_the_table(session: TableSession) -> None:
    """With 8 waitress threads, 40 open streams (half never read) while the table changes fast: the state
    and every action still answer quickly; live streams stay within their bound."""
    app = create_app({"SSE_HEARTBEAT": 0.5, "SSE_MAX_SECONDS": 3, "SSE_MAX_STREAMS": 4,
                      "SSE_MAX_BYTES": 200_000}, session=session)
    session.new_game("button-goblin", D6_SETUP)
    server = Server(app, threads=8)
    base = f"http://127.0.0.1:{server.port}"
    sockets: list[socket.socket] = []
    try:
        sockets.extend(open_stream(server.port) for _ in range(40))
        readers = sockets[::2]
        stop = threading.Event()

        def read() -> None:
            while not stop.is_set():
                for sock in readers:
                    sock.settimeout(0.01)
                    with contextlib.suppress(OSError):
                        sock.recv(65536)

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        times = []
        for n in range(60):
            session.note(f"change {n}" + "x" * 2000)  # every stream has something to send
            times.append(timed(base + "/api/state"))
            times.append(timed(base + "/api/pin", b"{}"))
            assert stream_state(app)["open"] <= 4
        stop.set()
        reader.join(5)
        times.sort()
        assert times[len(times) // 2] < 0.1 and times[-1] < 1.0, times[-5:]
        assert stream_state(app)["turned_away"] >= 30
    finally:
        for sock in sockets:
            sock.close()
        server.close()
