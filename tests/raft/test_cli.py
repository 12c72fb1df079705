"""`pyradice-lab raft ...` in-process: output, exit codes, one-line errors."""

from pyradice_lab.cli import main
from pyradice_lab.raft.calibration import simulate_observations, standard_start


def test_tilt_command_prints_the_distribution(capsys):
    assert main(["raft", "tilt", "--duration", "1.5", "--edge", "south", "--trials", "5000", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "south edge, centre finger, 1.5 s" in out and "exact model mean" in out and "p_model" in out


def test_simulate_and_play_commands(capsys, tmp_path):
    csv = tmp_path / "games.csv"
    assert main(["raft", "simulate", "--players", "4", "--games", "30", "--seed", "1", "--variant", "sinking",
                 "--no-progress", "--out", str(csv)]) == 0
    out = capsys.readouterr().out
    assert "4 players; policies greedy, greedy, greedy, greedy; seed 1; 30 games; variant sinking" in out
    assert "lifeboats sunk per game" in out and csv.exists()
    assert main(["raft", "play", "--players", "2", "--seed", "3"]) == 0
    assert "Final:" in capsys.readouterr().out


def test_calibrate_command_reads_a_csv(capsys, tmp_path):
    design = [{"edge": "north", "finger": "centre", "duration": d, "start": standard_start()} for d in (0.5, 1.5, 3.0)]
    obs = simulate_observations(design, tilts=10, rng=2, centre=False)
    path = tmp_path / "tilts.csv"
    obs.drop(columns=["start"]).to_csv(path, index=False)
    assert main(["raft", "calibrate", str(path), "--fit", "drop_rate"]) == 0
    out = capsys.readouterr().out
    assert "drop_rate" in out and "goodness of fit" in out


def test_bad_input_is_one_line_and_exit_2(capsys):
    assert main(["raft", "tilt", "--duration", "-1", "--edge", "south"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "duration" in err
    assert main(["raft", "tilt", "--duration", "1", "--edge", "up"]) == 2
    assert "edge" in capsys.readouterr().err
    assert main(["raft", "simulate", "--players", "9", "--games", "3", "--no-progress"]) == 2
    assert "players" in capsys.readouterr().err


def test_simulate_reports_the_start_player_and_takes_the_flag_depth(capsys):
    args = ["raft", "simulate", "--players", "2", "--games", "60", "--seed", "4", "--no-progress"]
    assert main(args + ["--flag-depth", "2"]) == 0
    short = capsys.readouterr().out
    assert "; flag under 2 cards" in short and "start player (turn position 1) wins" in short
    assert "by turn position (1 = start player)" in short and "vs a fair 0.4" in short
    assert main(args + ["--flag-depth", "25"]) == 0
    deep = capsys.readouterr().out

    def rounds(out):
        return float(out.split("rounds per game: ")[1].split(" ")[0])

    assert rounds(short) < rounds(deep)
    assert main(args + ["--flag-depth", "40"]) == 2
    assert "flag_depth" in capsys.readouterr().err
    assert main(args + ["--variant", "sinking", "--discards-roll", "--sunk-not-replaced"]) == 0
    assert "; readings discarded gems may roll, sunk lifeboats not replaced" in capsys.readouterr().out


def test_tilt_layouts(capsys):
    base = ["raft", "tilt", "--duration", "1.5", "--edge", "east", "--finger", "left", "--players", "2",
            "--trials", "3000", "--top", "2"]
    assert main(base) == 0
    out = capsys.readouterr().out
    assert "from random rules setups" in out and "mean raft over random setups" in out
    assert main(base + ["--layout", "reference"]) == 0
    assert "raft before (gems per space, rows north to south): 1 1 1 / 1 13 1 / 1 1 1" in capsys.readouterr().out
    assert main(base + ["--layout", "one-setup"]) == 0
    assert "from one rules setup" in capsys.readouterr().out
