"""A common view of a game's result: one row per (game, seat), whatever the game.

Every game records its results in its own columns (Purramid ``winner`` and ``score_*``, Pyradice
``score_s*``/``goals_s*``, Rocking Raft ``score_*``/``boats_*``, Meerkat Kingdom ``score_*`` and the automa
seat).  Each game's ``sim.outcomes(df)`` turns its own frame into the long frame built here, so cross-game
tools (:mod:`pyradice_lab.design.strength`, start-player advantage) read one shape:

========== ====================================================================================
game       the game's ``game`` index
seat       seat index in the game's own frame
policy     the seat's policy name
start      True for the seat that took the first turn (start-player advantage is measured by turn
           position, not by seat index)
position   turn order, 0 = start player
score      the seat's final score
rank       1 = winner(s); seats that tie on every tie-break key share a rank (competition ranking:
           1, 1, 3)
win        win share: 1/k for each of k tied winners, else 0
========== ====================================================================================

This module sits below the games in the import order: games import it, it imports no game.

Examples
--------
>>> out = outcome_frame([0, 1, 2], ["a", "b"], positions=[[0, 1], [1, 0], [0, 1]],
...                     scores=[[5, 5], [7, 3], [4, 4]], keys=[[[5, 5], [7, 3], [4, 4]], [[2, 1], [0, 0], [1, 1]]])
>>> out[["game", "policy", "start", "rank", "win"]].values.tolist()   # doctest: +NORMALIZE_WHITESPACE
[[0, 'a', True, 1, 1.0], [0, 'b', False, 2, 0.0], [1, 'a', False, 1, 1.0], [1, 'b', True, 2, 0.0],
 [2, 'a', True, 1, 0.5], [2, 'b', False, 1, 0.5]]
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

__all__ = ["OUTCOME_COLUMNS", "outcome_frame", "ranks_from_keys", "relabel_policies", "check_outcomes"]

#: Columns of every outcomes frame, in order.
OUTCOME_COLUMNS = ("game", "seat", "policy", "start", "position", "score", "rank", "win")


def _matrix(x, name: str, shape: tuple[int, int] | None, dtype=None) -> np.ndarray:
    arr = np.asarray(x, dtype=dtype)
    if arr.ndim != 2:
        raise ValueError(f"{name} must be a 2-D array (games, seats), got shape {arr.shape}")
    if shape is not None and arr.shape != shape:
        raise ValueError(f"{name} must have shape {shape} (games, seats), got {arr.shape}")
    return arr


def ranks_from_keys(keys: Sequence) -> np.ndarray:
    """Competition ranks per game from tie-break keys compared in order (higher is better).

    Parameters
    ----------
    keys : sequence of array_like, each of shape (games, seats)
        The first key decides; the next one breaks ties on the first, and so on.  Seats equal on every key
        share a rank.

    Returns
    -------
    ndarray of int, shape (games, seats)
        1 + the number of seats strictly better.

    Examples
    --------
    >>> ranks_from_keys([[[3, 5, 5, 1]], [[0, 1, 0, 9]]]).tolist()
    [[3, 1, 2, 4]]
    >>> ranks_from_keys([[[4, 4, 2]]]).tolist()
    [[1, 1, 3]]
    """
    if isinstance(keys, np.ndarray) and keys.ndim == 2:
        keys = [keys]
    mats = [np.asarray(k, dtype=float) for k in keys]
    if not mats:
        raise ValueError("keys must hold at least one (games, seats) array")
    shape = mats[0].shape
    for i, k in enumerate(mats):
        if k.ndim != 2 or k.shape != shape:
            raise ValueError(f"keys[{i}] must have shape {shape} (games, seats), got {k.shape}")
        if np.isnan(k).any():
            raise ValueError(f"keys[{i}] holds NaN")
    n, seats = shape
    rank = np.ones((n, seats), dtype=np.int64)
    for i in range(seats):
        for j in range(seats):
            if i == j:
                continue
            better = np.zeros(n, dtype=bool)
            equal = np.ones(n, dtype=bool)
            for k in mats:
                better |= equal & (k[:, j] > k[:, i])
                equal &= k[:, j] == k[:, i]
            rank[:, i] += better
    return rank


def outcome_frame(game, policies, positions, scores, keys=None) -> pd.DataFrame:
    """The long outcomes frame (see the module docstring) from per-game, per-seat arrays.

    Parameters
    ----------
    game : array_like of int, shape (games,)
        Game index of each row of the game's frame.
    policies : sequence of str (one per seat) or array_like of str, shape (games, seats)
    positions : array_like of int, shape (games, seats) or (seats,)
        Turn order of each seat, 0 = the start player; each row a permutation of 0..seats-1.
    scores : array_like, shape (games, seats)
    keys : sequence of (games, seats) arrays, optional
        Ranking keys, higher is better, compared in order (default: the scores alone).  A game passes its
        tie-breaks here, e.g. ``[score, goals]``.

    Returns
    -------
    DataFrame
        Columns :data:`OUTCOME_COLUMNS`, rows ordered by game, then seat.
    """
    game = np.asarray(game)
    if game.ndim != 1:
        raise ValueError(f"game must be 1-D (one entry per game), got shape {game.shape}")
    scores = _matrix(scores, "scores", None)
    n, seats = scores.shape
    if len(game) != n:
        raise ValueError(f"game must have one entry per row of scores ({n}), got {len(game)}")
    if seats < 1:
        raise ValueError("scores must have at least one seat")
    pos = np.asarray(positions)
    if pos.ndim == 1 and pos.shape == (seats,):
        pos = np.broadcast_to(pos, (n, seats))
    pos = _matrix(pos, "positions", (n, seats)).astype(np.int64)
    if n and not (np.sort(pos, axis=1) == np.arange(seats)).all():
        raise ValueError(f"positions must be a permutation of 0..{seats - 1} in every game")
    if isinstance(policies, str):
        raise TypeError("policies must be one name per seat (a list) or a (games, seats) array, got a str")
    pol = np.asarray(policies, dtype=object)
    if pol.ndim == 1:
        if len(pol) != seats:
            raise ValueError(f"policies must name one policy per seat ({seats}), got {len(pol)}")
        pol = np.broadcast_to(pol, (n, seats))
    pol = _matrix(pol, "policies", (n, seats))
    rank = ranks_from_keys([scores] if keys is None else keys)
    if rank.shape != (n, seats):
        raise ValueError(f"keys must have shape {(n, seats)} (games, seats), got {rank.shape}")
    top = rank == 1
    win = top / top.sum(axis=1, keepdims=True)
    return pd.DataFrame({
        "game": np.repeat(game, seats),
        "seat": np.tile(np.arange(seats), n),
        "policy": pol.ravel().astype(str).astype(object),
        "start": (pos == 0).ravel(),
        "position": pos.ravel(),
        "score": scores.ravel(),
        "rank": rank.ravel(),
        "win": win.ravel(),
    })


def relabel_policies(out: pd.DataFrame, labels: Sequence[str]) -> pd.DataFrame:
    """``out`` with the policy of seat ``s`` renamed ``labels[s]`` (e.g. the names a lineup was given as)."""
    labels = list(labels)
    seats = out["seat"].to_numpy()
    if len(out) and seats.max() >= len(labels):
        raise ValueError(f"labels must name every seat (0..{seats.max()}), got {len(labels)}")
    out = out.copy()
    out["policy"] = np.asarray(labels, dtype=object)[seats]
    return out


def check_outcomes(out: pd.DataFrame) -> None:
    """Raise ValueError unless ``out`` is a well-formed outcomes frame (columns, one start and win
    shares summing to 1 per game)."""
    if not isinstance(out, pd.DataFrame):
        raise TypeError(f"outcomes must be a DataFrame, got {type(out).__name__}")
    missing = [c for c in OUTCOME_COLUMNS if c not in out.columns]
    if missing:
        raise ValueError(f"outcomes frame lacks columns {missing}")
    by = out.groupby("game", sort=False)
    if not np.allclose(by["win"].sum().to_numpy(), 1.0):
        raise ValueError("outcomes: win shares must sum to 1 in every game")
    if not (by["start"].sum().to_numpy() == 1).all():
        raise ValueError("outcomes: every game must have exactly one start player")
