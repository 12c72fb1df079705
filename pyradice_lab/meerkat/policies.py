"""Named Meerkat Kingdom policies, weakest first: ``random_legal``, ``greedy``, ``heuristic``, ``expectimax``,
``mcts`` (the search player of :mod:`.search`).

A policy is an id plus a row of parameters (so the numba-compiled game can read it).  Every decision of a
turn is a function here: which dice to keep for the reroll, place or guardian, activate the wandering male,
activate an oasis token, which burrow action, and where to move guardians during end scoring.

- ``random_legal``: every decision uniform over the legal choices (declining included where optional).
- ``greedy``: the best immediate change of (own projected points - mean opponent projected points), where
  "projected" means "if the game were scored now" (majorities, +3/reverse tokens, pups x guardians, bonus
  tokens).  The reroll keeps the dice subset whose exact expected best-placement value is highest
  (enumerating every reroll outcome).  It declines optional actions that do not gain strictly.
- ``heuristic``: the same machinery with tunable weights: ``w_opp`` (weight of the opponents' points),
  ``guardian_value`` / ``pup_value`` (future value credited to a guardian / pup), ``burrow_cost`` (value of a
  meerkat spent on a burrow space), ``queen_bonus`` (credited to placing the queen: she protects her tile
  and is forfeited if never placed), ``reroll``
  (1 = use the optional reroll), ``oasis`` (1 = may activate oasis tokens and take the move-an-oasis-token
  burrow action).  ``greedy`` is ``heuristic`` with weights (1, 0, 0, 0, 0, 1, 1).
- ``expectimax``: the reroll and the placement by expectimax over the dice (every reroll outcome enumerated,
  the best placement for each) with the expected end-of-game points margin of the majority standings as the
  evaluation (:mod:`.evaluation`) instead of the points "if scored now"; the same evaluation drives its other
  decisions.  Parameters: the heuristic's plus ``future`` (0..1: how much of the remaining placements the
  evaluation expects; 0 = greedy's evaluation) and ``meerkats_per_turn`` (:data:`EXPECTIMAX_DEFAULTS`).
- ``mcts`` / ``"mcts:N"``: determinized Monte Carlo search (:mod:`.search`) with N rollouts per decision
  (default :data:`SEARCH_DEFAULTS`), rollouts played by the compiled engine with the ``rollout`` policy;
  ``("mcts", {"budget": N, "rollout": "greedy", "candidates": 4, ...})`` sets its parameters.  ``"mcts_late"``
  searches only the seat's last turns (:data:`MCTS_LATE`, issue 27: a sixth of the CPU, somewhat weaker);
  ``"mcts_cut"`` plays truncated rollouts (:data:`MCTS_CUT`: a ninth of the CPU, clearly weaker); ``"mcts_v1"``
  is issue 12's search frozen (:data:`MCTS_V1`, today the same as ``mcts``).
- ``expectimax_v2`` / ``heuristic_v2`` (issue 27): those players with ``burrow_cost`` 8 / 10 instead of 1
  (:data:`EXPECTIMAX_V2`, :data:`HEURISTIC_V2`: a burrow action only for a gain above that; each beats its
  default head to head 0.75 / 0.73); ``"mcts_v2"`` / ``"mcts_v2:N"``: the late search on them (:data:`MCTS_V2`,
  the registry's report player: 7-13x expectimax's CPU per game and stronger than ``mcts_v1``).

Parameter rows have :data:`N_PRM` columns: the heuristic's weights (0..6, :data:`PARAM_NAMES`), ``future`` and
``meerkats_per_turn`` (8, 9), the search's ``switch_z`` (7), ``budget``, ``candidates``, ``margin_weight``,
``search_reroll``, ``halving``, ``own_rest`` (10..15), expectimax's ``race`` (16), the search's
``search_supply`` (17), ``depth`` and ``win_scale`` (18, 19) and, from column :data:`ROLL0`, the row of the rollout policy.

Restricted players (restricted play, :func:`pyradice_lab.design.strength.restricted_play`) are spelled
``"<policy>/<restriction>"``, e.g. ``"heuristic/no_queen"`` or ``"mcts:32/no_reroll"`` (:data:`RESTRICTIONS`);
each is a parameter setting, so the compiled engine plays them unchanged: a forbidden option is valued at minus
:data:`FORBIDDEN` (chosen only if it is the only legal move).  A search player gets the restriction on its own
decisions (candidate ranking, the rest of its turn; a forbidden option is never searched) while its rollouts
play unrestricted.  ``no_tile:T`` (a restriction with an argument, the tile 3..12; restricted play's
``commit_win_excess:T``) sets bit T of the row's :data:`P_NOTILE` mask: placing meerkats or the queen on tile T,
moving or swapping a meerkat or the queen there are valued at minus :data:`FORBIDDEN`; unlike the options above,
a search player keeps it in its own rollouts too (the other seats' rollouts play unrestricted).

The parameter rows, defaults and named players live in the private module ``_policy_rows`` (re-exported
here); this module holds the compiled decisions.

Examples
--------
>>> from pyradice_lab.meerkat.policies import policy_row
>>> policy_row("greedy")[1][:7].tolist()
[1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0]
>>> policy_row("greedy/no_reroll")[1][:7].tolist()
[1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]
>>> pid, row = policy_row("mcts:64")
>>> pid == SEARCH, int(row[P_BUDGET])
(True, 64)
"""

