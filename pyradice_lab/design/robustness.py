"""Plausible component sets: what the rules fix, what a reconstruction is free to choose, and draws from it.

Every finding of this library rests on components the rules do not publish (Purramid's board numbers,
Meerkat Kingdom's tile values, Rocking Raft's card points and gem counts, Pyradice's card tables).  Each game
describes the choices its documented reconstruction makes freely, and ``<game>.components.sample_plausible``
draws one plausible component set: the rules' values stay as they are, each free choice is drawn from a stated
range around the packaged one, and the result goes through the game's one validation path like any other
components.  :func:`pyradice_lab.robustness` evaluates a finding on many such draws.

The free choices of each game (each sampler's docstring gives the ranges and the reasoning):

=============== ===========================================================================================
game            free choices drawn
=============== ===========================================================================================
meerkat         tile values: the exponent of "harder to roll pays more", the low/mid value ratios and a
                +-1 jitter per reconstructed tile (tile 6 = 6/3 is from the rules and stays)
raft            card points: weights of "gems needed" and "largest same-colour group" in the documented
                points rule, an offset, and the number of black (wild) gems (3 or 6 of 27)
pyradice        card tables: the curvature of Many and of the reconstructed table cards, the point scale
                of the reconstructed per-die cards (Pairs and Big are from the rules and stay)
purramid        board numbers: each row of both sides shuffled, kept only when every fact the rules fix
                (:func:`pyradice_lab.purramid.components.default_layout_facts`) still holds
=============== ===========================================================================================

Robustness
----------
:func:`robustness` evaluates one finding (a metric compared with a threshold, e.g. ``"start_player_win >
0.5"``) on the packaged components and on ``reconstructions`` component sets drawn by the game's
``components.sample_plausible`` (:mod:`pyradice_lab.design.robustness` lists each game's free choices).  Every set
plays the same games (common random numbers: the same per-game seeds), so differences between sets are
differences of components, not of luck.  On each set the finding *holds* when the metric's confidence
interval lies entirely on the claimed side of the threshold, is *reversed* when it lies entirely on the
other side, and is *undecided* otherwise.  The overall verdict (:attr:`RobustnessResult.verdict`) is
*robust* only when the finding holds on every sampled set (each set's own 95% interval: an intersection of
tests, so no correction is needed), *no* only when the evidence that some set reverses it survives Holm's
correction across the sampled sets (one-sided p-values of "the set is not reversed", familywise 2.5%: one set
whose own interval happens to lie on the other side does not make a "no" when the truth sits at the
threshold), and *undecided* otherwise.  Over repeated seeds with the truth at the threshold, "no" and
"robust" each come out in at most 5% of runs.

The share of sets on which the finding holds comes with a Wilson interval: the sets are independent draws of
the components but play the same games, so it is the interval of that share *given these games* (the games'
own noise is in each set's interval, not in this one).  The sensitivity table gives, per free choice,
Spearman's rank correlation with the metric over the sampled sets with a permutation p-value (exact: all
orderings up to 8 sets, 20,000 random ones beyond; no p-value below 3 sets, and with fewer than 5 none can
fall below 5%) and its Holm adjustment across the choices tested (``p_holm``): "it follows X most" is said
only when ``p_holm`` < 0.05.

Metrics are those of :func:`pyradice_lab.design.compare.metrics` (``start_player_win``, ``start_player_edge``, ``seat_win:K``,
``position_win:K``, ``mean_score``, ``score_spread``, ``game_length`` and each game's own, e.g. Meerkat's
``points_per_meerkat:T`` or Purramid's ``burst_rate``); ratio metrics carry delta-method standard errors.

Examples
--------
>>> parse_finding("start_player_win > 0.5")
Claim(metric='start_player_win', op='>', threshold=0.5)
"""

from __future__ import annotations

