"""Keyed chance (issue 28, part 5): every turn draws its dice from its own streams of the game's key, so a
decision taken differently changes only what it must, and paired comparisons pair."""

import numpy as np
import pytest

from pyradice_lab.meerkat import default_components, rules as R, simulate_games
from pyradice_lab.meerkat.sim import _default_setup, _readings_k, _seat_config, _tapes, python_twins

i64 = np.int64


def _game(key_seed, players=3, automa=False, policies="greedy", comp=None, twins=None, log_rows=400):
    """A traced keyed game of the pure-Python twins (set up, not yet played)."""
    from pyradice_lab.meerkat.sim import Setup

    tw = twins or python_twins()
    st = _default_setup() if comp is None else Setup(comp)
    n, pols, prm, _ = _seat_config(players, automa, policies)
    K = _readings_k(st.K, "literal", "literal")
    key = _tapes(np.random.default_rng(key_seed), 1)[0]
    g = tw["new_game"](n, automa, pols, prm, st.V, K, key, st.bags, st.nblue, st.nbrown,
                       st.comp.male_start_tile, log_rows)
    tw["setup"](g, st.pos_adj, st.oasis, st.comp.shuffle_tiles)
    return g


def _events(g):
    W = g[0]
    return W[R.LOG0:].reshape(-1, 8)[:W[21, R.G_LOG]]


def _rolls(g, kinds=(R.EV_ROLL, R.EV_AUTOMA)):
    """turn -> (seat, the dice) of every placement roll (and automa roll) of a traced game."""
    return {int(e[0]): (int(e[1]), tuple(int(x) for x in e[3:6])) for e in _events(g) if e[2] in kinds}


def test_keys_not_tapes_and_uniform_independent_dice():
    """A simulated game's chance source is a 64-bit key (no tape to run out); the keyed dice are uniform, and
    independent between consecutive draws of a stream, between streams of a turn (a die and its reroll) and
    between turns (chi-square over 20,000 turns)."""
    from scipy.stats import chisquare

    keys = _tapes(np.random.default_rng(0), 3)
    assert keys.shape == (3, 2, R.KEY_WIDTH) and keys.dtype == np.uint32
    tw = python_twins()
    g = _game(1, log_rows=0)
    pairs = {k: np.zeros((6, 6)) for k in ("draws", "streams", "turns")}
    last = None
    for turn in range(20000):
        tw["start_streams"](g, i64(turn))
        a, b = tw["roll_die"](g), tw["roll_die"](g)
        tw["seek_dice"](g, i64(R.P_REROLL), i64(0))
        c = tw["roll_die"](g)
        pairs["draws"][a - 1, b - 1] += 1
        pairs["streams"][a - 1, c - 1] += 1
        if last is not None:
            pairs["turns"][last - 1, a - 1] += 1
        last = a
    assert chisquare(pairs["draws"].sum(axis=1)).pvalue > 1e-3
    for name, table in pairs.items():
        assert chisquare(table.ravel()).pvalue > 1e-3, name
    assert not simulate_games(20, players=4, policies="random_legal", rng=3, engine="python")["tape_wrapped"].any()


def test_a_reroll_of_one_die_does_not_depend_on_which_others_are_rerolled():
    tw = python_twins()
    g = _game(4)
    s = tw["next_seat"](g)
    d = tuple(tw["roll_die"](g) for _ in range(3))
    results = {}
    for keep in range(7):
        c = (g[0].copy(), g[1], g[2])
        results[keep] = tw["reroll"](c, i64(s), i64(keep), *map(i64, d))
    for i in range(3):
        values = {results[k][i] for k in range(7) if not k >> i & 1}   # die i rerolled
        assert len(values) == 1
    assert results[0] != d or results[6] != d                            # the rerolls are draws, not the old dice


