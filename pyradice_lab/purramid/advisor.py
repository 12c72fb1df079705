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
from collections.abc import Mapping
from dataclasses import dataclass

import pandas as pd

from ._layout import space_label
from ._position import (  # noqa: F401 - the position format and its checks, importable from here
    MAX_TURN_DICE,
    MAX_YARN,
    Position,
    _check_int,
    _check_roll,
    _check_state,
    _spaces_mask,
    load_position,
    opening_position,
    position_from_game,
    position_spec,
)
from ._turnsolver import TurnSolver
from .board import bits
from .chance import sub_multisets
from .components import Layout, coerce_components, load_game_config, load_layout
from .exact import AUTO_EXACT_MAX_VALID

__all__ = ["advise", "Position", "load_position", "position_from_game", "opening_position", "position_spec", "turn_policy", "TurnSolver", "TurnPolicy", "Objective", "parse_objective",
           "solver_for", "clear_cache", "BONUS_MODES", "ENGINES", "AUTO_EXACT_MAX_VALID", "MAX_TURN_DICE",
           "MAX_YARN"]

BONUS_MODES = ("auto", "exact", "approx", "none")


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


#: The largest ``yarn_value`` (tiles per token) the advisor takes: the range of the components file's
#: ``yarn_value`` (0..100; a board holds far fewer tiles).
MAX_YARN_VALUE = 100.0


def _check_yarn_value(yarn_value) -> float:
    if yarn_value is None:
        return load_game_config().yarn_value
    if isinstance(yarn_value, bool) or not isinstance(yarn_value, numbers.Real) or not math.isfinite(yarn_value) \
            or not 0 <= yarn_value <= MAX_YARN_VALUE:
        raise ValueError(f"yarn_value must be a number of tiles per token from 0 to {MAX_YARN_VALUE:g} (the range a "
                         f"components file allows), got {yarn_value!r}")
    return float(yarn_value)



def advise(layout="A", covered=(), placed=(), dice_left: int = 5, roll=None, yarn: int = 0, turn_dice: int = 5,
           objective="tiles", yarn_value: float | None = None, *, bonus: str = "auto", engine: str = "compiled",
           yarn_tokens: bool = True, components=None, race=None) -> pd.DataFrame:
    """Rank the player's options in a Purramid turn, exactly.

    Two forms: ``advise(position, ...)`` with a :class:`Position` (or its document as a mapping: see
    :func:`load_position`), the protocol every game's advisor follows; or the keyword form ``advise(layout,
    covered, placed, dice_left, roll, yarn, turn_dice, ...)``, a convenience giving the same frame for the same
    table (``advise(pos)`` equals ``advise(**pos.advise_kwargs())``).  With a position, ``objective="auto"``
    reads the race from the position's hands and yarn.

    Parameters
    ----------
    layout : Position, mapping, "A", "B", path or Layout
        A position (then give none of ``covered`` .. ``turn_dice``, ``yarn_tokens``, ``components``, ``race``:
        the position holds them) or the board side of the keyword form.
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
    >>> pos = position_from_game(7, 3, players=3)
    >>> advise(pos)["action"].iloc[0] == advise(**pos.advise_kwargs())["action"].iloc[0]
    True
    """
    if isinstance(layout, (Position, Mapping)):
        given = {k: v for k, v in (("covered", covered), ("placed", placed), ("dice_left", dice_left),
                                   ("roll", roll), ("yarn", yarn), ("turn_dice", turn_dice),
                                   ("yarn_tokens", yarn_tokens), ("components", components), ("race", race))
                 if not _is_default(k, v)}
        if given:
            raise ValueError(f"{', '.join(given)}: give a position or the turn state keywords, not both (the "
                             f"position holds them)")
        pos = load_position(layout)
        kw = pos.advise_kwargs()
        if isinstance(objective, str) and objective == "auto":
            kw["race"] = pos.race()
        df = advise(objective=objective, yarn_value=yarn_value, bonus=bonus, engine=engine, **kw)
        df.attrs["position"] = pos
        return df
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
                rows.append((f"place {'+'.join(map(str, used))} on {space_label(n, sp)}", sp, n, used, v, b,
                             then))                        # the label numbers rows and columns from 1
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
    df.attrs["decision"] = "stop or continue" if roll is None else "placement"
    df.attrs["objective"] = solver.objective.label()
    if suggestion is not None:
        df.attrs["race"] = suggestion
    return df


#: the keyword form's turn state and its defaults (a position holds these)
_STATE_DEFAULTS = {"covered": (), "placed": (), "dice_left": 5, "roll": None, "yarn": 0, "turn_dice": 5,
                   "yarn_tokens": True, "components": None, "race": None}


def _is_default(name: str, value) -> bool:
    d = _STATE_DEFAULTS[name]
    if d is None:
        return value is None
    if isinstance(d, tuple):
        return isinstance(value, (list, tuple)) and len(value) == 0
    return type(value) is type(d) and value == d


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
