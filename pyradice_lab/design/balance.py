"""Automatic balancing: search component values that meet a balance objective under simulation noise.

:func:`balance` takes component paths with their allowed values (``{"deal_2p.value": [[27, 24], [26, 25],
[25, 26]]}`` or integer bounds ``{"card.7.points": (1, 6)}``) and an objective (``"start_player_win = 0.5"``:
bring a metric of :func:`pyradice_lab.design.compare.metrics` to a target), and searches the candidate values by
**successive halving with common random numbers**: every candidate plays the same games (same per-game seeds),
the better half by estimated distance to the target survives, the survivors play twice as many new games,
until one candidate is left or the game budget is spent (Jamieson & Talwalkar 2016; with common random
numbers the comparison between candidates is paired, so its noise is far below that of independent runs).
The winner and the starting components are then played again on **fresh seeds** (never used by the search,
so the reported improvement is not the search's optimism), and the result carries both objectives with
confidence intervals and a components file ready for ``--components``.

No optimiser dependency: the parameter spaces a designer balances are small and discrete (a few integers or
alternatives per component), where racing over the full grid is exact about what it tried and needs no
surrogate model; a continuous parameter is given as a grid of choices.

Examples
--------
>>> parse_objective("start_player_win = 0.5")
('start_player_win', 0.5)
"""

from __future__ import annotations

import importlib
import itertools
import math
import numbers
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

__all__ = ["balance", "BalanceResult", "parse_objective", "candidate_grid"]

_OBJECTIVE = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*(?::[A-Za-z0-9_]+)?)\s*=\s*([-+0-9.eE]+)\s*$")
#: most candidates a search takes (the grid is sampled down to this many, reproducibly)
MAX_CANDIDATES = 64


def parse_objective(objective) -> tuple[str, float]:
    """``(metric, target)`` from ``"metric = target"`` or a ``(metric, target)`` tuple."""
    from .robustness import _check_metric

    if isinstance(objective, str):
        m = _OBJECTIVE.match(objective)
        if not m:
            raise ValueError(f"objective must read 'metric = target' (e.g. 'start_player_win = 0.5'); "
                             f"got {objective!r}")
        objective = (m.group(1), float(m.group(2)))
    if not isinstance(objective, tuple) or len(objective) != 2:
        raise TypeError(f"objective must be 'metric = target' or a (metric, target) tuple; got {objective!r}")
    metric, target = objective
    if isinstance(target, bool) or not isinstance(target, numbers.Real) or not np.isfinite(target):
        raise ValueError(f"objective's target must be a finite number; got {target!r}")
    return _check_metric(metric), float(target)


def _axes(parameters: Mapping) -> list[tuple[str, Sequence]]:
    """``(path, values)`` per parameter; integer bounds stay a ``range`` (never a list of a billion values)."""
    if not isinstance(parameters, Mapping) or not parameters:
        raise ValueError("parameters must be a non-empty dict {component path: (low, high) or [choices]}")
    axes = []
    for path, spec in parameters.items():
        if not isinstance(path, str) or not path:
            raise TypeError(f"parameters' keys must be component paths (str), got {path!r}")
        if isinstance(spec, tuple) and len(spec) == 2 and all(isinstance(v, numbers.Integral)
                                                              and not isinstance(v, bool) for v in spec):
            low, high = int(spec[0]), int(spec[1])
            if low > high:
                raise ValueError(f"parameters[{path!r}]: bounds {spec} have low > high")
            values = range(low, high + 1)
        elif isinstance(spec, list) and spec:
            values = list(spec)
        else:
            raise ValueError(f"parameters[{path!r}] must be integer bounds (low, high) or a non-empty list of "
                             f"choices; got {spec!r}")
        axes.append((path, values))
    return axes


def _grid_size(axes) -> int:
    return math.prod(len(v) for _, v in axes)


