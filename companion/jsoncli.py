"""Shared plumbing of the games' JSON command lines: reading JSON input and the exit-status discipline.

Every game command prints JSON on stdout; on bad input it exits with status 2 and writes exactly one
line on stderr saying what was wrong (quoting it).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn, TextIO, TypeVar

from companion.errors import GoblinError, InvalidInput

S = TypeVar("S")


class Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose usage errors become ``InvalidInput`` (one stderr line, exit 2)."""

    def error(self, message: str) -> NoReturn:
        raise InvalidInput(f"{message} (try --help)")


def read_text(stdin: TextIO) -> str:
    """Stdin as text: strict UTF-8 (a leading byte order mark is dropped), whatever the locale says."""
    buffer = getattr(stdin, "buffer", None)
    try:
        if buffer is not None:
            raw: bytes = buffer.read()
            return raw.decode("utf-8-sig")
        text: str = stdin.read()
        text.encode("utf-8")  # a text stream with surrogateescape smuggles undecodable bytes as surrogates
        return text.removeprefix("\ufeff")
    except UnicodeDecodeError as error:
        bad = error.object[error.start]
        raise InvalidInput(f"stdin is not UTF-8 text: byte 0x{bad:02x} at offset {error.start}") from None
    except UnicodeEncodeError as error:
        bad = ord(error.object[error.start]) & 0xFF
        raise InvalidInput(f"stdin is not UTF-8 text: byte 0x{bad:02x} at character {error.start}") from None


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object, refusing a key given twice (``json`` would silently keep the last)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise InvalidInput(f"key {key[:60]!r} given twice in one object")
        out[key] = value
    return out


def loads(text: str, where: str, wording: str = "bad JSON in") -> Any:
    """Strict JSON: duplicated keys, too-deep nesting and giant numbers are clear errors, not tracebacks."""
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates)
    except json.JSONDecodeError as exc:
        raise InvalidInput(f"{wording} {where}: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except InvalidInput as exc:
        raise InvalidInput(f"{wording} {where}: {exc}") from None
    except RecursionError:
        raise InvalidInput(f"{wording} {where}: nested too deeply") from None
    except ValueError as exc:  # e.g. an integer of more than 4300 digits
        raise InvalidInput(f"{wording} {where}: a number too large ({str(exc).split(';')[0]})") from None


def read_json(source: str | None, stdin: TextIO | None = None) -> Any:
    """JSON from a file path, from ``-``/None (stdin), or inline when ``source`` starts with ``{``/``[``."""
    if source is None or source == "-":
        text = read_text(stdin or sys.stdin)
        where = "stdin"
    elif source.lstrip().startswith(("{", "[")):
        text, where = source, "the argument"
    else:
        try:
            text = Path(source).read_text(encoding="utf-8")
        except OSError as exc:
            raise InvalidInput(f"cannot read {source!r}: {exc.strerror or exc}") from exc
        except UnicodeDecodeError as exc:
            raise InvalidInput(f"{source!r} is not UTF-8 text: byte at offset {exc.start}") from None
        where = repr(source)
    if not text.strip():
        raise InvalidInput(f"no JSON on {where}")
    return loads(text, where)


def emit(value: Any) -> None:
    """Print ``value`` as JSON on stdout."""
    print(json.dumps(value, ensure_ascii=False, indent=2))


def run(program: str, body: Callable[[], int]) -> int:
    """Run ``body``; turn the companion's errors into one stderr line and exit status 2."""
    try:
        return body()
    except SystemExit as exc:  # argparse's --help
        return exc.code if isinstance(exc.code, int) else 0
    except (GoblinError, ValueError) as exc:
        message = str(exc).replace("\n", " ").strip() or type(exc).__name__
        print(f"{program}: {message}", file=sys.stderr)
        return 2


def json_command(program: str, parser: argparse.ArgumentParser, argv: Sequence[str],
                 body: Callable[[argparse.Namespace], Any], *, ascii: bool = False) -> int:
    """``body`` of the arguments ``parser`` reads from ``argv``, printed as one compact JSON line;
    errors as ``run`` says them."""

    def printed() -> int:
        print(json.dumps(body(parser.parse_args(list(argv))), ensure_ascii=ascii), flush=True)
        return 0

    return run(program, printed)


def help_requested(argv: Sequence[str]) -> bool:
    return any(a in ("-h", "--help") for a in argv)


def apply_input(
    document: str | None, state: str | None, event: str | None, is_notation: Callable[[str], bool]
) -> tuple[Any, list[Any]]:
    """The state and the events of an ``apply`` call: one INPUT document, or ``--state`` and ``--event``.

    INPUT is ``{"state": ..., "event": ...}`` or ``{"state": ..., "events": [...]}``; ``--state`` may be a
    state or any document with a ``"state"`` (such as a previous answer); ``--event`` may
    also be an event in the game's notation (``is_notation`` says which strings are).
    """
    if state is not None or event is not None:
        if state is None or event is None or document is not None:
            raise InvalidInput("give --state and --event together, or one INPUT document")
        raw = event if is_notation(event) else read_json(event)
        return state_document(read_json(state)), [raw]
    doc = read_json(document)
    if not isinstance(doc, dict) or "state" not in doc:
        raise InvalidInput('the input must be an object {"state": ..., "event": ...}')
    if ("event" in doc) == ("events" in doc):
        raise InvalidInput('the input needs exactly one of "event" or "events"')
    if "event" in doc:
        return doc["state"], [doc["event"]]
    if not isinstance(doc["events"], list) or not doc["events"]:
        raise InvalidInput(f'"events" must be a non-empty list, got {doc["events"]!r}')
    return doc["state"], list(doc["events"])


def apply_each(
    state: S, raws: Sequence[Any], step: Callable[[S, Any], tuple[S, Any]], log: Callable[[S], list[Any]]
) -> tuple[S, list[Any], list[Any]]:
    """Apply the events ``raws`` one by one with ``step(state, raw) -> (state, event as JSON)``; all or
    nothing: an error names the event's index. Returns the state, the events applied and, after each,
    what ``log(state)`` said."""
    applied: list[Any] = []
    said: list[Any] = []
    for i, raw in enumerate(raws):
        try:
            state, done = step(state, raw)
        except InvalidInput as exc:
            raise InvalidInput(f"event {i}: {exc}") from exc
        except ValueError as exc:
            raise type(exc)(f"event {i}: {exc}") from exc
        applied.append(done)
        said += log(state)
    return state, applied, said


def state_document(document: Any) -> Any:
    """The state inside ``{"state": ...}``, or the document itself."""
    if isinstance(document, dict) and "state" in document:
        return document["state"]
    return document


def read_argument(args: Sequence[str]) -> Any:
    """The JSON input of a one-argument command: the argument, ``@FILE``, or stdin (absent or ``-``)."""
    if len(args) > 1:
        raise InvalidInput(f"expected one JSON argument, got {len(args)}: {list(args)!r}")
    if not args or args[0] == "-":
        text, where = read_text(sys.stdin), "stdin"
    elif args[0].startswith("@"):
        try:
            text, where = Path(args[0][1:]).read_text(encoding="utf-8"), args[0][1:]
        except OSError as exc:
            raise InvalidInput(f"cannot read {args[0][1:]!r}: {exc.strerror}") from None
        except UnicodeDecodeError as exc:
            raise InvalidInput(f"{args[0][1:]!r} is not UTF-8 text: byte at offset {exc.start}") from None
    else:
        text, where = args[0], "the argument"
    return loads(text, where, wording="not valid JSON in")
