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
play unrestricted.

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

import numbers
from collections.abc import Mapping

import numpy as np

from ..engine._jit import njit
from .evaluation import expected_tile_values, race_values
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
    placement_options,
    queen_options,
    rand_below,
    recall_options,
    swap_options,
    tile_points,
    tile_values,
)

__all__ = ["POLICIES", "PARAM_NAMES", "HEURISTIC_DEFAULTS", "EXPECTIMAX_DEFAULTS", "SEARCH_DEFAULTS", "policy_row",
           "policy_name", "RANDOM", "PARAM", "SEARCH", "N_PRM", "RESTRICTIONS", "FORBIDDEN", "MCTS_LATE",
           "MCTS_V1", "MCTS_CUT", "MCTS_V2", "EXPECTIMAX_V2", "HEURISTIC_V2", "NAMED_PLAYERS"]

RANDOM, PARAM, SEARCH = 0, 1, 2
PARAM_NAMES = ("w_opp", "guardian_value", "pup_value", "burrow_cost", "queen_bonus", "reroll", "oasis")
P_WOPP, P_GUARD, P_PUP, P_BURROW, P_QUEEN, P_REROLL, P_OASIS = range(7)
#: Columns of a parameter row beyond the heuristic's weights.
P_FUTURE, P_MPT, P_BUDGET, P_CANDS, P_MARGIN, P_SREROLL, P_HALVING, P_OWNREST, P_SWITCHZ = 8, 9, 10, 11, 12, 13, 14, 15, 7
#: The race weight (16) of the expectimax player, the search's ``search_supply`` (17), ``depth`` (18) and
#: ``win_scale`` (19).
P_RACE, P_SSUPPLY, P_DEPTH, P_WSCALE = 16, 17, 18, 19
ROLL0 = 20
N_PRM = 40
GREEDY_PARAMS = (1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0)
HEURISTIC_DEFAULTS = {"w_opp": 0.5, "guardian_value": 2.0, "pup_value": 1.5, "burrow_cost": 1.0,
                      "queen_bonus": 2.0, "reroll": 1.0, "oasis": 1.0}
#: Value (in points, negated) a restricted player gives a forbidden option.
FORBIDDEN = 1e9
#: Restrictions of restricted play: name -> (one-line description, parameter settings).
RESTRICTIONS = {
    "no_queen": ("never places the queen (she is forfeited at the end)", {"queen_bonus": -FORBIDDEN}),
    "no_reroll": ("never uses the optional reroll", {"reroll": 0.0}),
    "no_guardians": ("never takes a guardian (by placement or blue oasis token)", {"guardian_value": -FORBIDDEN}),
    "no_burrows": ("never takes a burrow action", {"burrow_cost": FORBIDDEN}),
    "no_oasis": ("ignores the oases: never activates an oasis token nor moves one by burrow action",
                 {"oasis": 0.0}),
}
#: The expectimax player: the heuristic's weights, the expected end-of-game evaluation (``future`` 0.5 measured
#: best of 0.25 / 0.5 / 0.75 / 1 against the heuristic, 2 players + automa and 3 players).
EXPECTIMAX_DEFAULTS = {**HEURISTIC_DEFAULTS, "future": 0.5, "meerkats_per_turn": 2.2, "race": 0.0}
#: The search player: its own decisions and candidate ranking by ``own`` (a policy name), ``budget`` rollouts per
#: decision over the ``candidates`` best options of ``own`` (common random numbers: every candidate meets the same
#: sampled dice and bag draws), rollouts played by ``rollout`` for every player; a rollout's value is the
#: win (1, shared wins split) plus ``margin_weight`` x the points margin over the best other seat / 20 (clipped to
#: +-1); ``search_reroll`` 1 = the reroll is searched too (0 = ``own`` decides it); ``halving`` 1 = successive
#: halving over the candidates; ``own_rest`` 1 = the rest of the searched turn is played by ``own`` in the rollouts
#: too (0: by ``rollout``, twice as fast); ``switch_z``: the search departs from ``own``'s choice only when the
#: best candidate beats it with a paired t statistic above this; ``search_supply``: the search decides only the
#: turns where the seat has at most this many meerkats left in its supply, earlier turns are played by ``own``
#: (100, the default: every turn; ``mcts_late``: 12); ``depth``: 0 = rollouts to the end of the game, D > 0 =
#: truncated rollouts, D turns after the candidate and then the expectimax evaluation of the position, its win
#: chance from the expected margin over ``win_scale`` points (:func:`.search.cut_value`; ``mcts_cut``).
SEARCH_DEFAULTS = {"budget": 100, "candidates": 6, "margin_weight": 0.25, "search_reroll": 1, "halving": 1,
                   "own_rest": 0, "switch_z": 1.0, "own": "expectimax", "rollout": "heuristic", "search_supply": 100,
                   "depth": 0, "win_scale": 6.0}
