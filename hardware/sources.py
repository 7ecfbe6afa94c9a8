"""Camera sources: one small protocol, an OpenCV device and a replay of photos or a video.

Every source hands out frames as BGR uint8 arrays of shape (H, W, 3), the layout OpenCV uses. The Pi
camera lives in :mod:`hardware.picam`, the only module that imports picamera2; choosing a source by name
is :func:`hardware.camera.open_camera`.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, Self, runtime_checkable

import cv2
import numpy as np

from hardware.errors import CameraError, ReplayGone
from hardware.imagefile import ImageFileError, read_photo_file

log = logging.getLogger(__name__)

Image = np.ndarray[Any, np.dtype[np.uint8]]

#: Files a replay folder reads, by suffix (case-insensitive); anything else in the folder is ignored.
IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff"})


@runtime_checkable
class CameraSource(Protocol):
    """What the capture loop needs from a camera.

    ``open()`` may be called again after ``close()`` (the loop reopens a lost camera); ``read()`` blocks
    until the next frame and raises (any exception, usually :class:`~hardware.errors.CameraError`) when
    the camera is gone; ``close()`` is idempotent. ``name`` is the spec that chooses it again, e.g.
    ``"opencv:0"``.
    """

    name: str

    def open(self) -> None: ...

    def read(self) -> Image: ...

    def close(self) -> None: ...

    def __enter__(self) -> Self: ...

    def __exit__(self, *exc: object) -> None: ...


def as_bgr(frame: object) -> Image:
    """Check a camera frame and bring it to BGR uint8 (H, W, 3).

    Grey frames are expanded; a fourth (alpha or padding) channel, as in picamera2's ``XRGB8888``
    (B, G, R, A in memory), is dropped. Anything else raises :class:`CameraError`.
    """
    if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8:
        kind = f"array of {frame.dtype}" if isinstance(frame, np.ndarray) else type(frame).__name__
        raise CameraError(f"camera frame must be a uint8 array, got {kind}")
    if frame.ndim == 2:
        return np.asarray(cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR), dtype=np.uint8)
    if frame.ndim == 3 and frame.shape[2] == 3:
        return frame
    if frame.ndim == 3 and frame.shape[2] == 4:
        return np.ascontiguousarray(frame[:, :, :3])
    raise CameraError(f"camera frame must be HxW, HxWx3 or HxWx4, got shape {frame.shape}")


#: OpenCV's rotation for each of ``turned``'s turns but 0 (degrees clockwise)
_ROTATIONS = {90: cv2.ROTATE_90_CLOCKWISE, 180: cv2.ROTATE_180, 270: cv2.ROTATE_90_COUNTERCLOCKWISE}
#: the turns a frame can be given (``companion.config.TURNS``, which must not import OpenCV, says the same)
TURNS = (0, *_ROTATIONS)


def turned(frame: Image, degrees: int) -> Image:
    """``frame`` turned ``degrees`` clockwise (0, 90, 180 or 270; ``camera.turn``): a camera mounted upside
    down or on its side shows the table's far side at the top, as the vision's reading of a die's top
    expects (docs/vision.md, seventy-first session). 0 returns ``frame`` itself."""
    if degrees == 0:
        return frame
    if degrees not in _ROTATIONS:
        raise ValueError(f"a frame is turned 0, 90, 180 or 270 degrees, not {degrees!r}")
    return np.asarray(cv2.rotate(frame, _ROTATIONS[degrees]), dtype=np.uint8)


class _Source:
    """Context-manager plumbing shared by the sources."""

    name: str = "source"

    def open(self) -> None:
        raise NotImplementedError

    def read(self) -> Image:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


class OpenCVSource(_Source):
    """A camera that OpenCV opens: a USB webcam by index (``0``) or device path (``"/dev/video2"``).

    Parameters
    ----------
    device
        What ``cv2.VideoCapture`` opens.
    size
        Requested (width, height); the driver may choose another size.
    """

    def __init__(self, device: int | str = 0, *, size: tuple[int, int] | None = None) -> None:
        self.device = device
        self.size = size
        self.name = f"opencv:{device}"
        self._capture: cv2.VideoCapture | None = None

    def open(self) -> None:
        self.close()
        capture = cv2.VideoCapture(self.device)
        if not capture.isOpened():
            capture.release()
            raise CameraError(f"OpenCV cannot open camera {self.device!r}")
        # Keep only the newest frame queued: the table wants what is there now, not 4 frames ago.
        capture.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        if self.size is not None:
            capture.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        self._capture = capture

    def read(self) -> Image:
        if self._capture is None:
            raise CameraError(f"camera {self.name!r} is not open")
        ok, frame = self._capture.read()
        if not ok or frame is None:
            raise CameraError(f"camera {self.device!r} gave no frame (unplugged?)")
        return as_bgr(frame)

    def close(self) -> None:
        capture, self._capture = self._capture, None
        if capture is not None:
            capture.release()


def _stamp(path: Path) -> tuple[int, int] | None:
    """A photo file's (mtime, size), or None when it is gone: a changed stamp is a new photo."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_mtime_ns, info.st_size


