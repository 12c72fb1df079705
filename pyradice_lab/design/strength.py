"""How strong is each player, and what is each option worth?  A Bradley-Terry ladder and restricted play.

:func:`ladder` plays registered policies of one game against each other, in seatings that rotate every policy
through every seat, and fits a Bradley-Terry model to the pairwise results within each game (who finished
above whom; ties count half).  Ratings are on the Elo scale (a difference of 400 points = 10:1 odds of
finishing above the other player) with confidence intervals.

:func:`restricted_play` (Jaffe et al. 2012) seats a player forbidden one option (``"<policy>/<restriction>"``,
the restrictions each game registers) against unrestricted copies of itself: an option whose loss costs
nothing has no measurable value; one without which the player almost never wins is dominant.

The model
---------
Policy ``i`` has strength ``theta_i`` (logits); ``P(i above j) = 1 / (1 + exp(theta_j - theta_i))``.  Every pair
of seats with different policies in a game is one comparison (a 3-player game gives 3, a 4-player game 6);
a tie on rank counts half to each.  The fit maximises the log-likelihood plus a weak Gaussian prior
``theta_i ~ N(0, prior_sd)`` (default :data:`DEFAULT_PRIOR_SD` = 1000 Elo): it changes well-measured ratings
by a negligible amount and keeps the rating of a policy that wins (or loses) every game finite.  The
variance of the difference of two strengths is the larger of the model-based one (inverse Hessian of the
penalised log-likelihood) and a sandwich estimate clustered by game (comparisons from one multi-player game
are not independent); intervals are rating +- 1.96 SE.

Anchor: by default the ratings average 0 over the policies in the ladder, and each policy's SE is its
*quasi-standard error* (Firth & de Menezes 2004): chosen so that the SE of the difference of any two ratings
is close to ``sqrt(se_i**2 + se_j**2)`` (the largest relative error is ``attrs["quasi_se_error"]``; the exact
SEs of all differences are ``attrs["diff_se"]``).  So ratings can be compared pair by pair: intervals that
do not overlap mean a significant difference, and a policy whose rating is poorly determined (one that
loses every game) does not widen the others' intervals.  ``anchor="greedy"`` instead puts that policy at 0;
the intervals are then exactly those of each policy's difference from it (the anchor's is [0, 0]).

Win rates are win shares (a k-way shared win counts 1/k) over every seat the policy took, with Wilson
intervals (fractional successes allowed); the fair share is 1/players.

Examples
--------
>>> table = ladder("raft", ["random", "greedy"], games=20, rng=1)
>>> list(table.columns[:4]), list(table["policy"])
(['policy', 'rating', 'rating_ci_low', 'rating_ci_high'], ['greedy', 'random'])
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping, Sequence
from itertools import combinations, combinations_with_replacement

import numpy as np
import pandas as pd

from ..engine.rng import seed_sequence
from ..engine.stats import Z95

__all__ = ["ladder", "restricted_play", "fit_bradley_terry", "pairwise_results", "head_to_head", "lineups",
           "wilson_interval", "quasi_variances", "ELO_PER_LOGIT", "DEFAULT_PRIOR_SD", "DOMINANT_FRACTION"]

#: Elo points per logit: a 400-point difference is 10:1 odds.
ELO_PER_LOGIT = 400 / math.log(10)
#: Standard deviation (Elo) of the Gaussian prior on every strength.
DEFAULT_PRIOR_SD = 1000.0
#: A restriction is "dominant" when the restricted player's win-rate CI lies below this fraction of the fair
#: share (1/players): without the option it almost never wins.
DOMINANT_FRACTION = 0.2


# ----------------------------------------------------------------------------------------- validation
def _spec(game):
    from ..engine import registry

    if isinstance(game, registry.GameSpec):
        return game
    if not isinstance(game, str):
        raise TypeError(f"game must be a registered game name, got {type(game).__name__}")
    return registry.get_game(game)


def _pos_int(v, name: str, low: int = 1, high: int | None = None) -> int:
    if isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < low or (high is not None and v > high):
        span = f"{low}..{high}" if high is not None else f">= {low}"
        raise ValueError(f"{name} must be an integer {span}, got {v!r}")
    return int(v)


def _execution(n_jobs, backend, scheduler, progress, cache_dir):
    from ..engine.execution import check_execution

    return check_execution(n_jobs, backend, scheduler, progress=progress, cache_dir=cache_dir)


def _names(policies, name: str, spec) -> list[str]:
    if policies is None:
        policies = spec.policies
    if isinstance(policies, str) or not isinstance(policies, Sequence):
        raise TypeError(f"{name} must be a list of policy names, got {policies!r}")
    out = list(policies)
    if not all(isinstance(p, str) and p for p in out):
        raise ValueError(f"{name} must be non-empty policy names (str), got {out!r}")
    if len(set(out)) != len(out):
        raise ValueError(f"{name} must be distinct, got {out!r}")
    return out


def wilson_interval(successes, n, *, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for ``successes / n``; successes may be fractional (a shared win counts 1/k).

    Examples
    --------
    >>> low, high = wilson_interval(30, 100)
    >>> round(float(low), 3), round(float(high), 3)
    (0.219, 0.396)
    >>> [round(float(x), 3) for x in wilson_interval(7.5, 10)]
    [0.442, 0.919]
    """
    from statistics import NormalDist

    s = np.asarray(successes, dtype=float)
    m = np.asarray(n, dtype=float)
    if np.any(m <= 0) or np.any(s < 0) or np.any(s > m):
        raise ValueError("successes must lie in 0..n and n must be positive")
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    p = s / m
    denom = 1 + z * z / m
    centre = (p + z * z / (2 * m)) / denom
    half = z / denom * np.sqrt(p * (1 - p) / m + z * z / (4 * m * m))
    return np.where(s == 0, 0.0, np.maximum(0.0, centre - half)), np.where(s == m, 1.0, np.minimum(1.0, centre + half))


