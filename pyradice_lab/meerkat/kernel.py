"""One whole game of Meerkat Kingdom on plain arrays: setup, turns, the end trigger and end scoring.

Everything here is numba-compatible; :mod:`.sim` compiles it for batches of games, and the same code under
``NUMBA_DISABLE_JIT=1`` is the pure-Python one-game-at-a-time reference.  See :mod:`.rules` for the
state layout.
"""

from __future__ import annotations

import numpy as np

from ..engine._jit import njit
from .automa import automa_turn
from .evaluation import store_model
from .oasis import end_turn_refill, unlock_timers
from .policies import SEARCH
from .rules import (
    AUTO,
    BONUS,
    EV_LAYOUT,
    EV_START,
    G_CAP,
    G_CPURP,
    G_END,
    G_FIRE,
    G_FIRST,
    G_HAWK,
    G_JACKAL,
    G_JACKDIFF,
    G_KEY0,
    G_KEY1,
    G_MALE,
    G_NBLUE,
    G_NBROWN,
    G_NS,
    G_NTOK,
    G_REVDIFF,
    G_TOKENS,
    G_TRACE,
    G_TURN,
    G_WRAP,
    HAZLOST,
    INTERNAL,
    K_MEERKATS,
    KEY_WIDTH,
    LOCK,
    LOG0,
    MALEACT,
    MOVED,
    OUT,
    P_AQUEEN,
    P_BLUE,
    P_BROWN,
    P_CHOICE,
    P_LAYOUT,
    P_START,
    PAID,
    PIC,
    POL,
    PRESENT,
    PUP,
    PUPPTS,
    QUEEN,
    RES,
    SETUP_TURN,
    SUP,
    TILEPTS,
    TOTAL,
    TRACE,
    USED,
    W_WIDTH,
    WONMASK,
    conservation_ok,
    note,
    rand_below,
    roll_die,
    roll_tile,
    start_streams,
    use_dice,
)
from .search import search_turn
from .turns import base_turn, final_scoring, next_seat, winner_of

OUT_SEAT_FIELDS = (TOTAL, TILEPTS, PUPPTS, BONUS, PUP, RES, MOVED, WONMASK, OUT, HAZLOST, MALEACT, QUEEN)
SEAT_COLUMNS = ("score", "tile_points", "pup_points", "bonus", "pups", "guardians", "guardians_moved",
                "won_mask", "out_order", "lost_to_hazards", "male_activations", "queen_tile")
GAME_COLUMNS = ("winner", "turns", "first_seat", "hawk", "fire", "jackal", "capped", "tape_wrapped",
                "conserved", "tokens_taken", "reverse_readings_differ", "jackal_readings_differ")


# ----------------------------------------------------------------------------------------- setup
@njit(cache=True)
def new_game(n: int, automa: bool, pols, prm_rows, V, K, tapes, bag_rows, nblue: int, nbrown: int,
             male_start: int, log_rows: int):
    """Fresh state ``(W, tapes, prm)`` for one game of ``n`` seats (the last one is the automa if ``automa``).

    ``log_rows`` > 0 turns the trace on with room for 8 x ``log_rows`` events.
    """
    W = np.zeros((LOG0 + log_rows, W_WIDTH), np.int64)
    prm = np.zeros((4, prm_rows.shape[1]))
    g = (W, tapes, prm)
    S = W[4:8]
    T = W[8:21]
    G = W[21]
    for t in range(13):  # plain loops instead of slice assignments: noticeably shorter numba compile
        T[t, LOCK] = -1
        for j in range(4):
            W[25 + t, j] = V[t, j]
    for r in range(3):
        for j in range(bag_rows.shape[1]):
            W[22 + r, j] = bag_rows[r, j]
    for j in range(K.shape[0]):
        W[64, j] = K[j]
    G[G_NS] = n
    G[G_MALE] = male_start
    G[G_NBLUE] = nblue
    G[G_NBROWN] = nbrown
    G[G_NTOK] = n - 1
    G[G_TRACE] = 1 if log_rows > 0 else 0
    if tapes.shape[1] == KEY_WIDTH:  # a key: the game's seed (see rules "chance")
        G[G_KEY0] = tapes[0, 0]
        G[G_KEY1] = tapes[0, 1]
    for s in range(n):
        S[s, SUP] = K[K_MEERKATS]
        S[s, POL] = pols[s]
        for j in range(prm_rows.shape[1]):
            prm[s, j] = prm_rows[s, j]
        if automa and s == n - 1:
            S[s, AUTO] = 1
    return g


