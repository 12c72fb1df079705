"""The first-use bench rows (issue 16) and what keeps Purramid's first simulation cheap.

No speed is asserted here (``pyradice-lab bench --first-use`` measures it): the tests check which rows the
first-use bench builds, that bad arguments are refused, and -- statically, without compiling anything -- that
the compiled loop of human-style Purramid games cannot reach the exact solver, so a first greedy simulation
never compiles it.
"""

from __future__ import annotations

import types

import pytest
from numba.core.registry import CPUDispatcher

from pyradice_lab import bench, cli
from pyradice_lab.engine import registry


def test_first_use_rows_one_uniform_cold_row_per_game():
    cases = bench.first_use_cases(quick=True)
    cold = [c for c in cases if "first simulate_games(100 games), empty numba cache" in c.kernel and c.max_seconds]
    assert sorted(c.game for c in cold) == sorted(registry.games())
    assert all(c.max_seconds == 3.0 and c.cpu and c.repeat == 1 for c in cold)
    core = [c.kernel for c in cases if c.game == "core"]
    assert any(k.startswith("import pyradice_lab") for k in core)
    assert any("pyradice-lab games" in k for k in core)
    assert any("pool reused" in k for k in core)
    assert not any("peak memory" in c.kernel for c in cases)


def test_first_use_rows_filter_by_game_and_extra_rows():
    cases = bench.first_use_cases(quick=False, games=["purramid"])
    assert {c.game for c in cases} == {"purramid"}
    assert any("optimal seat" in c.kernel and c.max_seconds is None for c in cases)
    rows = bench.first_use_cases(quick=False, games=["purramid"], extra=False)
    # the cold row (target), the same first calls without the ahead-of-time build (no target), the warm-cache
    # floor and the first advise (target; issue 45)
    assert [c.max_seconds for c in rows] == [3.0, None, None, None, 3.0] and "first advise" in rows[4].kernel
    assert all("no ahead-of-time build" in c.kernel for c in rows[1:3]) and "first advise" in rows[2].kernel
    assert "later process" in rows[3].kernel and rows[3].cpu
    # the targeted rows say whether the build was there
    assert all("ahead-of-time build" in rows[i].kernel for i in (0, 4))


def test_first_use_warm_rows_one_per_game_without_target():
    warm = [c for c in bench.first_use_cases(quick=False, extra=False) if "later process" in c.kernel]
    assert sorted(c.game for c in warm) == sorted(registry.games())
    assert all(c.max_seconds is None and c.cpu for c in warm)
    assert not any("later process" in c.kernel for c in bench.first_use_cases(quick=True))


def test_first_use_rejects_unknown_game():
    with pytest.raises(ValueError, match="game must be 'core' or one of"):
        bench.first_use_cases(games=["chess"])


@pytest.mark.parametrize("argv", [["bench", "--first-use", "--long"], ["bench", "--first-use", "--games", "chess"]])
def test_cli_bench_first_use_bad_arguments_exit_2(argv, capsys):
    assert cli.main(argv) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def _reachable(fn) -> set[str]:
    """Names of the compiled functions and modules that ``fn`` (a numba dispatcher) can call, recursively,
    read from the global names its Python code uses."""
    seen: set[str] = set()
    todo = [fn]
    while todo:
        f = todo.pop()
        py = f.py_func
        for name in py.__code__.co_names:
            obj = py.__globals__.get(name)
            if isinstance(obj, CPUDispatcher):
                key = f"{obj.py_func.__module__}.{obj.__name__}"
                if key not in seen:
                    seen.add(key)
                    todo.append(obj)
            elif isinstance(obj, types.ModuleType):
                seen.add(obj.__name__)
                for attr in py.__code__.co_names:
                    sub = getattr(obj, attr, None)
                    if isinstance(sub, CPUDispatcher):
                        key = f"{sub.py_func.__module__}.{sub.__name__}"
                        if key not in seen:
                            seen.add(key)
                            todo.append(sub)
    return seen


def test_purramid_human_games_loop_cannot_reach_the_exact_solver():
    from pyradice_lab.purramid import kernel

    human = _reachable(kernel.run_games)
    assert "pyradice_lab.purramid.kernel.human_turn" in human
    solver = ("pyradice_lab.purramid.exact", "pyradice_lab.purramid._exact_options")
    assert not any(name.startswith(solver) or name.endswith("optimal_turn") for name in human)
    # the walker does see the solver where it is used: the loop with optimal seats reaches it
    optimal = _reachable(kernel.run_games_optimal)
    assert "pyradice_lab.purramid.exact.solve" in optimal
    assert "pyradice_lab.purramid._exact_options._roll_sum" in optimal
    assert "pyradice_lab.purramid.kernel.human_turn" in optimal


