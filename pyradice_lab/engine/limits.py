"""How big a result may be: any count runs in fixed-size blocks, but a result held in memory has a limit.

Simulations and samplers work through their trials in blocks of a fixed size (seeds spawned per block,
summaries accumulated), so their working memory does not grow with the count asked for.  What can still
grow is a result that holds one row per trial or per game (``simulate_games`` returns a DataFrame with a
row per game, ``dice.roll`` an array with a row per roll).  Before any work starts, such a function calls
:func:`check_result_size`, which refuses a count whose result would exceed :func:`max_result_bytes`
(default 4 GiB; set the environment variable ``PYRADICE_LAB_MAX_RESULT_BYTES`` to change it) with an
error that names the parameter, the estimated size and the largest count allowed.

Memos carried from one call to the next (Purramid's exact solver keeps its values across turns, games and
calls: :mod:`pyradice_lab.purramid.memopool`) are bounded by :func:`max_memo_bytes` (default 512 MiB, all the
carried memos of a process together; ``PYRADICE_LAB_MAX_MEMO_BYTES`` changes it).

Examples
--------
>>> from pyradice_lab.engine.limits import check_result_size
>>> check_result_size(1000, 200, name="n_games")
1000
>>> check_result_size(10**12, 200, name="n_games")
Traceback (most recent call last):
...
ValueError: n_games=1000000000000 would hold about 200 TB in memory (200 bytes per game); the limit is 4.29 GB, at most 21,474,836 games per call: split the work into several calls (each with its own seed) or raise PYRADICE_LAB_MAX_RESULT_BYTES
"""

from __future__ import annotations

import numbers
import os

__all__ = ["DEFAULT_MAX_RESULT_BYTES", "ENV_VAR", "max_result_bytes", "max_count", "check_result_size",
           "DEFAULT_MAX_MEMO_BYTES", "MEMO_ENV_VAR", "max_memo_bytes"]

#: The default limit on a result held in memory (4 GiB).
DEFAULT_MAX_RESULT_BYTES = 4 * 1024 ** 3
#: Environment variable that overrides the limit (a number of bytes, e.g. ``17179869184`` for 16 GiB).
ENV_VAR = "PYRADICE_LAB_MAX_RESULT_BYTES"
#: The default limit on the solver memos a process carries from call to call (512 MiB in all).
DEFAULT_MAX_MEMO_BYTES = 512 * 1024 ** 2
#: Environment variable that overrides the memo limit (a number of bytes).
MEMO_ENV_VAR = "PYRADICE_LAB_MAX_MEMO_BYTES"


def _bytes_from_env(var: str, default: int) -> int:
    text = os.environ.get(var, "").strip()
    if not text:
        return default
    try:
        value = int(float(text))
    except ValueError:
        raise ValueError(f"{var} must be a positive number of bytes, got {text!r}") from None
    if value <= 0:
        raise ValueError(f"{var} must be a positive number of bytes, got {text!r}")
    return value


def max_result_bytes() -> int:
    """The limit on a result held in memory, in bytes (``PYRADICE_LAB_MAX_RESULT_BYTES`` or 4 GiB)."""
    return _bytes_from_env(ENV_VAR, DEFAULT_MAX_RESULT_BYTES)


def max_memo_bytes() -> int:
    """The limit on the solver memos carried across calls, all together, in bytes
    (``PYRADICE_LAB_MAX_MEMO_BYTES`` or 512 MiB).

    Examples
    --------
    >>> from pyradice_lab.engine.limits import max_memo_bytes
    >>> max_memo_bytes() >= 1
    True
    """
    return _bytes_from_env(MEMO_ENV_VAR, DEFAULT_MAX_MEMO_BYTES)


def max_count(bytes_per_item: float) -> int:
    """The largest count whose result (``bytes_per_item`` each) fits in :func:`max_result_bytes`."""
    return int(max_result_bytes() // max(float(bytes_per_item), 1.0))


def _size(nbytes: float) -> str:
    for unit, scale in (("PB", 1e15), ("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if nbytes >= scale:
            return f"{nbytes / scale:.3g} {unit}"
    return f"{nbytes:.0f} bytes"


def check_result_size(n, bytes_per_item: float, *, name: str = "n", item: str = "game") -> int:
    """Return ``n`` if a result of ``n`` items of ``bytes_per_item`` bytes fits the limit, else raise.

    Parameters
    ----------
    n : int
        The count asked for (already validated as a positive integer by the caller).
    bytes_per_item : float
        Estimated memory of one item of the result (a DataFrame row, an array row), measured.
    name, item : str
        Parameter name and item noun for the message.

    Raises
    ------
    ValueError
        Naming ``name``, the estimated size, the limit and the largest count allowed.
    """
    if isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {type(n).__name__}")
    limit = max_result_bytes()
    need = int(n) * float(bytes_per_item)
    if need > limit:
        raise ValueError(
            f"{name}={int(n)} would hold about {_size(need)} in memory ({bytes_per_item:g} bytes per {item}); "
            f"the limit is {_size(limit)}, at most {max_count(bytes_per_item):,} {item}s per call: split the "
            f"work into several calls (each with its own seed) or raise {ENV_VAR}")
    return int(n)
