"""The ladder's statistics (the seam of :mod:`pyradice_lab.design.strength`): Wilson intervals, the pairwise
results and head-to-head table of an outcomes frame, and the Bradley-Terry fit with its CIs, separation check and
quasi-variances.  Public names are re-exported by :mod:`~pyradice_lab.design.strength`."""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from itertools import combinations

import numpy as np
import pandas as pd

from ..engine.stats import Z95

#: Elo points per logit: a 400-point difference is 10:1 odds.
ELO_PER_LOGIT = 400 / math.log(10)
#: Standard deviation (Elo) of the Gaussian prior on every strength.
DEFAULT_PRIOR_SD = 1000.0


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


def nontransitive_pairs(h2h: pd.DataFrame, ratings) -> pd.DataFrame:
    """The pairs whose head-to-head result contradicts the Bradley-Terry ratings beyond their intervals.

    A pair is flagged when its head-to-head interval (``score_ci_low .. score_ci_high``, the score of ``a``
    against ``b``) excludes 0.5 on the side opposite to the ratings' order (``reason`` "order": the higher-rated
    policy loses the pair), or excludes the score the ratings predict (``reason`` "size": one rating difference
    cannot summarise the pair; "order" implies "size" and is reported alone).  Strength is then not transitive
    over the field (rock-paper-scissors), so one head-to-head result cannot rank the pair against the others,
    and the ratings cannot rank it by the pair alone.  Pairs with an unrated policy (e.g. an automa seated by
    the game) are skipped.  With 95% intervals over many pairs, about one pair in twenty a true model fits may
    be flagged by chance; in games of 3-4 players the head-to-head interval is optimistic (comparisons from one
    game are not independent, :func:`head_to_head`).

    Parameters
    ----------
    h2h : DataFrame
        ``a, b, score, score_ci_low, score_ci_high`` as from :func:`head_to_head`.
    ratings : mapping of policy -> rating (Elo scale)

    Returns
    -------
    DataFrame
        ``a, b, score, score_ci_low, score_ci_high, predicted, rating_a, rating_b, reason``, one row per flagged
        pair (empty: none).

    Examples
    --------
    >>> h2h = pd.DataFrame({"a": ["p", "p", "r"], "b": ["r", "s", "s"], "score": [0.2, 0.8, 0.2],
    ...                     "score_ci_low": [0.15, 0.75, 0.15], "score_ci_high": [0.25, 0.85, 0.25]})
    >>> nontransitive_pairs(h2h, {"p": 0.0, "r": 0.0, "s": 0.0})[["a", "b", "reason"]].values.tolist()
    [['p', 'r', 'size'], ['p', 's', 'size'], ['r', 's', 'size']]
    >>> nontransitive_pairs(h2h, {"p": 100.0, "r": 50.0, "s": 0.0})[["a", "b", "reason"]].values.tolist()
    [['p', 'r', 'order'], ['p', 's', 'size'], ['r', 's', 'order']]
    """
    cols = ["a", "b", "score", "score_ci_low", "score_ci_high", "predicted", "rating_a", "rating_b", "reason"]
    if not isinstance(h2h, pd.DataFrame) or not {"a", "b", "score_ci_low", "score_ci_high"} <= set(h2h.columns):
        raise ValueError("h2h must be a DataFrame with columns a, b, score, score_ci_low, score_ci_high")
    r = dict(ratings)
    t = h2h[h2h["a"].isin(r) & h2h["b"].isin(r)].copy()
    t["rating_a"], t["rating_b"] = t["a"].map(r).astype(float), t["b"].map(r).astype(float)
    t["predicted"] = 1 / (1 + 10 ** ((t["rating_b"] - t["rating_a"]) / 400))
    low, high = t["score_ci_low"], t["score_ci_high"]
    order = ((t["rating_a"] > t["rating_b"]) & (high < 0.5)) | ((t["rating_a"] < t["rating_b"]) & (low > 0.5))
    size = (t["predicted"] < low) | (t["predicted"] > high)
    t["reason"] = np.where(order, "order", "size")
    return t.loc[order | size, cols].reset_index(drop=True)


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