# ----------------------------------------------------------------------------------------- pairwise data
def _seat_matrix(out: pd.DataFrame):
    """(game ids, policies (G, P), ranks (G, P)) of an outcomes frame whose games all have P seats."""
    out = out.sort_values(["game", "seat"], kind="stable")
    games, counts = np.unique(out["game"].to_numpy(), return_counts=True)
    if len(games) == 0:
        raise ValueError("outcomes must hold at least one game")
    if (counts != counts[0]).any():
        raise ValueError("outcomes must hold games with the same number of seats")
    p = int(counts[0])
    return games, out["policy"].to_numpy(dtype=object).reshape(-1, p), out["rank"].to_numpy().reshape(-1, p)


def pairwise_results(outcomes: pd.DataFrame) -> pd.DataFrame:
    """Every pair of seats with different policies in every game: ``game, a, b, score`` (a's score: 1 if a
    ranked above b, 0.5 on equal ranks, else 0).

    Examples
    --------
    >>> from pyradice_lab.engine.outcomes import outcome_frame
    >>> out = outcome_frame([0], ["x", "y", "x"], positions=[[0, 1, 2]], scores=[[3, 5, 3]])
    >>> pairwise_results(out).values.tolist()
    [[0, 'x', 'y', 0.0], [0, 'y', 'x', 1.0]]
    """
    games, pols, ranks = _seat_matrix(outcomes)
    parts = []
    for i, j in combinations(range(pols.shape[1]), 2):
        diff = pols[:, i] != pols[:, j]
        score = np.where(ranks[:, i] < ranks[:, j], 1.0, np.where(ranks[:, i] == ranks[:, j], 0.5, 0.0))
        parts.append(pd.DataFrame({"game": games[diff], "a": pols[diff, i], "b": pols[diff, j], "score": score[diff]}))
    return pd.concat(parts, ignore_index=True).sort_values("game", kind="stable", ignore_index=True)


def head_to_head(outcomes: pd.DataFrame) -> pd.DataFrame:
    """Per pair of policies: comparisons, ``score`` of ``a`` against ``b`` (ties half) with a Wilson interval.

    In games of more than two players, comparisons from one game are not independent, so the interval is
    optimistic there; with two players it is the head-to-head win rate of ``a``.
    """
    pr = pairwise_results(outcomes)
    flip = pr["a"].to_numpy().astype(str) > pr["b"].to_numpy().astype(str)
    a = np.where(flip, pr["b"], pr["a"])
    b = np.where(flip, pr["a"], pr["b"])
    score = np.where(flip, 1 - pr["score"], pr["score"])
    g = pd.DataFrame({"a": a, "b": b, "score": score}).groupby(["a", "b"], sort=True)["score"]
    res = pd.DataFrame({"comparisons": g.size(), "wins": g.sum()}).reset_index()
    low, high = wilson_interval(res["wins"], res["comparisons"])
    return res.assign(score=res["wins"] / res["comparisons"], score_ci_low=low, score_ci_high=high)


