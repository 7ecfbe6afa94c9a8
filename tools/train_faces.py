"""Train the Vision III face reader (torch, CPU) and export it to ONNX for ``vision.faces``.

    python3 tools/train_faces.py --out vision/models [--leave-out chase] [--minutes 8] [--seed 20261125]

Samples are 40x40 crops around labelled dice of every real source but the one left out (d6 values from
matteop65, chase, aws, nell-byler; "numeral" from burks and the Lurig set), crops of the same photos
away from every die ("none"), and renders (emblem faces, tokens, dice of random colours on random trays).
Each crop is taken at a random angle, 1.05-1.5 times the box's long side, centre jittered, with colour,
blur, noise and JPEG jitter. Classes are drawn equally often. One photo in ten of the training sources is
kept aside to fit the temperature that makes the softmax a calibrated confidence (never the left-out
source), stored in the model card.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from v3_data import (
    FAINT_SEED,
    FOLDERS,
    NONE,
    Sample,
    face_pool,
    load_source,
    lone_parts,
    numeral_d6_render,
    off_other_dice,
    pip3d_render,
    pip_transplant,
    poly_render,
    realcube_render,
    reboxed,
    render,
)
from v3_models import FaceNet, widen_faces
from v3_train import best_temperature, budgeted_steps, load_fused_onnx

from vision.faces import CLASSES, CROP, CROP_SCALE
from vision.windows import jitter

Item = tuple[Sample, float, float, float, int]   # sample, cx, cy, size, class


def items(samples: list[Sample], rng: np.random.Generator, specks: int = 0,
          parts: bool = False) -> list[Item]:
    """Labelled dice, and ``none`` crops: the tray away from every die at a die's size (and ``specks`` more
    at 0.2-0.6 of it: a fleck of granite or carpet, which the finder proposes at small scales), and half a
    die at a crop's edge. ``parts``: a render's pipped side faces boxed alone (``Sample.parts``), the box a
    finder that splits touching dice drew round an oblique die's side, whose pips the reader read as the
    die's value (sixtieth session; ``v3_data.lone_parts``)."""
    out: list[Item] = []
    for s in samples:
        sizes = [max(o[2], o[3]) for o in s.objects]
        for cx, cy, w, h, lab in s.objects:
            if lab >= 0:
                out.append((s, cx, cy, max(w, h), lab))
        out += [(s, cx, cy, size, NONE) for cx, cy, size in s.decoys]
        out += [(s, cx, cy, size, NONE) for cx, cy, size in (lone_parts(s) if parts else [])]
        if s.crop_only or (not sizes and s.source != "burks"):
            continue
        med = float(np.median(sizes)) if sizes else 150.0
        hh, ww = s.image.shape[:2]
        for k in range(3 + specks):   # tray away from every die
            sz = med * (rng.uniform(0.7, 1.4) if k < 3 else rng.uniform(0.2, 0.6))
            x, y = rng.uniform(0, ww), rng.uniform(0, hh)
            if all(math.hypot(x - o[0], y - o[1]) > 0.55 * (max(o[2], o[3]) + sz) for o in s.objects):
                out.append((s, x, y, sz, NONE))
        for o in s.objects[:4]:   # half a die at the crop's edge: not a die of its own
            ang = rng.uniform(0, 2 * math.pi)
            d = max(o[2], o[3]) * rng.uniform(0.75, 1.0)
            x, y = o[0] + d * math.cos(ang), o[1] + d * math.sin(ang)
            sz = max(o[2], o[3])
            if off_other_dice(s, x, y):
                out.append((s, x, y, sz, NONE))
    return out


def transplanted(what: str, lurig_d6: list[Sample], copies: int, rng: np.random.Generator,
                 weights: tuple[float, ...] | None, **kind: bool) -> list[Sample]:
    """``copies`` pip transplants of each Lurig d6 (``v3_data.pip_transplant``, ``kind``: faint, swirls), from
    ``rng`` alone, so each kind's draws leave the others' as they were."""
    out = [t for _ in range(copies) for s in lurig_d6
           if (t := pip_transplant(s, rng, weights, **kind)) is not None]
    if copies:
        print(what, len(out), "of", len(lurig_d6) * copies, flush=True)
    return out


