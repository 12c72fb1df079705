"""Rocking Raft components as validated, frozen data loaded from ``data/*.toml``.

The rules give the numbers of things (27 gems in 4 colours, 39 lifeboats, a 3x3 raft, the pirate-flag
depth per player count, 16 water tokens); the pictures and card list are missing, so the split of gems
per colour, the gems used per player count, the 39 cards and the raft's wall openings and finger
spaces are reconstructions, each marked ``source = "reconstruction"`` in the TOML with its reasoning.
A designer can replace any file: :func:`load_components` takes other paths and validates them, and
every malformed value raises ``ValueError`` naming it.

Cells of the raft are numbered row by row from the north-west corner (0..8, centre 4).

Examples
--------
>>> from pyradice_lab.raft.components import default_components
>>> comp = default_components()
>>> comp.gems.total, len(comp.deck), comp.gems.in_play(3).tolist()
(27, 39, [7, 7, 7, 3])
>>> comp.raft.openings["north"]
(0.0, 1.0, 0.0)
"""

from __future__ import annotations

import numbers
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np

__all__ = ["GemSet", "Lifeboat", "RaftGeometry", "GameRules", "Components", "default_components",
           "load_components", "parse_lifeboats", "parse_gems", "parse_raft", "rule_points", "EDGES",
           "CENTRE", "N_CELLS", "DATA_DIR", "deck_summary"]

DATA_DIR = Path(__file__).with_name("data")
EDGES = ("north", "east", "south", "west")
N_CELLS = 9
CENTRE = 4
_SOURCES = ("rules", "reconstruction")


def _is_int(v) -> bool:
    return isinstance(v, numbers.Integral) and not isinstance(v, bool)


def _check_source(table: Mapping, name: str, key: str = "source") -> str:
    src = table.get(key)
    if src not in _SOURCES:
        raise ValueError(f"{name}.{key} must be one of {_SOURCES}, got {src!r}")
    return src


def _nonneg_int(v, name: str) -> int:
    if not _is_int(v) or v < 0:
        raise ValueError(f"{name} must be a non-negative integer, got {v!r}")
    return int(v)


# --------------------------------------------------------------------------------------------- gems
@dataclass(frozen=True)
class GemSet:
    """Gem colours and counts; the wild colour (black) is always the last colour.

    ``counts`` is the whole set; ``per_players[p]`` the gems used with ``p`` players.
    """

    colours: tuple[str, ...]
    counts: tuple[int, ...]
    total: int
    per_players: Mapping[int, tuple[int, ...]]
    wild: str = "black"

    @property
    def n_colours(self) -> int:
        return len(self.colours)

    @property
    def letters(self) -> tuple[str, ...]:
        """One-letter names (first letter, or the last one if taken): R, Y, B, K."""
        out: list[str] = []
        for c in self.colours:
            for cand in (c[0].upper(), c[-1].upper(), c[:2].title()):
                if cand not in out:
                    out.append(cand)
                    break
        return tuple(out)

    @property
    def slot_colours(self) -> tuple[str, ...]:
        """The colours lifeboat slots can ask for (all but the wild colour)."""
        return self.colours[:-1]

    def in_play(self, players: int) -> np.ndarray:
        """Gems used with ``players`` players, one count per colour (int64 array)."""
        if players not in self.per_players:
            raise ValueError(f"players must be one of {sorted(self.per_players)}, got {players!r}")
        return np.array(self.per_players[players], dtype=np.int64)

    def with_counts(self, players: int, counts) -> GemSet:
        """A copy whose set used at ``players`` players is ``counts`` (the whole set grows if needed)."""
        counts = tuple(_nonneg_int(c, f"counts[{i}]") for i, c in enumerate(counts))
        if len(counts) != self.n_colours:
            raise ValueError(f"counts must give {self.n_colours} colours {self.colours}, got {len(counts)}")
        per = dict(self.per_players)
        per[players] = counts
        whole = tuple(max(a, b) for a, b in zip(self.counts, counts))
        return GemSet(self.colours, whole, sum(whole), per, self.wild)