# ----------------------------------------------------------------------------------------- the fit
def fit_bradley_terry(pairs: pd.DataFrame, policies: Sequence[str] | None = None, *, anchor: str | None = None,
                      prior_sd: float = DEFAULT_PRIOR_SD) -> pd.DataFrame:
    """Fit Bradley-Terry strengths to pairwise results (see the module docstring for the model).

    Parameters
    ----------
    pairs : DataFrame
        ``game, a, b, score`` as from :func:`pairwise_results` (``score`` in [0, 1]: a's result against b).
    policies : sequence of str, optional
        Policies to rate, in output order (default: those in ``pairs``, sorted).  Each must appear and all
        must be connected by comparisons.
    anchor : str, optional
        Policy rated 0; default: ratings average 0.
    prior_sd : float
        Prior standard deviation of every strength, Elo points (> 0).

    Returns
    -------
    DataFrame
        ``policy, rating, rating_se, rating_ci_low, rating_ci_high, comparisons`` (Elo scale; without an anchor
        the SEs are quasi-standard errors, see the module docstring).  ``attrs``: ``diff_se`` (SE of every
        difference of two ratings, a DataFrame), ``quasi_se_error`` and ``separation``: None, or for a degenerate
        ladder (a policy, or a group of them, finished above the others in every comparison: the maximum
        likelihood ratings are infinite) a sentence naming the groups; the ratings are then finite only through
        the prior, and the sentence says so.

    Raises
    ------
    ValueError
        If ``pairs`` lacks a column, a score is outside [0, 1], a policy has no comparisons, the policies are
        not connected, ``anchor`` is not rated or ``prior_sd`` is not positive.

    Examples
    --------
    >>> pairs = pd.DataFrame({"game": range(4), "a": ["x"] * 4, "b": ["y"] * 4, "score": [1, 1, 1, 0]})
    >>> fit = fit_bradley_terry(pairs, anchor="y")
    >>> round(float(fit.loc[0, "rating"]))   # 3 wins in 4: log(3) logits = 191 Elo, shrunk a little by the prior
    187
    >>> fit.attrs["separation"] is None
    True
    >>> unbeaten = fit_bradley_terry(pairs.assign(score=1.0))  # x wins all 4: only the prior keeps it finite
    >>> unbeaten.attrs["separation"][:30]
    'degenerate ladder: {x} > {y} ('
    """
    from scipy import optimize, sparse

    if not isinstance(pairs, pd.DataFrame) or not {"game", "a", "b", "score"} <= set(pairs.columns):
        raise ValueError("pairs must be a DataFrame with columns game, a, b, score")
    if isinstance(prior_sd, bool) or not isinstance(prior_sd, numbers.Real) or not 0 < prior_sd < math.inf:
        raise ValueError(f"prior_sd must be a positive number of Elo points, got {prior_sd!r}")
    seen = sorted(set(pairs["a"]) | set(pairs["b"]))
    names = list(seen if policies is None else policies)
    missing = [p for p in names if p not in seen]
    if missing:
        raise ValueError(f"policies {missing} have no comparisons")
    if anchor is not None and anchor not in names:
        raise ValueError(f"anchor must be one of the rated policies {names}, got {anchor!r}")
    index = {p: i for i, p in enumerate(names)}
    keep = pairs["a"].isin(index) & pairs["b"].isin(index)
    a = pairs.loc[keep, "a"].map(index).to_numpy()
    b = pairs.loc[keep, "b"].map(index).to_numpy()
    y = pairs.loc[keep, "score"].to_numpy(dtype=float)
    if np.any((y < 0) | (y > 1)) or np.any(a == b):
        raise ValueError("pairs: scores must lie in [0, 1] between different policies")
    n = len(names)
    _check_connected(n, a, b, names)
    key = a * n + b
    uk, inv = np.unique(key, return_inverse=True)
    ua, ub = uk // n, uk % n
    m = np.bincount(inv).astype(float)
    ys = np.bincount(inv, weights=y)
    tau = 1 / (prior_sd / ELO_PER_LOGIT) ** 2
    d = np.zeros((len(uk), n))
    d[np.arange(len(uk)), ua] = 1
    d[np.arange(len(uk)), ub] -= 1

    w = m.sum()  # the objective per comparison: well scaled whatever the number of games

    def f(t):
        x = t[ua] - t[ub]
        return ((ys * np.logaddexp(0, -x) + (m - ys) * np.logaddexp(0, x)).sum() + tau * t @ t / 2) / w

    def grad(t):
        p = 1 / (1 + np.exp(-(t[ua] - t[ub])))
        return (-d.T @ (ys - m * p) + tau * t) / w

    def hess(t):
        p = 1 / (1 + np.exp(-(t[ua] - t[ub])))
        return ((d.T * (m * p * (1 - p))) @ d + tau * np.eye(n)) / w

    res = optimize.minimize(f, np.zeros(n), jac=grad, hess=hess, method="trust-exact", options={"gtol": 1e-12})
    theta = _newton_finish(res.x, f, grad, hess)
    h_inv = np.linalg.inv(hess(theta) * w)
    # sandwich: per-game score vectors (likelihood part), games as clusters
    games = pd.factorize(pairs.loc[keep, "game"])[0]
    u = y - 1 / (1 + np.exp(-(theta[a] - theta[b])))
    s = sparse.csr_matrix((np.concatenate([u, -u]), (np.concatenate([games, games]), np.concatenate([a, b]))),
                          shape=(games.max() + 1, n))
    meat = (s.T @ s).toarray()
    diff_var = np.maximum(_diff_var(h_inv), _diff_var(h_inv @ meat @ h_inv))  # Var(theta_i - theta_j)
    if anchor is None:
        rating = theta - theta.mean()
        var, err = quasi_variances(diff_var)
    else:
        rating = theta - theta[index[anchor]]
        var, err = diff_var[:, index[anchor]], 0.0
    rating = rating * ELO_PER_LOGIT
    se = np.sqrt(var) * ELO_PER_LOGIT
    comps = np.bincount(a, minlength=n) + np.bincount(b, minlength=n)
    out = pd.DataFrame({"policy": names, "rating": rating, "rating_se": se, "rating_ci_low": rating - Z95 * se,
                        "rating_ci_high": rating + Z95 * se, "comparisons": comps})
    out.attrs["quasi_se_error"] = err
    out.attrs["diff_se"] = pd.DataFrame(np.sqrt(diff_var) * ELO_PER_LOGIT, index=names, columns=names)
    out.attrs["separation"] = _separation(n, ua, ub, ys, m, names)
    return out


