"""From a camera source to its consumers: a latest-frame holder and the capture loop that feeds it.

Frames are BGR uint8 arrays of shape (H, W, 3). The holder marks them read-only, because the same array is
handed to every consumer (vision, the page's preview) at once.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Literal

from hardware.errors import FramesEnded, FrameTimeout
from hardware.sources import TURNS, CameraSource, Image, as_bgr, turned

log = logging.getLogger(__name__)


class FrameHolder:
    """Holds the latest frame; each consumer waits for a frame newer than the one it already has.

    Frame ids start at 1 and grow by one with every :meth:`put`, so a consumer that passes back the id it
    got never receives the same frame twice. Thread-safe: one producer, any number of consumers.
    """

    def __init__(self) -> None:
        self._condition = threading.Condition()
        self._id = 0
        self._frame: Image | None = None
        self._closed = False

    def put(self, frame: Image) -> int:
        """Publish ``frame`` (BGR uint8 HxWx3) as the latest one and return its id."""
        frame.flags.writeable = False
        with self._condition:
            if self._closed:
                raise FramesEnded("the frame holder is closed")
            self._id += 1
            self._frame = frame
            self._condition.notify_all()
            return self._id

    def latest(self) -> tuple[int, Image] | None:
        """The latest ``(id, frame)`` without waiting, or ``None`` before the first frame."""
        with self._condition:
            if self._frame is None:
                return None
            return self._id, self._frame

    def wait_for_frame(self, previous: int = 0, timeout: float | None = None) -> tuple[int, Image]:
        """Wait for a frame newer than id ``previous`` (0: any frame) and return ``(id, frame)``.

        Raises
        ------
        FrameTimeout
            If no newer frame came within ``timeout`` seconds (``None``: wait for ever).
        FramesEnded
            If the holder was closed while waiting.
        """
        with self._condition:
            ready = self._condition.wait_for(lambda: self._closed or self._id > previous, timeout)
            if self._closed:
                raise FramesEnded("the frame holder is closed")
            if not ready or self._frame is None:
                raise FrameTimeout(f"no frame newer than {previous} within {timeout} s")
            return self._id, self._frame

    def close(self) -> None:
        """Wake every waiter with :class:`FramesEnded`. Idempotent."""
        with self._condition:
            self._closed = True
            self._condition.notify_all()

    def __enter__(self) -> FrameHolder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


CameraState = Literal["starting", "ok", "lost", "stopped"]


@dataclass(frozen=True)
class CameraStatus:
    """What the page shows about the camera.

    ``since`` is wall-clock time (seconds since the epoch) of the last change of ``state``; when the camera
    is ``lost``, ``retry_in`` says how long until the next attempt and ``error`` why it was lost.
    """

    state: CameraState
    source: str
    since: float
    frames: int = 0
    error: str | None = None
    attempts: int = 0
    retry_in: float | None = None
    code: str | None = None
    """Why it was lost in one word, when the source says one (``"replay-empty"``): the page translates it."""
    where: str | None = None
    """The path or device the ``code`` is about."""

    def summary(self) -> str:
        """One English line for logs and ``systemctl status``; the page builds its own from the fields."""
        if self.state == "lost":
            return (
                f"camera {self.source} lost ({self.error}); attempt {self.attempts}, "
                f"retrying in {self.retry_in:g} s"
            )
        if self.state == "ok":
            return f"camera {self.source} ok ({self.frames} frames)"
        return f"camera {self.source} {self.state}"

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready dict."""
        return {
            "state": self.state,
            "source": self.source,
            "since": self.since,
            "frames": self.frames,
            "error": self.error,
            "attempts": self.attempts,
            "retry_in": self.retry_in,
            "code": self.code,
            "where": self.where,
        }