#: ``"mcts_late"``: the search in the seat's last turns only (at most 12 meerkats left), the action searched with 80
#: rollouts, the reroll by ``own``: about a sixth of ``mcts``'s CPU (at most 20x expectimax's, issue 27) and
#: weaker than it head to head (0.46 [0.44, 0.48], docs/guide/meerkat.md "Cost, and the report player").
MCTS_LATE = {"budget": 80, "search_reroll": 0, "search_supply": 12}
#: ``"mcts_cut"``: truncated rollouts (issue 27): every turn searched, each rollout plays ``depth`` turns after the
#: candidate and ends in the expectimax evaluation of the position (:func:`.search.cut_value`), 40 rollouts, the
#: reroll by ``own``: about 14x expectimax's CPU per game but clearly weaker than ``mcts_v1`` head to head (0.35
#: [0.31, 0.40], 402 games; the best of the truncated settings tried, docs/guide/meerkat.md "Truncated rollouts").
MCTS_CUT = {"budget": 40, "depth": 3, "search_reroll": 0, "win_scale": 6.0}
#: ``"mcts_v1"``: the search player of issue 12, frozen (every parameter spelled out, so a later change of
#: :data:`SEARCH_DEFAULTS` leaves it alone): every turn searched, 100 rollouts per decision played to the end of
#: the game; the reference of issue 27's ladders (docs/guide/meerkat.md).
MCTS_V1 = {"budget": 100, "candidates": 6, "margin_weight": 0.25, "search_reroll": 1, "halving": 1, "own_rest": 0,
           "switch_z": 1.0, "own": "expectimax", "rollout": "heuristic", "search_supply": 100, "depth": 0}
#: ``"expectimax_v2"``: the expectimax player with ``burrow_cost`` 8 instead of the heuristic's 1 (issue 27): a meerkat
#: spent on a burrow space is worth far more than the heuristic's 1 point (it is a meerkat less on the tiles), and
#: the player that takes a burrow action only for a gain above 8 beats :data:`EXPECTIMAX_DEFAULTS` 0.75 head to head
#: (2 players + automa) and ``mcts_v1`` 0.56; its other weights measured flat around the defaults.  Every parameter
#: spelled out (frozen, like :data:`MCTS_V1`).
EXPECTIMAX_V2 = {"w_opp": 0.5, "guardian_value": 2.0, "pup_value": 1.5, "burrow_cost": 8.0, "queen_bonus": 2.0,
                 "reroll": 1.0, "oasis": 1.0, "future": 0.5, "meerkats_per_turn": 2.2, "race": 0.0}
#: ``"heuristic_v2"``: the heuristic with ``burrow_cost`` 10 (beats :data:`HEURISTIC_DEFAULTS` 0.73 head to head,
#: 2 players + automa); the rollout policy of ``mcts_v2``.
HEURISTIC_V2 = {"w_opp": 0.5, "guardian_value": 2.0, "pup_value": 1.5, "burrow_cost": 10.0, "queen_bonus": 2.0,
                "reroll": 1.0, "oasis": 1.0}
#: ``"mcts_v2"`` (issue 27, the report player): the search of :data:`MCTS_LATE` on the tuned players, searching the
#: action (the reroll by ``own``) of the turns with at most 8 meerkats left, 48 rollouts per decision played by
#: ``heuristic_v2``, the rest by ``expectimax_v2``: 7-13x expectimax's CPU per game (2 players + automa), and it
#: beats ``mcts_v1`` 0.72 [0.70, 0.74] and ``mcts_late`` 0.78 head to head (2,001 games each; docs/guide/meerkat.md,
#: "The tuned players").
MCTS_V2 = {"budget": 48, "candidates": 6, "margin_weight": 0.25, "search_reroll": 0, "halving": 1, "own_rest": 0,
           "switch_z": 1.0, "own": ("expectimax", EXPECTIMAX_V2), "rollout": ("heuristic", HEURISTIC_V2),
           "search_supply": 8, "depth": 0, "win_scale": 6.0}
