"""The sampling-based player: what it sees, how it samples, its candidates, and whole games in both engines."""

import numpy as np
import pytest

from pyradice_lab.engine.rng import spawn
from pyradice_lab.pyradice import PYRAMID, Setup, kernel as K
from pyradice_lab.pyradice.geometry import quarry_geometry
from pyradice_lab.pyradice.policies import get_policy
from pyradice_lab.pyradice.rules import GameState, deal
from pyradice_lab.pyradice.scoring import evaluate
from pyradice_lab.pyradice.search import (
    FLAT_MC_FULL,
    FlatMC,
    candidates,
    determinize,
    flat_mc,
    halving_schedule,
    move_values,
    observe,
)
from pyradice_lab.pyradice.sim import kernel_tables, play_deals, play_game, policy_function, simulate_games
from pyradice_lab.pyradice.skills import apply_action


def midgame(seed, players=2, turns=12, policy="greedy"):
    """A readable game state after ``turns`` turns of ``policy``."""
    setup = Setup.default()
    d = deal(players, setup, rng=seed)
    g = GameState.start(d, setup)
    fn = get_policy(policy)
    for _ in range(turns):
        g.play(*fn(g, d.uniforms[g.turn]))
    return g


def search_move(g, u, spec):
    """The search player's move in the readable engine (its tables bound as sim.policy_function binds them)."""
    from pyradice_lab.pyradice.sim import quarry_table

    tabs = kernel_tables(g.table.setup)
    return flat_mc(g, u, spec, tab=tabs["tab"], n_colours=tabs["n_colours"], qgeo=quarry_table(g.players))


# ----------------------------------------------------------------------------------------- names
def test_policy_names_parse_and_reject():
    assert FlatMC.parse("flat_mc") == FlatMC() == FlatMC(rollouts=8, rollout="lookahead", depth=3)
    assert FlatMC.parse("flat_mc:16:greedy") == FlatMC(rollouts=16, rollout="greedy")
    assert FlatMC.parse("flat_mc:16:greedy").name == "flat_mc:16:greedy"
    # issue 12's player (rollouts to the end of the game by greedy seats) keeps a name
    assert FlatMC.parse(FLAT_MC_FULL) == FlatMC(rollouts=16, rollout="greedy", depth=0)
    assert FlatMC().candidates == 6 and FlatMC.parse(FLAT_MC_FULL).candidates == 8   # issue 12's player: 8
    for spec in (FlatMC(), FlatMC(rollouts=5), FlatMC(rollout="greedy"), FlatMC(depth=0), FlatMC(depth=7),
                 FlatMC(rollouts=16, rollout="greedy", depth=0)):
        assert FlatMC.parse(spec.name) == spec
    assert FlatMC.parse("lookahead") is None
    for bad, word in [("flat_mc:0", "budget"), ("flat_mc:x", "budget"), ("flat_mc:8:random_legal", "rollout"),
                      ("flat_mc:8:greedy:0", "depth"), ("flat_mc:8:greedy:deep", "depth"),
                      ("flat_mc:8:greedy:3:1", "spelled")]:
        with pytest.raises(ValueError, match=word):
            FlatMC.parse(bad)
    with pytest.raises(ValueError, match="rollouts"):
        FlatMC(rollouts=0)
    with pytest.raises(ValueError, match="depth"):
        FlatMC(depth=-1)
    with pytest.raises(ValueError, match="margin"):
        FlatMC(margin=-1.0)
    with pytest.raises(ValueError, match="policies"):
        simulate_games(1, policies=["flat_mc:0", "greedy"])


def test_halving_schedule_spends_the_budget_round_by_round():
    assert halving_schedule(8, 8) == [1, 1, 1]          # 8 + 4 + 2 rollouts
    assert halving_schedule(8, 16) == [1, 1, 2]         # issue 12's budget: 8 + 4 + 4
    assert halving_schedule(5, 60) == [4, 6, 10]        # 5 -> 3 -> 2 survivors
    assert halving_schedule(1, 8) == [] and halving_schedule(2, 8) == [4]


