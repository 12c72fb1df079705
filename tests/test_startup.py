"""Start-up stays cheap: importing the library or a game package loads no heavy dependency, and the bench
helpers that measure start-up, first-call and memory costs in a fresh process work.

Speed itself is never asserted here (``pyradice-lab bench`` measures it); what is checked is which modules
get imported, in a fresh interpreter so nothing this test process already loaded hides an import.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys

import numpy as np
import pytest

from pyradice_lab import bench
from pyradice_lab.engine import registry

HEAVY = ("scipy", "numba", "pandas", "matplotlib")


def _loaded_after(*modules: str) -> list[str]:
    code = ("import json, sys\n"
            f"for m in {list(modules)!r}:\n"
            "    __import__(m)\n"
            f"print(json.dumps(sorted({{k.split('.')[0] for k in sys.modules}} & {set(HEAVY)!r})))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_import_pyradice_lab_loads_no_heavy_dependency():
    assert _loaded_after("pyradice_lab") == []


@pytest.mark.parametrize("game", registry.BUILTIN_GAMES)
def test_import_a_game_package_loads_no_heavy_dependency(game):
    assert _loaded_after("pyradice_lab", f"pyradice_lab.{game}") == []


def test_cli_help_and_games_never_import_numpy():
    """``pyradice-lab --help`` and ``games`` import the package and the games' ``__init__`` only (issue 16: CLI
    start-up); numpy alone is a third of a 0.3 s budget."""
    code = ("import json, sys, contextlib, io\n"
            "from pyradice_lab.cli import main\n"
            "for argv in (['games'], ['--help']):\n"
            "    with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
            "        main(argv)\n"
            f"heavy = {{'numpy', *{HEAVY!r}}}\n"
            "print(json.dumps(sorted({k.split('.')[0] for k in sys.modules} & heavy)))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []


def test_the_check_can_fail():
    assert _loaded_after("pyradice_lab.report.build") != []  # the report engine does load matplotlib and pandas


def test_sweep_cell_of_the_core_target_loads_no_plotting():
    # loky workers unpickle the cell function by importing its module: it must not drag in matplotlib
    assert "matplotlib" not in _loaded_after("pyradice_lab.report.overview")


# ----------------------------------------------------------------------------------------- bench helpers
def test_fresh_process_reports_cpu_wall_memory_and_the_return_value():
    r = bench.fresh_process("pyradice_lab.engine.dice:check_dice_count", {"k": 3})
    assert r["units"] == 3 and r["value"] == 3
    assert r["cpu"] >= 0 and r["wall"] >= 0 and r["peak_mb"] >= r["base_mb"] > 0
    with pytest.raises(RuntimeError, match="failed in a fresh process"):
        bench.fresh_process("pyradice_lab.engine.dice:check_dice_count", {"k": 99})
    with pytest.raises(ValueError, match="module:function"):
        bench.fresh_process("pyradice_lab.engine.dice.check_dice_count")


def test_peak_memory_is_the_childs_own_not_its_parents():
    ballast = np.ones(300 * 2 ** 20 // 8)  # this process holds 300 MB more than a fresh interpreter
    r = bench.fresh_process("pyradice_lab.engine.dice:check_dice_count", {"k": 3})
    assert ballast.sum() > 0 and r["peak_mb"] < 250


def test_cold_start_gives_the_child_a_new_numba_cache_dir():
    got = bench.fresh_process("os:getenv", {"key": "NUMBA_CACHE_DIR"}, empty_numba_cache=True)["value"]
    assert "pyradice_lab_bench_" in got  # a new temporary directory, deleted afterwards
    r = bench.cold_start("os:getenv", key="HOME")()
    assert isinstance(r, bench.Measured) and r.units == 1 and r.seconds >= 0 and r.peak_mb > 0


def test_peak_memory_targets_are_judged():
    def fat():
        return bench.Measured(10, 0.01, 500.0)

    df = bench.run_bench([bench.BenchCase("fat", "things", fat, max_peak_mb=100, repeat=1),
                          bench.BenchCase("thin", "things", fat, max_peak_mb=1000, repeat=1)], quick=True)
    assert df["ok"].tolist() == [False, True]
    assert df["peak_rss_mb"].tolist() == [500.0, 500.0]
    text = bench.format_bench(df)
    assert "500 MB" in text and "peak RSS <= 100 MB" in text


def test_cpu_rows_say_so():
    df = bench.run_bench([bench.BenchCase("cpu", "calls", lambda: bench.Measured(1, 2.0), max_seconds=3.0, cpu=True,
                                          repeat=1)], quick=True)
    assert bool(df["ok"].iloc[0]) and df["clock"].iloc[0] == "cpu"
    assert "2 s CPU" in bench.format_bench(df) and "<= 3 s CPU" in bench.format_bench(df)
    assert math.isnan(df["peak_rss_mb"].iloc[0])


def test_every_game_gets_cold_start_and_memory_rows():
    for game in registry.BUILTIN_GAMES:
        rows = bench.game_cases(game, quick=False, long=True)
        names = [c.kernel for c in rows]
        if bench.bench_plan(game).cold is None:  # the game's own bench measures its first call
            own = registry.get_game(game).module("bench")
            assert callable(getattr(own, "first_call_cold", None) or getattr(own, "first_call", None))
        else:
            assert any("empty numba cache" in n for n in names)
        assert sum("peak memory" in n for n in names) == 2  # 10**5 and 10**6 games
        # every row has a target, bar the informational variance-reduction rows (their ratio is the measured factor)
        assert all(c.max_seconds or c.max_peak_mb for c in rows
                   if "multi-fidelity" not in c.kernel and "control variates" not in c.kernel)
        assert sum("multi-fidelity" in n for n in names) == (bench.bench_plan(game).multifidelity is not None)
        assert sum("control variates" in n for n in names) == (bench.bench_plan(game).controls is not None)


def test_icepool_peer_computes_the_same_burst_counts():
    pytest.importorskip("icepool")
    from pyradice_lab.purramid.bench import icepool_burst_counts
    from pyradice_lab.purramid.odds import burst_counts

    assert np.array_equal(icepool_burst_counts(4), burst_counts(4))
