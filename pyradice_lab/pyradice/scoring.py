"""Scoring a pyramid (goal tokens + objective cards) and the policies' evaluation of a partial pyramid.

:class:`Table` is a :class:`.components.Setup` resolved for one game: the skill token of every level, the goal
token of levels 1..5, the four cards with their disc colours.  :func:`score_pyramid` applies the registered goal
and card functions; a level's goal counts only once the level is complete (so a partly built pyramid scores
the cards it already earns and the goals of its finished levels).

Examples
--------
>>> from .components import Setup
>>> t = Table.build(Setup.default(), discs=(0, 1, 2, 3))
>>> vals = (3, 5, 5, 3, 3, 5) + (0,) * 15
>>> cols = (0, 0, 1, 1, 2, 3) + (-1,) * 15
>>> sc = score_pyramid(vals, cols, t)
>>> sc.goals_met[0], sc.goal_vp, sc.cards
(True, 5, (1, 0, 0, 1))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .cards import card_score
from .components import GOAL_LEVELS, SKILL_LEVELS, GoalToken, ObjectiveCard, Setup, SkillToken
from .geometry import PYRAMID
from .goals import goal_consistent, goal_met

__all__ = ["Table", "ScoreCard", "score_pyramid", "evaluate", "GOAL_VP", "lookahead_bonus"]

#: Victory points for a goal token met (rules).
GOAL_VP = 5


@dataclass(frozen=True)
class Table:
    """A setup with its disc colours: everything scoring and skills need for one game."""

    setup: Setup
    skills: dict[int, SkillToken]          # level 2..6 -> token
    goals: dict[int, GoalToken]            # level 1..5 -> token
    cards: tuple[ObjectiveCard, ...]
    discs: tuple[int, ...]                 # colour index per card
    colour_names: tuple[str, ...]

    @classmethod
    def build(cls, setup: Setup, discs: Sequence[int]) -> Table:
        comps = setup.catalogue
        names = comps.palette.names
        discs = tuple(int(d) for d in discs)
        if len(discs) != 4 or not all(0 <= d < len(names) for d in discs):
            raise ValueError(f"discs must be 4 colour indices in 0..{len(names) - 1}, got {discs}")
        return cls(setup, {lvl: comps.skills[c] for lvl, c in zip(SKILL_LEVELS, setup.skills) if c is not None},
                   {lvl: comps.goals[c] for lvl, c in zip(GOAL_LEVELS, setup.goals)},
                   tuple(comps.cards[n] for n in setup.cards), discs, names)

    @property
    def n_colours(self) -> int:
        return len(self.colour_names)

    def card_labels(self) -> list[str]:
        return [f"{c.name}({self.colour_names[d]})" for c, d in zip(self.cards, self.discs)]


@dataclass(frozen=True)
class ScoreCard:
    """One pyramid's score: goal tokens met (levels 1..5), their VP, points of each card, total."""

    goals_met: tuple[bool, ...]
    goal_vp: int
    cards: tuple[int, ...]
    total: int

    @property
    def n_goals(self) -> int:
        return int(sum(self.goals_met))


def _level(values, colours, k):
    sp = PYRAMID.spaces_of(k)
    return tuple(values[s] for s in sp), tuple(colours[s] for s in sp)


def _check_pyramid(values, colours, n_colours: int) -> tuple[list[int], list[int]]:
    """The 21 values (0..6) and colour indices (-1..n_colours-1) of a pyramid, checked."""
    out = []
    for name, seq, lo, hi in (("values", values, 0, 6), ("colours", colours, -1, n_colours - 1)):
        try:
            items = list(seq)
        except TypeError:
            raise TypeError(f"{name} must be a sequence of {PYRAMID.n} integers, got {type(seq).__name__}") from None
        if isinstance(seq, (str, bytes)) or len(items) != PYRAMID.n:
            raise ValueError(f"{name} must hold {PYRAMID.n} integers (one per pyramid space), got {seq!r}")
        bad = [x for x in items if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, np.integer))
               or not lo <= x <= hi]
        if bad:
            raise ValueError(f"{name} must be integers in {lo}..{hi}, got {bad[0]!r}")
        out.append([int(x) for x in items])
    v, c = out
    if any((x == 0) != (y == -1) for x, y in zip(v, c)):
        raise ValueError("colours must be -1 exactly where values is 0 (empty spaces)")
    return v, c


def score_pyramid(values, colours, table: Table) -> ScoreCard:
    """Score one pyramid (21 values / colour indices, 0 / -1 for empty spaces) under ``table``.

    Parameters
    ----------
    values : sequence of int, length 21
        Die values 1..6, 0 for an empty space (:data:`.geometry.PYRAMID` order, level 1 first).
    colours : sequence of int, length 21
        Colour indices of the palette, -1 exactly where ``values`` is 0.
    table : Table
        The game's goal tokens, skill tokens, cards and card discs (``Table.build(setup, discs)``).

    Returns
    -------
    ScoreCard
        ``goals_met`` (levels 1..5), ``goal_vp``, ``cards`` (points of each card) and ``total``.

    Raises
    ------
    TypeError
        If ``table`` is not a Table.
    ValueError
        If ``values`` or ``colours`` does not hold 21 integers in range, or they disagree on which spaces are
        empty.

    Examples
    --------
    >>> from .components import Setup
    >>> t = Table.build(Setup.default(), discs=(0, 1, 2, 3))
    >>> sc = score_pyramid((3, 5, 5, 3, 3, 5) + (0,) * 15, (0, 0, 1, 1, 2, 3) + (-1,) * 15, t)
    >>> sc.total == sc.goal_vp + sum(sc.cards), len(sc.goals_met)
    (True, 5)
    """
    if not isinstance(table, Table):
        raise TypeError(f"table must be a Table (Table.build(setup, discs)), got {type(table).__name__}")
    values, colours = _check_pyramid(values, colours, table.n_colours)
    return _score_pyramid(values, colours, table)


def _score_pyramid(values, colours, table: Table) -> ScoreCard:
    met = []
    for k in GOAL_LEVELS:
        v, c = _level(values, colours, k)
        met.append(all(v) and goal_met(table.goals[k], v, c))
    cards = tuple(card_score(card, d, values, colours) for card, d in zip(table.cards, table.discs))
    goal_vp = GOAL_VP * sum(met)
    return ScoreCard(tuple(met), goal_vp, cards, goal_vp + sum(cards))


def lookahead_bonus(fit: float) -> tuple[int, ...]:
    """Milli-VP the lookahead policy gives a still-achievable level with e = 0..6 empty spaces:
    ``round(5000 * fit ** e)`` (integers, so both engines compare values exactly)."""
    return tuple(int(round(1000 * GOAL_VP * fit ** e)) for e in range(7))


def evaluate(values, colours, table: Table, mode: str) -> int:
    """A policy's value of a pyramid, in milli-VP (integers).

    ``"greedy"``: 1000 x the score the pyramid would have if the game ended now.  ``"lookahead"``: that plus, for
    every unfinished level whose goal the placed dice still allow, ``5000 * fit ** empty`` (``fit`` from
    ``goals.toml``): a level whose goal is still reachable is worth part of its 5 VP, less the more spaces remain.
    """
    total = 1000 * _score_pyramid(values, colours, table).total
    if mode == "lookahead":
        for k in GOAL_LEVELS:
            v, c = _level(values, colours, k)
            empty = sum(1 for x in v if not x)
            if empty and goal_consistent(table.goals[k], v, c, table.n_colours):
                total += lookahead_bonus(table.goals[k].fit)[empty]
    return total