from __future__ import annotations

import numpy as np

from ..engine._jit import njit
from ._policy_rows import (
    EXPECTIMAX_DEFAULTS,
    EXPECTIMAX_V2,
    FORBIDDEN,
    GREEDY_PARAMS as GREEDY_PARAMS,
    HEURISTIC_DEFAULTS,
    HEURISTIC_V2,
    MCTS_CUT,
    MCTS_LATE,
    MCTS_V1,
    MCTS_V2,
    N_PRM,
    NAMED_PLAYERS,
    P_BUDGET as P_BUDGET,
    P_BURROW,
    P_CANDS as P_CANDS,
    P_DEPTH as P_DEPTH,
    P_FUTURE as P_FUTURE,
    P_GUARD,
    P_HALVING as P_HALVING,
    P_MARGIN as P_MARGIN,
    P_MPT as P_MPT,
    P_NOTILE,
    P_OASIS,
    P_OWNREST as P_OWNREST,
    P_PUP,
    P_QUEEN,
    P_RACE,
    P_REROLL,
    P_SREROLL as P_SREROLL,
    P_SSUPPLY as P_SSUPPLY,
    P_SWITCHZ as P_SWITCHZ,
    P_WOPP,
    P_WSCALE as P_WSCALE,
    PARAM,
    PARAM_NAMES,
    POLICIES,
    RANDOM,
    RESTRICTIONS,
    ROLL0 as ROLL0,
    ROLL_N as ROLL_N,
    SEARCH,
    SEARCH_DEFAULTS,
    TILES as TILES,
    policy_name,
    policy_row,
)
from .evaluation import race_values, tile_workspace, value_ws, values_ws
from .oasis import token_move_options
from .rules import (
    B_GUARD,
    B_MOVE,
    B_RECALL,
    B_SWAP,
    BA_MALE,
    BA_MOVE,
    BA_OASIS,
    BA_QUEEN,
    BA_SWAP,
    BUR,
    INTERNAL,
    INTERNAL_NRT,
    K_MAXG,
    K_MAXP,
    K_QF,
    POL,
    PUP,
    QUEEN,
    RES,
    SUP,
    T_MOVE,
    T_PLUS3,
    T_REVERSE,
    T_SWAP,
    TOK,
    drive_options,
    move_options,
    next_bonus,
    placement_options_into,
    queen_options,
    rand_below,
    recall_options,
    swap_options,
    tile_points,
)