import numbers
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..engine.registry import get_game
from ..engine.sampling import PlausibleSample, finish_sample
from ..engine.stats import SMALL_SAMPLE
from ._robustness_result import (  # noqa: F401  # noqa: F401
    EXACT_PERMUTATIONS_UP_TO,
    PERMUTATIONS,
    REVERSAL_ALPHA,
    RobustnessResult,
    _sampled,
    _spearman,
    reversal_p_values,
)

__all__ = ["PlausibleSample", "finish_sample", "Claim", "RobustnessResult", "robustness", "robustness_many",
           "parse_finding", "game_metric", "reversal_p_values", "REVERSAL_ALPHA"]


# ------------------------------------------------------------------------------------ robustness
_OPS = (">=", "<=", ">", "<")
_FINDING = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*(?::[A-Za-z0-9_-]+)?)\s*(>=|<=|>|<)\s*([-+0-9.eE]+)\s*$")


@dataclass(frozen=True)
class Claim:
    """A finding as a metric, a direction and a threshold: ``metric op threshold``."""

    metric: str
    op: str
    threshold: float

    def __str__(self) -> str:
        return f"{self.metric} {self.op} {self.threshold:g}"

    def verdict(self, ci_low: float, ci_high: float) -> str:
        """``"holds"``, ``"reversed"`` or ``"undecided"`` for an interval of the metric."""
        above = self.op in (">", ">=")
        strict = self.op in (">", "<")
        lo_ok = ci_low > self.threshold if strict else ci_low >= self.threshold
        hi_ok = ci_high < self.threshold if strict else ci_high <= self.threshold
        if above:
            return "holds" if lo_ok else ("reversed" if ci_high < self.threshold else "undecided")
        return "holds" if hi_ok else ("reversed" if ci_low > self.threshold else "undecided")


def _check_metric(metric) -> str:
    """A metric's form (``name`` or ``name:ARG``); which metrics a game knows is checked against the game."""
    if not isinstance(metric, str):
        raise TypeError(f"metric must be a metric name (str), got {metric!r}")
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*(?::[A-Za-z0-9_-]+)?", metric.strip()):
        raise ValueError(f"metric must be a name or name:ARG (see pyradice_lab.design.compare.metrics(game)); got {metric!r}")
    return metric.strip()


def parse_finding(finding) -> Claim:
    """A :class:`Claim` from ``"metric op threshold"``, a ``(metric, op, threshold)`` tuple or a Claim."""
    if isinstance(finding, Claim):
        return Claim(_check_metric(finding.metric), finding.op, float(finding.threshold))
    if isinstance(finding, str):
        m = _FINDING.match(finding)
        if not m:
            raise ValueError(f"finding must read 'metric op threshold' with op one of {', '.join(_OPS)} "
                             f"(e.g. 'start_player_win > 0.5'); got {finding!r}")
        metric, op, thr = m.groups()
        try:
            value = float(thr)
        except ValueError:
            raise ValueError(f"finding's threshold must be a number; got {thr!r}") from None
        finding = (metric, op, value)
    if not isinstance(finding, tuple) or len(finding) != 3:
        raise TypeError(f"finding must be 'metric op threshold', a (metric, op, threshold) tuple or a Claim; "
                        f"got {finding!r}")
    metric, op, thr = finding
    if op not in _OPS:
        raise ValueError(f"finding's op must be one of {', '.join(_OPS)}; got {op!r}")
    if isinstance(thr, bool) or not isinstance(thr, numbers.Real) or not np.isfinite(thr):
        raise ValueError(f"finding's threshold must be a finite number; got {thr!r}")
    return Claim(_check_metric(metric), op, float(thr))


def game_metric(game: str, df: pd.DataFrame, metric: str, *, warn: bool = True):
    """``metric`` over the games of ``df`` (a ``simulate_games`` frame of ``game``): an Estimate with its 95% CI
    (:func:`pyradice_lab.design.metrics.metric_estimate`; ``warn``: a SmallSampleWarning below 30 games)."""
    from .compare import metric_estimate, metric_values

    return metric_estimate(*metric_values(game, df, metric), metric, warn=warn)