def parse_gems(data: Mapping) -> GemSet:
    """Validate the ``gems.toml`` tables and build a :class:`GemSet`."""
    if "gems" not in data or not isinstance(data["gems"], Mapping):
        raise ValueError("gems: missing [gems] table")
    g = data["gems"]
    _check_source(g, "gems")
    colours = g.get("colours")
    if not isinstance(colours, list) or len(colours) < 2 or not all(isinstance(c, str) for c in colours) \
            or len(set(colours)) != len(colours):
        raise ValueError(f"gems.colours must be a list of at least 2 distinct names, got {colours!r}")
    wild = g.get("wild")
    if wild != colours[-1]:
        raise ValueError(f"gems.wild must name the last colour ({colours[-1]!r}), got {wild!r}")
    total = _nonneg_int(g.get("total"), "gems.total")
    cnt = g.get("counts")
    if not isinstance(cnt, Mapping):
        raise ValueError("gems.counts: missing [gems.counts] table")
    _check_source(cnt, "gems.counts")
    unknown = set(cnt) - set(colours) - {"source"}
    if unknown:
        raise ValueError(f"gems.counts has unknown colours {sorted(unknown)}; colours are {colours}")
    counts = tuple(_nonneg_int(cnt.get(c), f"gems.counts.{c}") for c in colours)
    if sum(counts) != total:
        raise ValueError(f"gems.counts must sum to gems.total = {total}, got {sum(counts)}")
    per: dict[int, tuple[int, ...]] = {}
    for key, table in (data.get("players") or {}).items():
        try:
            p = int(key)
        except ValueError:
            raise ValueError(f"players.{key}: table name must be a player count") from None
        name = f"players.{key}"
        _check_source(table, name)
        unknown = set(table) - set(colours) - {"source"}
        if unknown:
            raise ValueError(f"{name} has unknown colours {sorted(unknown)}")
        used = tuple(_nonneg_int(table.get(c), f"{name}.{c}") for c in colours)
        for c, u, have in zip(colours, used, counts):
            if u > have:
                raise ValueError(f"{name}.{c} = {u} exceeds the {have} {c} gems of the set (gems.counts.{c})")
        per[p] = used
    if not per:
        raise ValueError("players: no [players.N] table gives the gems used per player count")
    return GemSet(tuple(colours), counts, total, per, wild)


# --------------------------------------------------------------------------------------------- deck
@dataclass(frozen=True)
class Lifeboat:
    """One lifeboat card: slots per ordinary colour (red, yellow, blue) and points (rope knots)."""

    id: int
    slots: tuple[int, ...]
    points: int
    name: str = ""

    @property
    def size(self) -> int:
        return int(sum(self.slots))


def rule_points(slots) -> int:
    """The documented design rule of the default deck: ``(slots - 1) + (largest same-colour group - 1)``.

    >>> rule_points((2, 1, 0)), rule_points((1, 1, 1)), rule_points((4, 0, 0))
    (3, 2, 6)
    """
    return (int(sum(slots)) - 1) + (int(max(slots)) - 1)


def parse_lifeboats(data: Mapping, slot_colours=("red", "yellow", "blue")) -> tuple[Lifeboat, ...]:
    """Validate the ``lifeboats.toml`` tables and build the deck (in file order)."""
    deck = data.get("deck")
    if not isinstance(deck, Mapping):
        raise ValueError("lifeboats: missing [deck] table")
    _check_source(deck, "deck", "count_source")
    _check_source(deck, "deck", "cards_source")
    count = deck.get("count")
    if not _is_int(count) or count < 1:
        raise ValueError(f"deck.count must be a positive integer, got {count!r}")
    cards = data.get("card")
    if not isinstance(cards, list) or not cards:
        raise ValueError("card: no [[card]] entries in the lifeboat file")
    if len(cards) != count:
        raise ValueError(f"deck.count = {count} but the file has {len(cards)} [[card]] entries")
    out = []
    seen = set()
    for i, c in enumerate(cards):
        where = f"card[{i}]"
        if not isinstance(c, Mapping):
            raise ValueError(f"{where} must be a table")
        cid = c.get("id")
        if not _is_int(cid):
            raise ValueError(f"{where}.id must be an integer, got {cid!r}")
        if cid in seen:
            raise ValueError(f"{where}.id = {cid} is a duplicate card id")
        seen.add(cid)
        _check_source(c, where)
        slots = c.get("slots")
        if not isinstance(slots, Mapping) or not slots:
            raise ValueError(f"{where}.slots must be a table colour -> count, got {slots!r}")
        unknown = set(slots) - set(slot_colours)
        if unknown:
            raise ValueError(f"{where}.slots has unknown colours {sorted(unknown)}; slots take {list(slot_colours)}")
        vec = tuple(_nonneg_int(slots.get(col, 0), f"{where}.slots.{col}") for col in slot_colours)
        if sum(vec) < 1:
            raise ValueError(f"{where}.slots must hold at least one slot")
        pts = c.get("points")
        if not _is_int(pts) or pts < 1:
            raise ValueError(f"{where}.points must be a positive integer, got {pts!r}")
        name = c.get("name", "")
        if not isinstance(name, str):
            raise ValueError(f"{where}.name must be a string, got {name!r}")
        out.append(Lifeboat(int(cid), vec, int(pts), name))
    return tuple(out)