__all__ = ["POLICIES", "PARAM_NAMES", "HEURISTIC_DEFAULTS", "EXPECTIMAX_DEFAULTS", "SEARCH_DEFAULTS", "policy_row",
           "policy_name", "RANDOM", "PARAM", "SEARCH", "N_PRM", "RESTRICTIONS", "FORBIDDEN", "MCTS_LATE",
           "MCTS_V1", "MCTS_CUT", "MCTS_V2", "EXPECTIMAX_V2", "HEURISTIC_V2", "NAMED_PLAYERS"]

NEG = -1e18


# ----------------------------------------------------------------------------------------- tile values
@njit(**INTERNAL_NRT)
def values_of(g, s: int, t: int, w: float, adds, m: int, out) -> None:
    """Seat ``s``'s value of tile ``t`` for ``m`` variants of its strength there (:func:`.evaluation.values_ws`
    on a workspace of its own)."""
    values_ws(g, s, t, w, adds, m, out, tile_workspace())


@njit(**INTERNAL_NRT)
def spend_bonus(g, s: int, spent: int) -> float:
    """The bonus-token value of spending ``spent`` more meerkats from the supply this turn (a burrow action, a
    guardian by oasis token): the token taken at once (:func:`.rules.next_bonus`) or, with the parameter
    ``race`` > 0, ``race`` x the change of the expected token in the race (:func:`.evaluation.race_values`)
    plus ``1 - race`` x that."""
    nb = 1.0 * next_bonus(g, s, spent)
    race = g[2][s, P_RACE]
    if race <= 0:
        return nb
    S = g[0][4:8]
    rv = np.zeros(S[s, SUP] + 1)
    race_values(g, s, np.int64(0), rv)
    return race * (rv[max(0, S[s, SUP] - spent)] - rv[S[s, SUP]]) + (1.0 - race) * nb


@njit(**INTERNAL_NRT)
def value_of(g, s: int, t: int, w: float) -> float:
    """:func:`values_of` of tile ``t`` as it stands (:func:`.evaluation.value_ws` on a workspace of its own)."""
    return value_ws(g, s, t, w, tile_workspace())


# ----------------------------------------------------------------------------------------- placement
@njit(**INTERNAL)
def forbidden_tile(prm, s: int, t: int) -> bool:
    """Whether seat ``s`` never commits to tile ``t`` (its row's :data:`P_NOTILE` mask; restriction no_tile:T)."""
    return (int(prm[s, P_NOTILE]) >> t) & 1 == 1


@njit(**INTERNAL_NRT)
def placement_table(g, s: int, tab) -> float:
    """``tab[t, k]``: value of placing k+1 meerkats (k = 3: the queen) on tile t; returns the guardian value."""
    S = g[0][4:8]
    K = g[0][64]
    prm = g[2]
    w = prm[s, P_WOPP]
    adds = np.zeros(5, np.int64)
    nb = np.zeros(3)
    for k in range(3):
        n = min(k + 1, S[s, SUP])
        adds[1 + k] = 2 * n
        nb[k] = next_bonus(g, s, n)
    adds[4] = 5
    queen = S[s, QUEEN] == 0 and S[s, SUP] > 0
    race = prm[s, P_RACE]
    gb = 1.0 * next_bonus(g, s, np.int64(1))  # a guardian's bonus-token term
    if race > 0 and S[s, SUP] > 0:
        # the race to run out: the expected token by the supply left at the end of the turn, relative to
        # placing nothing (the queen places no meerkat: she costs a turn in the race; whether she is placed
        # later or forfeited is the queen_bonus's part)
        sup = S[s, SUP]
        rv = np.zeros(sup + 1)
        race_values(g, s, np.int64(0), rv)
        for k in range(3):
            nb[k] = race * (rv[sup - min(k + 1, sup)] - rv[sup]) + (1.0 - race) * nb[k]
        gb = race * (rv[sup - 1] - rv[sup]) + (1.0 - race) * gb
    vals = np.zeros(5)
    for t in range(3, 13):
        values_of(g, s, t, w, adds, np.int64(5 if queen else 4), vals)
        before = vals[0]
        for k in range(3):
            tab[t, k] = vals[1 + k] - before + nb[k]
        tab[t, 3] = vals[4] - before + prm[s, P_QUEEN] if queen else NEG
        if forbidden_tile(prm, s, t):  # no_tile:T: placing there is valued at minus FORBIDDEN
            for k in range(4):
                tab[t, k] -= FORBIDDEN
    if S[s, RES] < K[K_MAXG] and S[s, SUP] > 0:
        return S[s, PUP] + prm[s, P_GUARD] + gb
    return NEG


