"""``goblin-companion serve``: the composition root that wires camera, vision, buttons, LED, session and page.

    goblin-companion serve [--camera auto|picamera2[:N]|opencv[:N|:PATH]|replay[:PATH]|none] [--config FILE]
                           [--host HOST] [--port N] [--state-dir DIR] [--pin PIN] [--lang it|en]
                           [--no-buttons] [--no-led] [--reader MODULE:FUNCTION] [--print-config]

What runs where:

- the **capture loop** (``hardware.frames.CaptureLoop``) reads the camera into a ``FrameHolder`` on its own
  thread, survives a lost camera, and pings systemd's watchdog with every frame;
- the **vision worker** (:class:`VisionWorker`) waits for each new frame, runs ``vision.settle_step`` and,
  once the tray is still and the game expects a reading, ``vision.read_table`` and ``vision.annotate``,
  and offers the reading (with a JPEG) to the session: a *proposal* that a person confirms;
- **buttons** (``hardware.buttons.TableButtons``): CONFIRM, NEXT and UNDO (held) call the session;
- the **status LED** (:class:`LedFollower`): steady while waiting for a roll, blinking while a reading waits
  for confirmation, fast on a problem;
- the **page** (``web.create_app``) served by waitress; at most half its threads hold live streams, the
  phones beyond them poll (see ``web.stream``).

On start one JSON line goes to stdout: ``{"event": "serving", "url": ..., "urls": [...], ...}``; logs go
to stderr. Bad arguments or settings exit with status 2 and one line on stderr.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import importlib
import json
import logging
import os
import signal
import socket
import sys
import threading
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from types import FrameType
from typing import Any, Final

from companion.calibration import Calibrator
from companion.config import AUTO, Config, ConfigError, load_config
from companion.dataset import FOLDER as DATASET_FOLDER
from companion.dataset import TableDataset
from companion.dice import DiceBook
from companion.errors import GoblinError
from companion.focus import FocusMeter
from companion.photos import MAX_PHOTO_BYTES, PhotoDesk
from companion.reading import BBox, TableReading
from companion.session import TableSession
from companion.store import Store
from companion.tablefinder import TableFinder, TableModels
from companion.tuner import TooFewPhotos, Tuner, TuneRunning, TuneStopped
from companion.turn import FILE_NAME as TURN_FILE
from companion.turn import TurnKeeper
from companion.zones import ZoneKeeper

log = logging.getLogger("companion.serve")

Frame = Any
"""A BGR uint8 HxWx3 numpy array."""
Reader = Callable[[Frame], TableReading | Mapping[str, Any]]
"""frame -> what the camera read: a ``TableReading`` (``vision.read_table``), or its JSON (a ``--reader``
of one's own); the worker makes it a ``TableReading`` once."""
Annotator = Callable[[Frame, TableReading], Frame]
Settle = Callable[[Any, Frame], Any]
"""(state or None, frame) -> state with ``.settled`` (``vision.settle_step``)."""


def typed(result: TableReading | Mapping[str, Any]) -> TableReading:
    """What a reader gave, as the ``TableReading`` the session and the flows take: vision's own object as
    is, a ``--reader``'s JSON read once (``InvalidInput`` naming what is wrong)."""
    return result if isinstance(result, TableReading) else TableReading.from_json(result)


# ---------------------------------------------------------------------------------------- the camera


def camera_status_json(status: Any, *, replay: bool = False) -> dict[str, Any]:
    """A ``hardware.frames.CameraStatus`` in the session's shape (``state``, ``message`` and details);
    ``"replay": true`` when the source replays recorded photos (every page says so)."""
    message = f"camera {status.source} ok" if status.state == "ok" else status.summary()
    return {"state": status.state, "message": message, "source": status.source,
            "error": status.error, "retry_in": status.retry_in, "attempts": status.attempts,
            "code": getattr(status, "code", None), "where": getattr(status, "where", None),
            **({"replay": True} if replay else {})}


def is_auto(spec: str | None) -> bool:
    """Whether the camera asked for (``--camera``, else the settings, else ``$GOBLIN_CAMERA``) is ``auto``."""
    from hardware.camera import CAMERA_ENV

    chosen = spec if spec else os.environ.get(CAMERA_ENV, "") or "auto"
    return chosen.strip().lower() == "auto"


def is_replay(source: Any) -> bool:
    """Whether ``source`` replays recorded photos or a video (``--camera replay[:PATH]``), not a camera."""
    from hardware.sources import ReplaySource

    return isinstance(source, ReplaySource)


def _vision(*needs: str) -> Any:
    """The vision package if it has ``needs``, else None (it lands separately from the session)."""
    try:
        vision = importlib.import_module("vision")
    except ImportError:
        return None
    return vision if all(hasattr(vision, name) for name in needs) else None


@dataclass(frozen=True)
class StillState:
    """State of :func:`still_frames`: ``settled`` after ``STILL_FRAMES`` frames like the one before."""

    settled: bool
    still_frames: int  # frames like the one before, in a row (as ``vision.SettleState.still_frames``)
    thumb: Any


STILL_FRAMES = 3


def still_frames(state: StillState | None, frame: Frame) -> StillState:
    """A stand-in for ``vision.settle_step`` while vision is not installed: a grey 64-px thumbnail that
    changes by less than 3 grey levels on average counts as a still frame."""
    import cv2
    import numpy as np

    height, width = frame.shape[:2]
    small = cv2.resize(frame, (64, max(1, round(64 * height / width))), interpolation=cv2.INTER_AREA)
    thumb = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)
    if state is None or state.thumb.shape != thumb.shape or float(np.abs(thumb - state.thumb).mean()) > 3:
        return StillState(False, 0, thumb)
    return StillState(state.still_frames + 1 >= STILL_FRAMES, state.still_frames + 1, thumb)


