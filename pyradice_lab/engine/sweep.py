"""Parameter sweeps: a grid of cells run on joblib (loky processes or a dask cluster) into one tidy table.

Each cell ``i`` of the grid gets its own random stream ``SeedSequence(entropy, spawn_key=(i,))`` derived
from the sweep's root seed, so a cell's numbers depend only on the root seed, its position and its
parameters: never on the number of jobs, the backend, or which cells were cached.  The resulting
DataFrame carries the root entropy and spawn key of every cell, and :func:`rerun_cell` recomputes one
cell alone.

The cache
---------
With ``cache_dir`` every finished cell is written atomically (temporary file + rename) as it arrives; a
sweep that is interrupted (Ctrl-C, SIGKILL, a lost worker) and started again computes only the missing
cells.  A cached cell is used only if it was computed by the same code on the same inputs: its file is
named after the cell (function, parameters, trials, root seed, spawn key) and records the cell's
*provenance* -- the package version, a hash of the function's source, the
:func:`~pyradice_lab.engine._sources.fingerprint` of the sources its module imports (for the registered game
targets: the game's engine, rules and default components) and the content hash of every parameter that
names a file (a components file).  A cached cell whose provenance differs from the running code, or a
file that cannot be read or parsed (truncated, not JSON, nested too deep, a directory in its place, written
for another cell), is reported with a :class:`CacheWarning` and recomputed, never used and never a crash.

Entries are signed with HMAC-SHA256 under a random key kept in the cache directory (``.sweep-key``), so an
edited value -- even with a recomputed checksum -- is rejected unless the editor also read the key.  This
guards against accidents and casual edits, not against someone who can read the directory: **a cache
directory is trusted input**; do not point ``cache_dir`` at files you did not write.

Interrupting a parallel sweep (Ctrl-C, or SIGTERM under the CLI) stops its worker processes at once; a
worker whose parent process dies (SIGKILL) exits within a second.  Temporary files carry the writer's
process id; those of processes that no longer run are removed when a sweep next uses the directory.

The cache's files (signing, atomic writes, temporaries) live in the private module ``_sweep_cache``
(re-exported here); this module holds the grid, the seeds, the provenance and :func:`run_sweep`.

Examples
--------
>>> from pyradice_lab.engine.sweep import run_sweep
>>> from pyradice_lab.engine.stats import proportion_estimate
>>> def six(params, trials, rng):
...     hits = int((rng.integers(1, 7, size=(trials, params["dice"])) == 6).any(axis=1).sum())
...     return {"p_six": proportion_estimate(hits, trials)}
>>> df = run_sweep(six, {"dice": [1, 2]}, trials=1000, seed=1, progress=False)
>>> list(df.columns)[:3]
['dice', 'p_six', 'p_six_se']
"""

from __future__ import annotations

import dataclasses
import hashlib
import inspect
import itertools
import json
import marshal
import numbers
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ._sources import fingerprint
from ._sweep_cache import (
    _CACHE_FORMAT,
    CacheWarning,
    _Cache,
    _check_cache_dir,
    remove_stale_temporaries,
    replace_with_default_mode,
    temporary_prefix,
)
from ._version import __version__
from .execution import (
    BACKENDS,
    DASK_CONNECT_TIMEOUT,
    Progress,
    check_execution,
    loky_config,
    stop_worker_processes,
    watch_parent,
)
from .limits import check_count
from .stats import Estimate

__all__ = ["run_sweep", "expand_grid", "rerun_cell", "cell_generator", "BACKENDS", "CacheWarning",
           "DASK_CONNECT_TIMEOUT", "check_progress", "watch_parent", "loky_config", "stop_worker_processes", "remove_stale_temporaries", "replace_with_default_mode",
           "temporary_prefix"]


# --------------------------------------------------------------------------------------------- grid
def expand_grid(grid) -> list[dict]:
    """Cells of ``grid``: a dict of lists (Cartesian product, first key varies slowest) or a list of dicts."""
    if isinstance(grid, Mapping):
        if not grid:
            raise ValueError("grid must not be empty")
        keys = list(grid)
        values = []
        for k in keys:
            if not isinstance(k, str):
                raise ValueError(f"grid keys must be parameter names (str), got {k!r}")
            v = grid[k]
            if isinstance(v, (str, bytes)) or not isinstance(v, (Sequence, np.ndarray, range)):
                raise ValueError(f"grid[{k!r}] must be a list of values, got {type(v).__name__}")
            if len(v) == 0:
                raise ValueError(f"grid[{k!r}] must not be empty")
            values.append([_plain(x) for x in v])
        return [dict(zip(keys, combo)) for combo in itertools.product(*values)]
    if isinstance(grid, Sequence) and not isinstance(grid, (str, bytes)):
        if len(grid) == 0:
            raise ValueError("grid must not be empty")
        cells = []
        for i, cell in enumerate(grid):
            if not isinstance(cell, Mapping) or not all(isinstance(k, str) for k in cell):
                raise ValueError(f"grid[{i}] must be a dict of parameter name -> value, got {cell!r}")
            cells.append({k: _plain(v) for k, v in cell.items()})
        return cells
    raise ValueError(f"grid must be a dict of lists or a list of dicts, got {type(grid).__name__}")


