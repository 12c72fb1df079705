"""Ahead-of-time builds of the compiled functions a first call needs: a first answer without the compiler.

numba compiles a kernel the first time a process calls it and keeps the result in its on-disk cache
(:mod:`._jit`).  A process with an empty cache pays the whole compile: about 11 CPU s for Purramid's exact
solver behind the first ``advise``.  This module removes that wait where the install can pay it once instead:

* A Python call of a compiled function that a first call needs goes through :func:`entry`
  (``SOLVE = aot.entry(exact.solve)``; ``SOLVE(...)`` instead of ``exact.solve(...)``).
* ``pyradice-lab compile`` (run by ``make`` after the install; :func:`pyradice_lab.bench.compile_ahead`) makes
  each game's first-use calls once (its bench plan's first ``simulate_games`` and first ``advise``) with
  :func:`recording` on, so every :func:`entry` notes the argument types it is called with, then builds those
  functions for those types with numba's ahead-of-time compiler (``numba.pycc``): one extension module per
  defining module (:func:`build`).
* The module's name holds :func:`key`: the :func:`~._sources.fingerprint` of the defining file (its contents,
  every package module it imports, its package's ``data/`` files) with the versions of Python, numba and numpy
  and the CPU it was built for.  Code built from other sources is never loaded: an edit makes the entry fall
  back to numba's compiler (with the usual compile notice) until ``pyradice-lab compile`` runs again.
* A call whose argument types no built signature accepts (the built wrapper refuses to unbox them, a
  ``TypeError`` before any work) goes to numba's dispatcher, which compiles it as before.

The built and the just-in-time code come from the same source through the same compiler, so they give the same
results (a test compares them bit for bit).  ``PYRADICE_LAB_AOT=0`` turns the built modules off (the bench's
first-use rows measure both ways); ``PYRADICE_LAB_AOT_DIR`` sets where they are written and looked for (default:
``_aot`` inside the package when it is writable, else ``~/.cache/pyradice_lab/aot``).

Examples
--------
>>> from pyradice_lab.engine import aot
>>> aot.module_name("pyradice_lab.engine.stats", "0123456789abcdef")
'_aot_pyradice_lab_engine_stats_0123456789abcdef'
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.machinery
import importlib.util
import json
import os
import platform
import shutil
import sys
import tempfile
import threading
import warnings
from pathlib import Path

import numpy as np
from numba import typeof

from ._sources import PACKAGE_DIR, fingerprint

__all__ = ["entry", "Entry", "recording", "recorded", "build", "key", "module_name", "aot_dirs", "enabled",
           "AOT_ENV", "AOT_DIR_ENV", "is_current"]

#: ``PYRADICE_LAB_AOT=0`` turns the built modules off (every call compiles as numba does)
AOT_ENV = "PYRADICE_LAB_AOT"
#: where the built modules are written and looked for, instead of the default places (:func:`aot_dirs`)
AOT_DIR_ENV = "PYRADICE_LAB_AOT_DIR"

_LOCK = threading.Lock()
_ENTRIES: dict[int, Entry] = {}
_RECORDING: dict | None = None


def enabled() -> bool:
    """Whether built modules are used (``PYRADICE_LAB_AOT`` is not ``0``)."""
    return os.environ.get(AOT_ENV, "1").strip() not in {"0", "false", "no", "off"}


def aot_dirs() -> list[Path]:
    """Where built modules are looked for, in order: ``PYRADICE_LAB_AOT_DIR`` alone when set, else ``_aot``
    inside the package and the user's cache (``$XDG_CACHE_HOME`` or ``~/.cache``, then ``pyradice_lab/aot``)."""
    if os.environ.get(AOT_DIR_ENV):
        return [Path(os.environ[AOT_DIR_ENV])]
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return [PACKAGE_DIR / "_aot", cache / "pyradice_lab" / "aot"]


