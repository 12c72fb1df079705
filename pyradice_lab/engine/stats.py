"""Monte Carlo estimates that always travel with their uncertainty.

:class:`Estimate` holds a value with its standard error, the number of samples and a 95% confidence
interval.  Means use the Student-t interval; proportions use the Wilson score interval, which keeps its
coverage near 0 and 1 where the normal interval fails (also for 0 or n successes; :func:`mean_estimate`
switches to it by itself for 0/1 samples, so a proportion never shows a zero-width interval).
Non-negative quantities (counts, rates, lengths) use :func:`nonnegative_estimate` (a log-transformed
interval, exact Poisson bounds for constant counts) or :func:`count_estimate` (exact Poisson), whose
lower bounds never go below 0.  :func:`run_until` draws batches until a target precision is reached or
a trial cap is hit, and says which.

Examples
--------
>>> from pyradice_lab.engine.stats import proportion_estimate
>>> est = proportion_estimate(30, 100)
>>> round(est.value, 2), round(est.ci_low, 3), round(est.ci_high, 3)
(0.3, 0.219, 0.396)
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from statistics import NormalDist

import numpy as np

from .rng import as_generator

__all__ = ["Estimate", "RunResult", "MeanAccumulator", "ProportionAccumulator", "mean_estimate", "proportion_estimate",
           "nonnegative_estimate", "count_estimate", "run_until", "Z95", "SmallSampleWarning", "SMALL_SAMPLE", "holm"]

Z95 = NormalDist().inv_cdf(0.975)

#: Below this many games an estimate's interval still holds its level (Student-t, Wilson), but it is wide and
#: rests on few games: the designer's tools warn with :class:`SmallSampleWarning`.
SMALL_SAMPLE = 30


class SmallSampleWarning(UserWarning):
    """An estimate rests on fewer than :data:`SMALL_SAMPLE` games.

    Its interval is still one that holds its level at that size (Student-t with ``n - 1`` degrees of freedom,
    Wilson for win shares), but it is wide and its coverage leans on the per-game values being not too skewed:
    read it as indicative and play more games before acting on it.

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warnings.warn("only 10 games", SmallSampleWarning)
    >>> caught[0].category.__name__
    'SmallSampleWarning'
    """


@dataclass(frozen=True)
class Estimate:
    """A Monte Carlo estimate: ``value`` ± ``se`` from ``n`` samples, with a confidence interval.

    ``dist`` names the distribution the interval comes from, so that a test of the same data reads its p-value
    off the same distribution (:attr:`pyradice_lab.engine.findings.Finding.p`): ``"t"`` (Student-t with ``df``
    degrees of freedom), ``"score"`` (Wilson: the binomial score test), ``"poisson"`` (exact Poisson, ``n``
    units of exposure) or ``""`` (normal).  Neither takes part in equality nor in :meth:`to_dict`.
    """

    value: float
    se: float
    n: int
    ci_low: float
    ci_high: float
    confidence: float = 0.95
    dist: str = field(default="", compare=False, repr=False)
    df: float | None = field(default=None, compare=False, repr=False)

    @property
    def halfwidth(self) -> float:
        """Half the width of the confidence interval."""
        return (self.ci_high - self.ci_low) / 2

    def contains(self, x: float) -> bool:
        """Whether ``x`` lies in the confidence interval (inclusive)."""
        return self.ci_low <= x <= self.ci_high

    def to_dict(self, prefix: str | None = None) -> dict:
        """Flat dict; with ``prefix`` the keys are ``prefix``, ``prefix_se``, ``prefix_ci_low`` ..."""
        d = asdict(self)
        del d["dist"], d["df"]
        if prefix is None:
            return d
        return {
            prefix: self.value,
            f"{prefix}_se": self.se,
            f"{prefix}_ci_low": self.ci_low,
            f"{prefix}_ci_high": self.ci_high,
        }

    def __format__(self, spec: str) -> str:
        """``value ± se (95% CI low..high, n=...)``; never a "± 0" or a zero-width interval presented as one.

        An estimate whose standard error is 0 but whose interval is not (a proportion of 0 or 1 with its
        Wilson interval) omits the "± 0"; a zero-width interval is called what it is (exact, or every
        sample equal); a value that is not finite reads "not available".
        """
        spec = spec or ".4g"
        conf = f"{100 * self.confidence:g}%"
        if not all(math.isfinite(v) for v in (self.value, self.se, self.ci_low, self.ci_high)):
            return f"not available (n={self.n})"
        if self.ci_low == self.ci_high:
            if self.n == 0:
                return f"{self.value:{spec}} (exact)"
            return f"{self.value:{spec}} (all {self.n} samples equal; no interval)"
        ci = f"{conf} CI {self.ci_low:{spec}}..{self.ci_high:{spec}}, n={self.n}"
        if self.se == 0:
            return f"{self.value:{spec}} ({ci})"
        return f"{self.value:{spec}} ± {self.se:{spec}} ({ci})"

    def __str__(self) -> str:
        return format(self)


def holm(p_values) -> list[float]:
    """Holm's step-down adjustment of a family's p-values (familywise error under any dependence), in order.

    Examples
    --------
    >>> holm([0.01, 0.04, 0.03])
    [0.03, 0.06, 0.06]
    """
    ps = [float(p) for p in p_values]
    for p in ps:
        if not 0 <= p <= 1:
            raise ValueError(f"p_values must lie in [0, 1], got {p!r}")
    m = len(ps)
    out = [0.0] * m
    running = 0.0
    for k, i in enumerate(sorted(range(m), key=lambda i: ps[i])):
        running = max(running, min(1.0, (m - k) * ps[i]))
        out[i] = running
    return out


def _check_confidence(confidence: float) -> float:
    if not isinstance(confidence, numbers.Real) or not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")
    return float(confidence)


def _samples(samples) -> np.ndarray:
    try:
        x = np.asarray(samples, dtype=float).ravel()
    except (ValueError, TypeError):
        raise ValueError(f"samples must be numbers (a 1-D array of at least 2), got {samples!r:.80}") from None
    if x.size < 2:
        raise ValueError(f"samples must hold at least 2 values, got {x.size}")
    if not np.all(np.isfinite(x)):
        raise ValueError("samples must be finite (found NaN or inf)")
    return x


def mean_estimate(samples, *, confidence: float = 0.95) -> Estimate:
    """Mean of ``samples`` with its standard error and a Student-t confidence interval.

    Samples that are all 0 or 1 (booleans, win flags) are a proportion: they get the Wilson interval
    of :func:`proportion_estimate` instead, which never has zero width (3 wins in 3 games is not
    "1, CI 1..1").

    Parameters
    ----------
    samples : array_like of real, shape (n,)
        At least 2 finite values (flattened).
    confidence : float
        Confidence level of the interval, in (0, 1).

    Returns
    -------
    Estimate
        ``value`` (the mean), ``se``, ``n``, ``ci_low``, ``ci_high`` and ``confidence``.

    Raises
    ------
    ValueError
        If ``samples`` is not numeric, holds fewer than 2 values or a NaN/inf, or ``confidence`` is not in (0, 1).

    Examples
    --------
    >>> est = mean_estimate([1.0, 2.0, 3.0, 4.0])
    >>> est.value, round(est.se, 4)
    (2.5, 0.6455)
    >>> won = mean_estimate([True, True, True])
    >>> won.value, round(won.ci_low, 3), won.ci_high
    (1.0, 0.439, 1.0)
    """
    confidence = _check_confidence(confidence)
    x = _samples(samples)
    n = x.size
    if np.all((x == 0) | (x == 1)):
        return proportion_estimate(int(x.sum()), n, confidence=confidence)
    mean = float(x.mean())
    se = float(x.std(ddof=1) / math.sqrt(n))
    return _t_estimate(mean, se, n, confidence)


def _t_estimate(mean: float, se: float, n: int, confidence: float) -> Estimate:
    from scipy.special import stdtrit  # scipy loads on the first t interval, not at import

    q = float(stdtrit(n - 1, 0.5 + confidence / 2))
    return Estimate(mean, se, n, mean - q * se, mean + q * se, confidence, "t", n - 1)


class MeanAccumulator:
    """Mean and variance of samples that arrive in blocks, in constant memory.

    Each block's mean and sum of squared deviations are computed in two passes and merged into the running
    totals with the pairwise update of Chan, Golub and LeVeque (Welford's update for a block of one), so
    any number of samples is summarised without holding them.  :meth:`estimate` equals
    :func:`mean_estimate` of all the samples at once (up to floating-point rounding), including its rule
    for samples that are all 0 or 1 (a proportion, with the Wilson interval; the ones are counted exactly).

    Examples
    --------
    >>> acc = MeanAccumulator()
    >>> for block in ([1.0, 2.0], [3.0], [4.0]):
    ...     _ = acc.add(block)
    >>> est = acc.estimate()
    >>> est.value, round(est.se, 4), est.n
    (2.5, 0.6455, 4)
    """

    __slots__ = ("n", "mean", "m2", "ones")

    def __init__(self) -> None:
        self.n = 0
        self.mean = 0.0
        self.m2 = 0.0
        self.ones: int | None = 0  # number of ones while every sample is 0 or 1, else None

    def add(self, samples) -> MeanAccumulator:
        """Add a block of samples (array_like of finite reals); returns ``self``."""
        x = np.asarray(samples, dtype=float).ravel()
        if x.size == 0:
            return self
        if not np.all(np.isfinite(x)):
            raise ValueError("samples must be finite (found NaN or inf)")
        if self.ones is not None:
            self.ones = int(np.count_nonzero(x)) + self.ones if np.all((x == 0) | (x == 1)) else None
        mean = float(x.mean())
        d = x - mean
        return self._merge(x.size, mean, float(d @ d))

    def merge(self, other: MeanAccumulator) -> MeanAccumulator:
        """Fold another accumulator's samples into this one; returns ``self``."""
        if not isinstance(other, MeanAccumulator):
            raise TypeError(f"other must be a MeanAccumulator, got {type(other).__name__}")
        self.ones = None if self.ones is None or other.ones is None else self.ones + other.ones
        return self._merge(other.n, other.mean, other.m2)

    def _merge(self, n: int, mean: float, m2: float) -> MeanAccumulator:
        if n == 0:
            return self
        total = self.n + n
        delta = mean - self.mean
        self.mean += delta * n / total
        self.m2 += m2 + delta * delta * self.n * n / total
        self.n = total
        return self

    @property
    def variance(self) -> float:
        """Sample variance (``ddof=1``); NaN with fewer than 2 samples."""
        return self.m2 / (self.n - 1) if self.n > 1 else math.nan

    def estimate(self, *, confidence: float = 0.95) -> Estimate:
        """The mean with its standard error and Student-t interval (needs at least 2 samples)."""
        confidence = _check_confidence(confidence)
        if self.n < 2:
            raise ValueError(f"samples must hold at least 2 values, got {self.n}")
        if self.ones is not None:  # all 0/1: a proportion, as mean_estimate does
            return proportion_estimate(self.ones, self.n, confidence=confidence)
        return _t_estimate(self.mean, math.sqrt(max(self.variance, 0.0) / self.n), self.n, confidence)

    def __repr__(self) -> str:
        return f"MeanAccumulator(n={self.n}, mean={self.mean!r}, m2={self.m2!r})"


class ProportionAccumulator:
    """Successes and trials counted over blocks (exact integers); :meth:`estimate` is the Wilson interval.

    Examples
    --------
    >>> acc = ProportionAccumulator().add([True, False]).add([True, True])
    >>> acc.successes, acc.n, acc.estimate().value
    (3, 4, 0.75)
    """

    __slots__ = ("successes", "n")

    def __init__(self) -> None:
        self.successes = 0
        self.n = 0

    def add(self, hits, n: int | None = None) -> ProportionAccumulator:
        """Add a block: an array of booleans, or a count of successes ``hits`` out of ``n`` trials."""
        if n is None:
            x = np.asarray(hits)
            if x.dtype != bool:
                raise TypeError(f"hits must be an array of bool (or a count with n), got dtype {x.dtype}")
            self.successes += int(np.count_nonzero(x))
            self.n += int(x.size)
            return self
        for name, v in (("hits", hits), ("n", n)):
            if isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < 0:
                raise ValueError(f"{name} must be a non-negative integer, got {v!r}")
        if hits > n:
            raise ValueError(f"hits must be in 0..n={n}, got {hits}")
        self.successes += int(hits)
        self.n += int(n)
        return self

    def merge(self, other: ProportionAccumulator) -> ProportionAccumulator:
        if not isinstance(other, ProportionAccumulator):
            raise TypeError(f"other must be a ProportionAccumulator, got {type(other).__name__}")
        self.successes += other.successes
        self.n += other.n
        return self

    def estimate(self, *, confidence: float = 0.95) -> Estimate:
        return proportion_estimate(self.successes, self.n, confidence=confidence)

    def __repr__(self) -> str:
        return f"ProportionAccumulator(successes={self.successes}, n={self.n})"


def proportion_estimate(successes, n, *, confidence: float = 0.95) -> Estimate:
    """A proportion ``successes / n`` with the Wilson score interval.

    Parameters
    ----------
    successes : int
        Number of successes, 0..n.
    n : int
        Number of trials, > 0.
    confidence : float
        Confidence level of the interval, in (0, 1).

    Returns
    -------
    Estimate
        ``value`` = ``successes / n``, its binomial ``se``, ``n`` and the Wilson ``ci_low``, ``ci_high``.

    Raises
    ------
    ValueError
        If ``n`` is not a positive integer, ``successes`` is not an integer in 0..n, or ``confidence`` is not
        in (0, 1).

    Examples
    --------
    >>> est = proportion_estimate(0, 50)
    >>> est.value, est.ci_low == 0.0, round(est.ci_high, 4)
    (0.0, True, 0.0713)
    """
    confidence = _check_confidence(confidence)
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n <= 0:
        raise ValueError(f"n must be a positive integer number of trials, got {n!r}")
    if isinstance(successes, bool) or not isinstance(successes, numbers.Integral) or not 0 <= successes <= n:
        raise ValueError(f"successes must be an integer in 0..n={n}, got {successes!r}")
    n = int(n)
    p = successes / n
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    se = math.sqrt(p * (1 - p) / n)
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return Estimate(p, se, n, low, high, confidence, "score")


def count_estimate(total, n, *, confidence: float = 0.95) -> Estimate:
    """A rate ``total / n`` of a count (events over ``n`` games) with the exact Poisson interval.

    The interval (Garwood's) never goes below 0 and is not of zero width when ``total`` is 0.

    Parameters
    ----------
    total : int
        Events counted, >= 0.
    n : int
        Units of exposure (games, turns), > 0.

    Examples
    --------
    >>> est = count_estimate(0, 100)
    >>> est.value, est.ci_low, round(est.ci_high, 4)
    (0.0, 0.0, 0.0369)
    """
    confidence = _check_confidence(confidence)
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n <= 0:
        raise ValueError(f"n must be a positive integer, got {n!r}")
    if isinstance(total, bool) or not isinstance(total, numbers.Integral) or total < 0:
        raise ValueError(f"total must be a non-negative integer count, got {total!r}")
    from scipy.special import chdtri  # scipy loads on first use, not at import

    alpha = 1 - confidence
    low = 0.0 if total == 0 else float(chdtri(2 * total, 1 - alpha / 2)) / 2 / n
    high = float(chdtri(2 * total + 2, alpha / 2)) / 2 / n
    return Estimate(total / n, math.sqrt(total) / n, int(n), low, high, confidence, "poisson")


def nonnegative_estimate(samples, *, confidence: float = 0.95) -> Estimate:
    """Mean of non-negative ``samples`` (counts, rates, lengths) with an interval that stays >= 0.

    The interval is the Student-t interval of the log of the mean (delta method: ``mean * exp(±q se/mean)``),
    so it is asymmetric and its lower bound is positive.  When every sample is equal the t interval has
    zero width; integer samples (counts) then get the exact Poisson interval of their total (all zeros
    included), other constant samples keep the zero-width interval, which :class:`Estimate` prints as
    "all samples equal".

    Parameters
    ----------
    samples : array_like of real >= 0, shape (n,)
        At least 2 finite values.

    Examples
    --------
    >>> est = nonnegative_estimate([0, 0, 1, 0, 3])
    >>> round(est.value, 2), est.ci_low > 0
    (0.8, True)
    >>> round(nonnegative_estimate([0, 0, 0]).ci_high, 3)
    1.23
    """
    confidence = _check_confidence(confidence)
    x = _samples(samples)
    if np.any(x < 0):
        raise ValueError("samples must be non-negative (found a negative value)")
    n = x.size
    mean = float(x.mean())
    sd = float(x.std(ddof=1))
    if sd == 0 and np.all(x == np.round(x)):
        pois = count_estimate(int(round(x.sum())), n, confidence=confidence)
        return Estimate(mean, 0.0, n, pois.ci_low, pois.ci_high, confidence, "poisson")
    se = sd / math.sqrt(n)
    if se == 0:
        return Estimate(mean, 0.0, n, mean, mean, confidence)
    from scipy.special import stdtrit

    q = float(stdtrit(n - 1, 0.5 + confidence / 2))
    factor = math.exp(q * se / mean)
    return Estimate(mean, se, n, mean / factor, mean * factor, confidence, "t", n - 1)


@dataclass(frozen=True)
class RunResult:
    """Outcome of :func:`run_until`: the estimate, whether the precision target was reached, and why it stopped."""

    estimate: Estimate
    reached: bool
    reason: str  # "target" or "max_trials"
    trials: int
    target_halfwidth: float

    def to_dict(self) -> dict:
        return {**self.estimate.to_dict(), "reached": self.reached, "reason": self.reason,
                "target_halfwidth": self.target_halfwidth}


def _parse_target(target) -> tuple[str, float]:
    if isinstance(target, str):
        t = target.strip()
        try:
            return ("rel", float(t[:-1]) / 100) if t.endswith("%") else ("abs", float(t))
        except ValueError:
            pass
    elif isinstance(target, tuple) and len(target) == 2 and target[0] in ("rel", "abs"):
        return target[0], float(target[1])
    if isinstance(target, numbers.Real) and not isinstance(target, bool):
        return "abs", float(target)
    raise ValueError(
        f"rel_or_abs_halfwidth must be a positive number (absolute), 'x%' or ('rel', x) (relative), got {target!r}"
    )


def run_until(
    sample_fn: Callable[[int, np.random.Generator], np.ndarray],
    *,
    rel_or_abs_halfwidth,
    max_trials: int,
    rng=None,
    batch: int = 10_000,
    min_trials: int = 1_000,
    confidence: float = 0.95,
) -> RunResult:
    """Draw batches from ``sample_fn`` until the CI half-width target or ``max_trials`` is reached.

    Parameters
    ----------
    sample_fn : callable ``(n, rng) -> array``
        Returns ``n`` samples; a boolean array is treated as successes (Wilson interval), numbers as a mean.
    rel_or_abs_halfwidth : float, str or tuple
        Target half-width of the confidence interval: a number is absolute, ``"1%"`` or ``("rel", 0.01)``
        is relative to ``|value|``.
    max_trials : int
        Cap on the total number of samples.
    rng : seed or Generator
        Batches are drawn from this one generator in order, so a seed fixes the result.
    batch : int
        Samples per batch (the last batch is cut to respect ``max_trials``).  Batches are summarised as they
        arrive (exact counts, or a running mean and variance), so memory does not grow with ``max_trials``.
    min_trials : int
        Samples to draw before the target may stop the run.
    confidence : float
        Confidence level of the interval, in (0, 1).

    Returns
    -------
    RunResult
        ``estimate`` (an :class:`Estimate`), ``reached`` (the target was met), ``reason`` (``"target"`` or
        ``"max_trials"``), ``trials`` drawn and ``target_halfwidth``.

    Raises
    ------
    ValueError
        If the target is not positive, ``max_trials`` or ``batch`` is not a positive integer, ``min_trials`` is
        negative, or ``sample_fn`` returns the wrong number of samples.
    TypeError
        If ``sample_fn`` is not callable.

    Examples
    --------
    >>> res = run_until(lambda n, rng: rng.random(n) < 0.25, rel_or_abs_halfwidth=0.01,
    ...                 max_trials=200_000, rng=1)
    >>> res.reason, res.estimate.halfwidth <= 0.01
    ('target', True)
    """
    kind, tol = _parse_target(rel_or_abs_halfwidth)
    if not tol > 0:
        raise ValueError(f"rel_or_abs_halfwidth must be positive, got {rel_or_abs_halfwidth!r}")
    if not callable(sample_fn):
        raise TypeError(f"sample_fn must be a callable (n, rng) -> array of n samples, got {type(sample_fn).__name__}")
    for name, v in (("max_trials", max_trials), ("batch", batch)):
        if isinstance(v, bool) or not isinstance(v, numbers.Integral) or v <= 0:
            raise ValueError(f"{name} must be a positive integer, got {v!r}")
    if isinstance(min_trials, bool) or not isinstance(min_trials, numbers.Integral) or min_trials < 0:
        raise ValueError(f"min_trials must be a non-negative integer, got {min_trials!r}")
    gen = as_generator(rng)
    acc: MeanAccumulator | ProportionAccumulator | None = None
    total = 0
    est = None
    while total < max_trials:
        m = min(batch, max_trials - total)
        x = np.asarray(sample_fn(m, gen)).ravel()
        if x.size != m:
            raise ValueError(f"sample_fn returned {x.size} samples, expected {m}")
        if acc is None:  # the first batch decides: booleans are successes, numbers a mean
            acc = ProportionAccumulator() if x.dtype == bool else MeanAccumulator()
        if isinstance(acc, ProportionAccumulator):
            acc.add(x.astype(bool, copy=False))
        else:
            acc.add(x)
        total += m
        est = acc.estimate(confidence=confidence)
        goal = tol if kind == "abs" else tol * abs(est.value)
        if total >= min(min_trials, max_trials) and est.halfwidth <= goal:
            return RunResult(est, True, "target", total, goal)
    goal = tol if kind == "abs" else tol * abs(est.value)
    return RunResult(est, est.halfwidth <= goal, "max_trials", total, goal)
