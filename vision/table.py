"""``read_table``: dice and tokens in one frame, and ``annotate``: the frame with what was read drawn on it.

Images are BGR uint8 arrays of shape (H, W, 3); they are never modified.

Every threshold of the rule reader (Vision I) is a named module constant (issue 17); the numbers left in
comparisons are 0/1 and pixel offsets of a border. Each comment says what the constant means and what it
was fitted on, with the tags of ``vision.pips`` (*dev*: the matteop65 development photos, *chase*,
*sweep*, *burks*: the burks polyhedral photos, *geometry*, *numeric*); ``annotate``'s drawing sizes are
not thresholds.
"""

from __future__ import annotations

import functools
import importlib
import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

import cv2
import numpy as np

from vision import _cv, learned
from vision.errors import InvalidVisionInput
from vision.exposure import light
from vision.pips import (
    COARSE_INNER,
    COARSE_PLAIN_SPREAD,
    COLOURED_FACE,
    SPREAD_FLOOR,
    UNEXPLAINED_CONFIDENCE,
    Face,
    _capped,
    chroma,
    find_pips,
    group_faces,
    missing_corners,
    pip_shape,
    view_side,
)
from vision.reading import BBox, Die, TableReading, Token
from vision.zones import Zones, inside, tray_polygon

if TYPE_CHECKING:
    from vision.teach import Calibration

#: long side of the working image's 4:3 view (``view_side``): pips of dice seen from a tray camera stay
#: 4+ px wide. A wide frame (two 640x480 frames side by side) keeps its full width.
WORK_SIDE: Final = 640
#: smaller frames (crops) are enlarged to this long side
MIN_WORK_SIDE: Final = 320
#: a pip is measured when its centre lies this many pip radii inside the frame border
BORDER_PIPS: Final = 2.0
#: frames above this many pixels are refused (a 12 MP photo is 12e6; 50e6 leaves room)
MAX_PIXELS: Final = 50_000_000
#: area / enclosing-circle area above which an object is a round token, not a die (square: 0.64)
TOKEN_ROUNDNESS: Final = 0.87
#: a d6's pip layout fills its top face: a face whose box is under this share of the short side of the
#: object it lies on, with pips under ``NUMERAL_MARK`` of it, is marks of a numeral die (a 6's dot, a
#: digit's hole), not a d6's face (matteop65 d6s: face 0.41+, pips 0.05+ of the die, 1st percentiles)
FACE_FILL: Final = 0.4
NUMERAL_MARK: Final = 0.045
#: the polyhedral reader's type confidence from which a die whose marks looked like pips is its reading
POLY_SIDES_SURE: Final = 0.5
#: a round object is a die when the polyhedral type is read at least this sure and its numeral clearly
#: agrees (``_carries_numeral``); under 0.8 the numeral must read at ``ROUND_DIE_NUMERAL``
ROUND_DIE_SIDES: Final = 0.65
ROUND_DIE_NUMERAL: Final = 0.95
#: an object with no pips is no die when its long side is under this share of the frame's largest
#: object (the dice of one table are of a size; a speck on a tray's wall is not a die)
DIE_SIZE_SHARE: Final = 0.4
#: a die read with this confidence is surely a die: the frame's other dice are of its size
SURE_DIE: Final = 0.8
#: an object this many times longer than wide, among dice as wide as it, is touching dice (a die's top is
#: about square, see ``vision.pips.TOP_EXTENTS``): Vision II's reading of it is a proposal only
TOUCHING_DICE: Final = 1.6
#: objects alike in size to a touching-dice object: within ``ALIKE`` x its short side [burks]
ALIKE: Final = (0.8, 1.25)
#: a frame is at least this many pixels on each side (smaller is no picture of a tray) [numeric]
MIN_FRAME_SIDE: Final = 8
#: frames scaled by less than this are scaled in two cheap steps (bilinear x2, then area) [numeric]
TWO_STEP_BELOW: Final = 0.5
#: the tray model: the median of a grid of ``BG_GRID`` x ``BG_GRID`` cells (``BG_GRID_MIN`` at least),
#: median-blurred over ``BG_BLUR`` cells; a pixel this many grey levels (any channel) off it is
#: foreground, cleaned by ``MORPH_SIZE`` px closing and opening [dev]
BG_GRID: Final = 20
BG_GRID_MIN: Final = 4
BG_BLUR: Final = 5
FOREGROUND_LEVEL: Final = 38
MORPH_SIZE: Final = 5
#: a body is at most ``BODY_ASPECT`` x longer than wide, fills ``BODY_SOLID`` of its hull and
#: ``BODY_FILL`` of its box [dev]
BODY_ASPECT: Final = 1.8
BODY_SOLID: Final = 0.88
BODY_FILL: Final = 0.5
#: bodies are ``view_side / SMALLEST_DIVISOR`` to ``view_side / LARGEST_DIVISOR`` px; under
#: ``view_side / SPECK_DIVISOR`` a speck [dev]
SMALLEST_DIVISOR: Final = 80
LARGEST_DIVISOR: Final = 5
SPECK_DIVISOR: Final = 40
#: a seam between views side by side: the picture jumps by ``SEAM_STEP`` grey levels on average over the
#: column, ``SEAM_JUMP`` x more than next to it; views are at most ``VIEW_WIDEST`` (16:9) [geometry: the
#: demo photos]
SEAM_STEP: Final = 8
SEAM_JUMP: Final = 6
VIEW_WIDEST: Final = (16, 9)
#: a round body this many times larger than a face inside is a printed token [sweep]
TOKEN_LARGER: Final = 1.25
#: a taught face wins over the pip reading at this patch score [sweep]
TAUGHT_FACE: Final = 0.75
#: objects with no face are dice ``OBJECT_SIZES`` x the read faces' median size [dev]
OBJECT_SIZES: Final = (0.6, 2.6)
#: an object within this share of a read face's size + its own is that die's side or shadow [dev]
SIDE_REACH: Final = 0.9
#: a die read closer keeps this share of its confidence [dev]
CLOSER_CONFIDENCE: Final = 0.95
#: what no reader could read: an unknown die's confidence, an unread token's [dev]
UNKNOWN_DIE: Final = 0.1
UNREAD_TOKEN: Final = 0.2
#: a d10's "0" face reads this value [geometry]
D10_ZERO: Final = 10
#: a round die's numeral reads at this score when its type is read this sure [burks]
ROUND_DIE_SURE: Final = 0.8
#: faces read at least this sure give the frame's pip size for ``ONE_PIP_SIZE`` [dev]
TINY_ONES_REFERENCE: Final = 0.7
#: a lone light pip is a whole die when, on ``LONE_PIP_RAYS`` points ``LONE_PIP_REACH`` radii out
#: (``LONE_PIP_RAYS_MIN`` of them in the picture), ``LONE_TRAY_SHARE`` have its ring's colour (within
#: ``LONE_TRAY_TOL`` x contrast, ``LONE_TRAY_FLOOR`` at least) [dev, sweep]
LONE_PIP_RAYS: Final = 24
LONE_PIP_REACH: Final = 6.5
LONE_PIP_RAYS_MIN: Final = 8
LONE_TRAY_SHARE: Final = 0.7
LONE_TRAY_TOL: Final = 0.25
LONE_TRAY_FLOOR: Final = 20.0
#: a box is on the tray when ``ON_TRAY_SHARE`` of the pixels around it (a quarter of its side out,
#: ``ON_TRAY_MARGIN`` px at least) are within ``ON_TRAY_COLOUR`` grey levels of the tray [dev]
ON_TRAY_COLOUR: Final = 40
ON_TRAY_SHARE: Final = 0.5
ON_TRAY_MARGIN: Final = 3
#: objects under ``CLOSER_BELOW`` px are read again from the full frame, ``CLOSER_MARGIN`` of their side
#: around, enlarged to ``CLOSER_SIDE`` px, pips up to ``CLOSER_MAX_R``; the face found must be
#: ``CLOSER_FACE`` of that wide and within ``CLOSER_OFF_CENTRE`` of it of the centre [dev]
CLOSER_BELOW: Final = 24
CLOSER_MARGIN: Final = 0.35
CLOSER_SIDE: Final = 72
CLOSER_MAX_R: Final = 18
CLOSER_FACE: Final = 0.35
CLOSER_OFF_CENTRE: Final = 0.3
#: a face is a die's side when within ``SIDE_NEAR`` face sizes of another and scored under ``SIDE_SCORE``
#: of it; below it (``BELOW`` of the way down), lit at most ``SIDE_LIGHTER`` x the top [dev]
SIDE_NEAR: Final = 1.5
SIDE_SCORE: Final = 0.9
BELOW: Final = 0.8
SIDE_LIGHTER: Final = 1.05
#: the tops are foreshortened (``_pip_shape`` at least ``OBLIQUE``) along the vertical (the other axis at
#: most ``OBLIQUE_UPRIGHT`` x): an oblique camera held upright [dev: dice_20, dice_46]
OBLIQUE: Final = 0.2
OBLIQUE_UPRIGHT: Final = 1.7
#: a seam between two faces: samples beyond ``SEAM_OFF_PIP`` pip radii, darker than ``SEAM_DARK`` of the
#: faces' light, in a run narrower than ``SEAM_WIDTH`` pip radii [dev]
SEAM_OFF_PIP: Final = 1.6
SEAM_DARK: Final = 0.7
SEAM_WIDTH: Final = 1.2
#: ``annotate`` draws a die green from this confidence; a label goes above a box with this many px
#: of room [none: drawing]
GREEN: Final = 0.7
LABEL_ROOM: Final = 20
#: the tray's outline on an annotated frame (BGR): white, no reading's colour
OUTLINE_COLOUR: Final = (255, 255, 255)


