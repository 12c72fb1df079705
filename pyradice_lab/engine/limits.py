"""How big a result may be: any count runs in fixed-size blocks, but a result held in memory has a limit.

Simulations and samplers work through their trials in blocks of a fixed size (seeds spawned per block,
summaries accumulated), so their working memory does not grow with the count asked for.  What can still
grow is a result that holds one row per trial or per game (``simulate_games`` returns a DataFrame with a
row per game, ``dice.roll`` an array with a row per roll).  Before any work starts, such a function calls
:func:`check_result_size`, which refuses a count whose result would exceed :func:`max_result_bytes`
(default 4 GiB; set the environment variable ``PYRADICE_LAB_MAX_RESULT_BYTES`` to change it) with an
error that names the parameter, the estimated size and the largest count allowed.

Counts that would run for days are refused the same way, before any work: :func:`check_count` holds each
count a user can ask for against its documented upper limit (:data:`COUNT_LIMITS`: sweep trials per cell,
``raft.tilt_distribution`` trials, ``compare`` games per side; each overridable with its own environment
variable) and states the least time the count would take.  Input files (components, layouts, tilt paths,
calibration CSVs) are read through :func:`read_input_file`: anything that is not a regular file (a device such
as ``/dev/zero``, a pipe) or is larger than :func:`max_input_file_bytes` (default 10 MB,
``PYRADICE_LAB_MAX_INPUT_FILE_BYTES``) is refused before it is read.

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
import stat
from dataclasses import dataclass
from pathlib import Path

__all__ = ["DEFAULT_MAX_RESULT_BYTES", "ENV_VAR", "max_result_bytes", "max_count", "check_result_size",
           "CountLimit", "COUNT_LIMITS", "count_limit", "check_count", "MAX_INPUT_FILE_BYTES", "INPUT_ENV_VAR",
           "max_input_file_bytes", "read_input_file", "MAX_JOBS", "DEFAULT_MAX_MEMO_BYTES", "MEMO_ENV_VAR",
           "max_memo_bytes"]

#: The most worker processes or threads any ``n_jobs`` may ask for (more is refused with a clear error, not left
#: to joblib's "Numeric literal too large").
MAX_JOBS = 1024

#: The default limit on a result held in memory (4 GiB).
DEFAULT_MAX_RESULT_BYTES = 4 * 1024 ** 3
#: Environment variable that overrides the limit (a number of bytes, e.g. ``17179869184`` for 16 GiB).
ENV_VAR = "PYRADICE_LAB_MAX_RESULT_BYTES"
#: The default limit on the solver memos a process carries from call to call (512 MiB in all).
DEFAULT_MAX_MEMO_BYTES = 512 * 1024 ** 2
#: Environment variable that overrides the memo limit (a number of bytes).
MEMO_ENV_VAR = "PYRADICE_LAB_MAX_MEMO_BYTES"


def _env_int(var: str, default: int, what: str) -> int:
    text = os.environ.get(var, "").strip()
    if not text:
        return default
    try:
        value = int(float(text))
    except (ValueError, OverflowError):
        raise ValueError(f"{var} must be a positive number of {what}, got {text!r}") from None
    if value <= 0:
        raise ValueError(f"{var} must be a positive number of {what}, got {text!r}")
    return value


def max_result_bytes() -> int:
    """The limit on a result held in memory, in bytes (``PYRADICE_LAB_MAX_RESULT_BYTES`` or 4 GiB)."""
    return _env_int(ENV_VAR, DEFAULT_MAX_RESULT_BYTES, "bytes")


def max_memo_bytes() -> int:
    """The limit on the solver memos carried across calls, all together, in bytes
    (``PYRADICE_LAB_MAX_MEMO_BYTES`` or 512 MiB).

    Examples
    --------
    >>> from pyradice_lab.engine.limits import max_memo_bytes
    >>> max_memo_bytes() >= 1
    True
    """
    return _env_int(MEMO_ENV_VAR, DEFAULT_MAX_MEMO_BYTES, "bytes")


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


# ------------------------------------------------------------------------------------------------ counts
@dataclass(frozen=True)
class CountLimit:
    """The documented upper limit of one count: ``default`` (overridden by the environment variable ``env``),
    and ``rate``, the work per second of the fastest case on one core (the estimate of the time a count
    would take is ``count / rate``: a lower bound)."""

    default: int
    env: str
    rate: float
    unit: str


#: The upper limit of every count a user can ask for that is not bounded by memory (the run keeps no row per
#: unit of work, so only time grows).  The defaults allow hours of work at the fastest rate measured
#: (``docs/bench.md``), never days; raise one with its environment variable.
COUNT_LIMITS = {
    # the fastest sweep cell (core.subset-sum, numba) runs about 1e8 trials per second on one core
    "sweep_trials": CountLimit(10 ** 12, "PYRADICE_LAB_MAX_SWEEP_TRIALS", 1e8, "trials per cell"),
    # raft.tilt: about 1e6 tilts per second on one core (the bench target)
    "tilt_trials": CountLimit(10 ** 10, "PYRADICE_LAB_MAX_TILT_TRIALS", 1e6, "trials"),
    # compare plays both sides: the fastest game (raft, greedy) runs about 2e4 games per second, and the
    # per-game metric values are kept (16 bytes a game and side)
    "compare_games": CountLimit(10 ** 8, "PYRADICE_LAB_MAX_COMPARE_GAMES", 1e4, "games per component set"),
}


def count_limit(kind: str) -> int:
    """The upper limit of the count ``kind`` (a key of :data:`COUNT_LIMITS`), its environment variable applied.

    Examples
    --------
    >>> count_limit("tilt_trials")
    10000000000
    """
    if kind not in COUNT_LIMITS:
        raise ValueError(f"kind must be one of {sorted(COUNT_LIMITS)}, got {kind!r}")
    lim = COUNT_LIMITS[kind]
    return _env_int(lim.env, lim.default, lim.unit.split()[0])


def _duration(seconds: float) -> str:
    for unit, scale in (("years", 365.25 * 86400), ("days", 86400), ("hours", 3600), ("minutes", 60)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds:.3g} seconds"


def check_count(n, kind: str, *, name: str, factor: float = 1.0) -> int:
    """Return ``n`` if it is within the limit of the count ``kind``, else raise, stating the least time it
    would take.

    Parameters
    ----------
    n : int
        The count asked for (validated as a positive integer by the caller).
    kind : str
        A key of :data:`COUNT_LIMITS`.
    name : str
        The parameter name for the message.
    factor : float
        Units of work per counted unit for the time estimate (e.g. the number of cells of a sweep).

    Returns
    -------
    int
        ``n``.

    Raises
    ------
    ValueError
        Naming ``name``, the limit, the estimated time and the environment variable that raises the limit.

    Examples
    --------
    >>> check_count(10 ** 6, "tilt_trials", name="trials")
    1000000
    >>> check_count(10 ** 12, "tilt_trials", name="trials")
    Traceback (most recent call last):
    ...
    ValueError: trials=1,000,000,000,000 is above the limit of 10,000,000,000 trials: it would run for at least 11.6 days (about 1e+06 trials per second on one core); ask for fewer, split the work into several calls, or raise PYRADICE_LAB_MAX_TILT_TRIALS
    """
    lim = COUNT_LIMITS[kind]
    limit = count_limit(kind)
    if int(n) > limit:
        raise ValueError(
            f"{name}={int(n):,} is above the limit of {limit:,} {lim.unit}: it would run for at least "
            f"{_duration(int(n) * float(factor) / lim.rate)} (about {lim.rate:.0e} {lim.unit.split()[0]} per second "
            f"on one core); ask for fewer, split the work into several calls, or raise {lim.env}")
    return int(n)


# ------------------------------------------------------------------------------------------------ input files
#: The default largest input file (components, layouts, tilt paths, calibration CSVs), in bytes.
MAX_INPUT_FILE_BYTES = 10_000_000
#: Environment variable that overrides it.
INPUT_ENV_VAR = "PYRADICE_LAB_MAX_INPUT_FILE_BYTES"


def max_input_file_bytes() -> int:
    """The largest input file read, in bytes (``PYRADICE_LAB_MAX_INPUT_FILE_BYTES`` or 10 MB)."""
    return _env_int(INPUT_ENV_VAR, MAX_INPUT_FILE_BYTES, "bytes")


def read_input_file(path, *, what: str = "file") -> bytes:
    """The bytes of the input file ``path``, refusing before reading anything that is not a regular file or is
    larger than :func:`max_input_file_bytes` (read at most one byte more, so a file growing meanwhile is
    refused too).

    Parameters
    ----------
    path : str or Path
        The file.
    what : str
        What the file is, for the messages ("components file", "CSV").

    Returns
    -------
    bytes
        The file's contents.

    Raises
    ------
    ValueError
        If ``path`` is not a regular file (a directory, a device such as ``/dev/zero``, a pipe) or is too large;
        the message names the file.
    OSError
        If the file cannot be opened (missing, permissions).

    Examples
    --------
    >>> read_input_file("/dev/zero", what="components file")
    Traceback (most recent call last):
    ...
    ValueError: /dev/zero: a components file must be a regular file, not a character device
    """
    p = Path(path)
    limit = max_input_file_bytes()

    def check(st) -> None:
        if not stat.S_ISREG(st.st_mode):
            kind = ("directory" if stat.S_ISDIR(st.st_mode) else "character device" if stat.S_ISCHR(st.st_mode)
                    else "block device" if stat.S_ISBLK(st.st_mode) else "pipe" if stat.S_ISFIFO(st.st_mode)
                    else "socket" if stat.S_ISSOCK(st.st_mode) else "special file")
            raise ValueError(f"{p}: a {what} must be a regular file, not a {kind}")
        if st.st_size > limit:
            raise ValueError(f"{p}: is {st.st_size:,} bytes; a {what} is at most {limit:,} bytes "
                             f"(raise {INPUT_ENV_VAR} for a larger one)")

    check(os.stat(p))  # before opening: opening a pipe would wait for a writer
    fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as fh:
        check(os.fstat(fh.fileno()))  # what was opened (the path may have been swapped meanwhile)
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise ValueError(f"{p}: is more than {limit:,} bytes; a {what} is at most {limit:,} bytes "
                         f"(raise {INPUT_ENV_VAR} for a larger one)")
    return data