#: whether the live table reads percentile d10s ("00".."90"): none of the five games rolls one (their dice are
#: ``companion.dicesizes.DIE_SIDES``), so a 10-sided die is read among the plain d10's faces; read as
#: percentile tens, plain d10s were 10 of 86 hand-labelled Lurig d10 photos (docs/vision-poly.md).
#: ``goblin-companion scan`` still reads them (``--percentile`` pairs them).
LIVE_PERCENTILE: Final = False
#: the live table's clock for a frame's time (``vision.read_table(clock=)``, ``camera.read_seconds``): a frame
#: the counts would let run past it returns what it has read by then, the rest asked
LIVE_CLOCK: Final = time.perf_counter
#: a frame read past ``camera.read_seconds`` is logged, at most once in this many seconds: the sign of a board
#: too slow for the setting (its ordinary rolls come back as questions)
SLOW_FRAME_LOG_EVERY: Final = 600.0


def board_read_seconds(clock: Callable[[], float] | None = None) -> float:
    """``camera.read_seconds = "auto"``: the time a frame gets on this board
    (``vision.learned.frame_seconds``), from how much slower than the reference machine it reads
    (``vision.learned.slowness``, by ``clock``, default ``LIVE_CLOCK``). Measured once per process (a tenth of
    a second here), and logged."""
    if _BOARD:
        return _BOARD[0]
    from vision.learned import frame_seconds, slowness

    slow = slowness(clock or LIVE_CLOCK)
    _BOARD[:] = [frame_seconds(slow)]
    log.info("this board takes %.1f times the time the readers were measured in to read: a frame gets %.2f s "
             "(camera.read_seconds = \"auto\")", slow, _BOARD[0])
    return _BOARD[0]


_BOARD: list[float] = []     # board_read_seconds's measurement, once per process


def read_seconds(config: Config) -> float:
    """The time a frame gets: ``camera.read_seconds``, or the board's own when it says "auto"."""
    value = config.camera.read_seconds
    return board_read_seconds() if value == AUTO else float(value)


def vision_reader(config: Config, calibration: Callable[[], Any] | None = None,
                  zones: Callable[[], Mapping[str, Any]] | None = None,
                  tray: Callable[[], Any] | None = None,
                  models: Callable[[], tuple[str, ...]] | None = None) -> tuple[Reader, Annotator]:
    """``vision.read_table`` with the zones, the tray, the table's calibration and models in force at the
    time of each reading (``calibration() -> vision.Calibration or None``; ``zones() -> {name: polygon}``,
    default the configured ones; ``tray() -> [[x, y], ...] or None``, default ``camera.tray``; ``models()
    -> read_table's models``, default the shipped ones; ``companion.tablefinder.TableModels``), and
    ``vision.annotate`` drawing that tray."""
    vision = _vision("read_table", "annotate", "Zones")
    if vision is None:
        raise ConfigError("the vision package (read_table, annotate, Zones) is not installed")
    parsed: list[Any] = [None, None]  # the last zones seen, and their vision.Zones
    configured = [list(point) for point in config.camera.tray] or None   # checked by parse_config
    outline: Callable[[], Any] = tray or (lambda: configured)

    logged = [float("-inf")]   # when a slow frame was last logged (``SLOW_FRAME_LOG_EVERY``)

    def read(frame: Frame) -> Any:
        taught = calibration() if calibration is not None else None
        now = dict(zones()) if zones is not None else config.zones
        if now != parsed[0]:
            parsed[:] = [now, vision.Zones.from_json(now)]
        chosen = {"models": models()} if models is not None else {}
        seconds = read_seconds(config)    # "auto": measured before the first frame's time starts
        clock = LIVE_CLOCK
        started = clock()
        # no percentile d10 on a live table: none of the five games rolls one (``LIVE_PERCENTILE``)
        reading = vision.read_table(frame, zones=parsed[1], calibration=taught, tray=outline(),
                                    percentile=LIVE_PERCENTILE, clock=clock, seconds=seconds, **chosen)
        spent = clock() - started
        if spent >= seconds and started - logged[0] >= SLOW_FRAME_LOG_EVERY:
            logged[0] = started
            log.warning("a frame took %.2f s to read, over camera.read_seconds (%.2f): what it left unread "
                        "is asked, not read; if ordinary rolls come back as questions, this board wants "
                        "a larger camera.read_seconds", spent, seconds)
        return reading

    def annotate(frame: Frame, reading: Any) -> Frame:
        shown: Frame = vision.annotate(frame, reading, max_side=SHOWN_LONG_SIDE, tray=outline())
        return shown

    return read, annotate


def load_reader(spec: str) -> Reader:
    """``MODULE:FUNCTION`` -> the function (a reader to use instead of ``vision.read_table``)."""
    module_name, sep, name = spec.partition(":")
    if not sep or not module_name or not name:
        raise ConfigError(f"--reader must be MODULE:FUNCTION, not {spec!r}")
    try:
        reader = getattr(importlib.import_module(module_name), name)
    except (ImportError, AttributeError) as error:
        raise ConfigError(f"--reader {spec!r}: {error}") from error
    if not callable(reader):
        raise ConfigError(f"--reader {spec!r} is not callable")
    return reader  # type: ignore[no-any-return]


SHOWN_LONG_SIDE = 1280
"""The long side of a phone's annotated photo as every phone downloads it (``/api/snapshot.jpg``): a 12 MP
photo sent as it is would be 2-3 MB to each phone at the table."""


