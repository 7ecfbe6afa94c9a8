"""Errors and warnings of the hardware layer.

Like gpiozero's, each exception also inherits the built-in it behaves like, so callers that know nothing
of this package can still catch ``OSError``, ``ValueError`` or ``TimeoutError``.
"""

from __future__ import annotations


class HardwareError(Exception):
    """Root of every error raised by :mod:`hardware`."""


class CameraError(HardwareError, OSError):
    """A camera could not be opened, or stopped giving frames."""


class ReplayGone(CameraError):
    """A replay folder (or photo) that is gone, or holds no photo: ``code`` says which for the page
    (``"replay-missing"`` or ``"replay-empty"``) and ``path`` where."""

    def __init__(self, message: str, *, code: str, path: str) -> None:
        super().__init__(message)
        self.code = code
        self.path = path


class UnknownCamera(HardwareError, ValueError):
    """A camera name (``--camera``) that names no source, e.g. ``'webcam'`` or ``'opencv:x'``."""


class FrameTimeout(HardwareError, TimeoutError):
    """No new frame arrived in time."""


class FramesEnded(HardwareError, EOFError):
    """The frame holder was closed: no more frames will come."""


class BadPins(HardwareError, ValueError):
    """A button or LED pin configuration that cannot work (e.g. two buttons on one pin)."""


class HardwareWarning(UserWarning):
    """Root of the warnings of :mod:`hardware`."""


class CameraFallback(HardwareWarning):
    """The camera asked for (or autodetection) fell back to another source."""


class SkippedFrame(HardwareWarning):
    """A replay file could not be decoded and was skipped."""


class PinFactoryFallback(HardwareWarning):
    """No GPIO on this machine: buttons and LED use gpiozero's mock pins, which nobody can press."""
