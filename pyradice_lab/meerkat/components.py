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

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..engine.schema import (
    Array,
    Bool,
    ComponentFormat,
    Const,
    Field,
    Int,
    Records,
    SchemaComponents,
    SchemaError,
    Source,
    Str,
    Table,
    Value,
)

__all__ = ["Tile", "Components", "load_components", "default_components", "coerce_components", "FORMAT", "TILES", "BLUE_EFFECTS",
           "TAN_EFFECTS", "HAZARDS", "AUTOMA_ACTIONS", "DATA_FILE"]

DATA_FILE = Path(__file__).with_name("data") / "components.toml"
TILES = tuple(range(3, 13))
BLUE_EFFECTS = ("move", "recall", "guardian", "swap")
TAN_EFFECTS = ("move", "swap", "two_guardians", "plus3", "reverse")
HAZARDS = ("hawk", "fire", "jackal")
AUTOMA_ACTIONS = ("reroll", "move_high", "swap_low", "swap_high", "queen_low", "queen_high")


@dataclass(frozen=True)
class Tile:
    """One desert tile: its number and its end-game values (high, low) or (high, mid, low)."""

    number: int
    values: tuple[int, ...]
    source: str


@dataclass(frozen=True, eq=False)
class Components(SchemaComponents):
    """All game components (frozen, validated).  ``sources`` maps each component name to its source.

    Build with :func:`load_components`; derive variants with :meth:`replace` (``comp.replace({"tile.7.values":
    (8, 4)})``); equal when their validated documents are equal (:meth:`content_hash`).
    """

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


# ----------------------------------------------------------------------------------------- schema
def _v(node, doc: str) -> Field:
    return Field(Value(node, doc), doc)


_ENGINE = "the engines model it as documented; change the rules engine, not this value"
SPEC = Table({
    "pieces": Field(Table({
        "meerkats": _v(Int(1, 60), "meerkats per player colour"),
        "queens": _v(Const(1, _ENGINE), "queen meerkats per player colour"),
        "max_guardians": _v(Int(0, 20), "most guardians a player may have in play"),
        "max_pups": _v(Int(0, 20), "most pups a player may have in play"),
        "queen_strength": _v(Const(2.5, _ENGINE), "a queen counts as this many meerkats in a majority"),
        "male_start_tile": _v(Int(3, 12), "desert tile the male meerkat starts on"),
        "burrow_actions": _v(Const(["move", "queen", "swap", "oasis", "male"], _ENGINE),
                             "the burrow actions, in the rules' order"),
    }, doc="Pieces per player colour"), "pieces per player colour"),
    "dice": Field(Table({
        "count_by_face": _v(Array(Int(1, 3), 6, 6), "meerkats placed for count-die faces 1..6"),
        "queen_faces": _v(Array(Int(1, 6), 1, 6, unique=True), "count-die faces that may place the queen instead"),
    }, doc="The count die"), "the count die"),
    "tile": Field(Records(Table({
        "number": Field(Int(3, 12), "the tile's number (the dice sum that reaches it)"),
        "values": Field(Array(Int(0, 99), 2, 3), "end-game points, highest first: 2 values on tiles 3..8, 3 on 9..12"),
        "source": Field(Source(), "where the values come from"),
    }), key="number", min_len=10, max_len=10), "the ten desert tiles 3..12"),
    "layout": Field(Table({
        "rows": _v(Array(Int(1, 10), 1, 10), "tile positions per row (10 positions in all)"),
        "edges": _v(Array(Array(Int(0, 9), 2, 2), 1, 45, unique=True),
                    "adjacent position pairs (positions numbered row by row from 0)"),
        "shuffle_tiles": _v(Bool(), "tiles are shuffled onto the positions at setup (false: tile t on position t - 3)"),
        "oasis_tiles": _v(Array(Int(3, 12), 0, 10, unique=True), "desert tiles that show an oasis picture"),
    }, doc="The ten tile positions"), "the ten tile positions"),
    "blue": Field(Records(Table({
        "effect": Field(Str(BLUE_EFFECTS), "the blue oasis token's effect"),
        "copies": Field(Int(0, 20), "copies of this token in the blue bag"),
        "source": Field(Source(), "where the count comes from"),
    }), key="effect", min_len=0, max_len=len(BLUE_EFFECTS)), "the blue oasis bag"),
    "brown": Field(Records(Table({
        "front": Field(Str(TAN_EFFECTS + HAZARDS), "the brown token's front: a tan effect or a hazard"),
        "back": Field(Str(TAN_EFFECTS), "its tan back side (a tan token's back equals its front)"),
        "copies": Field(Int(0, 20), "copies of this token in the brown bag"),
        "source": Field(Source(), "where the count comes from"),
    }), key="front", min_len=0, max_len=len(TAN_EFFECTS + HAZARDS)), "the brown oasis bag"),
    "automa": Field(Table({
        "die_faces": _v(Array(Str(("L", "M", "H")), 6, 6), "automa die faces 1..6: lowest, middle or highest die"),
        "pair_actions": _v(Array(Str(AUTOMA_ACTIONS), 6, 6), "automa action for the pairs 1+1 .. 6+6"),
    }, doc="The automa"), "the automa"),
    "bonus": Field(Table({
        "values": _v(Array(Int(0, 99), 3, 10), "bonus token values, in the order they are taken"),
    }, doc="Bonus tokens (one fewer than seats in a game)"), "bonus tokens"),
})