# --------------------------------------------------------------------------------------------- raft
@dataclass(frozen=True)
class RaftGeometry:
    """Wall openings and finger spaces of the raft's four edges.

    ``openings[edge]`` is the gap width (0..1) of the edge's three wall segments, left to right as seen
    by the player lowering that edge; ``fingers[edge]`` the names and ``finger_offsets[edge]`` the
    positions (-1 left .. +1 right) of its finger spaces.
    """

    openings: Mapping[str, tuple[float, float, float]]
    fingers: Mapping[str, tuple[str, ...]]
    finger_offsets: Mapping[str, tuple[float, ...]]

    def finger_index(self, edge: str, finger) -> int:
        """Index of ``finger`` (a name or an index) among ``edge``'s finger spaces."""
        names = self.fingers[edge]
        if _is_int(finger):
            if not 0 <= finger < len(names):
                raise ValueError(f"finger must be 0..{len(names) - 1} or one of {list(names)} on edge "
                                 f"{edge!r}, got {finger!r}")
            return int(finger)
        if isinstance(finger, str) and finger.lower() in names:
            return names.index(finger.lower())
        if finger == "center" and "centre" in names:
            return names.index("centre")
        raise ValueError(f"finger must be one of {list(names)} (or their index) on edge {edge!r}, got {finger!r}")

    def options(self) -> list[tuple[str, int]]:
        """Every (edge, finger index) pair a player can choose."""
        return [(e, i) for e in EDGES for i in range(len(self.fingers[e]))]


def parse_raft(data: Mapping) -> tuple[RaftGeometry, GameRules]:
    """Validate ``raft.toml`` and build the geometry and the game constants."""
    grid = data.get("grid")
    if not isinstance(grid, Mapping) or grid.get("rows") != 3 or grid.get("cols") != 3:
        raise ValueError("grid must be the 3x3 raft of the rules (rows = 3, cols = 3)")
    _check_source(grid, "grid")
    edges = data.get("edges")
    if not isinstance(edges, Mapping) or set(edges) != set(EDGES):
        raise ValueError(f"edges must define exactly {list(EDGES)}, got {sorted(edges or {})}")
    openings, fingers, offsets = {}, {}, {}
    for e in EDGES:
        t = edges[e]
        _check_source(t, f"edges.{e}")
        op = t.get("openings")
        if not isinstance(op, list) or len(op) != 3 or not all(
                isinstance(w, numbers.Real) and not isinstance(w, bool) and 0 <= w <= 1 for w in op):
            raise ValueError(f"edges.{e}.openings must be 3 gap widths in [0, 1], got {op!r}")
        names = t.get("fingers")
        offs = t.get("finger_offsets")
        if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names) \
                or len(set(names)) != len(names):
            raise ValueError(f"edges.{e}.fingers must be a non-empty list of distinct names, got {names!r}")
        if not isinstance(offs, list) or len(offs) != len(names) or not all(
                isinstance(x, numbers.Real) and not isinstance(x, bool) and -1 <= x <= 1 for x in offs):
            raise ValueError(f"edges.{e}.finger_offsets must be {len(names)} numbers in [-1, 1], got {offs!r}")
        openings[e] = tuple(float(w) for w in op)
        fingers[e] = tuple(n.lower() for n in names)
        offsets[e] = tuple(float(x) for x in offs)
    geometry = RaftGeometry(openings, fingers, offsets)

    pl = data.get("players") or {}
    _check_source(pl, "players")
    pmin, pmax = _nonneg_int(pl.get("min"), "players.min"), _nonneg_int(pl.get("max"), "players.max")
    if not 1 <= pmin <= pmax <= 8:
        raise ValueError(f"players.min/max must satisfy 1 <= min <= max <= 8, got {pmin}, {pmax}")
    boats = _nonneg_int(pl.get("boats"), "players.boats")
    if boats < 1:
        raise ValueError("players.boats must be at least 1")
    flag = data.get("flag") or {}
    _check_source(flag, "flag")
    depth_t = flag.get("depth")
    if not isinstance(depth_t, Mapping):
        raise ValueError("flag.depth must be a table player count -> cards")
    depth = {}
    for k, v in depth_t.items():
        depth[int(k)] = _nonneg_int(v, f"flag.depth.{k}")
    for p in range(pmin, pmax + 1):
        if p not in depth:
            raise ValueError(f"flag.depth has no entry for {p} players")
    water = data.get("water") or {}
    _check_source(water, "water")
    rules = GameRules(pmin, pmax, boats, depth, _nonneg_int(water.get("tokens"), "water.tokens"),
                      _nonneg_int(water.get("sink_at"), "water.sink_at"))
    if rules.sink_at < 1:
        raise ValueError("water.sink_at must be at least 1")
    return geometry, rules