#: Strength order, weakest first, measured head to head in the rules' setups (docs/guide/meerkat.md, "Strong
#: players"): greedy wins 0.28 of 2 players + automa games against the heuristic and 0.24 of 3-player games
#: against two (it is level with it only in 2 players without the automa, an extension).
POLICIES = ("random_legal", "greedy", "heuristic", "expectimax", "mcts_late", "mcts", "mcts_v2")
#: The named players with frozen parameters: name -> (kind, every parameter); a search player also takes
#: ``"name:N"`` (N rollouts per decision).  Registered (:data:`POLICIES`) or used as references in ladders.
NAMED_PLAYERS = {"mcts_v1": ("mcts", MCTS_V1), "mcts_cut": ("mcts", {**MCTS_V1, **MCTS_CUT}),
                 "mcts_late": ("mcts", {**MCTS_V1, **MCTS_LATE}), "mcts_v2": ("mcts", MCTS_V2),
                 "expectimax_v2": ("expectimax", EXPECTIMAX_V2), "heuristic_v2": ("heuristic", HEURISTIC_V2)}
NEG = -1e18


def _merge(kind: str, defaults: dict, params) -> dict:
    merged = dict(defaults)
    for k, v in (params or {}).items():
        if k not in merged:
            raise ValueError(f"policies: unknown {kind} parameter {k!r}; allowed {list(defaults)}")
        if isinstance(defaults[k], str):
            merged[k] = v
            continue
        if isinstance(v, bool) or not isinstance(v, numbers.Real) or not np.isfinite(v):
            raise ValueError(f"policies: {kind} parameter {k} must be a finite number, got {v!r}")
        merged[k] = float(v)
    return merged


def _row(params: dict) -> np.ndarray:
    row = np.zeros(N_PRM)
    row[:len(PARAM_NAMES)] = [params[k] for k in PARAM_NAMES]
    row[P_FUTURE] = params.get("future", 0.0)
    row[P_MPT] = params.get("meerkats_per_turn", 0.0)
    row[P_RACE] = params.get("race", 0.0)
    return row


def _search_row(params) -> np.ndarray:
    p = _merge("mcts", SEARCH_DEFAULTS, params)
    checks = {"budget": (1, 100_000), "candidates": (1, 32), "search_reroll": (0, 1), "halving": (0, 1),
              "own_rest": (0, 1), "search_supply": (0, 100), "depth": (0, 600)}
    for k, (lo, hi) in checks.items():
        if p[k] != int(p[k]) or not lo <= p[k] <= hi:
            raise ValueError(f"policies: mcts parameter {k} must be an integer in {lo}..{hi}, got {p[k]!r}")
    for k in ("margin_weight", "switch_z"):
        if not 0 <= p[k] <= 100:
            raise ValueError(f"policies: mcts parameter {k} must be in 0..100, got {p[k]!r}")
    if not 0 < p["win_scale"] <= 100:
        raise ValueError(f"policies: mcts parameter win_scale must be in (0, 100], got {p['win_scale']!r}")
    rows = {}
    for k in ("own", "rollout"):
        pid, r = policy_row(p[k])
        if pid != PARAM:
            raise ValueError(f"policies: mcts parameter {k} must be greedy, heuristic or expectimax (or their "
                             f"parameters), got {p[k]!r}")
        rows[k] = r
    row = rows["own"].copy()
    row[P_BUDGET], row[P_CANDS] = p["budget"], p["candidates"]
    row[P_MARGIN], row[P_SREROLL], row[P_HALVING] = p["margin_weight"], p["search_reroll"], p["halving"]
    row[P_OWNREST], row[P_SWITCHZ] = p["own_rest"], p["switch_z"]
    row[ROLL0:] = rows["rollout"][:N_PRM - ROLL0]
    row[P_SSUPPLY] = p["search_supply"]
    row[P_DEPTH], row[P_WSCALE] = p["depth"], p["win_scale"]
    return row


