"""The table's calibration (teach mode) as the companion keeps it: one JSON file, taught from the camera.

The vision side (``vision.Calibration``) compares a token's crop with labelled examples taken on this
table. Here is what the companion adds around it:

- :func:`learn` teaches *every* token of one frame at once (the players lay out several tokens showing
  the same face), or the one object of a frame for a die face;
- :class:`Calibrator` owns the file ``<state dir>/calibration.json`` (or ``[camera] calibration``): it
  loads it at start, gives the vision worker the current calibration, teaches from the camera's latest
  frame, forgets. A file that cannot be read does not stop the companion: it runs uncalibrated and
  :meth:`Calibrator.state` says what was wrong (the page shows it). Writes are atomic (temporary file,
  then a rename) and the unreadable file is kept aside (``calibration.json.unreadable``) when a new
  one replaces it.

Labels: a token is ``"alive"`` or ``"dead"``; a die face is the value it stands for (``"6"``).
"""

from __future__ import annotations

import json
import logging
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final, Literal

from companion.errors import IllegalAction, InvalidInput
from companion.files import set_aside, write_atomic

log = logging.getLogger("companion.calibration")

Kind = Literal["token", "face"]
KINDS: Final[tuple[Kind, ...]] = ("token", "face")
TOKEN_LABELS: Final = ("alive", "dead")
FILE_NAME: Final = "calibration.json"

Frame = Any
"""A BGR uint8 HxWx3 numpy array."""


class NothingToTeach(IllegalAction):
    """The picture holds nothing to learn from (no token, no die); nothing was changed."""

    code = "nothing-to-teach"


class NoPicture(IllegalAction):
    """The camera has no frame yet to teach from."""

    code = "no-picture"


def check_kind(kind: object) -> Kind:
    """``kind`` as given, or InvalidInput naming it."""
    for known in KINDS:
        if kind == known:
            return known
    raise InvalidInput(f"kind must be \"token\" or \"face\", not {kind!r}")


def check_label(kind: Kind, label: object) -> str:
    """The label for ``kind`` (``alive``/``dead`` for tokens, a value like ``6`` for faces)."""
    if isinstance(label, int) and not isinstance(label, bool) and kind == "face":
        label = str(label)
    if not isinstance(label, str) or not label.strip():
        raise InvalidInput(f"label must be {_labels_for(kind)}, not {label!r}")
    label = label.strip()
    if kind == "token" and label not in TOKEN_LABELS:
        raise InvalidInput(f"label of a token must be \"alive\" or \"dead\", not {label!r}")
    if kind == "face" and not (label.isdigit() and 1 <= int(label) <= 100):
        raise InvalidInput(f"label of a die face must be the value it stands for (1..100), not {label!r}")
    return label


def _labels_for(kind: Kind) -> str:
    return "\"alive\" or \"dead\"" if kind == "token" else "the value the face stands for, like \"6\""


def learn(calibration: Any, frame: Frame, *, kind: Kind, label: str) -> tuple[Any, int]:
    """``(new calibration, examples learned)`` from one frame (BGR uint8 HxWx3; not modified).

    Every object the die finder finds in the frame is an example of ``label`` (put only tokens, or
    dice, showing that face under the camera), kept with its face-reader embedding
    (``vision.Calibration.teach_found``). Raises :class:`NothingToTeach` when the frame holds none.
    """
    kind = check_kind(kind)
    label = check_label(kind, label)
    taught, count = calibration.teach_found(frame, kind=kind, label=label)
    if count == 0:
        if kind == "face":
            raise NothingToTeach("no die found in the picture: put the dice showing the face to teach on "
                                 "the tray, apart from each other")
        raise NothingToTeach("no goblin token found in the picture: put the tokens showing one face "
                             "on the tray, apart from each other")
    return taught, count


def summary(calibration: Any) -> dict[str, Any]:
    """How many examples the calibration holds: ``{"tokens": {"alive": 3, ...}, "faces": {"6": 1}}``, and
    ``tuned``: whether ``goblin-companion tune`` fitted the table's head."""
    out: dict[str, Any] = {"examples": 0, "tokens": {}, "faces": {}, "tuned": False}
    if calibration is None:
        return out
    out["tuned"] = calibration.head is not None
    for example in calibration.examples:
        group = out["tokens"] if example.kind == "token" else out["faces"]
        group[example.label] = group.get(example.label, 0) + 1
    out["examples"] = len(calibration.examples)
    return out


def load_calibration(path: Path) -> Any:
    """The calibration in ``path``; None when there is no file; InvalidInput saying why it cannot be read."""
    from vision import Calibration, InvalidVisionInput

    if not path.exists() and not path.is_symlink():
        return None
    try:
        return Calibration.load(path)
    except InvalidVisionInput as error:
        raise InvalidInput(str(error)) from None
    except Exception as error:  # whatever else is wrong with the file, the table keeps running
        raise InvalidInput(f"calibration file {str(path)!r} cannot be used "
                           f"({type(error).__name__}: {error})") from None


def save_calibration(calibration: Any, path: Path) -> None:
    """Write atomically: a reader, or a power cut, sees the old file or the new one, never half of one."""
    write_atomic(path, json.dumps(calibration.to_json()), "calibration file")


