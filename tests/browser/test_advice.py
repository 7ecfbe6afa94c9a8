"""The attack advisor on the phone page: a *Consiglio* button, the advice only when asked."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Table, shot
from tests.web.conftest import D6_SETUP, FIRST_ROLL, camera_reading

pytestmark = pytest.mark.browser

SLOW = 30_000  # ms: the advice is worked out on a shared machine


def test_the_advice_appears_on_request_only_in_italian_and_english(table: Table, phone: Page) -> None:
    table.session.new_game("button-goblin", D6_SETUP, archive=True)
    table.session.offer_reading(camera_reading(FIRST_ROLL))
    table.session.confirm()
    choices = table.session.snapshot()["choices"]
    phone.goto(table.url("/"))
    ask = phone.locator("#advice-ask")
    expect(ask).to_have_text("Consiglio")
    expect(phone.locator("#advice-list")).to_have_count(0)  # never shown unasked
    ask.click()
    items = phone.locator("#advice-list li")
    expect(items.first).to_be_visible(timeout=SLOW)
    expect(items).to_have_count(5)  # the five best, the others folded
    expect(phone.locator("#advice-more li")).to_have_count(len(choices) - 5)
    expect(phone.locator("#advice-more summary")).to_have_text(f"Gli altri {len(choices) - 5} attacchi")
    expect(phone.locator("#advice h2")).to_have_text("Consiglio per Bruno")
    expect(items.first).to_contain_text("vittoria del round")
    expect(items.first).to_contain_text(" cattura ")
    expect(phone.locator("#advice li.best")).to_have_count(1)
    expect(phone.locator("#advice li.best")).to_contain_text("consigliato")
    shot(phone, "advice-it")

    # English on request
    phone.goto(table.url("/?lang=en"))
    expect(phone.locator("#advice-list")).to_have_count(0)
    phone.click("#advice-ask")
    expect(phone.locator("#advice h2")).to_have_text("Advice for Bruno", timeout=SLOW)
    expect(phone.locator("#advice-list li").first).to_contain_text("round win")
    shot(phone, "advice-en")

    # once an attack is played the advice is gone (its dice are re-rolled: nothing to advise)
    attack = next(c["index"] for c in choices if c["group"] == "power" and 0 not in c["action"]["attackers"])
    table.session.choose(attack)
    expect(phone.locator("#advice")).to_have_count(0)
    expect(phone.locator("#advice-list")).to_have_count(0)
