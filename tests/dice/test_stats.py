"""The fairness statistics (companion.dicestats): p-values against the chi-square tables, Wilson intervals
against their textbook values, and verdicts that flip exactly where the p-value crosses the threshold,
on constructed counts and on seeded simulated dice, fair and loaded."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest

from companion import dicestats
from companion.dicestats import (
    ALPHA,
    THRESHOLD,
    binom_two_sided,
    chi2_sf,
    face_counts,
    format_p,
    gamma_q,
    report,
    wilson,
)

# (x, df, upper tail): the critical values of the chi-square tables
TABLE = [
    (3.841458820694124, 1, 0.05),
    (11.070497693516351, 5, 0.05),
    (15.08627246938899, 5, 0.01),
    (16.74960234363904, 5, 0.005),
    (21.665994333461924, 9, 0.01),
    (30.14352720564616, 19, 0.05),
    (36.19086912927004, 19, 0.01),
    (38.58225655493424, 19, 0.005),
    (123.2252214533618, 99, 0.05),
]


@pytest.mark.parametrize(("x", "df", "tail"), TABLE)
def test_chi_square_tail_matches_the_tables(x: float, df: int, tail: float) -> None:
    assert chi2_sf(x, df) == pytest.approx(tail, rel=1e-9)


def test_gamma_q_closed_forms_on_both_branches() -> None:
    # Q(1, x) = exp(-x); Q(1/2, x) = erfc(sqrt x): the series (x < a + 1) and the fraction (x >= a + 1)
    for x in (0.01, 0.3, 1.2, 1.9, 2.5, 7.0, 30.0, 200.0):
        assert gamma_q(1.0, x) == pytest.approx(math.exp(-x), rel=1e-12)
        assert gamma_q(0.5, x) == pytest.approx(math.erfc(math.sqrt(x)), rel=1e-10)
    assert gamma_q(3.0, 0.0) == 1.0
    assert gamma_q(3.0, math.inf) == 0.0
    assert chi2_sf(-1.0, 3) == 1.0
    for a, x in ((0.0, 1.0), (-1.0, 1.0), (1.0, -0.5), (math.nan, 1.0), (1.0, math.nan)):
        with pytest.raises(ValueError, match="gamma_q needs"):
            gamma_q(a, x)
    with pytest.raises(ValueError, match="degree of freedom"):
        chi2_sf(1.0, 0)


def test_wilson_interval_textbook_values() -> None:
    assert wilson(3, 10) == pytest.approx((0.10779126740630099, 0.6032218525388546), abs=1e-12)
    low, high = wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(0.27753279986288, abs=1e-10)
    low, high = wilson(10, 10)
    assert low == pytest.approx(1 - 0.27753279986288, abs=1e-10) and high == 1.0
    assert wilson(0, 0) == (0.0, 1.0)


def test_too_few_rolls_is_said_not_judged() -> None:
    r = report(20, [5] * 19 + [4])  # 99 rolls: 4.95 expected per face
    assert r.verdict == "too-few" and r.p is None and r.chi2 is None and r.need == 100
    j = r.to_json()
    assert j["testable"] is False and all(f["p_adjusted"] is None for f in j["faces"])
    assert j["verdict"]["it"] == ("troppo pochi tiri per giudicare: 99 finora, "
                                  "ne servono almeno 100 (5 per faccia)")
    assert report(20, [5] * 20).verdict == "fair"  # 100 rolls: 5 per face, tested
    assert report(6, [0] * 6).verdict == "too-few"


def test_chi_square_verdict_flips_at_the_threshold() -> None:
    # a d6 off a little everywhere: faces 1-3 high, 4-6 low; chi2 = 6 a^2 / 100, no single face stands out
    below = report(6, [116, 116, 116, 84, 84, 84])
    above = report(6, [117, 117, 117, 83, 83, 83])
    assert below.chi2 == pytest.approx(15.36) and above.chi2 == pytest.approx(17.34)
    assert below.p == pytest.approx(0.008929932474491023, rel=1e-9)
    assert above.p == pytest.approx(0.003898137846872816, rel=1e-9)
    assert below.p > THRESHOLD > above.p
    assert below.verdict == "fair"
    assert above.verdict == "uneven" and above.face is None
    assert above.says("it") == "i tiri non sono uniformi (p = 0.0039), ma nessuna faccia da sola spicca"
    assert below.says("it") == "nessun segno di squilibrio dopo 600 tiri"
    # a looser level of the whole verdict flips the same die
    assert report(6, [116, 116, 116, 84, 84, 84], alpha=0.02).verdict == "uneven"


def _face_p(count: int, rest: int, sides: int) -> float:
    """The face's Bonferroni-adjusted exact two-sided binomial p, in exact fractions (no shared code)."""
    n = count + rest
    p, q = Fraction(1, sides), Fraction(sides - 1, sides)
    upper = sum(math.comb(n, x) * p**x * q ** (n - x) for x in range(count, n + 1))
    lower = sum(math.comb(n, x) * p**x * q ** (n - x) for x in range(0, count + 1))
    return float(min(Fraction(1), sides * min(Fraction(1), 2 * min(upper, lower))))


def test_the_exact_binomial_test_matches_exact_fractions() -> None:
    for count, n, sides in ((30, 258, 20), (3, 400, 20), (55, 240, 6), (0, 100, 6), (20, 400, 20), (7, 7, 2)):
        expected = _face_p(count, n - count, sides) / sides
        if expected < 1 / sides:
            assert binom_two_sided(count, n, 1 / sides) == pytest.approx(expected, rel=1e-11)
    assert binom_two_sided(0, 0, 0.5) == 1.0
    with pytest.raises(ValueError, match="binom_two_sided needs"):
        binom_two_sided(5, 4, 0.5)