def _separation(n: int, ua, ub, ys, m, names) -> str | None:
    """None when every rating difference has a finite maximum-likelihood estimate; otherwise a sentence saying
    which policies beat which in every comparison (their difference is then infinite on the data alone and only
    the prior keeps it finite, so its value and interval say more about ``prior_sd`` than about the games).

    The estimate is finite exactly when the directed graph "i scored something against j" is strongly
    connected (Zermelo 1929; Hunter 2004, assumption 1).
    """
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import connected_components

    scored = np.concatenate([ua[ys > 0], ub[ys < m]]), np.concatenate([ub[ys > 0], ua[ys < m]])
    graph = csr_matrix((np.ones(len(scored[0])), scored), shape=(n, n))
    k, label = connected_components(graph, directed=True, connection="strong")
    if k == 1:
        return None
    # order the groups (Kahn): a group is listed only after every group that ever scored against it
    above = {g: set() for g in range(k)}  # above[h]: the groups that scored against h
    for i, j in zip(*scored):
        if label[i] != label[j]:
            above[int(label[j])].add(int(label[i]))
    order: list[int] = []
    while len(order) < k:
        g = min(h for h in range(k) if h not in order and above[h] <= set(order))
        order.append(g)
    desc = [", ".join(names[i] for i in range(n) if label[i] == g) for g in order]
    return ("degenerate ladder: " + " > ".join(f"{{{d}}}" for d in desc) + " (no policy of a later group ever "
            "scored against one of an earlier group): those rating differences are infinite on the games alone; "
            "the finite ratings shown come from the prior (prior_sd) and are not measurements")


#: The fit is accepted when a full Newton step from it moves no strength by more than this (logits; 1e-7 logit =
#: 4e-5 Elo, far below any standard error the ladder reports).
NEWTON_TOL = 1e-7


