"""Pyradice components as frozen dataclasses loaded from ``data/*.toml`` and validated.

- :class:`Palette` — dice colours and counts per copy of the game (``dice.toml``);
- :class:`SkillToken`, :class:`GoalToken`, :class:`ObjectiveCard` — the token and card catalogues
  (``skills.toml``, ``goals.toml``, ``cards.toml``); each names a *kind*, a small registered function
  (:mod:`.skills`, :mod:`.goals`, :mod:`.cards`), plus its parameters;
- :class:`Components` — the whole catalogue (:func:`load_components`, optionally from a designer's folder);
- :class:`Setup` — what is on the (identical) pyramid boards and the table: skill token per level 2..6, goal
  token per level 1..5, four objective cards and optionally fixed disc colours (``setup.toml``).

Every TOML value carries ``source = "rules"`` or ``"reconstruction"``.

Examples
--------
>>> s = Setup.default()
>>> s.skills, s.goals, s.cards
(('A2', 'A3', 'A4', 'A5', 'A6'), ('C6', 'D7', 'C2', 'C3', 'D1'), ('Many', 'Height', 'Pairs', 'Big'))
>>> default_components().goals["C6"].params["values"]
(3, 5)
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np

from ..engine.rng import as_generator
from ..engine.schema import ComponentFormat, SchemaComponents, SchemaError, suggest
from ._components_schema import (
    _ENTRY_FIELDS,
    _KIND_PARAMS as _KIND_PARAMS,
    _PARAM_DOCS as _PARAM_DOCS,
    _PARAM_NODES as _PARAM_NODES,
    _TABLE as _TABLE,
    _VALUES as _VALUES,
    SPEC,
    _entry as _entry,
    _Kind as _Kind,
    _names_hook as _names_hook,
    _params_hook as _params_hook,
    _registry as _registry,
)

__all__ = ["Palette", "SkillToken", "GoalToken", "ObjectiveCard", "Components", "Setup", "load_components",
           "default_components", "coerce_components", "FORMAT", "palette", "DATA_DIR", "SKILL_LEVELS", "GOAL_LEVELS"]

DATA_DIR = Path(__file__).with_name("data")
SKILL_LEVELS = (2, 3, 4, 5, 6)
GOAL_LEVELS = (1, 2, 3, 4, 5)


@dataclass(frozen=True)
class Palette:
    """Dice colours and how many dice of each colour one copy of the game holds."""

    names: tuple[str, ...]
    counts: tuple[int, ...]
    source: str = "reconstruction"
    letters: tuple[str, ...] = ()

    def letter(self, i: int) -> str:
        """One-letter code of colour ``i`` for drawings."""
        return self.letters[i] if self.letters else self.names[i][0]

    def index(self, colour: str) -> int:
        if colour not in self.names:
            raise ValueError(f"colour must be one of {list(self.names)}, got {colour!r}")
        return self.names.index(colour)


@dataclass(frozen=True)
class SkillToken:
    """A skill token side (``A2`` .. ``B6``): level, kind (registered function) and its parameters."""

    code: str
    level: int
    kind: str
    name: str
    description: str
    source: str
    params: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True)
class GoalToken:
    """A goal token side (``C1`` .. ``D7``); ``number`` is the physical token (both sides share it)."""

    code: str
    kind: str
    name: str
    description: str
    source: str
    fit: float
    params: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def number(self) -> int:
        return int(self.code[1:])


@dataclass(frozen=True)
class ObjectiveCard:
    """An objective card: kind (registered function) and parameters; scores the dice of its disc colour."""

    name: str
    kind: str
    description: str
    source: str
    params: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True, eq=False)
class Components(SchemaComponents):
    """The catalogue of one game edition (defaults: :func:`default_components`).

    Build with :func:`load_components`; derive variants with :meth:`replace`
    (``comp.replace({"card.Many.table": [0, 1, 2, 4, 6, 9]})``); equal when their validated documents are
    equal (:meth:`content_hash`).
    """

    palette: Palette
    skills: Mapping[str, SkillToken]
    goals: Mapping[str, GoalToken]
    cards: Mapping[str, ObjectiveCard]
    default_setup: Mapping[str, Any]
    folder: str = ""

    def reconstructed(self) -> list[tuple[str, str, str]]:
        """(component, name, description) of every reconstructed component."""
        rows = [("dice colours", ", ".join(f"{n} x{c}" for n, c in zip(self.palette.names, self.palette.counts)),
                 f"{len(self.palette.names)} colours, {sum(self.palette.counts)} dice per copy (two copies for 3-4 "
                 f"players); quarry colours drawn without replacement; one disc per colour, 4 drawn at random")]
        rows += [("skill", f"{s.code} {s.name}", s.description) for s in self.skills.values()
                 if s.source == "reconstruction"]
        rows += [("goal", f"{g.code} {g.name}", g.description) for g in self.goals.values()
                 if g.source == "reconstruction"]
        rows += [("card", c.name, c.description + _table_note(c)) for c in self.cards.values()
                 if c.source == "reconstruction"]
        return rows


def _table_note(card: ObjectiveCard) -> str:
    return f" Table: {list(card.params['table'])}." if "table" in card.params else ""


def _check(doc: dict) -> None:
    colours = doc["dice"]["colour"]
    letters = [c.get("letter") or c["name"][0] for c in colours]
    for c, letter in zip(colours, letters):
        if letters.count(letter) > 1:
            raise SchemaError(f"{letter!r} is also another colour's letter", ("dice", "colour", c["name"], "letter"),
                              allowed="distinct one-letter codes (set `letter` per colour)")
    total = sum(c["count"] for c in colours)
    if total < 47:
        raise SchemaError(f"one copy holds {total} dice", ("dice", "colour"),
                          allowed="at least 47 dice per copy (the 2-player quarry; 3-4 players use two copies, 92)")
    if total > 1000:
        raise SchemaError(f"one copy holds {total} dice", ("dice", "colour"), allowed="at most 1000 dice per copy")
    for s in doc["skill"]:
        if int(s["code"][1]) != s["level"]:
            raise SchemaError(f"{s['level']} differs from the code's digit", ("skill", s["code"], "level"),
                              allowed=s["code"][1])
    skills = {s["code"] for s in doc["skill"]}
    goals = {g["code"] for g in doc["goal"]}
    cards = {c["name"] for c in doc["card"]}
    setup = doc["setup"]
    for i, (lvl, code) in enumerate(zip(SKILL_LEVELS, setup["skills"])):
        if code not in (f"A{lvl}", f"B{lvl}") or code not in skills:
            raise SchemaError(f"{code!r} is not a level-{lvl} skill of the catalogue", ("setup", "skills", i),
                              allowed=", ".join(c for c in (f"A{lvl}", f"B{lvl}") if c in skills))
    for i, code in enumerate(setup["goals"]):
        if code not in goals:
            raise SchemaError(f"{code!r} is not in the goal catalogue{suggest(code, goals)}", ("setup", "goals", i),
                              allowed=", ".join(sorted(goals)))
    numbers = [c[1] for c in setup["goals"]]
    if len(set(numbers)) != 5:
        raise SchemaError(f"{setup['goals']} use a token twice (C{{n}} and D{{n}} are one token)", ("setup", "goals"),
                          allowed="5 different token numbers")
    for i, name in enumerate(setup["cards"]):
        if name not in cards:
            raise SchemaError(f"{name!r} is not in the card catalogue{suggest(name, cards)}", ("setup", "cards", i),
                              allowed=", ".join(sorted(cards)))
    names = [c["name"] for c in colours]
    for i, col in enumerate(setup.get("discs") or ()):
        if col not in names:
            raise SchemaError(f"{col!r} is not a dice colour{suggest(col, names)}", ("setup", "discs", i),
                              allowed=", ".join(names))


def _params(entry: Mapping, what: str) -> Mapping[str, Any]:
    return MappingProxyType({k: tuple(v) if isinstance(v, list) else v for k, v in entry.items()
                             if k not in _ENTRY_FIELDS[what]})


def _build(doc: dict) -> Components:
    d = doc["dice"]
    pal = Palette(tuple(c["name"] for c in d["colour"]), tuple(c["count"] for c in d["colour"]), d["source"],
                  tuple(c.get("letter") or c["name"][0] for c in d["colour"]))
    skills = {e["code"]: SkillToken(e["code"], e["level"], e["kind"], e["name"] or e["code"], e["description"],
                                    e["source"], _params(e, "skill")) for e in doc["skill"]}
    goals = {e["code"]: GoalToken(e["code"], e["kind"], e["name"] or e["code"], e["description"], e["source"],
                                  e["fit"], _params(e, "goal")) for e in doc["goal"]}
    cards = {e["name"]: ObjectiveCard(e["name"], e["kind"], e["description"], e["source"], _params(e, "card"))
             for e in doc["card"]}
    setup = {k: v for k, v in doc["setup"].items() if k != "source"}
    return Components(pal, MappingProxyType(skills), MappingProxyType(goals), MappingProxyType(cards),
                      MappingProxyType(setup), "")


FORMAT = ComponentFormat(
    game="pyradice", spec=SPEC, data_dir=DATA_DIR,
    packaged=("dice.toml", "skills.toml", "goals.toml", "cards.toml", "setup.toml"), check=_check, build=_build,
    cls=Components, header="""Pyradice components (pyradice-lab pyradice components --dump): dice, skill and goal tokens, objective cards
