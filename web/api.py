"""The JSON API the page itself uses: ``/api/...``. Each view calls one session method.

Control actions (every POST) need the table PIN when one is set, in the ``X-Table-PIN`` header or
the body's ``"pin"``. Their bodies are JSON objects; ``"step"`` (optional) is the step the page
showed, so a tap on an old page gets 409 ``stale-step`` and changes nothing; ``"position"`` (optional,
the snapshot's text) also catches a step that was undone and confirmed again.
"""

from __future__ import annotations

import io
import ipaddress
import socket
from collections.abc import Callable, Mapping
from functools import wraps
from typing import Any, TypeVar, cast
from urllib.parse import urlsplit

import segno
from flask import Blueprint, Response, current_app, jsonify, request
from werkzeug.exceptions import NotFound

from companion.errors import InvalidInput
from companion.games import available_games, find_game
from companion.messages import Message
from companion.session import Snapshot
from web import limits
from web.advice import EXTENSION as ADVICE
from web.errors import PinError
from web.pin import EXTENSION as PIN_GUARD

bp = Blueprint("api", __name__, url_prefix="/api")

# A malformed request's English detail (the API's and the command line's words); the page translates the key
MESSAGES: dict[str, str] = {
    "error.input.json": "the request body is not valid JSON: {error}",
    "error.input.not_object": "the request body must be a JSON object, not {kind}: {raw}",
    "error.input.needs_int": "the body needs {field}: an integer",
    "error.input.not_int": "{field} must be an integer, not {value}",
    "error.input.position": "'position' must be the snapshot's \"position\" text, not {value}",
    "error.input.game": "\"game\" must be a game name, not {value}",
    "error.input.setup": "\"setup\" must be a JSON object, not {value}",
    "error.input.action": "\"action\" must be a JSON object with a \"type\", not {value}",
    "error.input.remove": "\"remove\" must be true or false, not {value}",
    "error.input.archive": "\"archive\" must be true or false, not {value}",
    "error.input.game_id": "\"game_id\" must be a match's number (see /api/matches), not {value}",
}


def bad_input(key: str, /, **params: Any) -> InvalidInput:
    """An InvalidInput whose detail is ``MESSAGES[key]`` and which carries the key for the page."""
    return InvalidInput(Message.of(MESSAGES, key, **params))


def number_arg(name: str, refuse: Callable[[str], Exception]) -> int | None:
    """The query's ``?name=`` as a whole number (an id), None when it is absent; anything else raises
    ``refuse(raw)`` with the raw text cut to 40 characters."""
    raw = request.args.get(name)
    if raw is None:
        return None
    if not raw.isascii() or not raw.isdigit() or len(raw) > 18:
        raise refuse(raw[:40])
    return int(raw)


def _bad_game_id(raw: str) -> InvalidInput:
    return bad_input("error.input.game_id", value=repr(raw))


F = TypeVar("F", bound=Callable[..., Any])


def table() -> Any:
    """The table session of the current app."""
    return current_app.extensions["goblin"]


def answer(snapshot: Snapshot) -> Response:
    """A snapshot as the API answers it: the session's own JSON text of it, written once per version (the
    bytes ``jsonify`` would write), not parsed and dumped again."""
    return current_app.response_class(snapshot.text + "\n", mimetype="application/json")


def part(extension: str, missing: str) -> Any:
    """An optional part of the app (``app.extensions[extension]``); 404 ``not-found`` saying ``missing``
    when the app was built without it."""
    found = current_app.extensions.get(extension)
    if found is None:
        raise NotFound(missing)
    return found


def body() -> dict[str, Any]:
    """The request's JSON object (an empty body is ``{}``); InvalidInput when it is not one."""
    raw = request.get_data(cache=True)
    if not raw.strip():
        return {}
    try:
        data = limits.parse_body(raw)
    except (ValueError, UnicodeDecodeError) as error:
        raise bad_input("error.input.json", error=str(error)[:200]) from None
    if not isinstance(data, dict):
        raise bad_input("error.input.not_object", kind=type(data).__name__,
                        raw=repr(raw[:60].decode("utf-8", "replace")))
    return data


def _int_field(data: Mapping[str, Any], key: str, *, required: bool) -> int | None:
    if key not in data or (data[key] is None and not required):
        if required:
            raise bad_input("error.input.needs_int", field=repr(key))
        return None
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise bad_input("error.input.not_int", field=repr(key), value=repr(value))
    return value


def step_of(data: Mapping[str, Any]) -> int | None:
    """The body's ``"step"`` (None: no check)."""
    return _int_field(data, "step", required=False)


