"""The page "I vostri dadi" in Debian's chromium at a phone's size: a die named on the page, rolls entered
by hand, the verdict in Italian and English, the SVG bar plot with its interval whiskers drawn to the
numbers, the rolls that wait for a die assigned, a bad entry refused in words, and the CSV links."""

from __future__ import annotations

import csv
import io

import pytest
from playwright.sync_api import Page, expect

from companion.dice import DiceBook
from tests.browser.conftest import Table, record, shot
from tests.dice.conftest import seeded
from tests.web.conftest import D6_SETUP, FIRST_ROLL, camera_reading

pytestmark = pytest.mark.browser


def bars(phone: Page, die: int) -> list[dict[str, float]]:
    return phone.eval_on_selector_all(
        f"svg.dice-plot[data-die='{die}'] rect.bar",
        "rs => rs.map(r => ({face: +r.dataset.face, count: +r.dataset.count, y: +r.getAttribute('y'),"
        " h: +r.getAttribute('height'), flagged: r.classList.contains('flagged')}))")


def whiskers(phone: Page, die: int) -> list[dict[str, float]]:
    return phone.eval_on_selector_all(
        f"svg.dice-plot[data-die='{die}'] g.whisker",
        "gs => gs.map(g => { const l = g.querySelector('line'); return {face: +g.dataset.face,"
        " top: +l.getAttribute('y1'), bottom: +l.getAttribute('y2')}; })")


def loaded(phone: Page, times: int) -> None:
    """Wait until the page has drawn /api/dice ``times`` times since it was opened."""
    expect(phone.locator("body")).to_have_attribute("data-dice-loaded", str(times))


def test_name_a_die_enter_its_rolls_and_read_the_verdict_and_the_plot(table: Table, phone: Page) -> None:
    book = DiceBook(table.session.store)
    phone.goto(table.url("/dice"))
    loaded(phone, 1)
    expect(phone.locator("h1")).to_have_text("I vostri dadi")
    expect(phone.locator("#dice-empty")).to_be_visible()
    phone.fill("#dice-new-name", "il d20 rosso")
    phone.select_option("#dice-new-sides", "20")
    phone.select_option("#dice-new-colour", "red")
    phone.click("#dice-new-add")
    card = phone.locator("article.my-die").first
    expect(card.locator(".dice-name")).to_have_text("il d20 rosso")
    expect(card.locator(".verdict")).to_have_text(
        "troppo pochi tiri per giudicare: 0 finora, ne servono almeno 100 (5 per faccia)")
    die = int(card.get_attribute("data-die") or 0)
    assert [d.name for d in table.session.store.named_dice()] == ["il d20 rosso"]

    # a bad entry is refused in words, nothing is added
    card.locator(".dice-entry summary").first.click()
    card.locator("textarea.dice-values").fill("3 17 25")
    card.locator("button.dice-add").click()
    expect(phone.locator("#error")).to_contain_text("tiro 3: un d20 mostra da 1 a 20, non 25")
    assert book.die_report(die)["rolls"] == 0

    # 400 rolls of a d20 whose 20 is loaded (2.5 times as likely), typed in
    values = seeded(21, [1.0] * 19 + [2.5], 400)
    card.locator("textarea.dice-values").fill(" ".join(map(str, values)))
    before = int(phone.locator("body").get_attribute("data-dice-loaded") or 0)
    card.locator("button.dice-add").click()
    loaded(phone, before + 1)
    expected = book.die_report(die)
    assert expected["rolls"] == 400 and expected["verdict"]["kind"] == "face-high"
    card = phone.locator(f"#die-{die}")
    expect(card.locator(".verdict")).to_have_text(expected["verdict"]["it"])
    assert expected["verdict"]["it"].startswith("il 20 esce troppo spesso: p")
    expect(card.locator(".dice-rolls")).to_have_text(
        "400 tiri: 0 letti dalla fotocamera, 400 inseriti a mano")
    expect(card.locator(".dice-test")).to_contain_text(
        f"Chi quadro = {expected['chi2']:.2f} con 19 gradi di libertà")

    # the plot: one bar per face, heights proportional to the counts, whiskers at the Wilson bounds
    drawn = bars(phone, die)
    assert [b["face"] for b in drawn] == list(range(1, 21))
    assert [b["count"] for b in drawn] == [values.count(v) for v in range(1, 21)]
    assert [b["flagged"] for b in drawn] == [False] * 19 + [True]
    base = drawn[0]["y"] + drawn[0]["h"]  # the 0% line
    per_share = drawn[19]["h"] / expected["faces"][19]["share"]
    for bar, face in zip(drawn, expected["faces"], strict=True):
        assert bar["y"] + bar["h"] == pytest.approx(base, abs=0.01)
        assert bar["h"] == pytest.approx(face["share"] * per_share, abs=0.05)
    for whisker, face in zip(whiskers(phone, die), expected["faces"], strict=True):
        assert base - whisker["top"] == pytest.approx(face["high"] * per_share, abs=0.05)
        assert base - whisker["bottom"] == pytest.approx(face["low"] * per_share, abs=0.05)
    fair = phone.eval_on_selector(f"svg.dice-plot[data-die='{die}'] line.fair-line",
                                  "l => +l.getAttribute('y1')")
    assert base - fair == pytest.approx(per_share / 20, abs=0.05)
    plot_box = card.locator("svg.dice-plot").bounding_box()
    assert plot_box is not None and 300 <= plot_box["width"] <= 390  # fills the phone's width, no overflow
    shot(phone, "60-dice-loaded-d20-it")

    # a fair d6, by a tally per face
    phone.fill("#dice-new-name", "il d6 bianco")
    phone.select_option("#dice-new-sides", "6")
    phone.select_option("#dice-new-colour", "white")
    phone.click("#dice-new-add")
    white = phone.locator("article.my-die").nth(1)
    expect(white.locator(".dice-name")).to_have_text("il d6 bianco")
    six = int(white.get_attribute("data-die") or 0)
    white.locator(".dice-entry summary").first.click()
    white.locator(".dice-tally summary").click()
    for face, count in enumerate([38, 42, 40, 41, 39, 40], start=1):
        white.locator(f".tally input[data-face='{face}']").fill(str(count))
    white.locator("button.dice-add-tally").click()
    expect(phone.locator(f"#die-{six} .verdict")).to_have_text("nessun segno di squilibrio dopo 240 tiri")
    record("dice-page", {"d20": {k: expected[k] for k in ("rolls", "chi2", "p")},
                         "d20_verdict": expected["verdict"]["it"], "d6": book.die_report(six)["p"]})

    # a camera roll of eight d6 at once: nobody knows which was the white one; the page asks
    table.session.new_game("button-goblin", D6_SETUP, archive=True)
    table.session.offer_reading(camera_reading(FIRST_ROLL))
    table.session.confirm()
    phone.reload()
    loaded(phone, 1)
    waiting = phone.locator("#dice-waiting-list li[data-roll]")
    expect(waiting).to_have_count(8)
    expect(waiting.first).to_contain_text("partita")
    waiting.nth(0).locator("input").check()
    waiting.nth(1).locator("input").check()
    phone.select_option("#dice-waiting-die", str(six))
    phone.click("#dice-waiting-assign")
    expect(phone.locator("#dice-waiting-list li[data-roll]")).to_have_count(6)
    expect(phone.locator(f"#die-{six} .dice-rolls")).to_have_text(
        "242 tiri: 2 letti dalla fotocamera, 240 inseriti a mano")
    shot(phone, "61-dice-waiting-it")

    # the CSV links download what the page counts
    href = phone.locator(f"#die-{six} a.dice-csv").get_attribute("href")
    assert href == f"/api/dice.csv?die={six}"
    response = phone.request.get(table.url(href))
    assert response.ok and response.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.text())))
    assert len(rows) == 242 and sum(r["entered"] == "camera" for r in rows) == 2
    everything = phone.request.get(table.url(phone.locator("#dice-csv-all").get_attribute("href") or ""))
    assert len(list(csv.DictReader(io.StringIO(everything.text())))) == 400 + 242 + 6

    # in English
    phone.click("#lang-toggle")
    loaded(phone, 1)
    expect(phone.locator("h1")).to_have_text("Your dice")
    expect(phone.locator(f"#die-{die} .verdict")).to_have_text(expected["verdict"]["en"])
    expect(phone.locator(f"#die-{six} .verdict")).to_have_text("no sign of bias after 242 rolls")
    shot(phone, "62-dice-en")


