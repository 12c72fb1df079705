"""The turn of a human seat in pieces, the turn order, end scoring: shared by the game loop (:mod:`.kernel`)
and the search players' rollouts (:mod:`.search`).

A turn is ``roll -> keep (optional reroll) -> action -> finish_turn``; :func:`base_turn` takes every decision
with the seat's policy (:mod:`.policies`), a search player (:mod:`.search`) takes the keep and the action by
search and then calls :func:`finish_turn`.  The turn order lives in the state (:func:`next_seat`), so a copy of
a state can be played on to the end (:func:`rollout_turns`, :func:`final_scoring`).
"""

from __future__ import annotations

import numpy as np

from ..engine._jit import njit
from .automa import automa_turn
from .oasis import do_token_move, end_turn_refill, unlock_timers
from .policies import (
    RANDOM,
    choose_action,
    choose_burrow,
    choose_guardian,
    choose_keep,
    choose_male,
    choose_oasis,
    placement_table,
)
from .rules import (
    AUTO,
    B_GUARD,
    B_MOVE,
    B_RECALL,
    B_SWAP,
    BA_MOVE,
    BA_OASIS,
    BA_QUEEN,
    BA_SWAP,
    BONUS,
    BUR,
    EV_BURROW,
    EV_DRIVE,
    EV_FINAL,
    EV_GMOVE,
    EV_GUARD,
    EV_OASIS,
    EV_PASS,
    EV_REROLL,
    EV_ROLL,
    EV_SCORE,
    G_CAP,
    G_FINAL,
    G_FIRST,
    G_MALE,
    G_NS,
    G_NTOK,
    G_POS,
    G_REVDIFF,
    G_TOKENS,
    G_TURN,
    INTERNAL,
    INTERNAL_NRT,
    MAX_TURNS,
    MOVED,
    OUT,
    P_REROLL,
    P_ROLL,
    PAID,
    POL,
    PRESENT,
    PUP,
    PUPPTS,
    QUEEN,
    RES,
    SUP,
    T_MOVE,
    T_REVERSE,
    T_SWAP,
    T_TWO,
    TILEPTS,
    TOK,
    TOTAL,
    TRACE,
    USED,
    WONMASK,
    check_out,
    do_move,
    do_recall,
    do_swap,
    male_rest,
    note,
    place,
    reverse_readings_differ,
    roll_die,
    seek_dice,
    start_streams,
    tile_points,
    tile_winner,
    use_dice,
)


@njit(**INTERNAL)
def seat_at(g, k: int) -> int:
    """The seat at turn-order position ``k`` (0 = the start player; the automa, if any, plays last)."""
    S = g[0][4:8]
    G = g[0][21]
    n = G[G_NS]
    k = k % n
    if S[n - 1, AUTO] == 1:
        if k == n - 1:
            return n - 1
        return (G[G_FIRST] + k) % (n - 1)
    return (G[G_FIRST] + k) % n


@njit(**INTERNAL)
def next_seat(g) -> int:
    """The seat whose turn comes next, or -1 when play is over (then end scoring); advances the turn order
    kept in ``G`` (``G_POS``, ``G_FINAL``), so a copy of a game state resumes exactly where the game stands.
    When the last bonus token has been taken, the next seat that has not run out takes one last turn.  Opens
    the turn's chance streams (:func:`.rules.start_streams`; turn ``G_TURN``): every caller starting a turn
    goes through here."""
    S = g[0][4:8]
    G = g[0][21]
    n = G[G_NS]
    if G[G_TOKENS] >= G[G_NTOK]:
        if G[G_FINAL] == 1:
            return -1
        G[G_FINAL] = 1
        for k in range(n):
            s = seat_at(g, G[G_POS] + k)
            if S[s, OUT] == 0:
                if TRACE:
                    note(g, s, np.int64(EV_FINAL), np.int64(0), np.int64(0), np.int64(0), np.int64(0), np.int64(0))
                start_streams(g, G[G_TURN] + k)  # the dice of the seat's own next turn (in its place)
                return s
        return -1
    if G[G_TURN] >= MAX_TURNS:
        G[G_CAP] = 1
        return -1
    s = seat_at(g, G[G_POS])
    G[G_POS] = (G[G_POS] + 1) % n
    start_streams(g, G[G_TURN])
    return s


