"""tools/types_temperatures.py: the temperature fit and the sure counts it writes to the type cards."""

import importlib.util
import json
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("types_temperatures", ROOT / "tools" / "types_temperatures.py")
assert _spec is not None and _spec.loader is not None
tt = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tt)


def _sampled(rng, n=4000, k=6, t=0.5):
    """Logits and classes drawn from softmax(logits / t): the fit must give t back."""
    logits = rng.normal(0, 1.5, (n, k))
    z = logits / t
    p = np.exp(z - z.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    truth = np.array([rng.choice(k, p=row) for row in p])
    return logits, truth


def test_the_fit_finds_the_temperature_the_classes_were_drawn_at():
    rng = np.random.default_rng(5)
    for t in (0.5, 1.0, 2.0):
        logits, truth = _sampled(rng, t=t)
        assert abs(tt.best_temperature(logits, truth) - t) <= 0.1 * t + 0.05, t


def test_sure_counts_count_the_sure_and_the_wrong_among_them():
    logits = np.array([[5.0, 0.0], [0.0, 5.0], [0.2, 0.0], [4.0, 0.0]])
    truth = np.array([0, 0, 0, 1])
    assert tt.sure_counts(logits, truth, 1.0) == (4, 3, 2)      # the third is not sure
    assert tt.sure_counts(logits, truth, 10.0) == (4, 0, 0)     # a high temperature: nothing sure


def test_the_cards_keep_the_temperature_they_had_and_say_where_the_new_one_comes_from():
    for name in ("wood", "color", "other", "burks"):
        card = json.loads((ROOT / "benchmarks" / "models" / f"types-no-{name}.json").read_text())
        assert "finder's boxes" in card["temperature_from"] and name not in card["temperature_from"]
        assert card["temperature_at_training_crops"] > 0 and card["temperature"] > 0
    shipped = json.loads((ROOT / "vision" / "models" / "types.json").read_text())
    assert "finder's boxes" in shipped["temperature_from"]


def test_the_temperatures_were_fitted_at_the_boxes_of_the_finder_that_ships():
    """A finder boxes dice its own way (finder8 boxes Lurig's dice 6% tighter than finder6), so installing one
    without fitting the type temperatures at its boxes again leaves them fitted for crops the product no
    longer cuts."""
    from vision.finder import model_path, sha256

    finder = sha256(model_path("finder"))
    for path in [ROOT / "vision" / "models" / "types.json",
                 *(ROOT / "benchmarks" / "models" / f"types-no-{n}.json" for n in ("wood", "color", "other",
                                                                                  "burks"))]:
        assert json.loads(path.read_text())["temperature_finder_sha256"] == finder, path.name