def check_frame(frame: Any, name: str = "frame") -> np.ndarray:
    """Validate a BGR uint8 (H, W, 3) image; raise ``InvalidVisionInput`` naming ``name`` otherwise."""
    if not isinstance(frame, np.ndarray):
        raise InvalidVisionInput(f"{name}: expected a numpy array, got {type(frame).__name__}")
    if frame.dtype != np.uint8:
        raise InvalidVisionInput(f"{name}: expected dtype uint8, got {frame.dtype}")
    if frame.ndim != 3 or frame.shape[2] != 3:
        raise InvalidVisionInput(f"{name}: expected shape (H, W, 3) BGR, got {frame.shape}")
    h, w = frame.shape[:2]
    if h < MIN_FRAME_SIDE or w < MIN_FRAME_SIDE:
        raise InvalidVisionInput(f"{name}: image of {w}x{h} pixels is too small "
                                 f"({MIN_FRAME_SIDE}x{MIN_FRAME_SIDE} at least)")
    if h * w > MAX_PIXELS:
        raise InvalidVisionInput(f"{name}: image of {w}x{h} pixels is too large (at most {MAX_PIXELS})")
    return frame


def working_image(frame: np.ndarray) -> tuple[np.ndarray, float]:
    """The frame scaled so that its ``view_side`` is at most ``WORK_SIDE`` (and the scale used): a 4:3
    photo to 640x480, a 16:9 one to 853x480, two 640x480 frames side by side (1280x480) not at all."""
    h, w = frame.shape[:2]
    if max(h, w) < MIN_WORK_SIDE:
        # a crop or a thumbnail: enlarged, so that thresholds and pip sizes stay in range
        scale = MIN_WORK_SIDE / max(h, w)
        size = (max(1, round(w * scale)), max(1, round(h * scale)))
        return cv2.resize(frame, size, interpolation=cv2.INTER_LINEAR), scale
    scale = min(1.0, WORK_SIDE / view_side(frame.shape))
    if scale >= 1.0:
        return frame, 1.0
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    if scale < TWO_STEP_BELOW:
        # a phone photo: bilinear to twice the size, then a 2x2 box average (OpenCV's fast path);
        # about 8 ms for 12 MP where one area resampling costs 50 ms, and pips are large there
        double = cv2.resize(frame, (2 * size[0], 2 * size[1]), interpolation=cv2.INTER_LINEAR)
        return cv2.resize(double, size, interpolation=cv2.INTER_AREA), scale
    return cv2.resize(frame, size, interpolation=cv2.INTER_AREA), scale


@dataclass(frozen=True, slots=True)
class Body:
    """A compact foreground object in working pixels."""

    box: tuple[int, int, int, int]
    area: float
    circularity: float   # area / area of the enclosing circle: ~1 for a disc, ~0.64 for a square
    contour: np.ndarray


def foreground(work: np.ndarray, reference: np.ndarray | None = None) -> np.ndarray:
    """Mask (uint8 0/255) of what differs from the tray: from the reference frame if given, else
    from a background model (the median colour of a coarse grid, smoothed), which dice are too small
    to move."""
    h, w = work.shape[:2]
    if reference is not None:
        bg = reference
    else:
        gw, gh = max(BG_GRID_MIN, w // BG_GRID), max(BG_GRID_MIN, h // BG_GRID)
        coarse = cv2.resize(work, (gw, gh), interpolation=cv2.INTER_AREA)
        coarse = cv2.medianBlur(coarse, BG_BLUR)
        bg = cv2.resize(coarse, (w, h), interpolation=cv2.INTER_LINEAR)
    b, g, r = cv2.split(cv2.absdiff(work, bg))
    diff = cv2.max(cv2.max(b, g), r)
    mask: np.ndarray = cv2.threshold(diff, FOREGROUND_LEVEL, 255, cv2.THRESH_BINARY)[1]
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (MORPH_SIZE, MORPH_SIZE))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel)
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)


