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

No optimiser dependency: the spaces a designer balances are small and discrete, where racing over the whole grid
is exact about what it tried (a continuous parameter is given as a grid of choices).

>>> parse_objective("start_player_win = 0.5")
('start_player_win', 0.5)
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd

from ._balance_finding import DEFAULT_FINDINGS_CSV, balance_finding, findings_of, resolve_finding
from ._balance_grid import (
    _CANDIDATE_BYTES as _CANDIDATE_BYTES,
    _OBJECTIVE as _OBJECTIVE,
    COMBINE,
    MAX_CANDIDATES,
    MIN_ROUND_GAMES,
    _axes,
    _candidate,
    _candidate_list,
    _grid_size,
    _list_axes,
    _paths,
    candidate_grid,
    combine_excess,
    parse_objective,
    parse_objectives,
)
from ._balance_memo import _pack, _unpack, remember, remembered
from ._balance_result import BalanceResult

__all__ = ["balance", "balance_finding", "findings_of", "resolve_finding", "DEFAULT_FINDINGS_CSV", "BalanceResult",
           "parse_objective", "parse_objectives", "candidate_grid", "combine_excess", "COMBINE"]


class _Runs:
    """The metrics of one simulation run (``games`` games from ``seed`` on some components), through an optional
    on-disk cache: the sweep cache's signed, atomic files, keyed on what the run *is* (game, metrics, games, seed,
    the components' content hash, the other simulate arguments) with the code that computes it as provenance."""

    FORMAT = "pyradice_lab.balance/2"

    def __init__(self, game: str, metrics: list, simulate, kwargs: dict, cache_dir):
        from ..engine.sweep import _canonical

        self.game, self.metrics, self.simulate, self.kwargs = game, list(metrics), simulate, kwargs
        self.cache = None
        # what every run of this search shares, in the sweep cache's content-based form (also the name of a run
        # kept in memory within a proposal: ._balance_memo)
        self.key = {"format": self.FORMAT, "game": game, "metrics": self.metrics, "kwargs": _canonical(kwargs)}
        if cache_dir is None:
            return
        from ..engine._sources import fingerprint
        from ..engine._version import __version__
        from ..engine.sweep import _Cache, _check_cache_dir, _code_fingerprint

        self.cache = _Cache(_check_cache_dir(cache_dir))
        self.provenance = {"version": __version__, "simulate": _code_fingerprint(simulate),
                           "metric": fingerprint(Path(__file__).with_name("metrics.py"))}

    def _name(self, games: int, seed: np.random.SeedSequence, comp) -> str:
        import json

        from ..engine.sweep import _canonical, _sha

        return _sha(json.dumps({**self.key, "games": int(games), "entropy": _canonical(seed.entropy),
                                "spawn_key": list(seed.spawn_key), "components": comp.content_hash()},
                               sort_keys=True))

    def _read(self, name: str):
        hit = self.cache.read(name, self.provenance)
        if hit is None:
            return None
        try:
            import json

            return ({m: (_unpack(n), _unpack(d)) for m, (n, d) in json.loads(hit["metrics"]).items()},
                    int(hit["rows"]))
        except (KeyError, ValueError, TypeError, AttributeError):
            self.cache.note("could not be decoded", name)
            return None

    def _write(self, name: str, res) -> None:
        import json

        values, rows = res  # the sweep cache holds flat outputs: the metrics as one JSON string
        self.cache.write(name, self.provenance, {"metrics": json.dumps({m: [_pack(n), _pack(d)]
                                                                        for m, (n, d) in values.items()}),
                                                 "rows": rows})

    def _known(self, name: str):
        hit = remembered(name)  # played earlier in this proposal (._balance_memo), else stored on disk
        return hit if hit is not None or self.cache is None else self._read(name)

    def run(self, games: int, seed: np.random.SeedSequence, comp) -> tuple[dict, int]:
        """``({metric: (numerator, denominator)}, rows)`` of the metrics over ``games`` games from ``seed``."""
        name = self._name(games, seed, comp)
        if (hit := self._known(name)) is not None:
            return hit
        res = _balance_run(self.game, self.metrics, self.kwargs, games, seed, comp)
        remember(name, res)
        if self.cache is not None:
            self._write(name, res)
        return res

    def many(self, pool, games: int, seed: np.random.SeedSequence, comps: list, desc: str = "") -> list:
        """:meth:`run` of every components of ``comps`` on ``pool`` (cached runs are read, not replayed)."""
        if not pool.execution.parallel:
            return [self.run(games, seed, comp) for comp in comps]
        out: dict[int, tuple] = {}
        names = {i: self._name(games, seed, comp) for i, comp in enumerate(comps)}
        for i in names:
            if (hit := self._known(names[i])) is not None:
                out[i] = hit
        todo = [i for i in range(len(comps)) if i not in out]
        done = pool.map(_balance_run, [(self.game, self.metrics, self.kwargs, games, seed, comps[i]) for i in todo],
                        desc=desc, sizes=[games] * len(todo))
        for i, res in zip(todo, done):
            out[i] = res
            remember(names[i], res)
            if self.cache is not None:
                self._write(names[i], res)
        return [out[i] for i in range(len(comps))]

    def close(self) -> None:
        if self.cache is not None:
            self.cache.warn()


