"""Files the companion writes while a table plays: written whole or not at all."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from companion.errors import InvalidInput


def write_atomic(path: Path, text: str, what: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder and a rename, so a reader,
    or a power cut, sees the old file or the new one, never half of one. ``what`` names the file in the
    error (InvalidInput) when it cannot be written."""
    tmp: str | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(tmp, path)
        tmp = None
    except OSError as error:
        raise InvalidInput(f"cannot write the {what} {str(path)!r}: {error.strerror or error}") from None
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def set_aside(path: Path, what: str) -> Path | None:
    """Move an unreadable ``path`` to ``<name>.unreadable`` before it is replaced (None: no such file)."""
    if not path.exists():
        return None
    aside = path.with_name(path.name + ".unreadable")
    try:
        os.replace(path, aside)
    except OSError as error:
        raise InvalidInput(f"cannot move the unreadable {what} {str(path)!r} aside: "
                           f"{error.strerror or error}") from None
    return aside


def remove(path: Path, what: str) -> None:
    """Remove ``path`` if it is there; ``what`` names the file in the error (InvalidInput) when it cannot be
    removed (the page's zones or turn forgotten: the settings file's apply again)."""
    try:
        path.unlink(missing_ok=True)
    except OSError as error:
        raise InvalidInput(f"cannot remove the {what} {str(path)!r}: {error.strerror or error}") from None
