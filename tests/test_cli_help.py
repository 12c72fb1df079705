"""Every help text of the CLI, at every depth: it renders, and shows no doubled percent sign (argparse
formats ``help=`` strings with ``%`` but prints ``description=`` as written, so "95%%" there shows as is)."""

import argparse

import pytest

from pyradice_lab import cli


def _walk(parser: argparse.ArgumentParser, path=()):
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                yield from _walk(child, (*path, name))


def test_every_help_text_renders_without_doubled_percent():
    seen = 0
    for path, parser in _walk(cli.build_parser()):
        text = parser.format_help()
        assert "usage:" in text, path
        assert "%%" not in text, f"{' '.join(path) or 'top'} --help shows '%%':\n{text}"
        seen += 1
    assert seen > 40  # the top level, the shared subcommands and every game's own


def test_compare_help_says_95_percent_ci():
    parser = dict(_walk(cli.build_parser()))[("meerkat", "compare")]
    assert "95% CI" in " ".join(parser.format_help().split())


def _readme_file(name: str) -> str:
    """The README's ``# NAME`` toml block (a designer file the README asks the reader to write)."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    m = re.search(r"```toml\n(# " + re.escape(name) + r"\b.*?)```", text, flags=re.S)
    assert m, f"README.md has no {name} block"
    return m.group(1)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["purramid", "pyradice", "raft", "meerkat"])
def test_each_games_compare_example_runs_with_its_readme_file(game, tmp_path):
    """The Example of `<game> compare --help`, run as written, with the README's <game>_mine.toml."""
    import re
    import shlex
    import subprocess
    import sys

    parser = dict(_walk(cli.build_parser()))[(game, "compare")]
    text = " ".join(parser.format_help().split())
    m = re.search(r"Example: (pyradice-lab \S+ compare .*?) \(README", text)
    assert m, text
    argv = shlex.split(m.group(1))
    (tmp_path / f"{game}_mine.toml").write_text(_readme_file(f"{game}_mine.toml"), encoding="utf-8")
    # bounded, not tight: Purramid's example plays 1,000 all-optimal 4-player games (about 100 CPU s on idle
    # cores); at a load of 8 on 2 cores three examples ran past 300 s (2026-12-06)
    res = subprocess.run([sys.executable, "-m", "pyradice_lab.cli", *argv[1:], "--no-progress"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=900)
    assert res.returncode == 0, res.stderr
    assert "variant - base" in res.stdout


TINY = {"balance": ["--budget", "20", "--first-games", "10", "--verify-games", "10"],
        "robustness": ["--reconstructions", "2", "--games", "12"]}


@pytest.mark.parametrize("command", ["balance", "robustness"])
@pytest.mark.parametrize("game", ["purramid", "pyradice", "raft", "meerkat"])
def test_each_games_designer_example_is_its_own_and_runs(game, command, tmp_path, monkeypatch, capsys):
    """The Example of `<game> balance --help` / `<game> robustness --help`: it names this game's own components
    and metrics, and runs as written (tiny budgets and the game's heuristic player, for speed)."""
    import re
    import shlex

    from pyradice_lab.engine.registry import get_game

    parser = dict(_walk(cli.build_parser()))[(game, command)]
    text = " ".join(parser.format_help().split())
    m = re.search(rf"Example: (pyradice-lab {game} {command} .*?) (?:positional arguments|options):", text)
    assert m, text
    argv = shlex.split(m.group(1))
    assert argv[:3] == ["pyradice-lab", game, command]
    others = {"purramid": "deal_2p", "meerkat": "tile.", "raft": "card.1.", "pyradice": "card.Height"}
    if command == "balance":
        assert others[game] in m.group(1)
        assert not any(o in m.group(1) for g, o in others.items() if g != game)
    monkeypatch.chdir(tmp_path)
    code = cli.main([*argv[1:], *TINY[command], "--policies", get_game(game).heuristic_player, "--no-progress"])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert ("search used" in out.out) if command == "balance" else ("plausible component sets" in out.out)