class Calibrator:
    """The table's calibration file and the camera it is taught from; safe to share between threads.

    Parameters
    ----------
    path
        The calibration file (it need not exist).
    frames
        ``() -> frame or None``: the camera's latest frame (``None`` before the first one).
    """

    def __init__(self, path: str | os.PathLike[str], *,
                 frames: Callable[[], Frame | None] | None = None) -> None:
        self.path = Path(path)
        self._frames = frames
        self._lock = threading.Lock()
        self._teaching = threading.Lock()
        self._calibration: Any = None
        self._error: str | None = None
        self._learned: dict[str, Any] | None = None
        self._loaded: tuple[int, int] | None = None
        self.reload()

    def _stamp(self) -> tuple[int, int] | None:
        try:
            st = self.path.stat()
        except OSError:
            return None
        return st.st_mtime_ns, st.st_size

    def reload(self) -> None:
        """Read the file again; a file that cannot be read leaves the table uncalibrated, with the reason."""
        stamp = self._stamp()
        try:
            calibration, error = load_calibration(self.path), None
        except InvalidInput as problem:
            calibration, error = None, str(problem)
            log.error("%s; the companion runs without a calibration (tokens are found, not told apart)",
                      problem)
        with self._lock:
            self._calibration, self._error, self._loaded = calibration, error, stamp

    def _follow(self) -> None:
        """Read the file again when something else wrote it since (``goblin-companion tune`` or ``teach``
        while the companion runs): the reader uses it at once, and teaching here builds on it instead of
        writing over it."""
        if self._stamp() != self._loaded:
            self.reload()

    def current(self) -> Any:
        """The calibration the reader uses now (a ``vision.Calibration``), or None; the file's, when it
        changed on disk since it was read (one ``stat`` a call)."""
        self._follow()
        with self._lock:
            return self._calibration

    def state(self) -> dict[str, Any]:
        """What the page shows: ``calibrated``, the counts, the file, and ``error`` when it was unreadable."""
        self._follow()
        with self._lock:
            calibration, error, learned = self._calibration, self._error, self._learned
        return {"calibrated": calibration is not None and bool(calibration.examples), **summary(calibration),
                "file": str(self.path), "error": error, "last": learned}

    def _save(self, calibration: Any) -> None:
        """Write ``calibration`` (an unreadable file set aside first) and read by it from now on."""
        if self._error is not None:
            aside = set_aside(self.path, "calibration file")
            if aside is not None:
                log.warning("the unreadable calibration file is kept as %s", aside)
        save_calibration(calibration, self.path)
        with self._lock:
            self._calibration, self._error, self._loaded = calibration, None, self._stamp()

    def teach(self, frame: Frame, *, kind: object, label: object) -> dict[str, Any]:
        """Learn from ``frame`` (see :func:`learn`), save, and return :meth:`state` with ``learned``."""
        from vision import Calibration

        checked = check_kind(kind)
        text = check_label(checked, label)
        with self._teaching:  # two phones teaching at once: one after the other, nothing lost
            self._follow()
            with self._lock:
                base = self._calibration if self._calibration is not None else Calibration()
            calibration, count = learn(base, frame, kind=checked, label=text)
            self._save(calibration)
            with self._lock:
                self._learned = {"kind": checked, "label": text, "learned": count}
        log.info("taught %d %s example(s) of %r; saved to %s", count, checked, text, self.path)
        return {"learned": count, "kind": checked, "label": text, **self.state()}

    def adopt_head(self, head: Any) -> dict[str, Any]:
        """Put the table's head (``vision.tune``) into the calibration as it is now (examples taught while
        tuning ran are kept), save, and return :meth:`state`."""
        from vision import Calibration

        with self._teaching:
            self._follow()
            with self._lock:
                base = self._calibration if self._calibration is not None else Calibration()
            calibration = base.with_head(head)
            self._save(calibration)
        log.info("the table's head saved to %s", self.path)
        return self.state()

    def teach_from_camera(self, *, kind: object, label: object) -> dict[str, Any]:
        """:meth:`teach` from the camera's latest frame."""
        checked = check_kind(kind)
        check_label(checked, label)
        frame = self._frames() if self._frames is not None else None
        if frame is None:
            raise NoPicture("the camera has no picture yet: wait for it, then teach again")
        return self.teach(frame, kind=checked, label=label)

    def forget(self) -> dict[str, Any]:
        """Forget every taught example: the file is removed (an unreadable one too) and reading is
        uncalibrated, but for the table's head (``tune``, a separate choice: ``drop_head``), which stays
        in the file alone."""
        return self._forget(keep_head=True)

    def drop_head(self) -> dict[str, Any]:
        """Forget the table's head (``tune``), keep the taught examples."""
        return self._forget(keep_head=False, keep_examples=True)

    def _forget(self, *, keep_head: bool, keep_examples: bool = False) -> dict[str, Any]:
        from vision import Calibration

        with self._teaching:
            self._follow()
            with self._lock:
                old = self._calibration
            head = old.head if keep_head and old is not None else None
            examples = old.examples if keep_examples and old is not None else ()
            if head is None and not examples:
                with self._lock:
                    try:
                        self.path.unlink(missing_ok=True)
                    except OSError as error:
                        raise InvalidInput(f"cannot remove the calibration file {str(self.path)!r}: "
                                           f"{error.strerror or error}") from None
                    self._calibration, self._error, self._loaded = None, None, None
            else:
                kept = Calibration(examples, head)
                self._save(kept)
            with self._lock:
                self._learned = None
        log.info("%s (%s)", "the table's head forgotten" if not keep_head else "calibration forgotten",
                 self.path)
        return self.state()

    def __repr__(self) -> str:
        return f"Calibrator({str(self.path)!r})"