def hard_negatives(samples: list[Sample], finder: str, rng: np.random.Generator) -> list[Item]:
    """What ``finder`` finds in the photos that is no labelled die (a screw hole, a carpet fleck, a
    printed mark): ``none`` crops at the finder's own box, the mistakes the face reader must catch."""
    from vision.finder import find_objects

    out: list[Item] = []
    for s in samples:
        if s.crop_only or s.source in ("lurig", "render", "polyrender"):
            continue
        for f in find_objects(s.image, model=finder, score=0.1)[:60]:
            if all(math.hypot(f.cx - o[0], f.cy - o[1]) > 0.5 * max(o[2], o[3], f.side) for o in s.objects):
                out.append((s, f.cx, f.cy, f.side, NONE))
    return out


#: with ``--upright DEG`` (a study, seventieth session): crops turned at most DEG degrees either way, so the
#: reader can learn that a photo's top face lies above its front face; 180 turns them at any angle
UPRIGHT = 180.0


def front_view(s: Sample) -> Sample:
    """``s`` upside down: a ``pip3d_render`` tray's dice with their tops above their front faces."""
    h = s.image.shape[0]
    return replace(s, image=np.ascontiguousarray(s.image[::-1]),
                   objects=[(cx, h - cy, w, bh, label) for cx, cy, w, bh, label in s.objects])


def crop(it: Item, rng: np.random.Generator | None, k: float = CROP_SCALE, colour: float = 0.0,
         harsh: float = 0.0, size: int = CROP) -> np.ndarray:
    s, cx, cy, die, _ = it
    ang = 0.0
    if rng is not None:
        k = rng.uniform(1.05, 1.5)
        ang = rng.uniform(0, 360) if UPRIGHT >= 180 else rng.uniform(-UPRIGHT, UPRIGHT)
        cx += rng.normal(0, 0.06) * die
        cy += rng.normal(0, 0.06) * die
    f = size / (k * die)
    m = cv2.getRotationMatrix2D((cx, cy), ang, f)
    m[:, 2] += (size / 2 - cx, size / 2 - cy)
    img = cv2.warpAffine(s.image, m, (size, size), flags=cv2.INTER_AREA if f < 1 else cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_REPLICATE)
    if rng is not None:
        if rng.random() < 0.5:
            img = np.ascontiguousarray(img[:, ::-1])   # a mirrored pip layout is the same face
        img = jitter(img, rng, colour, harsh)
    return img


def to_tensor(imgs: list[np.ndarray]) -> torch.Tensor:
    return torch.from_numpy(np.stack([i.transpose(2, 0, 1) for i in imgs])).float() / 255


def mixstyle_hooks(model: FaceNet, p: float, gen: torch.Generator, alpha: float = 0.1) -> list[Any]:
    """MixStyle (Zhou et al., ICLR 2021), training only: with probability ``p`` a batch's features after
    the reader's first two stages (its first two poolings) keep their content but take each channel's mean
    and spread mixed with another crop's of the batch (weights drawn from Beta(``alpha``, ``alpha``)), so
    that the reader learns to read a die whatever the light, cloth and camera make of those statistics
    (a table's shift that the fifty-sixth session's AdaBN study measured). In eval mode, and so in the
    exported graph, it does nothing. Returns the hooks (remove them before export)."""
    beta = torch.distributions.Beta(alpha, alpha)

    def mix(module: torch.nn.Module, _inputs: Any, x: torch.Tensor) -> torch.Tensor | None:
        if not module.training or x.shape[0] < 2 or float(torch.rand(1, generator=gen)) >= p:
            return None
        mu = x.mean((2, 3), keepdim=True).detach()
        sig = (x.var((2, 3), keepdim=True) + 1e-6).sqrt().detach()
        lam = beta.sample((x.shape[0], 1, 1, 1))
        perm = torch.randperm(x.shape[0], generator=gen)
        return (x - mu) / sig * (lam * sig + (1 - lam) * sig[perm]) + lam * mu + (1 - lam) * mu[perm]

    pools = [m for m in model.f if isinstance(m, torch.nn.MaxPool2d)][:2]
    return [m.register_forward_hook(mix) for m in pools]


