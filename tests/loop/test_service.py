"""The service as systemd runs it: a subprocess of ``serve``, killed with SIGKILL and started again."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.demo import DEMO_DIR, DEMO_SETUP
from companion.games import find_game

ROOT = Path(__file__).parents[2]
PIN = "4321"


class Service:
    """One ``goblin-companion serve`` process and an HTTP client for its API."""

    def __init__(self, state: Path, config: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion.cli", "serve", "--config", str(config),
             "--state-dir", str(state), "--camera", f"replay:{DEMO_DIR}",
             "--reader", "tests.loop.labelled:read", "--no-buttons", "--no-led",
             "--host", "127.0.0.1", "--port", "0", "--pin", PIN],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
            env={**os.environ, "GPIOZERO_PIN_FACTORY": "mock", "PYTHONPATH": str(ROOT)})
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert line, f"serve exited with {self.process.wait(10)}"
        self.started = json.loads(line)
        self.url = self.started["url"]

    def call(self, path: str, body: dict[str, Any] | None = None, *, pin: str | None = PIN) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + "api/" + path, data=data,
                                         method="GET" if body is None else "POST")
        request.add_header("Content-Type", "application/json")
        if pin is not None:
            request.add_header("X-Table-PIN", pin)
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())

    def error(self, path: str, body: dict[str, Any], *, pin: str | None = PIN) -> tuple[int, dict[str, Any]]:
        try:
            self.call(path, body, pin=pin)
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())
        raise AssertionError(f"{path} {body} did not fail")

    def state(self) -> dict[str, Any]:
        return self.call("state")  # type: ignore[no-any-return]

    def wait_for_proposal(self, timeout: float = 15.0) -> dict[str, Any] | None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            snap = self.state()
            if snap["proposal"] is not None:
                return snap
            time.sleep(0.05)
        return None

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        assert self.process.wait(10) == -signal.SIGKILL


@pytest.fixture
def services(tmp_path: Path) -> Iterator[list[Service]]:
    started: list[Service] = []
    yield started
    for service in started:
        if service.process.poll() is None:
            service.kill()
        if service.process.stdout is not None:
            service.process.stdout.close()


@pytest.mark.slow
def test_kill_9_in_the_middle_of_a_round_and_resume(tmp_path: Path, services: list[Service]) -> None:
    config = tmp_path / "companion.toml"
    config.write_text("language = \"en\"\n[camera]\nframe_interval = 0.05\nphoto_seconds = 0.8\n")
    state = tmp_path / "state"

    def start() -> Service:
        services.append(Service(state, config))
        return services[-1]

    service = start()
    assert service.started["state"] == str(state / "companion.sqlite3")
    code, body = service.error("new-game", {"game": "button-goblin", "setup": DEMO_SETUP}, pin=None)
    assert code == 403 and body["error"]
    service.call("new-game", {"game": "button-goblin", "setup": DEMO_SETUP})

    def play(service: Service, steps: int) -> None:
        """Confirm the camera's readings and pick the first attack (declining focus) through the API."""
        for _ in range(steps):
            snap = service.state()
            if snap["over"] or snap["view"]["rounds"]:
                return
            if snap["expects"] is not None:
                proposed = service.wait_for_proposal()
                if proposed is None:
                    values = {s["key"]: s["low"] for s in snap["expects"]["slots"]}
                    service.call("correct", {"action": {"type": "reading", "values": values},
                                             "step": snap["step"]})
                else:
                    service.call("confirm", {"step": proposed["step"]})
            else:
                last = len(snap["choices"]) - 1
                service.call("choose", {"index": last if snap["view"]["phase"] == "focus" else 0,
                                        "step": snap["step"]})

    play(service, 7)
    before = service.state()
    assert before["step"] >= 5 and not before["view"]["rounds"]
    code, body = service.error("choose", {"index": 0, "step": before["step"] - 1})
    assert code == 409 and "stale" in body["detail"]
    service.kill()

    service = start()
    after = service.state()
    assert after["step"] == before["step"] and after["history"] == before["history"]
    assert after["view"]["scores"] == before["view"]["scores"]
    undone = service.call("undo", {"step": after["step"]})
    assert undone["step"] == before["step"] - 1
    service.kill()

    service = start()
    assert service.state()["step"] == before["step"] - 1
    play(service, 200)
    final = service.state()
    assert len(final["view"]["rounds"]) == 1
    score = final["view"]["rounds"][0]["scores"]

    exported = service.call("export")
    flow = find_game("button-goblin")
    replayed = flow.start(exported["setup"])
    for event in exported["events"]:
        replayed = flow.apply(replayed, event["action"])
    assert flow.view(replayed)["rounds"][0]["scores"] == score
    assert len(exported["undone"]) == 1
    assert any(e["source"] == "camera" for e in exported["events"])
    service.process.send_signal(signal.SIGTERM)
    assert service.process.wait(10) == 0


def test_a_port_already_taken_is_one_clear_line_not_a_traceback(tmp_path: Path) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "companion.cli", "serve", "--state-dir", str(tmp_path),
             "--camera", f"replay:{DEMO_DIR}", "--no-buttons", "--no-led",
             "--host", "127.0.0.1", "--port", str(port)],
            cwd=ROOT, capture_output=True, text=True, timeout=60,
            env={**os.environ, "GPIOZERO_PIN_FACTORY": "mock", "PYTHONPATH": str(ROOT)})
    assert done.returncode == 2
    assert f"127.0.0.1:{port} is already in use" in done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout == ""


def test_sigterm_ends_the_service_promptly_even_with_phones_streaming(
    tmp_path: Path, services: list[Service]
) -> None:
    config = tmp_path / "companion.toml"
    config.write_text("")
    services.append(Service(tmp_path / "state", config))
    service = services[-1]
    streams = [urllib.request.urlopen(service.url + "api/stream", timeout=10) for _ in range(3)]
    try:
        for stream in streams:
            assert stream.readline()  # the stream is open and speaking
        service.process.send_signal(signal.SIGTERM)
        assert service.process.wait(5) == 0
    finally:
        for stream in streams:
            stream.close()