@pytest.mark.parametrize("players,automa,turn", [(3, False, 2), (2, True, 4), (4, False, 7)])
def test_one_different_decision_leaves_every_later_turns_dice_unchanged(players, automa, turn):
    """Force one other legal action at turn ``turn`` than the greedy one: the games then
    differ, but every later turn rolls the very same dice (placement rolls and automa rolls) for the same seat
    (the final turn after the last bonus token may fall to another seat than in the other game)."""
    for seed in range(3):
        plain = _game(seed, players, automa)
        python_twins()["play"](plain)
        tw = python_twins.__wrapped__()     # a private set of twins: its choose_action is patched
        space = tw["base_turn"].__globals__
        act0 = space["choose_action"]

        def choose_action(g, s, d0, d1, d2, tab, gval, act0=act0, tw=tw):
            code = act0(g, s, d0, d1, d2, tab, gval)
            if g[0][21, R.G_TURN] == turn:
                opts = np.zeros(128, np.int64)
                m = tw["placement_options"](g, s, d0, d1, d2, opts)
                return next(int(c) for c in opts[:m] if c != code)   # another legal action
            return code

        space["choose_action"] = choose_action
        forced = _game(seed, players, automa, twins=tw)
        tw["play"](forced)
        a, b = _rolls(plain), _rolls(forced)
        assert any(e[2] in (R.EV_GUARD, R.EV_PLACE) and e[0] == turn for e in _events(forced))
        later = [t for t in sorted(set(a) & set(b)) if t > turn and a[t][0] == b[t][0]]   # the same seat rolls
        assert len(later) >= 10
        assert all(a[t] == b[t] for t in later)
        assert [a[t] for t in range(turn + 1)] == [b[t] for t in range(turn + 1)]
        placed = [(int(e[0]), int(e[3]), int(e[4])) for e in _events(plain) if e[2] == R.EV_PLACE]
        placed_forced = [(int(e[0]), int(e[3]), int(e[4])) for e in _events(forced) if e[2] == R.EV_PLACE]
        assert placed != placed_forced


def test_the_setup_does_not_depend_on_components_it_does_not_read():
    """Each step of the setup has its own stream: another brown bag leaves the layout, the blue draws and the
    start roll alone; other tile values change nothing of the setup."""
    base = default_components()
    plain = _game(11, comp=base)
    more_hawks = _game(11, comp=base.replace({"brown.hawk.copies": 4}))
    values = _game(11, comp=base.replace({"tile.7.values": [9, 4]}))

    def setup_events(g):
        return [tuple(e[1:]) for e in _events(g) if e[0] == 0 and e[2] in (R.EV_LAYOUT, R.EV_DRAW, R.EV_START)]

    assert setup_events(plain) == setup_events(more_hawks) == setup_events(values)
    assert (plain[0][23] != more_hawks[0][23]).any()      # the brown bag itself differs
    assert (plain[0][22] == values[0][22]).all() and (plain[0][23:25] == values[0][23:25]).all()


@pytest.mark.slow
def test_paired_comparison_of_a_one_tile_change_pairs():
    """The paired comparison of a one-tile value change gains from the pairing; bounded: 2,000 greedy games a
    side, compiled.  Measured (seed 2026): 1.94 for start_player_win, 2.52 for points_per_meerkat:3 (1.83 and 2.31
    with the positional tape before the per-turn streams: greedy play, not the dice, is what decorrelates the two
    games now, see docs/guide/engine.md; issue 28's goal of 3 and 5 is not reached)."""
    from pyradice_lab import compare

    base = default_components()
    v = base.replace({"tile.3.values": [9, 5]})
    spw = compare("meerkat", base, v, "start_player_win", games=2000, players=3, policies="greedy", rng=2026)
    ppm = compare("meerkat", base, v, "points_per_meerkat:3", games=2000, players=3, policies="greedy", rng=2026)
    assert spw.variance_reduction >= 1.5 and ppm.variance_reduction >= 2.0


def test_a_search_determinization_of_a_keyed_game_rolls_its_own_tape_not_the_games_dice():
    """The search player's rollouts copy a keyed game onto fresh tapes (never as wide as a key), so they never
    read the dice the game will roll."""
    from pyradice_lab.meerkat.policies import N_PRM

    tw = python_twins()
    g = _game(3, policies=[("mcts", {"budget": 4}), "greedy", "greedy"], log_rows=0)
    s = tw["next_seat"](g)
    n = tw["rollout_tape_length"](g, i64(s))
    assert n > R.KEY_WIDTH and tw["keyed"](g)
    gc = (np.zeros((R.LOG0, R.W_WIDTH), np.int64), np.zeros((2, n), np.uint32), np.zeros((4, N_PRM)))
    tw["determinize"](g, i64(s), 12345, *gc)
    assert not tw["keyed"](gc)
    rolled = [tw["roll_die"](gc) for _ in range(6)]
    assert rolled == gc[1][0, :6].tolist()
