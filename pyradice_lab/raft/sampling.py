"""Numpy-only sampling helpers shared by the samplers and the game engines (no compilation here).

:func:`cumulative_tables` turns :func:`~pyradice_lab.raft.physics.fate_table` into inverse-CDF tables;
:func:`sample_batch` draws one tilt for each of many rafts from given uniforms (the batch engine's and
the synthetic-data sampler); :func:`sample_tilt` is its readable one-raft twin used by the rules engine;
:func:`turn_block_size` (and :func:`.layouts.setup_block_size`) fix how many uniforms a game draws per turn (at setup)
(the same layout in both game engines).  Raft layouts (the rules' setup, random setups, the reference
layout) live in :mod:`.layouts`.
"""

from __future__ import annotations

import numpy as np

from .physics import FALLEN

__all__ = ["cumulative_tables", "sample_batch", "sample_tilt", "turn_block_size"]

def cumulative_tables(weights: np.ndarray, fates: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Cumulative node weights and fate probabilities for inverse-CDF sampling (last entries exactly 1)."""
    cumw = np.cumsum(weights)
    cumw[-1] = 1.0
    cumf = np.cumsum(fates, axis=2)
    cumf[:, :, -1] = 1.0
    return np.ascontiguousarray(cumw), np.ascontiguousarray(cumf)


def sample_batch(u_node: np.ndarray, u_gems: np.ndarray, raft: np.ndarray, cumw: np.ndarray,
                 cumf: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One tilt for each of ``n`` rafts from given uniforms, in numpy (the batch engine's sampler).

    ``u_node`` (n,), ``u_gems`` (n, >= gems), ``raft`` (n, 9, C), per-game cumulative tables ``cumw``
    (n, J) and ``cumf`` (n, J, 9, 10).  Gem ``g`` of a raft (spaces 0..8, colours in order) uses
    ``u_gems[:, g]``: the same outcome as :func:`~pyradice_lab.raft.rules.sample_tilt`.  Returns
    ``(fallen (n, C), raft after (n, 9, C))``.
    """
    n, _, ncol = raft.shape
    rows = np.arange(n)
    j = np.minimum((u_node[:, None] >= cumw).sum(axis=1), cumw.shape[1] - 1)
    flat = raft.reshape(n, -1)
    cum = np.cumsum(flat, axis=1)
    g = int(cum[:, -1].max(initial=0))
    slot = np.arange(g)
    group = np.minimum((cum[:, None, :] <= slot[None, :, None]).sum(axis=2), flat.shape[1] - 1)
    live = slot[None, :] < cum[:, -1:]
    cell, col = group // ncol, group % ncol
    tables = cumf[rows[:, None], j[:, None], cell, :9]
    y = (tables <= u_gems[:, :g, None]).sum(axis=2)
    gi = np.broadcast_to(rows[:, None], (n, g))
    fell = live & (y == 9)
    stay = live & (y < 9)
    fallen = np.bincount((gi * ncol + col)[fell], minlength=n * ncol).reshape(n, ncol)
    after = np.bincount((gi * 9 * ncol + y * ncol + col)[stay], minlength=n * 9 * ncol).reshape(n, 9, ncol)
    return fallen.astype(np.int64), after.astype(np.int64)


def turn_block_size(gems: int) -> int:
    """Uniforms drawn per turn: random policy, timing node, one per gem on the raft, one per gem dropped."""
    return 2 + 2 * gems


def sample_tilt(u_node: float, u_gems, raft: np.ndarray, cumw: np.ndarray, cumf: np.ndarray):
    """One tilt from given uniforms, readable: the timing node from ``u_node``, then each gem on the
    raft (spaces 0..8, colours in order) from the next uniform of ``u_gems``.  Returns (fallen, raft after)."""
    j = 0
    while j < len(cumw) - 1 and u_node >= cumw[j]:
        j += 1
    fallen = np.zeros(raft.shape[1], dtype=np.int64)
    after = np.zeros_like(raft)
    g = 0
    for cell in range(9):
        for colour in range(raft.shape[1]):
            for _ in range(int(raft[cell, colour])):
                v = u_gems[g]
                g += 1
                y = 0
                while y < FALLEN and v >= cumf[j, cell, y]:
                    y += 1
                if y == FALLEN:
                    fallen[colour] += 1
                else:
                    after[y, colour] += 1
    return fallen, after
