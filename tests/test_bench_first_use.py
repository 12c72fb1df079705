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
    cold = [c for c in cases if c.kernel.endswith("first simulate_games(100 games), empty numba cache")]
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
    assert [c.max_seconds for c in rows] == [3.0, None]  # the cold row (target) and the warm-cache floor
    assert "later process" in rows[1].kernel and rows[1].cpu


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
