"""Sets of spaces as bit masks: the tile placement conditions and what a turn can still complete.

A turn's dice sit on a set ``placed`` of spaces (a bit mask over :class:`~.components.Layout` space
indices); ``covered`` is the set of spaces holding cat tiles.  The rules' two conditions, checked when
the player stops:

- **connected**: the spaces holding this turn's dice form one group under adjacency;
- **supported**: each is on the bottom row, or every space directly below it is covered or holds a die.

Because support must come from below, any completion of ``placed`` contains its *downward closure*
(``placed`` plus every uncovered space reachable by going directly-below, recursively).  This gives an
exact and cheap test of what can still be completed with ``k`` more spaces (:func:`min_completion`), and
the enumeration of every valid final set of at most ``k`` spaces (:func:`valid_sets`) on which the exact
advisor is built.

Examples
--------
>>> from pyradice_lab.purramid.components import Layout
>>> L = Layout.from_rows([[2, 10, 6], [8, 3, 4], [12, 5]])
>>> s = L.mask_of([(2, 0)])     # dice on the "12" alone: it needs (1,0), (1,1) and, below them, (0,0), (0,1)
>>> is_valid(L, s, covered=0), min_completion(L, 0, s, budget=4)
(False, 4)
"""

from __future__ import annotations

from .components import Layout

__all__ = ["popcount", "bits", "closure", "is_connected", "is_supported", "is_valid", "conditions",
           "rows_spanned", "min_completion", "valid_sets", "completion_table"]

INF = 1 << 30


def popcount(mask: int) -> int:
    return mask.bit_count()


def bits(mask: int):
    """Indices of the set bits of ``mask``, ascending."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def closure(layout: Layout, placed: int, covered: int) -> int:
    """``placed`` plus every uncovered space below it, recursively (what support forces into the set)."""
    below = layout.below_mask
    result = placed
    todo = placed
    while todo:
        low = todo & -todo
        todo ^= low
        new = below[low.bit_length() - 1] & ~covered & ~result
        result |= new
        todo |= new
    return result


def is_connected(layout: Layout, mask: int) -> bool:
    """Whether the spaces of ``mask`` form one group under adjacency (the empty set counts as connected)."""
    if mask == 0:
        return True
    adj = layout.adj_mask
    seen = mask & -mask
    frontier = seen
    while frontier:
        low = frontier & -frontier
        frontier ^= low
        new = adj[low.bit_length() - 1] & mask & ~seen
        seen |= new
        frontier |= new
    return seen == mask


def is_supported(layout: Layout, placed: int, covered: int) -> bool:
    """Whether every space of ``placed`` is on the bottom row or rests on covered or placed spaces only."""
    support = covered | placed
    below = layout.below_mask
    return all((below[i] & ~support) == 0 for i in bits(placed))


def conditions(layout: Layout, placed: int, covered: int) -> tuple[bool, bool]:
    """``(connected, supported)`` for the dice on ``placed``."""
    return is_connected(layout, placed), is_supported(layout, placed, covered)


def is_valid(layout: Layout, placed: int, covered: int) -> bool:
    """Both tile placement conditions hold for a non-empty ``placed``."""
    return placed != 0 and is_connected(layout, placed) and is_supported(layout, placed, covered)


def rows_spanned(layout: Layout, placed: int) -> int:
    """Number of distinct rows (levels) holding dice."""
    return len({layout.row_of[i] for i in bits(placed)})


def min_completion(layout: Layout, covered: int, placed: int, budget: int = 8) -> int:
    """Fewest extra spaces that make ``placed`` valid (connected and supported), or ``INF`` if more than
    ``budget`` are needed or it is impossible.

    Exact: every valid superset contains the downward closure ``Q`` of ``placed``; if ``Q`` is connected it
    is the answer, otherwise some valid superset adds a space next to ``Q``'s first component, and we
    branch over those (depth at most ``budget``).
    """
    free = layout.all_mask & ~covered
    if placed & ~free:
        return INF
    best = _need(layout, covered, free, closure(layout, placed, covered), budget)
    if best == INF:
        return INF
    return best + popcount(closure(layout, placed, covered) & ~placed)


def _need(layout: Layout, covered: int, free: int, q: int, budget: int) -> int:
    """Extra spaces beyond the closed set ``q`` for a valid superset (``INF`` above ``budget``)."""
    if q == 0:
        return 0
    comp = _component(layout, q)
    if comp == q:
        return 0
    if budget <= 0:
        return INF
    adj = layout.adj_mask
    border = 0
    for i in bits(comp):
        border |= adj[i]
    border &= free & ~q
    best = INF
    for x in bits(border):
        q2 = closure(layout, q | (1 << x), covered)
        cost = popcount(q2) - popcount(q)
        if cost > budget or cost >= best:
            continue
        rest = _need(layout, covered, free, q2, min(budget, best - 1) - cost)
        if rest != INF and cost + rest < best:
            best = cost + rest
    return best


def _component(layout: Layout, mask: int) -> int:
    adj = layout.adj_mask
    seen = mask & -mask
    frontier = seen
    while frontier:
        low = frontier & -frontier
        frontier ^= low
        new = adj[low.bit_length() - 1] & mask & ~seen
        seen |= new
        frontier |= new
    return seen


def valid_sets(layout: Layout, covered: int, max_size: int) -> list[int]:
    """Every valid final set (connected, supported, uncovered, non-empty) of at most ``max_size`` spaces.

    Grows connected sets one neighbour at a time, pruning a set whose downward closure is already larger
    than ``max_size`` (no valid superset can fit); every subset met on the way to a valid set is a
    connected set with a closure inside it, so nothing is missed.
    """
    free = layout.all_mask & ~covered
    adj = layout.adj_mask
    level = []
    seen = set()
    for i in bits(free):
        m = 1 << i
        if popcount(closure(layout, m, covered)) <= max_size:
            level.append(m)
            seen.add(m)
    out = []
    size = 1
    while level:
        nxt = []
        for x in level:
            if closure(layout, x, covered) == x:
                out.append(x)
            if size == max_size:
                continue
            nb = 0
            for i in bits(x):
                nb |= adj[i]
            nb &= free & ~x
            for j in bits(nb):
                y = x | (1 << j)
                if y in seen:
                    continue
                seen.add(y)
                if popcount(closure(layout, y, covered)) <= max_size:
                    nxt.append(y)
        level = nxt
        size += 1
    return out


def completion_table(layout: Layout, covered: int, max_size: int) -> dict[int, int]:
    """``{X: size of the smallest valid set containing X}`` for every non-empty X that some valid set of at
    most ``max_size`` spaces contains (X absent = cannot be completed within ``max_size``)."""
    table: dict[int, int] = {}
    for f in sorted(valid_sets(layout, covered, max_size), key=popcount):
        size = popcount(f)
        idx = list(bits(f))
        n = len(idx)
        for sub in range(1, 1 << n):
            x = 0
            for k in range(n):
                if sub >> k & 1:
                    x |= 1 << idx[k]
            if x not in table:
                table[x] = size
    return table
