"""Is this die fair? Pure statistics of one physical die's rolls (no I/O, no clock, no numpy needed).

:func:`report` takes a die's sides and its rolls' face counts and says, in numbers and in plain words:

- **the test**: Pearson's chi-square goodness of fit against the uniform die, ``k - 1`` degrees of
  freedom, its p-value the regularized upper incomplete gamma ``Q((k-1)/2, x/2)`` (:func:`chi2_sf`, our
  own series and continued fraction; checked against the textbook tables in the tests);
- **too few rolls**: the chi-square approximation needs about 5 rolls expected per face, so below
  ``5 * sides`` rolls there is no verdict, only how many more rolls are needed;
- **the significance level** :data:`ALPHA` = 0.01: a verdict accuses a die the players own, and a table
  looks at its dice again after every match (each look is another chance of a false alarm), so we ask
  for strong evidence: a fair die is called unbalanced at most once in a hundred looks;
- **two tests, one level**: the chi-square sees a die that is off everywhere a little, but dilutes one
  loaded face among the others (on a d20, 30 twenties in 258 rolls give chi-square p = 0.20, while the
  twenty alone is 4.9 standard deviations high). So a second test takes each face against the rest of
  the die with the exact two-sided binomial test (``Binomial(n, 1/k)``, twice the smaller tail; the
  normal approximation is far too bold in the upper tail of a d20's face: a fair d20's faces were
  "significant" twice as often as they should be), Bonferroni-corrected for the ``k`` faces (times
  ``k``, capped at 1), and looks at the face with the smallest adjusted p. The die is called unbalanced
  when either test is under :data:`THRESHOLD` = ``ALPHA / 2`` (Bonferroni over the two tests, so a fair
  die is accused with probability at most ``ALPHA``). The face test names the face ("il 20 esce troppo
  spesso: p = 0.003", quoting the face's adjusted p; too often or too rarely by the sign of its
  standardized residual ``(O - n/k) / sqrt(n (1/k)(1 - 1/k))``); a chi-square rejection with no single
  face under the threshold says the rolls are uneven, quoting the chi-square p;
- **an interval per face**: the Wilson score interval of the face's share at 95% (:data:`CONFIDENCE`),
  one face at a time (not simultaneous: with 20 faces, about one interval in twenty misses ``1/k`` on a
  fair die; that is why the verdict rests on the tests above, not on the intervals).

Faces are 1..sides (a d10's "0" face is 10, as ``vision.reading`` says).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

#: The significance level of every verdict (see the module docstring for why 1%).
ALPHA: Final = 0.01
#: What each of the two tests' p-value must be under for the verdict "unbalanced" (Bonferroni: 2 tests).
THRESHOLD: Final = ALPHA / 2
#: The coverage of the per-face Wilson intervals.
CONFIDENCE: Final = 0.95
#: The fewest rolls expected per face before the chi-square test is trusted.
MIN_EXPECTED: Final = 5.0
#: The standard normal quantile of a two-sided 95% interval.
Z95: Final = 1.959963984540054
#: Faces a die may have here (a coin is a d2; the most a named die may have is a d100).
MIN_SIDES: Final = 2
MAX_SIDES: Final = 100

Verdict = Literal["too-few", "fair", "face-high", "face-low", "uneven"]

_EPS: Final = 1e-15
_TINY: Final = 1e-300


def _gamma_p_series(a: float, x: float) -> float:
    """P(a, x) by its power series (converges fast for x < a + 1)."""
    term = total = 1.0 / a
    n = a
    for _ in range(10_000):
        n += 1.0
        term *= x / n
        total += term
        if abs(term) < abs(total) * _EPS:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _gamma_q_fraction(a: float, x: float) -> float:
    """Q(a, x) by its continued fraction, modified Lentz (converges fast for x >= a + 1)."""
    b = x + 1.0 - a
    c = 1.0 / _TINY
    d = 1.0 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = _TINY if abs(d) < _TINY else d
        c = b + an / c
        c = _TINY if abs(c) < _TINY else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _EPS:
            break
    return h * math.exp(-x + a * math.log(x) - math.lgamma(a))


def gamma_q(a: float, x: float) -> float:
    """The regularized upper incomplete gamma function ``Q(a, x) = Γ(a, x) / Γ(a)``, ``a > 0``, ``x >= 0``."""
    if not a > 0 or not x >= 0 or math.isinf(a):
        raise ValueError(f"gamma_q needs a > 0 and x >= 0, not a={a!r}, x={x!r}")
    if x == 0:
        return 1.0
    if math.isinf(x):
        return 0.0
    if x < a + 1.0:
        return max(0.0, 1.0 - _gamma_p_series(a, x))
    return min(1.0, _gamma_q_fraction(a, x))


def chi2_sf(x: float, df: int) -> float:
    """The chi-square survival function: P(X >= x) for ``df`` degrees of freedom."""
    if df < 1:
        raise ValueError(f"a chi-square needs at least 1 degree of freedom, not {df!r}")
    return gamma_q(df / 2.0, max(0.0, x) / 2.0)


def _binom_tail(count: int, n: int, p: float, upper: bool) -> float:
    """P(X >= count) (``upper``) or P(X <= count) of X ~ Binomial(n, p), summed from ``count`` outwards
    (terms shrink geometrically past the mode, so the sum stops long before ``n`` terms)."""
    q = 1.0 - p
    log_term = (math.lgamma(n + 1) - math.lgamma(count + 1) - math.lgamma(n - count + 1)
                + count * math.log(p) + (n - count) * math.log(q))
    term = math.exp(log_term)
    total = 0.0
    x = count
    while 0 <= x <= n:
        total += term
        if upper:
            if x == n:
                break
            term *= (n - x) / (x + 1) * p / q
            x += 1
        else:
            if x == 0:
                break
            term *= x / (n - x + 1) * q / p
            x -= 1
        if term < total * _EPS or term == 0.0:
            break
    return min(1.0, total)


def binom_two_sided(count: int, n: int, p: float) -> float:
    """The exact two-sided binomial test of ``count`` successes in ``n`` trials of probability ``p``
    (0 < p < 1): twice the smaller tail, at most 1."""
    if n <= 0:
        return 1.0
    if not 0 <= count <= n or not 0 < p < 1:
        raise ValueError(f"binom_two_sided needs 0 <= count <= n and 0 < p < 1, not {count}, {n}, {p}")
    return min(1.0, 2.0 * min(_binom_tail(count, n, p, True), _binom_tail(count, n, p, False)))


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``successes / n`` (``(0, 1)`` when ``n`` is 0)."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denominator = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return low, high


def check_sides(sides: object) -> int:
    """``sides`` as a number of faces (2..100), or ValueError naming it."""
    if isinstance(sides, bool) or not isinstance(sides, int) or not MIN_SIDES <= sides <= MAX_SIDES:
        raise ValueError(f"a die has {MIN_SIDES}..{MAX_SIDES} sides, not {sides!r}")
    return sides


def face_counts(sides: int, values: Iterable[int]) -> list[int]:
    """How many times each face 1..sides came up; ValueError for a value that is not a face."""
    sides = check_sides(sides)
    counts = [0] * sides
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= sides:
            raise ValueError(f"a d{sides} shows 1..{sides}, not {value!r}")
        counts[value - 1] += 1
    return counts


def format_p(p: float) -> str:
    """A p-value as a verdict quotes it: ``p = 0.003``, ``p = 0.0049``, ``p = 0.20``, ``p < 0.001`` (two
    significant digits under 0.1, so a p just under the threshold never prints as the threshold)."""
    if p < 0.001:
        return "p < 0.001"
    if p < 0.1:
        return f"p = {p:.2g}"
    return f"p = {p:.2f}"


def _article_it(face: int) -> str:
    """"il 20", "l'8": the Italian article of a face's number (uno, otto, undici begin with a vowel)."""
    return f"l'{face}" if face in (1, 8, 11) or 80 <= face <= 89 else f"il {face}"


