"""Purramid components as data: board layouts and the game constants, loaded from TOML and validated.

Board geometry
--------------
A layout lists its rows bottom to top, each row a list of space numbers.  Every space is 1 unit wide
except "10" spaces, which are 2 units wide; each row is exactly 1 unit narrower than the row below and
centred on it (a half-unit brick offset), so row ``r`` starts at ``x = r/2``.  A space is *directly below*
another when they lie in adjacent rows and their horizontal spans overlap with positive length.  Two
spaces are *adjacent* when they are neighbours in a row or one is directly below the other.  Spaces are
identified by ``(row, col)``: row 0 is the bottom, ``col`` counts from the left within the row from 0.
Tiles per space: "10" -> 2, "12" -> 3, anything else -> 1.

Internally spaces are also numbered ``0..n-1`` row by row from the bottom left; sets of spaces are
Python ``int`` bit masks over these indices (``1 << i`` is space ``i``).

Examples
--------
>>> from pyradice_lab.purramid.components import Layout, load_layout
>>> tiny = Layout.from_rows([[2, 10, 6], [8, 3, 4], [12, 5]], name="tiny")
>>> tiny.capacity, tiny.below((1, 0)), tiny.adjacent((2, 0))
(11, [(0, 0), (0, 1)], [(1, 0), (1, 1), (2, 1)])
>>> load_layout("A").capacity
78
"""

from __future__ import annotations

import math
import numbers
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from pathlib import Path

__all__ = ["Layout", "GameConfig", "load_layout", "load_game_config", "default_layout_facts", "DATA_DIR",
           "LayoutError", "tiles_for_number", "width_for_number", "MAX_NUMBER", "SIDES"]

DATA_DIR = Path(__file__).with_name("data")
MAX_NUMBER = 30
SIDES = ("A", "B")
_SOURCES = ("rules", "reconstruction")


class LayoutError(ValueError):
    """An invalid board layout (the message names the row and the reason)."""


def tiles_for_number(n: int) -> int:
    """Cat tiles a space showing ``n`` takes: "10" -> 2, "12" -> 3, else 1."""
    return 2 if n == 10 else 3 if n == 12 else 1


def width_for_number(n: int) -> int:
    """Width in units of a space showing ``n``: "10" spaces are 2 wide, all others 1."""
    return 2 if n == 10 else 1