def policy_row(policy) -> tuple[int, np.ndarray]:
    """(policy id, parameter row of :data:`N_PRM` numbers) for a policy name (:data:`POLICIES`, ``"mcts:N"``),
    ``("heuristic" | "expectimax" | "mcts", {params})`` or a heuristic params dict.

    Raises ValueError naming ``policies`` for unknown names or parameters.
    """
    params = None
    if isinstance(policy, str) and "/" in policy:
        base, *restrictions = policy.split("/")
        pid, row = policy_row(base)
        if pid == RANDOM:
            raise ValueError(f"policies: restrictions apply to greedy, heuristic, expectimax and mcts players, "
                             f"got {policy!r}")
        for r in restrictions:
            if r.strip() not in RESTRICTIONS:
                raise ValueError(f"policies: restriction must be one of {sorted(RESTRICTIONS)}, got {r!r}")
            for k, v in RESTRICTIONS[r.strip()][1].items():
                row[PARAM_NAMES.index(k)] = v
        return pid, row
    if isinstance(policy, tuple) and len(policy) == 2 and policy[0] in ("heuristic", "expectimax", "mcts"):
        if not isinstance(policy[1], Mapping):
            raise ValueError(f"policies: parameters of {policy[0]} must be a dict, got {policy[1]!r}")
        policy, params = policy[0], dict(policy[1])
    elif isinstance(policy, dict):
        policy, params = "heuristic", dict(policy)
    if isinstance(policy, str) and policy.partition(":")[0] in NAMED_PLAYERS:
        name, sep, budget = policy.partition(":")
        kind, frozen = NAMED_PLAYERS[name]
        params = dict(frozen)
        if sep:  # "name:N": the same search with N rollouts per decision
            if kind != "mcts":
                raise ValueError(f"policies: {name} takes no ':N' (only search players take a rollout count), "
                                 f"got {policy!r}")
            if not budget.isdigit():
                raise ValueError(f"policies: '{name}:N' needs a whole number of rollouts N, got {policy!r}")
            params["budget"] = int(budget)
        policy = kind
    if isinstance(policy, str) and policy.startswith("mcts:"):
        budget = policy[5:]
        if not budget.isdigit():
            raise ValueError(f"policies: 'mcts:N' needs a whole number of rollouts N, got {policy!r}")
        policy, params = "mcts", {"budget": int(budget)}
    if not isinstance(policy, str):
        raise ValueError(f"policies must name one of {list(POLICIES)} or 'mcts:N' (or give parameters), "
                         f"got {policy!r}")
    if policy == "random_legal":
        return RANDOM, np.zeros(N_PRM)
    if policy == "greedy":
        return PARAM, _row(dict(zip(PARAM_NAMES, GREEDY_PARAMS)))
    if policy == "heuristic":
        return PARAM, _row(_merge("heuristic", HEURISTIC_DEFAULTS, params))
    if policy == "expectimax":
        p = _merge("expectimax", EXPECTIMAX_DEFAULTS, params)
        if not 0 <= p["future"] <= 1 or not 0.5 <= p["meerkats_per_turn"] <= 3 or not 0 <= p["race"] <= 1:
            raise ValueError("policies: expectimax parameters future and race must be in 0..1 and "
                             f"meerkats_per_turn in 0.5..3, got {p['future']!r}, {p['race']!r}, "
                             f"{p['meerkats_per_turn']!r}")
        return PARAM, _row(p)
    if policy == "mcts":
        return SEARCH, _search_row(params)
    raise ValueError(f"policies must name one of {list(POLICIES)} or 'mcts:N' (or give parameters), got {policy!r}")


def policy_name(policy) -> str:
    """The name a policy carries in result tables: its name, ``"mcts:N"``, or ``"<kind>*"`` for parameters."""
    if isinstance(policy, str):
        return policy
    if isinstance(policy, tuple) and len(policy) == 2 and isinstance(policy[0], str):
        return f"{policy[0]}*"
    return "heuristic*"


# ----------------------------------------------------------------------------------------- tile values
@njit(**INTERNAL)
def values_of(g, s: int, t: int, w: float, adds, m: int, out) -> None:
    """Seat ``s``'s value of tile ``t`` for ``m`` variants of its strength there (:func:`.rules.tile_values`):
    scored now, or (parameter ``future`` > 0, the expectimax player) expected at the end of the game
    (:func:`.evaluation.expected_tile_values`)."""
    prm = g[2]
    if prm[s, P_FUTURE] > 0:
        expected_tile_values(g, s, t, w, prm[s, P_FUTURE], prm[s, P_MPT], adds, m, out)
    else:
        tile_values(g, s, t, w, adds, m, out)


@njit(**INTERNAL)
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


@njit(**INTERNAL)
def value_of(g, s: int, t: int, w: float) -> float:
    """:func:`values_of` of tile ``t`` as it stands."""
    out = np.zeros(1)
    values_of(g, s, t, w, np.zeros(1, np.int64), np.int64(1), out)
    return out[0]


