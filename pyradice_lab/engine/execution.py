"""One execution layer: every heavy entry point cuts its work into deterministic blocks and runs them here.

A *block* is a unit of work whose result depends only on its arguments (its games' seeds are spawned from
the root seed by the games' indices, :mod:`pyradice_lab.engine.rng`).  :class:`Pool` runs blocks on one
of three backends and joins the results in block order, so the numbers never depend on the backend,
``n_jobs``, the block size or the order in which the workers finish:

``"loky"``
    joblib's loky worker processes on this machine.  Every worker watches this process from the moment it
    starts (:func:`watch_parent`): if the parent dies, even by SIGKILL, the workers exit within a second.
``"dask"``
    a ``distributed`` cluster: ``scheduler`` (an address such as ``"tcp://10.0.0.5:8786"``, reached within
    :data:`DASK_CONNECT_TIMEOUT` seconds, or a ``Client``), else the current client, else a LocalCluster of
    ``n_jobs`` single-threaded worker processes started for the call.  The blocks travel to the workers as
    data (components are pickled objects, never paths to files the workers may not have); the package must
    be installed on every worker.  An interrupted run cancels its futures.
``"threading"``
    threads of this process (the compiled kernels release the GIL).

:func:`check_execution` is the one validation path of the execution keywords (``n_jobs``, ``backend``,
``scheduler``, ``progress``, ``cache_dir``): a bad value is refused with one clear error before any work.

Resume: with ``cache_dir`` every finished block is stored in the sweep cache's signed, atomic files
(:mod:`pyradice_lab.engine.sweep`), named after what the block *is* (the entry point, its arguments, the
components' content hash, the block's seed) and used only when the code that computed it is unchanged
(:func:`~pyradice_lab.engine._sources.fingerprint`).  A killed run, rerun with the same arguments,
computes only the missing blocks and gives identical numbers.  The stored data is a plain encoding of
numbers, strings, arrays and frames (never a pickle).

Progress: :class:`Progress` draws a tqdm bar on a terminal; when stderr is not a terminal (piped, CI) it
prints one short line at most every few seconds (``done 12/40 blocks, 3,000 games, ETA 1 min``) and the
last one when the work is done.  ``progress=False`` silences it.

Examples
--------
>>> from pyradice_lab.engine.execution import run_blocks
>>> run_blocks(pow, [(2, 3), (3, 2), (10, 0)], n_jobs=1)
[8, 9, 1]
"""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import importlib.util
import json
import math
import numbers
import os
import sys
import threading
import time
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path

import numpy as np

from .limits import MAX_JOBS  # the largest n_jobs accepted (a larger one is a typo, not a machine)

__all__ = ["BACKENDS", "DASK_UNSET_WORKER_ENV", "local_cluster", "MAX_JOBS", "DASK_CONNECT_TIMEOUT", "Execution", "check_execution", "Pool", "run_blocks",
           "Progress", "watch_parent", "loky_config", "stop_worker_processes", "block_seeds", "game_blocks",
           "encode", "decode", "after_block_hook", "simulate_blocks", "join_frames", "generator_blocks"]

BACKENDS = ("loky", "dask", "threading")
#: Seconds to wait for a dask scheduler given by address before giving up with a clear error.
DASK_CONNECT_TIMEOUT = 5.0
_BLOCK_FORMAT = "pyradice_lab.engine.execution/1"
_MAX_BLOCK_FILE = 256 << 20  # bytes: a block file holds at most a few thousand games' rows

#: Called in the parent process with the block index after every block finished (and stored); tests set it to
#: simulate an interruption after ``k`` blocks.
after_block_hook: Callable[[int], None] | None = None


# --------------------------------------------------------------------------------------------- validation
@dataclasses.dataclass(frozen=True)
class Execution:
    """Validated execution keywords (see :func:`check_execution`); ``n_jobs`` is resolved (-1 -> the cores)."""

    n_jobs: int = 1
    backend: str = "loky"
    scheduler: object = None
    progress: bool = False
    cache_dir: Path | None = None

    @property
    def parallel(self) -> bool:
        """Whether blocks leave this thread (``n_jobs > 1`` or a dask cluster)."""
        return self.backend == "dask" or self.n_jobs > 1

    @property
    def processes(self) -> bool:
        """Whether blocks run in other processes (loky with ``n_jobs > 1``, or dask)."""
        return self.backend == "dask" or (self.backend == "loky" and self.n_jobs > 1)


def _dask_installed() -> bool:
    try:
        return importlib.util.find_spec("distributed") is not None
    except (ImportError, ValueError):
        return False


