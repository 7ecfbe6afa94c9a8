"""benchmarks/pip_speed.py: the check that a faster pip counter finds the same pips. Its comparison must
pass on the same code and fail when one crop's reading differs in any number."""

import importlib.util
import pickle
from dataclasses import replace
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "pip_speed.py"


def _load():
    spec = importlib.util.spec_from_file_location("pip_speed", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_same_code_compares_equal_and_a_changed_reading_does_not(tmp_path, capsys):
    bench = _load()
    kept = tmp_path / "pips.pkl"
    assert bench.main(["--per-set", "1", "--save", str(kept)]) == 0
    assert bench.main(["--per-set", "1", "--compare", str(kept)]) == 0
    assert "differ from" in capsys.readouterr().out
    found = pickle.loads(kept.read_bytes())
    k = next(i for i, (pips, _) in enumerate(found) if pips)
    pips = found[k][0]
    pips[0] = replace(pips[0], x=pips[0].x + 1e-9)
    kept.write_bytes(pickle.dumps(found))
    assert bench.main(["--per-set", "1", "--compare", str(kept)]) == 1
    assert f"differ from {kept}: 1 (first: [{k}])" in capsys.readouterr().out


def test_bad_arguments_are_refused(tmp_path):
    bench = _load()
    with pytest.raises(SystemExit):
        bench.main(["--per-set", "0"])
    with pytest.raises(SystemExit):
        bench.main(["--compare", str(tmp_path / "none.pkl")])
