"""Named players of the toy race, weakest first: ``random`` (rolls or holds by a coin flip), ``hold_at:<k>``
(rolls until the turn total reaches k, or the target is in reach) and ``optimal`` (the value-iteration player of
:mod:`.odds`).  A player is a callable ``(state, components) -> "roll" | "hold"``."""

from __future__ import annotations

import zlib

from .odds import solve
from .rules import PLAYERS, legal_actions

__all__ = ["POLICIES", "resolve", "names_of", "parse"]

POLICIES = ("random", "hold_at:20", "optimal")
DEFAULT = "optimal"


def _random(state, comp) -> str:
    if len(legal_actions(state)) == 1:
        return "roll"
    # a coin flip fixed by the position (players take no rng: the game's dice stream stays the same)
    return "roll" if zlib.crc32(repr((state.scores, state.turn_total)).encode()) % 2 else "hold"


def _hold_at(k: int):
    def play(state, comp) -> str:
        done = state.turn_total >= k or state.mine + state.turn_total >= comp.target
        return "hold" if done and state.turn_total > 0 else "roll"
    play.name = f"hold_at:{k}"
    return play


def _optimal(state, comp) -> str:
    return solve(comp).best(state.mine, state.theirs, state.turn_total) if state.turn_total else "roll"


def parse(name):
    """A player from its name (or a callable, as given)."""
    if callable(name):
        return name
    if name == "random":
        return _random
    if name == "optimal":
        return _optimal
    if isinstance(name, str) and name.startswith("hold_at:"):
        k = name.partition(":")[2]
        if k.isdigit() and int(k) > 0:
            return _hold_at(int(k))
    raise ValueError(f"policies must be 'random', 'hold_at:<k>' (k >= 1) or 'optimal', got {name!r}")


def _seats(policies) -> list:
    if policies is None:
        policies = DEFAULT
    if isinstance(policies, str) or callable(policies):
        return [policies] * PLAYERS
    out = list(policies)
    if len(out) != PLAYERS:
        raise ValueError(f"policies must name one player per seat ({PLAYERS}), got {len(out)}")
    return out


def resolve(policies) -> list:
    """One player per seat from a name, a callable or a list of them (None: ``optimal`` everywhere)."""
    return [parse(p) for p in _seats(policies)]


def names_of(policies) -> list[str]:
    """The seats' player names (``"custom"`` for a callable without a ``name``)."""
    return [p if isinstance(p, str) else getattr(p, "name", "custom") for p in _seats(policies)]
