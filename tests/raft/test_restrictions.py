"""Restricted players (restricted play): parsed names, the options they may choose, both engines agree."""

import pytest

from pyradice_lab.raft import policies as P
from pyradice_lab.raft.components import default_components
from pyradice_lab.raft.sim import simulate_games


def test_restricted_policies_narrow_the_options():
    table = P.OptionTable(default_components().raft, P.DEFAULT_DURATIONS)
    full = table.allowed(P.get_policy("greedy"))
    centre = table.allowed(P.get_policy("greedy/centre_finger"))
    names = [table.geometry.fingers[e][f] for e, f, _ in table.options]
    assert centre.sum() < full.sum() and all(names[i] == "centre" for i in range(len(names)) if centre[i])
    fixed = P.get_policy("aim/fixed_duration")
    assert fixed.durations == (1.0,) and fixed.name == "aim/fixed_duration"
    assert P.get_policy("fixed:2.0/fixed_duration").durations == (2.0,)
    gifts = P.get_policy("greedy/ignore_gifts")
    assert (gifts.gift_weight, gifts.gift_cost, gifts.progress_weight) == (0.0, 0.0, 0.25)
    with pytest.raises(ValueError, match="restriction"):
        P.get_policy("greedy/no_raft")


def test_both_engines_play_restricted_players_identically():
    pols = ["greedy/centre_finger", "aim/fixed_duration", "greedy/ignore_gifts"]
    a = simulate_games(3, players=3, policies=pols, rng=12, engine="batch")
    b = simulate_games(3, players=3, policies=pols, rng=12, engine="rules")
    cols = [c for c in a.columns if c != "seed_entropy"]
    assert a[cols].equals(b[cols])
