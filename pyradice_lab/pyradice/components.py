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

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np

from ..rng import as_generator

__all__ = ["Palette", "SkillToken", "GoalToken", "ObjectiveCard", "Components", "Setup", "load_components",
           "default_components", "palette", "DATA_DIR", "SKILL_LEVELS", "GOAL_LEVELS"]

DATA_DIR = Path(__file__).with_name("data")
SKILL_LEVELS = (2, 3, 4, 5, 6)
GOAL_LEVELS = (1, 2, 3, 4, 5)
_SOURCES = ("rules", "reconstruction")


def _params(entry: Mapping, skip: Sequence[str]) -> Mapping[str, Any]:
    out = {}
    for k, v in entry.items():
        if k in skip:
            continue
        out[k] = tuple(v) if isinstance(v, list) else v
    return MappingProxyType(out)


def _source(entry: Mapping, where: str) -> str:
    src = entry.get("source")
    if src not in _SOURCES:
        raise ValueError(f"{where}: source must be one of {_SOURCES}, got {src!r}")
    return src


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


@dataclass(frozen=True)
class Components:
    """The catalogue of one game edition (defaults: :func:`default_components`)."""

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


def _load_toml(folder: Path, name: str) -> dict:
    path = folder / name
    if not path.exists():
        path = DATA_DIR / name
    with open(path, "rb") as fh:
        return tomllib.load(fh)


def load_components(folder: str | Path | None = None) -> Components:
    """Load and validate the component files of ``folder`` (missing files fall back to the defaults).

    Examples
    --------
    >>> comps = load_components()
    >>> sorted(comps.cards)[:3], len(comps.goals), len(comps.skills)
    (['Big', 'Cluster', 'Height'], 14, 10)
    """
    from . import cards as _cards, goals as _goals, skills as _skills

    folder = DATA_DIR if folder is None else Path(folder)
    if not folder.is_dir():
        raise ValueError(f"folder must be an existing directory, got {str(folder)!r}")
    d = _load_toml(folder, "dice.toml")
    names, counts, letters = [], [], []
    for i, c in enumerate(d.get("colour", [])):
        _source(c, f"dice.toml colour {i}")
        if not isinstance(c.get("count"), int) or c["count"] < 0:
            raise ValueError(f"dice.toml colour {c.get('name')!r}: count must be a non-negative integer")
        names.append(str(c["name"]))
        counts.append(int(c["count"]))
        letters.append(str(c.get("letter", c["name"][0])))
    if len(set(names)) != len(names) or len(names) < 1:
        raise ValueError("dice.toml: colour names must be distinct and at least one")
    if len(set(letters)) != len(letters):
        raise ValueError(f"dice.toml: colour letters must be distinct, got {letters} (set `letter` per colour)")
    pal = Palette(tuple(names), tuple(counts), _source(d, "dice.toml"), tuple(letters))

    skills = {}
    for e in _load_toml(folder, "skills.toml").get("skill", []):
        code = str(e.get("code", ""))
        lvl = e.get("level")
        if len(code) != 2 or code[0] not in "AB" or not code[1].isdigit() or int(code[1]) != lvl or lvl not in SKILL_LEVELS:
            raise ValueError(f"skills.toml: code must be A2..B6 matching its level 2..6, got {code!r} level {lvl!r}")
        _skills.get_skill_kind(e.get("kind"))
        skills[code] = SkillToken(code, int(lvl), e["kind"], e.get("name", code), e.get("description", ""),
                                  _source(e, f"skill {code}"),
                                  _params(e, ("code", "level", "kind", "name", "description", "source")))
    goals = {}
    for e in _load_toml(folder, "goals.toml").get("goal", []):
        code = str(e.get("code", ""))
        if len(code) != 2 or code[0] not in "CD" or not "1" <= code[1] <= "7":
            raise ValueError(f"goals.toml: code must be C1..D7, got {code!r}")
        fit = e.get("fit", 0.7)
        if not isinstance(fit, (int, float)) or not 0 <= fit <= 1:
            raise ValueError(f"goals.toml {code}: fit must be in [0, 1], got {fit!r}")
        _goals.get_goal_kind(e.get("kind"))
        goals[code] = GoalToken(code, e["kind"], e.get("name", code), e.get("description", ""),
                                _source(e, f"goal {code}"), float(fit),
                                _params(e, ("code", "kind", "name", "description", "source", "fit")))
    cards = {}
    for e in _load_toml(folder, "cards.toml").get("card", []):
        name = str(e.get("name", ""))
        if not name:
            raise ValueError("cards.toml: every card needs a name")
        _cards.get_card_kind(e.get("kind"))
        cards[name] = ObjectiveCard(name, e["kind"], e.get("description", ""), _source(e, f"card {name}"),
                                    _params(e, ("name", "kind", "description", "source")))
    for tok in list(goals.values()):
        _goals.get_goal_kind(tok.kind).validate(tok.params, f"goal {tok.code}")
    for c in cards.values():
        _cards.get_card_kind(c.kind).validate(c.params, f"card {c.name}")
    setup = _load_toml(folder, "setup.toml")
    return Components(pal, MappingProxyType(skills), MappingProxyType(goals), MappingProxyType(cards),
                      MappingProxyType(dict(setup)), str(folder))


@cache
def default_components() -> Components:
    """The default components (cached)."""
    return load_components()


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
    components : the catalogue the codes refer to (default: :func:`default_components`)

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
    def default(cls, components: Components | None = None) -> Setup:
        """The setup of ``setup.toml`` (rules' example cards, A skills, C6 on level 1)."""
        comps = components or default_components()
        d = comps.default_setup
        return cls(tuple(d["skills"]), tuple(d["goals"]), tuple(d["cards"]),
                   tuple(d["discs"]) if d.get("discs") else None, comps)

    @classmethod
    def random(cls, *, rng=None, components: Components | None = None) -> Setup:
        """A random setup as the rules allow: random skill sides, 5 of the 7 goal tokens in random order on random
        sides, 4 random cards (discs drawn every game).  With a designer's catalogue a token may land on a level
        where it can never be met: :meth:`dead_goals` lists them (the default catalogue has none).

        Examples
        --------
        >>> Setup.random(rng=1) == Setup.random(rng=1)
        True
        """
        gen = as_generator(rng)
        comps = components or default_components()
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
