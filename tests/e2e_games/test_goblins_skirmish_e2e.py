"""Goblins: Epic Death and the skirmish rules at the table, end to end through the session and the page.

Goblins: setup page -> a terrain faced on the page -> the camera's token count (injected as vision's
JSON: no goblin-token photos exist yet) confirmed with the GPIO CONFIRM button -> the army's troops.
Skirmish: setup page -> rolls typed on the correction page -> a shot chosen on the page, its target
number, modifiers and chance shown -> two d6 photos read by the replay camera -> VP and every pending
morale/rout test."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e_games.conftest import Table, photo, shot, wait_step

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def tokens(alive: int, dead: int) -> dict[str, Any]:
    """A reading as vision reports goblin tokens lying in the toss zone."""
    faces = ["alive"] * alive + ["dead"] * dead
    return {"width": 640, "height": 480, "dice": [], "tokens": [
        {"bbox": [20 + 50 * i, 200, 40, 40], "face": face, "confidence": 0.9, "zone": "toss"}
        for i, face in enumerate(faces)]}


def test_goblins_toss_counted_by_the_camera_and_confirmed(table: Table, page: Any) -> None:
    table.set_up(page, "goblins", ["Arnaldo", "Bice"], names="#field-players")
    page.fill("#field-terrains", "Torre|walls|4|2|-")
    table.start(page, "#army-0")
    assert page.inner_text("#army-0-troops") == "5"
    assert page.inner_text("#goblins-current") == "Arnaldo"

    page.click("button.choice:has-text('Affronta Torre')")  # select it, then confirm it
    page.wait_for_selector("button.choice.selected:has-text('Affronta Torre')")
    page.click("#confirm-choice")
    wait_step(page, 1)
    page.wait_for_selector("#goblins-toss")
    count = int(page.inner_text("#goblins-count"))
    assert count == table.session.snapshot()["expects"]["count"] > 0
    assert page.inner_text("#goblins-md") == "4"
    news = page.inner_text("#goblins-news")  # the core's log, in the page's Italian
    assert "Arnaldo affronta Torre (Valore di Difesa 4)" in news
    assert "Vittoria: attacco 5 contro difesa 4" in news
    assert "2" in page.inner_text("#goblins-epic-threshold")  # attack at most half of 4

    table.session.offer_reading(tokens(count - 1, 1), image=None)
    page.wait_for_function("() => document.querySelector('#goblins-dead').textContent === '1'")
    assert page.inner_text("#goblins-alive") == str(count - 1)
    shot(page, "goblins-toss-proposed")
    table.press("confirm")
    wait_step(page, 2)
    snap = table.session.snapshot()
    troops = snap["view"]["players"][0]["troops"]
    assert troops == 5 - 1 + 2  # one dead goblin, then 2 VP of reinforcements for the victory
    page.wait_for_function("(n) => document.querySelector('#army-0-troops').textContent === String(n)",
                           arg=troops)
    assert "Torre" in page.inner_text("#army-0")
    page.wait_for_function("() => document.querySelector('#goblins-news').textContent.includes('conquista')")
    news = page.inner_text("#goblins-news")
    assert f"Arnaldo lancia {count} goblin truppa per le perdite: vivi {count - 1}, morti 1" in news
    assert "Arnaldo conquista Torre: lo occupa, riceve 2 goblin di rinforzo e la carta (2 PV)" in news
    assert "tosses" not in page.inner_text("#view")  # no English log line, not even in the folded data
    table.session.correct({"type": "adjust", "player": 1, "troops": 1})  # a card effect, then a refused one
    wait_step(page, 3)
    page.evaluate("""() => fetch('/api/correct', {
        method: 'POST', headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({action: {type: 'adjust', player: 1, troops: -99}}),
    }).then((r) => r.json()).then((data) => { window.refused = data; })""")
    page.wait_for_function("() => window.refused !== undefined")
    refused = page.evaluate("window.refused")
    assert refused["key"] == "goblins.error.adjust"
    assert page.evaluate("(d) => window.goblin.t(d.key, d.params, d.detail)", refused) == (
        "Bice ha 6 goblin truppa: non se ne possono eliminare 99")
    assert snap["history"][-1]["action"] == {"type": "reading", "alive": count - 1, "dead": 1}
    assert snap["history"][-1]["source"] == "camera"
    shot(page, "goblins-after-toss")


SKIRMISH_BANDS = [("Elfi", "Lorien|T3|A3|S4|P20|eroe2|capitano\nArciere|T4|A4|S5|P10"),
                  ("Orchi", "Grishnak|T4|A3|S4|P15|capitano\nOrco|T5|A4|S5|P5")]


def test_skirmish_shot_with_its_odds_then_deaths_and_pending_tests(table: Table, page: Any) -> None:
    table.set_up(page, "skirmish")
    for i, (name, models) in enumerate(SKIRMISH_BANDS):
        page.locator(".band-name").nth(i).fill(name)
        page.locator(".band-models").nth(i).fill(models)
    table.start(page, "#band-0")
    assert page.locator("#band-0 tbody tr").count() == 2
    assert page.locator("#sk-cycle .cycle[data-band='0'] .cyc").all_inner_texts() == [
        "Tiro 2", "Tiro 3", "Assalto 2", "Assalto 3", "Speciale"]
    page.wait_for_selector("#sk-clock")
    assert page.inner_text("#sk-clock").endswith("/ 60:00")

    # deployment typed on the correction page; the first-card roll from another phone
    page.goto(f"{table.url}/correct")
    page.select_option("#slot-p0", "2")
    page.select_option("#slot-p1", "5")
    page.click("#correct-save")
    page.wait_for_url(f"{table.url}/")
    wait_step(page, 1)
    table.session.correct({"type": "reading", "values": {"p0": 6, "p1": 1}})
    wait_step(page, 2)
    page.click("button.choice:has-text('Elfi')")  # Elfi play first
    page.click("#confirm-choice")
    wait_step(page, 3)
    page.click("button.choice:has-text('Tiro 2')")
    page.click("#confirm-choice")
    wait_step(page, 4)
    assert "current" in page.get_attribute("#sk-cycle .cycle[data-band='0'] [data-card=tiro2]", "class")

    # Lorien shoots Grishnak in cover: the page shows 4+, the -1 for cover and the chance, before the roll
    index = next(c["index"] for c in table.session.snapshot()["choices"]
                 if c["action"].get("type") == "shoot" and c["params"] == {
                     "shooter": "Lorien", "target": "Grishnak", "cover": True})
    page.click(f"button.choice[data-index='{index}']")
    page.click("#confirm-choice")
    wait_step(page, 5)
    page.wait_for_selector("#check:not([hidden])")  # the table's one "Prima del tiro" box
    assert page.inner_text("#check-needs") == "Serve 4+ su 1d6"
    assert "Tiro: 3" in page.inner_text("#check")
    assert page.locator("#check ul.modifiers li").all_inner_texts() == ["copertura -1"]
    assert page.inner_text("#check-chance") == "probabilità 1/2 (50%)"
    assert page.locator("#sk-check").count() == 0  # shown once, not again in the view
    shot(page, "skirmish-check")

    # the camera reads a five: hit; Grishnak saves on 4+ and the camera reads a two: he dies
    assert table.show(photo("d6_five.jpg")) == 1
    page.wait_for_selector("#proposal:not([hidden]) [data-slot=d0]")
    page.click("#proposal-confirm")
    wait_step(page, 6)
    assert page.inner_text("#check-who") == "Tiro salvezza di Grishnak"
    news = page.inner_text("#sk-news")
    assert "Lorien tira a Grishnak (Tiro di Lorien): tiro 5 = 5, serve 4+: riuscito" in news
    assert "Colpito!" in page.inner_text("#sk-news")
    assert table.show(photo("d6_two.jpg")) == 1
    page.wait_for_selector("#proposal:not([hidden]) [data-slot=d0]")
    page.click("#proposal-confirm")
    wait_step(page, 7)
    assert page.inner_text("#sk-vp") == "Elfi 15 – Orchi 0"
    pending = page.locator("#sk-pending li").all_inner_texts()
    assert len(pending) == 2 == len(table.session.snapshot()["view"]["pending"])
    assert "rotta" in pending[0] and "morale" in pending[1] and "Orco" in pending[1]
    assert "st-dead" in page.get_attribute("#band-1 tr[data-model='0']", "class")
    news = page.inner_text("#sk-news")
    assert "Tiro salvezza di Grishnak: tiro 2 = 2, serve 4+: fallito" in news
    assert "Grishnak muore (15 punti a Elfi)" in news
    assert "Orchi deve fare un test di rotta: il capitano è morto" in news
    assert " dies " not in page.inner_text("#view")  # no English log line, not even in the folded data
    shot(page, "skirmish-pending-tests")
