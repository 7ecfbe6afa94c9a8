"""One error handler: every error under ``/api/`` becomes JSON ``{"error": code, "detail": message}``.

Status codes:

======  =====================  ==================================================================
status  ``error``              when
======  =====================  ==================================================================
400     ``invalid-input``      malformed JSON, a body that is not an object, wrong types, a bad
                               setup or reading (``companion.errors.InvalidInput``)
403     ``pin-required``       a control action without the table PIN, when one is set
403     ``wrong-pin``          a control action with a wrong PIN
404     ``not-found``          no such endpoint, or no camera image yet
405     ``method-not-allowed`` e.g. GET on a control action
409     ``stale-step``         the page acted on an old step (``StaleStep``): nothing changed
409     ``illegal-action``     well-formed, but the rules forbid it now (``IllegalAction``)
409     ``nothing-to-teach``   teach mode: no token (or die) in the camera's picture
409     ``no-picture``         teach mode: the camera has no picture yet
409     ``ambiguous-action``   the input could mean more than one thing (``AmbiguousAction``)
500     ``internal-error``     a bug; the detail names the exception, never an HTML page
======  =====================  ==================================================================

A refusal raised with a ``companion.messages.Message`` adds its ``"key"`` and ``"params"`` for the page to
translate. So does a malformed input whose English detail has one of the ``KNOWN`` shapes the session and
the games' parsers write (wrong types, a bad notation, a value out of range): those are matched here, so
the rules cores and the command lines keep their words. ``"detail"`` stays the English text.

Pages outside ``/api/`` keep Flask's own HTML error pages, except that a 500 is a short text page.
"""

from __future__ import annotations

import re
from typing import Any, Final

from flask import Flask, Response, current_app, jsonify, request
from werkzeug.exceptions import HTTPException

from companion.errors import AmbiguousAction, GoblinError, IllegalAction, InvalidInput
from companion.messages import Message, error_message


