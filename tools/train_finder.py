"""Train the Vision III die finder (torch, CPU) and export it to ONNX for ``vision.finder``.

    python3 tools/train_finder.py --out vision/models [--leave-out aws] [--minutes 12] [--seed 20261125]

Training samples are 192x192 windows of the real photos (every finder source but the one left out)
and of randomised renders (``tools/v3_data.render``), scaled so the photo's dice measure 10 .. 110 px
(log-uniform), flipped, quarter-turned, with colour, blur, noise and JPEG jitter. Sources are drawn
equally often (renders a quarter of the time), so a big set does not drown a small one.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from v3_data import (
    FINDER_SOURCES,
    Sample,
    donor_dice,
    load_source,
    pasted,
    pip3d_render,
    poly_render,
    reboxed,
    render,
)
from v3_models import Finder, widen
from v3_train import budgeted_steps, load_fused_onnx

from vision.windows import batch as windows_batch


def focal(pred: torch.Tensor, gt: torch.Tensor) -> torch.Tensor:
    pred = pred.clamp(1e-4, 1 - 1e-4)
    pos = gt.eq(1).float()
    neg = 1 - pos
    pl = torch.log(pred) * (1 - pred) ** 2 * pos
    nl = torch.log(1 - pred) * pred ** 2 * (1 - gt) ** 4 * neg
    n = pos.sum().clamp(min=1)
    return -(pl.sum() + nl.sum()) / n


#: the pools whose boxes hold the whole die, from which ``--filling`` draws its windows (matteop65's boxes
#: hold the top's pips; burks and Lurig are one die a photo already, drawn up to 150 px by ``window``)
FILLING_POOLS = ("aws", "nell", "render")


def batch(pools: dict[str, list[Sample]], rng: np.random.Generator, n: int,
          colour: float = 0.0, render_weight: float = 0.25, harsh: float = 0.0,
          filling: float = 0.0) -> tuple[torch.Tensor, ...]:
    """``n`` windows: each real source drawn as often as any other, each render pool ``render_weight``
    times as often as a real source; a ``filling`` share of them filled by one die of ``FILLING_POOLS``
    (``vision.windows.filling_window``), each of those pools drawn equally often."""
    names = list(pools)
    fillable = [k for k in FILLING_POOLS if pools.get(k)]

    def pick_filled() -> Sample:
        pool = pools[fillable[int(rng.integers(len(fillable)))]]
        return pool[int(rng.integers(len(pool)))]

    p = np.array([render_weight if k in ("render", "polyrender", "pip3d") else 1.0 for k in names])
    p /= p.sum()

    def pick() -> Sample:
        pool = pools[names[int(rng.choice(len(names), p=p))]]
        return pool[int(rng.integers(len(pool)))]

    return tuple(torch.from_numpy(a) for a in windows_batch(pick, rng, n, colour, harsh, filling,
                                                            pick_filled if fillable else None))


def export(model: Finder, path: Path) -> None:
    model.eval()
    torch.onnx.export(model, torch.zeros(1, 3, 256, 320), str(path), opset_version=17, dynamo=False,
                      input_names=["image"], output_names=["maps"])
    model.train()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--leave-out", default="")
    ap.add_argument("--minutes", type=float, default=12)
    ap.add_argument("--seed", type=int, default=20261125)
    ap.add_argument("--renders", type=int, default=800)
    ap.add_argument("--poly-renders", type=int, default=0,
                    help="trays of polyhedral dice (v3_data.poly_render), drawn as often as the renders")
    ap.add_argument("--pip3d", type=int, default=0,
                    help="trays of pip d6s drawn in 3D, 0-60 degrees off the vertical, boxed sides and all "
                         "(v3_data.pip3d_render), drawn as often as the renders")
    ap.add_argument("--pasted", type=int, default=0,
                    help="trays of real dice cut from the training photos of aws and nell-byler (not "
                         "the one left out) laid on Lurig's tables or drawn trays (v3_data.pasted), drawn as "
                         "often as a real source")
    ap.add_argument("--table-half", default="", metavar="SET",
                    help="a diagnostic: every other photo of SET (the confirmed half of "
                         "benchmarks/tune_eval.py's interleaved split) as a source of its own, as a table's "
                         "confirmed photos would be")
    ap.add_argument("--table-split", default="interleaved", choices=["interleaved", "halves"],
                    help="which photos of --table-half's set are the table's: every other one, or the first "
                         "half (benchmarks/tune_eval.py's splits)")
    ap.add_argument("--table-only", action="store_true",
                    help="a diagnostic: train on --table-half's photos alone (no other source, no render), "
                         "as a table's own fit would on its machine, where the other sets are not")
    ap.add_argument("--last-layer", action="store_true",
                    help="a diagnostic: train only the heatmap's last 1x1 layer (33 numbers), the rest "
                         "frozen as resumed (batch norms too): what a table could fit without torch")
    ap.add_argument("--neck", action="store_true",
                    help="a diagnostic: train only the neck and heads (17,861 of 110,565 numbers), the "
                         "backbone frozen as resumed (batch norms too)")
    ap.add_argument("--reboxed", action="append", default=[], metavar="SOURCE=FILE",
                    help="a diagnostic: SOURCE's dice boxed as in FILE (tools/rebox.py: as a camera boxes "
                         "them), centres and sizes, values kept")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--patterned", action="store_true", help="renders with marbled, speckled and translucent "
                    "bodies and drilled pips (v3_data.render)")
    ap.add_argument("--decoys", action="store_true", help="half the renders get die-sized round things that "
                    "are no die (v3_data.render): the finder must leave them out")
    ap.add_argument("--dotted", action="store_true", help="half the renders on polka-dot cloths whose dots "
                    "are pips in size and spacing or up to a die apart (v3_data.render(dotted=True)): the "
                    "finder must find the dice on them and no group of dots")
    ap.add_argument("--printed", action="store_true", help="half the renders get one to four keys, labels "
                    "and bits of print that are no die (v3_data.render(printed=True)): the finder must leave "
                    "them out, as the face reader's --printed reads them 'none'")
    ap.add_argument("--touching", action="store_true", help="half the renders lay their dice in touching "
                    "clusters (v3_data.render(touching=True)): a die against a die, not half a die apart")
    ap.add_argument("--sides", action="store_true", help="three renders in four seen by a tilted camera, "
                    "the dice's side faces pipped and boxed with the top (v3_data.render(sides=True)): "
                    "one die, not two touching")
    ap.add_argument("--render-weight", type=float, default=0.25, help="how often each render pool is drawn "
                    "against one real source")
    ap.add_argument("--rims", action="store_true", help="a third of the renders get bars of a tray's rim "
                    "with a dark screw hole near an end (v3_data.render(rims=True))")
    ap.add_argument("--filling", type=float, default=0.0, metavar="P", help="share of windows that one "
                    "die fills, seen at a small crop's resolution and enlarged (a die filling the frame)")
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--colour", type=float, default=0.0, help="share of windows recoloured (hue turned "
                    "anywhere, channels swapped, grey, or light and dark swapped)")
    ap.add_argument("--camera", type=float, default=0.0, metavar="P", help="share of windows seen by a harsh "
                    "camera (dim and noisy, out of focus, or JPEG 12-35: camera()); 0 draws nothing, so "
                    "older recipes replay")
    ap.add_argument("--resume", type=Path, default=None, help="continue from these weights (.pt, or the "
                    ".onnx export when the .pt is lost: v3_train.load_fused_onnx)")
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--widths", default="16,32,64,96,128", help="the backbone's channels at strides 2 to 32")
    ap.add_argument("--head", type=int, default=32, help="the top-down path's and the heads' channels")
    ap.add_argument("--widen", action="store_true",
                    help="--resume holds a finder of the default widths: load it, then widen it to "
                         "--widths and --head keeping what it computes (v3_models.widen); without it "
                         "--resume must already have --widths and --head")
    ap.add_argument("--tag", default="")
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    if args.table_only and not args.table_half:
        ap.error("--table-only needs --table-half")
    pools: dict[str, list[Sample]] = {}
    for src in FINDER_SOURCES:
        if src != args.leave_out and not args.table_only:
            pools[src] = [s for s in load_source(src)]
    reboxed([s for pool in pools.values() for s in pool], args.reboxed)
    if not args.table_only:
        pools["render"] = [render(args.seed * 10_000 + i, patterned=args.patterned, decoys=args.decoys,
                                  dotted=args.dotted, printed=args.printed, touching=args.touching,
                                  sides=args.sides, rims=args.rims)
                           for i in range(args.renders)]
    if args.poly_renders:
        pools["polyrender"] = [poly_render(i) for i in range(args.poly_renders)]
    if args.pip3d:
        pools["pip3d"] = [pip3d_render(i) for i in range(args.pip3d)]
    if args.table_half:
        photos = load_source(args.table_half)
        pools[f"{args.table_half}-table"] = (photos[::2] if args.table_split == "interleaved" else
                                             photos[:len(photos) // 2])
    if args.pasted:
        donors = donor_dice([s for k in ("aws", "nell") for s in pools.get(k, [])])
        pools["pasted"] = [pasted(i, donors, pools.get("lurig", [])) for i in range(args.pasted)]
    print({k: len(v) for k, v in pools.items()}, flush=True)
    widths, head = tuple(int(v) for v in args.widths.split(",")), args.head
    if args.widen and args.resume is None:
        ap.error("--widen needs --resume")
    model = Finder() if args.widen else Finder(widths, head)
    if args.resume is not None and args.resume.suffix == ".onnx":
        x = torch.cat([batch(pools, rng, args.batch, args.colour, args.render_weight, args.camera,
                             args.filling)[0] for _ in range(4)])
        print("resumed from", args.resume, "largest difference from the ONNX graph",
              load_fused_onnx(model, str(args.resume), x), flush=True)
        model.train()
    elif args.resume is not None:
        model.load_state_dict(torch.load(args.resume))
    if args.widen:
        model = widen(model, widths, head)
        model.train()
        print("widened to", widths, head, sum(q.numel() for q in model.parameters()), "numbers", flush=True)
    trained = list(model.parameters())
    if args.last_layer or args.neck:
        model.eval()
        for q in trained:
            q.requires_grad_(False)
        parts = ("l32", "l16", "l8", "l4", "m16", "m8", "m4", "hm", "box") if args.neck else ()
        trained = (list(model.hm[-1].parameters()) if args.last_layer else
                   [q for name in parts for q in getattr(model, name).parameters()])
        for q in trained:
            q.requires_grad_(True)
    opt = torch.optim.AdamW(trained, lr=args.lr, weight_decay=1e-4)
    args.out.mkdir(parents=True, exist_ok=True)
    tag = args.tag or f"finder{'-no-' + args.leave_out if args.leave_out else ''}"
    t0 = time.time()
    step = 0
    losses: list[float] = []
    for step, elapsed in budgeted_steps(opt, args.minutes, args.lr):
        x, hm, box, mask = batch(pools, rng, args.batch, args.colour, args.render_weight, args.camera,
                                 args.filling)
        out = model(x)
        l_hm = focal(out[:, :1], hm)
        n = mask.sum().clamp(min=1)
        l_box = (torch.abs(out[:, 1:5] - box) * mask).sum() / n
        loss = l_hm + l_box
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(float(loss))
        if (step + 1) % 100 == 0:
            print(f"{tag} step {step + 1} {elapsed:.0f}s loss {np.mean(losses[-100:]):.3f}", flush=True)
        if (step + 1) % 1000 == 0:
            torch.save(model.state_dict(), args.out / f"{tag}.pt")
    torch.save(model.state_dict(), args.out / f"{tag}.pt")
    export(model, args.out / f"{tag}.onnx")
    (args.out / f"{tag}.train.json").write_text(json.dumps({
        "command": "python3 tools/train_finder.py " + " ".join(sys.argv[1:]), "seed": args.seed,
        "steps": len(losses), "batch": args.batch, "minutes": round((time.time() - t0) / 60, 1),
        "sources": sorted(k for k in pools), "final_loss": round(float(np.mean(losses[-200:])), 4),
        "torch": torch.__version__}, indent=1))
    print("done", tag, len(losses), flush=True)


if __name__ == "__main__":
    main()
