"""Rules setups: setup_state is the game's first raft, RandomSetup averages tilt questions exactly over setups."""

import itertools
from math import factorial

import numpy as np
import pytest
from scipy.stats import binom

from pyradice_lab import raft
from pyradice_lab.raft import odds, tilting
from pyradice_lab.raft.components import default_components
from pyradice_lab.raft.layouts import (
    OUTER_CELLS,
    SPILL_CELLS,
    RandomSetup,
    reference_state,
    setup_batch,
    setup_raft,
    setup_state,
)
from pyradice_lab.raft.physics import FALLEN, TiltParams, fate_table
from pyradice_lab.raft.rules import Game

COMP = default_components()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_state_is_the_first_raft_of_the_game_with_that_seed(players):
    for seed in range(5):
        state = setup_state(players, seed)
        np.testing.assert_array_equal(state, Game(players, rng=seed).raft)
        np.testing.assert_array_equal(state.sum(axis=0), COMP.gems.in_play(players))   # every gem in play, once
        assert (state[list(OUTER_CELLS)].sum(axis=1) >= 1).all()                     # one gem per outer space ...
        corners = [0, 2, 6, 8]
        assert (state[corners].sum(axis=1) == 1).all()                              # ... corners never get spill


def test_the_batch_setup_is_the_readable_setup():
    rng = np.random.default_rng(3)
    for players in (2, 3, 4):
        in_play = COMP.gems.in_play(players)
        u = rng.random((50, 2 * int(in_play.sum())))
        batch = setup_batch(in_play, u, 0.4)
        for i in range(50):
            np.testing.assert_array_equal(batch[i], setup_raft(in_play, u[i], 0.4))


def test_setup_state_is_exported_lazily_and_validates():
    assert raft.setup_state is setup_state and raft.RandomSetup is RandomSetup
    assert "setup_state" in dir(raft) and "RandomSetup" in dir(raft)
    with pytest.raises(ValueError, match="players"):
        setup_state(5, rng=0)
    with pytest.raises(ValueError, match="players"):
        RandomSetup(1)
    with pytest.raises(ValueError, match="spill"):
        setup_state(3, rng=0, params={"spill": 2.0})


def test_reference_state_is_a_fixed_layout_not_a_setup():
    ref = reference_state(4)
    assert ref.sum(axis=1).tolist() == [1, 1, 1, 1, 19, 1, 1, 1, 1]
    assert ref[list(OUTER_CELLS), 3].sum() == 0                     # no black gem on the ring, unlike setups
    rings = np.array([setup_state(4, s)[list(OUTER_CELLS), 3].sum() for s in range(200)])
    assert (rings > 0).any()


def _brute_force_setup_joint(setup, edge, finger, duration, params):
    """Enumerate every distinct colour sequence of the shuffled gems and every spill cell of every dropped gem."""
    n = setup.in_play
    g = int(n.sum())
    w, fates = fate_table(edge, finger, duration, params)
    pf = fates[:, :, FALLEN]
    spill = params.spill
    cells = [(4, 1.0 - spill)] + [(c, spill / 4) for c in SPILL_CELLS]
    gems = [c for c in range(len(n)) for _ in range(int(n[c]))]
    total = np.zeros(tuple(int(x) + 1 for x in n))
    seqs = set(itertools.permutations(gems))
    weight = 1.0 / len(seqs)   # distinct sequences of a uniform shuffle are equally likely
    assert len(seqs) == factorial(g) // np.prod([factorial(int(x)) for x in n])
    for seq in seqs:
        for drops in itertools.product(cells, repeat=g - 8):
            state = np.zeros((9, len(n)), dtype=np.int64)
            for cell, c in zip(OUTER_CELLS, seq[:8]):
                state[cell, c] += 1
            p = weight
            for (cell, q), c in zip(drops, seq[8:]):
                state[cell, c] += 1
                p *= q
            joint = w[:, None] * odds.poisson_binomial(pf, state[:, 0])
            for c in range(1, len(n)):
                pm = odds.poisson_binomial(pf, state[:, c])
                joint = joint[..., None] * pm.reshape((pm.shape[0],) + (1,) * (joint.ndim - 1) + (pm.shape[1],))
            total += p * joint.sum(axis=0)
    return total


