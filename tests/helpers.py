"""Helpers several test areas share: waiting on a running table, driving a flow as the session would,
the command lines' one-line refusals, old database files, translated message keys, the benchmark scripts
as modules."""

from __future__ import annotations

import importlib.util
import json
import sqlite3
import string
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from companion.flow import Choice, Expectation, Flow
from companion.store import Store

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def benchmark(name: str) -> Any:
    """``benchmarks/<name>.py`` as a module (the folder is no package; its scripts import each other)."""
    if str(BENCHMARKS) not in sys.path:
        sys.path.insert(0, str(BENCHMARKS))
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def wait_until(what: Callable[[], Any], timeout: float = 15.0) -> Any:
    """The first true value ``what()`` returns (polled), or ``AssertionError`` after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = what()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


class Clock:
    """A clock the test moves by hand (``clock.now += 60``), for whatever takes an injected clock."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class Camera:
    """The latest frame, for what looks through the camera (the calibrator, a dice book): a test sets
    ``frame`` (None: no picture yet)."""

    def __init__(self) -> None:
        self.frame: Any = None

    def __call__(self) -> Any:
        return self.frame


class FlowTable:
    """The session's part of a table flow: the state, the log of confirmed actions, a view that the page
    can always render after each."""

    def __init__(self, flow: Flow[Any], setup: Mapping[str, Any]) -> None:
        self.flow = flow
        self.setup = setup
        self.state = flow.start(setup)
        self.actions: list[Any] = []

    def do(self, action: Mapping[str, Any]) -> FlowTable:
        self.state = self.flow.apply(self.state, action)
        self.actions.append(action)
        json.dumps(self.flow.view(self.state))  # the page can always render it
        return self

    @property
    def view(self) -> Mapping[str, Any]:
        """What the page shows now."""
        return self.flow.view(self.state)

    def replayed(self) -> FlowTable:
        """A new table with this one's setup and confirmed actions replayed, as the session rebuilds it."""
        again = FlowTable(self.flow, self.setup)
        for action in self.actions:
            again.do(action)
        return again

    def pick(self, label: str) -> FlowTable:
        """Confirm the one choice whose label has ``label`` in it."""
        matches = [c for c in self.flow.choices(self.state) if label in c.label]
        assert len(matches) == 1, (label, [c.label for c in self.flow.choices(self.state)])
        return self.do(matches[0].action)


def offered_choices_apply(flow: Flow[Any], state: Any) -> tuple[list[Choice], Expectation | None] | None:
    """Check one state of a flow: its view is JSON and every choice it offers applies. None once the
    game is over (nothing offered, nothing to read, and the view says so); else the choices and what
    the camera should read."""
    json.dumps(flow.view(state))
    choices = list(flow.choices(state))
    for choice in choices:
        flow.apply(state, choice.action)  # never refused
    expectation = flow.expects(state)
    if expectation is None and not choices:
        assert flow.view(state)["over"] is True
        return None
    return choices, expectation


ROOT = Path(__file__).resolve().parents[1]


def game_cli(game: str, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``python3 -m companion <game> ARGS``, run as users and scripts run it, with ``stdin`` as its input."""
    return subprocess.run([sys.executable, "-m", "companion", game, *args], input=stdin, capture_output=True,
                          text=True, cwd=ROOT)


def game_cli_answer(game: str, *args: str, stdin: str = "") -> tuple[int, str, str]:
    """``game_cli``'s exit status, stdout and stderr."""
    done = game_cli(game, *args, stdin=stdin)
    return done.returncode, done.stdout, done.stderr


def refused_in_one_line(done: Any, quoted: str) -> None:
    """A command line's refusal: exit status 2, nothing on stdout, one line on stderr quoting ``quoted``."""
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert quoted in lines[0]


def copy_to_old_file(store: Store, db: Path, name: str, schema: str, games: str) -> Path:
    """The games and events of ``store`` copied into a new file ``name`` beside ``db`` made by an older
    ``schema``: ``games`` are the columns of the games that schema has (``"id, game, ..."`` or ``*``)."""
    rows = store.db.execute(f"SELECT {games} FROM games").fetchall()
    events = store.db.execute("SELECT * FROM events").fetchall()
    old = db.with_name(name)
    with sqlite3.connect(old) as raw:
        raw.executescript(schema)
        raw.executemany(f"INSERT INTO games VALUES ({', '.join('?' * len(rows[0]))})", rows)
        raw.executemany(f"INSERT INTO events VALUES ({', '.join('?' * len(events[0]))})", events)
    raw.close()
    return old


def placeholders(text: str) -> set[str]:
    """The ``{names}`` a message template fills in."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def assert_translated(seen: Mapping[str, set[str]], catalogue: Mapping[str, str], least: int) -> None:
    """Every message key seen (at least ``least`` of them) is in the catalogue, and its template asks
    only for parameters the key was seen with."""
    assert len(seen) >= least, seen
    for key, params in seen.items():
        assert key in catalogue, key
        assert placeholders(catalogue[key]) <= params, (key, catalogue[key], params)


CHROMIUM = "/usr/bin/chromium"
"""Debian's chromium, which the browser tests drive headless through Playwright (no browser download)."""
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
PHONE = {"width": 390, "height": 844}
"""The phone's viewport the pages are tried on."""


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's chromium, launched headless through Playwright and closed after."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def phone_context(browser: Any) -> Any:
    """A fresh phone in ``browser``: its own cookies and storage, a touch screen of ``PHONE`` size."""
    return browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
