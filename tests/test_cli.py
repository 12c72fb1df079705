import argparse
import contextlib
import os
import signal
import subprocess
import sys
import time

import pandas as pd
import pytest

from pyradice_lab import cli


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "pyradice_lab.cli", *args], capture_output=True, text=True)


def test_help_everywhere(capsys):
    top = run_cli("--help")
    assert top.returncode == 0 and "report" in top.stdout and "sweep" in top.stdout
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    for name, subparser in sub.choices.items():
        with pytest.raises(SystemExit) as exc:
            cli.main([name, "--help"])
        assert exc.value.code == 0, name
        assert "usage:" in capsys.readouterr().out
        # and one level deeper (the games' own subcommands)
        for action in subparser._actions:
            if isinstance(action, type(sub)):
                for leaf in action.choices:
                    with pytest.raises(SystemExit) as exc:
                        cli.main([name, leaf, "--help"])
                    assert exc.value.code == 0, (name, leaf)
                    assert "usage:" in capsys.readouterr().out


@pytest.mark.parametrize(
    "args",
    [
        ("sweep", "core.subset-sum", "--trials", "0"),
        ("sweep", "core.subset-sum", "--trials", "10", "--grid", "dice=9"),
        ("sweep", "no.such-target"),
        ("sweep", "core.subset-sum", "--grid", "colour=red"),
        ("report", "--out", "x.txt"),
        ("report", "--jobs", "0"),
        ("bench", "--games", "nosuchgame"),
        ("nosuchcommand",),
    ],
)
def test_bad_input_one_line_exit_2(args):
    res = run_cli(*args)
    assert res.returncode == 2, res.stderr
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, res.stderr
    assert "error:" in lines[0] and "Traceback" not in res.stderr


def test_games_lists_registered_games():
    from pyradice_lab.engine import registry

    res = run_cli("games")
    assert res.returncode == 0
    for name in registry.games():
        assert name in res.stdout


def test_sweep_writes_csv(tmp_path):
    out = tmp_path / "s.csv"
    res = run_cli("sweep", "core.subset-sum", "--grid", "dice=1,2", "--grid", "target=6", "--trials", "2000",
                  "--seed", "3", "--jobs", "2", "--out", str(out), "--no-progress")
    assert res.returncode == 0, res.stderr
    df = pd.read_csv(out)
    assert df["dice"].tolist() == [1, 2]
    assert {"p", "p_se", "p_ci_low", "p_ci_high", "exact", "seed_entropy", "seed_spawn_key"} <= set(df.columns)
    assert abs(df["exact"].iloc[0] - 1 / 6) < 1e-12


def test_sweep_list():
    res = run_cli("sweep", "--list")
    assert res.returncode == 0 and "core.subset-sum" in res.stdout


