"""numba's on-disk cache never serves code compiled from old sources (issue 18, item 6)."""

from __future__ import annotations

import ast
import importlib
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import pyradice_lab
from pyradice_lab.engine import _sources, registry

PACKAGE = Path(pyradice_lab.__file__).parent
NUMBA_DECORATORS = {"njit", "jit", "vectorize", "guvectorize", "cfunc", "stencil"}


def package_modules():
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        yield ".".join(parts[:-1] if parts[-1] == "__init__" else parts), path


def test_no_module_compiles_without_the_source_keyed_cache():
    """Every module imports its decorators from pyradice_lab.engine._jit, never from numba directly."""
    offenders = []
    for name, path in package_modules():
        if name == "pyradice_lab.engine._jit":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "numba":
                bad = {a.name for a in node.names} & NUMBA_DECORATORS
                if bad:
                    offenders.append(f"{name}: from {node.module} import {', '.join(sorted(bad))}")
            if (isinstance(node, ast.Attribute) and node.attr in NUMBA_DECORATORS
                    and isinstance(node.value, ast.Name) and node.value.id == "numba"):
                offenders.append(f"{name}: numba.{node.attr}")
    assert not offenders, "use `from .._jit import njit`: " + "; ".join(offenders)


def cached_dispatchers():
    from numba.core.registry import CPUDispatcher

    registry.games()
    found = []
    for name, _path in package_modules():
        if name.endswith(("__main__",)):
            continue
        mod = importlib.import_module(name)
        for attr, obj in vars(mod).items():
            if isinstance(obj, CPUDispatcher) and obj.py_func.__module__ == name and obj._cache.__class__.__name__ != \
                    "NullCache":
                found.append((f"{name}.{attr}", obj))
    return found


def test_every_cached_kernel_of_every_game_uses_the_source_keyed_locator():
    from pyradice_lab.engine._jit import SourceTreeLocator, cache_is_keyed_on_sources

    assert cache_is_keyed_on_sources()
    found = cached_dispatchers()
    games = {name.split(".")[1] for name, _ in found}
    assert {"purramid", "pyradice", "raft", "meerkat"} <= games, games
    wrong = [name for name, d in found if not isinstance(d._cache._impl.locator, SourceTreeLocator)]
    assert not wrong
    # the stamp is the fingerprint of the defining file's sources
    name, d = found[0]
    assert d._cache._cache_file._source_stamp[1] == _sources.fingerprint(d.py_func.__code__.co_filename)