def test_one_loaded_face_flips_the_face_test_where_its_bonferroni_p_crosses() -> None:
    # a d20: nineteen faces 20 times each, the 20 more and more often
    verdicts = {c: report(20, [20] * 19 + [c]) for c in range(20, 60)}
    flip = min(c for c, r in verdicts.items() if r.verdict != "fair")
    assert verdicts[flip].verdict == "face-high" and verdicts[flip].face == 20
    assert _face_p(flip, 380, 20) < THRESHOLD <= _face_p(flip - 1, 380, 20)
    assert verdicts[flip].face_p == pytest.approx(_face_p(flip, 380, 20), rel=1e-11)
    assert verdicts[flip].p is not None and verdicts[flip].p > THRESHOLD  # the chi-square alone misses it
    words = verdicts[flip].says("it")
    assert words.startswith("il 20 esce troppo spesso: p = 0.00"), words
    assert verdicts[flip].says("en").startswith("the 20 comes up too often: p = ")


def test_a_face_that_comes_up_too_rarely_and_the_italian_article() -> None:
    r = report(20, [40] * 7 + [5] + [40] * 12)  # the 8 hardly ever
    assert r.verdict == "face-low" and r.face == 8
    assert r.says("it") == "l'8 esce troppo di rado: p < 0.001"
    assert r.says("en") == "the 8 comes up too rarely: p < 0.001"
    assert report(6, [200, 100, 100, 100, 100, 100]).says("it").startswith("l'1 esce troppo spesso")


def test_format_p_never_rounds_onto_the_threshold() -> None:
    assert format_p(0.0049) == "p = 0.0049"
    assert format_p(0.003) == "p = 0.003"
    assert format_p(0.2015) == "p = 0.20"
    assert format_p(0.00099) == "p < 0.001"


def _simulate(rng: random.Random, weights: list[float], rolls: int) -> list[int]:
    return face_counts(len(weights), rng.choices(range(1, len(weights) + 1), weights=weights, k=rolls))


def test_seeded_fair_dice_are_rarely_accused() -> None:
    rng = random.Random(20261125)
    trials = 400
    accused = sum(report(20, _simulate(rng, [1.0] * 20, 400)).verdict != "fair" for _ in range(trials))
    # at most ALPHA by construction (measured: 0.6% of 4,000 such d20); 400 trials of a 1% event: 12 or
    # more has probability < 0.0005
    assert accused <= 12, accused
    d6 = sum(report(6, _simulate(rng, [1.0] * 6, 240)).verdict != "fair" for _ in range(trials))
    assert d6 <= 12, d6


def test_seeded_loaded_dice_are_caught_and_the_face_named() -> None:
    rng = random.Random(7)
    # a d20 whose 20 comes up twice as often as it should (a weight pressed into the 1's side)
    loaded = [1.0] * 19 + [2.0]
    caught = [report(20, _simulate(rng, loaded, 1000)) for _ in range(50)]
    named = sum(r.verdict == "face-high" and r.face == 20 for r in caught)
    assert named >= 45, [r.verdict for r in caught]
    # a d6 off on two opposite faces by 30%: the 6 high, the 1 low
    d6 = [report(6, _simulate(rng, [0.7, 1, 1, 1, 1, 1.3], 2000)) for _ in range(50)]
    assert sum(r.verdict != "fair" for r in d6) >= 45
    assert all(r.face in (None, 1, 6) for r in d6)


def test_report_json_has_every_number_the_page_shows() -> None:
    j = report(6, [10, 12, 8, 9, 11, 10]).to_json()
    assert j["sides"] == 6 and j["rolls"] == 60 and j["expected"] == 10 and j["df"] == 5
    assert j["alpha"] == ALPHA and j["threshold"] == ALPHA / 2 and j["confidence"] == 0.95
    assert j["chi2"] == pytest.approx(1.0) and j["p"] == pytest.approx(chi2_sf(1.0, 5))
    assert [f["count"] for f in j["faces"]] == [10, 12, 8, 9, 11, 10]
    assert all(f["low"] < 1 / 6 < f["high"] for f in j["faces"])
    assert j["verdict"] == {"kind": "fair", "key": "dice.verdict.fair", "params": {"rolls": 60}, "face": None,
                            "p": j["p"], "it": "nessun segno di squilibrio dopo 60 tiri",
                            "en": "no sign of bias after 60 rolls"}


@pytest.mark.parametrize(("sides", "counts", "match"), [
    (1, [3], r"2\.\.100 sides"), (True, [1, 1], r"2\.\.100 sides"), (101, [0] * 101, r"2\.\.100 sides"),
    (6, [1, 2, 3], "needs 6 counts"), (6, [1, 2, 3, 4, 5, -1], "needs 6 counts"),
    (2, [1.5, 2], "needs 2 counts"), (2, [True, 2], "needs 2 counts"),
])
def test_bad_reports_are_refused(sides: object, counts: list[object], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        report(sides, counts)  # type: ignore[arg-type]


def test_face_counts_refuses_a_value_that_is_no_face() -> None:
    assert face_counts(4, [1, 4, 4, 2]) == [1, 1, 0, 2]
    for value in (0, 5, True, 2.0):
        with pytest.raises(ValueError, match=r"a d4 shows 1\.\.4"):
            face_counts(4, [value])  # type: ignore[list-item]
    assert dicestats.sentence("fair", {"rolls": 3}, "en") == "no sign of bias after 3 rolls"
