"""CLI commands, the designer's component files, conformance and docstring examples."""

import doctest
import importlib
import shutil

import pytest

from pyradice_lab.engine import registry
from pyradice_lab.pyradice import Setup, load_components, simulate_games
from pyradice_lab.pyradice.components import DATA_DIR, default_components


def main(argv):
    """``pyradice-lab`` restricted to this game's subcommands (other games' CLIs may be mid-development), with
    the entry point's error contract: one line on stderr and status 2 for bad input."""
    import sys

    from pyradice_lab.cli import build_parser

    args = build_parser(only="pyradice").parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except (ValueError, TypeError) as exc:
        print(f"pyradice-lab: error: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2


def test_cli_quarry_marks_four_available_dice(capsys):
    assert main(["pyradice", "quarry", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    drawing = [line for line in out.splitlines()[2:] if not line.startswith(("layer", "available"))]
    assert sum(line.count("[") for line in drawing) == 4
    assert "available: (2, 0, 0), (2, 0, 3), (2, 1, 0), (2, 1, 3)" in out


def test_cli_simulate_and_odds(capsys, tmp_path):
    csv = tmp_path / "games.csv"
    assert main(["pyradice", "simulate", "--players", "2", "--games", "30", "--seed", "1", "--no-progress",
                 "--out", str(csv)]) == 0
    out = capsys.readouterr().out
    assert "P(goal token met) by level" in out and csv.exists()
    # start-player advantage is printed by turn position (the start seat varies by roll-off), from the same games
    from pyradice_lab.pyradice.analysis import by_position

    _, arr = simulate_games(30, 2, None, "greedy", rng=1, return_arrays=True)
    pos = by_position(arr)
    lines = out.split("by turn position")[1].splitlines()
    assert lines[2].split()[:2] == ["1", f"{pos.win_share[0]:.3g}"]
    assert lines[3].split()[:2] == ["2", f"{pos.win_share[1]:.3g}"]
    assert main(["pyradice", "odds", "--turns", "3"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[2:]]
    assert rows == [["1", "4", "1", "1.0"], ["2", "5", "1", "1.0"], ["3", "5", "1/5", "0.2"], ["3", "6", "4/5", "0.8"]]


@pytest.mark.parametrize("argv", [
    ["pyradice", "simulate", "--players", "5", "--games", "3", "--no-progress"],
    ["pyradice", "simulate", "--policies", "clever", "--games", "3", "--no-progress"],
    ["pyradice", "simulate", "--games", "0"],
    ["pyradice", "odds", "--turns", "40"],
])
def test_cli_bad_input_exits_2(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        code = main(argv)
        raise SystemExit(code)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("pyradice-lab") and err.count("\n") == 1


def test_every_component_declares_its_source():
    comps = default_components()
    for group in (comps.skills, comps.goals, comps.cards):
        for item in group.values():
            assert item.source in ("rules", "reconstruction")
    assert {c for c, s in comps.skills.items() if s.source == "rules"} == {"A3"}
    assert {c for c, g in comps.goals.items() if g.source == "rules"} == {"C6"}
    assert comps.skills["A3"].kind == "flip" and comps.goals["C6"].params["values"] == (3, 5)
    assert dict(comps.cards["Pairs"].params) == {"size": 2, "points": 4}
    assert comps.cards["Big"].params["values"] == (4, 5, 6) and comps.cards["Big"].params["points"] == 1
    assert len(comps.skills) == 10 and len(comps.goals) == 14


def test_a_designer_folder_replaces_a_card_table(tmp_path):
    shutil.copy(DATA_DIR / "cards.toml", tmp_path / "cards.toml")
    text = (tmp_path / "cards.toml").read_text().replace("table = [0, 0, 1, 3, 5, 7, 9, 12, 15]",
                                                         "table = [0, 10, 20, 30, 40, 50, 60, 70, 80]")
    (tmp_path / "cards.toml").write_text(text)
    comps = load_components(tmp_path)
    assert comps.cards["Many"].params["table"][1] == 10
    setup = Setup(cards=("Many", "Height", "Pairs", "Big"), components=comps)
    base = simulate_games(20, 2, None, "random_legal", rng=3)
    rich = simulate_games(20, 2, setup, "random_legal", rng=3)
    assert (rich.card1_s0 > base.card1_s0).all()          # same games, Many now pays 10 per die
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "goals.toml").write_text('[[goal]]\ncode = "C9"\nkind = "values_in"\nvalues = [1]\nsource = "rules"\n')
    with pytest.raises(ValueError, match="code"):
        load_components(bad)


def test_conformance_check_passes():
    result = registry.check_game("pyradice")
    assert result["passed"].all()


@pytest.mark.parametrize("module", ["geometry", "quarry", "components", "goals", "cards", "skills", "scoring",
                                    "rules", "policies", "odds", "sim", "analysis", "advisor", "_position", "search", "_search_candidates",
                                    "__init__"])
def test_docstring_examples(module):
    name = "pyradice_lab.pyradice" + ("" if module == "__init__" else "." + module)
    res = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert res.failed == 0 and res.attempted > 0
