"""Bounds on what a request may carry, checked before anything reaches the session.

Anyone on the table's Wi-Fi can send anything, so every control body is held to:

- at most :data:`MAX_BODY` bytes (64 KB; Flask's ``MAX_CONTENT_LENGTH``): more is 413 ``payload-too-large``
  and is not read;
- valid UTF-8 JSON with no ``NaN``/``Infinity``, and no string holding a lone surrogate (``"\\ud800"``,
  which JSON can spell but UTF-8 cannot carry: it broke every phone's live stream);
- at most :data:`MAX_DEPTH` levels of nesting and :data:`MAX_VALUES` values in all (a 100,000-deep
  array is a 400, not a 500);
- strings (keys too) of at most :data:`MAX_STRING` characters, numbers within +-:data:`MAX_NUMBER`.

Each refusal is one 400 ``invalid-input`` whose detail says which rule and where (``setup.players[0]``).
What is still a game's own business (a name's length, a die's value, a zone's name) is checked by the
session, the games and the zone keeper.
"""

from __future__ import annotations

import json
import math
from typing import Any, Final

from companion.errors import InvalidInput

MAX_BODY: Final = 64 * 1024
"""Bytes a request body may have (the page's largest, a skirmish setup, is under 2 KB)."""
MAX_DEPTH: Final = 16
"""Levels of nesting a body may have (the deepest real one, a zone's point in ``{"zones": ...}``, has 4)."""
MAX_VALUES: Final = 5000
"""Values (objects, arrays, strings, numbers...) a body may hold in all."""
MAX_STRING: Final = 200
"""Characters a string or key may have (names are held to 40 by the session; notations are short)."""
MAX_NUMBER: Final = 1_000_000
"""The largest magnitude a number may have (steps, indexes, dice, scores, measurements are far below)."""


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def where(path: tuple[str | int, ...]) -> str:
    """``("setup", "players", 0)`` -> ``setup.players[0]`` (``body`` for the top)."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "body"


def valid_text(text: str) -> bool:
    """Whether ``text`` is valid Unicode that UTF-8 can carry (no lone surrogate)."""
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _check_string(text: str, path: tuple[str | int, ...], what: str) -> None:
    if not valid_text(text):
        raise InvalidInput(f"{what} {where(path)} is not valid Unicode (a lone surrogate such as \\ud800)")
    if len(text) > MAX_STRING:
        raise InvalidInput(f"{what} {where(path)} has {len(text)} characters; at most {MAX_STRING}")


def check_value(data: Any) -> Any:
    """Raise InvalidInput unless ``data`` (parsed JSON) keeps every bound above; ``data`` otherwise."""
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(data, ())]
    count = 0
    while stack:
        value, path = stack.pop()
        count += 1
        if count > MAX_VALUES:
            raise InvalidInput(f"the body holds more than {MAX_VALUES} values")
        if len(path) > MAX_DEPTH:
            raise InvalidInput(f"the body is nested deeper than {MAX_DEPTH} levels (at {where(path[:4])}...)")
        if isinstance(value, str):
            _check_string(value, path, "text")
        elif isinstance(value, bool) or value is None:
            pass
        elif isinstance(value, int | float):
            if not math.isfinite(value) or abs(value) > MAX_NUMBER:
                shown = str(value) if len(str(value)) < 30 else f"{str(value)[:20]}..."
                raise InvalidInput(f"number {where(path)} = {shown} is out of range "
                                   f"(-{MAX_NUMBER}..{MAX_NUMBER})")
        elif isinstance(value, dict):
            for key, item in value.items():
                _check_string(key, (*path, key[:40]), "key")
                stack.append((item, (*path, key)))
        elif isinstance(value, list):
            stack.extend((item, (*path, n)) for n, item in enumerate(value))
    return data


def parse_body(raw: bytes) -> Any:
    """The JSON value of a request body, checked: InvalidInput saying which bound it breaks; ValueError
    (UnicodeDecodeError, JSONDecodeError) when it is not UTF-8 JSON at all."""
    if len(raw) > MAX_BODY:  # Flask's MAX_CONTENT_LENGTH stops it first; a caller without Flask is held too
        raise InvalidInput(f"the request body has {len(raw)} bytes; at most {MAX_BODY}")
    try:
        data = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
    except RecursionError:
        raise InvalidInput(f"the body is nested deeper than {MAX_DEPTH} levels") from None
    return check_value(data)
