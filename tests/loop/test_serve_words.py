"""Issue 16 point 11, through the real ``serve`` process: the join page's address (and QR) is the one
actually served with ``--host 127.0.0.1``; ``--print-config`` shows ``--camera``; a replay photo that
cannot be read is one clean log line, not a Python warning with a source line."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.serve import main

ROOT = Path(__file__).parents[2]


def wait_for_camera(port: int, state: str, timeout: float = 30.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=10) as response:
            camera: dict[str, Any] = json.load(response)["camera"]
        if camera["state"] == state:
            return camera
        time.sleep(0.1)
    raise AssertionError(f"the camera did not become {state!r} in {timeout} s: {camera}")


def test_print_config_shows_the_camera_asked_for(capsys: object) -> None:
    assert main(["--print-config", "--camera", "replay:/srv/photos"]) == 0
    out = capsys.readouterr().out  # type: ignore[attr-defined]
    assert json.loads(out)["camera"]["source"] == "replay:/srv/photos"
    assert main(["--print-config", "--camera", "webcam"]) == 2  # what serve would refuse, refused here too
    assert "webcam" in capsys.readouterr().err  # type: ignore[attr-defined]


def test_a_table_served_on_loopback_shows_that_address_and_logs_a_bad_photo_cleanly(tmp_path: Path) -> None:
    photos = tmp_path / "photos"
    photos.mkdir()
    (photos / "a.jpg").write_bytes(b"\xff\xd8 not a jpeg at all")
    image = np.full((48, 64, 3), 90, np.uint8)
    assert cv2.imwrite(str(photos / "b.png"), image)
    config = tmp_path / "companion.toml"
    config.write_text("", encoding="utf-8")
    process = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "serve", "--config", str(config), "--state-dir",
         str(tmp_path / "state"), "--camera", f"replay:{photos}", "--reader", "tests.loop.labelled:read",
         "--no-buttons", "--no-led", "--host", "127.0.0.1", "--port", "0"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "GPIOZERO_PIN_FACTORY": "mock", "PYTHONPATH": str(ROOT),
             "PYTHONWARNINGS": "default"})
    try:
        assert process.stdout is not None
        started = json.loads(process.stdout.readline())
        port = started["port"]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/address", timeout=10) as response:
            assert json.load(response)["url"] == f"http://127.0.0.1:{port}/"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/join", timeout=10) as response:
            page = response.read().decode()
        assert f"http://127.0.0.1:{port}/" in page
        wait_for_camera(port, "ok")  # the camera's first frame: past the unreadable a.jpg
        # the folder emptied: lost, with the reason the page translates; photos back: it recovers by itself
        for photo in photos.iterdir():
            photo.unlink()
        camera = wait_for_camera(port, "lost")
        assert (camera["code"], camera["where"]) == ("replay-empty", str(photos)), camera
        assert cv2.imwrite(str(photos / "c.png"), image)
        wait_for_camera(port, "ok")
    finally:
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=20)
    skipped = [line for line in err.splitlines() if "a.jpg" in line]
    clean = r" WARNING hardware\.sources: replay: skipping photo "
    assert skipped and all(re.search(clean, line) for line in skipped), err
    assert not re.search(r"\.py:\d+: \w*Warning", err), err  # no Python warning with its source line


def test_phones_still_connected_when_the_companion_stops_are_closed_cleanly(tmp_path: Path) -> None:
    """A page left open keeps a connection (here: one idle, one mid-request, one kept alive after an
    answer); stopping closes them all, with no ResourceWarning for a socket left to the garbage collector
    (the CI once failed on exactly that)."""
    import socket

    photos = tmp_path / "photos"
    photos.mkdir()
    assert cv2.imwrite(str(photos / "b.png"), np.full((48, 64, 3), 90, np.uint8))
    config = tmp_path / "companion.toml"
    config.write_text("", encoding="utf-8")
    process = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "serve", "--config", str(config), "--state-dir",
         str(tmp_path / "state"), "--camera", f"replay:{photos}", "--no-buttons", "--no-led",
         "--host", "127.0.0.1", "--port", "0"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "GPIOZERO_PIN_FACTORY": "mock", "PYTHONPATH": str(ROOT),
             "PYTHONWARNINGS": "default"})
    phones = []
    try:
        assert process.stdout is not None
        port = json.loads(process.stdout.readline())["port"]
        ask = f"GET /api/address HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode()
        for sent in (b"", ask, ask + b"\r\n"):
            phone = socket.create_connection(("127.0.0.1", port), timeout=10)
            phone.sendall(sent)
            phones.append(phone)
        assert b"200 OK" in phones[2].recv(65536)   # answered, and the connection stays open (HTTP/1.1)
        wait_for_camera(port, "ok")
    finally:
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=30)
        for phone in phones:
            phone.close()
    assert process.returncode == 0, err
    assert "stopping after" in err
    assert "ResourceWarning" not in err and not re.search(r"\w*Warning:", err), err
