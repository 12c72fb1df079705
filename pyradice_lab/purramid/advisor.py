"""The exact press-your-luck advisor: a turn of Purramid solved as a Markov decision process.

State (all hashable ints, memoised): ``covered`` (bit mask of spaces with tiles at the start of this
turn segment), ``placed`` (spaces holding this turn's dice), ``dice_left``, ``turn_dice`` (5 in a normal
turn, 4, 3, ... in bonus turns), ``yarn`` (tokens held) and, for the ``("at_least", k)`` objective, the
tiles still needed.  After each roll the player places some dice on one empty space (their sum equal to
its number) or spends a yarn token to reroll the dice just rolled; after placing they stop or continue
(with no dice left they must stop).  Stopping scores the tiles of the placed spaces if they are connected
and supported (else the turn bursts, scoring 0), plus the value of the bonus turn that follows when all
dice were used or three or more rows hold dice.

Objectives
----------
``"tiles"``
    Expected tiles placed this turn, bonus turns included; every yarn token won on an "8" adds
    ``yarn_value`` tiles and every token spent costs ``yarn_value``.
``("at_least", k)``
    Probability of placing at least ``k`` tiles this turn, bonus turns included (tokens are free to spend).

Exactness: the value recursion is plain expectimax over the integer-weighted sorted rolls of
:mod:`.chance`.  The only shortcut is pruning placements that can no longer become valid: a space showing
``n`` needs at least ``ceil(n / 6)`` dice, and a placement after which no valid group containing the dice
can be paid with the dice left scores 0 whatever follows, so it is not explored (the completion costs
are enumerated exactly by :mod:`.board`).  Floats carry the values; tests check them against a
brute-force expectimax to 1e-9.

Engines: :class:`TurnSolver` here is the readable reference; :func:`solver_for` hands out the compiled
:class:`~.solver.CompiledSolver` (:mod:`.exact`, numba) by default -- same values, same decisions, about
20-60 times faster.  ``engine="python"`` selects the reference.

Bonus turns (``bonus=``)
------------------------
``"exact"`` solves every bonus turn on the board it is actually played on (a chain of bonus turns from
the empty side A is played on 22,661 different boards; compiled, the whole solve takes about 0.6 s CPU).
``"approx"`` values each bonus turn as a fresh turn with one die fewer on the board at the start of the
turn segment being solved (ignoring the tiles just placed), ``"none"`` ignores bonus turns, and the default
``"auto"`` is ``"exact"`` on boards with at most ``AUTO_EXACT_MAX_VALID`` (80) valid dice groups that a
segment of the turn's dice can end with, ``"approx"`` above.  Measured: a cold compiled exact solve of a
fresh 5-dice turn takes at most 0.65 s CPU on every board of both default sides (the empty boards, with
72 and 76 groups, are the largest), so ``auto`` is exact everywhere on the default sides; bigger custom
boards get ``approx`` where the exact solve would take over about a second.  Below a board, ``auto``
decides segment by segment; :func:`advise` labels a solve that used both ``"mixed"``.  The report
measures each mode's error against exact.

Examples
--------
>>> from pyradice_lab.purramid import advise, load_layout
>>> df = advise("A", covered=[], placed=[(0, 3)], dice_left=4, roll=[6, 2, 3, 1])
>>> list(df.columns[:4])
['action', 'space', 'number', 'dice']
>>> bool((df["regret"] >= 0).all() and df["regret"].iloc[0] == 0)
True
"""

from __future__ import annotations

import math
import numbers
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .board import bits, completion_costs, dice_cost, min_dice, popcount, valid_sets
from .chance import multisets, option_table, sub_multisets
from .components import Layout, coerce_components, load_game_config, load_layout
from .exact import AUTO_EXACT_MAX_VALID, TOL, better as _better

__all__ = ["advise", "turn_policy", "TurnSolver", "TurnPolicy", "Objective", "parse_objective",
           "solver_for", "clear_cache", "BONUS_MODES", "ENGINES", "AUTO_EXACT_MAX_VALID", "MAX_TURN_DICE",
           "MAX_YARN"]

BONUS_MODES = ("auto", "exact", "approx", "none")
MAX_TURN_DICE = 5
MAX_YARN = 12


@dataclass(frozen=True)
class Objective:
    """What the advisor maximises: ``kind`` "tiles" or "at_least" (with ``k`` tiles)."""

    kind: str
    k: int = 0

    def label(self) -> str:
        return "tiles" if self.kind == "tiles" else f"P(at least {self.k} tiles)"