#: the most tokens a bag may hold (the compiled kernel's bag arrays)
MAX_BAG = 60


def _check(doc: dict) -> None:
    for t in doc["tile"]:
        num, vals = t["number"], t["values"]
        want = 2 if num <= 8 else 3
        if len(vals) != want:
            raise SchemaError(f"has {len(vals)} values", ("tile", str(num), "values"),
                              allowed=f"{want} values on tile {num} (2 on tiles 3..8, 3 on 9..12)")
        if list(vals) != sorted(vals, reverse=True):
            raise SchemaError(f"{vals} is not highest first", ("tile", str(num), "values"),
                              allowed="non-increasing values (high..low)")
    layout = doc["layout"]
    rows = layout["rows"]["value"]
    if sum(rows) != 10:
        raise SchemaError(f"holds {sum(rows)} positions", ("layout", "rows", "value"), allowed="10 positions in all")
    edges = layout["edges"]["value"]
    for i, (a, b) in enumerate(edges):
        if a == b:
            raise SchemaError(f"[{a}, {b}] joins a position to itself", ("layout", "edges", "value", i),
                              allowed="pairs of different positions 0..9")
    seen, todo = {0}, [0]
    while todo:
        a = todo.pop()
        for x, y in edges:
            for u, v in ((x, y), (y, x)):
                if u == a and v not in seen:
                    seen.add(v)
                    todo.append(v)
    if len(seen) != 10:
        raise SchemaError(f"leave positions {sorted(set(range(10)) - seen)} unconnected", ("layout", "edges", "value"),
                          allowed="edges that connect all 10 positions")
    for b in doc["brown"]:
        if b["front"] in TAN_EFFECTS and b["back"] != b["front"]:
            raise SchemaError(f"{b['back']!r} differs from its front", ("brown", b["front"], "back"),
                              allowed=f"{b['front']!r} (a tan token shows the same effect on both sides)")
    for bag in ("blue", "brown"):
        n = sum(e["copies"] for e in doc[bag])
        if n > MAX_BAG:
            raise SchemaError(f"holds {n} tokens", (bag,), allowed=f"at most {MAX_BAG} tokens per bag")


def _build(doc: dict) -> Components:
    src: list[tuple[str, str]] = []

    def val(section: str, key: str):
        entry = doc[section][key]
        src.append((key, entry["source"]))
        v = entry["value"]
        return tuple(tuple(x) if isinstance(x, list) else x for x in v) if isinstance(v, list) else v

    meerkats, max_g, max_p = val("pieces", "meerkats"), val("pieces", "max_guardians"), val("pieces", "max_pups")
    male = val("pieces", "male_start_tile")
    constants = []
    for key in ("queens", "queen_strength", "burrow_actions"):
        v = val("pieces", key)
        constants.append((key, ", ".join(map(str, v)) if isinstance(v, tuple) else str(v)))
    cbf, qf = val("dice", "count_by_face"), val("dice", "queen_faces")
    tiles = sorted((Tile(t["number"], tuple(t["values"]), t["source"]) for t in doc["tile"]), key=lambda t: t.number)
    src += [(f"tile {t.number}", t.source) for t in tiles]
    rows, edges = val("layout", "rows"), val("layout", "edges")
    shuffle, oasis = val("layout", "shuffle_tiles"), val("layout", "oasis_tiles")
    blue = tuple((e["effect"], e["copies"]) for e in doc["blue"])
    src += [(f"blue {e['effect']}", e["source"]) for e in doc["blue"]]
    brown = tuple((e["front"], e["back"], e["copies"]) for e in doc["brown"])
    src += [(f"brown {e['front']}", e["source"]) for e in doc["brown"]]
    faces, pairs = val("automa", "die_faces"), val("automa", "pair_actions")
    bvals = val("bonus", "values")
    return Components(tuple(tiles), meerkats, max_g, max_p, male, cbf, qf, rows, edges, shuffle, oasis, blue, brown,
                      faces, pairs, bvals, tuple(src), tuple(constants))


FORMAT = ComponentFormat(
    game="meerkat", spec=SPEC, data_dir=DATA_FILE.parent, packaged=(DATA_FILE.name,), check=_check, build=_build,
    cls=Components, header="""Meerkat Kingdom components (pyradice-lab meerkat components --dump).

Load with: pyradice-lab meerkat simulate --components THIS_FILE, or meerkat.simulate_games(..., components=PATH).
A file may be partial: tables merge key by key over the packaged components, [[tile]], [[blue]] and [[brown]]
entries merge by their number / effect / front, and a value you give without a source is marked
source = "designer".  Sources: "rules" (stated in the rules text), "reconstruction" (our documented choice),
"designer" (yours).  Every value below has its meaning and source in the comment line above it.""")


