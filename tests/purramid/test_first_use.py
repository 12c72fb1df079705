"""Issue 16 (first use): an all-greedy lineup runs a smaller compiled games loop that plays the same games."""

import pandas as pd

from pyradice_lab.engine.rng import spawn
from pyradice_lab.purramid import kernel as K, rules, sim


def test_all_greedy_loop_plays_the_games_of_the_full_loop(monkeypatch):
    """With every seat greedy, ``run_games`` gets no risk tables (``rcm=None``: numba prunes the early-stop
    check); with the switch off the same games go through the full loop: identical frames, yarn-less seats
    (restricted play) included."""
    pols = ["greedy", "greedy", "greedy"]
    fast = sim.simulate_games(40, players=3, layout="B", policies=pols, rng=7)
    monkeypatch.setattr(sim, "_PRUNE_GREEDY", False)
    full = sim.simulate_games(40, players=3, layout="B", policies=pols, rng=7)
    pd.testing.assert_frame_equal(fast, full)
    assert fast["bursts"].sum() > 0 and fast["yarn_spent"].sum() > 0  # the games exercise bursts and rerolls


def test_all_greedy_loop_replays_the_readable_engine():
    df = sim.simulate_games(5, players=4, layout="A", rng=123)
    for i, gen in enumerate(spawn(123, 5)):
        rec = rules.play_game(4, "A", policies=None, rng=gen, trace=False)
        for k, v in rec.summary.items():
            if k != "doomed_segments":
                assert df.iloc[i][k] == v, (i, k)


def test_turn_helpers_are_inlined_into_the_games_loops():
    """Compile time: human_turn and end_turn are inlined (numba IR), so they are never compiled alone."""
    for f in (K.human_turn, K.end_turn):
        assert f.targetoptions.get("inline") == "always"
