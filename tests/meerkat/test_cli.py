"""The ``pyradice-lab meerkat`` commands: output and one-line errors with exit status 2."""

import pandas as pd

from pyradice_lab.cli import main


def test_odds_and_score(capsys):
    assert main(["meerkat", "odds", "--tile", "7", "--count", "2", "--no-reroll"]) == 0
    assert "= 1/3 =" in capsys.readouterr().out
    assert main(["meerkat", "odds", "--tile", "7", "--count", "queen"]) == 0
    assert "queen on tile 7" in capsys.readouterr().out
    assert main(["meerkat", "score", "--tile", "6", "--counts", "3,3,2,1"]) == 0
    out = capsys.readouterr().out
    assert "player 2: 2 meerkats -> 6 points" in out and "player 3: 1 meerkat -> 3 points" in out
    assert main(["meerkat", "score", "--tile", "7", "--counts", "1,2,1", "--queens", "1,0,0"]) == 0
    assert "player 0: 1 meerkat + queen -> 6 points" in capsys.readouterr().out
    assert main(["meerkat", "score", "--tile", "9", "--counts", "1,2,3", "--reverse"]) == 0
    out = capsys.readouterr().out
    assert "literal reading" in out and "player 1: 2 meerkats -> 2 points" in out
    assert main(["meerkat", "score", "--tile", "9", "--counts", "1,2,3", "--reverse", "--reverse-reading",
                 "extended"]) == 0
    assert "player 1: 2 meerkats -> 4 points" in capsys.readouterr().out


def test_simulate_and_play(capsys, tmp_path):
    csv = tmp_path / "games.csv"
    assert main(["meerkat", "simulate", "--players", "2", "--games", "12", "--seed", "1", "--policy",
                 "random_legal", "--no-progress", "--out", str(csv)]) == 0
    out = capsys.readouterr().out
    assert "2 players + automa; policies random_legal, random_legal + automa; seed 1; 12 games" in out
    assert "win_rate" in out
    # the start-player line is the start player's outright wins (turn position 1), not seat 0's; the fair share
    # is the players' (what the automa leaves them, halved), the automa on its own line
    df = pd.read_csv(csv)
    assert df["automa"].all() and (df["setup"] == "2p + automa").all()
    assert f"start player (turn position 1) wins {(df['start_player_won'] == 1).mean():.4f}" in out
    human = (df["winner"].between(0, 1)).mean() / 2
    assert f"vs a fair {human:.4f} (2 players" in out and "\nautoma (plays last; not a player) wins " in out
    assert "over the other player's win share" in out
    assert main(["meerkat", "simulate", "--players", "2", "--no-automa", "--games", "3", "--seed", "1",
                 "--policy", "random_legal", "--no-progress", "--jackal-reading", "next_tile"]) == 0
    out = capsys.readouterr().out
    assert "2p, no automa: extension (not in the rules);" in out and "; jackal reading next_tile" in out
    assert main(["meerkat", "play", "--players", "3", "--seed", "2", "--policy", "random_legal"]) == 0
    assert "score tile 12" in capsys.readouterr().out


def test_bad_input_exits_2(capsys):
    for argv, word in [(["meerkat", "odds", "--tile", "13"], "tile"),
                       (["meerkat", "odds", "--tile", "7", "--count", "4"], "count"),
                       (["meerkat", "score", "--tile", "7", "--counts", "1,-2"], "counts"),
                       (["meerkat", "score", "--tile", "7", "--counts", "1,2", "--queens", "1"], "queens"),
                       (["meerkat", "simulate", "--players", "5", "--games", "2"], "players")]:
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.startswith("pyradice-lab: error:") and word in err and len(err.strip().splitlines()) == 1


def test_ladder_defaults_to_the_report_players(capsys, monkeypatch):
    """``meerkat ladder`` without --policies plays the registry's heuristic_player against its report_player."""
    import pyradice_lab.design.strength as strength
    from pyradice_lab.engine import registry

    seen = {}
    real = strength.ladder

    def spy(game, policies, **kwargs):
        seen["policies"] = policies
        return real(game, ["random_legal", "greedy"], **{**kwargs, "games": 4})

    monkeypatch.setattr(strength, "ladder", spy)
    assert main(["meerkat", "ladder", "--games", "4", "--no-progress"]) == 0
    spec = registry.get_game("meerkat")
    assert seen["policies"] == [spec.heuristic_player, spec.report_player] == ["greedy", "mcts_v2"]
