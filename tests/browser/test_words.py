"""What the page says and lets players type, in Debian's chromium: the Goblins hero notation field, and
the words of issue 16 point 10 (history, status lines, counts, Italian forms, the tray-zone radios)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Table, shot

pytestmark = pytest.mark.browser


def test_a_goblins_hero_is_played_by_its_notation(table: Table, phone: Page) -> None:
    table.session.new_game("goblins", {"players": ["Ada", "Bea"]}, archive=True)
    phone.goto(table.url("/"))
    phone.click("#forms > summary")
    phone.click(".flow-form-box[data-type=play_hero] > summary")
    form = phone.locator("form.flow-form[data-type=play_hero]")
    field = form.locator("#form-play_hero-hero")
    assert field.get_attribute("type") == "text"  # was a number input: the notation could not be typed
    form.locator("button[type=submit]").click()  # left blank: said in Italian which field is missing
    expect(phone.locator("#error")).to_contain_text("manca il campo «eroe»")
    assert table.session.step == 0
    field.fill("Cavalleria|4|2")
    shot(phone, "30-goblins-hero-notation")
    form.locator("button[type=submit]").click()
    expect(phone.locator("#history li")).to_have_count(1)
    last = table.session.snapshot()["history"][-1]
    assert last["action"] == {"type": "play_hero", "hero": "Cavalleria|4|2"} and last["manual"]
    assert table.session.snapshot()["view"]["players"][0]["heroes"][0]["name"] == "Cavalleria"
