"""``njit`` for the game kernels, with an on-disk cache that can never serve code compiled from old sources.

numba's own cache (``cache=True``) checks only the file that defines a function: compiled code that calls
``rules.py`` from ``kernel.py``, or that froze a constant imported from another module, survives an edit of
that other module and silently runs the old rules.  Importing this module puts :class:`SourceTreeLocator`
first in numba's list of cache locators; for every function defined in this package it keeps numba's usual
cache location (``__pycache__`` beside the source, ``NUMBA_CACHE_DIR``, or the user-wide cache) but stamps
each cache entry with :func:`pyradice_lab.engine._sources.fingerprint` of the defining file: its contents, every
package module it imports (recursively) and its package's ``data/`` files.  An entry whose stamp differs is
stale and numba recompiles it (and overwrites it).  Functions of other libraries are left to numba.

Every module of the package that compiles code imports ``njit`` from here (a test checks it), so the
locator is in place before the first decorator runs.

A compiled function called from compiled code is compiled for the argument types of that call, and numba
types a constant argument (``solve(F_ROLL, cov, 0, ...)``, ``sum_row(P, brd, 5)``; also a variable that
starts as a constant, while type inference is still unifying it) as a literal: every literal value made a
separate specialisation of the callee and of everything it calls (Purramid's exact solver was compiled twice,
once for ``P = 0``).  :func:`njit` makes a call from compiled code resolve with the literals widened to their
plain types (:func:`numba.core.types.unliteral`), so each function is compiled once per plain signature.  No
kernel of the package dispatches on a literal value (``numba.literally``); a branch on an argument that is
``None`` is still pruned (``None`` is a type, not a literal).  Should a future numba drop the hook used here,
:func:`njit` compiles without the on-disk cache instead (slower, never stale).

The first compile of a game's kernels is announced once per process, before it starts, on the logger
``pyradice_lab.compile`` (:data:`COMPILE_LOGGER`, level INFO): "compiling the Meerkat engine once (about 25 s);
later runs reuse it".  numba raises its "numba:compile" event only when the function is neither in memory
nor in the on-disk cache (or its cache entry is stale), so the message appears exactly when the user waits
for the compiler.  A module (or its game package) names what it compiles and how long that typically takes
with ``COMPILE_NOTICE = (label, seconds)``; the CLI shows the message on stderr.  A Python user sees the same
sentence once per kernel group as a :class:`~pyradice_lab.engine.notices.CompileWarning` (a ``UserWarning``;
``warnings.simplefilter("ignore", pyradice_lab.CompileWarning)`` silences it), and on the logger with
``logging.basicConfig(level=logging.INFO)``.

Examples
--------
>>> from pyradice_lab.engine._jit import njit, cache_is_keyed_on_sources
>>> cache_is_keyed_on_sources()
True
"""

from __future__ import annotations

import logging
import sys
import threading
import time

from numba import njit as _numba_njit
from numba.core import event as _event, types as _types
from numba.core.dispatcher import Dispatcher as _Dispatcher

from ._sources import fingerprint, in_package

__all__ = ["njit", "SourceTreeLocator", "cache_is_keyed_on_sources", "COMPILE_LOGGER", "compile_notice"]

#: the logger that announces the first compile of a game's kernels (INFO) and times each compile (DEBUG)
COMPILE_LOGGER = "pyradice_lab.compile"

try:  # numba >= 0.60 names the base classes without the underscore; older releases with it
    from numba.core import caching as _caching

    _LocatorBase = _caching._CacheLocator
    _Impl = getattr(_caching, "CacheImpl", None) or _caching._CacheImpl
    _Impl._locator_classes  # noqa: B018 - fail here if the hook is gone
except (ImportError, AttributeError):  # pragma: no cover - depends on the numba version
    _caching = None
    _LocatorBase = object
    _Impl = None


class SourceTreeLocator(_LocatorBase):
    """numba cache locator for this package: numba's location, stamped with the source fingerprint."""

    def __init__(self, inner, py_file: str):
        self._inner = inner
        self._py_file = py_file

    def ensure_cache_path(self):
        return self._inner.ensure_cache_path()

    def get_cache_path(self):
        return self._inner.get_cache_path()

    def get_source_stamp(self):
        return ("pyradice_lab-sources/1", fingerprint(self._py_file))

    def get_disambiguator(self):
        return self._inner.get_disambiguator()

    @classmethod
    def from_function(cls, py_func, py_file):
        if not in_package(py_file):
            return None
        for other in _Impl._locator_classes:
            if other is cls:
                continue
            inner = other.from_function(py_func, py_file)
            if inner is not None:
                return cls(inner, py_file)
        return None


def _install() -> bool:
    if _Impl is None:  # pragma: no cover - depends on the numba version
        return False
    if SourceTreeLocator not in _Impl._locator_classes:
        _Impl._locator_classes.insert(0, SourceTreeLocator)
    return True


_INSTALLED = _install()


def cache_is_keyed_on_sources() -> bool:
    """Whether numba's on-disk cache of this package's kernels is keyed on their source fingerprints."""
    return _INSTALLED and SourceTreeLocator in _Impl._locator_classes


