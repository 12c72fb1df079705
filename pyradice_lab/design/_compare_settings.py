"""How does a metric change between two settings of a game?  :func:`compare_settings` (re-exported by
:mod:`pyradice_lab.design.compare`): the same components played under setting ``a`` and setting ``b`` (any
keywords of the game's ``simulate_games``: ``players=3`` against ``players=4``, side A against side B, one
player against another), and the difference ``b - a`` of a metric with its 95% interval.

``pairing="paired"`` (default) plays game ``i`` of both settings from the same seed (common random numbers, as
:func:`~pyradice_lab.design.compare.compare`): the difference's interval is that of the per-game differences,
valid whatever the two settings share, and the result says how much it gained against independent runs (the
variance-reduction factor; below 1 the pairing cost precision: then ``pairing="independent"`` is the better
design).  ``pairing="independent"`` plays the two settings on independent seeds: the difference's SE is
``sqrt(se_a**2 + se_b**2)`` with a Welch t interval.  Choosing the design after seeing which interval is narrower
would overstate the precision, so the design is an argument, not a choice made from the data.
"""

from __future__ import annotations

import inspect
import math

from ..engine import registry
from ..engine.assumptions import Assumptions, components_label
from ..engine.limits import check_count
from ..engine.rng import describe_seed, fresh_copy, seed_sequence
from ..engine.stats import Estimate
from .metrics import _check_game, _concat, _parse_metric, _warn_small, paired_estimates

__all__ = ["compare_settings", "PAIRINGS"]

PAIRINGS = ("paired", "independent")
#: what a setting may not set (compare_settings' own arguments)
_OWN = {"n_games", "rng", "components", "progress", "n_jobs", "backend", "scheduler", "cache_dir"}


def _label(setting: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in setting.items()) or "the game's defaults"


def _check_setting(setting, name: str, allowed: list[str]) -> dict:
    if not isinstance(setting, dict):
        raise TypeError(f"{name} must be a dict of simulate_games keyword arguments (e.g. {{'players': 3}}), got "
                        f"{type(setting).__name__}")
    clash = sorted(_OWN & set(setting))
    if clash:
        raise ValueError(f"{name} must not set {', '.join(clash)} (compare_settings' own arguments)")
    unknown = sorted(set(setting) - set(allowed))
    if unknown:
        raise ValueError(f"{name}: simulate_games has no {', '.join(map(repr, unknown))} (allowed: "
                         f"{', '.join(allowed)})")
    return dict(setting)


def _settings_block(game: str, metric: str, size: int, seeds, comp, kw_a: dict, kw_b: dict):
    """One block: ``size`` games under ``kw_a`` and under ``kw_b`` from fresh copies of ``seeds`` (one seed for
    both sides when paired); the metric's per-game values and each side's line-up as played."""
    from ..engine.assumptions import lineup

    sim = registry.get_game(game).module("sim")
    _, m, arg = _parse_metric(game, metric)
    out = []
    for kw, seed in zip((kw_a, kw_b), seeds):
        df = sim.simulate_games(size, rng=fresh_copy(seed), components=comp, **kw)
        played = sim.outcomes(df)
        out.append((m.fn(df, played, arg), lineup(played)))
    return tuple(out)


def _welch(a: Estimate, b: Estimate, n: int) -> Estimate:
    from scipy.special import stdtrit

    se = math.sqrt(a.se ** 2 + b.se ** 2)
    va, vb = a.se ** 2, b.se ** 2
    df = (va + vb) ** 2 / ((va ** 2 + vb ** 2) / max(n - 1, 1)) if va + vb > 0 else max(2 * n - 2, 1)
    q = float(stdtrit(df, 0.975))
    value = b.value - a.value
    return Estimate(value, se, n, value - q * se, value + q * se, 0.95)