#: The verdicts' sentences by message key (``dice.verdict.<kind>``): English, Italian.
SENTENCES: Final[Mapping[str, Mapping[str, str]]] = {
    "too-few": {
        "en": "too few rolls to judge: {rolls} so far, at least {need} needed ({expected} per face)",
        "it": "troppo pochi tiri per giudicare: {rolls} finora, "
              "ne servono almeno {need} ({expected} per faccia)",
    },
    "fair": {
        "en": "no sign of bias after {rolls} rolls",
        "it": "nessun segno di squilibrio dopo {rolls} tiri",
    },
    "face-high": {
        "en": "the {face} comes up too often: {p_text}",
        "it": "{face_it} esce troppo spesso: {p_text}",
    },
    "face-low": {
        "en": "the {face} comes up too rarely: {p_text}",
        "it": "{face_it} esce troppo di rado: {p_text}",
    },
    "uneven": {
        "en": "the rolls are not even ({p_text}), though no single face stands out",
        "it": "i tiri non sono uniformi ({p_text}), ma nessuna faccia da sola spicca",
    },
}


def sentence(kind: str, params: Mapping[str, Any], lang: str) -> str:
    """The verdict ``kind`` in plain words, ``lang`` ``"it"`` or ``"en"``."""
    return SENTENCES[kind][lang].format(**params)