def _write_dir() -> Path:
    """The first place of :func:`aot_dirs` that can be written (created if need be)."""
    for d in aot_dirs():
        try:
            d.mkdir(parents=True, exist_ok=True)
            probe = d / ".write-probe"
            probe.write_text("")
            probe.unlink()
            return d
        except OSError:
            continue
    raise OSError(f"no writable directory for ahead-of-time builds among {[str(d) for d in aot_dirs()]}; "
                  f"set {AOT_DIR_ENV}")


def _cpu() -> str:
    try:
        from llvmlite import binding as ll

        return f"{ll.get_host_cpu_name()}:{ll.get_host_cpu_features().flatten()}"
    except Exception:   # an llvmlite without these calls: the machine's name stands for the CPU
        return platform.machine()


#: How :func:`build` builds: part of every build's :func:`key`, raised when the recipe changes, so that a build
#: made the old way is never loaded (2: modules of kernels declared without reference counting built without it).
BUILD_RECIPE = 2


def key(module: str) -> str:
    """16 hex digits naming the build of ``module``'s functions: its sources' fingerprint, the versions of
    Python, numba and numpy, the CPU (a build uses the features of the CPU it was made on) and
    :data:`BUILD_RECIPE`."""
    import numba
    import numpy

    path = sys.modules[module].__file__
    h = hashlib.sha256()
    for part in (fingerprint(path), sys.version, numba.__version__, numpy.__version__, _cpu(), BUILD_RECIPE):
        h.update(str(part).encode() + b"\0")
    return h.hexdigest()[:16]


def module_name(module: str, digest: str) -> str:
    """The extension module's name of ``module``'s build with key ``digest``."""
    return "_aot_" + module.replace(".", "_") + "_" + digest


def _current(module: str) -> tuple[Path, str] | None:
    """``(directory, name)`` of the build of ``module`` for its current sources (the extension module and its
    ``.json`` of signatures), the first of :func:`aot_dirs` that holds one; None when there is none."""
    name = module_name(module, key(module))
    for d in aot_dirs():
        if (d / (name + importlib.machinery.EXTENSION_SUFFIXES[0])).is_file() and (d / (name + ".json")).is_file():
            return d, name
    return None


def _load(module: str):
    """``(extension module, {function: [argument types as text]})`` of the build of ``module`` for its current
    sources, or None."""
    found = _current(module)
    if found is None:
        return None
    d, name = found
    try:
        sigs = {f: [tuple(a) for a in s] for f, s in json.loads((d / (name + ".json")).read_text()).items()}
        mod = sys.modules.get(name)
        if mod is None:
            spec = importlib.util.spec_from_file_location(name, d / (name + importlib.machinery.EXTENSION_SUFFIXES[0]))
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            sys.modules[name] = mod
    except (OSError, ValueError, ImportError):   # a damaged or foreign file: numba compiles instead
        return None
    return mod, sigs


def _export_names(name: str, n: int) -> list[str]:
    return [name if i == 0 else f"{name}__{i}" for i in range(n)]


_INT64 = (-(1 << 63), 1 << 63)


def _fast_key(a):
    """A key that determines ``numba.typeof(a)`` and is cheap to compute, or None (then the call types its
    arguments with numba).  It may be finer than the type (two keys of one type), never coarser: an array by its
    dtype, dimensions, contiguity, writeability and alignment; a Python int by whether it fits an int64 (a larger
    one types as uint64; one larger still has no key); a tuple by its items' keys; a NumPy scalar, float, bool,
    str or None by its class.  (An array's flags as one integer, ``flags.num``, and its dtype object: a third of
    the time of reading the flags one by one, which cost ~10 us a call of six arrays; the integer also holds
    flags numba does not type, e.g. whether the array owns its data: finer, never coarser.)"""
    t = type(a)
    if t is np.ndarray:
        return (a.dtype, a.ndim, a.flags.num)
    if t is int:
        if _INT64[0] <= a < _INT64[1]:
            return (int, 64)
        return (int, "u64") if 0 <= a < 1 << 64 else None
    if t is tuple:
        items = tuple(_fast_key(x) for x in a)
        return None if any(k is None for k in items) else (tuple, items)
    if t in (float, bool, str, type(None)) or (isinstance(a, np.generic) and t.__module__ == "numpy"):
        return t
    return None


