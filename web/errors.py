"""One error handler: every error under ``/api/`` becomes JSON ``{"error": code, "detail": message}``.

Status codes:

======  =====================  ==================================================================
status  ``error``              when
======  =====================  ==================================================================
400     ``invalid-input``      malformed JSON, a body that is not an object, wrong types, a bad
                               setup or reading (``companion.errors.InvalidInput``)
403     ``pin-required``       a control action without the table PIN, when one is set
403     ``wrong-pin``          a control action with a wrong PIN
429     ``too-many-tries``     a PIN while this client (or the table) is locked out after wrong
                               tries; ``Retry-After`` and ``"retry_after"`` say how many seconds
404     ``not-found``          no such endpoint, or no camera image yet
405     ``method-not-allowed`` e.g. GET on a control action
413     ``payload-too-large``  a body over ``MAX_CONTENT_LENGTH`` (64 KB), not read; a photo over
                               8 MB or 4096x4096 pixels (``companion.photos``)
415     ``unsupported-media-type``  a body that is not JSON (a photo: not ``image/*``)
409     ``stale-step``         the page acted on an old step (``StaleStep``): nothing changed
409     ``illegal-action``     well-formed, but the rules forbid it now (``IllegalAction``)
409     ``nothing-to-teach``   teach mode: no token (or die) in the camera's picture
409     ``no-picture``         teach mode: the camera has no picture yet
409     ``nothing-to-read``    a phone's photo when the table expects no roll, or has no vision
429     ``too-many-photos``    a photo while another is read, or past 30 a minute (``retry_after``)
429     ``too-many-requests``  advice for another position while one is worked out (``web.advice``)
409     ``ambiguous-action``   the input could mean more than one thing (``AmbiguousAction``)
500     ``internal-error``     a bug; the detail names the exception, never an HTML page
======  =====================  ==================================================================

An error raised with a ``companion.messages.Message`` (the session's refusals, the rules cores' refusals,
the malformed inputs the session and the games' parsers name: wrong types, a bad notation, a value out of
range) adds its ``"key"`` and ``"params"`` for the page to translate; ``"detail"`` stays its English text.
This module only forwards them: it never reads the English back.

Pages outside ``/api/`` keep Flask's own HTML error pages, except that a 500 is a short text page.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, current_app, jsonify, request
from werkzeug.exceptions import HTTPException

from companion.errors import AmbiguousAction, GoblinError, IllegalAction, InvalidInput
from companion.messages import error_message
from companion.photos import NothingToRead, PhotoBusy, PhotoTooLarge
from web.advice import AdviceBusy


class PinError(GoblinError, PermissionError):
    """A control action without the right table PIN."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code = code


def _json_error(status: int, code: str, detail: str, **extra: Any) -> tuple[Response, int]:
    body = {"error": code, "detail": detail, **extra}
    return jsonify(body), status


def domain_status(error: GoblinError) -> tuple[int, str]:
    """The HTTP status and error code of a domain error."""
    if isinstance(error, PinError):
        return (429 if error.code == "too-many-tries" else 403), error.code
    if isinstance(error, PhotoTooLarge):
        return 413, "payload-too-large"
    if isinstance(error, (PhotoBusy, AdviceBusy)):
        return 429, error.code
    if isinstance(error, NothingToRead):
        return 409, error.code
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
        said = error_message(error)  # raised with a key (a refusal, a bad input): the page translates it
        extra = {} if said is None else {"key": said.key, "params": said.to_json()["params"]}
        retry = getattr(error, "retry_after", None)
        if isinstance(retry, int):  # the PIN's wrong-try wait: how long, for the page and for clients
            extra["retry_after"] = retry
        response, status = _json_error(status, code, str(error), **extra)
        if isinstance(retry, int):
            response.headers["Retry-After"] = str(retry)
        return response, status

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Any:
        if not _wants_json():
            return error
        if error.code == 413:  # MAX_CONTENT_LENGTH (a photo's own limit on /api/photo): the body was not read
            limit = request.max_content_length
            return _json_error(413, "payload-too-large",
                               f"the request body has {request.content_length or 'too many'} bytes; "
                               f"at most {limit}")
        code = (error.name or "error").lower().replace(" ", "-")
        return _json_error(error.code or 500, code, error.description or error.name)

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> Any:
        current_app.logger.exception("unexpected error on %s %s", request.method, request.path)
        detail = f"{type(error).__name__}: {error}"
        if _wants_json():
            return _json_error(500, "internal-error", detail)
        return Response(f"Internal error: {detail}\n", status=500, mimetype="text/plain")
