"""Meerkat Kingdom: exact placement odds, vectorised majority scoring, the full game with automa.

Public API
----------
- :func:`placement_odds` / :func:`placement_table` / :func:`automa_placement_table`: exact dice odds.
- :func:`score_tile` (vectorised majority kernel) and :func:`score_game` (whole-board end scoring).
- :func:`simulate_games` (tidy DataFrame, one row per game) and :func:`play_game` (readable transcript); a
  2-player game is 2 players + the automa unless ``automa=False`` (:func:`setup_label` names setups, extensions
  included); ``READINGS``: the readings of ambiguous rules (literal by default, the other as an option).
- :func:`load_components` / :func:`default_components`: the components as data (TOML).
- ``POLICIES``: ``random_legal``, ``greedy``, ``heuristic`` (see :mod:`.policies`).
- :func:`advise` ``(position, *, objective="margin", policy="expectimax")``: which dice to keep for the reroll
  (exact over every reroll outcome), then which action (placement, queen, guardian), ranked; positions from a
  TOML/JSON file (:func:`load_position`) or from turn K of a seeded game (:func:`position_from_game`).

Examples
--------
>>> from pyradice_lab import meerkat
>>> round(meerkat.placement_odds(7, count=2), 4)
0.6299
>>> meerkat.score_tile([3, 3, 2, 1], values=(6, 3)).tolist()
[0, 0, 6, 3]
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine._lazy import ROLE_MODULES, attach

#: what the first compile of this game's kernels is announced as, and its typical CPU seconds with an empty numba
#: cache (:func:`pyradice_lab.engine._jit.compile_notice`): the game kernel without the search players 22.8 s CPU
#: on idle cores, 37 s on the loaded machine; with a search player (``mcts``) 62 s
COMPILE_NOTICE = ("the Meerkat engine", 25)

__getattr__, __dir__, __all__ = attach(globals(), {
    "components": ["Components", "default_components", "load_components"],
    "odds": ["placement_odds", "placement_odds_exact", "placement_table", "automa_placement_table"],
    "scoring": ["score_tile", "score_game"],
    "sim": ["simulate_games", "play_game", "setup_label", "READINGS"],
    "policies": ["POLICIES", "HEURISTIC_DEFAULTS"],
    "advisor": ["advise", "load_position", "position_from_game", "positions_from_game", "Position"],
}, submodules=[*ROLE_MODULES, "scoring", "oasis", "automa", "transcript", "evaluation", "turns", "search",
               "advisor"])

if TYPE_CHECKING:  # pragma: no cover - what static tools see; the names above load on first use
    from .advisor import (
        Position as Position,
        advise as advise,
        load_position as load_position,
        position_from_game as position_from_game,
        positions_from_game as positions_from_game,
    )
    from .components import (
        Components as Components,
        default_components as default_components,
        load_components as load_components,
    )
    from .odds import (
        automa_placement_table as automa_placement_table,
        placement_odds as placement_odds,
        placement_odds_exact as placement_odds_exact,
        placement_table as placement_table,
    )
    from .policies import HEURISTIC_DEFAULTS as HEURISTIC_DEFAULTS, POLICIES as POLICIES
    from .scoring import score_game as score_game, score_tile as score_tile
    from .sim import (
        READINGS as READINGS,
        play_game as play_game,
        setup_label as setup_label,
        simulate_games as simulate_games,
    )


# ----------------------------------------------------------------------------------------- registration
def _smoke_run(seed: int):
    from .sim import simulate_games

    return simulate_games(3, players=2, policies=["greedy", "random_legal"], rng=seed)


def _exact_tables() -> dict:
    from fractions import Fraction
    from itertools import product

    from .odds import automa_placement_table, success_table

    tables = {}
    t = automa_placement_table(exact=True)
    for face in ("L", "M", "H", "any"):
        tables[f"automa placement (tile, count), face {face}"] = list(t.loc[t.face == face, "probability"])
    best = [0, 0, 0, 0]
    for roll in product(range(6), repeat=3):
        n = max([k for k in (1, 2, 3) if success_table(7, k)[roll]], default=0)
        best[n] += 1
    tables["most meerkats placeable on tile 7 (0..3), no reroll"] = [Fraction(b, 216) for b in best]
    return tables


def _bad_calls() -> list:
    from .odds import placement_odds
    from .scoring import score_tile
    from .sim import simulate_games

    return [
        ("tile", lambda: placement_odds(2)),
        ("count", lambda: placement_odds(7, count=4)),
        ("counts", lambda: score_tile([-1, 2])),
        ("queens", lambda: score_tile([1, 2], queens=[True])),
        ("values", lambda: score_tile([1, 2], values=())),
        ("n_games", lambda: simulate_games(0)),
        ("players", lambda: simulate_games(1, players=5)),
        ("reverse_reading", lambda: simulate_games(1, reverse_reading="middle")),
        ("policies", lambda: simulate_games(1, policies="clever")),
        *_more_bad_calls(),
    ]


def _more_bad_calls() -> list:
    """Issue 15 section 5: overflowing or ragged counts, unordered or negative values, impossible boards,
    malformed policies, bools for ints, NaN/inf, wrong types."""
    import numpy as np

    from .odds import placement_odds
    from .scoring import score_game, score_tile
    from .sim import play_game, setup_label, simulate_games

    z = np.zeros((2, 10), int)
    return [
        ("counts", lambda: score_tile([2**62, 1])),
        ("counts", lambda: score_tile([[1, 2], [3]])),
        ("values", lambda: score_tile([1, 2], values=(-6, 3))),
        ("values", lambda: score_tile([1, 2], values=(3, 6))),
        ("values", lambda: score_tile([1, 2], values=(2**63, 3))),
        ("bonus", lambda: score_tile([1, 2], bonus=float("inf"))),
        ("reverse", lambda: score_tile([1, 2], reverse="yes")),
        ("out_order", lambda: score_game(z, out_order=[float("nan"), 1])),
        ("out_order", lambda: score_game(z, out_order=[2, 2])),
        ("queens", lambda: score_game(z, queens=np.ones((2, 10), bool))),
        ("guardians", lambda: score_game(z, guardians=[5, 0])),
        ("pups", lambda: score_game(z, pups=[0, 5])),
        ("components", lambda: score_game(z, components=5)),
        ("policies", lambda: simulate_games(1, policies=("heuristic", 5))),
        ("policies", lambda: simulate_games(1, policies=[3, 4, 5])),
        ("n_games", lambda: simulate_games(True)),
        ("players", lambda: play_game(players=np.int64(9))),
        ("engine", lambda: simulate_games(1, engine="gpu")),
        ("rng", lambda: simulate_games(1, rng=[1.5])),
        ("tile", lambda: placement_odds(True)),
        ("count", lambda: placement_odds(7, count=float("nan"))),
        ("reroll", lambda: placement_odds(7, reroll="no")),
        ("players", lambda: setup_label(0)),
    ]


from ..engine.registry import SweepTarget, register_game  # noqa: E402

register_game(
    __name__,
    name="meerkat", title="Meerkat Kingdom",
    summary="dice area majority: exact placement odds, majority kernel, full game with automa and oases",
    smoke_run=_smoke_run, exact_tables=_exact_tables, bad_calls=_bad_calls,
    # strength order, weakest first (measured in 2 seats: docs/guide/strength.md, docs/guide/meerkat.md);
    # automa:L/M/H = the automa die fixed on that face (the automa always takes the last seat); expectimax and
    # mcts (search, 100 rollouts per decision, ~120x expectimax's CPU per game) are the strong players of issue
    # 12; mcts_late (the search in the seat's last turns, <= 20x expectimax) sits between them (issue 27);
    # mcts_v2 (issue 27: the late search on expectimax_v2 / heuristic_v2, burrow_cost 8 / 10, 7-13x expectimax)
    # beats mcts head to head (docs/guide/meerkat.md, "Cost, and the report player")
    policies=("automa:L", "automa:M", "automa", "random_legal", "automa:H", "heuristic", "greedy", "expectimax",
              "mcts_late", "mcts", "mcts_v2"),
    restrictions={
        "no_queen": "never places the queen (she is forfeited at the end)",
        "no_reroll": "never uses the optional reroll",
        "no_guardians": "never takes a guardian (by placement or blue oasis token)",
        "no_burrows": "never takes a burrow action",
        "no_oasis": "ignores the oases: never activates an oasis token nor moves one by burrow action",
        # a restriction with an argument, named with it (no_tile:7); not in restricted play's "all"
        "no_tile:<T>": ("never commits a meerkat or the queen to tile T (3..12): no placement, move, swap or queen "
                        "move there"),
    },
    lineup_ok="lineup_ok",
    unrestrictable=("automa:L", "automa:M", "automa", "random_legal", "automa:H"),
    report_player="mcts_v2",  # the strongest player affordable at report scale (<= 20x expectimax; the guide)
    heuristic_player="greedy",  # shown beside it as a sensitivity column
    default_players=3,  # every entry point's default (docs/guide/defaults.md): 2-4 players, the middle (2p adds the automa)
    report_parts=("tiles", "seats", "rest"),  # the report's longest section, built as three tasks (report.REPORT_PARTS)
    sweeps={
        "games": SweepTarget(
            "games_cell",
            "win share, edge over the other players and mean score of the start player (turn position 1), per setup",
            params={"players": "human players 2..4 (1: solo extension)",
                    "automa": "rules (default: the automa joins 2 players), 0 or 1",
                    "policy": "random_legal | greedy | heuristic (every player)",
                    "reverse_reading": "literal (default) | extended",
                    "jackal_reading": "literal (default) | next_tile",
                    "components": "path to a components file (default: the packaged components)"},
            defaults={"players": [2, 3, 4], "automa": ["rules"], "policy": ["greedy"]}),
    },
)