class Entry:
    """A compiled function called from Python: its ahead-of-time build when one exists for the current sources
    and accepts the arguments' types, else numba's dispatcher (:func:`entry` makes them).

    Which of the two takes a call is decided by the arguments' numba types, once per combination of
    :func:`_fast_key` keys (typing every argument with ``numba.typeof`` on every call cost a quarter of the CPU of
    Pyradice's search player, whose kernels take some 40 arrays)."""

    def __init__(self, dispatcher):
        self.dispatcher = dispatcher
        # with NUMBA_DISABLE_JIT=1 numba's decorator returns the plain function: no dispatcher, no build used
        self.py_func = getattr(dispatcher, "py_func", dispatcher)
        self._built: list | None = None
        self._routes: dict = {}

    def _resolve(self) -> list:
        built = []
        if enabled() and self.py_func is not self.dispatcher:
            loaded = _load(self.py_func.__module__)
            if loaded is not None:
                mod, name = loaded[0], self.py_func.__name__
                sigs = loaded[1].get(name, ())
                built = [(tuple(args), getattr(mod, n)) for n, args in zip(_export_names(name, len(sigs)), sigs)
                         if hasattr(mod, n)]
        self._built = built
        return built

    @property
    def is_built(self) -> bool:
        """Whether a build for the current sources was found (looked up once, at the first call)."""
        return bool(self._built if self._built is not None else self._resolve())

    def __call__(self, *args):
        if _RECORDING is not None:
            _record(self, args)
        built = self._built if self._built is not None else self._resolve()
        if built:
            keys = tuple(map(_fast_key, args))
            remembered = None not in keys  # an argument without a key is typed by numba on every call
            fn = self._routes.get(keys) if remembered else None
            if fn is None:
                fn = self._route(built, args)
                if remembered:
                    self._routes[keys] = fn
            return fn(*args)
        return self.dispatcher(*args)

    def _route(self, built: list, args):
        """The built function whose signature is exactly the arguments' types, else the dispatcher.  The built
        wrapper trusts its arguments' types (a tuple of the wrong length crashes it): only a call whose types are
        exactly a built signature's goes there."""
        types = tuple(str(typeof(a)) for a in args)
        for argtypes, fn in built:
            if argtypes == types:
                return fn
        return self.dispatcher

    def __repr__(self) -> str:
        return f"<aot.entry {self.py_func.__module__}.{self.py_func.__qualname__}>"


def entry(dispatcher) -> Entry:
    """The :class:`Entry` of a compiled function (one per function): call it from Python in its place."""
    with _LOCK:
        e = _ENTRIES.get(id(dispatcher))
        if e is None or e.dispatcher is not dispatcher:
            e = _ENTRIES[id(dispatcher)] = Entry(dispatcher)
        return e


def _record(e: Entry, args) -> None:
    types = tuple(typeof(a) for a in args)
    with _LOCK:
        if _RECORDING is not None:
            _RECORDING.setdefault(id(e), (e, set()))[1].add(types)


@contextlib.contextmanager
def recording():
    """While inside, every :class:`Entry` called notes its arguments' types; yields what was seen, for
    :func:`recorded` after the block."""
    global _RECORDING
    seen: dict = {}
    with _LOCK:
        outer, _RECORDING = _RECORDING, seen
    try:
        yield seen
    finally:
        with _LOCK:
            _RECORDING = outer


def recorded(seen: dict) -> dict[str, dict[str, list]]:
    """``{defining module: {function name: [numba signatures]}}`` of the entries a :func:`recording` block saw
    (the full signatures, return type included, from the dispatcher's compiled overloads)."""
    out: dict[str, dict[str, list]] = {}
    for e, types in list(seen.values()):
        sigs = []
        for argtypes in sorted(types, key=str):
            overload = e.dispatcher.overloads.get(argtypes)
            if overload is None:
                e.dispatcher.compile(argtypes)
                overload = e.dispatcher.overloads[argtypes]
            sigs.append(overload.signature)
        out.setdefault(e.py_func.__module__, {})[e.py_func.__name__] = sigs
    return out