@pytest.mark.slow
def test_exact_setup_average_equals_brute_force_enumeration():
    comp = COMP.with_gems(2, [1, 3, 1, 4])         # 9 gems: 8 on the ring, 1 dropped (5 places it can rest)
    setup = RandomSetup(2, comp)
    params = TiltParams(spill=0.4)
    brute = _brute_force_setup_joint(setup, "east", "left", 1.5, params)
    df = odds.fallen_joint_pmf(setup, "east", "left", 1.5, params)
    exact = df["p"].to_numpy().reshape(brute.shape)
    np.testing.assert_allclose(exact, brute, atol=1e-13)
    total = odds.fallen_total_pmf(setup, "east", "left", 1.5, params)
    np.testing.assert_allclose(total, np.bincount(df["total"], weights=df["p"]), atol=1e-13)
    mean = odds.expected_fallen(setup, "east", "left", 1.5, params)
    np.testing.assert_allclose(mean, df[list(COMP.gems.colours)].to_numpy().T @ df["p"].to_numpy(), atol=1e-12)


def test_setup_average_matches_sampled_setups():
    setup = RandomSetup(2)
    n = 60_000
    res = tilting.tilt(setup, "east", "left", 1.5, n=n, rng=11)
    np.testing.assert_array_equal(res.fallen.sum(axis=1) + res.states.sum(axis=(1, 2)), 21)   # conserved
    red = res.fallen[:, 0] >= 1
    exact = odds.chance_at_least(setup, "east", "left", 1.5, red=1)
    assert abs(red.mean() - exact) < 4 * np.sqrt(exact * (1 - exact) / n)
    # the question of issue 9: a fixed layout and random setups give different answers
    fixed = odds.chance_at_least(reference_state(2), "east", "left", 1.5, red=1)
    assert exact - fixed > 0.05
    pmf = odds.fallen_total_pmf(setup, "east", "left", 1.5)
    counts = np.bincount(res.fallen.sum(axis=1), minlength=len(pmf))
    for k in np.flatnonzero(pmf > 0.01):
        assert abs(counts[k] / n - pmf[k]) < 4 * np.sqrt(pmf[k] * (1 - pmf[k]) / n)


def test_tilt_distribution_over_random_setups_has_the_exact_model_column():
    df = tilting.tilt_distribution(RandomSetup(3), "north", "centre", 1.0, trials=20_000, rng=4)
    assert int(df["count"].sum()) == 20_000 and df["p_model"].notna().all()
    top = df[df["p_model"] > 0.01]
    z = (top["p"] - top["p_model"]) / np.sqrt(top["p_model"] * (1 - top["p_model"]) / 20_000)
    assert len(top) > 5 and (z.abs() < 4).all()


def test_the_dropped_gems_binomial_uses_the_spill_mixture():
    """With every gem but the ring's dropped, the total is ring + Binomial(g - 8, p_drop) given the node."""
    setup = RandomSetup(4)
    params = TiltParams(spill=1.0, timing_noise=0.0, noise_nodes=1)
    w, fates = fate_table("west", "right", 2.0, params)
    pf = fates[0, :, FALLEN]
    p_drop = pf[list(SPILL_CELLS)].mean()
    ring = odds.poisson_binomial(pf[list(OUTER_CELLS)][None], np.ones(8, dtype=int))[0]
    expected = np.convolve(ring, binom.pmf(np.arange(20), 19, p_drop))
    np.testing.assert_allclose(odds.fallen_total_pmf(setup, "west", "right", 2.0, params), expected, atol=1e-14)


@pytest.mark.parametrize(("kwargs", "needle"), [({}, "chance_at_least"), ({"green": 1}, "green"),
                                                 ({"red": -1}, "red"), ({"total": 1.5}, "total")])
def test_chance_at_least_names_bad_questions(kwargs, needle):
    with pytest.raises(ValueError, match=needle):
        odds.chance_at_least(reference_state(2), "east", "left", 1.0, **kwargs)
