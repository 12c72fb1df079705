"""The table companion for Meerkat Kingdom: which dice to keep for the reroll, then which action to take.

A **position** is what the player about to decide sees: the dice just rolled (and whether the optional reroll
is used up), every seat's meerkats on the ten desert tiles, queens, supplies, guardians in reserve, pups,
meerkats lost, bonus points taken and burrow action spaces used, the oasis tokens on the tiles, the
wandering male's tile and the bonus tokens taken.  :func:`load_position` reads one from a TOML or JSON file
(validated by the schema machinery of the component files: an error names the key), :func:`position_from_game`
rebuilds the position at turn K of a seeded game (the turn numbers of the transcript), and :func:`advise` ranks
the options of the decision at hand with the evaluation of a strong player:

- **the reroll** (``stage = "reroll"``): the 8 keep choices (keep all = no reroll, or reroll any of the dice),
  each valued by the **exact** expectation over every reroll outcome of the best action then (the
  ``expectimax`` player's :func:`.policies.keep_values`, 6 ** rerolled dice outcomes enumerated), with
  ``p_better`` (the chance the reroll beats the best action of the dice as they stand) and ``then``;
- **the action** (``stage = "action"``: the reroll used or declined): every legal placement (which die counts, so how
  many meerkats or the queen, on which tile) and the guardian, valued by the player's evaluation of the board
  after it (:func:`.policies.placement_table`: the expected end-of-game majority points from
  :mod:`.evaluation` for ``expectimax``), with a ``why`` ("takes the majority on tile 9").

Every value is exact (``se`` and the interval are NaN: the expectimax player enumerates, it does not sample).

The position format and the replay of seeded games live in the private module ``_position`` (re-exported
here); this module ranks.

Examples
--------
>>> from pyradice_lab.meerkat.advisor import advise, position_from_game
>>> pos = position_from_game(1, 2)             # turn 2 of the seeded 3-player game 1 (expectimax players)
>>> df = advise(pos)
>>> bool(df["keep"].iloc[0] == pos.played)
True
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pandas as pd

from ..engine.positions import check_choice, exact_columns
from ._position import (
    _TOKENS as _TOKENS,
    BURROW_ACTIONS,
    Position,
    _setup,
    load_position,
    position_from_game,
    position_spec,
    positions_from_game,
)
from .rules import (
    AUTO,
    BONUS,
    BOX,
    BUR,
    G_FIRST,
    G_MALE,
    G_NS,
    G_NTOK,
    G_POS,
    G_TOKENS,
    G_TURN,
    OUT,
    PUP,
    QUEEN,
    RES,
    SUP,
    TOK,
    TOKEN_NAMES,
)

__all__ = ["advise", "Position", "load_position", "position_from_game", "positions_from_game", "position_spec",
           "OBJECTIVES", "POLICIES", "BURROW_ACTIONS"]

#: what :func:`advise` maximises
OBJECTIVES = {"margin": "expected end-of-game points margin (own minus w_opp x the others' mean)",
              "points": "expected end-of-game points (own)"}
#: the players whose evaluation :func:`advise` uses (all exact: no sampling)
POLICIES = ("expectimax", "expectimax_v2", "heuristic", "greedy")
_KEEP_ORDER = (7, 6, 5, 4, 3, 2, 1, 0)


@cache
def _twins() -> dict:
    from .sim import python_twins

    return python_twins()


def _game(pos: Position, policy: str, objective: str):
    """The engine state of the position (pure-Python twin arrays), the mover playing ``policy``."""
    from .policies import P_WOPP
    from .sim import TAPE, _readings_k, _seat_config

    tw = _twins()
    st = _setup(pos.comp)
    d = pos.doc
    n, pols, prm, _ = _seat_config(pos.players, pos.automa, [policy] * pos.players)
    if objective == "points":
        prm[:, P_WOPP] = 0.0
    K = _readings_k(st.K, "literal", "literal")
    tapes = np.zeros((2, TAPE), dtype=np.uint32)
    g = tw["new_game"](n, pos.automa, pols, prm, st.V, K, tapes, st.bags, st.nblue, st.nbrown,
                       st.comp.male_start_tile, 0)
    W = g[0]
    layout = d.get("layout") or list(range(3, 13))
    where = {t: i for i, t in enumerate(layout)}
    A, D = W[38:51], W[51:64]
    for t in range(3, 13):
        for u in range(3, 13):
            A[t, u] = st.pos_adj[where[t], where[u]]
            D[t, u] = 0 if t == u else (1 if A[t, u] else 99)
    for k in range(3, 13):
        for i in range(3, 13):
            for j in range(3, 13):
                D[i, j] = min(D[i, j], D[i, k] + D[k, j])
    tw["store_model"](g)
    S, T, G = W[4:8], W[8:21], W[21]
    for s, e in enumerate(d["seat"]):
        for t, c in e["meerkats"].items():
            W[s, int(t)] = c
        S[s, SUP], S[s, QUEEN], S[s, RES], S[s, PUP] = e["supply"], e["queen"], e["reserve"], e["pups"]
        S[s, BOX], S[s, BONUS], S[s, OUT] = e["lost"], e["bonus"], e["out"]
        for b in e["burrow"]:
            S[s, BUR + BURROW_ACTIONS.index(b)] = 1
    for t, name in d["tokens"].items():
        T[int(t), TOK] = TOKEN_NAMES.index(name)
    for t in st.oasis:
        T[t, 3] = 1          # PIC: the oasis pictures
    G[G_MALE], G[G_TURN], G[G_FIRST], G[G_TOKENS] = d["male"], d["turn"] - 1, d["first_player"] - 1, d["bonus_taken"]
    G[G_POS] = (d["to_move"] - d["first_player"]) % n + 1
    assert G[G_NS] == n and G[G_NTOK] == n - 1 and S[n - 1, AUTO] == int(pos.automa)
    return g


# ------------------------------------------------------------------------------------------ advise
def _action_text(code: int) -> str:
    if code == 0:
        return "guardian"
    t, k = code // 8, code % 8
    return f"queen on {t}" if k == 4 else f"{k} on {t}"


def _strength(pos, t, extra=0, queen=False):
    d = pos.doc
    out = []
    for s, e in enumerate(d["seat"]):
        v = 2 * int(e["meerkats"].get(str(t), 0)) + (5 if e["queen"] == t else 0)
        if s == pos.seat:
            v += 2 * extra + (5 if queen else 0)
        out.append(v)
    return out


def _standing(st, s) -> str:
    """Where seat ``s`` stands on a tile: 'first', 'second', ..., 'cancelled', 'absent'."""
    if st[s] == 0:
        return "absent"
    if sum(1 for x in st if x == st[s]) > 1:
        return "cancelled"
    alive = [x for x in st if x > 0 and sum(1 for y in st if y == x) == 1]
    rank = sum(1 for x in alive if x > st[s])
    return ("first", "second", "third", "fourth")[rank]


def _why_action(pos, code, value, best_gain) -> str:
    d = pos.doc
    s = pos.seat
    e = d["seat"][s]
    if code == 0:
        return f"a guardian in reserve (pups {e['pups']} x guardians {e['reserve'] + 1} at the end)"
    t, k = code // 8, code % 8
    queen = k == 4
    n = 0 if queen else min(k, e["supply"])
    before, after = _strength(pos, t), _strength(pos, t, n, queen)
    b, a = _standing(before, s), _standing(after, s)
    what = "the queen (2.5, protects the tile)" if queen else f"{n} meerkat{'s' if n != 1 else ''}"
    if a == "first" and b != "first":
        why = f"takes the majority on tile {t}"
    elif a == "first":
        why = f"strengthens the majority on tile {t}"
    elif a == "cancelled":
        others = [o for o in range(len(after)) if o != s and after[o] == after[s]]
        why = f"ties seat {others[0] + 1} on tile {t} (both cancel)" if others else f"ties on tile {t}"  # from 1
    elif b == "cancelled" or b == "absent":
        why = f"takes {a} place on tile {t}"
    else:
        why = f"{a} place on tile {t}" + (" (up from " + b + ")" if a != b else "")
    extra = []
    if t == d["male"]:
        extra.append("activates the wandering male")
    tok = d["tokens"].get(str(t))
    if tok:
        extra.append(f"may use the {tok} token")
    if not queen and e["supply"] - n <= 0 and e["out"] == 0 and d["bonus_taken"] < pos.seats - 1:
        extra.append("takes a bonus token (runs out)")
    return f"{what}: {why}" + ("; " + ", ".join(extra) if extra else "")


def advise(position, *, objective: str = "margin", policy: str = "expectimax_v2", rng=None,
           components=None) -> pd.DataFrame:
    """Rank the options of the decision at hand: which dice to keep for the reroll, or which action to take.

    Parameters
    ----------
    position : Position, path or mapping
        The table (see :func:`load_position`, :func:`position_from_game`).
    objective : {"margin", "points"}
        ``"margin"``: the player's evaluation (its expected end-of-game points on the tiles minus ``w_opp`` x the
        others' mean, plus the bonus it takes and what it credits a guardian or the queen); ``"points"``: the
        same with ``w_opp = 0`` (own points only).
    policy : {"expectimax", "expectimax_v2", "heuristic", "greedy"}
        Whose evaluation: ``expectimax_v2`` (the default: expected end-of-game majorities with issue 27's tuned
        burrow cost, what the report player ``mcts_v2`` plays on every decision it does not search; the report
        player itself gives no value per option), ``expectimax`` (the untuned one, the default before issue 43)
        or the players that score the tiles as they stand.
    rng : None, seed or Generator
        Checked like every advisor's (a bad seed is refused naming ``rng``) but not drawn from: every value is
        exact.
    components : path or Components, optional
        For a position given as a path or mapping.

    Returns
    -------
    DataFrame
        Best first.  The reroll decision: ``keep`` (mask, bit i = keep die i; 7 = no reroll), ``option``
        ("keep 6 5, reroll 1 die"), ``value`` (exact expected value of the best action after it, over every
        reroll outcome), ``se``/``ci_low``/``ci_high`` (NaN: exact), ``regret``, ``p_better`` (chance the reroll
        beats the best action of the dice as they stand), ``then``, ``why``.  The action decision: ``action``
        (code), ``option`` ("2 on 9", "queen on 6", "guardian"), ``tile``, ``meerkats`` (-1 the queen),
        ``value``, ``se``, ``ci_low``, ``ci_high``, ``regret``, ``then``, ``why``.  ``objective``; attrs
        ``decision`` ("reroll" or "action"), ``chosen`` (what the player itself picks).

    Raises
    ------
    ValueError
        If the position is invalid (naming the key), or ``objective`` or ``policy`` is not allowed.

    Examples
    --------
    >>> df = advise(position_from_game(1, 1, players=2, after_reroll=True))
    >>> df["option"].iloc[0], df.attrs["decision"]
    ('queen on 9', 'action')
    """
    from ..engine.rng import as_generator

    check_choice(objective, "objective", OBJECTIVES)
    check_choice(policy, "policy", POLICIES)
    as_generator(rng)  # refused naming rng when it is no seed; never drawn from (exact)
    pos = load_position(position, components=components)
    tw = _twins()
    g = _game(pos, policy, objective)
    s = pos.seat
    d0, d1, d2 = pos.roll
    tab = np.zeros((13, 4))
    gval = tw["placement_table"](g, s, tab)
    actions = _actions(tw, g, s, (d0, d1, d2), tab, gval)
    if pos.stage == "action":
        chosen = int(tw["choose_action"](g, s, d0, d1, d2, tab, gval))
        best_gain = max(v for _, v in actions)
        rows = []
        for code, v in actions:
            t, k = (code // 8, code % 8) if code else (None, None)
            then = []
            if code and t == pos.doc["male"]:
                then.append("activate the wandering male")
            if code and pos.doc["tokens"].get(str(t)):
                then.append(f"the {pos.doc['tokens'][str(t)]} token on tile {t}")
            then.append("then one burrow action (optional)")
            rows.append((code, _action_text(code), t, (-1 if k == 4 else k) if code else 0, v,
                         "; ".join(then), _why_action(pos, code, v, best_gain)))
        df = pd.DataFrame(rows, columns=["action", "option", "tile", "meerkats", "value", "then", "why"])
        first = df["action"] == chosen
        df = pd.concat([df[first], df[~first]]).sort_values("value", ascending=False, kind="stable")
        df = exact_columns(df.reset_index(drop=True), 5)
        df.attrs.update(decision="action", chosen=chosen)
    else:
        vals = np.empty(8)
        tw["keep_values"](g, d0, d1, d2, tab, gval, vals)
        chosen = int(tw["choose_keep"](g, s, d0, d1, d2, tab, gval))
        rv = _roll_values(tw, g, tab, gval)
        now = rv[d0, d1, d2]
        best_now = max(actions, key=lambda cv: cv[1])
        rows, seen = [], set()
        dice = (d0, d1, d2)
        S0 = g[0][4:8]
        for mask in _KEEP_ORDER:
            kept = [dice[i] for i in range(3) if mask >> i & 1]
            nre = 3 - len(kept)
            if mask == 7:
                label, p_better = "no reroll", 0.0
                then = f"then {_action_text(best_now[0])} (value {best_now[1]:.3f})"
                why = "the dice as they stand"
            else:
                label = (f"keep {' '.join(map(str, kept))}, " if kept else "") + f"reroll {nre} di{'ce' if nre > 1 else 'e'}"
                outs = _outcomes(dice, mask)
                p_better = float(np.mean([rv[a, b, c] > now + 1e-12 for a, b, c in outs]))
                then = "then the best action of the new roll"
                why = f"beats the dice as they stand with p {p_better:.2f}"
                K = g[0][64]
                big = sorted({x for x in kept if K[6 + x] == 1 and S0[s, QUEEN] == 0})
                if big:
                    why = f"keeps the {'/'.join(map(str, big))} for the queen (or 3 meerkats); " + why
            key = tuple(sorted(kept))
            if key in seen:              # keeping the same dice (a pair rolled) is the same option
                continue
            seen.add(key)
            rows.append((mask, label, vals[mask] if mask != 7 else vals[7], p_better, then, why))
        df = pd.DataFrame(rows, columns=["keep", "option", "value", "p_better", "then", "why"])
        first = df["keep"] == chosen
        df = pd.concat([df[first], df[~first]]).sort_values("value", ascending=False, kind="stable")
        df = exact_columns(df.reset_index(drop=True), 3)
        df.attrs.update(decision="reroll", chosen=chosen)
    df["objective"] = OBJECTIVES[objective]
    df.attrs.update(objective=OBJECTIVES[objective], policy=policy, position=pos)
    return df


def _actions(tw, g, s, dice, tab, gval) -> list[tuple[int, float]]:
    """Every legal action of the dice with the player's value (the order of :func:`.rules.placement_options`)."""
    opts = np.empty(128, np.int64)
    m = tw["placement_options"](g, s, dice[0], dice[1], dice[2], opts)
    out = []
    for j in range(m):
        code = int(opts[j])
        if code == 0:
            out.append((0, float(gval)))
        else:
            t, n = code // 8, code % 8
            out.append((code, float(tab[t, 3] if n == 4 else tab[t, n - 1])))
    return out


def _roll_values(tw, g, tab, gval) -> np.ndarray:
    """``rv[a, b, c]``: the best action value of every roll (the player's own :func:`.policies.roll_value`)."""
    K = g[0][64]
    best_die = np.full((7, 13), -1e18)
    tw["die_table"](tab, K, best_die)
    rv = np.zeros((7, 7, 7))
    for a in range(1, 7):
        for b in range(1, 7):
            for c in range(1, 7):
                rv[a, b, c] = tw["roll_value"](a, b, c, best_die, gval)
    return rv


def _outcomes(dice, mask):
    import itertools

    ranges = [(dice[i],) if mask >> i & 1 else range(1, 7) for i in range(3)]
    return list(itertools.product(*ranges))
