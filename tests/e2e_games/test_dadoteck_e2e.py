"""Dadoteck at the table, end to end: setup page -> replay camera -> confirm on the page and with the
GPIO CONFIRM button -> a square chosen on the board -> the board, the order and the eliminations."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e_games.conftest import Table, photo, shot, wait_step

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_dadoteck_from_setup_to_a_squash_on_the_board(table: Table, page: Any) -> None:
    table.set_up(page, "dadoteck", ["Anna", "Bruno", "Carla"])
    table.start(page, "#dado-board .sq")
    assert page.locator("#dado-board .sq").count() == 20
    assert "Suicidio" in page.inner_text("#dado-sq-1") and "Assassinio" in page.inner_text("#dado-sq-20")
    assert "Anna" in page.inner_text("#dado-wait")  # whose roll the camera waits for (Italian)

    # placement: the camera reads Anna's d20 photo (a 5); confirmed on the page
    assert table.show(photo("d20_05.jpg")) == 1
    page.wait_for_selector("#proposal:not([hidden]) [data-slot=p0]")
    assert page.inner_text("#proposal [data-slot=p0] b") == "5"
    page.click("#proposal-confirm")
    wait_step(page, 1)
    assert "Anna" in page.inner_text("#dado-sq-5 .pawn")
    # Bruno's roll typed on the correction page, Carla's from another phone
    page.goto(f"{table.url}/correct")
    page.select_option("#slot-p1", "12")
    page.click("#correct-save")
    page.wait_for_url(f"{table.url}/")
    wait_step(page, 2)
    table.session.correct({"type": "reading", "values": {"p2": 18}})
    wait_step(page, 3)
    assert "Bruno" in page.inner_text("#dado-sq-12 .pawn") and "Carla" in page.inner_text("#dado-sq-18 .pawn")

    # initiative: Anna's 19 read by the camera and confirmed with the GPIO CONFIRM button
    assert table.show(photo("d20_19.jpg")) == 1
    assert table.session.snapshot()["proposal"]["action"] == {"type": "reading", "values": {"p0": 19}}
    table.press("confirm")
    table.session.correct({"type": "reading", "values": {"p1": 3}})
    table.session.correct({"type": "reading", "values": {"p2": 10}})
    wait_step(page, 6)
    order = [t.split(" ·")[0] for t in page.locator("#dado-order li").all_inner_texts()]
    assert order == ["Anna", "Carla", "Bruno"]

    # movement: Anna rolls 13 (the cowards' square): she may settle on 12, 13 or 14
    assert table.show(photo("d20_13.jpg")) == 1
    page.wait_for_selector("#proposal:not([hidden]) [data-slot=p0]")
    page.click("#proposal-confirm")
    wait_step(page, 7)
    page.wait_for_selector("#dado-board button.sq.option")
    options = sorted(int(x) for x in page.locator("#dado-board button.sq.option").evaluate_all(
        "(nodes) => nodes.map((n) => n.dataset.square)"))
    assert options == [12, 13, 14]
    assert "Anna" in page.inner_text("#dado-wait")
    shot(page, "dadoteck-square-choice")
    page.click("#dado-sq-12")  # squash Bruno
    wait_step(page, 8)
    assert "Anna" in page.inner_text("#dado-sq-12 .pawn")
    assert page.locator("#dado-sq-5 .pawn").count() == 0
    assert "Bruno" in page.inner_text("#dado-eliminations")
    assert "spiattellato" in page.inner_text("#dado-eliminations")
    snap = table.session.snapshot()
    bruno = snap["view"]["players"][1]
    assert bruno["alive"] is False and snap["view"]["players"][0]["square"] == 12
    assert [e["source"] for e in snap["history"]] == [
        "camera", "manual", "manual", "camera", "manual", "manual", "camera", "choice"]
    shot(page, "dadoteck-after-squash")

    # English on request
    page.goto(f"{table.url}/?lang=en")
    page.wait_for_selector("#dado-board .sq")
    assert "Board" in page.inner_text("#dado-board-card h2")
    assert "squashed by Anna" in page.inner_text("#dado-eliminations")


def test_a_d16_board_and_a_d3_initiative_die_on_the_page(table: Table, page: Any) -> None:
    """«si può usare un dado con meno facce» (any die) and «via via anche i Pusillanimi», on the phone."""
    table.session.new_game("dadoteck", {"players": ["Anna", "Bruno", "Carla"], "options": {"speedup": True}})
    for p, square in enumerate((2, 5, 8)):
        table.session.correct({"type": "reading", "values": {f"p{p}": square}})
    page.goto(table.url)
    page.wait_for_selector("#dado-board .sq")
    group = page.locator("#choice-groups details[data-group=speedup]")
    group.locator("summary").click()  # a long list is folded by group
    group.locator("button.choice", has_text="d16 per il movimento").click()
    page.click("#confirm-choice")
    wait_step(page, 4)
    assert page.inner_text("#dado-movement-die").strip().endswith("d16")
    dormant = page.locator("#dado-board .sq.dormant").evaluate_all("(ns) => ns.map((n) => +n.dataset.square)")
    assert dormant == [17, 20]
    assert page.locator("#dado-board .sq.out").count() == 4
    table.session.correct({"type": "initiative-die", "sides": 3})
    page.goto(f"{table.url}/correct")
    page.wait_for_selector("#slot-p0", state="attached")
    assert page.locator("#slot-p0 option").count() == 4  # "?" and the three faces of the d3