def find_bodies(mask: np.ndarray, *, min_side: float, max_side: float) -> list[Body]:
    """Compact, die- or token-sized blobs of a foreground mask, away from the frame border. Blobs lying
    in a hole of another blob count too: a tray's rim, a shadow or a cloth's pattern that closes a ring
    around the dice is no reason to lose them."""
    h, w = mask.shape
    out = []
    for c in _cv.component_outlines(mask):
        x, y, bw, bh = cv2.boundingRect(c)
        if x <= 1 or y <= 1 or x + bw >= w - 1 or y + bh >= h - 1:
            continue
        if not (min_side <= max(bw, bh) <= max_side) or max(bw, bh) > BODY_ASPECT * min(bw, bh):
            continue
        area = float(cv2.contourArea(c))
        hull = float(cv2.contourArea(cv2.convexHull(c)))
        if hull <= 0 or area / hull < BODY_SOLID or area < BODY_FILL * bw * bh:
            continue
        _, radius = cv2.minEnclosingCircle(c)
        circ = area / (math.pi * radius * radius) if radius > 0 else 0.0
        out.append(Body((x, y, bw, bh), area, circ, c))
    return out


def view_columns(frame: np.ndarray) -> list[tuple[int, int]]:
    """The column ranges of the views a frame is made of: ``[(0, W)]`` for one camera frame; two
    frames (or more) put side by side (the demo photos: two 640x480 frames in one 1280x480) are read
    view by view, each view's edges being frame borders (an object cut by one is not measured).

    A seam is a column where the picture jumps on average over the whole height, far more than
    between the columns next to it; it is only looked for in frames at least twice as wide as high,
    between views no narrower than square and no wider than 16:9.
    """
    h, w = frame.shape[:2]
    if w < 2 * h:
        return [(0, w)]
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    step = cv2.reduce(cv2.absdiff(grey[:, 1:], grey[:, :-1]), 0, cv2.REDUCE_AVG, dtype=cv2.CV_32F)[0]
    cuts = [0]
    for x in range(h, w - h + 1):       # step[x - 1]: between columns x - 1 and x
        near = max(float(step[x - 4 : x - 2].max()), float(step[x : x + 2].max()))
        if (step[x - 1] >= SEAM_STEP and step[x - 1] >= SEAM_JUMP * near and x - cuts[-1] >= h
                and x - cuts[-1] <= VIEW_WIDEST[0] * h / VIEW_WIDEST[1]):
            cuts.append(x)
    cuts.append(w)
    if any(b - a < h or b - a > VIEW_WIDEST[0] * h / VIEW_WIDEST[1] for a, b in itertools.pairwise(cuts)):
        return [(0, w)]
    return list(itertools.pairwise(cuts))


def _poly_reader(percentile: bool = True) -> Any:
    """``vision.poly.read_polyhedral`` when Vision II is installed, else ``None``; with ``percentile=False``
    it reads every 10-sided die as a plain d10 (``read_table(percentile=)``)."""
    try:
        module = importlib.import_module("vision.poly")
    except ImportError:
        return None
    read = getattr(module, "read_polyhedral", None)
    return read if read is None or percentile else functools.partial(read, percentile=False)


def _share_used(clock: Callable[[], float], seconds: float) -> Callable[[], float]:
    """The share of ``seconds`` of ``clock`` passed since this call."""
    start = clock()

    def used() -> float:
        return (clock() - start) / seconds

    return used


