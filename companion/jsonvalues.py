"""The checks of JSON values a user sends (a state, an event, a setup): one set for every codec.

Each names what it checks (``what``) and quotes the value in its ``InvalidInput``, the way the cores'
codecs always worded it: ``"event 'roll' must be a JSON object, got 3"``. Button Goblin's codec quotes
shorter (``quote=show``) and says ``not`` for ``got``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.errors import InvalidInput

JSON = Any


def json_object(
    value: JSON, what: str, *, most: int | None = None, quote: Callable[[Any], str] = repr, got: str = "got"
) -> Mapping[str, JSON]:
    """``value`` if it is a JSON object; else ``InvalidInput`` (its text cut to ``most`` characters)."""
    if not isinstance(value, Mapping):
        raise InvalidInput(f"{what} must be a JSON object, {got} {quote(value)}"[:most])
    return value


def json_list(
    value: JSON, what: str, *, kind: str = "a list", quote: Callable[[Any], str] = repr, got: str = "got"
) -> list[JSON]:
    """``value`` if it is a JSON list; else ``InvalidInput``."""
    if not isinstance(value, list):
        raise InvalidInput(f"{what} must be {kind}, {got} {quote(value)}")
    return value


def present(**fields: JSON) -> dict[str, JSON]:
    """The fields that are not None, in order: a JSON object's optional keys, written only when set."""
    return {key: value for key, value in fields.items() if value is not None}


def json_bool(value: JSON, what: str) -> bool:
    """``value`` if it is ``true`` or ``false``; else ``InvalidInput``."""
    if not isinstance(value, bool):
        raise InvalidInput(f"{what} must be true or false, got {value!r}")
    return value
