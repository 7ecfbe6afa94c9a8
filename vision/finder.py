"""The learned die finder (Vision III): where the dice and tokens lie in a frame, at any size.

A small CenterNet-style network (``models/finder.onnx``, trained by ``tools/train_finder.py``, run by
``cv2.dnn``) maps a BGR frame to a heatmap of object centres and each centre's box, at a quarter of the
input's resolution. It reads dice best at about ``TARGET_SIDE`` px across (it was trained on 10 to
150 px), so the frame is read at a scale chosen from the frame itself:

1. a first look at two small sizes (long side ``FIRST_SIDES``) finds some objects at any size, from
   dice a thirtieth of the frame to one die filling it;
2. the frame is read again at the scale that brings the median object found to ``TARGET_SIDE`` px,
   with the input capped at ``MAX_INPUT_PIXELS`` (a 12 MP photo of tiny dice is read at the cap),
   unless the finest first look already saw them at a size the finder reads well (``SECOND_SKIPPED``);
3. what the first look found strongly, at a size that does not enlarge the frame, stays beside the
   second reading's objects, the stronger winning where they overlap (``FIRST_KEPT``);
4. an object whose middle holds two or more smaller objects found that strongly is what holds them (a
   basket, a heap), not a die, and is dropped before it can hide them (``HOLDS``);
5. an object found weakly and far smaller than those found strongly is texture (``SPECK_SIDE``).
6. a small object found more strongly than the one the look at the chosen scale found around it, where
   that look saw nothing else, is a part of it (a die's numeral), not a die (``PART_SIDE``).

Images are BGR uint8 arrays of shape (H, W, 3); they are never modified. Work is bounded by the
frame's size (the input is capped) and by ``MAX_OBJECTS``, never by what the frame shows.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import cv2
import numpy as np

MODELS = Path(__file__).resolve().parent / "models"
#: the die size (px, long side of its box) the finder reads best
TARGET_SIDE = 30.0
#: long sides of the first look; the coarse one sees one die filling the frame, the fine one dice a
#: fortieth of the frame wide
FIRST_SIDES = (160, 512)
#: the second reading's input is at most this many pixels (its time on one core grows with it)
MAX_INPUT_PIXELS = 900_000
#: the sizes (px, in the net's input) at which an object found by the first look counts for the scale:
#: smaller ones are as often texture (carpet specks, a mesh) as far dice
SIZING_SIDES = (14.0, 130.0)
#: a heatmap peak at least this high is an object (fit on the training sources' own photos, see
#: docs/vision.md); lower peaks are kept only as a hint for the scale
SCORE = 0.2
#: an object the first look finds at least this strongly, at a size it does not enlarge the frame to, is
#: kept beside the second reading's (the stronger of the two wins where they overlap): the second reading's
#: scale can be one at which the dice are lost (aws, left out: dice of 40-60 px in a mesh basket found at
#: 0.8 by the 512 px look and at 0.2 at the chosen scale, where the basket itself scored 0.72; a cluster of
#: touching dice merged). A look that enlarges the frame is left out: it sees the pips of a small crop as
#: dice (chase's 60 px crops, read 8 times enlarged). 0.5: more likely than not; chosen before measuring
FIRST_KEPT = 0.5
#: an object is what holds other objects (a basket's floor, the outline of a heap of touching dice), not a
#: die, when its middle holds the centres of this many separate objects found at ``FIRST_KEPT`` or more by
#: a look that does not enlarge the frame, at a size the finder reads well there (``SIZING_SIDES``), each
#: at most ``HELD_SIDE`` of its side. It is dropped before it hides them: the stronger of two overlapping
#: objects wins (``_suppressed``), and a basket found at 0.84 around eight dice found at 0.61-0.91 left one
#: (aws, left out). A die's pips can be found that strongly (a drawn die's two pips at 0.61 and 0.56 in the
#: 512 px look) but smaller than the finder reads well. Two: the fewest that make a heap; chosen before
#: measuring
HOLDS = 2
HELD_SIDE = 0.6
#: ... unless the finder is far surer of the whole than of anything in it: an object found at least this much
#: more strongly than each object it holds is one die and its parts, not a heap. A d20 filling 0.85 of a
#: 640x480 frame is found whole at 0.92-0.95 by the 160 px look while the 512 px look finds its numerals and
#: faces at 0.5-0.72 (burks, enlarged: 8 of 86 dice were dropped as holders, and 17 of 86 filling the frame);
#: the heaps and baskets of the real d6 sets are found at most 0.09 more strongly than the dice they hold
#: (aws, nell). 0.15 lies between; fitted on those two (a first rule with no margin kept two aws and nell
#: heaps and lost 8 dice), measured after on Lurig photos enlarged the same way (docs/vision-poly.md)
WHOLE_MARGIN = 0.15
#: an object found under ``FIRST_KEPT`` and under this share of the median side of the objects found at
#: ``FIRST_KEPT`` or more (two or more of them) is texture, not a die: specks of a terrazzo floor found at
#: 0.3-0.43 and 7-17 px beside two dice found at 0.69-0.74 and 39 px (aws, left out). Dice of one table
#: seen from one camera differ in size far less; 0.4 is ``vision.learned.SPECK``, fitted on nell-byler
#: (the face reader's sure specks were all under 0.4 of the frame's dice)
SPECK_SIDE = 0.4
#: an object of another look is a part of one the look at the chosen scale found (the second reading, or the
#: first look already at that scale), not a die, when its centre lies in that object's middle, its side is
#: at most this share of that object's, it was found more strongly, and that look found nothing else at its
#: place: the look that shows the frame's dice best saw one die there, not this. The 512 px look finds the
#: numeral "3" of a pale d8 that fills a 480 px photo at 0.64-0.76 (it was trained on dice up to 150 px)
#: and hid the die the 160 px look, the chosen scale, found at 0.40-0.54 (Lurig wood). A box round a die
#: and its neighbour or its shadow is under 2.5 times the die; 0.4 is ``SPECK_SIDE``'s "far smaller",
#: chosen before measuring
PART_SIDE = 0.4
#: no second reading is made when the finest first look (which does not enlarge the frame) already sees the
#: median object at 1 to this many times ``TARGET_SIDE``: a size the finder was trained on (10 to 110 px),
#: where a smaller second reading only loses detail (the mesh basket and the heap of ``FIRST_KEPT``). Its
#: objects smaller than the second reading would keep are dropped, as that reading drops them. Measured
#: after the choice (docs/vision.md): the 640x480 frame's median time falls from 33 to 29 ms
SECOND_SKIPPED = 2.5
#: no object under this many frame pixels across is returned, nor sizes the frame: three quarters of the
#: smallest die the finder is asked to find (issue 15's 16 px), room for a box drawn a little tight. Under
#: it a die's pips are under 2 px, nothing anyone could count: what is found there is a terrazzo speck, a
#: carpet knot, or a pip of a die that fills a small frame (chase's 60 px crops enlarged 8 times, whose pips
#: then sized the frame, and the die was read as one of its pips). Chosen from the issue's number; measured
#: after (eighteenth session, docs/vision.md)
SMALLEST_DIE = 12.0
#: at most this many objects are returned per frame (the strongest)
MAX_OBJECTS = 150
#: the net's input sides must be multiples of this (five stride-2 stages)
MULTIPLE = 32


@dataclass(frozen=True, slots=True)
class Found:
    """One object: centre (cx, cy) and box size (w, h) in frame pixels, and the finder's score 0..1."""

    cx: float
    cy: float
    w: float
    h: float
    score: float

    @property
    def side(self) -> float:
        return max(self.w, self.h)

    def box(self, frame_shape: tuple[int, ...]) -> tuple[int, int, int, int]:
        """The box (x, y, w, h) clipped to a frame of ``frame_shape``."""
        fh, fw = frame_shape[:2]
        x0 = max(0, round(self.cx - self.w / 2))
        y0 = max(0, round(self.cy - self.h / 2))
        x1 = min(fw, round(self.cx + self.w / 2))
        y1 = min(fh, round(self.cy + self.h / 2))
        return x0, y0, max(1, x1 - x0), max(1, y1 - y0)