def test_a_truncated_rollout_is_valued_by_the_lookahead_valuation():
    """evaluate_rows (compiled, the cut of a truncated rollout) equals scoring.evaluate(..., "lookahead")."""
    from pyradice_lab.pyradice.search import evaluate_rows

    rows = []
    for seed in range(4):
        g = midgame(20 + seed, turns=9 + 5 * seed)
        rows.append((g, [np.array(x, np.int64) for x in g.pyramids]))
    pv = np.stack([[v for v, _ in p] for _, p in rows]).astype(np.int64)
    pc = np.stack([[c for _, c in p] for _, p in rows]).astype(np.int64)
    discs = np.array([g.table.discs for g, _ in rows], np.int64)
    tab = kernel_tables(Setup.default())["tab"]
    out = np.zeros((len(rows), 2), np.int64)
    w = K.workspace(47, 5)
    evaluate_rows(pv, pc, np.int64(2), tab, discs, K.GEO, w[5], w[8], out)
    expected = [[evaluate(v, c, g.table, "lookahead") for v, c in g.pyramids] for g, _ in rows]
    assert out.tolist() == expected and out.min() > 0


# ----------------------------------------------------------------------------------------- observation
def test_observe_shows_tops_and_faces_only():
    players = 2
    geom = quarry_geometry(players)
    g = midgame(3, turns=10)
    occ = g.quarry.occupied
    v, c = observe(g.quarry.values, g.quarry.colours, occ, players)
    pad = np.concatenate([occ, [False]])
    for i in range(geom.n):
        top = occ[i] and not pad[geom.covers[i]].any()
        face = top or (occ[i] and not pad[geom.sides[i]].all())
        assert v[i] == (g.quarry.values[i] if top else 0)
        assert c[i] == (g.quarry.colours[i] if face else -1)
    # every available die shows its top face (the reason the player always knows what it can take)
    assert (v[g.quarry.available_mask()] > 0).all()


def test_determinize_keeps_what_is_seen_and_samples_the_posterior():
    g = midgame(5, turns=8)
    occ = g.quarry.occupied
    v, c = observe(g.quarry.values, g.quarry.colours, occ, 2)
    seen = np.array([col for _, cols in g.pyramids for col in cols])
    box = np.array([12] * 5)
    n = 4000
    vals, cols = determinize(v, c, occ, seen, box, n, rng=11)
    known_v = occ & (v > 0)
    known_c = occ & (c >= 0)
    assert (vals[:, known_v] == v[known_v]).all() and (cols[:, known_c] == c[known_c]).all()
    hv, hc = occ & (v == 0), occ & (c < 0)
    assert hv.sum() > 10 and hc.sum() > 3
    # values: fair d6 (each face 1/6 within 4 SE)
    freq = np.bincount(vals[:, hv].ravel(), minlength=7)[1:] / (n * hv.sum())
    se = np.sqrt((1 / 6) * (5 / 6) / (n * hv.sum()))
    assert np.all(np.abs(freq - 1 / 6) < 4 * se)
    # colours: the box minus every colour seen, without replacement (counts never exceed what is left)
    left = box - np.bincount(np.concatenate([c[known_c], seen[seen >= 0]]), minlength=5)
    drawn = np.stack([np.bincount(row, minlength=5) for row in cols[:, hc]])
    assert (drawn <= left).all()
    p = left / left.sum()
    mean = drawn.mean(axis=0)
    sd = np.sqrt(hc.sum() * p * (1 - p) * (left.sum() - hc.sum()) / (left.sum() - 1))   # hypergeometric
    assert np.all(np.abs(mean - hc.sum() * p) < 4 * sd / np.sqrt(n) + 1e-12)


def test_determinize_rejects_an_impossible_observation():
    occ = np.ones(47, bool)
    with pytest.raises(ValueError, match="obs_colours"):
        determinize(np.zeros(47, int), np.zeros(47, int), occ, [], np.array([12] * 5), 1, rng=0)


# ----------------------------------------------------------------------------------------- candidates
@pytest.mark.parametrize("seed, mode, name", [(1, 2, "lookahead"), (2, 1, "greedy")])
def test_move_values_equal_the_readable_valuation(seed, mode, name):
    g = midgame(seed, turns=14 + seed)
    seat = g.seat
    tab = kernel_tables(Setup.default())["tab"]
    takes = np.array(g.legal_takes(), np.int64)
    vals, cols = (np.array(x, np.int64) for x in g.pyramids[seat])
    places = np.array([s for s in range(21) if not vals[s] and (PYRAMID.supports[s, 0] < 0 or (
        vals[PYRAMID.supports[s, 0]] and vals[PYRAMID.supports[s, 1]]))], np.int64)
    ws = K.workspace(47, 5)
    out = np.zeros((len(takes) * len(places) * (K.K_OPTIONS + 1), 4), np.int64)
    m = move_values(vals, cols, g.quarry.values, g.quarry.colours, takes, places, mode, tab,
                    np.array(g.table.discs, np.int64), K.GEO, ws[5], ws[6], ws[7], ws[8], ws[9], out)
    expected = []
    for t in takes:
        for p in places:
            v, c = g.after_place(seat, int(t), int(p))
            expected.append((t, p, -1, evaluate(v, c, g.table, name)))
            for o, act in enumerate(g.skill_options(v, c, int(p))):
                expected.append((t, p, o, evaluate(*apply_action(v, c, act), g.table, name)))
    assert m > 40
    assert [tuple(int(x) for x in row) for row in out[:m]] == [tuple(int(x) for x in e) for e in expected]
    assert (vals == np.array(g.pyramids[seat][0])).all()          # the pyramid is restored