def shown_size(image: Frame) -> Frame:
    """``image`` scaled down to :data:`SHOWN_LONG_SIDE` on its long side (as it is when smaller)."""
    import cv2

    height, width = image.shape[:2]
    scale = SHOWN_LONG_SIDE / max(height, width)
    if scale >= 1:
        return image
    return cv2.resize(image, (max(1, round(width * scale)), max(1, round(height * scale))),
                      interpolation=cv2.INTER_AREA)


PHOTO_POLL = 0.1
"""Seconds the vision worker waits for a camera frame before it looks for a phone's photo again."""


def encode_jpeg(image: Frame, quality: int = 80) -> bytes | None:
    import cv2

    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return bytes(data) if ok else None


class VisionWorker:
    """Offers a reading to the session once per settled scene, when the game expects one.

    A *scene* is the tray between two movements. The worker offers each scene at most once per step,
    and never offers, after a confirm, the scene that was already lying there: after an attack the
    camera must see the re-roll, not the dice as they were. After a new game or an undo, the scene that
    lies there is offered again (the dice were rolled before the players pressed the button).

    Parameters
    ----------
    session, holder
        Where readings go, and where frames come from (a ``hardware.frames.FrameHolder``).
    reader, annotator, settle
        Injected vision (defaults: ``vision.read_table`` with the configured zones, ``vision.annotate``,
        ``vision.settle_step``), so tests can pass their own reader.
    calibration
        ``() -> vision.Calibration or None``: the table's taught tokens and faces, asked for at each
        reading (teaching from the page takes effect at the next one). Used by the default reader.
    zones
        ``() -> {name: polygon}``: the zones in force (``companion.zones.ZoneKeeper.current``), asked for
        at each reading; default the configuration's.
    tray
        ``() -> [[x, y], ...] or None``: the tray's outline in force (``companion.zones.ZoneKeeper.tray``),
        asked for at each reading; default ``camera.tray``. Used by the default reader.

    Every reading offered carries ``"zones"``: the names of the zones in force, so a game can tell
    "no token in the toss zone" from "no toss zone".

    A phone's photo (``companion.photos``, :meth:`submit_photo`) is read here too, between two camera
    frames, by the same reader: a photo is a settled scene of its own. Its reading holds for its step:
    the camera's scenes do not replace it until the table moves on (or another photo comes).
    """

    def __init__(
        self,
        session: TableSession,
        holder: Any,
        *,
        reader: Reader | None = None,
        annotator: Annotator | None = None,
        settle: Settle | None = None,
        config: Config | None = None,
        calibration: Callable[[], Any] | None = None,
        zones: Callable[[], Mapping[str, Any]] | None = None,
        tray: Callable[[], Any] | None = None,
        models: Callable[[], tuple[str, ...]] | None = None,
        timeout: float = 1.0,
    ) -> None:
        self.session = session
        self.holder = holder
        self.config = config or Config()
        self.zones: Callable[[], Mapping[str, Any]] = zones or (lambda: self.config.zones)
        photo_reader, photo_annotator = reader, annotator
        if reader is None:
            if _vision("read_table", "annotate", "Zones") is not None:
                reader, default_annotator = vision_reader(self.config, calibration, self.zones, tray, models)
                # a phone's photo is framed by the phone, not by the camera the tray was drawn on
                photo_reader, whole = vision_reader(self.config, calibration, self.zones, lambda: None,
                                                    models)
                photo_annotator = annotator or whole
                annotator = annotator or default_annotator
            else:
                log.warning("vision is not installed: the camera picture is shown, nothing is read")
        if settle is None:
            vision = _vision("settle_step")
            settle = vision.settle_step if vision is not None else still_frames
        vision = _vision("still_mean")
        self.still_mean: Callable[[list[Frame]], Frame] = (
            vision.still_mean if vision is not None else (lambda frames: frames[-1]))
        """What a settled scene is read from: the mean of its still frames (``vision.still_mean``)."""
        #: how many still frames, and bytes of them, ``still_mean`` uses: the worker keeps no more
        self._still_most = ((vision.settle.STILL_AVERAGE, vision.settle.STILL_BYTES) if vision is not None
                            else (1, 0))
        self.reader: Reader | None = reader
        self.annotator = annotator
        self.photo_reader: Reader | None = photo_reader
        """What reads a phone's photo: the reader without the camera's tray (the injected one, if any)."""
        self.photo_annotator = photo_annotator
        self.settle: Settle = settle
        self.timeout = timeout
        self.errors = 0
        self.offers = 0
        self._settle_state: Any = None
        self._still: list[Frame] = []  # the frames of the scene lying still so far (``_keep_still``)
        self._scene = 0
        self._was_settled = False
        self._where: tuple[int | None, int] = (None, 0)
        self._scene_floor = 0
        self._offered: tuple[int, int | None, int] | None = None
        self._shown = 0
        #: the frame (not annotated) of the last reading offered: what a confirm keeps in the table's set
        self.last_read_frame: Frame | None = None
        self._last_was_photo = False  # whether last_read_frame is a phone's photo
        self._photo: Any = None  # the companion.photos.PhotoJob waiting to be read
        self._photo_lock = threading.Lock()
        self._photo_where: tuple[int | None, int] | None = None  # the step a photo's reading holds
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _track_step(self) -> None:
        where = (self.session.game_id, self.session.step)
        if where == self._where:
            return
        self._photo_where = None
        game, step = where
        if game == self._where[0] and step > self._where[1]:
            self._scene_floor = self._scene + (0 if not self._was_settled else 1)  # needs a new scene
        else:
            self._scene_floor = 0  # new game, or undo: the scene lying there counts
            self._offered = None
            self._shown = -1  # and is shown again (a new game starts with no picture)
        self._where = where

    def feed(self, frame: Frame) -> bool:
        """One frame; True when a reading was offered."""
        self._track_step()
        self._settle_state = self.settle(self._settle_state, frame)
        self._keep_still(frame)
        settled = bool(self._settle_state.settled)
        if settled and not self._was_settled:
            self._scene += 1
        self._was_settled = settled
        if not settled or self._scene < self._scene_floor or self._photo_where == self._where:
            return False
        key = (self._scene, *self._where)
        if key == self._offered:
            return False
        if self.reader is None or self.session.expecting() is None:
            if self._scene != self._shown:  # no reading wanted: still show each new scene
                self._shown = self._scene
                image = encode_jpeg(frame)
                if image is not None:
                    self.session.set_image(image)
            return False
        self._offered = key
        self._shown = self._scene
        frame = self.still_mean(self._still)
        reading = self._read(frame)
        self.last_read_frame, self._last_was_photo = frame, False
        image = self._annotated(frame, reading, "the frame")
        self.session.offer_reading(reading, image=encode_jpeg(image))
        self.offers += 1
        return True

    def _keep_still(self, frame: Frame) -> None:
        """Keep ``frame`` among the still scene's frames (as many as ``still_mean`` uses), or start them
        afresh with it when the settle state says it moved (it may be the first still frame)."""
        if not getattr(self._settle_state, "still_frames", 0):
            self._still = []
        most, size = self._still_most
        kept = max(1, min(most, size // max(1, int(getattr(frame, "nbytes", 0)))))
        self._still = [*self._still[max(0, len(self._still) + 1 - kept):], frame]

    def _read(self, frame: Frame, photo: bool = False) -> TableReading:
        """What the reader (``photo``: the photo reader) saw in ``frame``, typed once (a ``--reader`` of one's
        own may give JSON), with the tray's zone names (so a flow knows whether there is a toss zone)."""
        reader = self.photo_reader if photo else self.reader
        assert reader is not None
        return typed(reader(frame)).with_zones(tuple(self.zones()))

    def reader_for(self, frame: Frame) -> Reader | None:
        """What reads ``frame`` outside the loop (teaching a die's look): the photo reader when ``frame`` is
        the phone's photo read last (a phone frames its photo its own way, so the camera's tray does not
        apply), else the camera's reader."""
        if self._last_was_photo and frame is self.last_read_frame:
            return self.photo_reader
        return self.reader

    def _annotated(self, frame: Frame, reading: TableReading, what: str, photo: bool = False) -> Frame:
        """``frame`` with ``reading`` drawn on it, or bare if drawing fails."""
        annotator = self.photo_annotator if photo else self.annotator
        if annotator is None:
            return frame
        try:
            return annotator(frame, reading)
        except Exception:
            log.exception("annotating %s failed; showing it bare", what)
            return frame

    def submit_photo(self, job: Any) -> None:
        """Queue a phone's photo (a ``companion.photos.PhotoJob``) to be read before the next frame;
        ``job.finish`` is called with the snapshot, or the error. One at a time (``PhotoDesk`` sees to it)."""
        with self._photo_lock:
            if self._photo is not None:
                raise RuntimeError("a photo is already waiting to be read")
            self._photo = job

    def read_photo(self) -> bool:
        """Read the photo waiting, if any (the worker's thread calls it); True when there was one."""
        with self._photo_lock:
            job, self._photo = self._photo, None
        if job is None:
            return False
        try:
            self._track_step()
            if job.where != self._where:
                raise self._moved(job)
            started = time.perf_counter()
            assert self.reader is not None  # PhotoDesk refuses a photo when there is no reader
            reading = self._read(job.frame, photo=True)
            image = self._annotated(job.frame, reading, "the photo", photo=True)
            job.read_ms = round((time.perf_counter() - started) * 1000, 1)
            self._track_step()
            if job.where != self._where:  # confirmed by hand, or a button, while it was read
                raise self._moved(job)
            snapshot = self.session.offer_reading(reading, image=encode_jpeg(shown_size(image)))
            self.last_read_frame, self._last_was_photo = job.frame, True
            self._photo_where = self._where
            self.offers += 1
        except BaseException as error:
            if not isinstance(error, GoblinError):
                self.errors += 1
                log.exception("vision worker: a phone's photo")
            job.finish(error=error)
        else:
            job.finish(snapshot=snapshot)
        return True

    def _moved(self, job: Any) -> GoblinError:
        from companion.messages import Message
        from companion.photos import MESSAGES, PhotoMoved

        return PhotoMoved(Message.of(MESSAGES, "error.photo.moved", step=job.where[1],
                                     current=self._where[1]))

    def run(self) -> None:
        from hardware.errors import FramesEnded, FrameTimeout

        previous = 0
        while not self._stop.is_set():
            self.read_photo()
            try:
                # short waits: a phone's photo waiting here is read within PHOTO_POLL seconds
                previous, frame = self.holder.wait_for_frame(previous, timeout=min(self.timeout, PHOTO_POLL))
            except FrameTimeout:
                continue
            except FramesEnded:
                return
            try:
                self.feed(frame)
            except Exception:  # a bad frame or a vision bug must not stop the table
                self.errors += 1
                log.exception("vision worker: frame %d", previous)

    def start(self) -> VisionWorker:
        if self._thread is None:
            self._thread = threading.Thread(target=self.run, name="vision", daemon=True)
            self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)
        with self._photo_lock:
            job, self._photo = self._photo, None
        if job is not None:  # its request must not wait for a worker that is gone
            job.finish(error=RuntimeError("the table is stopping: the photo was not read"))


# ------------------------------------------------------------------------------------- no camera


NO_CAMERA = "none"
"""``--camera none``: a table without a camera; the players' phones take the photos (``companion.photos``)."""


@dataclass(frozen=True)
class _Named:
    name: str


class NoCamera:
    """Stands in for the capture loop on a table with no camera (``--camera none``): no frame ever comes,
    the page shows no camera problem (the session's camera state stays ``none``), and the systemd watchdog,
    which the capture loop pings with every frame, is pinged from a thread of its own."""

    def __init__(self, on_heartbeat: Callable[[], None] | None = None, *, every: float = 5.0) -> None:
        self.source = _Named(NO_CAMERA)
        self.on_heartbeat = on_heartbeat
        self.every = every
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            if self.on_heartbeat is not None:
                try:
                    self.on_heartbeat()
                except Exception:
                    log.exception("watchdog ping failed")

    def start(self) -> NoCamera:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="no-camera", daemon=True)
            self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(2.0)


