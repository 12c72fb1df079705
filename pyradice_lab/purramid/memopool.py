"""The exact solver's memo carried across turns, chunks of games and calls (bounded).

Every optimal turn is an exact solve (:mod:`.exact`), and solves share most of their work: a turn's bonus
chains explore the boards the next turns start from, and every game opens on the same boards.  So the memo
(values and valid dice groups, :mod:`.memo`) is not thrown away:

- within a chunk of games it is carried from turn to turn and game to game (as before);
- between chunks and between calls it waits in a process-wide pool (:data:`POOL`), one list of idle memos
  per *solver setting* (the board's arrays, the objective rows, the yarn switch: everything a value depends
  on, :func:`setting_key`); a chunk takes an idle memo of its setting (or a new one) and gives it back, so
  threads never share a memo while it is in use;
- it is bounded: all memos of the pool together hold at most :func:`~pyradice_lab.engine.limits.max_memo_bytes`
  (512 MiB by default, ``PYRADICE_LAB_MAX_MEMO_BYTES`` overrides it).  Each of ``w`` memos in use at once gets
  ``limit / w`` bytes; at a turn boundary a memo holding more than :func:`memo_max` entries is *pruned*
  (:func:`prune`): the entries of the boards with the fewest covered spaces -- the openings, shared by every
  game -- are kept (at most :func:`memo_keep` entries, two thirds of the room), the rest is dropped (a
  generational table whose old generation is the openings).  Idle memos beyond the limit are dropped,
  the least recently used first.

The openings are also kept on disk (:func:`cache_dir`, beside numba's cache of the compiled solver): once a
memo of a setting has grown large, the entries of its lowest layers (up to half of :func:`memo_keep`) are
written to one file per setting and solver version, and a process whose pool has no memo of that setting yet
starts from that file instead of an empty memo (:func:`load_openings`) -- the openings are computed once,
by the first long run, and reused by every later process and worker.  The advisor's solver
(:class:`~.solver.CompiledSolver`) starts from it too when its first solve is on a board the file covers.

Decisions never depend on what the memo holds: a value found in it is the value the solver would compute
(tests play the same seeded games with and without a carried memo and compare every move and score).

Examples
--------
>>> from pyradice_lab.purramid import memopool
>>> memopool.memo_max(1) > memopool.memo_keep(1) > 0
True
>>> with memopool.carrying(False):
...     memopool.POOL.enabled
False
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import threading
from collections import OrderedDict
from pathlib import Path

import numpy as np

from ..engine import aot
from ..engine.limits import max_memo_bytes
from . import memo as M

__all__ = ["POOL", "MemoPool", "setting_key", "memo_max", "memo_keep", "TURN_ROOM", "table_rows", "prune", "carrying",
           "cache_dir", "save_openings", "load_openings", "openings_layers", "CACHE_ENV_VAR", "MAX_CACHE_FILES"]

_MIN_ROWS = 1 << 12
# the memo's upkeep, built ahead of time with the solver (``pyradice-lab compile`` runs :func:`exercise`): a
# process's first prune or openings file would otherwise load numba's compiler (about a CPU second)
_PRUNE_IN_PLACE = aot.entry(M.prune_in_place)
_PRUNE_MEMORY = aot.entry(M.prune_memory)
_EXPORT_ROWS = aot.entry(M.export_rows)
_IMPORT_ROWS = aot.entry(M.import_rows)
#: Environment variable naming the openings' cache folder (``off`` or ``0``: no disk cache).
CACHE_ENV_VAR = "PYRADICE_LAB_MEMO_CACHE"
#: Opening files kept in the cache folder (the most recently written).
MAX_CACHE_FILES = 8
# (a file of another solver version is deleted when a new one is written: values may differ between versions)


def table_rows(workers: int = 1) -> int:
    """Table rows one of ``workers`` memos in use at once may reach: the largest power of two whose rows
    fill at most three quarters of its share of :func:`~pyradice_lab.engine.limits.max_memo_bytes` (the
    rest is for boards, valid groups and work rows)."""
    share = max_memo_bytes() // max(int(workers), 1)
    rows = _MIN_ROWS
    while 2 * rows * M.ROW_BYTES <= 3 * share // 4:
        rows *= 2
    return rows


#: entries a memo keeps free for the next turn before its table would double (at half load): more than one
#: all-optimal 4-player game adds -- at most 472,524 in 150 games from a cold memo, median 64k (2026-12-07)
TURN_ROOM = 600_000


def memo_max(workers: int = 1) -> int:
    """Entries above which a memo is pruned at the next turn boundary: half of :func:`table_rows` less
    :data:`TURN_ROOM` (the table doubles at half load, so the next turn has room before it would outgrow its
    share), and at least 3/8 of it.  One memo of the default limit: 3.6M entries of 8.4M rows (3/8 before
    2026-12-07: 3.1M; the larger room prunes less often, 22 -> 26 all-optimal 4-player games per CPU-second)."""
    rows = table_rows(workers)
    return max(3 * rows // 8, rows // 2 - TURN_ROOM)


def memo_keep(workers: int = 1) -> int:
    """Entries a prune keeps at most (the openings): 1/4 of :func:`table_rows` (measured: keeping 1/8
    played 6.6 games per CPU-second in steady state, 1/4 played 7.0)."""
    return table_rows(workers) // 4


def setting_key(sc) -> bytes:
    """Digest of what a memo's values depend on: the solver's static context (:func:`.exact.static_context`:
    board arrays, 8s carrying tokens, objective rows, bonus modes, token values, layout size, ``auto`` cut)."""
    h = hashlib.blake2b(digest_size=16)
    for i in (0, 1, 5, 6, 7, 8):
        a = np.ascontiguousarray(sc[i])
        h.update(str((a.dtype.str, a.shape)).encode())
        h.update(a.tobytes())
    return h.digest()


def prune(mem, keep: int):
    """``mem`` keeping the entries of the boards with the fewest covered spaces, at most ``keep`` entries
    (whole layers: every entry of a board with ``k`` covered spaces, for each ``k`` up to the largest that
    fits), in a table of at least four rows per entry kept (in place when the table already has that size,
    :func:`.memo.prune_in_place`; the returned memo then shares the table with ``mem``)."""
    h = M.layers(mem)
    cum = np.cumsum(h)
    fits = np.flatnonzero(cum <= keep)
    k = int(fits[-1]) if len(fits) and fits[0] == 0 else -1
    kept = int(cum[k]) if k >= 0 else 0
    rows = _MIN_ROWS
    while rows < 4 * kept:
        rows *= 2
    if mem[0].shape[0] == rows and _PRUNE_IN_PLACE(mem, k):   # the table already has that size: no copy
        nb, npl = int(mem[3][M.M_NBOARDS]), int(mem[3][M.M_NPOOL])  # boards and groups cut to what is kept
        return (mem[0], mem[1][:max(nb + 16, 1024)].copy(), mem[2][:max(npl + 16, 1 << 14)].copy()) + tuple(mem[3:])
    return _PRUNE_MEMORY(mem, k, rows)


# ------------------------------------------------------------------------------------------ disk cache
def cache_dir() -> Path | None:
    """The folder of the openings' files: ``PYRADICE_LAB_MEMO_CACHE`` (``off``/``0``: None, no disk cache),
    else ``$NUMBA_CACHE_DIR/pyradice_lab_memos``, else ``__pycache__/memos`` beside this module (where numba
    caches the compiled solver) when writable, else the user cache folder."""
    text = os.environ.get(CACHE_ENV_VAR, "").strip()
    if text.lower() in ("0", "off", "no", "false", "none"):
        return None
    if text:
        return Path(text)
    numba_dir = os.environ.get("NUMBA_CACHE_DIR", "").strip()
    if numba_dir:
        return Path(numba_dir) / "pyradice_lab_memos"
    here = Path(__file__).resolve().parent
    if os.access(here, os.W_OK):
        return here / "__pycache__" / "memos"
    from numba.misc.appdirs import user_cache_dir

    return Path(user_cache_dir("pyradice_lab")) / "memos"


def _cache_file(key: bytes) -> Path | None:
    d = cache_dir()
    if d is None:
        return None
    from ..engine._sources import fingerprint
    from . import exact

    return d / f"openings-{key.hex()}-{fingerprint(exact.__file__)[:16]}.npz"


def _saved_count(path: Path) -> int:
    try:
        with np.load(path) as z:
            return int(z["count"][0])
    except Exception:  # noqa: BLE001 - missing, partial or foreign file: as if there were none
        return 0


_SAVED: dict = {}   # path -> entries in the file (as far as this process knows)


def save_openings(key: bytes, mem, force: bool = False) -> Path | None:
    """Write the lowest layers of ``mem`` (at most half of :func:`memo_keep` entries) to the openings file of
    setting ``key``, unless the file already holds at least two thirds as many (``force``: write anyway).
    Returns the file written, or None."""
    path = _cache_file(key)
    if path is None:
        return None
    cap = memo_keep(1) // 2
    h = M.layers(mem)
    cum = np.cumsum(h)
    fits = np.flatnonzero(cum <= cap)
    if not len(fits) or fits[0] != 0:
        return None
    k = int(fits[-1])
    if path not in _SAVED:
        _SAVED[path] = _saved_count(path)
    if not force and 3 * _SAVED[path] >= 2 * int(cum[k]):
        return None
    R, Bo, Po = _EXPORT_ROWS(mem, k)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.stem}.{os.getpid()}.{threading.get_ident()}.tmp")
        with open(tmp, "wb") as fh:
            np.savez(fh, count=np.array([len(R)], dtype=np.int64), layers=np.array([k], dtype=np.int64), rows=R,
                     boards=Bo, pool=Po)
        os.replace(tmp, path)
    except OSError:
        return None
    _SAVED[path] = len(R)
    version = path.stem.rsplit("-", 1)[-1]
    files = sorted(path.parent.glob("openings-*.npz"), key=lambda f: f.stat().st_mtime, reverse=True)
    for i, old in enumerate(files):  # files of older solver versions, and the least recent beyond the cap
        if i >= MAX_CACHE_FILES or old.stem.rsplit("-", 1)[-1] != version:
            with contextlib.suppress(OSError):
                old.unlink()
    return path


def openings_layers(key: bytes) -> int:
    """Covered spaces of the fullest boards in the openings file of setting ``key`` (-1: no usable file)."""
    path = _cache_file(key)
    if path is None or not path.exists():
        return -1
    try:
        with np.load(path) as z:
            return int(z["layers"][0])
    except Exception:  # noqa: BLE001 - missing, partial or foreign file
        return -1


def load_openings(key: bytes, n_spaces: int):
    """A memo holding the openings file of setting ``key``, or None (no file, or one that does not check)."""
    path = _cache_file(key)
    if path is None or not path.exists():
        return None
    try:
        with np.load(path) as z:
            R, Bo, Po = z["rows"], z["boards"], z["pool"]
    except Exception:  # noqa: BLE001 - a partial or foreign file is ignored
        return None
    ok = (R.dtype == Bo.dtype == Po.dtype == np.int64 and R.ndim == Bo.ndim == Po.ndim == 2
          and R.shape[1] == 6 and Bo.shape[1] == 6 and Po.shape[1] == 4 and np.all(R[:, 2] >= 0))
    if ok:
        board = (R[:, 2] >> 17) & 3 == M.H_BOARD
        ok = (int(board.sum()) == len(Bo) and np.all((R[board, 3] >= 0) & (R[board, 3] < len(Bo)))
              and np.all((Bo[:, M.B_START] >= 0) & (Bo[:, M.B_START] + Bo[:, M.B_LEN] <= len(Po))))
    if not ok:
        return None
    rows = _MIN_ROWS
    while rows < 4 * len(R):
        rows *= 2
    _SAVED[path] = len(R)
    with contextlib.suppress(OSError):  # a file in use counts as recent: the cap drops the least recently used
        os.utime(path)
    return _IMPORT_ROWS(M.new_memory(n_spaces), R, Bo, Po, rows)


# ------------------------------------------------------------------------------------------ pool
class MemoPool:
    """Idle memos per solver setting (see the module docstring); thread-safe."""

    def __init__(self):
        self._idle: OrderedDict = OrderedDict()   # key -> list of memos, least recently used key first
        self._busy: dict = {}                     # id(memo) -> bytes of the memos in use
        self._lock = threading.Lock()
        self.enabled = True

    def take(self, key: bytes, n_spaces: int, workers: int = 1):
        """An idle memo of setting ``key`` (pruned to a share of ``workers``), or a new empty one."""
        mem = None
        with self._lock:
            if self.enabled and self._idle.get(key):
                mem = self._idle[key].pop()
                if not self._idle[key]:
                    del self._idle[key]
        if mem is not None and (M.memo_bytes(mem) * workers > max_memo_bytes()
                                or M.memo_size(mem) > memo_max(workers)):
            mem = prune(mem, memo_keep(workers))
        if mem is None and self.enabled:
            mem = load_openings(key, n_spaces)
        if mem is None:
            mem = M.new_memory(n_spaces)
        with self._lock:
            self._busy[id(mem)] = M.memo_bytes(mem)
        return mem

    def give(self, key: bytes, mem, taken=None) -> None:
        """Return a memo after use (``taken``: the memo as taken, if the solver replaced it since); one
        that outgrew the whole limit during its last solve is pruned first."""
        busy = id(taken if taken is not None else mem)  # the memo as taken (a prune below may replace ``mem``)
        if self.enabled and M.memo_size(mem) >= memo_keep(1) // 2:
            self.save(key, mem)
        if self.enabled and M.memo_bytes(mem) > max_memo_bytes():
            mem = prune(mem, memo_keep(1))
        with self._lock:
            self._busy.pop(busy, None)
            if not self.enabled:
                return
            self._idle.setdefault(key, []).append(mem)
            self._idle.move_to_end(key)
            limit = max_memo_bytes() - sum(self._busy.values())
            while self._idle and self._idle_bytes() > limit:
                old = next(iter(self._idle))
                self._idle[old].pop(0)
                if not self._idle[old]:
                    del self._idle[old]

    def save(self, key: bytes, mem) -> None:
        """Write the openings of ``mem`` to disk when they are worth it (:func:`save_openings`)."""
        if not self.enabled:
            return
        path = _cache_file(key)
        if path is not None and 3 * _SAVED.get(path, 0) >= 2 * (memo_keep(1) // 2):
            return  # a full openings file exists: no table scan
        save_openings(key, mem)

    def write_openings(self, force: bool = False) -> list[Path]:
        """Write the openings file of every idle memo's setting (:func:`save_openings`; ``force``: also when the
        memo is small or a file as large exists), e.g. after a run of games built them; returns the files
        written."""
        if not isinstance(force, bool):
            raise TypeError(f"force must be True or False, got {force!r}")
        with self._lock:
            items = [(key, m) for key, ms in self._idle.items() for m in ms]
        return [p for key, m in items if (p := save_openings(key, m, force=force)) is not None]

    def _idle_bytes(self) -> int:
        return sum(M.memo_bytes(m) for ms in self._idle.values() for m in ms)

    def clear(self) -> None:
        """Drop every idle memo (memos in use are dropped when given back while disabled)."""
        with self._lock:
            self._idle.clear()

    def stats(self) -> dict:
        """``{"memos", "entries", "bytes"}`` of the idle memos."""
        with self._lock:
            ms = [m for v in self._idle.values() for m in v]
            return {"memos": len(ms), "entries": sum(M.memo_size(m) for m in ms), "bytes": self._idle_bytes()}


#: The process-wide pool used by :func:`~.sim.simulate_games`.
POOL = MemoPool()


@contextlib.contextmanager
def carrying(enabled: bool = True):
    """Within the block, carry memos across chunks and calls (``True``, the default) or start every chunk
    from an empty memo (``False``: the pool is emptied and stays empty).  Results are the same either way."""
    if not isinstance(enabled, bool):
        raise TypeError(f"enabled must be True or False, got {enabled!r}")
    before = POOL.enabled
    POOL.enabled = enabled
    if not enabled:
        POOL.clear()
    try:
        yield POOL
    finally:
        POOL.enabled = before


def exercise() -> None:
    """Run the memo's upkeep once on a small memo -- both kinds of prune, an export and an import of the openings
    rows -- so that ``pyradice-lab compile`` records and builds them ahead of time (the bench plan's
    ``ahead_of_time_extra``)."""
    from . import exact as E
    from .components import load_layout
    from .solver import _SOLVE

    L = load_layout("A")
    sc = E.static_context(L, [(0, E.MODE_CODES["auto"], 0.0)])
    bottom = [s for s in range(L.n_spaces) if L.row_of[s] == 0]
    cov = L.all_mask & ~sum(1 << s for s in bottom[:6])   # a late board: a small solve
    _, _, mem = _SOLVE(E.F_ROLL, cov, 0, 3, 3, 1, 0, 0, sc, M.new_memory(L.n_spaces))
    mem = prune(prune(mem, 16), 16)                     # a copy into a small table, then in place
    R, Bo, Po = _EXPORT_ROWS(mem, L.n_spaces)
    _IMPORT_ROWS(M.new_memory(L.n_spaces), R, Bo, Po, _MIN_ROWS)
