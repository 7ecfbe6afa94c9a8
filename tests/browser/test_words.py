"""What the page says and lets players type, in Debian's chromium: the Goblins hero notation field, and
the words of issue 16 point 10 (history, status lines, counts, Italian forms, the tray-zone radios)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Table, settled, shot
from tests.web.conftest import D6_SETUP, FIRST_ROLL, camera_reading

pytestmark = pytest.mark.browser


def test_a_goblins_hero_is_played_by_its_notation(table: Table, phone: Page) -> None:
    table.session.new_game("goblins", {"players": ["Ada", "Bea"]}, archive=True)
    phone.goto(table.url("/"))
    settled(phone)  # the game's view and the stream's first snapshot draw the forms again: after them, type
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


def die_words(dice: list[dict[str, Any]], i: int) -> str:
    same = [j for j, d in enumerate(dice) if d["size"] == dice[i]["size"]]
    nth = f" #{same.index(i) + 1}" if len(same) > 1 else ""
    return f"d{dice[i]['size']}{nth} ({dice[i]['value']})"


def test_the_history_says_which_die_captured_which_in_italian_and_english(table: Table, phone: Page) -> None:
    table.session.new_game("button-goblin", D6_SETUP, archive=True)
    table.session.offer_reading(camera_reading(FIRST_ROLL))
    before = table.session.confirm()
    mover = before["view"]["turn"]["player"]
    mine, theirs = (before["view"]["players"][p]["dice"] for p in (mover, 1 - mover))
    choice = next(c for c in before["choices"] if c["action"].get("kind") == "power"
                  and mine[c["action"]["attackers"][0]]["size"] and theirs[c["action"]["targets"][0]]["size"])
    attacker = die_words(mine, choice["action"]["attackers"][0])
    target = die_words(theirs, choice["action"]["targets"][0])
    names = [p["name"] for p in before["view"]["players"]]
    table.session.choose(choice["index"])
    phone.goto(table.url("/"))
    newest = phone.locator("#history li").first
    expect(newest).to_have_text(
        f"{names[mover]}, Attacco di Potenza: {attacker} cattura {target} di {names[1 - mover]}")
    shot(phone, "31-history-capture-it")
    phone.goto(table.url("/?lang=en"))
    expect(phone.locator("#history li").first).to_have_text(
        f"{names[mover]}, Power Attack: {attacker} captures {target} of {names[1 - mover]}")


def test_the_goblins_status_line_says_who_does_what(table: Table, phone: Page) -> None:
    table.session.new_game("goblins", {"players": ["Ada", "Bea"]}, archive=True)
    phone.goto(table.url("/"))
    expect(phone.locator("#status")).to_contain_text("Ada, fase A (Rinforzi): prendi goblin o pesca carte")


def test_dadoteck_names_the_same_roller_in_the_status_and_the_board(table: Table, phone: Page) -> None:
    table.session.new_game("dadoteck", {"players": ["Anna", "Bruno"]}, archive=True)
    phone.goto(table.url("/"))
    expect(phone.locator("#status")).to_contain_text("Anna: tira il d20")
    expect(phone.locator("#dado-wait")).to_have_text(
        "La fotocamera aspetta il tiro di Anna (d20), poi di Bruno")
    shot(phone, "32-dadoteck-wait")


def test_skirmish_order_rolls_are_one_die_per_band_and_points_are_counted_right(
        table: Table, phone: Page) -> None:
    table.session.new_game("skirmish", {"bands": [
        {"name": "Elfi", "models": ["Lorien|T3|A3|S4|P20|eroe1|capitano"]},
        {"name": "Orchi", "models": ["Grok|T4|A3|S4|P15|capitano"]}]}, archive=True)
    phone.goto(table.url("/"))
    pending = phone.locator("#sk-pending li").first
    expect(pending).to_contain_text("Elfi, Orchi: un d6 per banda")
    expect(pending).not_to_contain_text("2d6")
    expect(phone.locator("main")).to_contain_text("eroe 1 (punti eroismo: 1)")
    expect(phone.locator("main")).not_to_contain_text("1 punti")
    shot(phone, "33-skirmish-order-roll")


def test_goblins_cards_are_written_with_the_rulebooks_italian_words(table: Table, phone: Page) -> None:
    phone.goto(table.url("/setup?game=goblins"))
    terrains, machines = phone.locator("#field-terrains"), phone.locator("#field-machines")
    assert "mura" in (terrains.get_attribute("placeholder") or "")
    assert "ariete" in (machines.get_attribute("placeholder") or "")
    expect(phone.locator("label[for=field-machines]")).to_contain_text("ariete/cannone/semplice")
    expect(phone.locator("#setup-fields")).not_to_contain_text("walls")
    terrains.fill("Torre|mura|4|2|-")
    machines.fill("Ariete|ariete|3|1|1")
    phone.click("#start")
    phone.wait_for_url(table.url("/"))
    assert table.session.snapshot()["game"] == "goblins"
    assert table.session.export()["setup"]["terrains"] == ["Torre|mura|4|2|-"]  # as typed; parsed as walls
    settled(phone)  # the hint below is the game's words, drawn with its view; and the form is typed into
    phone.click("#forms > summary")
    phone.click(".flow-form-box[data-type=play_machine] > summary")
    field = phone.locator("#form-play_machine-machine")
    assert "ariete" in (field.get_attribute("placeholder") or "")
    field.fill("Ariete|ariete|3|1|1")
    phone.locator("form.flow-form[data-type=play_machine] button[type=submit]").click()
    expect(phone.locator("#history li")).to_have_count(1)
    assert table.session.snapshot()["view"]["players"][0]["machines"][0]["kind"] == "ram"


def test_the_tray_zone_radios_sit_left_of_their_words(table: Table, phone: Page) -> None:
    phone.goto(table.url("/settings"))
    label = phone.locator("label.pick:has(input[value=left-right])")
    radio = label.locator("input")
    words = label.bounding_box()
    box = radio.bounding_box()
    assert words is not None and box is not None
    assert box["width"] < 30 and box["height"] < 30, box  # was drawn as wide as the card
    assert words["height"] < 60, words  # one row: the radio is beside its words, not above them
    shot(phone, "34-zone-radios")


def test_a_lost_replay_says_why_where_a_phone_sees_it(table: Table, phone: Page) -> None:
    table.session.set_camera_status({"state": "ok", "message": ""})
    phone.goto(table.url("/"))
    why = phone.locator("#camera-why")
    expect(why).to_be_hidden()
    table.session.set_camera_status({"state": "lost", "message": "camera replay:/srv/foto lost (...)",
                                     "error": "ReplayGone: no photos in '/srv/foto'", "code": "replay-empty",
                                     "where": "/srv/foto"})
    expect(why).to_have_text("Fotocamera persa: nella cartella /srv/foto non c'è nessuna foto; "
                             "riprende da sola quando tornano le foto")
    shot(phone, "35-replay-empty")
    table.session.set_camera_status({"state": "ok", "message": ""})
    expect(why).to_be_hidden()


def test_a_replay_says_on_the_page_that_it_is_one(table: Table, phone: Page) -> None:
    """``--camera replay`` shows recorded photos: every page says so, in its language, lest the recorded
    dice pass for the players' own; a lost replay says why instead, and a camera says nothing."""
    replay = {"state": "ok", "message": "camera replay:/srv/demo ok", "source": "replay:/srv/demo",
              "replay": True}
    table.session.set_camera_status(replay)
    phone.goto(table.url("/"))
    why = phone.locator("#camera-why")
    expect(why).to_be_visible()
    expect(why).to_contain_text("Replica: la fotocamera non guarda il vostro tavolo")
    expect(why).to_contain_text("replay:/srv/demo")
    expect(why).to_contain_text("--camera none")
    shot(phone, "36-replay")
    phone.goto(table.url("/settings?lang=en"))
    expect(phone.locator("#camera-why")).to_contain_text("Replay: the camera is not looking at your table")
    table.session.set_camera_status({**replay, "state": "lost", "code": "replay-empty", "where": "/srv/demo"})
    expect(phone.locator("#camera-why")).to_contain_text("Camera lost")
    table.session.set_camera_status({"state": "ok", "message": "", "source": "picamera2:0"})
    expect(phone.locator("#camera-why")).to_be_hidden()
    phone.goto(table.url("/?lang=it"))