def check_execution(n_jobs=1, backend="loky", scheduler=None, *, progress=False, cache_dir=None) -> Execution:
    """Check the execution keywords of an entry point before any work; return them validated.

    Parameters
    ----------
    n_jobs : int
        Parallel workers: a positive integer up to :data:`MAX_JOBS`, or -1 (all cores).
    backend : {"loky", "dask", "threading"}
    scheduler : str or distributed.Client, optional
        Only with ``backend="dask"``: a ``tcp://host:port`` address is tried within
        :data:`DASK_CONNECT_TIMEOUT` seconds.
    progress : bool
    cache_dir : path, optional
        A directory for finished blocks (created if missing).

    Returns
    -------
    Execution

    Raises
    ------
    ValueError
        Naming the parameter and what it accepts: ``n_jobs`` 0, below -1, above :data:`MAX_JOBS` or not an
        integer; an unknown ``backend``; ``scheduler`` without ``backend="dask"``; ``backend="dask"`` without
        the ``distributed`` package; an unreachable scheduler; ``progress`` not a bool; an unusable
        ``cache_dir``.

    Examples
    --------
    >>> check_execution(2, "threading").n_jobs
    2
    >>> check_execution(0)
    Traceback (most recent call last):
    ...
    ValueError: n_jobs must be a positive integer up to 1024 or -1 (all cores), got 0
    """
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, numbers.Integral) or n_jobs == 0 or n_jobs < -1 \
            or n_jobs > MAX_JOBS:
        raise ValueError(f"n_jobs must be a positive integer up to {MAX_JOBS} or -1 (all cores), got {n_jobs!r}")
    if not isinstance(backend, str) or backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(map(repr, BACKENDS))}, got {backend!r}")
    if scheduler is not None and backend != "dask":
        raise ValueError(f"scheduler is only used with backend='dask', got backend={backend!r}")
    if not isinstance(progress, (bool, np.bool_)):
        raise ValueError(f"progress must be True or False, got {progress!r}")
    if backend == "dask" and not _dask_installed():
        raise ValueError("backend='dask' needs the dask extra (the distributed package): "
                         "pip install 'pyradice-lab[dask]'")
    if scheduler is not None and not hasattr(scheduler, "submit"):
        _check_reachable(scheduler)
    folder = None
    if cache_dir is not None:
        from .sweep import _check_cache_dir

        folder = _check_cache_dir(cache_dir)
    jobs = (os.cpu_count() or 1) if n_jobs == -1 else int(n_jobs)
    return Execution(jobs, backend, scheduler, bool(progress), folder)


def _check_reachable(address) -> None:
    """Fail fast (refused, unknown host, timeout) on a ``tcp://host:port`` scheduler address."""
    import socket
    from urllib.parse import urlsplit

    if not isinstance(address, str):
        raise ValueError(f"scheduler must be an address such as 'tcp://10.0.0.5:8786' or a Client, got "
                         f"{type(address).__name__}")
    parts = urlsplit(address if "://" in address else f"tcp://{address}")
    if parts.scheme != "tcp":
        return  # other transports (tls, inproc, ucx): let distributed connect
    try:
        host, port = parts.hostname, parts.port
    except ValueError:
        host = port = None
    if not host or not port:
        raise ValueError(f"scheduler must look like 'tcp://host:port', got {address!r}")
    try:
        socket.create_connection((host, port), timeout=DASK_CONNECT_TIMEOUT).close()
    except OSError as exc:
        raise ValueError(f"scheduler {address!r} could not be reached within {DASK_CONNECT_TIMEOUT:g} s "
                         f"({exc.strerror or type(exc).__name__})") from None


# --------------------------------------------------------------------------------------------- workers
_WATCHDOG: threading.Thread | None = None


def watch_parent(parent_pid: int, interval: float = 0.5, *, child: bool = False) -> None:
    """In a worker process started by ``parent_pid``: exit as soon as that parent is gone.

    Run when loky workers start (``child=True``: this process is known to be a child of ``parent_pid``, so
    a different parent means it has already died) and at the start of every task sent to worker processes,
    so a run killed with SIGKILL leaves no worker computing for nobody.  Without ``child`` it does nothing in
    the parent itself or in processes that are not its direct children (dask workers belong to their own
    cluster)."""
    global _WATCHDOG
    if _WATCHDOG is not None or os.getpid() == parent_pid:
        return
    if os.getppid() != parent_pid:
        if child:
            os._exit(1)
        return

    def run() -> None:
        while True:
            time.sleep(interval)
            if os.getppid() != parent_pid:
                os._exit(1)

    _WATCHDOG = threading.Thread(target=run, name="pyradice-lab-parent-watchdog", daemon=True)
    _WATCHDOG.start()


def _allow_carried_memos() -> None:
    """Let a loky worker hold the solver memos it carries across tasks (up to ``limits.max_memo_bytes()``).

    When psutil is installed, loky restarts a worker whose memory grew by more than 300 MB since its first
    task, as a leak ("A worker stopped while some jobs were given to the executor"); a carried memo
    (Purramid's exact solver) grows that much by design, and the restart threw it away.  The allowance becomes
    loky's own plus the memo limit, so real leaks are still caught."""
    from joblib.externals.loky import process_executor

    from .limits import max_memo_bytes

    default = getattr(process_executor, "_PYRADICE_LAB_DEFAULT_LEAK_SIZE", process_executor._MAX_MEMORY_LEAK_SIZE)
    process_executor._PYRADICE_LAB_DEFAULT_LEAK_SIZE = default
    process_executor._MAX_MEMORY_LEAK_SIZE = default + max_memo_bytes()


def _watch_parent_from_start(parent_pid: int) -> None:
    watch_parent(parent_pid, child=True)
    _allow_carried_memos()


def loky_config(n_jobs: int):
    """``joblib.parallel_config`` for loky worker processes that watch this process (:func:`watch_parent`)
    from the moment they start."""
    from joblib import parallel_config

    return parallel_config(backend="loky", n_jobs=n_jobs, initializer=_watch_parent_from_start,
                           initargs=(os.getpid(),))