def test_a_die_taught_from_the_camera_on_its_card(table: Table, phone: Page) -> None:
    from tests.dice.test_looks import drawn, reader

    book = DiceBook(table.session.store, frames=table.camera, reader=reader)
    table.app.extensions["goblin.dice"] = book
    try:
        blue = book.name_die("il d6 blu", 6, "blue")["id"]
        phone.goto(table.url("/dice"))
        loaded(phone, 1)
        card = phone.locator(f"#die-{blue}")
        card.locator(".dice-teach summary").click()
        expect(card.locator(".dice-look-state")).to_have_text("La fotocamera non lo conosce ancora.")
        card.locator("button.dice-teach-button").click()  # no picture yet: said in words
        expect(phone.locator("#error")).to_contain_text("la fotocamera non ha ancora un'immagine")
        # on the drawn wooden tray: the shipped finder (finder6) misses a drawn blue d6 on the drawn
        # blue-green felt 2 times in 8 (values 4 and 5; finder5 missed the 1): the finder's matter, not
        # this flow's
        table.camera.frame = drawn([("blue", 4, 320, 240)], kind="wood")
        card.locator("button.dice-teach-button").click()
        loaded(phone, 2)
        card = phone.locator(f"#die-{blue}")
        expect(card.locator(".dice-look-state")).to_have_text(
            "La fotocamera lo riconosce (esempi insegnati: 1)")
        expect(card.locator(".dice-teach")).to_have_attribute("open", "")  # stays open across the redraw
        taught = table.session.store.die(blue)
        assert taught is not None and len(taught.looks) == 1
        shot(phone, "63-dice-taught-it")
    finally:
        table.app.extensions["goblin.dice"] = None
        table.camera.frame = None