def archive_of(data: Mapping[str, Any]) -> bool:
    """The body's ``"archive"``: true when the players confirmed that the match in progress is archived."""
    value = data.get("archive", False)
    if not isinstance(value, bool):
        raise bad_input("error.input.archive", value=repr(value))
    return value


def position_of(data: Mapping[str, Any]) -> str | None:
    """The body's ``"position"``, the snapshot's text the page showed (None: no check)."""
    value = data.get("position")
    if value is None or isinstance(value, str):
        return value
    raise bad_input("error.input.position", value=repr(value))


def check_pin(data: Mapping[str, Any]) -> None:
    """Raise PinError unless the request carries the table PIN (when one is set); TooManyTries (429)
    while this client, or the whole table, is locked out after wrong tries."""
    expected = current_app.config.get("TABLE_PIN")
    if not expected:
        return
    given = request.headers.get("X-Table-PIN")
    if given is None:
        raw = data.get("pin")
        given = raw if isinstance(raw, str) else (str(raw) if isinstance(raw, int) else None)
    if not given:
        raise PinError("pin-required", "this action needs the table PIN (header X-Table-PIN or \"pin\")")
    # constant-time, and a few wrong tries a minute per client and overall (web.pin)
    current_app.extensions[PIN_GUARD].check(request.remote_addr or "?", given, str(expected))


def control(view: F) -> F:
    """A control action: parse the body, check the PIN, pass the body to the view."""

    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        data = body()
        check_pin(data)
        return view(data, *args, **kwargs)

    return cast(F, wrapper)


# ------------------------------------------------------------------------------------------ reading


@bp.get("/state")
def state() -> Response:
    return answer(table().snapshot())


@bp.get("/history")
def history() -> Response:
    """The current game's confirmed steps by pages: ``?from=1&limit=500`` (the snapshot has the last 30)."""
    numbers = {}
    for name, default in (("from", 1), ("limit", 500)):
        raw = request.args.get(name, str(default))
        try:
            numbers[name] = int(raw)
        except ValueError:
            raise InvalidInput(f"{name!r} must be a whole number, not {raw[:40]!r}") from None
    return jsonify(table().history(numbers["from"], numbers["limit"]))


@bp.get("/advice")
def advice() -> Response:
    """What each legal attack is worth, for the position at the table (Button Goblin): asked for by the
    page's *Consiglio* button only. ``?seed=N`` (default 0): the simulation's seed."""
    raw = request.args.get("seed", "0")
    if not raw.isascii() or not raw.isdigit() or len(raw) > 9:
        raise bad_input("error.input.not_int", field="'seed'", value=repr(raw[:40]))
    # one at a time for the whole table, kept by position (web.advice): 429 while another is worked out
    return jsonify(current_app.extensions[ADVICE].advice(seed=int(raw)))


@bp.get("/games")
def games() -> Response:
    out = []
    for name in available_games():
        flow = find_game(name)
        out.append({"game": name, "title": flow.title, "setup_schema": flow.setup_schema()})
    return jsonify(out)


@bp.get("/matches")
def matches() -> Response:
    """The matches in the log, newest first, 50 a page (``?before=<game_id>``: the older ones): ``{"matches":
    [...], "more": bool}``; the one at the table has ``"current": true``."""
    return jsonify(table().matches(before=number_arg("before", _bad_game_id)))


@bp.get("/export")
def export() -> Response:
    """The match at the table, or ``?game_id=N`` any match of ``/api/matches``."""
    game_id = number_arg("game_id", _bad_game_id)
    response = jsonify(table().export(game_id))
    if request.args.get("download"):
        name = "goblin-match.json" if game_id is None else f"goblin-match-{game_id}.json"
        response.headers["Content-Disposition"] = f"attachment; filename={name}"
    return response


@bp.get("/snapshot.jpg")
def snapshot_jpg() -> Response:
    image = table().image()
    if not image:
        raise NotFound("the camera has no image yet")
    return jpeg_response(image)


def jpeg_response(image: bytes, **headers: str) -> Response:
    """A camera picture: never cached (the next frame is another picture), with ``headers`` besides."""
    response = Response(image, mimetype="image/jpeg")
    response.headers["Cache-Control"] = "no-store"
    response.headers.update(headers)
    return response


def lan_ip() -> str:
    """This machine's address on the local network (no packet is sent); 127.0.0.1 without one."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))
        return str(probe.getsockname()[0])
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


def _listen_ip() -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The one address the server listens on (``LISTEN_HOST``), or None when it listens on every
    interface (``0.0.0.0``, ``::``) or the app was not told."""
    try:
        ip = ipaddress.ip_address(str(current_app.config.get("LISTEN_HOST") or ""))
    except ValueError:
        return None
    return None if ip.is_unspecified else ip


