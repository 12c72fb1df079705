"""Many toy races: :func:`simulate_games` (one row per game), :func:`outcomes` and :func:`lineup_outcomes`.

Game ``i`` plays from its own generator, child ``i`` of the root seed (``SeedSequence.spawn``), so a game depends
only on the seed and its index, never on ``n_jobs``, the backend or the batch size.

>>> df = simulate_games(20, rng=1)
>>> len(df), bool((df[["score_0", "score_1"]].max(axis=1) >= 50).all())
(20, True)
"""

from __future__ import annotations

import numbers

import numpy as np
import pandas as pd

from pyradice_lab.engine.assumptions import frame_assumptions
from pyradice_lab.engine.execution import Progress, check_execution, simulate_blocks
from pyradice_lab.engine.limits import check_result_size
from pyradice_lab.engine.rng import seed_sequence

from .components import coerce_components
from .policies import names_of, resolve
from .rules import PLAYERS, play_game

__all__ = ["simulate_games", "outcomes", "lineup_outcomes", "CHUNK"]

CHUNK = 64
ROW_BYTES = 200


def simulate_games(n_games: int, players: int = PLAYERS, policies=None, rng=None, *, components=None,
                   n_jobs: int = 1, backend: str = "loky", scheduler=None, progress: bool = False,
                   cache_dir=None) -> pd.DataFrame:
    """Play ``n_games`` games; one row per game.

    Parameters
    ----------
    n_games : int
    players : int
        2 (the only count of the race).
    policies : name, callable or a list of two, optional
        ``random``, ``hold_at:<k>`` or ``optimal`` (default, every seat).
    rng : seed, SeedSequence or Generator
    components : path or Components, optional
    n_jobs, backend, scheduler, progress, cache_dir
        As in :mod:`pyradice_lab.engine.execution`; the numbers never depend on them.

    Returns
    -------
    DataFrame
        ``game``, ``players``, ``first_player``, ``score_<s>``, ``busts_<s>``, ``turns``, ``winner`` and the root
        ``seed_entropy``; ``attrs["policies"]``.
    """
    if isinstance(n_games, bool) or not isinstance(n_games, numbers.Integral) or n_games < 1:
        raise ValueError(f"n_games must be a positive integer, got {n_games!r}")
    n_games = check_result_size(int(n_games), ROW_BYTES, name="n_games")
    if isinstance(players, bool) or players != PLAYERS:
        raise ValueError(f"players must be {PLAYERS} (the toy race is a 2-player game), got {players!r}")
    comp = coerce_components(components)
    resolve(policies)  # names checked before any game is played
    execution = check_execution(n_jobs, backend, scheduler, progress=progress, cache_dir=cache_dir)
    if execution.processes or execution.cache_dir is not None:
        df = simulate_blocks(_games, n_games, rng, {"policies": policies, "components": comp}, execution,
                             chunk=CHUNK, desc="toygame games")
    else:
        df = _games(n_games, rng=rng, policies=policies, components=comp, progress=progress)
    return frame_assumptions(df, "toygame", outcomes, components=components, loaded=comp, rng=rng, games=n_games)


def _games(n_games: int, *, rng, policies, components, progress: bool = False) -> pd.DataFrame:
    root = seed_sequence(rng, name="rng")
    seeds = root.spawn(n_games)
    rows = []
    with Progress(n_games, desc="toygame games", enabled=progress) as bar:
        for g, seed in enumerate(seeds):
            rec = play_game(policies, rng=np.random.default_rng(seed), components=components)
            rows.append((g, PLAYERS, rec.first_player, *rec.scores, *rec.busts, rec.turns, rec.winner))
            bar.update(1)
    df = pd.DataFrame(rows, columns=["game", "players", "first_player", "score_0", "score_1", "busts_0",
                                     "busts_1", "turns", "winner"])
    df["seed_entropy"] = [root.entropy] * n_games
    df.attrs["policies"] = names_of(policies)
    return df


def outcomes(df: pd.DataFrame) -> pd.DataFrame:
    """The common long frame of :mod:`pyradice_lab.engine.outcomes` (one row per game and seat)."""
    from pyradice_lab.engine.outcomes import outcome_frame

    seats = np.arange(PLAYERS)
    scores = df[[f"score_{s}" for s in seats]].to_numpy()
    names = list(df.attrs.get("policies", ["custom"] * PLAYERS))
    pos = (seats[None, :] - df["first_player"].to_numpy()[:, None]) % PLAYERS
    return outcome_frame(df["game"].to_numpy(), names, pos, scores, keys=[scores])


def lineup_outcomes(policies, n_games: int, *, rng=None, progress: bool = False, **kwargs) -> pd.DataFrame:
    """Play ``n_games`` games with ``policies[s]`` in seat ``s``; the :func:`outcomes` frame."""
    from pyradice_lab.engine.outcomes import relabel_policies

    pols = list(policies)
    df = simulate_games(n_games, players=len(pols), policies=pols, rng=rng, progress=progress, **kwargs)
    return relabel_policies(outcomes(df), names_of(pols))
