"""What a balance search is asked (private; :mod:`.balance` re-exports every name): the objectives
(:func:`parse_objective`, :func:`parse_objectives`), the candidate grid of the parameters (:func:`candidate_grid`)
and how the excesses over the objectives combine into one distance (:func:`combine_excess`, :data:`COMBINE`).
"""

from __future__ import annotations

import itertools
import math
import numbers
import re
from collections.abc import Mapping, Sequence

import numpy as np

_OBJECTIVE = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*(?::(?:[A-Za-z0-9_-]+|\*))?)\s*=\s*([-+0-9.eE]+)\s*$")
#: most candidates a search takes (the grid is sampled down to this many, reproducibly)
MAX_CANDIDATES = 64


def parse_objective(objective) -> tuple[str, float]:
    """``(metric, target)`` from ``"metric = target"`` or a ``(metric, target)`` tuple; ``metric`` may be a family
    ``name:*`` (every argument of the metric, e.g. ``"tile_pay_excess:* = 0"``: every tile)."""
    from .metrics import is_family
    from .robustness import _check_metric

    if isinstance(objective, str):
        m = _OBJECTIVE.match(objective)
        if not m:
            raise ValueError(f"objective must read 'metric = target' (e.g. 'start_player_win = 0.5', or "
                             f"'tile_pay_excess:* = 0' for a family); got {objective!r}")
        objective = (m.group(1), float(m.group(2)))
    if not isinstance(objective, tuple) or len(objective) != 2:
        raise TypeError(f"objective must be 'metric = target' or a (metric, target) tuple; got {objective!r}")
    metric, target = objective
    if isinstance(target, bool) or not isinstance(target, numbers.Real) or not np.isfinite(target):
        raise ValueError(f"objective's target must be a finite number; got {target!r}")
    if is_family(metric):
        _check_metric(metric.strip()[:-2])
        return metric.strip(), float(target)
    return _check_metric(metric), float(target)


def parse_objectives(objective) -> list[tuple[str, float]]:
    """``[(metric, target), ...]`` from one objective (:func:`parse_objective`) or a list of them.

    >>> parse_objectives(["tile_pay_excess:* = 0", ("mean_score", 40)])
    [('tile_pay_excess:*', 0.0), ('mean_score', 40.0)]
    """
    if isinstance(objective, (str, tuple)):
        return [parse_objective(objective)]
    if not isinstance(objective, Sequence) or not objective:
        raise ValueError(f"objective must be 'metric = target', a (metric, target) tuple or a non-empty list of "
                         f"them; got {objective!r}")
    out = [parse_objective(o) for o in objective]
    seen = [m for m, _ in out]
    dup = sorted({m for m in seen if seen.count(m) > 1})
    if dup:
        raise ValueError(f"objective: {', '.join(dup)} appears more than once")
    return out


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


def _paths(values: Mapping) -> dict:
    """A candidate's values by component path: a key naming several paths, comma-separated
    (``"card.1.points,card.2.points"``), sets each of them to its one value (a lever moving several components
    together, e.g. every 2-slot lifeboat's points)."""
    return {path.strip(): v for key, v in values.items() for path in key.split(",") if path.strip()}


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


#: How the excesses of several metrics over their targets combine into the one number the search minimises.
COMBINE = {"max": "largest |estimate - target| over the objectives",
           "sumsq": "sum over the objectives of (estimate - target)**2"}
#: Fewest games a candidate plays in a round (a round that cannot give every candidate this many is not played).
MIN_ROUND_GAMES = 10


def halving_games(candidates: int, first: int) -> int:
    """The games a successive halving over ``candidates`` plays when it runs to one survivor: ``first`` games per
    candidate in the first round, half the candidates (rounded up) surviving each round with twice the games.

    :func:`~pyradice_lab.design.balance.balance_finding` sizes its search at least to this (issue 44, item 2:
    a search cut short picks on its first round's few games and misses a reachable objective; the designer
    guide's 9-of-10 table).

    >>> halving_games(27, 20), halving_games(5, 40), halving_games(1, 20)
    (2940, 760, 0)
    """
    total, n, games = 0, int(candidates), int(first)
    while n > 1:
        total += n * games
        n, games = (n + 1) // 2, games * 2
    return total


def refine_games(candidates: int, first: int, final: int) -> int:
    """The games of :func:`halving_games`'s successive halving whose last two candidates play ``final`` games each
    in all (:func:`~pyradice_lab.design.balance.balance`'s ``final_games``: their last round lengthened to it).

    >>> refine_games(19, 20, 1800), refine_games(19, 20, 0) == halving_games(19, 20), refine_games(1, 20, 1800)
    (4660, True, 0)
    """
    n = int(candidates)
    total, games, each = 0, max(int(first), int(final) if n == 2 else 0), 0
    while n > 1:
        total += n * games
        each += games
        n = (n + 1) // 2
        games = max(games * 2, int(final) - each if n == 2 else 0)
    return total


def combine_excess(excess, combine: str = "max") -> float:
    """The one number the search minimises from the objectives' excesses ``estimate - target``.

    ``"max"``: the largest absolute excess (every metric within it of its target); ``"sumsq"``: the sum of the
    squared excesses.  With one objective both rank the candidates alike.

    >>> combine_excess([0.5, -1.0]), combine_excess([0.5, -1.0], "sumsq")
    (1.0, 1.25)
    """
    x = np.abs(np.asarray(excess, dtype=float))
    return float(x.max()) if combine == "max" else float((x ** 2).sum())


def _candidate_list(parameters):
    """``parameters`` as a list of candidates (dicts of component values by path), or None for a grid."""
    if isinstance(parameters, Mapping) or isinstance(parameters, (str, bytes)) or \
            not isinstance(parameters, Sequence) or not parameters:
        return None
    if not all(isinstance(c, Mapping) and c and all(isinstance(k, str) and k for k in c) for c in parameters):
        raise ValueError("parameters given as a list must be candidates: non-empty dicts {component path: value}")
    return [dict(c) for c in parameters]


def _list_axes(listed: list) -> list:
    """Every path of a candidate list with the values it takes (in order of first appearance)."""
    seen: dict = {}
    for c in listed:
        for k, v in c.items():
            vals = seen.setdefault(k, [])
            if v not in vals:
                vals.append(v)
    return list(seen.items())

