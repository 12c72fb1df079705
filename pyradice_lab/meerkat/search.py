"""The search player (``"mcts"``): determinized Monte Carlo search with the compiled engine as the rollout.

With ``search_supply`` below the supply (``"mcts_late"``: 12) only the seat's last turns are searched: while it
has more meerkats than that in its supply, ``own`` plays the turn (issue 27: the rollouts from the early game
are long and costly; ``mcts_late`` costs about a sixth of ``mcts`` and is somewhat weaker head to head).  At
each of its two decisions of a searched turn -- which dice to keep for the reroll, then which action (a placement
or a guardian) -- the player:

1. ranks the legal options with its own evaluation (``own``, by default the ``expectimax`` player: exact
   expectation over the reroll outcomes, expected end-of-game majority values) and keeps the ``candidates``
   best;
2. samples ``budget // candidates`` determinizations of what it cannot see -- the dice still to be rolled and
   the order of the tokens left in the blue and brown bags (their contents are public: the components minus
   the tokens drawn) -- from its own random numbers (fresh dice and choice tapes of the copy), never from the
   game's keyed dice streams or bag order;
3. in each determinization, plays every candidate on a copy of the game state and then the ``rollout`` policy
   for every player (the automa by its rules): ``depth`` 0 to the end of the game, scored as a win 1 (a shared
   win split) plus ``margin_weight`` x (its points - the best other seat's points) / 20 clipped to +-1;
   ``depth`` D > 0 (a truncated rollout) only D more turns (on to the end if the last bonus token goes by then),
   valued by the expectimax evaluation of the position (:func:`cut_value`: expected final scores of
   :func:`.evaluation.expected_totals`, a win chance from the expected margin, the same margin term);
4. takes the candidate with the best total (common random numbers: every candidate meets the same sampled
   dice and bags, so the comparison is paired; ties go to the better-ranked option) if it beats the choice of
   ``own`` with a paired t statistic above ``switch_z``, else the choice of ``own``.

A flat (one-level) Monte Carlo search over a strong rollout policy is the classic "rollout algorithm", a step
of policy improvement over the rollout policy.  With ``halving`` (the default) the budget is spent in rounds of
successive halving (the better half of the candidates goes on to the next round).  The rest of its turn
(wandering male, oasis tokens, burrow action) is decided by ``own`` (in the rollouts: by the rollout policy,
which is much cheaper than the expectimax evaluation).  Each decision seeds its determinizations with one
draw of the turn's choice stream (keyed games draw every number from counter-based streams of the game's key,
:mod:`.rules`), so a game stays a function of its seed and the pure-Python twin plays the very same game.
"""

from __future__ import annotations

import numpy as np

from ..engine._jit import njit
from .evaluation import expected_totals
from .policies import (
    N_PRM,
    P_BUDGET,
    P_CANDS,
    P_DEPTH,
    P_FUTURE,
    P_HALVING,
    P_MARGIN,
    P_MPT,
    P_NOTILE,
    P_OWNREST,
    P_REROLL,
    P_SREROLL,
    P_SSUPPLY,
    P_SWITCHZ,
    P_WSCALE,
    PARAM,
    ROLL0,
    ROLL_N,
    choose_action,
    choose_keep,
    keep_values,
    placement_table,
)
from .rules import (
    AUTO,
    EV_ROLL,
    G_BLUE,
    G_BROWN,
    G_CP,
    G_DP,
    G_LOG,
    G_NBLUE,
    G_NBROWN,
    G_NS,
    G_TRACE,
    G_TURN,
    INTERNAL,
    INTERNAL_NRT,
    LOG0,
    OUT,
    POL,
    SUP,
    TOTAL,
    TRACE,
    W_WIDTH,
    note,
    placement_options,
    rand_below,
    roll_die,
)
from .turns import base_turn, final_scoring, finish_turn, reroll, rollout_some_turns, rollout_turns