def _candidate(axes, index: int) -> dict:
    """Candidate ``index`` of the grid in :func:`candidate_grid`'s order (the last parameter varies fastest)."""
    out = {}
    for path, values in reversed(axes):
        index, r = divmod(index, len(values))
        out[path] = values[r]
    return {path: out[path] for path, _ in axes}


#: Memory of one candidate of a full grid held as a list (a dict of a few values), rounded up.
_CANDIDATE_BYTES = 500


def candidate_grid(parameters: Mapping) -> list[dict]:
    """Every combination of the parameters' values: bounds ``(low, high)`` of ints, or a list of choices.

    A grid too large to hold is refused before it is built (:mod:`pyradice_lab.engine.limits`); :func:`balance`
    never builds it (it samples :data:`MAX_CANDIDATES` candidates by index).

    >>> candidate_grid({"a": (1, 3), "b": ["x", "y"]})[:3]
    [{'a': 1, 'b': 'x'}, {'a': 1, 'b': 'y'}, {'a': 2, 'b': 'x'}]
    """
    from ..engine.limits import check_result_size

    axes = _axes(parameters)
    check_result_size(_grid_size(axes), _CANDIDATE_BYTES, name="parameters", item="candidate")
    return [dict(c) for c in itertools.product(*([(path, v) for v in values] for path, values in axes))]


@dataclass
class BalanceResult:
    """What :func:`balance` proposes.

    Attributes
    ----------
    values : dict
        The proposed component values, by path.
    components : the game's Components
        The starting components with ``values`` applied (validated).
    before, after : Estimate
        The objective's metric on the starting and the proposed components, on fresh seeds (never used by the
        search), each with its confidence interval.
    target : float
    history : DataFrame
        Every candidate at every round of the search: values, games played, estimate and distance.
    """

    metric: str
    target: float
    values: dict
    components: object
    before: object
    after: object
    history: pd.DataFrame
    games_used: int
    assumptions: object = None

    def to_toml(self, path) -> Path:
        """Write the proposed components as a TOML file ready for ``--components``."""
        return self.components.dump(path)

    def summary(self) -> str:
        from .metrics import small_sample_note

        b, a = self.before, self.after
        told = "" if self.assumptions is None else self.assumptions.line() + "\n"
        return told + (f"{self.metric} -> {self.target:g}: proposed {self.values}; before {b.value:.3f} "
                f"[{b.ci_low:.3f}, {b.ci_high:.3f}], after {a.value:.3f} [{a.ci_low:.3f}, {a.ci_high:.3f}] "
                f"(fresh seeds, {a.n} games each; search used {self.games_used} games)"
                + (f"; note: {note}" if (note := small_sample_note(a.n)) else ""))

    def __repr__(self) -> str:
        return f"BalanceResult({self.summary()})"


