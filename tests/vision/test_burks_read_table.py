"""The polyhedral dice photos (burksbuilds) read through ``read_table``, the product's path (scan, the
camera loop): dice found, the type and value of the most confident die, and no wrong reading marked
sure. Floors: the numbers measured and documented in docs/vision-poly.md ("through read_table"), minus
a small margin. See benchmarks/vision_eval.py --set burks for the rules."""

import importlib.util
from pathlib import Path

import pytest

from vision import read_table
from vision.data import photo_set

_spec = importlib.util.spec_from_file_location(
    "vision_eval", Path(__file__).resolve().parents[2] / "benchmarks" / "vision_eval.py")
assert _spec is not None and _spec.loader is not None
vision_eval = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(vision_eval)


@pytest.fixture(scope="module")
def result(photos):
    return vision_eval.evaluate("burks", photo_set("burks"))


@pytest.mark.slow
def test_every_die_is_found_and_read(result):
    assert result["labelled"] == 86
    # through Vision III's learned finder (the crop handed to Vision II is the finder's box, 1.1x)
    assert result["found"] >= 85, result["failures"]            # measured 86 (rules: 85)
    assert result["type_right"] >= 84, result["failures"]       # measured 85 (98.8%; rules 85)
    assert result["right"] >= 81, result["failures"]            # measured 82 (95.3%; rules 84)
    assert result["phantom"] <= 5, result["failures"]           # measured 4 (the tray's rim; rules 0)


@pytest.mark.slow
def test_no_wrong_reading_is_marked_sure(result):
    # measured 1 with the learned finder: D12_A_6, a d12 6 read as a d20 6 at 0.84 (the rules: 0; was 5)
    assert result["wrong_sure"] <= 1, result["failures"]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["D4_D_3", "D4_E_4", "D20_A_6", "D20_A_9", "D20_A_17"])
def test_numeral_marks_are_not_read_as_a_pip_d6(photos, name):
    photo = next(p for p in photo_set("burks") if p.path.stem == name)
    reading = read_table(photo.load())
    assert not any(d.sides == 6 and d.confidence >= 0.8 for d in reading.dice), reading.dice
    best = max(reading.dice, key=lambda d: d.confidence)
    assert best.sides == photo.dice[0].sides, reading.dice


@pytest.mark.slow
@pytest.mark.parametrize("name", ["D12_A_4", "D12_A_8", "D4_A_2"])
def test_round_d12s_and_barrel_d4s_are_found(photos, name):
    # a round d12 whose numeral both readers agree on is a die, not a token; the barrel d4 lay inside
    # a closed ring of the tray's rim
    photo = next(p for p in photo_set("burks") if p.path.stem == name)
    reading = read_table(photo.load())
    assert reading.tokens == ()
    assert [(d.sides, d.value) for d in reading.dice] == [(photo.dice[0].sides, photo.dice[0].value)]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["D20_A_1", "D10_A_2", "D12_A_1"])
def test_a_long_flagged_one_is_read_as_one(photos, name):
    # this set's "1" (a stem with a long flag, no foot) was read as a 7 until the numeral reader was
    # taught such 1s (tools/build_numerals.py, FLAGGED_ONE); D12_A_1 through the learned finder's crop
    # was still a 7 at 0.55 until it was also taught inside numbers (--brands, 11-25)
    photo = next(p for p in photo_set("burks") if p.path.stem == name)
    reading = read_table(photo.load())
    best = max(reading.dice, key=lambda d: d.confidence)
    assert (best.sides, best.value) == (photo.dice[0].sides, 1), reading