def _newton_finish(theta: np.ndarray, f, grad, hess, *, steps: int = 30) -> np.ndarray:
    """Newton steps (halved while they do not lower ``f``) from the optimiser's point until the step is below
    :data:`NEWTON_TOL` (relative to the strengths' scale) or stops making progress in floating point.

    The penalised log-likelihood is smooth and strictly convex (the prior), so from the optimiser's point Newton
    converges quadratically; the test is on the step, in the strengths' own units, not on an absolute
    gradient limit that floating-point rounding of a sum over many comparisons can exceed at the optimum.
    """
    tol = NEWTON_TOL * max(1.0, float(np.abs(theta).max()))
    step = np.full_like(theta, np.inf)
    for _ in range(steps):
        step = np.linalg.solve(hess(theta), grad(theta))
        if np.abs(step).max() <= tol:
            return theta - step
        f0, t = f(theta), 1.0
        while t > 1e-6 and not f(theta - t * step) <= f0:
            t /= 2
        if t <= 1e-6:  # no decrease even along a tiny Newton step: f is flat to rounding here
            break
        theta = theta - t * step
    if np.abs(step).max() <= 1e3 * tol:  # rounding-limited: still far below any reported SE
        return theta
    raise RuntimeError(  # pragma: no cover - the problem is smooth and strictly convex
        f"Bradley-Terry fit did not converge: the last Newton step moved a strength by "
        f"{np.abs(step).max():.3g} logits (accepted below {tol:.1g})")


def _diff_var(cov: np.ndarray) -> np.ndarray:
    d = np.diag(cov)
    return np.maximum(d[:, None] + d[None, :] - 2 * cov, 0.0)


def quasi_variances(diff_var) -> tuple[np.ndarray, float]:
    """Quasi-variances (Firth & de Menezes 2004): ``q`` with ``q_i + q_j`` close to ``diff_var[i, j]`` for every pair.

    Fitted by least squares on the log scale.  Returns ``q`` and the largest relative error of
    ``sqrt(q_i + q_j)`` as a standard error of a difference.

    Examples
    --------
    >>> q, err = quasi_variances(np.array([[0, 2, 5], [2, 0, 5], [5, 5, 0]]))
    >>> np.round(q, 6).tolist(), err < 1e-6
    ([1.0, 1.0, 4.0], True)
    """
    from scipy import optimize

    v = np.asarray(diff_var, dtype=float)
    n = len(v)
    i, j = np.triu_indices(n, 1)
    target = np.log(np.maximum(v[i, j], 1e-300))

    def fg(x):  # squared log errors (and a tiny pull to equal q, which settles the 2-policy case), gradient
        q = np.exp(x)
        s = q[i] + q[j]
        r = np.log(s) - target
        g = np.zeros(n)
        np.add.at(g, i, 2 * r * q[i] / s)
        np.add.at(g, j, 2 * r * q[j] / s)
        c = x - x.mean()
        return r @ r + 1e-8 * (c @ c), g + 2e-8 * c

    x0 = np.full(n, np.log(np.exp(target).mean() / 2))
    x = optimize.minimize(fg, x0, jac=True, method="BFGS", options={"gtol": 1e-12}).x
    q = np.exp(x)
    err = float(np.abs(np.sqrt((q[i] + q[j]) / np.exp(target)) - 1).max()) if len(i) else 0.0
    return q, err


def _check_connected(n: int, a, b, names) -> None:
    adj = np.zeros((n, n), dtype=bool)
    adj[a, b] = adj[b, a] = True
    seen, todo = {0}, [0]
    while todo:
        i = todo.pop()
        for j in np.flatnonzero(adj[i]):
            if j not in seen:
                seen.add(int(j))
                todo.append(int(j))
    if len(seen) != n:
        raise ValueError(f"policies must all be connected by games; {[names[i] for i in range(n) if i not in seen]} "
                         f"never meet {names[0]!r} (directly or through others)")


# ----------------------------------------------------------------------------------------- playing
def lineups(policies: Sequence[str], players: int, *, ok=None) -> list[list[tuple[str, ...]]]:
    """The games of a ladder: per lineup of policies, its seatings (every cyclic rotation).

    Two players: every pair, in both seatings.  3-4 players: every combination of ``players`` distinct
    policies (with fewer policies than seats: every multiset holding at least two different ones), each in
    its ``players`` rotations, so every policy sits in every seat equally often.  ``ok(lineup) -> bool``
    drops lineups a game cannot seat (e.g. two Meerkat Kingdom automata).

    Examples
    --------
    >>> lineups(["a", "b", "c"], 2)[0]
    [('a', 'b'), ('b', 'a')]
    >>> lineups(["a", "b", "c"], 3)
    [[('a', 'b', 'c'), ('b', 'c', 'a'), ('c', 'a', 'b')]]
    """
    names = list(policies)
    if len(names) >= players:
        combos = list(combinations(names, players))
    else:
        combos = [c for c in combinations_with_replacement(names, players) if len(set(c)) > 1]
    out = []
    for c in combos:
        if ok is not None and not ok(list(c)):
            continue
        out.append([tuple(c[(k + r) % players] for k in range(players)) for r in range(players)])
    return out