_LOCAL = threading.local()


#: the ``cv2.dnn`` engine the crop readers (faces, types, ``vision.poly``) run on: OpenCV 5's classic engine
#: reads their small batches a quarter faster than the new one ``readNet`` picks (one core, best of 7x15
#: passes, fifty-fourth session: twelve 56 px face crops 12.5 against 16.8 ms, ten 64 px type crops 7.9 /
#: 10.5, a polyhedral die's four turns 4.0 / 5.3; outputs equal within 2e-5), while the new engine runs
#: the finder's one large look faster (10.3 against 12.2 ms), which keeps it. None on an OpenCV without
#: engines (4.x): ``readNet``
CROP_ENGINE: Final = getattr(cv2.dnn, "ENGINE_CLASSIC", None)


def _net(path: str, *, engine: int | None = None) -> Any:
    """The network in ``path``, loaded once per thread: a ``cv2.dnn`` net holds its input and buffers,
    so one net run from two threads at once (the camera's reader and a teach from the page) breaks.
    ``engine``: the ``cv2.dnn`` engine to load it on (``CROP_ENGINE``); None, ``readNet``'s choice. Kept per
    path and engine, so a net loaded on one engine is never handed to a caller that asked for the other."""
    nets: dict[tuple[str, int | None], Any] = _LOCAL.__dict__.setdefault("nets", {})
    if (path, engine) not in nets:
        nets[path, engine] = (cv2.dnn.readNet(path) if engine is None
                              else cv2.dnn.readNetFromONNX(path, engine=engine))
    return nets[path, engine]


