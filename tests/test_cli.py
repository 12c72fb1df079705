import subprocess
import sys

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
    from pyradice_lab import registry

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
