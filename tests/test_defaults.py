"""One set of defaults, one keyword per concept, one numbering (issue 42 item 6; docs/guide/defaults.md).

- every entry point of a game that plays games defaults to the registry's ``default_players``;
- every entry point that runs blocks defaults to the execution layer's backend;
- ``compare`` and ``balance`` measure with the report player unless told otherwise;
- ``policies=`` is the keyword for the seats' players (``policy=`` is a deprecated alias where it was the name);
- every game's ``play_game`` returns a record;
- what a person reads (CLI tables, transcripts, findings) numbers seats and turn positions from 1.
"""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path

import pytest

from pyradice_lab.engine import registry
from pyradice_lab.engine.execution import check_execution

GAMES = [g for g in registry.BUILTIN_GAMES if g in registry.games()]
BACKEND = inspect.signature(check_execution).parameters["backend"].default

#: entry points whose ``players`` default is not the game's, and why (docs/guide/defaults.md)
PLAYERS_EXCEPTIONS = {
    ("raft", "tilt_model"): "the tilt model of a raft loaded for 4 (all 27 gems), not a game",
}
#: functions that take ``policy=`` for one player that is not the seats' lineup
SINGLE_POLICY = {
    ("meerkat", "with_params"): "one policy given new parameters",
    ("meerkat", "head_to_head"): "the tested player against ``opponent``",
    ("pyradice", "available_distribution"): "a label for the rows",
    ("pyradice", "by_position"): "a label for the rows",
    ("pyradice", "goal_findings"): "which policy's rows the findings read",
}


def _functions(module):
    """Public functions defined in ``module`` (not imported into it)."""
    return {name: fn for name, fn in vars(module).items()
            if not name.startswith("_") and inspect.isfunction(fn) and fn.__module__ == module.__name__}


def _module(spec, role):
    try:
        return spec.module(role)
    except ValueError:
        return None


def _default(fn, name):
    p = inspect.signature(fn).parameters.get(name)
    return inspect.Parameter.empty if p is None else p.default


@pytest.mark.parametrize("game", GAMES)
def test_every_entry_point_defaults_to_the_registered_player_count(game):
    spec = registry.get_game(game)
    assert 2 <= spec.default_players <= 4
    package = importlib.import_module(spec.package)
    entry = {"simulate_games": package.simulate_games, "play_game": package.play_game}
    advisor = _module(spec, "advisor")
    for name in ("position_from_game", "positions_from_game"):
        if advisor is not None and hasattr(advisor, name) and (game, name) not in PLAYERS_EXCEPTIONS:
            entry[name] = getattr(advisor, name)
    for name, fn in _functions(spec.module("analysis")).items():
        if isinstance(_default(fn, "players"), int) and (game, name) not in PLAYERS_EXCEPTIONS:
            entry[name] = fn
    wrong = {name: _default(fn, "players") for name, fn in entry.items()
             if _default(fn, "players") != spec.default_players}
    assert not wrong, f"{game}: players defaults {wrong}, the registry states {spec.default_players}"


def _walk(parser, path=()):
    import argparse

    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                yield from _walk(child, (*path, name))


@pytest.mark.parametrize("game", GAMES)
def test_the_cli_plays_the_registered_player_count(game):
    from pyradice_lab import cli

    spec = registry.get_game(game)
    parsers = dict(_walk(cli.build_parser()))
    checked = 0
    for name in ("simulate", "play", "advise"):
        parser = None if (game, name) in PLAYERS_EXCEPTIONS else parsers.get((game, name))
        option = None if parser is None else next(
            (a for a in parser._actions if "--players" in a.option_strings), None)
        if option is not None:
            assert option.default == spec.default_players, (game, name, option.default)
            checked += 1
    assert checked >= 2, game


def test_every_entry_point_that_runs_blocks_defaults_to_one_backend():
    names = [f"pyradice_lab.{g}.{m}" for g in GAMES for m in ("sim", "analysis", "pages", "measures")]
    names += [f"pyradice_lab.design.{m}" for m in ("compare", "robustness", "balance", "strength")]
    names += ["pyradice_lab.engine.sweep"]
    seen, wrong = 0, {}
    for name in names:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError:
            continue
        for fname, fn in _functions(module).items():
            default = _default(fn, "backend")
            if default is inspect.Parameter.empty:
                continue
            seen += 1
            if default != BACKEND:
                wrong[f"{name}.{fname}"] = default
    assert seen >= 8 and not wrong, wrong


@pytest.mark.parametrize("game", GAMES)
def test_the_strength_tools_and_purramids_race_value_play_the_registered_player_count(game):
    from pyradice_lab import cli
    from pyradice_lab.design import strength

    spec = registry.get_game(game)
    for fn in (strength.ladder, strength.restricted_play):
        assert _default(fn, "players") is None and "default_players" in fn.__doc__
    parsers = dict(_walk(cli.build_parser()))
    for name in ("ladder", "restricted"):
        option = next(a for a in parsers[(game, name)]._actions if "--players" in a.option_strings)
        assert option.default == spec.default_players, (game, name)
    if game == "purramid":
        from pyradice_lab.purramid.race import race_value

        assert _default(race_value, "players") == spec.default_players


