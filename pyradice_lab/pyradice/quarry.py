"""The quarry: dice in three layers, which of them can be taken, and taking them.

Availability is a pure function of which positions are occupied.  A die is *available* when at least 3 of its
faces are visible (rules): its bottom face never is, its top face is visible when no die rests on it, and each
of its four side faces is visible when no die stands beside it in the same layer (the board edge hides
nothing).  :func:`visible_faces` and :func:`availability` compute this for many quarries at once (batch axis
first) with the index arrays of :mod:`.geometry`; :class:`Quarry` is one quarry with values and colours.

Examples
--------
>>> q = Quarry.random(2, rng=3)
>>> q.available()
[(2, 0, 0), (2, 0, 3), (2, 1, 0), (2, 1, 3)]
>>> value, colour = q.take((2, 0, 0))
>>> len(q.available()), q.remaining
(5, 46)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from ..engine.rng import as_generator
from .components import palette
from .geometry import QuarryGeometry, check_players, quarry_geometry

__all__ = ["Quarry", "visible_faces", "availability", "draw_quarry", "colour_pool", "colour_letters"]


def colour_letters(names) -> tuple[str, ...]:
    """Distinct one-letter codes for colour ``names`` (the palette's letters when the names are the palette's)."""
    pal = palette()
    if tuple(names) == pal.names:
        return tuple(pal.letter(i) for i in range(len(names)))
    out: list[str] = []
    for name in names:
        options = [ch for ch in str(name).lower() if ch.isalpha()] + list("abcdefghijklmnopqrstuvwxyz0123456789")
        out.append(next(ch for ch in options if ch not in out))
    return tuple(out)


def _occupancy(occupied, players: int) -> tuple[np.ndarray, QuarryGeometry, bool]:
    geom = quarry_geometry(players)
    try:
        occ = np.asarray(occupied)
    except (ValueError, TypeError):
        raise ValueError(f"occupied must be a boolean array (or 0/1), got {occupied!r:.80}") from None
    if occ.dtype != bool:
        if not np.isin(occ, (0, 1)).all():
            raise ValueError("occupied must be a boolean array (or 0/1)")
        occ = occ.astype(bool)
    single = occ.ndim == 1
    occ2 = occ[None, :] if single else occ
    if occ2.ndim != 2 or occ2.shape[1] != geom.n:
        raise ValueError(f"occupied must have shape (n_quarries, {geom.n}) or ({geom.n},) for players={players}, "
                         f"got {occ.shape}")
    return occ2, geom, single


def visible_faces(occupied, players: int = 2) -> np.ndarray:
    """Number of visible faces of every die (0 where the position is empty).

    Parameters
    ----------
    occupied : bool array, shape (B, n) or (n,)
        Which positions hold a die (flat order of :func:`.geometry.quarry_geometry`).
    players : int
        2 (47 positions) or 3-4 (92 positions).

    Returns
    -------
    int8 array of the same shape: 0..5 (top + 4 sides; the bottom never counts).

    Examples
    --------
    >>> import numpy as np
    >>> full = np.ones(47, dtype=bool)
    >>> int(visible_faces(full)[39]), int(visible_faces(full)[40])   # a top corner, a top edge die
    (3, 2)
    """
    occ, geom, single = _occupancy(occupied, players)
    pad = np.concatenate([occ, np.zeros((occ.shape[0], 1), dtype=bool)], axis=1)  # slot n is always empty
    free_sides = 4 - pad[:, geom.sides].sum(axis=2)
    top_free = ~pad[:, geom.covers].any(axis=2)
    vis = np.where(occ, free_sides + top_free, 0).astype(np.int8)
    return vis[0] if single else vis


def availability(occupied, players: int = 2) -> np.ndarray:
    """Which dice can be taken (at least 3 visible faces), for one or many quarries (batch axis first).

    Parameters
    ----------
    occupied : bool array, shape (B, n) or (n,)
        Which positions hold a die (0/1 accepted), flat order of :func:`.geometry.quarry_geometry`.
    players : int
        2 (47 positions) or 3-4 (92 positions).

    Returns
    -------
    numpy.ndarray of bool
        Same shape as ``occupied``: True where a die is present and shows at least 3 faces.

    Raises
    ------
    ValueError
        If ``occupied`` is not boolean (or 0/1) or its last axis is not the quarry size of ``players``, or
        ``players`` is not in 2..4.
    TypeError
        If ``players`` is not an integer.

    Examples
    --------
    >>> import numpy as np
    >>> av = availability(np.ones((2, 92), dtype=bool), players=4)
    >>> av.shape, av.sum(axis=1).tolist()
    ((2, 92), [4, 4])
    """
    return visible_faces(occupied, players) >= 3


def colour_pool(players: int = 2, colours=None) -> tuple[tuple[str, ...], np.ndarray]:
    """The colour names and the pool of dice (colour indices) in the box for ``players``.

    ``colours`` None uses the component file (one copy for 2 players, two copies for 3-4); a mapping
    ``name -> count`` gives another box.
    """
    players = check_players(players)
    if colours is None:
        pal = palette()
        names = pal.names
        counts = [c * (1 if players == 2 else 2) for c in pal.counts]
    elif isinstance(colours, Mapping):
        names = tuple(str(k) for k in colours)
        counts = []
        for k, v in colours.items():
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 0:
                raise ValueError(f"colours[{k!r}] must be a non-negative integer count, got {v!r}")
            counts.append(int(v))
    else:
        raise TypeError(f"colours must be None or a mapping colour -> count, got {type(colours).__name__}")
    if not names:
        raise ValueError("colours must name at least one colour")
    pool = np.repeat(np.arange(len(names), dtype=np.int64), counts)
    n = quarry_geometry(players).n
    if len(pool) < n:
        raise ValueError(f"colours must hold at least {n} dice for players={players}, got {len(pool)}")
    return names, pool


def draw_quarry(players: int, rng, pool: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Chance outcome of setup: fair d6 values and colours drawn without replacement from ``pool``.

    This is the one declaration of the quarry's randomness; games, :meth:`Quarry.random` and the batched
    simulator all draw through it.
    """
    n = quarry_geometry(players).n
    values = rng.integers(1, 7, size=n).astype(np.int64)
    colours = rng.permutation(pool)[:n].astype(np.int64)
    return values, colours