def wants_no_camera(spec: str | None) -> bool:
    """Whether the camera asked for (``--camera``, else the settings, else ``$GOBLIN_CAMERA``) is none."""
    from hardware.camera import CAMERA_ENV

    chosen = spec if spec else os.environ.get(CAMERA_ENV, "")
    return chosen.strip().lower() == NO_CAMERA


# ------------------------------------------------------------------------------------- buttons, LED


def led_state(snapshot: Mapping[str, Any]) -> str:
    """What the LED shows for a snapshot: ``problem``, ``pending``, ``waiting`` or ``off``."""
    if snapshot.get("camera", {}).get("state") == "lost" or snapshot.get("notice"):
        return "problem"
    if snapshot.get("proposal") is not None or snapshot.get("selected") is not None:
        return "pending"
    if snapshot.get("game") is None or snapshot.get("over"):
        return "off"
    return "waiting"


class LedFollower:
    """Keeps the status LED in step with the session (a thread waiting for changes)."""

    def __init__(self, session: TableSession, led: Any, *, poll: float = 1.0) -> None:
        self.session = session
        self.led = led
        self.poll = poll
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self.run, name="led", daemon=True)

    def update(self) -> str:
        state = led_state(self.session.snapshot())
        self.led.set(state)
        return state

    def run(self) -> None:
        version = -1
        while not self._stop.is_set():
            current = self.session.wait_for_change(version, self.poll)
            if current != version:
                version = current
                try:
                    self.update()
                except Exception:
                    log.exception("status LED")

    def start(self) -> LedFollower:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(2.0)


