"""mypy --strict over web/ (the project's mypy run covers companion/ and hardware/)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_mypy_strict_on_web_is_clean() -> None:
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--ignore-missing-imports", "web"],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
