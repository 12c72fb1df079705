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

from .rules import GameState, legal_places
from .scoring import evaluate
from .skills import apply_action

__all__ = ["random_legal", "greedy", "lookahead", "POLICIES", "POLICY_CODES", "get_policy", "search"]


def random_legal(state: GameState, u) -> tuple[int, int, int]:
    """Uniformly random legal choices (die, then space, then skill option or none)."""
    takes = state.legal_takes()
    take = takes[int(u[0] * len(takes))]
    places = legal_places(state.pyramids[state.seat][0])
    place = places[int(u[1] * len(places))]
    v, c = state.after_place(state.seat, take, place)
    n_opts = len(state.skill_options(v, c, place))
    return take, place, int(u[2] * (n_opts + 1)) - 1


def search(state: GameState, u, mode: str) -> tuple[int, int, int]:
    """The shared search of ``greedy`` and ``lookahead``: best (die, space, skill) by :func:`evaluate`."""
    seat = state.seat
    table = state.table
    takes = state.legal_takes()
    places = legal_places(state.pyramids[seat][0])
    cache: dict[tuple[int, int, int], tuple[int, int]] = {}   # (value, colour, place) -> (value, option)

    def best_after(take: int, place: int) -> tuple[int, int]:
        key = (int(state.quarry.values[take]), int(state.quarry.colours[take]), place)
        if key not in cache:
            v, c = state.after_place(seat, take, place)
            best, arg = evaluate(v, c, table, mode), -1
            for i, act in enumerate(state.skill_options(v, c, place)):
                val = evaluate(*apply_action(v, c, act), table, mode)
                if val > best:
                    best, arg = val, i
            cache[key] = (best, arg)
        return cache[key]

    scored = [(best_after(t, p), t, p) for t in takes for p in places]
    top = max(s[0][0] for s in scored)
    ties = [(t, p, s[1]) for s, t, p in scored if s[0] == top]
    return ties[int(u[0] * len(ties))]


def greedy(state: GameState, u) -> tuple[int, int, int]:
    """Best immediate score (skills included), random tie-break."""
    return search(state, u, "greedy")


def lookahead(state: GameState, u) -> tuple[int, int, int]:
    """Best score plus the value of goals still achievable on unfinished levels, random tie-break."""
    return search(state, u, "lookahead")


POLICIES: dict[str, Callable] = {"random_legal": random_legal, "greedy": greedy, "lookahead": lookahead}
#: Policy codes of the compiled simulator.
POLICY_CODES = {"random_legal": 0, "greedy": 1, "lookahead": 2}


def get_policy(name) -> Callable:
    """The policy called ``name`` (a callable passes through)."""
    if callable(name):
        return name
    if name not in POLICIES:
        raise ValueError(f"policies must name one of {sorted(POLICIES)}, got {name!r}")
    return POLICIES[name]