def _forget_net(path: str) -> None:
    """Load ``path`` again on this thread's next ``_net(path)``, on any engine: its file was written anew."""
    nets = _LOCAL.__dict__.get("nets", {})
    for key in [k for k in nets if k[0] == path]:
        del nets[key]


def blob(images: list[np.ndarray]) -> np.ndarray:
    """BGR uint8 images of one size as the networks' input: float32 (N, 3, H, W) scaled to 0..1. The same
    numbers as ``cv2.dnn.blobFromImages(images, 1 / 255.0)`` in a sixth of its time (0.23 against 1.7 ms for
    the finder's 512x384 look, one core)."""
    out: np.ndarray = np.stack(images).transpose(0, 3, 1, 2).astype(np.float32, order="C")
    out *= np.float32(1 / 255.0)
    return out


def turned_outputs(crops: list[np.ndarray], model: str, *, turns: int, batch: int,
                   known: np.ndarray | None = None) -> np.ndarray:
    """The mean raw output (N, K) of the network ``model`` over ``turns`` quarter turns of square BGR crops,
    run ``batch`` crops at a time (the face and type readers read every crop this way). ``known``: the
    output (N, K) of the crops as they are (no turn) when the caller has it (``vision.faces.read_faces``'s
    screen); it is not computed again."""
    if known is not None and len(known) != len(crops):
        raise ValueError(f"known holds {len(known)} outputs for {len(crops)} crops")
    net = _net(str(model_path(model)), engine=CROP_ENGINE)
    total: np.ndarray | None = None if known is None else np.asarray(known, np.float64)
    for k in range(0 if known is None else 1, turns):
        turned = [np.ascontiguousarray(np.rot90(c, k)) for c in crops]
        out = np.concatenate([np.asarray(_forward(net, turned[i:i + batch]), np.float64)
                              for i in range(0, len(turned), batch)])
        total = out if total is None else total + out
    assert total is not None
    result: np.ndarray = total / turns
    return result


def _forward(net: Any, crops: list[np.ndarray]) -> np.ndarray:
    net.setInput(blob(crops))
    out: np.ndarray = net.forward()
    return out.reshape(len(crops), -1)


def model_path(name: str = "finder") -> Path:
    """``models/<name>.onnx`` beside this module, or ``name`` itself when it is a path to an .onnx file
    (the leave-one-out benchmark reads with models kept outside the package)."""
    if name.endswith(".onnx"):
        return Path(name)
    return MODELS / f"{name}.onnx"


def model_card(name: str = "finder") -> dict[str, Any]:
    """The model's card (``models/<name>.json``): command, seed, data, measured numbers, hash. Read once
    per version of the file (its temperature and taught cosine are asked on every frame)."""
    path = model_path(name).with_suffix(".json")
    try:
        st = path.stat()
    except OSError:
        return {}
    return dict(_card(str(path), st.st_mtime_ns, st.st_size))


@functools.lru_cache(maxsize=32)
def _card(path: str, mtime_ns: int, size: int) -> dict[str, Any]:
    return dict(json.loads(Path(path).read_text(encoding="utf-8")))


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _input_size(w: int, h: int, scale: float) -> tuple[int, int]:
    """Input (width, height) for a frame at ``scale``: multiples of 32, at most ``MAX_INPUT_PIXELS``."""
    sw, sh = w * scale, h * scale
    if sw * sh > MAX_INPUT_PIXELS:
        k = math.sqrt(MAX_INPUT_PIXELS / (sw * sh))
        sw, sh = sw * k, sh * k
    return max(MULTIPLE, round(sw / MULTIPLE) * MULTIPLE), max(MULTIPLE, round(sh / MULTIPLE) * MULTIPLE)


