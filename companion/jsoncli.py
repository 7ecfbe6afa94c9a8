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
from typing import Any, NoReturn, TextIO

from companion.errors import GoblinError, InvalidInput


class Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose usage errors become ``InvalidInput`` (one stderr line, exit 2)."""

    def error(self, message: str) -> NoReturn:
        raise InvalidInput(f"{message} (try --help)")


def read_json(source: str | None, stdin: TextIO | None = None) -> Any:
    """JSON from a file path, from ``-``/None (stdin), or inline when ``source`` starts with ``{``/``[``."""
    if source is None or source == "-":
        text = (stdin or sys.stdin).read()
        where = "stdin"
    elif source.lstrip().startswith(("{", "[")):
        text, where = source, "the argument"
    else:
        try:
            text = Path(source).read_text(encoding="utf-8")
        except OSError as exc:
            raise InvalidInput(f"cannot read {source!r}: {exc.strerror or exc}") from exc
        where = repr(source)
    if not text.strip():
        raise InvalidInput(f"no JSON on {where}")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidInput(f"bad JSON in {where}: {exc.msg} at line {exc.lineno} column {exc.colno}") from exc


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


def help_requested(argv: Sequence[str]) -> bool:
    return any(a in ("-h", "--help") for a in argv)
