"""GobCon at the table, end to end: setup page -> a Partita entered on the page (its payoff table
remembered) -> declarations with the GPIO NEXT/CONFIRM buttons -> two d6 photos read by the replay
camera and confirmed on the page -> the ledger, King uniqueness and the recent payoffs."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e_games.conftest import Table, photo, shot, wait_step

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def ledger(page: Any) -> dict[str, tuple[str, str, str]]:
    rows = page.locator("#gob-ledger tbody tr")
    out = {}
    for i in range(rows.count()):
        cells = rows.nth(i).locator("td").all_inner_texts()
        out[cells[0].split(" (")[0].strip()] = (cells[1], cells[2], cells[3])
    return out


def test_gobcon_partita_from_the_page_to_the_ledger(table: Table, page: Any) -> None:
    table.set_up(page, "gobcon", ["Ada", "Bea"])
    page.fill("#option-target", "12")
    table.start(page, "#gob-ledger")
    assert ledger(page) == {"Ada": ("0", "+0", "0"), "Bea": ("0", "+0", "0")}
    assert page.inner_text("#gob-target") == "12 GP"

    # Ada plays a Partita: its payoff table entered on the page
    form = page.locator("#gob-partita-form")
    form.locator("[name=name]").fill("Risiko")
    form.locator("[name=category]").select_option("board")
    for face, gp in (("king", "3"), ("green", "1"), ("black", "0"), ("darth", "-1")):
        form.locator(f"[name={face}]").fill(gp)
    form.locator("button[type=submit]").click()
    wait_step(page, 1)
    page.wait_for_selector("#gob-partita")
    assert "Risiko" in page.inner_text("#gob-partita")
    assert page.locator("#gob-partita-payoff td").all_inner_texts() == ["3", "1", "0", "-1"]
    remembered = page.evaluate("JSON.parse(localStorage.getItem('goblin.gobcon.payoffs'))")
    assert remembered[0] == {"name": "Risiko", "category": "board",
                             "payoff": {"king": 3, "green": 1, "black": 0, "darth": -1}}

    # Bea declares with the GPIO buttons: NEXT selects "takes part", CONFIRM applies it
    table.press("next")
    assert table.session.snapshot()["choices"][0]["action"] == {"type": "declare", "player": 1, "join": True}
    table.press("confirm")
    wait_step(page, 2)
    assert page.inner_text("#gob-partita-participants") == "Ada, Bea"

    # the proposer rolls first: a real photo of a six (King), confirmed on the page
    assert table.show(photo("d6_six.jpg")) == 1
    page.wait_for_selector("#proposal:not([hidden]) [data-slot=p0]")
    assert page.inner_text("#proposal [data-slot=p0] b") == "6"
    page.click("#proposal-confirm")
    wait_step(page, 3)
    assert ledger(page)["Ada"] == ("3", "+0", "3")
    assert "Re" in page.inner_text("#gob-partita-rolls")
    # Bea also rolls a six: only one King, hers counts Green (+1)
    assert table.show(photo("d6_six.jpg")) == 1
    page.wait_for_selector("#proposal:not([hidden]) [data-slot=p1]")
    page.click("#proposal-confirm")
    wait_step(page, 4)
    assert ledger(page) == {"Ada": ("3", "+0", "3"), "Bea": ("1", "+0", "1")}
    rolls = page.inner_text("#gob-last-rolls")
    assert "Verde" in rolls and "un solo Re" in rolls
    shot(page, "gobcon-after-partita")
    snap = table.session.snapshot()
    assert [p["total"] for p in snap["view"]["players"]] == [3, 1]
    assert [e["source"] for e in snap["history"]] == ["manual", "choice", "camera", "camera"]

    # the payoff table is offered again from this phone's memory
    page.reload()
    page.wait_for_selector("#gob-recent button")
    page.click("#gob-recent button")
    assert page.locator("#gob-partita-form [name=king]").input_value() == "3"
    assert page.locator("#gob-partita-form [name=name]").input_value() == "Risiko"

    page.goto(f"{table.url}/?lang=en")
    page.wait_for_selector("#gob-ledger")
    assert "GP ledger" in page.inner_text("#gob-ledger-card h2")