def _shrunk(levels: list[np.ndarray], size: tuple[int, int]) -> np.ndarray:
    """The frame (``levels[0]``) resized to ``size`` (w, h). A frame at least twice the size is halved first
    (``levels`` keeps the halvings, for the next look at the same frame) and the last step averages what is
    left: OpenCV's area average at a ratio that is not a whole number cost 19-22 ms a look on a 2028x1520
    frame (one core), half the frame's time, against 5-6 ms this way."""
    iw, ih = size
    k = 0
    while levels[k].shape[1] >= 2 * iw and levels[k].shape[0] >= 2 * ih:
        if k + 1 == len(levels):
            top = levels[k]
            half = (top.shape[1] // 2, top.shape[0] // 2)
            levels.append(cv2.resize(top, half, interpolation=cv2.INTER_AREA))
        k += 1
    src = levels[k]
    if (src.shape[1], src.shape[0]) == (iw, ih):
        return src
    interp = cv2.INTER_AREA if iw < src.shape[1] else cv2.INTER_LINEAR
    out: np.ndarray = cv2.resize(src, (iw, ih), interpolation=interp)
    return out


def _run(frame: np.ndarray, size: tuple[int, int], model: str, floor: float,
         levels: list[np.ndarray] | None = None) -> list[Found]:
    """Run the net on ``frame`` resized to ``size`` (w, h); peaks >= ``floor`` in frame pixels, none under
    ``SMALLEST_DIE``. ``levels``: the frame's halvings so far (``_shrunk``), shared by its looks."""
    h, w = frame.shape[:2]
    iw, ih = size
    net = _net(str(model_path(model)))
    net.setInput(blob([_shrunk([frame] if levels is None else levels, size)]))
    maps = net.forward()[0]
    heat = maps[0]
    peaks = (heat >= floor) & (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8)))
    ys, xs = np.nonzero(peaks)
    sx, sy = w / iw, h / ih
    bws = np.exp(np.minimum(6.0, maps[1, ys, xs])) * 16 * sx
    bhs = np.exp(np.minimum(6.0, maps[2, ys, xs])) * 16 * sy
    # too small to be a die: dropped before the cap, or a mesh's thousand tiny peaks would crowd dice out
    keep = np.flatnonzero(np.maximum(bws, bhs) >= SMALLEST_DIE)
    if len(keep) > 4 * MAX_OBJECTS:
        keep = keep[np.argsort(-heat[ys[keep], xs[keep]])[: 4 * MAX_OBJECTS]]
    return [Found((x + float(maps[3, y, x])) * 4 * sx, (y + float(maps[4, y, x])) * 4 * sy,
                  float(bw), float(bh), float(heat[y, x]))
            for y, x, bw, bh in zip(ys[keep].tolist(), xs[keep].tolist(), bws[keep].tolist(),
                                    bhs[keep].tolist(), strict=True)]


def _in_middle(f: Found, k: Found) -> bool:
    """The centre of ``f`` lies in the middle of ``k``'s box (its middle 0.8 across)."""
    return abs(f.cx - k.cx) < 0.4 * k.w and abs(f.cy - k.cy) < 0.4 * k.h


def _suppressed(found: list[Found]) -> list[Found]:
    """Strongest first; a weaker centre inside a kept object's box (its middle half) is the same object."""
    kept: list[Found] = []
    for f in sorted(found, key=lambda f: -f.score):
        if any(_in_middle(f, k) for k in kept):
            continue
        kept.append(f)
        if len(kept) >= MAX_OBJECTS:
            break
    return kept


