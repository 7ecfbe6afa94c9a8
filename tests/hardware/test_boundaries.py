"""hardware/ depends on nothing of ours, and only picam.py mentions picamera2."""

from __future__ import annotations

import ast
from pathlib import Path

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"


def imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_hardware_imports_nothing_of_the_project() -> None:
    for path in sorted(HARDWARE.glob("*.py")):
        assert not imported_modules(path) & {"companion", "vision", "web"}, path.name


def test_only_picam_names_picamera2_in_code() -> None:
    for path in sorted(HARDWARE.glob("*.py")):
        if path.name != "picam.py":
            assert "picamera2" not in imported_modules(path), path.name
            assert 'import_module("picamera2")' not in path.read_text(), path.name