@njit(**INTERNAL)
def roll_value(d0: int, d1: int, d2: int, best_die, gval: float) -> float:
    """Best option value of a roll (guardian included): ``best_die[c, t]`` is the best placement with count die
    ``c`` on tile ``t`` (``t`` = 2: snake eyes, any tile); see :func:`die_table`."""
    best = gval
    for i in range(3):
        if i == 0:
            c, x, y = d0, d1, d2
        elif i == 1:
            c, x, y = d1, d0, d2
        else:
            c, x, y = d2, d0, d1
        v = best_die[c, x + y]
        if v > best:
            best = v
    return best


@njit(**INTERNAL)
def die_table(tab, K, best_die) -> None:
    """``best_die[c, t]`` = the best of placing what count die ``c`` allows (its meerkats, or the queen on a
    5-6) on tile ``t``; ``best_die[c, 2]`` = the best over every tile (snake eyes as the tile pair)."""
    for c in range(1, 7):
        anyv = NEG
        for t in range(3, 13):
            v = tab[t, K[c] - 1]
            if K[K_QF + c] == 1 and tab[t, 3] > v:
                v = tab[t, 3]
            best_die[c, t] = v
            if v > anyv:
                anyv = v
        best_die[c, 2] = anyv


@njit(**INTERNAL_NRT)
def keep_values(g, d0: int, d1: int, d2: int, tab, gval: float, vals) -> None:
    """``vals[mask]``: the exact expected best option value after keeping the dice of ``mask`` (bit i = keep die
    i) and rerolling the others, every reroll outcome enumerated; ``vals[7]``: the value of this roll."""
    keep_values_into(g, d0, d1, d2, tab, gval, vals, np.full((7, 13), NEG), np.empty((7, 7, 7)))


@njit(**INTERNAL)
def keep_values_into(g, d0: int, d1: int, d2: int, tab, gval: float, vals, best_die, rv) -> None:
    """:func:`keep_values` with its scratch: ``best_die`` (7 x 13, all ``NEG``) and ``rv`` (7 x 7 x 7)."""
    K = g[0][64]
    die_table(tab, K, best_die)
    for a in range(1, 7):  # a roll's value does not depend on the order of its dice: 56 evaluations
        for b in range(a, 7):
            for c in range(b, 7):
                v = roll_value(a, b, c, best_die, gval)
                rv[a, b, c] = v
                rv[a, c, b] = v
                rv[b, a, c] = v
                rv[b, c, a] = v
                rv[c, a, b] = v
                rv[c, b, a] = v
    vals[7] = rv[d0, d1, d2]
    for mask in range(7):  # kept dice stay, the others run over 1..6 (in increasing order)
        tot, cnt = 0.0, 0
        a0, a1 = (d0, d0 + 1) if mask & 1 else (1, 7)
        b0, b1 = (d1, d1 + 1) if mask & 2 else (1, 7)
        c0, c1 = (d2, d2 + 1) if mask & 4 else (1, 7)
        for a in range(a0, a1):
            for b in range(b0, b1):
                for c in range(c0, c1):
                    tot += rv[a, b, c]
                    cnt += 1
        vals[mask] = tot / cnt