def _holders_dropped(found: list[Found], strong: list[Found]) -> list[Found]:
    """``found`` without the objects whose middle holds ``HOLDS`` separate ``strong`` ones (``HOLDS``), unless
    found ``WHOLE_MARGIN`` more strongly than each of them."""
    if len(strong) < HOLDS:
        return found
    strong = sorted(strong, key=lambda g: -g.score)[:MAX_OBJECTS]
    at = np.array([(g.cx, g.cy, g.side) for g in strong])
    scores = np.array([g.score for g in strong])
    smallest = float(at[:, 2].min())

    def holds(f: Found) -> bool:
        if HELD_SIDE * f.side < smallest:
            return False
        inside = ((at[:, 2] <= HELD_SIDE * f.side) & (np.abs(at[:, 0] - f.cx) < 0.4 * f.w)
                  & (np.abs(at[:, 1] - f.cy) < 0.4 * f.h))
        if inside.sum() < HOLDS or f.score >= float(scores[inside].max()) + WHOLE_MARGIN:
            return False
        separate: list[Found] = []       # as ``_suppressed`` keeps them, to ``HOLDS``: O(len(strong))
        for g in (g for g, i in zip(strong, inside, strict=True) if i):
            if not any(_in_middle(g, k) for k in separate):
                separate.append(g)
                if len(separate) >= HOLDS:
                    return True
        return False

    return [f for f in found if not holds(f)]


def _parts(found: list[Found], wholes: list[Found]) -> list[bool]:
    """For each of ``found``: it is a part of one of ``wholes`` (``PART_SIDE``), not a die of its own. It lies
    in the middle of one of them, is at most ``PART_SIDE`` of its side and stronger (a weaker one is the
    same object, ``_suppressed``), and no other of ``wholes`` (the look at the chosen scale) lies at its
    place."""
    if not found or not wholes:
        return [False] * len(found)
    f = np.array([(o.cx, o.cy, o.w, o.h, o.side, o.score) for o in found])[:, None, :]
    g = np.array([(o.cx, o.cy, o.w, o.h, o.side, o.score) for o in wholes])[None, :, :]
    dx, dy = np.abs(f[..., 0] - g[..., 0]), np.abs(f[..., 1] - g[..., 1])
    inside = ((dx < 0.4 * g[..., 2]) & (dy < 0.4 * g[..., 3]) & (f[..., 4] <= PART_SIDE * g[..., 4])
              & (f[..., 5] > g[..., 5]))
    seen = ((dx < 0.4 * f[..., 2]) & (dy < 0.4 * f[..., 3]) & ~inside).any(axis=1)
    parts: list[bool] = (inside.any(axis=1) & ~seen).tolist()
    return parts


def _specks_dropped(found: list[Found]) -> list[Found]:
    """``found`` without the weak objects far smaller than the strong ones (``SPECK_SIDE``)."""
    strong = [f.side for f in found if f.score >= FIRST_KEPT]
    if len(strong) < 2:
        return found
    least = SPECK_SIDE * float(np.median(strong))
    return [f for f in found if f.score >= FIRST_KEPT or f.side >= least]


def find_objects(frame: np.ndarray, *, model: str = "finder", score: float = SCORE) -> list[Found]:
    """Every die and token in ``frame`` (BGR uint8 (H, W, 3)), strongest first.

    Returns an empty list when nothing scores ``score``; at most ``MAX_OBJECTS`` objects.
    """
    h, w = frame.shape[:2]
    levels = [frame]                           # the frame and its halvings (``_shrunk``)
    first: list[Found] = []
    sizing: list[tuple[Found, float]] = []     # (object, its look's scale) of objects seen at a good size
    scales = []
    looks: list[list[Found]] = []              # each first look's objects
    firm = max(score, FIRST_KEPT)
    strong: list[Found] = []                   # found at ``FIRST_KEPT`` by a look that does not enlarge
    holding: list[Found] = []                  # of those, the ones seen at a trustworthy size (``HOLDS``)
    for side in FIRST_SIDES:
        size = _input_size(w, h, side / max(w, h))
        k = size[0] / w
        scales.append(k)
        got = _run(frame, size, model, score, levels)
        looks.append(got)
        first += got
        if k <= 1.0:
            strong += [f for f in got if f.score >= firm]
            holding += [f for f in got if f.score >= firm and f.side * k >= SIZING_SIDES[0]]
        sizing += [(f, k) for f in got if SIZING_SIDES[0] <= f.side * k <= SIZING_SIDES[1]]
    first = _holders_dropped(first, holding)
    kept_ids = set(map(id, first))          # what holds dice neither sizes the frame nor is kept
    sizing = [(f, k) for f, k in sizing if id(f) in kept_ids]
    strong = [f for f in strong if id(f) in kept_ids]
    if not first:
        return []
    if not sizing:
        return _specks_dropped(_suppressed(first))
    sides = np.array([f.side for f, _ in sizing])
    weights = np.array([f.score ** 2 for f, _ in sizing])
    order = np.argsort(sides)
    cum = np.cumsum(weights[order])
    median = float(sides[order][int(np.searchsorted(cum, cum[-1] / 2))])
    size = _input_size(w, h, TARGET_SIDE / median)
    k = size[0] / w
    least = SIZING_SIDES[0] * 0.7 / k          # frame px: smaller is texture at the chosen scale
    same = [j for j, kj in enumerate(scales) if abs(math.log(k / kj)) < 0.2]
    if same or (scales[-1] <= 1.0 and TARGET_SIDE <= median * scales[-1] <= SECOND_SKIPPED * TARGET_SIDE):
        # a first look was at this scale already, or the finest look sees the dice well
        chosen = set(map(id, looks[same[0] if same else -1]))
        wholes = [f for f in first if id(f) in chosen]
        others = [f for f in first if id(f) not in chosen]
        first = wholes + [f for f, part in zip(others, _parts(others, wholes), strict=True) if not part]
        if not same:
            first = [f for f in first if f.side >= least]
        return _specks_dropped(_suppressed(first))
    second = [f for f in _run(frame, size, model, score, levels) if f.side >= least]
    # objects far bigger than the chosen scale sees are kept from the first look, and so are the strong
    # objects of a look that did not enlarge the frame (``FIRST_KEPT``)
    big = [f for f in first if f.side * k > 4.5 * TARGET_SIDE]
    second = _holders_dropped(second, holding)
    kept = [f for f, part in zip(strong, _parts(strong, second), strict=True) if f.side >= least and not part]
    return _specks_dropped(_suppressed(second + big + kept))


