"""Distil the search player's decisions into expectimax's parameters (issue 27, section 2).

1. ``record``: play seeded games (2 players + automa, both players the frozen search ``mcts_v1`` by default)
   and store, at every searched decision of a player, the state before the roll, the dice, and the search's
   choice (the keep mask of the reroll, then the action).
2. ``fit``: for a parameter vector theta of the expectimax player (the parameters its placement table and
   reroll read: ``w_opp, guardian_value, queen_bonus, future, meerkats_per_turn``), the options' values at every
   recorded decision; the loss is the softmax negative log likelihood of the search's choice (temperature
   fitted too), minimised with scipy.optimize (Nelder-Mead / Powell).

Usage: ``python experiments/research/meerkat_distill.py record GAMES SEED OUT.npz`` then ``... fit OUT.npz [KINDS]
[MAXFEV]`` (KINDS: 0 = keep masks, 1 = actions, e.g. ``0,1``) or ``... departures OUT.npz`` (how often the search
departs from expectimax's choice, by expectimax's value gap between its best and second-best option).

Measured (issue 27, docs/guide/meerkat.md): the search departs from expectimax at about 30% of its decisions
whatever the gap, so a softmax of expectimax's values fits it poorly, and the fitted weights did not agree
with it more often than the defaults; the gain came from tuning ``burrow_cost`` by strength instead
(``experiments/research/meerkat_tuning.py``), a parameter no searched decision shows.
"""

from __future__ import annotations

import sys
import time

import numpy as np
from numba import njit

from pyradice_lab.meerkat.automa import automa_turn
from pyradice_lab.meerkat.kernel import new_game, setup
from pyradice_lab.meerkat.oasis import unlock_timers
from pyradice_lab.meerkat.policies import (
    EXPECTIMAX_DEFAULTS,
    N_PRM,
    P_FUTURE,
    P_GUARD,
    P_MPT,
    P_QUEEN,
    P_SREROLL,
    P_SSUPPLY,
    P_WOPP,
    SEARCH,
    choose_action,
    choose_keep,
    keep_values,
    placement_table,
    policy_row,
)
from pyradice_lab.meerkat.rules import AUTO, G_TURN, LOG0, POL, SUP, W_WIDTH, placement_options, roll_die
from pyradice_lab.meerkat.search import search_action, search_keep
from pyradice_lab.meerkat.turns import base_turn, final_scoring, finish_turn, next_seat, reroll

FIT_NAMES = ("w_opp", "guardian_value", "queen_bonus", "future", "meerkats_per_turn")
FIT_COLS = (P_WOPP, P_GUARD, P_QUEEN, P_FUTURE, P_MPT)


@njit
def _record_turn(g, s, Ws, info, k):
    """search_turn of :mod:`.search`, storing the decision: info[k] = (seat, d0, d1, d2 before the reroll, keep,
    e0, e1, e2 after it, action, own's keep, own's action)."""
    S = g[0][4:8]
    prm = g[2]
    if S[s, SUP] == 0 or S[s, SUP] > prm[s, P_SSUPPLY] or k >= Ws.shape[0]:
        base_turn(g, s)
        return k
    for i in range(LOG0):
        for j in range(W_WIDTH):
            Ws[k, i, j] = g[0][i, j]
    d0, d1, d2 = roll_die(g), roll_die(g), roll_die(g)
    tab = np.zeros((13, 4))
    gval = placement_table(g, s, tab)
    own_keep = choose_keep(g, s, d0, d1, d2, tab, gval)
    if prm[s, P_SREROLL] > 0:
        keep = search_keep(g, s, d0, d1, d2, tab, gval)
    else:
        keep = own_keep
    e0, e1, e2 = reroll(g, s, keep, d0, d1, d2)
    own_act = choose_action(g, s, e0, e1, e2, tab, gval)
    act = search_action(g, s, e0, e1, e2, tab, gval)
    info[k, 0], info[k, 1], info[k, 2], info[k, 3], info[k, 4] = s, d0, d1, d2, keep
    info[k, 5], info[k, 6], info[k, 7], info[k, 8] = e0, e1, e2, act
    info[k, 9], info[k, 10] = own_keep, own_act
    finish_turn(g, s, act)
    return k + 1


@njit
def record_games(tapes, n, automa, pols, prm_rows, V, K, bag_rows, nblue, nbrown, male_start, pos_adj, oasis_tiles,
                 shuffle_tiles, Ws, info):
    k = 0
    for i in range(tapes.shape[0]):
        g = new_game(n, automa, pols, prm_rows, V, K, tapes[i], bag_rows, nblue, nbrown, male_start, np.int64(0))
        setup(g, pos_adj, oasis_tiles, shuffle_tiles)
        S = g[0][4:8]
        while True:
            s = next_seat(g)
            if s < 0:
                break
            unlock_timers(g, s)
            if S[s, AUTO] == 1:
                automa_turn(g, s)
            elif S[s, POL] == SEARCH:
                k = _record_turn(g, s, Ws, info, k)
            else:
                base_turn(g, s)
            g[0][21, G_TURN] += 1
        final_scoring(g)
    return k


def record(games: int, seed: int, policy="mcts_v1", opponent="mcts_v1"):
    from pyradice_lab.meerkat.sim import _default_setup, _seat_config, _tapes

    st = _default_setup()
    n, pols, prm, _ = _seat_config(2, True, [policy, opponent])
    tapes = _tapes(np.random.default_rng(seed), games)
    cap = games * 24
    Ws = np.zeros((cap, LOG0, W_WIDTH), np.int64)
    info = np.zeros((cap, 11), np.int64)
    k = record_games(tapes, n, True, pols, prm, st.V, st.K, st.bags, st.nblue, st.nbrown, st.comp.male_start_tile,
                     st.pos_adj, st.oasis, st.comp.shuffle_tiles, Ws, info)
    return Ws[:k], info[:k]