def compare_settings(game: str, a: dict, b: dict, metric: str = "start_player_edge", *, games: int = 2000,
                     policies=None, components=None, rng=None, pairing: str = "paired", progress: bool = False,
                     n_jobs: int = 1, backend: str = "loky", scheduler=None, cache_dir=None):
    """Compare ``metric`` between two settings of ``game``: setting ``b`` minus setting ``a``, with its 95% CI.

    Parameters
    ----------
    game : str
        A registered game.
    a, b : dict
        Keyword arguments of the game's ``simulate_games`` for each side, e.g. ``{"players": 3}`` and
        ``{"players": 4}`` (also ``policies``: one player against another).
    metric : str
        A designer metric (:func:`~pyradice_lab.design.compare.metrics`); default ``start_player_edge`` (the start
        player's win share minus the mean of the others': 0 is fair at any player count).
    games : int
        Games per setting.
    policies : str or list, optional
        The players of both sides unless a side sets its own; default: the game's report player.
    components : None, path or components
        The components both sides play (default: the packaged ones).
    rng : seed
        Root seed.
    pairing : {"paired", "independent"}
        Common seeds for game ``i`` of both sides (default), or independent seeds (see the module docstring).
    progress, n_jobs, backend, scheduler, cache_dir
        As for :func:`~pyradice_lab.design.compare.compare`.

    Returns
    -------
    Comparison
        ``base`` = setting ``a``, ``variant`` = setting ``b``, ``difference`` = b - a; ``settings["pairing"]``
        says which design made the interval; printing it states both settings and the assumptions.

    Examples
    --------
    >>> from pyradice_lab.design.compare import compare_settings
    >>> res = compare_settings("raft", {"players": 2}, {"players": 3}, "game_length", games=60, policies="greedy",
    ...                        rng=1)
    >>> res.base_label, res.variant_label, res.difference.ci_low < res.difference.value < res.difference.ci_high
    ('players=2', 'players=3', True)
    """
    from ..engine.execution import Pool, check_execution
    from ..engine.sweep import check_progress
    from .compare import BLOCK, Comparison, _check_pos

    game = _check_game(game)
    name, m, arg = _parse_metric(game, metric)
    games = check_count(_check_pos(games, "games"), "compare_games", name="games", factor=2)
    if pairing not in PAIRINGS:
        raise ValueError(f"pairing must be one of {', '.join(map(repr, PAIRINGS))}, got {pairing!r}")
    check_progress(progress)
    spec = registry.get_game(game)
    allowed = [k for k in inspect.signature(spec.simulate_games).parameters if k not in _OWN]
    kw = {"a": _check_setting(a, "a", allowed), "b": _check_setting(b, "b", allowed)}
    if kw["a"] == kw["b"]:
        raise ValueError(f"a and b must differ, got the same setting twice ({_label(kw['a'])})")
    if policies is None:
        policies = spec.report_player or None
    sides = {}
    for side in ("a", "b"):
        sides[side] = dict(kw[side])
        if policies is not None:
            sides[side].setdefault("policies", policies)
    comp = spec.components.coerce_components(components, "components")
    execution = check_execution(n_jobs, backend, scheduler, progress=progress, cache_dir=cache_dir)
    root = seed_sequence(rng, name="rng")
    sizes = [min(BLOCK, games - s) for s in range(0, games, BLOCK)]
    seeds = root.spawn(len(sizes))
    if pairing == "paired":
        pairs = [(s, s) for s in seeds]
    else:
        pairs = [tuple(s.spawn(2)) for s in seeds]
    tasks = [(game, metric, n, pair, comp, sides["a"], sides["b"]) for n, pair in zip(sizes, pairs)]
    keys = [{"entry": "compare_settings", "game": game, "metric": metric, "games": n, "pairing": pairing,
             "seeds": [describe_seed(s) for s in pair], "components": comp.content_hash(),
             "a": repr(sorted(sides["a"].items())), "b": repr(sorted(sides["b"].items()))}
            for n, pair in zip(sizes, pairs)]
    with Pool(execution=execution) as pool:
        parts = pool.map(_settings_block, tasks, keys=keys, desc=f"{game} compare settings", sizes=sizes,
                         code=[spec.simulate_games, spec.module("sim").outcomes],
                         cost={"game": game, "policies": sides["a"].get("policies"),
                               "players": sides["a"].get("players"), "factor": 2})
    va = _concat([p[0][0] for p in parts])
    vb = _concat([p[1][0] for p in parts])
    est_a, est_b, d, ind_se = paired_estimates(va, vb, name, warn=False)
    if pairing == "independent":
        d = _welch(est_a, est_b, games)
    _warn_small(games, metric.strip(), stacklevel=2)
    vrf = (ind_se / d.se) ** 2 if d.se > 0 else math.inf
    if pairing == "independent":
        vrf = 1.0
    who = {side: parts[0][i][1] for i, side in enumerate(("a", "b"))}
    (pa, qa), (pb, qb) = who["a"], who["b"]
    told = Assumptions.build(game, components=components_label(game, components, comp),
                             players=pa if pa == pb else f"{pa} (a) / {pb} (b)",
                             policies=qa if qa == qb else f"{qa} (a) / {qb} (b)", rng=rng,
                             games=f"{games:,} per setting", pairing=pairing)
    return Comparison(game, metric.strip(), m.description, est_a, est_b, d, ind_se, vrf, games, _label(kw["a"]),
                      _label(kw["b"]), None, None, {"pairing": pairing, "a": kw["a"], "b": kw["b"],
                                                    "policies": policies, "games": games, "block": BLOCK}, told)
