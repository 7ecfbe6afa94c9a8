"""The Raspberry Pi camera through picamera2: the only module that imports it, and only when a camera opens.

picamera2 comes from Raspberry Pi OS (``apt install python3-picamera2``) and needs libcamera, so it is
not a pip dependency and CI never has it. Its ``"RGB888"`` format is B, G, R in memory: the array it
returns is already OpenCV's BGR and is passed through unchanged.
"""

from __future__ import annotations

import importlib
import logging
import time
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any, Literal

import numpy as np

from hardware.errors import CameraError
from hardware.sources import Image, _Source, as_bgr

log = logging.getLogger(__name__)

#: This many frames in a row that ``light_check`` finds exposed for another light make a locked camera
#: meter again (``PiCamera2Source``): a hand or a white sheet passing over the tray is not a change of light.
BAD_FRAMES = 15
#: And at most once in this many seconds, so a scene that stays burnt under automatic exposure too (sun on
#: a white table) is not metered over and over.
REMETER_EVERY = 60.0

#: A full-field 4:3 mode of both the HQ camera (2028x1520 is its 2x2 binned mode) and the v2 camera,
#: sharp enough to read pips from above a table, small enough for a Pi to process a few times a second.
DEFAULT_SIZE = (2028, 1520)


def import_picamera2() -> ModuleType:
    """Import picamera2 or raise :class:`CameraError` saying how to install it."""
    try:
        return importlib.import_module("picamera2")
    except ImportError as error:
        raise CameraError(
            f"picamera2 is not available ({error}); on Raspberry Pi OS: sudo apt install python3-picamera2, "
            "and make the virtualenv with --system-site-packages"
        ) from error


def detect_cameras() -> tuple[int, str]:
    """How many cameras libcamera sees, and in words why (0 when picamera2 is missing or fails)."""
    try:
        module = importlib.import_module("picamera2")
    except ImportError:
        return 0, "picamera2 is not installed"
    try:
        count = len(module.Picamera2.global_camera_info())
    except Exception as error:  # libcamera may fail in many ways on a machine without a camera
        log.info("picamera2: no camera (%s)", error)
        return 0, f"picamera2 failed: {error}"
    return count, f"picamera2 sees {count} camera(s)"


def camera_count() -> int:
    """How many cameras libcamera sees (0 when picamera2 is missing or fails)."""
    return detect_cameras()[0]


