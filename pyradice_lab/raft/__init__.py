"""Rocking Raft: a calibratable stochastic tilt model, optimal lifeboat loading, the full game.

Public API (imported lazily, so ``import pyradice_lab.raft`` stays cheap):

- :func:`tilt` ``(state, edge, finger, duration, *, n, rng, params=None)`` -> ``TiltResult(fallen, states)``
  (batch axis first; gems conserved exactly), :func:`tilt_distribution` (fallen-gem outcomes with
  probabilities, CIs and the exact model probability);
- raft states: :func:`setup_state` ``(players, rng)`` (one raft set up by the rules), :class:`RandomSetup`
  ``(players)`` (pass it as the state to average over random setups, exactly in :mod:`.odds`),
  :func:`reference_state` (a fixed, documented layout for examples and measuring real tilts);
- :class:`TiltParams`, :func:`default_params`, :func:`calibrate` (fit the tilt model to measured tilts,
  with uncertainty), :func:`simulate_observations`;
- :func:`load` ``(gems, lifeboats)``: optimal placement of fallen gems on lifeboats;
- :func:`simulate_games` ``(n_games, players=3, variant="standard", policies=None, rng=None)`` -> one
  row per game (``first_player`` records the start player); :func:`play_game` ``(..., trace=True)`` -> a
  readable transcript; :func:`start_player_table` (win rate and points by turn position, with CIs);
- :mod:`~pyradice_lab.raft.policies` (``fixed``, ``aim``, ``greedy``, ``random`` and the strongest,
  ``exact``: the expected-points player of :mod:`~pyradice_lab.raft.expectimax`),
  :func:`default_components` / :func:`load_components` (the TOML components);
- :mod:`~pyradice_lab.raft.strong_play`: the exact player's strength and the balance findings under strong play;
- :func:`advise` ``(position, *, objective="points", policy="exact")``: every tilt of the turn at hand (or every
  loading of the gems that fell) ranked by its exact expected points; positions from a TOML/JSON file
  (:func:`load_position`) or from turn K of a seeded game (:func:`position_from_game`).

Examples
--------
>>> from pyradice_lab import raft
>>> res = raft.tilt(raft.reference_state(4), "north", "centre", 1.0, n=1000, rng=1)
>>> res.fallen.shape
(1000, 4)
>>> raft.setup_state(2, rng=1).sum()   # a rules setup uses 21 gems at 2 players
np.int64(21)
>>> df = raft.simulate_games(5, players=2, rng=1)
>>> len(df), int(df["players"].iloc[0])
(5, 2)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine._lazy import ROLE_MODULES, attach

#: what the first compile of this game's kernels is announced as, and its typical CPU seconds with an empty numba
#: cache (the expected-points player's kernel: 2.4 s CPU; :func:`pyradice_lab.engine._jit.compile_notice`)
COMPILE_NOTICE = ("the Rocking Raft engine", 3)

__getattr__, __dir__, __all__ = attach(globals(), {
    "components": ["default_components", "load_components"],
    "tilting": ["tilt", "tilt_distribution", "TiltResult"],
    "layouts": ["RandomSetup", "reference_state", "setup_state"],
    "physics": ["TiltParams", "default_params"],
    "calibration": ["calibrate", "simulate_observations"],
    "loading": ["load"],
    "sim": ["simulate_games", "start_player_table"],
    "rules": ["play_game"],
    "advisor": ["advise", "load_position", "position_from_game", "positions_from_game", "tilt_outcomes", "Position"],
}, submodules=[*ROLE_MODULES, "physics", "tilting", "loading", "calibration", "sampling", "readings", "layouts",
               "expectimax", "expectation", "strong_play", "advisor"])

if TYPE_CHECKING:  # pragma: no cover - what static tools see; the names above load on first use
    from . import policies as policies
    from .advisor import (
        Position as Position,
        advise as advise,
        load_position as load_position,
        position_from_game as position_from_game,
        positions_from_game as positions_from_game,
        tilt_outcomes as tilt_outcomes,
    )
    from .calibration import calibrate as calibrate, simulate_observations as simulate_observations
    from .components import default_components as default_components, load_components as load_components
    from .layouts import (
        RandomSetup as RandomSetup,
        reference_state as reference_state,
        setup_state as setup_state,
    )
    from .loading import load as load
    from .physics import TiltParams as TiltParams, default_params as default_params
    from .rules import play_game as play_game
    from .sim import simulate_games as simulate_games, start_player_table as start_player_table
    from .tilting import TiltResult as TiltResult, tilt as tilt, tilt_distribution as tilt_distribution


# ----------------------------------------------------------------------------------------- registration
def _smoke_run(seed: int):
    from .sim import simulate_games

    return simulate_games(6, players=3, rng=seed)


def _exact_tables() -> dict:
    from .layouts import RandomSetup, reference_state
    from .odds import deck_points_pmf, fallen_total_pmf, setup_ring_black_pmf

    return {"deck_points": list(deck_points_pmf().values()),
            "setup_black_gems_on_outer_spaces_4p": setup_ring_black_pmf(4),
            "fallen_total_north_centre_1s_reference_4p": fallen_total_pmf(reference_state(4), "north", "centre", 1.0),
            "fallen_total_north_centre_1s_random_setup_4p": fallen_total_pmf(RandomSetup(4), "north", "centre", 1.0)}


def _bad_calls() -> list:
    import numpy as np

    from .calibration import calibrate
    from .components import parse_lifeboats
    from .layouts import RandomSetup, reference_state, setup_state
    from .sim import simulate_games
    from .tilting import tilt

    state = reference_state(4)
    card = {"deck": {"count": 39, "count_source": "rules", "cards_source": "reconstruction"},
            "card": [{"id": i, "slots": {"red": 2}, "points": -3 if i == 1 else 2, "source": "reconstruction"}
                     for i in range(1, 40)]}
    return [
        ("edge", lambda: tilt(state, "up", "centre", 1.0, n=1, rng=0)),
        ("duration", lambda: tilt(state, "north", "centre", -1.0, n=1, rng=0)),
        ("state", lambda: tilt(np.full((9, 4), 5), "north", "centre", 1.0, n=1, rng=0)),
        ("finger", lambda: tilt(state, "east", "centre", 1.0, n=1, rng=0)),
        ("players", lambda: simulate_games(1, players=7, rng=0)),
        ("players", lambda: setup_state(5, rng=0)),
        ("players", lambda: tilt(RandomSetup(1), "north", "centre", 1.0, n=1, rng=0)),
        ("discards_roll", lambda: simulate_games(1, players=2, rng=0, discards_roll="yes")),
        ("variant", lambda: simulate_games(1, variant="stormy", rng=0)),
        ("points", lambda: parse_lifeboats(card)),
        ("fit", lambda: calibrate([{"edge": "north", "duration": 1.0, "fallen": 1}], fit=["wobble"])),
        *_more_bad_calls(state),
    ]


def _more_bad_calls(state) -> list:
    """Issue 15 section 5: n_jobs, malformed policies and observations, bools for ints, NaN, wrong types."""
    import pandas as pd

    from .calibration import calibrate, simulate_observations
    from .layouts import setup_state
    from .physics import TiltParams
    from .sim import simulate_games, start_player_table
    from .tilting import tilt, tilt_distribution

    nan = float("nan")
    return [
        ("n_jobs", lambda: simulate_games(1, n_jobs=0, rng=0)),
        ("policies", lambda: simulate_games(1, policies=["fixed:abc"] * 3, rng=0)),
        ("policies", lambda: simulate_games(1, players=2, policies=[lambda view: None] * 2, rng=0)),
        ("design", lambda: simulate_observations(pd.DataFrame({"edge": ["north"], "duration": [1.0]}), rng=0)),
        ("observations.fallen", lambda: calibrate([{"edge": "north", "duration": 1.0, "fallen": "3"}])),
        ("observations", lambda: calibrate([{"edge": "north", "duration": 1.0, "fallen": nan}])),
        ("observations", lambda: calibrate([])),
        ("n", lambda: tilt(state, "north", "centre", 1.0, n=-1, rng=0)),
        ("n", lambda: tilt(state, "north", "centre", 1.0, n=True, rng=0)),
        ("duration", lambda: tilt(state, "north", "centre", nan, n=1, rng=0)),
        ("rng", lambda: tilt(state, "north", "centre", 1.0, n=1, rng="x")),
        ("trials", lambda: tilt_distribution(state, "north", "centre", 1.0, trials=0, rng=0)),
        ("players", lambda: setup_state(True, rng=0)),
        ("max_turns", lambda: simulate_games(1, max_turns=-1, rng=0)),
        ("games", lambda: start_player_table("x")),
        ("slide_rate", lambda: TiltParams(slide_rate=nan)),
    ]


from ..engine.registry import SweepTarget, register_game  # noqa: E402

register_game(
    __name__,
    name="raft", title="Rocking Raft",
    summary="tilt a raft, load gems on lifeboats: calibratable tilt model, optimal loading, full game",
    smoke_run=_smoke_run, exact_tables=_exact_tables, bad_calls=_bad_calls,
    # strength order, weakest first (measured: docs/guide/strength.md)
    policies=("fixed:1.0", "random", "aim", "greedy", "exact"),
    report_player="exact",  # the strongest player affordable at report scale (see the guide)
    heuristic_player="greedy",  # shown beside it as a sensitivity column
    default_players=3,  # every entry point's default (docs/guide/defaults.md): "2-4 pirates", none singled out: the middle
    restrictions={
        "centre_finger": "presses only the centre finger space (edges without one are never lowered)",
        "fixed_duration": "one intended tilt duration, 1 s (a fixed:<s> player keeps its own)",
        "ignore_gifts": "chooses tilts without weighing the gems passed on to opponents (gift weights 0)",
    },
    sweeps={
        "games": SweepTarget(
            "games_cell",
            "Monte Carlo games: mean winning score, game length, gifts, sunk boats",
            params={"players": "2..4", "variant": "standard|sinking", "policy": "fixed:<s>|aim|greedy|exact",
                    "flag_depth": "cards above the flag (-1: the rules' depth)",
                    "black": "black gems in play (-1: the default 3)",
                    "discards_roll": "0|1 (reading: discarded gems may roll)",
                    "replace_sunk": "1|0 (reading: sunk lifeboats replaced)",
                    "components": "path to a components file (default: the packaged components)"},
            defaults={"players": [2, 3, 4], "variant": ["standard", "sinking"]}),
        "tilt": SweepTarget(
            "tilt_cell",
            "Monte Carlo vs exact mean gems fallen from the reference layout",
            params={"edge": "north|east|south|west", "finger": "finger space name",
                    "duration": "seconds", "players": "2..4 (layout size)",
                    "components": "path to a components file (default: the packaged components)"},
            defaults={"edge": ["north", "west"], "finger": ["left"], "duration": [0.5, 1.0, 2.0]}),
    },
)
