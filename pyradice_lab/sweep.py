"""Parameter sweeps: a grid of cells run on joblib (loky processes or a dask cluster) into one tidy table.

Each cell ``i`` of the grid gets its own random stream ``SeedSequence(entropy, spawn_key=(i,))`` derived
from the sweep's root seed, so a cell's numbers depend only on the root seed, its position and its
parameters: never on the number of jobs, the backend, or which cells were cached.  The resulting
DataFrame carries the root entropy and spawn key of every cell, and :func:`rerun_cell` recomputes one
cell alone.

With ``cache_dir`` every finished cell is written atomically (temporary file + rename) as it arrives; a
sweep that is interrupted (Ctrl-C, SIGKILL, a lost worker) and started again computes only the missing
cells.  A cache file that is corrupt, truncated or belongs to another cell is reported with a warning
and recomputed, never used.

Examples
--------
>>> from pyradice_lab.sweep import run_sweep
>>> from pyradice_lab.stats import proportion_estimate
>>> def six(params, trials, rng):
...     hits = int((rng.integers(1, 7, size=(trials, params["dice"])) == 6).any(axis=1).sum())
...     return {"p_six": proportion_estimate(hits, trials)}
>>> df = run_sweep(six, {"dice": [1, 2]}, trials=1000, seed=1, progress=False)
>>> list(df.columns)[:3]
['dice', 'p_six', 'p_six_se']
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import json
import numbers
import os
import sys
import tempfile
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from .stats import Estimate

__all__ = ["run_sweep", "expand_grid", "rerun_cell", "cell_generator", "BACKENDS", "CacheWarning"]

BACKENDS = ("loky", "dask", "threading")
_CACHE_FORMAT = "pyradice_lab.sweep/1"


class CacheWarning(UserWarning):
    """A cache file could not be used and its cell is recomputed."""


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
    flat = {}
    for name, v in out.items():
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


def _fn_id(fn) -> str:
    return f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', repr(fn))}"


def _cache_key(fn_id: str, params: dict, trials: int, entropy, spawn_key) -> str:
    blob = json.dumps({"fn": fn_id, "params": params, "trials": trials, "entropy": entropy,
                       "spawn_key": list(spawn_key)}, sort_keys=True, default=repr)
    return hashlib.sha256(blob.encode()).hexdigest()


def _checksum(outputs: dict) -> str:
    return hashlib.sha256(json.dumps(outputs, sort_keys=True).encode()).hexdigest()


def replace_with_default_mode(tmp: str | os.PathLike, path: str | os.PathLike) -> None:
    """Rename ``tmp`` onto ``path`` atomically, first giving it the permissions a normally created file
    would have (``tempfile.mkstemp`` makes files readable by their owner only)."""
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)
    os.replace(tmp, path)


def _write_cache(path: Path, key: str, outputs: dict) -> None:
    payload = json.dumps({"format": _CACHE_FORMAT, "key": key, "outputs": outputs,
                          "checksum": _checksum(outputs)})
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
    try:
        with os.fdopen(fd, "w") as fh:
            fh.write(payload)
            fh.flush()
            os.fsync(fh.fileno())
        replace_with_default_mode(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _read_cache(path: Path, key: str) -> dict | None:
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text())
        if not isinstance(data, dict) or data.get("format") != _CACHE_FORMAT:
            raise ValueError("not a pyradice_lab sweep cache file")
        if data.get("key") != key:
            raise ValueError("written for another cell (foreign key)")
        outputs = data["outputs"]
        if not isinstance(outputs, dict) or data.get("checksum") != _checksum(outputs):
            raise ValueError("checksum mismatch")
        return outputs
    except (ValueError, KeyError, TypeError, UnicodeDecodeError, OSError) as exc:
        warnings.warn(f"ignoring unusable sweep cache file {path}: {exc}; recomputing this cell",
                      CacheWarning, stacklevel=3)
        return None


# --------------------------------------------------------------------------------------------- execution
def _run_cell(fn, params, trials, entropy, spawn_key):
    rng = cell_generator(entropy, spawn_key)
    return _flatten(fn(dict(params), trials, rng))


@contextlib.contextmanager
def _dask_client(scheduler, n_jobs: int):
    try:
        from distributed import Client, LocalCluster, get_client
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ValueError("backend='dask' needs the dask extra: pip install 'pyradice-lab[dask]'") from exc
    if scheduler is not None:
        if isinstance(scheduler, Client):
            yield scheduler
            return
        with Client(scheduler) as client:
            yield client
        return
    try:
        yield get_client()
        return
    except ValueError:
        pass
    with LocalCluster(n_workers=max(1, n_jobs), threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        yield client


def _iter_results(fn, todo, trials, entropy, n_jobs, backend, scheduler) -> Iterator[tuple[int, dict]]:
    if n_jobs == 1 and backend != "dask":
        for i, params, key in todo:
            yield i, _run_cell(fn, params, trials, entropy, key)
        return
    from joblib import Parallel, delayed, parallel_config

    def tagged(i, params, key):
        return i, _run_cell(fn, params, trials, entropy, key)

    tasks = (delayed(tagged)(i, params, key) for i, params, key in todo)
    if backend == "dask":
        with _dask_client(scheduler, n_jobs), parallel_config(backend="dask"):
            yield from Parallel(n_jobs=-1, return_as="generator_unordered")(tasks)
    else:
        with parallel_config(backend=backend, n_jobs=n_jobs):
            yield from Parallel(return_as="generator_unordered")(tasks)


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
        Must be picklable for ``n_jobs > 1`` (a module-level function).
    grid : dict of lists or list of dicts
        Cells; a dict of lists is expanded as a Cartesian product in order.
    trials : int
        Passed to ``fn`` for every cell (> 0).
    seed : int, SeedSequence or None
        Root seed; ``None`` draws fresh entropy, which is recorded in the table.
    n_jobs : int
        Number of parallel workers (1 = in this process).
    backend : {"loky", "dask", "threading"}
        ``"dask"`` runs on a ``distributed`` cluster: ``scheduler`` (an address such as
        ``"tcp://10.0.0.5:8786"`` or a ``Client``), else the current client, else a LocalCluster with
        ``n_jobs`` single-threaded workers started for this sweep.
    cache_dir : path, optional
        Directory for per-cell cache files (created if missing); enables resuming.
    progress : bool
        tqdm progress bar on stderr.

    Returns
    -------
    pandas.DataFrame
        Columns: the parameters; each output (an Estimate ``x`` expands to ``x``, ``x_se``,
        ``x_ci_low``, ``x_ci_high``); ``trials``; ``seed_entropy``; ``seed_spawn_key``.
        Identical for any ``n_jobs``/backend and whether cells came from the cache.
    """
    if not callable(fn):
        raise ValueError(f"fn must be callable, got {type(fn).__name__}")
    if isinstance(trials, bool) or not isinstance(trials, numbers.Integral) or trials <= 0:
        raise ValueError(f"trials must be a positive integer, got {trials!r}")
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, numbers.Integral) or n_jobs == 0 or n_jobs < -1:
        raise ValueError(f"n_jobs must be a positive integer or -1 (all cores), got {n_jobs!r}")
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {BACKENDS}, got {backend!r}")
    if scheduler is not None and backend != "dask":
        raise ValueError("scheduler is only used with backend='dask'")
    cells = expand_grid(grid)
    trials = int(trials)
    n_jobs = (os.cpu_count() or 1) if n_jobs == -1 else int(n_jobs)
    root = _root_sequence(seed)
    entropy = root.entropy
    base_key = tuple(root.spawn_key)
    keys = [base_key + (i,) for i in range(len(cells))]
    fn_id = _fn_id(fn)

    cache = Path(cache_dir) if cache_dir is not None else None
    if cache is not None:
        cache.mkdir(parents=True, exist_ok=True)

    results: dict[int, dict] = {}
    cache_keys: dict[int, str] = {}
    todo = []
    for i, (params, key) in enumerate(zip(cells, keys)):
        if cache is not None:
            ck = _cache_key(fn_id, params, trials, entropy, key)
            cache_keys[i] = ck
            got = _read_cache(cache / f"{ck}.json", ck)
            if got is not None:
                results[i] = got
                continue
        todo.append((i, params, key))

    bar = tqdm(total=len(cells), initial=len(results), disable=not progress, file=sys.stderr,
               desc=getattr(fn, "__name__", "sweep"), unit="cell", leave=False)
    try:
        for i, out in _iter_results(fn, todo, trials, entropy, n_jobs, backend, scheduler):
            results[i] = out
            if cache is not None:
                _write_cache(cache / f"{cache_keys[i]}.json", cache_keys[i], out)
            bar.update(1)
    finally:
        bar.close()

    rows = []
    for i, (params, key) in enumerate(zip(cells, keys)):
        rows.append({**params, **results[i], "trials": trials, "seed_entropy": entropy,
                     "seed_spawn_key": key})
    return pd.DataFrame(rows)