def stop_worker_processes() -> None:
    """Kill joblib's loky worker processes now (after an interruption; they would finish their tasks)."""
    try:
        from joblib.externals.loky import reusable_executor
    except ImportError:  # pragma: no cover - joblib always ships loky
        return
    executor = getattr(reusable_executor, "_executor", None)
    if executor is not None:
        with contextlib.suppress(Exception):
            executor.shutdown(wait=False, kill_workers=True)


@contextlib.contextmanager
def _dask_client(scheduler, n_jobs: int):
    if scheduler is not None and not hasattr(scheduler, "submit"):
        _check_reachable(scheduler)  # before importing distributed (seconds)
    try:
        from distributed import Client, get_client
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ValueError("backend='dask' needs the dask extra: pip install 'pyradice-lab[dask]'") from exc
    if scheduler is not None:
        if isinstance(scheduler, Client):
            yield scheduler
            return
        try:
            client = Client(scheduler, timeout=DASK_CONNECT_TIMEOUT)
        except (OSError, TimeoutError) as exc:
            raise ValueError(f"scheduler {scheduler!r} could not be reached within {DASK_CONNECT_TIMEOUT:g} s "
                             f"({type(exc).__name__})") from None
        with client:
            yield client
        return
    try:
        yield get_client()
        return
    except ValueError:
        pass
    with local_cluster(n_jobs) as cluster, Client(cluster) as client:
        yield client


#: Environment variables dask's nanny sets in every worker process it spawns
#: (``distributed.nanny.pre-spawn-environ``) that :func:`local_cluster` leaves unset. dask sets
#: ``MALLOC_TRIM_THRESHOLD_=65536`` to return freed memory to the system quickly; our blocks free and
#: re-allocate many mid-sized numpy/pandas buffers, and with that setting the same Rocking Raft robustness
#: block ran 2.7x slower (1.2 s against 0.45 s; the same factor with the variable set in a plain process).
DASK_UNSET_WORKER_ENV = ("MALLOC_TRIM_THRESHOLD_",)


@contextlib.contextmanager
def local_cluster(n_workers: int = 2, **kwargs):
    """A dask ``LocalCluster`` of ``n_workers`` single-threaded worker processes, as ``backend="dask"``
    starts when no ``scheduler`` is given: no dashboard, and without dask's ``MALLOC_TRIM_THRESHOLD_``
    in the workers (:data:`DASK_UNSET_WORKER_ENV`). Keyword arguments go to ``LocalCluster``.

    Workers you start yourself (``dask worker``) get that variable from their nanny unless the dask
    configuration unsets it (``distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_: null``, see the
    "Running on a cluster" page); without that, expect blocks to run up to about 2.7x slower.

    Leaving the ``with`` block normally waits (up to 30 s) for blocks still running on the workers, then
    closes them without dask's shutdown tracebacks (:func:`_settle_workers`).  In a script, start it under
    ``if __name__ == "__main__":``: dask starts each worker process by importing the script again."""
    import dask
    from distributed import LocalCluster

    options = {"n_workers": max(1, int(n_workers)), "threads_per_worker": 1, "processes": True,
               "dashboard_address": None, **kwargs}
    if "dashboard_address" not in kwargs and "scheduler_kwargs" not in kwargs:
        # without a dashboard the scheduler still serves its HTTP routes, on port 8787 by default ("Port 8787
        # is already in use" when another cluster runs): a free port of this machine instead
        options["scheduler_kwargs"] = {"dashboard": False, "dashboard_address": "127.0.0.1:0"}
    unset = {f"distributed.nanny.pre-spawn-environ.{name}": None for name in DASK_UNSET_WORKER_ENV}
    with dask.config.set(unset), LocalCluster(**options) as cluster:
        finished = False
        try:
            yield cluster
            finished = True
        finally:
            _settle_workers(cluster, _SETTLE_TIMEOUT if finished else 0.0)


#: Seconds a :func:`local_cluster` that is closed normally waits for blocks still running on its workers
#: (cancelled ones, e.g. the rest of a wave once ``compare(until=...)`` has its answer) before closing them.
_SETTLE_TIMEOUT = 30.0


def _settle_workers(cluster, timeout: float) -> None:
    """Before ``cluster`` closes: let its workers finish the blocks still running (up to ``timeout`` s) and
    stop their heartbeats.

    dask closes a worker by cancelling what it runs ("Async instruction ... ended with CancelledError") and
    then closing its connections, and a heartbeat to the scheduler that is under way at that moment fails
    with a logged traceback ("Failed to communicate with scheduler during heartbeat"; a race in
    ``distributed``, seen in about 1 of 6 closes of a 2-worker cluster on a busy machine).  Neither means
    anything went wrong; this makes the close quiet.  Best effort: any error here is ignored."""
    from distributed import Client

    with contextlib.suppress(Exception), \
            Client(cluster, timeout=DASK_CONNECT_TIMEOUT, set_as_default=False) as client:
        client.run(_settle_worker, float(timeout), on_error="ignore")


