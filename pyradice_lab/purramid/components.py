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

import numbers
from dataclasses import dataclass
from pathlib import Path

from ..engine.schema import (
    Array,
    ComponentFormat,
    Field,
    Float,
    Int,
    MapOf,
    SchemaComponents,
    SchemaError,
    Str,
    Table,
    read_toml,
)
from ._layout import (
    DATA_DIR,
    MAX_NUMBER,
    SIDE,
    Layout,
    LayoutError,
    _side,
    _v,
    tiles_for_number,
    width_for_number,
)

__all__ = ["Layout", "GameConfig", "Components", "load_components", "default_components", "coerce_components",
           "FORMAT", "MAX_SPACES", "load_layout", "load_game_config", "default_layout_facts", "DATA_DIR",
           "LayoutError", "tiles_for_number", "width_for_number", "MAX_NUMBER", "SIDES"]

SIDES = ("A", "B")


def load_layout(name_or_path: str | Path | Layout = "A", components=None) -> Layout:
    """A board side as a :class:`Layout`.

    Parameters
    ----------
    name_or_path : str, Path or Layout
        A side of the components (``"A"``, ``"B"`` or a designer's side name; case-insensitive), a layout
        TOML path, or a Layout (returned unchanged).
    components : str, Path or Components, optional
        The components whose sides are named (default: the packaged ones).

    Returns
    -------
    Layout
        The side's rows (bottom to top) and space numbers.

    Raises
    ------
    ValueError
        If ``name_or_path`` is not a side of the components, a ``.toml`` path that exists, or a Layout (or
        the TOML file is not a valid layout).

    Examples
    --------
    >>> load_layout("B").n_rows
    11
    """
    if isinstance(name_or_path, Layout):
        return name_or_path
    comp = coerce_components(components)
    if isinstance(name_or_path, str) and not name_or_path.lower().endswith(".toml"):
        for key in (name_or_path, name_or_path.upper()):
            if key in comp.sides:
                return comp.sides[key]
    if isinstance(name_or_path, (str, Path)):
        p = Path(name_or_path)
        if p.suffix.lower() == ".toml":
            if not p.exists():
                raise ValueError(f"layout file {str(p)!r} does not exist")
            return Layout.from_toml(p)
    raise ValueError(f"layout must be a side of the components ({', '.join(map(repr, comp.sides))}), a .toml path or "
                     f"a Layout, got {name_or_path!r}")


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


@dataclass(frozen=True, eq=False)
class Components(SchemaComponents):
    """Purramid's components: the game constants (:class:`GameConfig`) and the board sides (:class:`Layout`).

    Build with :func:`load_components`; derive variants with :meth:`replace`
    (``comp.replace({"sides.A.rows": rows, "yarn_value": 0.5})``); equal when their validated documents are
    equal (:meth:`content_hash`).
    """

    config: GameConfig
    sides: dict

    def layout(self, side: str = "A") -> Layout:
        """The board side named ``side``."""
        return load_layout(side, self)


# ---------------------------------------------------------------------------------------------- schema
#: the compiled engines hold a set of spaces in one 64-bit mask
MAX_SPACES = 63


SPEC = Table({
    "regular_tiles": _v(Int(1, 500), "regular cat tiles in the game"),
    "gold_tiles": _v(Int(0, 100), "gold cat tiles (placing the last one ends the game)"),
    "yarn_tokens": _v(Int(0, MAX_SPACES), 'yarn tokens, one per "8" space at setup'),
    "dice": _v(Int(1, 5), "dice rolled at the start of a turn (the exact tables and solvers cover 1..5)"),
    "deal_4p": _v(Array(Int(0, 500), 4, 4), "tiles dealt per seat in 4-player games, seat 0 = start player"),
    "deal_3p": _v(Array(Int(0, 500), 3, 3), "tiles dealt per seat in 3-player games"),
    "deal_2p": _v(Array(Int(0, 500), 2, 2), "tiles dealt per seat in 2-player games (the rest cover the board)"),
    "two_player_covered_rows": _v(Int(0, 40), "bottom rows covered by single tiles in 2-player games"),
    "yarn_value": _v(Float(0.0, 100.0), "tiles one yarn token is worth to the advisor's 'tiles' objective"),
    "turn_limit": _v(Int(1, 100_000), "simulation safety stop: turns before a game ends as 'turn_limit'"),
    "sides": Field(MapOf(Str(max_len=20, pattern=r"[A-Za-z0-9_-]+", pattern_doc="a short name (letters, digits)"),
                         SIDE, 1, 20), "the board sides, by name (layout='A' picks sides.A)"),
})