__all__ = ["search_turn", "RTAPE"]

#: Dice and choices drawn per rollout at most (a whole game draws about 150 dice and 30 choices); a rollout's tapes
#: are :data:`DRAWS_PER_TURN` entries per turn it can still last (:func:`rollout_tape_length`), so a search late
#: in the game draws far fewer random numbers than one at its start (a rollout whose tape runs out wraps round).
RTAPE = 1024
DRAWS_PER_TURN = 8
#: Candidates valued this far below the best by ``own`` are never searched: a restricted player (a parameter of
#: about -1e9 on an option, e.g. ``queen_bonus``) must not pick a forbidden option through its rollouts.
FORBIDDEN_GAP = 1e6
MASK32 = 0xFFFFFFFF


@njit(**INTERNAL)
def xorshift(x: int) -> int:
    """One step of Marsaglia's 32-bit xorshift (``x`` in 1..2**32-1); integer operations only, so the compiled
    kernel and the pure-Python twin draw the same numbers."""
    x ^= (x << 13) & MASK32
    x ^= x >> 17
    x ^= (x << 5) & MASK32
    return x


@njit(**INTERNAL)
def sample_seed(seed0: int, j: int) -> int:
    """The seed of determinization ``j`` of a decision."""
    x = (seed0 ^ ((j + 1) * 0x9E3779B1)) & MASK32
    if x == 0:
        x = 1
    return xorshift(xorshift(x))


@njit(**INTERNAL)
def rollout_tape_length(g, s: int) -> int:
    """Entries of a rollout's dice and choice tapes: :data:`DRAWS_PER_TURN` per turn the rest of the game can
    last (every turn but a queen's places a meerkat: at most supply + 1 turns a seat; a truncated rollout of
    ``s``'s ``depth``: the searched turn and ``depth`` more, or the last round once the last bonus token is gone)
    plus 32, at most :data:`RTAPE`."""
    S = g[0][4:8]
    n = g[0][21, G_NS]
    turns = 0
    for o in range(n):
        turns += S[o, SUP] + 1
    depth = int(g[2][s, P_DEPTH])
    if depth > 0:
        turns = min(turns, depth + 1 + n)
    return min(RTAPE, 32 + DRAWS_PER_TURN * turns)


@njit(**INTERNAL)
def determinize(g, s: int, seed: int, Wc, tc, pc) -> None:
    """Copy the game into ``(Wc, tc, pc)`` with fresh dice and choice tapes from ``seed``, the unseen bag
    tokens reshuffled, every player on the rollout policy of ``s`` (row ``ROLL0..`` of ``s``'s parameters; the
    columns beyond it stay ``s``'s, unused by the rollout policy), and the trace off."""
    W = g[0]
    for i in range(LOG0):
        for j in range(W_WIDTH):
            Wc[i, j] = W[i, j]
    G = Wc[21]
    G[G_TRACE] = 0
    G[G_DP] = 0
    G[G_CP] = 0
    G[G_LOG] = 0
    x = seed
    for j in range(tc.shape[1]):
        x = xorshift(x)
        tc[0, j] = x % 6 + 1
        x = xorshift(x)
        tc[1, j] = x
    bags = Wc[22:25]
    for i in range(G[G_NBLUE] - 1, G[G_BLUE], -1):  # Fisher-Yates over the tokens not drawn yet
        x = xorshift(x)
        k = G[G_BLUE] + x % (i - G[G_BLUE] + 1)
        bags[0, i], bags[0, k] = bags[0, k], bags[0, i]
    for i in range(G[G_NBROWN] - 1, G[G_BROWN], -1):  # a brown token keeps its two sides together
        x = xorshift(x)
        k = G[G_BROWN] + x % (i - G[G_BROWN] + 1)
        bags[1, i], bags[1, k] = bags[1, k], bags[1, i]
        bags[2, i], bags[2, k] = bags[2, k], bags[2, i]
    P = g[2]
    S = Wc[4:8]
    for o in range(4):
        for j in range(N_PRM):
            if o == s and P[s, P_OWNREST] > 0:
                pc[o, j] = P[s, j]  # s plays the rest of the searched turn by its own policy (then: to_rollout)
            else:
                pc[o, j] = P[s, ROLL0 + j] if j < ROLL_N else P[s, j]
        # the tiles s never commits to (no_tile:T) stay s's in its rollouts; the other seats play unrestricted
        pc[o, P_NOTILE] = P[s, P_NOTILE] if o == s else 0.0
        if o < G[G_NS] and S[o, AUTO] == 0:
            S[o, POL] = PARAM


