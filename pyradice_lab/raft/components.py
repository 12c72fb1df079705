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
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..engine.schema import (
    Array,
    ComponentFormat,
    Const,
    Field,
    Float,
    Int,
    MapOf,
    Records,
    SchemaComponents,
    SchemaError,
    Source,
    Str,
    Table,
    merge,
    suggest,
)

__all__ = ["GemSet", "Lifeboat", "RaftGeometry", "GameRules", "Components", "default_components",
           "load_components", "coerce_components", "FORMAT", "MAX_GEMS", "MAX_BOATS", "parse_lifeboats", "parse_gems", "parse_raft", "rule_points", "EDGES",
           "CENTRE", "N_CELLS", "DATA_DIR", "deck_summary"]

DATA_DIR = Path(__file__).with_name("data")
EDGES = ("north", "east", "south", "west")
N_CELLS = 9
CENTRE = 4


def _is_int(v) -> bool:
    return isinstance(v, numbers.Integral) and not isinstance(v, bool)


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
@dataclass(frozen=True, eq=False)
class Components(SchemaComponents):
    """Everything on the table: gems, the lifeboat deck, the raft and the game constants.

    Build with :func:`load_components`; derive variants with :meth:`replace`
    (``comp.replace({"card.7.points": 3})``) or :meth:`with_gems`; equal when their validated documents are
    equal (:meth:`content_hash`).
    """

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
        """A copy using ``counts`` gems per colour at ``players`` players (for gem-mix sweeps); the whole set
        grows where ``counts`` needs more gems of a colour than it holds."""
        new = self.gems.with_counts(players, counts)
        changes = {f"gems.in_play.{int(players)}.{c}": n for c, n in zip(new.colours, new.per_players[players])}
        changes.update({f"gems.counts.{c}": n for c, n in zip(new.colours, new.counts)})
        changes["gems.total"] = new.total
        return self.replace(changes)

    def card_label(self, index: int) -> str:
        c = self.deck[index]
        return f"#{c.id} {c.name or '?'} ({c.points})"


# --------------------------------------------------------------------------------------------- schema
#: most gems a set may hold (every gem is sampled on every tilt: bounded work per tilt)
MAX_GEMS = 120
#: most lifeboats per player (the optimal loading enumerates subsets of a player's lifeboats)
MAX_BOATS = 10
_NAME = dict(max_len=30, pattern=r"[a-z][a-z0-9_]*", pattern_doc="a lower-case name (letters, digits, _)")


def _colour_counts(what: str, hi: int = MAX_GEMS):
    """Table hook: every key but ``source`` is a colour -> count (colours are checked against gems.colours)."""
    node = Int(0, hi)

    def extra(table, path):
        return {str(k): node.check(v, path + (str(k),)) for k, v in table.items() if k != "source"}
    return extra


def _counts_table(doc: str) -> Table:
    return Table({"source": Field(Source(), "where the counts come from")}, doc=doc,
                 extra=_colour_counts("gems"), extra_names=lambda t: [k for k in t if k != "source"],
                 extra_doc="{key} gems")


_EDGE = Table({
    "openings": Field(Array(Float(0.0, 1.0), 3, 3), "gap width (0 solid .. 1 wide) of the edge's 3 wall segments, "
                                                     "left to right as seen by the player lowering it"),
    "fingers": Field(Array(Str(**_NAME), 1, 5, unique=True), "names of the edge's finger spaces"),
    "finger_offsets": Field(Array(Float(-1.0, 1.0), 1, 5), "positions of the finger spaces (-1 left .. +1 right)"),
    "source": Field(Source(), "where the edge comes from"),
})