def read_table(frame: np.ndarray, *, calibration: Calibration | None = None, zones: Zones | None = None,
               reference: np.ndarray | None = None, reader: str = "learned",
               models: tuple[str, ...] = learned.MODELS, tray: Any = None,
               percentile: bool = True, clock: Callable[[], float] | None = None,
               seconds: float = learned.FRAME_SECONDS) -> TableReading:
    """Find the dice and tokens in a frame of the tray seen from above and read them.

    Parameters
    ----------
    frame : ndarray, shape (H, W, 3), uint8
        BGR image. Not modified. Views put side by side are read one by one (see ``view_columns``).
        The learned reader (Vision III, ``vision.learned``) reads each view at a scale chosen from
        the view itself (``vision.finder``); the rule reader (``reader="rules"``, Vision I) on a copy
        scaled to 640x480 (see ``working_image``).
    calibration : Calibration, optional
        Taught examples (tokens' faces, printed die faces); without it tokens read ``face=None``.
    zones : Zones, optional
        Per-player zones; default ``Zones.halves()``.
    reference : ndarray, shape (H, W, 3), uint8, optional
        The empty tray from the same camera; helps the rule reader find dice with no readable pips.
        Never required; the learned reader does not use it.
    reader : ``"learned"`` or ``"rules"``
        Vision III's learned finder and face reader (the default), or Vision I's rule reader (kept
        for comparison, and as the pip counter that gives the learned reader a second opinion).
    models : (finder, face reader[, type reader])
        Model names in ``vision/models`` (or paths to .onnx files): the leave-one-out benchmark reads
        with models trained without the set it measures.
    tray : [[x, y], ...], optional
        The tray's outline (3+ points, fractions of width and height, ``vision.zones.tray_polygon``):
        only the part of the frame within its bounding box is read, and only what has its centre inside
        it is reported, so a laptop, a cable or a card beside the tray is neither a die nor a reason to
        read the frame at another scale. Boxes stay in the frame's pixels. Default: the whole frame.
        Without a tray, a frame in which nothing is reported is read once more as one die filling it
        (``vision.learned.FILLING``: a phone's photo of one die); a tray's part never is.
    percentile : bool
        Whether a percentile d10 ("00".."90") may be on the table (default True, as ``scan`` reads).
        False (the live table: none of the five games rolls one) reads every 10-sided die among the plain
        d10's faces, no surer than before (``vision.poly.read_polyhedral(percentile=False)``).
    clock : callable, optional
        Seconds (``time.perf_counter``): the learned reader then spends about ``seconds`` on the frame at
        most, its views together, and returns what that left unread with at most ``learned.OVER_BUDGET``
        confidence (asked). Without it the work is bounded by counts alone and the reading does not depend
        on the machine's speed (the benchmarks read so).
    seconds : float
        The frame's time with a ``clock`` (default ``learned.FRAME_SECONDS``; the live table's
        ``camera.read_seconds``).

    Returns
    -------
    TableReading
        Dice (``sides=6`` and a value for pip d6s; ``sides=None, value=None`` with a low confidence for
        dice that are not pip d6s), tokens, each with its zone. Empty tuples when nothing is there. When
        the part of the frame read is burnt or dark (``vision.exposure.light``), its ``light`` says so (the
        page tells the players; the reading itself is unchanged).
    """
    frame = check_frame(frame)
    if reader not in ("learned", "rules"):
        raise InvalidVisionInput(f"reader: expected 'learned' or 'rules', got {reader!r}")
    zones = zones or Zones.halves()
    h, w = frame.shape[:2]
    if reference is not None:
        reference = check_frame(reference, "reference")
        if reference.shape != frame.shape:
            raise InvalidVisionInput(
                f"reference: shape {reference.shape} differs from the frame's {frame.shape}")
    outline = None if tray is None else tray_polygon(tray)
    ox, oy, read_w, read_h = (0, 0, w, h) if outline is None else _tray_box(outline, w, h)

    def zone(box: BBox) -> str:
        return zones.zone_of((box[0] + box[2] / 2) / w, (box[1] + box[3] / 2) / h)

    dice: list[Die] = []
    tokens: list[Token] = []
    if not seconds > 0:
        raise InvalidVisionInput(f"seconds: a frame's time must be more than 0, not {seconds!r}")
    used = None
    if clock is not None and reader == "learned":
        learned.load(models)     # the networks are loaded before the frame's time starts
        used = _share_used(clock, seconds)
    seen = frame[oy : oy + read_h, ox : ox + read_w]
    for x0, x1 in view_columns(seen):
        view = seen[:, x0:x1]
        ref_view = None if reference is None else reference[oy : oy + read_h, ox + x0 : ox + x1]
        if reader == "learned":
            found_dice, found_tokens = learned.read_view(view, calibration, models=models,
                                                         percentile=percentile, used=used,
                                                         filling=outline is None)
        else:
            found_dice, found_tokens = _read_view(view, calibration, ref_view, percentile=percentile)
        for (bx, by, bw, bh), sides, value, conf, percentile in found_dice:
            box = (bx + ox + x0, by + oy, bw, bh)
            dice.append(Die(box, sides, value, conf, zone(box), percentile))
        for (bx, by, bw, bh), face, conf in found_tokens:
            box = (bx + ox + x0, by + oy, bw, bh)
            tokens.append(Token(box, face, conf, zone(box)))
    if outline is not None:
        def on_tray(box: BBox) -> bool:
            return inside((box[0] + box[2] / 2) / w, (box[1] + box[3] / 2) / h, outline)

        dice = [d for d in dice if on_tray(d.bbox)]
        tokens = [t for t in tokens if on_tray(t.bbox)]
    dice.sort(key=lambda d: (d.bbox[0], d.bbox[1]))
    tokens.sort(key=lambda t: (t.bbox[0], t.bbox[1]))
    return TableReading(w, h, tuple(dice), tuple(tokens), light=light(seen))


def _tray_box(outline: tuple[tuple[float, float], ...], w: int, h: int) -> tuple[int, int, int, int]:
    """(x, y, width, height) in pixels of the tray outline's bounding box, at least ``MIN_FRAME_SIDE``
    each way and inside the frame."""
    xs, ys = [x for x, _ in outline], [y for _, y in outline]
    x0, x1 = max(0, math.floor(min(xs) * w)), min(w, math.ceil(max(xs) * w))
    y0, y1 = max(0, math.floor(min(ys) * h)), min(h, math.ceil(max(ys) * h))
    x0, y0 = min(x0, w - MIN_FRAME_SIDE), min(y0, h - MIN_FRAME_SIDE)
    return x0, y0, max(x1 - x0, MIN_FRAME_SIDE), max(y1 - y0, MIN_FRAME_SIDE)


#: what ``_read_view`` finds: (box, sides, value, confidence, percentile) and (box, face, confidence)
_FoundDie = tuple[BBox, int | None, int | None, float, bool]
_FoundToken = tuple[BBox, str | None, float]


