"""A phone beyond the live streams still follows the table: its EventSource gets the snapshot, then comes
back after the ``retry`` pause (the polling fallback), with no change to the page."""

from __future__ import annotations

import random
import time

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Table
from tests.web.conftest import D6_SETUP, FIRST_ROLL, camera_reading, play_step
from web.stream import SLOTS

pytestmark = pytest.mark.browser


def test_a_phone_beyond_the_live_streams_sees_each_step_by_polling(table: Table, phone: Page) -> None:
    table.session.new_game("button-goblin", D6_SETUP, archive=True)
    slots = table.app.extensions[SLOTS]
    saved, turned_away = slots.limit, slots.turned_away
    slots.limit = 0  # every live stream is taken
    try:
        phone.goto(table.url("/"))
        expect(phone.locator("#awaiting")).to_be_visible()
        table.session.offer_reading(camera_reading(FIRST_ROLL))
        started = time.monotonic()
        expect(phone.locator("#proposal")).to_be_visible(timeout=8000)
        table.session.confirm(step=0)
        expect(phone.locator("#history li")).to_have_count(1, timeout=8000)
        took = time.monotonic() - started
        assert slots.turned_away >= turned_away + 2 and slots.open == 0
        assert took < 12, took
    finally:
        slots.limit = saved


@pytest.mark.parametrize(("lang", "label"), [("it", "Tutta la storia"), ("en", "The whole history")])
def test_the_history_shows_the_last_30_steps_and_the_rest_on_request(table: Table, phone: Page, lang: str,
                                                                     label: str) -> None:
    table.session.new_game("gobcon", {"players": ["Ada", "Bea", "Cid"]}, archive=True)
    rng = random.Random(4)
    while table.session.step < 36:
        if table.session.snapshot()["over"]:
            table.session.undo()
        play_step(table.session, rng)
    phone.goto(table.url(f"/?lang={lang}"))
    phone.click("#history-box summary")
    expect(phone.locator("#history li")).to_have_count(30)
    expect(phone.locator("#history li").last).to_have_attribute("value", "7")
    expect(phone.locator("#history-all")).to_have_text(label)
    phone.click("#history-all")
    expect(phone.locator("#history li")).to_have_count(36)
    expect(phone.locator("#history li").last).to_have_attribute("value", "1")
    expect(phone.locator("#history-all")).to_be_hidden()
    # the whole history stays through the live update of the next step (it used to fall back to 30)
    step = table.session.step
    while table.session.step == step:
        if table.session.snapshot()["over"]:
            table.session.undo()
        play_step(table.session, rng)
    expect(phone.locator("#history li")).to_have_count(table.session.step)
    expect(phone.locator("#history li").first).to_have_attribute("value", str(table.session.step))
    expect(phone.locator("#history li").last).to_have_attribute("value", "1")
    # another game starts from its own history
    table.session.new_game("gobcon", {"players": ["Ada", "Bea"]}, archive=True)
    expect(phone.locator("#history li")).to_have_count(0)