@njit
def option_values(Ws, info, prm0, kind, vals, codes, m_out):
    """Expectimax's values under parameter rows ``prm0`` (4 x N_PRM; the deciding seat's row is used) of every
    option of every recorded decision: ``kind`` 0 = the keep masks (8, in choose_keep's order), 1 = the
    actions (``codes``: the option codes, ``m_out``: how many)."""
    tapes = np.zeros((2, 4), np.uint32)
    prm = prm0.copy()
    for k in range(Ws.shape[0]):
        s = info[k, 0]
        W = Ws[k].copy()
        g = (W, tapes, prm)
        tab = np.zeros((13, 4))
        gval = placement_table(g, s, tab)
        if kind == 0:
            kv = np.empty(8)
            keep_values(g, info[k, 1], info[k, 2], info[k, 3], tab, gval, kv)
            for j in range(8):
                vals[k, j] = kv[7 - j]
                codes[k, j] = 7 - j
            m_out[k] = 8
        else:
            opts = np.empty(128, np.int64)
            m = placement_options(g, s, info[k, 5], info[k, 6], info[k, 7], opts)
            for j in range(m):
                c = opts[j]
                codes[k, j] = c
                if c == 0:
                    vals[k, j] = gval
                else:
                    t, nn = c // 8, c % 8
                    vals[k, j] = tab[t, 3] if nn == 4 else tab[t, nn - 1]
            m_out[k] = m


def prm_for(theta):
    _, row = policy_row(("expectimax", dict(zip(FIT_NAMES, theta))))
    prm = np.zeros((4, N_PRM))
    prm[:] = row
    return prm


def nll(theta, beta, Ws, info, kind):
    n = Ws.shape[0]
    vals = np.full((n, 128), -np.inf)
    codes = np.full((n, 128), -99, np.int64)
    m = np.zeros(n, np.int64)
    option_values(Ws, info, prm_for(theta), kind, vals, codes, m)
    chosen = info[:, 4] if kind == 0 else info[:, 8]
    vals = np.where(vals < -1e8, -np.inf, vals)
    hit = codes == chosen[:, None]
    z = beta * vals
    z = z - np.max(z, axis=1, keepdims=True)
    lse = np.log(np.sum(np.exp(z), axis=1))
    ll = np.sum(np.where(hit, z, 0.0), axis=1) - lse
    agree = np.mean(codes[np.arange(n), np.argmax(vals, axis=1)] == chosen)
    return -float(np.mean(ll)), float(agree)


def main():
    cmd = sys.argv[1]
    if cmd == "record":
        games, seed, out = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
        t0 = time.process_time()
        Ws, info = record(games, seed)
        np.savez_compressed(out, Ws=Ws, info=info)
        print(f"{len(info)} decisions from {games} games in {time.process_time() - t0:.1f} s CPU")
    elif cmd == "departures":
        d = np.load(sys.argv[2])
        Ws, info = d["Ws"], d["info"]
        th = [EXPECTIMAX_DEFAULTS[k] for k in FIT_NAMES]
        n = len(info)
        for kind, col, own in ((0, 4, 9), (1, 8, 10)):
            vals = np.full((n, 128), -np.inf)
            codes = np.full((n, 128), -99, np.int64)
            m = np.zeros(n, np.int64)
            option_values(Ws, info, prm_for(th), kind, vals, codes, m)
            sv = -np.sort(-np.where(vals < -1e8, -np.inf, vals), axis=1)
            gap = sv[:, 0] - sv[:, 1]
            dep = info[:, col] != info[:, own]
            print(("keep" if kind == 0 else "action"), f"departure rate {dep.mean():.3f}")
            for lo, hi in ((0, 0.25), (0.25, 0.5), (0.5, 1), (1, 2), (2, 4), (4, np.inf)):
                sel = (gap >= lo) & (gap < hi)
                if sel.any():
                    print(f"  gap {lo}..{hi}: {sel.sum()} decisions, departed {dep[sel].mean():.3f}")
    elif cmd == "fit":
        from scipy.optimize import minimize

        d = np.load(sys.argv[2])
        Ws, info = d["Ws"], d["info"]
        x0 = np.array([EXPECTIMAX_DEFAULTS[k] for k in FIT_NAMES] + [1.0])
        kinds = [int(x) for x in (sys.argv[3] if len(sys.argv) > 3 else "1").split(",")]

        def loss(x):
            th, beta = x[:-1], x[-1]
            if not (0 <= th[3] <= 1 and 0.5 <= th[4] <= 3 and beta > 0):
                return 1e9
            return sum(nll(th, beta, Ws, info, kd)[0] for kd in kinds)

        for kd in kinds:
            print("kind", kd, "defaults: nll, agreement", nll(x0[:-1], 1.0, Ws, info, kd))
        t0 = time.process_time()
        r = minimize(loss, x0, method="Nelder-Mead", options={"maxfev": int(sys.argv[4]) if len(sys.argv) > 4 else 300,
                                                              "xatol": 1e-3, "fatol": 1e-5})
        print(r.x, r.fun, f"{time.process_time() - t0:.1f} s")
        for kd in kinds:
            print("kind", kd, "fitted: nll, agreement", nll(r.x[:-1], r.x[-1], Ws, info, kd))
        print(dict(zip(FIT_NAMES, np.round(r.x[:-1], 4))))


if __name__ == "__main__":
    main()