SPEC = Table({
    "gems": Field(Table({
        "total": Field(Int(1, MAX_GEMS), "gems in the box"),
        "colours": Field(Array(Str(**_NAME), 2, 8, unique=True), "gem colours; the last one is the wild colour"),
        "wild": Field(Str(**_NAME), "the wild colour (fills any slot, never passed on): the last colour"),
        "source": Field(Source(), "where the gem set comes from"),
        "counts": Field(_counts_table("gems per colour in the box (they sum to gems.total)"),
                        "gems per colour in the box"),
        "in_play": Field(MapOf(Int(1, 8), _counts_table("gems used per player count"), 1, 8),
                         "gems per colour used by N players (gems.in_play.N)"),
    }, doc="The gem set"), "the gem set"),
    "deck": Field(Table({
        "count": Field(Int(1, 200), "lifeboat cards in the deck (the [[card]] entries)"),
        "count_source": Field(Source(), "where the card count comes from"),
        "cards_source": Field(Source(), "where the card list comes from"),
    }, doc="The lifeboat deck"), "the lifeboat deck"),
    "card": Field(Records(Table({
        "id": Field(Int(1, 100_000), "unique card number"),
        "name": Field(Str(max_len=60), "label in transcripts", default=""),
        "slots": Field(MapOf(Str(**_NAME), Int(0, 20), 1, 8), "gem slots per ordinary colour"),
        "points": Field(Int(1, 99), "points (rope knots) for completing the lifeboat"),
        "source": Field(Source(), "where the card comes from"),
    }), key="id", min_len=1, max_len=200), "the lifeboat cards (a designer's entries merge by id; [replace] "
                                           "card = true replaces the packaged deck whole)"),
    "grid": Field(Table({
        "rows": Field(Const(3, "the raft is a 3x3 grid"), "rows of spaces"),
        "cols": Field(Const(3, "the raft is a 3x3 grid"), "columns of spaces"),
        "source": Field(Source(), "where the grid comes from"),
    }, doc="The raft's spaces"), "the raft's spaces"),
    "edges": Field(Table({e: Field(_EDGE, f"the {e} edge") for e in EDGES}, doc="The raft's four edges"),
                   "the raft's four edges"),
    "flag": Field(Table({
        "depth": Field(MapOf(Int(1, 8), Int(0, 200), 1, 8),
                       "cards above the pirate flag, per player count (from the top of the deck left after dealing)"),
        "source": Field(Source(), "where the depths come from"),
    }, doc="The pirate flag"), "the pirate flag"),
    "players": Field(Table({
        "min": Field(Int(1, 8), "fewest players"),
        "max": Field(Int(1, 8), "most players"),
        "boats": Field(Int(1, MAX_BOATS), "lifeboats each player keeps in front of them"),
        "source": Field(Source(), "where the counts come from"),
    }, doc="Players"), "players"),
    "water": Field(Table({
        "tokens": Field(Int(0, 1000), "water tokens in the sinking variant"),
        "sink_at": Field(Int(1, 20), "an incomplete lifeboat holding this many water tokens sinks"),
        "source": Field(Source(), "where the counts come from"),
    }, doc="The sinking variant"), "the sinking variant"),
})


def _colour_keys(table: Mapping, colours, path: tuple, *, all_needed: bool) -> None:
    for k in table:
        if k != "source" and k not in colours:
            raise SchemaError(f"unknown colour{suggest(k, colours)}", path + (k,), allowed=", ".join(colours))
    if all_needed:
        for c in colours:
            if c not in table:
                raise SchemaError("missing", path + (c,), allowed=f"a count for every colour: {', '.join(colours)}")


