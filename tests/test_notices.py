"""Cost before work and the compile warning (issue 45, parts 2 and 3): every long entry point says its estimated
cost from its size before it starts (a logged line, the progress display's estimate, one CLI line on stderr), an
ETA is shown only once it is stable, and a kernel compile is one warning of a category a user can silence.
The tests check the messages, never a time."""

from __future__ import annotations

import io
import logging
import types
import warnings

import pytest

import pyradice_lab as pl
from pyradice_lab.engine import _jit, execution, notices, registry
from pyradice_lab.engine.execution import Progress


def _cost_lines(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == notices.COST_LOGGER and r.levelno >= logging.INFO]


# ------------------------------------------------------------------------------------------------ cost table
def test_every_game_prices_its_report_and_heuristic_players():
    for name, spec in registry.games().items():
        if not spec.package.startswith("pyradice_lab."):
            continue
        for policy in (spec.report_player, spec.heuristic_player):
            per_game, basis, unknown = notices.game_cost(name, policy)
            assert unknown == () and per_game > 0, (name, policy)
            assert basis == f"{policy}, {spec.default_players} players"


def test_cost_scales_with_seats_and_mixes_line_ups():
    one, _, _ = notices.game_cost("raft", "greedy", 3)
    more, _, _ = notices.game_cost("raft", "greedy", 4)
    assert more == pytest.approx(one * 4 / 3)
    mixed, basis, _ = notices.game_cost("raft", ["greedy", "exact", "greedy"], 3)
    table = registry.get_game("raft").part("bench_plan").cost
    assert mixed == pytest.approx((2 * table["greedy"] + table["exact"]) / 3)
    assert basis == "greedy, exact, 3 players"
    assert notices.game_cost("raft", "fixed:0.8", 3)[0] == pytest.approx(table["fixed"])  # fixed:<s> is fixed
    assert notices.game_cost("raft", "greedy/no_flag", 3)[0] == pytest.approx(one)   # a restricted player
    assert notices.game_cost("raft", "nobody", 3) == (None, "nobody, 3 players", ("nobody",))


def test_a_player_count_measured_apart_is_not_scaled():
    """Purramid's exact player costs much less a game at 2 players than 2/4 of its 4-player cost (2.4x with the
    table of 2026-12-07 evening, 5x that afternoon; the cost notice of a 2-player optimal robustness check once said
    50x too much)."""
    table = registry.get_game("purramid").part("bench_plan").cost
    assert notices.game_cost("purramid", "optimal", 2)[0] == pytest.approx(table["optimal@2"])
    assert notices.game_cost("purramid", "optimal", 4)[0] == pytest.approx(table["optimal"])
    scaled = notices.game_cost("purramid", "optimal", 4)[0] * 2 / 4      # what scaling by the seats would say
    assert notices.game_cost("purramid", "optimal", 2)[0] < scaled / 2
    mixed = notices.game_cost("purramid", ["optimal", "greedy"], 2)[0]
    assert mixed == pytest.approx((table["optimal@2"] + table["greedy"] * 2 / 4) / 2)


def test_the_sentence_names_games_players_and_the_estimate():
    c = notices.Cost("raft compare", 4000, 0.0024, "greedy, 3 players", workers=2)
    assert c.sentence() == ("raft compare: 4,000 games of greedy, 3 players, estimated 9.6 CPU s (2.4 ms CPU a "
                            "game, measured), about 4.8 s on 2 workers")
    assert notices.Cost("x", 10, None, "mystery, 2 players", unknown=("mystery",)).sentence() == \
        "x: 10 games of mystery, 2 players; cost not measured for mystery"
    assert notices.duration(7560) == "2.1 h"


