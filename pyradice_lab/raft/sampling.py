"""Numpy-only sampling helpers shared by the samplers and the game engines (no compilation here).

:func:`cumulative_tables` turns :func:`~pyradice_lab.raft.physics.fate_table` into inverse-CDF tables;
:func:`sample_batch` draws one tilt for each of many rafts from given uniforms (the batch engine's and
the synthetic-data sampler); :func:`sample_tilt` is its readable one-raft twin used by the rules engine;
:func:`setup_block_size` / :func:`turn_block_size` fix how many uniforms a game draws at setup and per turn
(the same layout in both game engines); :func:`setup_batch` is the batch twin of the readable setup
(:func:`~pyradice_lab.raft.rules.setup_raft`); :func:`reference_state` is the documented fixed example
layout and :class:`RandomSetup` stands for "a raft set up by the rules, at random" wherever a state is asked.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np

from .components import Components, default_components
from .physics import FALLEN

__all__ = ["cumulative_tables", "sample_batch", "reference_state", "sample_tilt", "setup_block_size", "turn_block_size",
           "RandomSetup", "setup_batch", "shuffle_rows", "drop_cells", "OUTER_CELLS", "SPILL_CELLS", "CENTRE_NEIGHBOURS"]

OUTER_CELLS = (0, 1, 2, 3, 5, 6, 7, 8)
SPILL_CELLS = (1, 5, 7, 3)  # north, east, south, west of the centre
CENTRE_NEIGHBOURS = SPILL_CELLS
_SPILL = np.array(SPILL_CELLS, dtype=np.int64)


@dataclass(frozen=True)
class RandomSetup:
    """A raft set up by the rules at random, for ``players`` players: pass it where a raft state is asked
    (:func:`~pyradice_lab.raft.tilt`, :func:`~pyradice_lab.raft.tilt_distribution`, the :mod:`.odds`
    functions) to average over setups instead of fixing one layout.

    One random gem of those in play lies on each of the 8 outer spaces; the others were dropped into the
    centre, each rolling into one of its four side neighbours with the tilt model's probability ``spill``
    (:func:`~pyradice_lab.raft.setup_state` draws one such raft).

    Examples
    --------
    >>> from pyradice_lab import raft
    >>> round(float(raft.odds.expected_fallen(RandomSetup(2), "east", "left", 1.5).sum()), 3) > 0
    True
    """

    players: int = 4
    components: Components | None = None

    def __post_init__(self):
        if isinstance(self.players, bool) or not isinstance(self.players, numbers.Integral):
            raise ValueError(f"players must be an integer, got {self.players!r}")
        if self.components is not None and not isinstance(self.components, Components):
            raise TypeError(f"components must be a Components, got {type(self.components).__name__}")
        object.__setattr__(self, "players", self.comp.check_players(self.players))

    @property
    def comp(self) -> Components:
        return self.components if self.components is not None else default_components()

    @property
    def in_play(self) -> np.ndarray:
        """Gems in play per colour."""
        return self.comp.gems.in_play(self.players)

    def sample(self, n: int, gen: np.random.Generator, spill: float) -> np.ndarray:
        """``n`` independent setups (n, 9, colours), drawing ``2 * gems`` uniforms per setup."""
        g = int(self.in_play.sum())
        return setup_batch(self.in_play, gen.random((n, 2 * g)), spill)


def shuffle_rows(items: np.ndarray, u: np.ndarray) -> None:
    """Fisher-Yates on every row of ``items`` in place, the batch twin of :func:`.rules.shuffle`."""
    rows = np.arange(len(items))
    for t, i in enumerate(range(items.shape[1] - 1, 0, -1)):
        j = (u[:, t] * (i + 1)).astype(np.int64)
        tmp = items[rows, i].copy()
        items[rows, i] = items[rows, j]
        items[rows, j] = tmp


def drop_cells(u: np.ndarray, spill: float) -> np.ndarray:
    """Where gems dropped into the centre come to rest (batch twin of :func:`.rules.drop_cell`)."""
    cell = np.full(len(u), 4, dtype=np.int64)
    if spill > 0:
        s = u < spill
        cell[s] = _SPILL[np.minimum(3, (u[s] / spill * 4.0).astype(np.int64))]
    return cell


def setup_batch(in_play: np.ndarray, u: np.ndarray, spill: float) -> np.ndarray:
    """Rafts after setup for ``n`` games from their setup uniforms ``u`` (n, >= 2 * gems): the batch twin of
    :func:`~pyradice_lab.raft.rules.setup_raft` (the same uniforms give the same rafts)."""
    in_play = np.asarray(in_play, dtype=np.int64)
    n, g, ncol = len(u), int(in_play.sum()), len(in_play)
    rows = np.arange(n)
    gems = np.tile(np.repeat(np.arange(ncol), in_play), (n, 1))
    shuffle_rows(gems, u[:, :g])
    raft = np.zeros((n, 9, ncol), dtype=np.int64)
    for idx, cell in enumerate(OUTER_CELLS):
        raft[rows, cell, gems[:, idx]] += 1
    for t, gi in enumerate(range(8, g)):
        raft[rows, drop_cells(u[:, g + t], spill), gems[:, gi]] += 1
    return raft


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


def reference_state(players: int = 4, components=None) -> np.ndarray:
    """A fixed, documented raft layout (not a rules setup): the gems used at ``players`` players, one
    ordinary gem on each outer space (colours in turn red, yellow, blue, ... row by row), all others (the
    black gems included) in the centre, none rolled out.

    It is reproducible and easy to lay out by hand, which makes it the layout for measuring real tilts
    (:func:`~pyradice_lab.raft.calibration.standard_start` has the same gems per space) and for fixed
    examples.  A real setup is random (black gems may lie on the outer spaces, some centre gems roll
    into its neighbours): draw one with :func:`~pyradice_lab.raft.setup_state`, or average over them
    by passing :class:`RandomSetup` as the state.

    >>> reference_state(4).sum(axis=1).tolist()
    [1, 1, 1, 1, 19, 1, 1, 1, 1]
    """
    comp = components if components is not None else default_components()
    players = comp.check_players(players)
    gems = comp.gems.in_play(players).copy()
    state = np.zeros((9, comp.gems.n_colours), dtype=np.int64)
    ordinary = len(gems) - 1
    for k, cell in enumerate((0, 1, 2, 3, 5, 6, 7, 8)):
        for step in range(ordinary):
            c = (k + step) % ordinary
            if gems[c] > 0:
                state[cell, c] += 1
                gems[c] -= 1
                break
    state[4] += gems
    return state


def setup_block_size(gems: int, cards: int) -> int:
    """Uniforms drawn at setup: gem shuffle (gems), centre drops (gems), deck shuffle (cards), first player."""
    return 2 * gems + cards + 1


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
