"""Brute-force expectimax for a Purramid turn: the test oracle for the advisor.

Deliberately independent of the package's engines: ordered rolls from itertools.product (grouped by
their sorted tuple), every legal placement (any empty space, any sub-multiset summing to its number, no
pruning of placements that can never become valid), the tile placement conditions checked from the public
Layout queries (adjacent, below, tiles) at stop, bonus turns always solved on the board they are played on.
"""

from collections import Counter, deque
from functools import cache
from itertools import combinations, product


def make_oracle(layout, objective="tiles", yarn_value=0.0):
    spaces = list(layout.spaces)
    kind = "tiles" if objective == "tiles" else "at_least"

    @cache
    def rolls(d):
        c = Counter(tuple(sorted(r)) for r in product(range(1, 7), repeat=d))
        return tuple(c.items()), 6 ** d

    @cache
    def subs(roll, n):
        out = set()
        for c in range(1, len(roll) + 1):
            for combo in combinations(roll, c):
                if sum(combo) == n:
                    out.add(c)
        return tuple(sorted(out))

    def connected(placed):
        placed = set(placed)
        start = next(iter(placed))
        seen = {start}
        q = deque([start])
        while q:
            s = q.popleft()
            for t in layout.adjacent(s):
                if t in placed and t not in seen:
                    seen.add(t)
                    q.append(t)
        return seen == placed

    def supported(placed, covered):
        return all(all(b in covered or b in placed for b in layout.below(s)) for s in placed)

    @cache
    def stop(covered, placed, d, D, y, k):
        if not placed or not connected(placed) or not supported(placed, covered):
            return 0.0
        t = sum(layout.tiles(s) for s in placed)
        e = sum(layout.number(s) == 8 for s in placed)
        rows = len({s[0] for s in placed})
        bonus = D > 1 and (d == 0 or rows >= 3)
        new_cov = frozenset(covered | placed)
        if kind == "tiles":
            return t + yarn_value * e + (fresh(new_cov, D - 1, y + e, 0) if bonus else 0.0)
        if t >= k:
            return 1.0
        return fresh(new_cov, D - 1, y + e, k - t) if bonus else 0.0

    @cache
    def after(covered, placed, d, D, y, k):
        v = stop(covered, placed, d, D, y, k)
        if d > 0:
            v = max(v, roll(covered, placed, d, D, y, k))
        return v

    @cache
    def roll(covered, placed, d, D, y, k):
        table, total = rolls(d)
        reroll = roll(covered, placed, d, D, y - 1, k) - (yarn_value if kind == "tiles" else 0.0) if y > 0 else 0.0
        acc = 0.0
        for r, w in table:
            best = 0.0  # burst, or a placement that can never become valid
            for s in spaces:
                if s in covered or s in placed:
                    continue
                for c in subs(r, layout.number(s)):
                    best = max(best, after(covered, placed | frozenset([s]), d - c, D, y, k))
            if y > 0:
                best = max(best, reroll)
            acc += w * best
        return acc / total

    def fresh(covered, D, y, k):
        return roll(frozenset(covered), frozenset(), D, D, y, k)

    def value_after(covered, placed, d, D, y, k=0):
        return after(frozenset(covered), frozenset(placed), d, D, y, k)

    return fresh, value_after, roll, stop