def load_components(path: str | Path | None = None) -> Components:
    """Load and validate a components file, merged over the packaged components (default: the packaged ones).

    A designer file may be partial (only the values it changes).

    Parameters
    ----------
    path : str or Path, optional
        A components TOML file; ``None``: the packaged components.

    Returns
    -------
    Components
        The validated components (desert tiles, dice, tokens, automa, ...).

    Raises
    ------
    ValueError
        :class:`~pyradice_lab.engine.schema.SchemaError` (a ``ValueError``) naming the file, the key and what is
        allowed, if the file is missing, not TOML or invalid.

    Examples
    --------
    >>> load_components().tile(12).values
    (11, 6, 3)
    """
    return FORMAT.load(path)


def coerce_components(components, name: str = "components") -> Components:
    """``None`` (packaged), a loaded :class:`Components` or a path to a components file -> :class:`Components`."""
    return FORMAT.coerce(components, name)


def default_components() -> Components:
    """The packaged default components (cached).

    Returns
    -------
    Components
        The components shipped in ``data/`` (the same object on every call; change it with
        ``.replace({...})``, which returns a new one).

    Examples
    --------
    >>> comp = default_components()
    >>> comp.tile(7).values, comp is default_components()
    ((6, 3), True)
    """
    return FORMAT.default()


# ------------------------------------------------------------------------------------ plausible sets
def _reach_odds(tile: int) -> float:
    """P(a turn can place at least one meerkat on ``tile``), with the best optional reroll: ``placement_odds(tile)``.

    Two of the three dice must sum to the tile (1+1 reaches any tile) and the count die always gives at least
    one meerkat, so the count die's faces do not matter; computed here (216 rolls x 8 keep-sets) because
    :mod:`.odds` imports this module.  tests/test_plausible.py checks it equals ``placement_odds(tile)``.
    """
    from itertools import product

    ok = np.zeros((6, 6, 6))
    for a, b, c in product(range(1, 7), repeat=3):
        ok[a - 1, b - 1, c - 1] = any(x + y == tile or x == y == 1 for x, y in ((b, c), (a, c), (a, b)))
    best = np.zeros((6, 6, 6))
    for keep in range(8):  # bit i set = keep die i; the rerolled dice average out
        m = ok
        for axis in range(3):
            if not keep >> axis & 1:
                m = m.mean(axis=axis, keepdims=True)
        best = np.maximum(best, np.broadcast_to(m, (6, 6, 6)))
    return float(best.mean())


def sample_plausible(rng=None, *, base=None, return_choices: bool = False):
    """A plausible set of tile values: the documented reconstruction rule with its free parameters drawn.

    The rules fix tile 6 (high 6, low 3, Example 1) and say nothing else about values; the packaged
    reconstruction makes harder-to-roll tiles worth more: high(t) = round(6 * (p(6) / p(t)) ** alpha) with
    alpha = 1, two-place low = high / 2, three-place mid = high / 2 and low = high / 4.  A plausible set draws
    ``alpha`` in [0.5, 1.5] (how steeply difficulty pays), the low ratio of two-place tiles in [0.35, 0.65],
    the mid and low ratios of three-place tiles in [0.4, 0.6] and [0.15, 0.35], and adds a jitter of -1, 0 or
    +1 to each reconstructed tile's high value (a designer rounds by feel).  Values stay highest first and
    at least 1; tile 6 keeps its rules values.

    Parameters
    ----------
    rng : seed, SeedSequence or Generator, optional
    base : path or Components, optional
        The set to start from (default: the packaged components); everything but tile values is kept.
    return_choices : bool
        Return a :class:`pyradice_lab.design.robustness.PlausibleSample` (components and the choices drawn).

    Examples
    --------
    >>> s = sample_plausible(1, return_choices=True)
    >>> s.components.tile(6).values, 0.5 <= s.choices["alpha"] <= 1.5
    ((6, 3), True)
    """
    from ..engine.rng import as_generator
    from ..engine.sampling import finish_sample

    rng = as_generator(rng)
    comp = coerce_components(base, "base")
    p = {t: _reach_odds(t) for t in TILES}
    alpha = rng.uniform(0.5, 1.5)
    low2, mid3, low3 = rng.uniform(0.35, 0.65), rng.uniform(0.4, 0.6), rng.uniform(0.15, 0.35)
    choices = {"alpha": alpha, "low_ratio_2": low2, "mid_ratio_3": mid3, "low_ratio_3": low3}
    changes = {}
    for t in TILES:
        jitter = int(rng.integers(-1, 2))
        if comp.get(f"tile.{t}.source") in ("rules", "designer"):  # the rules' values and the designer's stay
            continue
        high = max(2, round(6 * (p[6] / p[t]) ** alpha) + jitter)
        choices[f"tile_{t}_jitter"] = jitter
        if t <= 8:
            vals = [high, max(1, min(high, round(high * low2)))]
        else:
            mid = max(2, min(high, round(high * mid3)))
            vals = [high, mid, max(1, min(mid, round(high * low3)))]
        changes[f"tile.{t}.values"] = vals
    return finish_sample(comp, changes, choices, return_choices)