def build(module: str, functions: dict[str, list], out_dir: Path | None = None) -> Path:
    """Build ``functions`` (``{name: [signatures]}``) of ``module`` ahead of time into one extension module
    (named by :func:`module_name` with the current :func:`key`) in ``out_dir`` (default: the first writable
    place of :func:`aot_dirs`); returns its path.  Needs a C compiler (numba's ``pycc`` compiles a small C
    wrapper); raises ``RuntimeError`` with the reason when it cannot build."""
    mod = importlib.import_module(module)
    name = module_name(module, key(module))
    out_dir = Path(out_dir) if out_dir is not None else _write_dir()
    out_dir.mkdir(parents=True, exist_ok=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # numba announces pycc's coming replacement
        from numba.pycc import CC

        with tempfile.TemporaryDirectory(prefix="pyradice_lab_aot_") as tmp:
            cc = CC(name)
            cc.output_dir = tmp
            cc.target_cpu = "host"
            cc.verbose = False
            cc.use_nrt = _module_needs_nrt(mod, functions)
            for fname, sigs in functions.items():
                func = getattr(mod, fname).py_func
                for export, sig in zip(_export_names(fname, len(sigs)), sigs):
                    cc.export(export, sig)(func)
            try:
                with open(os.devnull, "w") as null, contextlib.redirect_stdout(null):
                    cc.compile()
            except Exception as exc:   # no compiler, a type pycc cannot export, ...
                raise RuntimeError(f"could not build {module} ahead of time: {type(exc).__name__}: {exc}") from exc
            built = [p for p in Path(tmp).iterdir() if p.name.startswith(name + ".") and p.suffix != ".json"]
            if not built:
                raise RuntimeError(f"could not build {module} ahead of time: the compiler wrote no module")
            target = out_dir / built[0].name
            sigs = {f: [[str(a) for a in sig.args] for sig in sigs] for f, sigs in functions.items()}
            (out_dir / (name + ".json")).write_text(json.dumps(sigs, indent=1))
            shutil.move(str(built[0]), str(target) + ".part")
            os.replace(str(target) + ".part", target)
    _clean(out_dir, module, keep=target.name)
    return target


def _module_needs_nrt(mod, functions) -> bool:
    """Whether a build of ``functions`` of ``mod`` compiles with numba's reference counting: not when every one of
    them is declared without it (``_nrt=False``, e.g. Pyradice's kernels).  ``numba.pycc`` has one setting for the
    whole module and ignores the functions' own (its default is on): a build of kernels declared without
    reference counting had it back, about a tenth of the CPU of Pyradice's ``flat_mc`` games in
    ``NRT_incref``/``NRT_decref``.  A function that allocates cannot compile without it, so a wrong declaration
    fails the build (and numba's compiler takes the calls) instead of leaking."""
    return not all(getattr(getattr(mod, f), "targetoptions", {}).get("_nrt", True) is False for f in functions)


def _clean(out_dir: Path, module: str, keep: str) -> None:
    """Remove the builds of ``module`` for other sources from ``out_dir`` (they can never load again)."""
    prefix = "_aot_" + module.replace(".", "_") + "_"
    for p in out_dir.glob(prefix + "*"):
        rest = p.name[len(prefix):]
        if not p.name.startswith(keep.split(".")[0] + ".") and len(rest) > 16 and rest[16] == ".":
            with contextlib.suppress(OSError):
                p.unlink()


def is_current(module: str, functions: dict[str, list] | None = None) -> bool:
    """Whether a build of ``module`` for its current sources exists in :func:`aot_dirs` (and, given
    ``functions`` as for :func:`build`, holds each of them for each of its signatures)."""
    found = _current(module)
    if found is None or functions is None:
        return found is not None
    try:
        have = json.loads((found[0] / (found[1] + ".json")).read_text())
    except (OSError, ValueError):
        return False
    return all([str(a) for a in sig.args] in have.get(f, []) for f, sigs in functions.items() for sig in sigs)
