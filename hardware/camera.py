"""Choosing a camera by name (``--camera``) or by looking at what the machine has.

Names::

    auto                 picamera2 if it sees a camera, else an OpenCV device that gives a frame,
                         else a replay of the default photos (with a CameraFallback warning)
    picamera2[:N]        the Pi camera N (default 0)
    opencv[:N|:PATH]     an OpenCV device by index (default 0) or path, e.g. opencv:/dev/video2
    replay[:PATH]        a folder of photos or a video file (default: the photos given by the caller)

With no name, the environment variable ``GOBLIN_CAMERA`` is used, then ``auto``.
"""

from __future__ import annotations

import glob
import logging
import os
import sys
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from hardware.errors import CameraError, CameraFallback, UnknownCamera
from hardware.sources import CameraSource, OpenCVSource, ReplaySource

log = logging.getLogger(__name__)

#: Environment variable read when no camera name is given.
CAMERA_ENV = "GOBLIN_CAMERA"

KINDS = ("auto", "picamera2", "opencv", "replay")


@dataclass(frozen=True)
class CameraChoice:
    """The source chosen and why, in words the page or the log can show."""

    source: CameraSource
    reason: str


def parse_camera(
    spec: str,
    *,
    replay_default: str | Path | None = None,
    frame_interval: float | None = 0.2,
    photo_seconds: float | None = 5.0,
    light_check: Callable[[np.ndarray], bool] | None = None,
) -> CameraSource:
    """The (unopened) source a name other than ``auto`` stands for.

    ``frame_interval`` and ``photo_seconds`` apply to replays (see :class:`ReplaySource`), ``light_check``
    to the Pi camera (see :class:`~hardware.picam.PiCamera2Source`).

    Raises
    ------
    UnknownCamera
        If the name is not one of the forms above.
    """
    kind, sep, arg = spec.strip().partition(":")
    kind = kind.lower()
    if kind == "picamera2":
        if sep and not arg.isdigit():
            raise UnknownCamera(f"camera {spec!r}: after 'picamera2:' give a camera number, e.g. picamera2:0")
        from hardware.picam import PiCamera2Source

        return PiCamera2Source(int(arg) if arg else 0, light_check=light_check)
    if kind == "opencv":
        if sep and not arg:
            raise UnknownCamera(f"camera {spec!r}: after 'opencv:' give a device number or path")
        device: int | str = int(arg) if arg.isdigit() else (arg or 0)
        return OpenCVSource(device)
    if kind == "replay":
        path = arg or (str(replay_default) if replay_default is not None else "")
        if not path:
            raise UnknownCamera(f"camera {spec!r}: give a folder or video to replay, e.g. replay:photos/")
        return ReplaySource(path, frame_interval=frame_interval, photo_seconds=photo_seconds)
    raise UnknownCamera(
        f"unknown camera {spec!r}; use auto, picamera2[:N], opencv[:N|:PATH] or replay[:PATH]"
    )


def _video_devices() -> list[str]:
    return sorted(glob.glob("/dev/video*"))


def _probe_opencv(source: OpenCVSource) -> str | None:
    """None if the device gives a frame, else why not."""
    try:
        with source:
            source.read()
    except Exception as error:
        return str(error)
    return None


def open_camera(
    spec: str | None = None,
    *,
    replay_default: str | Path | None = None,
    frame_interval: float | None = 0.2,
    photo_seconds: float | None = 5.0,
    light_check: Callable[[np.ndarray], bool] | None = None,
) -> CameraChoice:
    """Choose a camera by name, or autodetect one; the source is returned unopened.

    Parameters
    ----------
    spec
        A camera name (see the module docstring); ``None`` reads ``$GOBLIN_CAMERA``, then ``"auto"``.
    replay_default
        The photos ``auto`` and a bare ``replay`` fall back to.
    frame_interval, photo_seconds
        Pacing of replays.
    light_check
        Given to a Pi camera: whether a frame is exposed for another light, so it meters again.

    Raises
    ------
    UnknownCamera
        For a name that is not a camera.
    CameraError
        When ``auto`` finds nothing at all and there is no ``replay_default``.

    Warns
    -----
    CameraFallback
        When ``auto`` found no camera and replays ``replay_default`` instead.
    """
    if spec is None:
        spec = os.environ.get(CAMERA_ENV) or "auto"
    if spec.strip().lower() != "auto":
        source = parse_camera(
            spec, replay_default=replay_default, frame_interval=frame_interval, photo_seconds=photo_seconds,
            light_check=light_check,
        )
        choice = CameraChoice(source, f"asked for {spec!r}")
        log.info("camera: %s (%s)", source.name, choice.reason)
        return choice

    tried: list[str] = []
    from hardware.picam import PiCamera2Source, detect_cameras

    count, why = detect_cameras()
    if count:
        choice = CameraChoice(PiCamera2Source(0, light_check=light_check), f"auto: {why}")
        log.info("camera: %s (%s)", choice.source.name, choice.reason)
        return choice
    tried.append(why)

    devices = _video_devices()
    if sys.platform.startswith("linux") and not devices:
        tried.append("no /dev/video* device")
    else:
        webcam = OpenCVSource(0)
        failure = _probe_opencv(webcam)
        if failure is None:
            choice = CameraChoice(webcam, "auto: OpenCV device 0 gives frames; " + "; ".join(tried))
            log.info("camera: %s (%s)", webcam.name, choice.reason)
            return choice
        tried.append(f"OpenCV device 0: {failure}")

    if replay_default is None:
        raise CameraError("no camera found (" + "; ".join(tried) + ") and no photos to replay")
    replay = ReplaySource(replay_default, frame_interval=frame_interval, photo_seconds=photo_seconds)
    reason = f"auto: no camera found ({'; '.join(tried)}), replaying {str(replay_default)!r}"
    log.warning("camera: %s", reason)
    warnings.warn(CameraFallback(reason), stacklevel=2)
    return CameraChoice(replay, reason)