async def _settle_worker(timeout: float, dask_worker=None) -> None:
    """In a dask worker (``Client.run``): wait until no task runs (up to ``timeout`` s), stop the heartbeat,
    then wait (up to 2 s) for a heartbeat under way to come back."""
    import asyncio

    end = time.monotonic() + timeout
    while dask_worker.state.executing and time.monotonic() < end:
        await asyncio.sleep(0.05)
    heartbeat = dask_worker.periodic_callbacks.get("heartbeat")
    if heartbeat is not None:
        heartbeat.stop()
    end = time.monotonic() + 2.0
    while dask_worker.rpc.active and time.monotonic() < end:
        await asyncio.sleep(0.01)


def _call(fn, i, args, parent_pid=None):
    if parent_pid is not None:
        watch_parent(parent_pid)
    return i, fn(*args)


# --------------------------------------------------------------------------------------------- progress
def _duration(seconds: float) -> str:
    if not math.isfinite(seconds):
        return "?"
    if seconds < 90:
        return f"{max(seconds, 0):.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


class Progress:
    """Progress over blocks: a tqdm bar on a terminal, else a short line on stderr at most every ``every``
    seconds, e.g. ``done 12/40 blocks, 3,000 games, ETA 1 min``, and a last one when done; nothing when
    disabled.

    Examples
    --------
    >>> import io
    >>> out = io.StringIO()
    >>> with Progress(2, desc="demo", unit="games", file=out, tty=False, every=0) as p:
    ...     p.update(games=10)
    ...     p.update(games=10)
    >>> out.getvalue().splitlines()[-1]
    'demo: done 2/2 blocks, 20 games'
    """

    def __init__(self, total: int, *, desc: str = "", enabled: bool = True, unit: str = "games", done: int = 0,
                 file=None, tty: bool | None = None, every: float = 5.0, what: str = "blocks"):
        self.total, self.desc, self.unit, self.enabled, self.what = int(total), desc, unit, bool(enabled), what
        self.done, self.count, self.every = int(done), 0, float(every)
        self.file = file if file is not None else sys.stderr
        self.started = self.last = time.monotonic()
        self.bar = None
        if not self.enabled:
            return
        if tty is None:
            tty = bool(getattr(self.file, "isatty", lambda: False)())
        if tty:
            try:
                from tqdm.auto import tqdm
            except ImportError:  # pragma: no cover - tqdm is a dependency
                tqdm = None
            if tqdm is not None:
                self.bar = tqdm(total=self.total, initial=self.done, desc=desc, unit=what.rstrip("s"),
                                leave=False, file=self.file)

    def update(self, blocks: int = 1, games: int = 0) -> None:
        """``blocks`` more blocks finished, holding ``games`` games (or other units)."""
        self.done += blocks
        self.count += games
        if not self.enabled:
            return
        if self.bar is not None:
            self.bar.update(blocks)
            return
        now = time.monotonic()
        # a line at most every ``every`` seconds, and the last one when done
        if now - self.last >= self.every or self.done >= self.total:
            self.last = now
            self.file.write(self.line() + "\n")
            self.file.flush()

    def line(self) -> str:
        text = f"{self.desc + ': ' if self.desc else ''}done {self.done}/{self.total} {self.what}"
        if self.count:
            text += f", {self.count:,} {self.unit}"
        if 0 < self.done < self.total:
            rate = (time.monotonic() - self.started) / self.done
            text += f", ETA {_duration(rate * (self.total - self.done))}"
        return text

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


# --------------------------------------------------------------------------------------------- stored blocks
def encode(obj):
    """A JSON-able, exact description of a block's result: numbers, strings, lists, tuples, dicts, numpy
    arrays (their bytes), pandas frames and series (their columns and attrs); :func:`decode` rebuilds it.

    Examples
    --------
    >>> import numpy as np
    >>> x = {"a": np.arange(3.0) / 3, "b": ("x", 1)}
    >>> y = decode(encode(x))
    >>> bool((y["a"] == x["a"]).all()), y["b"]
    (True, ('x', 1))
    """
    import pandas as pd

    if obj is None or isinstance(obj, (bool, str)):
        return obj
    if isinstance(obj, numbers.Integral) and not isinstance(obj, np.generic):
        return int(obj)
    if isinstance(obj, float):
        return {"f": obj.hex()}
    if isinstance(obj, np.generic):
        return {"s": encode(np.asarray(obj))}
    if isinstance(obj, np.ndarray):
        if obj.dtype.kind in "biufcmM":
            # the memory order is kept (a sum over an axis adds in memory order: its last bits depend on it)
            order = "F" if obj.ndim > 1 and obj.flags.f_contiguous and not obj.flags.c_contiguous else "C"
            out = {"nd": obj.dtype.str, "shape": list(obj.shape), "b": base64.b64encode(obj.tobytes(order)).decode()}
            if order == "F":
                out["order"] = "F"
            return out
        if obj.dtype.kind == "U":
            return {"ndU": obj.tolist(), "dtype": obj.dtype.str}
        return {"ndO": [encode(v) for v in obj.ravel().tolist()], "shape": list(obj.shape)}
    if isinstance(obj, pd.DataFrame):
        if not isinstance(obj.index, pd.RangeIndex) or obj.index.start != 0 or obj.index.step != 1:
            raise TypeError("only frames with a default index are stored")
        return {"df": [[encode(c), _encode_column(obj[c])] for c in obj.columns], "n": len(obj),
                "attrs": encode(dict(obj.attrs))}
    if isinstance(obj, pd.Series):
        return {"series": _encode_column(obj), "name": encode(obj.name)}
    if isinstance(obj, tuple):
        return {"t": [encode(v) for v in obj]}
    if isinstance(obj, list):
        return [encode(v) for v in obj]
    if isinstance(obj, dict):
        return {"d": [[encode(k), encode(v)] for k, v in obj.items()]}
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type) and type(obj).__module__.startswith("pyradice_lab"):
        return {"dc": f"{type(obj).__module__}:{type(obj).__qualname__}",
                "f": [[f.name, encode(getattr(obj, f.name))] for f in dataclasses.fields(obj) if f.init]}
    raise TypeError(f"cannot store a {type(obj).__name__} in a block file")


