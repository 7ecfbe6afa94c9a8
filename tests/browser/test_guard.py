"""In a real browser: the table's pages run under their CSP without a single violation, and another web
page a player opens cannot confirm a step or start a game by a form or a fetch."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import Table, open_phone, shot
from tests.web.conftest import D6_SETUP, FIRST_ROLL, camera_reading
from web.pin import CLIENT_TRIES, PinGuard
from web.pin import EXTENSION as PIN_GUARD

pytestmark = pytest.mark.browser

VIOLATIONS = """window.__csp = [];
document.addEventListener("securitypolicyviolation",
  (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));"""


def test_every_page_runs_under_the_csp(table: Table, phone: Page) -> None:
    table.session.new_game("button-goblin", D6_SETUP, archive=True)
    phone.add_init_script(VIOLATIONS)
    for path in ("/", "/setup", "/correct", "/join", "/?lang=en", "/settings"):
        response = phone.goto(table.url(path))
        assert response is not None and "default-src 'self'" in response.headers["content-security-policy"]
        expect(phone.locator("#live")).to_have_class("live on")  # app.js ran and the stream is open
        assert phone.evaluate("window.__csp") == [], path
    # the zone labels sit on their zones (placed through the CSSOM, not a style attribute)
    expect(phone.locator("#zone-labels span").first).to_have_css("position", "absolute")
    assert phone.locator("#zone-labels span").first.evaluate("s => s.style.left").endswith("%")


EVIL = """<!doctype html><html><body>
<form id="f" method="post" action="{table}/api/confirm" enctype="text/plain">
  <input name='{{"step": 0, "x": "' value='"}}'>
</form>
<script>
  window.results = [];
  fetch("{table}/api/new-game", {{method: "POST", mode: "no-cors", headers: {{"Content-Type": "text/plain"}},
        body: JSON.stringify({{game: "dadoteck", setup: {{players: ["A", "B"]}}}})}})
    .then(() => results.push("sent"), (e) => results.push(String(e)));
  fetch("{table}/api/confirm", {{method: "POST", headers: {{"Content-Type": "application/json"}},
        body: JSON.stringify({{step: 0}})}})
    .then(() => results.push("sent"), (e) => results.push(String(e)));
</script></body></html>"""


def test_another_site_cannot_confirm_or_start_a_game(table: Table, browser: Browser,
                                                     page_errors: list[str]) -> None:
    table.session.new_game("button-goblin", D6_SETUP, archive=True)
    table.session.offer_reading(camera_reading(FIRST_ROLL))
    game, version = table.session.game_id, table.session.version
    page = open_phone(browser, [])  # the evil page's own fetch errors are expected
    try:
        page.route("http://evil.example/", lambda route: route.fulfill(
            content_type="text/html", body=EVIL.format(table=table.base)))
        page.goto("http://evil.example/")
        page.wait_for_function("() => window.results.length === 2")
        with page.expect_navigation():
            page.evaluate("() => document.getElementById('f').submit()")
        assert "cross-origin" in page.content()
    finally:
        page.context.close()
    assert table.session.game_id == game and table.session.step == 0
    assert table.session.snapshot()["proposal"] is not None and table.session.version == version


@pytest.mark.parametrize(("lang", "words"), [("it", "Troppi PIN sbagliati: riprova tra 30 s"),
                                             ("en", "Too many wrong PINs: try again in 30 s")])
def test_after_wrong_pins_the_page_says_how_long_to_wait(table: Table, phone: Page, lang: str,
                                                         words: str) -> None:
    table.session.new_game("button-goblin", D6_SETUP, archive=True)
    table.session.offer_reading(camera_reading(FIRST_ROLL))
    now = [5000.0]
    guard = PinGuard(lambda: now[0])
    saved = table.app.extensions[PIN_GUARD], table.app.config["TABLE_PIN"]
    table.app.extensions[PIN_GUARD], table.app.config["TABLE_PIN"] = guard, "2468"
    try:
        phone.goto(table.url(f"/?lang={lang}"))
        for _ in range(CLIENT_TRIES):  # a wrong PIN: the dialog asks again
            phone.evaluate("() => localStorage.setItem('goblin.pin', '1111')")
            phone.click("#proposal-confirm")
            expect(phone.locator("#pin-error")).to_be_visible()
            phone.click("#pin-cancel")
        phone.evaluate("() => localStorage.setItem('goblin.pin', '2468')")  # even the right one waits now
        phone.click("#proposal-confirm")
        expect(phone.locator("#error")).to_have_text(words)
        assert table.session.step == 0
        shot(phone, f"pin-wait-{lang}")
        now[0] += 30  # the wait is over: the right PIN confirms
        phone.click("#proposal-confirm")
        expect(phone.locator("#error")).to_be_hidden()
        assert table.session.step == 1
    finally:
        table.app.extensions[PIN_GUARD], table.app.config["TABLE_PIN"] = saved
