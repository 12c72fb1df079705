"""Multi-fidelity estimates: many cheap games as a control variate for fewer strong ones (issue 47, item 1).

A designer metric measured with a game's strong (report) player costs that player's games; the fast heuristic
plays the same seeds for a fraction of the cost.  Where the two players' per-game values are correlated, the
heuristic's games are a **control variate**: with ``n`` strong games, the heuristic on the same ``n`` seeds
(common random numbers) and ``m`` more heuristic games,

    estimate = mean(y) - beta * (mean(x on the n paired seeds) - mean(x on all N = n + m games)),

``beta = cov(x, y) / var(x)`` from the paired games.  It is unbiased to first order for the strong player's
metric, and its variance is ``var(y - beta x) / n + beta**2 var(x) / N``: the part of the strong player's
variance the heuristic explains is paid at the heuristic's price.  The interval is Student-t with ``n - 2``
degrees of freedom (``beta`` is estimated); its coverage is checked by simulation in the tests.

What it buys at a fixed CPU budget depends only on the correlation ``rho`` and the cost ratio: with strong
games costing ``c_s`` and heuristic games ``c_c`` CPU seconds, the best split plays ``N / n = sqrt(rho**2 c_s /
((1 - rho**2) c_c))`` heuristic games per strong game, and the variance falls by the factor
``c_s / (sqrt((1 - rho**2) c_s) + rho sqrt(c_c))**2`` against strong games alone (the two-model multi-fidelity
Monte Carlo allocation of Peherstorfer, Willcox and Gunzburger, 2016).  :func:`multifidelity` measures both
and says whether the estimator is worth using (:data:`WORTH_USING`: a factor of at least 1.5); when it is not,
the plain estimate of the strong games is the answer.

>>> import numpy as np
>>> rng = np.random.default_rng(0)
>>> x = rng.normal(size=4000); y = 2 + 0.9 * x[:400] + 0.3 * rng.normal(size=400)
>>> est = control_variate_estimate(y, x[:400], x[400:])
>>> round(est.value, 1), bool(est.se < np.std(y, ddof=1) / np.sqrt(400) / 2)
(2.0, True)
>>> round(equal_cost_factor(0.9, 20.0), 2), round(equal_cost_factor(0.3, 20.0), 2)
(2.46, 0.96)
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from ..engine import registry
from ..engine.stats import Estimate

__all__ = ["control_variate_estimate", "equal_cost_factor", "cheap_per_strong", "multifidelity", "MultiFidelity",
           "WORTH_USING"]

#: the variance-reduction factor at equal CPU below which the multi-fidelity estimate is not used
WORTH_USING = 1.5


def _values(a, name: str) -> np.ndarray:
    v = np.asarray(a, dtype=float).ravel()
    if not np.all(np.isfinite(v)):
        raise ValueError(f"{name} must hold finite numbers")
    return v


def control_variate_estimate(y, x, x_extra=(), *, confidence: float = 0.95) -> Estimate:
    """The strong player's mean from ``y`` (its per-game values), ``x`` (the cheap player's on the same seeds)
    and ``x_extra`` (the cheap player's other games), with its SE and Student-t interval (``n - 2`` df).

    Without ``x_extra`` (or with a cheap player whose values do not vary) it is the plain mean of ``y`` with
    its ``n - 1`` df interval.
    """
    y, x, xe = _values(y, "y"), _values(x, "x"), _values(x_extra, "x_extra")
    n, m = len(y), len(xe)
    if len(x) != n:
        raise ValueError(f"x must pair with y game by game: got {len(x)} values for {n}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")
    if n < 3:
        raise ValueError(f"y needs at least 3 paired games, got {n}")
    from scipy.special import stdtrit

    sx2 = float(np.var(x, ddof=1))
    if m == 0 or sx2 == 0:
        se = float(np.std(y, ddof=1) / math.sqrt(n))
        q = float(stdtrit(n - 1, 0.5 + confidence / 2))
        return Estimate(float(y.mean()), se, n, float(y.mean()) - q * se, float(y.mean()) + q * se, confidence)
    beta = float(np.cov(x, y, ddof=1)[0, 1] / sx2)
    xall = np.concatenate([x, xe])
    value = float(y.mean() - beta * (x.mean() - xall.mean()))
    resid = y - beta * x
    s_e2 = float(np.sum((resid - resid.mean()) ** 2) / (n - 2))
    se = math.sqrt(s_e2 / n + beta ** 2 * float(np.var(xall, ddof=1)) / len(xall))
    q = float(stdtrit(n - 2, 0.5 + confidence / 2))
    return Estimate(value, se, n, value - q * se, value + q * se, confidence)


def cheap_per_strong(rho: float, cost_ratio: float) -> float:
    """The best number of cheap games per strong game, ``sqrt(rho**2 r / (1 - rho**2))`` for the cost ratio
    ``r = c_strong / c_cheap`` (at least 1: every strong game has its paired cheap game)."""
    if not cost_ratio > 0:
        raise ValueError(f"cost_ratio must be > 0, got {cost_ratio!r}")
    r2 = min(float(rho) ** 2, 1 - 1e-12)
    return max(1.0, math.sqrt(r2 * cost_ratio / (1 - r2)))


def equal_cost_factor(rho: float, cost_ratio: float) -> float:
    """How many times smaller the variance is at the same CPU than with strong games alone, at the best split
    (:func:`cheap_per_strong`); ``cost_ratio = c_strong / c_cheap``.  Below 1: the cheap games cost more than they
    explain (the estimator then loses)."""
    k = cheap_per_strong(rho, cost_ratio)
    r2 = min(float(rho) ** 2, 1 - 1e-12)
    # per strong game: cost c_s + k c_c, variance (1 - rho^2) + rho^2 / k (in units of var(y)); strong alone: c_s, 1
    return cost_ratio / ((cost_ratio + k) * ((1 - r2) + r2 / k))


@dataclass(frozen=True)
class MultiFidelity:
    """A measured multi-fidelity estimate of one metric (:func:`multifidelity`)."""

    game: str
    metric: str
    strong: str
    cheap: str
    players: int
    estimate: Estimate          # the control-variate estimate (strong games + every cheap game)
    plain: Estimate             # the strong games alone
    rho: float                  # per-game correlation of the two players' values on common seeds
    cost_strong: float          # CPU seconds per game
    cost_cheap: float
    seed: int

    @property
    def cost_ratio(self) -> float:
        return self.cost_strong / self.cost_cheap

    @property
    def factor(self) -> float:
        """The variance-reduction factor at equal CPU, at the best split."""
        return equal_cost_factor(self.rho, self.cost_ratio)

    @property
    def used(self) -> bool:
        """Whether the estimator is worth using (:data:`WORTH_USING`)."""
        return self.factor >= WORTH_USING

    def __str__(self) -> str:
        e, p = self.estimate, self.plain
        verdict = (f"worth using: {cheap_per_strong(self.rho, self.cost_ratio):.1f} {self.cheap} games per "
                   f"{self.strong} game" if self.used else
                   f"not used (below {WORTH_USING}): the plain estimate of the {self.strong} games stands")
        return (f"{self.game} {self.metric}, {self.players} players: {self.strong} vs {self.cheap} on common seeds "
                f"(seed {self.seed}): rho {self.rho:.2f}, cost ratio {self.cost_ratio:.1f}; "
                f"variance {self.factor:.2f}x smaller at equal CPU: {verdict}. "
                f"Estimate {e.value:.4f} [{e.ci_low:.4f}, {e.ci_high:.4f}] from {e.n} strong games; "
                f"strong games alone {p.value:.4f} [{p.ci_low:.4f}, {p.ci_high:.4f}]")


def multifidelity(game: str, metric: str, *, strong_games: int = 100, cheap_games: int | None = None,
                  players: int | None = None, strong: str | None = None, cheap: str | None = None,
                  rng: int = 0, components=None) -> MultiFidelity:
    """Measure the multi-fidelity estimate of ``metric``: ``strong_games`` games of the ``strong`` player (default:
    the game's report player) in every seat, the ``cheap`` player (default: its heuristic) on the same seeds, and
    ``cheap_games`` cheap games in all (default 4 x ``strong_games``; the extra ones on independent seeds).

    Returns the estimate, the strong games' plain estimate, the measured correlation and CPU costs, and whether
    the estimator is worth using at equal CPU (:class:`MultiFidelity`).  The metric must be one value per game
    (a ratio metric is linearised per frame, as :func:`~pyradice_lab.design.metrics.metric_values` does).
    """
    from .metrics import _check_game, check_metric, metric_values

    game = _check_game(game)
    check_metric(game, metric)
    spec = registry.get_game(game)
    for name, v in (("strong_games", strong_games), ("cheap_games", cheap_games)):
        if v is not None and (isinstance(v, bool) or not isinstance(v, int) or not 10 <= v <= 100_000):
            raise ValueError(f"{name} must be an int in 10..100000, got {v!r}")
    cheap_games = 4 * strong_games if cheap_games is None else cheap_games
    if cheap_games < strong_games:
        raise ValueError(f"cheap_games must be at least strong_games ({strong_games}), got {cheap_games}")
    if isinstance(rng, bool) or not isinstance(rng, int) or rng < 0:
        raise ValueError(f"rng must be an int >= 0, got {rng!r}")
    strong = strong or spec.report_player_at(players)  # the report player at that count (None: the default)
    cheap = cheap or spec.heuristic_player
    for name, pol in (("strong", strong), ("cheap", cheap)):
        if pol not in spec.policies:
            raise ValueError(f"{name} must be a {game} policy ({', '.join(spec.policies)}), got {pol!r}")
    players = spec.default_players if players is None else players
    sim = spec.module("sim")
    root = np.random.SeedSequence(rng)
    common, extra = root.spawn(2)

    def run(n, pol, seq):
        fresh = np.random.SeedSequence(seq.entropy, spawn_key=seq.spawn_key)   # a fresh copy: the games spawn
        t0 = time.process_time()                                                # from it, common to both players
        df = sim.simulate_games(n, players=players, policies=[pol] * players, rng=np.random.default_rng(fresh),
                                components=components)
        num, den = metric_values(game, df, metric)
        return _per_game(num, den), (time.process_time() - t0) / n

    y, c_s = run(strong_games, strong, common)
    x, c_c = run(strong_games, cheap, common)
    xe, c_e = run(cheap_games - strong_games, cheap, extra) if cheap_games > strong_games else (np.zeros(0), c_c)
    rho = float(np.corrcoef(x, y)[0, 1]) if np.std(x) > 0 and np.std(y) > 0 else 0.0
    return MultiFidelity(game, metric, strong, cheap, players, control_variate_estimate(y, x, xe),
                         control_variate_estimate(y, x), rho, c_s, max((c_c + c_e) / 2, 1e-9), rng)


def _per_game(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """Per-game values whose mean is the metric: the values themselves over a denominator of 1, else the ratio's
    linearised values (the ratio plus each game's delta-method influence)."""
    if np.all(den == 1):
        return num
    r = num.sum() / den.sum()
    return r + (num - r * den) / den.mean()