@njit(**INTERNAL)
def to_rollout(gc, s: int) -> None:
    """Seat ``s`` of a determinization switches to the rollout policy after its searched turn."""
    pc = gc[2]
    for j in range(ROLL_N):
        pc[s, j] = pc[s, ROLL0 + j]


@njit(**INTERNAL)
def final_value(gc, s: int, margin_weight: float) -> float:
    """Seat ``s``'s result of a finished, scored rollout: the win (1, a shared win split) plus ``margin_weight``
    x (its points - the best other seat's points) / 20 clipped to +-1."""
    S = gc[0][4:8]
    n = gc[0][21, G_NS]
    top, cnt, other = -1, 0, -1
    for o in range(n):
        key = S[o, TOTAL] * 1000 + (999 - S[o, OUT] if S[o, OUT] > 0 else 0)
        if key > top:
            top, cnt = key, 1
        elif key == top:
            cnt += 1
        if o != s and S[o, TOTAL] > other:
            other = S[o, TOTAL]
    own = S[s, TOTAL] * 1000 + (999 - S[s, OUT] if S[s, OUT] > 0 else 0)
    v = 1.0 / cnt if own == top else 0.0
    margin = (S[s, TOTAL] - other) / 20.0
    return v + margin_weight * min(1.0, max(-1.0, margin))


@njit(**INTERNAL_NRT)
def cut_value(gc, s: int, margin_weight: float, win_scale: float, future: float, mpt: float) -> float:
    """Seat ``s``'s value of a truncated rollout (the state between two turns): the expected final scores of
    :func:`.evaluation.expected_totals` (``future``, ``mpt``: the expectimax evaluation's parameters), their
    margin m = own - the best other seat's, a win chance 1/2 + 1/2 x (m / win_scale) / (1 + |m / win_scale|),
    plus ``margin_weight`` x m / 20 clipped to +-1 (the scale of :func:`final_value`; arithmetic only, so the
    twin and the kernel compute the same bits)."""
    n = gc[0][21, G_NS]
    E = np.zeros(4)
    expected_totals(gc, future, mpt, E)
    other = -1e18
    for o in range(n):
        if o != s and E[o] > other:
            other = E[o]
    m = E[s] - other
    x = m / win_scale
    return 0.5 + 0.5 * x / (1.0 + abs(x)) + margin_weight * min(1.0, max(-1.0, m / 20.0))


@njit(**INTERNAL)
def rollout_value(gc, s: int, prm_s) -> float:
    """Play a determinization on; seat ``s``'s result.  ``prm_s``: ``s``'s parameter row.  ``depth`` 0: to the
    end (:func:`final_value`); else ``depth`` more turns (:func:`.turns.rollout_some_turns`: on to the end once
    the last bonus token is gone), then :func:`cut_value` unless the game ended."""
    depth = int(prm_s[P_DEPTH])
    if depth > 0 and not rollout_some_turns(gc, depth):
        return cut_value(gc, s, prm_s[P_MARGIN], prm_s[P_WSCALE], prm_s[P_FUTURE], prm_s[P_MPT])
    if depth == 0:
        rollout_turns(gc)
    final_scoring(gc)
    return final_value(gc, s, prm_s[P_MARGIN])