def _play_block(game: str, seating: tuple[str, ...], n_games: int, seed, game_kwargs: Mapping) -> pd.DataFrame:
    return _spec(game).lineup_outcomes(list(seating), n_games, rng=seed, **dict(game_kwargs))


def _run_blocks(spec, blocks, n_games: int, seeds, execution, game_kwargs, entry: str) -> pd.DataFrame:
    from ..engine.execution import Pool
    from ..engine.limits import check_result_size
    from ..engine.rng import describe_seed

    players = len(blocks[0]) if blocks else 1
    check_result_size(len(blocks) * n_games * players, _SEAT_ROW_BYTES, name="games", item="seat result")
    args = [(spec.name, seating, n_games, seed, game_kwargs) for seating, seed in zip(blocks, seeds)]
    keys = [{"entry": entry, "game": spec.name, "seating": list(seating), "games": n_games,
             **describe_seed(seed), "kwargs": game_kwargs} for seating, seed in zip(blocks, seeds)]
    with Pool(execution=execution) as pool:
        parts = pool.map(_play_block, args, keys=keys, desc=f"{spec.name} {entry}", sizes=[n_games] * len(args),
                         code=[spec.lineup_outcomes])
    frames = [out.assign(block=i, game=i * n_games + out["game"].to_numpy()) for i, out in enumerate(parts)]
    return pd.concat(frames, ignore_index=True)


#: Memory of one (game, seat) row of the outcomes frame a ladder holds (rounded up).
_SEAT_ROW_BYTES = 200


def _game_kwargs(game_kwargs) -> dict:
    if game_kwargs is None:
        return {}
    if not isinstance(game_kwargs, Mapping):
        raise TypeError(f"game_kwargs must be a dict of simulate_games keyword arguments, got {game_kwargs!r}")
    return dict(game_kwargs)


