"""Ahead-of-time builds (engine/aot.py, ``pyradice-lab compile``): a built entry runs its build only for the types
it was built for, never for code built from other sources, and gives numba's results bit for bit."""

from __future__ import annotations

import importlib
import sys
import uuid

import numpy as np
import pytest

from pyradice_lab.engine import aot

TOY = '''
from numba import njit


@njit
def total(a, t):
    s = 0.0
    for x in a:
        s += x
    return s + t[0].sum() + t[1]
'''


@pytest.fixture()
def toy(tmp_path, monkeypatch):
    """A module with one compiled function, importable by a fresh name, and an empty place for builds."""
    name = f"aot_toy_{uuid.uuid4().hex[:8]}"
    src = tmp_path / "src"
    src.mkdir()
    (src / f"{name}.py").write_text(TOY)
    monkeypatch.syspath_prepend(str(src))
    monkeypatch.setenv(aot.AOT_DIR_ENV, str(tmp_path / "aot"))
    monkeypatch.delenv(aot.AOT_ENV, raising=False)
    mod = importlib.import_module(name)
    yield mod
    sys.modules.pop(name, None)


def _build(mod):
    e = aot.entry(mod.total)
    with aot.recording() as seen:
        assert e(np.arange(3.0), (np.ones(2), 1.5)) == 6.5
    functions = aot.recorded(seen)
    assert list(functions) == [mod.__name__] and list(functions[mod.__name__]) == ["total"]
    return aot.build(mod.__name__, functions[mod.__name__])


def _poisoned(mod):
    """An entry whose numba side fails loudly: a call that reaches it did not run the build."""
    e = aot.Entry(mod.total)

    class Numba:
        py_func = mod.total.py_func

        def __call__(self, *args):
            raise AssertionError("numba's dispatcher was called")

    e.dispatcher = Numba()
    return e


def test_a_build_runs_for_the_recorded_types_and_numba_for_any_other(toy):
    path = _build(toy)
    assert path.is_file() and aot.is_current(toy.__name__)
    e = _poisoned(toy)
    assert e.is_built
    assert e(np.arange(4.0), (np.ones(3), 0.5)) == 9.5          # the build (numba would raise)
    for other in [(np.arange(4), (np.ones(3), 0.5)),              # int64 data: not a built signature
                  (np.arange(4.0), (np.ones(3),)),               # a tuple one short: would crash the build
                  (np.arange(4.0)[::2], (np.ones(3), 0.5))]:     # not contiguous
        with pytest.raises(AssertionError, match="dispatcher"):
            e(*other)
    assert aot.Entry(toy.total)(np.arange(4), (np.ones(3), 0.5)) == 9.5   # numba compiles it, as before


def test_a_remembered_route_never_takes_a_call_of_other_types(toy):
    """The entry remembers which function took a combination of argument keys; a call of other numba types (a
    read-only or float32 array, an int where the build has a float, a short tuple) still goes to numba, before
    and after the build's route is remembered."""
    _build(toy)
    e = _poisoned(toy)
    args = (np.arange(4.0), (np.ones(3), 0.5))
    assert e(*args) == 9.5 and e(*args) == 9.5                 # the build, then its remembered route
    frozen = np.arange(4.0)
    frozen.flags.writeable = False
    for other in [(frozen, (np.ones(3), 0.5)),                  # read-only: another numba type
                  (np.arange(4.0, dtype=np.float32), (np.ones(3), 0.5)),
                  (np.arange(4.0), (np.ones(3), 1)),            # an int for the float
                  (np.arange(4.0), (np.ones(3),))]:
        for _ in range(2):                                      # also once its own route is remembered
            with pytest.raises(AssertionError, match="dispatcher"):
                e(*other)
    assert e(*args) == 9.5


def test_equal_fast_keys_mean_equal_numba_types():
    """``_fast_key`` may be finer than ``numba.typeof``, never coarser: values with one key have one type."""
    from numba import typeof

    frozen = np.zeros((2, 3))
    frozen.flags.writeable = False
    values = [np.zeros(3), np.zeros(3, np.int64), np.zeros(3, np.int32), np.zeros(3, np.bool_), np.zeros((2, 3)),
              np.zeros((2, 3)).T, np.zeros((4, 3))[::2], frozen, np.zeros(1), np.zeros((1, 1)), np.zeros(0), 0, -1, 2**62, 2**63, 2**64 - 1, True, False, 0.5, np.int64(3), np.int32(3),
              np.float64(1.0), np.float32(1.0), np.bool_(True), None, "x", (1, 2), (1, 2.0), (1, (2, np.zeros(2))),
              (np.zeros(2), np.zeros(2, np.int64)), (),
              np.zeros(3, [("a", "<i8"), ("b", "<f8")]), np.zeros(3, [("a", "<i8"), ("b", "<i8")]),
              np.zeros(6)[1:4], np.zeros(7, np.int8)[1:].view(np.int16)]
    seen: dict = {}
    for v in values:
        k = aot._fast_key(v)
        if k is None:
            continue
        t = str(typeof(v))
        assert seen.setdefault(k, t) == t, (v, k, seen[k], t)
    for untyped in (object(), [1, 2], 2**64, (1, object())):      # typed by numba on every call
        assert aot._fast_key(untyped) is None