class PinError(GoblinError, PermissionError):
    """A control action without the right table PIN."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code = code


# English details of malformed input that our session and games' parsers write, and the message key each
# becomes (named groups are its params; a group named "field" is a form field the page names in its language)
_SHAPES: Final = (
    ("error.input.players",
     r"(?P<game>[\w: ]+) needs (?P<low>\d+) to (?P<high>\d+) players, got (?P<n>\d+)(: .*)?"),
    ("error.input.unknown_game",
     r"unknown game (?P<value>'.*?'); one of: (?P<options>.*)"),
    ("error.input.notation",
     r"bad (?P<what>\w+) notation (?P<value>'.*?'); expected something like (?P<example>'.*')"),
    ("error.input.not_one_of",
     r"(?P<what>\w+) (?P<notation>'.*?'): (?P<value>'.*?') is not one of (?P<options>.*)"),
    ("error.input.unknown",
     r"unknown (?P<what>category|effect|kind) (?P<value>'.*?'); one of: (?P<options>.*)"),
    ("error.input.unknown_event",
     r"unknown event type (?P<value>'.*?')(?:(;| in).*)?"),
    ("error.input.event_needs",
     r"event '(?P<event>\w+)' needs '(?P<field>\w+)'(: .*)?"),
    ("error.input.event_int",
     r"event '(?P<event>\w+)':? '?(?P<field>\w+)'? must be an integer, got (?P<value>.*)"),
    ("error.input.int",
     r"(?P<what>\w+) must be an integer, (not|got) (?P<value>.*)"),
    ("error.input.die_value",
     r"a d(?P<sides>\d+) shows 1 ?(to|\.\.) ?\d+, (not|got) (?P<value>.*)"),
    ("error.input.slot_value",
     r"slot '[^']*' \((?P<slot>.*?)\) needs a d(?P<sides>\d+) value 1-\d+, got (?P<value>.*)"),
    ("error.input.no_choice",
     r"no choice (?P<index>-?\d+): there are (?P<n>\d+) choices now.*"),
    ("error.input.no_die",
     r"no die (?P<index>-?\d+): the camera saw (?P<n>\d+) dice.*"),
    ("error.input.die_sides",
     r"a die has (?P<options>[\d, ]+) sides, not (?P<value>.*)"),
    ("error.input.no_button",
     r"no button called (?P<value>'.*?') in the roster"),
    ("error.input.model",
     r"a model is written like (?P<example>'.*?'), got (?P<value>'.*')"),
    ("error.input.model_needs",
     r"model (?P<value>'.*?') needs its (?P<what>.*)"),
    ("error.input.model_token",
     r"model (?P<value>'.*?'): unknown token (?P<token>'.*?').*"),
    # the table session's refusals (409)
    ("error.session.no_game",
     r"no game is being played: start one first"),
    ("error.session.nothing_read",
     r"nothing to confirm: the camera has no reading that fits .*"),
    ("error.session.nothing_selected",
     r"nothing to confirm: select a choice first .*"),
    ("error.session.no_choices",
     r"there is nothing to choose now(?P<camera>: the camera should read the dice)?"),
    ("error.session.nothing_to_undo",
     r"nothing to undo: .*"),
    ("error.session.nothing_to_fix",
     r"the camera has read nothing to fix yet: .*"),
    ("error.session.no_game_yet",
     r"no game has been played yet"),
    ("error.session.stale_step",
     r"step (?P<step>\d+) is stale: the table is at step (?P<current>\d+)"),
    ("error.session.stale_position",
     r"position .* is stale: .*"),
)
KNOWN: Final[tuple[tuple[re.Pattern[str], str], ...]] = tuple(
    (re.compile(pattern, re.S), key) for key, pattern in _SHAPES)


def known_input(detail: str) -> Message | None:
    """The message key and params of a malformed input's English ``detail``, when it has a known shape."""
    for pattern, key in KNOWN:
        found = pattern.fullmatch(detail)
        if found:
            params: dict[str, Any] = {k: v for k, v in found.groupdict().items() if v is not None}
            if "field" in params:  # a form's field: the page names it in its own words
                params["field"] = Message(f"field.{params['field']}", params["field"])
            if "what" in params:  # what was malformed (a terrain, a machine...): named in the page's words
                params["what"] = Message(f"error.what.{params['what']}", params["what"])
            if "camera" in params:  # the reason nothing can be chosen: the camera is to read the dice first
                params.pop("camera")
                key += "_camera"
            return Message(key, detail, params)
    return None


def _json_error(status: int, code: str, detail: str, **extra: Any) -> tuple[Response, int]:
    body = {"error": code, "detail": detail, **extra}
    return jsonify(body), status


def domain_status(error: GoblinError) -> tuple[int, str]:
    """The HTTP status and error code of a domain error."""
    if isinstance(error, PinError):
        return 403, error.code
    if any(cls.__name__ == "StaleStep" for cls in type(error).__mro__):
        return 409, "stale-step"
    if isinstance(error, AmbiguousAction):
        return 409, "ambiguous-action"
    if isinstance(error, IllegalAction):
        code = getattr(error, "code", None)  # a more precise code the page translates (teach mode)
        return 409, code if isinstance(code, str) else "illegal-action"
    if isinstance(error, InvalidInput):
        return 400, "invalid-input"
    return 400, "invalid-input"


def _wants_json() -> bool:
    return request.path.startswith("/api/")


def init_app(app: Flask) -> None:
    @app.errorhandler(GoblinError)
    def goblin_error(error: GoblinError) -> tuple[Response, int]:
        status, code = domain_status(error)
        said = error_message(error)  # a rules core's refusal: the page translates its key, like a prompt
        if said is None and code in ("invalid-input", "illegal-action", "stale-step"):
            said = known_input(str(error))
        extra = {} if said is None else {"key": said.key, "params": said.to_json()["params"]}
        return _json_error(status, code, str(error), **extra)

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Any:
        if not _wants_json():
            return error
        code = (error.name or "error").lower().replace(" ", "-")
        return _json_error(error.code or 500, code, error.description or error.name)

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> Any:
        current_app.logger.exception("unexpected error on %s %s", request.method, request.path)
        detail = f"{type(error).__name__}: {error}"
        if _wants_json():
            return _json_error(500, "internal-error", detail)
        return Response(f"Internal error: {detail}\n", status=500, mimetype="text/plain")
