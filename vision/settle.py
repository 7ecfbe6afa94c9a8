"""Settle detection over a stream of frames: are the dice still rolling?

``settle_step(state, frame)`` is pure: it returns a new ``SettleState`` and keeps only a small colour
thumbnail of the frame. Each frame is scaled to 80 px wide, blurred (camera noise), and its
brightness normalised per frame (a passing cloud or a lamp changes every pixel a little; a die changes
a few pixels a lot).

- *moving*: more than ``MOTION_FRACTION`` of the thumbnail changed since the previous frame.
- *settled*: no motion for ``STILL_FRAMES`` frames, and the picture is the accepted baseline or close to
  it. A still picture that differs a lot from the baseline (a hand held over the tray, the shadow of an
  arm) is not settled at once; but when it lasts ``LASTING_FRAMES`` still frames it *becomes* the new
  baseline, wherever it is in the frame (the border included), so a die left at the edge or a shadow
  that stays never blocks the companion forever.

``still_mean(frames)`` is what a settled scene is read from: the mean of its last still frames, in which a
camera's sensor noise falls by the square root of their number while the dice stay where they lie.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.errors import InvalidVisionInput
from vision.table import check_frame

THUMB_WIDTH = 80
#: grey levels (after normalising) a thumbnail pixel must change by to count
PIXEL_DELTA = 18
#: fraction of thumbnail pixels that must change between frames to call it motion
MOTION_FRACTION = 0.002
#: still frames before "settled"
STILL_FRAMES = 3
#: fraction changed from the baseline that looks like a hand or arm rather than dice
LARGE_CHANGE = 0.08
#: still frames after which any lasting picture becomes the baseline (~2 s at 6 frames/s)
LASTING_FRAMES = 12
#: a settled scene is read as the mean of at most this many of its still frames (``still_mean``)
STILL_AVERAGE = 4
#: ... and of no more frames than fit in this many bytes together (a 12 MP frame is 36 MB: read alone)
STILL_BYTES = 48_000_000


@dataclass(frozen=True, slots=True)
class SettleState:
    """Result of one ``settle_step``: flags and the little the next step needs."""

    moving: bool
    settled: bool
    still_frames: int
    frames: int
    changed: float            # fraction of pixels changed since the previous frame
    shape: tuple[int, ...]    # frame shape the state belongs to
    thumb: np.ndarray = field(repr=False, compare=False)
    baseline: np.ndarray | None = field(repr=False, compare=False, default=None)


def _thumb(frame: np.ndarray) -> np.ndarray:
    h, w = frame.shape[:2]
    tw = min(THUMB_WIDTH, w)
    th = max(1, round(h * tw / w))
    small = cv2.resize(frame, (tw, th), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (3, 3), 0).astype(np.float32)
    mean = float(small.mean())
    return small * (128.0 / mean) if mean > 8 else small


def _changed(a: np.ndarray, b: np.ndarray) -> float:
    return float((np.abs(a - b).max(axis=2) > PIXEL_DELTA).mean())


def settle_step(state: SettleState | None, frame: np.ndarray) -> SettleState:
    """Advance settle detection by one frame (BGR uint8 (H, W, 3)); ``state=None`` starts afresh.

    The first frame is moving (nothing is known yet). A change of frame size starts afresh.
    """
    frame = check_frame(frame)
    thumb = _thumb(frame)
    if state is None or state.shape != frame.shape:
        return SettleState(moving=True, settled=False, still_frames=0, frames=1, changed=1.0,
                           shape=frame.shape, thumb=thumb)
    changed = _changed(thumb, state.thumb)
    moving = changed > MOTION_FRACTION
    still = 0 if moving else state.still_frames + 1
    baseline = state.baseline
    settled = False
    near_baseline = baseline is None or _changed(thumb, baseline) <= LARGE_CHANGE
    if still >= STILL_FRAMES and (near_baseline or still >= LASTING_FRAMES):
        settled = True
        baseline = thumb
    return SettleState(moving=moving, settled=settled, still_frames=still, frames=state.frames + 1,
                       changed=changed, shape=frame.shape, thumb=thumb, baseline=baseline)


def still_mean(frames: Sequence[np.ndarray]) -> np.ndarray:
    """The pixel mean of the last frames of one still scene (BGR uint8 (H, W, 3)), rounded: at most
    ``STILL_AVERAGE`` of them and no more than ``STILL_BYTES`` together; frames of another shape than the
    last are left out. Frames alike give that frame to the bit; independent sensor noise falls by the square
    root of the number of frames (a dim room, a camera at high gain: Vision III's camera probe found the
    noise brings phantom dice, docs/vision.md).

    Raises ``InvalidVisionInput`` (a ``ValueError``) when there is no frame, or the last is not a frame
    (``vision.table.check_frame``).
    """
    if not frames:
        raise InvalidVisionInput("frames: still_mean needs at least one frame, got none")
    last = check_frame(frames[-1])
    most = max(1, min(STILL_AVERAGE, STILL_BYTES // max(1, last.nbytes)))
    used = [last]
    for f in reversed(frames[:-1]):
        if len(used) == most:
            break
        if not (isinstance(f, np.ndarray) and f.shape == last.shape and f.dtype == np.uint8):
            break
        used.append(f)
    if len(used) == 1:
        return last
    total = np.zeros(last.shape, np.uint16)
    for f in used:
        np.add(total, f, out=total)
    total += len(used) // 2
    total //= len(used)
    return total.astype(np.uint8)