def _simulate(game: str) -> Callable:
    return get_game(game).simulate_games  # validates the name


def _check_simulate_keys(simulate: Callable, options: Mapping, name: str) -> None:
    """ValueError naming ``name`` when ``options`` has a key the game's ``simulate_games`` does not take."""
    import inspect

    params = inspect.signature(simulate).parameters
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return
    allowed = [k for k in params if k not in ("n_games", "components", "rng", "progress")]
    unknown = sorted(str(k) for k in options if k not in params)
    if unknown:
        raise ValueError(f"{name}: simulate_games has no {', '.join(map(repr, unknown))} (allowed: "
                         f"{', '.join(allowed)})")


def _sampler(game: str) -> Callable:
    return get_game(game).components.sample_plausible


def _describe(change, options) -> str:
    """A short description of one side of a paired robustness."""
    parts = []
    if callable(change):
        parts.append(getattr(change, "__name__", None) or getattr(getattr(change, "func", None), "__name__", "")
                     or type(change).__name__)
    elif change:
        parts.append(", ".join(f"{k} = {v!r}" for k, v in change.items()))
    if options:
        parts.append(", ".join(f"{k}={v!r}" if not hasattr(v, "__dataclass_fields__") else f"{k}=<{type(v).__name__}>"
                               for k, v in options.items()))
    return "; ".join(parts) if parts else "the set as drawn"


def _check_change(change, name: str):
    """``change``: None, a mapping of component paths to values or a callable (components -> components)."""
    if change is None or callable(change):
        return change
    if not isinstance(change, Mapping):
        raise TypeError(f"{name} must be a dict of component paths -> values (as for the game's "
                        f"components.replace), a function components -> components, or None; got "
                        f"{type(change).__name__}")
    for k in change:
        if not isinstance(k, str) or not k:
            raise TypeError(f"{name}'s keys must be component paths (str, e.g. 'card.1.points'), got {k!r}")
    return dict(change)


def _check_options(options, name: str, allowed) -> dict:
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise TypeError(f"{name} must be a dict of simulate_games keyword arguments, got {type(options).__name__}")
    own = sorted(set(options) & {"components", "rng", "n_games", "players", "progress"})
    if own:
        raise ValueError(f"{name} must not set {', '.join(map(repr, own))} (robustness sets it, the same for both "
                         "runs)")
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        raise ValueError(f"{name}: simulate_games has no {', '.join(map(repr, unknown))} (allowed: "
                         f"{', '.join(allowed)})")
    return dict(options)


def _apply_change(change, comp, name: str):
    """``comp`` with ``change`` applied (through its validation path); errors name the change."""
    if not change:  # None or {}: the set as drawn
        return comp
    if callable(change):
        out = change(comp)
        if type(out) is not type(comp):
            raise TypeError(f"{name} must return the game's components ({type(comp).__name__}), got "
                            f"{type(out).__name__}")
        return out
    try:
        return comp.replace(change)
    except (KeyError, ValueError) as e:
        raise ValueError(f"{name}: {e}") from e


#: Memory of one component set of a robustness run (its components, choices and table row), rounded up.
_SET_BYTES = 100_000