def test_candidates_are_the_best_and_diverse():
    g = midgame(4, turns=16)
    seat = g.seat
    tab = kernel_tables(Setup.default())["tab"]
    v, c = observe(g.quarry.values, g.quarry.colours, g.quarry.occupied, 2)
    cand = candidates(*g.pyramids[seat], v, c, g.quarry.occupied, tab, g.table.discs, 2, k=6, per_pair=1)
    assert len(cand) == 6
    pairs = {(int(a), int(b)) for a, b in cand[:, :2]}
    assert len(pairs) == 6                                            # one option per (die, space)
    assert (np.diff(cand[:, 3]) <= 0).all()
    # the first candidate is worth what the lookahead policy's move is worth
    take, place, option = get_policy("lookahead")(g, g.deal.uniforms[g.turn])
    vv, cc = g.after_place(seat, take, place)
    if option >= 0:
        vv, cc = apply_action(vv, cc, g.skill_options(vv, cc, place)[option])
    assert cand[0, 3] == evaluate(vv, cc, g.table, "lookahead")


def _reference_moves(g, seat):
    """Every legal (die, space, option) the readable game offers, valued by the lookahead valuation, sorted best
    first (ties in enumeration order)."""
    rows = []
    for t in g.legal_takes():
        for p in range(21):
            vals = g.pyramids[seat][0]
            if vals[p] or not (PYRAMID.supports[p, 0] < 0 or (vals[PYRAMID.supports[p, 0]]
                                                              and vals[PYRAMID.supports[p, 1]])):
                continue
            v, c = g.after_place(seat, int(t), p)
            rows.append((int(t), p, -1, evaluate(v, c, g.table, "lookahead")))
            for o, act in enumerate(g.skill_options(v, c, p)):
                rows.append((int(t), p, o, evaluate(*apply_action(v, c, act), g.table, "lookahead")))
    rows.sort(key=lambda r: -r[3])     # stable: ties keep the enumeration order
    return rows


def _thinned(rows, k, per_pair):
    """The first ``k`` of ``rows`` keeping at most ``per_pair`` of one (die, space)."""
    kept, count = [], {}
    for r in rows:
        count[r[:2]] = count.get(r[:2], 0) + 1
        if count[r[:2]] <= per_pair:
            kept.append(r)
    return kept[:k]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_compiled_candidates_are_the_spelled_out_ones(players):
    """:func:`candidates` (compiled: the available dice and places, every move valued, the best chosen) against
    the readable game's own moves, sorted and thinned in Python, on positions from the start to the end."""
    tab = kernel_tables(Setup.default())["tab"]
    checked = 0
    for seed in range(3):
        for turns in (0, 5 * players + seed, 21 * players - 2 - seed):
            g = midgame(seed + 10 * players, players=players, turns=turns)
            v, c = observe(g.quarry.values, g.quarry.colours, g.quarry.occupied, players)
            moves = _reference_moves(g, g.seat)
            for k, per_pair in ((8, 2), (3, 1), (500, 500)):
                got = candidates(*g.pyramids[g.seat], v, c, g.quarry.occupied, tab, g.table.discs, players, k=k,
                                 per_pair=per_pair)
                want = _thinned(moves, k, per_pair)
                assert [tuple(int(x) for x in r) for r in got] == want, (seed, turns, k, per_pair)
                checked += 1
    assert checked == 27


