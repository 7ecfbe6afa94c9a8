"""The pages: Italian by default, English on request (and remembered), translated titles, no CDN."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.games import GAMES
from companion.session import TableSession
from tests.helpers import assert_translated, placeholders
from tests.web.conftest import D6_SETUP, play_step
from web.i18n import game_words, words_for

PAGES = ("/", "/join", "/setup", "/correct", "/settings")
CATALOGUES = Path(__file__).parents[2] / "web" / "i18n"


def title_of(html: str) -> str:
    match = re.search(r"<title>(.*?)</title>", html, re.S)
    assert match, html[:200]
    return " ".join(match.group(1).split())


@pytest.mark.parametrize("path", PAGES)
def test_pages_are_italian_by_default(client: FlaskClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert '<html lang="it">' in html
    assert 'name="viewport"' in html


def test_english_on_request_and_remembered(client: FlaskClient) -> None:
    italian = client.get("/setup").get_data(as_text=True)
    assert title_of(italian).startswith("Nuova partita")
    response = client.get("/setup?lang=en")
    assert title_of(response.get_data(as_text=True)).startswith("New game")
    assert "lang=en" in response.headers["Set-Cookie"]
    again = client.get("/join").get_data(as_text=True)  # the cookie keeps English
    assert '<html lang="en">' in again and title_of(again).startswith("Join the table")
    back = client.get("/join?lang=it").get_data(as_text=True)
    assert title_of(back).startswith("Unisciti")


def test_an_unknown_language_falls_back_to_italian(client: FlaskClient) -> None:
    html = client.get("/?lang=xx").get_data(as_text=True)
    assert '<html lang="it">' in html


@pytest.mark.parametrize(("game", "setup", "italian", "english"), [
    ("button-goblin", D6_SETUP, "Button Goblin", "Button Goblin"),
    ("skirmish", {"bands": [{"name": "Elfi", "models": ["Lorien|T3|A3|S4|P20|eroe2|capitano"]},
                            {"name": "Orchi", "models": ["Grok|T4|A3|S4|P15|capitano"]}]},
     "Regole da schermaglia", "Skirmish rules"),
    ("goblins", {"players": ["Ada", "Bea"]}, "Goblins: Epic Death", "Goblins: Epic Death"),
])
def test_the_title_names_the_game_in_the_pages_language(
    client: FlaskClient, game: str, setup: dict[str, Any], italian: str, english: str
) -> None:
    assert client.post("/api/new-game", json={"game": game, "setup": setup}).status_code == 200
    assert title_of(client.get("/").get_data(as_text=True)) == f"Tavolo · {italian} · Goblin Companion"
    assert title_of(client.get("/?lang=en").get_data(as_text=True)) == f"Table · {english} · Goblin Companion"


def test_every_asset_is_local(client: FlaskClient) -> None:
    for path in PAGES:
        html = client.get(path).get_data(as_text=True)
        for tag, attr in (("script", "src"), ("link", "href"), ("img", "src")):
            for url in re.findall(rf"<{tag}\b[^>]*\b{attr}=\"([^\"]+)\"", html):
                assert not re.match(r"(https?:)?//", url), (path, url)
                assert client.get(url).status_code == 200, url


def test_join_page_shows_the_ip_address_and_its_qr(client: FlaskClient) -> None:
    html = client.get("/join", headers={"Host": "goblin.local:8080"}).get_data(as_text=True)
    address = re.search(r'id="address" href="([^"]+)"', html)
    assert address and re.fullmatch(r"http://\d+\.\d+\.\d+\.\d+:8080/", address.group(1))
    assert 'src="/api/qr.svg"' in html


def test_settings_page_shows_the_settings_read_only(client: FlaskClient) -> None:
    html = client.get("/settings").get_data(as_text=True)
    assert "sola lettura" in html
    assert "Zone del vassoio" in html and "[[0, 0], [0.5, 0], [0.5, 1], [0, 1]]" in html
    assert "Pulsanti GPIO" in html and "17" in html
    assert "LED di stato" in html and "23" in html
    assert "8080" in html
    assert "97531" not in html  # the table PIN is never shown to spectators


def test_the_page_carries_its_catalogue(client: FlaskClient) -> None:
    html = client.get("/").get_data(as_text=True)
    blob = re.search(r'<script type="application/json" id="messages">(.*?)</script>', html, re.S)
    assert blob is not None
    messages = json.loads(blob.group(1))
    assert messages["action.confirm"] == "Conferma"


@pytest.mark.parametrize("lang", ["it", "en"])
def test_the_page_carries_no_games_words(client: FlaskClient, lang: str) -> None:
    """A game's words come with its view (static/games/<game>.<lang>.json), not in every page's catalogue."""
    client.post("/api/new-game", json={"game": "button-goblin", "setup": D6_SETUP})
    html = client.get(f"/?lang={lang}").get_data(as_text=True)
    blob = re.search(r'<script type="application/json" id="messages">(.*?)</script>', html, re.S)
    assert blob is not None
    messages = json.loads(blob.group(1))
    for game in GAMES:
        words = game_words(lang, game)
        assert len(words) > 30 and not set(words) & set(messages), game
        served = client.get(f"/static/games/{game}.{lang}.json")
        assert served.status_code == 200 and served.json == words
    assert "Tirate tutti i dadi" not in html and "Roll all the dice" not in html  # Button Goblin's own prompt
    assert messages["action.confirm"] == ("Conferma" if lang == "it" else "Confirm")


def test_catalogues_agree() -> None:
    italian = json.loads((CATALOGUES / "it.json").read_text(encoding="utf-8"))
    english = json.loads((CATALOGUES / "en.json").read_text(encoding="utf-8"))
    missing = sorted(set(english) - set(italian))
    assert not missing, f"Italian (the default) lacks {missing}"
    for key in english:
        assert placeholders(english[key]) == placeholders(italian[key]), key
    for key in GAMES:
        assert f"game.{key}" in italian and f"game.{key}" in english


def test_button_goblins_initiative_reasons_are_in_both_catalogues() -> None:
    from companion.button_goblin.core import MESSAGES

    for lang in ("it", "en"):
        messages = words_for(lang, "button-goblin")
        for key, english in MESSAGES.items():
            assert placeholders(messages[key]) == placeholders(english), (lang, key)


def test_button_goblins_initiative_reason_carries_its_key(client: FlaskClient) -> None:
    from tests.web.conftest import D6_SETUP, FIRST_ROLL

    italian = words_for("it", "button-goblin")
    client.post("/api/new-game", json={"game": "button-goblin", "setup": D6_SETUP})
    state = client.post("/api/correct", json={"action": {"type": "reading", "values": FIRST_ROLL}}).json
    initiative = state["view"]["initiative"]
    said = initiative["reason_message"]
    assert said["text"] == initiative["reason"] and said["key"].startswith("bg.why.")
    assert said["key"] in italian
    assert placeholders(italian[said["key"]]) <= set(said["params"])


def test_button_goblins_message_keys_are_translated(session: TableSession) -> None:
    """Every prompt and choice key Button Goblin's flow uses has an Italian message with its params."""
    import random

    italian = words_for("it", "button-goblin")
    rng = random.Random(5)
    session.new_game("button-goblin", {"players": [{"name": "Anna", "button": "Lobo"},
                                                   {"name": "Bruno", "button": "Alisa", "ve": "VA"}]})
    seen: dict[str, set[str]] = {}
    for _ in range(200):
        snap = session.snapshot()
        for prompt in snap["view"]["prompts"]:
            seen.setdefault(prompt["key"], set()).update(prompt["params"])
        if snap["expects"]:
            seen.setdefault(snap["expects"]["prompt"], set()).update(snap["expects"]["params"])
        for choice in snap["choices"]:
            if choice["key"] and not choice["key"].startswith("attack."):  # attacks: built from their dice
                seen.setdefault(choice["key"], set()).update(choice["params"])
        if snap["over"]:
            break
        play_step(session, rng)
    assert_translated(seen, italian, 6)


def test_every_message_the_page_names_is_in_both_catalogues() -> None:
    web = CATALOGUES.parent
    scripts = [(web / "static" / name).read_text(encoding="utf-8") for name in ("app.js", "settings.js")]
    used = {key for script in scripts for key in re.findall(r'\bt\("([a-z_.\-]+)"', script)}
    for template in (web / "templates").glob("*.html"):
        used |= set(re.findall(r"""\bt\(\s*["']([a-z_.\-]+)["']""", template.read_text(encoding="utf-8")))
    assert len(used) > 40
    for lang in ("it", "en"):
        messages = json.loads((CATALOGUES / f"{lang}.json").read_text(encoding="utf-8"))
        # a prefix such as "nav." is completed at run time
        assert sorted(k for k in used - set(messages) if not k.endswith(".")) == [], lang


def test_the_catalogue_block_cannot_be_closed_early() -> None:
    from web.pages import script_json

    text = str(script_json({"x": "</script><b>&'è"}))
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text) == {"x": "</script><b>&'è"}
