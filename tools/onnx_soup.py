"""Average the weights of two exports of one network (a "model soup"), no cost at run time.

    python3 tools/onnx_soup.py A.onnx B.onnx OUT.onnx [--weight 0.5]

For a stage resumed from an installed model: both lie near each other, and their average sometimes
generalises better than either (thirty-third session: the aws and nell finders' stage against the installed
ones, docs/vision.md). The two graphs must be the same (same nodes, same initializer names and shapes);
each floating-point initializer becomes ``(1 - weight) * A + weight * B``, every other must be equal.
The weights are the exported, batch-norm-fused ones. Training only; needs onnx, no torch.
"""

from __future__ import annotations

import argparse

import numpy as np


def soup(a_path: str, b_path: str, out_path: str, weight: float = 0.5) -> int:
    """Write the average of ``a_path`` and ``b_path`` to ``out_path``; the number of tensors averaged."""
    import onnx
    from onnx import numpy_helper

    a, b = onnx.load(a_path), onnx.load(b_path)
    if [n.op_type for n in a.graph.node] != [n.op_type for n in b.graph.node]:
        raise ValueError(f"{a_path} and {b_path} are not the same network (their nodes differ)")
    other = {t.name: numpy_helper.to_array(t) for t in b.graph.initializer}
    averaged = 0
    for t in a.graph.initializer:
        x, y = numpy_helper.to_array(t), other.get(t.name)
        if y is None or x.shape != y.shape:
            raise ValueError(f"{t.name}: not in {b_path} with the shape {x.shape}")
        if x.dtype.kind == "f":
            t.CopyFrom(numpy_helper.from_array(((1 - weight) * x + weight * y).astype(x.dtype), t.name))
            averaged += 1
        elif not np.array_equal(x, y):
            raise ValueError(f"{t.name}: a non-float tensor that differs; not the same network")
    onnx.save(a, out_path)
    return averaged


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("out")
    ap.add_argument("--weight", type=float, default=0.5, help="the share of B (0..1)")
    args = ap.parse_args()
    if not 0.0 <= args.weight <= 1.0:
        ap.error("--weight must be between 0 and 1")
    try:
        n = soup(args.a, args.b, args.out, args.weight)
    except (OSError, ValueError) as e:
        ap.error(str(e))
    print(f"averaged {n} tensors into {args.out}")


if __name__ == "__main__":
    main()