class ReplaySource(_Source):
    """Replays a folder of photos (sorted by path, sub-folders included) or a video file, for demos and tests.

    Unreadable photos (not an image, too large: :func:`hardware.imagefile.read_photo_file`; a JPEG over
    ``MAX_PIXELS``, a phone's 48 MP photo, is decoded at a half, a quarter or an eighth of its size) are
    skipped with one log line each. The folder is looked at again whenever a photo it listed is gone and at
    each new round: when it is emptied or deleted, :meth:`read` raises :class:`CameraError` saying so (the
    capture loop reports the camera lost with that reason and keeps retrying :meth:`open`, which finds the
    photos when they come back). A photo that changes on disk is read again.

    Parameters
    ----------
    path
        A folder of photos, one photo, or a video file (anything OpenCV's ``VideoCapture`` reads).
    frame_interval
        Seconds between frames: :meth:`read` sleeps so frames come no faster (``None``: no pacing).
    photo_seconds
        Folder only: how long each photo stays before the next one, as a still table would look to a
        camera; ``None`` moves to the next photo on every read. :meth:`advance` moves on at once.
    loop
        Start again at the end; otherwise reading past the end raises :class:`CameraError`.
    clock, sleep
        Injected time for pacing.
    """

    def __init__(
        self,
        path: str | Path,
        *,
        frame_interval: float | None = None,
        photo_seconds: float | None = None,
        loop: bool = True,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.path = Path(path)
        self.name = f"replay:{self.path}"
        self.frame_interval = frame_interval
        self.photo_seconds = photo_seconds
        self.loop = loop
        self._clock = clock
        self._sleep = sleep
        self._lock = threading.Lock()
        self._photos: list[Path] = []
        self._bad: dict[Path, tuple[int, int] | None] = {}
        self._video: cv2.VideoCapture | None = None
        self._is_open = False
        self._index = 0
        self._shown_at = 0.0
        self._cached: tuple[int, tuple[int, int], Image] | None = None
        self._next_due: float | None = None

    @property
    def is_video(self) -> bool:
        """True when the path is a video file rather than photos."""
        return self.path.is_file() and self.path.suffix.lower() not in IMAGE_SUFFIXES

    @property
    def photos(self) -> list[Path]:
        """The photos this replay cycles through (after :meth:`open`), unreadable ones included."""
        return list(self._photos)

    def _list_photos(self) -> list[Path]:
        """The photos in the replay path now; CameraError saying why there are none."""
        if not self.path.exists():
            raise ReplayGone(f"replay path {str(self.path)!r} does not exist (deleted or not mounted?)",
                             code="replay-missing", path=str(self.path))
        if self.path.is_file():
            return [self.path]
        try:
            photos = sorted(
                p for p in self.path.rglob("*") if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES
            )
        except OSError as error:
            why = error.strerror or error
            raise CameraError(f"cannot list replay folder {str(self.path)!r}: {why}") from None
        if not photos:
            raise ReplayGone(f"no photos ({', '.join(sorted(IMAGE_SUFFIXES))}) in {str(self.path)!r}",
                             code="replay-empty", path=str(self.path))
        return photos

    def _relist(self) -> None:
        """Look at the folder again (a photo went, or a round ended); keeps the place when it can."""
        current = self._photos[self._index] if 0 <= self._index < len(self._photos) else None
        photos = self._list_photos()
        if photos != self._photos:
            log.info("replay: %s now holds %d photos (was %d)", self.path, len(photos), len(self._photos))
            self._photos = photos
            self._index = photos.index(current) if current in photos else min(self._index, len(photos))
            self._cached = None

    def open(self) -> None:
        self.close()
        self._bad = {}
        if self.is_video:
            video = cv2.VideoCapture(str(self.path))
            if not video.isOpened():
                video.release()
                raise CameraError(f"cannot open video {str(self.path)!r}")
            self._video = video
        else:
            self._photos = self._list_photos()
        self._index = 0
        self._shown_at = self._clock()
        self._cached = None
        self._next_due = None
        self._is_open = True

    def advance(self) -> None:
        """Show the next photo from the next read on (a new roll in a demo)."""
        with self._lock:
            self._index += 1
            self._shown_at = self._clock()

    def read(self) -> Image:
        if not self._is_open:
            raise CameraError(f"camera {self.name!r} is not open")
        self._pace()
        if self._video is not None:
            return self._read_video(self._video)
        with self._lock:
            if self.photo_seconds is not None and self._clock() - self._shown_at >= self.photo_seconds:
                self._index += 1
                self._shown_at = self._clock()
            frame = self._read_photo()
            if self.photo_seconds is None:
                self._index += 1
            return frame

    def _pace(self) -> None:
        if self.frame_interval is None:
            return
        now = self._clock()
        if self._next_due is not None and now < self._next_due:
            self._sleep(self._next_due - now)
            now = self._next_due
        self._next_due = now + self.frame_interval

    def _read_photo(self) -> Image:
        tried = 0
        while tried < len(self._photos):
            if self._index >= len(self._photos):
                if not self.loop:
                    raise CameraError(f"replay of {str(self.path)!r} ended")
                self._index = 0
                self._relist()  # a new round: photos added or taken away since
            path = self._photos[self._index]
            stamp = _stamp(path)
            if stamp is None:  # the photo went: the folder was emptied, deleted or changed
                self._relist()
                tried += 1
                continue
            if self._cached is not None and self._cached[0] == self._index and self._cached[1] == stamp:
                return self._cached[2]
            if path not in self._bad or self._bad[path] != stamp:
                try:
                    image = read_photo_file(path)[0]   # a 48 MP phone photo decoded smaller
                except ImageFileError as error:
                    self._bad[path] = stamp
                    log.warning("replay: skipping photo %s: %s", path, error)
                else:
                    self._bad.pop(path, None)
                    self._cached = (self._index, stamp, image)
                    return image
            self._index += 1
            tried += 1
        raise CameraError(f"no readable photo in {str(self.path)!r}")

    def _read_video(self, video: cv2.VideoCapture) -> Image:
        ok, frame = video.read()
        if (not ok or frame is None) and self.loop:
            # Reopening rewinds every container; seeking to frame 0 does not work for all of them.
            video.release()
            video = cv2.VideoCapture(str(self.path))
            self._video = video
            ok, frame = video.read()
        if not ok or frame is None:
            raise CameraError(f"video {str(self.path)!r} gave no frame" + ("" if self.loop else " (ended)"))
        return as_bgr(frame)

    def close(self) -> None:
        self._is_open = False
        video, self._video = self._video, None
        if video is not None:
            video.release()
        self._cached = None
