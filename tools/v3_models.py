"""The two Vision III networks (torch, training only; the product runs their ONNX export with cv2.dnn).

Finder: a CenterNet-style one-stage detector. Input BGR/255 (N, 3, H, W), H and W multiples of 32.
Output (N, 5, H/4, W/4): channel 0 the die-centre heatmap (sigmoid applied), 1-2 log(w/16), log(h/16) of
the box, 3-4 the centre's sub-cell offset (sigmoid, 0..1 of a 4 px cell).

Face reader: a small CNN on 40x40 crops. Output (N, 10 + 64): the class logits (``vision.faces.CLASSES``)
followed by a 64-d L2-normalised embedding (teach mode reads by nearest taught embedding).
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn


def cbr(cin: int, cout: int, k: int = 3, s: int = 1, groups: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, k, s, k // 2, groups=groups, bias=False), nn.BatchNorm2d(cout),
                         nn.ReLU(inplace=True))


def dws(cin: int, cout: int, s: int = 1) -> nn.Sequential:
    """Depthwise-separable 3x3 conv."""
    return nn.Sequential(cbr(cin, cin, 3, s, groups=cin), cbr(cin, cout, 1))


class Finder(nn.Module):
    def __init__(self, w: tuple[int, ...] = (16, 32, 64, 96, 128), head: int = 32) -> None:
        super().__init__()
        self.widths, self.head = tuple(w), head
        self.s2 = cbr(3, w[0], 3, 2)
        self.s4 = nn.Sequential(dws(w[0], w[1], 2), dws(w[1], w[1]))
        self.s8 = nn.Sequential(dws(w[1], w[2], 2), dws(w[2], w[2]), dws(w[2], w[2]))
        self.s16 = nn.Sequential(dws(w[2], w[3], 2), dws(w[3], w[3]), dws(w[3], w[3]))
        self.s32 = nn.Sequential(dws(w[3], w[4], 2), dws(w[4], w[4]), dws(w[4], w[4]))
        self.l32 = cbr(w[4], head, 1)
        self.l16 = cbr(w[3], head, 1)
        self.l8 = cbr(w[2], head, 1)
        self.l4 = cbr(w[1], head, 1)
        self.m16 = dws(head, head)
        self.m8 = dws(head, head)
        self.m4 = dws(head, head)
        self.hm = nn.Sequential(dws(head, head), nn.Conv2d(head, 1, 1))
        self.box = nn.Sequential(dws(head, head), nn.Conv2d(head, 4, 1))
        nn.init.constant_(self.hm[-1].bias, -2.19)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        a4 = self.s4(self.s2(x))
        a8 = self.s8(a4)
        a16 = self.s16(a8)
        a32 = self.s32(a16)
        p = self.l32(a32)
        p = self.m16(F.interpolate(p, scale_factor=2.0, mode="nearest") + self.l16(a16))
        p = self.m8(F.interpolate(p, scale_factor=2.0, mode="nearest") + self.l8(a8))
        p = self.m4(F.interpolate(p, scale_factor=2.0, mode="nearest") + self.l4(a4))
        hm = torch.sigmoid(self.hm(p))
        b = self.box(p)
        return torch.cat([hm, b[:, :2], torch.sigmoid(b[:, 2:])], 1)


class FaceNet(nn.Module):
    def __init__(self, n_classes: int = 10, emb: int = 64, w: tuple[int, ...] = (16, 32, 64, 128)) -> None:
        super().__init__()
        self.widths = tuple(w)
        self.f = nn.Sequential(
            cbr(3, w[0]), cbr(w[0], w[0]), nn.MaxPool2d(2),        # 20
            cbr(w[0], w[1]), cbr(w[1], w[1]), nn.MaxPool2d(2),       # 10
            cbr(w[1], w[2]), cbr(w[2], w[2]), nn.MaxPool2d(2),       # 5
            cbr(w[2], w[3], 3),
        )
        self.emb = nn.Linear(w[3], emb)
        self.cls = nn.Linear(w[3], n_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        g = self.f(x).mean((2, 3))
        e = self.emb(g)
        e = e / (e.norm(dim=1, keepdim=True) + 1e-6)
        return torch.cat([self.cls(g), e], 1)


def _grow(old: nn.Module, new: nn.Module) -> None:
    """Put every weight of ``old`` in its place in ``new`` (the same layers, as wide or wider); the weights
    from ``new``'s extra input channels into ``old``'s outputs are set to zero, its extra outputs keep their
    random start. So ``new`` computes what ``old`` computes."""
    before = dict(old.named_modules())
    with torch.no_grad():
        for name, m in new.named_modules():
            o = before[name]
            if isinstance(m, nn.Conv2d | nn.Linear):
                assert isinstance(o, type(m))
                out, into = o.weight.shape[:2]
                m.weight[:out, :into] = o.weight
                if not isinstance(m, nn.Conv2d) or m.groups == 1:
                    m.weight[:out, into:] = 0
                if m.bias is not None and o.bias is not None:
                    m.bias[:out] = o.bias
            elif isinstance(m, nn.BatchNorm2d):
                assert isinstance(o, nn.BatchNorm2d)
                n = o.num_features
                for part in ("weight", "bias", "running_mean", "running_var"):
                    getattr(m, part)[:n] = getattr(o, part)


def widen(old: Finder, w: tuple[int, ...], head: int) -> Finder:
    """A wider ``Finder`` that computes what ``old`` computes: every weight of ``old`` in its place, the
    new channels drawn at random as a fresh layer's are, and every weight from a new channel into an old
    one zero. Training then grows the new channels from where ``old`` stands instead of from nothing
    (a widening that keeps the function, as Net2Net's; here by zeros rather than by copies)."""
    if any(a < b for a, b in zip(w, old.widths, strict=True)) or head < old.head:
        raise ValueError(f"widths {w}, head {head} narrower than {old.widths}, {old.head}")
    new = Finder(w, head)
    _grow(old, new)
    return new


def widen_faces(old: FaceNet, new: FaceNet) -> FaceNet:
    """``new``, a wider ``FaceNet`` (or subclass) of the same layers, made to compute what ``old`` computes,
    as ``widen`` does for the finder (the heads' weights from the new channels zero too); ``old``'s own
    parameters (a subclass's prototypes) copied."""
    if any(a < b for a, b in zip(new.widths, old.widths, strict=True)):
        raise ValueError(f"widths {new.widths} narrower than {old.widths}")
    _grow(old, new)
    with torch.no_grad():
        for pname, p in old.named_parameters(recurse=False):
            getattr(new, pname).copy_(p)
    return new