@dataclass(frozen=True)
class Face:
    """One face's numbers: count, share, its Wilson interval, its standardized residual and its
    Bonferroni-adjusted exact binomial p-value against the rest of the die (None below the test's
    minimum)."""

    face: int
    count: int
    share: float
    low: float
    high: float
    residual: float
    p_adjusted: float | None

    def to_json(self) -> dict[str, Any]:
        return {"face": self.face, "count": self.count, "share": self.share, "low": self.low,
                "high": self.high, "residual": self.residual, "p_adjusted": self.p_adjusted}


@dataclass(frozen=True)
class Report:
    """A die's fairness in numbers and words; :meth:`to_json` is what the page and ``dice-report`` show."""

    sides: int
    rolls: int
    faces: tuple[Face, ...]
    chi2: float | None
    df: int
    p: float | None
    verdict: Verdict
    face: int | None
    """The face the verdict names (face-high, face-low), else None."""
    face_p: float | None
    """That face's Bonferroni-adjusted p-value."""
    alpha: float = ALPHA

    @property
    def expected(self) -> float:
        return self.rolls / self.sides

    @property
    def need(self) -> int:
        """Rolls needed before the test gives a verdict."""
        return math.ceil(MIN_EXPECTED * self.sides)

    def params(self) -> dict[str, Any]:
        """The verdict sentence's parameters."""
        out: dict[str, Any] = {"rolls": self.rolls}
        if self.verdict == "too-few":
            out.update(need=self.need, expected=int(MIN_EXPECTED))
        elif self.verdict in ("face-high", "face-low"):
            assert self.face is not None and self.face_p is not None
            out.update(face=self.face, face_it=_article_it(self.face), p=self.face_p,
                       p_text=format_p(self.face_p))
        elif self.verdict == "uneven":
            assert self.p is not None
            out.update(p=self.p, p_text=format_p(self.p))
        return out

    def says(self, lang: str) -> str:
        return sentence(self.verdict, self.params(), lang)

    def to_json(self) -> dict[str, Any]:
        params = self.params()
        return {
            "sides": self.sides, "rolls": self.rolls, "expected": self.expected,
            "chi2": self.chi2, "df": self.df, "p": self.p, "alpha": self.alpha, "threshold": self.alpha / 2,
            "confidence": CONFIDENCE,
            "testable": self.verdict != "too-few", "need": self.need,
            "faces": [f.to_json() for f in self.faces],
            "verdict": {"kind": self.verdict, "key": f"dice.verdict.{self.verdict}", "params": params,
                        "face": self.face, "p": self.face_p if self.face is not None else self.p,
                        "it": self.says("it"), "en": self.says("en")},
        }


def report(sides: int, counts: Sequence[int], *, alpha: float = ALPHA) -> Report:
    """The fairness of a d``sides`` whose faces 1..sides came up ``counts`` times (``alpha``: the level
    of the whole verdict, each of the two tests at ``alpha / 2``)."""
    sides = check_sides(sides)
    if len(counts) != sides or any(isinstance(c, bool) or not isinstance(c, int) or c < 0 for c in counts):
        raise ValueError(f"a d{sides} needs {sides} counts, each a whole number >= 0, "
                         f"not {list(counts)!r:.200}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be between 0 and 1, not {alpha!r}")
    n = sum(counts)
    share = 1.0 / sides
    expected = n * share
    spread = math.sqrt(n * share * (1 - share)) if n else 0.0
    testable = n > 0 and expected >= MIN_EXPECTED
    faces = []
    for face, count in enumerate(counts, start=1):
        low, high = wilson(count, n)
        residual = (count - expected) / spread if spread else 0.0
        p_adjusted = min(1.0, sides * binom_two_sided(count, n, share)) if testable else None
        faces.append(Face(face, count, count / n if n else 0.0, low, high, residual, p_adjusted))
    df = sides - 1
    if not testable:
        return Report(sides, n, tuple(faces), None, df, None, "too-few", None, None, alpha)
    chi2 = sum((c - expected) ** 2 for c in counts) / expected
    p = chi2_sf(chi2, df)
    verdict: Verdict = "fair"
    face_named: int | None = None
    face_p: float | None = None
    worst = min(faces, key=lambda f: (f.p_adjusted if f.p_adjusted is not None else 1.0, -abs(f.residual)))
    assert worst.p_adjusted is not None
    if worst.p_adjusted < alpha / 2:
        verdict = "face-high" if worst.residual > 0 else "face-low"
        face_named, face_p = worst.face, worst.p_adjusted
    elif p < alpha / 2:
        verdict = "uneven"
    return Report(sides, n, tuple(faces), chi2, df, p, verdict, face_named, face_p, alpha)