def _encode_column(s):
    import pandas as pd

    if isinstance(s.dtype, pd.CategoricalDtype):
        return {"cat": encode(np.asarray(s.cat.categories)), "codes": encode(s.cat.codes.to_numpy()),
                "ordered": bool(s.cat.ordered)}
    if isinstance(s.dtype, np.dtype) and s.dtype.kind in "biufcmM":
        return {"a": encode(s.to_numpy())}
    return {"o": [encode(v) for v in s.tolist()], "dtype": str(s.dtype)}


def _decode_column(c, n=None):
    import pandas as pd

    if "cat" in c:
        return pd.Categorical.from_codes(decode(c["codes"]), categories=decode(c["cat"]), ordered=c["ordered"])
    if "a" in c:
        return decode(c["a"])
    values = [decode(v) for v in c["o"]]
    if c["dtype"] == "object":
        out = np.empty(len(values), dtype=object)
        out[:] = values
        return out
    return pd.array(values, dtype=c["dtype"])


def decode(data):
    """The object :func:`encode` described."""
    import pandas as pd

    if data is None or isinstance(data, (bool, str, int)):
        return data
    if isinstance(data, list):
        return [decode(v) for v in data]
    if "f" in data and len(data) == 1:
        return float.fromhex(data["f"])
    if "s" in data:
        return decode(data["s"])[()]
    if "nd" in data:
        raw = base64.b64decode(data["b"].encode(), validate=True)
        order = data.get("order", "C")
        return np.frombuffer(raw, dtype=np.dtype(data["nd"])).reshape(data["shape"], order=order).copy(order=order)
    if "ndU" in data:
        return np.array(data["ndU"], dtype=np.dtype(data["dtype"]))
    if "ndO" in data:
        out = np.empty(len(data["ndO"]), dtype=object)
        out[:] = [decode(v) for v in data["ndO"]]
        return out.reshape(data["shape"])
    if "df" in data:
        df = pd.DataFrame({decode(k): _decode_column(c) for k, c in data["df"]}, index=pd.RangeIndex(data["n"]))
        df.attrs.update(decode(data["attrs"]))
        return df
    if "series" in data:
        return pd.Series(_decode_column(data["series"]), name=decode(data["name"]))
    if "t" in data:
        return tuple(decode(v) for v in data["t"])
    if "d" in data:
        return {decode(k): decode(v) for k, v in data["d"]}
    if "dc" in data:
        module, name = data["dc"].split(":")
        if not module.startswith("pyradice_lab."):
            raise ValueError(f"not a pyradice_lab type: {module}")
        cls = importlib.import_module(module)
        for part in name.split("."):
            cls = getattr(cls, part)
        if not dataclasses.is_dataclass(cls):
            raise ValueError(f"{data['dc']} is not a dataclass")
        return cls(**{k: decode(v) for k, v in data["f"]})
    raise ValueError("not a stored block")


class _Blocks:
    """Finished blocks in a cache directory (the sweep cache's signed atomic files)."""

    def __init__(self, folder: Path, fn, keys: Sequence, code: Sequence = ()):
        from ._version import __version__
        from .sweep import _Cache, _canonical, _code_fingerprint, _fn_id, _sha, _source_hash

        self.cache = _Cache(folder)
        self.cache.max_bytes = _MAX_BLOCK_FILE
        fn_id = _fn_id(fn)
        # the block function's code and the code it reaches by name (a game's simulation through the registry)
        self.provenance = {"version": __version__, "source": _source_hash(fn),
                           "code": [_code_fingerprint(f) for f in (fn, *code)]}
        self.names = [_sha(json.dumps({"format": _BLOCK_FORMAT, "fn": fn_id, "key": _canonical(k)}, sort_keys=True))
                      for k in keys]

    def read(self, i: int):
        got = self.cache.read(self.names[i], self.provenance)
        if got is None:
            return False, None
        try:
            return True, decode(json.loads(zlib.decompress(base64.b64decode(got["block"].encode(), validate=True))))
        except Exception as exc:  # noqa: BLE001 - an undecodable block is recomputed
            self.cache.note(f"could not be decoded ({type(exc).__name__})", self.names[i])
            return False, None

    def write(self, i: int, result) -> None:
        try:
            text = json.dumps(encode(result), separators=(",", ":"))
        except TypeError:
            return  # a result this format cannot hold is simply not stored
        data = base64.b64encode(zlib.compress(text.encode(), 6)).decode()
        self.cache.write(self.names[i], self.provenance, {"block": data})

    def close(self) -> None:
        self.cache.warn()