def _plain(x):
    """numpy scalars -> Python scalars so params hash and serialise the same everywhere."""
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, tuple):
        return tuple(_plain(v) for v in x)
    return x


# --------------------------------------------------------------------------------------------- seeds
def _root_sequence(seed) -> np.random.SeedSequence:
    if isinstance(seed, np.random.SeedSequence):
        return seed
    if seed is None:
        return np.random.SeedSequence()
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise ValueError(f"seed must be None, a non-negative int or a SeedSequence, got {seed!r}")
    return np.random.SeedSequence(int(seed))


def cell_generator(entropy, spawn_key) -> np.random.Generator:
    """The generator of the cell with root ``entropy`` and ``spawn_key`` (as recorded in a sweep table)."""
    return np.random.default_rng(np.random.SeedSequence(entropy, spawn_key=tuple(spawn_key)))


def rerun_cell(fn: Callable, row: Mapping | pd.Series, params: Sequence[str] | None = None) -> dict:
    """Recompute one cell of a sweep table alone; equals that row's outputs.

    ``params`` names the parameter columns (default: the columns before the first output are not
    known here, so pass them, or pass a row that holds only the parameters plus ``trials`` and the
    seed columns).
    """
    row = dict(row)
    names = list(params) if params is not None else [
        k for k in row if k not in ("trials", "seed_entropy", "seed_spawn_key")]
    cell = {k: row[k] for k in names}
    rng = cell_generator(row["seed_entropy"], row["seed_spawn_key"])
    return _flatten(fn(cell, int(row["trials"]), rng))


# --------------------------------------------------------------------------------------------- outputs
def _flatten(out) -> dict:
    if not isinstance(out, Mapping):
        raise TypeError(f"the sweep function must return a dict of outputs, got {type(out).__name__}")
    if not out:
        raise ValueError("the sweep function must return at least one output, got an empty dict (outputs={})")
    flat = {}
    for name, v in out.items():
        if not isinstance(name, str) or not name:
            raise TypeError(f"output names must be non-empty str, got {name!r}")
        if isinstance(v, Estimate):
            flat.update(v.to_dict(prefix=name))
        elif isinstance(v, (bool, np.bool_)):
            flat[name] = bool(v)
        elif isinstance(v, numbers.Integral):
            flat[name] = int(v)
        elif isinstance(v, numbers.Real):
            flat[name] = float(v)
        elif isinstance(v, str):
            flat[name] = v
        else:
            raise TypeError(f"output {name!r} must be a number, str or Estimate, got {type(v).__name__}")
    return flat


# --------------------------------------------------------------------------------------------- provenance
def _fn_id(fn) -> str:
    return f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', repr(fn))}"


def _resolve(fn):
    """The function behind a :class:`~pyradice_lab.engine.registry.lazy` target or a functools.partial."""
    resolve = getattr(fn, "resolve", None)
    if callable(resolve):
        fn = resolve()
    return getattr(fn, "func", fn)


def _sha(data: bytes | str) -> str:
    return hashlib.sha256(data.encode() if isinstance(data, str) else data).hexdigest()


def _source_hash(fn) -> str | None:
    """Hash of the cell function's source (its bytecode if the source cannot be read)."""
    f = _resolve(fn)
    try:
        return _sha(inspect.getsource(f))
    except (OSError, TypeError):
        code = getattr(f, "__code__", None)
        return _sha(marshal.dumps(code)) if code is not None else None


def _code_fingerprint(fn) -> str | None:
    """:func:`~pyradice_lab.engine._sources.fingerprint` of the file defining ``fn`` (None if it has no file)."""
    f = _resolve(fn)
    try:
        path = inspect.getsourcefile(f)
    except TypeError:
        return None
    if not path or not os.path.isfile(path):
        return None
    try:
        return fingerprint(path)
    except OSError:
        return None