def randconv(x: torch.Tensor, p: float, gen: torch.Generator, sizes: tuple[int, ...] = (1, 3, 5, 7)
             ) -> torch.Tensor:
    """RandConv (Xu et al., ICLR 2021), training only: with probability ``p`` a crop of the batch ``x``
    (N, 3, H, W in 0..1) is passed through a random convolution (a side drawn from ``sizes``, weights
    N(0, 1 / (3 k^2)): a random colour mix at 1, a random filter of the crop's texture above), standardised
    and given the crop's own mean and spread per channel, and mixed with the crop at a weight drawn from
    U(0, 1) (the paper's "mix" variant). What a filter keeps of a die is its shapes, the pips' layout, and
    it keeps no table's colours or texture, which is the shift between tables that forty sessions of rules
    could not close. The exported graph is unchanged."""
    picked = torch.nonzero(torch.rand(x.shape[0], generator=gen) < p).flatten().tolist()
    if not picked:
        return x
    out = x.clone()
    for i in picked:
        k = sizes[int(torch.randint(len(sizes), (1,), generator=gen))]
        w = torch.randn(3, 3, k, k, generator=gen) / math.sqrt(3 * k * k)
        y = F.conv2d(x[i: i + 1], w, padding=k // 2)[0]
        mu, sig = x[i].mean((1, 2), keepdim=True), x[i].std((1, 2), keepdim=True)
        y = (y - y.mean((1, 2), keepdim=True)) / (y.std((1, 2), keepdim=True) + 1e-6) * sig + mu
        a = float(torch.rand(1, generator=gen))
        out[i] = (a * x[i] + (1 - a) * y).clamp(0.0, 1.0)
    return out


class Export(torch.nn.Module):
    """A face reader as exported: ``FaceNet``'s forward only (no training prototypes)."""

    def __init__(self, m: FaceNet) -> None:
        super().__init__()
        self.m = m

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return FaceNet.forward(self.m, x)


def export(model: FaceNet, side: int, path: Path) -> None:
    """Write ``model`` (eval mode) to ``path`` as the product reads it: ONNX opset 17, ``dynamo=False``, a
    batch of ``side`` px crops in."""
    torch.onnx.export(Export(model), torch.zeros(1, 3, side, side), str(path), opset_version=17, dynamo=False,
                      input_names=["crops"], output_names=["out"],
                      dynamic_axes={"crops": {0: "n"}, "out": {0: "n"}})


class Net(FaceNet):
    def __init__(self, w: tuple[int, ...] = (16, 32, 64, 128)) -> None:
        super().__init__(len(CLASSES), w=w)
        self.proto = torch.nn.Parameter(torch.randn(len(CLASSES), 64))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--leave-out", default="")
    ap.add_argument("--minutes", type=float, default=8)
    ap.add_argument("--seed", type=int, default=20261125)
    ap.add_argument("--renders", type=int, default=800)
    ap.add_argument("--poly-renders", type=int, default=0,
                    help="trays of polyhedral dice (v3_data.poly_render, vision.poly.synth) as numeral crops")
    ap.add_argument("--pip3d", type=int, default=0,
                    help="trays of pip d6s drawn in 3D, seen 0-60 degrees off the vertical "
                         "(v3_data.pip3d_render): side faces with pips beside the top, each die of its top's "
                         "class")
    ap.add_argument("--realcube", type=int, default=0,
                    help="this many trays of pip d6s built as cubes dressed in the training photos' real "
                         "top faces, seen up to 65 degrees off the vertical (v3_data.realcube_render)")
    ap.add_argument("--pip3d-front", action="store_true",
                    help="--pip3d trays turned upside down, so each die's top lies above its front face as a "
                         "camera in front of the table sees it (the renderer's tilt puts the top below: a "
                         "study for --upright, seventy-first session)")
    ap.add_argument("--pip3d-top", action="store_true",
                    help="--pip3d dice boxed at their top face's centre (the silhouette's size), so a crop "
                         "of an oblique die has its top at the centre, as the top reading reads it "
                         "(seventy-third session)")
    ap.add_argument("--numeral-d6", type=int, default=0,
                    help="trays of numeral d6s only (v3_data.numeral_d6_render) as numeral crops, besides "
                         "--poly-renders")
    ap.add_argument("--numeral-d6-dice-only", action="store_true",
                    help="the --numeral-d6 trays give only their dice: no 'none' crops of the rendered "
                         "tray and no hard negatives (thirtieth session: with them the faces2 stage had 8 "
                         "phantoms more on aws left out than its control)")
    ap.add_argument("--faint", type=int, default=0,
                    help="trays whose dice's pips differ from the body more in hue than in light (red on "
                         "black: v3_data.render(faint=True)), besides --renders")
    ap.add_argument("--plain-emblems", action="store_true",
                    help="the renders' emblems never use a letter drawn like a digit (v3_data.UNLIKE_DIGITS)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--patterned", action="store_true", help="renders with marbled, speckled and translucent "
                    "bodies and drilled pips (v3_data.render)")
    ap.add_argument("--sides", action="store_true", help="renders seen by a tilted camera more often and "
                    "more steeply, the pip dice's side faces with pips and boxed whole (v3_data.render)")
    ap.add_argument("--ringed", action="store_true",
                    help="half the rendered 1s with a ring round their pip (v3_data.render(ringed=True))")
    ap.add_argument("--rims", action="store_true",
                    help="a third of the renders get bars of a tray's rim with a dark screw hole near an "
                         "end (v3_data.render(rims=True)), each hole boxed with the bar's end round it as a "
                         "'none' crop, as train_finder.py --rims draws them for the finder")
    ap.add_argument("--side-parts", action="store_true",
                    help="with --sides: each rendered die's pipped side faces, boxed alone, as 'none' crops "
                         "(train_faces.items)")
    ap.add_argument("--decoys", action="store_true", help="renders with die-sized round things that are no "
                    "die (wells, coins, holes, rings: v3_data.render) as 'none' crops")
    ap.add_argument("--printed", action="store_true", help="renders with keys, labels and bits of print that "
                    "are no die (v3_data.render(printed=True)) as 'none' crops")
    ap.add_argument("--dotted", action="store_true", help="half the renders on polka-dot cloths whose dots "
                    "are pips in size and spacing or up to a die apart (v3_data.render(dotted=True)): their "
                    "dots, found or not, as 'none' crops")
    ap.add_argument("--transplant", type=int, default=0, help="pip d6s made of this many copies of each "
                    "Lurig numeral d6 of the training photos, its numeral erased and pips painted "
                    "(v3_data.pip_transplant: real marbled bodies with pips)")
    ap.add_argument("--transplant-weights", default="", help="how often each pip value 1..6 is painted on a "
                    "transplant, six numbers (e.g. 2,1,2,1,1,1: the lone-pip faces twice as often)")
    ap.add_argument("--transplant-faint", type=int, default=0, help="more pip transplants, this many copies "
                    "of each Lurig numeral d6, their pips faint: differing from the body more in hue than in "
                    "light (v3_data.pip_transplant(faint=True), from a generator of their own)")
    ap.add_argument("--transplant-swirl", type=int, default=0, help="more pip transplants, this many copies "
                    "of each Lurig numeral d6, light swirl veins drawn across the body under the pips "
                    "(v3_data.pip_transplant(swirls=True), from a generator of their own)")
    ap.add_argument("--transplant-casino", type=int, default=0, help="more pip transplants, this many copies "
                    "of each Lurig d6, with print around the pips as casino dice carry it: a ring of letters "
                    "around a big 1, a serial number between other pips "
                    "(v3_data.pip_transplant(casino=True), from a generator of their own)")
    ap.add_argument("--transplant-logo", type=int, default=0, help="more pip transplants, this many copies "
                    "of each Lurig d6, each a 2, 4 or 6 with a maker's mark in its middle, where a casino "
                    "die prints its logo (v3_data.pip_transplant(logo=True), from a generator of their own)")
    ap.add_argument("--specks", type=int, default=0, help="none crops of the tray at 0.2-0.6 of a die's size "
                    "per photo, besides the three at a die's size")
    ap.add_argument("--colour", type=float, default=0.0, help="share of crops recoloured (hue turned "
                    "anywhere, channels swapped, grey, or light and dark swapped)")
    ap.add_argument("--camera", type=float, default=0.0, help="share of crops seen by a harsh camera "
                    "(dim and noisy, out of focus, or JPEG 12-35: vision.windows.camera)")
    ap.add_argument("--camera-dice-only", action="store_true", help="--camera spares the 'none' "
                    "crops (with them the reader found nell's tray wells blurred as dice: docs/vision.md)")
    ap.add_argument("--widths", default="", help="with --resume X.onnx: grow the reader to these widths "
                    "(e.g. 24,48,96,160) computing what it computed (v3_models.widen_faces), then train; "
                    "with --resume X.pt: the widths that reader was grown to")
    ap.add_argument("--crop", type=int, default=CROP, help="the side (px) of the square read (default "
                    f"{CROP}); a reader resumed from another side's weights reads this one (it is fully "
                    "convolutional); its card must then say \"crop\" (vision.faces.crop_side)")
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--hard", default="", help="a finder .onnx whose false finds in the training photos "
                                               "become 'none' crops (hard negatives)")
    ap.add_argument("--resume", type=Path, default=None, help="continue from these weights (.pt, or the "
                    ".onnx export when the .pt is lost: v3_train.load_fused_onnx)")
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--mixstyle", type=float, default=0.0, metavar="P",
                    help="mix the feature statistics of the batch's crops after the first two stages with "
                         "probability P (mixstyle_hooks; training only, the export is unchanged)")
    ap.add_argument("--randconv", type=float, default=0.0, metavar="P",
                    help="pass each crop through a random convolution with probability P (randconv; training "
                         "only, the export is unchanged)")
    ap.add_argument("--tag", default="", help="file name stem (default faces or faces-no-SOURCE)")
    ap.add_argument("--reboxed", action="append", default=[], metavar="SOURCE=FILE",
                    help="a diagnostic: SOURCE's dice cropped from the boxes in FILE (tools/rebox.py: as a "
                         "camera boxes them), values kept")
    ap.add_argument("--upright", type=float, default=180.0,
                    help="turn the training crops at most this many degrees either way (a study: the "
                         "product reads at four quarter turns; a reader trained upright is read at one)")
    args = ap.parse_args()
    global UPRIGHT
    UPRIGHT = args.upright
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    train: list[Sample] = []
    val: list[Sample] = []
    for src in FOLDERS:
        if src == args.leave_out:
            continue
        for i, s in enumerate(load_source(src)):
            (val if i % 10 == 0 else train).append(s)
    reboxed(train + val, args.reboxed)
    renders = [render(args.seed * 10_000 + 7 + i, patterned=args.patterned, decoys=args.decoys,
                      sides=args.sides, plain_emblems=args.plain_emblems, printed=args.printed,
                      dotted=args.dotted, ringed=args.ringed, rims=args.rims)
               for i in range(args.renders)]
    train += renders[: args.renders * 9 // 10]
    val += renders[args.renders * 9 // 10:]
    trng = np.random.default_rng([args.seed, 2])   # its own draws: the other samples stay as they were
    lurig_d6 = [s for s in train if s.source == "lurig" and "/d6/" in s.name]
    weights = tuple(float(v) for v in args.transplant_weights.split(",")) if args.transplant_weights else None
    if weights is not None and (len(weights) != 6 or min(weights) < 0 or sum(weights) <= 0):
        ap.error("--transplant-weights takes six numbers, none negative, not all zero")
    train += transplanted("pip transplants", lurig_d6, args.transplant, trng, weights)
    train += transplanted("faint pip transplants", lurig_d6, args.transplant_faint,
                          np.random.default_rng([args.seed, 4]), weights, faint=True)
    train += transplanted("veined pip transplants", lurig_d6, args.transplant_swirl,
                          np.random.default_rng([args.seed, 5]), weights, swirls=True)
    train += transplanted("casino pip transplants", lurig_d6, args.transplant_casino,
                          np.random.default_rng([args.seed, 6]), weights, casino=True)
    train += transplanted("logo pip transplants", lurig_d6, args.transplant_logo,
                          np.random.default_rng([args.seed, 9]), (0.0, 1.0, 0.0, 1.0, 0.0, 1.0), logo=True)
    polys = [poly_render(i) for i in range(args.poly_renders)]
    train += polys[: args.poly_renders * 9 // 10]
    val += polys[args.poly_renders * 9 // 10:]
    faint = [render(FAINT_SEED * 10_000 + i, faint=True, plain_emblems=args.plain_emblems)
             for i in range(args.faint)]
    train += faint[: args.faint * 9 // 10]
    val += faint[args.faint * 9 // 10:]
    numeral_d6 = [numeral_d6_render(i) for i in range(args.numeral_d6)]
    for s in numeral_d6 if args.numeral_d6_dice_only else []:
        s.crop_only = True    # ``items`` and ``hard_negatives`` take only the dice of a crop-only sample
    train += numeral_d6[: args.numeral_d6 * 9 // 10]
    val += numeral_d6[args.numeral_d6 * 9 // 10:]
    pip3d = [pip3d_render(i, top=args.pip3d_top) for i in range(args.pip3d)]
    if args.pip3d_front:
        pip3d = [front_view(s) for s in pip3d]
    train += pip3d[: args.pip3d * 9 // 10]
    val += pip3d[args.pip3d * 9 // 10:]
    if args.realcube:
        pool = face_pool(train)
        cubes = [c for c in (realcube_render(i, pool) for i in range(args.realcube)) if c is not None]
        print("real-faced cubes", len(cubes), "trays from", pool.sources(), flush=True)
        train += cubes[: len(cubes) * 9 // 10]
        val += cubes[len(cubes) * 9 // 10:]
    if args.side_parts and not args.sides:
        ap.error("--side-parts takes the side faces of --sides renders")
    tr = items(train, rng, args.specks, args.side_parts)
    if args.hard:
        hard = hard_negatives(train, args.hard, rng)
        print("hard negatives", len(hard), flush=True)
        tr += hard
    va = items(val, np.random.default_rng(1), parts=args.side_parts)
    by_class: dict[int, list[Item]] = {}
    for it in tr:
        by_class.setdefault(it[4], []).append(it)
    print({CLASSES[k]: len(v) for k, v in sorted(by_class.items())}, "val", len(va), flush=True)
    classes = sorted(by_class)
    model = Net()
    widths = tuple(int(v) for v in args.widths.split(",")) if args.widths else ()
    if args.resume is not None and args.resume.suffix == ".onnx":
        calib = [by_class[k][int(rng.integers(len(by_class[k])))] for k in classes for _ in range(48)]
        x = to_tensor([crop(it, rng, colour=args.colour, size=args.crop) for it in calib])
        print("resumed from", args.resume, "largest difference from the ONNX graph",
              load_fused_onnx(model, str(args.resume), x), flush=True)
        with torch.no_grad():   # the training-only prototypes: each class's mean embedding
            emb = model(x)[:, len(CLASSES):]
            y = torch.tensor([it[4] for it in calib])
            for k in classes:
                model.proto[k] = emb[y == k].mean(0)
        if widths:
            wide = widen_faces(model, Net(widths))
            model.eval()
            wide.eval()
            with torch.no_grad():
                moved = float((model(x) - wide(x)).abs().max())
            sizes = [sum(p.numel() for p in m.parameters()) for m in (wide, model)]
            print("widened to", args.widths, "largest difference", moved, "weights", sizes[0],
                  "were", sizes[1], flush=True)
            model = wide
        model.train()
    elif args.resume is not None:
        if widths:   # a grown reader's own weights (.pt): built at its widths
            model = Net(widths)
        model.load_state_dict(torch.load(args.resume))
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    mixing = mixstyle_hooks(model, args.mixstyle, torch.Generator().manual_seed(args.seed)) \
        if args.mixstyle > 0 else []
    randconv_draws = torch.Generator().manual_seed(args.seed + 1)   # randconv's own generator
    args.out.mkdir(parents=True, exist_ok=True)
    tag = args.tag or f"faces{'-no-' + args.leave_out if args.leave_out else ''}"
    t0 = time.time()
    losses: list[float] = []
    for step, elapsed in budgeted_steps(opt, args.minutes, args.lr):
        batch = []
        for _ in range(args.batch):
            pool = by_class[classes[int(rng.integers(len(classes)))]]
            batch.append(pool[int(rng.integers(len(pool)))])
        x = to_tensor([crop(it, rng, colour=args.colour,
                            harsh=0.0 if args.camera_dice_only and it[4] == NONE else args.camera,
                            size=args.crop)
                       for it in batch])
        if args.randconv > 0:
            x = randconv(x, args.randconv, randconv_draws)
        y = torch.tensor([it[4] for it in batch])
        out = model(x)
        logits, emb = out[:, : len(CLASSES)], out[:, len(CLASSES):]
        cos = emb @ F.normalize(model.proto, dim=1).T * 16
        loss = F.cross_entropy(logits, y, label_smoothing=0.05) + 0.5 * F.cross_entropy(cos, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
        if (step + 1) % 100 == 0:
            print(f"{tag} step {step + 1} {elapsed:.0f}s loss {np.mean(losses[-100:]):.3f}", flush=True)
        if (step + 1) % 2000 == 0:   # a checkpoint: a cut-off session keeps what was trained
            torch.save(model.state_dict(), args.out / f"{tag}.ckpt.pt")
    for h in mixing:
        h.remove()
    model.eval()
    # temperature on the kept-aside photos of the training sources (quarter-turn averaged, as read)
    with torch.no_grad():
        vx = [crop(it, None, size=args.crop) for it in va]
        logit_sum = torch.zeros(len(vx), len(CLASSES))
        for k in range(4 if UPRIGHT >= 180 else 1):   # an upright reader is read at one turn
            turned = [np.ascontiguousarray(np.rot90(v, k)) for v in vx]
            logit_sum += torch.cat([model(to_tensor(turned[i:i + 256]))[:, : len(CLASSES)]
                                    for i in range(0, len(turned), 256)])
        logits = logit_sum / 4
        vy = torch.tensor([it[4] for it in va])
        best = best_temperature(logits, vy)
        acc = (logits.argmax(1) == vy).float().mean().item()
    torch.save(model.state_dict(), args.out / f"{tag}.pt")

    export(model, args.crop, args.out / f"{tag}.onnx")
    (args.out / f"{tag}.train.json").write_text(json.dumps({
        "command": "python3 tools/train_faces.py " + " ".join(sys.argv[1:]), "seed": args.seed,
        "steps": len(losses),
        **({"crop": args.crop} if args.crop != CROP else {}),
        **({"mixstyle": args.mixstyle} if args.mixstyle > 0 else {}),
        **({"randconv": args.randconv} if args.randconv > 0 else {}),
        "batch": args.batch, "minutes": round((time.time() - t0) / 60, 1), "left_out": args.leave_out,
        "temperature": round(best[0], 3), "val_accuracy": round(acc, 4), "val_crops": len(va),
        "train_crops": {CLASSES[k]: len(v) for k, v in sorted(by_class.items())}, "torch": torch.__version__},
        indent=1))
    print("done", tag, len(losses), "T", best, "val acc", acc, flush=True)


if __name__ == "__main__":
    main()
