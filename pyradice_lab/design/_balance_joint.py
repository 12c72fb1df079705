"""Several levers searched at once (private; :mod:`._balance_finding` uses it): the candidates of a game's
declared :class:`~pyradice_lab.engine.levers.Range` objects around a starting point.

A range is one integer with its legal ``low..high`` and natural step (a tile's high value, a card group's points,
a table's scale in percent, tiles moved between two deals).  :func:`joint_candidates` lists, around the starting
point (the packaged values, or the best of a first search):

1. every value of every range on its own (the finest steps the component allows, each lever alone);
2. then every pair of ranges moved one or two steps together, the finding's own ranges first;

each a dict of component values by path (ranges on the same path compose: a tile's high and low value), all
integers; a combination the game's component checks refuse (values not highest first, a deal that does not sum)
is left out before any game is played.  At most ``max_candidates``: a search of ``balance``'s successive halving
over them (:func:`pyradice_lab.design.balance.balance` with a list of candidates) then picks one on common random
numbers and verifies it on fresh seeds.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

__all__ = ["candidate_key", "joint_candidates", "point_of", "values_at"]


def point_of(comp, ranges: Sequence, base=None) -> tuple[int, ...]:
    """The ranges' integers at components ``comp`` (a scale: the percentage of ``base``'s table that gives ``comp``'s,
    nearest 100, else 100; a ``"steps"`` range: the points its paths moved from ``base``, default ``comp``)."""
    base = comp if base is None else base
    return tuple(r.current({p: comp.get(p) for p in r.paths}, {p: base.get(p) for p in r.paths})
                 if r.kind == "steps" else r.current(comp.get(r.paths[0]), base.get(r.paths[0]))
                 if r.kind == "scale" else r.current(comp.get(r.paths[0])) for r in ranges)


def values_at(base, ranges: Sequence, point: Sequence[int], *, start_comp=None) -> dict:
    """The component values, one per path every range touches, of ``point``: the values at ``start_comp``
    (default ``base``) with each range that ``point`` moves off its value there applied in order (a group's
    cards and one card of it, a tile's high and low value, compose; a range left where it is overrides nothing)."""
    start_comp = base if start_comp is None else start_comp
    start = point_of(start_comp, ranges, base)
    out = {p: start_comp.get(p) for r in ranges for p in r.paths}
    for r, v, s in zip(ranges, point, start):
        if int(v) == s:
            continue
        if r.kind == "steps":  # from the packaged values, a point at a time
            out.update(r.moved({p: base.get(p) for p in r.paths}, int(v)))
            continue
        for p in r.paths:
            out[p] = r.apply(out[p], int(v), packaged=base.get(p))
    return out


def _legal(base, values: dict) -> bool:
    from ._balance_grid import _paths

    try:
        base.replace(_paths(values))
    except ValueError:
        return False
    return True


def candidate_key(values: dict) -> tuple:
    """A joint search's candidate as a key (its paths and values' reprs, as its ``history`` rows hold them)."""
    return tuple(sorted((k, repr(v)) for k, v in values.items()))


def _ordered(ranges: Sequence, values: dict) -> bool:
    """Whether every list a ``monotone`` range moves stays non-decreasing."""
    return all(all(a <= b for a, b in zip(values[r.paths[0]], values[r.paths[0]][1:]))
               for r in ranges if r.monotone)


def _sides(r, toward: int) -> tuple[int, ...]:
    """The directions to move range ``r``: toward the target first when both its effect and the target's side are
    known, else up then down."""
    d = toward * r.effect
    return (d, -d) if d else (1, -1)


def whole_moves(ranges: Sequence, start: Sequence[int], own: int, toward: int = 0) -> list[tuple]:
    """The points that move whole laps of the ``"steps"`` ranges (every card of a size one point), first in a joint
    search, around ``start``:

    1. a neighbour (a range after the first ``own``) one lap toward the target (``toward``: +1 the target lies
       above the start's metric, -1 below, 0 unknown: then up; with each range's ``effect``) with the finding's own
       such range moved 1/8, 2/8, ... 7/8 of its lap (at least a card-point) toward the target: one size shifted
       one way while the finding's own size moves further, a ladder of fine steps around the neighbour's lap, the
       neighbours in their order;
    2. each such range one lap alone toward the target, the neighbours first;
    3. the ladders of 1. with the own range moved the other way;
    4. each such range one lap away from the target;
    5. two such ranges a lap each in opposite directions (one size up, another down).

    >>> from pyradice_lab.engine.levers import Range
    >>> own = Range("a,b,c,d", -4, 8, kind="steps", effect=1)
    >>> near = Range("e,f", -2, 6, kind="steps", effect=-1)
    >>> whole_moves([own, near], (0, 0), 1, toward=1)
    [(1, -2), (2, -2), (3, -2), (0, -2), (4, 0), (-1, -2), (-2, -2), (-3, -2), (0, 2), (-4, 0), (4, -2), (-4, 2)]
    >>> third = Range("g,h", -2, 6, kind="steps", effect=-1)
    >>> whole_moves([own, near, third], (0, 0, 0), 1, toward=1)[:6]
    [(1, -2, 0), (2, -2, 0), (3, -2, 0), (1, 0, -2), (2, 0, -2), (3, 0, -2)]
    """
    wholes = [i for i, r in enumerate(ranges) if r.kind == "steps"]
    fits = [lambda v, r=r: r.low <= v <= r.high for r in ranges]
    out: list[tuple] = []

    def add(moves):
        p = list(start)
        for i, v in moves:
            if not fits[i](v):
                return
            p[i] = v
        if tuple(p) not in out:
            out.append(tuple(p))

    order = sorted(wholes, key=lambda i: (i < own, i))           # the neighbours first
    mine = [i for i in wholes if i < own]

    def ladder(j, away):  # neighbour j a lap toward the target, the own sizes 1/8 .. 7/8 of a lap
        dj = _sides(ranges[j], toward)[0]
        for q in range(1, 8):
            for i in mine:
                di = _sides(ranges[i], toward)[away]
                add([(j, start[j] + dj * ranges[j].lap), (i, start[i] + di * max(1, ranges[i].lap * q // 8))])

    for j in (j for j in wholes if j >= own):
        ladder(j, 0)
    for i in order:
        add([(i, start[i] + _sides(ranges[i], toward)[0] * ranges[i].lap)])
    for j in (j for j in wholes if j >= own):
        ladder(j, 1)
    for i in order:
        add([(i, start[i] + _sides(ranges[i], toward)[1] * ranges[i].lap)])
    for i, j in itertools.combinations(wholes, 2):
        for d in (1, -1):
            add([(i, start[i] + d * ranges[i].lap), (j, start[j] - d * ranges[j].lap)])
    return out


def joint_candidates(base, ranges: Sequence, *, own: int | None = None, start_comp=None,
                     max_candidates: int = 64, toward: int = 0) -> list[dict]:
    """Candidate component values of ``ranges`` around ``start_comp`` (components; default ``base``): the start,
    the whole laps of its ``"steps"`` ranges (:func:`whole_moves`; ``toward``: the side of the target, +1 above
    the start's metric, -1 below, 0 unknown), each range's every value alone (nearest first), then pairs of ranges
    one or two steps together (the first ``own`` ranges' pairs first), legal ones only, at most
    ``max_candidates``; each a dict with one value per path the ranges touch (:func:`values_at`).

    >>> from pyradice_lab.engine.levers import Range
    >>> from pyradice_lab.engine.registry import get_game
    >>> base = get_game("meerkat").part("format").default()
    >>> r = [Range("tile.12.values", 7, 13, kind="index", index=0)]
    >>> [c["tile.12.values"] for c in joint_candidates(base, r)][:3]
    [[11, 6, 3], [10, 6, 3], [12, 6, 3]]
    """
    ranges = list(ranges)
    own = len(ranges) if own is None else int(own)
    start_comp = base if start_comp is None else start_comp
    start = point_of(start_comp, ranges, base)
    points: list[tuple] = [start, *whole_moves(ranges, start, own, toward)]
    singles = []
    for i, r in enumerate(ranges):
        for v in r.values():
            if v != start[i]:
                singles.append((abs(v - start[i]) / r.step, i >= own, i, v))
    for _, _, i, v in sorted(singles):
        points.append(start[:i] + (v,) + start[i + 1:])
    pairs = sorted(itertools.combinations(range(len(ranges)), 2), key=lambda ij: (ij[0] >= own or ij[1] >= own, ij))
    for k in (1, 2):
        for i, j in pairs:
            for di, dj in itertools.product((-k, k), repeat=2):
                vi, vj = start[i] + di * ranges[i].step, start[j] + dj * ranges[j].step
                if ranges[i].low <= vi <= ranges[i].high and ranges[j].low <= vj <= ranges[j].high:
                    p = list(start)
                    p[i], p[j] = vi, vj
                    points.append(tuple(p))
    out, seen = [], set()
    for p in points:
        values = values_at(base, ranges, p, start_comp=start_comp)
        key = candidate_key(values)
        if key in seen or not _ordered(ranges, values) or not _legal(base, values):
            continue
        seen.add(key)
        out.append(values)
        if len(out) >= max_candidates:
            break
    return out
