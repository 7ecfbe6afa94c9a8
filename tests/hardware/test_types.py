"""hardware/ keeps the type hints gpiozero lacks: mypy --strict over it is clean."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_mypy_strict_on_hardware_is_clean() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "hardware"], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
