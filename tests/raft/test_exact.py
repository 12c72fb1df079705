"""The exact (expected-points) player: its pmfs, its outcome values and its option values against brute force."""

import numpy as np
import pandas as pd
import pytest

from pyradice_lab.raft import expectimax, odds
from pyradice_lab.raft.components import default_components
from pyradice_lab.raft.layouts import setup_state
from pyradice_lab.raft.loading import load_scalar
from pyradice_lab.raft.physics import FALLEN, default_params, fate_table
from pyradice_lab.raft.policies import OptionTable, exact, get_policy
from pyradice_lab.raft.rules import FLAG, Game
from pyradice_lab.raft.sim import simulate_games

COMP = default_components()
SLOTS, POINTS = COMP.deck_arrays()


def test_capped_pmfs_equal_the_exact_pmfs_and_lump_the_tail():
    state = setup_state(3, rng=4)
    w, fates = fate_table("north", "centre", 2.0)
    pf = fates[:, :, FALLEN]
    full = odds.capped_count_pmfs(state[None], pf[None], state.sum(axis=0)[None])
    _, ref = odds.count_pmfs_by_node(state, "north", "centre", 2.0)
    for a, b in zip(full, ref):
        np.testing.assert_allclose(a[0], b, atol=1e-14)
    caps = np.array([[2, 1, 0, 5]])
    capped = odds.capped_count_pmfs(state[None], pf[None], caps)
    for c, (a, b) in enumerate(zip(capped, ref)):
        cap = min(caps[0, c], state[:, c].sum())
        assert a.shape == (1, len(w), cap + 1)
        np.testing.assert_allclose(a[0, :, :cap], b[:, :cap], atol=1e-14)
        np.testing.assert_allclose(a[0, :, cap], b[:, cap:].sum(axis=1), atol=1e-14)


def test_capped_pmfs_of_a_raft_do_not_depend_on_its_batch():
    rafts = np.stack([setup_state(p, rng=s) for p, s in [(2, 1), (4, 2), (3, 3), (2, 4)]])
    w, fates = fate_table("east", "left", 1.5)
    pf = np.broadcast_to(fates[None, :, :, FALLEN], (4,) + fates.shape[:2]).copy()
    caps = np.array([[1, 4, 6, 2], [8, 8, 8, 3], [0, 2, 3, 1], [6, 6, 6, 3]])
    batch = odds.capped_count_pmfs(rafts, pf, caps)
    for i in range(4):
        alone = odds.capped_count_pmfs(rafts[i:i + 1], pf[i:i + 1], caps[i:i + 1])
        for a, b in zip(batch, alone):
            size = b.shape[-1]
            assert np.array_equal(a[i, :, :size], b[0])    # bit for bit
            assert not a[i, :, size:].any()


# ---------------------------------------------------------------------------------- brute-force oracle
def _card(name):
    return next(i for i, c in enumerate(COMP.deck) if c.name == name)


def _boats(names, filled):
    cards = [_card(n) for n in names]
    empty = np.array([SLOTS[c] - f for c, f in zip(cards, filled)], dtype=np.int64)
    assert (empty >= 0).all() and (empty.sum(axis=1) > 0).all()
    return empty, np.array([POINTS[c] for c in cards], dtype=np.int64)


def _oracle_value(x, me, opps, pars, doomed, flag_in, later, boats, standings, last):
    """Value of one outcome by the readable loader, straight from the definition (module docstring)."""
    cost, equity, decay = pars[1], pars[3], pars[4]
    prospect = equity * float(np.mean(POINTS * decay ** SLOTS.sum(axis=1)))
    k = len(x) - 1
    held, fill = load_scalar(list(x), me[0].tolist(), me[1].tolist())
    left = np.array(x) - np.array(held).sum(axis=0)
    left[k] = 0
    rest = [int((me[0][b] - np.array(fill[b])).sum()) for b in range(boats)]
    my_done = [b for b in range(boats) if rest[b] == 0]
    my_pts = sum(int(me[1][b]) for b in my_done)
    my_eq = sum(me[1][b] * decay ** rest[b] for b in range(boats) if rest[b] and not doomed[b])
    n_done, opp = len(my_done), []
    for empty, pts in opps:
        h, f = load_scalar(left.tolist(), empty.tolist(), pts.tolist())
        left = left - np.array(h).sum(axis=0)
        r = [int((empty[b] - np.array(f[b])).sum()) for b in range(boats)]
        done = [b for b in range(boats) if r[b] == 0]
        opp.append((sum(int(pts[b]) for b in done), len(done), sum(pts[b] * decay ** r[b] for b in range(boats) if r[b])))
        n_done += len(done)
    drawn = flag_in < 0 or n_done > flag_in
    mine = my_pts + (0.0 if drawn else 1.0) * (equity * my_eq + prospect * len(my_done))
    theirs = sum(pts + (0.0 if drawn and not lt else 1.0) * (equity * eq + prospect * nd)
                 for (pts, nd, eq), lt in zip(opp, later))
    value = mine - cost * theirs
    if last and drawn:   # the game ends: a win is worth pars[5] more
        final = [(standings[0][0] + my_pts, standings[0][1] + len(my_done))]
        final += [(st[0] + pts, st[1] + nd) for st, (pts, nd, _) in zip(standings[1:], opp)]
        best = max(final)
        value += pars[5] * (final[0] == best) / final.count(best)
    return value


@pytest.mark.parametrize("flag_in, doomed, last", [(10, (False, False), False), (1, (True, False), True),
                                                   (-1, (False, False), False), (-1, (False, True), True)])