def test_the_ladder_plays_the_registered_player_count():
    from pyradice_lab.design.strength import ladder, restricted_play

    table = ladder("raft", ["random", "greedy"], games=3, rng=1)
    assert table.attrs["players"] == registry.get_game("raft").default_players == 3
    assert set(restricted_play("raft", "greedy", ["fixed_duration"], games=3, rng=1)["players"]) == {3}


def test_robustness_defaults_to_the_report_player(monkeypatch):
    from pyradice_lab import raft
    from pyradice_lab.design import robustness as rob

    for fn in (rob.robustness, rob.robustness_many):
        assert _default(fn, "policies") is None
    assert "report player" in rob.robustness.__doc__
    import functools

    asked = []
    real = raft.simulate_games

    @functools.wraps(real)
    def spy(n_games, **kwargs):  # records the lineup asked for, plays the fast one
        asked.append(kwargs.get("policies"))
        return real(n_games, **{**kwargs, "policies": "greedy"})

    monkeypatch.setattr(rob, "_simulate", lambda game: spy)
    with pytest.warns(UserWarning):
        rob.robustness("raft", "game_length > 1", reconstructions=2, games=10, players=2, rng=1)
    assert asked and set(asked) == {registry.get_game("raft").report_player}
    asked.clear()
    with pytest.warns(UserWarning):
        rob.robustness("raft", "game_length > 1", reconstructions=2, games=10, players=2, policies="aim", rng=1)
    assert set(asked) == {"aim"}


def test_the_report_checks_pass_their_players_to_robustness():
    # the report's robustness column states its players (Check.policies), so the default does not move its numbers
    import dataclasses

    from pyradice_lab.engine.checkspec import Check

    field = {f.name: f for f in dataclasses.fields(Check)}["policies"]
    assert field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING


@pytest.mark.parametrize("game", GAMES)
def test_simulate_and_play_take_policies(game, capsys):
    from pyradice_lab import cli

    parsers = dict(_walk(cli.build_parser()))
    for name in ("simulate", "play"):
        parser = parsers.get((game, name))
        if parser is None:
            continue
        shown = {o for a in parser._actions if a.help != "==SUPPRESS==" for o in a.option_strings}
        assert "--policies" in shown and "--policy" not in shown, (game, name)
    if game in ("purramid", "meerkat"):  # the old flag: a hidden alias for one release
        args = cli.build_parser().parse_args([game, "play", "--policy", "random_legal" if game == "meerkat" else
                                              "greedy"])
        assert args.policies in ("random_legal", "greedy") and "renamed --policies" in capsys.readouterr().err


def test_meerkat_turns_read_from_1_as_the_transcript_and_the_other_games():
    from pyradice_lab.meerkat import play_game
    from pyradice_lab.meerkat.advisor import position_from_game, positions_from_game

    for game in ("raft", "pyradice", "purramid", "meerkat"):
        doc = registry.get_game(game).part("position_from_game").__doc__
        assert "1 = the first" in doc, game
    text = play_game(players=3, policies="expectimax", rng=1, engine="python").transcript
    assert "[  0]" not in text and "[  1]" in text
    turns = [t for t, _ in positions_from_game(1, turns=range(1, 4))]
    assert turns and min(turns) >= 1
    pos = position_from_game(1, turns[0])
    assert pos.doc["turn"] == turns[0] and pos.players == registry.get_game("meerkat").default_players
    name = f"p{pos.to_move}"          # to_move numbers seats from 1, as the transcript
    line = next(ln for ln in text.splitlines() if ln.startswith(f"[{turns[0]:3d}]") and "rolls" in ln)
    assert name in line and " ".join(map(str, pos.roll)) in line or "rerolls" in line
    assert pos.text().startswith(f"Meerkat Kingdom, 3 players, turn {turns[0]}: {name} rolled")
    with pytest.raises(ValueError, match="turn must be an integer from 1"):
        position_from_game(1, 0)


def test_compare_and_balance_default_to_the_report_player(monkeypatch):
    from pyradice_lab import raft
    from pyradice_lab.design.balance import balance
    from pyradice_lab.design.compare import compare

    for fn in (compare, balance):
        assert _default(fn, "policies") is None and "report player" in fn.__doc__
    asked = []
    real = raft.simulate_games

    def spy(n_games, **kwargs):  # records the lineup asked for, plays the fast one
        asked.append(kwargs.get("policies"))
        return real(n_games, **{**kwargs, "policies": "greedy"})

    monkeypatch.setattr(raft, "simulate_games", spy)
    monkeypatch.setattr(registry.get_game("raft").module("sim"), "simulate_games", spy)  # what compare calls
    with pytest.warns(UserWarning):  # 10 games: the small-sample warning
        res = compare("raft", None, None, "game_length", games=10, players=2, rng=1)
    assert asked and set(asked) == {registry.get_game("raft").report_player}
    assert res.settings["policies"] == registry.get_game("raft").report_player
    asked.clear()
    with pytest.warns(UserWarning):
        compare("raft", None, None, "game_length", games=10, players=2, policies="aim", rng=1)
    assert set(asked) == {"aim"}


