"""Every registered benchmark row runs: each case of ``pyradice-lab bench`` (full, ``--long`` and ``--first-use``
rows) built and called once at its smallest size inside :func:`pyradice_lab.engine.benchcase.tiny`, so a
broken row (a renamed function, a cache that is no longer there) fails here, not after minutes of benchmark."""

from __future__ import annotations

import subprocess

import pytest

from pyradice_lab import bench
from pyradice_lab.engine import benchcase
from pyradice_lab.engine.sweep import stop_worker_processes


@pytest.fixture
def no_pool_left():
    yield
    stop_worker_processes()  # the sweep-efficiency rows start loky workers in this process


@pytest.mark.slow  # about 30 s on a loaded machine (numba caches filled): every game is loaded and played
def test_every_registered_bench_row_runs_once_at_tiny_size(no_pool_left):
    with benchcase.tiny():
        cases = bench.all_cases(quick=False, long=True) + bench.first_use_cases(quick=False)
        df = bench.run_bench(cases)
    assert len(df) == len(cases)
    names = set(df["kernel"])
    assert {"meerkat.placement_table (exact, 40 cells)", "raft.tilt cold compile (empty numba cache)"} <= names
    assert set(df["game"]) == {"core", "purramid", "pyradice", "raft", "meerkat"}
    # every row did some work (a rate) and, where it has one, its reference path too
    assert (df["work_per_s"] > 0).all(), df.loc[~(df["work_per_s"] > 0), "kernel"].tolist()
    with_ref = df["reference"] != "-"
    assert (df.loc[with_ref, "reference_per_s"] > 0).all()


def test_quick_rows_are_the_same_rows_at_other_sizes():
    """``--quick`` builds no row the full bench lacks (so the tiny run above covers it), bar the rows it drops."""
    with benchcase.tiny():
        quick = {c.kernel for c in bench.all_cases(quick=True)}
        full = {c.kernel for c in bench.all_cases(quick=False, long=True)}
    # sizes appear in some row names; compare the names with their numbers removed
    def shape(name):
        return "".join("#" if ch.isdigit() else ch for ch in name).replace("e+#", "#")
    assert {shape(k) for k in quick} - {shape(k) for k in full} <= {
        shape("purramid exact solver: fresh 5-dice turn, bottom row covered side A, bonus=exact (cold memo)"),
        shape("sweep cell core.subset-sum, 1e+07 trials: peak memory")}


def test_tiny_runs_fresh_interpreter_code_in_this_process_and_restores_argv():
    import sys

    argv = list(sys.argv)
    with benchcase.tiny():
        out = benchcase.run_python("import sys\nprint(sys.argv[1:])\nsys.exit(3)", ["a", "b"])
        assert benchcase.sized(10 ** 9, tiny=2) == 2
    assert (out.returncode, out.stdout.strip()) == (3, "['a', 'b']")
    assert sys.argv == argv and not benchcase.is_tiny()
    assert benchcase.sized(10 ** 9, tiny=2) == 10 ** 9
    real = benchcase.run_python("import sys\nprint(len(sys.argv))", ["x"], check=True)
    assert real.stdout.strip() == "2"
    with pytest.raises(subprocess.CalledProcessError):
        benchcase.run_python("raise SystemExit(4)", check=True)


def test_every_jit_disabled_reference_path_runs_with_the_jit_really_disabled():
    """The rows' "same code, NUMBA_DISABLE_JIT=1" references in one real child with the JIT disabled, at their tiny
    sizes: ``tiny()`` runs child code in this process, where the JIT is on, so it cannot see a path that fails
    without it (the full bench stopped after 13 minutes when the ahead-of-time entries needed numba's
    dispatcher: ``'function' object has no attribute 'py_func'``)."""
    import json

    benchcase.JIT_DISABLED_TARGETS.clear()
    with benchcase.tiny():
        bench.all_cases(quick=False, long=True)
    targets = {(t, json.dumps(kw, sort_keys=True)) for t, kw in benchcase.JIT_DISABLED_TARGETS}
    assert {t.split(".")[1] for t, _ in targets} == {"purramid", "pyradice", "raft", "meerkat"}
    code = ("import importlib, json, sys\n"
            "import numba\n"
            "assert numba.config.DISABLE_JIT\n"
            "for target, kw in json.loads(sys.argv[1]):\n"
            "    module, _, func = target.partition(':')\n"
            "    assert getattr(importlib.import_module(module), func)(**json.loads(kw)) > 0, target\n"
            "print('ok')\n")
    out = benchcase.run_python(code, [json.dumps(sorted(targets))], env={"NUMBA_DISABLE_JIT": "1"})
    assert out.returncode == 0 and out.stdout.strip().endswith("ok"), out.stderr[-2000:]