def _plain_call_template(dispatcher, args, kws):
    """``Dispatcher.get_call_template`` with literal argument types widened (one specialisation per plain
    signature instead of one per constant value)."""
    args = tuple(_types.unliteral(a) for a in args)
    kws = {k: _types.unliteral(v) for k, v in kws.items()}
    return type(dispatcher).get_call_template(dispatcher, args, kws)


def _plain(dispatcher):
    if isinstance(dispatcher, _Dispatcher):
        dispatcher.get_call_template = _plain_call_template.__get__(dispatcher)
    return dispatcher


def njit(*args, **kwargs):
    """``numba.njit`` with the cache keyed on sources and calls from compiled code compiled for plain (not
    literal) argument types (see the module docstring); same arguments."""
    if kwargs.get("cache") and not cache_is_keyed_on_sources():  # pragma: no cover - numba without the hook
        kwargs["cache"] = False
    out = _numba_njit(*args, **kwargs)
    if isinstance(out, _Dispatcher):
        return _plain(out)
    return lambda func: _plain(out(func))


# ------------------------------------------------------------------- the first compile, announced once
_log = logging.getLogger(COMPILE_LOGGER)


def compile_notice(module: str) -> tuple[str, float | None]:
    """``(label, typical seconds)`` of what compiling a kernel of ``module`` compiles: the ``COMPILE_NOTICE``
    of the module or of its game package (``pyradice_lab.<game>``), else the package's name and no time.

    Examples
    --------
    >>> import pyradice_lab.meerkat
    >>> compile_notice("pyradice_lab.meerkat.kernel")[0]
    'the Meerkat engine'
    """
    parts = module.split(".")
    for k in range(len(parts), 1, -1):
        mod = sys.modules.get(".".join(parts[:k]))
        notice = getattr(mod, "__dict__", {}).get("COMPILE_NOTICE")
        if notice is not None:
            return str(notice[0]), (None if notice[1] is None else float(notice[1]))
    return f"the {'.'.join(parts[:2])} kernels", None


def _notice_text(label: str, seconds: float | None) -> str:
    about = "" if seconds is None else f" (about {seconds:.0f} s)"
    return f"compiling {label} once{about}; later runs reuse it"


def _caller_level() -> int:
    """The ``stacklevel`` of the first frame outside numba and this package (the user's call that compiles).  In a
    pool's worker no frame is the user's (the pool's machinery calls the package): the level then lies beyond the
    stack, and Python shows the warning as ``sys:1`` instead of a line of the pool's source."""
    frame, level = sys._getframe(1), 1
    while frame is not None:
        name = frame.f_globals.get("__name__", "")
        pool = any(part in frame.f_code.co_filename for part in _POOL_FILES)   # a worker's __main__ (python -m)
        if not (pool or name.startswith(_NOT_THE_CALLER) or name in {"pyradice_lab", "contextlib", "functools",
                                                                     "threading", "runpy"}):
            return level
        frame, level = frame.f_back, level + 1
    return level + 1


#: Modules whose frames are never the user's call: numba, this package and the pools that run it in workers.
_NOT_THE_CALLER = ("numba", "pyradice_lab.", "joblib", "concurrent.futures", "multiprocessing", "loky", "dask",
                   "distributed")
_POOL_FILES = ("/joblib/", "/loky/", "/distributed/", "/multiprocessing/")


class _CompileNotice(_event.Listener):
    """Logs, once per label and process, when numba starts compiling a cached kernel of this package."""

    def __init__(self):
        self._lock = threading.Lock()
        self._local = threading.local()
        self.announced: set[str] = set()

    def _ours(self, dispatcher) -> str | None:
        func = getattr(dispatcher, "py_func", None)
        module = getattr(func, "__module__", "") or ""
        if not module.startswith("pyradice_lab."):
            return None
        # a function compiled without the on-disk cache is compiled by every process: "once" would be untrue
        if type(getattr(dispatcher, "_cache", None)).__name__ == "NullCache":
            return None
        return module

    def on_start(self, event):
        depth = getattr(self._local, "depth", 0)
        self._local.depth = depth + 1
        if depth:
            return
        self._local.top = None
        module = self._ours(event.data.get("dispatcher") if isinstance(event.data, dict) else None)
        if module is None:
            return
        label, seconds = compile_notice(module)
        self._local.top = (label, event.data["dispatcher"].py_func.__qualname__, time.process_time())
        with self._lock:
            first = label not in self.announced
            self.announced.add(label)
        if first:
            text = _notice_text(label, seconds)
            _log.info(text)
            import warnings

            from .notices import CompileWarning

            # the Python user's one line (logging is often unconfigured); silence it by its category
            warnings.warn(text, CompileWarning, stacklevel=_caller_level())

    def on_end(self, event):
        self._local.depth = max(0, getattr(self._local, "depth", 1) - 1)
        top = getattr(self._local, "top", None)
        if self._local.depth == 0 and top is not None:
            self._local.top = None
            _log.debug("compiled %s (%s) in %.1f s CPU", top[0], top[1], time.process_time() - top[2])


_NOTICE = _CompileNotice()
_event.register("numba:compile", _NOTICE)
