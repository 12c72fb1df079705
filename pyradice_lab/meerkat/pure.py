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

__all__ = ["engine", "python_twins"]


@cache
def python_twins() -> dict:
    """name -> pure-Python twin of every numba function of the game engine modules."""
    from numba.core.registry import CPUDispatcher

    from . import automa, game, policies, rules

    modules = (rules, automa, policies, game)
    spaces = {m.__name__: dict(vars(m)) for m in modules}
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
