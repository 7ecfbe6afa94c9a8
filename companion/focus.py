"""The focus aid behind ``GET /api/focus``: how sharp the camera's latest frame is, while the lens turns.

A Pi HQ camera's lens is focused by hand, and a picture out of focus by a pixel and a half loses the camera
five to seven dice in a hundred (docs/vision.md, "Forty-first session"). The settings page asks this
meter about twice a second while its *Messa a fuoco* section is open, and shows the figure against the
best it has seen since: the focus is right at the top.

:class:`FocusMeter` works the figure out (``vision.focus.sharpness``, a few ms for the middle 1024 px) once
per camera frame, one frame at a time for the whole table: phones asking together for the same frame
share one answer, and nothing a phone sends makes it measure more than the camera delivers.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

Frame = Any
"""A BGR uint8 HxWx3 numpy array."""


class FocusMeter:
    """The focus figure of the camera's latest frame.

    ``frames`` is ``() -> (frame id, frame) or None`` (``hardware.frames.FrameHolder.latest``); ``measure``
    is ``frame -> vision.focus.Focus`` (default ``vision.focus.sharpness``).
    """

    def __init__(self, frames: Callable[[], tuple[int, Frame] | None],
                 measure: Callable[[Frame], Any] | None = None,
                 encode: Callable[[Frame], bytes | None] | None = None) -> None:
        if measure is None:
            from vision import sharpness
            measure = sharpness
        self._frames = frames
        self._measure = measure
        self._encode = encode
        self._lock = threading.Lock()
        self._last: tuple[int, dict[str, Any]] | None = None
        self._view: tuple[int, bytes | None] | None = None

    def state(self) -> dict[str, Any]:
        """``{"frame": id or None, "sharpness": figure or None, "edges": n}``: ``frame`` None before the
        camera's first frame; ``sharpness`` None when the middle of the frame has too few edges to
        measure (an empty tray: a die in the middle gives it some); with ``"error"`` saying why when the
        frame is not a picture that can be measured (a camera sending grey or broken frames)."""
        with self._lock:
            latest = self._frames()
            if latest is None:
                return {"frame": None, "sharpness": None, "edges": 0}
            frame_id, frame = latest
            if self._last is None or self._last[0] != frame_id:
                try:
                    figure = {"frame": frame_id, **self._measure(frame).to_json()}
                except ValueError as error:  # vision.InvalidVisionInput: the camera sent no picture
                    figure = {"frame": frame_id, "sharpness": None, "edges": 0, "error": str(error)}
                self._last = (frame_id, figure)
            return dict(self._last[1])

    def view(self) -> tuple[int, bytes] | None:
        """The measured square of the latest frame at full resolution, as a JPEG (``encode``), and the
        frame's id: the page shows it beside the figure, so the players see the pips' edges sharpen as the
        lens turns. Encoded once per frame; None before the first frame, without ``encode``, or when the
        frame is not a picture."""
        if self._encode is None:
            return None
        from vision.focus import middle

        with self._lock:
            latest = self._frames()
            if latest is None:
                return None
            frame_id, frame = latest
            if self._view is None or self._view[0] != frame_id:
                try:
                    self._view = (frame_id, self._encode(middle(frame)))
                except ValueError:
                    self._view = (frame_id, None)
            image = self._view[1]
            return None if image is None else (frame_id, image)
