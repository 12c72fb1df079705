"""The designer metrics: per-game numbers (and ratios and smooth functions of per-game sums) a comparison,
a robustness check or a balancing objective is about.

The metrics of a game are the common ones (:data:`pyradice_lab.engine.metrics.COMMON`: win shares, start-player
edge, mean score, score spread) followed by the game's own, declared in its package as ``<game>/metrics.py``
``METRICS`` (name -> :class:`~pyradice_lab.engine.metrics.Metric`) and found through the registry
(``registry.get_game(game).part("metrics")``); nothing here names a game.

Metrics are per-game numbers, or ratios of per-game sums (``burst_rate`` = bursts / turns over all games),
estimated by the ratio estimator with the delta-method standard error (per-game linearised values, paired
the same way).  A few are smooth functions of several per-game sums, e.g. a difference of two ratios
(Meerkat's ``tile_pay_excess:T`` = tile T's points per meerkat minus all tiles' points per meerkat): they are
estimated by the same delta method, with the function's gradient at the column means.  :func:`metrics` lists
a game's metrics; :func:`metric_values` computes one from a ``simulate_games`` frame.

Intervals (95%) hold at every number of games: a mean, a ratio or a smooth function (delta method) and a paired
difference of any of them get the Student-t interval with ``n - 1`` degrees of freedom (``n`` games) of their
per-game linearised values; a win share (:data:`SHARE_METRICS`: per-game values in [0, 1]) gets the Wilson
interval, and the paired difference of two win shares the Agresti-Min interval (the per-game differences with
half a pseudo-game of each sign added, and the t(n - 1) quantile instead of z: slightly wider, conservative at
small ``n``), so no share ever shows a zero-width interval, even when every game agrees.  A per-game count
(whole numbers >= 0 over a denominator of 1: hazards, events per game) with fewer than
:data:`COUNT_EXACT_BELOW` events in all gets the hull of the Student-t interval and the exact Poisson (Garwood)
interval of its total, and the paired difference of two such counts the hull of the paired t interval and an
exact interval from the two totals (Garwood for their sum, Clopper-Pearson for the variant's share of the
events): never of zero width, and at least 95% coverage for Poisson events at any ``n``.  Below :data:`~pyradice_lab.engine.stats.SMALL_SAMPLE` (30) games the estimates warn with
:class:`~pyradice_lab.engine.stats.SmallSampleWarning`.

Examples
--------
>>> from pyradice_lab.design.metrics import metrics
>>> "start_player_win" in set(metrics("raft").metric)
True
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..engine import registry
from ..engine.metrics import COMMON as _COMMON, Metric, Smooth
from ..engine.stats import SMALL_SAMPLE, Z95, Estimate, SmallSampleWarning

__all__ = ["metrics", "metric_values", "metric_estimate", "paired_estimates", "check_metric",
           "SmallSampleWarning", "SHARE_METRICS", "COUNT_EXACT_BELOW", "expand_metric", "is_family", "simulate_options"]

#: The win-share metrics (per-game values in [0, 1], ties shared): Wilson intervals, and the paired difference's
#: interval never has zero width (see :func:`paired_estimates`).
SHARE_METRICS = frozenset({"start_player_win", "seat_win", "position_win"})


# the former private names, kept for old imports and for block files that name ``design.metrics:_Smooth``
_Metric, _Smooth = Metric, Smooth


def __getattr__(name: str):
    if name == "GAMES":  # the registered games' names (was a fixed tuple)
        return tuple(registry.games())
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _check_game(game) -> str:
    names = tuple(registry.games())
    if not isinstance(game, str):
        raise TypeError(f"game must be a game name (str), one of {', '.join(names)}; got {type(game).__name__}")
    if game not in names:
        raise ValueError(f"game must be one of {', '.join(names)}, got {game!r}")
    return game


def _table(game: str) -> dict[str, Metric]:
    """The metrics of a (checked) game: the common ones, then the game's ``METRICS`` (none declared: none)."""
    return {**_COMMON, **registry.get_game(game).part("metrics", {})}


