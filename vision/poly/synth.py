"""Synthetic crops of polyhedral dice, rendered from the solids' real geometry.

Used to train and to test the classifier (``tools/train_poly.py``); not needed at run time.
``render(rng)`` draws one die with a random top face, spin, tilt, perspective, colours, font, lighting,
speckle, blur and background, and returns the image, the die's bounding box and its label.

Fonts: the DejaVu TrueType fonts through Pillow when both are installed, plus OpenCV's Hershey fonts
(always available). Images are BGR uint8 (H, W, 3).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

import cv2
import numpy as np

from vision.pips import _LAYOUTS
from vision.poly.solids import solid

KINDS = ("d4", "d4t", "d6", "d8", "d10", "d100", "d12", "d20")
"""d4 = barrel d4 (a long prism, numeral on the top face), d4t = tetrahedron read at the top vertex,
d100 = percentile d10 (00-90)."""

SOLID_OF = {"d4t": "tetra", "d6": "cube", "d8": "octa", "d10": "trapezo", "d100": "trapezo",
            "d12": "dodeca", "d20": "icosa"}
FACE_COUNT = {"d4": 4, "d4t": 4, "d6": 6, "d8": 8, "d10": 10, "d100": 10, "d12": 12, "d20": 20}
DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
GLYPH = 64
MIN_DIE_PX = 48
"""The smallest die (pixels across) of the ``"table"`` profile: a 16 mm die seen by the HQ camera's
2028x1520 mode over a 70 cm wide tray. The companion is not promised to read smaller dice."""
TRANSLUCENT = 0.2
"""Share of translucent dice in the ``"table"`` profile."""
BRANDS_TRANSLUCENT = 0.25
"""Share of translucent dice in the ``"brands"`` profile (their far faces' numerals show through)."""
PROFILES = ("table", "harsh", "brands")
HERSHEY = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
           cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_PLAIN)


@dataclass(frozen=True)
class Render:
    image: np.ndarray
    bbox: tuple[int, int, int, int]
    kind: str
    value: int
    """The face value as printed: 1..N, and for d10 0..9, for d100 0, 10, .., 90."""
    centre: tuple[float, float] = (float("nan"), float("nan"))
    """Where the top face's numeral is drawn, (x, y) in pixels; NaN for a tetrahedral d4."""
    angle: float = float("nan")
    """Spin (degrees, counter-clockwise) that turns the top face's numeral upright, as
    ``vision.poly.numeral.read_numeral`` reports it; NaN for a tetrahedral d4 (three numerals)."""
    mask: np.ndarray | None = None
    """uint8 (size, size), 255 on the die (drawn before blur and downscale)."""


def face_text(kind: str, index: int) -> str:
    """The numeral printed on face ``index`` (0-based) of a die of ``kind``."""
    if kind == "d10":
        return str(index)          # 0..9
    if kind == "d100":
        return f"{index * 10:02d}"  # 00..90
    return str(index + 1)


def face_value(kind: str, index: int) -> int:
    return index * 10 if kind == "d100" else (index if kind == "d10" else index + 1)


@cache
def _fonts() -> tuple[str, ...]:
    names: list[str] = [f"hershey:{f}" for f in HERSHEY]
    try:
        import PIL  # noqa: F401
    except ImportError:
        return tuple(names)
    for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSerif.ttf", "DejaVuSerif-Bold.ttf",
                 "DejaVuSansCondensed-Bold.ttf", "DejaVuSansMono.ttf", "DejaVuSans-Oblique.ttf",
                 "DejaVuSerifCondensed.ttf"):
        if (DEJAVU / name).exists():
            names.append(str(DEJAVU / name))
    return tuple(names)


