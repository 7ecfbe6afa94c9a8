"""The table's head from its own confirmed photos (``vision.tune``), for ``goblin-companion tune``, for the
settings page's "Adatta ai dadi del tavolo" (``Tuner``: one run at a time, in the background), and by
itself every ``AUTO_EVERY`` confirmed photos, the first after ``AUTO_FIRST`` (``[camera] auto_tune``, on by
default; counted in the table's set, so restarts between evenings do not set the count back).

The players are not asked to open a terminal: the page starts a run, shows that it runs, and then what it
measured on the held-back photos before and after (``vision.tune.TuneReport``). A head that reads them
worse is not kept. Tuning takes the CPU for a minute or more on a Pi (the camera reads slower meanwhile),
so its thread runs at a lower priority; run it between games.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import tempfile
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final, overload

from companion.dataset import TableDataset
from companion.errors import GoblinError, IllegalAction

log = logging.getLogger("companion.tuner")

#: photos with d6 dice a table's set needs before tuning means anything (one in five is held back)
LEAST_PHOTOS: Final = 5
#: the tuning thread's niceness (Linux: per thread), so the camera's reading keeps the CPU first
NICENESS: Final = 10
#: with ``[camera] auto_tune``, a run starts by itself after this many photos confirmed since the last one
#: (counted across restarts: ``TableDataset.since``) ...
AUTO_EVERY: Final = 50
#: ... and the table's first after this many: on tables the readers never saw, 25 confirmed photos gave
#: what 50 gave (aws and nell left out, ``benchmarks/tune_eval.py --confirmed``), 10 nothing kept
AUTO_FIRST: Final = 25
#: the job's name in the table set's marks (``companion.dataset.MARKS``)
AUTO_JOB: Final = "tune"

Frame = Any


def lower_priority() -> None:
    """The calling thread at ``NICENESS`` (Linux, per thread), so the camera's reading keeps the CPU first;
    elsewhere, or where not allowed, it takes its share."""
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), NICENESS)


class Background:
    """A part of the table that runs its job in a daemon thread, one at a time, and stops with the
    companion: ``_thread`` is the job started last, ``_stop`` tells a job to end at its next photo."""

    def __init__(self) -> None:
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    def stop(self, timeout: float = 10.0) -> None:
        """End a job under way at its next photo and wait for it (``companion.serve.Companion.close``): a
        thread left inside OpenCV when the interpreter exits aborts the process. No job starts after."""
        self._stop.set()
        self.wait(timeout)

    def wait(self, timeout: float | None = None) -> None:
        """Until the job started last ends (tests, and a clean stop)."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)
"""A BGR uint8 HxWx3 numpy array."""
Dice = list[tuple[tuple[float, float, float, float], int | None]]


class TuneRunning(IllegalAction):
    """A tuning run is already under way; this one was not started."""

    code = "tune-running"


class TooFewPhotos(IllegalAction):
    """The table's set holds too few photos with confirmed d6 dice to tune on; nothing was started."""

    code = "too-few-photos"


class TuneStopped(IllegalAction):
    """The companion is stopping: a run ends at its next photo, and none starts (``Tuner.stop``)."""

    code = "tune-stopped"


class Frames(Sequence[tuple[Frame, Dice]]):
    """The table's photos as ``vision.tune.tune`` reads them, each frame read from its file when indexed:
    400 photos of the Pi HQ camera decoded at once would be 3.7 GB. ``stop``: once set, indexing raises
    TuneStopped (a run in the background ends within one photo's reading)."""

    def __init__(self, photos: list[tuple[Path, Dice]], read: Callable[[Path], Frame],
                 stop: threading.Event | None = None) -> None:
        self._photos, self._read, self._stop = photos, read, stop

    def __len__(self) -> int:
        return len(self._photos)

    def pinned(self, folder: Path) -> Frames:
        """The same photos, each hard-linked (copied where links are not possible) into ``folder``: the
        table's set drops its oldest photo at every confirm once full, and a run that reads the held-back
        photos twice must find them both times. A photo already gone is left out."""
        kept = []
        for i, (path, dice) in enumerate(self._photos):
            target = folder / f"{i:06d}{path.suffix}"
            try:
                try:
                    os.link(path, target)
                except OSError:
                    shutil.copyfile(path, target)
            except FileNotFoundError:
                continue
            kept.append((target, dice))
        return Frames(kept, self._read, self._stop)

    @overload
    def __getitem__(self, i: int) -> tuple[Frame, Dice]: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[tuple[Frame, Dice]]: ...

    def __getitem__(self, i: int | slice) -> Any:
        if isinstance(i, slice):
            return Frames(self._photos[i], self._read, self._stop)
        if self._stop is not None and self._stop.is_set():
            raise TuneStopped("the companion is stopping")
        path, dice = self._photos[i]
        return self._read(path), dice


def table_photos(data: TableDataset, stop: threading.Event | None = None) -> Frames:
    """The set's photos that hold a confirmed pip d6: its pip d6s with their value, any other confirmed die
    by its box alone (``vision.tune``: neither fitted nor taken for "not a die"). TooFewPhotos when there
    are fewer than ``LEAST_PHOTOS``."""
    from companion.scan import read_image

    photos: list[tuple[Path, Dice]] = []
    for entry in data.labels()["images"]:
        dice: Dice = []
        given = entry.get("dice")
        for d in given if isinstance(given, list) else []:
            box = d.get("bbox") if isinstance(d, dict) else None
            if not (isinstance(box, list) and len(box) == 4 and all(isinstance(v, int | float) for v in box)):
                continue
            pip = d.get("sides") in (6, None) and isinstance(d.get("value"), int)
            dice.append(((float(box[0]), float(box[1]), float(box[2]), float(box[3])),
                         int(d["value"]) if pip else None))
        if any(v is not None for _, v in dice) and isinstance(entry.get("file"), str):
            photos.append((data.root / entry["file"], dice))
    if len(photos) < LEAST_PHOTOS:
        raise TooFewPhotos(f"the table's set holds {len(photos)} photos with d6 dice; tune needs "
                           f"{LEAST_PHOTOS} at least (confirm some rolls first): {data.root}")
    return Frames(photos, read_image, stop)


