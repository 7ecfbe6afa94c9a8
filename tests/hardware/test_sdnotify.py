"""sd_notify over a real AF_UNIX datagram socket, as systemd listens."""

from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from hardware.sdnotify import Notifier, notify, watchdog_interval


@pytest.fixture
def listener(tmp_path: Path) -> Iterator[tuple[socket.socket, str]]:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    path = str(tmp_path / "notify.sock")
    sock.bind(path)
    sock.settimeout(2)
    yield sock, path
    sock.close()


def received(sock: socket.socket) -> str:
    return sock.recv(4096).decode()


def test_ready_status_stopping_arrive_as_datagrams(listener: tuple[socket.socket, str]) -> None:
    sock, path = listener
    notifier = Notifier({"NOTIFY_SOCKET": path})
    assert notifier.enabled
    assert notifier.ready("table ready")
    assert received(sock) == "READY=1\nSTATUS=table ready"
    assert notifier.status("camera lost\nretrying in 4 s")
    assert received(sock) == "STATUS=camera lost retrying in 4 s"
    assert notifier.stopping()
    assert received(sock) == "STOPPING=1"


def test_abstract_namespace_socket() -> None:
    name = f"goblin-test-{uuid.uuid4().hex}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(2)
        assert notify("READY=1", env={"NOTIFY_SOCKET": "@" + name})
        assert received(sock) == "READY=1"


def test_watchdog_pings_are_rate_limited(listener: tuple[socket.socket, str]) -> None:
    sock, path = listener
    now = [0.0]
    notifier = Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "20000000"}, clock=lambda: now[0])
    assert notifier.interval == 20.0
    assert notifier.watchdog()
    assert received(sock) == "WATCHDOG=1"
    now[0] = 4.9
    assert not notifier.watchdog()  # every frame may call it; a ping per 5 s is enough
    now[0] = 5.0
    assert notifier.watchdog()
    assert received(sock) == "WATCHDOG=1"


def test_nothing_happens_without_systemd(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert notify("READY=1") is False
    notifier = Notifier({})
    assert not notifier.enabled and not notifier.ready() and not notifier.watchdog()


def test_a_vanished_socket_is_logged_not_raised(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    assert notify("READY=1", env={"NOTIFY_SOCKET": str(tmp_path / "gone.sock")}) is False
    assert "sd_notify" in caplog.text


def test_watchdog_interval_reads_usec_and_checks_the_pid() -> None:
    assert watchdog_interval({"WATCHDOG_USEC": "60000000"}) == 60.0
    assert watchdog_interval({"WATCHDOG_USEC": "60000000", "WATCHDOG_PID": str(os.getpid())}) == 60.0
    assert watchdog_interval({"WATCHDOG_USEC": "60000000", "WATCHDOG_PID": "1"}) is None  # meant for another
    assert watchdog_interval({"WATCHDOG_USEC": "0"}) is None
    assert watchdog_interval({"WATCHDOG_USEC": "soon"}) is None
    assert watchdog_interval({}) is None