def test_bench_plan_refuses_a_bad_cost_table():
    from pyradice_lab.engine.plan import BenchPlan

    with pytest.raises(ValueError, match="cost must map policy names to positive CPU seconds"):
        BenchPlan(cost={"greedy": 0})
    for bad in ("greedy@", "greedy@two", "@2", "greedy@0"):
        with pytest.raises(ValueError, match="cost must map policy names"):
            BenchPlan(cost={bad: 1.0})
    for bad in ("memopool.exercise", ("exercise",), (".exercise",), (3,)):    # a bare string, no module, not a str
        with pytest.raises(ValueError, match="ahead_of_time_extra must be a tuple of 'module.function' names"):
            BenchPlan(ahead_of_time_extra=bad)
    assert BenchPlan(ahead_of_time_extra=("memopool.exercise",)).ahead_of_time_extra == ("memopool.exercise",)


# ------------------------------------------------------------------------------------------------ said first
def test_compare_says_its_cost_once_before_the_first_block(caplog, monkeypatch):
    caplog.set_level(logging.INFO, logger=notices.COST_LOGGER)
    said_at_first_block = []
    monkeypatch.setattr(execution, "after_block_hook", lambda i: said_at_first_block.append(len(_cost_lines(caplog))))
    pl.compare("raft", None, None, "game_length", games=600, players=3, policies="greedy", rng=1)
    lines = _cost_lines(caplog)
    assert said_at_first_block[0] == 1 and len(lines) == 1   # before the work, and the games inside say nothing
    assert lines[0].startswith("raft compare: 1,200 games of greedy, 3 players, estimated ")
    assert "CPU a game, measured" in lines[0]


def test_a_big_simulate_games_says_its_cost_a_small_one_stays_quiet(caplog, monkeypatch):
    from pyradice_lab import raft

    caplog.set_level(logging.INFO, logger=notices.COST_LOGGER)
    raft.simulate_games(20, players=2, policies="greedy", rng=1)
    assert _cost_lines(caplog) == []
    monkeypatch.setattr(notices, "ANNOUNCE_SECONDS", 0.0)
    raft.simulate_games(20, players=2, policies="greedy", rng=1)
    assert _cost_lines(caplog) == [notices.Cost("raft simulate_games", 20, notices.game_cost("raft", "greedy", 2)[0],
                                                "greedy, 2 players").sentence()]
    with notices.announcing():  # inside an announced call: silent
        raft.simulate_games(20, players=2, policies="greedy", rng=1)
    assert len(_cost_lines(caplog)) == 1


def test_a_games_sweep_says_its_cost(caplog):
    caplog.set_level(logging.INFO, logger=notices.COST_LOGGER)
    fn = registry.get_game("raft").sweeps["games"].fn.resolve()
    pl.run_sweep(fn, {"players": [2, 3], "policy": ["greedy"]}, trials=10, seed=1, progress=False)
    (line,) = _cost_lines(caplog)
    assert line.startswith("raft sweep of 2 cells: 20 games of greedy, 2 players; greedy, 3 players, estimated")


def test_the_cli_prints_the_cost_on_stderr(capsys, tmp_path):
    from pyradice_lab import cli

    variant = tmp_path / "v.toml"
    rc = cli.main(["raft", "components", "--dump", str(variant)])
    rc = cli.main(["raft", "compare", "--variant", str(variant), "--games", "40", "--players", "2", "--policies",
                   "greedy", "--seed", "1", "--metric", "game_length", "--no-progress"])
    err = capsys.readouterr().err.splitlines()
    assert rc == 0
    assert [x for x in err if "estimated" in x] == [next(x for x in err if x.startswith("pyradice-lab: raft compare: "
                                                                                         "80 games of greedy"))]


# ------------------------------------------------------------------------------------------------ progress
def test_no_eta_until_the_rate_is_stable_the_estimate_before():
    out = io.StringIO()
    p = Progress(100, desc="ladder", file=out, tty=False, every=0, estimate=150, intro="ladder: said first")
    assert out.getvalue().splitlines() == ["ladder: said first"]
    for _ in range(4):  # 4 of 100 blocks: below 5%
        p.update(1, 10)
    assert out.getvalue().splitlines()[-1] == "ladder: done 4/100 blocks, 40 games, estimated 2.5 min"
    p.update(1, 10)  # 5%: stable
    assert ", ETA " in out.getvalue().splitlines()[-1] and "estimated" not in out.getvalue().splitlines()[-1]
    resumed = Progress(10, file=io.StringIO(), tty=False, done=8)  # blocks read back from a cache do not count
    resumed.update(1)
    assert not resumed.stable and "ETA" not in resumed.line()


