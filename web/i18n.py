"""Italian by default, English on request: ``?lang=en`` (remembered in a cookie) or the page's toggle.

Catalogues are flat JSON files ``web/i18n/<lang>.json`` mapping message keys to text with
``{param}`` placeholders. The same catalogue goes to the page's script, which translates the flows'
message keys (prompts, choices, history) and falls back to the flow's English text for a key it lacks.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any, Final

from flask import Flask, Response, current_app, g, request

LANGUAGES: Final = ("it", "en")
COOKIE: Final = "lang"
CATALOGUES: Final = Path(__file__).with_name("i18n")
PHOTO_CARD: Final = "photo-card"
"""Not a page: the table page's photo card (``static/photo.js``), whose words ride in a block of their own
that only a table taking photos renders (:func:`own_catalogue`), so other tables download none of them."""
#: Keys only one page's script uses (prefix -> page): the other pages leave them out of the catalogue they
#: embed, so the table page a phone loads stays light. Templates (``t``) always have every key.
PAGE_ONLY: Final = {"setup.": "setup", "matches.": "setup", "dice.": "dice", "page.dice": "dice",
                    "nav.dice": "dice", "error.unknown-die": "dice", "teach.": "settings",
                    "zones.": "settings", "turn.": "settings",
                    "photo.": PHOTO_CARD, "error.photo.": PHOTO_CARD, "error.too-many-photos": PHOTO_CARD,
                    "error.nothing-to-read": PHOTO_CARD, "error.payload-too-large": PHOTO_CARD,
                    "error.unsupported-media-type": PHOTO_CARD,
                    "settings.": "settings", "join.": "join", "correct.seen": "correct",
                    "correct.hint": "correct", "correct.nothing": "correct", "correct.save": "correct",
                    "correct.bg_die": "correct", "correct.camera_read": "correct",
                    "correct.missing": "correct", "correct.add": "correct", "finder.": "settings"}


GAME_WORDS: Final = Path(__file__).with_name("static") / "games"
"""Each game's own words, ``<game>.<lang>.json`` (its prompts, choices, history, fields, forms, log and
refusals): the page fetches them with the game's view (``<game>.js``), so a page carries no other game's
words. ``static/games.<lang>.json`` holds the few words the games' views share."""
SHARED_GAME_WORDS: Final = Path(__file__).with_name("static")


def _read(path: Path) -> dict[str, str]:
    with path.open(encoding="utf-8") as file:
        data = json.load(file)
    return {str(k): str(v) for k, v in data.items()}


@cache
def game_words(lang: str, game: str) -> dict[str, str]:
    """Game ``game``'s own words in ``lang`` (empty for a game without a file)."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; one of {', '.join(LANGUAGES)}")
    path = GAME_WORDS / f"{game}.{lang}.json"
    return _read(path) if path.is_file() else {}


def words_for(lang: str, game: str) -> dict[str, str]:
    """Every word a page showing ``game`` can translate: the catalogue, the views' shared words and the
    game's own."""
    return {**_read(SHARED_GAME_WORDS / f"games.{lang}.json"), **game_words(lang, game), **catalogue(lang)}


def all_words(lang: str) -> dict[str, str]:
    """Every word of ``lang`` any page can show (the catalogue, the shared words and every game's)."""
    words = _read(SHARED_GAME_WORDS / f"games.{lang}.json")
    for path in sorted(GAME_WORDS.glob(f"*.{lang}.json")):
        words.update(_read(path))
    return {**words, **catalogue(lang)}


@cache
def catalogue(lang: str) -> dict[str, str]:
    """The messages of ``lang`` (the key itself stands in for a message the file lacks)."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; one of {', '.join(LANGUAGES)}")
    with (CATALOGUES / f"{lang}.json").open(encoding="utf-8") as file:
        data = json.load(file)
    return {str(k): str(v) for k, v in data.items()}


@cache
def page_catalogue(lang: str, page: str) -> dict[str, str]:
    """What page ``page`` embeds for its script: :func:`catalogue` without the keys of other pages."""
    return {key: text for key, text in catalogue(lang).items()
            if all(not key.startswith(prefix) or only == page for prefix, only in PAGE_ONLY.items())}


@cache
def own_catalogue(lang: str, page: str) -> dict[str, str]:
    """Only the keys :data:`PAGE_ONLY` gives ``page`` (the photo card's block: ``own_catalogue(lang,
    PHOTO_CARD)``)."""
    return {key: text for key, text in catalogue(lang).items()
            if any(key.startswith(prefix) and only == page for prefix, only in PAGE_ONLY.items())}


def current_lang() -> str:
    """The language of this request: ``?lang=``, then the cookie, then ``DEFAULT_LANG``."""
    if "lang" in g:
        return str(g.lang)
    for candidate in (request.args.get("lang"), request.cookies.get(COOKIE)):
        if candidate in LANGUAGES:
            g.lang = candidate
            return candidate
    g.lang = current_app.config["DEFAULT_LANG"]
    return str(g.lang)


def translate(key: str, default: str | None = None, **params: Any) -> str:
    """The current language's text for ``key``, with ``{params}`` filled in."""
    text = catalogue(current_lang()).get(key)
    if text is None:
        text = default if default is not None else key
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError):
        return text


def init_app(app: Flask) -> None:
    @app.context_processor
    def inject() -> dict[str, Any]:
        lang = current_lang()
        return {"t": translate, "lang": lang, "languages": LANGUAGES, "messages": catalogue(lang),
                "page_messages": lambda page: page_catalogue(lang, str(page)),
                "own_messages": lambda page: own_catalogue(lang, str(page))}

    @app.after_request
    def remember(response: Response) -> Response:
        chosen = request.args.get("lang")
        if chosen in LANGUAGES and request.cookies.get(COOKIE) != chosen:
            response.set_cookie(COOKIE, chosen, max_age=365 * 24 * 3600, samesite="Lax")
        return response