@pytest.mark.parametrize("game", GAMES)
def test_policies_is_the_keyword_for_the_seats_players(game):
    spec = registry.get_game(game)
    private = sorted(p.stem for p in Path(importlib.import_module(spec.package).__file__).parent.glob("_analysis_*.py"))
    for role in ("sim", "analysis", "pages", *private):
        module = _module(spec, role) if not role.startswith("_") else importlib.import_module(f"{spec.package}.{role}")
        if module is None:
            continue
        for name, fn in _functions(module).items():
            params = inspect.signature(fn).parameters
            if "policy" in params and (game, name) not in SINGLE_POLICY:
                # the old name stays for one release: keyword-only, None, beside policies=
                assert "policies" in params and params["policy"].default is None, f"{game}.{role}.{name}"
                assert params["policy"].kind is inspect.Parameter.KEYWORD_ONLY, f"{game}.{role}.{name}"


def test_the_old_policy_keyword_warns_and_means_policies():
    from pyradice_lab.pyradice.analysis import first_player_advantage

    new = first_player_advantage(6, (2,), policies="random_legal", rng=1)
    with pytest.warns(DeprecationWarning, match="policy= is renamed policies="):
        old = first_player_advantage(6, (2,), policy="random_legal", rng=1)
    assert old.equals(new) and set(new["policy"]) == {"random_legal"}


def test_meerkat_play_game_returns_a_record_that_still_unpacks():
    from pyradice_lab.meerkat import play_game
    from pyradice_lab.meerkat.sim import GameRecord

    rec = play_game(players=2, rng=3, engine="python")
    assert isinstance(rec, GameRecord) and str(rec) == rec.transcript == rec.text
    text, row = rec
    assert text.startswith("Meerkat Kingdom: 2p + automa; seats p1 = greedy, p2 = greedy, automa = automa")
    quiet = play_game(players=2, rng=3, engine="python", trace=False)
    assert quiet.transcript == "" and quiet.summary.equals(row)


# ------------------------------------------------------------------------------------------------ numbering
def _transcripts():
    from pyradice_lab.meerkat import play_game as meerkat_play
    from pyradice_lab.purramid.rules import play_game as purramid_play
    from pyradice_lab.pyradice import play_game as pyradice_play
    from pyradice_lab.raft import play_game as raft_play

    return {"purramid": purramid_play(2, "A", rng=1).transcript,
            "pyradice": pyradice_play(2, rng=5).transcript,
            "raft": raft_play(2, rng=1).text,
            "meerkat": meerkat_play(players=2, rng=3, engine="python").transcript}


def test_transcripts_number_seats_from_1():
    for game, text in _transcripts().items():
        assert not re.search(r"\b[Ss]eat 0\b|\bp0\b", text), game
        assert re.search(r"\b[Ss]eat 1\b|\bp1\b", text) and re.search(r"\b[Ss]eat 2\b|\bp2\b", text), game


def _seat_column(out: str, header: str) -> list[int]:
    lines = out.splitlines()
    words = header.split()
    start = next(i for i, ln in enumerate(lines) if ln.split()[:len(words)] == words)
    rows = []
    for ln in lines[start + 1:]:
        first = ln.split()[0] if ln.split() else ""
        if not first.isdigit():
            break
        rows.append(int(first))
    return rows


@pytest.mark.parametrize("game, seats", [("raft", [1, 2]), ("pyradice", [1, 2]),
                                         ("meerkat", [1, 2, 3])])  # 2 Meerkat Kingdom players + the automa
def test_cli_tables_number_seats_and_positions_from_1(capsys, game, seats):
    from pyradice_lab.cli import main

    assert main([game, "simulate", "--players", "2", "--games", "4", "--seed", "1", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert _seat_column(out, "seat policy") == seats
    assert _seat_column(out, "position") == seats


def test_purramid_cli_numbers_seats_from_1(capsys):
    from pyradice_lab.cli import main

    assert main(["purramid", "simulate", "--players", "2", "--games", "3", "--seed", "1", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "P(seat 1 wins) (the start player)" in out and "P(seat 2 wins)" in out and "seat 0" not in out
    assert main(["purramid", "advise", "--hands", "5,3", "--seat", "2", "--placed", "1,4", "--dice-left", "4"]) == 0
    assert "player 2 to move" in capsys.readouterr().out


def test_findings_and_figures_number_seats_from_1():
    from pyradice_lab.raft import analysis, pages

    res = pages.draw(analysis.greed_curve((1.0,), 4, 1, players=2))
    words = [f.quantity for f in res.findings] + [res.reading] + [
        t.get_text() for ax in res.figure.axes for t in (ax.xaxis.label, *ax.get_legend().get_texts())]
    assert not [w for w in words if re.search(r"\b[Ss]eat 0\b", w)]
    assert any("seat 1" in w for w in words)
