"""``benchmarks/kill9.py`` itself: a few kill -9 trials during fast confirms lose no confirmed step."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_kill9_benchmark_loses_no_step(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "benchmarks/kill9.py", "--trials", "3", "--keep", str(tmp_path)],
                          cwd=ROOT, capture_output=True, text=True, timeout=90)
    assert done.returncode == 0, done.stderr[-2000:]
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    assert summary["trials"] == 3 and summary["confirmed"] > 0
    assert (summary["steps_lost"], summary["wrong_action"], summary["resumed_wrong"]) == (0, 0, 0)
    assert summary["integrity_check"] == "ok"
