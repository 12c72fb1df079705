"""The readable exact turn solver of Purramid (:class:`TurnSolver`; :mod:`.advisor` re-exports it): the reference
the compiled :class:`~.solver.CompiledSolver` is tested against (the model is :mod:`.advisor`'s module docstring)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ._position import MAX_TURN_DICE, MAX_YARN
from .board import bits, completion_costs, min_dice, valid_sets
from .chance import multisets, option_table
from .components import Layout
from .exact import AUTO_EXACT_MAX_VALID, TOL, better as _better

if TYPE_CHECKING:  # pragma: no cover
    from .advisor import Objective

__all__ = ["TurnSolver"]


class TurnSolver:
    """Memoised exact values of turn states for one layout, objective, token value and bonus mode.

    All methods take bit masks (see :mod:`.board`) and return ``(value, burst_probability)``, where the
    burst probability is the chance that the dice of the current turn segment do not become tiles (a later
    bonus turn bursting does not count) when playing optimally; among equally valuable choices the solver
    prefers the one less likely to burst, then stopping over continuing.
    """

    engine = "python"

    def __init__(self, layout: Layout, objective: Objective, yarn_value: float, bonus: str,
                 yarn_tokens: bool = True, auto_max: int | None = None):
        self.auto_max = AUTO_EXACT_MAX_VALID if auto_max is None else int(auto_max)
        self.layout = layout
        self.objective = objective
        self.yarn_value = float(yarn_value) if objective.kind == "tiles" else 0.0
        self.bonus = bonus
        self.yarn_tokens = bool(yarn_tokens)
        self.numbers = layout.numbers
        self.tiles = layout.tile_counts
        self.mdice = tuple(min_dice(v) for v in layout.numbers)
        self.eight = tuple(v == 8 and self.yarn_tokens for v in layout.numbers)
        self._ctab: dict = {}
        self._children: dict = {}
        self._V: dict = {}
        self._C: dict = {}
        self._nvalid: dict = {}
        self._modes: dict = {}

    # ----------------------------------------------------------------- structure
    def ctab(self, cov: int, D: int) -> dict:
        """:func:`.board.completion_costs` of the board for ``D`` dice (memoised)."""
        key = (cov, D)
        t = self._ctab.get(key)
        if t is None:
            t = completion_costs(self.layout, cov, D)
            self._ctab[key] = t
        return t

    def cost(self, P: int) -> int:
        """Fewest dice that can pay the spaces of ``P``."""
        return sum(self.mdice[i] for i in bits(P))

    def children(self, cov: int, D: int, P: int) -> list[tuple[int, int]]:
        """``[(space, fewest dice of a valid set containing placed+space)]`` for completable next spaces."""
        key = (cov, D, P)
        ch = self._children.get(key)
        if ch is None:
            tab = self.ctab(cov, D)
            if P and P not in tab:
                ch = []
            else:
                free = self.layout.all_mask & ~cov & ~P
                ch = [(s, tab[P | (1 << s)]) for s in bits(free) if (P | (1 << s)) in tab]
            self._children[key] = ch
        return ch

    def is_valid(self, cov: int, P: int, D: int) -> bool:
        tab = self.ctab(cov, D)
        return P != 0 and tab.get(P) == self.cost(P)

    def rows_of(self, P: int) -> int:
        return len({self.layout.row_of[i] for i in bits(P)})

    # ----------------------------------------------------------------- values
    def valid_groups(self, cov: int, D: int) -> int:
        """Number of valid dice groups a segment of ``D`` dice can end with on board ``cov``."""
        key = (cov, D)
        n = self._nvalid.get(key)
        if n is None:
            n = len(valid_sets(self.layout, cov, max_dice=D))
            self._nvalid[key] = n
        return n

    def bonus_mode(self, cov: int, D: int = MAX_TURN_DICE) -> str:
        """The bonus mode used on board ``cov`` for a segment of ``D`` dice ("auto" resolved)."""
        if self.bonus != "auto":
            return self.bonus
        return "exact" if self.valid_groups(cov, D) <= self.auto_max else "approx"

    def modes_used(self, cov: int, D: int) -> frozenset:
        """The bonus modes that value the bonus turns reachable from a fresh segment of ``D`` dice on
        ``cov`` (nested bonus turns included; empty when ``D == 1``: no bonus turn follows)."""
        if D <= 1:
            return frozenset()
        key = (cov, D)
        hit = self._modes.get(key)
        if hit is not None:
            return hit
        mode = self.bonus_mode(cov, D)
        out = {mode}
        if mode == "approx":
            out |= self.modes_used(cov, D - 1)
        elif mode == "exact":
            for f in valid_sets(self.layout, cov, max_dice=D):
                if self.rows_of(f) >= 3 or sum(self.numbers[i] for i in bits(f)) >= D:
                    out |= self.modes_used(cov | f, D - 1)
        res = frozenset(out)
        self._modes[key] = res
        return res

    def bonus_label(self, cov: int, D: int) -> str:
        """``bonus`` column of :func:`advise`: the one mode used, or ``"mixed"``."""
        used = self.modes_used(cov, D)
        if not used:
            return self.bonus_mode(cov, D)
        return next(iter(used)) if len(used) == 1 else "mixed"

    def fresh(self, cov: int, D: int, y: int, k: int = 0) -> tuple[float, float]:
        """Value of a turn segment with ``D`` dice about to be rolled on board ``cov``."""
        return self.roll_value(cov, 0, D, D, y, k)

    def stop(self, cov: int, P: int, d: int, D: int, y: int, k: int) -> tuple[float, float]:
        """Value of stopping with dice on ``P`` and ``d`` dice unplaced."""
        if not self.is_valid(cov, P, D):
            return 0.0, 1.0
        t = 0
        e = 0
        for i in bits(P):
            t += self.tiles[i]
            e += self.eight[i]
        bonus = D > 1 and (d == 0 or self.rows_of(P) >= 3)
        if self.objective.kind == "tiles":
            val = t + self.yarn_value * e
            if bonus:
                val += self.bonus_value(cov, P, D, min(y + e, MAX_YARN), 0)
        elif t >= k:
            val = 1.0
        elif bonus:
            val = self.bonus_value(cov, P, D, min(y + e, MAX_YARN), k - t)
        else:
            val = 0.0
        return val, 0.0

    def bonus_value(self, cov: int, P: int, D: int, y: int, k: int) -> float:
        """Value of the bonus turn (``D - 1`` dice) earned by a segment of ``D`` dice that placed ``P``."""
        mode = self.bonus_mode(cov, D)
        if mode == "exact":
            return self.fresh(cov | P, D - 1, y, k)[0]
        if mode == "approx":
            return self.fresh(cov, D - 1, y, k)[0]
        return 0.0

    def value(self, cov: int, P: int, d: int, D: int, y: int, k: int) -> tuple[float, float]:
        """Value at the stop-or-continue decision after a placement."""
        key = (cov, P, d, D, y, k)
        hit = self._V.get(key)
        if hit is not None:
            return hit
        st = self.stop(cov, P, d, D, y, k)
        if d == 0:
            res = st
        else:
            co = self.roll_value(cov, P, d, D, y, k)
            res = co if _better(co[0], co[1], st[0], st[1]) else st
        self._V[key] = res
        return res

    def options(self, cov: int, P: int, d: int, D: int, y: int, k: int) -> dict:
        """Best completable placement per (number, dice used): ``{(n, c): (value, burst, space)}``."""
        cP = self.cost(P)
        opts: dict = {}
        for s, need in self.children(cov, D, P):
            n = self.numbers[s]
            lo = self.mdice[s]
            hi = min(d - (need - cP - lo), n)   # leave the dice the rest of the cheapest completion needs
            for c in range(lo, hi + 1):
                val, bp = self.value(cov, P | (1 << s), d - c, D, y, k)
                cur = opts.get((n, c))
                if cur is None or _better(val, bp, cur[0], cur[1]):
                    opts[(n, c)] = (val, bp, s)
        return opts

    def _row_choices(self, cov, P, d, D, y, k):
        """Per sorted roll: best value, its burst chance, and the chosen option column (-1 none)."""
        faces, _ = multisets(d)
        opts = self.options(cov, P, d, D, y, k)
        rows = len(faces)
        if not opts:
            return np.zeros(rows), np.ones(rows), np.full(rows, -1), []
        keys = list(opts)
        ot = option_table(d)
        ns = np.fromiter((n for n, _ in keys), dtype=np.intp, count=len(keys))
        cs = np.fromiter((c for _, c in keys), dtype=np.intp, count=len(keys))
        mask = ot[:, ns, cs]
        vals = np.fromiter((opts[q][0] for q in keys), dtype=float, count=len(keys))
        bps = np.fromiter((opts[q][1] for q in keys), dtype=float, count=len(keys))
        vm = np.where(mask, vals, -1.0)
        best = vm.max(axis=1)
        tie = vm >= best[:, None] - TOL
        bsel = np.where(tie, bps, 2.0)
        low = bsel.min(axis=1)
        col = (bsel <= low[:, None] + TOL).argmax(axis=1)   # first column whose burst chance ties the lowest
        bp = bsel[np.arange(rows), col]
        has = best >= 0
        best = np.where(has, best, 0.0)
        bp = np.where(has, bp, 1.0)
        col = np.where(has, col, -1)
        return best, bp, col, [(q, opts[q][2]) for q in keys]

    def reroll_value(self, cov, P, d, D, y, k) -> tuple[float, float]:
        """Value of spending a token to reroll ``d`` dice (needs ``y >= 1``)."""
        v, b = self.roll_value(cov, P, d, D, y - 1, k)
        return v - self.yarn_value, b

    def roll_value(self, cov: int, P: int, d: int, D: int, y: int, k: int) -> tuple[float, float]:
        """Expected value of rolling the ``d`` unplaced dice now."""
        key = (cov, P, d, D, y, k)
        hit = self._C.get(key)
        if hit is not None:
            return hit
        _, w = multisets(d)
        best, bp, _, _ = self._row_choices(cov, P, d, D, y, k)
        if y > 0:
            rv, rb = self.reroll_value(cov, P, d, D, y, k)
            better = (rv > best + TOL) | ((np.abs(rv - best) <= TOL) & (rb < bp - TOL))
            best = np.where(better, rv, best)
            bp = np.where(better, rb, bp)
        total = float(6 ** d)
        res = (float(w @ best) / total, float(w @ bp) / total)
        self._C[key] = res
        return res

    def decision_table(self, cov: int, P: int, d: int, D: int, y: int, k: int):
        """The optimal choice for every sorted roll of ``d`` dice in this state.

        Returns ``(kind, space, count)`` int arrays over the rows of ``multisets(d)``: kind 0 = burst (no
        completable placement, or none worth it), 1 = place ``count`` dice on ``space``, 2 = reroll.
        """
        best, bp, col, keys = self._row_choices(cov, P, d, D, y, k)
        rows = len(best)
        kind = np.where(col >= 0, 1, 0)
        space = np.full(rows, -1, dtype=np.int64)
        count = np.zeros(rows, dtype=np.int64)
        if keys:
            sp = np.array([s for _, s in keys], dtype=np.int64)
            cn = np.array([q[1] for q, _ in keys], dtype=np.int64)
            ok = col >= 0
            space[ok] = sp[col[ok]]
            count[ok] = cn[col[ok]]
        if y > 0:
            rv, rb = self.reroll_value(cov, P, d, D, y, k)
            better = (rv > best + TOL) | ((np.abs(rv - best) <= TOL) & (rb < bp - TOL))
            kind = np.where(better, 2, kind)
        return kind.astype(np.int64), space, count

    def should_stop(self, cov: int, P: int, d: int, D: int, y: int, k: int) -> bool:
        """Whether the optimal policy stops here (always with no dice left)."""
        if d == 0:
            return True
        st = self.stop(cov, P, d, D, y, k)
        co = self.roll_value(cov, P, d, D, y, k)
        return not _better(co[0], co[1], st[0], st[1])

    def memo_size(self) -> int:
        return len(self._V) + len(self._C)

