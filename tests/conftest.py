"""Fixtures shared by several test areas: gpiozero's mock pins, a table session over a real SQLite file."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory
from hypothesis import settings

from companion.session import TableSession
from companion.store import Store
from tests.helpers import chromium

# The property tests draw the same examples on every run of the README's test command: CI runs on a clean
# clone with no example database, so fresh random draws could turn a stop red on a case nobody can replay.
# To look for new cases: HYPOTHESIS_PROFILE=explore python3 -m pytest (a failure it finds prints its example).
settings.register_profile("repeatable", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))


@pytest.fixture
def mock_factory() -> Iterator[MockFactory]:
    """gpiozero's own mock pins; devices made in the test are closed and the factory reset afterwards."""
    saved = Device.pin_factory
    factory = MockFactory()
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = saved


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """Where the event log lives: a real SQLite file in the test's state directory."""
    return tmp_path / "state" / "companion.sqlite3"


@pytest.fixture
def store(db: Path) -> Iterator[Store]:
    with Store(db) as store:
        yield store


@pytest.fixture
def session(store: Store) -> TableSession:
    return TableSession(store)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's chromium, headless, shared by one module's page tests (tests/browser, tests/e2e_games)."""
    with chromium() as browser:
        yield browser
