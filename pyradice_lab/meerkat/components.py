"""Meerkat Kingdom components as data: tiles, layout, oasis bags, automa die, bonus tokens.

The defaults live in ``data/components.toml``; every value there is marked ``source = "rules"`` or
``source = "reconstruction"`` with the reasoning in comments.  A designer can pass their own file to
:func:`load_components`; everything is validated on load.

Examples
--------
>>> from pyradice_lab.meerkat.components import default_components
>>> comp = default_components()
>>> comp.tile(6).values
(6, 3)
>>> comp.bonus_tokens(3)
(9, 6)
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

__all__ = ["Tile", "Components", "load_components", "default_components", "TILES", "BLUE_EFFECTS",
           "TAN_EFFECTS", "HAZARDS", "AUTOMA_ACTIONS", "DATA_FILE"]

DATA_FILE = Path(__file__).with_name("data") / "components.toml"
TILES = tuple(range(3, 13))
BLUE_EFFECTS = ("move", "recall", "guardian", "swap")
TAN_EFFECTS = ("move", "swap", "two_guardians", "plus3", "reverse")
HAZARDS = ("hawk", "fire", "jackal")
AUTOMA_ACTIONS = ("reroll", "move_high", "swap_low", "swap_high", "queen_low", "queen_high")
_SOURCES = ("rules", "reconstruction")


@dataclass(frozen=True)
class Tile:
    """One desert tile: its number and its end-game values (high, low) or (high, mid, low)."""

    number: int
    values: tuple[int, ...]
    source: str


@dataclass(frozen=True)
class Components:
    """All game components (frozen, validated).  ``sources`` maps each component name to its source."""

    tiles: tuple[Tile, ...]
    meerkats: int
    max_guardians: int
    max_pups: int
    male_start_tile: int
    count_by_face: tuple[int, ...]
    queen_faces: tuple[int, ...]
    rows: tuple[int, ...]
    edges: tuple[tuple[int, int], ...]
    shuffle_tiles: bool
    oasis_tiles: tuple[int, ...]
    blue: tuple[tuple[str, int], ...]              # (effect, copies)
    brown: tuple[tuple[str, str, int], ...]        # (front, back, copies)
    automa_faces: tuple[str, ...]
    pair_actions: tuple[str, ...]
    bonus_values: tuple[int, ...]
    sources: tuple[tuple[str, str], ...]
    constants: tuple[tuple[str, str], ...] = ()   # documented engine constants (queens, queen_strength, ...)

    def tile(self, number: int) -> Tile:
        """The tile with this number (3..12)."""
        for t in self.tiles:
            if t.number == number:
                return t
        raise ValueError(f"tile must be in 3..12, got {number!r}")

    def bonus_tokens(self, seats: int) -> tuple[int, ...]:
        """Bonus token values in the game for ``seats`` seats (the automa counts): one fewer than seats."""
        if not 2 <= seats <= len(self.bonus_values) + 1:
            raise ValueError(f"seats must be in 2..{len(self.bonus_values) + 1}, got {seats}")
        return self.bonus_values[:seats - 1]

    @property
    def n_positions(self) -> int:
        return int(sum(self.rows))

    def position_adjacency(self) -> np.ndarray:
        """Boolean (10, 10) adjacency of the layout positions."""
        n = self.n_positions
        adj = np.zeros((n, n), dtype=bool)
        for a, b in self.edges:
            adj[a, b] = adj[b, a] = True
        return adj

    def source_table(self):
        """DataFrame (component, value, source) listing every component and where it comes from."""
        import pandas as pd

        label = {"die_faces": "automa die faces", "pair_actions": "automa pair actions", "values": "bonus token values"}
        return pd.DataFrame([(label.get(n, n), s) for n, s in self.sources], columns=["component", "source"]).assign(
            value=[self._describe(name) for name, _ in self.sources])[["component", "value", "source"]]

    def _describe(self, name: str) -> str:
        if name.startswith("tile "):
            return "/".join(str(v) for v in self.tile(int(name[5:])).values)
        if name.startswith("blue "):
            return str(dict(self.blue)[name[5:]]) + " copies"
        if name.startswith("brown "):
            for f, b, c in self.brown:
                if f"brown {f}" == name:
                    return f"{c} copies, back {b}"
        if name in dict(self.constants):
            return dict(self.constants)[name]
        # file keys whose field has another name (the table must never print "None")
        value = getattr(self, _FIELD_OF_KEY.get(name, name), None)
        if value is None:
            return "see components.toml"
        if isinstance(value, tuple) and len(value) > 12:
            return f"{len(value)} entries"
        if isinstance(value, tuple):
            return ", ".join("-".join(map(str, v)) if isinstance(v, tuple) else str(v) for v in value)
        return str(value)


#: Components-file keys (as listed in ``sources``) whose :class:`Components` field has another name.
_FIELD_OF_KEY = {"die_faces": "automa_faces", "values": "bonus_values"}


def _val(section: dict, key: str, where: str, sources: list):
    if key not in section:
        raise ValueError(f"{where}.{key} is missing from the components file")
    entry = section[key]
    if not isinstance(entry, dict) or "value" not in entry or entry.get("source") not in _SOURCES:
        raise ValueError(f"{where}.{key} must be a table {{ value = ..., source = 'rules'|'reconstruction' }}")
    sources.append((key, entry["source"]))
    return entry["value"]


def _check_int(v, name: str, low: int, high: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
        raise ValueError(f"{name} must be an integer in {low}..{high}, got {v!r}")
    return v


def _parse(doc: dict) -> Components:
    src: list[tuple[str, str]] = []
    pieces, dice, layout = doc.get("pieces", {}), doc.get("dice", {}), doc.get("layout", {})
    automa, bonus = doc.get("automa", {}), doc.get("bonus", {})
    meerkats = _check_int(_val(pieces, "meerkats", "pieces", src), "pieces.meerkats", 1, 60)
    max_g = _check_int(_val(pieces, "max_guardians", "pieces", src), "pieces.max_guardians", 0, 20)
    max_p = _check_int(_val(pieces, "max_pups", "pieces", src), "pieces.max_pups", 0, 20)
    male = _check_int(_val(pieces, "male_start_tile", "pieces", src), "pieces.male_start_tile", 3, 12)
    constants = []
    for key in ("queens", "queen_strength", "burrow_actions"):  # documented constants of the engine
        v = _val(pieces, key, "pieces", src)
        constants.append((key, ", ".join(map(str, v)) if isinstance(v, list) else str(v)))
    cbf = tuple(_val(dice, "count_by_face", "dice", src))
    if len(cbf) != 6 or any(_check_int(c, "dice.count_by_face", 1, 3) != c for c in cbf):
        raise ValueError(f"dice.count_by_face must list 6 counts in 1..3, got {cbf!r}")
    qf = tuple(_check_int(f, "dice.queen_faces", 1, 6) for f in _val(dice, "queen_faces", "dice", src))

    tiles = []
    for entry in doc.get("tile", []):
        num = _check_int(entry.get("number"), "tile.number", 3, 12)
        vals = tuple(entry.get("values", ()))
        want = 2 if num <= 8 else 3
        if len(vals) != want or any(_check_int(v, f"tile {num} values", 0, 99) != v for v in vals):
            raise ValueError(f"tile {num} values must be {want} integers (high..low), got {vals!r}")
        if list(vals) != sorted(vals, reverse=True):
            raise ValueError(f"tile {num} values must be non-increasing (high..low), got {vals!r}")
        if entry.get("source") not in _SOURCES:
            raise ValueError(f"tile {num} source must be 'rules' or 'reconstruction'")
        tiles.append(Tile(num, vals, entry["source"]))
        src.append((f"tile {num}", entry["source"]))
    if sorted(t.number for t in tiles) != list(TILES):
        raise ValueError(f"tile entries must be exactly the tiles 3..12, got {sorted(t.number for t in tiles)}")
    tiles.sort(key=lambda t: t.number)

    rows = tuple(_val(layout, "rows", "layout", src))
    n_pos = sum(rows)
    if n_pos != 10:
        raise ValueError(f"layout.rows must hold 10 positions in total, got {n_pos}")
    edges = tuple(tuple(e) for e in _val(layout, "edges", "layout", src))
    for e in edges:
        if len(e) != 2 or e[0] == e[1] or not all(0 <= x < 10 for x in e):
            raise ValueError(f"layout.edges must be pairs of distinct positions 0..9, got {e!r}")
    shuffle = bool(_val(layout, "shuffle_tiles", "layout", src))
    oasis = tuple(_check_int(t, "layout.oasis_tiles", 3, 12) for t in _val(layout, "oasis_tiles", "layout", src))
    # connectivity
    seen, todo = {0}, [0]
    while todo:
        a = todo.pop()
        for x, y in edges:
            for u, v in ((x, y), (y, x)):
                if u == a and v not in seen:
                    seen.add(v)
                    todo.append(v)
    if len(seen) != 10:
        raise ValueError("layout.edges must connect all 10 positions")

    blue = []
    for entry in doc.get("blue", []):
        if entry.get("effect") not in BLUE_EFFECTS or entry.get("source") not in _SOURCES:
            raise ValueError(f"blue entries need effect in {BLUE_EFFECTS} and a source, got {entry!r}")
        blue.append((entry["effect"], _check_int(entry.get("copies"), "blue.copies", 0, 20)))
        src.append((f"blue {entry['effect']}", entry["source"]))
    brown = []
    for entry in doc.get("brown", []):
        front, back = entry.get("front"), entry.get("back")
        if front not in TAN_EFFECTS + HAZARDS or back not in TAN_EFFECTS or entry.get("source") not in _SOURCES:
            raise ValueError(f"brown entries need front in {TAN_EFFECTS + HAZARDS}, back in {TAN_EFFECTS}, "
                             f"and a source, got {entry!r}")
        if front in TAN_EFFECTS and back != front:
            raise ValueError(f"a tan brown token's back must equal its front, got {entry!r}")
        brown.append((front, back, _check_int(entry.get("copies"), "brown.copies", 0, 20)))
        src.append((f"brown {front}", entry["source"]))
    if sum(c for _, c in blue) + sum(c for *_, c in brown) > 60:
        raise ValueError("blue + brown bags may hold at most 60 tokens")

    faces = tuple(_val(automa, "die_faces", "automa", src))
    if len(faces) != 6 or any(f not in ("L", "M", "H") for f in faces):
        raise ValueError(f"automa.die_faces must be 6 faces from L, M, H, got {faces!r}")
    pairs = tuple(_val(automa, "pair_actions", "automa", src))
    if len(pairs) != 6 or any(p not in AUTOMA_ACTIONS for p in pairs):
        raise ValueError(f"automa.pair_actions must be 6 actions from {AUTOMA_ACTIONS}, got {pairs!r}")
    bvals = tuple(_check_int(v, "bonus.values", 0, 99) for v in _val(bonus, "values", "bonus", src))
    if len(bvals) < 3:
        raise ValueError("bonus.values must hold at least 3 tokens (games of up to 4 seats)")
    return Components(tuple(tiles), meerkats, max_g, max_p, male, cbf, qf, rows, edges, shuffle, oasis,
                      tuple(blue), tuple(brown), faces, pairs, bvals, tuple(src), tuple(constants))


def load_components(path: str | Path | None = None) -> Components:
    """Load and validate a components TOML file (default: the packaged ``data/components.toml``).

    Examples
    --------
    >>> load_components().tile(12).values
    (11, 6, 3)
    """
    path = DATA_FILE if path is None else Path(path)
    with open(path, "rb") as fh:
        doc = tomllib.load(fh)
    return _parse(doc)


@cache
def default_components() -> Components:
    """The packaged default components (cached)."""
    return load_components()
