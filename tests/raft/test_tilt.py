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
    assert p[1] > p[4] > p[7] > 0 and p[1] > p[0] == p[2] > 0     # corners reach the gap along the wall
    stuck = fall_probabilities("north", "centre", 30.0, TiltParams(wall_spread=0.0))
    assert stuck[0] == stuck[2] == 0                               # without spreading a solid corner never empties
    assert fall_probabilities("north", "centre", 30.0)[0] > 0.9    # with it, a long tilt empties it
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


# ----------------------------------------------------------------------------------- issue 9 item 4
@settings(max_examples=40)
@given(raft_states(), edge_finger, params_st, st.integers(0, 2**32 - 1))
def test_a_tilt_of_zero_seconds_changes_nothing(state, ef, params, seed):
    edge, finger = ef
    res = tilting.tilt(state, edge, finger, 0.0, n=40, rng=seed, params=params)
    assert res.fallen.sum() == 0
    np.testing.assert_array_equal(res.states, np.broadcast_to(state, res.states.shape))
    _, fates = fate_table(edge, finger, 0.0, params)
    np.testing.assert_array_equal(fates[:, :, :9], np.broadcast_to(np.eye(9), (fates.shape[0], 9, 9)))


@settings(max_examples=30)
@given(edge_finger, params_st)
def test_the_chance_that_a_gem_is_disturbed_grows_with_the_duration(ef, params):
    """Exact: P(a gem ends on the space it started on) falls as the tilt lasts longer, from 1 at 0 s."""
    edge, finger = ef
    stay = []
    for d in (0.0, 0.05, 0.2, 0.5, 1.0, 2.0, 4.0):
        w, fates = fate_table(edge, finger, d, params)
        stay.append(w @ fates[:, np.arange(9), np.arange(9)])
    stay = np.array(stay)
    assert np.allclose(stay[0], 1.0)
    assert (np.diff(stay, axis=0) <= 1e-12).all()


def test_the_chance_of_any_change_grows_with_the_duration_monte_carlo():
    state = tilting.reference_state(4)
    n = 4000
    changed = []
    for d, seed in zip((0.0, 0.05, 0.2, 1.0), (1, 2, 3, 4)):
        res = tilting.tilt(state, "south", "left", d, n=n, rng=seed)
        changed.append(((res.states != state).any(axis=(1, 2)) | (res.fallen > 0).any(axis=1)).mean())
    assert changed[0] == 0.0
    for a, b in zip(changed, changed[1:]):
        se = np.sqrt(a * (1 - a) / n + b * (1 - b) / n)
        assert b - a > 4 * se, changed


# ----------------------------------------------------------------------------------- issue 18 item 3
# The wall gaps of data/raft.toml in the global frame (cells row by row from the north-west corner), written
# out by hand: north [0, 1, 0] -> cell 1; east [1, 0, 0] left to right as seen from the east -> cell 8;
# south [0.5, 0, 0.5] -> cells 6 and 8; west [0, 0.5, 0] -> cell 3.  Lowered rows: north 0 1 2, east 2 5 8,
# south 6 7 8, west 0 3 6.
GAP_CELLS = {"north": {1}, "east": {8}, "south": {6, 8}, "west": {3}}
EDGE_CELLS = {"north": {0, 1, 2}, "east": {2, 5, 8}, "south": {6, 7, 8}, "west": {0, 3, 6}}
FAR_CELLS = {"north": {6, 7, 8}, "east": {0, 3, 6}, "south": {0, 1, 2}, "west": {2, 5, 8}}


@pytest.mark.parametrize("edge", EDGES)
def test_fall_probabilities_are_non_zero_only_next_to_the_lowered_edge(edge):
    still = TiltParams(slide_rate=0.0, wall_spread=0.0)   # nothing moves: only gems at a gap can fall
    along = TiltParams(slide_rate=0.0)                     # gems move only along the lowered wall
    for finger in range(len(GEOM.fingers[edge])):
        p = fall_probabilities(edge, finger, 2.0, still)
        assert set(np.flatnonzero(p > 0)) == GAP_CELLS[edge], (edge, finger, p)
        p = fall_probabilities(edge, finger, 2.0, along)
        assert set(np.flatnonzero(p > 0)) == EDGE_CELLS[edge], (edge, finger, p)
        moving = fall_probabilities(edge, finger, 2.0)
        assert set(np.flatnonzero(moving > 0)) >= GAP_CELLS[edge]
        near = max(moving[list(GAP_CELLS[edge])])
        assert near > max(moving[c] for c in FAR_CELLS[edge])   # the far row falls least


@pytest.mark.parametrize("edge", EDGES)
def test_a_single_gem_falls_only_through_the_lowered_edges_gaps(edge):
    still = TiltParams(slide_rate=0.0, wall_spread=0.0)
    for cell in range(9):
        state = np.zeros((9, 4), dtype=np.int64)
        state[cell, 0] = 1
        res = tilting.tilt(state, edge, 0, 3.0, n=300, rng=cell, params=still)
        assert (res.fallen.sum() > 0) == (cell in GAP_CELLS[edge]), (edge, cell)
        if cell not in GAP_CELLS[edge]:
            assert (res.states[:, cell, 0] == 1).all()          # nothing moves without sliding or spreading