def table_url() -> str:
    """The address phones should open: ``TABLE_URL``, else an IP address with this request's port.

    Many phones do not resolve ``.local`` names, so a name or a loopback address is replaced by the
    machine's LAN IP, unless the server listens on one address only (``LISTEN_HOST``): then that one.
    """
    configured = current_app.config.get("TABLE_URL")
    if configured:
        return str(configured)
    parts = urlsplit("//" + request.host)
    name, port = parts.hostname or "", parts.port
    try:
        ip = ipaddress.ip_address(name)
    except ValueError:
        ip = None
    listen = _listen_ip()
    if listen is not None:  # served on one address only (--host 127.0.0.1): the only one that answers
        ip, name = listen, str(listen)
    elif ip is None or ip.is_loopback or ip.is_unspecified:
        ip, name = None, lan_ip()
    if ip is not None and ip.version == 6:
        name = f"[{name}]"
    return f"http://{name}{f':{port}' if port and port != 80 else ''}/"


@bp.get("/address")
def address() -> Response:
    return jsonify({"url": table_url(), "pin": bool(current_app.config.get("TABLE_PIN"))})


@bp.get("/qr.svg")
def qr_svg() -> Response:
    buffer = io.BytesIO()
    segno.make(table_url(), error="m").save(buffer, kind="svg", scale=6, border=2, xmldecl=False,
                                            title="QR", dark="#111")
    return Response(buffer.getvalue(), mimetype="image/svg+xml")


# ---------------------------------------------------------------------------------- control actions


@bp.post("/pin")
@control
def pin(data: dict[str, Any]) -> Response:
    """Check a PIN: 200 when it is right (or none is set), 403 otherwise."""
    return jsonify({"ok": True, "pin": bool(current_app.config.get("TABLE_PIN"))})


@bp.post("/new-game")
@control
def new_game(data: dict[str, Any]) -> Response:
    game = data.get("game")
    if not isinstance(game, str):
        raise bad_input("error.input.game", value=repr(game))
    setup = data.get("setup", {})
    if not isinstance(setup, dict):
        raise bad_input("error.input.setup", value=repr(setup))
    return answer(table().new_game(game, setup, step=step_of(data), position=position_of(data),
                                    archive=archive_of(data)))


@bp.post("/resume")
@control
def resume(data: dict[str, Any]) -> Response:
    game_id = _int_field(data, "game_id", required=True)
    return answer(table().resume(game_id, step=step_of(data), position=position_of(data),
                                  archive=archive_of(data)))


@bp.post("/confirm")
@control
def confirm(data: dict[str, Any]) -> Response:
    return answer(table().confirm(step=step_of(data), position=position_of(data)))


@bp.post("/next")
@control
def next_choice(data: dict[str, Any]) -> Response:
    return answer(table().next_choice(step=step_of(data), position=position_of(data)))


@bp.post("/select")
@control
def select(data: dict[str, Any]) -> Response:
    index = _int_field(data, "index", required=True)
    return answer(table().select(index, step=step_of(data), position=position_of(data)))


@bp.post("/choose")
@control
def choose(data: dict[str, Any]) -> Response:
    index = _int_field(data, "index", required=True)
    return answer(table().choose(index, step=step_of(data), position=position_of(data)))


@bp.post("/correct")
@control
def correct(data: dict[str, Any]) -> Response:
    action = data.get("action")
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise bad_input("error.input.action", value=repr(action))
    return answer(table().correct(action, step=step_of(data), position=position_of(data)))


@bp.post("/fix-die")
@control
def fix_die(data: dict[str, Any]) -> Response:
    index = _int_field(data, "index", required=True)
    remove = data.get("remove", False)
    if not isinstance(remove, bool):
        raise bad_input("error.input.remove", value=repr(remove))
    if remove:
        return answer(table().fix_die(index, remove=True, step=step_of(data),
                                       position=position_of(data)))
    sides = _int_field(data, "sides", required=True)
    value = _int_field(data, "value", required=True)
    return answer(table().fix_die(index, sides=sides, value=value, step=step_of(data),
                                   position=position_of(data)))


@bp.post("/add-die")
@control
def add_die(data: dict[str, Any]) -> Response:
    """A die the camera missed: ``{"x", "y"}`` where it lies (fractions 0..1 of the picture's width and
    height), ``"sides"`` and ``"value"``."""
    sides = _int_field(data, "sides", required=True)
    value = _int_field(data, "value", required=True)
    return answer(table().add_die(data.get("x"), data.get("y"), sides=sides, value=value,
                                  step=step_of(data), position=position_of(data)))


@bp.post("/undo")
@control
def undo(data: dict[str, Any]) -> Response:
    return answer(table().undo(step=step_of(data), position=position_of(data)))
