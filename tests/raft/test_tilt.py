"""The tilt model: conservation, physical properties (hypothesis), MC vs the exact model, bad input."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from pyradice_lab.raft import odds, tilting
from pyradice_lab.raft.components import EDGES, RaftGeometry, default_components
from pyradice_lab.raft.physics import TiltParams, fall_probabilities, fate_table

COMP = default_components()
GEOM = COMP.raft
TOTALS = np.array(COMP.gems.counts)


@st.composite
def raft_states(draw, max_gems=27):
    """Random raft states within the component totals."""
    left = TOTALS.copy()
    state = np.zeros((9, 4), dtype=np.int64)
    for s in range(9):
        for c in range(4):
            k = draw(st.integers(0, int(min(left[c], 4))))
            state[s, c] = k
            left[c] -= k
    return state


params_st = st.builds(TiltParams, slide_rate=st.floats(0.05, 5), drop_rate=st.floats(0.05, 8),
                      finger_skew=st.floats(0, 1), recentre=st.floats(0, 1), timing_noise=st.floats(0, 0.8),
                      noise_nodes=st.integers(1, 16))
edge_finger = st.sampled_from(GEOM.options())


@settings(max_examples=60)
@given(raft_states(), edge_finger, st.floats(0, 6), params_st, st.integers(0, 2**32 - 1))
def test_every_tilt_conserves_gems_and_never_goes_negative(state, ef, duration, params, seed):
    edge, finger = ef
    res = tilting.tilt(state, edge, finger, duration, n=50, rng=seed, params=params)
    assert (res.fallen >= 0).all() and (res.states >= 0).all()
    np.testing.assert_array_equal(res.fallen + res.states.sum(axis=1), np.broadcast_to(state.sum(axis=0), (50, 4)))


@settings(max_examples=60)
@given(raft_states(), edge_finger, st.floats(0, 5), st.floats(0, 5), params_st)
def test_a_longer_tilt_never_lowers_the_expected_number_fallen(state, ef, d1, d2, params):
    edge, finger = ef
    lo, hi = sorted((d1, d2))
    e_lo = odds.expected_fallen(state, edge, finger, lo, params).sum()
    e_hi = odds.expected_fallen(state, edge, finger, hi, params).sum()
    assert e_hi >= e_lo - 1e-9


@settings(max_examples=40)
@given(raft_states(), st.sampled_from(EDGES), st.floats(0, 20), params_st, st.integers(0, 2**32 - 1))
def test_no_opening_on_the_lowered_edge_means_nothing_falls(state, edge, duration, params, seed):
    openings = dict(GEOM.openings)
    openings[edge] = (0.0, 0.0, 0.0)
    closed = RaftGeometry(openings, GEOM.fingers, GEOM.finger_offsets)
    for finger in range(len(GEOM.fingers[edge])):
        res = tilting.tilt(state, edge, finger, duration, n=30, rng=seed, params=params, geometry=closed)
        assert res.fallen.sum() == 0
        assert float(fall_probabilities(edge, finger, duration, params, closed).max()) == 0.0


def test_zero_duration_drops_nothing_and_fate_tables_are_distributions():
    state = tilting.reference_state(4)
    assert tilting.tilt(state, "north", "centre", 0.0, n=200, rng=1).fallen.sum() == 0
    w, fates = fate_table("east", "left", 1.7)
    assert abs(w.sum() - 1) < 1e-12 and np.allclose(fates.sum(axis=2), 1) and (fates >= 0).all()


def test_the_model_is_physical():
    """Far spaces fall later than near ones; a wide gap beats a narrow one; pressing toward a corner
    gap funnels gems into it; more timing noise spreads the count."""
    p = fall_probabilities("north", "centre", 1.0)
    assert p[1] > p[4] > p[7] > 0 and p[0] == p[2] == 0
    east_left = fall_probabilities("east", "left", 2.0)   # wide gap at the east player's left end
    east_right = fall_probabilities("east", "right", 2.0)
    assert east_left.sum() > east_right.sum()
    state = tilting.reference_state(4)
    pm_lo = odds.fallen_total_pmf(state, "north", "centre", 1.5, TiltParams(timing_noise=0.0))
    pm_hi = odds.fallen_total_pmf(state, "north", "centre", 1.5, TiltParams(timing_noise=0.5))
    k = np.arange(len(pm_lo))
    var = lambda pm: pm @ k**2 - (pm @ k) ** 2  # noqa: E731
    assert var(pm_hi) > var(pm_lo)


@pytest.mark.parametrize(("edge", "finger", "duration"), [("north", "centre", 1.0), ("east", "left", 2.5),
                                                           ("south", "right", 0.7), ("west", "left", 1.5)])
def test_monte_carlo_matches_the_exact_model(edge, finger, duration):
    state = tilting.reference_state(3)
    n = 40_000
    res = tilting.tilt(state, edge, finger, duration, n=n, rng=2024)
    exact_mean = odds.expected_fallen(state, edge, finger, duration)
    mc_mean = res.fallen.mean(axis=0)
    se = res.fallen.std(axis=0, ddof=1) / np.sqrt(n)
    assert (np.abs(mc_mean - exact_mean) < 4 * se + 1e-12).all()
    pmf = odds.fallen_total_pmf(state, edge, finger, duration)
    assert abs(pmf.sum() - 1) < 1e-12
    counts = np.bincount(res.fallen.sum(axis=1), minlength=len(pmf))
    for k in np.flatnonzero(pmf > 0.01):
        p_hat = counts[k] / n
        assert abs(p_hat - pmf[k]) < 4 * np.sqrt(pmf[k] * (1 - pmf[k]) / n)


def test_tilt_distribution_table_and_model_column():
    df = tilting.tilt_distribution(tilting.reference_state(4), "north", "centre", 1.0, trials=30_000, rng=5)
    assert int(df["count"].sum()) == 30_000 and abs(df["p"].sum() - 1) < 1e-12
    assert (df["p_ci_low"] <= df["p"]).all() and (df["p"] <= df["p_ci_high"]).all()
    top = df[df["p_model"] > 0.01]
    assert len(top) > 10
    z = (top["p"] - top["p_model"]) / np.sqrt(top["p_model"] * (1 - top["p_model"]) / 30_000)
    assert (z.abs() < 4).all()
    joint = odds.fallen_joint_pmf(tilting.reference_state(4), "north", "centre", 1.0)
    assert abs(joint["p"].sum() - 1) < 1e-12


def test_same_seed_same_tilts_and_generator_streams_continue():
    state = tilting.reference_state(2)
    a = tilting.tilt(state, "west", "right", 1.2, n=100, rng=9)
    b = tilting.tilt(state, "west", "right", 1.2, n=100, rng=9)
    np.testing.assert_array_equal(a.fallen, b.fallen)
    np.testing.assert_array_equal(a.states, b.states)
    # one batch of 100 equals 100 single tilts from the same generator (the game engine relies on it)
    g = np.random.default_rng(9)
    singles = np.concatenate([tilting.tilt(state, "west", "right", 1.2, n=1, rng=g).fallen for _ in range(100)])
    np.testing.assert_array_equal(singles, a.fallen)


@pytest.mark.parametrize(("kwargs", "needle"), [
    ({"edge": "up"}, "edge"),
    ({"duration": -0.5}, "duration"),
    ({"duration": float("nan")}, "duration"),
    ({"duration": 1e6}, "duration"),
    ({"finger": "centre", "edge": "east"}, "finger"),
    ({"finger": 7}, "finger"),
    ({"n": 0}, "n"),
    ({"state": np.full((9, 4), 4)}, "state"),           # 36 gems > the 27 of the set
    ({"state": -np.ones((9, 4), dtype=int)}, "state"),
    ({"state": np.zeros((8, 4), dtype=int)}, "state"),
    ({"state": np.full((9, 4), 0.5)}, "state"),
    ({"params": {"drop_rate": -1.0}}, "drop_rate"),
    ({"params": {"wobble": 1.0}}, "params"),
])
def test_bad_input_names_the_parameter(kwargs, needle):
    call = {"state": tilting.reference_state(4), "edge": "north", "finger": "centre", "duration": 1.0, "n": 10}
    call.update(kwargs)
    with pytest.raises(ValueError, match=needle):
        tilting.tilt(call.pop("state"), call.pop("edge"), call.pop("finger"), call.pop("duration"), rng=1, **call)
