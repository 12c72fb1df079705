"""Toy race: a two-player, one-die press-your-luck race, the proof that a new game is one package.

Roll a d6: a 1 busts the turn's points; any other face adds to the turn total; hold to bank it; the first to the
target (50, a documented reconstruction) wins.  The package has the shape every game has (docs/architecture.md):
``components`` + ``data/components.toml``, ``rules``, ``sim``, ``odds``, ``policies``, ``analysis``, ``pages``,
``advisor``, ``metrics`` (METRICS), ``levers`` (LEVERS), ``checks`` (CHECKS), ``desk`` (DESK), ``plan`` (PLAN),
``bench`` and ``cli``, imports nothing but :mod:`pyradice_lab.engine`, and joins the registry with one
call, :func:`register` (the built-in games call ``register_game`` at import; the toy game waits to be asked, so
that a test decides when it is registered and the report of other tests never meets it).

>>> from tests import toygame
>>> toygame.simulate_games(3, rng=1)["winner"].isin([0, 1]).all()
np.True_
"""

from __future__ import annotations

import contextlib

from pyradice_lab.engine._lazy import ROLE_MODULES, attach

__getattr__, __dir__, __all__ = attach(globals(), {
    "components": ["default_components", "load_components"],
    "rules": ["play_game", "transcript"],
    "sim": ["simulate_games"],
    "advisor": ["Position", "advise", "load_position", "position_from_game"],
}, submodules=[*ROLE_MODULES, "advisor"])
__all__ = [*__all__, "register", "registered"]

NAME = "toygame"


def _smoke_run(seed: int):
    from .sim import simulate_games

    return simulate_games(6, policies=["hold_at:20", "optimal"], rng=seed)


def _exact_tables() -> dict:
    from .odds import chance_outcomes, turn_points_pmf

    return {"face": list(chance_outcomes().values()), "turn_points_hold_at_20": list(turn_points_pmf(20).values())}


def _bad_calls() -> list:
    from .advisor import advise, load_position
    from .components import default_components
    from .odds import turn_points_pmf
    from .sim import simulate_games

    return [
        ("n_games", lambda: simulate_games(0, rng=0)),
        ("players", lambda: simulate_games(1, players=3, rng=0)),
        ("policies", lambda: simulate_games(1, policies="smartest", rng=0)),
        ("rng", lambda: simulate_games(1, rng="x")),
        ("hold_at", lambda: turn_points_pmf(0)),
        ("bust", lambda: default_components().replace({"die.bust.value": [7]})),
        ("turn_total", lambda: load_position({"to_move": 1, "scores": [40, 0], "turn_total": 10})),
        ("policy", lambda: advise({"to_move": 1, "scores": [0, 0], "turn_total": 3}, policy="greedy")),
    ]


def register():
    """Register the toy race (``registry.get_game("toygame")``); returns its GameSpec."""
    from pyradice_lab.engine.registry import register_game

    return register_game(
        __name__, name=NAME, title="Toy race", summary="a 2-player one-die press-your-luck race (the example game)",
        smoke_run=_smoke_run, exact_tables=_exact_tables, bad_calls=_bad_calls,
        policies=("random", "hold_at:20", "optimal"),  # strength order, weakest first
        report_player="optimal", heuristic_player="hold_at:20", default_players=2)


@contextlib.contextmanager
def registered():
    """Within the block the toy race is registered (the GameSpec is yielded); afterwards the registry holds exactly
    the games it held before, so no other test (a report build, a loop over the games) ever meets it."""
    from pyradice_lab.engine import registry

    registry.games()  # the built-in games register first, into the registry that stays
    saved = dict(registry._REGISTRY)
    try:
        yield register()
    finally:
        registry._REGISTRY.clear()
        registry._REGISTRY.update(saved)