def test_a_die_of_the_wrong_kind_is_named_in_italian_and_english(table: Table, phone: Page) -> None:
    # Dadoteck rolls a d20; the camera read a d6: the page says which, not only that the reading does not fit
    table.session.new_game("dadoteck", {"players": ["Anna", "Bruno"]}, archive=True)
    table.session.offer_reading(camera_reading({"p0": 4}))   # a d6, as the camera reads one
    phone.goto(table.url("/"))
    expect(phone.locator("#awaiting-text")).to_contain_text("atteso: d20; la fotocamera vede: d6")
    shot(phone, "33-dadoteck-wrong-die")
    phone.goto(table.url("/?lang=en"))
    expect(phone.locator("#awaiting-text")).to_contain_text("expected: d20; the camera sees: d6")


def test_a_burnt_frame_says_so_above_its_proposal_in_italian_and_english(table: Table, phone: Page) -> None:
    # a lamp switched on over the table: the reading is still proposed, and the page says why the camera may
    # miss or misread dice (vision.exposure)
    table.session.new_game("button-goblin", D6_SETUP, archive=True)
    table.session.offer_reading({**camera_reading(FIRST_ROLL), "light": "burnt"})
    assert table.session.snapshot()["reading"]["light"] == "burnt"
    phone.goto(table.url("/"))
    note = phone.locator("#light-note")
    expect(note).to_contain_text("Troppa luce sul tavolo: l'immagine è sovraesposta")
    expect(phone.locator("#proposal")).to_be_visible()
    shot(phone, "37-burnt-frame")
    phone.goto(table.url("/?lang=en"))
    expect(note).to_contain_text("Too much light on the table")
    table.session.offer_reading({**camera_reading(FIRST_ROLL), "light": "dark"})
    expect(note).to_contain_text("The table is too dark")
    table.session.offer_reading(camera_reading(FIRST_ROLL))      # the lamp is right again
    expect(note).to_be_hidden()
    expect(phone.locator("#proposal")).to_be_visible()
    phone.goto(table.url("/?lang=it"))
