"""What the Vision III/IV trainers share: a time-budgeted loop with a cosine learning-rate schedule.
Training only; the product never imports this.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator

import numpy as np
import torch
import torch.nn.functional as F


def budgeted_steps(opt: torch.optim.Optimizer, minutes: float, lr: float, *,
                   floor: float = 2e-5) -> Iterator[tuple[int, float]]:
    """Yield (step, seconds since start) until ``minutes`` have passed, setting every parameter group's
    learning rate on a cosine from ``lr`` down to ``floor`` over the time budget (not over a step count:
    the machine is shared, so steps per minute vary)."""
    t0 = time.time()
    budget = minutes * 60
    step = 0
    while (elapsed := time.time() - t0) < budget:
        frac = min(1.0, elapsed / budget)
        for group in opt.param_groups:
            group["lr"] = lr * 0.5 * (1 + math.cos(math.pi * frac)) + floor
        yield step, elapsed
        step += 1


def best_temperature(logits: torch.Tensor, truth: torch.Tensor, grid: np.ndarray | None = None
                     ) -> tuple[float, float]:
    """The temperature of ``grid`` (default 0.25 .. 3 by 0.05) whose softmax(logits / T) gives ``truth`` the
    lowest mean negative log-likelihood, and that NLL."""
    grid = np.arange(0.25, 3.01, 0.05) if grid is None else grid
    nll = [F.cross_entropy(logits / float(t), truth).item() for t in grid]
    i = int(np.argmin(nll))
    return float(grid[i]), float(nll[i])


def load_fused_onnx(model: torch.nn.Module, path: str, calibration: torch.Tensor) -> float:
    """Load a network exported by ``torch.onnx.export`` (eval mode: every BatchNorm folded into the conv
    before it) back into ``model``, to train it further when only the ONNX file was kept (the product
    ships ONNX; the ``.pt`` of a session is lost with its machine).

    Convs are matched in order: the ONNX graph's Conv nodes against ``model``'s ``Conv2d`` modules in
    the order a forward pass runs them, which is the order the exporter traced. Other weights are matched
    by name. A folded conv computes ``W'x + b'``; the BatchNorm after it is set, layer by layer on
    ``calibration``, so that it passes that through unchanged both in eval mode (running statistics) and,
    on batches like ``calibration``, in training mode (its weight is the channel's spread and its bias
    the channel's mean plus ``b'``). Returns the largest difference between the ONNX graph's and
    ``model``'s eval outputs on ``calibration``, read by ``cv2.dnn``.
    """
    import cv2
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(path).graph
    init = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    convs = [n for n in graph.node if n.op_type == "Conv"]
    mods: list[torch.nn.Conv2d] = []   # in the order they run, as the exporter traced them
    hooks = [m.register_forward_hook(lambda m, _i, _o: mods.append(m)) for m in model.modules()
             if isinstance(m, torch.nn.Conv2d)]
    model.eval()
    with torch.no_grad():
        model(calibration[:1])
    for h in hooks:
        h.remove()
    if len(convs) != len(mods):
        raise ValueError(f"{path}: {len(convs)} convs in the graph, {len(mods)} in the model")
    state = model.state_dict()
    for name, arr in init.items():
        key = name.split(".", 1)[1] if name.startswith("m.") else name
        if key in state:
            state[key] = torch.from_numpy(arr.copy())
    model.load_state_dict(state)
    bns = {id(m): bn for seq in model.modules() if isinstance(seq, torch.nn.Sequential)
           for m, bn in zip(seq, list(seq)[1:], strict=False)
           if isinstance(m, torch.nn.Conv2d) and isinstance(bn, torch.nn.BatchNorm2d)}
    for node, conv in zip(convs, mods, strict=True):
        w = torch.from_numpy(init[node.input[1]].copy())
        b = torch.from_numpy(init[node.input[2]].copy()) if len(node.input) > 2 else None
        if w.shape != conv.weight.shape:
            raise ValueError(f"{path}: conv {node.name} is {tuple(w.shape)}, the model's "
                             f"{tuple(conv.weight.shape)}")
        with torch.no_grad():
            conv.weight.copy_(w)
            bn = bns.get(id(conv))
            if bn is None:
                if b is not None:
                    conv.bias.copy_(b)
                continue
            seen: list[torch.Tensor] = []
            hook = conv.register_forward_hook(lambda _m, _i, out, into=seen: into.append(out))
            model(calibration)
            hook.remove()
            z = seen[0]
            mean, spread = z.mean((0, 2, 3)), z.std((0, 2, 3)) + 1e-3
            bn.running_mean.copy_(mean)
            bn.running_var.copy_(spread ** 2 - bn.eps)
            bn.weight.copy_(spread)
            bn.bias.copy_(mean + (b if b is not None else 0))
    net = cv2.dnn.readNetFromONNX(path)
    net.setInput(calibration.numpy())
    want = net.forward()
    with torch.no_grad():
        got = model(calibration).numpy()
    return float(np.abs(want - got[:, : want.shape[1]]).max())
