"""Build the numeral reader shipped as vision/poly/numerals.npz, reproducibly (fixed seed, renders only).

    pip install pillow        # optional, build only: adds the DejaVu TrueType fonts to OpenCV's Hershey ones
    python3 tools/build_numerals.py [--samples 80000] [--epochs 30] [--out vision/poly/numerals.npz]
    python3 tools/build_numerals.py --renders 30000 --cache /tmp/numeral-renders.npz --out /tmp/n.npz

The shipped file is the first command's (no ``--renders``): the second, which adds glyphs cut out of
renders (2b), was measured and not shipped (docs/vision-poly.md says why).

1. Renders numerals (``vision.poly.numeral.GLYPHS``; a 6 or 9 with a dot, a bar or no mark) in every font,
   with random stroke width, slant, aspect, size, blur and threshold, a few specks beside them; upright
   (within +-10 degrees) they are labelled with their text, turned by 30..330 degrees they are labelled
   ``TURNED`` (a 0, 8 or 00 upside down is still itself, an unmarked 6 upside down is a 9).
2. Takes ``vision.poly.numeral.glyph_features`` of each, exactly as the runtime does at spin 0.
2b. Only with ``--renders N``: renders N whole dice (``vision.poly.synth.render``, 96-256 px, every
   type but the tetrahedral d4, seed RENDER_SEED) and cuts each one's numeral out with the runtime's own
   segmentation (``vision.poly.numeral.find_numeral``): blurred, small, joined to a highlight or to a
   neighbour's fragment, as the reader will meet it. Kept only when the ink cut out lies where the top
   numeral was drawn (else it is another face's numeral, whose text is unknown); read at the spin that
   makes it upright (labelled with its text) and at one random other spin (``TURNED``, or itself for
   0, 8 and 00 upside down).
3. Trains a one-hidden-layer perceptron (numpy, Adam, softmax) on 5/6 of them and measures the other 1/6.
No real photo is used.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.poly import numeral, synth  # noqa: E402

SEED = 20261124
RENDER_SEED = 20261125
RENDER_SIZES = (96, 128, 192, 256)
RENDER_KINDS = ("d4", "d6", "d8", "d10", "d100", "d12", "d20")
SELF_UPSIDE_DOWN = {"0": "0", "8": "8", "00": "00"}


FLAGGED_ONE = 0.35
"""Share of the "1" samples drawn as a stem with a long flag and mostly no foot (many dice print their 1
so; no font of ours does, and the reader took it for a "7" turned by 30-45 degrees)."""


def flagged_one(rng: np.random.Generator, thick: int) -> np.ndarray:
    """Float mask (GLYPH, GLYPH) of a "1": an upright stem and a flag from its top, down to the left,
    0.3-0.6 of the stem long at 20-55 degrees below the horizontal; a foot one time in four."""
    size = synth.GLYPH * 2
    canvas = np.zeros((size, size), np.uint8)
    top, bottom, x = 24, 104, 64
    width = int(rng.integers(5, 12)) + 2 * thick
    cv2.line(canvas, (x, top), (x, bottom), 255, width, cv2.LINE_AA)
    length = (bottom - top) * rng.uniform(0.3, 0.6)
    angle = np.radians(rng.uniform(20, 55))
    end = (round(x - length * np.cos(angle)), round(top + length * np.sin(angle)))
    cv2.line(canvas, (x, top), end, 255, max(3, int(width * rng.uniform(0.6, 1.0))), cv2.LINE_AA)
    if rng.random() < 0.25:
        half = round(width * rng.uniform(1.2, 2.2))
        cv2.line(canvas, (x - half, bottom), (x + half, bottom), 255, max(3, width // 2), cv2.LINE_AA)
    ys, xs = np.nonzero(canvas > 60)
    cx, cy = (xs.min() + xs.max()) / 2, (ys.min() + ys.max()) / 2
    side = max(xs.max() - xs.min(), ys.max() - ys.min()) * 1.1 + 2
    g = synth.GLYPH
    m = np.float32([[g / side, 0, g / 2 - cx * g / side], [0, g / side, g / 2 - cy * g / side]])
    return cv2.warpAffine(canvas, m, (g, g), flags=cv2.INTER_AREA).astype(np.float32) / 255


BRANDS = 0.35
"""With ``--brands``: share of the samples drawn as dice of many makers print them
(``vision.poly.synth._brand_glyph``): two-digit numbers set close (``synth.GAPS``) or at a font's usual
spacing, a long-flagged 1 inside any number (``synth.FLAGS``), an underlined or dotted 6 and 9."""


def brand_glyph(rng: np.random.Generator, text: str, font: str, mark: str, thick: int) -> np.ndarray:
    """Float mask (GLYPH, GLYPH) of ``text`` as one of many brands prints it (see ``BRANDS``)."""
    gap = float(rng.choice((*synth.GAPS, 0.12)))
    flag = int(rng.integers(-1, len(synth.FLAGS))) if "1" in text else -1
    return synth._brand_glyph(text, font, mark, thick, gap, flag)


def sample(rng: np.random.Generator, brands: bool = False) -> tuple[np.ndarray, int]:
    """One rendered numeral mask (uint8, 255 on ink) and its class index (``brands``: see ``BRANDS``)."""
    fonts = synth._fonts()
    font = fonts[int(rng.integers(len(fonts)))]
    cls = int(rng.integers(len(numeral.GLYPHS)))
    text = numeral.GLYPHS[cls]
    mark = ""
    if text in ("6", "9"):
        mark = str(rng.choice(["dot", "bar", "", "dot", "bar"]))
    thick = int(rng.integers(1, 4))
    if brands and (len(text) == 2 or "1" in text or mark) and rng.random() < BRANDS:
        g = brand_glyph(rng, text, font, mark, thick)
    elif text == "1" and rng.random() < FLAGGED_ONE:
        g = flagged_one(rng, thick)
    else:
        g = synth._glyph(text, font, mark, thick)          # float (64, 64), upright, centred
    big = cv2.copyMakeBorder(g, 32, 32, 32, 32, cv2.BORDER_CONSTANT, value=0)
    turned = rng.random() < 0.4
    if turned:
        angle = float(rng.uniform(30, 330))
        if abs(angle - 180) < 30 and (text in SELF_UPSIDE_DOWN or (text in ("6", "9") and not mark)):
            cls = numeral.GLYPHS.index({"6": "9", "9": "6"}.get(text, text))
        else:
            cls = numeral.TURNED
    else:
        angle = float(rng.uniform(-10, 10))
    slant = rng.uniform(-0.2, 0.2)
    aspect = rng.uniform(0.8, 1.25)
    a = cv2.getRotationMatrix2D((64, 64), angle, 1.0)
    shear = np.array([[aspect, slant, -64 * slant - 64 * (aspect - 1)], [0, 1, 0], [0, 0, 1]])
    m = a @ shear
    big = cv2.warpAffine(big, m.astype(np.float32), (128, 128), flags=cv2.INTER_LINEAR)
    # the ink's size on the photo: 10 to 48 pixels along its longer side
    ys, xs = np.nonzero(big > 0.3)
    ext = max(xs.max() - xs.min(), ys.max() - ys.min()) + 1
    target = rng.uniform(10, 48)
    f = target / ext
    n = max(8, round(128 * f))
    small = cv2.resize(big, (n, n), interpolation=cv2.INTER_AREA)
    if rng.random() < 0.5:
        small = cv2.GaussianBlur(small, (0, 0), rng.uniform(0.3, 1.0))
    small = small + rng.normal(0, rng.uniform(0, 0.12), small.shape)
    mask = (small > rng.uniform(0.3, 0.65)).astype(np.uint8) * 255
    if rng.random() < 0.25:   # specks beside the numeral that segmentation may keep
        for _ in range(int(rng.integers(1, 3))):
            ys, xs = np.nonzero(mask)
            if len(xs) == 0:
                break
            cx = rng.uniform(xs.min() - 3, xs.max() + 3)
            cy = rng.uniform(ys.min() - 3, ys.max() + 3)
            cv2.circle(mask, (int(cx), int(cy)), int(rng.integers(0, 2)), 255, -1)
    if not mask.any():
        mask = (small > 0.2).astype(np.uint8) * 255
    return mask, cls


def turned_label(text: str, turn: float, marked: bool) -> int:
    """The class of numeral ``text`` turned by ``turn`` degrees from upright (see the module docstring)."""
    turn = turn % 360
    if min(turn, 360 - turn) < 30:
        return numeral.GLYPHS.index(text)
    if abs(turn - 180) < 30 and (text in SELF_UPSIDE_DOWN or (text in ("6", "9") and not marked)):
        return numeral.GLYPHS.index({"6": "9", "9": "6"}.get(text, text))
    return numeral.TURNED


def render_samples(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Features and classes of the numerals that the runtime segmentation cuts out of ``n`` renders."""
    feats, labels = [], []
    for _ in range(n):
        kind = str(rng.choice(RENDER_KINDS))
        r = synth.render(rng, size=int(rng.choice(RENDER_SIZES)), kind=kind)
        x, y, w, h = r.bbox
        glyph, digits, _ = numeral.find_numeral(r.image[y:y + h, x:x + w])
        if digits == 0:
            continue
        f = min(1.0, numeral.WORK / max(w, h))
        ys, xs = np.nonzero(glyph)
        at = np.array([(r.centre[0] - x) * f, (r.centre[1] - y) * f])
        if np.hypot(xs.mean() - at[0], ys.mean() - at[1]) > 0.12 * f * max(w, h):
            continue   # not the top face's numeral (or not only it)
        index = r.value // 10 if kind == "d100" else (r.value if kind == "d10" else r.value - 1)
        text = synth.face_text(kind, index)
        marked = text in ("6", "9") and kind not in ("d4", "d6")
        jitter = float(rng.uniform(-7.5, 7.5))
        turn = float(rng.uniform(30, 330))
        feats.append(numeral.glyph_features(glyph, np.array([r.angle + jitter, r.angle + turn])))
        labels += [numeral.GLYPHS.index(text), turned_label(text, turn, marked)]
    return np.concatenate(feats).astype(np.float32), np.asarray(labels, np.int64)