@dataclass(frozen=True, eq=False)
class Layout:
    """One side of the board: rows of numbered spaces with the geometry described in the module docstring.

    Build with :meth:`from_rows`, :meth:`from_toml` or :func:`load_layout`.  Public queries take and
    return spaces as ``(row, col)`` tuples; the ``*_mask`` attributes are the same facts as bit masks over
    space indices (for the solvers and simulators).
    """

    name: str
    rows: tuple[tuple[int, ...], ...]
    spaces: tuple[tuple[int, int], ...] = field(repr=False)
    numbers: tuple[int, ...] = field(repr=False)
    tile_counts: tuple[int, ...] = field(repr=False)
    row_of: tuple[int, ...] = field(repr=False)
    below_mask: tuple[int, ...] = field(repr=False)
    above_mask: tuple[int, ...] = field(repr=False)
    adj_mask: tuple[int, ...] = field(repr=False)
    bottom_mask: int = field(repr=False)
    index_map: dict = field(repr=False)
    source: str = field(default="user", repr=False)
    notes: str = field(default="", repr=False)

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_rows(cls, rows: Sequence[Sequence[int]], *, name: str = "custom", source: str = "user",
                  notes: str = "") -> Layout:
        """Build and validate a layout from rows listed bottom to top.

        Raises
        ------
        LayoutError (a ValueError)
            Naming the row and the reason: no rows, an empty row, a number outside 1..30, a "12" in the
            bottom two rows, a row that is not exactly 1 unit narrower than the row below, more than 12
            "8" spaces (there are only 12 yarn tokens).

        Examples
        --------
        >>> Layout.from_rows([[1, 2, 3], [4, 5]]).spaces
        ((0, 0), (0, 1), (0, 2), (1, 0), (1, 1))
        """
        if isinstance(rows, (str, bytes)) or not isinstance(rows, Sequence):
            raise LayoutError(f"rows must be a list of rows (bottom to top), got {type(rows).__name__}")
        if len(rows) == 0:
            raise LayoutError("rows must hold at least one row, got none")
        clean: list[tuple[int, ...]] = []
        for r, row in enumerate(rows):
            if isinstance(row, (str, bytes)) or not isinstance(row, Sequence):
                raise LayoutError(f"row {r} must be a list of space numbers, got {type(row).__name__}")
            if len(row) == 0:
                raise LayoutError(f"row {r} is empty: every row needs at least one space")
            vals = []
            for c, v in enumerate(row):
                if isinstance(v, bool) or not isinstance(v, numbers.Integral):
                    raise LayoutError(f"row {r}, space {c}: numbers must be integers, got {v!r}")
                if not 1 <= int(v) <= MAX_NUMBER:
                    raise LayoutError(f"row {r}, space {c}: number {int(v)} is outside 1..{MAX_NUMBER}")
                if int(v) == 12 and r < 2:
                    raise LayoutError(f"row {r}, space {c}: a \"12\" space cannot be in the bottom two rows "
                                      f"(they are covered by single tiles in the 2-player setup)")
                vals.append(int(v))
            clean.append(tuple(vals))
        widths = [sum(width_for_number(v) for v in row) for row in clean]
        for r in range(1, len(clean)):
            if widths[r] != widths[r - 1] - 1:
                raise LayoutError(f"row {r} is {widths[r]} units wide but must be exactly 1 unit narrower than "
                                  f"row {r - 1} ({widths[r - 1]} units); \"10\" spaces count 2 units")
        n_eights = sum(v == 8 for row in clean for v in row)
        if n_eights > 12:
            raise LayoutError(f"rows hold {n_eights} \"8\" spaces but there are only 12 yarn tokens (at most 12)")

        spaces, nums, tiles, row_of, spans = [], [], [], [], []
        for r, row in enumerate(clean):
            x = Fraction(r, 2)
            for c, v in enumerate(row):
                w = width_for_number(v)
                spaces.append((r, c))
                nums.append(v)
                tiles.append(tiles_for_number(v))
                row_of.append(r)
                spans.append((x, x + w))
                x += w
        n = len(spaces)
        below = [0] * n
        above = [0] * n
        adj = [0] * n
        for i in range(n):
            for j in range(n):
                if row_of[j] == row_of[i] - 1:
                    lo = max(spans[i][0], spans[j][0])
                    hi = min(spans[i][1], spans[j][1])
                    if hi > lo:
                        below[i] |= 1 << j
                        above[j] |= 1 << i
        for i in range(n):
            adj[i] = below[i] | above[i]
        for i in range(n):
            if i + 1 < n and row_of[i + 1] == row_of[i]:
                adj[i] |= 1 << (i + 1)
                adj[i + 1] |= 1 << i
        bottom = sum(1 << i for i in range(n) if row_of[i] == 0)
        return cls(name=str(name), rows=tuple(clean), spaces=tuple(spaces), numbers=tuple(nums),
                   tile_counts=tuple(tiles), row_of=tuple(row_of), below_mask=tuple(below),
                   above_mask=tuple(above), adj_mask=tuple(adj), bottom_mask=bottom,
                   index_map={s: i for i, s in enumerate(spaces)}, source=source, notes=notes)

    @classmethod
    def from_toml(cls, path: str | Path) -> Layout:
        """Load a layout file: ``name`` and ``[rows]`` with ``value`` (rows bottom to top) and ``source``.

        Examples
        --------
        >>> Layout.from_toml(DATA_DIR / "side_b.toml").name
        'B'
        """
        path = Path(path)
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
        rows_entry = data.get("rows")
        if isinstance(rows_entry, dict):
            src = rows_entry.get("source", "user")
            _check_source(src, f"{path.name}: rows.source")
            rows = rows_entry.get("value")
        else:
            rows, src = rows_entry, "user"
        if rows is None:
            raise LayoutError(f"{path.name}: rows missing (a [rows] table with value = [[...], ...])")
        return cls.from_rows(rows, name=data.get("name", path.stem), source=src, notes=data.get("notes", ""))

    # ------------------------------------------------------------------ queries
    @property
    def key(self) -> tuple:
        """A hashable identity of the board (its rows), for caches."""
        return self.rows

    @property
    def n_spaces(self) -> int:
        return len(self.spaces)

    @property
    def n_rows(self) -> int:
        return len(self.rows)

    @property
    def capacity(self) -> int:
        """Tiles needed to fill the board."""
        return sum(self.tile_counts)

    @property
    def all_mask(self) -> int:
        return (1 << self.n_spaces) - 1

    def index(self, space, name: str = "space") -> int:
        """Index of ``space`` (a ``(row, col)`` pair); ValueError naming ``name`` for an unknown space."""
        try:
            r, c = space
        except (TypeError, ValueError):
            raise ValueError(f"{name} must be a (row, col) pair of integers, got {space!r}") from None
        if isinstance(space, (str, bytes)) or not all(
                isinstance(x, numbers.Integral) and not isinstance(x, bool) for x in (r, c)):
            raise ValueError(f"{name} must be a (row, col) pair of integers, got {space!r}")
        r, c = int(r), int(c)
        idx = self.index_map.get((r, c))
        if idx is None:
            raise ValueError(f"{name} {space!r} is not a space of layout {self.name!r} "
                             f"({self.n_rows} rows; row r has {', '.join(str(len(x)) for x in self.rows)} spaces)")
        return idx

    def number(self, space) -> int:
        """The number printed on ``space``."""
        return self.numbers[self.index(space)]

    def tiles(self, space) -> int:
        """Cat tiles that cover ``space``."""
        return self.tile_counts[self.index(space)]

    def below(self, space) -> list[tuple[int, int]]:
        """Spaces directly below ``space`` (empty for the bottom row)."""
        return self.spaces_of(self.below_mask[self.index(space)])

    def above(self, space) -> list[tuple[int, int]]:
        """Spaces directly above ``space``."""
        return self.spaces_of(self.above_mask[self.index(space)])

    def adjacent(self, space) -> list[tuple[int, int]]:
        """Row neighbours and the spaces directly below and above ``space``."""
        return self.spaces_of(self.adj_mask[self.index(space)])

    def spaces_of(self, mask: int) -> list[tuple[int, int]]:
        """The spaces of a bit mask, in index order."""
        out = []
        i = 0
        while mask:
            if mask & 1:
                out.append(self.spaces[i])
            mask >>= 1
            i += 1
        return out

    def mask_of(self, spaces, name: str = "spaces") -> int:
        """Bit mask of an iterable of ``(row, col)`` spaces (ValueError naming ``name`` if one is unknown)."""
        if isinstance(spaces, (str, bytes)) or not isinstance(spaces, Iterable):
            raise ValueError(f"{name} must be a list of (row, col) spaces, got {spaces!r}")
        m = 0
        for s in spaces:
            m |= 1 << self.index(s, name)
        return m

    def bottom_rows_mask(self, k: int = 2) -> int:
        """Mask of the spaces in the bottom ``k`` rows."""
        return sum(1 << i for i in range(self.n_spaces) if self.row_of[i] < k)

    def eights_mask(self) -> int:
        """Mask of the "8" spaces (the yarn-token spaces)."""
        return sum(1 << i for i, v in enumerate(self.numbers) if v == 8)

    def tiles_of(self, mask: int) -> int:
        """Total tiles of the spaces in ``mask``."""
        return sum(self.tile_counts[i] for i in range(self.n_spaces) if mask >> i & 1)

    def to_frame(self):
        """One row per space: row, col, index, number, tiles, below, adjacent."""
        import pandas as pd

        return pd.DataFrame({
            "row": [s[0] for s in self.spaces], "col": [s[1] for s in self.spaces],
            "index": range(self.n_spaces), "number": self.numbers, "tiles": self.tile_counts,
            "below": [" ".join(f"{r},{c}" for r, c in self.spaces_of(m)) for m in self.below_mask],
            "adjacent": [" ".join(f"{r},{c}" for r, c in self.spaces_of(m)) for m in self.adj_mask],
        })

    def render(self, covered: int = 0, placed: int = 0) -> str:
        """ASCII picture of the board, top row first; ``[..]`` covered, ``<..>`` holding dice."""
        lines = []
        for r in range(self.n_rows - 1, -1, -1):
            parts = []
            for i in range(self.n_spaces):
                if self.row_of[i] != r:
                    continue
                v = self.numbers[i]
                cell = f"{v:>2}"
                if covered >> i & 1:
                    cell = "##"
                txt = f"<{cell}>" if placed >> i & 1 else f"[{cell}]"
                parts.append(txt + ("    " if v == 10 else ""))
            lines.append("  " * r + "".join(parts))
        return "\n".join(lines)