# ----------------------------------------------------------------------------------------- placement
@njit(**INTERNAL)
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


@njit(**INTERNAL)
def keep_values(g, d0: int, d1: int, d2: int, tab, gval: float, vals) -> None:
    """``vals[mask]``: the exact expected best option value after keeping the dice of ``mask`` (bit i = keep die
    i) and rerolling the others, every reroll outcome enumerated; ``vals[7]``: the value of this roll."""
    K = g[0][64]
    best_die = np.full((7, 13), NEG)
    die_table(tab, K, best_die)
    rv = np.empty((7, 7, 7))
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


@njit(**INTERNAL)
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


@njit(**INTERNAL)
def choose_action(g, s: int, d0: int, d1: int, d2: int, tab, gval: float) -> int:
    """0 = take a guardian; otherwise ``tile * 8 + n`` (n = 1..3 meerkats, 4 = the queen)."""
    S = g[0][4:8]
    g[0][64]
    opts = np.empty(128, np.int64)
    m = placement_options(g, s, d0, d1, d2, opts)
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
def memo_value(g, s: int, o: int, t: int, d: int, w: float, memo) -> float:
    """:func:`.rules.tile_value` of tile ``t`` for seat ``s`` with ``s``'s count there changed by ``d``
    (-1, 0, +1) and seat ``o``'s by ``-d`` (``o == s``: nobody else's), memoised in ``memo[d + 1, o, t]``
    (NaN = not computed yet).  A tile's value depends on its own column only, so one evaluation serves every
    option that changes the tile the same way (values identical to evaluating each option afresh)."""
    v = memo[d + 1, o, t]
    if v != v:
        C = g[0]  # rows 0..3 of the work array: meerkats per seat and tile
        C[s, t] += d
        if o != s:
            C[o, t] -= d
        v = value_of(g, s, t, w)
        C[s, t] -= d
        if o != s:
            C[o, t] += d
        memo[d + 1, o, t] = v
    return v


@njit(**INTERNAL)
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
    best, code = NEG, -1
    for j in range(m):
        c = opts[j]
        if kind == 0 or kind == 1:  # a move (a -> b) or a swap (a <-> b with seat o)
            cc = c // 8 if kind == 1 else c
            a, b = cc // 16, cc % 16
            o = c % 8 if kind == 1 else s
            before = 0.0 + memo_value(g, s, s, a, np.int64(0), w, memo) + memo_value(g, s, s, b, np.int64(0), w, memo)
            after = 0.0 + memo_value(g, s, o, a, np.int64(-1), w, memo) + memo_value(g, s, o, b, np.int64(1), w, memo)
            v = after - before
        elif kind == 2:
            if c >= 100:
                v = 0.0
            else:
                v = memo_value(g, s, s, c, np.int64(-1), w, memo) - memo_value(g, s, s, c, np.int64(0), w, memo)
        elif kind == 3:  # the queen q -> c: tile q without her (the same for every c), tile c with her
            q = S[s, QUEEN]
            before = 0.0 + memo_value(g, s, s, q, np.int64(0), w, memo) + memo_value(g, s, s, c, np.int64(0), w, memo)
            if extra[0, q] != extra[0, q]:
                S[s, QUEEN] = 0
                extra[0, q] = value_of(g, s, q, w)
            S[s, QUEEN] = c
            v = (0.0 + extra[0, q] + value_of(g, s, c, w)) - before
            S[s, QUEEN] = q
        else:  # an oasis token f -> t; only the +3 and reverse tokens change what a tile pays
            f, t = c // 16, c % 16
            k = T[f, TOK]
            if k != T_PLUS3 and k != T_REVERSE:
                v = 0.0
            else:
                before = 0.0 + memo_value(g, s, s, f, np.int64(0), w, memo) + memo_value(g, s, s, t, np.int64(0), w, memo)
                r = 1 if k == T_PLUS3 else 2
                T[t, TOK], T[f, TOK] = k, 0
                if extra[0, f] != extra[0, f]:
                    extra[0, f] = value_of(g, s, f, w)
                if extra[r, t] != extra[r, t]:
                    extra[r, t] = value_of(g, s, t, w)
                T[f, TOK], T[t, TOK] = k, 0
                v = (0.0 + extra[0, f] + extra[r, t]) - before
        if v > best + 1e-12:
            best, code = v, c
    return best, code


@njit(**INTERNAL)
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


@njit(**INTERNAL)
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


@njit(**INTERNAL)
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
@njit(**INTERNAL)
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
