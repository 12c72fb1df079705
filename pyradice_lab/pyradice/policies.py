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
``"<policy>/<restriction>"``, e.g. ``"lookahead/no_goals"`` (:data:`RESTRICTIONS`): a forbidden skill is never
used (no options offered), an ignored goal or card scoring term is left out of the policy's valuation.

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

#: Restrictions of restricted play: name -> one-line description.
RESTRICTIONS = {
    "no_skills": "never uses a skill token",
    **{f"no_skill_L{k}": f"never uses the level-{k} skill token" for k in SKILL_LEVELS},
    "no_goals": "ignores the goal tokens when choosing (values pyramids by card points only)",
    "no_cards": "ignores the objective cards when choosing (values goal tokens only)",
}


@dataclass(frozen=True)
class Restriction:
    """What a restricted player may not do: skill levels it never uses; goal / card terms it ignores."""

    skill_levels: frozenset = frozenset()
    no_goals: bool = False
    no_cards: bool = False

    @classmethod
    def parse(cls, names) -> Restriction:
        levels, goals, cards = set(), False, False
        for r in names:
            r = r.strip()
            if r not in RESTRICTIONS:
                raise ValueError(f"policies: restriction must be one of {sorted(RESTRICTIONS)}, got {r!r}")
            if r == "no_skills":
                levels |= set(SKILL_LEVELS)
            elif r.startswith("no_skill_L"):
                levels.add(int(r[len("no_skill_L"):]))
            goals |= r == "no_goals"
            cards |= r == "no_cards"
        return cls(frozenset(levels), goals, cards)

    def skill_allowed(self, place: int) -> bool:
        return int(PYRAMID.level_of[place]) not in self.skill_levels

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
    n_opts = len(state.skill_options(v, c, place)) if restriction.skill_allowed(place) else 0
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
            options = state.skill_options(v, c, place) if restriction.skill_allowed(place) else []
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

    >>> parse_policy("lookahead/no_skill_L3/no_cards")
    ('lookahead', Restriction(skill_levels=frozenset({3}), no_goals=False, no_cards=True))
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