@cache
def _glyph(text: str, font: str, mark: str, thick: int) -> np.ndarray:
    """Float mask (GLYPH, GLYPH) of ``text`` centred and upright; ``mark`` is '', 'dot' or 'bar'."""
    canvas = np.zeros((GLYPH * 2, GLYPH * 2), np.uint8)
    if font.startswith("hershey:"):
        face = int(font.split(":")[1])
        scale = 2.2 if face != cv2.FONT_HERSHEY_PLAIN else 4.0
        (w, h), _ = cv2.getTextSize(text, face, scale, thick + 2)
        cv2.putText(canvas, text, ((GLYPH * 2 - w) // 2, (GLYPH * 2 + h) // 2), face, scale, 255,
                    thick + 2, cv2.LINE_AA)
    else:
        from PIL import Image, ImageDraw, ImageFont

        img = Image.new("L", (GLYPH * 2, GLYPH * 2), 0)
        draw = ImageDraw.Draw(img)
        ttf = ImageFont.truetype(font, 70)
        left, top, right, bottom = draw.textbbox((0, 0), text, font=ttf)
        draw.text(((GLYPH * 2 - (right - left)) / 2 - left, (GLYPH * 2 - (bottom - top)) / 2 - top), text,
                  fill=255, font=ttf, stroke_width=thick - 1, stroke_fill=255)
        canvas = np.asarray(img).copy()
    ys, xs = np.nonzero(canvas > 60)
    x0, x1, y0, y1 = xs.min(), xs.max(), ys.min(), ys.max()
    if mark == "dot":
        r = max(3, (y1 - y0) // 12)
        cv2.circle(canvas, (x1 + r + 3, y1 - r), r, 255, -1, cv2.LINE_AA)
    elif mark == "bar":
        t = max(3, (y1 - y0) // 12)
        cv2.rectangle(canvas, (x0, y1 + t + 2), (x1, y1 + 2 * t + 2), 255, -1, cv2.LINE_AA)
    ys, xs = np.nonzero(canvas > 60)
    cx, cy = (xs.min() + xs.max()) / 2, (ys.min() + ys.max()) / 2
    side = max(xs.max() - xs.min(), ys.max() - ys.min()) * 1.1 + 2
    # the numeral's height sets the scale, so "1" stays thin and "10" stays wide
    m = np.array([[GLYPH / side, 0, GLYPH / 2 - cx * GLYPH / side],
                  [0, GLYPH / side, GLYPH / 2 - cy * GLYPH / side]], np.float32)
    out: np.ndarray = cv2.warpAffine(canvas, m, (GLYPH, GLYPH), flags=cv2.INTER_AREA).astype(np.float32) / 255
    return out


@lru_cache(maxsize=256)
def _pip_glyph(value: int, spread: float, radius: float) -> np.ndarray:
    """Float mask (GLYPH, GLYPH) of a pip d6's face ``value`` (``vision.pips._LAYOUTS``), the glyph square
    standing for the whole face: pips ``spread`` of the half side off the centre, of ``radius`` (share of the
    side). Each render draws its own spread and radius, so the cache keeps only the last 256."""
    big = GLYPH * 4
    canvas = np.zeros((big, big), np.uint8)
    for dx, dy in _LAYOUTS[value]:
        cx, cy = big / 2 * (1 + dx * spread), big / 2 * (1 + dy * spread)
        cv2.circle(canvas, (round(cx * 16), round(cy * 16)), round(radius * big * 16), 255, -1,
                   cv2.LINE_AA, 4)
    small = cv2.resize(canvas, (GLYPH, GLYPH), interpolation=cv2.INTER_AREA)
    out: np.ndarray = small.astype(np.float32) / 255
    return out


FLAGS = ((0.45, 35.0, False), (0.55, 25.0, False), (0.35, 50.0, False), (0.5, 40.0, True))
"""The long-flagged "1" of many brands: (flag length as a share of the stem, degrees below the horizontal,
a foot), a few fixed shapes so that glyphs stay cacheable (``tools/build_numerals.py`` draws random ones)."""
GAPS = (-0.04, 0.02, 0.08)
"""Gaps between the two digits of "10".."20" on brands that set them close, in digit heights (a font's own
spacing is about 0.1-0.2)."""


def flagged_one_mask(length: float, angle: float, foot: bool, width: int, foot_width: float = 1.7
                     ) -> np.ndarray:
    """uint8 (2 * GLYPH, 2 * GLYPH) canvas of a "1": an upright stem and a flag from its top, down to the
    left, ``length`` of the stem long at ``angle`` degrees below the horizontal; a foot if ``foot``."""
    size = GLYPH * 2
    canvas = np.zeros((size, size), np.uint8)
    top, bottom, x = 24, 104, 64
    cv2.line(canvas, (x, top), (x, bottom), 255, width, cv2.LINE_AA)
    span = (bottom - top) * length
    a = np.radians(angle)
    end = (round(x - span * np.cos(a)), round(top + span * np.sin(a)))
    cv2.line(canvas, (x, top), end, 255, max(3, int(width * 0.8)), cv2.LINE_AA)
    if foot:
        half = round(width * foot_width)
        cv2.line(canvas, (x - half, bottom), (x + half, bottom), 255, max(3, width // 2), cv2.LINE_AA)
    return canvas


def _fit(canvas: np.ndarray) -> np.ndarray:
    """Float (GLYPH, GLYPH) of the ink of ``canvas`` centred, its longer extent 1/1.1 of GLYPH."""
    ys, xs = np.nonzero(canvas > 60)
    cx, cy = (xs.min() + xs.max()) / 2, (ys.min() + ys.max()) / 2
    side = max(xs.max() - xs.min(), ys.max() - ys.min()) * 1.1 + 2
    m = np.array([[GLYPH / side, 0, GLYPH / 2 - cx * GLYPH / side],
                  [0, GLYPH / side, GLYPH / 2 - cy * GLYPH / side]], np.float32)
    out: np.ndarray = cv2.warpAffine(canvas, m, (GLYPH, GLYPH), flags=cv2.INTER_AREA).astype(np.float32) / 255
    return out


@cache
def _brand_glyph(text: str, font: str, mark: str, thick: int, gap: float, flag: int) -> np.ndarray:
    """Float mask (GLYPH, GLYPH) of ``text`` as some brands print it: each digit drawn alone and set
    ``gap`` digit heights apart (close digits), a "1" drawn as ``FLAGS[flag]`` (``flag`` < 0: the font's
    own 1), ``mark`` 'dot' (a "6." / "9."), 'bar' (underlined) or ''."""
    parts = []
    for ch in text:
        if ch == "1" and flag >= 0:
            length, angle, foot = FLAGS[flag]
            c = flagged_one_mask(length, angle, foot, 6 + 3 * thick)
        else:
            c = (_glyph(ch, font, "", thick) * 255).astype(np.uint8)
        ys, xs = np.nonzero(c > 60)
        parts.append(c[ys.min():ys.max() + 1, xs.min():xs.max() + 1])
    height = max(q.shape[0] for q in parts)
    parts = [cv2.resize(q, (max(1, round(q.shape[1] * height / q.shape[0])), height)) for q in parts]
    space = round(gap * height)
    width = sum(q.shape[1] for q in parts) + space * (len(parts) - 1)
    pad = height // 2 + 8
    canvas = np.zeros((height + 2 * pad, max(width, 1) + 2 * pad + max(0, -space)), np.uint8)
    x = pad
    for q in parts:
        window = canvas[pad:pad + height, x:x + q.shape[1]]
        np.maximum(window, q, out=window)
        x += q.shape[1] + space
    x1 = x - space
    if mark == "dot":
        r = max(3, height // 12)
        cv2.circle(canvas, (x1 + r + 3, pad + height - r), r, 255, -1, cv2.LINE_AA)
    elif mark == "bar":
        t = max(3, height // 12)
        cv2.rectangle(canvas, (pad, pad + height + t + 2), (x1, pad + height + 2 * t + 2), 255, -1,
                      cv2.LINE_AA)
    return _fit(canvas)


def _body_texture(rng: np.random.Generator, size: int, body: np.ndarray) -> tuple[np.ndarray, str]:
    """Float (size, size, 3) colour of a die's body as brands make them, and its style: plain, speckled
    (flecks of one or two other colours), marbled or swirled (two colours mixed along a warped wave)."""
    style = str(rng.choice(["plain", "speckled", "marbled", "swirled"], p=[0.35, 0.2, 0.25, 0.2]))
    tex = np.ones((size, size, 3), np.float32) * body.astype(np.float32)
    if style == "speckled":
        for _ in range(int(rng.integers(1, 3))):
            colour = rng.random(3).astype(np.float32)
            flecks = (rng.random((size, size)) < rng.uniform(0.01, 0.06)).astype(np.uint8)
            if rng.random() < 0.5:
                flecks = np.asarray(cv2.dilate(flecks, np.ones((2, 2), np.uint8)), np.uint8)
            tex[flecks > 0] = colour
    elif style in ("marbled", "swirled"):
        other = rng.random(3).astype(np.float32)
        k = int(rng.integers(3, 7))
        noise = cv2.resize(rng.normal(0, 1, (k, k)).astype(np.float32), (size, size),
                           interpolation=cv2.INTER_CUBIC)
        yy, xx = np.mgrid[:size, :size].astype(np.float32) / size
        if style == "swirled":
            r = np.hypot(xx - 0.5, yy - 0.5)
            phase = np.arctan2(yy - 0.5, xx - 0.5) * int(rng.integers(1, 4)) + r * rng.uniform(8, 20)
        else:
            a = rng.uniform(0, np.pi)
            phase = (xx * np.cos(a) + yy * np.sin(a)) * rng.uniform(6, 18)
        t = 0.5 + 0.5 * np.sin(phase + noise * rng.uniform(1.5, 4))
        t = (t ** rng.uniform(0.7, 2.5))[..., None]
        tex = tex * (1 - t) + other * t
    return tex, style


def _brand_colours(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Die colour and ink (BGR floats 0..1): ink white, black, gold or silver mostly, with contrast."""
    while True:
        hsv = np.array([[[rng.integers(0, 180), rng.integers(0, 256), rng.integers(30, 256)]]], np.uint8)
        body = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(float) / 255
        choice = rng.random()
        if choice < 0.35:
            ink = np.full(3, rng.uniform(0.85, 1.0))
        elif choice < 0.6:
            ink = np.full(3, rng.uniform(0.0, 0.15))
        elif choice < 0.77:
            ink = np.array([0.2, 0.7, 0.88]) * rng.uniform(0.75, 1.1)    # gold
        elif choice < 0.92:
            ink = np.full(3, rng.uniform(0.62, 0.82)) + rng.uniform(-0.03, 0.03, 3)   # silver
        else:
            ink = rng.random(3)
        if abs(_lum(body) - _lum(ink)) > 0.22:
            return body, np.clip(ink, 0, 1)


def _rotation_to_z(n: np.ndarray) -> np.ndarray:
    """A rotation matrix taking unit vector ``n`` to +z."""
    z = np.array([0.0, 0.0, 1.0])
    v = np.cross(n, z)
    c = float(n @ z)
    if np.linalg.norm(v) < 1e-9:
        return np.eye(3) if c > 0 else np.diag([1.0, -1.0, -1.0])
    vx = np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])
    out: np.ndarray = np.eye(3) + vx + vx @ vx / (1 + c)
    return out


def _rot(axis: int, angle: float) -> np.ndarray:
    c, s = np.cos(angle), np.sin(angle)
    i, j = [(1, 2), (0, 2), (0, 1)][axis]
    r = np.eye(3)
    r[i, i], r[i, j], r[j, i], r[j, j] = c, -s, s, c
    return r


def _barrel_solid(rng: np.random.Generator) -> tuple[np.ndarray, tuple[tuple[int, ...], ...]]:
    """A barrel d4 as a prism: a rounded rectangle top face over a smaller bottom, 1.35-1.8 long."""
    length, width = rng.uniform(1.35, 1.8), 1.0
    radius = rng.uniform(0.15, 0.5) * width
    pts = []
    ax, ay = length / 2 - radius, width / 2 - radius
    for cx, cy, a0 in ((ax, ay, 0), (-ax, ay, 90), (-ax, -ay, 180), (ax, -ay, 270)):
        for a in np.radians(np.linspace(a0, a0 + 90, 5)):
            pts.append((cx + radius * np.cos(a), cy + radius * np.sin(a)))
    n = len(pts)
    depth = rng.uniform(0.35, 0.5)
    top = [(x, y, depth) for x, y in pts]
    bottom = [(x * 0.92, y * 0.8, -depth) for x, y in pts]
    v = np.array(top + bottom, float)
    faces: list[tuple[int, ...]] = [tuple(range(n)), tuple(range(2 * n - 1, n - 1, -1))]
    for i in range(n):
        j = (i + 1) % n
        faces.append((i, n + i, n + j, j))
    return v / np.abs(v).max(), tuple(faces)


def _lum(c: np.ndarray) -> float:
    return float(0.11 * c[0] + 0.59 * c[1] + 0.3 * c[2])


def _colour(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Die colour and ink colour (BGR floats 0..1) with enough contrast between them."""
    while True:
        hsv = np.array([[[rng.integers(0, 180), rng.integers(0, 256), rng.integers(40, 256)]]], np.uint8)
        body = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(float) / 255
        choice = rng.random()
        if choice < 0.4:
            ink = np.full(3, rng.uniform(0.85, 1.0))
        elif choice < 0.7:
            ink = np.full(3, rng.uniform(0.0, 0.15))
        elif choice < 0.8:
            ink = np.array([0.2, 0.75, 0.9]) * rng.uniform(0.8, 1.1)   # gold
        else:
            ink = rng.random(3)
        if abs(_lum(body) - _lum(ink)) > 0.28:
            return body, np.clip(ink, 0, 1)


def _background(rng: np.random.Generator, size: int) -> np.ndarray:
    kind = rng.random()
    base = rng.random(3) * (0.25 if kind < 0.6 else 0.8)
    img = np.ones((size, size, 3)) * base
    if kind >= 0.6 and rng.random() < 0.5:    # wood-like grain
        ys = np.arange(size)[:, None] + 6 * np.sin(np.arange(size)[None, :] / rng.uniform(8, 30))
        grain = 0.5 + 0.5 * np.sin(ys / rng.uniform(2, 6))
        img = img * (0.8 + 0.3 * grain[..., None])
    gx = np.linspace(-1, 1, size)
    img = img * (1 + rng.uniform(-0.3, 0.3) * gx[None, :, None] + rng.uniform(-0.3, 0.3) * gx[:, None, None])
    img += rng.normal(0, 0.02, img.shape)
    return np.clip(img, 0, 1)


def render(rng: np.random.Generator, *, size: int = 128, kind: str | None = None,
           face: int | None = None, profile: str = "table", tray: np.ndarray | None = None,
           tilt: float = 0.0, pips: bool = False) -> Render:
    """One synthetic die photographed from above: a random ``kind`` and top ``face`` unless given.

    ``profile`` sets how the picture is spoiled after drawing. ``"table"`` (the default) is the camera
    the companion is built for: the die keeps at least ``MIN_DIE_PX`` across after any downscale,
    focus blur up to sigma 1.0, JPEG quality 50-95, and one die in five is translucent (the tray shows
    through its body). ``"harsh"`` is the first profile (renders made before 2026-11-25; the same seed
    gives the same picture): downscales to a die of about 20 px, blur up to 1.3, JPEG 40-95, no
    translucency. Numerals there can be illegible to a person. ``"brands"`` is the "table" camera
    with dice as many brands make them (``BRANDS``): speckled, marbled and swirled bodies, one in four
    translucent with the far faces' numerals showing through, ink white, black, gold or silver, the
    long-flagged 1, close two-digit numbers, underlined or dotted 6 and 9, and the glare of one lamp.

    ``tray``: float (size, size, 3) BGR 0..1, the patch of a larger tray the die lies on (``scene``),
    instead of a background of its own; the same seed then draws a different die.

    ``tilt``: the camera's angle from straight above, in degrees (0 .. 60), toward a random side: the
    top face is foreshortened and the side faces show, as a phone held off the vertical or a camera at
    the table's edge sees a die. The die is drawn a little smaller so its far corners stay in the picture.
    At 0 the same seed draws the same picture as before the keyword existed.

    ``pips``: a pip d6 (``kind`` must be "d6"): every face carries its pips instead of a numeral, opposite
    faces add up to 7 as on a real die, and ``value`` is the top face's. With ``tilt``, the pips of the side
    faces show foreshortened below the top as a camera off the vertical sees them (the face reader's
    training: a die's front face is not its top).
    """
    if pips and kind != "d6":
        raise ValueError(f"pips are drawn on a d6 only, not on {kind!r}")
    if not 0.0 <= tilt <= 60.0:
        raise ValueError(f"tilt must be 0 .. 60 degrees, not {tilt!r}")
    if profile not in PROFILES:
        raise ValueError(f"profile must be one of {', '.join(map(repr, PROFILES))}, not {profile!r}")
    brands = profile == "brands"
    kind = kind or str(rng.choice(KINDS))
    nfaces = FACE_COUNT[kind]
    face = int(rng.integers(nfaces)) if face is None else face
    fonts = _fonts()
    font = fonts[int(rng.integers(len(fonts)))]
    thick = int(rng.integers(1, 4))
    mark = str(rng.choice(["dot", "bar", "dot"]))
    body, ink = _brand_colours(rng) if brands else _colour(rng)
    gap, flag = (float(rng.choice(GAPS)) if rng.random() < 0.5 else None,
                 int(rng.integers(len(FLAGS))) if rng.random() < 0.4 else -1) if brands else (None, -1)
    see_through = brands and rng.random() < BRANDS_TRANSLUCENT

    if kind == "d4":
        verts, faces = _barrel_solid(rng)
        top = 0
        up_world = np.array([1.0, 0.0, 0.0]) * rng.choice([-1, 1])
    else:
        s = solid(SOLID_OF[kind])
        verts, faces = s.vertices, s.faces
        # for the tetrahedron ``top`` is the face on the table: its opposite vertex is up
        top = int(rng.integers(len(faces)))
        up_world = None
    # orientation: top face normal to +z (for the tetrahedron, the resting face to -z)
    v0 = verts[list(faces[top])]
    n0 = np.cross(v0[1] - v0[0], v0[2] - v0[0])
    n0 /= np.linalg.norm(n0)
    r = _rotation_to_z(-n0 if kind == "d4t" else n0)
    wobble = rng.normal(0, 0.07, 2)
    r = _rot(0, wobble[0]) @ _rot(1, wobble[1]) @ _rot(2, rng.uniform(0, 2 * np.pi)) @ r
    if tilt_rad := np.radians(tilt):
        # the spin above is random, so turning about the image's x axis views the die from any side
        r = _rot(0, tilt_rad) @ r
    pts3 = verts @ r.T
    dist = rng.uniform(3.5, 14.0)
    scale = size * rng.uniform(0.3, 0.42) / (1 + 0.35 * np.sin(tilt_rad))
    off = rng.uniform(-0.05, 0.05, 2) * size

    def project(p: np.ndarray) -> np.ndarray:
        p = np.atleast_2d(p)
        k = dist / (dist - p[:, 2])
        x = p[:, 0] * k * scale + size / 2 + off[0]
        return np.stack([x, -p[:, 1] * k * scale + size / 2 + off[1]], 1)

    # face labels: the top face (or top vertex) shows the value, the others random other values
    order = [i for i in range(nfaces) if i != face]
    rng.shuffle(order)
    labels = {top: face}
    top_at, angle = (float("nan"), float("nan")), float("nan")
    if pips:   # the face opposite the top shows 7 - value; the four round it the other values
        normals = [np.cross(p[1] - p[0], p[2] - p[0]) for p in (verts[list(f)] for f in faces)]
        bottom = min(range(nfaces), key=lambda i: float(normals[i] @ normals[top]))
        labels[bottom] = nfaces - 1 - face
        order = [i for i in order if i != nfaces - 1 - face]
        pip_spread, pip_radius = float(rng.uniform(0.48, 0.6)), float(rng.uniform(0.07, 0.1))
    others = iter(order * 3)
    light = np.array([rng.uniform(-0.6, 0.6), rng.uniform(-0.6, 0.6), 1.0])
    light /= np.linalg.norm(light)
    ambient = rng.uniform(0.35, 0.7)

    if tray is not None and tray.shape != (size, size, 3):
        raise ValueError(f"tray: expected shape {(size, size, 3)}, got {tray.shape}")
    bg = (_background(rng, size) if tray is None else tray).astype(np.float32)
    die_mask = np.zeros((size, size), np.uint8)
    shade_map = np.zeros((size, size), np.float32)
    ink_map = np.zeros((size, size), np.float32)
    ghost_map = np.zeros((size, size), np.float32)
    src = np.array([[0, 0], [GLYPH, 0], [GLYPH, GLYPH], [0, GLYPH]], np.float32)
    cam = np.array([0, 0, dist])
    for fi, fv in enumerate(faces):
        p3 = pts3[list(fv)]
        c3 = p3.mean(axis=0)
        n = np.cross(p3[1] - p3[0], p3[2] - p3[0])
        n /= np.linalg.norm(n)
        back = n @ (cam - c3) <= 0
        if back and not (see_through and kind not in ("d4", "d4t")):
            continue
        poly = project(p3)
        shade = (ambient + (1 - ambient) * max(0.0, float(n @ light))) * rng.uniform(0.95, 1.05)
        ipoly = [np.round(poly * 16).astype(np.int32)]
        if not back:
            cv2.fillPoly(shade_map, ipoly, float(shade), cv2.LINE_8, 4)
            cv2.fillPoly(die_mask, ipoly, 255, cv2.LINE_AA, 4)
        if kind == "d4" and fi != top:
            continue
        if kind == "d4t":
            stamps = []
            for vi in fv:   # one numeral near each corner, its top toward that corner
                value_at = _tetra_vertex_value(vi, top, face, labels)
                u = pts3[vi] - c3
                stamps.append((c3 + u * 0.5, u / np.linalg.norm(u), np.linalg.norm(u) * 0.55, value_at))
        else:
            if fi not in labels:
                labels[fi] = next(others)
            if up_world is not None:
                u = (r @ up_world)
                u = u - n * (u @ n)
            elif kind in ("d10", "d100"):
                u = (pts3[next(v for v in fv if v in (0, 1))] - c3) * (1 if rng.random() < 0.8 else -1)
            elif kind == "d6":
                u = (p3[0] + p3[1]) / 2 - c3
            else:
                u = p3[int(rng.integers(len(p3)))] - c3
            u /= np.linalg.norm(u)
            inr = min(np.linalg.norm(np.cross(p3[(k + 1) % len(p3)] - p3[k], c3 - p3[k]))
                      / np.linalg.norm(p3[(k + 1) % len(p3)] - p3[k]) for k in range(len(p3)))
            rel = {"d4": 1.3, "d6": 1.2, "d8": 1.15, "d10": 1.25, "d100": 1.4, "d12": 1.2, "d20": 1.3}[kind]
            stamps = [(c3, u, 2 * inr if pips else inr * rel * rng.uniform(0.85, 1.1), labels[fi])]
            if fi == top:
                at, tip = project(np.stack([c3, c3 + 0.1 * u]))
                top_at = (float(at[0]), float(at[1]))
                # the numeral's up in the image (y down) at math angle t; turning by 90 - t makes it upright
                angle = float(np.degrees(np.arctan2(at[1] - tip[1], tip[0] - at[0])))
                angle = (90.0 - angle) % 360.0
        fmask = np.zeros((size, size), np.uint8)
        cv2.fillPoly(fmask, ipoly, 255, cv2.LINE_8, 4)
        for centre, u, side, idx in stamps:
            text = face_text("d4" if kind == "d4t" else kind, idx)
            m = mark if text in ("6", "9") and kind not in ("d4", "d4t", "d6") else ""
            if pips:
                glyph = _pip_glyph(int(text), pip_spread, pip_radius)
            elif brands and ((gap is not None and len(text) == 2) or (flag >= 0 and "1" in text)):
                glyph = _brand_glyph(text, font, m, thick, 0.12 if gap is None else gap, flag)
            else:
                glyph = _glyph(text, font, m, thick)
            rr = np.cross(u, n)
            a, b = rr * side / 2, u * side / 2
            corners3 = np.array([centre - a + b, centre + a + b, centre + a - b, centre - a - b])
            dst = project(corners3).astype(np.float32)
            x0, y0 = np.maximum(np.floor(dst.min(axis=0)).astype(int) - 1, 0)
            x1, y1 = np.minimum(np.ceil(dst.max(axis=0)).astype(int) + 2, size)
            if x1 <= x0 or y1 <= y0:
                continue
            h = cv2.getPerspectiveTransform(src, (dst - np.array([x0, y0], np.float32)).astype(np.float32))
            g = cv2.warpPerspective(glyph, h, (int(x1 - x0), int(y1 - y0)), flags=cv2.INTER_LINEAR)
            g *= fmask[y0:y1, x0:x1] > 0
            target = ghost_map if back else ink_map
            np.maximum(target[y0:y1, x0:x1], g, out=target[y0:y1, x0:x1])
    dm = (die_mask.astype(np.float32) / 255)[..., None]
    shade3 = shade_map[..., None]
    colour = body.astype(np.float32)
    if brands:
        colour, _style = _body_texture(rng, size, body)
    if see_through or (profile == "table" and rng.random() < TRANSLUCENT):
        # resin the tray shows through, lit more at the rim where the light crosses less of it
        alpha = rng.uniform(0.5, 0.85)
        inner = cv2.erode(die_mask, np.ones((3, 3), np.uint8), iterations=max(1, size // 40))
        rim = ((die_mask > 0) & (inner == 0)).astype(np.float32)[..., None]
        tint = colour * shade3
        img = bg * (1 - dm * alpha) + tint * dm * alpha + rim * dm * rng.uniform(0.0, 0.25)
        if see_through:   # the far faces' numerals, mirrored and softened by the resin
            ghost = cv2.GaussianBlur(ghost_map, (0, 0), rng.uniform(0.5, 1.5))[..., None] * dm
            g_alpha = rng.uniform(0.25, 0.6)
            img = img * (1 - ghost * g_alpha) + ink.astype(np.float32) * 0.8 * ghost * g_alpha
    else:
        img = bg * (1 - dm) + (colour * shade3) * dm
    im3 = ink_map[..., None]
    img = img * (1 - im3) + np.clip(ink.astype(np.float32) * shade3, 0, 1) * im3

    # edges, highlight, blur, noise
    if rng.random() < 0.7:
        edges = cv2.morphologyEx(die_mask, cv2.MORPH_GRADIENT, np.ones((2, 2), np.uint8))
        e = edges.astype(np.float32)[..., None] / 255 * rng.uniform(0.1, 0.4)
        img = img * (1 - e)
    if rng.random() < 0.5:
        hx, hy = rng.uniform(0.3, 0.7, 2) * size
        yy, xx = np.mgrid[:size, :size]
        spot = np.exp(-((xx - hx) ** 2 + (yy - hy) ** 2) / (2 * (size * rng.uniform(0.03, 0.1)) ** 2))
        img = img + (spot * rng.uniform(0.2, 0.7) * die_mask / 255)[..., None]
    if brands and rng.random() < 0.6:   # the lamp's glare: a bright streak on the side toward the lamp
        yy, xx = np.mgrid[:size, :size].astype(np.float32)
        cx = size / 2 + light[0] * size * rng.uniform(0.1, 0.3)
        cy = size / 2 - light[1] * size * rng.uniform(0.1, 0.3)
        a = rng.uniform(0, np.pi)
        u = (xx - cx) * np.cos(a) + (yy - cy) * np.sin(a)
        v = -(xx - cx) * np.sin(a) + (yy - cy) * np.cos(a)
        long, short = size * rng.uniform(0.06, 0.2), size * rng.uniform(0.02, 0.06)
        glare = np.exp(-(u / long) ** 2 - (v / short) ** 2) * rng.uniform(0.5, 1.0)
        img = img + (glare * die_mask / 255)[..., None]
    if rng.random() < 0.5:
        speck = rng.random((size, size)) < rng.uniform(0.002, 0.02)
        img[speck & (die_mask > 0)] += rng.uniform(-0.4, 0.4)
    out = np.clip(img * 255, 0, 255).astype(np.uint8)
    ys, xs = np.nonzero(die_mask > 127)
    harsh = profile == "harsh"
    k = rng.uniform(0.0, 1.3 if harsh else 1.0)
    if k > 0.3:
        out = cv2.GaussianBlur(out, (0, 0), k)
    out = np.clip(out + rng.normal(0, rng.uniform(1, 6), out.shape), 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        if harsh:
            small = rng.uniform(0.35, 0.9)
        else:   # the die stays at least MIN_DIE_PX across
            die_px = max(int(xs.max() - xs.min()), int(ys.max() - ys.min())) + 1
            small = rng.uniform(min(1.0, max(0.5, MIN_DIE_PX / die_px)), 1.0)
        s2 = max(24, int(size * small))
        out = cv2.resize(cv2.resize(out, (s2, s2), interpolation=cv2.INTER_AREA), (size, size))
    if rng.random() < 0.5:
        quality = int(rng.integers(40, 95)) if harsh else int(rng.integers(50, 96))
        _ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    bbox = (int(xs.min()), int(ys.min()), int(xs.max() - xs.min() + 1), int(ys.max() - ys.min() + 1))
    label_kind = "d4" if kind == "d4t" else kind
    return Render(out, bbox, label_kind, face_value(label_kind, face), top_at, angle, die_mask)


@dataclass(frozen=True)
class Scene:
    """Several rendered dice on one tray: the frame and each die's render (``bbox`` in frame pixels)."""
    image: np.ndarray
    dice: tuple[Render, ...]


def scene(rng: np.random.Generator, *, count: int = 10, width: int = 1280, height: int = 960,
          sizes: tuple[int, int] = (96, 160), profile: str = "table", kind: str | None = None,
          pips: bool = False, tilt: tuple[float, float] | None = None) -> Scene:
    """``count`` dice rendered on one tray of ``width`` x ``height``, each on a cell of a grid with some
    jitter, so none touch. Each die is drawn by ``render`` on its patch of the tray (``tray=``) and pasted
    back through its mask widened by a few pixels, so the tray has no seams. A render's side is drawn
    from ``sizes``: at 96-160 px a die spans about 55-135 px (the HQ camera's 2028x1520 mode over a
    50-70 cm tray sees a 16 mm die at 48-65 px, a phone photo larger). ``kind`` and ``pips`` are passed
    to ``render`` for every die; ``tilt``: (least, most) degrees, each die's camera angle drawn between them
    (a phone's wide view sees dice at different angles); none, every die from straight above."""
    side = max(width, height)
    tray = _background(rng, side)[:height, :width].astype(np.float32)
    frame = (tray * 255).astype(np.uint8)
    cols = max(1, int(np.ceil(np.sqrt(count * width / height))))
    rows = int(np.ceil(count / cols))
    cw, ch = width // cols, height // rows
    cells = rng.permutation(rows * cols)[:count]
    dice = []
    for cell in cells:
        size = int(rng.integers(sizes[0], sizes[1] + 1))
        size = min(size, cw, ch)
        r0, c0 = divmod(int(cell), cols)
        x = c0 * cw + int(rng.integers(0, cw - size + 1))
        y = r0 * ch + int(rng.integers(0, ch - size + 1))
        angle = 0.0 if tilt is None else float(rng.uniform(*tilt))
        r = render(rng, size=size, profile=profile, tray=tray[y:y + size, x:x + size], kind=kind, pips=pips,
                   tilt=angle)
        assert r.mask is not None
        keep = cv2.GaussianBlur(cv2.dilate(r.mask, np.ones((5, 5), np.uint8), iterations=max(1, size // 40)),
                                (0, 0), 2).astype(np.float32)[..., None] / 255
        patch = frame[y:y + size, x:x + size].astype(np.float32)
        frame[y:y + size, x:x + size] = np.clip(patch * (1 - keep) + r.image * keep, 0, 255).astype(np.uint8)
        bx, by, bw, bh = r.bbox
        dice.append(Render(r.image, (bx + x, by + y, bw, bh), r.kind, r.value,
                           (r.centre[0] + x, r.centre[1] + y), r.angle, r.mask))
    return Scene(frame, tuple(dice))


def _tetra_vertex_value(vertex: int, resting: int, value: int, labels: dict[int, int]) -> int:
    """Numeral shown near ``vertex`` of a tetrahedron: the top vertex (not on the resting face) shows
    ``value``; the other three show the other values in a fixed order."""
    on_rest = solid("tetra").faces[resting]
    if vertex not in on_rest:
        return value
    rest = [v for v in range(4) if v != value]
    return rest[list(on_rest).index(vertex) % 3]