@pytest.fixture
def package_copy(tmp_path, monkeypatch):
    """A copy of the package (no compiled files) that _sources treats as the package."""
    root = tmp_path / "src"
    shutil.copytree(PACKAGE, root / "pyradice_lab", ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
    monkeypatch.setattr(_sources, "PACKAGE_DIR", (root / "pyradice_lab").resolve())
    monkeypatch.setattr(_sources, "_ROOT", root.resolve())
    return root / "pyradice_lab"


def test_fingerprint_changes_with_every_imported_module_and_only_those(package_copy):
    """For the compiled modules of every game: an edit anywhere in their import closure (or their data)
    changes the fingerprint; an edit of a module they never import does not."""
    compiled = sorted({Path(d.py_func.__code__.co_filename).relative_to(PACKAGE) for _, d in cached_dispatchers()})
    assert len({p.parts[0] for p in compiled}) == 4
    for rel in compiled:
        target = package_copy / rel
        deps = _sources.dependency_files(target)
        before = _sources.fingerprint(target)
        assert target.resolve() in deps
        for dep in deps:
            text = dep.read_bytes()
            dep.write_bytes(text + b"\n# edited\n")
            assert _sources.fingerprint(target) != before, (rel, dep)
            dep.write_bytes(text)
        assert _sources.fingerprint(target) == before
        outside = package_copy / rel.parts[0] / "report.py"
        assert outside.resolve() not in deps
        outside.write_text(outside.read_text() + "\n# edited\n")
        assert _sources.fingerprint(target) == before, rel
    # meerkat's compiled engine spans modules: kernel.py depends on rules.py
    kernel = _sources.dependency_files(package_copy / "meerkat" / "kernel.py")
    assert (package_copy / "meerkat" / "rules.py").resolve() in kernel


def test_lazy_package_names_resolve_to_their_submodule(package_copy):
    def deps_of(source: str) -> set[str]:
        f = package_copy / "probe.py"
        f.write_text(source)
        return {p.relative_to(package_copy.resolve()).as_posix() for p in _sources.dependency_files(f)}

    # two probes: a whole game package reaches its cli and report, hence the top-level cli and every game
    deps = deps_of("from pyradice_lab.purramid import simulate_games\n")
    assert "purramid/sim.py" in deps and "purramid/report.py" not in deps  # through the attach table
    assert "raft/report.py" in deps_of("from pyradice_lab import raft\n")  # a whole package imported: all of it


PROBE = """
import sys
from pyradice_lab.meerkat import kernel
value = kernel._probe_engine(1)
print(value, sum(kernel._probe_engine.stats.cache_hits.values()))
"""


def run_probe(src: Path) -> tuple[int, int]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    env["PYTHONPATH"] = str(src)
    res = subprocess.run([sys.executable, "-c", PROBE], env=env, cwd=src, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    value, hits = res.stdout.split()
    return int(value), int(hits)


@pytest.mark.slow
def test_editing_a_rule_module_recompiles_the_engine_that_calls_it(tmp_path):
    """In a copy of the package: a compiled function of meerkat/kernel.py calls a rule of meerkat/rules.py.
    Edit the rule: the next run recompiles the kernel function (numba alone would load the stale one)."""
    src = tmp_path / "src"
    pkg = src / "pyradice_lab"
    shutil.copytree(PACKAGE, pkg, ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
    rules, kernel = pkg / "meerkat" / "rules.py", pkg / "meerkat" / "kernel.py"
    rules.write_text(rules.read_text() + textwrap.dedent("""

        @njit(cache=True)
        def _probe_rule(x):
            return x + 1
        """))
    kernel.write_text(kernel.read_text() + textwrap.dedent("""

        from .rules import _probe_rule  # noqa: E402


        @njit(cache=True)
        def _probe_engine(x):
            return _probe_rule(x) * 10
        """))
    assert run_probe(src) == (20, 0)           # compiled and cached
    assert run_probe(src) == (20, 1)           # loaded from the cache
    rules.write_text(rules.read_text().replace("return x + 1", "return x + 2"))
    assert run_probe(src) == (30, 0)           # the rule changed: recompiled, not the stale 20
    assert run_probe(src) == (30, 1)


def test_import_scanner_reads_every_form_and_skips_type_checking(package_copy):
    f = package_copy / "engine" / "probe2.py"
    f.write_text(textwrap.dedent('''
        """Docstring.

        >>> from pyradice_lab import report   # an example, not an import of this module
        """
        from typing import TYPE_CHECKING

        from .stats import (
            Estimate,  # a comment
            mean_estimate,
        )
        import pyradice_lab.engine.dice as d, pyradice_lab.engine.rng

        if TYPE_CHECKING:
            from .registry import GameSpec
            from . import bench

        def f():
            from ..purramid.chance import multisets
            return multisets
        '''))
    deps = {p.relative_to(package_copy.resolve()).as_posix() for p in _sources.dependency_files(f)}
    assert {"engine/stats.py", "engine/dice.py", "engine/rng.py", "purramid/chance.py"} <= deps
    assert not {"engine/registry.py", "bench.py", "engine/bench.py", "report/build.py"} & deps


def test_a_constant_argument_from_compiled_code_does_not_make_a_literal_specialisation():
    """A call from compiled code with constants (or a variable that starts as one) compiles the callee once,
    for plain types: no ``Literal[int](0)`` copy of a kernel (Purramid's exact solver was compiled twice)."""
    from pyradice_lab.engine._jit import njit

    @njit
    def inner(a, b):
        return a + b

    @njit
    def outer(x):
        p = 0
        for i in range(x):
            p |= inner(i, 5)
        return inner(x, 0) + inner(p, np.int64(1))

    assert outer(3) == 3 + 7 + 1
    assert len(inner.signatures) == 1
    assert "Literal" not in str(inner.signatures[0])

    @njit(cache=False)
    def branch(a, flag=True):  # a branch on an argument that is None is still pruned at compile time
        if flag is None:
            return a
        return inner(a, 1)

    assert branch(1, None) == 1 and branch(1) == 2