class _Runs:
    """The metric of one simulation run (``games`` games from ``seed`` on some components), through an optional
    on-disk cache: the sweep cache's signed, atomic files, keyed on what the run *is* (game, metric, games, seed,
    the components' content hash, the other simulate arguments) with the code that computes it as provenance."""

    FORMAT = "pyradice_lab.balance/1"

    def __init__(self, game: str, metric: str, simulate, kwargs: dict, cache_dir):
        self.game, self.metric, self.simulate, self.kwargs = game, metric, simulate, kwargs
        self.cache = None
        if cache_dir is None:
            return
        from ..engine._sources import fingerprint
        from ..engine._version import __version__
        from ..engine.sweep import _Cache, _canonical, _check_cache_dir, _code_fingerprint

        self.cache = _Cache(_check_cache_dir(cache_dir))
        self.provenance = {"version": __version__, "simulate": _code_fingerprint(simulate),
                           "metric": fingerprint(Path(__file__).with_name("metrics.py"))}
        # what every run of this search shares, in the sweep cache's content-based form
        self.key = {"format": self.FORMAT, "game": game, "metric": metric, "kwargs": _canonical(kwargs)}

    def _name(self, games: int, seed: np.random.SeedSequence, comp) -> str:
        import json

        from ..engine.sweep import _canonical, _sha

        return _sha(json.dumps({**self.key, "games": int(games), "entropy": _canonical(seed.entropy),
                                "spawn_key": list(seed.spawn_key), "components": comp.content_hash()},
                               sort_keys=True))

    def run(self, games: int, seed: np.random.SeedSequence, comp) -> tuple[np.ndarray, np.ndarray, int]:
        """``(numerator, denominator, rows)`` of the metric over ``games`` games played from ``seed``."""
        name = self._name(games, seed, comp) if self.cache is not None else ""
        if self.cache is not None:
            hit = self.cache.read(name, self.provenance)
            if hit is not None:
                try:
                    return _unpack(hit["num"]), _unpack(hit["den"]), int(hit["rows"])
                except (KeyError, ValueError, TypeError):
                    self.cache.note("could not be decoded", name)
        num, den, rows = _balance_run(self.game, self.metric, self.kwargs, games, seed, comp)
        if self.cache is not None:
            self.cache.write(name, self.provenance, {"num": _pack(num), "den": _pack(den), "rows": rows})
        return num, den, rows

    def many(self, pool, games: int, seed: np.random.SeedSequence, comps: list, desc: str = "") -> list:
        """:meth:`run` of every components of ``comps`` on ``pool`` (cached runs are read, not replayed)."""
        if not pool.execution.parallel:
            return [self.run(games, seed, comp) for comp in comps]
        out: dict[int, tuple] = {}
        names = {}
        if self.cache is not None:
            for i, comp in enumerate(comps):
                names[i] = self._name(games, seed, comp)
                hit = self.cache.read(names[i], self.provenance)
                if hit is not None:
                    try:
                        out[i] = (_unpack(hit["num"]), _unpack(hit["den"]), int(hit["rows"]))
                    except (KeyError, ValueError, TypeError):
                        self.cache.note("could not be decoded", names[i])
        todo = [i for i in range(len(comps)) if i not in out]
        done = pool.map(_balance_run, [(self.game, self.metric, self.kwargs, games, seed, comps[i]) for i in todo],
                        desc=desc, sizes=[games] * len(todo))
        for i, res in zip(todo, done):
            out[i] = res
            if self.cache is not None:
                num, den, rows = res
                self.cache.write(names[i], self.provenance, {"num": _pack(num), "den": _pack(den), "rows": rows})
        return [out[i] for i in range(len(comps))]

    def close(self) -> None:
        if self.cache is not None:
            self.cache.warn()


def _balance_run(game: str, metric: str, kwargs: dict, games: int, seed, comp) -> tuple[np.ndarray, np.ndarray, int]:
    """One simulation run of a search (a block): ``(numerator, denominator, rows)`` of the metric."""
    from ..engine.rng import fresh_copy
    from .compare import metric_values
    from .robustness import _simulate

    df = _simulate(game)(games, rng=np.random.default_rng(fresh_copy(seed)), components=comp, **kwargs)
    num, den = (np.asarray(a, dtype=float) for a in metric_values(game, df, metric))
    return num, den, len(df)


def _pack(a: np.ndarray) -> str:
    import base64
    import zlib

    return base64.b64encode(zlib.compress(np.ascontiguousarray(a, dtype="<f8").tobytes())).decode()


def _unpack(text: str) -> np.ndarray:
    import base64
    import zlib

    return np.frombuffer(zlib.decompress(base64.b64decode(text.encode(), validate=True)), dtype="<f8").copy()