@njit(**INTERNAL)
def rollout_turns(g) -> None:
    """Play the remaining turns with every seat's own (non-search) policy: the search players' rollouts."""
    S = g[0][4:8]
    G = g[0][21]
    while True:
        s = next_seat(g)
        if s < 0:
            break
        unlock_timers(g, s)
        if S[s, AUTO] == 1:
            automa_turn(g, s)
        else:
            base_turn(g, s)
        G[G_TURN] += 1


@njit(**INTERNAL)
def rollout_some_turns(g, k: int) -> bool:
    """Play at most ``k`` more turns as :func:`rollout_turns` does, then on to the end if the last bonus token is
    gone by then (at most one turn a seat); returns whether play is over (then end scoring is due), else the
    state stands between two turns (a truncated rollout, :mod:`.search`)."""
    S = g[0][4:8]
    G = g[0][21]
    played = 0
    while played < k or G[G_TOKENS] >= G[G_NTOK]:
        s = next_seat(g)
        if s < 0:
            return True
        unlock_timers(g, s)
        if S[s, AUTO] == 1:
            automa_turn(g, s)
        else:
            base_turn(g, s)
        G[G_TURN] += 1
        played += 1
    return False


@njit(**INTERNAL)
def reroll(g, s: int, keep: int, d0: int, d1: int, d2: int):
    """Reroll the dice not in ``keep`` (bit i set = keep die i; 7 = no reroll); returns the dice."""
    if keep != 7:  # keyed games: die i's reroll is draw i of the turn's reroll stream, whatever else is rerolled
        if not keep & 1:
            seek_dice(g, np.int64(P_REROLL), np.int64(0))
            d0 = roll_die(g)
        if not keep & 2:
            seek_dice(g, np.int64(P_REROLL), np.int64(1))
            d1 = roll_die(g)
        if not keep & 4:
            seek_dice(g, np.int64(P_REROLL), np.int64(2))
            d2 = roll_die(g)
        if TRACE:
            note(g, s, np.int64(EV_REROLL), d0, d1, d2, keep, np.int64(0))
    return d0, d1, d2


@njit(**INTERNAL_NRT)
def base_turn(g, s: int) -> None:
    """A turn of a policy that decides without search: roll 3 (optional reroll), place or take a guardian,
    male / oasis activations, one burrow action."""
    S = g[0][4:8]
    if S[s, SUP] == 0:
        if TRACE:
            note(g, s, np.int64(EV_PASS), np.int64(0), np.int64(0), np.int64(0), np.int64(0), np.int64(0))
        return
    use_dice(g, np.int64(P_ROLL))
    d0, d1, d2 = roll_die(g), roll_die(g), roll_die(g)
    if TRACE:
        note(g, s, np.int64(EV_ROLL), d0, d1, d2, np.int64(0), np.int64(0))
    tab = np.zeros((13, 4))
    gval = placement_table(g, s, tab) if S[s, POL] != RANDOM else 0.0
    keep = choose_keep(g, s, d0, d1, d2, tab, gval)
    d0, d1, d2 = reroll(g, s, keep, d0, d1, d2)
    finish_turn(g, s, choose_action(g, s, d0, d1, d2, tab, gval))