class Quarry:
    """One quarry: values, colours and occupancy of every position, with the take rule.

    Build one with :meth:`random`; positions are ``(layer, row, col)`` tuples with layer 0 at the bottom.
    """

    def __init__(self, players: int, values, colours, colour_names: Sequence[str], occupied=None):
        self.players = check_players(players)
        self.geometry = quarry_geometry(self.players)
        n = self.geometry.n
        self.values = np.array(values, dtype=np.int64).reshape(-1)
        self.colours = np.array(colours, dtype=np.int64).reshape(-1)
        if self.values.shape != (n,) or self.colours.shape != (n,):
            raise ValueError(f"values and colours must hold {n} dice for players={self.players}")
        if not np.isin(self.values, np.arange(1, 7)).all():
            raise ValueError("values must be in 1..6")
        self.colour_names = tuple(colour_names)
        if self.colours.min() < 0 or self.colours.max() >= len(self.colour_names):
            raise ValueError("colours must index colour_names")
        self.occupied = np.ones(n, dtype=bool) if occupied is None else np.array(occupied, dtype=bool)

    @classmethod
    def random(cls, players: int = 2, rng=None, colours=None) -> Quarry:
        """A freshly set-up quarry with random values and colours.

        Parameters
        ----------
        players : int
            2 uses the 2-player side (4x6, 3x5, 2x4: 47 dice); 3 or 4 the 3/4-player side (4x11, 3x10, 2x9: 92).
        rng : seed or Generator
        colours : mapping colour -> count, optional
            The dice in the box to draw from (default: the component file, two copies for 3-4 players).

        Examples
        --------
        >>> q = Quarry.random(4, rng=1)
        >>> q.remaining, len(q.available())
        (92, 4)
        """
        players = check_players(players)
        names, pool = colour_pool(players, colours)
        gen = as_generator(rng)
        values, cols = draw_quarry(players, gen, pool)
        return cls(players, values, cols, names)

    def copy(self) -> Quarry:
        return Quarry(self.players, self.values, self.colours, self.colour_names, self.occupied.copy())

    # ----------------------------------------------------------------------------------------- queries
    @property
    def remaining(self) -> int:
        """Number of dice still in the quarry."""
        return int(self.occupied.sum())

    def _index(self, pos) -> int:
        try:
            parts = tuple(pos)
        except TypeError:
            parts = ()
        if isinstance(pos, (str, bytes)) or len(parts) != 3 or not all(
                isinstance(x, (int, np.integer)) and not isinstance(x, bool) for x in parts):
            raise ValueError(f"pos must be a (layer, row, col) tuple of integers, got {pos!r}")
        layer, row, col = (int(x) for x in parts)
        return self.geometry.index(layer, row, col)

    def available_mask(self) -> np.ndarray:
        """Boolean mask over flat positions of the dice that can be taken."""
        return availability(self.occupied, self.players)

    def available(self) -> list[tuple[int, int, int]]:
        """Positions ``(layer, row, col)`` of the available dice, in flat order (bottom layer first)."""
        return [self.geometry.position(i) for i in np.flatnonzero(self.available_mask())]

    def die(self, pos) -> tuple[int, str] | None:
        """``(value, colour)`` of the die at ``pos``, or None if the position is empty."""
        i = self._index(pos)
        if not self.occupied[i]:
            return None
        return int(self.values[i]), self.colour_names[self.colours[i]]

    # ----------------------------------------------------------------------------------------- action
    def take(self, pos) -> tuple[int, str]:
        """Remove the die at ``pos`` and return its ``(value, colour)``.

        Raises ValueError naming ``pos`` if the position is off the board, empty or not available.
        """
        i = self._index(pos)
        if not self.occupied[i]:
            raise ValueError(f"pos {tuple(pos)} is empty")
        if not self.available_mask()[i]:
            faces = int(visible_faces(self.occupied, self.players)[i])
            raise ValueError(f"pos {tuple(pos)} is not available: {faces} visible faces, 3 needed")
        self.occupied[i] = False
        return int(self.values[i]), self.colour_names[self.colours[i]]

    def render(self, mark_available: bool = True) -> str:
        """The three layers as text, top layer first; ``[v c]`` marks an available die, ``.`` an empty spot.

        Each die shows its value and its colour's letter (:func:`colour_letters`).
        """
        av = self.available_mask() if mark_available else np.zeros(self.geometry.n, dtype=bool)
        letters = colour_letters(self.colour_names)
        lines = []
        for layer in (2, 1, 0):
            rows, cols = self.geometry.shapes[layer]
            lines.append(f"layer {layer} ({'top' if layer == 2 else 'middle' if layer == 1 else 'bottom'}, "
                         f"{rows}x{cols})")
            indent = "   " * layer
            for r in range(rows):
                cells = []
                for c in range(cols):
                    i = self.geometry.index(layer, r, c)
                    if not self.occupied[i]:
                        cells.append("  .  ")
                        continue
                    txt = f"{self.values[i]}{letters[self.colours[i]]}"
                    cells.append(f"[{txt}] " if av[i] else f" {txt}  ")
                lines.append(indent + "".join(cells).rstrip())
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"Quarry(players={self.players}, remaining={self.remaining}, available={len(self.available())})"
