"""Any phone as the camera: a photo taken on a phone is read by the table's vision like a camera frame.

The page resizes the photo on the phone (long side 2048 px, JPEG) and posts it (``POST /api/photo``);
:class:`PhotoDesk` checks it and hands it to the :class:`~companion.serve.VisionWorker`, which reads it on
its own thread with the same reader, zones and calibration as the camera's frames and offers the reading
to the session: a *proposal* the players confirm or correct, exactly as with the Pi camera. A table with
no camera at all (``serve --camera none``) plays the whole loop this way.

What a phone may send is bounded before any pixel is decoded:

- at most :data:`MAX_PHOTO_BYTES` bytes (a 12 MP phone JPEG sent as it is: 3-8 MB; resized by the page:
  0.3-1 MB) and :data:`MAX_PHOTO_PIXELS` pixels, read from the header (``hardware.imagefile``); a JPEG
  with more pixels is decoded at a half, a quarter or an eighth of its size (``decode_photo_bytes``);
- one photo at a time for the whole table, and at most :data:`PHOTOS_PER_MINUTE` a minute: beyond them
  :class:`PhotoBusy` (429, ``retry_after``);
- the request waits at most ``wait`` seconds for the reading (:data:`WAIT_SECONDS`); a slower reading
  still lands, through the live stream, and the table stays busy until it has.

A refused photo changes nothing: no proposal, no image, nothing in the log.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from companion.errors import GoblinError, IllegalAction, InvalidInput
from companion.messages import speaker
from companion.session import StaleStep

MAX_PHOTO_BYTES: Final = 8 * 1024 * 1024
"""Bytes a photo may have (a 12 MP phone JPEG is 3-8 MB; the page sends 0.3-1 MB)."""
MAX_PHOTO_PIXELS: Final = 4096 * 4096
"""Pixels a photo may have, read from its header before decoding (16.8 MP, 48 MB as BGR)."""
PHOTOS_PER_MINUTE: Final = 30
"""Photos the table reads in a minute at most (any phone): a reading takes 0.05-1 s here."""
WAIT_SECONDS: Final = 20.0
"""How long a request waits for its reading; after that it answers 202 and the reading comes live."""
LONG_SIDE: Final = 2048
"""The long side the page resizes a photo to before it sends it (the server takes up to 4096)."""
TYPES: Final = ("image/jpeg", "image/png", "image/webp")
"""Content types ``POST /api/photo`` takes: the raw image bytes as the request body."""

MESSAGES: Final[Mapping[str, str]] = {
    "error.photo.too_large": "the photo has {size} bytes; at most {limit}: send it resized (the page does)",
    "error.photo.too_many_pixels": "the photo is {width}x{height} pixels; at most {limit} pixels "
                                   "(e.g. 4096x4096): send it resized (the page does)",
    "error.photo.not_image": "this is not a photo the table can read (JPEG, PNG or WebP): {why}",
    "error.photo.busy": "another photo is being read: try again in {seconds} s",
    "error.photo.too_many": "too many photos this minute: try again in {seconds} s",
    "error.photo.nothing_expected": "the table expects no roll now: there is nothing to read",
    "error.photo.no_vision": "this table cannot read photos: the vision package is not installed",
    "error.photo.moved": "the table moved on while the photo was read (step {step}, now {current}): "
                         "take it again if it is still needed",
}


_say = speaker(MESSAGES)


class PhotoTooLarge(InvalidInput):
    """More bytes or pixels than a photo may have (the page answers 413 ``payload-too-large``)."""


class NotAPhoto(InvalidInput):
    """An upload that is not an image the table can decode (400 ``invalid-input``)."""


class PhotoBusy(GoblinError):
    """Another photo is being read, or too many were this minute (429, ``retry_after`` seconds)."""

    def __init__(self, message: str, seconds: float) -> None:
        super().__init__(message)
        self.retry_after = max(1, int(seconds + 0.999))
        self.code = "too-many-photos"


class NothingToRead(IllegalAction):
    """A photo when the table expects no roll, or a table without vision (409)."""

    code = "nothing-to-read"


class PhotoMoved(StaleStep):
    """The table moved on (a confirm on another phone, a button) while the photo was read (409)."""


Frame = Any
"""A BGR uint8 HxWx3 numpy array."""


@dataclass
class PhotoJob:
    """One photo on its way through the vision worker; ``done`` is set when it was read (or failed)."""

    frame: Frame
    where: tuple[int | None, int]
    """(game id, step) of the table when the photo was taken: a reading for another step is dropped."""
    done: threading.Event = field(default_factory=threading.Event)
    snapshot: dict[str, Any] | None = None
    error: BaseException | None = None
    read_ms: float | None = None
    on_done: Callable[[], None] | None = None

    def finish(self, *, snapshot: dict[str, Any] | None = None, error: BaseException | None = None) -> None:
        self.snapshot, self.error = snapshot, error
        self.done.set()
        if self.on_done is not None:
            self.on_done()


class PhotoDesk:
    """Takes a phone's photo to the vision worker, one at a time (thread-safe).

    Parameters
    ----------
    session
        The ``TableSession`` (its step and what it expects are checked first).
    worker
        The ``VisionWorker`` that reads the photo (``submit_photo``), with a ``reader`` (None: no vision).
    clock
        Seconds, for the per-minute limit (default ``time.monotonic``).
    """

    def __init__(self, session: Any, worker: Any, *, clock: Callable[[], float] = time.monotonic,
                 max_bytes: int = MAX_PHOTO_BYTES, max_pixels: int = MAX_PHOTO_PIXELS,
                 per_minute: int = PHOTOS_PER_MINUTE, wait: float = WAIT_SECONDS) -> None:
        self.session = session
        self.worker = worker
        self.clock = clock
        self.max_bytes = max_bytes
        self.max_pixels = max_pixels
        self.per_minute = per_minute
        self.wait = wait
        self._lock = threading.Lock()
        self._busy = False
        self._times: deque[float] = deque()
        self.read = 0
        """Photos read so far."""

    def check_size(self, size: int | None) -> None:
        """PhotoTooLarge when a body of ``size`` bytes (its Content-Length; None: unknown) is too large:
        refused before a byte of it is read."""
        if size is not None and size > self.max_bytes:
            raise PhotoTooLarge(_say("error.photo.too_large", size=size, limit=self.max_bytes))

    def _take_turn(self) -> None:
        with self._lock:
            now = self.clock()
            while self._times and self._times[0] <= now - 60.0:
                self._times.popleft()
            if self._busy:
                raise PhotoBusy(_say("error.photo.busy", seconds=2), 2)
            if len(self._times) >= self.per_minute:
                wait = self._times[0] + 60.0 - now
                raise PhotoBusy(_say("error.photo.too_many", seconds=max(1, int(wait + 0.999))), wait)
            self._busy = True
            self._times.append(now)

    def _release(self) -> None:
        with self._lock:
            self._busy = False

    def decode(self, data: bytes) -> Frame:
        """The photo's pixels (BGR uint8), its size checked from the header first."""
        from hardware.imagefile import ImageFileError, ImageTooLarge, decode_photo_bytes, header_size

        try:   # a JPEG over max_pixels (a phone's 48 MP photo sent as it is) is decoded smaller
            return decode_photo_bytes(data, name="the photo", max_bytes=self.max_bytes,
                                      max_pixels=self.max_pixels)[0]
        except ImageTooLarge:
            size = header_size(data)
            if len(data) > self.max_bytes or size is None:
                raise PhotoTooLarge(_say("error.photo.too_large", size=len(data),
                                         limit=self.max_bytes)) from None
            raise PhotoTooLarge(_say("error.photo.too_many_pixels", width=size[0], height=size[1],
                                     limit=self.max_pixels)) from None
        except ImageFileError as error:
            why = str(error).removeprefix("the photo ")
            raise NotAPhoto(_say("error.photo.not_image", why=why)) from None

    def submit(self, data: bytes, *, step: int | None = None, position: str | None = None) -> dict[str, Any]:
        """Read the photo ``data`` (encoded image bytes) as the table's camera would, and answer the new
        snapshot with ``"photo"``: ``{"width", "height", "bytes", "read_ms", "pending"}`` (``pending``:
        the reading was not done within ``wait`` seconds and comes over the live stream).

        Raises
        ------
        PhotoTooLarge, NotAPhoto
            Too many bytes or pixels; not a decodable image.
        PhotoBusy
            Another photo is being read, or too many were this minute.
        StaleStep
            ``step``/``position`` is not the table's (also when it moves on during the reading).
        NothingToRead
            The table expects no roll, or has no vision.
        """
        self.check_size(len(data))
        self._take_turn()
        try:
            self.session.check_position(step, position)
            if self.session.expecting() is None:
                raise NothingToRead(_say("error.photo.nothing_expected"))
            if getattr(self.worker, "reader", None) is None:
                raise NothingToRead(_say("error.photo.no_vision"))
            frame = self.decode(data)
            job = PhotoJob(frame, (self.session.game_id, self.session.step), on_done=self._release)
            self.worker.submit_photo(job)
        except BaseException:
            self._release()
            raise
        finished = job.done.wait(self.wait)
        if finished and job.error is not None:
            raise job.error
        if finished:
            self.read += 1
        snapshot = job.snapshot if finished and job.snapshot is not None else self.session.snapshot()
        snapshot["photo"] = {"width": int(frame.shape[1]), "height": int(frame.shape[0]), "bytes": len(data),
                             "read_ms": job.read_ms, "pending": not finished}
        return snapshot