def _check_source(src, where: str) -> None:
    if src not in _SOURCES:
        raise ValueError(f"{where} must be one of {_SOURCES}, got {src!r}")


@cache
def _load_side(name: str) -> Layout:
    return Layout.from_toml(DATA_DIR / f"side_{name.lower()}.toml")


def load_layout(name_or_path: str | Path | Layout = "A") -> Layout:
    """A default side (``"A"`` or ``"B"``), a TOML path, or a Layout (returned unchanged).

    Examples
    --------
    >>> load_layout("B").n_rows
    11
    """
    if isinstance(name_or_path, Layout):
        return name_or_path
    if isinstance(name_or_path, str) and name_or_path.upper() in SIDES:
        return _load_side(name_or_path.upper())
    if isinstance(name_or_path, (str, Path)):
        p = Path(name_or_path)
        if p.suffix.lower() == ".toml":
            if not p.exists():
                raise ValueError(f"layout file {str(p)!r} does not exist")
            return Layout.from_toml(p)
    raise ValueError(f"layout must be 'A', 'B', a .toml path or a Layout, got {name_or_path!r}")


def default_layout_facts(layout: Layout) -> dict[str, bool]:
    """The facts a default side must respect (rules digest + issue), each as name -> holds."""
    bottom2 = layout.bottom_rows_mask(2)
    nums = set(layout.numbers)
    eights = layout.eights_mask()
    two_below_eight = any(
        layout.numbers[j] == 2 for i in range(layout.n_spaces) if eights >> i & 1
        for j in range(layout.n_spaces) if layout.below_mask[i] >> j & 1)
    return {
        "bottom two rows hold 21 tiles": layout.tiles_of(bottom2) == 21,
        "no 12 in the bottom two rows": all(layout.numbers[i] != 12 for i in range(layout.n_spaces)
                                           if bottom2 >> i & 1),
        "shows 2, 3, 6, 8, 10 and 12": {2, 3, 6, 8, 10, 12} <= nums,
        "at most 12 eights": bin(eights).count("1") <= 12,
        "capacity 72..84": 72 <= layout.capacity <= 84,
        "a 2 directly below an 8": two_below_eight,
        "at most 64 spaces": layout.n_spaces <= 64,
    }