def ladder(game, policies, *, players: int | None = None, games: int = 1000, rng=None, n_jobs: int = 1,
           progress: bool = False, anchor: str | None = None, prior_sd: float = DEFAULT_PRIOR_SD,
           game_kwargs: Mapping | None = None, return_outcomes: bool = False, backend: str = "loky",
           scheduler=None, cache_dir=None):
    """Rate ``policies`` of ``game`` against each other: a Bradley-Terry ladder with confidence intervals.

    Parameters
    ----------
    game : str or GameSpec
        A registered game (``"purramid"``, ``"pyradice"``, ``"raft"``, ``"meerkat"``).
    policies : sequence of str or None
        At least two distinct policy names the game's simulator accepts (restricted players
        ``"<policy>/<restriction>"`` included); None: the game's registered policies.
    players : int, optional
        Seats per game, 2..4; None: the game's ``default_players`` (registry; 2 where a game states none).
    games : int
        Games per lineup (two players: per pair of policies), split evenly over its seatings and rounded
        up to a multiple of them.
    rng : seed, SeedSequence or Generator
        Root seed; block ``i`` (one seating of one lineup) plays with the ``i``-th spawned child, so the
        result is the same for any ``n_jobs``.
    n_jobs : int
        Parallel workers over blocks (-1: all cores).
    progress : bool
        Progress over blocks on stderr (:class:`~pyradice_lab.engine.execution.Progress`).
    anchor : str, optional
        Policy rated 0 (default: ratings average 0).
    prior_sd : float
        Prior standard deviation of every strength, Elo points (see the module docstring).
    game_kwargs : dict, optional
        Extra keyword arguments of the game's ``simulate_games`` (e.g. ``{"layout": "B"}`` for Purramid,
        ``{"variant": "sinking"}`` for Rocking Raft, ``{"components": ...}`` for Meerkat Kingdom).
    return_outcomes : bool
        Also return the outcomes frame of every game played (:mod:`pyradice_lab.engine.outcomes`, plus ``block``).
    backend, scheduler : str, optional
        Where the blocks run: ``"loky"`` (default), ``"dask"`` (``scheduler``: a cluster's address) or
        ``"threading"`` (:mod:`pyradice_lab.engine.execution`); the numbers never depend on it.
    cache_dir : path, optional
        Store every finished block there; a killed run started again computes only the missing blocks.

    Returns
    -------
    DataFrame
        One row per policy, strongest first: ``policy, rating, rating_ci_low, rating_ci_high, win_rate,
        win_rate_ci_low, win_rate_ci_high, games`` (games the policy played) and ``rating_se``, ``wins`` (win
        shares), ``players``.  ``attrs``: ``head_to_head`` (see :func:`head_to_head`; its ``predicted`` column is
        the model's score of ``a`` against ``b``: far from ``score``, one rating cannot summarise the pair),
        ``diff_se``, ``quasi_se_error`` and ``separation`` (see :func:`fit_bradley_terry`: not None when a
        policy finished above another in every game they met, whose ratings then rest on the prior), ``game``,
        ``players``,
        ``games_per_seating``, ``anchor``, ``prior_sd``, ``seed_entropy``.

    Examples
    --------
    >>> t = ladder("purramid", ["greedy", "stop_after:2"], players=2, games=40, rng=3)
    >>> t["policy"].tolist(), int(t["games"].iloc[0])
    (['stop_after:2', 'greedy'], 40)
    """
    spec = _spec(game)
    names = _names(policies, "policies", spec)
    if len(names) < 2:
        raise ValueError(f"policies must name at least two policies, got {names!r}")
    players = _pos_int((spec.default_players or 2) if players is None else players, "players", 2, 4)
    games = _pos_int(games, "games")
    execution = _execution(n_jobs, backend, scheduler, progress, cache_dir)
    if anchor is not None and anchor not in names:
        raise ValueError(f"anchor must be one of the policies {names}, got {anchor!r}")
    kwargs = _game_kwargs(game_kwargs)
    lineup_list = lineups(names, players, ok=spec.lineup_ok)
    if not lineup_list:
        raise ValueError(f"policies: no lineup of {players} seats can be played with {names}")
    per_seating = -(-games // len(lineup_list[0]))
    blocks = [s for lineup in lineup_list for s in lineup]
    root = seed_sequence(rng, name="rng")
    out = _run_blocks(spec, blocks, per_seating, root.spawn(len(blocks)), execution, kwargs, "ladder")
    fit = fit_bradley_terry(pairwise_results(out), names, anchor=anchor, prior_sd=prior_sd)
    by = out.groupby("policy")["win"]
    played, wins = by.size().reindex(names).to_numpy(), by.sum().reindex(names).to_numpy()
    low, high = wilson_interval(wins, played)
    table = fit.drop(columns="comparisons").assign(win_rate=wins / played, win_rate_ci_low=low,
                                                   win_rate_ci_high=high, games=played, wins=wins, players=players)
    cols = ["policy", "rating", "rating_ci_low", "rating_ci_high", "win_rate", "win_rate_ci_low", "win_rate_ci_high",
            "games", "rating_se", "wins", "players"]
    table = table[cols].sort_values("rating", ascending=False, kind="stable", ignore_index=True)
    h2h = head_to_head(out)
    r = dict(zip(fit["policy"], fit["rating"]))
    h2h["predicted"] = 1 / (1 + 10 ** ((h2h["b"].map(r) - h2h["a"].map(r)) / 400))
    table.attrs.update({"game": spec.name, "players": players, "games_per_seating": per_seating, "anchor": anchor,
                        "prior_sd": prior_sd, "seed_entropy": root.entropy, "head_to_head": h2h,
                        "diff_se": fit.attrs["diff_se"], "quasi_se_error": fit.attrs["quasi_se_error"],
                        "separation": fit.attrs["separation"],
                        "assumptions": _assumptions(spec.name, kwargs, rng, f"{len(names)} rated: {', '.join(names)}",
                                                    players, f"{per_seating:,} per seating, {per_seating * len(blocks):,} in all")})
    return (table, out) if return_outcomes else table


def _assumptions(game: str, kwargs: dict, rng, policies: str, players: int, games: str):
    """The :class:`~pyradice_lab.engine.assumptions.Assumptions` of a ladder or a restricted-play table."""
    from ..engine.assumptions import Assumptions, components_label

    extra = {k: v for k, v in sorted(kwargs.items()) if k != "components"}
    return Assumptions.build(game, components=components_label(game, kwargs.get("components")), players=players,
                             policies=policies, rng=rng, games=games, **extra)


def restricted_play(game, policy, restrictions, *, players: int | None = None, games: int = 1000, rng=None,
                    n_jobs: int = 1, progress: bool = False, dominant_fraction: float = DOMINANT_FRACTION,
                    game_kwargs: Mapping | None = None, backend: str = "loky", scheduler=None,
                    cache_dir=None) -> pd.DataFrame:
    """The win rate of ``policy`` forbidden one option against unrestricted copies of itself, per restriction.

    Parameters
    ----------
    game : str or GameSpec
    policy : str or None
        The player (None: :func:`~pyradice_lab.engine.registry.restricted_player`, the game's report player when
        it takes restrictions, e.g. Meerkat Kingdom's ``mcts_v2``, else its strongest registered policy that
        can sit twice in a game).
    restrictions : sequence of str or None
        Names the game registers (``registry.get_game(game).restrictions``); None: all of them.
    players : int, optional
        Seats, 2..4 (None: the game's ``default_players``, 2 where a game states none): one restricted player, ``players - 1`` unrestricted ones; the restricted player sits in
        every seat equally often.
    games : int
        Games per restriction (rounded up to a multiple of ``players``).
    rng : seed, SeedSequence or Generator
        Block ``i`` (one restriction, one seat) plays with the ``i``-th spawned child.
    n_jobs, progress, game_kwargs, backend, scheduler, cache_dir
        As in :func:`ladder`.
    dominant_fraction : float
        A restriction is "dominant" when the CI's upper end is below ``dominant_fraction / players``.

    Returns
    -------
    DataFrame
        One row per restriction, the most costly first (by ``effect`` = win rate - fair share):
        ``restriction, description, player, opponent, players, games, win_rate, win_rate_ci_low,
        win_rate_ci_high, fair_share, effect, flag``.  ``flag``: ``"no measurable value"`` (the CI contains the
        fair share), ``"dominant"`` (see ``dominant_fraction``), ``"valuable"`` (CI below the fair share),
        ``"harmful"`` (CI above it: the player does better without the option).

    Examples
    --------
    >>> t = restricted_play("raft", "greedy", ["fixed_duration"], games=20, rng=2)
    >>> t[["restriction", "player", "games"]].values.tolist()
    [['fixed_duration', 'greedy/fixed_duration', 21]]
    """
    spec = _spec(game)
    if policy is None:
        from ..engine.registry import restricted_player

        policy = restricted_player(spec)
    if not isinstance(policy, str) or not policy:
        raise ValueError(f"policy must be a policy name, got {policy!r}")
    names = _names(restrictions if restrictions is not None else list(spec.restrictions), "restrictions", spec)
    if not names:
        raise ValueError("restrictions must name at least one restriction")
    unknown = [r for r in names if r not in spec.restrictions]
    if unknown:
        raise ValueError(f"restrictions must be among {sorted(spec.restrictions)} ({spec.name}), got {unknown}")
    players = _pos_int((spec.default_players or 2) if players is None else players, "players", 2, 4)
    games = _pos_int(games, "games")
    execution = _execution(n_jobs, backend, scheduler, progress, cache_dir)
    if isinstance(dominant_fraction, bool) or not isinstance(dominant_fraction, numbers.Real) or \
            not 0 < dominant_fraction < 1:
        raise ValueError(f"dominant_fraction must be in (0, 1), got {dominant_fraction!r}")
    kwargs = _game_kwargs(game_kwargs)
    per_seat = -(-games // players)
    blocks = [tuple(f"{policy}/{r}" if k == seat else policy for k in range(players))
              for r in names for seat in range(players)]
    root = seed_sequence(rng, name="rng")
    out = _run_blocks(spec, blocks, per_seat, root.spawn(len(blocks)), execution, kwargs, "restricted_play")
    fair = 1 / players
    rows = []
    for r in names:
        mine = out[out["policy"] == f"{policy}/{r}"]
        n, w = len(mine), float(mine["win"].sum())
        low, high = (float(x) for x in wilson_interval(w, n))
        if low <= fair <= high:
            flag = "no measurable value"
        elif high < dominant_fraction * fair:
            flag = "dominant"
        else:
            flag = "valuable" if high < fair else "harmful"
        rows.append({"restriction": r, "description": spec.restrictions[r], "player": f"{policy}/{r}",
                     "opponent": policy, "players": players, "games": n, "win_rate": w / n, "win_rate_ci_low": low,
                     "win_rate_ci_high": high, "fair_share": fair, "effect": w / n - fair, "flag": flag})
    table = pd.DataFrame(rows).sort_values("effect", kind="stable", ignore_index=True)
    table.attrs.update({"game": spec.name, "policy": policy, "players": players, "games_per_seat": per_seat,
                        "dominant_below": dominant_fraction * fair, "seed_entropy": root.entropy,
                        "assumptions": _assumptions(spec.name, kwargs, rng, f"{policy} with one option forbidden "
                                                    f"vs {players - 1} unrestricted {policy}", players,
                                                    f"{per_seat:,} per seat, {per_seat * players:,} per restriction")})
    return table