def _due(since: int, marked: bool) -> int:
    """Confirmed photos still to go before a run starts by itself: ``AUTO_EVERY`` after the last run,
    ``AUTO_FIRST`` before the table's first (``TableDataset.progress``); 0 or less: now."""
    return (AUTO_EVERY if marked else AUTO_FIRST) - since


class Tuner(Background):
    """Tuning from the page: ``start`` a run in the background, ``state`` says how it went. Safe to share
    between threads. ``calibrator``: the table's ``companion.calibration.Calibrator``; a kept head goes
    into its file over whatever was taught meanwhile (``Calibrator.adopt_head``). ``models``: what the
    table reads with (``companion.tablefinder.TableModels``; default the shipped models). ``auto``: runs
    start by themselves as photos are confirmed (``[camera] auto_tune``, ``note_confirmed``)."""

    def __init__(self, dataset: TableDataset, calibrator: Any,
                 models: Callable[[], tuple[str, ...]] | None = None, *, auto: bool = False) -> None:
        super().__init__()
        self.dataset = dataset
        self.calibrator = calibrator
        self.models = models
        self.auto = auto
        self._lock = threading.Lock()
        self._last: dict[str, Any] | None = None
        self._error: str | None = None

    def state(self) -> dict[str, Any]:
        """``{"running", "photos", "tuned", "last", "error", "auto_in"}``: ``photos``, the set's photos;
        ``tuned``, whether the calibration holds a head; ``last``, the last run's report
        (``vision.tune.TuneReport`` and ``saved``); ``auto_in``, how many more confirmed photos start a run
        by itself (0: the next one), ``None`` when runs do not start by themselves."""
        calibration = self.calibrator.current()
        auto_in = max(0, _due(*self.dataset.progress(AUTO_JOB))) if self.auto else None
        with self._lock:
            running = self._thread is not None and self._thread.is_alive()
            return {"running": running, "photos": len(self.dataset),
                    "tuned": calibration is not None and calibration.head is not None,
                    "last": self._last, "error": self._error, "auto_in": auto_in}

    def start(self) -> dict[str, Any]:
        """Start a run and return ``state``; TuneRunning when one runs, TooFewPhotos when the set is too
        small (nothing started)."""
        with self._lock:
            if self._thread is not None and self._thread.is_alive():
                raise TuneRunning("the camera is already adapting to this table's dice: wait for it")
            if self._stop.is_set():
                raise TuneStopped("the companion is stopping")
            through = self.dataset.newest()
            photos = table_photos(self.dataset, self._stop)
            # pinned here, not in the run's thread: confirms meanwhile drop the oldest photos of a full set
            folder = Path(tempfile.mkdtemp(prefix="tuning-", dir=self.dataset.root))
            try:
                pinned = photos.pinned(folder)
            except BaseException:
                shutil.rmtree(folder, ignore_errors=True)
                raise
            self._error = None
            self._thread = threading.Thread(target=self._run, args=(pinned, folder, through),
                                            name="goblin-tune", daemon=True)
            self._thread.start()
        return self.state()

    def note_confirmed(self) -> bool:
        """One more photo kept in the table's set: with ``auto``, once ``AUTO_EVERY`` have been confirmed
        since the last run began (``AUTO_FIRST`` before the table's first), whether in this run of the
        companion or in earlier ones, a run starts by itself. Whether one started; a set still too small,
        or a run under way, waits for the next photo."""
        if not self.auto:
            return False
        count, marked = self.dataset.progress(AUTO_JOB)
        if _due(count, marked) > 0:
            return False
        try:
            self.start()
        except (TooFewPhotos, TuneRunning, TuneStopped):
            return False
        log.info("adapting to the table's dice by itself, after %d confirmed photos", count)
        return True

    def _run(self, photos: Frames, folder: Path, through: int) -> None:
        """Tune on ``photos``, pinned in ``folder`` (removed when the run ends), the set's photos up to number
        ``through``: marked as tuned on unless the companion stopped the run (``TableDataset.mark``)."""
        from vision.tune import tune

        lower_priority()
        try:
            try:
                chosen = {"models": self.models()} if self.models is not None else {}
                tuned, report = tune(photos, self.calibrator.current(), **chosen)
            finally:
                shutil.rmtree(folder, ignore_errors=True)
            if report.kept:
                self.calibrator.adopt_head(tuned.head)
            result, error = {**report.to_json(), "saved": report.kept}, None
        except TuneStopped:
            result, error = None, None
            log.info("tuning stopped: the companion is stopping")
        except (GoblinError, ValueError, OSError) as exc:
            result, error = None, f"tuning stopped: {exc}"
            log.warning("%s", error)
        except Exception as exc:  # a thread's error must reach the page, not vanish
            result, error = None, f"tuning stopped: {type(exc).__name__}: {exc}"
            log.exception("tuning failed")
        if result is not None or error is not None:
            self.dataset.mark(AUTO_JOB, through)
        with self._lock:
            if result is not None:
                self._last = result
            self._error = error
        if result is not None:
            log.info("tuned on %d photos: held-back dice right %d -> %d, kept %s", result["photos"],
                     result["right_before"], result["right_after"], result["kept"])