def _check(doc: dict) -> None:
    vals = {k: doc[k]["value"] for k in SPEC.fields if k != "sides"}
    for key, side in doc["sides"].items():
        where = ("sides", key, "rows", "value")
        try:
            L = _side(side, key)
        except LayoutError as exc:
            raise SchemaError(str(exc), where, allowed="rows bottom to top, each 1 unit narrower than the one "
                                                       "below") from None
        if L.n_spaces > MAX_SPACES:
            raise SchemaError(f"hold {L.n_spaces} spaces", where,
                              allowed=f"at most {MAX_SPACES} spaces (the engines hold a board in a 64-bit mask)")
        eights = bin(L.eights_mask()).count("1")
        if eights > vals["yarn_tokens"]:
            raise SchemaError(f'hold {eights} "8" spaces but there are {vals["yarn_tokens"]} yarn tokens', where,
                              allowed='at most yarn_tokens "8" spaces (one token on each at setup)')
        covered = L.tiles_of(L.bottom_rows_mask(vals["two_player_covered_rows"]))
        left = vals["regular_tiles"] - sum(vals["deal_2p"])
        if covered != left:
            raise SchemaError(f"the bottom {vals['two_player_covered_rows']} rows take {covered} tiles but the "
                              f"2-player deal leaves {left}", where,
                              allowed="regular_tiles - sum(deal_2p) tiles in the rows covered at the 2-player setup")
    for players in (3, 4):
        dealt = sum(vals[f"deal_{players}p"])
        if dealt != vals["regular_tiles"]:
            raise SchemaError(f"deals {dealt} tiles", (f"deal_{players}p", "value"),
                              allowed=f"regular_tiles = {vals['regular_tiles']} tiles in all")


def _build(doc: dict) -> Components:
    v = {k: doc[k]["value"] for k in SPEC.fields if k != "sides"}
    sources = {k: doc[k]["source"] for k in SPEC.fields if k != "sides"}
    cfg = GameConfig(regular_tiles=v["regular_tiles"], gold_tiles=v["gold_tiles"], yarn_tokens=v["yarn_tokens"],
                     dice=v["dice"], deal={p: tuple(v[f"deal_{p}p"]) for p in (2, 3, 4)},
                     two_player_covered_rows=v["two_player_covered_rows"], yarn_value=v["yarn_value"],
                     turn_limit=v["turn_limit"], sources=sources)
    return Components(cfg, {key: _side(side, key) for key, side in doc["sides"].items()})


def _assemble() -> dict:
    doc = read_toml(DATA_DIR / "game.toml")
    doc["sides"] = {s: read_toml(DATA_DIR / f"side_{s.lower()}.toml") for s in SIDES}
    return doc


FORMAT = ComponentFormat(
    game="purramid", spec=SPEC, data_dir=DATA_DIR, packaged=("game.toml", "side_a.toml", "side_b.toml"),
    check=_check, build=_build, cls=Components, assemble=_assemble, header="""Purramid components (pyradice-lab purramid components --dump): the game constants and the board sides.

Load with: pyradice-lab purramid simulate --components THIS_FILE --layout A, or
purramid.simulate_games(..., layout="A", components=PATH).  A file may be partial: tables merge key by key
over the packaged components (game.toml, side_a.toml, side_b.toml); add a side as [sides.C] with a
[sides.C.rows] value; a value you give without a source is marked source = "designer".
Sources: "rules" (stated in the rules text), "reconstruction" (our documented choice), "designer" (yours).
Geometry: rows bottom to top; every space is 1 unit wide except "10" spaces (2 units, 2 tiles); each row is
exactly 1 unit narrower than the row below; "12" spaces take 3 stacked tiles and are not in the bottom two rows.""")