def parse_objective(objective) -> Objective:
    """``"tiles"`` or ``("at_least", k)`` with ``k >= 1`` (ValueError naming ``objective`` otherwise)."""
    if isinstance(objective, Objective):
        return objective
    if isinstance(objective, str) and objective == "tiles":
        return Objective("tiles")
    if isinstance(objective, (tuple, list)) and len(objective) == 2 and isinstance(objective[0], str) \
            and objective[0] == "at_least":
        k = objective[1]
        if isinstance(k, bool) or not isinstance(k, numbers.Integral) or k < 1:
            raise ValueError(f"objective ('at_least', k) needs an integer k >= 1, got k={k!r}")
        return Objective("at_least", int(k))
    raise ValueError(f"objective must be 'tiles' or ('at_least', k), got {objective!r}")


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


_SOLVERS: OrderedDict = OrderedDict()
_MAX_SOLVERS = 6


ENGINES = ("compiled", "python")


def solver_for(layout, objective="tiles", yarn_value: float | None = None, bonus: str = "auto", *,
               engine: str = "compiled", yarn_tokens: bool = True):
    """The cached solver for these settings (validated): a :class:`~.solver.CompiledSolver` (default) or the
    readable reference :class:`TurnSolver` (``engine="python"``); same values, same decisions."""
    layout = load_layout(layout)
    obj = parse_objective(objective)
    yv = _check_yarn_value(yarn_value)
    if not isinstance(bonus, str) or bonus not in BONUS_MODES:
        raise ValueError(f"bonus must be one of {BONUS_MODES}, got {bonus!r}")
    if not isinstance(engine, str) or engine not in ENGINES:
        raise ValueError(f"engine must be one of {ENGINES}, got {engine!r}")
    if not isinstance(yarn_tokens, bool):
        raise TypeError(f"yarn_tokens must be True or False, got {yarn_tokens!r}")
    key = (layout.key, obj, yv if obj.kind == "tiles" else 0.0, bonus, engine, yarn_tokens)
    solver = _SOLVERS.get(key)
    if solver is None:
        if engine == "python":
            solver = TurnSolver(layout, obj, yv, bonus, yarn_tokens)
        else:
            from .solver import CompiledSolver

            solver = CompiledSolver(layout, obj, yv, bonus, yarn_tokens)
        _SOLVERS[key] = solver
        while len(_SOLVERS) > _MAX_SOLVERS:
            _SOLVERS.popitem(last=False)
    else:
        _SOLVERS.move_to_end(key)
    return solver


def clear_cache() -> None:
    """Forget every memoised solver (the next call is cold)."""
    _SOLVERS.clear()


def _check_reachable(obj: Objective, layout: Layout, covered: int) -> None:
    """``("at_least", k)`` asks for at most the tiles still on the board (a larger ``k`` is never reached: its
    answer would be a certain 0 after a solve of every state)."""
    if obj.kind == "at_least":
        left = layout.tiles_of(layout.all_mask & ~covered)
        if obj.k > left:
            raise ValueError(f"objective ('at_least', k) needs k <= {left}, the tiles left on the board, "
                             f"got k={obj.k}")


def _check_yarn_value(yarn_value) -> float:
    if yarn_value is None:
        return load_game_config().yarn_value
    if isinstance(yarn_value, bool) or not isinstance(yarn_value, numbers.Real) or not math.isfinite(yarn_value) \
            or yarn_value < 0:
        raise ValueError(f"yarn_value must be a finite number >= 0 (tiles per token), got {yarn_value!r}")
    return float(yarn_value)