# -- the contract part: each game declares its uniform bench rows (plan.BENCH); bench.py names no game -------------
def test_every_builtin_game_declares_a_bench_plan():
    from pyradice_lab.engine.plan import BenchPlan

    for game in registry.BUILTIN_GAMES:
        plan = registry.get_game(game).part("bench_plan")
        assert isinstance(plan, BenchPlan) and bench.bench_plan(game) is plan
        assert plan.memory is not None and {10 ** 4, 10 ** 5, 10 ** 6} <= set(plan.memory_bound_mb)


def test_execution_rows_use_the_declared_calls():
    """The calls of the parallel-efficiency rows, as bench.EFFICIENCY_CALLS held them before issue 42."""
    assert bench.efficiency_calls() == {
        "robustness": ("pyradice_lab.design.robustness:robustness", {"game": "raft", "finding": "game_length > 10",
                                                                     "reconstructions": 7, "rng": 1}, "games", 8),
        "ladder": ("pyradice_lab.design.strength:ladder", {"game": "raft", "policies": ["random", "greedy", "aim"],
                                                           "rng": 1}, "games", 6)}


def test_a_game_without_a_bench_plan_gets_no_uniform_rows(monkeypatch):
    real = registry.GameSpec.part

    def part(self, role, *default):
        if (self.name, role) == ("raft", "bench_plan"):
            return default[0] if default else None
        return real(self, role, *default)

    monkeypatch.setattr(registry.GameSpec, "part", part)
    assert bench.game_cases("raft") == []
    assert not [c for c in bench.first_use_cases(quick=True) if c.game == "raft"]
    assert "robustness" not in bench.efficiency_calls()


def test_import_row_imports_every_library_game_package():
    from pyradice_lab.engine import benchcase

    with benchcase.tiny():
        row = next(c for c in bench.core_cases(quick=True) if "game packages" in c.kernel)
    n = len(registry.BUILTIN_GAMES)
    assert row.kernel == f"import pyradice_lab + {n} game packages (CPU above numpy, pandas)"
    assert bench._library_games() == [registry.get_game(g).package for g in registry.BUILTIN_GAMES]


def test_first_use_rows_time_every_games_first_advise_against_3_cpu_seconds():
    """Issue 45: the first ``advise`` of each game, in a fresh process with an empty numba cache, target 3 CPU s."""
    from pyradice_lab.engine import registry

    cases = bench.first_use_cases(quick=True)
    advise = {c.game: c for c in cases if "first advise" in c.kernel}
    assert set(advise) == {g for g, s in registry.games().items() if s.part("advise", None) is not None
                           and s.part("position_from_game", None) is not None and bench.bench_plan(g) is not None}
    assert all(c.max_seconds == 3.0 and c.cpu and "empty numba cache" in c.kernel for c in advise.values())
    doc = bench.position_doc("raft")
    assert bench.first_advise("raft", doc) == 1


# -- issue 45: what a first advise compiles --------------------------------------------------------------------------
def test_pyradice_search_functions_compile_with_the_kernel_options():
    """The search's two compiled functions (a first Pyradice ``advise`` compiles them with the game kernel) use the
    kernels' options: no reference counting, no rewrite passes (a shorter cold compile, the same numbers)."""
    from pyradice_lab.pyradice import _search_candidates, kernel, search

    options = {k: v for k, v in kernel.KERNEL_OPTIONS.items() if k != "cache"}   # cache is not a target option
    assert options and kernel.KERNEL_OPTIONS.get("cache") is True
    for f in (search.evaluate_rows, _search_candidates.move_values):
        assert type(f._cache).__name__ != "NullCache", f.__name__
        for name, value in options.items():
            assert f.targetoptions.get(name) == value, (f.__name__, name)


def test_raft_expected_values_compile_no_slice_fills():
    """Raft's ``option_expectations`` (a first ``advise`` compiles it) fills its scratch arrays with loops: every
    slice assignment or slice is one more function numba compiles on a first call."""
    import dis

    from pyradice_lab.raft.expectation import option_expectations

    ops = {i.opname for i in dis.get_instructions(option_expectations.py_func)}
    assert "BUILD_SLICE" not in ops