def _read_view(frame: np.ndarray, calibration: Calibration | None, reference: np.ndarray | None, *,
               percentile: bool = True) -> tuple[list[_FoundDie], list[_FoundToken]]:
    """``read_table`` on one view: dice as (box, sides, value, confidence, percentile) and tokens as
    (box, face, confidence), boxes in the view's pixels."""
    h, w = frame.shape[:2]
    work, scale = working_image(frame)
    ref_work = None if reference is None else working_image(reference)[0]
    gray = cv2.cvtColor(work, cv2.COLOR_BGR2GRAY)
    faces = [f for f in group_faces(find_pips(work, gray), work) if f.value is not None]
    tray = np.median(work.reshape(-1, 3)[::7], axis=0)
    faces = [f for f in faces if not _lone_light_pip_is_a_die(frame, work, f, scale)
             and not _light_symbol_off_tray(work, f, tray)
             and not (scale <= 1.0 and _light_specks_on_tray(f, tray))]
    faces = _side_faces_dropped(_drop_overlaps(_tiny_ones_dropped(faces)), gray)
    if scale <= 1.0:
        # (an enlarged crop is one object cut out of a photo: its border is not the picture's)
        faces = [f for f in faces if not _cut_by_border(f, work.shape)]

    def to_frame(box: tuple[float, float, float, float]) -> BBox:
        x, y, bw, bh = (v / scale for v in box)
        x0, y0 = max(0, round(x)), max(0, round(y))
        x1, y1 = min(w, round(x + bw)), min(h, round(y + bh))
        return (x0, y0, max(1, x1 - x0), max(1, y1 - y0))

    side = view_side(work.shape)
    fg = foreground(work, ref_work)
    bodies = find_bodies(fg, min_side=side / SMALLEST_DIVISOR, max_side=side / LARGEST_DIVISOR)
    # a round object clearly larger than the pip pattern it holds is a printed token (a skull's eyes
    # are not a 2): its "faces" are dropped
    tokens_first = [b for b in bodies if b.circularity >= TOKEN_ROUNDNESS]

    def inside(f: Face, b: Body) -> bool:
        bx, by, bw, bh = b.box
        return bx <= f.centre[0] <= bx + bw and by <= f.centre[1] <= by + bh

    faces = [f for f in faces if not any(inside(f, b) and max(b.box[2:]) > TOKEN_LARGER * f.box[2]
                                         for b in tokens_first)]
    poly = _poly_reader(percentile)
    faces = _numeral_marks_dropped(faces, bodies, frame, scale, poly)
    dice: list[_FoundDie] = []
    for f in faces:
        box = to_frame(f.box)
        value, conf = f.value, f.confidence
        body = next((b for b in bodies if inside(f, b)), None)
        if calibration is not None and calibration.has("face") and body is not None:
            # a taught face (an emblem whose marks look like pips) wins when it matches well
            x0, y0, cw, ch = to_frame(body.box)
            label, taught = calibration.classify(frame[y0 : y0 + ch, x0 : x0 + cw], kind="face")
            if label is not None and taught >= TAUGHT_FACE:
                value, conf, box = int(label), taught, (x0, y0, cw, ch)
        dice.append((box, 6, value, conf, False))

    # objects without a read face: unknown dice (Vision II reads them when installed) or tokens
    tokens: list[_FoundToken] = []
    if faces:
        fside = float(np.median([f.box[2] for f in faces]))
        min_side, max_side = OBJECT_SIZES[0] * fside, OBJECT_SIZES[1] * fside
    else:
        # no die read yet: the largest object gives the dice's size (specks on a tray's wall are not dice)
        sizes = [max(b.box[2:]) for b in bodies if max(b.box[2:]) >= side / SPECK_DIVISOR]
        min_side = max(side / SMALLEST_DIVISOR, DIE_SIZE_SHARE * max(sizes, default=0))
        max_side = side / LARGEST_DIVISOR
    for b in bodies:
        if any(inside(f, b) for f in faces):
            continue
        bx, by, bw, bh = b.box
        reach = [SIDE_REACH * (f.box[2] + max(bw, bh)) for f in faces]
        if any(math.hypot(bx + bw / 2 - f.centre[0], by + bh / 2 - f.centre[1]) < d
               for f, d in zip(faces, reach, strict=True)):
            continue        # a read die's side or shadow, cut off from it
        if not _on_tray(work, b.box, tray):
            continue        # lies on something else (a laptop, a box): a key, a label, not a die
        if b.circularity < TOKEN_ROUNDNESS and max(b.box[2:]) <= max_side:
            # small (far) die: read again from the full-resolution frame, enlarged
            close = _read_closer(frame, b.box, scale)
            if close is not None:
                box = to_frame(close.box)
                dice.append((box, 6, close.value, close.confidence * CLOSER_CONFIDENCE, False))
                continue
        if b.circularity < TOKEN_ROUNDNESS and not min_side <= max(b.box[2:]) <= max_side:
            continue
        if max(b.box[2:]) < side / SPECK_DIVISOR:
            continue        # a speck: too small to be read, or to be told from dirt
        box = to_frame(b.box)
        x0, y0, cw, ch = box
        crop = frame[y0 : y0 + ch, x0 : x0 + cw]
        if calibration is not None and calibration.has("token") and b.circularity >= TOKEN_ROUNDNESS:
            label, conf = calibration.classify(crop, kind="token")
            tokens.append((box, label, conf))
            continue
        if calibration is not None and calibration.has("face"):
            label, conf = calibration.classify(crop, kind="face")
            if label is not None and label.isdigit():
                dice.append((box, None, int(label), conf, False))
                continue
        got = poly(crop) if poly is not None else None
        if b.circularity >= TOKEN_ROUNDNESS and not _carries_numeral(crop, got):
            tokens.append((box, None, UNREAD_TOKEN))
            continue
        sides, value, conf, percentile = None, None, UNKNOWN_DIE, False
        if got is not None:
            sides, value, percentile = got.sides, got.value, bool(getattr(got, "percentile", False))
            # both must be right: the product (``PolyReading.confidence``), as vision.learned reads it
            conf = (float(got.sides_confidence) * float(got.value_confidence) if value is not None
                    else UNKNOWN_DIE)
            rw, rh = cv2.minAreaRect(b.contour)[1]
            short = max(1.0, min(rw, rh))
            # dice as wide as this object lie in the frame (pip d6s read, or other objects as long
            # as it is wide), and it is long for a die seen from above: touching dice seen as one
            # object, whose pips were not read
            alike = sum(ALIKE[0] * short <= max(o.box[2:]) <= ALIKE[1] * short for o in bodies if o is not b)
            if (faces or alike >= 2) and max(rw, rh) >= TOUCHING_DICE * short:
                conf = min(conf, UNEXPLAINED_CONFIDENCE)
            if conf >= ROUND_DIE_SURE and b.circularity < TOKEN_ROUNDNESS and not _carries_numeral(crop, got):
                # the numeral reader alone does not read the value there (a round die passed this test
                # above): Vision II's network has no class for a pip face it missed (a red pip 4 on black
                # was a sure d10 "10" to it)
                conf = min(conf, UNEXPLAINED_CONFIDENCE)
        dice.append((box, sides, value, conf, percentile))
    return _small_dice_dropped(dice), tokens


def _small_dice_dropped(dice: list[_FoundDie]) -> list[_FoundDie]:
    """The dice of one table are of a size: a die far smaller (long side under ``DIE_SIZE_SHARE``) than
    the largest die read surely (confidence ``SURE_DIE`` or more) is marks on a tray's rim or specks
    that looked like pips, not a die."""
    sure = [max(box[2:]) for box, sides, _, conf, _ in dice if sides is not None and conf >= SURE_DIE]
    if not sure:
        return dice
    least = DIE_SIZE_SHARE * max(sure)
    return [d for d in dice if max(d[0][2:]) >= least]


def _carries_numeral(crop: np.ndarray, got: Any) -> bool:
    """Whether both of Vision II's readers agree on an object: the numeral reader alone reads at its
    centre, at 0.8 or more, the value the polyhedral reader settles on, for a die type it is sure of. A
    round object that fails is a printed token, not a d12 or d20 (a token's print may look like a "0" or
    a "4", but not like the value of a die type both readers agree on); any other object that fails is
    not read surely. A type read at ``ROUND_DIE_SIDES`` to 0.8 (a d12 against a d20: both
    round) needs the numeral at ``ROUND_DIE_NUMERAL`` or more."""
    if got is None or got.sides_confidence < ROUND_DIE_SIDES:
        return False
    # Vision II is optional: imported by name, like ``_poly_reader`` (got is not None: it is installed)
    numeral = importlib.import_module("vision.poly.numeral").read_numeral(crop)
    texts = {str(got.value)}
    if got.value == D10_ZERO:
        texts.add("0")      # a d10's "0" face; the "1" of a 10 may be left out of the glyph
    if getattr(got, "percentile", False) and got.value == 0:
        texts.add("00")
    if numeral.text not in texts:
        return False
    # a type the reader is less sure of needs a clearer numeral
    clear = ROUND_DIE_SURE if got.sides_confidence >= ROUND_DIE_SURE else ROUND_DIE_NUMERAL
    return bool(numeral.score >= clear)