#: a die a person says lies at a place is looked for in a window this many times the frame's dice across
#: around it (the whole frame when it has no dice): wide enough that the finder's first look sees the die
#: at a size it reads well (a fifth of the window: 32 px of the 160 px look), small enough that the window's
#: dice size it. Chosen before measuring
LOOK_AROUND = 5.0
#: the finder's bar there: a person said a die lies there, so a peak the finder would not trust on its
#: own (the dice it missed) still gives the die's box. Chosen before measuring
SAID_SCORE = 0.05
#: what is found there is the die when it lies within its own side of the place (a finger on a phone's
#: picture misses a die's centre by half a die) and its side is within this factor of the frame's dice. With
#: a place up to 0.6 of a die's side off its centre, the box given matched the label (IoU >= 0.5) for 84 of
#: the 176 dice aws's left-out reader missed and 22 of nell-byler's 32, where a square of the frame's dice
#: size at the place matched 23 and 5 (docs/vision.md, "A die the camera missed"). 1.6: a d20 beside d6s;
#: set once, not tuned
SIZE_LIKE = 1.6


def found_at(frame: np.ndarray, x: float, y: float, *, side: float | None = None,
             model: str = "finder") -> Found | None:
    """The object the finder sees at (``x``, ``y``) (frame pixels) of ``frame`` when a person says a die
    lies there, looking at a bar of ``SAID_SCORE`` in a window of ``LOOK_AROUND`` times ``side`` (the
    frame's dice, px; None: the whole frame). The object nearest the place within its own side of it (and
    within ``SIZE_LIKE`` of ``side``), in frame pixels, or None. Bounded as ``find_objects`` is."""
    h, w = frame.shape[:2]
    if not (0 <= x <= w and 0 <= y <= h):
        return None
    if side is None or side <= 0:
        x0, y0, x1, y1 = 0, 0, w, h
    else:
        half = max(32.0, LOOK_AROUND * side / 2)
        x0, y0 = max(0, int(x - half)), max(0, int(y - half))
        x1, y1 = min(w, math.ceil(x + half)), min(h, math.ceil(y + half))
    if x1 - x0 < 8 or y1 - y0 < 8:
        return None
    holding = [f for f in find_objects(frame[y0:y1, x0:x1], model=model, score=SAID_SCORE)
               if math.hypot(f.cx + x0 - x, f.cy + y0 - y) <= f.side
               and (side is None or 1 / SIZE_LIKE <= f.side / side <= SIZE_LIKE)]
    if not holding:
        return None
    best = min(holding, key=lambda f: math.hypot(f.cx + x0 - x, f.cy + y0 - y))
    return Found(best.cx + x0, best.cy + y0, best.w, best.h, best.score)