def _check(doc: dict) -> None:
    g = doc["gems"]
    colours = g["colours"]
    if g["wild"] != colours[-1]:
        raise SchemaError(f"{g['wild']!r} is not the last colour", ("gems", "wild"),
                          allowed=f"{colours[-1]!r}, the last of gems.colours")
    _colour_keys(g["counts"], colours, ("gems", "counts"), all_needed=True)
    total = sum(g["counts"][c] for c in colours)
    if total != g["total"]:
        raise SchemaError(f"sum to {total}", ("gems", "counts"), allowed=f"counts that sum to gems.total = {g['total']}")
    pl = doc["players"]
    if pl["min"] > pl["max"]:
        raise SchemaError(f"{pl['min']} is above players.max = {pl['max']}", ("players", "min"),
                          allowed=f"1..{pl['max']}")
    for p in range(pl["min"], pl["max"] + 1):
        if str(p) not in g["in_play"]:
            raise SchemaError(f"no gem counts for {p} players", ("gems", "in_play"),
                              allowed=f"a [gems.in_play.N] table for every N in players.min..max = {pl['min']}..{pl['max']}")
    for key, used in g["in_play"].items():
        where = ("gems", "in_play", key)
        if not pl["min"] <= int(key) <= pl["max"]:
            raise SchemaError(f"{key} players is outside players.min..max", where,
                              allowed=f"player counts {pl['min']}..{pl['max']}")
        _colour_keys(used, colours, where, all_needed=True)
        for c in colours:
            if used[c] > g["counts"][c]:
                raise SchemaError(f"{used[c]} exceeds the {g['counts'][c]} {c} gems of the set", where + (c,),
                                  allowed=f"0..{g['counts'][c]} (gems.counts.{c})")
    slot_colours = colours[:-1]
    cards = doc["card"]
    if len(cards) != doc["deck"]["count"]:
        raise SchemaError(f"is {doc['deck']['count']} but there are {len(cards)} [[card]] entries", ("deck", "count"),
                          allowed=f"{len(cards)} (the number of cards)")
    for c in cards:
        where = ("card", str(c["id"]), "slots")
        for col in c["slots"]:
            if col not in slot_colours:
                raise SchemaError(f"unknown slot colour{suggest(col, slot_colours)}", where + (col,),
                                  allowed=", ".join(slot_colours) + f" (the wild {colours[-1]} fills any slot)")
        if sum(c["slots"].values()) < 1:
            raise SchemaError("holds no slot", where, allowed="at least one slot")
    for e in EDGES:
        t = doc["edges"][e]
        if len(t["finger_offsets"]) != len(t["fingers"]):
            raise SchemaError(f"has {len(t['finger_offsets'])} positions for {len(t['fingers'])} finger spaces",
                              ("edges", e, "finger_offsets"), allowed=f"{len(t['fingers'])} numbers in [-1, 1]")
    depth = doc["flag"]["depth"]
    for p in range(pl["min"], pl["max"] + 1):
        if str(p) not in depth:
            raise SchemaError(f"no entry for {p} players", ("flag", "depth"),
                              allowed=f"an entry for every player count {pl['min']}..{pl['max']}")
        left = len(cards) - pl["boats"] * p
        if left < 0:
            raise SchemaError(f"{len(cards)} cards cannot deal {pl['boats']} lifeboats to {p} players",
                              ("deck", "count"), allowed=f"at least {pl['boats'] * p} cards")
        if depth[str(p)] > left:
            raise SchemaError(f"{depth[str(p)]} is deeper than the {left} cards left after dealing",
                              ("flag", "depth", str(p)), allowed=f"0..{left}")
    w = doc["water"]
    need = pl["max"] * pl["boats"] * w["sink_at"]
    if w["tokens"] < need:
        raise SchemaError(f"{w['tokens']} tokens can run out", ("water", "tokens"),
                          allowed=f"at least players.max x players.boats x water.sink_at = {need}: the rules' supply "
                                  f"never runs out, and the engines do not model a shortage")