def test_main_returns_2_in_process(capsys):
    assert cli.main(["sweep", "core.subset-sum", "--trials", "5", "--grid", "target=99", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "target" in err


# ----------------------------------------------------------------------------------------- checked before work
LONG = "n" * 300


def bad_path_cases(tmp):
    afile = tmp / "afile"
    afile.write_text("x")
    folder = tmp / "exists.pdf"
    folder.mkdir(exist_ok=True)
    csv_folder = tmp / "exists.csv"
    csv_folder.mkdir(exist_ok=True)
    return [
        (("sweep", "core.subset-sum", "--out", f"{afile}/x.csv"), "is a file, not a folder"),
        (("sweep", "core.subset-sum", "--out", f"{tmp}/missing/x.csv"), "does not exist"),
        (("sweep", "core.subset-sum", "--out", str(csv_folder)), "existing folder"),
        (("sweep", "core.subset-sum", "--out", f"{tmp}/{LONG}.csv"), "too long"),
        (("sweep", "core.subset-sum", "--cache-dir", str(afile)), "is a file, not a folder"),
        (("sweep", "core.subset-sum", "--cache-dir", f"{afile}/sub"), "is a file, not a folder"),
        (("sweep", "core.subset-sum", "--cache-dir", f"{tmp}/{LONG}"), "too long"),
        (("sweep", "core.subset-sum", "--cache-dir", ""), "must be a path"),
        (("report", "--quick", "--out", str(folder)), "existing folder"),
        (("report", "--quick", "--out", f"{tmp}/missing/r.pdf"), "does not exist"),
        (("report", "--quick", "--out", f"{afile}/r.pdf"), "is a file, not a folder"),
        (("report", "--quick", "--out", f"{tmp}/{LONG}.pdf"), "too long"),
        (("bench", "--quick", "--out", f"{afile}/b.csv"), "is a file, not a folder"),
        (("purramid", "simulate", "--games", "5", "--out", f"{afile}/x.csv"), "is a file, not a folder"),
        (("pyradice", "simulate", "--games", "5", "--out", f"{tmp}/missing/x.csv"), "does not exist"),
        (("raft", "simulate", "--games", "5", "--out", str(csv_folder)), "existing folder"),
        (("meerkat", "simulate", "--games", "5", "--out", f"{tmp}/{LONG}.csv"), "too long"),
        (("meerkat", "simulate", "--games", "5", "--out", f"{tmp}/x.txt"), "must end in .csv"),
    ]


def one_line_error(res, match):
    assert res.returncode == 2, (res.returncode, res.stderr)
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and "error:" in lines[0] and "Traceback" not in res.stderr, res.stderr
    assert match in lines[0], lines[0]


def test_output_paths_are_refused_before_any_work(tmp_path):
    for args, match in bad_path_cases(tmp_path):
        res = run_cli(*args)
        one_line_error(res, match)
        assert res.stdout == "", (args, "nothing may be computed before the paths are checked")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile", "exists.csv", "exists.pdf"]


def test_every_option_that_writes_uses_the_shared_path_check():
    parser = cli.build_parser()
    found = []

    def walk(p, where):
        for action in p._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    walk(sub, where + (name,))
            elif action.dest in ("out", "cache_dir") or any(
                    o in ("--out", "--cache-dir", "--output") for o in action.option_strings):
                found.append(where + (action.dest,))
                assert getattr(action.type, "output_path", False), (where, action.dest)

    walk(parser, ())
    assert {w[0] for w in found} >= {"report", "sweep", "bench", "purramid", "pyradice", "raft", "meerkat"}


@pytest.mark.parametrize(("args", "match"), [
    (("pyradice", "play", "--policies", ","), "--policies"),
    (("pyradice", "simulate", "--policies", "greedy,,greedy"), "--policies"),
    (("purramid", "play", "--policies", ","), "--policies"),
    (("raft", "simulate", "--policies", ",greedy"), "--policies"),
    (("meerkat", "play", "--policy", ","), "--policy"),
    (("meerkat", "score", "--tile", "7", "--counts", "1,2", "--values", "6"), "--values"),
    (("meerkat", "score", "--tile", "7", "--counts", "1,2", "--values", "3,6"), "--values"),
    (("meerkat", "score", "--tile", "7", "--counts", "1,2", "--values", "6,-3"), "--values"),
    (("meerkat", "score", "--tile", "7", "--counts", "1,2", "--queens", "2,0"), "--queens"),
    (("sweep", "core.subset-sum", "--trials", "10", "--backend", "dask", "--scheduler", "tcp://127.0.0.1:1",
      "--no-progress"), "could not be reached"),
])
def test_bad_cli_input_is_one_line(args, match):
    res = run_cli(*args)
    one_line_error(res, match)
    assert res.stdout == ""


def test_meerkat_score_accepts_good_values_and_queens():
    res = run_cli("meerkat", "score", "--tile", "7", "--counts", "2,0", "--queens", "0,1", "--values", "6,3")
    assert res.returncode == 0, res.stderr
    assert "-> 3 points" in res.stdout and "-> 6 points" in res.stdout  # the queen's 2.5 beats 2


@pytest.mark.parametrize("exc", [MemoryError(), OSError(28, "No space left on device", "out.csv"),
                                 RecursionError("maximum recursion depth exceeded")])
def test_os_and_memory_errors_are_one_line_with_status_2(monkeypatch, capsys, exc):
    def boom(args):
        raise exc

    monkeypatch.setattr(cli, "_cmd_games", boom)
    assert cli.main(["games"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("pyradice-lab: error: ")
    if isinstance(exc, OSError):
        assert "out.csv: No space left on device" in err


@pytest.mark.slow
def test_sigterm_stops_a_parallel_sweep_and_its_workers(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "pyradice_lab.cli", "sweep", "core.subset-sum", "--trials",
                             "100000000", "--jobs", "2", "--cache-dir", str(tmp_path / "c"), "--no-progress"],
                            stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        kids: set[int] = set()
        while time.monotonic() < deadline and len(kids) < 2:
            out = subprocess.run(["ps", "-ww", "-o", "pid=,args=", "--ppid", str(proc.pid)], capture_output=True,
                                 text=True).stdout
            kids = {int(ln.split()[0]) for ln in out.splitlines() if "popen_loky" in ln}
            time.sleep(0.2)
        assert len(kids) >= 2
        time.sleep(1)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 143 and err.strip().splitlines() == [
            "pyradice-lab: terminated (finished work was kept)"]
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and any(
                subprocess.run(["ps", "-o", "stat=", "-p", str(k)], capture_output=True, text=True).stdout.strip()
                not in ("", "Z") for k in kids):
            time.sleep(0.2)
        assert all(subprocess.run(["ps", "-o", "stat=", "-p", str(k)], capture_output=True, text=True)
                   .stdout.strip() in ("", "Z") for k in kids)
        assert not list((tmp_path / "c").glob(".tmp-*"))
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)


# -- the CLI reaches every game through the registry -----------------------------------------------------------------
def test_ladder_default_comes_from_the_games_plan(capsys):
    from pyradice_lab._cli_strength import report_ladder
    from pyradice_lab.engine import registry

    for game, spec in registry.games().items():
        assert report_ladder(game) == (spec.part("plan").cli_ladder == "report")
    assert report_ladder("meerkat") and not report_ladder("raft")
    spec = registry.get_game("meerkat")
    with pytest.raises(SystemExit):
        cli.main(["meerkat", "ladder", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert (f"(default: the report's players at --players, {spec.heuristic_player} and the report player of that "
            f"count ({spec.report_player} at {spec.default_players})") in text


def test_game_help_is_the_description_of_its_cli_module(capsys):
    from pyradice_lab.engine import registry

    for game, spec in registry.games().items():
        with pytest.raises(SystemExit):
            cli.main([game, "--help"])
        text = "".join(capsys.readouterr().out.split())  # argparse wraps lines (also at hyphens)
        assert "".join(spec.module("cli").DESCRIPTION.split()) in text


def test_top_help_lists_the_registered_games(capsys):
    from pyradice_lab.engine import registry

    with pytest.raises(SystemExit):
        cli.main(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert all(spec.title in text for spec in registry.games().values())


def test_components_table_is_the_games_declared_format(capsys):
    assert cli.main(["raft", "components"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("raft components (packaged;") and "source" in out


def test_the_shared_subcommands_live_in_private_modules():
    import pyradice_lab._cli_designer as designer
    import pyradice_lab._cli_strength as strength

    assert cli.main.__module__ == "pyradice_lab.cli" and cli.__all__ == ["main", "build_parser", "game_subcommands"]
    assert {"add_components", "add_compare", "add_designer"} <= set(designer.__all__)
    assert "add_strength" in strength.__all__
