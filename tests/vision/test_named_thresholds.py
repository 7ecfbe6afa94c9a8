"""Every threshold of Vision I's rule reader is a named, documented parameter (issue 17): no number but
0, 1 (and the pip counts 2 .. 6, a d6's faces) appears in a comparison of ``vision/table.py`` or
``vision/pips.py``, and every module constant there is ``Final`` with a comment above it. That naming
them changed no reading is ``test_rules_recorded.py``."""

import ast
import re
from pathlib import Path

import pytest

VISION = Path(__file__).resolve().parents[2] / "vision"
#: numbers a comparison may hold: 0 and 1, and the pip counts of a d6's faces
ALLOWED = {0, 1, 2, 3, 4, 5, 6}


@pytest.mark.parametrize("name", ["table.py", "pips.py"])
def test_no_unnamed_number_in_a_comparison(name):
    tree = ast.parse((VISION / name).read_text(encoding="utf-8"))
    unnamed = [(sub.lineno, sub.value) for node in ast.walk(tree) if isinstance(node, ast.Compare)
               for sub in ast.walk(node) if isinstance(sub, ast.Constant)
               and type(sub.value) in (int, float) and sub.value not in ALLOWED]
    assert unnamed == [], f"{name}: name these thresholds (line, number): {unnamed}"


@pytest.mark.parametrize("name", ["table.py", "pips.py"])
def test_every_parameter_is_final_and_documented(name):
    lines = (VISION / name).read_text(encoding="utf-8").splitlines()
    for node in ast.parse("\n".join(lines)).body:
        target = node.target if isinstance(node, ast.AnnAssign) else (
            node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else None)
        if not isinstance(target, ast.Name) or not target.id.isupper() or target.id.startswith("_"):
            continue
        where = f"{name}:{node.lineno} {target.id}"
        assert isinstance(node, ast.AnnAssign) and ast.unparse(node.annotation) == "Final", where
        k = node.lineno - 2
        while k >= 0 and re.match(r"[A-Z][A-Z0-9_]*: Final = ", lines[k]):
            k -= 1          # one comment may document a group of constants
        assert k >= 0 and lines[k].startswith("#:"), f"{where}: no comment above it"
