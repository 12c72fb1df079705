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

Examples
--------
>>> from pyradice_lab.engine._jit import njit, cache_is_keyed_on_sources
>>> cache_is_keyed_on_sources()
True
"""

from __future__ import annotations

from numba import njit as _numba_njit
from numba.core import types as _types
from numba.core.dispatcher import Dispatcher as _Dispatcher

from ._sources import fingerprint, in_package

__all__ = ["njit", "SourceTreeLocator", "cache_is_keyed_on_sources"]

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