def _build(doc: dict) -> Components:
    g = doc["gems"]
    colours = tuple(g["colours"])
    counts = tuple(g["counts"][c] for c in colours)
    per = {int(k): tuple(v[c] for c in colours) for k, v in sorted(g["in_play"].items(), key=lambda kv: int(kv[0]))}
    gemset = GemSet(colours, counts, g["total"], per, g["wild"])
    slot_colours = colours[:-1]
    deck = tuple(Lifeboat(c["id"], tuple(c["slots"].get(col, 0) for col in slot_colours), c["points"], c["name"])
                 for c in doc["card"])
    edges = doc["edges"]
    geometry = RaftGeometry({e: tuple(edges[e]["openings"]) for e in EDGES},
                            {e: tuple(edges[e]["fingers"]) for e in EDGES},
                            {e: tuple(edges[e]["finger_offsets"]) for e in EDGES})
    pl, w = doc["players"], doc["water"]
    rules = GameRules(pl["min"], pl["max"], pl["boats"], {int(k): v for k, v in doc["flag"]["depth"].items()},
                      w["tokens"], w["sink_at"])
    return Components(gemset, deck, geometry, rules, {})


FORMAT = ComponentFormat(
    game="raft", spec=SPEC, data_dir=DATA_DIR, packaged=("gems.toml", "lifeboats.toml", "raft.toml"),
    check=_check, build=_build, cls=Components, header="""Rocking Raft components (pyradice-lab raft components --dump).

Load with: pyradice-lab raft simulate --components THIS_FILE, or raft.simulate_games(..., components=PATH).
A file may be partial: tables merge key by key over the packaged components (gems.toml, lifeboats.toml,
raft.toml); [[card]] entries merge by id into the packaged deck (a new id adds a card: then raise deck.count),
and a table [replace] with card = true replaces the packaged deck whole (set deck.count to its length); a value you
give without a source is marked source = "designer".  Sources: "rules" (stated in the rules text),
"reconstruction" (our documented choice), "designer" (yours).  The tilt model's parameters are not components:
see data/tilt.toml, raft.TiltParams and raft.calibrate.
Every value has its meaning and source in the comment line above it (for [[card]], where a key first appears).""")


def load_components(path=None, *, gems=None, lifeboats=None, raft=None) -> Components:
    """Load and validate components: a designer's file merged over the packaged ones (default: packaged).

    Parameters
    ----------
    path : str or Path, optional
        One file with any of the sections (``[gems]``, ``[deck]`` + ``[[card]]``, ``[edges.*]``, ``[flag]``,
        ``[players]``, ``[water]``, ...); merged last.
    gems, lifeboats, raft : str or Path, optional
        Files shaped like the packaged ``gems.toml``, ``lifeboats.toml`` and ``raft.toml`` (merged in that
        order, before ``path``).

    Returns
    -------
    Components
        The validated components (``gems``, the lifeboat deck, the raft geometry, ...); with no argument the
        packaged (cached) ones.

    Raises
    ------
    ValueError
        :class:`~pyradice_lab.engine.schema.SchemaError` (a ``ValueError``) naming the file, the key (e.g.
        ``card.3.points``) and what is allowed, if a file is missing, not TOML or invalid.

    Examples
    --------
    >>> load_components().gems.in_play(2).tolist()
    [6, 6, 6, 3]
    """
    given = [(n, p) for n, p in (("gems", gems), ("lifeboats", lifeboats), ("raft", raft), ("path", path))
             if p is not None]
    if not given:
        return FORMAT.default()
    return FORMAT.load_files([(p, name) for name, p in given], file=", ".join(str(p) for _, p in given))