def wire_buttons(buttons: Any, session: TableSession) -> None:
    """CONFIRM, NEXT and UNDO (held) call the session; a press that does not fit is shown, not raised."""

    def press(name: str, action: Callable[[], Any]) -> Callable[[], None]:
        def handler() -> None:
            try:
                action()
            except GoblinError as error:
                log.info("button %s: %s", name.upper(), error)
                session.note(f"{name.upper()}: {error}")

        return handler

    buttons.when_confirm = press("confirm", session.confirm)
    buttons.when_next = press("next", session.next_choice)
    buttons.when_undo = press("undo", session.undo)


# ------------------------------------------------------------------------------------------ serving


def lan_addresses() -> list[str]:
    """This machine's LAN IPv4 address (the one a route to the outside uses), or nothing."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: no packet is sent for a UDP connect
            address = str(probe.getsockname()[0])
    except OSError:
        return []
    return [] if address.startswith("127.") else [address]


MAX_REQUEST_BODY = MAX_PHOTO_BYTES + 64 * 1024
"""Bytes of a request body waitress reads at most: a phone's photo (8 MB; the page sends under 1 MB). The
app answers 413 JSON itself over 64 KB for every other request, and over 8 MB for a photo (from the
Content-Length, before reading); waitress keeps a body over 512 KB in a temporary file, not in memory."""
CONNECTION_LIMIT = 400
"""Connections waitress keeps open at once (its default, 100, is reached by 100 phones on live updates)."""
OUTBUF_HIGH_WATERMARK = 4 * 1024 * 1024
"""Bytes waitress buffers for one connection before a send waits for the phone to read. A live stream
ends after sending 512 KB (``SSE_MAX_BYTES``), far below: a phone that never reads never blocks a thread."""


def urls_for(host: str, port: int) -> list[str]:
    hosts = [*lan_addresses(), "127.0.0.1"] if host in ("0.0.0.0", "::", "") else [host]
    return [f"http://{h}:{port}/" for h in hosts]


class Companion:
    """Everything ``serve`` runs, built from a :class:`~companion.config.Config`; a context manager.

    The parts are attributes (``store``, ``session``, ``capture``, ``worker``, ``buttons``, ``led``,
    ``app``) so tests can drive them.
    """

    def __init__(
        self,
        config: Config,
        *,
        camera: str | None = None,
        reader: Reader | None = None,
        annotator: Annotator | None = None,
        settle: Settle | None = None,
        pin_factory: Any = None,
        button_clock: Callable[[], float] | None = None,
        button_poll: float | None = 0.05,
        notifier: Any = None,
        web: bool = True,
    ) -> None:
        from companion.demo import DEMO_DIR
        from hardware.camera import open_camera
        from hardware.errors import CameraError
        from hardware.frames import CaptureLoop, FrameHolder
        from hardware.sdnotify import Notifier
        from vision.exposure import badly_exposed

        self.config = config
        self.notifier = notifier if notifier is not None else Notifier()
        self.state_dir = config.state_path()
        self.store = Store(self.state_dir)
        self.session = TableSession(self.store)
        self.calibrator = Calibrator(config.calibration_path(), frames=self._latest_frame)
        self.dice = DiceBook(self.store, frames=self._latest_frame, reader=self._read_dice)
        self.zones = ZoneKeeper(config.zones_path(), config.zones, config.camera.tray)
        # the page's camera turn wins over camera.turn; the page's zones turn with the picture
        self.turning = TurnKeeper(self.state_dir / TURN_FILE, config.camera.turn, zones=self.zones)
        self.models = TableModels(self.state_dir)   # the table's own finder when one is installed
        self.buttons: Any = None
        self.led: Any = None
        self.led_follower: LedFollower | None = None
        self.app: Any = None
        self.capture: Any = None
        self.worker: VisionWorker | None = None
        self.photos: PhotoDesk | None = None
        self.tuner: Tuner | None = None
        self.finder: TableFinder | None = None
        self.focus: FocusMeter | None = None
        try:
            replay = config.camera.replay or DEMO_DIR
            spec = camera or config.camera.source
            self.holder = FrameHolder()
            choice = None
            self.camera_reason = "asked for no camera: the phones take the photos"
            if not wants_no_camera(spec):
                auto = is_auto(spec)
                try:
                    with warnings.catch_warnings():  # the hardware modules log their own fallbacks
                        warnings.simplefilter("ignore")
                        # auto never replays: recorded dice proposed as if they were on the table mislead
                        # the players; a table without a camera takes the photos with the phones
                        choice = open_camera(spec, replay_default=None if auto else replay,
                                             frame_interval=config.camera.frame_interval,
                                             photo_seconds=config.camera.photo_seconds,
                                             light_check=badly_exposed)
                except CameraError as error:
                    if not auto:
                        raise
                    self.camera_reason = f"auto: {error}: the phones take the photos"
                    log.warning("camera: %s", self.camera_reason)
            if choice is None:
                self.capture = NoCamera(on_heartbeat=self._watchdog)
                self.session.set_camera_status({"state": "none", "source": NO_CAMERA,
                                                "message": "no camera: photos from the phones"})
            else:
                self.camera_reason = choice.reason
                replaying = is_replay(choice.source)
                if replaying:
                    log.warning("camera: %s replays recorded photos, not the table (%s)", choice.source.name,
                                choice.reason)
                self.capture = CaptureLoop(
                    choice.source, self.holder,
                    on_status=lambda status: self.session.set_camera_status(
                        camera_status_json(status, replay=replaying)),
                    on_heartbeat=self._watchdog, turn=self.turning.current())
                self.turning.follow(self._turned)
                self.session.set_camera_status({"state": "starting", "source": choice.source.name,
                                                "message": f"camera {choice.source.name}",
                                                **({"replay": True} if replaying else {})})
                if _vision("sharpness") is not None:
                    self.focus = FocusMeter(self.holder.latest, encode=encode_jpeg)
            self.worker = VisionWorker(self.session, self.holder, reader=reader, annotator=annotator,
                                       settle=settle, config=config, calibration=self.calibrator.current,
                                       zones=self.zones.current, tray=self.zones.tray,
                                       models=self.models)
            self.photos = PhotoDesk(self.session, self.worker)
            self.dataset = TableDataset(self.state_dir / DATASET_FOLDER,
                                        max_images=max(1, config.camera.keep_max),
                                        enabled=config.camera.keep_confirmed)
            self.session.on_reading_confirmed = self._keep_confirmed
            self.session.place_die = self._place_die
            self.tuner = Tuner(self.dataset, self.calibrator, models=self.models,
                               auto=config.camera.auto_tune and config.camera.keep_confirmed)
            # compares itself as the table plays, reading as the camera reads
            self.finder = TableFinder(self.state_dir, self.dataset, read=self._read_with,
                                      changed=self._finder_changed)
            if config.buttons.enabled:
                self.buttons = self._buttons(pin_factory, button_clock, button_poll)
            if config.led.enabled:
                self.led = self._led(pin_factory)
            if web:
                self.app = self._app()
        except BaseException:
            self.close()
            raise

    def _finder_changed(self) -> None:
        """The table's finder changed: the face head, fitted on the old finder's crops, is fitted again
        when the table has one and its set is big enough (``Tuner.start``; nothing when it cannot)."""
        calibration = self.calibrator.current()
        if self.tuner is None or calibration is None or calibration.head is None:
            return
        try:
            self.tuner.start()
            log.info("the table's finder changed: adapting the face head to its crops again")
        except (TooFewPhotos, TuneRunning, TuneStopped) as exc:
            log.info("the table's finder changed; the face head stays as it was: %s", exc)

    def _place_die(self, reading: TableReading, px: float, py: float) -> tuple[BBox | None, str | None]:
        """Where a die a person added at (``px``, ``py``) of ``reading`` lies (``TableSession.add_die``): the
        box of what the table's finder sees there in the frame read (``vision.finder.found_at``; None when it
        sees nothing, or the frame is gone), and the zone in force there."""
        vision = _vision("Zones")
        if vision is None:
            return None, None
        zones = dict(self.worker.zones()) if self.worker is not None else {}
        zone = (vision.Zones.from_json(zones) if zones else vision.Zones.halves()).zone_of(
            px / reading.width, py / reading.height)
        frame = self.worker.last_read_frame if self.worker is not None else None
        if frame is None or abs(frame.shape[1] * reading.height - frame.shape[0] * reading.width) > \
                max(frame.shape[:2]):  # not the frame of this reading
            return None, zone
        k = frame.shape[1] / reading.width
        side = reading.die_side()
        from vision.finder import found_at
        found = found_at(frame, px * k, py * k, side=side * k if side else None, model=self.models()[0])
        if found is None:
            return None, zone
        x, y, w, h = found.box(frame.shape)
        return (round(x / k), round(y / k), max(1, round(w / k)), max(1, round(h / k))), zone

    def _read_with(self, frame: Frame, models: tuple[str, ...]) -> Any:
        """``frame`` read as the camera worker reads (the tray, zones and calibration in force), with
        ``models`` (``tablefinder.compare`` reads the table's photos with each finder; its command line
        reads as the files say: ``tablefinder.read_as_configured``)."""
        read, _ = vision_reader(self.config, calibration=self.calibrator.current, zones=self.zones.current,
                                tray=self.zones.tray, models=lambda: models)
        return read(frame)

    def _turned(self, degrees: int) -> None:
        """The page turned the camera: the capture loop turns from its next frame (it reads ``turn`` at
        every step)."""
        self.capture.turn = degrees

    def _watchdog(self) -> None:
        self.notifier.watchdog()

    def _keep_confirmed(self, reading: dict[str, Any], removed: int) -> None:
        """A confirmed reading and the frame it was read from join the table's own set, with the finder that
        read it (``tablefinder.compare`` reads the table's finder's photos again) and how many dice the
        players ``removed``; its rolls go to the players' dice the camera was taught (``companion.dice``)."""
        frame = self.worker.last_read_frame if self.worker is not None else None
        if frame is None:
            return
        try:
            given = self.dice.attribute_by_look(reading, frame)
        except Exception:  # telling dice apart must never undo a confirm or stop the table's set
            log.exception("giving the confirmed rolls to the taught dice failed")
        else:
            if given:
                log.info("%d roll(s) given to the taught dice by their look", given)
        name = self.dataset.add(encode_jpeg(frame, quality=90), reading, width=int(frame.shape[1]),
                                height=int(frame.shape[0]), finder=self.models.finder(), removed=removed)
        if name is not None:
            log.info("kept the confirmed reading as %s in the table's set", name)
            if self.tuner is not None:
                self.tuner.note_confirmed()
            if self.finder is not None:
                self.finder.note_confirmed()

    def _read_dice(self, frame: Frame) -> dict[str, Any]:
        """Where the dice are in ``frame``, as the table reads them (teaching a die's look)."""
        reader = self.worker.reader_for(frame) if self.worker is not None else None
        if reader is None:
            return {"dice": []}
        return typed(reader(frame)).to_json()

    def _latest_frame(self) -> Frame | None:
        """The camera's latest frame (what the players teach from), else the last photo a phone sent
        (a table with no camera), or None before either."""
        holder = getattr(self, "holder", None)
        latest = holder.latest() if holder is not None else None
        if latest is None:
            return self.worker.last_read_frame if self.worker is not None else None
        return latest[1]

    def _buttons(self, pin_factory: Any, clock: Callable[[], float] | None, poll: float | None) -> Any:
        from hardware.buttons import TableButtons

        b = self.config.buttons
        with warnings.catch_warnings():  # the hardware modules log their own fallbacks
            warnings.simplefilter("ignore")
            buttons = TableButtons(b.confirm, b.next, b.undo, debounce=b.debounce, undo_hold=b.undo_hold,
                                   pull_up=b.pull_up, poll_interval=poll, pin_factory=pin_factory,
                                   **({"clock": clock} if clock is not None else {}))
        wire_buttons(buttons, self.session)
        return buttons

    def _led(self, pin_factory: Any) -> Any:
        from hardware.led import StatusLED

        with warnings.catch_warnings():  # the hardware modules log their own fallbacks
            warnings.simplefilter("ignore")
            led = StatusLED(self.config.led.pin, active_high=self.config.led.active_high,
                            pin_factory=pin_factory)
        self.led_follower = LedFollower(self.session, led)
        return led

    def _app(self) -> Any:
        web = importlib.import_module("web")
        settings = self.config.to_json()
        settings["state_file"] = str(self.store.path)
        settings["camera"] = dict(settings["camera"], calibration=str(self.calibrator.path))
        settings["camera"] = dict(settings["camera"], chosen=self.capture.source.name,
                                  reason=self.camera_reason)
        # half of waitress's threads may hold live streams; the others always answer the page and actions
        return web.create_app({"TABLE_PIN": self.config.pin or None, "DEFAULT_LANG": self.config.language,
                               "SSE_MAX_STREAMS": max(1, self.config.threads // 2),
                               "LISTEN_HOST": self.config.host},
                              session=self.session, settings=settings, calibrator=self.calibrator,
                              zones=self.zones, turn=self.turning, photos=self.photos, dice=self.dice,
                              tuner=self.tuner, finder=self.finder, focus=self.focus)

    def start(self) -> Companion:
        self.capture.start()
        assert self.worker is not None
        self.worker.start()
        if self.led_follower is not None:
            self.led_follower.start()
        return self

    def close(self) -> None:
        """Stop every thread and release camera, pins and file. Idempotent."""
        if self.tuner is not None:
            self.tuner.stop()
        if self.finder is not None:
            self.finder.stop()
        if self.worker is not None:
            self.worker.stop()
        if self.capture is not None:
            self.capture.stop()
        if self.led_follower is not None:
            self.led_follower.stop()
        for part in (self.buttons, self.led):
            if part is not None:
                with contextlib.suppress(Exception):
                    part.close()
        self.store.close()

    def __enter__(self) -> Companion:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()


# ------------------------------------------------------------------------------------- command line


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise ConfigError(message)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="goblin-companion serve", description="Run the companion: camera, buttons, page.")
    parser.add_argument("--config", help="TOML settings file (default: $GOBLIN_CONFIG, else the defaults)")
    parser.add_argument("--camera", help="auto, picamera2[:N], opencv[:N|:PATH], replay[:PATH] or none "
                                         "(default: the config's camera.source, else $GOBLIN_CAMERA, "
                                         "else auto)")
    parser.add_argument("--host", help="address to listen on (default 0.0.0.0: every interface)")
    parser.add_argument("--port", type=int, help="port of the page (default 8080; 0 picks a free one)")
    parser.add_argument("--state-dir", help="where the event log lives")
    parser.add_argument("--pin", help="table PIN for control actions")
    parser.add_argument("--lang", choices=("it", "en"), help="default language of the page")
    parser.add_argument("--threads", type=int, help="waitress threads (live streams hold half at most)")
    parser.add_argument("--no-buttons", action="store_true", help="no GPIO buttons")
    parser.add_argument("--no-led", action="store_true", help="no status LED")
    parser.add_argument("--reader", help="MODULE:FUNCTION reading a frame instead of vision.read_table")
    parser.add_argument("--print-config", action="store_true", help="print the settings in effect and exit")
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logs")
    return parser


