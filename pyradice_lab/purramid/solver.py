"""The compiled exact solver behind the same interface as :class:`~.advisor.TurnSolver`.

:class:`CompiledSolver` keeps one warm memo (see :mod:`.exact`) per layout, objective, token value, bonus
mode and yarn switch; :func:`~.advisor.solver_for` hands it out by default (``engine="compiled"``), and
the readable :class:`~.advisor.TurnSolver` stays the reference (``engine="python"``).  Both give the same
values to 1e-9 (tests compare them state by state) and the same decisions.

Examples
--------
>>> from pyradice_lab.purramid.advisor import parse_objective
>>> from pyradice_lab.purramid.components import Layout
>>> L = Layout.from_rows([[2, 10, 6], [8, 3, 4], [12, 5]], name="small")
>>> s = CompiledSolver(L, parse_objective("tiles"), 0.25, "exact")
>>> round(s.fresh(0, 4, 0)[0], 6) > 1
True
"""

from __future__ import annotations

import numpy as np

from ..engine import aot
from . import exact as E

__all__ = ["CompiledSolver"]

#: the solver called from Python: its ahead-of-time build when ``pyradice-lab compile`` made one (engine/aot.py)
_SOLVE = aot.entry(E.solve)


class CompiledSolver:
    """Exact values of turn states (compiled); methods and results as :class:`~.advisor.TurnSolver`."""

    engine = "compiled"

    def __init__(self, layout, objective, yarn_value: float, bonus: str, yarn_tokens: bool = True,
                 auto_max: int | None = None):
        self.auto_max = E.AUTO_EXACT_MAX_VALID if auto_max is None else int(auto_max)
        self.layout = layout
        self.objective = objective
        self.yarn_value = float(yarn_value) if objective.kind == "tiles" else 0.0
        self.bonus = bonus
        self.yarn_tokens = bool(yarn_tokens)
        kind = 0 if objective.kind == "tiles" else 1
        self.sc = E.static_context(layout, [(kind, E.MODE_CODES[bonus], self.yarn_value)],
                                   yarn_tokens=self.yarn_tokens, auto_max=self.auto_max)
        self.mem = E.new_memory(layout.n_spaces)
        self._layers = None     # covered spaces the openings file reaches (read at the first solve)

    def _openings(self, cov: int) -> None:
        """Start an empty memo from the openings file (:mod:`.memopool`) if it covers board ``cov``."""
        from . import memopool

        if not memopool.POOL.enabled:
            return
        key = memopool.setting_key(self.sc)
        if self._layers is None:
            self._layers = memopool.openings_layers(key)
        if 0 <= bin(int(cov)).count("1") <= self._layers:
            mem = memopool.load_openings(key, self.layout.n_spaces)
            if mem is not None:
                self.mem = mem
            self._layers = -1   # loaded (or unusable): never again for this memo

    def _solve(self, tag: int, cov: int, P: int, d: int, D: int, y: int, k: int) -> tuple[float, float]:
        if self._layers != -1 and self.memo_size() == 0:
            self._openings(cov)
        v, b, self.mem = _SOLVE(tag, int(cov), int(P), int(d), int(D), int(y), int(k), 0, self.sc, self.mem)
        return float(v), float(b)

    # ----------------------------------------------------------------- values
    def fresh(self, cov: int, D: int, y: int, k: int = 0) -> tuple[float, float]:
        """Value of a turn segment with ``D`` dice about to be rolled on board ``cov`` (the memo is carried
        from call to call; once it holds :func:`.memopool.memo_max` entries it is first pruned to the boards
        with the fewest covered spaces, :func:`.memopool.prune`: a long run of calls cannot grow it without
        bound)."""
        from .memopool import memo_keep, memo_max, prune

        if self.memo_size() > memo_max(1):
            self.mem = prune(self.mem, memo_keep(1))
        return self._solve(E.F_ROLL, cov, 0, D, D, y, k)

    def roll_value(self, cov: int, P: int, d: int, D: int, y: int, k: int) -> tuple[float, float]:
        """Expected value of rolling the ``d`` unplaced dice now."""
        return self._solve(E.F_ROLL, cov, P, d, D, y, k)

    def value(self, cov: int, P: int, d: int, D: int, y: int, k: int) -> tuple[float, float]:
        """Value at the stop-or-continue decision after a placement."""
        return self._solve(E.F_AFTER, cov, P, d, D, y, k)

    def stop(self, cov: int, P: int, d: int, D: int, y: int, k: int) -> tuple[float, float]:
        """Value of stopping with dice on ``P`` and ``d`` dice unplaced."""
        return self._solve(E.F_STOP, cov, P, d, D, y, k)

    def reroll_value(self, cov, P, d, D, y, k) -> tuple[float, float]:
        """Value of spending a token to reroll ``d`` dice (needs ``y >= 1``)."""
        v, b = self.roll_value(cov, P, d, D, y - 1, k)
        return v - self.yarn_value, b

    def should_stop(self, cov: int, P: int, d: int, D: int, y: int, k: int) -> bool:
        """Whether the optimal policy stops here (always with no dice left)."""
        if d == 0:
            return True
        st = self.stop(cov, P, d, D, y, k)
        co = self.roll_value(cov, P, d, D, y, k)
        return not E.better(co[0], co[1], st[0], st[1])

    def decision_table(self, cov: int, P: int, d: int, D: int, y: int, k: int):
        """``(kind, space, count)`` per sorted roll of ``d`` dice (0 burst, 1 place, 2 reroll)."""
        self.roll_value(cov, P, d, D, y, k)
        return E.decision_table(int(cov), int(P), int(d), int(D), min(int(y), E.MAX_YARN), int(k), 0, self.sc,
                                self.mem)

    def decide(self, cov: int, P: int, roll, D: int, y: int, k: int) -> tuple[int, int, int]:
        """``(kind, space, dice)`` for one roll (values of the dice in any order)."""
        from . import kernel as K

        d = len(roll)
        self.roll_value(cov, P, d, D, y, k)
        vals = np.zeros(8, dtype=np.int64)
        vals[:d] = roll
        cmrow = np.zeros(31, dtype=np.int64)
        K.roll_masks(vals, d, cmrow)
        kind, s, c = E.decide_roll(int(cov), int(P), d, int(D), min(int(y), E.MAX_YARN), int(k), 0, cmrow,
                                   self.sc, self.mem)
        return int(kind), int(s), int(c)

    # ----------------------------------------------------------------- structure
    def valid_groups(self, cov: int, D: int) -> int:
        """Number of valid dice groups a segment of ``D`` dice can end with on board ``cov``."""
        b = E.board_of(self.mem[0], int(cov), int(D))
        if b < 0:
            self._solve(E.F_STOP, cov, 0, 0, D, 0, 0)
            b = E.board_of(self.mem[0], int(cov), int(D))
        return int(self.mem[1][b, E.B_LEN])

    def bonus_mode(self, cov: int, D: int = 5) -> str:
        """The bonus mode used on board ``cov`` for a segment of ``D`` dice ("auto" resolved)."""
        if self.bonus != "auto":
            return self.bonus
        return "exact" if self.valid_groups(cov, D) <= self.auto_max else "approx"

    def modes_used(self, cov: int, D: int) -> frozenset:
        """The bonus modes that value the bonus turns reachable from a fresh segment (see the reference)."""
        if D <= 1:
            return frozenset()
        if self.bonus != "auto":
            return frozenset([self.bonus])
        bitset = int(self._solve(E.F_MODES, cov, 0, 0, D, 0, 0)[0])
        return frozenset(name for bit, name in E.AUTO_BITS.items() if bitset & bit)

    def bonus_label(self, cov: int, D: int) -> str:
        """``bonus`` column of :func:`~.advisor.advise`: the one mode used, or ``"mixed"``."""
        used = self.modes_used(cov, D)
        if not used:
            return self.bonus_mode(cov, D)
        return next(iter(used)) if len(used) == 1 else "mixed"

    def memo_size(self) -> int:
        return E.memo_size(self.mem)

    def clear(self) -> None:
        """Forget every memoised value (the next solve is cold, from no openings file either; compiled code
        stays loaded)."""
        self.mem = E.new_memory(self.layout.n_spaces)
        self._layers = -1