def _numeral_marks_dropped(faces: list[Face], bodies: list[Body], frame: np.ndarray, scale: float,
                           poly: Any) -> list[Face]:
    """Drop the "faces" that are marks of a numeral die: a d6's pips fill its top face, while a 6's
    dot, the hole of a 6, 8 or 9, or the round parts of a digit are small next to the die they are
    printed on. A face whose box is under ``FACE_FILL`` of the short side of the object it lies on,
    with pips under ``NUMERAL_MARK`` of it, is doubted: the object goes to the polyhedral reader, and
    when that reads another type than a d6 (type confidence ``POLY_SIDES_SURE`` or more) all the
    object's faces are dropped (it is then read as a polyhedral die); else they are kept, at most
    ``UNEXPLAINED_CONFIDENCE`` sure (never a confident wrong d6)."""
    out = list(faces)
    for b in bodies:
        bx, by, bw, bh = b.box
        mine = [f for f in out if bx <= f.centre[0] <= bx + bw and by <= f.centre[1] <= by + bh]
        short = min(bw, bh)
        doubted = [f for f in mine if f.box[2] < FACE_FILL * short
                   and _median([p.r for p in f.pips]) < NUMERAL_MARK * short]
        if not doubted:
            continue
        polyhedral = False
        if poly is not None:
            x0, y0 = max(0, round(bx / scale)), max(0, round(by / scale))
            crop = frame[y0 : round((by + bh) / scale), x0 : round((bx + bw) / scale)]
            got = poly(crop) if crop.shape[0] >= MIN_FRAME_SIDE and crop.shape[1] >= MIN_FRAME_SIDE else None
            polyhedral = got is not None and got.sides != 6 and got.sides_confidence >= POLY_SIDES_SURE
        if polyhedral:
            out = [f for f in out if f not in mine]
        else:
            out = [_capped(f, UNEXPLAINED_CONFIDENCE) if f in doubted else f for f in out]
    return out


#: a lone pip smaller than this share of the frame's pips (those of its faces of 2+ pips) is no die's 1
ONE_PIP_SIZE: Final = 0.4


def _tiny_ones_dropped(faces: list[Face]) -> list[Face]:
    """Drop lone pips read as 1s that are far smaller than the pips of the faces of 2+ pips read in the
    same frame: a 1's pip is the largest of its die, and the dice on one table are of a size; even a
    low camera sees a far die's pips at about half the size of a near one's. A dot of small print (a
    label's text) is not a die."""
    sizes = [p.r for f in faces if len(f.pips) >= 2 and f.confidence >= TINY_ONES_REFERENCE for p in f.pips]
    if not sizes:
        return faces
    least = ONE_PIP_SIZE * _median(sizes)
    return [f for f in faces if len(f.pips) > 1 or f.pips[0].r >= least]


def _cut_by_border(face: Face, shape: tuple[int, ...]) -> bool:
    """Whether a face may have pips outside the picture (a die partly outside it): it is then not read
    at all, rather than read wrong (a column of a 6 at the border reads as a 3).

    A pip is measured when it lies ``BORDER_PIPS`` radii inside the border. A 2 or 3 is cut when the
    corners of its other diagonal, where a 4, 5 or 6 has pips (``missing_corners``), are not that far
    inside: those pips could not have been seen. A lone pip measured whole is the centre of its face:
    a larger layout adds pips in pairs around it, one of each pair inside the picture, and none is
    there. A 4, 5 or 6 shows its corners, and a larger layout adds pips between them."""
    H, W = shape[:2]
    r = float(np.median([p.r for p in face.pips]))
    m = BORDER_PIPS * r
    if len(face.pips) == 1:
        p = face.pips[0]
        return min(p.x, p.y, W - p.x, H - p.y) < m
    return any(x < m or y < m or x > W - m or y > H - m for x, y in missing_corners(face))


def _lone_light_pip_is_a_die(frame: np.ndarray, work: np.ndarray, face: Face, scale: float) -> bool:
    """Whether a lone light "pip" is in fact a whole light die (or token) on a darker tray.

    A real 1 sits on a face about 4 pip radii wide, beyond which lies the tray, of another colour; a
    whole die's surroundings are the tray all the way out. And a far die seen at working scale shows
    its own pips inside when looked at in the full-resolution frame.
    """
    if len(face.pips) != 1 or face.pips[0].dark:
        return False
    p = face.pips[0]
    h, w = work.shape[:2]
    angles = np.linspace(0, 2 * np.pi, LONE_PIP_RAYS, endpoint=False)
    xs = (p.x + LONE_PIP_REACH * p.r * np.cos(angles)).astype(np.intp)
    ys = (p.y + LONE_PIP_REACH * p.r * np.sin(angles)).astype(np.intp)
    keep = (xs >= 0) & (ys >= 0) & (xs < w) & (ys < h)
    if keep.sum() >= LONE_PIP_RAYS_MIN:
        far = work[ys[keep], xs[keep]].astype(np.float64)
        same = np.abs(far - np.array(p.ring)).max(axis=1) <= max(LONE_TRAY_FLOOR, LONE_TRAY_TOL * p.contrast)
        if same.mean() >= LONE_TRAY_SHARE:
            return True
    if scale >= 1.0:
        return False
    r = COARSE_INNER * p.r / scale
    x, y = p.x / scale, p.y / scale
    H, W = frame.shape[:2]
    inner = frame[max(0, int(y - r)) : min(H, int(y + r) + 1), max(0, int(x - r)) : min(W, int(x + r) + 1)]
    grey = cv2.cvtColor(inner, cv2.COLOR_BGR2GRAY) if inner.size else inner
    return bool(inner.size and float(grey.std()) > COARSE_PLAIN_SPREAD * p.contrast + SPREAD_FLOOR)


def _light_symbol_off_tray(work: np.ndarray, face: Face, tray: np.ndarray) -> bool:
    """One or two light marks on a grey or black patch that is not on the tray: the symbols of a
    keyboard's keys, a label. A black die with white pips lies on the tray and keeps its reading."""
    p = face.pips[0]
    if p.dark or len(face.pips) > 2 or chroma(p.ring) >= COLOURED_FACE:
        return False
    x, y, w, h = face.box
    return not _on_tray(work, (int(x), int(y), int(w), int(h)), tray)