class CaptureLoop:
    """Reads frames from a source into a :class:`FrameHolder` on a background thread; survives a lost camera.

    When opening or reading fails, the source is closed, the status becomes ``lost`` and the loop waits
    ``initial_backoff`` seconds, doubling after each failed attempt up to ``max_backoff``, before
    reopening it. Nothing raises into the caller: errors end up in :attr:`status`.

    Parameters
    ----------
    source
        The camera (opened by the loop).
    holder
        Where frames go; a new one if ``None``.
    on_status
        Called with the new :class:`CameraStatus` when anything but the frame count changes (on the
        loop's thread): the camera comes back, is lost, or another retry is scheduled.
    on_heartbeat
        Called after every frame and at least every ``heartbeat_every`` seconds while waiting to retry,
        e.g. a systemd watchdog ping. A loop stuck inside ``source.read()`` stops calling it, so the
        watchdog restarts the service.
    turn
        Degrees each frame is turned clockwise before it is published (``camera.turn``: 0, 90, 180, 270).
    wall, sleep
        Injected time: the wall clock for :attr:`CameraStatus.since`, and a sleep; the default sleep
        returns early when the loop is stopped.
    """

    def __init__(
        self,
        source: CameraSource,
        holder: FrameHolder | None = None,
        *,
        initial_backoff: float = 0.5,
        max_backoff: float = 30.0,
        heartbeat_every: float = 5.0,
        on_status: Callable[[CameraStatus], None] | None = None,
        on_heartbeat: Callable[[], None] | None = None,
        turn: int = 0,
        wall: Callable[[], float] = time.time,
        sleep: Callable[[float], None] | None = None,
    ) -> None:
        if initial_backoff <= 0 or max_backoff < initial_backoff:
            raise ValueError(f"need 0 < initial_backoff <= max_backoff, got {initial_backoff}, {max_backoff}")
        if turn not in TURNS:
            raise ValueError(f"turn must be 0, 90, 180 or 270 degrees, not {turn!r}")
        self.turn = turn
        self.source = source
        self.holder = holder if holder is not None else FrameHolder()
        self.initial_backoff = initial_backoff
        self.max_backoff = max_backoff
        self.heartbeat_every = heartbeat_every
        self.on_status = on_status
        self.on_heartbeat = on_heartbeat
        self._wall = wall
        self._stop = threading.Event()
        self._sleep = sleep if sleep is not None else self._interruptible_sleep
        self._thread: threading.Thread | None = None
        self._opened = False
        self._backoff = initial_backoff
        self._lock = threading.Lock()
        self._status = CameraStatus("starting", source.name, wall())

    @property
    def status(self) -> CameraStatus:
        """The latest :class:`CameraStatus` (thread-safe)."""
        with self._lock:
            return self._status

    def _set_status(self, status: CameraStatus) -> None:
        with self._lock:
            # Every frame bumps ``frames``; the callback hears only about the rest.
            changed = replace(status, frames=0) != replace(self._status, frames=0)
            self._status = status
        if changed and self.on_status is not None:
            try:
                self.on_status(status)
            except Exception:  # a broken page callback must not stop the camera
                log.exception("camera status callback failed")

    def _heartbeat(self) -> None:
        if self.on_heartbeat is not None:
            try:
                self.on_heartbeat()
            except Exception:
                log.exception("camera heartbeat callback failed")

    def _interruptible_sleep(self, seconds: float) -> None:
        self._stop.wait(seconds)

    def step(self) -> bool:
        """One iteration: open if needed, read one frame, or fail and wait. True if a frame was published."""
        if self._stop.is_set():
            return False
        try:
            if not self._opened:
                self.source.open()
                self._opened = True
            frame = turned(as_bgr(self.source.read()), self.turn)
        except Exception as error:
            self._fail(error)
            return False
        try:
            self.holder.put(frame)
        except FramesEnded:
            self._stop.set()
            return False
        status = self.status
        if status.state != "ok":
            log.info("camera %s: ok", self.source.name)
            status = CameraStatus("ok", self.source.name, self._wall(), frames=status.frames)
            self._backoff = self.initial_backoff
        self._set_status(replace(status, frames=status.frames + 1))
        self._heartbeat()
        return True

    def _fail(self, error: BaseException) -> None:
        self._close_source()
        previous = self.status
        wait = self._backoff
        self._backoff = min(self._backoff * 2, self.max_backoff)
        since = previous.since if previous.state == "lost" else self._wall()
        message = f"{type(error).__name__}: {error}"
        log.warning("camera %s lost (%s); retrying in %.1f s", self.source.name, message, wait)
        self._set_status(
            CameraStatus(
                "lost",
                self.source.name,
                since,
                frames=previous.frames,
                error=message,
                attempts=previous.attempts + 1 if previous.state == "lost" else 1,
                retry_in=wait,
                code=getattr(error, "code", None) if isinstance(getattr(error, "code", None), str) else None,
                where=getattr(error, "path", None) if isinstance(getattr(error, "path", None), str) else None,
            )
        )
        remaining = wait
        while remaining > 0 and not self._stop.is_set():
            chunk = min(remaining, self.heartbeat_every)
            self._sleep(chunk)
            remaining -= chunk
            self._heartbeat()

    def _close_source(self) -> None:
        if self._opened:
            self._opened = False
            try:
                self.source.close()
            except Exception:
                log.exception("closing camera %s failed", self.source.name)

    def run(self) -> None:
        """Loop until :meth:`stop`; never raises."""
        while not self._stop.is_set():
            self.step()
        self._close_source()
        self._set_status(replace(self.status, state="stopped", since=self._wall(), retry_in=None))

    def start(self) -> CaptureLoop:
        """Run the loop on a daemon thread; returns ``self``."""
        if self._thread is None:
            self._thread = threading.Thread(target=self.run, name=f"camera-{self.source.name}", daemon=True)
            self._thread.start()
        return self

    def stop(self, timeout: float | None = 5.0) -> None:
        """Stop the loop, close the source and the holder. Idempotent."""
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)
        else:
            self._close_source()
            if self.status.state != "stopped":
                self._set_status(replace(self.status, state="stopped", since=self._wall(), retry_in=None))
        self.holder.close()

    close = stop

    def __enter__(self) -> CaptureLoop:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
