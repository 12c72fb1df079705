"""Pyradice: dice drafting from a 3-layer quarry into a 21-die pyramid (2-4 players).

Public API
----------
- :class:`Quarry` — ``Quarry.random(players=2, rng=None, colours=None)``, ``.available()``, ``.take(pos)``;
  :func:`availability` / :func:`visible_faces` for many quarries at once (batch axis first);
- :class:`Setup` — skill tokens (levels 2-6), goal tokens (levels 1-5), objective cards, discs; the catalogue is
  TOML data (:func:`load_components`) and each token/card names a registered function
  (:data:`SKILL_KINDS`, :data:`GOAL_KINDS`, :data:`CARD_KINDS`, ``register_*_kind``);
- :func:`legal_places`, :func:`score_pyramid`, :class:`GameState` — the readable rules;
- :func:`simulate_games` — many games (compiled), one row per game; :func:`play_game` — one game with a transcript;
  :func:`warmup` — compile the kernels once per machine (numba caches them); ``Setup.dead_goals()`` — goal tokens
  that can never be met on their level (none in the default catalogue);
- policies ``random_legal``, ``greedy``, ``lookahead`` (:data:`POLICIES`) and the search player ``"flat_mc"``
  (:class:`FlatMC`, :func:`flat_mc`: flat Monte Carlo over sampled hidden quarries, rollouts in the compiled
  engine; ``"flat_mc:N"`` sets the rollouts per decision);
- exact odds: :func:`available_exact`, :func:`blind_goal_probability`; experiments in :mod:`.analysis`;
- the table companion :func:`advise` (which die, where, which skill use; :mod:`.advisor`), its positions
  (:func:`load_position`, :func:`position_from_game`).

Examples
--------
>>> from pyradice_lab import pyradice
>>> q = pyradice.Quarry.random(players=2, rng=3)
>>> len(q.available())
4
>>> df = pyradice.simulate_games(2, players=2, rng=1)
>>> list(df.columns[:4])
['game', 'players', 'turns', 'first_player']
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine._lazy import ROLE_MODULES, attach

#: what the first compile of this game's kernels is announced as, and its typical CPU seconds with an empty numba
#: cache (compiled game kernel: 4.2 s CPU; :func:`pyradice_lab.engine._jit.compile_notice`)
COMPILE_NOTICE = ("the Pyradice engine", 4)

__getattr__, __dir__, __all__ = attach(globals(), {
    "quarry": ["Quarry", "availability", "visible_faces"],
    "geometry": ["quarry_geometry", "PYRAMID"],
    "components": ["Setup", "Components", "load_components", "default_components"],
    "goals": ["GOAL_KINDS", "register_goal_kind"],
    "cards": ["CARD_KINDS", "register_card_kind"],
    "skills": ["SKILL_KINDS", "register_skill_kind"],
    "rules": ["legal_places", "GameState", "deal"],
    "scoring": ["Table", "score_pyramid"],
    "sim": ["simulate_games", "play_game", "GameRecord", "warmup"],
    "policies": ["POLICIES", "random_legal", "greedy", "lookahead"],
    "odds": ["available_exact", "blind_goal_probability"],
    "search": ["FlatMC", "flat_mc"],
    "advisor": ["advise", "load_position", "position_from_game", "positions_from_game", "Position"],
}, submodules=[*ROLE_MODULES, "quarry", "geometry", "goals", "cards", "skills", "scoring", "search", "advisor"])

if TYPE_CHECKING:  # pragma: no cover - what static tools see; the names above load on first use
    from .advisor import (
        Position as Position,
        advise as advise,
        load_position as load_position,
        position_from_game as position_from_game,
        positions_from_game as positions_from_game,
    )
    from .cards import CARD_KINDS as CARD_KINDS, register_card_kind as register_card_kind
    from .components import (
        Components as Components,
        Setup as Setup,
        default_components as default_components,
        load_components as load_components,
    )
    from .geometry import PYRAMID as PYRAMID, quarry_geometry as quarry_geometry
    from .goals import GOAL_KINDS as GOAL_KINDS, register_goal_kind as register_goal_kind
    from .odds import available_exact as available_exact, blind_goal_probability as blind_goal_probability
    from .policies import (
        POLICIES as POLICIES,
        greedy as greedy,
        lookahead as lookahead,
        random_legal as random_legal,
    )
    from .quarry import Quarry as Quarry, availability as availability, visible_faces as visible_faces
    from .rules import GameState as GameState, deal as deal, legal_places as legal_places
    from .scoring import Table as Table, score_pyramid as score_pyramid
    from .search import FlatMC as FlatMC, flat_mc as flat_mc
    from .sim import (
        GameRecord as GameRecord,
        play_game as play_game,
        simulate_games as simulate_games,
        warmup as warmup,
    )
    from .skills import SKILL_KINDS as SKILL_KINDS, register_skill_kind as register_skill_kind


# ----------------------------------------------------------------------------------------- registration
def _smoke_run(seed: int):
    from .sim import simulate_games

    # the readable engine: no numba compilation, well under 2 s
    return simulate_games(3, 2, None, ["random_legal", "greedy"], rng=seed, engine="python")


def _exact_tables():
    from fractions import Fraction

    from .odds import available_exact_table, blind_goal_probability

    p = blind_goal_probability("C6", 1)
    return {"available dice at turn 3, 2 players (random takes)": available_exact_table(3, 2),
            "available dice at turn 6, 2 players (random takes)": available_exact_table(6, 2),
            "available dice at turn 6, 3-4 players (random takes)": available_exact_table(6, 3),
            "C6 on level 1 filled blind: [missed, met]": [Fraction(1) - p, p],
            "C3 on level 4 filled blind: [missed, met]": [1 - blind_goal_probability("C3", 4),
                                                         blind_goal_probability("C3", 4)]}


def _bad_calls():
    from .analysis import goal_rates
    from .components import Setup
    from .odds import available_exact, blind_goal_probability
    from .quarry import Quarry
    from .sim import simulate_games

    return [("players", lambda: Quarry.random(5)),
            ("pos", lambda: Quarry.random(2, rng=0).take((0, 0, 0))),
            ("pos", lambda: Quarry.random(2, rng=0).take((3, 0, 0))),
            ("n_games", lambda: simulate_games(0)),
            ("policies", lambda: simulate_games(1, policies="bogus")),
            ("engine", lambda: simulate_games(1, engine="gpu")),
            ("turns", lambda: available_exact(0)),
            ("level", lambda: blind_goal_probability("C6", 9)),
            ("skills", lambda: Setup(skills=("A3", "A3", "A4", "A5", "A6"))),
            ("goals", lambda: Setup(goals=("C6", "D6", "C2", "C3", "D1"))),
            ("cards", lambda: Setup(cards=("Many", "Many", "Pairs", "Big"))),
            ("discs", lambda: Setup(discs=("red", "red", "purple", "blue"))),
            ("n_games", lambda: goal_rates(1)),
            *_more_bad_calls()]


def _more_bad_calls():
    """Issue 15 section 5: non-integer positions, malformed pyramids, bools for ints, NaN, wrong types."""
    import numpy as np

    from .components import Setup
    from .geometry import quarry_geometry
    from .odds import available_exact
    from .quarry import Quarry, visible_faces
    from .rules import deal, legal_places
    from .scoring import Table, score_pyramid
    from .sim import play_game, simulate_games

    nan = float("nan")
    table = Table.build(Setup.default(), (0, 1, 2, 3))
    values, colours = [3, 5, 5, 3, 3, 5] + [0] * 15, [0, 0, 1, 1, 2, 3] + [-1] * 15
    return [("pos", lambda: Quarry.random(2, rng=0).take((2, 0, 0.5))),
            ("pos", lambda: Quarry.random(2, rng=0).take("200")),
            ("players", lambda: Quarry.random(True)),
            ("rng", lambda: Quarry.random(2, rng="x")),
            ("values", lambda: legal_places([1] * 22)),
            ("values", lambda: legal_places([])),
            ("values", lambda: score_pyramid([], [], table)),
            ("values", lambda: score_pyramid([nan] * 21, colours, table)),
            ("colours", lambda: score_pyramid(values, [0] * 21, table)),
            ("table", lambda: score_pyramid(values, colours, None)),
            ("setup", lambda: deal(2, None)),
            ("players", lambda: quarry_geometry(5)),
            ("occupied", lambda: visible_faces([1, 2, 3], players=2)),
            ("n_games", lambda: simulate_games(-3)),
            ("n_games", lambda: simulate_games(True)),
            ("players", lambda: simulate_games(1, players=np.int64(7))),
            ("policies", lambda: simulate_games(1, policies=[])),
            ("players", lambda: play_game(players=2.0)),
            ("turns", lambda: available_exact(nan))]


from ..engine.registry import SweepTarget, register_game  # noqa: E402

register_game(
    __name__,
    name="pyradice", title="Pyradice",
    summary="dice drafting from a 3-layer quarry into a 21-die pyramid: availability, goals, skills, cards",
    smoke_run=_smoke_run, exact_tables=_exact_tables, bad_calls=_bad_calls,
    # strength order, weakest first (measured: docs/guide/strength.md)
    policies=("random_legal", "greedy", "lookahead", "flat_mc"),
    unrestrictable=("flat_mc",),  # the search player: restrictions apply to the compiled heuristics
    report_player="flat_mc",  # the strongest player affordable at report scale (see the guide)
    heuristic_player="greedy",  # shown beside it as a sensitivity column
    default_players=2,  # every entry point's default (docs/guide/defaults.md): "a game for 2 players (3-4 with a second copy)"
    restrictions={
        "no_skills": "never uses a skill token",
        # a skill is named by its token everywhere (skill table, restricted play, report): the default setup's
        # five tokens (policies.RESTRICTIONS; any token code is accepted, e.g. no_skill_B5; no_skill_L5 is rejected)
        **{f"no_skill_{code}": f"never uses skill token {code} {name}" for code, name in (
            ("A2", "Tip"), ("A3", "Flip"), ("A4", "Carve"), ("A5", "Turnover"), ("A6", "Rebuild"))},
        "no_goals": "ignores the goal tokens when choosing (values pyramids by card points only)",
        "no_cards": "ignores the objective cards when choosing (values goal tokens only)",
    },
    sweeps={
        "games": SweepTarget(
            "games_cell",
            "whole games: mean score, goals met and first-player win share",
            params={"players": "2..4", "policy": "random_legal | greedy | lookahead",
                    "components": "path to a components file (default: the packaged components)"},
            defaults={"players": [2, 3], "policy": ["greedy", "lookahead"]}),
    },
)
