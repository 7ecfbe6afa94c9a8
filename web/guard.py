"""Only the table's own page may act on the table: Host and Origin checks, JSON bodies, security headers.

A player's phone also opens other web pages, and any of them can make the phone's browser send a request
to the table's address. What keeps those requests out:

- **Host** (every request): the name the browser used must be one of the table's own. Any IP address
  literal is allowed (``192.168.1.40:8080``, ``127.0.0.1``, ``[::1]``: the QR code shows one, and a DNS
  rebinding attack always needs a name of the attacker's), and so are ``localhost``, this machine's host
  name, any ``.local`` name (mDNS answers those on the table's own network only, and avahi may call the
  table ``goblin-2.local`` after a clash), the host of ``TABLE_URL`` and any name in ``ALLOWED_HOSTS``.
  Anything else is 403 ``wrong-host``: an attacker's name that resolves to the table (DNS rebinding)
  reaches nothing, not even the state.
- **Origin** (state-changing methods: everything but GET, HEAD, OPTIONS): when the browser sends one, it
  must be ``http(s)://`` + the request's own Host; a different one (``http://evil.example``) or ``null``
  (a sandboxed frame, a file) is 403 ``cross-origin``. No Origin at all (curl, scripts) is allowed,
  unless the browser says ``Sec-Fetch-Site: cross-site``.
- **Content type** (state-changing methods): a body must be sent as ``application/json``; a form or
  ``text/plain`` body (what another site's ``<form>`` or a "simple" cross-site fetch can send without
  the table's consent) is 415 ``unsupported-media-type``. An empty body with no Content-Type is allowed.
  One exception: ``POST /api/photo`` (``web.photo``) takes the photo itself, ``image/jpeg``,
  ``image/png`` or ``image/webp``, and nothing else (no JSON, no form: a multipart form is what another
  site may post unasked; an ``image/*`` body needs a CORS preflight the table never answers).
- **Headers on every response**: a Content-Security-Policy with nothing from outside the table
  (``default-src 'self'``; no inline script, no inline style attribute; ``frame-ancestors 'none'``),
  ``X-Frame-Options: DENY`` and ``X-Content-Type-Options: nosniff``.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable
from typing import Any, Final
from urllib.parse import urlsplit

from flask import Flask, Response, current_app, jsonify, request

SAFE_METHODS: Final = frozenset({"GET", "HEAD", "OPTIONS"})

CSP: Final = ("default-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
              "frame-ancestors 'none'")
"""The Content-Security-Policy: scripts, styles, images and connections from the table itself only, nothing
inline that runs (``<script type="application/json">`` blocks are data, not scripts: CSP lets them be), no
framing. Short on purpose: it rides on every response and the page's budget counts headers."""

SECURITY_HEADERS: Final = {
    "Content-Security-Policy": CSP,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
}

HOSTS: Final = "goblin.allowed-hosts"
"""``app.extensions[HOSTS]``: the host names (lower case, no port) the table answers to."""

JSON_TYPES: Final = frozenset({"application/json"})
PHOTO_PATH: Final = "/api/photo"
PHOTO_TYPES: Final = frozenset({"image/jpeg", "image/png", "image/webp"})
#: the table's fitted finder is posted as its bytes, this type only (``web.finder``): a type no other site's
#: page can send without a CORS preflight the table never grants
FINDER_PATH: Final = "/api/finder"
FINDER_TYPE: Final = "application/octet-stream"
"""What ``POST /api/photo`` takes instead of JSON: the photo's own bytes (``web.photo``)."""


def host_name(host: str) -> str:
    """``host[:port]`` (a Host header or an Origin's netloc) -> the name or address, lower case, no port."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def own_names(table_url: str | None = None, extra: Iterable[str] = ()) -> frozenset[str]:
    """The names the table answers to besides IP addresses: localhost, this machine's name and its
    ``.local`` (mDNS) name, ``table_url``'s host and ``extra``."""
    names = {"localhost"}
    machine = socket.gethostname().strip().lower()
    if machine:
        names.update({machine, machine.split(".", 1)[0] + ".local"})
        names.add(machine.split(".", 1)[0])
    if table_url:
        hostname = urlsplit(str(table_url)).hostname
        if hostname:
            names.add(hostname.lower())
    names.update(host_name(str(name)) for name in extra)
    return frozenset(n for n in names if n)


def allowed_host(host: str, names: frozenset[str]) -> bool:
    """Whether a request's Host header names this table (see the module docstring)."""
    name = host_name(host).rstrip(".")
    return bool(name) and (is_ip(name) or name in names or name.endswith(".local"))


def _refuse(status: int, code: str, detail: str) -> Response:
    if request.path.startswith("/api/"):
        response = jsonify({"error": code, "detail": detail})
    else:
        response = Response(f"{detail}\n", mimetype="text/plain")
    response.status_code = status
    return response


def check_request() -> Response | None:
    """The before-request hook: None to go on, or the refusal (nothing of the table is touched)."""
    host = request.host
    if not allowed_host(host, current_app.extensions[HOSTS]):
        return _refuse(403, "wrong-host",
                       f"this table does not answer to the host {host_name(host)!r}: open it by its IP "
                       "address, localhost or its own name (a foreign name is refused against DNS rebinding)")
    if request.method in SAFE_METHODS:
        return None
    origin = request.headers.get("Origin")
    if origin is not None:
        parts = urlsplit(origin.strip())
        if (parts.scheme not in ("http", "https") or not parts.netloc
                or parts.netloc.lower() != host.lower()):
            return _refuse(403, "cross-origin",
                           f"a request from another page ({origin[:100]!r}) may not act on the table; "
                           f"only the table's own page ({request.scheme}://{host}) may")
    elif request.headers.get("Sec-Fetch-Site", "").lower() == "cross-site":
        return _refuse(403, "cross-origin", "a request from another site may not act on the table")
    kind = request.mimetype
    sent = kind or request.content_length or request.headers.get("Transfer-Encoding")
    if request.path == PHOTO_PATH:
        if kind in PHOTO_TYPES:
            return None
        return _refuse(415, "unsupported-media-type",
                       "a photo is sent as its own bytes with Content-Type: "
                       f"{', '.join(sorted(PHOTO_TYPES))}; "
                       f"not {request.headers.get('Content-Type', 'no type')[:100]!r}")
    if request.path == FINDER_PATH and request.method == "POST":
        if kind == FINDER_TYPE:
            return None
        return _refuse(415, "unsupported-media-type",
                       f"a finder is sent as its own bytes with Content-Type: {FINDER_TYPE}; "
                       f"not {request.headers.get('Content-Type', 'no type')[:100]!r}")
    if kind not in JSON_TYPES and sent:
        return _refuse(415, "unsupported-media-type",
                       f"a control action's body must be JSON sent as Content-Type: application/json, "
                       f"not {request.headers.get('Content-Type', 'no type')[:100]!r}")
    return None


def add_headers(response: Response) -> Response:
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def init_app(app: Flask, **_: Any) -> None:
    app.extensions[HOSTS] = own_names(app.config.get("TABLE_URL"), app.config.get("ALLOWED_HOSTS") or ())
    app.before_request(check_request)
    app.after_request(add_headers)
