"""The batch engine plays exactly the games of the readable rules; seeds, conservation, statistics."""

import numpy as np
import pandas as pd
import pytest

from pyradice_lab.raft import kernel, odds, tilting
from pyradice_lab.raft.components import default_components
from pyradice_lab.raft.physics import fate_table
from pyradice_lab.raft.policies import aim, fixed
from pyradice_lab.raft.rules import ConservationError, sample_tilt
from pyradice_lab.raft.sim import simulate, simulate_games

CONFIGS = [
    dict(players=2, variant="standard", policies="greedy"),
    dict(players=3, variant="sinking", policies=["aim", "greedy", "random"]),
    dict(players=4, variant="standard", policies=["fixed:1.5", "random", "aim", "greedy"], skills=[0.0, 0.2, 0.4, 0.6]),
    dict(players=4, variant="sinking", policies="greedy", params={"spill": 0.6, "recentre": 0.2}),
    dict(players=4, variant="standard", policies="aim", flag_depth=31),   # flag at the bottom: the deck runs out
]


@pytest.mark.parametrize("config", CONFIGS)
def test_batch_engine_plays_the_same_games_as_the_readable_rules(config):
    a = simulate_games(24, rng=11, engine="batch", **config)
    b = simulate_games(24, rng=11, engine="rules", **config)
    a.attrs, b.attrs = {}, {}
    pd.testing.assert_frame_equal(a, b)
    assert a["turns"].nunique() > 1   # the games differ from each other


def test_deck_exhaustion_is_reached_in_the_cross_checked_configuration():
    df = simulate_games(24, rng=11, **CONFIGS[-1])
    assert df["deck_exhausted"].any()


def test_custom_python_policies_run_in_the_readable_engine():
    def cautious(view):
        return "west", "left", 0.5 if view["turn"] % 2 else 1.0

    df = simulate_games(6, 2, policies=[cautious, "greedy"], rng=3)
    assert df.attrs["engine"] == "rules" and df.attrs["policies"] == ["custom", "greedy"]
    with pytest.raises(ValueError, match="engine"):
        simulate_games(2, 2, policies=[cautious, "greedy"], rng=3, engine="batch")


def test_a_game_does_not_depend_on_its_batch_or_on_n_jobs():
    long = simulate_games(90, 3, rng=5)
    short = simulate_games(7, 3, rng=5)
    pd.testing.assert_frame_equal(long.iloc[:7].reset_index(drop=True), short, check_like=True)
    par = simulate_games(90, 3, rng=5, n_jobs=2, chunk=30)
    pd.testing.assert_frame_equal(long, par)
    other = simulate_games(90, 3, rng=6)
    assert not long["score_0"].equals(other["score_0"])


def test_batch_engine_checks_conservation_at_every_step(monkeypatch):
    real = kernel._Batch.drop

    def leaky(self, vec):
        real(self, vec)
        if vec.sum() > 0:
            self.raft[0, 4, 0] -= 1   # lose a gem in the first game of the batch

    monkeypatch.setattr(kernel._Batch, "drop", leaky)
    with pytest.raises(ConservationError, match="gem conservation broken"):
        simulate_games(5, 3, rng=1)


def test_many_games_keep_every_gem_and_never_pass_black():
    for players in (2, 3, 4):
        for variant in ("standard", "sinking"):
            df = simulate_games(150, players, variant, rng=players)   # the engine checks every step
            assert (df["black_passed"] == 0).all()
            assert (~df["truncated"]).all()
            assert ((df["turns"] % players) == 0).all()
            scores = df[[f"score_{p}" for p in range(players)]].to_numpy()
            win = df["winner"].to_numpy()
            solo = win >= 0
            assert (scores[solo, win[solo]] == scores[solo].max(axis=1)).all()
            if variant == "sinking":
                assert df["sunk"].sum() > 0
            else:
                assert df["sunk"].sum() == 0


def test_card_statistics_add_up():
    batch = simulate(400, 4, rng=3)
    cards, games = batch.cards, batch.games
    completed = games[[f"boats_{p}" for p in range(4)]].to_numpy().sum()
    assert cards["completed"].sum() == completed
    # every card that entered a hand was completed, is still held, or (never here) sank
    assert (cards["drawn"] == cards["completed"] + cards["held_at_end"] + cards["sunk"]).all()
    assert (cards["completed_turns"] >= 0).all() and cards["gift_completed"].sum() > 0


def test_the_engines_tilt_sampler_matches_the_exact_model():
    state = tilting.reference_state(4)
    cumw, cumf = tilting.cumulative_tables(*fate_table("east", "left", 2.0))
    rng = np.random.default_rng(8)
    n = 6000
    falls = np.array([sample_tilt(rng.random(), rng.random(27), state, cumw, cumf)[0] for _ in range(n)])
    exact = odds.expected_fallen(state, "east", "left", 2.0)
    se = falls.std(axis=0, ddof=1) / np.sqrt(n)
    assert (np.abs(falls.mean(axis=0) - exact) < 4 * se + 1e-12).all()


def test_dexterity_and_fixed_policies_change_the_game():
    a = simulate_games(300, 2, policies=[fixed(0.5), fixed(3.0)], rng=4)
    assert a["gems_passed"].mean() > 0
    b = simulate_games(300, 2, policies=[aim(), aim()], skills=[0.0, 1.0], rng=4)
    assert a["turns"].mean() != b["turns"].mean()


@pytest.mark.parametrize(("kwargs", "needle"), [
    ({"n_games": 0}, "n_games"),
    ({"players": 9}, "players"),
    ({"variant": "deep"}, "variant"),
    ({"engine": "gpu"}, "engine"),
    ({"flag_depth": -1}, "flag_depth"),
    ({"policies": ["aim"] * 2}, "policies"),
])
def test_bad_simulation_input_names_the_parameter(kwargs, needle):
    call = {"n_games": 3, "players": 3}
    call.update(kwargs)
    with pytest.raises(ValueError, match=needle):
        simulate_games(call.pop("n_games"), rng=1, **call)


def test_components_gem_mix_override():
    comp = default_components().with_gems(3, [7, 7, 7, 6])
    df = simulate_games(50, 3, components=comp, rng=2)
    assert len(df) == 50
