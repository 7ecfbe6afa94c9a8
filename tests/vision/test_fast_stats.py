"""The pip tests' own small statistics (vision.pips ``_grid``, ``_mean``, ``_std``, ``_grey_percentile``)
stand in for numpy's to save its per-call checks: they must give numpy's numbers to the bit, or the pip
counter's thresholds would decide differently on some blob."""

import numpy as np
import pytest

from vision.pips import _grey_percentile, _grid, _mean, _ray_reach, _std


def test_grey_percentiles_are_numpys_to_the_bit():
    rng = np.random.default_rng(20261202)
    for k in range(3000):
        n = int(rng.integers(1, 1500))
        # spread grey levels and narrow ones (many ties, where the interpolation matters)
        v = (rng.integers(0, 256, n) if k % 2 else np.clip(rng.normal(120, 3, n), 0, 255)).astype(np.uint8)
        for q in (0, 10, 37.5, 50, 90, 100):
            assert _grey_percentile(v, q) == float(np.percentile(v, q)), (n, q)
        assert _grey_percentile(v, 50) == float(np.median(v))


def test_a_percentile_of_nothing_is_an_error():
    with pytest.raises(ValueError, match="no grey levels"):
        _grey_percentile(np.zeros(0, np.uint8), 10)


def test_means_and_spreads_are_numpys_to_the_bit():
    rng = np.random.default_rng(7)
    for _ in range(3000):
        n = int(rng.integers(1, 3000))
        f = rng.integers(0, 256, n).astype(np.float64) + rng.normal(0, 0.3, n)
        i = rng.integers(0, 400, n)
        assert _mean(f) == float(f.mean()) and _mean(i) == float(i.mean())
        assert _std(f) == float(f.std())


def test_the_grid_is_ogrids():
    yy, xx = _grid(3, 11, 5, 19)
    oy, ox = np.ogrid[3:11, 5:19]
    assert yy.shape == oy.shape and xx.shape == ox.shape and yy.dtype == oy.dtype
    assert np.array_equal(yy, oy) and np.array_equal(xx, ox)


def _walked(other, gap, leaves):
    """The die-top test's ray, walked a step at a time as it was first written."""
    run, last = 0.0, 0.0
    for d, off in enumerate(other.tolist()):
        if off:
            run += 1.0
            if run > gap:
                return max(last, 1.0)
        else:
            run, last = 0.0, float(d)
    return None if leaves else max(last, 1.0)


def test_a_rays_reach_at_once_is_the_step_by_step_walks():
    rng = np.random.default_rng(11)
    for k in range(5000):
        n = int(rng.integers(0, 120))
        other = rng.random(n) < rng.uniform(0.05, 0.95)
        gap, leaves = float(rng.uniform(0.5, 9.0)), bool(k % 2)
        assert _ray_reach(other, gap, leaves) == _walked(other, gap, leaves), (other.tolist(), gap, leaves)
    assert _ray_reach(np.zeros(0, bool), 2.0, True) is None
    assert _ray_reach(np.zeros(0, bool), 2.0, False) == 1.0