def metrics(game: str) -> pd.DataFrame:
    """The metrics :func:`compare` knows for ``game``: ``metric``, ``argument`` (``NAME:ARG``), ``meaning``.

    Examples
    --------
    >>> "burst_rate" in set(metrics("purramid")["metric"])
    True
    """
    table = _table(_check_game(game))
    return pd.DataFrame([(k, m.arg + (" (required)" if m.needs_arg else ""), m.description)
                         for k, m in table.items()], columns=["metric", "argument", "meaning"])


def check_metric(game: str, metric: str) -> str:
    """``metric`` if ``game`` knows it (ValueError naming the allowed metrics otherwise)."""
    _parse_metric(_check_game(game), metric)
    return metric.strip()


def is_family(metric) -> bool:
    """Whether ``metric`` names a family of metrics, ``name:*`` (every argument the metric takes on the games)."""
    return isinstance(metric, str) and metric.strip().endswith(":*")


def _family_metric(game: str, metric: str) -> tuple[str, Metric]:
    table = _table(_check_game(game))
    name = metric.strip()[:-2]
    if name not in table:
        _parse_metric(game, name)  # raises, naming the allowed metrics
    m = table[name]
    if m.family is None:
        fams = sorted(k for k, v in table.items() if v.family is not None)
        raise ValueError(f"metric {metric!r}: {name} has no family ('name:*'); the {game} families are "
                         f"{', '.join(f'{k}:*' for k in fams)}")
    return name, m


def expand_metric(game: str, df: pd.DataFrame, metric: str) -> list[str]:
    """The metrics ``metric`` stands for on the games of ``df``: ``[metric]``, or for a family ``name:*`` one
    ``name:ARG`` per argument the metric takes on these games (every tile of a Meerkat board, every lifeboat
    size of a Rocking Raft deck, every seat).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"present_t2": [1], "present_t3": [1], "paid_t2": [3], "paid_t3": [2]})
    >>> expand_metric("meerkat", df, "tile_pay_excess:*")
    ['tile_pay_excess:2', 'tile_pay_excess:3']
    """
    if not is_family(metric):
        return [check_metric(game, metric)]
    name, m = _family_metric(game, metric)
    return [f"{name}:{arg}" for arg in m.family(df)]


def simulate_options(game: str, metric: str) -> dict:
    """The ``simulate_games`` keyword arguments ``metric`` (or a family ``name:*``) needs, e.g. Rocking Raft's
    ``card_columns=True`` for ``boat_pay_excess:K``."""
    if is_family(metric):
        return dict(_family_metric(game, metric)[1].options)
    return dict(_parse_metric(_check_game(game), metric)[1].options)


