"""CLI subcommands (through the registered parser) and the report section (quick)."""


import pytest

from pyradice_lab.cli import build_parser
from pyradice_lab.engine.cliargs import CliError
from pyradice_lab.purramid.cli import parse_spaces


def run(argv, capsys):
    args = build_parser(only="purramid").parse_args(argv)
    rc = args.func(args)
    return rc, capsys.readouterr().out


def test_odds(capsys):
    rc, out = run(["purramid", "odds", "--dice", "3", "--targets", "6,8"], capsys)
    assert rc == 0 and "23/216" in out and "10.6481%" in out


def test_advise_with_and_without_roll(capsys):
    rc, out = run(["purramid", "advise", "--layout", "A", "--covered", "1,1 1,2", "--placed", "2,1",
                   "--dice-left", "2", "--roll", "3,4"], capsys)
    assert rc == 0 and "place 3+4 on" in out and "regret" in out and " then" in out
    place_rows = [line for line in out.splitlines() if line.strip().startswith("place")]
    assert place_rows and all(line.split()[-1] in ("stop", "continue", "burst") for line in place_rows)
    rc, out = run(["purramid", "advise", "--placed", "1,4", "--dice-left", "4"], capsys)
    assert "continue" in out and "stop" in out


def test_advise_needs_dice_left_with_placed(capsys):
    """Issue 9 item 8: --placed without --dice-left would silently assume one die per space."""
    with pytest.raises(CliError, match="--dice-left"):
        run(["purramid", "advise", "--covered", "1,1 1,2", "--placed", "2,1"], capsys)
    rc, out = run(["purramid", "advise", "--layout", "A", "--covered", "1,1 1,2", "--placed", "2,1",
                   "--dice-left", "2"], capsys)
    lines = {line.split()[0]: float(line.split()[1]) for line in out.splitlines()
             if line.split() and line.split()[0] in ("stop", "continue")}
    assert lines["stop"] > lines["continue"]           # the README example: stop 1.00 vs continue 0.56


def test_simulate_optimal_policy(capsys):
    rc, out = run(["purramid", "simulate", "--players", "2", "--games", "4", "--seed", "2", "--policies",
                   "optimal,risk:0.35", "--no-progress"], capsys)
    assert rc == 0 and "; 2 players; policies optimal, " in out
    assert "seat 1 (optimal): realised - exact turn values per game" in out


def test_simulate_prints_estimates_with_cis(capsys):
    rc, out = run(["purramid", "simulate", "--players", "3", "--games", "30", "--seed", "1", "--policy",
                   "risk:0.3", "--no-progress"], capsys)
    assert rc == 0 and "P(seat 1 wins) (the start player)" in out and "ci_low" in out and "; 30 games" in out
    assert "start player (turn position 1) wins " in out


def test_play_and_layout(capsys):
    rc, out = run(["purramid", "play", "--players", "2", "--seed", "3"], capsys)
    assert rc == 0 and "Game over" in out and "Scores:" in out
    rc, out = run(["purramid", "layout", "--layout", "B"], capsys)
    assert "capacity 78" in out and "[x] a 2 directly below an 8" in out


def test_bad_input_raises_for_one_line_errors(capsys):
    with pytest.raises(CliError, match="--covered"):
        parse_spaces("1,1 zz", "--covered")
    assert parse_spaces("1,1 2,3", "--placed") == [(0, 0), (1, 2)]     # numbered from 1 on the command line
    with pytest.raises(CliError, match="numbered from 1"):
        parse_spaces("0,1", "--covered")
    with pytest.raises(ValueError, match="n_dice"):
        run(["purramid", "odds", "--dice", "9", "--targets", "6"], capsys)
    with pytest.raises(ValueError, match="roll"):
        run(["purramid", "advise", "--roll", "1,2"], capsys)
    with pytest.raises(CliError, match="objective"):
        run(["purramid", "advise", "--objective", "score"], capsys)


@pytest.mark.slow
def test_quick_report_section(tmp_path):
    """Each experiment page: a question, findings rendered from data, a method, a tidy figure (every axis
    labelled, no line through fewer than 3 points), a compact table; exact experiments are marked exact."""
    import re

    from pyradice_lab.engine.figures import figure_problems, tidy_figure
    from pyradice_lab.engine.findings import render
    from pyradice_lab.purramid.pages import report_section
    from pyradice_lab.report.build import ExperimentResult, ReportContext

    sec = report_section(ReportContext(quick=True, seed=3, out_dir=tmp_path))
    exps = [i for i in sec.items if isinstance(i, ExperimentResult)]
    assert len(exps) == 10 and sec.title == "Purramid"
    bad = re.compile(r"\b(nan|NaN|inf|None)\b")
    for e in exps:
        for suffix in (".csv", ".png", "_findings.csv"):
            assert (tmp_path / e.name / f"{e.name}{suffix}").exists()
        assert e.question.endswith("?") and e.findings and len(e.method) > 80 and not e.reading
        assert not e.table.empty and e.display is not None and len(e.display) <= 25
        texts = [e.method, e.question, *map(render, e.findings), *e.display.astype(str).to_numpy().ravel()]
        assert not any(bad.search(t) for t in texts), e.name
        assert e.exact == (e.name in {"purramid_burst_odds", "purramid_press_your_luck", "purramid_yarn_value",
                                      "purramid_bonus_modes"}), e.name
        assert e.exact or e.resolved_sample_size() is not None
        assert figure_problems(tidy_figure(e.figure)) == [], e.name
    seats = next(e for e in exps if e.name == "purramid_seat_advantage").table
    assert {"p_win_se", "p_win_ci_low", "p_win_ci_high"} <= set(seats.columns)
    assert (seats["p_win_ci_high"] > seats["p_win_ci_low"]).all()
