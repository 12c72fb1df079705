"""Restricted players (restricted play): parsed names, both engines play them identically, and the restriction
holds in the games played."""

import pytest

from pyradice_lab.engine.rng import spawn
from pyradice_lab.purramid import policies as P, rules, sim


def test_restricted_names_parse():
    pol = P.parse_policy("risk:0.3/no_yarn")
    assert (pol.name, pol.kind, pol.param, pol.yarn) == ("stop_if_burst_risk_above(0.3)/no_yarn", P.K.KIND_RISK,
                                                         0.3, False)
    both = P.parse_policy("stop_after:2/no_stop/no_yarn")
    assert (both.kind, both.yarn) == (P.greedy().kind, False)
    with pytest.raises(ValueError, match="restriction"):
        P.parse_policy("greedy/no_cats")


def test_compiled_engine_replays_restricted_players():
    pols = ["risk:0.3/no_yarn", "stop_after:2/no_stop", "greedy", "risk:0.5"]
    df = sim.simulate_games(5, players=4, layout="A", policies=pols, rng=31)
    for i, gen in enumerate(spawn(31, 5)):
        rec = rules.play_game(4, "A", policies=pols, rng=gen, trace=False)
        for k, v in rec.summary.items():
            if k in df.columns:  # the readable engine also counts things the compiled one does not
                assert df.iloc[i][k] == v, (i, k)


def test_no_yarn_players_never_spend_yarn_and_others_do():
    df = sim.simulate_games(200, players=3, policies="greedy/no_yarn", rng=3)
    assert df["yarn_spent"].sum() == 0 and df["yarn_won"].sum() > 0
    assert sim.simulate_games(200, players=3, policies="greedy", rng=3)["yarn_spent"].sum() > 0
