"""A real server (waitress, as in production) over a real TableSession and SQLite file, and Debian's
chromium driven headless by Playwright at a phone-sized viewport. One browser per module."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, ConsoleMessage, Page, expect
from waitress import wasyncore
from waitress.server import create_server

from companion.calibration import Calibrator
from companion.config import Config
from companion.dataset import TableDataset
from companion.focus import FocusMeter
from companion.serve import encode_jpeg
from companion.session import TableSession
from companion.store import Store
from companion.tablefinder import TableFinder
from companion.tuner import Tuner
from companion.turn import TurnKeeper
from companion.zones import ZoneKeeper
from hardware.frames import FrameHolder
from tests.helpers import Camera, phone_context
from web import create_app, stop_streams

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "browser"


class Table:
    """The server under test: its base URL, app and session, and the camera teach mode looks through."""

    def __init__(self, base: str, app: Flask, session: TableSession, camera: Camera | None = None,
                 calibration: Path | None = None, zones: ZoneKeeper | None = None,
                 tuner: Tuner | None = None, holder: FrameHolder | None = None,
                 turning: TurnKeeper | None = None, turns: list[int] | None = None) -> None:
        self.base, self.app, self.session = base, app, session
        self.turning = turning
        """The camera's turn the settings page sets (its camera's loop stands in a list: ``turns``)."""
        self.turns = turns if turns is not None else []
        self.tuner = tuner
        self.holder = holder or FrameHolder()
        """The camera's frames as the focus aid sees them (a test puts them)."""
        self.camera = camera or Camera()
        self.calibration = calibration
        self.zones = zones

    def url(self, path: str) -> str:
        return self.base + path


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    path = tmp_path_factory.mktemp("browser") / "companion.sqlite3"
    camera, calibration = Camera(), path.with_name("calibration.json")
    zones = ZoneKeeper(path.with_name("zones.json"), Config().zones)
    turning = TurnKeeper(path.with_name("camera.json"), 0, zones=zones)
    turns: list[int] = []
    turning.follow(turns.append)
    holder = FrameHolder()
    with Store(path) as store:
        session = TableSession(store)
        app = create_app({"SSE_HEARTBEAT": 0.5, "SSE_MAX_SECONDS": 30.0}, session=session,
                         settings={"camera": {"source": "replay"}, "pins": {"confirm": 17, "next": 27}},
                         calibrator=(calibrator := Calibrator(calibration, frames=camera)), zones=zones,
                         turn=turning,
                         tuner=(tuner := Tuner(TableDataset(path.with_name("dataset")), calibrator,
                                               auto=True)),
                         finder=TableFinder(path.parent, tuner.dataset),
                         focus=FocusMeter(holder.latest, encode=encode_jpeg))
        server = create_server(app, host="127.0.0.1", port=0, threads=24)
        stop = threading.Event()

        def serve() -> None:  # waitress's own run() has no clean stop while streams are open
            while not stop.is_set():
                wasyncore.loop(timeout=0.05, map=server._map, count=1)

        thread = threading.Thread(target=serve, daemon=True)
        thread.start()
        yield Table(f"http://127.0.0.1:{server.effective_port}", app, session,  # type: ignore[union-attr]
                    camera, calibration, zones, tuner, holder, turning, turns)
        # Stop as companion.serve.run does: end the phones' live streams, let waitress's threads finish
        # while the loop still runs, only then close. A thread left in a stream wakes the loop after each
        # ping by writing to the trigger pipe's fd number, and once closed that number is the next pipe
        # this process opens: a later Playwright driver's stdin, whose protocol it breaks (launch hangs).
        stop_streams(app)
        server.task_dispatcher.shutdown(timeout=5)
        stop.set()
        thread.join(5)
        busy = server.task_dispatcher.threads
        assert not busy, f"{len(busy)} waitress thread(s) still serving: the trigger pipe is left open"
        server.close()


@pytest.fixture
def page_errors() -> list[str]:
    return []


def open_phone(browser: Browser, errors: list[str]) -> Page:
    """A fresh phone (own cookies and storage) whose script errors are collected."""
    context = phone_context(browser)
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(f"pageerror: {error}"))

    def console(message: ConsoleMessage) -> None:
        # an HTTP error status the test provokes (403, 409) is logged by chromium too; the tests check those
        if message.type == "error" and not message.text.startswith("Failed to load resource"):
            errors.append(f"console: {message.text}")

    page.on("console", console)
    return page


@pytest.fixture
def phone(browser: Browser, page_errors: list[str]) -> Iterator[Page]:
    page = open_phone(browser, page_errors)
    yield page
    page.context.close()
    assert not page_errors, page_errors


def settled(page: Page) -> None:
    """Wait until the table page has drawn what it draws on opening: the game's own view
    (static/games/<game>.js with its words, imported after the first state; kit.js marks its drawing
    ``#generic-view.all-data``) and the live stream's first snapshot. Each draws the view and its forms
    again, so a form opened or typed into before them is drawn away under the test's thumb."""
    expect(page.locator("#generic-view.all-data")).to_have_count(1)
    page.wait_for_function("() => window.goblin && window.goblin.log.length > 0")


def shot(page: Page, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def record(name: str, data: Any) -> None:
    """Keep a measurement next to the screenshots (and print it for the test log)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / f"{name}.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(name, json.dumps(data))