def balance(game: str, parameters: Mapping, objective, *, budget: int = 20000, players: int | None = None,
            policies=None, rng=None, components=None, first_games: int = 200, verify_games: int = 4000,
            progress: bool = False, game_kwargs: Mapping | None = None, cache_dir=None, n_jobs: int = 1,
            backend: str = "loky", scheduler=None) -> BalanceResult:
    """Search component values that bring a metric to a target; verify the proposal on fresh seeds.

    Parameters
    ----------
    game : str
        A registered game.
    parameters : dict
        Component path (as for ``comp.replace``) -> integer bounds ``(low, high)`` or a list of choices.
    objective : str or tuple
        ``"metric = target"``, e.g. ``"start_player_win = 0.5"`` (any metric of :func:`pyradice_lab.design.compare.metrics`).
    budget : int
        Games the search may play in all (verification not counted).
    players, policies
        Passed to the game's ``simulate_games``.
    rng : seed, SeedSequence or Generator, optional
        One seed gives the same search and the same proposal.
    components : path or Components, optional
        The components to start from (default: the packaged ones).
    first_games : int
        Games per candidate in the first round (doubled each round).
    verify_games : int
        Games for each of the before/after verification runs, on seeds the search never used.
    progress : bool
        Progress over each round's candidates on stderr (:class:`~pyradice_lab.engine.execution.Progress`).
    game_kwargs : dict, optional
        Further keyword arguments of ``simulate_games``.
    cache_dir : path, optional
        Keep every finished simulation (one candidate in one round, and the two verification runs) in this
        directory, so that an interrupted search started again with the same arguments replays nothing it
        finished and gives the same result.  The files are the sweep cache's (:mod:`pyradice_lab.engine.sweep`):
        written atomically, signed, and used only when the code and the components that produced them are
        unchanged; anything else is recomputed with a :class:`~pyradice_lab.engine.sweep.CacheWarning`.
    n_jobs, backend, scheduler : optional
        The candidates of a round (and the two verification runs) run as blocks on ``n_jobs`` workers of
        ``backend`` (``"loky"``, ``"dask"`` with a ``scheduler`` address, ``"threading"``;
        :mod:`pyradice_lab.engine.execution`); the result never depends on them.

    Returns
    -------
    BalanceResult
        ``values`` (the proposal, by path), ``components`` (with the proposal applied), ``before`` and
        ``after`` (the metric's :class:`~pyradice_lab.engine.stats.Estimate` on fresh seeds), ``history`` (every
        candidate of every round) and ``games_used``; ``.summary()`` is one line.

    Raises
    ------
    ValueError
        If ``game`` or the metric is unknown, ``objective`` does not read ``"metric = target"`` with a finite
        target, ``parameters`` is empty or has bad bounds/choices, no candidate passes the game's component
        checks, ``budget``, ``first_games`` or ``verify_games`` is below 10, or ``game_kwargs`` sets an
        argument ``balance`` sets itself.
    TypeError
        If ``objective`` is neither a string nor a ``(metric, target)`` tuple, a key of ``parameters`` is not
        a string, or ``progress`` is not a bool.

    Examples
    --------
    A tiny search (the README's example with a budget of 300 games; a real search wants thousands):

    >>> b = balance("purramid", {"deal_2p.value": [[27, 24], [26, 25], [25, 26]]}, "start_player_win = 0.5",
    ...             players=2, budget=300, first_games=100, verify_games=200, rng=1)
    >>> b.values, b.games_used, b.after.n
    ({'deal_2p.value': [26, 25]}, 300, 200)
    """
    from ..engine.execution import Pool, check_execution
    from ..engine.rng import spawn_seeds
    from .compare import check_metric, metric_estimate
    from .metrics import _warn_small
    from .robustness import _simulate

    metric, target = parse_objective(objective)
    simulate = _simulate(game)
    check_metric(game, metric)
    base = importlib.import_module(f"pyradice_lab.{game}.components").coerce_components(components)
    for name, v, low in (("budget", budget, 10), ("first_games", first_games, 10), ("verify_games", verify_games, 10)):
        if isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < low:
            raise ValueError(f"{name} must be an integer >= {low}, got {v!r}")
    if not isinstance(progress, bool):
        raise TypeError(f"progress must be True or False, got {progress!r}")
    execution = check_execution(n_jobs, backend, scheduler, progress=progress)
    kwargs = dict(game_kwargs or {})
    for key in ("components", "rng", "n_games"):
        if key in kwargs:
            raise ValueError(f"game_kwargs must not set {key!r} (balance sets it)")
    if players is not None:
        kwargs["players"] = players
    if policies is not None:
        kwargs["policies"] = policies
    axes = _axes(parameters)
    runs = _Runs(game, metric, simulate, kwargs, cache_dir)
    search_seed, verify_seed, pick_seed = spawn_seeds(rng, 3)
    size = _grid_size(axes)
    if size > MAX_CANDIDATES:  # sampled by index: a grid of 10**12 candidates is never built
        pick = np.random.default_rng(pick_seed).choice(size, MAX_CANDIDATES, replace=False)
        grid = [_candidate(axes, int(i)) for i in sorted(pick)]
    else:
        grid = [_candidate(axes, i) for i in range(size)]
    cands = []
    for values in grid:
        try:
            comp = base.replace(dict(values))
        except ValueError as exc:  # a combination the game's checks refuse is not a candidate
            cands.append((values, None, str(exc)))
            continue
        cands.append((values, comp, ""))
    alive = [i for i, c in enumerate(cands) if c[1] is not None]
    if not alive:
        raise ValueError(f"parameters: no candidate passes the game's component checks (first error: {cands[0][2]})")
    parts: dict[int, list] = {i: [] for i in alive}
    rows, used, games, rnd = [], 0, int(first_games), 0
    round_seeds = search_seed.spawn(64)
    with Pool(execution=execution) as pool:
        while True:
            if used + games * len(alive) > budget and rnd > 0:
                break
            seed = round_seeds[rnd]
            # the same games (seeds) for every candidate
            results = runs.many(pool, games, seed, [cands[i][1] for i in alive], desc=f"{game} balance round {rnd}")
            for i, (num, den, rows_played) in zip(alive, results):
                parts[i].append((num, den))
                used += rows_played
            ests = {i: metric_estimate(np.concatenate([p[0] for p in parts[i]]),
                                       np.concatenate([p[1] for p in parts[i]]), metric, warn=False)
                    for i in alive}
            est = {i: e.value for i, e in ests.items()}
            for i in alive:
                rows.append({"round": rnd, **{k: repr(v) for k, v in cands[i][0].items()}, "games": ests[i].n,
                             "estimate": est[i], "se": ests[i].se, "distance": abs(est[i] - target)})
            if len(alive) == 1:
                break
            alive = sorted(alive, key=lambda i: (abs(est[i] - target), i))[:max(1, (len(alive) + 1) // 2)]
            if len(alive) == 1:
                break
            rnd += 1
            games *= 2
            if rnd >= len(round_seeds):
                break
        best = sorted(alive, key=lambda i: (abs(est[i] - target), i))[0]
        values, comp, _ = cands[best]
        checked = runs.many(pool, int(verify_games), verify_seed, [base, comp], desc=f"{game} balance verify")
    _warn_small(int(verify_games), metric, stacklevel=2)
    before, after = (metric_estimate(num, den, metric, warn=False) for num, den, _ in checked)
    runs.close()
    from ..engine.assumptions import Assumptions, components_label, played_lineup

    who = played_lineup(game, **kwargs)
    told = Assumptions.build(game, components=f"starting from {components_label(game, components, base)}",
                             players=who[0], policies=who[1], rng=rng,
                             games=f"{used:,} in the search, {int(verify_games):,} per verification run")
    history = pd.DataFrame(rows)
    history.attrs["assumptions"] = told
    return BalanceResult(metric, target, dict(values), comp, before, after, history, used, told)