def _balance_run(game: str, metrics: list, kwargs: dict, games: int, seed, comp) -> tuple[dict, int]:
    """One simulation run of a search (a block): ``({metric: (numerator, denominator)}, rows)``, every family
    ``name:*`` of ``metrics`` expanded on these games, a metric of restricted play on its own games
    (:func:`._restricted_games.play_metrics`)."""
    from ._restricted_games import play_metrics

    return play_metrics(game, metrics, games, seed, comp, kwargs)


def balance(game: str, parameters: Mapping, objective, *, budget: int = 20000, players: int | None = None,
            policies=None, rng=None, components=None, first_games: int = 200, verify_games: int = 4000,
            progress: bool = False, game_kwargs: Mapping | None = None, cache_dir=None, n_jobs: int = 1,
            backend: str = "loky", scheduler=None, combine: str = "max", tolerance: float = 0.0,
            verify_rng=None, final_games: int = 0, verify_policies=None, controls: bool = False) -> BalanceResult:
    """Search component values that bring one or several metrics to their targets; verify on fresh seeds.

    Parameters
    ----------
    game : str
        A registered game.
    parameters : dict or list of dicts
        Component path (as for ``comp.replace``) -> integer bounds ``(low, high)`` or a list of choices; a key
        of several paths joined by commas (``"card.1.points,card.2.points"``) sets them all to the one value.
        A list of dicts (path -> value) gives the candidates themselves (a joint search over several levers:
        :func:`balance_finding`), the first :data:`MAX_CANDIDATES` of them.
    objective : str, tuple or list of them
        ``"metric = target"``, e.g. ``"start_player_win = 0.5"`` (any metric of
        :func:`pyradice_lab.design.compare.metrics`); a family ``"name:*"`` stands for the metric at every
        argument it takes on the games (``"tile_pay_excess:* = 0"``: every tile of the Meerkat board pays the
        board mean per meerkat); a list gives several objectives.
    budget : int
        Games the search may play in all: a hard cap (a round that would pass it is shortened or not played; a
        first round that cannot give every candidate :data:`MIN_ROUND_GAMES` games plays a reproducible sample
        of the candidates).  The verification (``2 * verify_games``) is not counted; the result says both.
    players : int, optional
        Passed to the game's ``simulate_games``.
    policies : str or list, optional
        The players of every game; default: the game's report player (``registry.get_game(game).report_player``,
        the strongest affordable at report scale), since balance found with weak players is not balance.
    rng : seed, SeedSequence or Generator, optional
        One seed gives the same search and the same proposal.
    components : path or Components, optional
        The components to start from (default: the packaged ones).
    first_games : int
        Games per candidate in the first round (doubled each round, within the budget).
    verify_games : int
        Games for each of the before/after verification runs, on seeds the search never used.
    verify_policies : str or list, optional
        The players of the two verification runs when they are not the search's (a search played by a cheaper
        player, its pick judged by the report player on fresh seeds: the result's ``before``/``after`` are theirs).
    verify_rng : SeedSequence, optional
        The verification's seed (default: spawned from ``rng``; the result's ``verify_rng``): a second search
        given the first one's verifies on the same games, its packaged side the same run.
    progress : bool
        Progress over each round's candidates on stderr (:class:`~pyradice_lab.engine.execution.Progress`).
    game_kwargs : dict, optional
        Further keyword arguments of ``simulate_games`` (checked against its signature).
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
    combine : {"max", "sumsq"}
        How several objectives combine into the one number the search minimises (:data:`COMBINE`): ``"max"``,
        the largest absolute excess ``|estimate - target|`` (default; every metric is then within it of its
        target), or ``"sumsq"``, the sum of squared excesses.  One objective: both rank alike.
    tolerance : float
        An objective is *met* when its verification interval reaches within ``tolerance`` of its target
        (default 0: the interval contains the target).  When the best candidate misses, the result (and the CLI)
        says so in one line, naming the parameters to widen, and :meth:`BalanceResult.to_toml` marks the file.
    final_games : int
        Games each of the last two candidates has played when the search picks between them (default 0: the
        halving's own doubling): their final round is lengthened to it, within ``budget``.  An objective with a
        target is about the candidates' *level*, whose noise common random numbers do not cancel; only more games
        shrink it (:func:`pyradice_lab.design.balance.balance_finding` sets it from its verification's size).
    controls : bool
        Estimate every candidate and both verification runs with the game's controls read off their own games
        (the contract part ``controls``; Purramid: each optimal seat's turn luck, mean 0 exactly): the
        intercept of the regression on them, a Student-t interval (:mod:`._balance_controls`).  Refused before
        any game when the game has no such controls, a seat of the search or the verification cannot give them,
        or an objective is measured on restricted play's own games.

    Returns
    -------
    BalanceResult
        ``values`` (the proposal, by path), ``components`` (with the proposal applied), ``before`` and
        ``after`` (the worst metric's :class:`~pyradice_lab.engine.stats.Estimate` on fresh seeds),
        ``objectives`` (every metric's before/after with their CIs and whether it is met), ``reached``,
        ``history`` (every candidate of every round) and ``games_used``; ``.summary()`` and ``.verdict()``.

    Raises
    ------
    ValueError
        If ``game`` or a metric is unknown, ``objective`` does not read ``"metric = target"`` with a finite
        target, ``parameters`` is empty or has bad bounds/choices, no candidate passes the game's component
        checks, ``budget``, ``first_games`` or ``verify_games`` is below 10, ``combine`` is not one of
        :data:`COMBINE`, ``tolerance`` is negative, or ``game_kwargs`` sets an argument ``balance`` sets itself
        or one ``simulate_games`` does not take.
    TypeError
        If ``objective`` is neither a string nor a ``(metric, target)`` tuple (nor a list of them), a key of
        ``parameters`` is not a string, or ``progress`` is not a bool.

    Examples
    --------
    A tiny search (the README's example with a budget of 300 games and greedy players; a real search wants
    thousands of games under the report player):

    >>> b = balance("purramid", {"deal_2p.value": [[27, 24], [26, 25], [25, 26]]}, "start_player_win = 0.5",
    ...             players=2, policies="greedy", budget=300, first_games=100, verify_games=200, rng=1)
    >>> b.games_used <= 300, b.after.n
    (True, 200)
    """
    from ..engine.execution import Pool, check_execution
    from ..engine.registry import get_game
    from ..engine.rng import spawn_seeds
    from .compare import check_metric
    from .metrics import _warn_small, is_family, simulate_options
    from .robustness import _check_simulate_keys, _simulate

    objectives = parse_objectives(objective)
    simulate = _simulate(game)
    for metric, _ in objectives:
        if not is_family(metric):
            check_metric(game, metric)
    base = get_game(game).components.coerce_components(components)
    for name, v, low in (("budget", budget, 10), ("first_games", first_games, 10), ("verify_games", verify_games, 10),
                         ("final_games", final_games, 0)):
        if isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < low:
            raise ValueError(f"{name} must be an integer >= {low}, got {v!r}")
    if not isinstance(progress, bool):
        raise TypeError(f"progress must be True or False, got {progress!r}")
    if combine not in COMBINE:
        raise ValueError(f"combine must be one of {', '.join(map(repr, COMBINE))}, got {combine!r}")
    if isinstance(tolerance, bool) or not isinstance(tolerance, numbers.Real) or not 0 <= tolerance < math.inf:
        raise ValueError(f"tolerance must be a finite number >= 0, got {tolerance!r}")
    execution = check_execution(n_jobs, backend, scheduler, progress=progress)
    kwargs = dict(game_kwargs or {})
    for key in ("components", "rng", "n_games"):
        if key in kwargs:
            raise ValueError(f"game_kwargs must not set {key!r} (balance sets it)")
    _check_simulate_keys(simulate, kwargs, "game_kwargs")
    for metric, _ in objectives:  # what the metrics need of the games (e.g. Raft's per-card columns)
        for key, value in simulate_options(game, metric).items():
            kwargs.setdefault(key, value)
    if players is not None:
        kwargs["players"] = players
    if policies is None:
        policies = get_game(game).report_player_at(players) or None
    if policies is not None:
        kwargs["policies"] = policies
    from ._balance_controls import CONTROLS_KEY, check_controls, estimate, is_control

    check_controls(game, controls, [m for m, _ in objectives], kwargs, verify_policies)
    targets = dict(objectives)
    listed = _candidate_list(parameters)
    axes = _axes(parameters) if listed is None else _list_axes(listed)
    runs = _Runs(game, [m for m, _ in objectives] + ([CONTROLS_KEY] if controls else []), simulate, kwargs, cache_dir)
    search_seed, verify_seed, pick_seed = spawn_seeds(rng, 3)
    verify_seed = verify_seed if verify_rng is None else verify_rng
    size = _grid_size(axes) if listed is None else len(listed)
    if listed is not None:  # the candidates as given (a joint search's), the first MAX_CANDIDATES
        grid = listed[:MAX_CANDIDATES]
    elif size > MAX_CANDIDATES:  # sampled by index: a grid of 10**12 candidates is never built
        pick = np.random.default_rng(pick_seed).choice(size, MAX_CANDIDATES, replace=False)
        grid = [_candidate(axes, int(i)) for i in sorted(pick)]
    else:
        grid = [_candidate(axes, i) for i in range(size)]
    cands = []
    for values in grid:
        try:
            comp = base.replace(_paths(values))
        except ValueError as exc:  # a combination the game's checks refuse is not a candidate
            cands.append((values, None, str(exc)))
            continue
        cands.append((values, comp, ""))
    alive = [i for i, c in enumerate(cands) if c[1] is not None]
    if not alive:
        raise ValueError(f"parameters: no candidate passes the game's component checks (first error: {cands[0][2]})")
    n_valid = len(alive)
    if budget // len(alive) < MIN_ROUND_GAMES:  # the budget cannot play every candidate: a reproducible sample
        keep = max(1, budget // MIN_ROUND_GAMES)
        order = np.random.default_rng(spawn_seeds(pick_seed, 1)[0]).permutation(len(alive))
        alive = sorted(alive[int(j)] for j in order[:keep])

    def family_of(name: str) -> str:
        return name if name in targets else f"{name.partition(':')[0]}:*"

    def distance(ests: dict) -> float:
        return combine_excess([e.value - targets[family_of(m)] for m, e in ests.items()], combine)

    parts: dict[int, list] = {i: [] for i in alive}
    first = max(int(first_games), int(final_games) if len(alive) == 2 else 0)
    rows, used, games, rnd, each = [], 0, min(first, budget // len(alive)), 0, 0
    round_seeds = search_seed.spawn(64)
    single = None
    from ..engine.notices import announce, announcing

    workers = execution.n_jobs if execution.parallel else 1
    announce(f"{game} balance (at most; {int(verify_games):,} games twice to verify)", budget + 2 * int(verify_games),
             game, kwargs.get("policies"), kwargs.get("players"), workers=workers)
    with Pool(execution=execution) as pool, announcing():
        while games >= MIN_ROUND_GAMES and used + games * len(alive) <= budget:
            seed = round_seeds[rnd]
            # the same games (seeds) for every candidate
            results = runs.many(pool, games, seed, [cands[i][1] for i in alive], desc=f"{game} balance round {rnd}")
            for i, (values, _rows) in zip(alive, results):
                parts[i].append(values)
                used += games
            joined = {i: {m: (np.concatenate([p[m][0] for p in parts[i]]), np.concatenate([p[m][1] for p in parts[i]]))
                          for m in parts[i][0]} for i in alive}
            ests = {i: {m: estimate(joined[i], m) for m in joined[i] if not is_control(m)} for i in alive}
            dist = {i: distance(e) for i, e in ests.items()}
            for i in alive:
                names = list(ests[i])
                single = len(names) == 1
                cols = ({"estimate": ests[i][names[0]].value, "se": ests[i][names[0]].se} if single else
                        {f"estimate[{m}]": e.value for m, e in ests[i].items()})
                rows.append({"round": rnd, **{k: repr(v) for k, v in cands[i][0].items()},
                             "games": ests[i][names[0]].n, **cols, "distance": dist[i]})
            if len(alive) == 1:
                break
            alive = sorted(alive, key=lambda i: (dist[i], i))[:max(1, (len(alive) + 1) // 2)]
            if len(alive) == 1:
                break
            rnd += 1
            each += games  # what every survivor has played; the last two play up to final_games
            top = int(final_games) - each if len(alive) == 2 else 0
            games = min(max(games * 2, top), (budget - used) // len(alive))
            if rnd >= len(round_seeds):
                break
        best = sorted(alive, key=lambda i: (dist[i], i))[0]
        values, comp, _ = cands[best]
        if listed is not None:  # a joint search's candidate names every path it may move: keep those it moves
            values = {k: v for k, v in values.items() if base.get(k.split(",")[0]) != v}
        judge = runs if verify_policies is None else _Runs(game, runs.metrics, simulate,
                                                           {**kwargs, "policies": verify_policies}, cache_dir)
        checked = judge.many(pool, int(verify_games), verify_seed, [base, comp], desc=f"{game} balance verify")
    _warn_small(int(verify_games), ", ".join(targets), stacklevel=2)
    (b_vals, _), (a_vals, _) = checked
    table = []
    for m in (m for m in a_vals if not is_control(m)):
        b, a = (estimate(v, m) for v in (b_vals, a_vals))
        t = targets[family_of(m)]
        table.append({"metric": m, "target": t, "before": b.value, "before_ci_low": b.ci_low,
                      "before_ci_high": b.ci_high, "after": a.value, "after_ci_low": a.ci_low,
                      "after_ci_high": a.ci_high, "excess": a.value - t,
                      "met": bool(a.ci_low - tolerance <= t <= a.ci_high + tolerance), "_b": b, "_a": a})
    table = pd.DataFrame(table)
    worst = table.loc[(table["excess"].abs() * np.where(table["met"], 1, 1e9)).idxmax()] if len(table) > 1 \
        else table.iloc[0]
    for r in {id(runs): runs, id(judge): judge}.values():
        r.close()
    from ..engine.assumptions import Assumptions, components_label, played_lineup

    # the verification's players (``verify_policies``: the report player judging a cheaper search's pick)
    who = played_lineup(game, **(kwargs if verify_policies is None else {**kwargs, "policies": verify_policies}))
    told = Assumptions.build(game, components=f"starting from {components_label(game, components, base)}",
                             players=who[0], policies=who[1], rng=rng,
                             games=f"{used:,} in the search" + ("" if verify_policies is None else
                                                                f" (played by {policies})")
                             + f", {int(verify_games):,} per verification run"
                             + (f"; every estimate with its games' {get_game(game).part('controls').label} as control "
                                "variates (the regression's intercept, Student-t)" if controls else ""))
    history = pd.DataFrame(rows)
    history.attrs["assumptions"] = told
    return BalanceResult(worst["metric"] if len(table) == 1 else ", ".join(m for m, _ in objectives),
                         float(worst["target"]), dict(values), comp, worst["_b"], worst["_a"], history,
                         used, assumptions=told, objectives=table.drop(columns=["_b", "_a"]), reached=bool(table["met"].all()),
                         combine=combine, tolerance=float(tolerance), budget=int(budget),
                         verify_games=int(verify_games), policies=policies,
                         parameters={p: list(v) for p, v in axes} if listed is None else {}, candidates=n_valid,
                         verify_rng=verify_seed, verify_policies=verify_policies, controls=controls)