@njit(**INTERNAL)
def shuffle(g, arr, m: int) -> None:
    """Fisher-Yates on ``arr[:m]`` with the current choice stream (keyed games) or the choice tape."""
    for i in range(m - 1, 0, -1):
        j = rand_below(g, i + 1)
        arr[i], arr[j] = arr[j], arr[i]


@njit(cache=True)
def setup(g, pos_adj, oasis_tiles, shuffle_tiles: bool) -> None:
    """Lay out the tiles, adjacency and distances, shuffle the bags, draw the 4 blue tokens, place the
    automa's queen and roll for the start player."""
    S = g[0][4:8]
    T = g[0][8:21]
    G = g[0][21]
    bags = g[0][22:25]
    A = g[0][38:51]
    D = g[0][51:64]
    n = G[G_NS]
    start_streams(g, np.int64(SETUP_TURN))  # keyed games: each step of the setup draws from its own stream
    pos = np.arange(10)
    G[G_CPURP] = P_LAYOUT
    if shuffle_tiles:
        shuffle(g, pos, np.int64(10))  # pos[i] = position of tile i + 3
    for t in range(3, 13):
        for u in range(3, 13):
            A[t, u] = pos_adj[pos[t - 3], pos[u - 3]]
            D[t, u] = 0 if t == u else (1 if A[t, u] == 1 else 99)
        if TRACE:
            note(g, np.int64(-1), np.int64(EV_LAYOUT), t, pos[t - 3], np.int64(0), np.int64(0), np.int64(0))
    for k in range(3, 13):  # Floyd-Warshall on 10 nodes
        for i in range(3, 13):
            for j in range(3, 13):
                if D[i, k] + D[k, j] < D[i, j]:
                    D[i, j] = D[i, k] + D[k, j]
    G[G_CPURP] = P_BLUE
    shuffle(g, bags[0], G[G_NBLUE])
    order = np.arange(G[G_NBROWN])
    G[G_CPURP] = P_BROWN
    shuffle(g, order, G[G_NBROWN])
    G[G_CPURP] = P_CHOICE
    front, back = bags[1].copy(), bags[2].copy()
    for i in range(G[G_NBROWN]):
        bags[1, i], bags[2, i] = front[order[i]], back[order[i]]
    for i in range(oasis_tiles.shape[0]):
        t = oasis_tiles[i]
        T[t, PIC] = 1
        T[t, USED] = 1
    end_turn_refill(g, np.int64(-1))
    for s in range(n):
        if S[s, AUTO] == 1:
            use_dice(g, np.int64(P_AQUEEN))
            S[s, QUEEN] = roll_tile(g, np.int64(0))
            if TRACE:
                note(g, s, np.int64(EV_START), np.int64(-1), S[s, QUEEN], np.int64(0), np.int64(0), np.int64(0))
    humans = n - 1 if S[n - 1, AUTO] == 1 else n
    totals = np.zeros(4, np.int64)
    use_dice(g, np.int64(P_START))
    while True:  # highest total starts; equal totals cancel; all cancelled -> everyone rerolls
        for s in range(humans):
            totals[s] = roll_die(g) + roll_die(g) + roll_die(g)
        first, best = -1, 0
        for s in range(humans):
            dup = False
            for o in range(humans):
                if o != s and totals[o] == totals[s]:
                    dup = True
            if not dup and totals[s] > best:
                first, best = s, totals[s]
        if first >= 0:
            break
    G[G_FIRST] = first
    store_model(g)
    if TRACE:
        note(g, first, np.int64(EV_START), best, np.int64(0), np.int64(0), np.int64(0), np.int64(0))


