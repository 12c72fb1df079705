"""Every CLI summary states what it assumed (issue 30 part 3), and every game's ``simulate`` names the start player
the same way (part 4): one ``assumptions:`` line (pyradice_lab.engine.assumptions) with the game, the components
(packaged, or the file's name, with the content hash of what was played), the players and policies as played, the
seed and the games; one start-player line (turn position 1, outright wins with a Wilson interval, fair share)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from pyradice_lab import cli
from pyradice_lab.engine.assumptions import Assumptions, components_label, lineup, start_player_lines
from pyradice_lab.engine.outcomes import outcome_frame
from pyradice_lab.engine.stats import proportion_estimate

GAMES = ("purramid", "pyradice", "raft", "meerkat")
#: a small partial file per game (merged over the packaged components)
FILES = {"purramid": "deal_2p = [25, 26]\n",
         "pyradice": '[[card]]\nname = "Many"\ntable = [0, 1, 2, 4, 6, 9, 12, 15]\n',
         "raft": "[[card]]\nid = 1\npoints = 4\n",
         "meerkat": "[[tile]]\nnumber = 7\nvalues = [8, 4]\n"}
HASH = re.compile(r"\(content hash [0-9a-f]{12}\)")


def run(capsys, *argv) -> str:
    assert cli.main(list(argv)) == 0, argv
    return capsys.readouterr().out


def the_line(out: str) -> str:
    lines = [line.strip() for line in out.splitlines() if line.strip().startswith("assumptions: ")]
    assert len(lines) == 1, out[:2000]
    return lines[0]


def check_line(line: str, game: str, components: str, players: str, policies: str, seed: str, games: str):
    fields = line.removeprefix("assumptions: ").split("; ")
    assert fields[0].startswith("game ") and f"({game})" in fields[0] or fields[0] == f"game {game.title()}", line
    assert fields[1].startswith(f"components {components}") and HASH.search(fields[1]), line
    assert fields[2] == players, line
    assert fields[3] == f"policies {policies}", line
    assert fields[4] == f"seed {seed}", line
    assert games in fields[5], line


def the_hash(game: str, path) -> str:
    return components_label(game, path).split("content hash ")[1][:12]


@pytest.mark.parametrize("game", GAMES)
def test_simulate_states_components_players_policies_seed_and_games(capsys, tmp_path, game):
    path = tmp_path / f"{game}_mine.toml"
    path.write_text(FILES[game], encoding="utf-8")
    args = [game, "simulate", "--players", "2", "--games", "40", "--seed", "3", "--no-progress"]
    packaged = the_line(run(capsys, *args))
    mine_out = run(capsys, *args, "--components", str(path))
    mine = the_line(mine_out)
    policies = "greedy, greedy" + (" + automa" if game == "meerkat" else "")
    players = "2 players + automa" if game == "meerkat" else "2 players"
    check_line(packaged, game, "packaged", players, policies, "3", "40 games")
    check_line(mine, game, f"{game}_mine.toml", players, policies, "3", "40 games")
    # the hash is of the components played: packaged != the file's (merged over the packaged set)
    assert the_hash(game, None) in packaged and the_hash(game, path) in mine and the_hash(game, None) not in mine
    # one start-player convention: turn position 1, Wilson interval, fair share; seat numbers are not positions
    start = [line for line in mine_out.splitlines() if line.startswith("start player (turn position 1) wins ")]
    assert len(start) == 1 and ", Wilson) vs a fair " in start[0], mine_out
    assert "turn position 0" not in mine_out and "position 0" not in mine_out


def test_the_start_player_line_counts_outright_wins_and_leaves_the_automa_out():
    # three games, 2 players + automa: the start player (position 0) wins game 0, the automa game 1, game 2 shared
    out = outcome_frame([0, 1, 2], ["greedy", "greedy", "automa"], positions=[[0, 1, 2], [1, 0, 2], [0, 1, 2]],
                        scores=[[9, 5, 1], [3, 4, 8], [6, 6, 2]])
    lines = start_player_lines(out)
    won = proportion_estimate(1, 3)
    assert lines[0].startswith(f"start player (turn position 1) wins {won.value:.4f} of the games outright (95% CI "
                               f"{won.ci_low:.4f}..{won.ci_high:.4f}, Wilson)")
    # the players won 1 of the 3 games outright: their fair share is half of that, not a third of every game
    assert f"vs a fair {1 / 3 / 2:.4f} (2 players: 1/2 of the 1 of 3 games a player won outright)" in lines[0]
    assert lines[1].startswith(f"automa (plays last; not a player) wins {1 / 3:.4f}")
    assert lineup(out) == ("2 players + automa", "greedy, greedy + automa")


def test_the_record_prints_one_line_and_a_dict():
    a = Assumptions.build("raft", components="packaged (content hash 0123456789ab)", players=3, policies=["greedy"] * 3,
                          rng=np.random.SeedSequence(5), games=10, variant="sinking", layout=None)
    assert a.line() == ("assumptions: game Rocking Raft (raft); components packaged (content hash 0123456789ab); "
                        "3 players; policies greedy, greedy, greedy; seed SeedSequence(entropy 5); 10 games; "
                        "variant sinking")
    assert a.to_dict()["variant"] == "sinking" and "layout" not in a.to_dict()
    assert "not reproducible" in Assumptions.build("raft", components="x", rng=None).seed


def test_compare_states_both_component_sets_and_what_was_played(capsys, tmp_path):
    path = tmp_path / "raft_mine.toml"
    path.write_text(FILES["raft"], encoding="utf-8")
    out = run(capsys, "raft", "compare", "--variant", str(path), "--metric", "points_per_boat", "--players", "2",
              "--policies", "greedy", "--games", "40", "--seed", "1", "--no-progress")
    line = the_line(out)
    check_line(line, "raft", "base packaged", "2 players", "greedy, greedy", "1", "40 games")
    assert f"variant raft_mine.toml (content hash {the_hash('raft', path)})" in line
    from pyradice_lab.design.compare import compare

    res = compare("raft", None, path, "points_per_boat", games=40, players=2, policies="greedy", rng=1)
    assert res.assumptions.line() in repr(res) and res.to_frame().attrs["assumptions"] == res.assumptions


def test_robustness_balance_ladder_restricted_state_their_assumptions(capsys):
    common = ["--players", "2", "--seed", "4", "--no-progress"]
    line = the_line(run(capsys, "raft", "robustness", "game_length > 5", "--reconstructions", "2", "--games", "30",
                        "--policies", "greedy", *common))  # robustness plays the report player unless told
    check_line(line, "raft", "packaged", "2 players", "greedy, greedy", "4", "30 per component set")
    line = the_line(run(capsys, "purramid", "balance", "--param", "deal_2p.value=[[27,24],[26,25]]", "--objective",
                        "start_player_win = 0.5", "--budget", "200", "--verify-games", "40", *common))
    # balance plays the game's report player by default (issue 29): Purramid's is the exact policy
    check_line(line, "purramid", "starting from packaged", "2 players", "optimal, optimal", "4",
               "per verification run")
    line = the_line(run(capsys, "raft", "ladder", "--policies", "greedy,random", "--games", "20", *common))
    check_line(line, "raft", "packaged", "2 players", "2 rated: greedy, random", "4", "20 in all")
    line = the_line(run(capsys, "raft", "restricted", "--policy", "greedy", "--restrictions", "fixed_duration",
                        "--games", "20", *common))
    check_line(line, "raft", "packaged", "2 players", "greedy with one option forbidden vs 1 unrestricted greedy",
               "4", "20 per restriction")


def test_the_result_objects_carry_the_record():
    from pyradice_lab.design.strength import ladder, restricted_play

    t = ladder("raft", ["greedy", "random"], players=2, games=10, rng=2)   # the game's default is 3 players
    r = restricted_play("raft", "greedy", ["fixed_duration"], players=2, games=10, rng=2)
    for frame in (t, r):
        a = frame.attrs["assumptions"]
        assert isinstance(a, Assumptions) and a.seed == "2" and a.players == "2 players"


def _simulate(game):
    import importlib

    return importlib.import_module(f"pyradice_lab.{game}").simulate_games


@pytest.mark.parametrize("game", GAMES)
def test_simulate_games_frames_carry_the_record(capsys, tmp_path, game):
    """``<game>.simulate_games`` in Python: ``df.attrs["assumptions"]`` (the key of every result object) states what
    the CLI's summary states, and does not depend on how the games were run (one job, blocks on processes, a
    cache)."""
    path = tmp_path / f"{game}_mine.toml"
    path.write_text(FILES[game], encoding="utf-8")
    policies = "greedy, greedy" + (" + automa" if game == "meerkat" else "")
    players = "2 players + automa" if game == "meerkat" else "2 players"
    sim = _simulate(game)
    for comps, label in ((None, "packaged"), (str(path), f"{game}_mine.toml")):
        df = sim(40, 2, rng=3, components=comps)
        a = df.attrs["assumptions"]
        assert isinstance(a, Assumptions)
        check_line(a.line(), game, label, players, policies, "3", "40 games")
        assert the_hash(game, comps) in a.components
        cli_line = the_line(run(capsys, game, "simulate", "--players", "2", "--games", "40", "--seed", "3",
                                "--no-progress", *(["--components", str(path)] if comps else [])))
        assert cli_line.startswith(a.line().split("; ")[0]) and "; ".join(a.line().split("; ")[:6]) in cli_line
        for kw in ({"n_jobs": 2, "backend": "loky"}, {"cache_dir": tmp_path / "cache"}):
            assert sim(40, 2, rng=3, components=comps, **kw).attrs["assumptions"] == a, kw
    if game == "pyradice":
        df, _ = sim(5, 2, rng=1, return_arrays=True)
        assert df.attrs["assumptions"].games == 5