# --------------------------------------------------------------------------------------------- the pool
class Pool:
    """Run blocks on one backend; results joined in block order (see the module docstring).

    A pool keeps its workers (loky's reusable executor, a dask client and its LocalCluster) for every call
    made inside its ``with`` block, so an entry point that runs several rounds (``balance``) or waves
    (``compare(until=...)``) starts them once.

    Parameters
    ----------
    n_jobs, backend, scheduler, progress, cache_dir
        As :func:`check_execution` (or pass ``execution``, an already validated :class:`Execution`).

    Examples
    --------
    >>> with Pool(2, "threading") as pool:
    ...     pool.map(divmod, [(7, 2), (9, 4)])
    [(3, 1), (2, 1)]
    """

    def __init__(self, n_jobs=1, backend="loky", scheduler=None, *, progress=False, cache_dir=None,
                 execution: Execution | None = None):
        self.execution = execution if execution is not None else check_execution(
            n_jobs, backend, scheduler, progress=progress, cache_dir=cache_dir)
        self._stack = contextlib.ExitStack()
        self._client = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self) -> None:
        self._client = None
        self._stack.close()

    def _dask(self):
        if self._client is None:
            ex = self.execution
            self._client = self._stack.enter_context(_dask_client(ex.scheduler, ex.n_jobs))
        return self._client

    def imap_unordered(self, fn: Callable, tasks: Iterable[tuple[int, tuple]]) -> Iterator[tuple[int, object]]:
        """``(i, fn(*args))`` for every ``(i, args)`` of ``tasks``, as the blocks finish."""
        ex = self.execution
        tasks = list(tasks)
        if not tasks:
            return
        if not ex.parallel or len(tasks) == 1 and ex.backend != "dask":
            for i, args in tasks:
                yield i, fn(*args)
            return
        if ex.backend == "dask":
            from distributed import as_completed

            client = self._dask()
            futures = [client.submit(_call, fn, i, args, pure=False) for i, args in tasks]
            try:
                for fut in as_completed(futures):
                    yield fut.result()
            finally:  # an interrupted (or abandoned) run leaves nothing computing on the cluster
                pending = [f for f in futures if not f.done()]
                if pending:
                    with contextlib.suppress(Exception):
                        client.cancel(pending)
            return
        if ex.backend == "threading":
            from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait

            pool = ThreadPoolExecutor(max_workers=min(ex.n_jobs, len(tasks)), thread_name_prefix="pyradice-lab")
            try:
                pending = {pool.submit(_call, fn, i, args) for i, args in tasks}
                while pending:
                    finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                    for fut in finished:
                        yield fut.result()
            finally:
                for fut in pending:
                    fut.cancel()
                pool.shutdown(wait=True)
            return
        from joblib import Parallel, delayed

        parent = os.getpid()
        try:
            with loky_config(min(ex.n_jobs, len(tasks))):
                yield from Parallel(return_as="generator_unordered")(
                    delayed(_call)(fn, i, args, parent) for i, args in tasks)
        except BaseException:
            stop_worker_processes()  # now, not after the blocks under way have finished
            raise

    def imap_scheduled(self, fn: Callable, tasks: Iterable[tuple[object, tuple]],
                       then: Callable[[object, object], Iterable[tuple[object, tuple]]], *,
                       priority: Callable[[object], float] | None = None) -> Iterator[tuple[object, object]]:
        """``(key, fn(*args))`` as the tasks finish, for ``tasks`` and every task that ``then`` adds.

        A task graph built as it runs: after each task, ``then(key, result)`` (called in this process) returns
        the tasks that may start now (e.g. the work that a finished result shows to be needed, or that waited
        for it).  At most ``n_jobs`` tasks are in flight, so the order is the caller's: a task of smaller
        ``priority(key)`` (default: all equal) starts first; among equal priorities the tasks that ``then``
        returns start before the ones still waiting, otherwise the order given.  Each task seeds itself, so the
        numbers never depend on which worker ran it or when."""
        import heapq
        import itertools

        if priority is not None and not callable(priority):
            raise TypeError(f"priority must be a function of a task's key or None, got {type(priority).__name__}")
        ex = self.execution
        rank = priority or (lambda key: 0)
        later, sooner = itertools.count(), itertools.count(-1, -1)
        queue: list = []

        def push(new, seqs):  # (priority, sequence number): unique, so the keys are never compared
            for (key, args), seq in zip(new, seqs):
                heapq.heappush(queue, (rank(key), seq, key, args))

        def add(new):
            new = list(new)
            push(new, reversed([next(sooner) for _ in new]))  # the new tasks first, in their own order

        def pop():
            return heapq.heappop(queue)[2:]

        tasks = list(tasks)
        push(tasks, [next(later) for _ in tasks])
        if not ex.parallel:
            while queue:
                key, args = pop()
                out = fn(*args)
                yield key, out
                add(then(key, out))
            return
        if ex.backend == "dask":
            from distributed import as_completed

            client = self._dask()
            submit = lambda key, args: client.submit(_call, fn, key, args, pure=False)  # noqa: E731
        elif ex.backend == "threading":
            from concurrent.futures import ThreadPoolExecutor

            pool = self._stack.enter_context(ThreadPoolExecutor(max_workers=ex.n_jobs,
                                                                thread_name_prefix="pyradice-lab"))
            submit = lambda key, args: pool.submit(_call, fn, key, args)  # noqa: E731
        else:  # loky worker processes of this call's own (joblib's reusable executor is left to joblib)
            from joblib.externals.loky import ProcessPoolExecutor

            parent = os.getpid()
            executor = ProcessPoolExecutor(max_workers=ex.n_jobs, initializer=_watch_parent_from_start,
                                           initargs=(parent,))
            submit = lambda key, args: executor.submit(_call, fn, key, args, parent)  # noqa: E731
        running: set = set()
        try:
            while queue or running:
                while queue and len(running) < ex.n_jobs:
                    running.add(submit(*pop()))
                if ex.backend == "dask":
                    fut = next(iter(as_completed(list(running))))
                    finished = {fut}
                else:
                    from concurrent.futures import FIRST_COMPLETED, wait

                    finished, _ = wait(running, return_when=FIRST_COMPLETED)
                for fut in finished:
                    running.discard(fut)
                    key, out = fut.result()
                    yield key, out
                    add(then(key, out))
        except BaseException:
            if ex.backend == "loky":
                executor.shutdown(wait=False, kill_workers=True)  # now, not after the tasks under way
                executor = None
            elif ex.backend == "dask":
                with contextlib.suppress(Exception):
                    client.cancel(list(running))
            else:
                for fut in running:
                    fut.cancel()
            raise
        finally:
            if ex.backend == "loky" and executor is not None:
                executor.shutdown(wait=True)

    def map(self, fn: Callable, args: Sequence[tuple], *, keys: Sequence | None = None, desc: str = "",
            sizes: Sequence[int] | None = None, unit: str = "games", code: Sequence[Callable] = ()) -> list:
        """``[fn(*a) for a in args]``, computed on the pool; with ``keys`` (one JSON-able description of what
        each block *is*, seeds included) and a ``cache_dir``, finished blocks are stored and reused while the
        code of ``fn`` and of the functions ``code`` (what ``fn`` reaches by name, e.g. a game's simulation)
        is unchanged.

        ``sizes`` (games per block) feed the progress line."""
        return list(self.imap(fn, args, keys=keys, desc=desc, sizes=sizes, unit=unit, code=code))

    def imap(self, fn: Callable, args: Sequence[tuple], *, keys: Sequence | None = None, desc: str = "",
             sizes: Sequence[int] | None = None, unit: str = "games", code: Sequence[Callable] = ()) -> Iterator:
        """As :meth:`map`, yielding the results in block order as soon as each is available."""
        ex = self.execution
        args = list(args)
        n = len(args)
        store = None
        if ex.cache_dir is not None and keys is not None:
            if len(keys) != n:
                raise ValueError("keys must give one key per block")
            store = _Blocks(ex.cache_dir, fn, keys, code)
        results: dict[int, object] = {}
        todo = []
        for i in range(n):
            if store is not None:
                hit, value = store.read(i)
                if hit:
                    results[i] = value
                    continue
            todo.append(i)
        if store is not None:
            store.cache.warn()
        size = (lambda i: int(sizes[i])) if sizes is not None else (lambda i: 0)
        progress = Progress(n, desc=desc, enabled=ex.progress and n > 0, unit=unit, done=n - len(todo))
        progress.count = sum(size(i) for i in results)
        nxt = 0
        try:
            while nxt < n and nxt in results:
                yield results.pop(nxt)
                nxt += 1
            for i, out in self.imap_unordered(fn, ((i, args[i]) for i in todo)):
                if store is not None:
                    store.write(i, out)
                results[i] = out
                progress.update(1, size(i))
                if after_block_hook is not None:
                    after_block_hook(i)
                while nxt < n and nxt in results:
                    yield results.pop(nxt)
                    nxt += 1
        finally:
            progress.close()
            if store is not None:
                store.close()