#: a face's colour within this many grey levels (any channel) of the tray's is the tray itself
TRAY_COLOUR: Final = 30


def _light_specks_on_tray(face: Face, tray: np.ndarray) -> bool:
    """One to three light marks whose face has the tray's own colour (the frame's median): specks and
    scratches of the tray, or its rim, not a die, whose face differs from the tray (else it would not be
    found either). A 4, 5 or 6's layout is evidence enough. Not for enlarged crops, where the die fills
    the picture and so gives its median."""
    if face.pips[0].dark or len(face.pips) > 3:
        return False
    ring = np.mean([p.ring for p in face.pips], axis=0)
    return bool(np.abs(ring - tray).max() <= TRAY_COLOUR)


def _on_tray(work: np.ndarray, box: tuple[int, int, int, int], tray: np.ndarray) -> bool:
    """Whether the pixels just around a box mostly have the tray's colour (the frame's median)."""
    x, y, w, h = box
    m = max(ON_TRAY_MARGIN, max(w, h) // 4)
    H, W = work.shape[:2]
    x0, y0, x1, y1 = max(0, x - m), max(0, y - m), min(W, x + w + m), min(H, y + h + m)
    patch = work[y0:y1, x0:x1].astype(np.int16)
    border = np.concatenate([patch[:2].reshape(-1, 3), patch[-2:].reshape(-1, 3),
                             patch[:, :2].reshape(-1, 3), patch[:, -2:].reshape(-1, 3)])
    close = np.abs(border - tray).max(axis=1) <= ON_TRAY_COLOUR
    return bool(close.mean() >= ON_TRAY_SHARE)


def _read_closer(frame: np.ndarray, box: tuple[int, int, int, int], scale: float) -> Face | None:
    """Read the pips of one small object from the full frame, enlarged so the object is ~72 px wide.

    Returns the face in *working* coordinates (like the first pass), or ``None``."""
    x, y, bw, bh = box
    size = max(bw, bh)
    if size >= CLOSER_BELOW:
        return None          # big enough: the first pass saw all there is
    m = CLOSER_MARGIN * size
    x0, y0 = max(0.0, (x - m) / scale), max(0.0, (y - m) / scale)
    x1 = min(frame.shape[1], (x + bw + m) / scale)
    y1 = min(frame.shape[0], (y + bh + m) / scale)
    crop = frame[int(y0) : int(y1) + 1, int(x0) : int(x1) + 1]
    if crop.shape[0] < 4 or crop.shape[1] < 4:
        return None
    zoom = CLOSER_SIDE / (size / scale)
    big = cv2.resize(crop, None, fx=zoom, fy=zoom, interpolation=cv2.INTER_CUBIC)
    faces = [f for f in group_faces(find_pips(big, max_r=CLOSER_MAX_R), big) if f.value is not None]
    if not faces:
        return None
    best = max(faces, key=lambda f: f.confidence * len(f.pips))
    fx, fy, fw, fh = best.box
    bcx, bcy = big.shape[1] / 2, big.shape[0] / 2
    if (fw < CLOSER_FACE * CLOSER_SIDE or abs(fx + fw / 2 - bcx) > CLOSER_OFF_CENTRE * CLOSER_SIDE
            or abs(fy + fh / 2 - bcy) > CLOSER_OFF_CENTRE * CLOSER_SIDE):
        return None          # a speck, or a face off the object's centre: not this object's top face
    k = scale / zoom
    return Face(best.pips, best.value, best.confidence,
                ((fx / zoom + int(x0)) * scale, (fy / zoom + int(y0)) * scale, fw * k, fh * k))


#: a face's pip shape is "like the table's" within this distance (log axis ratio, see ``_pip_shape``),
#: and a side's is farther from it than its top's by at least this margin
TABLE_SHAPE_NEAR: Final = 0.3
TABLE_SHAPE_MARGIN: Final = 0.2


def _pip_shape(face: Face) -> tuple[float, float]:
    """How a face's pips are foreshortened: the mean of their ``pip_shape`` (0 for round pips).
    Faces lying in one plane (the tops of dice on a table) are foreshortened alike; a die's side face,
    in another plane, not."""
    shapes = [pip_shape(p) for p in face.pips]
    return sum(u for u, _ in shapes) / len(shapes), sum(v for _, v in shapes) / len(shapes)


def _side_faces_dropped(faces: list[Face], gray: np.ndarray | None = None) -> list[Face]:
    """Drop faces that are the visible *side* of a die whose top face was read.

    A camera above the tray (even a tilted one) sees some sides of a die next to its top face, closer
    than 1.5 face sizes. Of two such faces, the top is the one foreshortened like the tops of the other
    dice of the frame (``_pip_shape``: they all lie in the table's plane, a side in another), when the
    frame has dice alone (no neighbour face) to show it: a low camera sees tops flatter than sides, so
    flatness alone cannot tell them. Otherwise (or when both look like tops) the top face's pips are the
    least foreshortened (flatter or smaller than the side's) and, under light from above, it is lit best.
    Two touching dice look alike, so both are kept.
    """
    def topness(f: Face) -> float:
        # top-face pips are the least foreshortened (largest, roundest); the top face is lit best
        shape = sum(p.r * p.roundness for p in f.pips) / len(f.pips)
        light = sum(sum(p.ring) for p in f.pips) / (3 * len(f.pips))
        return shape * (light if f.pips[0].dark else 255.0 - light) ** 2

    def near(a: Face, b: Face) -> bool:
        d = math.dist(a.centre, b.centre)
        return 0 < d <= SIDE_NEAR * max(a.box[2], b.box[2])

    scores = [topness(f) for f in faces]

    def by_score(drop: set[int], i: int, j: int) -> None:
        if scores[j] < SIDE_SCORE * scores[i]:
            drop.add(j)

    def pairs(drop: set[int]) -> list[tuple[int, int]]:
        return [(i, j) for i, j in itertools.permutations(range(len(faces)), 2)
                if i not in drop and j not in drop and near(faces[i], faces[j])]

    # the tops' shape: that of the faces left alone (no side, no neighbour) by the score alone
    first: set[int] = set()
    for i, j in itertools.permutations(range(len(faces)), 2):
        if i not in first and j not in first and near(faces[i], faces[j]):
            by_score(first, i, j)
    kept = [k for k in range(len(faces)) if k not in first]
    alone = [k for k in kept if not any(near(faces[k], faces[m]) for m in kept)]
    shapes = [_pip_shape(f) for f in faces]
    table: tuple[float, float] | None = None
    if alone:
        table = (_median([shapes[k][0] for k in alone]), _median([shapes[k][1] for k in alone]))
    drop: set[int] = set()
    for i, j in itertools.permutations(range(len(faces)), 2):
        if i in drop or j in drop or not near(faces[i], faces[j]):
            continue
        if table is not None:
            di, dj = math.dist(shapes[i], table), math.dist(shapes[j], table)
            if di <= TABLE_SHAPE_NEAR and dj >= di + TABLE_SHAPE_MARGIN:
                drop.add(j)         # i is foreshortened like the tops, j is not
                continue
            if dj <= TABLE_SHAPE_NEAR and di >= dj + TABLE_SHAPE_MARGIN:
                continue
        by_score(drop, i, j)
    if table is None or gray is None or not _upright_oblique(table):
        return [f for k, f in enumerate(faces) if k not in drop]
    # an oblique camera held upright sees the near side of the table at the bottom of the picture, and
    # a die's sides below its top: of two faces one above the other, joined by the die's body (no dark
    # seam, as between two touching dice), and the lower not lit better, the lower is a side
    light = [sum(sum(p.ring) for p in f.pips) / (3 * len(f.pips)) for f in faces]
    for i, top in enumerate(faces):
        for j, side in enumerate(faces):
            if i == j or j in drop or i in drop or not near(top, side):
                continue
            below = side.centre[1] - top.centre[1] >= BELOW * math.dist(top.centre, side.centre)
            if not below or light[j] > SIDE_LIGHTER * light[i]:
                continue
            if top.pips[0].dark and not _seam_between(gray, top, side, min(light[i], light[j])):
                drop.add(j)
    return [f for k, f in enumerate(faces) if k not in drop]


def _upright_oblique(table: tuple[float, float]) -> bool:
    """Whether the tops of the frame's dice are foreshortened along the picture's vertical (their pips
    wider than high, ``_pip_shape``): a camera looking obliquely at the table, held upright."""
    u, v = table
    return math.hypot(u, v) >= OBLIQUE and abs(v) <= OBLIQUE_UPRIGHT * u


def _seam_between(gray: np.ndarray, a: Face, b: Face, light: float) -> bool:
    """Whether the straight line between two faces' centres crosses a thin dark line off their pips
    (the seam or shadow between two touching dice; a die's top and side meet at a lit edge)."""
    (ax, ay), (bx, by) = a.centre, b.centre
    steps = max(4, int(math.dist(a.centre, b.centre)))
    t = np.arange(steps + 1) / steps
    xs, ys = ax + (bx - ax) * t, ay + (by - ay) * t
    keep = np.ones(t.size, bool)
    for p in (*a.pips, *b.pips):
        keep &= (xs - p.x) ** 2 + (ys - p.y) ** 2 > (SEAM_OFF_PIP * p.r) ** 2
    h, w = gray.shape
    xi = np.clip((xs + 0.5).astype(np.intp), 0, w - 1)
    yi = np.clip((ys + 0.5).astype(np.intp), 0, h - 1)
    dark = (gray[yi, xi] < SEAM_DARK * light) & keep
    # a run of dark samples narrower than a pip (a pip of another face is as wide as a pip)
    r = _median([p.r for p in (*a.pips, *b.pips)])
    run = 0
    for d in (*dark.tolist(), False):
        if d:
            run += 1
        elif run:
            if run * math.dist(a.centre, b.centre) / steps < SEAM_WIDTH * r:
                return True
            run = 0
    return False


def _median(values: list[float]) -> float:
    v = sorted(values)
    k = len(v) // 2
    return v[k] if len(v) % 2 else (v[k - 1] + v[k]) / 2


def _drop_overlaps(faces: list[Face]) -> list[Face]:
    """Of two faces whose centres lie within one another's box, keep the more confident."""
    faces = sorted(faces, key=lambda f: -f.confidence * len(f.pips))
    kept: list[Face] = []
    for f in faces:
        cx, cy = f.centre
        if any(abs(cx - k.centre[0]) < k.box[2] / 2 and abs(cy - k.centre[1]) < k.box[3] / 2 for k in kept):
            continue
        kept.append(f)
    return kept


def annotate(frame: np.ndarray, reading: TableReading, *, max_side: int | None = None,
             tray: Any = None) -> np.ndarray:
    """A copy of ``frame`` with every die and token boxed and labelled (value or face, confidence).

    Green: read with confidence >= 0.7; orange: lower; red: not read. ``max_side``: the copy is first
    scaled down to this long side (boxes follow), so a 12 MP photo is not drawn on at full size only to
    be shrunk for the phones afterwards (0.87 s at 12 MP before). ``tray`` (as ``read_table`` takes it):
    its outline is drawn in white, so the players see what the camera reads.
    """
    frame = check_frame(frame)
    scale = 1.0
    if max_side is not None and max(frame.shape[:2]) > max_side:
        scale = max_side / max(frame.shape[:2])
        size = (max(1, round(frame.shape[1] * scale)), max(1, round(frame.shape[0] * scale)))
        frame = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
    out = frame.copy()
    thick = max(1, round(max(frame.shape[:2]) / 400))
    font = max(0.4, max(frame.shape[:2]) / 1200)
    if tray is not None:
        h, w = out.shape[:2]
        points = [[round(x * (w - 1)), round(y * (h - 1))] for x, y in tray_polygon(tray)]
        outline = np.array(points, np.int32)
        cv2.polylines(out, [outline], True, OUTLINE_COLOUR, thick, cv2.LINE_AA)
    items: list[tuple[BBox, str, float, bool]] = []
    for d in reading.dice:
        text = "?" if d.value is None else (f"{d.value}" if d.sides in (6, None) else f"d{d.sides}:{d.value}")
        items.append((d.bbox, text, d.confidence, d.value is not None))
    for t in reading.tokens:
        items.append((t.bbox, t.face or "token?", t.confidence, t.face is not None))
    for box, text, conf, known in items:
        x, y, bw, bh = (round(v * scale) for v in box)
        colour = (0, 0, 255) if not known else (0, 200, 0) if conf >= GREEN else (0, 140, 255)
        cv2.rectangle(out, (x, y), (x + bw, y + bh), colour, thick)
        label = f"{text} {conf:.2f}"
        ty = y - 4 if y > LABEL_ROOM else y + bh + int(18 * font)
        cv2.putText(out, label, (x, ty), cv2.FONT_HERSHEY_SIMPLEX, font, (0, 0, 0), thick + 2, cv2.LINE_AA)
        cv2.putText(out, label, (x, ty), cv2.FONT_HERSHEY_SIMPLEX, font, colour, thick, cv2.LINE_AA)
    return out
