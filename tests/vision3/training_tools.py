"""``tools/v3_data.py`` for the tests that hold what the trainers rely on: tools/ is no package, so it is
loaded from its file, once, under the name its dataclasses look their module up by."""

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _v3_data():
    if "v3_data" in sys.modules:
        return sys.modules["v3_data"]
    spec = importlib.util.spec_from_file_location("v3_data", ROOT / "tools" / "v3_data.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["v3_data"] = module
    spec.loader.exec_module(module)
    return module


v3_data = _v3_data()