def metric_values(game: str, df: pd.DataFrame, metric: str, *, outcomes: pd.DataFrame | None = None
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Per-game numerator and denominator of ``metric`` on a ``simulate_games`` frame of ``game``.

    The metric over many games is ``sum(numerator) / sum(denominator)`` (a plain mean when the denominator is 1
    in every game); :func:`metric_estimate` turns them into an estimate with its interval.  A metric that is not
    one ratio (e.g. ``tile_pay_excess:T``, a difference of two ratios) gives its per-game linearised values
    (the metric plus each game's delta-method influence) over a denominator of 1: their mean is the metric on
    these games and their spread its delta-method standard error, but unlike a ratio's numerator they depend
    on all the games of ``df`` (concatenate frames, not these values).  ``outcomes``: the game's ``outcomes(df)``
    when the caller has it (several metrics of one frame: built once, not once per metric).
    """
    game = _check_game(game)
    name, m, arg = _parse_metric(game, metric)
    res = m.fn(df, registry.get_game(game).module("sim").outcomes(df) if outcomes is None else outcomes, arg)
    if isinstance(res, Smooth):
        value, z = _linear(res, name)
        return value + z, np.ones(len(z))
    num, den = res
    return np.asarray(num, dtype=float), np.asarray(den, dtype=float)


def metric_estimate(num, den, metric: str = "metric", *, warn: bool = True) -> Estimate:
    """The ratio estimate ``sum(num) / sum(den)`` with its delta-method SE and 95% interval.

    The interval is Student-t with ``n - 1`` degrees of freedom on the per-game linearised values; for a win
    share (``metric`` one of :data:`SHARE_METRICS`, or an unnamed metric whose per-game values are all 0 or 1
    over a denominator of 1) it is the Wilson interval, never of zero width; for a rare per-game count (whole
    numbers >= 0 over a denominator of 1, fewer than :data:`COUNT_EXACT_BELOW` events in all) the hull of the t
    interval and the exact Poisson (Garwood) interval of the total, never of zero width.

    Parameters
    ----------
    num, den : array_like, shape (n,)
        Per-game numerator and denominator (:func:`metric_values`).
    metric : str
        The metric's name (for error messages, and to recognise a win share).
    warn : bool
        Warn (:class:`SmallSampleWarning`) when ``n`` < 30.

    Returns
    -------
    Estimate

    Raises
    ------
    ValueError
        If a value is NaN or the denominator sums to 0.

    Examples
    --------
    >>> est = metric_estimate([1] * 30, [1] * 30, "start_player_win")
    >>> est.value, round(est.ci_low, 3), est.ci_high      # 30 wins in 30 games: Wilson, not "1..1"
    (1.0, 0.886, 1.0)
    >>> est = metric_estimate([3, 5, 4, 6] * 10, [10, 12, 9, 11] * 10, "burst_rate")
    >>> round(est.value, 4), round(est.ci_high - est.ci_low, 4)
    (0.4286, 0.0564)
    """
    num, den = np.asarray(num, dtype=float), np.asarray(den, dtype=float)
    value, z = _linearised(num, den, metric)
    if warn:
        _warn_small(len(z), metric)
    if _is_share(metric, (num, den)):
        return _share_estimate(num)
    if _is_rare_count(num, den):
        return _count_estimate(value, z, num)
    return _estimate(value, z)


def paired_estimates(base, variant, metric: str = "metric", *,
                     warn: bool = True) -> tuple[Estimate, Estimate, Estimate, float]:
    """Estimates of ``metric`` from two runs of the same games (common random numbers).

    ``base`` and ``variant`` are ``(numerator, denominator)`` per game (:func:`metric_values`) of the same games
    in the same order.  Returns the base and variant estimates, the difference variant - base (its SE from the
    per-game paired differences of the linearised values) and the SE two independent runs would give.

    The difference's interval is Student-t with ``n - 1`` degrees of freedom on the per-game differences; for
    a win share (:data:`SHARE_METRICS`) it is the Agresti-Min interval (Agresti & Min 2005: the per-game
    differences with half a pseudo-game at +1, half at -1 and one at 0 added), which keeps its level at small
    ``n`` and is never of zero width (it uses the t(n - 1) quantile instead of z: up to 0.07 wider at n = 10,
    conservative); for two rare per-game counts (see :func:`metric_estimate`) the hull of the paired t interval
    and an exact interval from the two totals (:func:`_count_difference`), never of zero width.  The SE itself
    stays that of the paired differences (0 when every game agrees), so ``(independent SE / SE)**2`` is the variance-reduction factor of common random numbers: above 1
    the pairing narrowed the interval, below 1 (it happens: a change that reshuffles every later roll can make
    the two runs' noise add rather than cancel) it widened it.

    Examples
    --------
    >>> b, v, d, ind = paired_estimates(([1, 0, 1, 1] * 10, [1] * 40), ([1, 0, 1, 1] * 10, [1] * 40),
    ...                                 "start_player_win")
    >>> d.value, d.se, d.ci_low < 0 < d.ci_high        # every game agrees: still an interval
    (0.0, 0.0, True)
    """
    rb, zb = _linear(base, metric)
    rv, zv = _linear(variant, metric)
    if len(zb) != len(zv):
        raise ValueError(f"paired estimates need the same games in both runs, got {len(zb)} and {len(zv)} games")
    if warn:
        _warn_small(len(zb), metric)
    if _is_share(metric, base) and _is_share(metric, variant):
        xb, xv = (np.asarray(p[0], dtype=float) for p in (base, variant))
        b, v = _share_estimate(xb), _share_estimate(xv)
        return b, v, _share_difference(xv - xb), math.sqrt(b.se ** 2 + v.se ** 2)
    b, v = _estimate(rb, zb), _estimate(rv, zv)
    d = _estimate(rv - rb, zv - zb)
    if not isinstance(base, Smooth) and not isinstance(variant, Smooth):
        counts = [np.asarray(p[0], dtype=float) for p in (base, variant)]
        if _is_rare_count(counts[0], base[1]) or _is_rare_count(counts[1], variant[1]):
            if _is_count(counts[0], base[1]) and _is_count(counts[1], variant[1]):
                b, v = _count_estimate(rb, zb, counts[0]), _count_estimate(rv, zv, counts[1])
                d = _count_difference(d, counts[0], counts[1])
    return b, v, d, math.sqrt(b.se ** 2 + v.se ** 2)


def _warn_small(n: int, metric: str, stacklevel: int = 3) -> None:
    if n < SMALL_SAMPLE:
        import warnings

        warnings.warn(f"{metric}: only {n} games (fewer than {SMALL_SAMPLE}): the interval holds its level but is "
                      "wide; play more games before acting on it", SmallSampleWarning, stacklevel=stacklevel)


def small_sample_note(n: int) -> str:
    """The line the designer's tools print under a result of fewer than 30 games ("" otherwise).

    Examples
    --------
    >>> small_sample_note(10)[:40]
    'only 10 games (fewer than 30): the inter'
    >>> small_sample_note(30)
    ''
    """
    if n >= SMALL_SAMPLE:
        return ""
    return (f"only {n} games (fewer than {SMALL_SAMPLE}): the intervals hold their level (Student-t, Wilson) but "
            "are wide; indicative only")


def _parse_metric(game: str, metric) -> tuple[str, Metric, str]:
    if not isinstance(metric, str):
        raise TypeError(f"metric must be a metric name (str), got {type(metric).__name__}")
    table = _table(game)
    name, _, arg = metric.strip().partition(":")
    if name not in table:
        import difflib

        close = difflib.get_close_matches(name, table, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise ValueError(f"metric {metric!r} is not a {game} metric{hint}; allowed: {', '.join(table)} "
                         f"(seat_win:K and position_win:K take a seat / turn position)")
    m = table[name]
    if m.needs_arg and not arg:
        raise ValueError(f"metric {name} needs {m.arg}, e.g. {name}:{m.example}")
    if arg and not m.arg:
        raise ValueError(f"metric {name} takes no argument, got {metric!r}")
    return name, m, arg


# ------------------------------------------------------------------------------------------------ estimates
def _linear(res, metric: str) -> tuple[float, np.ndarray]:
    """The estimate and per-game linearised values of a metric function's result ((num, den) or Smooth)."""
    if not isinstance(res, Smooth):
        num, den = res
        return _linearised(np.asarray(num, dtype=float), np.asarray(den, dtype=float), metric)
    x = res.columns
    if not np.all(np.isfinite(x)):
        raise ValueError(f"metric {metric} is not defined in some games (NaN)")
    means = x.mean(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        value, grad = float(res.fn(means)), np.asarray(res.grad(means), dtype=float)
    if not (np.isfinite(value) and np.all(np.isfinite(grad))):
        raise ValueError(f"metric {metric} is not defined on these games (a denominator is 0 in every game)")
    return value, (x - means) @ grad


def _concat(parts: list):
    """The metric function results of consecutive blocks of games as one result."""
    if isinstance(parts[0], Smooth):
        return Smooth(np.concatenate([p.columns for p in parts]), parts[0].form, parts[0].params)
    return (np.concatenate([np.asarray(p[0], float) for p in parts]),
            np.concatenate([np.asarray(p[1], float) for p in parts]))


def _linearised(num: np.ndarray, den: np.ndarray, metric: str) -> tuple[float, np.ndarray]:
    """The ratio estimate sum(num)/sum(den) and its per-game linearised values (delta method)."""
    if not (np.all(np.isfinite(num)) and np.all(np.isfinite(den))):
        raise ValueError(f"metric {metric} is not defined in some games (NaN)")
    total = den.sum()
    if total == 0:
        raise ValueError(f"metric {metric} is not defined: its denominator is 0 in every game")
    r = float(num.sum() / total)
    return r, (num - r * den) / den.mean()


def _is_share(metric: str, res) -> bool:
    """Whether a metric's result is a win share: per-game values in [0, 1] over a denominator of 1 (by name, or for
    a metric this module does not know, by values that are all 0 or 1)."""
    if isinstance(res, Smooth):
        return False
    num, den = (np.asarray(x, dtype=float) for x in res)
    if not (len(num) and np.all(den == 1) and np.all((num >= 0) & (num <= 1))):
        return False
    name = str(metric).strip().partition(":")[0]
    if name in _COMMON or any(name in spec.part("metrics", {}) for spec in registry.games().values()):
        return name in SHARE_METRICS
    return bool(np.all((num == 0) | (num == 1)))


def _estimate(value: float, z: np.ndarray) -> Estimate:
    """Student-t interval (``n - 1`` degrees of freedom) of the mean of per-game linearised values ``z``."""
    n = len(z)
    if n < 2:
        return Estimate(value, math.nan, n, math.nan, math.nan, 0.95)
    from scipy.special import stdtrit

    se = float(np.std(z, ddof=1) / math.sqrt(n))
    q = float(stdtrit(n - 1, 0.975))
    return Estimate(value, se, n, value - q * se, value + q * se, 0.95, "t", n - 1)


#: A per-game count (events per game) whose total over the games is below this gets the exact Poisson interval
#: as well as the Student-t one (their hull): with few events the per-game values are too skewed for the t
#: interval (10 games of a 0.15-a-game hazard: 77% coverage, and [0, 0] whenever no game saw one), while the
#: Poisson interval keeps its level (98.5%) and never has zero width.  From this many events on, the mean of the
#: counts is near normal (skewness at most about 0.1 for Poisson counts) and the t interval alone holds, also for
#: under-dispersed counts (turns per game) that the Poisson interval would make needlessly wide.
COUNT_EXACT_BELOW = 100


def _is_count(num: np.ndarray, den) -> bool:
    """Whether per-game values are a count: whole numbers >= 0 over a denominator of 1 in every game."""
    den = np.asarray(den, dtype=float)
    return bool(len(num) and np.all(den == 1) and np.all(num >= 0) and np.all(num == np.round(num)))


def _is_rare_count(num: np.ndarray, den) -> bool:
    """A per-game count with fewer than :data:`COUNT_EXACT_BELOW` events in all."""
    return _is_count(num, den) and float(num.sum()) < COUNT_EXACT_BELOW


def _garwood(total: float, exposure: float, alpha: float) -> tuple[float, float]:
    """The exact (Garwood) ``1 - alpha`` interval of a Poisson rate: ``total`` events in ``exposure`` units."""
    from scipy.special import chdtri

    low = 0.0 if total == 0 else float(chdtri(2 * total, 1 - alpha / 2)) / 2 / exposure
    return low, float(chdtri(2 * total + 2, alpha / 2)) / 2 / exposure


def _count_estimate(value: float, z: np.ndarray, num: np.ndarray) -> Estimate:
    """A rare per-game count: the hull of the Student-t interval and the exact Poisson (Garwood) interval of its
    total over the ``n`` games: the Poisson interval keeps the level for rare events, the t one for
    over-dispersed (clustered) ones; never of zero width."""
    t = _estimate(value, z)
    low, high = _garwood(float(num.sum()), len(num), 0.05)
    if not math.isfinite(t.se):
        return Estimate(value, t.se, t.n, low, high, 0.95, "poisson")
    return Estimate(value, t.se, t.n, min(low, t.ci_low), max(high, t.ci_high), 0.95, "t", t.df)


def _count_difference(t: Estimate, xb: np.ndarray, xv: np.ndarray) -> Estimate:
    """The paired difference of two rare per-game counts (variant - base, ``n`` games): the hull of the paired
    Student-t interval ``t`` and an exact interval from the two totals.

    With ``N`` events in all, ``X`` of them in the variant, the difference of the rates is ``s (2 pi - 1)``:
    ``s`` the sum of the two rates (Garwood interval of ``N`` events in ``n`` games) and ``pi`` the variant's
    share of the events (given ``N``, ``X`` is binomial: Clopper-Pearson interval), each at 97.5% so that the
    range of ``s (2 pi - 1)`` over the two intervals holds at least 95% (Bonferroni) when the runs' counts are
    Poisson and independent; common random numbers make the share less variable than binomial, so pairing
    only makes it conservative.  The t interval keeps the level for over-dispersed counts.  Never of zero width
    (no event in either run: ``±`` the Garwood upper bound of ``s``)."""
    from scipy.special import betaincinv

    n, big, x = len(xb), float(xb.sum() + xv.sum()), float(xv.sum())
    s_low, s_high = _garwood(big, n, 0.025)
    p_low = 0.0 if x == 0 else float(betaincinv(x, big - x + 1, 0.0125))
    p_high = 1.0 if x == big else float(betaincinv(x + 1, big - x, 0.9875))
    corners = [s * (2 * p - 1) for s in (s_low, s_high) for p in (p_low, p_high)]
    low, high = min(corners), max(corners)
    if math.isfinite(t.se):
        low, high = min(low, t.ci_low), max(high, t.ci_high)
    return Estimate(t.value, t.se, t.n, min(low, t.value), max(high, t.value), 0.95, "t", t.df)


def _share_estimate(x: np.ndarray) -> Estimate:
    """A win share from per-game values in [0, 1] (ties shared): the mean, its SE and the Wilson interval (the
    binomial variance ``p (1 - p)`` bounds the variance of any [0, 1] value of mean ``p``)."""
    n = len(x)
    p = float(x.mean())
    se = float(np.std(x, ddof=1) / math.sqrt(n)) if n > 1 else math.nan
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 / (1 + z2 / n) * math.sqrt(max(p * (1 - p), 0.0) / n + z2 / (4 * n * n))
    low = 0.0 if p <= 0 else max(0.0, centre - half)
    high = 1.0 if p >= 1 else min(1.0, centre + half)
    return Estimate(p, se, n, low, high, 0.95, "score")


def _share_difference(d: np.ndarray) -> Estimate:
    """A paired difference of win shares from per-game differences ``d`` in [-1, 1]: the mean, its SE and the
    Agresti-Min interval (half a pseudo-game at +1 and at -1, one at 0: never of zero width)."""
    n = len(d)
    value = float(d.mean())
    se = float(np.std(d, ddof=1) / math.sqrt(n)) if n > 1 else math.nan
    m = n + 2
    centre = float(d.sum()) / m
    var = max((float(d @ d) + 1.0) / m - centre * centre, 0.0)
    from scipy.special import stdtrit

    half = float(stdtrit(n - 1, 0.975)) * math.sqrt(var / m) if n > 1 else math.inf
    return Estimate(value, se, n, max(-1.0, min(value, centre - half)), min(1.0, max(value, centre + half)), 0.95,
                    "t", n - 1)
