"""Matches are kept, not replaced, in Debian's chromium: a new game over a match in progress asks first
(and the PIN when one is set), the setup page lists every match with its export, and an interrupted one
resumes. In Italian and in English."""

from __future__ import annotations

import random
import time

import pytest
from playwright.sync_api import Page, Route, expect

from tests.browser.conftest import Table, shot
from tests.session.conftest import play_step
from tests.web.conftest import D6_SETUP, FIRST_ROLL, camera_reading

pytestmark = pytest.mark.browser


def rolled(table: Table) -> int:
    """A Button Goblin match of Anna and Bruno whose first roll is confirmed: a match in progress."""
    table.session.new_game("button-goblin", D6_SETUP, archive=True)
    table.session.offer_reading(camera_reading(FIRST_ROLL))
    table.session.confirm()
    assert table.session.in_progress() and table.session.game_id is not None
    return table.session.game_id


def test_a_new_game_asks_before_archiving_and_the_old_match_resumes_in_italian(table: Table,
                                                                               phone: Page) -> None:
    first = rolled(table)
    phone.goto(table.url("/setup"))
    current = phone.locator(f"#matches-list li[data-game='{first}']")
    expect(current).to_contain_text("In corso al tavolo (passo 1)")
    expect(current).to_contain_text("Anna · Bruno")
    expect(current.locator(".match-resume")).to_have_count(0)

    phone.select_option("#game-select", "dadoteck")
    phone.click("#start")
    dialog = phone.locator("#archive-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("È in corso una partita di Button Goblin (passo 1)")
    expect(dialog).to_contain_text("Partite")
    shot(phone, "20-archive-ask-it")
    phone.click("#archive-cancel")  # changed her mind: nothing happens
    expect(dialog).to_be_hidden()
    assert table.session.game_id == first and table.session.step == 1

    phone.click("#start")
    phone.click("#archive-ok")
    phone.wait_for_url(table.url("/"))
    second = table.session.game_id
    assert second != first and table.session.snapshot()["game"] == "dadoteck"

    phone.goto(table.url("/setup"))
    old = phone.locator(f"#matches-list li[data-game='{first}']")
    expect(old).to_contain_text("Interrotta al passo 1")
    expect(old).to_contain_text("Button Goblin")
    expect(phone.locator(f"#matches-list li[data-game='{second}']")).to_contain_text("In corso al tavolo")
    link = old.locator(".match-export")
    assert link.get_attribute("href") == f"/api/export?game_id={first}&download=1"
    exported = phone.request.get(table.url(f"/api/export?game_id={first}")).json()
    assert exported["game_id"] == first and exported["steps"] == 1 and exported["setup"] == D6_SETUP
    shot(phone, "21-matches-it")

    old.locator(".match-resume").click()  # the dadoteck match has no step yet: no question
    phone.wait_for_url(table.url("/"))
    assert table.session.game_id == first and table.session.step == 1
    expect(phone.locator("#choices")).to_be_visible()


def test_the_archive_in_english_with_the_pin_and_a_finished_match(table: Table, phone: Page) -> None:
    table.session.new_game("button-goblin", D6_SETUP, archive=True)
    rng = random.Random(0)
    while not table.session.snapshot()["over"]:
        play_step(table.session, rng)
    finished = table.session.game_id
    winner = table.session.snapshot()["view"]["outcome"]["name"]
    first = rolled(table)
    table.app.config["TABLE_PIN"] = "2468"
    try:
        phone.goto(table.url("/setup?lang=en"))
        expect(phone.locator("#matches-title")).to_have_text("Matches")
        done = phone.locator(f"#matches-list li[data-game='{finished}']")
        expect(done).to_contain_text(f"{winner} won")
        expect(done.locator(".match-resume")).to_have_count(0)  # a finished match is exported, not resumed
        expect(done.locator(".match-export")).to_have_text("Export")
        phone.click("#start")
        expect(phone.locator("#pin-dialog")).to_be_visible()
        phone.fill("#pin-input", "2468")
        phone.click("#pin-ok")
        dialog = phone.locator("#archive-dialog")
        expect(dialog).to_contain_text("A match of Button Goblin is in progress (step 1)")
        expect(phone.locator("#archive-ok")).to_have_text("Archive and go on")
        shot(phone, "22-archive-ask-en")
        phone.click("#archive-ok")
        phone.wait_for_url(table.url("/"))
        assert table.session.game_id not in (first, finished) and table.session.step == 0
        phone.goto(table.url("/setup?lang=en"))
        expect(phone.locator(f"#matches-list li[data-game='{first}']")).to_contain_text("Stopped at step 1")
        expect(phone.locator(f"#matches-list li[data-game='{first}'] .match-resume")).to_have_text("Resume")
        shot(phone, "23-matches-en")
    finally:
        table.app.config["TABLE_PIN"] = None


def test_a_long_list_comes_fifty_at_a_time(table: Table, phone: Page) -> None:
    for _ in range(55):
        table.session.new_game("dadoteck", {"players": ["Ada", "Bea"]}, archive=True)
    total = len(table.session.games())
    phone.goto(table.url("/setup"))
    items = phone.locator("#matches-list li")
    expect(items).to_have_count(50)
    phone.click("#matches-more")
    expect(items).to_have_count(min(100, total))
    ids = [int(i) for i in items.evaluate_all("(els) => els.map((e) => e.dataset.game)")]
    assert ids == sorted(ids, reverse=True) and len(set(ids)) == len(ids)


def test_start_waits_for_the_page_so_an_early_tap_cannot_reload_it(table: Table, phone: Page) -> None:
    """On a busy table the list of matches (its own script) can show before the setup form is wired: a tap on
    Start then submitted the bare form and reloaded the page, and the PIN dialog never came."""
    first = rolled(table)
    held: list[Route] = []
    phone.route("**/api/games", lambda route: held.append(route))  # the form waits for the list of games
    phone.goto(table.url("/setup?lang=en"))
    expect(phone.locator(f"#matches-list li[data-game='{first}']")).to_be_visible()
    expect(phone.locator("#start")).to_be_disabled()
    phone.locator("#start").click(force=True)
    phone.press("#game-select", "Enter")                              # nor submitted by the keyboard
    assert phone.url == table.url("/setup?lang=en")
    assert table.session.game_id == first and table.session.step == 1
    # the list of games is asked for once the first state is back, which may be after the list of matches
    deadline = time.monotonic() + 10
    while not held and time.monotonic() < deadline:
        phone.wait_for_timeout(20)   # Playwright hands the held request to the route handler meanwhile
    assert len(held) == 1
    held[0].continue_()
    expect(phone.locator("#start")).to_be_enabled()
    table.app.config["TABLE_PIN"] = "2468"
    try:
        phone.click("#start")
        expect(phone.locator("#pin-dialog")).to_be_visible()
    finally:
        table.app.config["TABLE_PIN"] = None