# ----------------------------------------------------------------------------------------- a turn
@njit(cache=True)
def play(g) -> bool:
    """Play the game to the end and score it; returns whether meerkats were conserved after every turn."""
    ok = play_turns(g)
    final_scoring(g)
    g[0][21, G_END] = 1
    return ok and conservation_ok(g)


# human_turn and play_turns are inlined (numba IR) into their callers: one library and one LLVM re-optimisation of
# everything below them less per level (cold compile of run_games without the search 29.3/25.9 -> 22.8/22.4 s CPU,
# load ~2-3); the search branch is still pruned for ``search=None``
@njit(**INTERNAL, inline="always")
def human_turn(g, s: int, search=True) -> None:
    """A human seat's turn: search players (:mod:`.search`) search, every other policy decides directly.

    ``search=None``: no seat is a search player; numba prunes the search branch at compile time (a branch on
    an argument that is ``None``), so a kernel for such games does not compile the search (about two thirds
    of a cold compile of :func:`run_games`)."""
    if search is None:
        base_turn(g, s)
    elif g[0][4 + s, POL] == SEARCH:
        search_turn(g, s)
    else:
        base_turn(g, s)


@njit(**INTERNAL, inline="always")
def play_turns(g, search=True) -> bool:
    """Play every turn up to end scoring (the end trigger and the final turn included); ``search`` as in
    :func:`human_turn`."""
    S = g[0][4:8]
    G = g[0][21]
    ok = True
    while True:
        s = next_seat(g)
        if s < 0:
            break
        unlock_timers(g, s)
        if S[s, AUTO] == 1:
            automa_turn(g, s)
        else:
            human_turn(g, s, search)
        G[G_TURN] += 1
        ok = ok and conservation_ok(g)
    return ok


@njit(cache=True)
def run_games(tapes, n: int, automa: bool, pols, prm_rows, V, K, bag_rows, nblue: int, nbrown: int,
              male_start: int, pos_adj, oasis_tiles, shuffle_tiles: bool, out_seat, out_game, out_tiles,
              search=True) -> int:
    """Play ``tapes.shape[0]`` games (tapes[i]: the game's key, or its dice tape and choice tape); fill ``out_seat[i, seat, field]`` and
    ``out_game[i, field]`` and ``out_tiles[i, tile - 3] = (pieces on the tile when it is scored, points paid)``.

    ``search=None`` compiles (and runs) the kernel without the search player (see :func:`human_turn`): for
    games in which no seat searches (:func:`.sim.search_arg`); the numbers are the same."""
    for i in range(tapes.shape[0]):
        g = new_game(n, automa, pols, prm_rows, V, K, tapes[i], bag_rows, nblue, nbrown, male_start, np.int64(0))
        setup(g, pos_adj, oasis_tiles, shuffle_tiles)
        ok = play_turns(g, search)  # (not play(): one call level less to link and optimise)
        final_scoring(g)
        ok = ok and conservation_ok(g)
        S, G = g[0][4:8], g[0][21]
        for s in range(n):
            for j in range(len(OUT_SEAT_FIELDS)):
                out_seat[i, s, j] = S[s, OUT_SEAT_FIELDS[j]]
        out_game[i, 0] = winner_of(g)
        out_game[i, 1] = G[G_TURN]
        out_game[i, 2] = G[G_FIRST]
        out_game[i, 3] = G[G_HAWK]
        out_game[i, 4] = G[G_FIRE]
        out_game[i, 5] = G[G_JACKAL]
        out_game[i, 6] = G[G_CAP]
        out_game[i, 7] = G[G_WRAP]
        out_game[i, 8] = 1 if ok else 0
        out_game[i, 9] = G[G_TOKENS]
        out_game[i, 10] = G[G_REVDIFF]
        out_game[i, 11] = G[G_JACKDIFF]
        T = g[0][8:21]
        for t in range(3, 13):
            out_tiles[i, t - 3, 0] = T[t, PRESENT]
            out_tiles[i, t - 3, 1] = T[t, PAID]
    return tapes.shape[0]

