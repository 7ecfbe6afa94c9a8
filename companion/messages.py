"""Words a rules core writes (log lines, refusals) that the page translates and the command line prints.

A ``Message`` *is* its English text (a ``str``): the command lines print it as before, an error built
from it reads as before. It also carries the message key and parameters the page translates, exactly
like a flow's prompts and choices (``{"key", "params", "text"}``, the text being the English fallback):

>>> m = Message.of({"goblins.log.brawl": "{attacker} brawls with {defender}"}, "goblins.log.brawl",
...                attacker="Arnaldo", defender="Bice")
>>> m
'Arnaldo brawls with Bice'
>>> m.key, m.params
('goblins.log.brawl', {'attacker': 'Arnaldo', 'defender': 'Bice'})

A parameter may itself be a ``Message`` (a word such as a test's kind, or a reason): the page translates
it in place. Each core keeps its English templates in one ``MESSAGES`` mapping; the page's catalogues
(``web/i18n/{it,en}.json``) have every one of its keys with the same placeholders (tested).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from companion.errors import InvalidInput

JSON = Any


class Message(str):
    """English words with the message key and parameters a page translates them from."""

    key: str
    params: Mapping[str, JSON]

    def __new__(cls, key: str, text: str, params: Mapping[str, JSON] | None = None) -> Message:
        self = super().__new__(cls, text)
        self.key = key
        self.params = dict(params or {})
        return self

    @classmethod
    def of(cls, templates: Mapping[str, str], key: str, /, **params: JSON) -> Message:
        """The message ``key`` of ``templates`` with ``{placeholders}`` filled from ``params``."""
        return cls(key, templates[key].format(**params), params)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Message, (self.key, str(self), dict(self.params)))

    def to_json(self) -> JSON:
        return {"key": self.key, "params": {k: _plain(v) for k, v in self.params.items()}, "text": str(self)}

    @classmethod
    def from_json(cls, data: JSON, what: str = "message") -> Message:
        """The message of ``to_json`` (or of ``message_json``); an error naming ``what`` if it is not
        one (``InvalidInput``). A parameter that is itself such an object becomes a ``Message`` again."""
        if not (isinstance(data, Mapping) and set(data) == {"key", "params", "text"}
                and isinstance(data["key"], str) and isinstance(data["text"], str)
                and isinstance(data["params"], Mapping)):
            raise InvalidInput(f"{what} must be {{\"key\", \"params\", \"text\"}}, got {data!r}"[:200])
        params = {k: _unplain(v, f"{what} {k}") for k, v in data["params"].items()}
        return cls(data["key"], data["text"], params)


class Say(Protocol):
    """Says the message ``key`` of one table with its parameters (what ``speaker`` returns)."""

    def __call__(self, key: str, /, **params: JSON) -> Message: ...


def speaker(templates: Mapping[str, str]) -> Say:
    """The one function each module that keeps a ``MESSAGES`` table says its messages with:
    ``_say = speaker(MESSAGES)``, then ``_say("goblins.log.brawl", attacker=...)`` is ``Message.of``."""

    def say(key: str, /, **params: JSON) -> Message:
        return Message.of(templates, key, **params)

    return say


def _plain(value: JSON) -> JSON:
    """A parameter as JSON: a ``Message`` parameter (a word the page translates too) as its own object."""
    if isinstance(value, Message):
        return value.to_json()
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def _unplain(value: JSON, what: str) -> JSON:
    """A parameter read back from JSON: a message object becomes a ``Message``."""
    if isinstance(value, Mapping) and set(value) == {"key", "params", "text"}:
        return Message.from_json(value, what)
    if isinstance(value, list):
        return [_unplain(v, what) for v in value]
    return value


def word(group: str, name: str) -> Message:
    """A word the page names in its own language: ``word("field", "troops")`` is ``troops`` with the key
    ``field.troops`` (spaces become ``_``); a page whose catalogue lacks the key shows the English word."""
    return Message(f"{group}.{name.replace(' ', '_')}", name)


def message_json(text: str) -> JSON:
    """``{"key", "params", "text"}`` for a line a page shows (a plain string has no key: shown as is)."""
    if isinstance(text, Message):
        return text.to_json()
    return {"key": "", "params": {}, "text": str(text)}


def error_message(error: BaseException) -> Message | None:
    """The ``Message`` an error was raised with, if any (for the page to translate its detail)."""
    args: tuple[Any, ...] = error.args
    first = args[0] if len(args) == 1 else None
    return first if isinstance(first, Message) else None