def test_a_module_of_kernels_declared_without_reference_counting_is_built_without_it(toy, tmp_path, monkeypatch):
    """``numba.pycc`` builds a whole module with reference counting unless told otherwise; a module whose every
    exported kernel is declared ``_nrt=False`` (Pyradice's) is built without it, the others with it."""
    lean_name = f"aot_lean_{uuid.uuid4().hex[:8]}"
    (tmp_path / "src" / f"{lean_name}.py").write_text(TOY.replace("@njit", "@njit(_nrt=False)"))
    lean = importlib.import_module(lean_name)
    try:
        assert aot._module_needs_nrt(toy, ["total"]) and not aot._module_needs_nrt(lean, ["total"])
        fat = _build(toy).read_bytes()
        thin = _build(lean).read_bytes()
        assert b"NRT_MemInfo" in fat and b"NRT_MemInfo" not in thin
        e = _poisoned(lean)
        assert e.is_built and e(np.arange(4.0), (np.ones(3), 0.5)) == 9.5       # the lean build runs, same value
    finally:
        sys.modules.pop(lean_name, None)


def test_a_build_of_other_sources_or_a_switched_off_build_is_not_used(toy, monkeypatch):
    _build(toy)
    monkeypatch.setenv(aot.AOT_ENV, "0")
    assert not _poisoned(toy).is_built
    monkeypatch.setenv(aot.AOT_ENV, "1")
    assert _poisoned(toy).is_built
    real = aot.key
    monkeypatch.setattr(aot, "key", lambda module: "0" * 16 if module == toy.__name__ else real(module))
    assert not aot.is_current(toy.__name__)
    assert not _poisoned(toy).is_built                         # the sources changed: never the old build


def test_a_build_made_by_an_older_recipe_is_never_loaded(toy, monkeypatch):
    """The key holds the build recipe: builds made before the recipe changed (e.g. with reference counting the
    kernels are declared without) are not loaded."""
    _build(toy)
    assert _poisoned(toy).is_built
    monkeypatch.setattr(aot, "BUILD_RECIPE", aot.BUILD_RECIPE + 1)
    assert not aot.is_current(toy.__name__) and not _poisoned(toy).is_built


def test_rebuilding_removes_the_builds_of_older_sources(toy, monkeypatch, tmp_path):
    old = _build(toy)
    monkeypatch.setattr(aot, "key", lambda module: "f" * 16)
    new = _build(toy)
    assert new != old and new.is_file() and not old.exists()


def test_compile_refuses_an_unknown_game_before_any_work(capsys):
    from pyradice_lab.cli import main

    assert main(["compile", "--games", "nosuch"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "nosuch" in err[0] and "purramid" in err[0]
    assert main(["compile", "--games", ","]) == 2        # an empty list is not "every game"
    assert "games must be among" in capsys.readouterr().err


@pytest.mark.slow
def test_the_built_exact_solver_gives_numbas_values_bit_for_bit(tmp_path, monkeypatch):
    """Purramid's first advise goes through the build of the exact solver: the same values as numba's code."""
    from pyradice_lab.purramid import exact as E, solver as S
    from pyradice_lab.purramid.advisor import parse_objective
    from pyradice_lab.purramid.components import load_layout

    monkeypatch.setenv(aot.AOT_DIR_ENV, str(tmp_path))
    monkeypatch.setattr(S, "_SOLVE", aot.Entry(E.solve))
    layout = load_layout("A")
    states = [(0, 4, 0), (0b1011, 3, 1), (0b111000111, 2, 0), (0b1, 5, 2)]

    def values():
        s = S.CompiledSolver(layout, parse_objective("tiles"), 0.25, "exact")
        return [s.fresh(*st) for st in states] + [s.roll_value(0b11, 1, 2, 4, 0, 0)]

    with aot.recording() as seen:
        numba_values = values()
    aot.build(E.__name__, aot.recorded(seen)[E.__name__])
    built = aot.Entry(E.solve)
    assert built.is_built
    monkeypatch.setattr(S, "_SOLVE", built)
    built.dispatcher = None          # a call that is not the build fails
    assert values() == numba_values