# ---------------------------------------------------------------------------------------------- game
@dataclass(frozen=True)
class GameConfig:
    """Game constants (data/game.toml): tile and token counts, deals, dice, defaults."""

    regular_tiles: int
    gold_tiles: int
    yarn_tokens: int
    dice: int
    deal: dict  # players -> tuple of tiles per seat (seat 0 = start player)
    two_player_covered_rows: int
    yarn_value: float
    turn_limit: int
    sources: dict

    def deal_for(self, players: int) -> tuple[int, ...]:
        if players not in self.deal:
            raise ValueError(f"players must be one of {sorted(self.deal)}, got {players!r}")
        return self.deal[players]


def _value(data: dict, key: str, where: str):
    entry = data.get(key)
    if not isinstance(entry, dict) or "value" not in entry:
        raise ValueError(f"{where}: [{key}] must be a table with value and source")
    _check_source(entry.get("source"), f"{where}: {key}.source")
    return entry["value"], entry["source"]


@cache
def load_game_config(path: str | None = None) -> GameConfig:
    """The game constants from ``data/game.toml`` (or another file of the same shape)."""
    p = Path(path) if path else DATA_DIR / "game.toml"
    with open(p, "rb") as fh:
        data = tomllib.load(fh)
    where = p.name
    vals, srcs = {}, {}
    for key in ("regular_tiles", "gold_tiles", "yarn_tokens", "dice", "two_player_covered_rows",
                "yarn_value", "turn_limit"):
        vals[key], srcs[key] = _value(data, key, where)
    deal = {}
    for players in (2, 3, 4):
        v, s = _value(data, f"deal_{players}p", where)
        deal[players] = tuple(int(x) for x in v)
        srcs[f"deal_{players}p"] = s
        if len(deal[players]) != players:
            raise ValueError(f"{where}: deal_{players}p must list {players} seats, got {v!r}")
    cfg = GameConfig(regular_tiles=int(vals["regular_tiles"]), gold_tiles=int(vals["gold_tiles"]),
                     yarn_tokens=int(vals["yarn_tokens"]), dice=int(vals["dice"]), deal=deal,
                     two_player_covered_rows=int(vals["two_player_covered_rows"]),
                     yarn_value=float(vals["yarn_value"]), turn_limit=int(vals["turn_limit"]), sources=srcs)
    for players, d in deal.items():
        covered = 21 if players == 2 else 0
        if sum(d) + covered != cfg.regular_tiles:
            raise ValueError(f"{where}: deal_{players}p deals {sum(d)} tiles (+{covered} covering the board) but "
                             f"there are {cfg.regular_tiles} regular tiles")
    if not math.isfinite(cfg.yarn_value) or cfg.yarn_value < 0:
        raise ValueError(f"{where}: yarn_value must be a finite number >= 0, got {cfg.yarn_value}")
    return cfg