@njit(**INTERNAL)
def finish_turn(g, s: int, code: int) -> None:
    """The rest of a turn once the action is chosen: ``code`` 0 = take a guardian, else ``tile * 8 + n``
    (n = 1..3 meerkats, 4 = the queen); then the wandering male and oasis activations, one burrow action, and
    the end-of-turn refill of used blue oasis tokens."""
    S = g[0][4:8]
    T = g[0][8:21]
    G = g[0][21]
    if code == 0:
        S[s, SUP] -= 1
        S[s, RES] += 1
        if TRACE:
            note(g, s, np.int64(EV_GUARD), S[s, RES], np.int64(0), np.int64(0), np.int64(0), np.int64(0))
        check_out(g, s)
    else:
        t, k = code // 8, code % 8
        place(g, s, t, k, k == 4)
        if t == G[G_MALE]:
            m = choose_male(g, s)
            if m != -2:
                if m >= 0:
                    if TRACE:
                        note(g, s, np.int64(EV_DRIVE), np.int64(0), np.int64(0), np.int64(0), np.int64(0), np.int64(0))
                    do_move(g, s, m)
                male_rest(g, s)
        kind = T[t, TOK]
        if kind != 0:
            o = choose_oasis(g, s, kind)
            if o != -1:
                if TRACE:
                    note(g, s, np.int64(EV_OASIS), t, kind, np.int64(0), np.int64(0), np.int64(0))
                if kind == B_MOVE or kind == T_MOVE:
                    do_move(g, s, o)
                elif kind == B_SWAP or kind == T_SWAP:
                    do_swap(g, s, o, np.int64(1))
                elif kind == B_RECALL:
                    do_recall(g, s, o, np.int64(1))
                elif kind == B_GUARD:  # a meerkat from the big burrow becomes a guardian
                    S[s, SUP] -= 1
                    S[s, RES] += 1
                    if TRACE:
                        note(g, s, np.int64(EV_GUARD), S[s, RES], np.int64(0), np.int64(0), np.int64(0),
                             np.int64(0))
                if kind == B_MOVE or kind == B_RECALL or kind == B_GUARD or kind == B_SWAP:
                    T[t, TOK] = 0
                    T[t, USED] = 1
                if kind == B_GUARD:
                    check_out(g, s)
    if S[s, SUP] > 0:
        k, code = choose_burrow(g, s)
        if k >= 0:
            S[s, SUP] -= 1
            S[s, BUR + k] = 1
            if TRACE:
                note(g, s, np.int64(EV_BURROW), k, code, np.int64(0), np.int64(0), np.int64(0))
            check_out(g, s)
            if k == BA_MOVE:
                do_move(g, s, code)
            elif k == BA_SWAP:
                do_swap(g, s, code, np.int64(1))
            elif k == BA_QUEEN:
                S[s, QUEEN] = code
            elif k == BA_OASIS:
                do_token_move(g, s, code, np.int64(1))
            else:  # the wandering male: optional drive-away move, then steps 2 and 3
                if code >= 0:
                    do_move(g, s, code)
                male_rest(g, s)
    end_turn_refill(g, s)


# ----------------------------------------------------------------------------------------- scoring

# ----------------------------------------------------------------------------------------- end scoring
@njit(**INTERNAL_NRT)
def final_scoring(g) -> None:
    """Score tiles 3..12 in order; the high-value taker may move a reserve guardian (2 with the tan
    two-guardians token, interpretation: instead of 1, not in addition) to an adjacent unscored tile; then
    pups x guardians left in the reserve and the bonus tokens."""
    C = g[0][0:4]
    S = g[0][4:8]
    T = g[0][8:21]
    G = g[0][21]
    n = G[G_NS]
    pts = np.zeros(4, np.int64)
    for t in range(3, 13):
        tile_points(g, t, pts)
        winner = tile_winner(g, t)
        if T[t, TOK] == T_REVERSE and reverse_readings_differ(g, t):
            G[G_REVDIFF] += 1
        for s in range(n):
            S[s, TILEPTS] += pts[s]
            T[t, PAID] += pts[s]
            T[t, PRESENT] += C[s, t] + (1 if S[s, QUEEN] == t else 0)
        if TRACE:
            note(g, np.int64(-1), np.int64(EV_SCORE), t, pts[0], pts[1], pts[2], pts[3])
        if winner >= 0:
            S[winner, WONMASK] |= 1 << t
            for _ in range(2 if T[t, TOK] == T_TWO else 1):
                if S[winner, RES] == 0:
                    break
                u = choose_guardian(g, winner, t)
                if u <= 0:
                    break
                C[winner, u] += 1
                S[winner, RES] -= 1
                S[winner, MOVED] += 1
                if TRACE:
                    note(g, winner, np.int64(EV_GMOVE), t, u, np.int64(0), np.int64(0), np.int64(0))
    for s in range(n):
        S[s, PUPPTS] = S[s, PUP] * S[s, RES]
        S[s, TOTAL] = S[s, TILEPTS] + S[s, PUPPTS] + S[s, BONUS]


@njit(cache=True)
def winner_of(g) -> int:
    """Most points; tie: the seat that ran out first; still tied: -1 (shared)."""
    S = g[0][4:8]
    G = g[0][21]
    best, who, tied = -1, -1, False
    for s in range(G[G_NS]):
        key = S[s, TOTAL] * 1000 + (999 - S[s, OUT] if S[s, OUT] > 0 else 0)
        if key > best:
            best, who, tied = key, s, False
        elif key == best:
            tied = True
    return -1 if tied else who


