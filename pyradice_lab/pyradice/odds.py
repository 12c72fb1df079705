"""Exact Pyradice probabilities (integer counts and ``fractions.Fraction``).

- :func:`available_exact` — the distribution of how many dice are available at each of the first turns when
  every die is taken uniformly at random among the available ones (the take rule of ``random_legal``): a
  dynamic programme over quarry occupancies (availability is a pure function of occupancy);
- :func:`blind_goal_probability` — the chance that a level of ``n`` dice drawn blind from the quarry (fair d6
  values, colours drawn without replacement from the box) meets a goal token, by enumerating every value (and
  colour) sequence: the baseline that choice and skills improve on.

Both read their chance outcomes from the same declarations as the sampler: fair faces (``dice.toml``) and the
colour pool of :func:`.quarry.colour_pool`.

Examples
--------
>>> df = available_exact(3)
>>> df.loc[df.turn == 2, ["n_available", "probability"]].values.tolist()
[[5, Fraction(1, 1)]]
>>> blind_goal_probability("C6", 1)
Fraction(1, 729)
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from functools import cache

import numpy as np
import pandas as pd

from .components import coerce_components
from .geometry import check_players, quarry_geometry
from .goals import get_goal_kind, goal_met
from .quarry import availability, colour_pool

__all__ = ["available_exact", "available_exact_table", "blind_goal_probability", "blind_goal_table",
           "MAX_EXACT_TURNS"]

#: Turns the exact availability programme may go to (state counts grow to ~10^4-10^5 beyond).
MAX_EXACT_TURNS = 10


@cache
def _available_dp(turns: int, players: int) -> tuple[tuple[tuple[int, Fraction], ...], ...]:
    n = quarry_geometry(players).n
    states: dict[int, Fraction] = {(1 << n) - 1: Fraction(1)}
    out = []
    bits = np.array([1 << i for i in range(n)], dtype=object)
    for _ in range(turns):
        keys = list(states)
        occ = np.array([[(k >> i) & 1 for i in range(n)] for k in keys], dtype=bool)
        av = availability(occ, players)
        dist: dict[int, Fraction] = {}
        nxt: dict[int, Fraction] = {}
        for k, a in zip(keys, av):
            idx = np.flatnonzero(a)
            p = states[k]
            dist[len(idx)] = dist.get(len(idx), Fraction(0)) + p
            share = p / len(idx)
            for i in idx:
                nk = k & ~int(bits[i])
                nxt[nk] = nxt.get(nk, Fraction(0)) + share
        out.append(tuple(sorted(dist.items())))
        states = nxt
    return tuple(out)


def available_exact(turns: int = 8, players: int = 2) -> pd.DataFrame:
    """Exact distribution of the number of available dice at turns 1..``turns`` under uniformly random takes.

    Parameters
    ----------
    turns : int
        1..MAX_EXACT_TURNS.
    players : int
        2 (2-player quarry) or 3-4 (3/4-player quarry); only the quarry size matters.

    Returns
    -------
    pandas.DataFrame
        One row per (turn, number of available dice): columns ``turn``, ``n_available``, ``probability``
        (Fraction) and ``p`` (float); each turn's probabilities sum to 1.

    Raises
    ------
    ValueError
        If ``turns`` is not an integer in 1..MAX_EXACT_TURNS or ``players`` is not in 2..4.
    TypeError
        If ``players`` is not an integer.

    Examples
    --------
    >>> df = available_exact(2)
    >>> list(df.columns), df.groupby("turn")["probability"].sum().tolist()
    (['turn', 'n_available', 'probability', 'p'], [Fraction(1, 1), Fraction(1, 1)])
    """
    if isinstance(turns, bool) or not isinstance(turns, (int, np.integer)) or not 1 <= turns <= MAX_EXACT_TURNS:
        raise ValueError(f"turns must be an integer in 1..{MAX_EXACT_TURNS}, got {turns!r}")
    players = check_players(players)
    rows = [(t + 1, n, p, float(p)) for t, dist in enumerate(_available_dp(int(turns), players)) for n, p in dist]
    return pd.DataFrame(rows, columns=["turn", "n_available", "probability", "p"])


def available_exact_table(turn: int, players: int = 2) -> list[Fraction]:
    """P(n dice available at ``turn``) for n = 0..max, as a list of Fractions summing to 1."""
    df = available_exact(turn, players)
    df = df[df.turn == turn]
    top = int(df.n_available.max())
    probs = dict(zip(df.n_available, df.probability))
    return [probs.get(n, Fraction(0)) for n in range(top + 1)]


def _colour_weights(n: int, counts: tuple[int, ...]):
    """Every ordered colour sequence of n dice drawn without replacement from ``counts``, with its probability."""
    total = sum(counts)
    for seq in itertools.product(range(len(counts)), repeat=n):
        used = [0] * len(counts)
        p = Fraction(1)
        for i, c in enumerate(seq):
            p *= Fraction(counts[c] - used[c], total - i)
            used[c] += 1
            if p == 0:
                break
        if p:
            yield seq, p


def blind_goal_probability(code: str, level: int, *, players: int = 2,
                           components=None) -> Fraction:
    """Exact chance that level ``level`` filled with dice drawn blind meets goal token ``code``.

    Values are fair d6; colours are drawn without replacement from the box (the quarry is itself a random draw
    from it, and a blind level is a random subset of the quarry).  Goals reading both values and colours are
    enumerated jointly (only feasible up to 3 dice).

    Parameters
    ----------
    code : str
        A goal token code of the components (e.g. ``"C3"``).
    level : int
        Pyramid level 1..6 (level ``k`` holds ``7 - k`` dice); for a goal reading values and colours, 4..6.
    players : int
        2..4: the box the colours are drawn from (one copy of the dice for 2 players, two for 3-4).
    components : path or Components, optional
        The goal tokens and dice (default: the packaged components).

    Returns
    -------
    fractions.Fraction
        The exact probability.

    Raises
    ------
    ValueError
        If ``code`` is not a goal of the components, ``level`` is not an integer in 1..6 (or leaves more
        than 3 dice for a goal reading values and colours), or ``players`` is not in 2..4.

    Examples
    --------
    >>> blind_goal_probability("C3", 4)      # 3 different values on level 4: 6*5*4 / 6**3
    Fraction(5, 9)
    """
    comps = coerce_components(components)
    if not isinstance(code, str) or code not in comps.goals:
        raise ValueError(f"code must be one of {sorted(comps.goals)}, got {code!r}")
    if isinstance(level, bool) or not isinstance(level, (int, np.integer)) or not 1 <= level <= 6:
        raise ValueError(f"level must be an integer in 1..6, got {level!r}")
    players = check_players(players)
    token = comps.goals[code]
    n = 7 - int(level)
    uses = get_goal_kind(token.kind).uses
    _, pool = colour_pool(players, dict(zip(comps.palette.names, [c * (1 if players == 2 else 2)
                                                                 for c in comps.palette.counts])))
    counts = tuple(int(x) for x in np.bincount(pool, minlength=len(comps.palette.names)))
    if uses == "values":
        hits = sum(goal_met(token, v, (0,) * n) for v in itertools.product(range(1, 7), repeat=n))
        return Fraction(hits, 6 ** n)
    if uses == "colours":
        return sum((p for seq, p in _colour_weights(n, counts) if goal_met(token, (1,) * n, seq)), Fraction(0))
    if n > 3:
        raise ValueError(f"level must leave at most 3 dice for a goal reading values and colours, got {n}")
    total = Fraction(0)
    for seq, p in _colour_weights(n, counts):
        hits = sum(goal_met(token, v, seq) for v in itertools.product(range(1, 7), repeat=n))
        total += p * Fraction(hits, 6 ** n)
    return total


def blind_goal_table(components=None, players: int = 2) -> pd.DataFrame:
    """Exact blind probability of every goal token on every level 1..5 (tidy: goal, level, probability, p)."""
    comps = coerce_components(components)
    rows = []
    for code, tok in comps.goals.items():
        for level in range(1, 6):
            p = blind_goal_probability(code, level, players=players, components=comps)
            rows.append((code, tok.name, level, 7 - level, p, float(p)))
    return pd.DataFrame(rows, columns=["goal", "name", "level", "dice", "probability", "p"])


def _check_fraction_sum(values) -> bool:  # used by tests
    return math.isclose(float(sum(values, Fraction(0))), 1.0)
