"""Train the polyhedral dice classifier shipped as vision/poly/poly.onnx, reproducibly (fixed seeds).

    pip install torch onnx pillow      # training only; the runtime needs numpy + OpenCV alone
    python3 tools/train_poly.py [--renders 100000] [--epochs 14] [--out vision/poly/poly.onnx]

1. Renders ``--renders`` synthetic dice (vision.poly.synth, "table" profile, RENDER_SIZE px, seeds
   (SEED, chunk)) in two processes; the even chunks train, the odd chunks are the held-out half.
2. Trains a small CNN on the train half (each epoch re-jitters the crop box and turns by quarter turns).
3. Exports ONNX (dynamo=False, opset 17), then measures it through OpenCV's cv2.dnn exactly as
   ``vision.poly.read_polyhedral`` runs it, on the held-out half, and writes the numbers beside the model.
Until 2026-12-03 no real photo was used; ``--real FILE`` adds the hand-labelled Lurig photos of
``tools/lurig_train_values.json`` (``real_items``), ``--real-hold-out FOLD`` leaves one fold's videos out
of them (to measure on that fold's part of ``benchmarks/lurig_values.json``, which nothing trains on).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from multiprocessing import Pool
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision import poly  # noqa: E402
from vision.poly import synth  # noqa: E402

SEED = 20261125
BRANDS_SEED = 20261127
"""Seed of the "brands" profile's renders (chunk c from (BRANDS_SEED, c)): other renders than the table's."""
CHUNK = 500
PROFILE = "table"
RENDER_SIZE = 128
CLASS_INDEX = {c: i for i, c in enumerate(poly.CLASSES)}


def label_index(kind: str, value: int) -> int:
    if kind == "d10" and value == 0:
        value = 10
    return CLASS_INDEX[(kind, value)]


def render_chunk(chunk: int, profile: str = "table") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    cv2.setNumThreads(1)
    rng = np.random.default_rng([BRANDS_SEED if profile == "brands" else SEED, chunk])
    images, boxes, labels = [], [], []
    for _ in range(CHUNK):
        r = synth.render(rng, size=RENDER_SIZE, profile=profile)
        images.append(r.image)
        boxes.append(r.bbox)
        labels.append(label_index(r.kind, r.value))
    return np.stack(images), np.array(boxes), np.array(labels)


def load_or_render(chunks: range, cache: Path | None, threads: int, profile: str = "table"
                   ) -> list[tuple[np.ndarray, ...]]:
    """The renders of ``chunks``, from the cache folder where there, else rendered (and cached)."""
    parts: dict[int, tuple[np.ndarray, ...]] = {}
    todo = [c for c in chunks if cache is None or not (cache / f"chunk{c}.npz").exists()]
    if todo:
        with Pool(threads) as pool:
            for c, part in zip(todo, pool.starmap(render_chunk, [(c, profile) for c in todo]), strict=True):
                parts[c] = part
                if cache is not None:
                    cache.mkdir(parents=True, exist_ok=True)
                    np.savez(cache / f"chunk{c}.npz", i=part[0], b=part[1], l=part[2])
    for c in chunks:
        if c not in parts:
            assert cache is not None
            z = np.load(cache / f"chunk{c}.npz")
            parts[c] = (z["i"], z["b"], z["l"])
    return [parts[c] for c in chunks]


REAL_SEED = 20264501
"""Seed of the real photos' variants (``real_items``)."""
LURIG_BOXES = ROOT / "tools" / "lurig_boxes.json"