def _canonical(obj):
    """A JSON-able, content-based description of a parameter value (equal contents, equal descriptions)."""
    if obj is None or isinstance(obj, (bool, str)):
        return obj
    if isinstance(obj, numbers.Integral):
        return int(obj)
    if isinstance(obj, numbers.Real):
        return float(obj)
    if isinstance(obj, np.ndarray):
        return {"ndarray": str(obj.dtype), "shape": list(obj.shape), "sha256": _sha(np.ascontiguousarray(obj).tobytes())}
    if isinstance(obj, np.generic):
        return _canonical(obj.item())
    if isinstance(obj, Mapping):
        return {"mapping": sorted(([_canonical(k), _canonical(v)] for k, v in obj.items()), key=json.dumps)}
    if isinstance(obj, (list, tuple)):
        return [_canonical(v) for v in obj]
    if isinstance(obj, (set, frozenset)):
        return {"set": sorted((_canonical(v) for v in obj), key=json.dumps)}
    if isinstance(obj, os.PathLike):
        return {"path": os.fspath(obj)}
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {"dataclass": f"{type(obj).__module__}.{type(obj).__qualname__}",
                "fields": {f.name: _canonical(getattr(obj, f.name)) for f in dataclasses.fields(obj)}}
    return {"repr": f"{type(obj).__module__}.{type(obj).__qualname__}", "value": repr(obj)}


def _file_params(params: Mapping) -> dict[str, str]:
    """Content hash of every parameter naming an existing file (a components file can change under its name)."""
    out = {}
    for k, v in params.items():
        if isinstance(v, (str, os.PathLike)):
            p = os.fspath(v)
            try:
                if isinstance(p, str) and 0 < len(p) < 4096 and "\0" not in p and os.path.isfile(p):
                    with open(p, "rb") as fh:
                        out[k] = _sha(fh.read())
            except OSError:
                continue
    return out


def _cell_name(fn_id: str, params: dict, trials: int, entropy, spawn_key) -> str:
    """The cache file name of a cell: what the cell *is* (not which code computed it)."""
    blob = json.dumps({"format": _CACHE_FORMAT, "fn": fn_id, "params": _canonical(params), "trials": trials,
                       "entropy": entropy, "spawn_key": list(spawn_key)}, sort_keys=True)
    return _sha(blob)


# --------------------------------------------------------------------------------------------- workers
def check_progress(progress) -> bool:
    """``progress`` (show a progress bar) as a bool: anything but True or False (``"yes"``, 1) is refused.

    Parameters
    ----------
    progress : bool
        The value passed.

    Returns
    -------
    bool
        ``progress``.

    Raises
    ------
    ValueError
        If ``progress`` is not True or False.

    Examples
    --------
    >>> check_progress(False)
    False
    >>> check_progress("yes")
    Traceback (most recent call last):
    ...
    ValueError: progress must be True or False, got 'yes'
    """
    if not isinstance(progress, (bool, np.bool_)):
        raise ValueError(f"progress must be True or False, got {progress!r}")
    return bool(progress)


def _run_cell(fn, params, trials, entropy, spawn_key, parent_pid=None):
    if parent_pid is not None:
        watch_parent(parent_pid)
    rng = cell_generator(entropy, spawn_key)
    return _flatten(fn(dict(params), trials, rng))


def _iter_results(fn, todo, trials, entropy, execution) -> Iterator[tuple[int, dict]]:
    from .execution import Pool
    from .notices import announcing

    # loky workers watch this process (execution.watch_parent); the games inside the cells say no cost of their own
    with Pool(execution=execution) as pool, announcing():
        yield from pool.imap_unordered(_run_cell, ((i, (fn, params, trials, entropy, key))
                                                  for i, params, key in todo))