@njit(**INTERNAL_NRT)
def choose_keep(g, s: int, d0: int, d1: int, d2: int, tab, gval: float) -> int:
    """Keep mask for the optional reroll (bit i set = keep die i; 7 = no reroll): the best of
    :func:`keep_values` (an expectimax over the reroll outcomes; no reroll on a tie).

    ``tab``/``gval``: this turn's :func:`placement_table` (the reroll does not change the board)."""
    S = g[0][4:8]
    prm = g[2]
    if S[s, POL] == RANDOM:
        return rand_below(g, np.int64(8))
    if prm[s, P_REROLL] <= 0:
        return 7
    vals = np.empty(8)
    keep_values(g, d0, d1, d2, tab, gval, vals)
    best, best_mask = vals[7], 7
    for mask in range(6, -1, -1):
        if vals[mask] > best + 1e-12:
            best, best_mask = vals[mask], mask
    return best_mask


@njit(**INTERNAL_NRT)
def choose_action(g, s: int, d0: int, d1: int, d2: int, tab, gval: float) -> int:
    """0 = take a guardian; otherwise ``tile * 8 + n`` (n = 1..3 meerkats, 4 = the queen)."""
    S = g[0][4:8]
    g[0][64]
    opts = np.empty(128, np.int64)
    m = placement_options_into(g, s, d0, d1, d2, opts, np.zeros(13 * 8, np.bool_))
    if S[s, POL] == RANDOM:
        return opts[rand_below(g, m)]
    best, best_code = NEG, opts[0]
    for j in range(m):
        code = opts[j]
        if code == 0:
            v = gval
        else:
            t, n = code // 8, code % 8
            v = tab[t, 3] if n == 4 else tab[t, n - 1]
        if v > best + 1e-12:
            best, best_code = v, code
    return best_code


# ----------------------------------------------------------------------------------------- option values
@njit(**INTERNAL)
def memo_value(g, s: int, o: int, t: int, d: int, w: float, memo, ws) -> float:
    """:func:`.rules.tile_value` of tile ``t`` for seat ``s`` with ``s``'s count there changed by ``d``
    (-1, 0, +1) and seat ``o``'s by ``-d`` (``o == s``: nobody else's), memoised in ``memo[d + 1, o, t]``
    (NaN = not computed yet).  A tile's value depends on its own column only, so one evaluation serves every
    option that changes the tile the same way (values identical to evaluating each option afresh).  ``ws``:
    :func:`value_ws`'s workspace."""
    v = memo[d + 1, o, t]
    if v != v:
        C = g[0]  # rows 0..3 of the work array: meerkats per seat and tile
        C[s, t] += d
        if o != s:
            C[o, t] -= d
        v = value_ws(g, s, t, w, ws)
        C[s, t] -= d
        if o != s:
            C[o, t] += d
        memo[d + 1, o, t] = v
    return v


