"""The camera's turn as the table sets it from the phone: which way up its picture is read.

``camera.turn`` in the TOML file turns every frame clockwise before it is read, shown and kept (the vision
expects the table's far side at the picture's top). A player who finds the picture upside down should not
have to edit that file and restart: the settings page sets the turn, kept in ``<state dir>/camera.json``
(``{"turn": 180}``), and it wins over the file's; "use the file's" removes it again. A change applies to
the running capture loop at once (:meth:`TurnKeeper.follow`), and the zones and tray outline the page set
turn with the picture, so they stay on the same part of the table (:meth:`companion.zones.ZoneKeeper.turn`).

A table with no camera has nothing to turn (the phones' photos come upright): it refuses a change.

A ``camera.json`` that cannot be read does not stop the table: the file's turn applies, the page says why,
and the next save keeps the bad file as ``camera.json.unreadable``.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from companion.config import TURNS
from companion.errors import IllegalAction, InvalidInput
from companion.files import remove, set_aside, write_atomic
from companion.zones import ZoneKeeper

log = logging.getLogger("companion.turn")

FILE_NAME: Final = "camera.json"
MAX_FILE_BYTES: Final = 4096
"""``camera.json`` holds one number; a bigger file is not read (it is not ours)."""


class NoCameraToTurn(IllegalAction):
    """The table has no camera: the phones' photos are upright and never turned."""

    code = "no-camera"


def check_turn(turn: object) -> int:
    """A turn as the page or the file gives it: one of :data:`companion.config.TURNS` (an int, degrees
    clockwise)."""
    if isinstance(turn, bool) or not isinstance(turn, int) or turn not in TURNS:
        shown = repr(turn[:40]) if isinstance(turn, str) else repr(turn)
        raise InvalidInput(f"turn must be 0, 90, 180 or 270 (degrees clockwise), or null for the "
                           f"configured one, not {shown}")
    return turn


class TurnKeeper:
    """The camera's turn in force: the page's (``camera.json``) if set, else ``camera.turn``. Thread-safe.

    Parameters
    ----------
    path
        The page's file (it need not exist).
    configured
        The configuration's ``camera.turn``.
    zones
        The table's zones; the ones the page set turn with the picture.
    """

    def __init__(self, path: str | Path, configured: int = 0, *, zones: ZoneKeeper | None = None) -> None:
        self.path = Path(path)
        self.configured = check_turn(configured)
        self.zones = zones
        self._lock = threading.Lock()
        self._apply: Callable[[int], None] | None = None
        self._set: int | None = None
        self._error: str | None = None
        self.reload()

    def reload(self) -> None:
        """Read the file again; one that cannot be used leaves the configured turn, with the reason."""
        turn: int | None = None
        error: str | None = None
        if self.path.exists() or self.path.is_symlink():
            try:
                with self.path.open("rb") as file:
                    raw = file.read(MAX_FILE_BYTES + 1)
                if len(raw) > MAX_FILE_BYTES:
                    raise InvalidInput(f"it is bigger than {MAX_FILE_BYTES} bytes")
                data = json.loads(raw.decode("utf-8"))
                if not isinstance(data, dict) or "turn" not in data:
                    raise InvalidInput("it is not an object with \"turn\"")
                turn = check_turn(data["turn"])
            except (OSError, UnicodeDecodeError, ValueError) as problem:
                turn = None
                error = (f"camera file {str(self.path)!r} cannot be used ({str(problem)[:200]}); "
                         "the configured turn applies")
                log.error("%s", error)
        with self._lock:
            self._set, self._error = turn, error

    def follow(self, apply: Callable[[int], None]) -> None:
        """The table has a camera: ``apply(degrees)`` sets the running capture loop's turn on every change
        (until then, a change is refused: nothing would be turned)."""
        self._apply = apply

    @property
    def camera(self) -> bool:
        """Whether there is a camera to turn (:meth:`follow` was called)."""
        return self._apply is not None

    def current(self) -> int:
        """The turn in force, degrees clockwise."""
        with self._lock:
            return self._set if self._set is not None else self.configured

    def state(self) -> dict[str, Any]:
        """What the page shows: the turn, its source (``page`` or ``config``), whether there is a camera,
        the configured turn, the file, the error."""
        with self._lock:
            source = "page" if self._set is not None else "config"
            error = self._error
        return {"turn": self.current(), "source": source, "camera": self.camera,
                "configured": self.configured, "file": str(self.path), "error": error}

    def _keep(self, turn: int | None) -> None:
        """Write the page's turn (under the lock), or remove the file when it sets none."""
        if self._error is not None:
            aside = set_aside(self.path, "camera file")
            if aside is not None:
                log.warning("the unreadable camera file is kept as %s", aside)
            self._error = None
        if turn is None:
            remove(self.path, "camera file")
        else:
            write_atomic(self.path, json.dumps({"turn": turn}), "camera file")

    def set(self, turn: object) -> dict[str, Any]:
        """Keep ``turn`` (checked; ``None``: the page sets none, ``camera.turn`` applies) and turn the
        camera's picture from its next frame; the page's zones and tray turn with it."""
        checked = None if turn is None else check_turn(turn)
        with self._lock:
            apply = self._apply
            if apply is None:
                raise NoCameraToTurn("this table has no camera to turn: the phones' photos come upright")
            before = self._set if self._set is not None else self.configured
            after = checked if checked is not None else self.configured
            if self.zones is not None:
                self.zones.turn((after - before) % 360)
            try:
                self._keep(checked)
            except InvalidInput:
                if self.zones is not None:   # the zones stay with the picture that is still read
                    self.zones.turn((before - after) % 360)
                raise
            self._set = checked
            apply(after)
        log.info("camera turn set from the page: %s", checked if checked is not None
                 else f"the configured one ({self.configured})")
        return self.state()

    def __repr__(self) -> str:
        return f"TurnKeeper({str(self.path)!r}, {self.configured})"
