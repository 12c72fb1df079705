"""The last hostile inputs of issue 32: each is refused before any work with a clear error that names what is
wrong (the CLI: one line, exit status 2)."""

from __future__ import annotations

import os

import numpy as np
import pytest

from pyradice_lab.cli import main
from pyradice_lab.engine import limits
from pyradice_lab.engine.schema import SchemaError, read_toml


def cli(capsys, *argv) -> tuple[int, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse's own errors
        code = exc.code
    err = capsys.readouterr().err.strip()
    return code, err


def one_line_error(capsys, *argv) -> str:
    code, err = cli(capsys, *argv)
    assert code == 2, err
    assert len(err.splitlines()) == 1, err
    return err


# ------------------------------------------------------------------------------- input files
@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_a_device_as_components_file_is_refused_unread(capsys):
    with pytest.raises(SchemaError, match="must be a regular file, not a character device"):
        read_toml("/dev/zero")
    for game in ("purramid", "raft"):
        err = one_line_error(capsys, game, "components", "--components", "/dev/zero")
        assert "/dev/zero" in err and "regular file" in err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_pipe_as_components_file_is_refused_without_waiting_for_a_writer(tmp_path):
    fifo = tmp_path / "c.toml"
    os.mkfifo(fifo)
    with pytest.raises(SchemaError, match="not a pipe"):
        read_toml(fifo)


def test_a_components_file_above_the_stated_size_is_refused(tmp_path, monkeypatch):
    big = tmp_path / "big.toml"
    big.write_text("# padding\n" * 200)
    monkeypatch.setenv(limits.INPUT_ENV_VAR, "1000")
    with pytest.raises(SchemaError, match=r"is 2,000 bytes; a components file is at most 1,000 bytes"):
        read_toml(big)
    monkeypatch.delenv(limits.INPUT_ENV_VAR)
    assert limits.max_input_file_bytes() == limits.MAX_INPUT_FILE_BYTES == 10_000_000
    assert read_toml(big) == {}


# ------------------------------------------------------------------------------- report
def test_write_pdf_validates_the_section_title(tmp_path):
    from pyradice_lab.report import Section, write_pdf

    for title in (None, "", "   ", 3):
        with pytest.raises(ValueError, match=r"sections\[0\]\.title must be a non-empty string"):
            write_pdf(tmp_path / "r.pdf", [Section(title, ["t"])])
    with pytest.raises(TypeError, match=r"sections\[0\]\.items must be a list"):
        write_pdf(tmp_path / "r.pdf", [Section("T", "text")])
    with pytest.raises(TypeError, match="sections must be a list of Section"):
        write_pdf(tmp_path / "r.pdf", Section("T", ["t"]))
    assert not list(tmp_path.iterdir())  # refused before anything was written


# ------------------------------------------------------------------------------- counts
def _dice_cell(params, trials, rng):  # never run: the count is refused first
    raise AssertionError("the sweep ran")


def test_absurd_counts_are_refused_stating_the_time_they_would_take():
    import pyradice_lab as pl
    from pyradice_lab.raft.layouts import reference_state
    from pyradice_lab.raft.tilting import tilt_distribution

    with pytest.raises(ValueError, match=r"trials=1,000,000,000,000,000 is above the limit of 1,000,000,000,000 "
                                         r"trials per cell: it would run for at least .* (days|years).*"
                                         r"PYRADICE_LAB_MAX_SWEEP_TRIALS"):
        pl.run_sweep(_dice_cell, {"dice": [1, 2]}, trials=10 ** 15, seed=0, progress=False)
    with pytest.raises(ValueError, match=r"trials=1,000,000,000,000 is above the limit .* at least 11.6 days"
                                         r".*PYRADICE_LAB_MAX_TILT_TRIALS"):
        tilt_distribution(reference_state(4), "north", "centre", 1.0, trials=10 ** 12, rng=0)
    for kw in ({"games": 10 ** 15}, {"games": 100, "until": 0.01, "max_games": 10 ** 15}):
        name = "max_games" if "max_games" in kw else "games"
        with pytest.raises(ValueError, match=rf"^{name}=1,000,000,000,000,000 is above the limit of 100,000,000 "
                                             r"games per component set: it would run for at least .* years"):
            pl.compare("raft", None, None, "points_per_boat", rng=0, **kw)


def test_count_limits_are_documented_and_overridable(monkeypatch):
    assert {"sweep_trials", "tilt_trials", "compare_games"} <= set(limits.COUNT_LIMITS)
    monkeypatch.setenv("PYRADICE_LAB_MAX_TILT_TRIALS", "1000")
    assert limits.count_limit("tilt_trials") == 1000
    with pytest.raises(ValueError, match="trials=1,001 is above the limit of 1,000 trials"):
        limits.check_count(1001, "tilt_trials", name="trials")
    assert limits.check_count(1000, "tilt_trials", name="trials") == 1000
    monkeypatch.setenv("PYRADICE_LAB_MAX_TILT_TRIALS", "lots")
    with pytest.raises(ValueError, match="PYRADICE_LAB_MAX_TILT_TRIALS must be a positive number"):
        limits.count_limit("tilt_trials")


def test_the_cli_refuses_counts_that_would_run_for_days(capsys, tmp_path):
    variant = tmp_path / "v.toml"
    variant.write_text("")
    for argv in (("sweep", "core.subset-sum", "--trials", str(10 ** 15), "--no-progress"),
                 ("raft", "tilt", "--duration", "1", "--trials", str(10 ** 12)),
                 ("raft", "compare", "--variant", str(variant), "--games", str(10 ** 15))):
        err = one_line_error(capsys, *argv)
        assert "is above the limit" in err and "would run for at least" in err, (argv, err)


# ------------------------------------------------------------------------------- weak messages
def test_jobs_beyond_any_machine_are_refused_by_name(capsys):
    import pyradice_lab as pl

    with pytest.raises(ValueError, match=r"n_jobs must be a positive integer.*1024"):
        pl.run_sweep(_dice_cell, {"dice": [1]}, trials=10, seed=0, n_jobs=10 ** 9, progress=False)
    for argv in (("sweep", "core.subset-sum"), ("purramid", "simulate"), ("raft", "simulate")):
        code, err = cli(capsys, *argv, "--jobs", str(10 ** 9))
        assert code == 2 and "--jobs" in err and "1024" in err and "Numeric literal" not in err, (argv, err)


def test_progress_must_be_a_bool():
    import pyradice_lab as pl
    from pyradice_lab import meerkat, purramid, pyradice, raft

    calls = [lambda: pl.run_sweep(_dice_cell, {"dice": [1]}, trials=10, seed=0, progress="yes"),
             lambda: pl.compare("raft", None, None, "points_per_boat", games=10, rng=0, progress="yes")]
    calls += [lambda g=g: g.simulate_games(2, rng=0, progress="yes") for g in (purramid, pyradice, raft, meerkat)]
    for call in calls:
        with pytest.raises(ValueError, match="progress must be True or False, got 'yes'"):
            call()


def test_calibrate_errors_name_the_csv(capsys, tmp_path):
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    binary = tmp_path / "binary.csv"
    binary.write_bytes(b"edge,finger\n\x00\xff\xfe,zz\n")
    columns = tmp_path / "columns.csv"
    columns.write_text("edge,finger\nnorth,centre\n")
    for path, what in ((empty, "is empty"), (binary, "not UTF-8"), (columns, "column 'duration'"),
                       (tmp_path / "missing.csv", "No such file")):
        err = one_line_error(capsys, "raft", "calibrate", str(path))
        assert str(path) in err and what in err, err
    if os.path.exists("/dev/zero"):
        err = one_line_error(capsys, "raft", "calibrate", "/dev/zero")
        assert "/dev/zero" in err and "regular file" in err


def test_dump_into_an_unwritable_place_names_the_target_not_the_temporary_file(capsys, tmp_path):
    target = "/proc/x.toml" if os.path.isdir("/proc") else str(tmp_path / "no" / "x.toml")
    err = one_line_error(capsys, "raft", "components", "--dump", target)
    assert target in err and ".tmp-" not in err


# ------------------------------------------------------------------------------- meerkat scoring
def test_meerkat_score_game_refuses_bad_adjacency_and_tokens():
    from pyradice_lab.meerkat import play_game, score_game

    counts = np.zeros((2, 10), int)
    counts[0, 4] = 2
    with pytest.raises(ValueError, match=r"adjacency must be .*0/1 or True/False.*nan"):
        score_game(counts, adjacency=np.full((10, 10), np.nan))
    with pytest.raises(ValueError, match=r"adjacency must be .*rows of different lengths"):
        score_game(counts, adjacency=[[1, 2], [3]])
    with pytest.raises(ValueError, match=r"adjacency must be .*got shape \(2, 2\)"):
        score_game(counts, adjacency=[[0, 1], [1, 0]])
    with pytest.raises(ValueError, match="adjacency must not make a tile adjacent to itself"):
        score_game(counts, adjacency=np.eye(10, dtype=bool))
    with pytest.raises(ValueError, match=r"tokens must map tiles 3..12 to a tan token kind, got 7.0"):
        score_game(counts, tokens={7.0: "plus3"})
    assert score_game(counts, tokens={7: "plus3"})["tile_points"].tolist()[0] > 0
    ok = np.zeros((10, 10), int)
    ok[0, 1] = ok[1, 0] = 1
    assert len(score_game(counts, adjacency=ok)) == 2  # a 0/1 integer matrix is fine
    with pytest.raises(TypeError, match="trace must be True or False, got 'yes'"):
        play_game(2, rng=0, trace="yes")


@pytest.mark.parametrize("game", ["raft", "meerkat"])
def test_json_position_files_go_through_the_input_file_limits(game, tmp_path, monkeypatch):
    """A position given as .json is read like every other input file: a device or an oversized file is
    refused before reading, naming the file."""
    import importlib

    load_position = importlib.import_module(f"pyradice_lab.{game}.advisor").load_position
    device = tmp_path / "pos.json"
    os.symlink("/dev/zero", device)
    with pytest.raises(SchemaError, match="pos.json"):
        load_position(device)
    big = tmp_path / "big.json"
    big.write_text("{" + " " * 2000 + "}")
    monkeypatch.setenv(limits.INPUT_ENV_VAR, "1000")
    with pytest.raises(SchemaError, match="big.json"):
        load_position(big)
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    monkeypatch.delenv(limits.INPUT_ENV_VAR)
    with pytest.raises(SchemaError, match="not valid JSON"):
        load_position(bad)


# ------------------------------------------------------------------------------------------------ issue 46
@pytest.mark.parametrize("game", ["meerkat", "raft"])
def test_advise_refuses_a_bad_rng_whatever_the_policy_naming_rng(game):
    """Issue 46: raft.advise and meerkat.advise ignored rng='x', -1 and 1.5 (exact values draw nothing)."""
    import importlib

    adv = importlib.import_module(f"pyradice_lab.{game}.advisor")
    pos = adv.position_from_game(1, 1, players=2, policies="greedy") if game == "meerkat" else \
        adv.position_from_game(3, 2, players=2)
    for bad in ("x", -1, 1.5, True):
        with pytest.raises((TypeError, ValueError), match="rng"):
            adv.advise(pos, rng=bad)


@pytest.mark.parametrize("game", ["meerkat", "raft"])
def test_advise_of_a_position_object_checks_its_components_instead_of_ignoring_them(game, tmp_path):
    """Issue 46: components= was silently ignored for a Position (even /dev/zero or a malformed file).  Now they
    are read and checked: invalid ones are refused, different ones refused naming components, the same ones
    accepted."""
    import importlib

    import pyradice_lab as pl

    adv = importlib.import_module(f"pyradice_lab.{game}.advisor")
    pos = adv.position_from_game(1, 1, players=2, policies="greedy") if game == "meerkat" else \
        adv.position_from_game(3, 2, players=2)
    bad = tmp_path / "bad.toml"
    bad.write_text("this is = = not toml")
    for comp in ("/dev/zero", str(bad), str(tmp_path / "missing.toml")):
        with pytest.raises(SchemaError):
            adv.advise(pos, components=comp)
    default = getattr(pl, game).default_components()
    assert len(adv.advise(pos, components=default)) > 0  # the position's own components: used as they are
    if game == "meerkat":
        other = default.replace({"tile.3.values": (8, 4)})
        with pytest.raises(ValueError, match="components: the position already carries its own components"):
            adv.advise(pos, components=other)


def test_meerkat_position_from_game_bounds_the_turn_before_any_replay_and_replays_a_game_once():
    """Issue 46: a turn the game never reaches was refused only after replaying the whole game twice (6.9 s),
    a 5,000-digit turn with Python's int-limit message."""
    import time

    from pyradice_lab.meerkat import position_from_game
    from pyradice_lab.meerkat.rules import MAX_TURNS

    for turn, shown in ((10 ** 5000, "a number of about 5001 digits"), (MAX_TURNS + 1, str(MAX_TURNS + 1)), (0, "0")):
        t0 = time.monotonic()
        with pytest.raises(ValueError, match=rf"turn must be an integer from 1 to {MAX_TURNS} .*, got {shown}$"):
            position_from_game(46, turn, players=2, policies="greedy")
        assert time.monotonic() - t0 < 0.5
    with pytest.raises(ValueError, match="turn must be a turn at which a player rolls in game 46"):
        position_from_game(46, MAX_TURNS - 1, players=2, policies="greedy")  # one replay, to the game's end
    t0 = time.monotonic()
    with pytest.raises(ValueError, match="turn must be a turn at which a player rolls in game 46"):
        position_from_game(46, MAX_TURNS - 2, players=2, policies="greedy")  # remembered: no replay
    assert time.monotonic() - t0 < 0.05
    assert position_from_game(46, 1, players=2, policies="greedy").roll  # a turn it reaches still replays


def test_cli_integers_with_thousands_of_digits_are_refused_by_size(capsys):
    err = one_line_error(capsys, "meerkat", "advise", "--game-seed", "1", "--turn", "9" * 5000)
    assert "at most 40 digits" in err and "9999" not in err
    assert cli(capsys, "meerkat", "advise", "--game-seed", str(2 ** 128), "--turn", "0")[1].count("digits") == 0


def test_implausible_hands_and_yarn_values_are_refused_naming_the_parameter(capsys):
    """Issue 46: `purramid advise --hands 1000000000000,3` and yarn_value=1e54 were accepted (and solved)."""
    import pyradice_lab as pl
    from pyradice_lab.purramid.advisor import MAX_YARN_VALUE
    from pyradice_lab.purramid.race import MAX_HAND, check_race

    with pytest.raises(ValueError, match=f"hands must be tile counts of at most {MAX_HAND}"):
        check_race((10 ** 12, 3), 0)
    assert check_race((MAX_HAND, 3), 0)[0] == (MAX_HAND, 3)
    for bad in (1e54, MAX_YARN_VALUE + 1, -0.5, float("inf")):
        with pytest.raises(ValueError, match="yarn_value must be a number of tiles per token from 0 to 100"):
            pl.purramid.advise("A", roll=(1, 2, 3, 4, 5), yarn_value=bad)
    assert "hands must be tile counts of at most 500" in one_line_error(
        capsys, "purramid", "advise", "--roll", "1,2,3,4,5", "--hands", "1000000000000,3")
    assert "yarn_value must be a number" in one_line_error(capsys, "purramid", "advise", "--roll", "1,2,3,4,5",
                                                           "--yarn-value", "1e54")


@pytest.mark.parametrize("game", ["raft", "pyradice", "purramid"])
def test_every_games_position_from_game_refuses_a_huge_turn_at_once_naming_turn(game):
    """Issue 46: a 5,000-digit turn got Python's int-limit message (Rocking Raft and Purramid after replaying the
    whole game); now one message naming turn, before any replay."""
    import importlib
    import time

    mod = importlib.import_module(f"pyradice_lab.{game}")
    with pytest.raises(ValueError, match="turn"):
        mod.position_from_game(1, 0)  # the first call imports what the replay needs
    for bad in (10 ** 5000, 0, "3"):
        t0 = time.monotonic()
        with pytest.raises(ValueError, match=r"^turn must be (an integer|at most)") as info:
            mod.position_from_game(1, bad)
        assert time.monotonic() - t0 < 0.5 and "Exceeds the limit" not in str(info.value)
    with pytest.raises(ValueError, match="a number of about 5001 digits"):
        mod.position_from_game(1, 10 ** 5000)


def test_a_web_query_with_thousands_of_digits_names_its_field():
    from pyradice_lab.engine.desk import RequestError, int_field

    for raw in ("9" * 5000, 10 ** 5000):
        with pytest.raises(RequestError, match=r"turn must be an integer in 1\.\.60, got a number of"):
            int_field({"turn": raw}, "turn", 1, 1, 60)


def test_meerkat_remembers_a_games_turns_only_from_a_replay_that_ran_to_its_end():
    """A turn that is the automa's stops the replay just after it: that partial replay must not be remembered as
    the whole game (turn 5 of game 1 with 2 players and the automa was then refused)."""
    from pyradice_lab.meerkat import position_from_game

    with pytest.raises(ValueError, match=r"turn must be a turn at which a player rolls in game 1 \(e.g. \[1, 2, 4, 5"):
        position_from_game(1, 3, players=2, policies="greedy")      # the automa's turn
    assert position_from_game(1, 5, players=2, policies="greedy").roll
