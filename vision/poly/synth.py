"""Synthetic crops of polyhedral dice, rendered from the solids' real geometry.

Used to train and to test the classifier (``tools/train_poly.py``); not needed at run time.
``render(rng)`` draws one die with a random top face, spin, tilt, perspective, colours, font, lighting,
speckle, blur and background, and returns the image, the die's bounding box and its label.

Fonts: the DejaVu TrueType fonts through Pillow when both are installed, plus OpenCV's Hershey fonts
(always available). Images are BGR uint8 (H, W, 3).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np

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
           face: int | None = None, profile: str = "table") -> Render:
    """One synthetic die photographed from above: a random ``kind`` and top ``face`` unless given.

    ``profile`` sets how the picture is spoiled after drawing. ``"table"`` (the default) is the camera
    the companion is built for: the die keeps at least ``MIN_DIE_PX`` across after any downscale,
    focus blur up to sigma 1.0, JPEG quality 50-95, and one die in five is translucent (the tray shows
    through its body). ``"harsh"`` is the first profile (renders made before 2026-11-25; the same seed
    gives the same picture): downscales to a die of about 20 px, blur up to 1.3, JPEG 40-95, no
    translucency. Numerals there can be illegible to a person.
    """
    if profile not in ("table", "harsh"):
        raise ValueError(f"profile must be 'table' or 'harsh', not {profile!r}")
    kind = kind or str(rng.choice(KINDS))
    nfaces = FACE_COUNT[kind]
    face = int(rng.integers(nfaces)) if face is None else face
    fonts = _fonts()
    font = fonts[int(rng.integers(len(fonts)))]
    thick = int(rng.integers(1, 4))
    mark = str(rng.choice(["dot", "bar", "dot"]))
    body, ink = _colour(rng)

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
    tilt = rng.normal(0, 0.07, 2)
    r = _rot(0, tilt[0]) @ _rot(1, tilt[1]) @ _rot(2, rng.uniform(0, 2 * np.pi)) @ r
    pts3 = verts @ r.T
    dist = rng.uniform(3.5, 14.0)
    scale = size * rng.uniform(0.3, 0.42)
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
    others = iter(order * 3)
    light = np.array([rng.uniform(-0.6, 0.6), rng.uniform(-0.6, 0.6), 1.0])
    light /= np.linalg.norm(light)
    ambient = rng.uniform(0.35, 0.7)

    bg = _background(rng, size).astype(np.float32)
    die_mask = np.zeros((size, size), np.uint8)
    shade_map = np.zeros((size, size), np.float32)
    ink_map = np.zeros((size, size), np.float32)
    src = np.array([[0, 0], [GLYPH, 0], [GLYPH, GLYPH], [0, GLYPH]], np.float32)
    cam = np.array([0, 0, dist])
    for fi, fv in enumerate(faces):
        p3 = pts3[list(fv)]
        c3 = p3.mean(axis=0)
        n = np.cross(p3[1] - p3[0], p3[2] - p3[0])
        n /= np.linalg.norm(n)
        if n @ (cam - c3) <= 0:
            continue
        poly = project(p3)
        shade = (ambient + (1 - ambient) * max(0.0, float(n @ light))) * rng.uniform(0.95, 1.05)
        ipoly = [np.round(poly * 16).astype(np.int32)]
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
            stamps = [(c3, u, inr * rel * rng.uniform(0.85, 1.1), labels[fi])]
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
            np.maximum(ink_map[y0:y1, x0:x1], g, out=ink_map[y0:y1, x0:x1])
    dm = (die_mask.astype(np.float32) / 255)[..., None]
    shade3 = shade_map[..., None]
    if profile == "table" and rng.random() < TRANSLUCENT:
        # resin the tray shows through, lit more at the rim where the light crosses less of it
        alpha = rng.uniform(0.5, 0.85)
        inner = cv2.erode(die_mask, np.ones((3, 3), np.uint8), iterations=max(1, size // 40))
        rim = ((die_mask > 0) & (inner == 0)).astype(np.float32)[..., None]
        tint = body.astype(np.float32) * shade3
        img = bg * (1 - dm * alpha) + tint * dm * alpha + rim * dm * rng.uniform(0.0, 0.25)
    else:
        img = bg * (1 - dm) + (body.astype(np.float32) * shade3) * dm
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
    return Render(out, bbox, label_kind, face_value(label_kind, face), top_at, angle)


def _tetra_vertex_value(vertex: int, resting: int, value: int, labels: dict[int, int]) -> int:
    """Numeral shown near ``vertex`` of a tetrahedron: the top vertex (not on the resting face) shows
    ``value``; the other three show the other values in a fixed order."""
    on_rest = solid("tetra").faces[resting]
    if vertex not in on_rest:
        return value
    rest = [v for v in range(4) if v != value]
    return rest[list(on_rest).index(vertex) % 3]