def test_option_values_equal_brute_force_over_the_joint_outcome_pmf(flag_in, doomed, last):
    raft = setup_state(3, rng=8)
    table = OptionTable(COMP.raft, (1.0, 3.0))
    w, node_fall = expectimax.node_tables(table, default_params())
    me = _boats(["YYY-B", "BBB"], [[0, 1, 0], [0, 0, 1]])               # one yellow, one blue placed
    opps = [_boats(["YYY", "RR-Y-B"], [[0, 0, 0], [1, 0, 0]]), _boats(["RR", "YY-BB"], [[0, 0, 0], [0, 2, 0]])]
    later = (True, False)
    pars = exact(gift_cost=0.8, equity=0.6, decay=0.4).pars()
    standings = [[12, 4], [14, 4], [9, 3]]     # points and lifeboats so far: me, then the opponents
    ctx = expectimax.ExactContext(w[None], node_fall[None], np.zeros(1, dtype=int), np.array([doomed]), np.array([flag_in]), np.array([later]),
                                  2, SLOTS.sum(axis=1), POINTS, np.array([standings]), np.array([last]))
    got = expectimax.exact_values(pars[None], raft[None], me[0][None], me[1][None],
                                  np.concatenate([o[0] for o in opps])[None], np.concatenate([o[1] for o in opps])[None],
                                  ctx)[0]
    cache = {}
    for o, (e, f, d) in enumerate(table.options):
        df = odds.fallen_joint_pmf(raft, e, f, d)
        df = df[df["p"] > 0]
        exp = 0.0
        for row in df.itertuples(index=False):
            x = tuple(row[:4])
            if x not in cache:
                cache[x] = _oracle_value(x, me, opps, pars, doomed, flag_in, later, 2, standings, last)
            exp += row.p * cache[x]
        assert got[o] == pytest.approx(exp, abs=1e-8), (e, f, d)


def test_outcome_values_are_flat_beyond_the_caps():
    raft = np.zeros((1, 9, 4), dtype=np.int64)
    raft[0, 4] = [6, 6, 6, 3]
    me = _boats(["RR", "BB"], [[0, 0, 0], [0, 0, 0]])
    opp = _boats(["RR", "BB"], [[1, 0, 0], [0, 0, 0]])
    caps = expectimax._caps(raft, me[0][None], opp[0][None])
    assert caps.tolist() == [[3, 0, 4, 3]]              # 2 + 1 red, no yellow slot, 2 + 2 blue, blacks <= 4 slots
    ctx = expectimax.ExactContext(None, None, np.zeros(1, dtype=int), np.zeros((1, 2), bool), np.array([-1]), np.array([[True]]), 2,
                                  SLOTS.sum(axis=1), POINTS, np.array([[[10, 3], [12, 4]]]), np.array([True]))
    gems = np.array([[3, 0, 4, 3], [6, 6, 6, 3], [3, 5, 4, 3]])
    vals = expectimax.outcome_values(gems, np.zeros(3, dtype=np.int64), exact().pars()[None], me[0][None], me[1][None],
                                     opp[0][None], opp[1][None], ctx)
    assert vals[0] == vals[1] == vals[2]


# ---------------------------------------------------------------------------------- the player in games
def test_exact_is_a_registered_policy_and_validates_its_weights():
    assert get_policy("exact").kind == "exact"
    assert get_policy("exact").pars().shape == (6,)
    with pytest.raises(ValueError, match="decay"):
        exact(decay=1.5)
    with pytest.raises(ValueError, match="equity"):
        exact(equity=-1)


@pytest.mark.parametrize("config", [
    dict(players=2, policies=["exact", "greedy"]),
    dict(players=3, variant="sinking", policies=["greedy", "exact", "aim"], skills=[0.2, 0.5, 0.2]),
    dict(players=4, policies=[exact(durations=(1.0, 3.0)), "random", "exact", "greedy"]),   # options skipped
])
def test_batch_engine_plays_the_exact_player_like_the_readable_engine(config):
    a = simulate_games(12, rng=21, engine="batch", **config)
    b = simulate_games(12, rng=21, engine="rules", **config)
    a.attrs, b.attrs = {}, {}
    pd.testing.assert_frame_equal(a, b)


def test_the_exact_player_reads_the_flag_depth_and_who_still_plays():
    game = Game(3, policies="exact", rng=5, flag_depth=2)
    seen = set()
    while not game.over:
        p = game.current
        ctx = game.exact_context(p)
        expected = -1 if game.flag_drawn else game.deck.index(FLAG)
        assert ctx.flag_in[0] == expected
        order = [(game.first + i) % 3 for i in range(3)]
        later = [order.index((p + s) % 3) > order.index(p) for s in (1, 2)]
        assert ctx.opp_later[0].tolist() == later
        seen.add(expected)
        game.play_turn()
    assert -1 in seen and max(seen) == 2


def test_the_compiled_expectation_equals_the_numpy_pmfs_summed_over_the_grid():
    from pyradice_lab.raft.expectation import gem_cells, option_expectations

    table = OptionTable(COMP.raft, (0.5, 2.0, 6.0))
    w, node_fall = expectimax.node_tables(table, default_params())      # (O, 9, J)
    raft = setup_state(4, rng=6)
    caps = np.array([3, 8, 2, 1])
    values = np.random.default_rng(1).normal(size=int(np.prod(caps + 1)))
    got = option_expectations(*gem_cells(raft), caps, node_fall, w, values, np.ones(len(node_fall), dtype=bool))
    pm = odds.capped_count_pmfs(raft[None], node_fall.transpose(0, 2, 1)[None], caps[None])
    joint = np.einsum("ojr,ojy,ojb,ojk->ojrybk", *[p[0] for p in pm])
    np.testing.assert_allclose(got, np.einsum("ojrybk,rybk,j->o", joint, values.reshape(caps + 1), w), atol=1e-12)
