"""The named Meerkat Kingdom players as data: the parameter row of each policy (its columns ``P_*``), the defaults
and frozen parameter sets, :func:`policy_row` and :func:`policy_name` (re-exported by
:mod:`pyradice_lab.meerkat.policies`, whose jitted decisions read the rows).
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping

import numpy as np

RANDOM, PARAM, SEARCH = 0, 1, 2
PARAM_NAMES = ("w_opp", "guardian_value", "pup_value", "burrow_cost", "queen_bonus", "reroll", "oasis")
P_WOPP, P_GUARD, P_PUP, P_BURROW, P_QUEEN, P_REROLL, P_OASIS = range(7)
#: Columns of a parameter row beyond the heuristic's weights.
P_FUTURE, P_MPT, P_BUDGET, P_CANDS, P_MARGIN, P_SREROLL, P_HALVING, P_OWNREST, P_SWITCHZ = 8, 9, 10, 11, 12, 13, 14, 15, 7
#: The race weight (16) of the expectimax player, the search's ``search_supply`` (17), ``depth`` (18) and
#: ``win_scale`` (19).
P_RACE, P_SSUPPLY, P_DEPTH, P_WSCALE = 16, 17, 18, 19
ROLL0 = 20
#: Columns of the rollout policy's row copied from column :data:`ROLL0` on (its weights and evaluation).
ROLL_N = 20
#: The tiles a restricted player never commits to (``no_tile:T``): a bit mask, bit T set for tile T (0: none).
P_NOTILE = 40
N_PRM = 41
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
    # a restriction with an argument (restricted play names it ``no_tile:7``): :data:`P_NOTILE`'s bit T
    "no_tile:<T>": ("never commits a meerkat or the queen to tile T (3..12): no placement, move, swap or queen "
                    "move there", {}),
}
#: The tiles of the board (the two-dice sums a placement reads), the arguments of ``no_tile:T``.
TILES = tuple(range(3, 13))


def tile_mask(mask: float, restriction: str) -> float:
    """``mask`` (a row's :data:`P_NOTILE`) with the tile of ``restriction`` (``"no_tile:T"``) added; a ValueError
    naming ``policies`` for a tile off the board."""
    arg = restriction.partition(":")[2]
    if not arg.isdigit() or int(arg) not in TILES:
        raise ValueError(f"policies: restriction no_tile:T takes a tile T of the board ({TILES[0]}..{TILES[-1]}), "
                         f"got {restriction!r}")
    return float(int(mask) | (1 << int(arg)))
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
    row[ROLL0:ROLL0 + ROLL_N] = rows["rollout"][:ROLL_N]
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
            if r.strip().startswith("no_tile:"):
                row[P_NOTILE] = tile_mask(row[P_NOTILE], r.strip())
                continue
            if r.strip() not in RESTRICTIONS or "<" in r:
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
