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

This module holds the validation, the pool and the game blocks; the rest lives in private modules it
re-exports: ``_execution_workers`` (watchdog, loky settings, dask client), ``_execution_progress``
(:class:`Progress`) and ``_execution_blocks`` (:func:`encode`, :func:`decode`, the stored blocks).

Examples
--------
>>> from pyradice_lab.engine.execution import run_blocks
>>> run_blocks(pow, [(2, 3), (3, 2), (10, 0)], n_jobs=1)
[8, 9, 1]
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib.util
import numbers
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path

import numpy as np

from ._execution_blocks import _Blocks, decode, encode
from ._execution_progress import Progress
from ._execution_workers import (
    DASK_CONNECT_TIMEOUT,
    DASK_UNSET_WORKER_ENV,
    _call,
    _check_reachable,
    _dask_client,
    _watch_parent_from_start,
    local_cluster,
    loky_config,
    stop_worker_processes,
    watch_parent,
)
from .limits import MAX_JOBS  # the largest n_jobs accepted (a larger one is a typo, not a machine)
from .notices import announce, announcing, intro

__all__ = ["BACKENDS", "DASK_UNSET_WORKER_ENV", "local_cluster", "MAX_JOBS", "DASK_CONNECT_TIMEOUT", "Execution", "check_execution", "Pool", "run_blocks",
           "Progress", "watch_parent", "loky_config", "stop_worker_processes", "block_seeds", "game_blocks",
           "encode", "decode", "after_block_hook", "simulate_blocks", "join_frames", "generator_blocks"]

BACKENDS = ("loky", "dask", "threading")

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
        # the exception goes on to the contexts the pool entered: a dask cluster of its own then closes at once
        # on an interrupt (Ctrl-C, SIGTERM) instead of waiting for the blocks under way (issue 46)
        self._client = None
        self._stack.__exit__(*exc)

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
            sizes: Sequence[int] | None = None, unit: str = "games", code: Sequence[Callable] = (),
            cost: dict | None = None) -> list:
        """``[fn(*a) for a in args]``, computed on the pool; with ``keys`` (one JSON-able description of what
        each block *is*, seeds included) and a ``cache_dir``, finished blocks are stored and reused while the
        code of ``fn`` and of the functions ``code`` (what ``fn`` reaches by name, e.g. a game's simulation)
        is unchanged.

        ``sizes`` (games per block) feed the progress line.  ``cost``: ``{"game": ..., "policies": ...,
        "players": ..., "per_block": games played per block if not ``sizes``, "factor": games played per game
        of ``sizes`` (2 for a paired comparison)}``: the cost of the blocks still to
        compute is estimated from the game's cost table and said before any block starts
        (:func:`pyradice_lab.engine.notices.announce`: logged, and the progress display's estimate); the calls
        inside the blocks say nothing more."""
        return list(self.imap(fn, args, keys=keys, desc=desc, sizes=sizes, unit=unit, code=code, cost=cost))

    def imap(self, fn: Callable, args: Sequence[tuple], *, keys: Sequence | None = None, desc: str = "",
             sizes: Sequence[int] | None = None, unit: str = "games", code: Sequence[Callable] = (),
             cost: dict | None = None) -> Iterator:
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
        said = self._announce(desc, cost, [size(i) for i in todo]) if cost is not None and todo else None
        progress = Progress(n, desc=desc, enabled=ex.progress and n > 0, unit=unit, done=n - len(todo),
                            estimate=None if said is None else said.wall_seconds,
                            intro="" if said is None else intro(said.sentence()))
        progress.count = sum(size(i) for i in results)
        nxt = 0
        quiet = announcing()
        quiet.__enter__()
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
            quiet.__exit__(None, None, None)
            progress.close()
            if store is not None:
                store.close()

    def _announce(self, desc: str, cost: dict, sizes: list[int]):
        """Say the estimated cost of the blocks still to compute (``cost``: see :meth:`map`)."""
        cost = dict(cost)
        per_block = int(cost.pop("per_block", 0) or 0)
        factor = int(cost.pop("factor", 1))
        games = factor * (sum(sizes) if any(sizes) else per_block * len(sizes))
        workers = self.execution.n_jobs if self.execution.parallel else 1
        return announce(desc or "work", games, workers=min(workers, len(sizes)), **cost)


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
