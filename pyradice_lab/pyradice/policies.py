"""Named policies: how a seat chooses (die to take, space to place it, skill use) on its turn.

A policy is ``policy(state, u) -> (take, place, option)`` where ``state`` is a :class:`.rules.GameState`, ``u``
the turn's three dealt uniform numbers in [0, 1) (so a game is a pure function of its deal) and ``option``
indexes the canonical skill option list (-1: no skill).

- ``random_legal``: a uniformly random available die, a uniformly random legal space, then uniformly one of
  "no skill" and every skill option.
- ``greedy``: the (die, space) whose best follow-up (no skill or the best skill use) gives the highest score the
  pyramid would have if the game ended now; ties broken uniformly at random; the skill is used only when it
  raises that score (the first best option in canonical order).
- ``lookahead``: the same search, valuing pyramids with :func:`.scoring.evaluate` in ``"lookahead"`` mode: the
  current score plus, for every unfinished level whose goal is still reachable, ``5 * fit ** empty`` VP.  It
  keeps goals achievable instead of chasing card points only.

The compiled simulator implements the same three policies (codes in :data:`POLICY_CODES`); the test suite
checks that both engines pick the same moves.

Restricted players (restricted play, :func:`pyradice_lab.design.strength.restricted_play`) are spelled
``"<policy>/<restriction>"``, e.g. ``"lookahead/no_goals"`` or ``"greedy/no_skill_A6"`` (:data:`RESTRICTIONS`; a
skill is named by its token, as in the skill table: ``no_skill_A6`` never uses skill token A6 Rebuild; the old
level spelling ``no_skill_L6`` is rejected with the new name): a forbidden skill is never used (no options
offered), an ignored goal or card scoring term is left out of the policy's valuation.

Examples
--------
>>> from .components import Setup
>>> from .rules import GameState, deal
>>> g = GameState.start(deal(2, Setup.default(), rng=1), Setup.default())
>>> take, place, option = greedy(g, g.deal.uniforms[0])
>>> take in g.legal_takes(), place in range(6), option
(True, True, -1)
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from .components import SKILL_LEVELS
from .geometry import PYRAMID
from .rules import GameState, _legal_places
from .scoring import _score_pyramid, evaluate
from .skills import apply_action

__all__ = ["random_legal", "greedy", "lookahead", "POLICIES", "POLICY_CODES", "get_policy", "search", "RESTRICTIONS",
           "Restriction", "parse_policy"]

#: The skill tokens of the default setup, as every output names them (code and name; the digit is the level).
DEFAULT_SKILLS = {"A2": "Tip", "A3": "Flip", "A4": "Carve", "A5": "Turnover", "A6": "Rebuild"}
#: Restrictions of restricted play registered for the game (the default setup's tokens): name -> description.
#: A skill is named by its token everywhere (skill table, restricted play, report): ``no_skill_A5`` never uses
#: skill token A5 Turnover; any token code of the catalogue is accepted (``no_skill_B5`` for a setup using B5).
RESTRICTIONS = {
    "no_skills": "never uses a skill token",
    **{f"no_skill_{code}": f"never uses skill token {code} {name}" for code, name in DEFAULT_SKILLS.items()},
    "no_goals": "ignores the goal tokens when choosing (values pyramids by card points only)",
    "no_cards": "ignores the objective cards when choosing (values goal tokens only)",
}
_SKILL_CODE = re.compile(r"^no_skill_([AB])([2-6])$")
_OLD_SKILL_LEVEL = re.compile(r"^no_skill_L([2-6])$")


@dataclass(frozen=True)
class Restriction:
    """What a restricted player may not do: skill tokens it never uses (by code, or all of them with
    ``no_skills``); goal / card terms it ignores."""

    skill_codes: frozenset = frozenset()
    no_skills: bool = False
    no_goals: bool = False
    no_cards: bool = False

    @classmethod
    def parse(cls, names) -> Restriction:
        codes, skills, goals, cards = set(), False, False, False
        for r in names:
            r = r.strip()
            old = _OLD_SKILL_LEVEL.match(r)
            if old:
                k = int(old.group(1))
                raise ValueError(f"policies: restriction {r!r} was renamed: a skill is named by its token "
                                 f"everywhere; use 'no_skill_A{k}' (skill token A{k} "
                                 f"{DEFAULT_SKILLS[f'A{k}']}, the default setup's level-{k} token) or "
                                 f"'no_skill_B{k}' for the token's other side")
            if r not in RESTRICTIONS and not _SKILL_CODE.match(r):
                raise ValueError(f"policies: restriction must be one of {sorted(RESTRICTIONS)} (or no_skill_<token "
                                 f"code> for any skill token, e.g. no_skill_B5), got {r!r}")
            if _SKILL_CODE.match(r):
                codes.add(r[len("no_skill_"):])
            skills |= r == "no_skills"
            goals |= r == "no_goals"
            cards |= r == "no_cards"
        return cls(frozenset(codes), skills, goals, cards)

    def skill_levels(self, setup) -> frozenset:
        """The levels whose skill token this player never uses under ``setup`` (ValueError if a forbidden token
        is not in the setup: the restriction would mean nothing)."""
        used = {code: lvl for lvl, code in zip(SKILL_LEVELS, setup.skills) if code is not None}
        missing = sorted(self.skill_codes - set(used))
        if missing:
            raise ValueError(f"policies: restriction no_skill_{missing[0]} names skill token {missing[0]}, which this "
                             f"setup does not use (its skill tokens: {', '.join(used) or 'none'})")
        if self.no_skills:
            return frozenset(used.values())
        return frozenset(used[c] for c in self.skill_codes)

    def skill_allowed(self, place: int, setup) -> bool:
        return int(PYRAMID.level_of[place]) not in self.skill_levels(setup)

    def value(self, values, colours, table, mode: str) -> int:
        """:func:`.scoring.evaluate` without the ignored terms (milli-VP, the kernels' integers)."""
        if self.no_goals:
            return 0 if self.no_cards else 1000 * sum(_score_pyramid(values, colours, table).cards)
        total = evaluate(values, colours, table, mode)
        if self.no_cards:
            total -= 1000 * sum(_score_pyramid(values, colours, table).cards)
        return total

NO_RESTRICTION = Restriction()


def random_legal(state: GameState, u, restriction: Restriction = NO_RESTRICTION) -> tuple[int, int, int]:
    """Uniformly random legal choices (die, then space, then skill option or none).

    Parameters
    ----------
    state : GameState
        The game in progress; the policy chooses for ``state.seat`` (the mover).
    u : sequence of 3 floats in [0, 1)
        The turn's dealt uniform numbers (``state.deal.uniforms[turn]``), so a game is a pure function of its
        deal.
    restriction : Restriction
        Skills the player may not use (restricted play; default: none).

    Returns
    -------
    tuple of (int, int, int)
        ``(take, place, option)``: the quarry position of the die taken, the pyramid space it goes to, and the
        index of the skill option used in the canonical option list (-1: no skill).

    Examples
    --------
    >>> from .components import Setup
    >>> from .rules import GameState, deal
    >>> g = GameState.start(deal(2, Setup.default(), rng=1), Setup.default())
    >>> take, place, option = random_legal(g, g.deal.uniforms[0])
    >>> take in g.legal_takes(), place in range(6), option >= -1
    (True, True, True)
    """
    takes = state.legal_takes()
    take = takes[int(u[0] * len(takes))]
    places = _legal_places(state.pyramids[state.seat][0])
    place = places[int(u[1] * len(places))]
    v, c = state.after_place(state.seat, take, place)
    n_opts = len(state.skill_options(v, c, place)) if restriction.skill_allowed(place, state.table.setup) else 0
    return take, place, int(u[2] * (n_opts + 1)) - 1


def search(state: GameState, u, mode: str, restriction: Restriction = NO_RESTRICTION) -> tuple[int, int, int]:
    """The shared search of ``greedy`` and ``lookahead``: best (die, space, skill) by :func:`evaluate`
    (without the terms and skills ``restriction`` forbids)."""
    seat = state.seat
    table = state.table
    takes = state.legal_takes()
    places = _legal_places(state.pyramids[seat][0])
    cache: dict[tuple[int, int, int], tuple[int, int]] = {}   # (value, colour, place) -> (value, option)

    def best_after(take: int, place: int) -> tuple[int, int]:
        key = (int(state.quarry.values[take]), int(state.quarry.colours[take]), place)
        if key not in cache:
            v, c = state.after_place(seat, take, place)
            best, arg = restriction.value(v, c, table, mode), -1
            options = state.skill_options(v, c, place) if restriction.skill_allowed(place, state.table.setup) else []
            for i, act in enumerate(options):
                val = restriction.value(*apply_action(v, c, act), table, mode)
                if val > best:
                    best, arg = val, i
            cache[key] = (best, arg)
        return cache[key]

    scored = [(best_after(t, p), t, p) for t in takes for p in places]
    top = max(s[0][0] for s in scored)
    ties = [(t, p, s[1]) for s, t, p in scored if s[0] == top]
    return ties[int(u[0] * len(ties))]


def greedy(state: GameState, u) -> tuple[int, int, int]:
    """Best immediate score (skills included), random tie-break.

    Parameters
    ----------
    state : GameState
        The game in progress; the policy chooses for ``state.seat`` (the mover).
    u : sequence of 3 floats in [0, 1)
        The turn's dealt uniform numbers (``state.deal.uniforms[turn]``), so a game is a pure function of its
        deal.

    Returns
    -------
    tuple of (int, int, int)
        ``(take, place, option)``: the quarry position of the die taken, the pyramid space it goes to, and the
        index of the skill option used in the canonical option list (-1: no skill).

    Examples
    --------
    >>> from .components import Setup
    >>> from .rules import GameState, deal
    >>> g = GameState.start(deal(2, Setup.default(), rng=1), Setup.default())
    >>> take, place, option = greedy(g, g.deal.uniforms[0])
    >>> take in g.legal_takes(), place in range(6), option >= -1
    (True, True, True)
    """
    return search(state, u, "greedy")


def lookahead(state: GameState, u) -> tuple[int, int, int]:
    """Best score plus the value of goals still achievable on unfinished levels, random tie-break.

    Parameters
    ----------
    state : GameState
        The game in progress; the policy chooses for ``state.seat`` (the mover).
    u : sequence of 3 floats in [0, 1)
        The turn's dealt uniform numbers (``state.deal.uniforms[turn]``), so a game is a pure function of its
        deal.

    Returns
    -------
    tuple of (int, int, int)
        ``(take, place, option)``: the quarry position of the die taken, the pyramid space it goes to, and the
        index of the skill option used in the canonical option list (-1: no skill).

    Examples
    --------
    >>> from .components import Setup
    >>> from .rules import GameState, deal
    >>> g = GameState.start(deal(2, Setup.default(), rng=1), Setup.default())
    >>> take, place, option = lookahead(g, g.deal.uniforms[0])
    >>> take in g.legal_takes(), place in range(6), option >= -1
    (True, True, True)
    """
    return search(state, u, "lookahead")


POLICIES: dict[str, Callable] = {"random_legal": random_legal, "greedy": greedy, "lookahead": lookahead}
#: Policy codes of the compiled simulator.
POLICY_CODES = {"random_legal": 0, "greedy": 1, "lookahead": 2}


def parse_policy(name: str) -> tuple[str, Restriction]:
    """``(base policy name, restriction)`` of ``"greedy"`` or ``"greedy/no_goals"`` (see :data:`RESTRICTIONS`).

    >>> parse_policy("lookahead/no_skill_A3/no_cards")
    ('lookahead', Restriction(skill_codes=frozenset({'A3'}), no_skills=False, no_goals=False, no_cards=True))
    """
    if not isinstance(name, str):
        raise ValueError(f"policies must name one of {sorted(POLICIES)}, got {name!r}")
    base, *restrictions = name.split("/")
    if base not in POLICIES:
        raise ValueError(f"policies must name one of {sorted(POLICIES)} (optionally '/<restriction>'), got {name!r}")
    return base, Restriction.parse(restrictions)


def get_policy(name) -> Callable:
    """The policy called ``name``, possibly restricted (``"greedy/no_cards"``); a callable passes through.
    (The search player ``"flat_mc"`` needs the setup's tables: :func:`.sim.policy_function` binds it.)"""
    if callable(name):
        return name
    base, restriction = parse_policy(name)
    if restriction == NO_RESTRICTION:
        return POLICIES[base]
    if base == "random_legal":
        return partial(random_legal, restriction=restriction)
    return partial(search, mode=base, restriction=restriction)
