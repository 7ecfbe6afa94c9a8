"""The phone page: a thin Flask layer over the table session (app factory, JSON API, live updates).

``create_app(config=None, *, session=None, settings=None, calibrator=None)`` builds the app; the
composition root (``companion/serve.py``) passes the ``TableSession`` and the ``Calibrator`` it owns.
Views call one session method each and serialise its result: there is no rules logic here.

Configuration keys (``app.config``):

- ``TABLE_PIN``: the PIN control actions need (``None`` or ``""``: no PIN);
- ``TABLE_URL``: the address the join page and its QR code show (default: ``http://<LAN IP>:<port>/``,
  or ``LISTEN_HOST``'s address when the server listens on that one address only);
- ``LISTEN_HOST``: the address waitress listens on (``serve --host``; default None: every interface);
- ``DEFAULT_LANG``: ``"it"`` (default) or ``"en"``;
- ``SSE_HEARTBEAT``: seconds between keep-alive comments on the live stream (default 10);
- ``SSE_MAX_SECONDS``: a stream ends after this long and the browser reconnects (default 120), so a
  phone that went away frees its server thread;
- ``SSE_MAX_STREAMS``: live streams at once (default 16); a phone beyond them polls (see ``web.stream``);
- ``SSE_MAX_BYTES``: a stream ends after sending this much (default 512 KB), bounding what a phone that
  never reads leaves in the server's buffers;
- ``SSE_POLL_SECONDS``: how often a phone beyond ``SSE_MAX_STREAMS`` comes back (default 3);
- ``ALLOWED_HOSTS``: more host names the table answers to, besides IP addresses, ``localhost``, this
  machine's name and its ``.local`` name, and ``TABLE_URL``'s host (see ``web.guard``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import Any, Final

from flask import Flask
from flask.json.provider import DefaultJSONProvider

from web import advice, api, calibration, errors, guard, i18n, limits, pages, photo, pin, stream
from web import dice as dice_api
from web import finder as finder_api
from web import focus as focus_api
from web import turn as turn_api
from web import zones as zones_api
from web.stream import stop_streams

__all__ = ["EXTENSION", "create_app", "public_settings", "stop_streams"]

EXTENSION = "goblin"
"""``app.extensions[EXTENSION]`` holds the table session."""


SECRET_KEYS: Final = frozenset({"pin", "password", "secret", "token"})


def public_settings(settings: Mapping[str, Any]) -> dict[str, Any]:
    """The settings without secrets, for a page anybody at the table may open (the table PIN is a
    top-level ``pin``; ``led.pin`` and the buttons' pins are GPIO numbers and stay)."""
    return {key: value for key, value in settings.items() if key.lower() not in SECRET_KEYS}


def create_app(
    config: Mapping[str, Any] | None = None,
    *,
    session: Any = None,
    settings: Mapping[str, Any] | None = None,
    calibrator: Any = None,
    zones: Any = None,
    turn: Any = None,
    photos: Any = None,
    clock: Callable[[], float] | None = None,
    dice: Any = None,
    tuner: Any = None,
    finder: Any = None,
    focus: Any = None,
) -> Flask:
    """The companion's Flask app.

    Parameters
    ----------
    config:
        Flask configuration overrides (see the module docstring for the companion's own keys).
    session:
        The ``companion.session.TableSession`` to drive. Required.
    settings:
        What the settings page shows read-only (camera, zones, pins, port...), as JSON.
    calibrator:
        The table's ``companion.calibration.Calibrator`` (teach mode: Settings -> "Insegna al tavolo"
        and ``/api/calibration``); None: no teach section, and those endpoints answer 404.
    zones:
        The table's ``companion.zones.ZoneKeeper`` (Settings -> "Zone del vassoio" and ``/api/zones``);
        None: the zones are shown as configured, and those endpoints answer 404.
    turn:
        The table's ``companion.turn.TurnKeeper`` (Settings -> "Orientamento della camera" and
        ``/api/camera/turn``); None: no such section, and those endpoints answer 404.
    photos:
        The table's ``companion.photos.PhotoDesk`` (a phone as the camera: the page's photo button and
        ``POST /api/photo``); None: no photo button, and that endpoint answers 404.
    dice:
        The table's ``companion.dice.DiceBook`` (the page "I vostri dadi", ``/api/dice``); None: one over
        the session's store, with no camera to teach dice from.
    tuner:
        The table's ``companion.tuner.Tuner`` (Settings -> "Adatta ai dadi del tavolo" and ``/api/tune``);
        None: no such section, and those endpoints answer 404.
    finder:
        The table's ``companion.tablefinder.TableFinder`` (Settings -> the table's own finder,
        ``/api/finder`` and ``/api/dataset.zip``); None: no such part, and those endpoints answer 404.
    focus:
        The camera's ``companion.focus.FocusMeter`` (Settings -> "Messa a fuoco", ``/api/focus`` and
        ``/api/focus.jpg``); None: no such section, and those endpoints answer 404.
    clock:
        Seconds, for the PIN's wrong-try limits (default ``time.monotonic``; tests pass their own).
    """
    if session is None:
        raise ValueError("create_app needs the table session: create_app(session=TableSession(...))")
    app = Flask(__name__)
    app.config.from_mapping(
        TABLE_PIN=None,
        TABLE_URL=None,
        LISTEN_HOST=None,
        DEFAULT_LANG="it",
        SSE_HEARTBEAT=10.0,
        SSE_MAX_SECONDS=120.0,
        SSE_MAX_STREAMS=16,
        SSE_MAX_BYTES=512 * 1024,
        SSE_POLL_SECONDS=3.0,
        ALLOWED_HOSTS=(),
        MAX_CONTENT_LENGTH=limits.MAX_BODY,
    )
    if config is not None:
        app.config.from_mapping(config)
    if app.config["DEFAULT_LANG"] not in i18n.LANGUAGES:
        raise ValueError(f"DEFAULT_LANG must be one of {', '.join(i18n.LANGUAGES)}, "
                         f"not {app.config['DEFAULT_LANG']!r}")
    if isinstance(app.json, DefaultJSONProvider):
        app.json.sort_keys = False  # keep the session's order: version and step first
    app.extensions[EXTENSION] = session
    app.extensions[advice.EXTENSION] = advice.AdviceDesk(session)
    app.extensions["goblin.settings"] = public_settings(settings or {})
    app.extensions[calibration.EXTENSION] = calibrator
    app.extensions[calibration.TUNER] = tuner
    app.extensions[finder_api.EXTENSION] = finder
    app.extensions[focus_api.EXTENSION] = focus
    app.extensions[zones_api.EXTENSION] = zones
    app.extensions[turn_api.EXTENSION] = turn
    app.extensions[photo.EXTENSION] = photos
    app.extensions[dice_api.EXTENSION] = dice
    app.extensions[stream.STOP] = threading.Event()
    app.extensions[stream.SLOTS] = stream.Slots(int(app.config["SSE_MAX_STREAMS"]))
    app.extensions[pin.EXTENSION] = pin.PinGuard(clock) if clock is not None else pin.PinGuard()
    guard.init_app(app)
    i18n.init_app(app)
    errors.init_app(app)
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(stream.bp)
    app.register_blueprint(calibration.bp)
    app.register_blueprint(zones_api.bp)
    app.register_blueprint(turn_api.bp)
    app.register_blueprint(photo.bp)
    app.register_blueprint(dice_api.bp)
    app.register_blueprint(finder_api.bp)
    app.register_blueprint(focus_api.bp)
    return app