def real_items(path: Path, hold_out: str = "", copies: int = 10, seed: int = REAL_SEED
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The hand-labelled Lurig photos of ``path`` (``{"values": {file name: value}}``) as items shaped like
    the renders: ``copies`` variants of each die, cut square round its box (``tools/lurig_boxes.json``) at
    1.3-2.0 times its side, turned by -25..25 degrees, lit brighter or darker with another contrast and
    gamma, sometimes blurred, and scaled to RENDER_SIZE; the box the die's, moved with it. The photos of
    fold ``hold_out`` (``vision.data.lurig_fold``: wood, color, other) are left out. The network reads
    grey, so the body's hue says little; each Lurig video shows one die with one face up for many frames,
    so the variants must keep the die's look from naming the value: that is what the fold left out
    measures."""
    from vision.data import lurig_fold, photo_set

    values = json.loads(path.read_text())["values"]
    boxes = {Path(k).name: v for k, v in json.loads(LURIG_BOXES.read_text()).items()}
    rng = np.random.default_rng(seed)
    images, out_boxes, labels = [], [], []
    for photo in sorted(photo_set("lurig"), key=lambda q: q.path.name):
        name = photo.path.name
        if name not in values or (hold_out and lurig_fold(photo.path) == hold_out):
            continue
        if boxes.get(name) is None:
            continue
        kind = f"d{int(photo.dice[0].sides)}"
        label = label_index(kind, int(values[name]))
        image = photo.load()
        cx, cy, w, h = boxes[name]
        for _ in range(copies):
            side = max(w, h) * rng.uniform(1.3, 2.0)
            ox, oy = rng.uniform(-0.12, 0.12, 2) * max(w, h)
            k = RENDER_SIZE / side
            turn = cv2.getRotationMatrix2D((cx + ox, cy + oy), float(rng.uniform(-25, 25)), k)
            turn[:, 2] += (RENDER_SIZE / 2 - cx - ox, RENDER_SIZE / 2 - cy - oy)
            dx, dy = turn @ np.array([cx, cy, 1.0])   # where the die's centre lands
            img = cv2.warpAffine(image, turn, (RENDER_SIZE, RENDER_SIZE), flags=cv2.INTER_AREA,
                                 borderMode=cv2.BORDER_REPLICATE)
            lit = img.astype(np.float32) / 255
            lit = np.clip((lit - 0.5) * rng.uniform(0.6, 1.3) + 0.5 + rng.uniform(-0.15, 0.15), 0, 1)
            lit = lit ** rng.uniform(0.7, 1.4)
            if rng.random() < 0.3:
                lit = cv2.GaussianBlur(lit, (0, 0), rng.uniform(0.5, 1.5))
            images.append((lit * 255).astype(np.uint8))
            bw, bh = w * k, h * k
            out_boxes.append((dx - bw / 2, dy - bh / 2, bw, bh))
            labels.append(label)
    return np.stack(images), np.array(out_boxes), np.array(labels)


def jittered_crop(image: np.ndarray, box: np.ndarray, rng: np.random.Generator, amount: float) -> np.ndarray:
    """The image cut to ``box`` with each side moved by up to ``amount`` of the box size."""
    x, y, w, h = (int(v) for v in box)
    d = rng.uniform(-amount, amount, 4) * max(w, h)
    x0, y0 = round(x + d[0]), round(y + d[1])
    x1, y1 = round(x + w + d[2]), round(y + h + d[3])
    pad = 48
    big = cv2.copyMakeBorder(image, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
    return big[y0 + pad:max(y1, y0 + 8) + pad, x0 + pad:max(x1, x0 + 8) + pad]


def prepared(images: np.ndarray, boxes: np.ndarray, rng: np.random.Generator, amount: float) -> np.ndarray:
    crops = (jittered_crop(im, b, rng, amount) for im, b in zip(images, boxes, strict=True))
    return np.stack([poly.prepare(c) for c in crops])


def build_model():  # type: ignore[no-untyped-def]
    import torch.nn as nn

    def conv(cin: int, cout: int) -> list[nn.Module]:
        return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU()]

    pool = nn.MaxPool2d(2)
    side = poly.INPUT // 16
    return nn.Sequential(*conv(2, 16), pool, *conv(16, 32), pool, *conv(32, 48), *conv(48, 64), pool,
                         *conv(64, 96), *conv(96, 128), pool,
                         nn.Flatten(), nn.Dropout(0.2), nn.Linear(128 * side * side, len(poly.CLASSES)))


def from_onnx(model, path: Path, calibration: np.ndarray) -> None:  # type: ignore[no-untyped-def]
    """Load an exported network (its batch norms folded into the convolutions) into ``model``: each conv
    takes the folded weights, and its batch norm is set from the conv outputs' mean and variance on
    ``calibration`` inputs (N, 2, INPUT, INPUT) so that the network computes what the file does, in eval
    mode exactly and in train mode nearly (the batch statistics are then about the same)."""
    import onnx
    import torch
    from onnx import numpy_helper

    g = onnx.load(str(path)).graph
    init = {i.name: numpy_helper.to_array(i) for i in g.initializer}
    convs = [n for n in g.node if n.op_type == "Conv"]
    gemm = next(n for n in g.node if n.op_type == "Gemm")
    layers = [m for m in model if isinstance(m, (torch.nn.Conv2d, torch.nn.BatchNorm2d, torch.nn.Linear))]
    pairs = list(zip(layers[0:-1:2], layers[1:-1:2], strict=True))
    assert len(pairs) == len(convs), (len(pairs), len(convs))
    captured: list[torch.Tensor] = []
    hooks = [conv.register_forward_hook(lambda _m, _i, out: captured.append(out.detach()))
             for conv, _bn in pairs]
    with torch.no_grad():
        for (conv, bn), node in zip(pairs, convs, strict=True):
            conv.weight.copy_(torch.from_numpy(init[node.input[1]]))
            bn.weight.fill_(1.0)
            bn.bias.copy_(torch.from_numpy(init[node.input[2]]))
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)
        linear = layers[-1]
        linear.weight.copy_(torch.from_numpy(init[gemm.input[1]]))
        linear.bias.copy_(torch.from_numpy(init[gemm.input[2]]))
        model.eval()
        model(torch.from_numpy(calibration))
        for (_conv, bn), out in zip(pairs, captured, strict=True):
            mean, var = out.mean(dim=(0, 2, 3)), out.var(dim=(0, 2, 3), unbiased=False)
            bn.bias.add_(mean)
            bn.weight.copy_(torch.sqrt(var + bn.eps))
            bn.running_mean.copy_(mean)
            bn.running_var.copy_(var)
    for h in hooks:
        h.remove()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--renders", type=int, default=100000)
    ap.add_argument("--epochs", type=int, default=14)
    ap.add_argument("--evaluate", type=int, default=2000,
                    help="read this many held-out renders through cv2.dnn at the end (all of them: slow)")
    ap.add_argument("--out", type=Path, default=poly.MODEL_PATH)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--cache", type=Path, help="keep the renders in this folder, one .npz per chunk "
                    "(chunk c is always rendered from seed (SEED, c), so a cache only saves time)")
    ap.add_argument("--state", type=Path, default=Path("poly-state.pt"),
                    help="torch weights are saved here after training")
    ap.add_argument("--resume", action="store_true", help="start from the weights in --state")
    ap.add_argument("--from-onnx", type=Path, metavar="ONNX",
                    help="start from an exported network (e.g. the shipped vision/poly/poly.onnx)")
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--profile", choices=("table", "brands"), default="table",
                    help="vision.poly.synth's profile of the renders (brands: seed BRANDS_SEED; give it "
                         "its own --cache)")
    ap.add_argument("--minutes", type=float, help="stop training after this many minutes (the weights are "
                    "saved to --state after every epoch)")
    ap.add_argument("--also", metavar="PROFILE:RENDERS:CACHE",
                    help="add the train half of RENDERS renders of another profile (kept in the folder "
                         "CACHE) to the training set; the held-out renders measured stay those of --profile")
    ap.add_argument("--repeat", action="append", default=[], metavar="KIND=N",
                    help="train on each render of KIND (d20, d100, ...) N times per epoch (the held-out "
                         "half is untouched)")
    ap.add_argument("--real", type=Path, metavar="FILE",
                    help="add the hand-labelled Lurig photos of FILE (tools/lurig_train_values.json) to the "
                         "training set, --real-copies variants of each (real_items)")
    ap.add_argument("--real-copies", type=int, default=10)
    ap.add_argument("--real-hold-out", choices=("", "wood", "color", "other"), default="",
                    help="leave this Lurig fold's photos out of --real")
    ap.add_argument("--seed", type=int, default=SEED, help="the training's seed (the renders keep theirs)")
    args = ap.parse_args()

    import torch

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    t0 = time.time()
    chunks = args.renders // CHUNK
    parts = load_or_render(range(chunks), args.cache, args.threads, args.profile)
    train = [parts[i] for i in range(0, chunks, 2)]
    # only the held-out chunks that will be read stay in memory (a chunk is 24 MB of pixels)
    held = [parts[i] for i in range(1, chunks, 2)][:-(-args.evaluate // CHUNK)]
    held_total = (chunks // 2) * CHUNK
    tr_img = np.concatenate([p[0] for p in train])
    tr_box = np.concatenate([p[1] for p in train])
    tr_lab = np.concatenate([p[2] for p in train])
    del parts, train
    if args.also:
        profile, renders, cache = args.also.split(":", 2)
        extra_parts = load_or_render(range(0, int(renders) // CHUNK, 2), Path(cache), args.threads, profile)
        tr_img, tr_box, tr_lab = (np.concatenate([a] + [p[i] for p in extra_parts])
                                  for i, a in enumerate((tr_img, tr_box, tr_lab)))
        del extra_parts
    for spec in args.repeat:
        kind, times = spec.split("=")
        extra = np.flatnonzero([poly.CLASSES[i][0] == kind for i in tr_lab])
        extra = np.tile(extra, int(times) - 1)
        tr_img, tr_box, tr_lab = (np.concatenate([a, a[extra]]) for a in (tr_img, tr_box, tr_lab))
    real_n = 0
    if args.real is not None:
        real = real_items(args.real, args.real_hold_out, args.real_copies)
        real_n = len(real[2])
        tr_img, tr_box, tr_lab = (np.concatenate([a, r]) for a, r in zip((tr_img, tr_box, tr_lab), real,
                                                                          strict=True))
    print(f"rendered {args.renders} in {time.time() - t0:.0f} s; train {len(tr_lab)} ({real_n} real)",
          flush=True)

    model = build_model()
    if args.resume:
        model.load_state_dict(torch.load(args.state))
    elif args.from_onnx is not None:
        calibration = prepared(tr_img[:512], tr_box[:512], np.random.default_rng(SEED), 0.0)
        from_onnx(model, args.from_onnx, calibration)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    steps = args.epochs * (len(tr_lab) // 128)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=steps, pct_start=0.15)
    rng = np.random.default_rng(args.seed + 7 if args.resume or args.from_onnx else args.seed)
    labels_t = torch.from_numpy(tr_lab).long()
    t_train = time.time()
    epochs_done = 0
    for epoch in range(args.epochs):
        if args.minutes is not None and time.time() - t_train > 60 * args.minutes:
            print(f"stopped after {epoch} epochs: --minutes {args.minutes}", flush=True)
            break
        x = prepared(tr_img, tr_box, rng, 0.08)
        turns = rng.integers(0, 4, len(x))
        x = np.stack([np.rot90(a, k, axes=(1, 2)) for a, k in zip(x, turns, strict=True)])
        xt = torch.from_numpy(np.ascontiguousarray(x))
        order = torch.from_numpy(rng.permutation(len(x)))
        model.train()
        total, right, loss_sum = 0, 0, 0.0
        for s in range(len(x) // 128):
            idx = order[s * 128:(s + 1) * 128]
            out = model(xt[idx])
            loss = torch.nn.functional.cross_entropy(out, labels_t[idx], label_smoothing=0.05)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += len(idx)
            right += int((out.argmax(1) == labels_t[idx]).sum())
            loss_sum += float(loss.detach()) * len(idx)
        print(f"epoch {epoch + 1}: loss {loss_sum / total:.3f} train acc {right / total:.4f} "
              f"({time.time() - t0:.0f} s)", flush=True)
        torch.save(model.state_dict(), args.state)
        epochs_done = epoch + 1

    torch.save(model.state_dict(), args.state)
    model.eval()
    dummy = torch.zeros(1, 2, poly.INPUT, poly.INPUT)
    torch.onnx.export(model, (dummy,), str(args.out), dynamo=False, opset_version=17,
                      input_names=["input"], output_names=["logits"],
                      dynamic_axes={"input": {0: "n"}, "logits": {0: "n"}})
    poly._forget_nets()
    if args.out != poly.MODEL_PATH:
        poly.MODEL_PATH = args.out  # type: ignore[misc]
    # held-out half, through cv2.dnn as at run time (four quarter turns averaged)
    cv2.setNumThreads(1)
    right_type = right_all = n = 0
    wrong: dict[str, int] = {}
    hrng = np.random.default_rng(SEED + 1)
    held_n = 0
    for images, boxes, labels in held:
        if held_n >= args.evaluate:
            break
        held_n += len(labels)
        for im, b, lab in zip(images, boxes, labels, strict=True):
            reading = poly.read_polyhedral(jittered_crop(im, b, hrng, 0.05))
            kind, value = poly.CLASSES[lab]
            ok_type = reading.sides == poly.KIND_SIDES[kind]
            ok = ok_type and reading.value == value and reading.percentile == (kind == "d100")
            right_type += ok_type
            right_all += ok
            n += 1
            if not ok:
                key = f"{kind}={value}"
                wrong[key] = wrong.get(key, 0) + 1
    report = {"seed": BRANDS_SEED if args.profile == "brands" else SEED, "training_seed": args.seed,
              "real": str(args.real) if args.real else None, "real_items": real_n,
              "real_hold_out": args.real_hold_out, "renders": args.renders,
              "render_size": RENDER_SIZE, "profile": args.profile, "also": args.also,
              "epochs_done": epochs_done,
              "command": "python3 tools/train_poly.py " + " ".join(sys.argv[1:]),
              "train": len(tr_lab), "held_out": held_total, "evaluated": n,
              "held_out_type_accuracy": right_type / n, "held_out_accuracy": right_all / n,
              "epochs": args.epochs, "seconds": round(time.time() - t0),
              "held_out_errors": dict(sorted(wrong.items(), key=lambda kv: -kv[1])[:20]),
              "torch": torch.__version__}
    args.out.with_suffix(".json").write_text(json.dumps(report, indent=1) + "\n")
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