def load_components(path=None) -> Components:
    """Load and validate a components file, merged over the packaged components (default: the packaged ones).

    Parameters
    ----------
    path : str or Path, optional
        A components TOML file; a designer's file may be partial (only the values it changes).  ``None``:
        the packaged components.

    Returns
    -------
    Components
        The validated components: board sides (``.sides``, ``.layout(name)``), deals and game
        configuration (``.config``).

    Raises
    ------
    ValueError
        :class:`~pyradice_lab.engine.schema.SchemaError` (a ``ValueError``) naming the file, the key and what is
        allowed, if the file is missing, is not TOML or breaks a rule of the components.

    Examples
    --------
    >>> load_components().layout("A").capacity
    78
    """
    return FORMAT.load(path)


def default_components() -> Components:
    """The packaged components (cached).

    Returns
    -------
    Components
        The components shipped in ``data/`` (the same object on every call; change it with
        ``.replace({...})``, which returns a new one).

    Examples
    --------
    >>> comp = default_components()
    >>> sorted(comp.sides), comp is default_components()
    (['A', 'B'], True)
    """
    return FORMAT.default()


def coerce_components(components, name: str = "components") -> Components:
    """``None`` (packaged), loaded :class:`Components` or a path to a components file -> :class:`Components`."""
    return FORMAT.coerce(components, name)


def load_game_config(path: str | Path | None = None, components=None) -> GameConfig:
    """The game constants: of ``components`` (a path or loaded components), or of a ``game.toml``-shaped file
    merged over the packaged constants, or the packaged ones."""
    if path is not None:
        return load_components(path).config
    return coerce_components(components).config


# ------------------------------------------------------------------------------------ plausible sets
def sample_plausible(rng=None, *, base=None, return_choices: bool = False, max_tries: int = 1000):
    """A plausible pair of board sides: rows of the reconstructed sides shuffled, every rules fact kept.

    The rules fix the board's shape (eleven rows of widths 11..1 units, the bottom two rows taking the 21
    tiles the 2-player setup covers), the numbers shown in the examples and "a 2 directly below an 8"; the
    numbers' placement is our reconstruction, whose reasoning is by row (easy numbers low, 10s and 12s
    high).  A plausible set keeps that vertical reasoning and redraws the horizontal one: it draws a
    shuffle probability ``q`` in [0, 1] and shuffles each row of each reconstructed side with probability
    ``q``, keeping a draw only when every fact of :func:`default_layout_facts` holds (rejection sampling).
    Recorded choices: ``q`` and, per side, how many "8" spaces rest on a single-die number (1..6), which
    decides how often an 8's support is easy.

    Parameters
    ----------
    rng : seed, SeedSequence or Generator, optional
    base : path or Components, optional
        The set to start from (default: the packaged components).
    return_choices : bool
        Return a :class:`pyradice_lab.design.robustness.PlausibleSample` (components and the choices drawn).
    max_tries : int
        Draws per side before giving up (ValueError).

    Examples
    --------
    >>> s = sample_plausible(5, return_choices=True)
    >>> all(default_layout_facts(s.components.layout("A")).values())
    True
    """
    from ..engine.rng import as_generator
    from ..engine.sampling import finish_sample

    rng = as_generator(rng)
    comp = coerce_components(base, "base")
    if isinstance(max_tries, bool) or not isinstance(max_tries, numbers.Integral) or max_tries < 1:
        raise ValueError(f"max_tries must be a positive integer, got {max_tries!r}")
    q = rng.uniform(0.0, 1.0)
    changes: dict = {}
    choices = {"q": q}
    for key, side in comp.document["sides"].items():
        rows = side["rows"]["value"]
        layout = comp.layout(key)
        if side["rows"]["source"] != "rules":
            for _ in range(max_tries):
                new = [list(rng.permutation(r)) if rng.random() < q else list(r) for r in rows]
                new = [[int(v) for v in r] for r in new]
                cand = Layout.from_rows(new, name=key)
                if all(default_layout_facts(cand).values()):
                    changes[f"sides.{key}.rows"] = {"value": new, "source": "designer"}
                    layout = cand
                    break
            else:
                raise ValueError(f"no shuffle of side {key} kept the rules' facts in max_tries={max_tries} draws")
        choices[f"side_{key}_eights_on_single_die"] = sum(
            1 for i in range(layout.n_spaces) if layout.numbers[i] == 8
            and any(layout.numbers[j] <= 6 for j in range(layout.n_spaces) if layout.below_mask[i] >> j & 1))
    return finish_sample(comp, changes, choices, return_choices)