and the default setup.

Load with: pyradice-lab pyradice simulate --components THIS_FILE, or pyradice.simulate_games(..., components=PATH).
A file may be partial: tables merge key by key over the packaged components (dice.toml, skills.toml, goals.toml,
cards.toml, setup.toml); [[skill]], [[goal]] and [[card]] entries merge by code / name (a new name adds a card);
a value you give without a source is marked source = "designer".  Each entry's `kind` names a registered
function; its parameters (values, table, size, points) follow it.  Sources: "rules" (stated in the rules
text), "reconstruction" (our documented choice), "designer" (yours).
Every value has its meaning and source in the comment line above it (in [[...]] arrays, where a key first appears).""")


def load_components(path: str | Path | None = None) -> Components:
    """Load and validate components: a designer's file (or a folder of files named like the packaged ones),
    merged over the packaged components; default: the packaged ones.

    A partial file changes only what it gives.

    Parameters
    ----------
    path : str or Path, optional
        A components TOML file, or a folder holding files named like the packaged ones (``dice.toml``,
        ``skills.toml``, ``goals.toml``, ``cards.toml``, ``setup.toml``).  ``None``: the packaged components.

    Returns
    -------
    Components
        The validated catalogue (palette, skills, goals, cards and the default setup).

    Raises
    ------
    ValueError
        :class:`~pyradice_lab.engine.schema.SchemaError` (a ``ValueError``) naming the file, the key and what is
        allowed, if a file is missing or invalid, or a folder holds none of the packaged file names.

    Examples
    --------
    >>> comps = load_components()
    >>> sorted(comps.cards)[:3], len(comps.goals), len(comps.skills)
    (['Big', 'Cluster', 'Height'], 14, 10)
    """
    if path is not None and isinstance(path, (str, os.PathLike)) and Path(path).is_dir():
        folder = Path(path)
        files = [folder / n for n in FORMAT.packaged if (folder / n).is_file()]
        if not files:
            raise SchemaError(f"holds none of {', '.join(FORMAT.packaged)}", file=folder)
        return FORMAT.load_files([(f, "components") for f in files], file=folder)
    return FORMAT.load(path)


def default_components() -> Components:
    """The default components (cached).

    Returns
    -------
    Components
        The packaged catalogue (palette, skills, goals, cards and the default setup); the same object on every
        call (change it with ``.replace({...})``, which returns a new one).

    Examples
    --------
    >>> comps = default_components()
    >>> len(comps.goals), comps is default_components()
    (14, True)
    """
    return FORMAT.default()


def coerce_components(components, name: str = "components") -> Components:
    """``None`` (packaged), loaded :class:`Components` or a path to a components file -> :class:`Components`."""
    return FORMAT.coerce(components, name)


def palette() -> Palette:
    """The default dice palette."""
    return default_components().palette


def _codes(value, n: int, name: str, allow_none: bool = False) -> tuple:
    if isinstance(value, str) or not isinstance(value, Sequence) or len(value) != n:
        raise ValueError(f"{name} must be a sequence of {n} codes, got {value!r}")
    return tuple(None if (v is None and allow_none) else str(v) for v in value)


@dataclass(frozen=True)
class Setup:
    """What every pyramid board and the table show for one game.

    Parameters
    ----------
    skills : 5 skill codes for levels 2..6 (``"A2"`` or ``"B2"`` for level 2, ...); None leaves a recess empty
        (not a rules setup: used to measure what a skill is worth)
    goals : 5 goal codes for levels 1..5 (distinct token numbers, e.g. ``("C6", "D7", "C2", "C3", "D1")``)
    cards : 4 distinct objective card names
    discs : 4 colour names (one per card) or None to draw them at random every game
    components : the catalogue the codes refer to: loaded components or a path to a components file (default:
        :func:`default_components`)

    Examples
    --------
    >>> Setup(goals=("C1", "C2", "C3", "C4", "C5")).goals[0]
    'C1'
    >>> Setup(skills=("A2", "A2", "A4", "A5", "A6"))
    Traceback (most recent call last):
    ...
    ValueError: skills[1] must be the level-3 token A3 or B3, got 'A2'
    """

    skills: tuple[str | None, ...] = ("A2", "A3", "A4", "A5", "A6")
    goals: tuple[str, ...] = ("C6", "D7", "C2", "C3", "D1")
    cards: tuple[str, ...] = ("Many", "Height", "Pairs", "Big")
    discs: tuple[str, ...] | None = None
    components: Components | None = field(default=None, compare=False, repr=False)

    def __post_init__(self):
        if self.components is not None:
            object.__setattr__(self, "components", coerce_components(self.components))
        comps = self.catalogue
        skills = _codes(self.skills, 5, "skills", allow_none=True)
        for i, (lvl, code) in enumerate(zip(SKILL_LEVELS, skills)):
            if code is None:
                continue
            if code not in (f"A{lvl}", f"B{lvl}"):
                raise ValueError(f"skills[{i}] must be the level-{lvl} token A{lvl} or B{lvl}, got {code!r}")
            if code not in comps.skills:
                raise ValueError(f"skills[{i}]: {code!r} is not in the skill catalogue {sorted(comps.skills)}")
        goals = _codes(self.goals, 5, "goals")
        for i, code in enumerate(goals):
            if code not in comps.goals:
                raise ValueError(f"goals[{i}] must be one of {sorted(comps.goals)}, got {code!r}")
        numbers = [comps.goals[c].number for c in goals]
        if len(set(numbers)) != 5:
            raise ValueError(f"goals must use 5 different token numbers (C{{n}} and D{{n}} are one token), got {goals}")
        cards = _codes(self.cards, 4, "cards")
        for i, name in enumerate(cards):
            if name not in comps.cards:
                raise ValueError(f"cards[{i}] must be one of {sorted(comps.cards)}, got {name!r}")
        if len(set(cards)) != 4:
            raise ValueError(f"cards must be 4 different cards, got {cards}")
        discs = None
        if self.discs is not None:
            discs = _codes(self.discs, 4, "discs")
            for i, col in enumerate(discs):
                if col not in comps.palette.names:
                    raise ValueError(f"discs[{i}] must be one of {list(comps.palette.names)}, got {col!r}")
        object.__setattr__(self, "skills", skills)
        object.__setattr__(self, "goals", goals)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "discs", discs)

    @property
    def catalogue(self) -> Components:
        return self.components if self.components is not None else default_components()

    @classmethod
    def default(cls, components=None) -> Setup:
        """The setup of the components' ``[setup]`` (packaged: rules' example cards, A skills, C6 on level 1);
        ``components``: loaded components or a path."""
        comps = coerce_components(components)
        d = comps.default_setup
        return cls(tuple(d["skills"]), tuple(d["goals"]), tuple(d["cards"]),
                   tuple(d["discs"]) if d.get("discs") else None, comps)

    @classmethod
    def random(cls, *, rng=None, components=None) -> Setup:
        """A random setup as the rules allow: random skill sides, 5 of the 7 goal tokens in random order on random
        sides, 4 random cards (discs drawn every game).  With a designer's catalogue a token may land on a level
        where it can never be met: :meth:`dead_goals` lists them (the default catalogue has none).

        Examples
        --------
        >>> Setup.random(rng=1) == Setup.random(rng=1)
        True
        """
        gen = as_generator(rng)
        comps = coerce_components(components)
        skills = tuple(f"{'AB'[int(gen.integers(2))]}{lvl}" for lvl in SKILL_LEVELS)
        skills = tuple(c if c in comps.skills else f"A{c[1]}" for c in skills)
        numbers = gen.permutation(np.arange(1, 8))[:5]
        goals = []
        for n in numbers:
            side = "CD"[int(gen.integers(2))]
            code = f"{side}{n}" if f"{side}{n}" in comps.goals else f"{'DC'['CD'.index(side)]}{n}"
            goals.append(code)
        names = sorted(comps.cards)
        cards = tuple(names[i] for i in gen.permutation(len(names))[:4])
        return cls(skills, tuple(goals), cards, None, comps)

    def dead_goals(self, players: int = 2) -> tuple[tuple[int, str], ...]:
        """(level, code) of every goal token that no level of its size can ever meet (exact enumeration,
        :func:`.goals.goal_witness`): such a token is 5 VP nobody can score.

        A level may show any values but at most as many dice of a colour as the box holds (one copy of the game
        for 2 players, two for 3-4).  The default catalogue has none (tested); a designer's may.

        Examples
        --------
        >>> Setup.default().dead_goals()
        ()
        """
        from .geometry import check_players
        from .goals import goal_attainable

        copies = 1 if check_players(players) == 2 else 2
        caps = tuple(c * copies for c in self.catalogue.palette.counts)
        return tuple((lvl, code) for lvl, code in zip(GOAL_LEVELS, self.goals)
                     if goal_attainable(self.catalogue.goals[code], 7 - lvl, caps) is False)

    def describe(self) -> str:
        comps = self.catalogue
        sk = ", ".join(f"L{lvl} {c} {comps.skills[c].name}" if c else f"L{lvl} (none)"
                       for lvl, c in zip(SKILL_LEVELS, self.skills))
        dead = {lvl for lvl, _ in self.dead_goals()}
        go = ", ".join(f"L{lvl} {c} {comps.goals[c].name}" + (" [can never be met here]" if lvl in dead else "")
                       for lvl, c in zip(GOAL_LEVELS, self.goals))
        discs = "random discs" if self.discs is None else "discs " + ", ".join(self.discs)
        return f"skills: {sk}; goals: {go}; cards: {', '.join(self.cards)} ({discs})"


# ------------------------------------------------------------------------------------ plausible sets
def sample_plausible(rng=None, *, base=None, return_choices: bool = False):
    """A plausible set of objective cards: the reconstructed tables and points drawn around the packaged ones.

    The rules name Many, Height, Pairs and Big with an example score each and fix Pairs (4 VP per isolated
    pair) and Big (1 VP per matching die showing 4-6); the other tables and cards are reconstructions.  A
    plausible set draws: the curvature ``g_many`` in [0.8, 1.5] of Many's table, ``round(7 * ((k - 1) / 4) **
    g_many)`` for k matching dice, which keeps the rules' example (5 dice -> 7 VP); the curvature ``g_tables``
    in [0.8, 1.25] of every other reconstructed count table (Cluster, Variety, Spread: each entry ``round(top *
    (entry / top) ** g_tables)``, the top entry kept); and a scale ``points_scale`` in [0.5, 1.5] for the
    reconstructed per-die cards (Small, Loners: ``max(1, round(points * scale))``).  Height's table is fixed
    by the rules' example (9 VP) and stays; goal tokens stay.

    Parameters
    ----------
    rng : seed, SeedSequence or Generator, optional
    base : path or Components, optional
        The set to start from (default: the packaged components).
    return_choices : bool
        Return a :class:`pyradice_lab.design.robustness.PlausibleSample` (components and the choices drawn).

    Examples
    --------
    >>> s = sample_plausible(2, return_choices=True)
    >>> s.components.get("card.Many.table")[5], s.components.get("card.Pairs.points")
    (7, 4)
    """
    from ..engine.sampling import finish_sample

    rng = as_generator(rng)
    comp = coerce_components(base, "base")
    g_many, g_tables, scale = rng.uniform(0.8, 1.5), rng.uniform(0.8, 1.25), rng.uniform(0.5, 1.5)
    changes: dict = {}
    for card in comp.document["card"]:
        name = card["name"]
        if card.get("source") == "rules" or name == "Height":
            continue
        if name == "Many" and "table" in card:
            n = len(card["table"])
            changes[f"card.{name}.table"] = [0] + [round(7 * ((k - 1) / 4) ** g_many) for k in range(1, n)]
        elif "table" in card:
            top = card["table"][-1]
            if top > 0:
                changes[f"card.{name}.table"] = [round(top * (v / top) ** g_tables) for v in card["table"]]
        elif "points" in card:
            changes[f"card.{name}.points"] = max(1, round(card["points"] * scale))
    choices = {"g_many": g_many, "g_tables": g_tables, "points_scale": scale}
    return finish_sample(comp, changes, choices, return_choices)