def train(x: np.ndarray, y: np.ndarray, rng: np.random.Generator, *, hidden: int, epochs: int,
          classes: int) -> dict[str, np.ndarray]:
    mean = x.mean(axis=0)
    std = x.std(axis=0) + 1e-3
    xs = (x - mean) / std
    w1 = rng.normal(0, np.sqrt(2 / xs.shape[1]), (xs.shape[1], hidden)).astype(np.float32)
    b1 = np.zeros(hidden, np.float32)
    w2 = rng.normal(0, np.sqrt(1 / hidden), (hidden, classes)).astype(np.float32)
    b2 = np.zeros(classes, np.float32)
    params = [w1, b1, w2, b2]
    m1 = [np.zeros_like(p) for p in params]
    m2 = [np.zeros_like(p) for p in params]
    step = 0
    batch = 256
    for epoch in range(epochs):
        lr = 2e-3 * (0.5 * (1 + np.cos(np.pi * epoch / epochs)))
        order = rng.permutation(len(xs))
        for s in range(0, len(xs), batch):
            idx = order[s:s + batch]
            xb, yb = xs[idx], y[idx]
            h = np.maximum(xb @ w1 + b1, 0)
            z = h @ w2 + b2
            z -= z.max(axis=1, keepdims=True)
            p = np.exp(z)
            p /= p.sum(axis=1, keepdims=True)
            d = p
            d[np.arange(len(yb)), yb] -= 1
            d /= len(yb)
            gw2 = h.T @ d + 1e-4 * w2
            gb2 = d.sum(axis=0)
            dh = (d @ w2.T) * (h > 0)
            gw1 = xb.T @ dh + 1e-4 * w1
            gb1 = dh.sum(axis=0)
            step += 1
            for i, g in enumerate((gw1, gb1, gw2, gb2)):
                m1[i] = 0.9 * m1[i] + 0.1 * g
                m2[i] = 0.999 * m2[i] + 0.001 * g * g
                mh = m1[i] / (1 - 0.9 ** step)
                vh = m2[i] / (1 - 0.999 ** step)
                params[i] -= (lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
        print(f"epoch {epoch + 1}/{epochs}", flush=True)
    return {"mean": mean.astype(np.float32), "std": std.astype(np.float32), "w1": params[0], "b1": params[1],
            "w2": params[2], "b2": params[3]}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--samples", type=int, default=80000)
    ap.add_argument("--renders", type=int, default=0, help="add glyphs cut out of this many renders (2b)")
    ap.add_argument("--cache", type=Path, help="keep the render samples' features in this .npz")
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--hidden", type=int, default=160)
    ap.add_argument("--out", type=Path, default=ROOT / "vision" / "poly" / "numerals.npz")
    ap.add_argument("--brands", action="store_true", help="draw some numerals as many brands print them "
                    "(BRANDS: close digits, the long-flagged 1 inside numbers, underlined and dotted 6/9)")
    args = ap.parse_args()
    t0 = time.time()
    rng = np.random.default_rng(SEED)
    feats, labels = [], []
    for _ in range(args.samples):
        mask, cls = sample(rng, args.brands)
        feats.append(numeral.glyph_features(mask, np.zeros(1))[0])
        labels.append(cls)
    x = np.asarray(feats, np.float32)
    y = np.asarray(labels, np.int64)
    if args.renders:
        if args.cache is not None and args.cache.exists():
            with np.load(args.cache) as z:
                rx, ry = z["x"], z["y"]
        else:
            rx, ry = render_samples(args.renders, np.random.default_rng(RENDER_SEED))
            if args.cache is not None:
                np.savez(args.cache, x=rx, y=ry)
        x, y = np.concatenate([x, rx]), np.concatenate([y, ry])
        order = np.random.default_rng(SEED + 2).permutation(len(x))
        x, y = x[order], y[order]
    cut = len(x) * 5 // 6
    model = train(x[:cut], y[:cut], np.random.default_rng(SEED + 1), hidden=args.hidden, epochs=args.epochs,
                  classes=len(numeral.GLYPHS) + 1)
    p = numeral.mlp_probabilities(x[cut:], model)
    held = float((p.argmax(axis=1) == y[cut:]).mean())
    fonts = [Path(f).name for f in synth._fonts()]
    info = {"seed": SEED, "samples": args.samples, "render_seed": RENDER_SEED, "renders": args.renders,
            "render_samples": int(len(x) - args.samples), "epochs": args.epochs, "hidden": args.hidden,
            "held_out_accuracy": round(held, 4), "fonts": fonts, "flagged_one": FLAGGED_ONE,
            "brands": BRANDS if args.brands else 0.0,
            "command": "python3 tools/build_numerals.py " + " ".join(sys.argv[1:]),
            "seconds": round(time.time() - t0)}
    np.savez_compressed(args.out, **model, info=np.array(json.dumps(info)))
    print(json.dumps(info, indent=1))


if __name__ == "__main__":
    main()
