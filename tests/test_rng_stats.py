import numpy as np
import pytest
from hypothesis import given, strategies as st

from pyradice_lab.engine import rng as rngmod
from pyradice_lab.engine.stats import Estimate, mean_estimate, proportion_estimate, run_until


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


def test_proportions_in_mean_estimate_use_wilson_and_never_have_zero_width():
    from pyradice_lab.engine.stats import proportion_estimate

    for data in ([1, 1, 1], [True] * 5, [0.0, 0.0, 0.0, 0.0], [1, 0, 1, 1]):
        est = mean_estimate(data)
        ref = proportion_estimate(int(np.sum(data)), len(data))
        assert (est.ci_low, est.ci_high) == (ref.ci_low, ref.ci_high)
        assert est.ci_high > est.ci_low and 0 <= est.ci_low and est.ci_high <= 1
    assert mean_estimate([1, 1, 1]).ci_low == pytest.approx(0.4385, abs=1e-4)  # Wilson, 3 of 3
    assert proportion_estimate(1, 10).ci_low > 0  # one success: the lower bound is not clipped to 0


def test_estimates_print_without_a_fake_zero_error():
    from pyradice_lab.engine.stats import Estimate, proportion_estimate

    assert "± 0" not in format(proportion_estimate(3, 3)) and "CI 0.4385..1" in format(proportion_estimate(3, 3))
    assert format(Estimate(0.25, 0.0, 0, 0.25, 0.25)) == "0.25 (exact)"
    assert format(Estimate(2.0, 0.0, 5, 2.0, 2.0)) == "2 (all 5 samples equal; no interval)"
    assert format(Estimate(float("nan"), float("nan"), 3, float("nan"), float("nan"))) == "not available (n=3)"
    assert format(mean_estimate([1.0, 2.0, 4.0])) .startswith("2.333 ± 0.8819 (95% CI")


def test_count_estimate_is_the_exact_poisson_interval():
    from scipy.stats import chi2

    from pyradice_lab.engine.stats import count_estimate

    est = count_estimate(7, 50)
    assert est.value == 7 / 50
    assert est.ci_low == pytest.approx(chi2.ppf(0.025, 14) / 2 / 50)
    assert est.ci_high == pytest.approx(chi2.ppf(0.975, 16) / 2 / 50)
    zero = count_estimate(0, 100)
    assert zero.ci_low == 0 and zero.ci_high == pytest.approx(-np.log(0.025) / 100)
    with pytest.raises(ValueError, match="total"):
        count_estimate(-1, 10)
    with pytest.raises(ValueError, match="n must"):
        count_estimate(1, 0)


@given(st.lists(st.integers(0, 6), min_size=2, max_size=60))
def test_nonnegative_intervals_never_go_below_zero_and_contain_the_mean(xs):
    from pyradice_lab.engine.stats import nonnegative_estimate

    est = nonnegative_estimate(xs)
    assert 0 <= est.ci_low <= est.value <= est.ci_high
    assert est.ci_high > est.ci_low  # counts: even constant samples get an interval
    assert est.value == pytest.approx(np.mean(xs))


def test_nonnegative_estimate_rejects_negative_samples_and_covers_a_skewed_mean():
    from pyradice_lab.engine.stats import nonnegative_estimate

    with pytest.raises(ValueError, match="non-negative"):
        nonnegative_estimate([1.0, -0.5])
    gen = np.random.default_rng(5)
    hits = sum(nonnegative_estimate(gen.poisson(0.3, 80)).contains(0.3) for _ in range(1000))
    assert hits >= 930  # the log interval keeps ~95% coverage for a small skewed rate