def coerce_components(components, name: str = "components") -> Components:
    """``None`` (packaged), loaded :class:`Components` or a path to a components file -> :class:`Components`."""
    return FORMAT.coerce(components, name)


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
    >>> comp.gems.in_play(4).tolist(), comp is default_components()
    ([8, 8, 8, 3], True)
    """
    return FORMAT.default()


def _section(data, what: str) -> dict:
    if not isinstance(data, Mapping):
        raise TypeError(f"{what} must be a mapping (a parsed TOML file), got {type(data).__name__}")
    return merge(FORMAT.packaged_document(), dict(data), SPEC)


def parse_gems(data: Mapping) -> GemSet:
    """The gem set of a ``gems.toml``-shaped mapping, validated with the packaged components around it."""
    return FORMAT.from_document(_section(data, "data")).gems


def parse_lifeboats(data: Mapping) -> tuple[Lifeboat, ...]:
    """The deck of a ``lifeboats.toml``-shaped mapping (``[deck]`` and ``[[card]]``), validated."""
    return FORMAT.from_document(_section(data, "data")).deck


def parse_raft(data: Mapping) -> tuple[RaftGeometry, GameRules]:
    """The geometry and game constants of a ``raft.toml``-shaped mapping, validated."""
    comp = FORMAT.from_document(_section(data, "data"))
    return comp.raft, comp.rules


def deck_summary(comp: Components) -> list[dict]:
    """One dict per card: id, name, slots per colour, size, points and the documented rule's points."""
    rows = []
    for c in comp.deck:
        row = {"id": c.id, "name": c.name, "size": c.size, "points": c.points, "rule_points": rule_points(c.slots)}
        row.update({f"slots_{col}": n for col, n in zip(comp.gems.slot_colours, c.slots)})
        rows.append(row)
    return rows


# ------------------------------------------------------------------------------------ plausible sets
def sample_plausible(rng=None, *, base=None, return_choices: bool = False):
    """A plausible deck and gem set: the documented points rule with its weights drawn, and the wild-gem count.

    The rules fix 39 lifeboat cards, 27 gems in red, yellow, blue and black, black wild; the card list and
    the split of gems are reconstructions.  The packaged deck scores a card ``(slots - 1) + (largest
    same-colour group - 1)`` (:func:`rule_points`).  A plausible set draws the weight of "gems needed" ``a``
    and of "colour concentration" ``b`` in [0.5, 1.5] and an offset ``c`` in [-0.5, 0.5], and scores every
    card ``max(1, round(a * (slots - 1) + b * (largest - 1) + c))``; and it draws 3 or 6 black gems (27 minus
    the black gems must split evenly over the three symmetric colours), with one gem of each ordinary colour
    fewer per player fewer, as packaged.

    Parameters
    ----------
    rng : seed, SeedSequence or Generator, optional
    base : path or Components, optional
        The set to start from (default: the packaged components); card colours, geometry and rules are kept.
    return_choices : bool
        Return a :class:`pyradice_lab.design.robustness.PlausibleSample` (components and the choices drawn).

    Examples
    --------
    >>> s = sample_plausible(3, return_choices=True)
    >>> len(s.components.document["card"]), s.choices["black_gems"] in (3.0, 6.0)
    (39, True)
    """
    from ..engine.rng import as_generator
    from ..engine.sampling import finish_sample

    rng = as_generator(rng)
    comp = coerce_components(base, "base")
    doc = comp.document
    a, b, c = rng.uniform(0.5, 1.5), rng.uniform(0.5, 1.5), rng.uniform(-0.5, 0.5)
    black = int(rng.choice([3, 6]))
    changes: dict = {}
    for card in doc["card"]:
        if card.get("source") == "rules":
            continue
        counts = list(card["slots"].values())
        changes[f"card.{card['id']}.points"] = max(1, round(a * (sum(counts) - 1) + b * (max(counts) - 1) + c))
    gems = doc["gems"]
    colours, wild = gems["colours"], gems["wild"]
    ordinary = [col for col in colours if col != wild]
    if gems["counts"].get("source") != "rules" and (gems["total"] - black) % len(ordinary) == 0:
        each = (gems["total"] - black) // len(ordinary)
        changes["gems.counts"] = {**{col: each for col in ordinary}, wild: black, "source": "designer"}
        top = max(int(k) for k in gems["in_play"])
        for key in gems["in_play"]:
            fewer = top - int(key)
            changes[f"gems.in_play.{key}"] = {**{col: each - fewer for col in ordinary}, wild: black,
                                             "source": "designer"}
    choices = {"points_per_gem": a, "points_per_concentration": b, "points_offset": c, "black_gems": black}
    return finish_sample(comp, changes, choices, return_choices)