def _robustness_set(game: str, metrics: list, comps: dict, kwargs: dict, options: dict, plan: list, games: int,
                    paired: bool, controls: bool = False) -> list[dict]:
    """One component set of a robustness run (a block): every side's games, every finding's estimate (with
    ``controls``: the regression on the game's controls read off these games, and its ``controls_factor``)."""
    from ..engine.rng import fresh_copy
    from .compare import metric_estimate, metric_values, paired_estimates

    simulate = _simulate(game)
    frames = {}
    for side, comp in comps.items():
        parts = [simulate(games, rng=np.random.default_rng(fresh_copy(seed)), components=comp,
                          **{**kwargs, **extra, **options[side]})  # the same games for every set and side
                 for extra, seed in plan]
        frames[side] = parts[0] if len(parts) == 1 else pd.concat(parts, ignore_index=True).assign(
            game=lambda d: np.arange(len(d)))
    out = []
    sim = get_game(game).module("sim")
    outs = {side: sim.outcomes(f) for side, f in frames.items()}  # once per frame, not once per metric

    def values(side, metric):
        return metric_values(game, frames[side], metric, outcomes=outs[side])

    if controls:
        ctl = get_game(game).part("controls").controls(frames["single"], len(frames["single"]),
                                                       players=kwargs.get("players"), rng=None)
    for metric in metrics:
        if not paired and controls:
            from .controlvariates import regression_estimate, variance_factor
            from .multifidelity import _per_game

            y = _per_game(*values("single", metric))
            plain = regression_estimate(y, np.zeros((len(y), 0)), [])
            est = regression_estimate(y, ctl.values, ctl.means)
            extra = {"controls_factor": variance_factor(plain, est)}
        elif not paired:
            est, extra = metric_estimate(*values("single", metric), metric, warn=False), {}
        else:
            ref, var, est, _ = paired_estimates(values("reference", metric), values("variant", metric), metric,
                                                warn=False)
            extra = {"variant_value": var.value, "reference_value": ref.value}
        out.append({"value": est.value, "se": est.se, "ci_low": est.ci_low, "ci_high": est.ci_high, "n": est.n,
                    **extra})
    return out




