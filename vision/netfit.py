"""The die finder trained further in numpy: a table fits the finder to its own dice, cloth and light on the
Pi itself, where there is no torch (``goblin-companion finder fit``; docs/vision.md, "A finder fitted on
the table").

``Network`` runs the finder's ONNX graph (as exported by ``tools/train_finder.py``: every batch norm
already folded into the conv before it) forward and backward in numpy, for the few operators that graph
holds (Conv, Relu, Sigmoid, Add, Resize by two, Slice, Concat, Constant); a graph with any other is
refused. Tensors are kept channels first, then images (C, N, H, W), so a 1x1 conv is one matrix product.
``fit_step`` is one step of AdamW on the loss ``tools/train_finder.py`` trains with (the CenterNet focal
loss on the heatmap, L1 on the box at each die's cell); training windows and their targets are drawn by
``vision.windows`` as ``tools/train_finder.py`` draws them. The batch norms stay folded: the fit moves
the folded weights (a batch norm frozen at its running statistics, as fine-tuning often does).

Pure: no clock, no file; the caller owns the time budget (``fit`` asks ``going(step)`` for the share of
the budget spent, None to stop) and the random generator.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import numpy as np

from vision.onnxfile import FLOAT, INT64, Graph, Tensor, read_graph, with_weights
from vision.windows import Photo
from vision.windows import batch as windows

#: the operators ``Network`` runs
OPERATORS: Final = frozenset({"Conv", "Relu", "Sigmoid", "Add", "Resize", "Slice", "Concat", "Constant"})
#: a conv of the finder's stride stages (its backbone), by the name the export gives its output
STAGE: Final = re.compile(r"/s\d+/")
#: a graph with more nodes than this is not a finder (ours has 98)
MAX_NODES: Final = 1000


@dataclass
class Adam:
    """AdamW (decoupled weight decay), as ``torch.optim.AdamW`` steps."""

    lr: float = 1e-3
    betas: tuple[float, float] = (0.9, 0.999)
    eps: float = 1e-8
    decay: float = 1e-4
    t: int = 0
    m: dict[str, np.ndarray] = field(default_factory=dict)
    v: dict[str, np.ndarray] = field(default_factory=dict)

    def step(self, params: dict[str, np.ndarray], grads: dict[str, np.ndarray], lr: float) -> None:
        self.t += 1
        b1, b2 = self.betas
        for name, g in grads.items():
            p = params[name]
            m = self.m.setdefault(name, np.zeros_like(p))
            v = self.v.setdefault(name, np.zeros_like(p))
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            p *= 1 - lr * self.decay
            mhat = m / (1 - b1 ** self.t)
            vhat = v / (1 - b2 ** self.t)
            p -= lr * mhat / (np.sqrt(vhat) + self.eps)


class Network:
    """A finder's ONNX graph, run forward and backward in numpy (``dtype`` float32; float64 for checks)."""

    def __init__(self, data: bytes, dtype: Any = np.float32) -> None:
        self.data = data
        graph: Graph = read_graph(data)
        if len(graph.nodes) > MAX_NODES:
            raise ValueError(f"the graph has {len(graph.nodes)} nodes: not a die finder")
        odd = sorted({n.op for n in graph.nodes} - OPERATORS)
        if odd:
            raise ValueError(f"the graph uses {', '.join(odd)}: the finder's fit runs {sorted(OPERATORS)}")
        if len(graph.inputs) < 1 or len(graph.outputs) != 1:
            raise ValueError("the graph must take an image and give one output")
        self.nodes = graph.nodes
        self.input = graph.inputs[0]
        self.output = graph.outputs[0]
        self.dtype = np.dtype(dtype)
        #: the trained weights: every float initializer a Conv reads (weights and biases)
        self.params: dict[str, np.ndarray] = {}
        self.consts: dict[str, np.ndarray] = {}
        for node in self.nodes:
            if node.op == "Conv":
                for name in node.inputs[1:]:
                    t = graph.initializers.get(name)
                    if t is None or t.data_type != FLOAT:
                        raise ValueError(f"conv input {name!r} is no float weight of the file")
                    self.params[name] = t.array(data).astype(self.dtype)
                self._check_conv(node)
            elif node.op == "Constant":
                value = node.attrs.get("value")
                if not isinstance(value, Tensor):
                    raise ValueError("a Constant without a tensor value")
                self.consts[node.outputs[0]] = value.array(data)
        for name, t in graph.initializers.items():
            if name not in self.params and t.data_type in (FLOAT, INT64):
                self.consts[name] = t.array(data)
        #: weights ``backward`` gives no gradient (``freeze``), and the tensors that depend on a trained one
        #: (None: all of them)
        self.frozen: frozenset[str] = frozenset()
        self._moves: set[str] | None = None

    def freeze(self, names: Iterable[str]) -> None:
        """Keep the weights ``names`` as they are: ``backward`` gives them no gradient, and runs no part of
        the graph that nothing trained lies below (a frozen backbone's own backward pass is skipped)."""
        self.frozen = frozenset(names) & self.params.keys()
        moves: set[str] = set()
        for node in self.nodes:
            own = node.op == "Conv" and any(n not in self.frozen for n in node.inputs[1:])
            if own or any(i in moves for i in node.inputs):
                moves.add(node.outputs[0])
        self._moves = moves if self.frozen else None

    def backbone(self) -> list[str]:
        """The weights of the stride stages (convs named ``/s2/``, ``/s4/`` .. ``/s32/`` by
        ``tools/v3_models.Finder``'s export), as opposed to the top-down path and the heads."""
        return [w for node in self.nodes if node.op == "Conv" and STAGE.match(node.outputs[0])
                for w in node.inputs[1:]]

    def _wants(self, name: str) -> bool:
        return name != self.input and (self._moves is None or name in self._moves)

    def _check_conv(self, node: Any) -> None:
        w = self.params[node.inputs[1]]
        k = tuple(node.attrs.get("kernel_shape", w.shape[2:]))
        group = node.attrs.get("group", 1)
        pads = list(node.attrs.get("pads", [0, 0, 0, 0]))
        stride = node.attrs.get("strides", [1, 1])
        depthwise = group > 1 and group == w.shape[0] and w.shape[1] == 1
        runs = (node.attrs.get("dilations", [1, 1]) == [1, 1] and pads == [k[0] // 2] * 4
                and ((k == (1, 1) and group == 1 and stride == [1, 1]) or (k == (3, 3) and depthwise)
                     or (k == (3, 3) and group == 1 and node.inputs[0] == self.input)))
        if not runs:
            raise ValueError(f"a conv the fit does not run: kernel {k}, group {group}, pads {pads}, strides "
                             f"{stride} (a full 3x3 conv only on the image)")

    # -- forward -------------------------------------------------------------------------------------

    def forward(self, image: np.ndarray, tape: list[Any] | None = None) -> np.ndarray:
        """The output for ``image`` (N, 3, H, W; H, W multiples of 32) as the ONNX graph gives it (N, C, h,
        w). With ``tape`` (a list), what ``backward`` needs is kept on it."""
        values: dict[str, np.ndarray] = {self.input: np.ascontiguousarray(
            image.astype(self.dtype).transpose(1, 0, 2, 3))}
        for node in self.nodes:
            op = node.op
            if op == "Constant":
                continue
            x = values[node.inputs[0]]
            saved: Any = None
            if op == "Conv":
                y, saved = self._conv(node, x)
            elif op == "Relu":
                y = np.maximum(x, 0)
                saved = y > 0
            elif op == "Sigmoid":
                y = 1 / (1 + np.exp(-np.clip(x, -60, 60)))
                saved = y
            elif op == "Add":
                y = x + values[node.inputs[1]]
            elif op == "Resize":
                self._check_resize(node)
                y = x.repeat(2, axis=2).repeat(2, axis=3)
            elif op == "Slice":
                a, b = self._slice(node, x.shape[0])
                y = x[a:b]
                saved = (a, b, x.shape)
            else:   # Concat
                if node.attrs.get("axis") != 1:
                    raise ValueError("a Concat the fit does not run: not along the channels")
                y = np.concatenate([values[i] for i in node.inputs], 0)
                saved = [values[i].shape[0] for i in node.inputs]
            values[node.outputs[0]] = y
            if tape is not None:
                tape.append((node, saved))
        return values[self.output].transpose(1, 0, 2, 3)

    def _check_resize(self, node: Any) -> None:
        scales = self.consts.get(node.inputs[2]) if len(node.inputs) > 2 else None
        if node.attrs.get("mode", b"nearest") != b"nearest" or scales is None \
                or [float(s) for s in scales] != [1.0, 1.0, 2.0, 2.0]:
            raise ValueError("a Resize the fit does not run: only nearest, by two")

    def _slice(self, node: Any, channels: int) -> tuple[int, int]:
        starts, ends = (self.consts[i] for i in node.inputs[1:3])
        axes = self.consts[node.inputs[3]] if len(node.inputs) > 3 else np.array([0])
        steps = self.consts[node.inputs[4]] if len(node.inputs) > 4 else np.array([1])
        if list(axes) != [1] or list(steps) != [1]:
            raise ValueError("a Slice the fit does not run: only channels, step one")
        return int(starts[0]), int(min(int(ends[0]), channels))

    def _conv(self, node: Any, x: np.ndarray) -> tuple[np.ndarray, Any]:
        w = self.params[node.inputs[1]]
        b = self.params[node.inputs[2]] if len(node.inputs) > 2 else None
        s = int(node.attrs.get("strides", [1, 1])[0])
        co, ci, kh, _ = w.shape
        c, n, h, wd = x.shape
        if kh == 1:
            y = (w.reshape(co, ci) @ x.reshape(c, -1)).reshape(co, n, h, wd)
            saved: Any = (x, None)
        else:
            xp = np.zeros((c, n, h + 2, wd + 2), self.dtype)
            xp[:, :, 1:-1, 1:-1] = x
            ho, wo = (h - 1) // s + 1, (wd - 1) // s + 1
            if ci == 1:   # depthwise: each channel's images, stacked, filtered by its own kernel
                y = _depthwise(xp, w[:, 0], s)
                saved = (xp, None)
            else:
                cells = [xp[:, :, i:i + s * ho:s, j:j + s * wo:s] for i in range(3) for j in range(3)]
                cols = np.stack(cells, 1).reshape(c * 9, -1)   # rows: channel, then kernel cell
                y = (w.reshape(co, -1) @ cols).reshape(co, n, ho, wo)
                saved = (xp, cols)
        if b is not None:
            y += b[:, None, None, None]
        return y, saved

    # -- backward ------------------------------------------------------------------------------------

    def backward(self, tape: list[Any], grad: np.ndarray) -> dict[str, np.ndarray]:
        """The gradient of every weight, given the gradient of the output (N, C, h, w) of the forward pass
        that filled ``tape``."""
        grads: dict[str, np.ndarray] = {}
        back: dict[str, np.ndarray] = {self.output: np.ascontiguousarray(grad.astype(self.dtype)
                                                                         .transpose(1, 0, 2, 3))}

        def add(name: str, g: np.ndarray) -> None:
            if not self._wants(name):
                return
            if name in back:
                back[name] = back[name] + g
            else:
                back[name] = g

        for node, saved in reversed(tape):
            g = back.pop(node.outputs[0], None)
            if g is None:
                continue
            op = node.op
            if op == "Conv":
                self._conv_back(node, saved, g, grads, add)
            elif op == "Relu":
                add(node.inputs[0], g * saved)
            elif op == "Sigmoid":
                add(node.inputs[0], g * saved * (1 - saved))
            elif op == "Add":
                add(node.inputs[0], g)
                add(node.inputs[1], g)
            elif op == "Resize":
                c, n, h2, w2 = g.shape
                add(node.inputs[0], g.reshape(c, n, h2 // 2, 2, w2 // 2, 2).sum((3, 5)))
            elif op == "Slice":
                a, b, shape = saved
                full = np.zeros(shape, self.dtype)
                full[a:b] = g
                add(node.inputs[0], full)
            else:   # Concat
                at = 0
                for name, size in zip(node.inputs, saved, strict=True):
                    add(name, g[at:at + size])
                    at += size
        return grads

    def _conv_back(self, node: Any, saved: Any, g: np.ndarray, grads: dict[str, np.ndarray],
                   add: Callable[[str, np.ndarray], None]) -> None:
        w = self.params[node.inputs[1]]
        s = int(node.attrs.get("strides", [1, 1])[0])
        co, ci, kh, _ = w.shape
        trained = node.inputs[1] not in self.frozen
        if len(node.inputs) > 2 and node.inputs[2] not in self.frozen:
            grads[node.inputs[2]] = g.sum((1, 2, 3))
        x_or_xp, cols = saved
        g2 = g.reshape(co, -1)
        if kh == 1:
            c = x_or_xp.shape[0]
            if trained:
                grads[node.inputs[1]] = (g2 @ x_or_xp.reshape(c, -1).T).reshape(w.shape)
            if self._wants(node.inputs[0]):
                add(node.inputs[0], (w.reshape(co, ci).T @ g2).reshape(x_or_xp.shape))
            return
        xp = x_or_xp
        _, _, ho, wo = g.shape
        if ci == 1:
            if trained:
                gw = np.empty((co, 9), self.dtype)
                for k in range(9):
                    i, j = divmod(k, 3)
                    gw[:, k] = np.einsum("cnhw,cnhw->c", xp[:, :, i:i + s * ho:s, j:j + s * wo:s], g)
                grads[node.inputs[1]] = gw.reshape(w.shape)
            if self._wants(node.inputs[0]):
                # the input's gradient: the output's, spread back to the cells it came from (zeros between
                # them when strided), filtered by each channel's kernel turned half a turn
                spread = np.zeros_like(xp)
                spread[:, :, 1:1 + s * ho:s, 1:1 + s * wo:s] = g
                add(node.inputs[0], _depthwise(spread, w[:, 0, ::-1, ::-1], 1))
            return
        if trained:   # its input is the image: no gradient
            grads[node.inputs[1]] = (g2 @ cols.T).reshape(w.shape)

    def to_onnx(self) -> bytes:
        """The model file with the current weights (every other byte as it came)."""
        return with_weights(self.data, {k: v.astype(np.float32) for k, v in self.params.items()})


def _depthwise(xp: np.ndarray, kernels: np.ndarray, stride: int) -> np.ndarray:
    """A depthwise 3x3 conv (correlation) of ``xp`` (C, N, H+2, W+2: each image already padded by one)
    with ``kernels`` (C, 3, 3): (C, N, H', W'). Each channel's images are stacked into one tall image and
    filtered by OpenCV at once (a padded image's rows never reach into the next one's), four times as fast
    here as nine shifted multiply-adds in numpy."""
    import cv2

    c, n, hp, wp = xp.shape
    ho, wo = (hp - 3) // stride + 1, (wp - 3) // stride + 1
    out = np.empty((c, n, ho, wo), xp.dtype)
    for k in range(c):
        tall = cv2.filter2D(xp[k].reshape(n * hp, wp), -1, np.ascontiguousarray(kernels[k]),
                            borderType=cv2.BORDER_CONSTANT)
        out[k] = tall.reshape(n, hp, wp)[:, 1:1 + stride * ho:stride, 1:1 + stride * wo:stride]
    return out


def loss_and_grad(out: np.ndarray, hm: np.ndarray, box: np.ndarray, mask: np.ndarray
                  ) -> tuple[float, np.ndarray]:
    """``tools/train_finder.py``'s loss on the finder's output ``out`` (N, 5, h, w) and its gradient: the
    focal loss on channel 0 (a probability) against the heatmap ``hm`` (N, 1, h, w), plus L1 of channels
    1-4 against ``box`` (N, 4, h, w) where ``mask`` (N, 1, h, w) is 1, each over its count."""
    grad = np.zeros_like(out)
    p_raw = out[:, :1]
    p = np.clip(p_raw, 1e-4, 1 - 1e-4)
    inside = (p_raw > 1e-4) & (p_raw < 1 - 1e-4)
    pos = hm == 1
    n = max(1.0, float(pos.sum()))
    lp, l1p = np.log(p), np.log(1 - p)
    neg_w = (1 - hm) ** 4
    loss = -(np.where(pos, lp * (1 - p) ** 2, 0).sum() + np.where(pos, 0, l1p * p ** 2 * neg_w).sum()) / n
    d_pos = (1 - p) ** 2 / p - 2 * (1 - p) * lp
    d_neg = (-p ** 2 / (1 - p) + 2 * p * l1p) * neg_w
    grad[:, :1] = -np.where(pos, d_pos, d_neg) * inside / n
    m = max(1.0, float(mask.sum()))
    diff = out[:, 1:5] - box
    loss += float((np.abs(diff) * mask).sum() / m)
    grad[:, 1:5] = np.sign(diff) * mask / m
    return float(loss), grad


def fit(data: bytes, photos: Sequence[Photo], rng: np.random.Generator,
        going: Callable[[int], float | None], *, lr: float = 1e-3, batch: int = 16,
        floor: float = 2e-5, frozen_backbone: bool = False) -> tuple[bytes, dict[str, Any]]:
    """The finder ``data`` (ONNX bytes) trained on windows of ``photos`` until ``going(step)`` says None;
    its share of the budget spent sets the learning rate on a cosine from ``lr`` to ``floor`` (as
    ``tools/v3_train.budgeted_steps``). The new file and what it did (steps, mean loss of the first and last
    hundred steps). ``frozen_backbone``: only the top-down path and the heads are trained."""
    if not photos:
        raise ValueError("no photos to fit the finder on")
    net = Network(data)
    if frozen_backbone:
        net.freeze(net.backbone())
    opt = Adam(lr=lr)
    losses: list[float] = []
    step = 0
    while (spent := going(step)) is not None:
        x, hm, box, mask = windows(lambda: photos[int(rng.integers(len(photos)))], rng, batch)
        tape: list[Any] = []
        out = net.forward(x, tape)
        loss, grad = loss_and_grad(out, hm, box, mask)
        losses.append(loss)
        grads = net.backward(tape, grad)
        opt.step(net.params, grads, lr * 0.5 * (1 + math.cos(math.pi * min(1.0, spent))) + floor)
        step += 1
    said = {"steps": step,
            "loss_first": round(float(np.mean(losses[:100])), 4) if losses else None,
            "loss_last": round(float(np.mean(losses[-100:])), 4) if losses else None}
    return net.to_onnx(), said