def check_camera(spec: str) -> str:
    """``spec`` if it names a camera (nothing is opened), else ConfigError saying the forms."""
    from hardware.camera import parse_camera
    from hardware.errors import UnknownCamera

    if spec.strip().lower() not in ("auto", NO_CAMERA):
        try:
            parse_camera(spec, replay_default="photos")
        except UnknownCamera as error:
            raise ConfigError(str(error)) from None
    return spec


def settings_from(args: argparse.Namespace, env: Mapping[str, str] | None = None) -> Config:
    """The config file's settings with the command line's overrides applied."""
    config = load_config(args.config, env=env)
    overrides: dict[str, Any] = {}
    for option, key in (("host", "host"), ("port", "port"), ("state_dir", "state_dir"), ("pin", "pin"),
                        ("lang", "language"), ("threads", "threads")):
        value = getattr(args, option)
        if value is not None:
            overrides[key] = value
    if overrides:
        from companion.config import parse_config

        merged = {k: v for k, v in config.to_json().items() if k in overrides}
        merged.update(overrides)
        checked = parse_config(merged)  # the same checks as the file's
        config = replace(config, **{k: getattr(checked, k) for k in overrides})
    if args.camera is not None:  # what --print-config shows, and what the systemd unit's flag chooses
        config = replace(config, camera=replace(config.camera, source=check_camera(args.camera)))
    if args.no_buttons:
        config = replace(config, buttons=replace(config.buttons, enabled=False))
    if args.no_led:
        config = replace(config, led=replace(config.led, enabled=False))
    return config


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(list(sys.argv[1:] if argv is None else argv))
        config = settings_from(args)
        if args.print_config:
            print(json.dumps(config.to_json(), indent=2))
            return 0
        reader = load_reader(args.reader) if args.reader else None
    except ConfigError as error:
        print(f"goblin-companion serve: {error}", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        companion = Companion(config, camera=args.camera, reader=reader)
    except (GoblinError, ValueError, OSError, ImportError, AttributeError) as error:
        print(f"goblin-companion serve: {error}", file=sys.stderr)
        return 2
    return run(companion)


def _calibration_line(state: Mapping[str, Any]) -> dict[str, Any]:
    return {"file": state["file"], "examples": state["examples"], "error": state["error"]}


def run(companion: Companion) -> int:
    """Serve until SIGTERM or Ctrl-C; the event log is already safe after every confirmed step."""
    from waitress.server import create_server

    config = companion.config
    try:
        # waitress refuses (413) a body over 256 KB before buffering it; the app's own limit is 64 KB
        server = create_server(companion.app, host=config.host, port=config.port, threads=config.threads,
                               channel_timeout=120, ident="goblin-companion",
                               max_request_body_size=MAX_REQUEST_BODY, connection_limit=CONNECTION_LIMIT,
                               outbuf_high_watermark=OUTBUF_HIGH_WATERMARK)
    except OSError as error:
        companion.close()
        taken = error.errno == errno.EADDRINUSE
        why = "is already in use" if taken else f"cannot be opened ({error.strerror})"
        print(f"goblin-companion serve: {config.host}:{config.port} {why}; choose another with --port",
              file=sys.stderr)
        return 2
    port = int(getattr(server, "effective_port", config.port))

    def stop(signum: int, frame: FrameType | None) -> None:
        # End the phones' live streams first: waitress waits for its busy threads before it lets go.
        from web import stop_streams

        stop_streams(companion.app)
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    companion.start()
    urls = urls_for(config.host, port)
    print(json.dumps({"event": "serving", "url": urls[0], "urls": urls, "port": port,
                      "camera": companion.capture.source.name, "camera_reason": companion.camera_reason,
                      "state": str(companion.store.path), "game": companion.session.snapshot()["game"],
                      "step": companion.session.step, "buttons": companion.buttons is not None,
                      "calibration": _calibration_line(companion.calibrator.state()),
                      "read_seconds": config.camera.read_seconds, "pid": os.getpid()}), flush=True)
    companion.notifier.ready(f"serving {urls[0]}")
    started = time.monotonic()
    try:
        server.run()
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        companion.notifier.stopping("stopping")
        log.info("stopping after %.0f s", time.monotonic() - started)
        close_connections(server)
        server.close()
        companion.close()
    return 0


def close_connections(server: Any) -> None:
    """Close the connections still open when the companion stops (a phone with the page open keeps one):
    waitress's ``close`` closes only its listening socket and leaves theirs to the garbage collector, which
    says so with a ``ResourceWarning`` as the process ends."""
    from waitress.channel import HTTPChannel

    sockets = getattr(server, "map", None)   # one server per address: their connections share its map
    if not isinstance(sockets, dict):
        sockets = getattr(server, "_map", {})
    for dispatcher in list(sockets.values()):
        if isinstance(dispatcher, HTTPChannel):
            dispatcher.close()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