@dataclass(frozen=True)
class GameRules:
    """Player counts, lifeboats per player, pirate-flag depth and the sinking variant's tokens."""

    min_players: int
    max_players: int
    boats: int
    flag_depth: Mapping[int, int]
    water_tokens: int
    sink_at: int


# --------------------------------------------------------------------------------------------- all
@dataclass(frozen=True)
class Components:
    """Everything on the table: gems, the lifeboat deck, the raft and the game constants."""

    gems: GemSet
    deck: tuple[Lifeboat, ...]
    raft: RaftGeometry
    rules: GameRules
    sources: Mapping[str, str] = field(default_factory=dict)

    def deck_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """``(slots, points)``: int64 arrays of shape (cards, slot colours) and (cards,)."""
        slots = np.array([c.slots for c in self.deck], dtype=np.int64).reshape(len(self.deck), -1)
        points = np.array([c.points for c in self.deck], dtype=np.int64)
        return slots, points

    def check_players(self, players) -> int:
        if not _is_int(players) or not self.rules.min_players <= players <= self.rules.max_players:
            raise ValueError(f"players must be an integer in {self.rules.min_players}..{self.rules.max_players}, "
                             f"got {players!r}")
        return int(players)

    def with_gems(self, players: int, counts) -> Components:
        """A copy using ``counts`` gems per colour at ``players`` players (for gem-mix sweeps)."""
        return Components(self.gems.with_counts(players, counts), self.deck, self.raft, self.rules, self.sources)

    def card_label(self, index: int) -> str:
        c = self.deck[index]
        return f"#{c.id} {c.name or '?'} ({c.points})"


def _read(path: Path, what: str) -> dict:
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise ValueError(f"{what}: no such file {str(path)!r}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{what}: {path} is not valid TOML ({exc})") from None


def load_components(gems=None, lifeboats=None, raft=None) -> Components:
    """Load and validate components; each argument is a path (default: the packaged file).

    Raises ``ValueError`` naming the malformed value (e.g. ``card[3].points``).
    """
    gpath = Path(gems) if gems is not None else DATA_DIR / "gems.toml"
    lpath = Path(lifeboats) if lifeboats is not None else DATA_DIR / "lifeboats.toml"
    rpath = Path(raft) if raft is not None else DATA_DIR / "raft.toml"
    gemset = parse_gems(_read(gpath, "gems"))
    deck = parse_lifeboats(_read(lpath, "lifeboats"), gemset.slot_colours)
    geometry, rules = parse_raft(_read(rpath, "raft"))
    for p in range(rules.min_players, rules.max_players + 1):
        if p not in gemset.per_players:
            raise ValueError(f"players.{p}: the gem file gives no gem counts for {p} players")
        left = len(deck) - rules.boats * p
        if left < 0:
            raise ValueError(f"deck of {len(deck)} cards cannot deal {rules.boats} lifeboats to {p} players")
        if rules.flag_depth[p] > left:
            raise ValueError(f"flag.depth.{p} = {rules.flag_depth[p]} is deeper than the {left} cards left after dealing")
    return Components(gemset, deck, geometry, rules, {"gems": str(gpath), "lifeboats": str(lpath), "raft": str(rpath)})


@cache
def default_components() -> Components:
    """The packaged components (cached)."""
    return load_components()


def deck_summary(comp: Components) -> list[dict]:
    """One dict per card: id, name, slots per colour, size, points and the documented rule's points."""
    rows = []
    for c in comp.deck:
        row = {"id": c.id, "name": c.name, "size": c.size, "points": c.points, "rule_points": rule_points(c.slots)}
        row.update({f"slots_{col}": n for col, n in zip(comp.gems.slot_colours, c.slots)})
        rows.append(row)
    return rows