# ----------------------------------------------------------------------------------------- the kernel's resumable games
def test_a_game_resumed_mid_way_is_the_same_game():
    setup = Setup.default()
    deals = [deal(2, setup, rng=s) for s in spawn(21, 3)]
    whole = play_deals(deals, setup, ["greedy", "lookahead"])
    tabs = kernel_tables(setup)
    from pyradice_lab.pyradice.sim import quarry_table

    b, turns = 3, 42
    first = whole["first"]
    values = np.stack([d.values for d in deals])
    colours = np.stack([d.colours for d in deals])
    discs = np.stack([d.discs for d in deals])
    uniforms = np.stack([d.uniforms for d in deals])
    pv, pc = np.zeros((b, 2, 21), np.int64), np.full((b, 2, 21), -1, np.int64)
    occ = np.ones((b, 47), np.int64)
    moves = np.full((b, turns, 3), -1, np.int64)
    out = [np.zeros((b, 2), np.int64), np.zeros((b, 2, 5), np.int64), np.zeros((b, 2, 4), np.int64),
           np.zeros((b, turns), np.int64)]
    skills = np.zeros((b, 2), np.int64)
    pol = np.array([1, 2], np.int64)
    for lo, hi in ((0, 5), (5, 6), (6, 30), (30, 42)):            # four pieces, the first turns forced
        if lo == 0:
            moves[:, :5] = whole["moves"][:, :5]
        K.play_batch(values, colours, discs, first, np.full(b, lo, np.int64), hi, occ, uniforms, pol,
                     np.stack([tabs["tab"]] * 2), quarry_table(2), tabs["tab"], tabs["n_colours"], K.GEO, pv, pc, *out, moves, skills,
                     *K.workspace(47, tabs["n_colours"]))
        for t in range(lo, hi):
            occ[np.arange(b), moves[:, t, 0]] = 0
    assert (moves == whole["moves"]).all() and (pv == whole["final_v"]).all()
    assert (out[0] == whole["totals"]).all() and (skills == whole["skills_used"]).all()


# ----------------------------------------------------------------------------------------- the player
def test_the_player_never_peeks_at_hidden_dice():
    g = midgame(6, turns=9)
    u = g.deal.uniforms[g.turn]
    spec = FlatMC(rollouts=8, candidates=4)
    before = search_move(g, u, spec)
    occ = g.quarry.occupied
    v, c = observe(g.quarry.values, g.quarry.colours, occ, 2)
    hidden_v = occ & (v == 0)
    hidden_c = occ & (c < 0)
    rng = np.random.default_rng(0)
    g.quarry.values[hidden_v] = rng.integers(1, 7, hidden_v.sum())
    g.quarry.colours[hidden_c] = rng.permutation(g.quarry.colours[hidden_c])
    g.quarry.colours[hidden_c] = (g.quarry.colours[hidden_c] + 1) % 5    # even impossible colour counts
    assert search_move(g, u, spec) == before


@pytest.mark.slow
@pytest.mark.parametrize("search", ["flat_mc:6", "flat_mc:4:greedy:full"])
def test_both_engines_play_the_same_search_games(search):
    pols = [search, "greedy"]
    df, arrays = simulate_games(2, 2, None, pols, rng=31, return_arrays=True)
    for i, seed in enumerate(spawn(31, 2)):
        rec = play_game(2, None, pols, rng=seed, trace=False)
        assert [[m.take, m.place, m.option] for m in rec.state.moves] == arrays["moves"][i].tolist()
        assert rec.totals == df.loc[i, ["score_s0", "score_s1"]].tolist()
    # game i depends on the seed and i only (the search's numbers come from the deal), not on the batch
    one = simulate_games(1, 2, None, pols, rng=31)
    assert one.loc[0, "score_s0"] == df.loc[0, "score_s0"]


def test_three_players_and_search_against_search():
    df = simulate_games(1, 3, None, ["flat_mc:3", "flat_mc:3:lookahead", "random_legal"], rng=4)
    assert df.loc[0, "turns"] == 63 and df.loc[0, "policy_s1"] == "flat_mc:3:lookahead"
    assert 0 <= df.loc[0, "score_s0"] < 120


def test_registered_as_the_strongest_player_and_not_restrictable():
    from pyradice_lab.engine.registry import get_game, strongest_policy

    spec = get_game("pyradice")
    assert spec.policies[-1] == "flat_mc" and "flat_mc" in spec.unrestrictable
    assert strongest_policy(spec) == "lookahead"          # restricted play keeps using the compiled heuristic
    for bad in ("flat_mc/no_goals", "flat_mc:8/no_skills"):
        with pytest.raises(ValueError, match="policies"):
            simulate_games(1, policies=[bad, "greedy"])
    assert policy_function("flat_mc:12", Setup.default()).__name__ == "flat_mc:12"
    assert FlatMC.parse("flat_mc") == FlatMC(rollouts=8, rollout="lookahead", depth=3)