def run_blocks(fn: Callable, args: Sequence[tuple], *, n_jobs=1, backend="loky", scheduler=None, progress=False,
               cache_dir=None, keys: Sequence | None = None, desc: str = "", sizes: Sequence[int] | None = None,
               execution: Execution | None = None) -> list:
    """``[fn(*a) for a in args]`` on ``n_jobs`` workers of ``backend``, in block order (see :class:`Pool`).

    Examples
    --------
    >>> run_blocks(divmod, [(7, 2), (9, 4)], n_jobs=2, backend="threading")
    [(3, 1), (2, 1)]
    """
    with Pool(n_jobs, backend, scheduler, progress=progress, cache_dir=cache_dir, execution=execution) as pool:
        return pool.map(fn, args, keys=keys, desc=desc, sizes=sizes)


# --------------------------------------------------------------------------------------------- seeds
def _is_stateful(rng) -> bool:
    return isinstance(rng, (np.random.SeedSequence, np.random.Generator, np.random.BitGenerator))


def game_blocks(n: int, block: int) -> list[tuple[int, int]]:
    """``(start, stop)`` of the blocks of ``block`` games covering ``range(n)`` (the last one shorter).

    >>> game_blocks(5, 2)
    [(0, 2), (2, 4), (4, 5)]
    """
    from .rng import block_ranges

    return list(block_ranges(n, block))


