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
        from vision.focus import middle, sharpness

        self._frames = frames
        self._measure = measure or sharpness
        self._encode = encode
        self._middle = middle
        self._lock = threading.Lock()
        self._done: dict[str, tuple[int, Any]] = {}  # what each kind of work gave for the last frame

    def _once_per_frame(self, kind: str, work: Callable[[int, Frame], Any], failed: Callable[[int, str], Any],
                        ) -> tuple[int, Any] | None:
        """``work(id, frame)`` for the latest frame, done once per frame (``failed(id, why)`` when the frame
        is not a picture: ``vision.InvalidVisionInput``), with the frame's id; None before a frame."""
        with self._lock:
            latest = self._frames()
            if latest is None:
                return None
            frame_id, frame = latest
            done = self._done.get(kind)
            if done is None or done[0] != frame_id:
                try:
                    done = (frame_id, work(frame_id, frame))
                except ValueError as error:
                    done = (frame_id, failed(frame_id, str(error)))
                self._done[kind] = done
            return done

    def state(self) -> dict[str, Any]:
        """``{"frame": id or None, "sharpness": figure or None, "edges": n}``: ``frame`` None before the
        camera's first frame; ``sharpness`` None when the middle of the frame has too few edges to
        measure (an empty tray: a die in the middle gives it some); with ``"error"`` saying why when the
        frame is not a picture that can be measured (a camera sending grey or broken frames)."""
        done = self._once_per_frame(
            "state", lambda frame_id, frame: {"frame": frame_id, **self._measure(frame).to_json()},
            lambda frame_id, why: {"frame": frame_id, "sharpness": None, "edges": 0, "error": why})
        return {"frame": None, "sharpness": None, "edges": 0} if done is None else dict(done[1])

    def view(self) -> tuple[int, bytes] | None:
        """The measured square of the latest frame at full resolution, as a JPEG (``encode``), and the
        frame's id: the page shows it beside the figure, so the players see the pips' edges sharpen as the
        lens turns. Encoded once per frame; None before the first frame, without ``encode``, or when the
        frame is not a picture."""
        encode = self._encode
        if encode is None:
            return None
        done = self._once_per_frame("view", lambda _id, frame: encode(self._middle(frame)),
                                    lambda _id, _why: None)
        return None if done is None or done[1] is None else (done[0], done[1])
