import numpy as np
import pytest

from pyradice_lab import rng as rngmod
from pyradice_lab.stats import Estimate, mean_estimate, proportion_estimate, run_until


def test_as_generator_accepts_the_documented_types():
    g = np.random.default_rng(3)
    assert rngmod.as_generator(g) is g
    assert rngmod.as_generator(5).integers(1000) == np.random.default_rng(5).integers(1000)
    ss = np.random.SeedSequence(9)
    assert rngmod.as_generator(ss).integers(1000) == np.random.default_rng(np.random.SeedSequence(9)).integers(1000)
    assert isinstance(rngmod.as_generator(None), np.random.Generator)


@pytest.mark.parametrize("bad", [1.5, "7", True, [1, 2]])
def test_as_generator_rejects_other_types(bad):
    with pytest.raises(TypeError, match="rng"):
        rngmod.as_generator(bad)


def test_negative_seed_is_rejected():
    with pytest.raises(ValueError, match="rng"):
        rngmod.as_generator(-1)


def test_spawn_is_reproducible_and_independent():
    a = [g.integers(1 << 40, size=4).tolist() for g in rngmod.spawn(11, 3)]
    b = [g.integers(1 << 40, size=4).tolist() for g in rngmod.spawn(11, 3)]
    assert a == b
    assert len({tuple(x) for x in a}) == 3
    # children are not "seed + i" streams
    assert a[1] != np.random.default_rng(12).integers(1 << 40, size=4).tolist()
    # children are the SeedSequence.spawn children
    kids = np.random.SeedSequence(11).spawn(3)
    assert a[2] == np.random.default_rng(kids[2]).integers(1 << 40, size=4).tolist()


def test_spawn_from_generator_gives_new_children_each_time():
    g = np.random.default_rng(4)
    first = [c.integers(1 << 40) for c in rngmod.spawn(g, 2)]
    second = [c.integers(1 << 40) for c in rngmod.spawn(g, 2)]
    assert first != second


def test_mean_estimate_values():
    est = mean_estimate([1.0, 2.0, 3.0, 4.0])
    assert est.value == 2.5
    assert est.se == pytest.approx(np.std([1, 2, 3, 4], ddof=1) / 2)
    assert est.ci_low < 2.5 < est.ci_high
    assert est.to_dict()["n"] == 4
    assert set(est.to_dict("x")) == {"x", "x_se", "x_ci_low", "x_ci_high"}
    with pytest.raises(ValueError, match="samples"):
        mean_estimate([1.0])
    with pytest.raises(ValueError, match="samples"):
        mean_estimate([1.0, np.nan])


def test_proportion_estimate_edges():
    zero = proportion_estimate(0, 40)
    assert zero.value == 0 and zero.ci_low == 0 and 0 < zero.ci_high < 0.1
    full = proportion_estimate(40, 40)
    assert full.ci_high == 1 and full.ci_low > 0.9
    with pytest.raises(ValueError, match="successes"):
        proportion_estimate(5, 4)
    with pytest.raises(ValueError, match="n must"):
        proportion_estimate(0, 0)


def wald(k, n):
    p = k / n
    h = 1.96 * np.sqrt(p * (1 - p) / n)
    return p - h, p + h


def coverage(interval, p, n, experiments=2000, seed=0):
    gen = np.random.default_rng(seed)
    ks = gen.binomial(n, p, size=experiments)
    hits = 0
    for k in ks:
        lo, hi = interval(int(k), n)
        hits += lo <= p <= hi
    return hits / experiments


@pytest.mark.parametrize("p", [0.01, 0.3, 0.5])
def test_wilson_interval_covers_at_least_93_percent(p):
    def wilson(k, n):
        e = proportion_estimate(k, n)
        return e.ci_low, e.ci_high

    assert coverage(wilson, p, n=500, seed=int(p * 1000)) >= 0.93


def test_coverage_check_can_fail():
    # the naive Wald interval undercovers badly near 0: the same check rejects it
    assert coverage(wald, 0.01, n=50) < 0.93


def test_run_until_reaches_target_and_is_reproducible():
    def sample(n, g):
        return g.random(n) < 0.2

    a = run_until(sample, rel_or_abs_halfwidth=0.005, max_trials=500_000, rng=3)
    b = run_until(sample, rel_or_abs_halfwidth=0.005, max_trials=500_000, rng=3)
    assert a == b
    assert a.reached and a.reason == "target"
    assert a.estimate.halfwidth <= 0.005
    assert abs(a.estimate.value - 0.2) < 4 * a.estimate.se


def test_run_until_stops_at_cap_and_says_so():
    res = run_until(lambda n, g: g.normal(10, 1, n), rel_or_abs_halfwidth="0.01%", max_trials=5_000, rng=1,
                    batch=1_000)
    assert res.reason == "max_trials" and not res.reached and res.trials == 5_000
    assert isinstance(res.estimate, Estimate) and abs(res.estimate.value - 10) < 0.2


@pytest.mark.parametrize("bad", [0, -1, "x", ("pct", 1)])
def test_run_until_bad_target(bad):
    with pytest.raises(ValueError, match="rel_or_abs_halfwidth"):
        run_until(lambda n, g: g.random(n), rel_or_abs_halfwidth=bad, max_trials=10, rng=0)