def robustness(game: str, finding, *, reconstructions: int = 20, games: int = 2000, players: int | None = None,
               policies=None, rng=None, base=None, progress: bool = False, confidence: float = 0.95,
               game_kwargs: Mapping | None = None, variant=None, reference=None,
               variant_options: Mapping | None = None, reference_options: Mapping | None = None,
               games_rng=None, n_jobs: int = 1, backend: str = "loky", scheduler=None,
               cache_dir=None, controls: bool = False) -> RobustnessResult:
    """Evaluate a finding on the packaged components and on plausible reconstructions of the unknown ones.

    With ``variant`` / ``reference`` (or their ``*_options``) the finding is a *paired* one: a difference
    between two versions of the game ("hazards per game with 1 of each blue token, minus the default").  On
    every component set ``S`` (the packaged one and each plausible one) the same games are then played twice,
    once with ``S`` changed by ``variant`` and once with ``S`` changed by ``reference`` (common random numbers:
    the same per-game seeds in both runs and on every set), and the claim is about the difference variant
    minus reference of the metric, with its interval from the per-game paired differences
    (:func:`pyradice_lab.design.compare.paired_estimates`).

    Parameters
    ----------
    game : str
        A registered game (``"purramid"``, ``"pyradice"``, ``"raft"``, ``"meerkat"``).
    finding : str, tuple or Claim
        ``"metric op threshold"`` (e.g. ``"start_player_win > 0.5"``); the game's metrics are listed by
        :func:`pyradice_lab.design.compare.metrics`.
    reconstructions : int
        Plausible component sets to draw (>= 2).
    games : int
        Games per component set (>= 10); every set plays the same per-game seeds.
    players : int, optional
        Passed to the game's ``simulate_games`` (default: the game's ``default_players``).
    policies : str or list, optional
        The players of every game; default: the game's report player at ``players`` (a run's own ``players``
        where ``runs`` set them; ``registry.get_game(game).report_player_at(players)``, the strongest affordable at
        report scale at that count), as for :func:`~pyradice_lab.design.compare.compare` and
        :func:`~pyradice_lab.design.balance.balance` (docs/guide/defaults.md), unless ``game_kwargs`` or every
        one of ``runs`` sets them.  Pass ``policies="greedy"`` for a quick look.
    rng : seed, SeedSequence or Generator, optional
        One seed gives the same sets, the same games and the same numbers.
    games_rng : seed, SeedSequence or Generator, optional
        Seed of the games alone (default: spawned from ``rng``): the same component sets (``rng``) on other,
        independent games, e.g. one run per player count whose results are combined as independent.
    base : path or Components, optional
        The components to start from (default: the packaged ones).  Every value a designer's file (or a
        ``replace()``) sets stays fixed on every plausible set: only the reconstruction's free choices it leaves
        open are redrawn (:func:`pyradice_lab.engine.sampling.designer_paths`).  The output names the file and
        its content hash.
    progress : bool
        Show a progress bar over the component sets.
    confidence : float
        Level of each set's interval: 0.95 (the only level the metrics' delta-method intervals use).
    game_kwargs : dict, optional
        Further keyword arguments of ``simulate_games`` (both runs of a paired robustness).
    variant, reference : dict, callable or None
        The change applied on top of each component set for the variant run and for the reference run: a dict of
        component paths -> values, applied with the components' ``replace`` (the format of
        :func:`pyradice_lab.balance`'s parameters, e.g. ``{"blue.hawk.copies": 1}``), or a function
        ``components -> components`` for a change that depends on the set (e.g. ``lambda c: c.with_gems(3,
        [7, 7, 7, 6])`` in Rocking Raft); None = the set as drawn.  Both are first applied to the packaged
        components, so an invalid change fails before any game is played.
    variant_options, reference_options : dict, optional
        ``simulate_games`` keyword arguments of one run only, over ``game_kwargs`` (e.g. ``{"layout": "B"}``
        against ``{"layout": "A"}`` in Purramid, ``{"flag_depth": 30}`` in Rocking Raft, ``{"setup": ...}`` in
        Pyradice).
    n_jobs, backend, scheduler : optional
        The component sets run as blocks on ``n_jobs`` workers of ``backend`` (``"loky"``, ``"dask"`` with a
        ``scheduler`` address, ``"threading"``; :mod:`pyradice_lab.engine.execution`); the numbers never depend
        on them.  The sets travel to the workers as data.
    cache_dir : path, optional
        Store every finished set there; a killed run started again measures only the missing sets.
    controls : bool
        Estimate each set's metric with the game's controls read off its games (the contract part ``controls``
        with ``from_games``: Purramid's turn luck of its optimal seats, mean 0 exactly): the intercept of the
        regression on them, a Student-t interval (:func:`~pyradice_lab.design.controlvariates.regression_estimate`)
        and the set's ``controls_factor`` (the plain variance over the controlled one, same games).  Not for a
        paired robustness; the seats must play what the controls need.

    Returns
    -------
    RobustnessResult
        For a paired robustness, ``value`` (and its SE, CI, verdict) is variant minus reference, beside
        ``variant_value`` and ``reference_value``; ``paired`` describes the two runs.

    Raises
    ------
    ValueError
        If ``game`` or the finding's metric is unknown, ``finding`` does not parse, ``reconstructions`` < 2 or
        ``games`` < 10, ``confidence`` is not 0.95, ``game_kwargs`` sets an argument robustness sets itself,
        ``variant_options`` / ``reference_options`` set such an argument (or ``players``) or one
        ``simulate_games`` does not take, or ``variant`` / ``reference`` fails on the packaged components.
    TypeError
        If ``progress`` is not a bool, ``variant`` / ``reference`` is not a dict, a function or None (or the
        function does not return components), or an ``*_options`` is not a dict.

    Examples
    --------
    >>> r = robustness("raft", "game_length > 10", reconstructions=2, games=20, rng=1)  # doctest: +SKIP

    Paired: are Meerkat Kingdom's hazards per game higher with 3 of each blue token than with the default bags,
    whatever the reconstructed tile values?

    >>> r = robustness("meerkat", "hazards_per_game < 0", reconstructions=2, games=50, players=3, rng=1,
    ...                variant={"blue.move.copies": 3})  # doctest: +SKIP
    """
    return robustness_many(game, [finding], reconstructions=reconstructions, games=games, players=players,
                           policies=policies, rng=rng, base=base, progress=progress, confidence=confidence,
                           game_kwargs=game_kwargs, variant=variant, reference=reference,
                           variant_options=variant_options, reference_options=reference_options,
                           games_rng=games_rng, n_jobs=n_jobs, backend=backend, scheduler=scheduler,
                           cache_dir=cache_dir, controls=controls)[0]


