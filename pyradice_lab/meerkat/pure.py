"""Pure-Python twins of the compiled game engine: the very same functions, run without compiling.

:func:`engine` returns the game kernel either numba-compiled (fast; compiled once per machine and cached)
or as a pure-Python twin built from each compiled function's ``py_func`` with its module globals re-pointed
at the other twins.  Both play the same games from the same tapes (tested), so choosing one never changes
a number: the twin is used for small workloads where compiling would cost more than it saves, and it is the
in-process form of the ``NUMBA_DISABLE_JIT=1`` reference path.
"""

from __future__ import annotations

import types
from functools import cache

__all__ = ["engine", "python_twins", "fresh_state"]


@cache
def python_twins() -> dict:
    """name -> pure-Python twin of every numba function of the game engine modules."""
    from numba.core.registry import CPUDispatcher

    from . import automa, game, oasis, policies, rules

    modules = (rules, oasis, automa, policies, game)
    spaces = {m.__name__: dict(vars(m)) for m in modules}
    for space in spaces.values():
        space["TRACE"] = True  # the twins record trace events (compiled code prunes them)
    twins: dict[int, types.FunctionType] = {}
    by_name: dict[str, types.FunctionType] = {}
    for m in modules:
        for name, obj in vars(m).items():
            if isinstance(obj, CPUDispatcher) and obj.py_func.__module__ == m.__name__:
                f = obj.py_func
                twin = types.FunctionType(f.__code__, spaces[m.__name__], f.__name__, f.__defaults__, f.__closure__)
                twins[id(obj)] = twin
                by_name[name] = twin
    for space in spaces.values():
        for name, obj in list(space.items()):
            if id(obj) in twins:
                space[name] = twins[id(obj)]
    return by_name


def engine(compiled: bool):
    """``(run_games, new_game, setup, play, winner_of)``: compiled dispatchers or pure-Python twins."""
    names = ("run_games", "new_game", "setup", "play", "winner_of")
    if compiled:
        from . import game

        return tuple(getattr(game, n) for n in names)
    twins = python_twins()
    return tuple(twins[n] for n in names)


def fresh_state(players: int = 3, automa: bool = False, dice=(), policies="greedy", log_rows: int = 0):
    """A hand-built pure-Python game state for tests and what-ifs: tile t on layout position t - 3 (no
    shuffle), no tokens, full supplies.  ``dice`` are the first values of the dice tape (then 6s); the
    choice tape counts 0, 1, 2, ...  Views: ``W = g[0]``, ``C = W[0:4]``, ``S = W[4:8]``, ``T = W[8:21]``,
    ``G = W[21]`` (see :mod:`.rules`).

    Examples
    --------
    >>> g = fresh_state(2, automa=True)
    >>> int(g[0][4 + 0, 0])   # seat 0's supply
    20
    """
    import numpy as np

    from . import sim

    st = sim._default_setup()
    n, pols, prm, _ = sim._seat_config(players, automa, policies)
    tapes = np.full((2, sim.TAPE), 6, dtype=np.uint32)
    tapes[0, :len(dice)] = dice
    tapes[1, :] = np.arange(sim.TAPE, dtype=np.uint32)
    g = python_twins()["new_game"](n, automa, pols, prm, st.V, st.K, tapes, st.bags, st.nblue, st.nbrown,
                                   st.comp.male_start_tile, log_rows)
    W = g[0]
    A, D = W[38:51], W[51:64]
    for t in range(3, 13):
        for u in range(3, 13):
            A[t, u] = st.pos_adj[t - 3, u - 3]
            D[t, u] = 0 if t == u else (1 if A[t, u] else 99)
    for k in range(3, 13):
        for i in range(3, 13):
            for j in range(3, 13):
                D[i, j] = min(D[i, j], D[i, k] + D[k, j])
    return g