class PiCamera2Source(_Source):
    """A Raspberry Pi camera (HQ, v2, v3) through picamera2, with exposure and white balance locked.

    After ``warmup`` seconds of automatic exposure and white balance, the values the camera settled on
    (``ExposureTime``, ``AnalogueGain``, ``ColourGains`` from the frame metadata) are set as fixed
    controls with ``AeEnable`` and ``AwbEnable`` off, so die colours stay the same from frame to frame.
    When the light changes after that (``BAD_FRAMES`` frames in a row that ``light_check`` finds burnt white
    under a lamp switched on, or dark), automatic exposure and white balance are turned on again and locked
    anew ``warmup`` seconds later, without stopping the frames, at most once in ``REMETER_EVERY`` seconds
    (docs/vision.md, "Seventy-third session, second": the reader's sure mistakes rise in burnt frames).

    Parameters
    ----------
    camera_num
        Which camera (0 for the only one).
    size
        Main stream (width, height).
    mode
        ``"still"`` (best image quality, the default) or ``"video"`` (faster frame rate).
    warmup
        Seconds to let automatic exposure and white balance settle before locking them.
    lock
        Lock exposure and white balance after warm-up; ``False`` leaves them automatic.
    controls
        Extra controls set at start (e.g. ``{"AfMode": 0, "LensPosition": 1.5}`` for a camera v3).
    sleep
        Injected sleep for the warm-up.
    clock
        Injected monotonic clock for metering again.
    light_check
        Whether a BGR frame is exposed for another light than the locked one (the companion gives
        ``vision.exposure.badly_exposed``: hardware knows no image rules). None never meters again.
    """

    def __init__(
        self,
        camera_num: int = 0,
        *,
        size: tuple[int, int] = DEFAULT_SIZE,
        mode: Literal["still", "video"] = "still",
        warmup: float = 2.0,
        lock: bool = True,
        controls: Mapping[str, Any] | None = None,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
        light_check: Callable[[np.ndarray], bool] | None = None,
    ) -> None:
        if mode not in ("still", "video"):
            raise ValueError(f"mode must be 'still' or 'video', got {mode!r}")
        self.camera_num = camera_num
        self.size = size
        self.mode = mode
        self.warmup = warmup
        self.lock = lock
        self.controls = dict(controls or {})
        self.name = "picamera2" if camera_num == 0 else f"picamera2:{camera_num}"
        self._sleep = sleep
        self._clock = clock
        self._light_check = light_check
        self._camera: Any = None
        #: The controls set when exposure and white balance were locked (empty until then).
        self.locked_controls: dict[str, Any] = {}
        #: How many times the camera metered again since it opened (``BAD_FRAMES``).
        self.remetered = 0
        self._bad = 0
        self._metering_since: float | None = None
        self._last_metering: float | None = None

    def open(self) -> None:
        self.close()
        self.remetered, self._bad, self._metering_since, self._last_metering = 0, 0, None, None
        module = import_picamera2()
        try:
            camera = module.Picamera2(self.camera_num)
        except Exception as error:
            raise CameraError(f"cannot open Pi camera {self.camera_num}: {error}") from error
        self._camera = camera
        try:
            if self.mode == "still":
                create = camera.create_still_configuration
            else:
                create = camera.create_video_configuration
            # Two buffers let the camera fill one while we copy the other out.
            config = create(main={"size": self.size, "format": "RGB888"}, buffer_count=2)
            camera.configure(config)
            if self.controls:
                camera.set_controls(self.controls)
            camera.start()
            if self.lock:
                self._lock_exposure(camera)
        except Exception as error:
            self.close()
            raise CameraError(f"cannot start Pi camera {self.camera_num}: {error}") from error

    def _lock_exposure(self, camera: Any) -> None:
        self._sleep(self.warmup)
        self._lock_now(camera)

    def _lock_now(self, camera: Any) -> None:
        metadata = camera.capture_metadata()
        try:
            locked = {
                "AeEnable": False,
                "AwbEnable": False,
                "ExposureTime": int(metadata["ExposureTime"]),
                "AnalogueGain": float(metadata["AnalogueGain"]),
                "ColourGains": tuple(float(g) for g in metadata["ColourGains"]),
            }
        except (KeyError, TypeError, ValueError) as error:
            raise CameraError(f"camera metadata lacks exposure or colour gains: {error!r}") from error
        camera.set_controls(locked)
        self.locked_controls = locked
        log.info("picamera2: locked exposure and white balance at %s", locked)

    def read(self) -> Image:
        if self._camera is None:
            raise CameraError(f"camera {self.name!r} is not open")
        try:
            frame = self._camera.capture_array("main")
        except Exception as error:
            raise CameraError(f"Pi camera {self.camera_num} gave no frame: {error}") from error
        image = as_bgr(frame)
        check = self._light_check
        if self.lock and self.locked_controls and check is not None:
            try:
                self._watch_light(self._camera, image, check)
            except Exception as error:
                raise CameraError(f"Pi camera {self.camera_num} could not meter again: {error}") from error
        return image

    def _watch_light(self, camera: Any, frame: np.ndarray, check: Callable[[np.ndarray], bool]) -> None:
        """Meter again when the light no longer fits the locked exposure (see the class); ``check``: whether
        ``frame`` is exposed for another light, asked only while the exposure is locked."""
        now = self._clock()
        if self._metering_since is not None:
            if now - self._metering_since >= self.warmup:
                self._metering_since = None
                self._lock_now(camera)
            return
        self._bad = self._bad + 1 if check(frame) else 0
        if self._bad < BAD_FRAMES:
            return
        if self._last_metering is not None and now - self._last_metering < REMETER_EVERY:
            return
        self._bad = 0
        self._metering_since = self._last_metering = now
        self.remetered += 1
        camera.set_controls({"AeEnable": True, "AwbEnable": True})
        log.info("picamera2: the light changed (%d frames burnt or dark): metering again", BAD_FRAMES)

    def close(self) -> None:
        camera, self._camera = self._camera, None
        if camera is None:
            return
        try:
            camera.stop()
        except Exception:
            log.exception("picamera2: stop failed")
        try:
            camera.close()
        except Exception:
            log.exception("picamera2: close failed")
