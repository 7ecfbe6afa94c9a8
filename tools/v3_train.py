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
