"""Train the Vision IV die-type reader (torch, CPU) and export it to ONNX for ``vision.types``.

    python3 tools/train_types.py --out /work/v3runs [--hold-out wood|color|other|burks] [--minutes 8]

It reads a die's type (``vision.types.TYPES``: d4, d6, d8, d10, d12, d20) from a square crop around the
box the finder gives, as ``vision.types`` cuts it. Training crops come from

- the Lurig set (2000 real photos of one die each, type only; its box is segmented from the tray,
  ``tools/v3_data._segment_one``),
- burks (87 photos of one die on a black tray, boxed the same way),
- renders of ``vision.poly.synth`` (every type, a tetrahedral and a barrel d4, percentile d10s as d10s),

drawn 45%, 15% and 40% of the time, and within each source every type equally often. ``--none SHARE``
(fifty-ninth session) adds a seventh class, "none" (``NONE``): printed things that are no die, the keys,
labels and print of ``v3_data._draw_printed``, drawn that share of the time, and the dice of the same trays as
often (``none_items``). A printed label the face reader calls a numeral reaches this reader, which without the
class had to give it a die's type (matteop65's cable tag "C12.0", typed a d4 on 56 of its 396 photos).
Crops are cut at a random context (1.2 .. 2 times the box), turned to any angle, flipped, shrunk to
14 .. 64 px and back, with any hue, channel order, grey or inverted (each Lurig video is one die of one
colour: colour must not tell the type), and colour, blur, noise and JPEG jitter.

Held-out folds (``--hold-out``): Lurig's photos are frames of a few videos per type, so folds hold out
whole videos, grouped by what they show (``vision.data.lurig_fold``): ``wood`` (every type's video on a
wooden table), ``color`` (the colour videos), ``other`` (top, off-angle, 45-degree and the plain d4
video), and ``burks`` (all of burks). The held-out part is never seen; ``benchmarks/poly_eval.py --types``
measures each on it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from v3_data import Sample, _draw_printed, _iou, _scatter, _texture, load_source
from v3_models import cbr
from v3_train import best_temperature, budgeted_steps, load_fused_onnx

from vision.data import LURIG_FOLDS, lurig_fold
from vision.finder import find_objects
from vision.poly import synth
from vision.types import CROP, CROP_SCALE, TYPES
from vision.windows import jitter

STORE = 128          # stored crops: STORE x STORE around the box, STORE_CONTEXT times its long side
STORE_CONTEXT = 2.0
RENDER_KIND = {"d4": "d4", "d4t": "d4", "d6": "d6", "d8": "d8", "d10": "d10", "d100": "d10", "d12": "d12",
               "d20": "d20"}
FOLDS = (*LURIG_FOLDS, "burks")
#: the finder's box is the crop's when it overlaps the segmented die at least this much (IoU; the finder
#: boxes a die at about 0.85 of its outline, IoU about 0.7)
FINDER_AGREES = 0.3
#: the class ``--none`` adds after ``TYPES``: an object that is no die (``vision.types.NONE``)
NONE = "none"
#: seed of the trays ``none_items`` draws (tray i from ``(NONE_SEED, i)``; no other training draws it)
NONE_SEED = 20265900


def fold_of(source: str, name: str) -> str:
    return "burks" if source == "burks" else lurig_fold(name)


class TypeNet(nn.Module):
    """A small CNN over 64x64 crops: logits over ``TYPES``."""

    def __init__(self, n: int = len(TYPES)) -> None:
        super().__init__()
        self.f = nn.Sequential(
            cbr(3, 16, 3, 2), cbr(16, 24), nn.MaxPool2d(2),     # 16
            cbr(24, 48), cbr(48, 48), nn.MaxPool2d(2),          # 8
            cbr(48, 96), cbr(96, 96), nn.MaxPool2d(2),          # 4
            cbr(96, 160),
        )
        self.cls = nn.Linear(160, n)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.cls(self.f(x).mean((2, 3)))


def stored(image: np.ndarray, cx: float, cy: float, side: float) -> np.ndarray:
    k = STORE / (STORE_CONTEXT * side)
    m = np.array([[k, 0, STORE / 2 - cx * k], [0, k, STORE / 2 - cy * k]], np.float32)
    return cv2.warpAffine(image, m, (STORE, STORE), flags=cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


Item = tuple[np.ndarray, int, str, str]   # stored crop, type index, source, fold


def finder_box(image: np.ndarray) -> tuple[float, float, float, float] | None:
    """The one die of a single-die photo as the shipped finder sees it: the strongest object, weighted to the
    centre; None when it finds nothing."""
    h, w = image.shape[:2]
    best, score = None, 0.0
    for f in find_objects(image):
        near = 1.0 / (1.0 + (np.hypot(f.cx - w / 2, f.cy - h / 2) / (0.25 * max(w, h))) ** 2)
        if f.score * near > score:
            best, score = (f.cx, f.cy, f.side, f.side), f.score * near
    return best


def real_items(source: str) -> list[Item]:
    """Stored crops of a single-die source. The box is the shipped finder's (the crop the product reads)
    where it overlaps the segmented die (``v3_data``: on Lurig's wooden table the finder's strongest object
    can be a numeral or the grain), else the segmented one; photos with no segmented die are left out."""
    out: list[Item] = []
    for s in load_source(source):
        if not s.objects:
            continue
        cx, cy, w, h, _ = s.objects[0]
        found = finder_box(s.image)
        if found is not None and _iou(found, (cx, cy, w, h)) > FINDER_AGREES:
            cx, cy, w, h = found
        kind = type_of(s)
        if kind is None:
            continue
        out.append((stored(s.image, cx, cy, max(w, h)), TYPES.index(kind), source, fold_of(source, s.name)))
    return out


def type_of(s: Sample) -> str | None:
    name = Path(s.name).name.lower()
    for kind in sorted(TYPES, key=len, reverse=True):
        if name.startswith(kind):
            return kind
    return None


#: the camera's angle from straight above (degrees) of an ``--oblique`` render: Lurig's "off-angle" and
#: "45-degree" videos and a phone held off the vertical see a die's side faces
OBLIQUE_TILT = (15.0, 50.0)


def render_items(n: int, seed: int, brands: float = 0.0, oblique: float = 0.0) -> list[Item]:
    """``n`` renders of every kind in turn; a share ``brands`` of them in the "brands" profile (speckled,
    marbled and translucent bodies, inks and fonts of many makers), the rest in "table"; a share
    ``oblique`` of them seen from a camera ``OBLIQUE_TILT`` degrees off the vertical."""
    rng = np.random.default_rng(seed)
    out: list[Item] = []
    kinds = sorted(RENDER_KIND)
    for i in range(n):
        # no draw when brands (or oblique) is 0: the renders of the recipes before the option stay the same
        profile = "brands" if brands > 0 and rng.random() < brands else "table"
        tilt = float(rng.uniform(*OBLIQUE_TILT)) if oblique > 0 and rng.random() < oblique else 0.0
        r = synth.render(rng, size=STORE, kind=kinds[i % len(kinds)], profile=profile, tilt=tilt)
        x, y, w, h = r.bbox
        kind = TYPES.index(RENDER_KIND[r.kind])
        out.append((stored(r.image, x + w / 2, y + h / 2, max(w, h)), kind, "render", "render"))
    return out


def none_items(n: int) -> tuple[list[Item], list[Item]]:
    """Up to ``n`` stored crops of printed things that are no die (class ``NONE``: the keys, labels and print
    of ``v3_data._draw_printed``), and the crops of the dice of the same frames with their types: one to
    three dice of ``vision.poly.synth`` ("table" or "brands") and up to four printed things on a tray of 512 x
    384, plain (synth's) or, one in two, textured (``v3_data._texture``: wood, felt, granite, mesh, carpet,
    printed boards, ...). The dice of the same trays keep the tray from telling the class: printed things
    drawn on textured trays alone taught the first reader (fifty-ninth session) that Lurig's wooden table
    was no die (33 of its 822 photos' dice, held out). Frames are drawn from ``NONE_SEED``, at most
    ``20 * n``."""
    from vision.poly import synth

    nones: list[Item] = []
    dice: list[Item] = []
    kinds = sorted(RENDER_KIND)
    for i in range(20 * n):
        if len(nones) >= n:
            break
        rng = np.random.default_rng([NONE_SEED, i])
        h, w = 384, 512
        tray = (_texture(rng, h, w, natural=True).astype(np.float32) / 255 if i % 2
                else synth._background(rng, w)[:h, :w].astype(np.float32))
        frame = (tray * 255).astype(np.float32)
        profile = "brands" if rng.random() < 0.5 else "table"
        placed: list[tuple[float, float, float]] = []
        boxed: list[tuple[tuple[float, float, float], int]] = []   # each die's (cx, cy, side) and type
        for _ in range(int(rng.integers(1, 4))):
            size = int(rng.integers(56, 150))
            x, y = int(rng.integers(0, w - size)), int(rng.integers(0, h - size))
            if any(abs(x + size / 2 - px) < (size + ps) / 2 and abs(y + size / 2 - py) < (size + ps) / 2
                   for px, py, ps in placed):
                continue
            r = synth.render(rng, size=size, profile=profile, tray=tray[y:y + size, x:x + size],
                             kind=kinds[int(rng.integers(len(kinds)))])
            keep = cv2.GaussianBlur(cv2.dilate(r.mask, np.ones((5, 5), np.uint8)), (0, 0), 2
                                    ).astype(np.float32)[..., None] / 255
            frame[y:y + size, x:x + size] = frame[y:y + size, x:x + size] * (1 - keep) + r.image * keep
            bx, by, bw, bh = r.bbox
            placed.append((x + size / 2, y + size / 2, float(size)))
            boxed.append(((x + bx + bw / 2, y + by + bh / 2, float(max(bw, bh))),
                          TYPES.index(RENDER_KIND[r.kind])))
        fakes: list[tuple[float, float, float]] = []
        die = float(np.median([b[0][2] for b in boxed])) if boxed else 80.0
        _scatter(frame, rng, _draw_printed, int(rng.integers(1, 4)) * 3, 4, die, placed, fakes)
        if rng.random() < 0.5:
            frame = cv2.GaussianBlur(frame, (0, 0), float(rng.uniform(0.3, 1.2)))
        frame += rng.normal(0, rng.uniform(0, 6), frame.shape).astype(np.float32)
        image = cv2.imdecode(cv2.imencode(".jpg", np.clip(frame, 0, 255).astype(np.uint8),
                                          [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(50, 95))])[1],
                             cv2.IMREAD_COLOR)
        dice += [(stored(image, *box), k, "none-trays", "render") for box, k in boxed]
        for cx, cy, side in fakes[:n - len(nones)]:
            nones.append((stored(image, cx, cy, side), len(TYPES), "none", "render"))
    return nones, dice


def resumed(path: Path, classes: int, calibration: torch.Tensor | None) -> TypeNet:
    """The weights of ``path`` (.pt, or the .onnx export: ``v3_train.load_fused_onnx``, whose BatchNorms are
    set on ``calibration``, training crops) in a ``TypeNet`` of
    ``classes`` outputs. A reader of fewer classes (the six types, resumed with ``--none``) keeps its own
    outputs; each class it lacks starts at a weight of zero and a bias under every type's, so the resumed
    reader reads as before until training moves it."""
    if path.suffix == ".onnx":
        import onnx
        from onnx import numpy_helper
        had = {i.name: numpy_helper.to_array(i) for i in onnx.load(str(path)).graph.initializer}
        n = int(had["cls.bias"].shape[0])
    else:
        state = torch.load(path)
        n = int(state["cls.bias"].shape[0])
    base = TypeNet(n)
    if path.suffix == ".onnx":
        if calibration is None:
            raise ValueError(f"{path}: resuming from an ONNX export needs calibration crops")
        print("resumed from", path, "largest difference from the ONNX graph",
              load_fused_onnx(base, str(path), calibration), flush=True)
    else:
        base.load_state_dict(state)
    if n == classes:
        return base
    if n > classes:
        raise ValueError(f"{path} reads {n} classes, more than the {classes} trained")
    model = TypeNet(classes)
    model.f.load_state_dict(base.f.state_dict())
    with torch.no_grad():
        model.cls.weight.zero_()
        model.cls.weight[:n] = base.cls.weight
        model.cls.bias[:] = base.cls.bias.min() - 2.0
        model.cls.bias[:n] = base.cls.bias
    return model


def augment(item: Item, rng: np.random.Generator) -> np.ndarray:
    img = item[0]
    box = STORE / STORE_CONTEXT
    side = box * rng.uniform(1.2, 2.0)
    c = STORE / 2 + rng.uniform(-0.08, 0.08, 2) * box
    m = cv2.getRotationMatrix2D((float(c[0]), float(c[1])), float(rng.uniform(0, 360)), CROP / side)
    m[:, 2] += np.array([CROP / 2, CROP / 2]) - np.array([c[0], c[1]])
    out = cv2.warpAffine(img, m.astype(np.float32), (CROP, CROP), flags=cv2.INTER_AREA,
                         borderMode=cv2.BORDER_REPLICATE)
    if rng.random() < 0.5:
        out = out[:, ::-1]
    if rng.random() < 0.5:
        small = int(rng.integers(14, CROP))
        out = cv2.resize(cv2.resize(out, (small, small), interpolation=cv2.INTER_AREA), (CROP, CROP),
                         interpolation=cv2.INTER_LINEAR)
    out = np.ascontiguousarray(out)
    # each Lurig video is one die of one colour: make colour say nothing of the type (any hue, channels in
    # any order, grey, light and dark swapped), so the shape and the numerals have to
    hsv = cv2.cvtColor(out, cv2.COLOR_BGR2HSV)
    hsv[..., 0] = (hsv[..., 0].astype(np.int32) + int(rng.integers(180))) % 180
    out = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[:, :, rng.permutation(3)]
    if rng.random() < 0.25:
        out = cv2.cvtColor(cv2.cvtColor(out, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    if rng.random() < 0.15:
        out = 255 - out
    return jitter(np.ascontiguousarray(out), rng)


def plain(item: Item) -> np.ndarray:
    """The crop as ``vision.types`` cuts it: ``CROP_SCALE`` times the box, upright."""
    box = STORE / STORE_CONTEXT
    k = CROP / (CROP_SCALE * box)
    m = np.array([[k, 0, CROP / 2 - STORE / 2 * k], [0, k, CROP / 2 - STORE / 2 * k]], np.float32)
    return cv2.warpAffine(item[0], m, (CROP, CROP), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def to_tensor(imgs: list[np.ndarray]) -> torch.Tensor:
    return torch.from_numpy(np.stack([i.transpose(2, 0, 1) for i in imgs])).float() / 255


def logits_of(model: TypeNet, crops: list[np.ndarray]) -> torch.Tensor:
    """Quarter-turn averaged logits, as ``vision.types`` reads."""
    total = torch.zeros(len(crops), model.cls.out_features)
    with torch.no_grad():
        for k in range(4):
            turned = [np.ascontiguousarray(np.rot90(c, k)) for c in crops]
            total += torch.cat([model(to_tensor(turned[i:i + 256])) for i in range(0, len(turned), 256)])
    return total / 4


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--hold-out", default="", choices=("", *FOLDS))
    ap.add_argument("--minutes", type=float, default=8)
    ap.add_argument("--seed", type=int, default=20261125)
    ap.add_argument("--renders", type=int, default=3000)
    ap.add_argument("--brands", type=float, default=0.0,
                    help="share of the renders drawn as dice of many makers (vision.poly.synth 'brands')")
    ap.add_argument("--oblique", type=float, default=0.0,
                    help="share of the renders seen from a camera 15-50 degrees off the vertical")
    ap.add_argument("--none", type=float, default=0.0,
                    help="share of the crops drawn from things that are no die (a seventh class, 'none')")
    ap.add_argument("--none-crops", type=int, default=3000, help="with --none: how many such crops")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--batch", type=int, default=48)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--cache", type=Path, default=None, help="keep the real photos' crops in this .npz")
    ap.add_argument("--resume", type=Path, default=None, help="continue from these weights (.pt, or the "
                    ".onnx export when the .pt is lost with its machine: v3_train.load_fused_onnx)")
    ap.add_argument("--tag", default="")
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    if args.cache and args.cache.exists():
        z = np.load(args.cache)
        items = [(im, int(k), str(src), str(fold)) for im, k, src, fold in
                 zip(z["crops"], z["kinds"], z["sources"], z["folds"], strict=True)]
    else:
        items = real_items("lurig") + real_items("burks")
        if args.cache:
            np.savez(args.cache, crops=np.stack([it[0] for it in items]),
                     kinds=np.array([it[1] for it in items]), sources=np.array([it[2] for it in items]),
                     folds=np.array([it[3] for it in items]))
    held = [it for it in items if it[3] == args.hold_out]
    kept = [it for it in items if it[3] != args.hold_out]
    # one kept photo in ten (whole groups are not needed here: it only fits the temperature)
    val = kept[::10]
    train = [it for i, it in enumerate(kept) if i % 10] + render_items(args.renders, args.seed, args.brands,
                                                                                args.oblique)
    classes = (*TYPES, NONE) if args.none > 0 else TYPES
    nones, trays = none_items(args.none_crops) if args.none > 0 else ([], [])
    val_none = nones[::10]
    train += [it for i, it in enumerate(nones) if i % 10] + trays
    pools: dict[str, dict[int, list[Item]]] = {}
    for it in train:
        pools.setdefault(it[2], {}).setdefault(it[1], []).append(it)
    share = {"lurig": 0.45, "render": 0.4, "burks": 0.15, "none": args.none, "none-trays": args.none}
    pool_names = sorted(pools)
    weights = np.array([share[k] for k in pool_names]) / sum(share[k] for k in pool_names)
    print({k: {classes[t]: len(v) for t, v in sorted(p.items())} for k, p in pools.items()}, "held",
          len(held), flush=True)
    model = TypeNet(len(classes))
    if args.resume is not None:
        # the BatchNorms of an .onnx resume are set on training crops drawn by their own generator: the
        # training's draws stay those a .pt resume makes
        crng = np.random.default_rng([args.seed, 3])
        calib = [train[int(i)] for i in crng.choice(len(train), size=min(384, len(train)), replace=False)]
        x = to_tensor([augment(it, crng) for it in calib]) if args.resume.suffix == ".onnx" else None
        model = resumed(args.resume, len(classes), x)
        model.train()
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    tag = args.tag or f"types{'-no-' + args.hold_out if args.hold_out else ''}"
    losses: list[float] = []
    step, t0 = 0, time.time()
    for step, elapsed in budgeted_steps(opt, args.minutes, args.lr):
        batch = []
        for _ in range(args.batch):
            pool = pools[pool_names[int(rng.choice(len(pool_names), p=weights))]]
            kinds = sorted(pool)
            group = pool[kinds[int(rng.integers(len(kinds)))]]
            batch.append(group[int(rng.integers(len(group)))])
        x = to_tensor([augment(it, rng) for it in batch])
        y = torch.tensor([it[1] for it in batch])
        loss = F.cross_entropy(model(x), y, label_smoothing=0.05)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
        if step % 100 == 0:
            print(f"{tag} step {step} {elapsed:.0f}s loss {np.mean(losses[-100:]):.3f}", flush=True)
    model.eval()
    vl = logits_of(model, [plain(it) for it in val])
    vy = torch.tensor([it[1] for it in val])
    best = best_temperature(vl, vy)
    report: dict[str, object] = {"val_accuracy": round((vl.argmax(1) == vy).float().mean().item(), 4)}
    if val_none:
        nl = logits_of(model, [plain(it) for it in val_none])
        report.update(val_none=len(val_none), val_none_read_none=round(
            (nl.argmax(1) == len(TYPES)).float().mean().item(), 4),
            val_dice_read_none=round((vl.argmax(1) == len(TYPES)).float().mean().item(), 4))
    if held:
        hl = logits_of(model, [plain(it) for it in held])
        hy = torch.tensor([it[1] for it in held])
        p = F.softmax(hl / best[0], 1)
        conf, pred = p.max(1)
        right = pred == hy
        report.update(held=len(held), held_accuracy=round(right.float().mean().item(), 4),
                      held_sure=int((conf >= 0.8).sum()), held_wrong_sure=int(((conf >= 0.8) & ~right).sum()))
    torch.save(model.state_dict(), args.out / f"{tag}.pt")
    torch.onnx.export(model, torch.zeros(1, 3, CROP, CROP), str(args.out / f"{tag}.onnx"), opset_version=17,
                      dynamo=False, input_names=["crops"], output_names=["logits"],
                      dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}})
    (args.out / f"{tag}.train.json").write_text(json.dumps({
        "command": "python3 tools/train_types.py " + " ".join(sys.argv[1:]), "seed": args.seed,
        "steps": step + 1,
        "batch": args.batch, "minutes": round((time.time() - t0) / 60, 1), "held_out": args.hold_out,
        "temperature": round(best[0], 3), "classes": list(classes), "renders": args.renders,
        "brands": args.brands, "oblique": args.oblique, "none": args.none,
        "none_crops": len(nones), "none_tray_dice": len(trays), "none_seed": NONE_SEED if nones else None,
        "train_crops": {k: {classes[t]: len(v) for t, v in sorted(p.items())} for k, p in pools.items()},
        **report, "torch": torch.__version__}, indent=1))
    print("done", tag, step + 1, "T", best, report, flush=True)


if __name__ == "__main__":
    main()
