"""Raft layouts: the rules' setup (readable and batched twins), random setups, and the reference layout.

- :func:`setup_state` ``(players, rng)``: one raft set up by the rules, the same raft as the first of
  ``Game(players, rng=rng)`` (both draw the setup block of :func:`setup_block_size` uniforms and place
  the gems with :func:`setup_raft`); :func:`setup_batch` is its numpy twin for many games (tested equal);
- :class:`RandomSetup` ``(players)``: "a raft set up by the rules, at random", accepted wherever a raft
  state is asked (:func:`~pyradice_lab.raft.tilt`, :func:`~pyradice_lab.raft.tilt_distribution`, the
  exact :mod:`.odds` functions, which average over setups exactly);
- :func:`reference_state`: a fixed, documented layout (not a rules setup) for examples and measuring tilts;
- :func:`drop_cell` / :func:`drop_cells`: where a gem put into the centre comes to rest.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np

from ..engine.rng import as_generator
from .components import CENTRE, Components, coerce_components, default_components
from .physics import coerce_params

__all__ = ["setup_state", "setup_raft", "setup_batch", "setup_block_size", "RandomSetup", "reference_state",
           "shuffle", "shuffle_rows", "drop_cell", "drop_cells", "OUTER_CELLS", "SPILL_CELLS"]

OUTER_CELLS = (0, 1, 2, 3, 5, 6, 7, 8)
SPILL_CELLS = (1, 5, 7, 3)  # north, east, south, west of the centre
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
        if self.components is not None:
            object.__setattr__(self, "components", coerce_components(self.components))
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
    """Fisher-Yates on every row of ``items`` in place, the batch twin of :func:`shuffle`."""
    rows = np.arange(len(items))
    for t, i in enumerate(range(items.shape[1] - 1, 0, -1)):
        j = (u[:, t] * (i + 1)).astype(np.int64)
        tmp = items[rows, i].copy()
        items[rows, i] = items[rows, j]
        items[rows, j] = tmp


def drop_cells(u: np.ndarray, spill: float) -> np.ndarray:
    """Where gems dropped into the centre come to rest (batch twin of :func:`drop_cell`)."""
    cell = np.full(len(u), 4, dtype=np.int64)
    if spill > 0:
        s = u < spill
        cell[s] = _SPILL[np.minimum(3, (u[s] / spill * 4.0).astype(np.int64))]
    return cell


def setup_batch(in_play: np.ndarray, u: np.ndarray, spill: float) -> np.ndarray:
    """Rafts after setup for ``n`` games from their setup uniforms ``u`` (n, >= 2 * gems): the batch twin of
    :func:`setup_raft` (the same uniforms give the same rafts)."""
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


def setup_block_size(gems: int, cards: int) -> int:
    """Uniforms drawn at setup: gem shuffle (gems), centre drops (gems), deck shuffle (cards), first player."""
    return 2 * gems + cards + 1


def shuffle(items: list, uniforms) -> None:
    """Fisher-Yates: step t swaps item ``i = len - 1 - t`` with item ``int(uniforms[t] * (i + 1))``."""
    for t, i in enumerate(range(len(items) - 1, 0, -1)):
        j = int(uniforms[t] * (i + 1))
        items[i], items[j] = items[j], items[i]


def drop_cell(u: float, spill: float, roll: bool = True) -> int:
    """Where a gem put into the centre comes to rest, from its uniform ``u``: a side neighbour of the centre
    (north, east, south, west as ``u`` runs through ``[0, spill)``) if it rolls, else the centre."""
    if roll and u < spill:
        return SPILL_CELLS[min(3, int(u / spill * 4.0))]
    return CENTRE


def setup_raft(in_play: np.ndarray, uniforms, spill: float) -> np.ndarray:
    """The raft after setup steps 2-3 from the setup block's uniforms: the gems in play are shuffled
    (``uniforms[:g]``), the first 8 go one on each outer space (row by row), the others are dropped into
    the centre one by one in shuffled order, gem ``k`` rolling by ``uniforms[g + k]``."""
    in_play = np.asarray(in_play, dtype=np.int64)
    g, ncol = int(in_play.sum()), len(in_play)
    gems = [c for c in range(ncol) for _ in range(int(in_play[c]))]
    shuffle(gems, uniforms[:g])
    raft = np.zeros((9, ncol), dtype=np.int64)
    for cell, c in zip(OUTER_CELLS, gems[:8]):
        raft[cell, c] += 1
    for k, c in enumerate(gems[8:]):
        raft[drop_cell(float(uniforms[g + k]), spill), c] += 1
    return raft


def setup_state(players: int = 4, rng=None, *, components: Components | None = None, params=None) -> np.ndarray:
    """A raft set up by the rules: one random gem on each of the 8 outer spaces, the rest dropped into the
    centre (each rolling into a side neighbour with probability ``params.spill``).

    This is the raft of ``Game(players, rng=rng)`` (the same setup block of uniforms is drawn), so
    ``setup_state(3, rng=7)`` is the first raft of the game seeded 7.  To average a tilt question over
    random setups, pass :class:`RandomSetup` as the state to
    :func:`~pyradice_lab.raft.tilt`, :func:`~pyradice_lab.raft.tilt_distribution` or the :mod:`.odds` functions.

    Parameters
    ----------
    players : int
        2..4 (how many gems are in play).
    rng : seed or Generator
    components : path or Components, optional
        A components file or loaded components (default: the packaged ones).
    params : TiltParams or dict, optional
        Only ``spill`` is used.

    Returns
    -------
    numpy.ndarray
        int64 gem counts, shape (9 spaces, colours).

    Examples
    --------
    >>> state = setup_state(2, rng=1)
    >>> state.shape, int(state.sum()), bool((state[[0, 1, 2, 3, 5, 6, 7, 8]].sum(axis=1) >= 1).all())
    ((9, 4), 21, True)
    """
    comp = coerce_components(components)
    players = comp.check_players(players)
    params = coerce_params(params)
    in_play = comp.gems.in_play(players)
    u = as_generator(rng).random(setup_block_size(int(in_play.sum()), len(comp.deck)))
    return setup_raft(in_play, u, params.spill)


def reference_state(players: int = 4, components=None) -> np.ndarray:
    """A fixed, documented raft layout (not a rules setup): the gems used at ``players`` players, one
    ordinary gem on each outer space (colours in turn red, yellow, blue, ... row by row), all others (the
    black gems included) in the centre, none rolled out.

    It is reproducible and easy to lay out by hand, which makes it the layout for measuring real tilts
    (:func:`~pyradice_lab.raft.calibration.standard_start` has the same gems per space) and for fixed
    examples.  A real setup is random (black gems may lie on the outer spaces, some centre gems roll
    into its neighbours): draw one with :func:`~pyradice_lab.raft.setup_state`, or average over them
    by passing :class:`RandomSetup` as the state.

    Parameters
    ----------
    players : int
        2..4: which gems are used (:meth:`Gems.in_play`).
    components : path or Components, optional
        The gems and raft (default: the packaged components).

    Returns
    -------
    numpy.ndarray of int64, shape (9, colours)
        Gems per space (row by row from the north-west corner, centre 4) per colour.

    Raises
    ------
    ValueError
        If ``players`` is not a player count of the components.

    Examples
    --------
    >>> reference_state(4).sum(axis=1).tolist()
    [1, 1, 1, 1, 19, 1, 1, 1, 1]
    """
    comp = coerce_components(components)
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
