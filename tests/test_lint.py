"""ruff over the whole tree and strict mypy over companion/, hardware/ and vision/ run with the tests."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True)


def test_ruff_is_clean():
    done = _run("ruff", "check", ".")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_strict_is_clean():
    done = _run("mypy")
    assert done.returncode == 0, done.stdout + done.stderr