# ------------------------------------------------------------------------------------------------ compile warning
def _fake_compile(listener, module):
    def kernel():  # pragma: no cover - never called
        pass

    kernel.__module__ = module
    d = types.SimpleNamespace(py_func=kernel, _cache=type("FunctionCache", (), {})())
    event = types.SimpleNamespace(data={"dispatcher": d, "args": (), "return_type": None})
    listener.on_start(event)
    listener.on_end(event)


def test_a_compile_is_one_warning_per_kernel_group_that_a_user_can_silence():
    import pyradice_lab.meerkat  # noqa: F401
    import pyradice_lab.raft.tilting  # noqa: F401

    assert issubclass(pl.CompileWarning, UserWarning)
    listener = _jit._CompileNotice()
    with pytest.warns(pl.CompileWarning) as caught:
        _fake_compile(listener, "pyradice_lab.meerkat.kernel")
        _fake_compile(listener, "pyradice_lab.meerkat.kernel")      # the same group again: nothing more
        _fake_compile(listener, "pyradice_lab.raft.tilting")
    assert [str(w.message) for w in caught] == [
        "compiling the Meerkat engine once (about 25 s); later runs reuse it",
        "compiling the Rocking Raft tilt model once (about 1 s); later runs reuse it"]
    assert all(w.filename == __file__ for w in caught)   # it points at the user's call, not at numba
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.simplefilter("ignore", pl.CompileWarning)
        _fake_compile(_jit._CompileNotice(), "pyradice_lab.meerkat.kernel")   # silenced: no error


def test_the_progress_display_opens_with_the_cost_unless_the_logger_says_it(capsys, monkeypatch):
    log = logging.getLogger(notices.COST_LOGGER)
    before = log.level
    try:
        log.setLevel(logging.WARNING)
        pl.compare("raft", None, None, "game_length", games=40, players=2, policies="greedy", rng=1, progress=True)
        err = capsys.readouterr().err.splitlines()
        assert err[0].startswith("raft compare: 80 games of greedy, 2 players, estimated ")
        log.setLevel(logging.INFO)   # the CLI, or a user's logging at INFO: said there, once
        assert notices.intro("x") == ""
    finally:
        log.setLevel(before)


def test_a_compile_notice_in_a_pool_worker_names_no_line_of_the_pool():
    """In a worker no frame is the user's: the notice must not point at (and print) a line of the pool's source
    (the report's loky workers showed joblib's ``return self.fn(*self.args, **self.kwargs)``)."""
    import threading

    pool = {"__name__": "joblib.externals.loky.process_executor", "_jit": _jit, "warnings": warnings}
    exec("def run():\n    warnings.warn('compiling', UserWarning, stacklevel=_jit._caller_level())\n", pool)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        t = threading.Thread(target=pool["run"])
        t.start()
        t.join()
        warnings.warn("compiling", UserWarning, stacklevel=_jit._caller_level())   # the user's own call
    assert [w.filename for w in caught] == ["sys", __file__]


def test_a_sweep_of_another_function_imports_no_game():
    """Saying a game sweep's cost looks the function up among the games' lazy "games" targets by name: resolving
    them imported all four games (numba, scipy) into every sweep, 245 MB peak for the bench's subset-sum cell
    instead of about 120."""
    import subprocess
    import sys

    code = ("import sys\n"
            "from pyradice_lab.engine.sweep import run_sweep\n"
            "from pyradice_lab.report.overview import subset_sum_cell\n"
            "run_sweep(subset_sum_cell, {'dice': [3], 'target': [6]}, trials=1000, seed=0, progress=False)\n"
            "games = ('purramid', 'pyradice', 'raft', 'meerkat')\n"
            "print(sorted(m for m in sys.modules if m.count('.') > 1 and m.split('.')[1] in games), "
            "'numba' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[] False", out.stdout    # the games' packages register them; nothing more