def robustness_many(game: str, findings, *, reconstructions: int = 20, games: int = 2000,
                    players: int | None = None, policies=None, rng=None, base=None, progress: bool = False,
                    confidence: float = 0.95, game_kwargs: Mapping | None = None,
                    runs=None, variant=None, reference=None, variant_options: Mapping | None = None,
                    reference_options: Mapping | None = None, games_rng=None, n_jobs: int = 1,
                    backend: str = "loky", scheduler=None, cache_dir=None,
                    controls: bool = False) -> list[RobustnessResult]:
    """:func:`robustness` of several findings measured on the same games: one RobustnessResult per finding.

    The component sets and games are those :func:`robustness` plays with the same arguments (its numbers for
    any one of the findings are the same), but each set is simulated once for all the findings.  ``variant``,
    ``reference``, their ``*_options`` and ``games_rng`` are those of :func:`robustness` (a paired robustness:
    every finding is then about the difference variant minus reference).

    ``runs`` (optional): a sequence of dicts of further ``simulate_games`` keyword arguments (merged over
    ``game_kwargs``); each component set then plays ``games`` games of every run (each run its own games, the
    same on every set) and the findings are measured on the runs' frames joined (e.g. Pyradice's objective
    cards pooled over several line-ups: ``runs=[{"setup": s} for s in setups]``).

    ``n_jobs``, ``backend``, ``scheduler`` and ``cache_dir`` are those of :func:`robustness`.

    Parameters
    ----------
    game : str
        A registered game's name.
    findings : sequence of str or Claim
        The findings to re-check, each as :func:`robustness` takes it (``"metric > value"`` ...).
    reconstructions, games, players, policies, rng, base, progress, confidence, game_kwargs
        As in :func:`robustness`.
    runs, variant, reference, variant_options, reference_options, games_rng
        See above.
    n_jobs, backend, scheduler, cache_dir
        The execution layer's keywords (:mod:`pyradice_lab.engine.execution`).
    controls
        As in :func:`robustness`.

    Returns
    -------
    list of RobustnessResult
        One per finding, in the order given.

    Examples
    --------
    >>> rs = robustness_many("raft", ["game_length > 10", "start_player_win > 0.2"], reconstructions=2,
    ...                      games=20, rng=1)  # doctest: +SKIP
    """
    import inspect

    from ..engine.execution import Pool, check_execution
    from ..engine.limits import check_result_size
    from ..engine.rng import describe_seed, fresh_copy, seed_sequence, spawn_seeds
    from .compare import check_metric
    from .metrics import _warn_small

    if isinstance(findings, (str, Claim)) or not hasattr(findings, "__iter__"):
        raise TypeError(f"findings must be a list of findings ('metric op threshold' or Claims), got {findings!r}")
    claims = [parse_finding(f) for f in findings]
    if not claims:
        raise ValueError("findings must not be empty")
    simulate, sampler = _simulate(game), _sampler(game)
    for claim in claims:
        check_metric(game, claim.metric)
    for name, v, low in (("reconstructions", reconstructions, 2), ("games", games, 10)):
        if isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < low:
            raise ValueError(f"{name} must be an integer >= {low}, got {v!r}")
    if isinstance(confidence, bool) or not isinstance(confidence, numbers.Real) or confidence != 0.95:
        raise ValueError(f"confidence must be 0.95 (the metrics' intervals are 95% intervals), got {confidence!r}")
    if not isinstance(progress, bool):
        raise TypeError(f"progress must be True or False, got {progress!r}")
    check_result_size(reconstructions, _SET_BYTES, name="reconstructions", item="component set")
    execution = check_execution(n_jobs, backend, scheduler, progress=progress, cache_dir=cache_dir)
    kwargs = dict(game_kwargs or {})
    for key in ("components", "rng", "n_games"):
        if key in kwargs:
            raise ValueError(f"game_kwargs must not set {key!r} (robustness sets it)")
    _check_simulate_keys(simulate, kwargs, "game_kwargs")
    if players is not None:
        kwargs["players"] = players
    if policies is not None:
        kwargs["policies"] = policies
    if runs is not None:
        if isinstance(runs, Mapping) or not hasattr(runs, "__iter__"):
            raise TypeError(f"runs must be a list of dicts of simulate_games keyword arguments, got {runs!r}")
        runs = [dict(r) for r in runs]
        if not runs:
            raise ValueError("runs must not be empty (None: one run)")
        for r in runs:
            bad = {"components", "rng", "n_games"} & set(r)
            if bad:
                raise ValueError(f"runs must not set {', '.join(sorted(map(repr, bad)))} (robustness sets it)")
            _check_simulate_keys(simulate, r, "runs")
    spec = get_game(game)  # the default players: the report player at each run's count, as compare and balance
    if spec.report_player and "policies" not in kwargs and not (runs and all("policies" in r for r in runs)):
        def count(r):
            return r.get("players", kwargs.get("players"))

        at = {count(r): spec.report_player_at(count(r)) for r in (runs or [{}]) if "policies" not in r}
        if len(set(at.values())) == 1:  # one player for every run: stated in the assumptions, as before
            kwargs["policies"] = next(iter(at.values()))
        else:  # runs at counts with different report players: each run plays its own
            runs = [r if "policies" in r else {**r, "policies": at[count(r)]} for r in runs]
    paired = any(x is not None for x in (variant, reference, variant_options, reference_options))
    _check_robustness_controls(game, controls, paired, kwargs, runs, games)
    if paired:
        allowed = [k for k in inspect.signature(simulate).parameters
                   if k not in ("n_games", "components", "rng", "players", "progress")]
        sides = {"variant": (_check_change(variant, "variant"), _check_options(variant_options, "variant_options",
                                                                                 allowed)),
                 "reference": (_check_change(reference, "reference"),
                               _check_options(reference_options, "reference_options", allowed))}
    else:
        sides = {"single": (None, {})}
    comp_seeds_root, games_seed = spawn_seeds(rng, 2)
    if games_rng is not None:
        games_seed = seed_sequence(games_rng, name="games_rng")
    comp_seeds = comp_seeds_root.spawn(int(reconstructions))
    # one run: the games seed itself (the numbers of robustness); several: one spawned child per run
    plan = [({}, games_seed)] if runs is None else list(zip(runs, fresh_copy(games_seed).spawn(len(runs))))
    packaged = get_game(game).components.coerce_components(base, "base")
    if paired:
        for side, (change, _) in sides.items():
            _apply_change(change, packaged, side)  # an invalid change fails before any game is played
    sets = [("packaged" if base is None else "base", packaged, {})]
    base_label = "packaged components" if base is None else _base_label(base, packaged)
    for i, s in enumerate(comp_seeds):
        sample = sampler(np.random.default_rng(s), base=packaged, return_choices=True)
        sets.append((f"plausible-{i}", sample.components, sample.choices))
    changed = [{side: _apply_change(change, comp, f"{side} on {label}") for side, (change, _) in sides.items()}
               for label, comp, _ in sets]
    options = {side: opts for side, (_, opts) in sides.items()}
    metrics = [c.metric for c in claims]
    tasks = [(game, metrics, comps, kwargs, options, plan, int(games), paired, controls) for comps in changed]
    keys = [{"entry": "robustness", "game": game, "metrics": metrics, "games": int(games), "paired": paired,
             **({"controls": 1} if controls else {}),
             "components": {side: c.content_hash() for side, c in comps.items()}, "kwargs": kwargs,
             "options": options,
             "plan": [[extra, describe_seed(seed)] for extra, seed in plan]} for comps in changed]
    _warn_small(int(games) * len(plan), ", ".join(c.metric for c in claims), stacklevel=3)
    with Pool(execution=execution) as pool:
        measured = pool.map(_robustness_set, tasks, keys=keys, desc=f"{game} robustness",
                            sizes=[int(games) * len(plan) * len(sides)] * len(tasks), code=[simulate],
                            cost={"game": game, "policies": kwargs.get("policies"),
                                  "players": kwargs.get("players")})
    rows: list[list[dict]] = [[] for _ in claims]
    for (label, comp, choices), per_claim in zip(sets, measured):
        for claim, out, est in zip(claims, rows, per_claim):
            main = {k: est[k] for k in ("value", "se", "ci_low", "ci_high", "n")}
            extra = {k: v for k, v in est.items() if k not in main}
            out.append({"set": label, **main, "verdict": claim.verdict(est["ci_low"], est["ci_high"]), **extra,
                        "components_hash": comp.content_hash()[:12], **choices})
    described = ({side: _describe(*sides[side]) for side in ("variant", "reference")} if paired else None)
    from ..engine.assumptions import Assumptions, components_label, played_lineup

    who = played_lineup(game, **kwargs)
    told = Assumptions.build(game, components=f"{components_label(game, base, packaged)} and {int(reconstructions)} "
                                              f"plausible reconstructions of it (hash per set in the table)",
                             players=who[0], policies=who[1], rng=rng,
                             games=f"{int(games) * len(plan):,} per component set" + (
                                 f", each set estimated with its games' {get_game(game).part('controls').label} "
                                 "(controls_factor: its variance reduction)" if controls else ""))
    return [RobustnessResult.from_table(claim, pd.DataFrame(r), described, told, base=base_label)
            for claim, r in zip(claims, rows)]


