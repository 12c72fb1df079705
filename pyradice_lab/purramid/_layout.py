"""One side of Purramid's board (private; :mod:`.components` re-exports every name): :class:`Layout` with the
geometry of the module docstring of :mod:`.components`, the numbers' tiles and widths, and the schema of one side
(``SIDE``) with its builder.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from ..engine.schema import Array, Field, Int, SchemaError, Str, Table, Value, read_toml, validate

DATA_DIR = Path(__file__).with_name("data")
MAX_NUMBER = 30
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
        """Load a layout file: ``name``, ``notes`` and ``[rows]`` with ``value`` (rows bottom to top) and
        ``source``, validated at load (errors name the file and the key).

        Examples
        --------
        >>> Layout.from_toml(DATA_DIR / "side_b.toml").name
        'B'
        """
        doc = validate(SIDE, read_toml(path, what="layout"), file=path)
        try:
            return _side(doc, Path(path).stem)
        except LayoutError as exc:
            raise SchemaError(str(exc), ("rows", "value"), file=path) from None

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


def _v(node, doc: str) -> Field:
    return Field(Value(node, doc), doc)


SIDE = Table({
    "name": Field(Str(max_len=40), "the side's name in tables and transcripts", default=None),
    "notes": Field(Str(max_len=2000), "what the side is for", default=""),
    "rows": _v(Array(Array(Int(1, MAX_NUMBER), 1, 40), 1, 40),
               'space numbers per row, bottom row first ("10" spaces are 2 units wide, "12" take 3 tiles)'),
}, doc="One board side")
def _side(doc: dict, key: str) -> Layout:
    rows = doc["rows"]
    return Layout.from_rows(rows["value"], name=doc.get("name") or key, source=rows["source"],
                            notes=doc.get("notes", ""))


def space_label(number: int, space) -> str:
    """``"8 (row 2, col 1)"``: the number a space shows and its row and column, numbered from 1 (row 1 at the
    bottom, column 1 at the left); the transcripts' and the advisor's name of a space."""
    return f"{number} (row {space[0] + 1}, col {space[1] + 1})"