def block_seeds(rng, n: int, block: int) -> list[tuple[int, int, np.random.SeedSequence]]:
    """Per block of games ``(start, stop, seed)``: ``seed.spawn(stop - start)`` are exactly the children
    ``start..stop-1`` of ``seed_sequence(rng).spawn(n)``, game ``i``'s seed as in every ``simulate_games``.

    The root is advanced by ``n`` children, as one ``spawn(n)`` would (a Generator given twice spawns new
    games the second time).

    Examples
    --------
    >>> [(a, b) for a, b, _ in block_seeds(1, 5, 2)]
    [(0, 2), (2, 4), (4, 5)]
    >>> s = block_seeds(1, 5, 2)[1][2].spawn(2)
    >>> [c.spawn_key for c in s] == [c.spawn_key for c in np.random.SeedSequence(1).spawn(5)[2:4]]
    True
    """
    from .rng import seed_sequence

    stateful = _is_stateful(rng)
    root = seed_sequence(rng, name="rng")
    base = root.n_children_spawned
    out = []
    for start, stop in game_blocks(n, block):
        out.append((start, stop, np.random.SeedSequence(root.entropy, spawn_key=root.spawn_key,
                                                        pool_size=root.pool_size, n_children_spawned=base + start)))
    if stateful:
        for start, stop in game_blocks(n, 65536):  # advance the caller's counter, a bounded piece at a time
            root.spawn(stop - start)
    return out


# --------------------------------------------------------------------------------------------- games in blocks
def join_frames(parts: list, starts: list[int]):
    """Frames of consecutive blocks of games as one frame: ``game`` renumbered from each block's start, the
    first block's ``attrs``."""
    import pandas as pd

    frames = []
    for df, start in zip(parts, starts):
        if "game" in df:
            df = df.assign(game=df["game"].to_numpy() + start)
        frames.append(df)
    out = pd.concat(frames, ignore_index=True)
    out.attrs = dict(parts[0].attrs)
    return out


def _key_value(v):
    """What a block key records of an argument: components by their content hash."""
    h = getattr(v, "content_hash", None)
    if callable(h):
        return {"components": h()}
    if isinstance(v, (list, tuple)):
        return [_key_value(x) for x in v]
    return v


def _game_block(fn, size: int, rng, kwargs: dict):
    return fn(size, rng=rng, **kwargs)


def simulate_blocks(fn: Callable, n_games: int, rng, kwargs: dict, execution: Execution, *, chunk: int,
                    desc: str = "games", blocks: Callable = block_seeds, join: Callable = join_frames):
    """Play ``n_games`` games of ``fn`` (a game's ``simulate_games``) as blocks on ``execution``.

    Block ``k`` plays games ``start..stop-1`` as ``fn(stop - start, rng=<block rng>, **kwargs)``, where
    ``blocks(rng, n_games, block)`` gives each block's ``(start, stop, rng)`` such that the block plays exactly
    the games a single call would (:func:`block_seeds`: game ``i``'s seed is child ``i`` of the root);
    ``join(results, starts)`` joins them.  Blocks are whole multiples of ``chunk`` games (the game's own
    batch), so the numbers are those of one call with any backend, ``n_jobs`` or block size.
    """
    workers = max(1, execution.n_jobs)
    per = -(-n_games // (4 * workers))            # about four blocks per worker: balanced, few transfers
    block = max(chunk, -(-per // chunk) * chunk)
    plan = blocks(rng, n_games, block)
    args = [(fn, stop - start, brng, kwargs) for start, stop, brng in plan]
    shown = {k: _key_value(v) for k, v in kwargs.items()}
    keys = [{"entry": f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', '?')}", "games": stop - start,
             "start": start, "rng": _rng_key(brng), "kwargs": shown} for start, stop, brng in plan]
    with Pool(execution=execution) as pool:
        parts = pool.map(_game_block, args, keys=keys, desc=desc, sizes=[stop - start for start, stop, _ in plan],
                         code=[fn])
    return join(parts, [start for start, _, _ in plan])


def _rng_key(rng):
    if isinstance(rng, np.random.SeedSequence):
        return {"entropy": rng.entropy, "spawn_key": list(rng.spawn_key), "children": rng.n_children_spawned}
    if isinstance(rng, np.random.Generator):
        return {"state": rng.bit_generator.state}
    return rng


def generator_blocks(draw: Callable, chunk: int) -> Callable:
    """A ``blocks`` function for :func:`simulate_blocks` for a game that draws every chunk of games from one
    Generator (``draw(gen, m)`` consumes what ``m`` games consume): each block gets a Generator whose state is
    the one the single call's Generator has at that block's first game; the caller's Generator ends where a
    single call leaves it."""
    from .rng import as_generator

    def blocks(rng, n: int, block: int):
        gen = as_generator(rng)
        out = []
        for start, stop in game_blocks(n, block):
            state = gen.bit_generator.state
            brng = np.random.Generator(type(gen.bit_generator)())
            brng.bit_generator.state = state
            out.append((start, stop, brng))
            for a, b in game_blocks(stop - start, chunk):
                draw(gen, b - a)
        return out

    return blocks
