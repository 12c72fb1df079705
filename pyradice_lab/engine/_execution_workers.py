"""The worker processes of :mod:`pyradice_lab.engine.execution`: the parent watchdog, loky's settings, the
dask client and local cluster, the call a worker runs (re-exported by
:mod:`pyradice_lab.engine.execution`).
"""

from __future__ import annotations

import contextlib
import os
import threading
import time

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


#: Seconds to wait for a dask scheduler given by address before giving up with a clear error.
DASK_CONNECT_TIMEOUT = 5.0


#: The transports a dask scheduler address may name (``distributed.comm``'s registry).
DASK_TRANSPORTS = ("tcp", "tls", "inproc", "ucx", "ws", "wss")

#: A dask scheduler greets a new connection with its handshake: one message whose first 8 bytes are the length of
#: its frames, a few hundred bytes.  A first message longer than this is not a dask scheduler's (an SSH or SMTP
#: banner read as a length asks for exabytes: dask itself fails with a MemoryError).
DASK_HANDSHAKE_MAX = 1 << 20


def _check_reachable(address) -> None:
    """Fail fast on a scheduler address that is malformed, names no dask transport, cannot be reached (refused,
    unknown host, timeout) or, for ``tcp://``, is not a dask scheduler: a bounded handshake reads the first 8
    bytes the server sends (within :data:`DASK_CONNECT_TIMEOUT`) and checks they announce a dask handshake of at
    most :data:`DASK_HANDSHAKE_MAX` bytes, so a port that speaks another protocol (an SSH or SMTP banner, an HTTP
    server waiting for a request) gets one clear error naming ``scheduler`` instead of dask's MemoryError."""
    import socket
    import struct
    from urllib.parse import urlsplit

    if not isinstance(address, str):
        raise ValueError(f"scheduler must be an address such as 'tcp://10.0.0.5:8786' or a Client, got "
                         f"{type(address).__name__}")
    parts = urlsplit(address if "://" in address else f"tcp://{address}")
    if parts.scheme not in DASK_TRANSPORTS:
        raise ValueError(f"scheduler must be a dask address '<transport>://host:port' with a transport of "
                         f"{', '.join(DASK_TRANSPORTS)} (e.g. 'tcp://10.0.0.5:8786'), got {address!r:.200}")
    if parts.scheme != "tcp":
        return  # other transports (tls, inproc, ucx, ws): let distributed connect
    try:
        host, port = parts.hostname, parts.port
    except ValueError:
        host = port = None
    if not host or not port:
        raise ValueError(f"scheduler must look like 'tcp://host:port', got {address!r:.200}")
    try:
        conn = socket.create_connection((host, port), timeout=DASK_CONNECT_TIMEOUT)
    except OSError as exc:
        raise ValueError(f"scheduler {address!r} could not be reached within {DASK_CONNECT_TIMEOUT:g} s "
                         f"({exc.strerror or type(exc).__name__})") from None
    head = b""
    with conn:
        try:
            while len(head) < 8:
                chunk = conn.recv(8 - len(head))
                if not chunk:
                    break
                head += chunk
        except OSError:  # timeout: the server waits for the client to speak first (dask's does not)
            pass
    size = struct.unpack("Q", head)[0] if len(head) == 8 else None
    if size is None or not 0 < size <= DASK_HANDSHAKE_MAX:
        seen = f"it sent {head!r}" if head else f"it sent nothing within {DASK_CONNECT_TIMEOUT:g} s"
        raise ValueError(f"scheduler {address!r} is not a dask scheduler: {seen} where a dask scheduler sends its "
                         "handshake (check the host and port of 'dask scheduler')")


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
        except (OSError, TimeoutError, ValueError, MemoryError) as exc:
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
            if finished:
                _settle_workers(cluster, _SETTLE_TIMEOUT)
            else:
                _kill_workers(cluster)  # an interrupt: nothing to keep of the blocks under way


def _kill_workers(cluster) -> None:
    """Kill the worker processes of ``cluster`` now (an interrupted run), so that none outlives the run by the
    seconds dask's nannies give a worker to stop; the nannies do not restart them.  Best effort."""
    import signal

    for nanny in list(getattr(cluster, "workers", {}).values()):
        with contextlib.suppress(Exception):
            nanny.auto_restart = False
            os.kill(nanny.process.process.pid, signal.SIGKILL)


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
