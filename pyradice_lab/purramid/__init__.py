"""Purramid (Reiner Knizia): boards as data, exact burst odds, an exact press-your-luck advisor, fast
Monte Carlo of turns and of whole 2-4 player games.

Public API:

- boards: :class:`Layout` (``from_rows``, ``from_toml``), :func:`load_layout` ("A", "B" or a path);
- components: :func:`load_components` / :func:`default_components`: the game constants and the sides as
  data (a designer's file merges over the packaged ones; ``components=`` everywhere);
- burst odds: :func:`burst_probability`, :func:`burst_table`;
- advisor: :func:`advise` (ranked options, exact) of a :class:`Position` (:func:`load_position`,
  :func:`position_from_game`) or of the keyword form, :func:`turn_policy` (the solved policy);
  the race situation: :func:`race_objective` (which objective this turn, and why), :func:`race_value`;
- turns (Monte Carlo): :func:`simulate_turns`, policies :func:`greedy`, :func:`stop_after`,
  :func:`stop_if_burst_risk_above`, :func:`optimal`;
- games: :func:`simulate_games` (compiled, one row per game), :func:`play_game` (transcript);
- pages (the report section): :func:`report_section`.

Examples
--------
>>> from pyradice_lab import purramid
>>> float(purramid.burst_probability(3, [6, 8]))   # doctest: +ELLIPSIS
0.1064...
>>> purramid.advise("A", placed=[(0, 3)], dice_left=4)["action"].tolist()
['continue', 'stop']
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine._lazy import ROLE_MODULES, attach

#: what the first compile of this game's kernels is announced as, and its typical CPU seconds with an empty numba
#: cache (compiled game kernel: 3.2 s CPU; :func:`pyradice_lab.engine._jit.compile_notice`)
COMPILE_NOTICE = ("the Purramid engine", 3)

__getattr__, __dir__, __all__ = attach(globals(), {
    "components": ["Layout", "load_layout", "Components", "load_components", "default_components"],
    "odds": ["burst_probability", "burst_table"],
    "advisor": ["advise", "turn_policy", "load_position", "position_from_game", "Position"],
    "race": ["race_objective", "race_value", "RacePolicy"],
    "turns": ["simulate_turns"],
    "policies": ["greedy", "stop_after", "stop_if_burst_risk_above", "optimal"],
    "sim": ["simulate_games"],
    "rules": ["play_game"],
    "pages": ["report_section"],
}, submodules=[*ROLE_MODULES, "advisor", "board", "chance", "turns"])

if TYPE_CHECKING:  # pragma: no cover - what static tools see; the names above load on first use
    from .advisor import (
        Position as Position,
        advise as advise,
        load_position as load_position,
        position_from_game as position_from_game,
        turn_policy as turn_policy,
    )
    from .components import (
        Components as Components,
        Layout as Layout,
        default_components as default_components,
        load_components as load_components,
        load_layout as load_layout,
    )
    from .odds import burst_probability as burst_probability, burst_table as burst_table
    from .pages import report_section as report_section
    from .policies import (
        greedy as greedy,
        optimal as optimal,
        stop_after as stop_after,
        stop_if_burst_risk_above as stop_if_burst_risk_above,
    )
    from .race import RacePolicy as RacePolicy, race_objective as race_objective, race_value as race_value
    from .rules import play_game as play_game
    from .sim import simulate_games as simulate_games
    from .turns import simulate_turns as simulate_turns


# ----------------------------------------------------------------------------------------- registry
def _smoke_run(seed: int):
    """A few seeded late-game turns under the exact optimal policy (no compilation needed)."""
    from .components import load_layout
    from .turns import simulate_turns

    L = load_layout("A")
    late = L.spaces_of(L.bottom_rows_mask(6))
    return simulate_turns(300, L, covered=late, policy="optimal", rng=seed)


def _exact_tables():
    from fractions import Fraction

    from .odds import burst_probability, reach_distribution

    p = burst_probability(3, [6, 8], exact=True)
    return {
        "which of 8, 10, 12 five dice can reach": reach_distribution(5, [8, 10, 12]),
        "3 dice on a 6 and an 8: burst / place": [p, Fraction(1) - p],
    }


def _bad_calls():
    from .advisor import advise
    from .components import load_layout
    from .odds import burst_probability
    from .sim import simulate_games as _sim

    return [
        ("n_dice", lambda: burst_probability(9, [6])),
        ("targets", lambda: burst_probability(2, [0])),
        ("roll", lambda: advise("A", roll=[7, 1, 1, 1, 1])),
        ("placed", lambda: advise("A", placed=[(0, 99)], dice_left=4)),
        ("dice_left", lambda: advise("A", dice_left=6)),
        ("layout", lambda: load_layout("Z")),
        ("players", lambda: _sim(1, players=5)),
        ("n_games", lambda: _sim(0)),
        *_more_bad_calls(),
    ]


def _more_bad_calls():
    """Issue 15 section 5: non-integer spaces, bools for ints, NaN/inf, empty inputs, wrong enums, rng, n_jobs."""
    import numpy as np

    from .advisor import advise, turn_policy
    from .odds import burst_probability, burst_table
    from .policies import optimal, stop_after, stop_if_burst_risk_above
    from .sim import simulate_games
    from .turns import simulate_turns

    return [
        ("covered", lambda: advise("A", covered=[(0, 0.5)])),
        ("placed", lambda: advise("A", placed=["03"], dice_left=4)),
        ("n_dice", lambda: burst_probability(True, [6])),
        ("n_dice", lambda: burst_probability(2.0, [6])),
        ("targets", lambda: burst_probability(2, [float("nan")])),
        ("max_dice", lambda: burst_table(-1)),
        ("yarn_value", lambda: advise("A", yarn_value=float("nan"))),
        ("objective", lambda: advise("A", objective="gold")),
        ("dice_left", lambda: advise("A", dice_left=True)),
        ("roll", lambda: advise("A", roll=[])),
        ("k", lambda: stop_after(True)),
        ("p", lambda: stop_if_burst_risk_above(float("inf"))),
        ("bonus", lambda: optimal(bonus="sometimes")),
        ("turn_dice", lambda: turn_policy("A", turn_dice=0)),
        ("n", lambda: simulate_turns(-1, "A")),
        ("rng", lambda: simulate_turns(1, "A", rng="seed")),
        ("policy", lambda: simulate_turns(1, "A", policy="stop_after:x")),
        ("n_jobs", lambda: simulate_games(1, n_jobs=0)),
        ("players", lambda: simulate_games(1, players=np.int64(9))),
        ("policies", lambda: simulate_games(1, players=2, policies=["greedy"])),
        ("layout", lambda: simulate_games(1, layout="C")),
    ]


from ..engine.registry import SweepTarget, register_game  # noqa: E402

register_game(
    __name__,
    name="purramid", title="Purramid",
    summary="press-your-luck dice pyramid: exact burst odds, exact turn advisor, fast turn and game simulation",
    smoke_run=_smoke_run, exact_tables=_exact_tables, bad_calls=_bad_calls,
    # strength order, weakest first (measured: docs/guide/strength.md)
    policies=("greedy", "stop_after:2", "stop_after:1", "risk:0.3", "risk:0.5", "risk:0.7", "optimal"),
    unrestrictable=("optimal",),  # the exact policy: restrictions apply to the human-style policies
    report_player="optimal",  # the strongest player affordable at report scale (see the guide)
    heuristic_player="greedy",  # shown beside it as a sensitivity column
    default_players=4,  # every entry point's default (docs/guide/defaults.md): the rules deal for 4 first; 2p is a special setup
    restrictions={
        "no_yarn": "never spends yarn tokens (a roll with no completable placement bursts)",
        "no_stop": "never stops while dice are left (presses on until the dice run out or burst)",
    },
    sweeps={
        "games": SweepTarget(
            "games_cell",
            "whole games: turns, seat-0 win rate, winner's gold, bursts",
            params={"players": "2, 3 or 4", "layout": "A or B (or a side of the components)",
                    "policy": "greedy, stop_after:K, risk:P or optimal (every seat)",
                    "components": "path to a components file (default: the packaged components)"},
            defaults={"players": [2, 3, 4], "layout": ["A", "B"], "policy": ["risk:0.3"]}),
        "turns": SweepTarget(
            "turns_cell",
            "one fresh turn on an empty side: value and burst rate of a policy",
            params={"layout": "A or B", "policy": "optimal, greedy, stop_after:K or risk:P",
                    "dice": "turn dice 1..5",
                    "components": "path to a components file (default: the packaged components)"},
            defaults={"layout": ["A"], "policy": ["greedy", "stop_after:2", "risk:0.3"], "dice": [5]}),
    },
)