def _check_robustness_controls(game: str, controls, paired: bool, kwargs: Mapping, runs, games=None) -> None:
    """``controls=`` checked before any game: a bool; the game declares controls read off its games; one run,
    not paired; a seat plays what they need; at least ``SMALL_SAMPLE`` ``games`` a set (when given)."""
    if not isinstance(controls, bool):
        raise TypeError(f"controls must be True or False, got {type(controls).__name__}")
    if not controls:
        return
    from ..engine import registry

    declared = get_game(game).part("controls", None)
    if declared is None or declared.from_games is None:
        have = [g for g, s in registry.games().items() if getattr(s.part("controls", None), "from_games", None)]
        raise ValueError(f"controls: {game} declares no controls read off its games (games that do: "
                         f"{', '.join(have) or 'none'})")
    if paired or runs is not None:
        raise ValueError("controls: robustness with controls takes one run of a single version (no variant, "
                         "reference or runs)")
    declared.check_players(kwargs.get("policies"))
    if games is not None and games < SMALL_SAMPLE:
        raise ValueError(f"games: robustness with controls needs at least {SMALL_SAMPLE} games a set (the "
                         f"regression's intervals are coverage-tested from {SMALL_SAMPLE}), got {games}")


def _base_label(base, comp) -> str:
    """The starting set of a robustness on a designer's components: the file's name and the content hash."""
    import os

    from ..engine.sampling import designer_paths

    fixed = len(designer_paths(comp))
    what = f"{os.fspath(base)}, " if isinstance(base, (str, os.PathLike)) else ""
    return (f"your components ({what}content hash {comp.content_hash()[:12]}; the {fixed} values it sets kept "
            f"on every set)")
