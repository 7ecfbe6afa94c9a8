"""The pages phones open. Each renders a skeleton in the chosen language; ``static/app.js`` fills it
from ``/api/state`` and keeps it live over ``/api/stream``."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, current_app, render_template
from markupsafe import Markup

from web.api import table, table_url
from web.calibration import EXTENSION as CALIBRATION
from web.calibration import TUNER
from web.finder import EXTENSION as FINDER
from web.focus import EXTENSION as FOCUS
from web.i18n import translate
from web.photo import EXTENSION as PHOTOS
from web.turn import EXTENSION as TURN
from web.zones import EXTENSION as ZONES

bp = Blueprint("pages", __name__)


@bp.app_template_filter("shown")
def shown(value: Any) -> str:
    """A setting as people read it: text as is, anything else as JSON."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


@bp.app_template_filter("script_json")
def script_json(value: Any) -> Markup:
    """``value`` as JSON for a ``<script type="application/json">`` block: UTF-8 as is (the page is UTF-8)
    and only ``<``, ``>`` and ``&`` escaped, so nothing can close the block early. Unlike ``tojson`` it keeps
    accents and apostrophes: the Italian catalogue weighs about 1.5 kB less on every page."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return Markup(text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e"))


def _page(name: str, **context: Any) -> str:
    snapshot = table().snapshot()
    game = snapshot.get("game")
    game_title = translate(f"game.{game}", snapshot.get("title") or game) if game else None
    calibrator = current_app.extensions.get(CALIBRATION)
    calibration = calibrator.state() if calibrator is not None else None  # every page: an unreadable file
    return render_template(f"{name}.html", page=name, game=game, game_title=game_title,
                           has_pin=bool(current_app.config.get("TABLE_PIN")), calibration=calibration,
                           photos=current_app.extensions.get(PHOTOS) is not None, **context)


@bp.get("/")
def table_page() -> str:
    finder = current_app.extensions.get(FINDER)
    return _page("table", finder_worse=finder is not None and finder.warning())


@bp.get("/join")
def join() -> str:
    return _page("join", url=table_url())


@bp.get("/setup")
def setup() -> str:
    return _page("setup")


@bp.get("/correct")
def correct() -> str:
    return _page("correct")


@bp.get("/settings")
def settings() -> str:
    keeper = current_app.extensions.get(ZONES)
    tuner = current_app.extensions.get(TUNER)
    finder = current_app.extensions.get(FINDER)
    turner = current_app.extensions.get(TURN)
    return _page("settings", settings=current_app.extensions["goblin.settings"], url=table_url(),
                 zone_state=keeper.state() if keeper is not None else None,
                 turn_state=turner.state() if turner is not None else None,
                 tune_state=tuner.state() if tuner is not None else None,
                 finder_state=finder.state() if finder is not None else None,
                 focus=current_app.extensions.get(FOCUS) is not None)