def _check_int(value, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be an integer in {low}..{high}, got {value!r}")
    if not low <= int(value) <= high:
        raise ValueError(f"{name} must be in {low}..{high}, got {int(value)}")
    return int(value)


def _spaces_mask(layout: Layout, spaces, name: str) -> int:
    if spaces is None:
        return 0
    if isinstance(spaces, (str, bytes)) or not isinstance(spaces, Iterable):
        raise ValueError(f"{name} must be a list of (row, col) spaces, got {spaces!r}")
    mask = 0
    for s in spaces:
        i = layout.index(s, name)
        if mask >> i & 1:
            raise ValueError(f"{name} lists space {tuple(s)} twice")
        mask |= 1 << i
    return mask


def _check_state(layout, covered, placed, dice_left, turn_dice, yarn):
    turn_dice = _check_int(turn_dice, "turn_dice", 1, MAX_TURN_DICE)
    if isinstance(dice_left, numbers.Integral) and not isinstance(dice_left, bool) and dice_left > turn_dice:
        raise ValueError(f"dice_left ({dice_left}) cannot exceed turn_dice ({turn_dice})")
    dice_left = _check_int(dice_left, "dice_left", 0, turn_dice)
    yarn = _check_int(yarn, "yarn", 0, MAX_YARN)
    cov = _spaces_mask(layout, covered, "covered")
    P = _spaces_mask(layout, placed, "placed")
    if cov & P:
        raise ValueError(f"placed holds covered space(s) {layout.spaces_of(cov & P)}: dice go on empty spaces")
    used = turn_dice - dice_left
    if popcount(P) > used:
        raise ValueError(f"placed holds {popcount(P)} spaces but only turn_dice - dice_left = {used} dice are "
                         f"on the board (each space holds at least one die)")
    need = dice_cost(layout, P)
    if need > used:
        raise ValueError(f"placed needs at least {need} dice (a space showing n holds at least ceil(n/6) dice) "
                         f"but only turn_dice - dice_left = {used} dice are on the board")
    if used > 0 and P == 0:
        raise ValueError(f"placed is empty but turn_dice - dice_left = {used} dice are on the board")
    return cov, P, dice_left, turn_dice, yarn


def _check_roll(roll, dice_left: int) -> tuple[int, ...]:
    if isinstance(roll, (str, bytes)):
        raise ValueError(f"roll must be a list of die values, got {roll!r}")
    try:
        vals = list(roll)
    except TypeError:
        raise ValueError(f"roll must be a list of die values, got {roll!r}") from None
    if len(vals) != dice_left:
        raise ValueError(f"roll must hold dice_left = {dice_left} die values, got {len(vals)}")
    for v in vals:
        if isinstance(v, bool) or not isinstance(v, numbers.Integral) or not 1 <= v <= 6:
            raise ValueError(f"roll must hold die values in 1..6, got {v!r}")
    return tuple(sorted(int(v) for v in vals))


def advise(layout="A", covered=(), placed=(), dice_left: int = 5, roll=None, yarn: int = 0, turn_dice: int = 5,
           objective="tiles", yarn_value: float | None = None, *, bonus: str = "auto", engine: str = "compiled",
           yarn_tokens: bool = True, components=None, race=None) -> pd.DataFrame:
    """Rank the player's options in a Purramid turn, exactly.

    Parameters
    ----------
    layout : "A", "B", path or Layout
        The board side.
    covered : list of (row, col)
        Spaces holding cat tiles (at the start of this turn).
    placed : list of (row, col)
        Spaces holding dice placed this turn.
    dice_left : int
        Dice not yet placed this turn, 0..turn_dice.
    roll : list of int, optional
        The dice just rolled (``dice_left`` values in 1..6).  Without it the options are stop/continue.
    yarn : int
        Yarn tokens held, 0..12.
    turn_dice : int
        Dice this turn started with: 5, or 4, 3, ... in bonus turns.
    objective : "tiles", ("at_least", k) or "auto"
        Maximise expected tiles (tokens at ``yarn_value`` each) or the chance of at least ``k`` tiles;
        ``"auto"``: the objective :func:`~.race.race_objective` suggests from ``race`` ("tiles" without it).
    yarn_value : float, optional
        Tiles per yarn token (default from ``data/game.toml``).
    race : dict, optional
        The race state: ``hands`` (tiles left in every player's hand, in turn order), ``seat`` (whose turn,
        0-based), optionally ``players_yarn`` (default: ``yarn`` for the player to move, 0 for the others) and
        ``threshold``.  The suggestion and its reason are in ``df.attrs["race"]`` (a
        :class:`~.race.RaceAdvice`).
    bonus : {"auto", "exact", "approx", "none"}
        How bonus turns are valued (see the module docstring).
    engine : {"compiled", "python"}
        The compiled solver (default) or the readable reference (same values, much slower).
    yarn_tokens : bool
        ``False`` plays without yarn tokens: none on the 8s, none to spend (for analysis).
    components : path or Components, optional
        The sides ``layout`` names and the default ``yarn_value`` (default: the packaged components).

    Returns
    -------
    DataFrame
        Best first.  Columns: ``action``, ``space``, ``number``, ``dice``, ``value`` (expected objective),
        ``burst_probability`` (chance the dice of this turn do not become tiles), ``regret``; with a roll,
        ``then`` (the optimal next step after that placement: ``stop``, ``continue``, or ``burst`` when no
        tiles can follow); ``objective``;
        ``bonus`` (how bonus turns were valued: ``exact``, ``approx``, ``none``, or ``mixed`` when ``auto``
        used both below this board).

    Raises
    ------
    ValueError
        If ``layout`` is unknown, ``covered``/``placed`` name spaces not on the board (or overlap),
        ``dice_left``, ``turn_dice`` or ``yarn`` is out of range (``yarn`` must be 0 with
        ``yarn_tokens=False``), ``roll`` is not ``dice_left`` values in 1..6 (or is given with no dice left),
        or ``objective``, ``bonus``, ``engine`` or ``yarn_value`` is not allowed.

    Examples
    --------
    >>> advise("A", placed=[(0, 3)], dice_left=4)["action"].tolist()
    ['continue', 'stop']
    """
    comp = coerce_components(components)
    L = load_layout(layout, comp)
    yarn_value = comp.config.yarn_value if yarn_value is None else yarn_value
    cov, P, d, D, y = _check_state(L, covered, placed, dice_left, turn_dice, yarn)
    if not yarn_tokens and y:
        raise ValueError(f"yarn must be 0 when yarn_tokens is False, got {y}")
    suggestion = None
    if race is not None:
        suggestion = _race_advice(race, L, covered, y, comp, yarn_tokens)
    if isinstance(objective, str) and objective == "auto":
        objective = suggestion.objective if suggestion is not None else "tiles"
    _check_reachable(parse_objective(objective), L, cov)
    solver = solver_for(L, objective, yarn_value, bonus, engine=engine, yarn_tokens=yarn_tokens)
    k = solver.objective.k
    rows = []
    if roll is None:
        if P:
            v, b = solver.stop(cov, P, d, D, y, k)
            rows.append(("stop", None, None, (), v, b, None))
        if d > 0:
            v, b = solver.roll_value(cov, P, d, D, y, k)
            rows.append(("continue", None, None, (), v, b, None))
    else:
        if d == 0:
            raise ValueError("roll must be None when dice_left = 0 (no dice to roll)")
        r = _check_roll(roll, d)
        free = L.all_mask & ~cov & ~P
        for s in bits(free):
            n = L.numbers[s]
            for used in sub_multisets(r, n):
                P2, d2 = P | (1 << s), d - len(used)
                v, b = solver.value(cov, P2, d2, D, y, k)
                then = "continue"
                if solver.should_stop(cov, P2, d2, D, y, k):
                    then = "stop" if solver.stop(cov, P2, d2, D, y, k)[1] == 0 else "burst"
                sp = L.spaces[s]
                rows.append((f"place {'+'.join(map(str, used))} on {sp[0]},{sp[1]} ({n})", sp, n, used, v, b,
                             then))
        if y > 0:
            v, b = solver.reroll_value(cov, P, d, D, y, k)
            rows.append(("reroll", None, None, (), v, b, None))
        if not rows:
            rows.append(("burst", None, None, (), 0.0, 1.0, None))
    df = pd.DataFrame(rows, columns=["action", "space", "number", "dice", "value", "burst_probability", "then"])
    df = df.sort_values(["value", "burst_probability"], ascending=[False, True], kind="stable").reset_index(drop=True)
    df.insert(6, "regret", df["value"].iloc[0] - df["value"])
    if roll is None:
        df = df.drop(columns="then")
    df["objective"] = solver.objective.label()
    df["bonus"] = solver.bonus_label(cov, D)
    if suggestion is not None:
        df.attrs["race"] = suggestion
    return df


#: the keys of ``advise(race=...)``
RACE_KEYS = ("hands", "seat", "players_yarn", "threshold")


def _race_advice(race, layout, covered, yarn: int, comp, yarn_tokens: bool):
    from collections.abc import Mapping

    from .race import RACE_THRESHOLD, race_objective

    if not isinstance(race, Mapping) or "hands" not in race or "seat" not in race:
        raise ValueError(f"race must be a mapping with hands (tiles left per player) and seat (whose turn), "
                         f"got {race!r}")
    extra = sorted(set(race) - set(RACE_KEYS))
    if extra:
        raise ValueError(f"race: unknown key(s) {', '.join(map(repr, extra))}; allowed are {', '.join(RACE_KEYS)}")
    hands = race["hands"]
    py = race.get("players_yarn")
    if py is None and isinstance(hands, (list, tuple)) and isinstance(race["seat"], int):
        py = [yarn if i == race["seat"] else 0 for i in range(len(hands))]
    try:
        return race_objective(layout, covered, hands, race["seat"], players_yarn=py,
                              threshold=race.get("threshold", RACE_THRESHOLD), components=comp,
                              yarn_tokens=yarn_tokens)
    except ValueError as exc:
        raise ValueError(f"race: {exc}") from None


@dataclass(frozen=True)
class TurnPolicy:
    """The solved optimal policy of one turn, from a board at its start (see :func:`turn_policy`).

    Methods take bit masks; :meth:`table` gives the batched-simulation view (one choice per sorted roll).
    """

    solver: TurnSolver
    covered: int
    turn_dice: int
    yarn: int
    name: str = "optimal"

    @property
    def layout(self) -> Layout:
        return self.solver.layout

    def value(self) -> tuple[float, float]:
        """Exact (value, burst probability) of the fresh turn."""
        return self.solver.fresh(self.covered, self.turn_dice, self.yarn, self.solver.objective.k)

    def should_stop(self, cov: int, placed: int, dice_left: int, turn_dice: int, yarn: int, need: int = 0) -> bool:
        return self.solver.should_stop(cov, placed, dice_left, turn_dice, yarn, need)

    def table(self, cov: int, placed: int, dice_left: int, turn_dice: int, yarn: int, need: int = 0):
        """``(kind, space, count)`` per sorted roll of ``dice_left`` dice (see ``TurnSolver.decision_table``)."""
        return self.solver.decision_table(cov, placed, dice_left, turn_dice, yarn, need)


def turn_policy(layout="A", covered=(), *, turn_dice: int = 5, yarn: int = 0, objective="tiles",
                yarn_value: float | None = None, bonus: str = "auto", engine: str = "compiled",
                yarn_tokens: bool = True, components=None) -> TurnPolicy:
    """The optimal turn policy from a board, solved exactly (memoised), for simulations to follow.

    Parameters
    ----------
    layout : "A", "B", path or Layout
        The board side (see :func:`~.components.load_layout`).
    covered : list of (row, col)
        Spaces holding cat tiles at the start of the turn.
    turn_dice : int
        Dice this turn starts with, 1..5 (5; fewer in bonus turns).
    yarn : int
        Yarn tokens held, 0..12.
    objective : "tiles" or ("at_least", k)
        Maximise expected tiles (tokens at ``yarn_value`` each) or the chance of at least ``k`` tiles.
    yarn_value : float, optional
        Tiles per yarn token (default: the components' value).
    bonus : {"auto", "exact", "approx", "none"}
        How bonus turns are valued (see :func:`advise`).
    engine : {"compiled", "python"}
        The compiled solver (default) or the readable reference (same values, much slower).
    yarn_tokens : bool
        ``False`` plays without yarn tokens (none on the 8s, none to spend).
    components : path or Components, optional
        The sides ``layout`` names and the default ``yarn_value`` (default: the packaged components).

    Returns
    -------
    TurnPolicy
        ``.value()`` is the exact ``(value, burst probability)`` of the fresh turn; ``.should_stop(...)`` and
        ``.table(...)`` give the optimal decisions the simulators follow.

    Raises
    ------
    ValueError
        If ``layout`` is unknown, ``covered`` names spaces not on the board, ``turn_dice`` or ``yarn`` is out
        of range, or ``objective``, ``bonus``, ``engine`` or ``yarn_value`` is not allowed.

    Examples
    --------
    >>> pol = turn_policy("A", [])
    >>> v, burst = pol.value()
    >>> v > 1 and 0 <= burst <= 1
    True
    """
    comp = coerce_components(components)
    L = load_layout(layout, comp)
    yarn_value = comp.config.yarn_value if yarn_value is None else yarn_value
    cov, _, _, D, y = _check_state(L, covered, (), turn_dice, turn_dice, yarn)
    solver = solver_for(L, objective, yarn_value, bonus, engine=engine, yarn_tokens=yarn_tokens)
    return TurnPolicy(solver, cov, D, y)