@njit(**INTERNAL_NRT)
def rank_options(vals, m: int, k: int, order) -> None:
    """``order[:k]``: indices of the ``k`` best of ``vals[:m]``, best first; among equal values (within 1e-12)
    the earlier index, the choice the base policy makes."""
    used = np.zeros(m, np.bool_)
    for r in range(k):
        best, bi = -np.inf, -1
        for j in range(m):
            if not used[j] and (bi < 0 or vals[j] > best + 1e-12):
                best, bi = vals[j], j
        used[bi] = True
        order[r] = bi


@njit(**INTERNAL)
def play_candidate(g, s: int, kind: int, c: int, seed: int, gc, d0: int, d1: int, d2: int, tab, gval: float) -> float:
    """One rollout of candidate ``c`` in the determinization ``seed``: ``kind`` 0 = keep mask ``c`` (the reroll
    from the sampled dice, then the action by ``own``'s placement table), 1 = action ``c``; the rest of the turn
    and of the game by the rollout policy."""
    Wc, tc, pc = gc
    determinize(g, s, seed, Wc, tc, pc)
    if kind == 0:
        e0, e1, e2 = reroll(gc, s, c, d0, d1, d2)
        finish_turn(gc, s, choose_action(gc, s, e0, e1, e2, tab, gval))
    else:
        finish_turn(gc, s, c)
    to_rollout(gc, s)
    Wc[21, G_TURN] += 1
    return rollout_value(gc, s, g[2][s])


