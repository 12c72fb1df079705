"""Sets of spaces as bit masks: the tile placement conditions and what a turn can still complete.

A turn's dice sit on a set ``placed`` of spaces (a bit mask over :class:`~.components.Layout` space
indices); ``covered`` is the set of spaces holding cat tiles.  The rules' two conditions, checked when
the player stops:

- **connected**: the spaces holding this turn's dice form one group under adjacency;
- **supported**: each is on the bottom row, or every space directly below it is covered or holds a die.

Because support must come from below, any completion of ``placed`` contains its *downward closure*
(``placed`` plus every uncovered space reachable by going directly-below, recursively).  This gives an
exact and cheap test of what can still be completed (:func:`min_completion`), and the enumeration of every
valid final set (:func:`valid_sets`) on which the exact advisor is built.

Completion is measured in **dice**, not spaces: a space showing ``n`` needs at least ``ceil(n / 6)`` dice
(:func:`min_dice`; an "11" needs two), and with ``k`` dice still unrolled a set of empty spaces can be paid
with positive probability exactly when their minimum dice add up to at most ``k`` (any split of the
dice into groups with sums ``c <= n <= 6c`` can be rolled, one space per roll).  So a turn segment with
dice on ``placed`` and ``k`` dice left can still end in tiles iff :func:`completable` -- some valid set
containing ``placed`` costs at most ``k`` more dice -- and is *provably doomed* otherwise.

Examples
--------
>>> from pyradice_lab.purramid.components import Layout
>>> L = Layout.from_rows([[2, 10, 6], [8, 3, 4], [12, 5]])
>>> s = L.mask_of([(2, 0)])     # dice on the "12" alone: it needs (1,0), (1,1) and, below them, (0,0), (0,1)
>>> is_valid(L, s, covered=0), min_completion(L, 0, s, budget=4)
(False, 4)
>>> min_completion(L, 0, s, budget=8, dice=True)    # 10 and 8 need 2 dice each, 2 and 3 one each
6
>>> completable(L, 0, s, dice_left=4), completable(L, 0, s, dice_left=6)
(False, True)
"""

from __future__ import annotations

from .components import Layout

__all__ = ["popcount", "bits", "closure", "is_connected", "is_supported", "is_valid", "conditions",
           "rows_spanned", "min_dice", "dice_cost", "min_completion", "completable", "valid_sets",
           "completion_table", "completion_costs"]

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


def min_dice(number: int) -> int:
    """Fewest dice whose sum can be ``number`` (``ceil(number / 6)``): 1-6 -> 1, 7-12 -> 2, ..."""
    return -(-int(number) // 6)


def dice_cost(layout: Layout, mask: int) -> int:
    """Fewest dice that can pay every space of ``mask`` (sum of :func:`min_dice`)."""
    return sum(min_dice(layout.numbers[i]) for i in bits(mask))


def _weights(layout: Layout, dice: bool) -> tuple[int, ...]:
    return tuple(min_dice(v) for v in layout.numbers) if dice else (1,) * layout.n_spaces


def _cost(w: tuple[int, ...], mask: int) -> int:
    return sum(w[i] for i in bits(mask))


def min_completion(layout: Layout, covered: int, placed: int, budget: int = 8, *, dice: bool = False) -> int:
    """Fewest extra spaces (``dice=True``: fewest extra dice) that make ``placed`` valid (connected and
    supported), or ``INF`` if more than ``budget`` are needed or it is impossible.

    Exact: every valid superset contains the downward closure ``Q`` of ``placed``; if ``Q`` is connected it
    is the answer, otherwise some valid superset adds a space next to ``Q``'s first component, and we
    branch over those (cost at most ``budget``).
    """
    free = layout.all_mask & ~covered
    if placed & ~free:
        return INF
    w = _weights(layout, dice)
    q = closure(layout, placed, covered)
    base = _cost(w, q & ~placed)
    if base > budget:
        return INF
    best = _need(layout, covered, free, q, budget - base, w)
    if best == INF:
        return INF
    return best + base


def completable(layout: Layout, covered: int, placed: int, dice_left: int) -> bool:
    """Whether dice on ``placed`` with ``dice_left`` dice still to roll can end in tiles with positive
    probability (``placed`` is valid already, or some valid superset costs at most ``dice_left`` more dice).
    ``False`` means the turn segment is provably doomed."""
    if placed == 0:
        return True
    return min_completion(layout, covered, placed, dice_left, dice=True) != INF


def _need(layout: Layout, covered: int, free: int, q: int, budget: int, w: tuple[int, ...]) -> int:
    """Extra cost beyond the closed set ``q`` for a valid superset (``INF`` above ``budget``)."""
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
        cost = _cost(w, q2 & ~q)
        if cost > budget or cost >= best:
            continue
        rest = _need(layout, covered, free, q2, min(budget, best - 1) - cost, w)
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


def valid_sets(layout: Layout, covered: int, max_size: int | None = None, *,
               max_dice: int | None = None) -> list[int]:
    """Every valid final set (connected, supported, uncovered, non-empty) of at most ``max_size`` spaces
    and (``max_dice``) at most that many dice (:func:`dice_cost`).

    Grows connected sets one neighbour at a time, pruning a set whose downward closure is already too big
    (no valid superset can fit); every subset met on the way to a valid set is a connected set with a
    closure inside it, so nothing is missed.
    """
    if max_size is None:
        if max_dice is None:
            raise ValueError("valid_sets needs max_size or max_dice")
        max_size = max_dice
    w = _weights(layout, True)

    def fits(x: int) -> bool:
        c = closure(layout, x, covered)
        return popcount(c) <= max_size and (max_dice is None or _cost(w, c) <= max_dice)

    free = layout.all_mask & ~covered
    adj = layout.adj_mask
    level = []
    seen = set()
    for i in bits(free):
        m = 1 << i
        if fits(m):
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
                if fits(y):
                    nxt.append(y)
        level = nxt
        size += 1
    return out


def _subsets(f: int):
    idx = list(bits(f))
    n = len(idx)
    for sub in range(1, 1 << n):
        x = 0
        for k in range(n):
            if sub >> k & 1:
                x |= 1 << idx[k]
        yield x


def completion_table(layout: Layout, covered: int, max_size: int) -> dict[int, int]:
    """``{X: size of the smallest valid set containing X}`` for every non-empty X that some valid set of at
    most ``max_size`` spaces contains (X absent = cannot be completed within ``max_size``)."""
    table: dict[int, int] = {}
    for f in sorted(valid_sets(layout, covered, max_size), key=popcount):
        size = popcount(f)
        for x in _subsets(f):
            if x not in table:
                table[x] = size
    return table


def completion_costs(layout: Layout, covered: int, max_dice: int) -> dict[int, int]:
    """``{X: fewest dice of a valid set containing X}`` (:func:`dice_cost`) for every non-empty X that some
    valid set paid by at most ``max_dice`` dice contains.  With dice on ``P`` and ``k`` dice left, ``P`` can
    still end in tiles iff ``table[P] - dice_cost(P) <= k``; ``P`` is valid iff ``table[P] == dice_cost(P)``."""
    w = _weights(layout, True)
    table: dict[int, int] = {}
    for f in valid_sets(layout, covered, max_dice=max_dice):
        c = _cost(w, f)
        for x in _subsets(f):
            if table.get(x, INF) > c:
                table[x] = c
    return table
