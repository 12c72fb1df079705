"""The batch engine plays exactly the games of the readable rules; seeds, conservation, statistics."""

import numpy as np
import pandas as pd
import pytest

from pyradice_lab.raft import kernel, odds, tilting
from pyradice_lab.raft.components import default_components
from pyradice_lab.raft.physics import fate_table
from pyradice_lab.raft.policies import aim, fixed
from pyradice_lab.raft.rules import ConservationError, sample_tilt
from pyradice_lab.raft.sim import by_position, simulate, simulate_games, start_player_table

CONFIGS = [
    dict(players=2, variant="standard", policies="greedy"),
    dict(players=3, variant="sinking", policies=["aim", "greedy", "random"]),
    dict(players=4, variant="standard", policies=["fixed:1.5", "random", "aim", "greedy"], skills=[0.0, 0.2, 0.4, 0.6]),
    dict(players=4, variant="sinking", policies="greedy", params={"spill": 0.6, "recentre": 0.2}),
    dict(players=4, variant="standard", policies="aim", flag_depth=31),   # flag at the bottom: the deck runs out
    dict(players=3, variant="sinking", policies="greedy", discards_roll=True, replace_sunk=False),  # other readings
]


@pytest.mark.parametrize("config", CONFIGS)
def test_batch_engine_plays_the_same_games_as_the_readable_rules(config):
    a = simulate_games(24, rng=11, engine="batch", **config)
    b = simulate_games(24, rng=11, engine="rules", **config)
    a.attrs, b.attrs = {}, {}
    pd.testing.assert_frame_equal(a, b)
    assert a["turns"].nunique() > 1   # the games differ from each other


@pytest.mark.parametrize("config", CONFIGS[:2] + CONFIGS[4:5])
def test_both_engines_record_the_same_per_card_columns(config):
    """Per game and card: completions, own turns held, own turns held until completed (issue 29), equal in the
    batch engine and the readable rules; the turns until completed never exceed the turns held."""
    a = simulate_games(24, rng=11, engine="batch", card_columns=True, **config)
    b = simulate_games(24, rng=11, engine="rules", card_columns=True, **config)
    assert a.attrs["card_ids"] == b.attrs["card_ids"] and len(a.attrs["card_ids"]) == 39
    a.attrs, b.attrs = {}, {}
    pd.testing.assert_frame_equal(a, b)
    m = 39
    done = a[[f"completed_c{i}" for i in range(m)]].to_numpy()
    held = a[[f"turns_held_c{i}" for i in range(m)]].to_numpy()
    until = a[[f"completed_turns_c{i}" for i in range(m)]].to_numpy()
    # (a lifeboat completed by passed gems before its holder's next turn is held 0 own turns until completed)
    assert (until <= held).all() and (until[done == 0] == 0).all() and until.sum() > 0
    assert (held > until).any()                      # some cards are held and never completed in a game
    cards = simulate(24, rng=11, engine="batch", **config).cards   # the per-card totals over the games
    assert (cards["completed_turns"].to_numpy() == until.sum(axis=0)).all()
    assert (cards["completed"].to_numpy() == done.sum(axis=0)).all()


def test_deck_exhaustion_is_reached_in_the_cross_checked_configuration():
    df = simulate_games(24, rng=11, **next(c for c in CONFIGS if c.get("flag_depth") == 31))
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

    def leaky(self, vec, roll=True):
        real(self, vec, roll)
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


def test_a_long_fixed_tilt_gives_away_more_than_a_short_one():
    df = simulate_games(300, 2, policies=[fixed(0.5), fixed(3.0)], rng=4)
    diff = df["gifted_1"] - df["gifted_0"]               # points each seat's leftovers completed for the other
    assert diff.mean() > 4 * diff.std(ddof=1) / np.sqrt(len(df))


def test_dexterity_alone_changes_who_wins():
    """Same policy for both seats; only the timing noise differs, then is swapped (same seed)."""
    steady = simulate_games(400, 2, policies=[aim(), aim()], skills=[0.0, 1.0], rng=4)
    swapped = simulate_games(400, 2, policies=[aim(), aim()], skills=[1.0, 0.0], rng=4)
    for df, good in ((steady, 0), (swapped, 1)):
        margin = df[f"score_{good}"] - df[f"score_{1 - good}"]
        assert margin.mean() > 4 * margin.std(ddof=1) / np.sqrt(len(df))


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


def test_components_gem_mix_override_is_played():
    """Without red and black gems no lifeboat with a red slot can ever be completed, in either engine."""
    comp = default_components().with_gems(3, [0, 10, 10, 0])
    batch = simulate(20, 3, components=comp, rng=2, max_turns=30)
    red = np.array(["R" in name for name in batch.cards["name"]])
    assert batch.cards.loc[red, "completed"].sum() == 0 and batch.cards.loc[red, "drawn"].sum() > 0
    assert batch.cards.loc[~red, "completed"].sum() > 0
    rules = simulate_games(20, 3, components=comp, rng=2, max_turns=30, engine="rules")
    a, b = batch.games.copy(), rules.copy()
    a.attrs, b.attrs = {}, {}
    pd.testing.assert_frame_equal(a, b)


@pytest.mark.slow
def test_more_wild_gems_shorten_the_game():
    comp = default_components()
    none = simulate_games(150, 3, components=comp.with_gems(3, [7, 7, 7, 0]), rng=2)
    many = simulate_games(150, 3, components=comp.with_gems(3, [7, 7, 7, 6]), rng=3)
    diff = none["rounds"].mean() - many["rounds"].mean()
    se = np.hypot(none["rounds"].std(ddof=1), many["rounds"].std(ddof=1)) / np.sqrt(150)
    assert diff > 4 * se


# ----------------------------------------------------------------------------------- start player (issue 9 item 11)
def test_start_player_table_reindexes_by_turn_position():
    games = pd.DataFrame({"players": 3, "first_player": [0, 2, 1],
                          "score_0": [10, 5, 7], "score_1": [4, 9, 7], "score_2": [1, 20, 3],
                          "boats_0": [3, 2, 2], "boats_1": [1, 3, 2], "boats_2": [1, 4, 1]})
    np.testing.assert_array_equal(by_position(games), [[10, 4, 1], [20, 5, 9], [7, 3, 7]])
    t = start_player_table(games)
    assert t["position"].tolist() == [1, 2, 3]  # turn positions are numbered from 1 (1 = the start player)
    # game 3: seats 1 and 0 tie on 7 points and 2 boats (positions 0 and 2) -> a shared win
    np.testing.assert_allclose(t["win_rate"], [2 / 3, 0, 0])
    np.testing.assert_allclose(t["win_share"], [2.5 / 3, 0, 0.5 / 3])
    np.testing.assert_allclose(t["mean_score"], [37 / 3, 4, 17 / 3])
    assert t["fair_share"].eq(1 / 3).all() and t["games"].eq(3).all()
    with pytest.raises(ValueError, match="games"):
        start_player_table(pd.DataFrame())


def test_start_player_is_recorded_and_random():
    df = simulate_games(600, 3, rng=8)
    counts = np.bincount(df["first_player"], minlength=3)
    assert (np.abs(counts - 200) < 4 * np.sqrt(600 * (1 / 3) * (2 / 3))).all()
    t = start_player_table(df)
    assert abs(t["win_share"].sum() - 1) < 1e-12
    assert ((t["win_rate_ci_low"] <= t["win_rate"]) & (t["win_rate"] <= t["win_rate_ci_high"])).all()