@njit(**INTERNAL_NRT)
def best_of(g, s: int, kind: int, opts, m: int):
    """(best value, best code) over ``m`` options of one kind: 0 move/drive, 1 swap, 2 recall, 3 queen, 4 token.

    An option's value is (the values of the two tiles it changes, after it) - (their values now), each sum
    taken in the order of the option's code (from, to).  Tile values that several options share are computed
    once (a tile's value depends on its own column only).
    """
    S = g[0][4:8]
    T = g[0][8:21]
    prm = g[2]
    w = prm[s, P_WOPP]
    memo = np.full((3, 4, 13), np.nan)
    extra = np.full((3, 13), np.nan)  # tile values with the queen / a token taken away (row 0) or added (1, 2)
    ws = tile_workspace()  # one for the whole decision
    best, code = NEG, -1
    for j in range(m):
        c = opts[j]
        if kind == 0 or kind == 1:  # a move (a -> b) or a swap (a <-> b with seat o)
            cc = c // 8 if kind == 1 else c
            a, b = cc // 16, cc % 16
            o = c % 8 if kind == 1 else s
            before = 0.0 + memo_value(g, s, s, a, np.int64(0), w, memo, ws) + memo_value(g, s, s, b, np.int64(0), w, memo, ws)
            after = 0.0 + memo_value(g, s, o, a, np.int64(-1), w, memo, ws) + memo_value(g, s, o, b, np.int64(1), w, memo, ws)
            v = after - before
        elif kind == 2:
            if c >= 100:
                v = 0.0
            else:
                v = memo_value(g, s, s, c, np.int64(-1), w, memo, ws) - memo_value(g, s, s, c, np.int64(0), w, memo, ws)
        elif kind == 3:  # the queen q -> c: tile q without her (the same for every c), tile c with her
            q = S[s, QUEEN]
            before = 0.0 + memo_value(g, s, s, q, np.int64(0), w, memo, ws) + memo_value(g, s, s, c, np.int64(0), w, memo, ws)
            if extra[0, q] != extra[0, q]:
                S[s, QUEEN] = 0
                extra[0, q] = value_ws(g, s, q, w, ws)
            S[s, QUEEN] = c
            v = (0.0 + extra[0, q] + value_ws(g, s, c, w, ws)) - before
            S[s, QUEEN] = q
        else:  # an oasis token f -> t; only the +3 and reverse tokens change what a tile pays
            f, t = c // 16, c % 16
            k = T[f, TOK]
            if k != T_PLUS3 and k != T_REVERSE:
                v = 0.0
            else:
                before = 0.0 + memo_value(g, s, s, f, np.int64(0), w, memo, ws) + memo_value(g, s, s, t, np.int64(0), w, memo, ws)
                r = 1 if k == T_PLUS3 else 2
                T[t, TOK], T[f, TOK] = k, 0
                if extra[0, f] != extra[0, f]:
                    extra[0, f] = value_ws(g, s, f, w, ws)
                if extra[r, t] != extra[r, t]:
                    extra[r, t] = value_ws(g, s, t, w, ws)
                T[f, TOK], T[t, TOK] = k, 0
                v = (0.0 + extra[0, f] + extra[r, t]) - before
        if (kind == 0 or kind == 1) and forbidden_tile(prm, s, (c // 8 if kind == 1 else c) % 16):
            v -= FORBIDDEN  # no_tile:T: a meerkat of s moved (or swapped) onto tile T
        elif kind == 3 and forbidden_tile(prm, s, c):
            v -= FORBIDDEN  # the queen moved onto tile T
        if v > best + 1e-12:
            best, code = v, c
    return best, code


@njit(**INTERNAL_NRT)
def choose_male(g, s: int) -> int:
    """Wandering male: -2 = do not activate; -1 = activate (no drive-away move possible); else drive code."""
    S = g[0][4:8]
    opts = np.empty(256, np.int64)
    m = drive_options(g, s, opts)
    if S[s, POL] == RANDOM:
        if rand_below(g, np.int64(2)) == 0:
            return -2
        return opts[rand_below(g, m)] if m > 0 else -1
    v, code = 0.0, -1
    if m > 0:
        v, code = best_of(g, s, np.int64(0), opts, m)
    S = g[0][4:8]
    K = g[0][64]
    prm = g[2]
    return code if v + (S[s, RES] + prm[s, P_PUP] if S[s, PUP] < K[K_MAXP] else 0.0) > 1e-12 else -2


@njit(**INTERNAL)
def oasis_options(g, s: int, kind: int, opts) -> int:
    """Options of an activated oasis token of ``kind`` (0 if it has no active effect)."""
    S = g[0][4:8]
    K = g[0][64]
    if kind == B_MOVE or kind == T_MOVE:
        return move_options(g, s, opts)
    if kind == B_SWAP or kind == T_SWAP:
        return swap_options(g, s, opts)
    if kind == B_RECALL:
        return recall_options(g, s, opts)
    if kind == B_GUARD and S[s, RES] < K[K_MAXG] and S[s, SUP] > 0:
        opts[0] = 0
        return 1
    return 0


@njit(**INTERNAL_NRT)
def choose_oasis(g, s: int, kind: int) -> int:
    """-1 = do not activate the token; else the option code to apply."""
    S = g[0][4:8]
    prm = g[2]
    opts = np.empty(256, np.int64)
    m = oasis_options(g, s, kind, opts)
    if m == 0:
        return -1
    if S[s, POL] == RANDOM:
        return -1 if rand_below(g, np.int64(2)) == 0 else opts[rand_below(g, m)]
    if prm[s, P_OASIS] <= 0:
        return -1
    if kind == B_GUARD:
        v = S[s, PUP] + prm[s, P_GUARD] + spend_bonus(g, s, np.int64(1))
        return 0 if v > 1e-12 else -1
    cat = 0 if (kind == B_MOVE or kind == T_MOVE) else (1 if (kind == B_SWAP or kind == T_SWAP) else 2)
    v, code = best_of(g, s, cat, opts, m)
    return code if v > 1e-12 else -1


# ----------------------------------------------------------------------------------------- burrow
@njit(**INTERNAL)
def burrow_opts(g, s: int, k: int, opts) -> int:
    if k == BA_MOVE:
        return move_options(g, s, opts)
    if k == BA_QUEEN:
        return queen_options(g, s, opts)
    if k == BA_SWAP:
        return swap_options(g, s, opts)
    if k == BA_OASIS:
        return token_move_options(g, opts)
    m = drive_options(g, s, opts)
    if m == 0:
        opts[0] = -1
        m = 1
    return m


@njit(**INTERNAL_NRT)
def choose_burrow(g, s: int):
    """(space, option code) of the burrow action to take, or (-1, 0) for none."""
    S = g[0][4:8]
    prm = g[2]
    if S[s, SUP] == 0:
        return -1, 0
    opts = np.empty(256, np.int64)
    if S[s, POL] == RANDOM:
        avail = np.empty(5, np.int64)
        na = 0
        for k in range(5):
            if S[s, BUR + k] == 0 and burrow_opts(g, s, k, opts) > 0:
                avail[na] = k
                na += 1
        pick = rand_below(g, na + 1)
        if pick == na:
            return -1, 0
        k = avail[pick]
        m = burrow_opts(g, s, k, opts)
        return k, opts[rand_below(g, m)]
    K = g[0][64]
    best, bk, bc = 1e-12, -1, 0
    base = spend_bonus(g, s, np.int64(1)) - prm[s, P_BURROW]
    for k in range(5):
        if S[s, BUR + k] == 1 or (k == BA_OASIS and prm[s, P_OASIS] <= 0):
            continue
        m = burrow_opts(g, s, k, opts)
        if m == 0:
            continue
        if k == BA_MALE:
            v, code = 0.0, -1
            if opts[0] >= 0:
                v, code = best_of(g, s, np.int64(0), opts, m)
            v += (S[s, RES] + prm[s, P_PUP] if S[s, PUP] < K[K_MAXP] else 0.0)
        else:
            cat = 0 if k == BA_MOVE else (1 if k == BA_SWAP else (3 if k == BA_QUEEN else 4))
            v, code = best_of(g, s, cat, opts, m)
        if v + base > best:
            best, bk, bc = v + base, k, code
    return bk, bc


# ----------------------------------------------------------------------------------------- end scoring
@njit(**INTERNAL_NRT)
def choose_guardian(g, s: int, t: int) -> int:
    """Tile to move one reserve guardian to after winning tile ``t`` (0 = keep it): an adjacent tile not yet
    scored (tiles are scored 3, 4, ..., 12, so a higher-numbered one).  Parametrised policies take the one
    gaining the most own points net of the pups x guardian it costs, if positive; random picks any or none."""
    C = g[0][0:4]
    S = g[0][4:8]
    A = g[0][38:51]
    opts = np.empty(8, np.int64)
    m = 0
    for u in range(t + 1, 13):
        if A[t, u] == 1:
            opts[m] = u
            m += 1
    if m == 0:
        return 0
    if S[s, POL] == RANDOM:
        j = rand_below(g, m + 1)
        return 0 if j == m else opts[j]
    pts = np.zeros(4, np.int64)
    best, best_u = 0, 0
    for j in range(m):
        u = opts[j]
        tile_points(g, u, pts)
        before = pts[s]
        C[s, u] += 1
        tile_points(g, u, pts)
        C[s, u] -= 1
        gain = pts[s] - before - S[s, PUP]
        if gain > best:
            best, best_u = gain, u
    return best_u