@njit(**INTERNAL_NRT)
def pick(g, s: int, kind: int, cands, k: int, d0: int, d1: int, d2: int, tab, gval: float) -> int:
    """Index (into ``cands[:k]``, best-ranked first) of the candidate to play.

    ``budget`` rollouts in all; with ``halving`` (successive halving) in ceil(log2 k) rounds of equal budget,
    after each of which the better half of the candidates still in play goes on (``own``'s choice, candidate 0,
    always does); every candidate in play meets the same determinizations (common random numbers).  The best
    total wins only if it beats ``own``'s choice with a paired t statistic above ``switch_z`` (a small budget
    then keeps ``own``'s choice instead of following noise); ties go to the better-ranked candidate."""
    prm = g[2]
    budget = int(prm[s, P_BUDGET])
    rounds = 1
    if prm[s, P_HALVING] > 0:
        while (1 << rounds) < k:
            rounds += 1
    seed0 = rand_below(g, np.int64(2147483647)) + 1
    gc = (np.empty((LOG0, W_WIDTH), np.int64), np.empty((2, rollout_tape_length(g, s)), np.uint32), np.empty((4, N_PRM)))
    alive = np.ones(k, np.bool_)
    tot = np.zeros(k)
    res = np.zeros((k, budget + rounds))  # result of every candidate in play in every determinization
    left = k
    j = 0
    for r in range(rounds):
        reps = max(1, budget // (rounds * left))
        for _ in range(reps):
            seed = sample_seed(seed0, j)
            for i in range(k):
                if alive[i]:
                    v = play_candidate(g, s, kind, cands[i], seed, gc, d0, d1, d2, tab, gval)
                    res[i, j] = v
                    tot[i] += v
            j += 1
        if r < rounds - 1:
            keep = (left + 1) // 2
            ranked = np.zeros(k, np.bool_)
            ranked[0] = True  # own's choice stays in play
            for _ in range(keep - 1):
                bi = -1
                for i in range(1, k):
                    if alive[i] and not ranked[i] and (bi < 0 or tot[i] > tot[bi] + 1e-9):
                        bi = i
                ranked[bi] = True
            alive = ranked
            left = keep
    best = 0
    for i in range(1, k):
        if alive[i] and tot[i] > tot[best] + 1e-9:
            best = i
    if best == 0 or j < 2:
        return best
    mean, sq = 0.0, 0.0  # the paired difference best - own's choice over the j shared determinizations
    for q in range(j):
        mean += res[best, q] - res[0, q]
    mean /= j
    for q in range(j):
        dev = res[best, q] - res[0, q] - mean
        sq += dev * dev
    sd = np.sqrt(sq / (j - 1))
    return best if mean * np.sqrt(j) > prm[s, P_SWITCHZ] * sd else 0


@njit(**INTERNAL_NRT)
def search_keep(g, s: int, d0: int, d1: int, d2: int, tab, gval: float) -> int:
    """The keep mask (7 = no reroll) with the best rollout results among the best-ranked masks of ``own``."""
    vals = np.empty(8)
    keep_values(g, d0, d1, d2, tab, gval, vals)
    masks = np.array([7, 6, 5, 4, 3, 2, 1, 0])  # choose_keep's order: no reroll first
    mv = np.empty(8)
    for i in range(8):
        mv[i] = vals[masks[i]]
    k = min(int(g[2][s, P_CANDS]), 8)
    order = np.empty(8, np.int64)
    rank_options(mv, np.int64(8), np.int64(k), order)
    while k > 1 and mv[order[k - 1]] < mv[order[0]] - FORBIDDEN_GAP:
        k -= 1
    cands = np.empty(k, np.int64)
    for i in range(k):
        cands[i] = masks[order[i]]
    if k == 1:
        return cands[0]
    return cands[pick(g, s, np.int64(0), cands, np.int64(k), d0, d1, d2, tab, gval)]


@njit(**INTERNAL_NRT)
def search_action(g, s: int, d0: int, d1: int, d2: int, tab, gval: float) -> int:
    """The action (0 = guardian, ``tile * 8 + n``) with the best rollout results among the best of ``own``."""
    opts = np.empty(128, np.int64)
    m = placement_options(g, s, d0, d1, d2, opts)
    vals = np.empty(m)
    for j in range(m):
        code = opts[j]
        if code == 0:
            vals[j] = gval
        else:
            t, n = code // 8, code % 8
            vals[j] = tab[t, 3] if n == 4 else tab[t, n - 1]
    k = min(int(g[2][s, P_CANDS]), m)
    order = np.empty(m, np.int64)
    rank_options(vals, m, np.int64(k), order)
    while k > 1 and vals[order[k - 1]] < vals[order[0]] - FORBIDDEN_GAP:  # options a restriction forbids
        k -= 1
    cands = np.empty(k, np.int64)
    for i in range(k):
        cands[i] = opts[order[i]]
    if k == 1:
        return cands[0]
    return cands[pick(g, s, np.int64(1), cands, np.int64(k), d0, d1, d2, tab, gval)]


@njit(**INTERNAL_NRT)
def search_turn(g, s: int) -> None:
    """A search player's turn: roll, the reroll by search (or by ``own`` if ``search_reroll`` is 0), the action
    by search, then the rest of the turn by ``own``."""
    S = g[0][4:8]
    prm = g[2]
    if S[s, SUP] == 0 or S[s, SUP] > prm[s, P_SSUPPLY]:  # nothing to decide, or too early: own decides
        base_turn(g, s)
        return
    d0, d1, d2 = roll_die(g), roll_die(g), roll_die(g)
    if TRACE:
        note(g, s, np.int64(EV_ROLL), d0, d1, d2, np.int64(0), np.int64(0))
    tab = np.zeros((13, 4))
    gval = placement_table(g, s, tab)
    if prm[s, P_SREROLL] > 0 and prm[s, P_REROLL] > 0:
        keep = search_keep(g, s, d0, d1, d2, tab, gval)
    else:
        keep = choose_keep(g, s, d0, d1, d2, tab, gval)
    d0, d1, d2 = reroll(g, s, keep, d0, d1, d2)
    finish_turn(g, s, search_action(g, s, d0, d1, d2, tab, gval))