def run_sweep(
    fn: Callable[[dict, int, np.random.Generator], Mapping[str, Any]],
    grid,
    *,
    trials: int,
    seed,
    n_jobs: int = 1,
    backend: str = "loky",
    cache_dir: str | os.PathLike | None = None,
    progress: bool = True,
    scheduler=None,
) -> pd.DataFrame:
    """Run ``fn`` on every cell of ``grid`` and return one tidy row per cell.

    Parameters
    ----------
    fn : callable ``(params: dict, trials: int, rng: Generator) -> dict[str, float | Estimate]``
        Must be picklable for ``n_jobs > 1`` (a module-level function) and return at least one output.
    grid : dict of lists or list of dicts
        Cells; a dict of lists is expanded as a Cartesian product in order.
    trials : int
        Passed to ``fn`` for every cell (> 0; at most ``limits.count_limit("sweep_trials")``, 10**12,
        ``PYRADICE_LAB_MAX_SWEEP_TRIALS`` raises it).
    seed : int, SeedSequence or None
        Root seed; ``None`` draws fresh entropy, which is recorded in the table.  Cell ``i`` draws from
        ``SeedSequence(entropy, spawn_key=root.spawn_key + (i,))``.
    n_jobs : int
        Number of parallel workers (1 = in this process, -1 = all cores; at most ``limits.MAX_JOBS``).
    backend : {"loky", "dask", "threading"}
        ``"dask"`` runs on a ``distributed`` cluster: ``scheduler`` (an address such as
        ``"tcp://10.0.0.5:8786"``, reached within :data:`DASK_CONNECT_TIMEOUT` seconds, or a ``Client``),
        else the current client, else a LocalCluster with ``n_jobs`` single-threaded workers started for
        this sweep.
    cache_dir : path, optional
        Directory for per-cell cache files (created if missing); enables resuming.  Cells computed by other
        code or inputs are recomputed with a :class:`CacheWarning` (see the module docstring).  The
        directory is trusted input.
    progress : bool
        Progress on stderr (a bar on a terminal, else a line every few seconds).
    scheduler : str or distributed.Client, optional
        The dask scheduler (only with ``backend="dask"``).

    Returns
    -------
    pandas.DataFrame
        Columns: the parameters; each output (an Estimate ``x`` expands to ``x``, ``x_se``,
        ``x_ci_low``, ``x_ci_high``); ``trials``; ``seed_entropy``; ``seed_spawn_key``.
        Identical for any ``n_jobs``/backend and whether cells came from the cache.

    Raises
    ------
    ValueError
        If ``fn`` is not callable, ``trials`` is not a positive integer, ``n_jobs`` is neither a positive
        integer nor -1, ``backend`` is unknown, ``scheduler`` is given without ``backend="dask"``,
        ``progress`` is not a bool, or ``grid`` is malformed.

    Examples
    --------
    The chance of at least one six with 1 and 2 dice (exact: 1/6 and 11/36):

    >>> from pyradice_lab.engine.stats import proportion_estimate
    >>> def six(params, trials, rng):
    ...     hits = int((rng.integers(1, 7, size=(trials, params["dice"])) == 6).any(axis=1).sum())
    ...     return {"p_six": proportion_estimate(hits, trials)}
    >>> df = run_sweep(six, {"dice": [1, 2]}, trials=2000, seed=1, progress=False)
    >>> df[["dice", "p_six", "p_six_se", "trials"]].round(3)
       dice  p_six  p_six_se  trials
    0     1  0.156     0.008    2000
    1     2  0.308     0.010    2000
    """
    if not callable(fn):
        raise ValueError(f"fn must be callable, got {type(fn).__name__}")
    if isinstance(trials, bool) or not isinstance(trials, numbers.Integral) or trials <= 0:
        raise ValueError(f"trials must be a positive integer, got {trials!r}")
    execution = check_execution(n_jobs, backend, scheduler, progress=progress)
    cells = expand_grid(grid)
    trials = check_count(trials, "sweep_trials", name="trials", factor=len(cells))  # limits.COUNT_LIMITS
    root = _root_sequence(seed)
    entropy = root.entropy
    base_key = tuple(root.spawn_key)
    keys = [base_key + (i,) for i in range(len(cells))]

    cache = _Cache(_check_cache_dir(cache_dir)) if cache_dir is not None else None
    results: dict[int, dict] = {}
    names: dict[int, str] = {}
    provenances: dict[int, dict] = {}
    todo = []
    if cache is not None:
        fn_id = _fn_id(fn)
        code = {"version": __version__, "source": _source_hash(fn), "code": _code_fingerprint(fn)}
    for i, (params, key) in enumerate(zip(cells, keys)):
        if cache is not None:
            names[i] = _cell_name(fn_id, params, trials, entropy, key)
            provenances[i] = {**code, "files": _file_params(params)}
            got = cache.read(names[i], provenances[i])
            if got is not None:
                results[i] = got
                continue
        todo.append((i, params, key))
    if cache is not None:
        cache.warn()

    from .notices import announce_sweep, intro

    said = announce_sweep(fn, [params for _, params, _ in todo], trials,
                          workers=execution.n_jobs if execution.parallel else 1)
    bar = Progress(len(cells), done=len(results), enabled=bool(progress), desc=getattr(fn, "__name__", "sweep"),
                   what="cells", estimate=None if said is None else said.wall_seconds,
                   intro="" if said is None else intro(said.sentence()))
    try:
        for i, out in _iter_results(fn, todo, trials, entropy, execution):
            results[i] = out
            if cache is not None:
                cache.write(names[i], provenances[i], out)
            bar.update(1)
    finally:
        bar.close()

    rows = []
    for i, (params, key) in enumerate(zip(cells, keys)):
        rows.append({**params, **results[i], "trials": trials, "seed_entropy": entropy,
                     "seed_spawn_key": key})
    return pd.DataFrame(rows)
