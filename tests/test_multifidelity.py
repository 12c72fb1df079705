"""The multi-fidelity (control-variate) estimate of issue 47 item 1: its value, its interval's coverage at n = 30
and 100, the equal-CPU allocation and factor, and the game-level call's checks."""

from __future__ import annotations

import math

import numpy as np
import pytest

from pyradice_lab.design.multifidelity import (
    WORTH_USING,
    cheap_per_strong,
    control_variate_estimate,
    equal_cost_factor,
    multifidelity,
)


def _pair(rng, n, m, rho, binary=False):
    """Strong values y, paired cheap values x and m more cheap values, correlation rho, strong mean 0.3."""
    z = rng.normal(size=(n + m, 2))
    x = z[:, 0]
    y = rho * x[:n] + math.sqrt(1 - rho ** 2) * z[:n, 1]
    if binary:   # a win share: both players' indicators share the latent draw
        return (y > 0.52).astype(float), (x[:n] > 0.52).astype(float), (x[n:] > 0.52).astype(float), 0.3015
    return 0.3 + y, x[:n], x[n:], 0.3


@pytest.mark.parametrize("n", [30, 100])
@pytest.mark.parametrize("binary", [False, True])
def test_the_interval_covers_at_its_level(n, binary):
    rng = np.random.default_rng(47 + n)
    runs, hit, widths = 2000, 0, []
    for _ in range(runs):
        y, x, xe, truth = _pair(rng, n, 4 * n, 0.85, binary)
        e = control_variate_estimate(y, x, xe)
        hit += e.ci_low <= truth <= e.ci_high
        widths.append(e.ci_high - e.ci_low)
    assert 0.93 <= hit / runs <= 0.97, hit / runs
    assert min(widths) > 0


def test_the_control_variate_shrinks_the_variance_as_the_theory_says():
    rng = np.random.default_rng(3)
    est, plain = [], []
    for _ in range(1500):
        y, x, xe, _ = _pair(rng, 50, 450, 0.9)
        est.append(control_variate_estimate(y, x, xe).value)
        plain.append(y.mean())
    # var = (1 - rho^2)/n + rho^2/N  against 1/n
    want = (1 - 0.81) / 50 + 0.81 / 500
    assert np.var(est) == pytest.approx(want, rel=0.15)
    assert np.var(plain) / np.var(est) == pytest.approx((1 / 50) / want, rel=0.15)


def test_without_extra_cheap_games_it_is_the_plain_mean():
    rng = np.random.default_rng(1)
    y, x, _, _ = _pair(rng, 40, 0, 0.9)
    e = control_variate_estimate(y, x)
    assert e.value == pytest.approx(y.mean())
    assert e.se == pytest.approx(np.std(y, ddof=1) / math.sqrt(40))
    flat = control_variate_estimate(y, np.ones(40), np.ones(10))     # a cheap player that never varies
    assert flat.value == pytest.approx(y.mean())


def test_the_equal_cpu_allocation():
    # Peherstorfer et al. two-model allocation: cheap games per strong game and the factor at equal CPU
    assert cheap_per_strong(0.9, 20) == pytest.approx(math.sqrt(0.81 * 20 / 0.19))
    assert cheap_per_strong(0.1, 20) == 1.0                          # never fewer than the paired game
    assert equal_cost_factor(0.9, 20) == pytest.approx(2.46, abs=0.01)
    assert equal_cost_factor(0.0, 20) < 1 < WORTH_USING              # an uncorrelated cheap player only costs
    assert equal_cost_factor(0.99, 100) > 10
    with pytest.raises(ValueError, match="cost_ratio"):
        cheap_per_strong(0.5, 0)


@pytest.mark.parametrize("kw, word", [
    (dict(y=[1, 2, 3], x=[1, 2]), "x must pair"),
    (dict(y=[1, 2], x=[1, 2]), "at least 3"),
    (dict(y=[1, 2, float("nan")], x=[1, 2, 3]), "y must hold finite"),
    (dict(y=[1, 2, 3], x=[1, 2, 3], confidence=1.5), "confidence"),
])
def test_bad_values_are_refused(kw, word):
    with pytest.raises(ValueError, match=word):
        control_variate_estimate(**kw)


@pytest.mark.parametrize("kw, word", [
    (dict(metric="nope"), "not a raft metric"),
    (dict(strong_games=5), "strong_games"),
    (dict(strong_games=20, cheap_games=10), "cheap_games"),
    (dict(strong="fast"), "strong must be a raft policy"),
    (dict(rng=-1), "rng"),
])
def test_the_game_call_checks_before_playing(kw, word):
    kw = {"metric": "game_length", **kw}
    with pytest.raises(ValueError, match=word):
        multifidelity("raft", **kw)


def test_a_game_measurement_names_its_players_and_verdict():
    r = multifidelity("raft", "mean_score", strong_games=10, cheap_games=20, strong="greedy", cheap="greedy",
                      rng=5)
    assert r.rho == pytest.approx(1.0)          # the same player on the same seeds: the same games ...
    assert r.estimate.se < r.plain.se           # ... so the estimate is the mean of all 20 games
    assert "greedy vs greedy on common seeds (seed 5)" in str(r)
