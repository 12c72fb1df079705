"""Skill token kinds: small documented functions listing what a skill can do to a pyramid.

A skill token (``skills.toml``) names a *kind* registered here.  A kind is
``options(values, colours, placed, params) -> list[Action]``: every distinct way to use the skill on the
pyramid ``values`` / ``colours`` (21 spaces, value 0 / colour -1 when empty) without touching the die just
placed on space ``placed``, in a fixed canonical order, leaving out uses that change nothing.  An
:data:`Action` is a tuple of ``(space, new_value, new_colour)`` assignments, so every effect (turning,
swapping) is applied the same way by :func:`apply_action`.

Examples
--------
>>> vals = [2, 3, 5, 5, 3, 5] + [0] * 15
>>> cols = [0] * 6 + [-1] * 15
>>> SKILL_KINDS["flip"].options(vals, cols, 5, {})[:2]
[((0, 5, 0),), ((1, 4, 0),)]
>>> apply_action(vals, cols, ((0, 5, 0),))[0][:6]
(5, 3, 5, 5, 3, 5)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .geometry import PYRAMID

__all__ = ["SkillKind", "SKILL_KINDS", "register_skill_kind", "get_skill_kind", "apply_action", "Action",
           "skill_options"]

Action = tuple  # tuple[tuple[int, int, int], ...]


@dataclass(frozen=True)
class SkillKind:
    name: str
    options: Callable
    kid: int | None = None
    doc: str = ""


SKILL_KINDS: dict[str, SkillKind] = {}


def register_skill_kind(name: str, options: Callable, *, kid: int | None = None) -> SkillKind:
    """Register (or replace) a skill kind ``options(values, colours, placed, params) -> list[Action]``.

    Parameters
    ----------
    name : str
        The kind's name, as a skill token's ``kind`` in ``skills.toml`` (non-empty; an existing name is
        replaced).
    options : callable ``(values, colours, placed, params) -> list[Action]``
        Every distinct use of the skill on the pyramid (21 values / colour indices, 0 / -1 for empty spaces)
        without touching the die just placed on space ``placed``, in a fixed order, leaving out uses that
        change nothing; an Action is a tuple of ``(space, new_value, new_colour)``.  Its docstring documents
        the kind.
    kid : int, optional
        The compiled kernels' id of this kind; ``None``: only the readable engine knows it.

    Returns
    -------
    SkillKind
        The registered kind (also in :data:`SKILL_KINDS`).

    Raises
    ------
    ValueError
        If ``name`` is not a non-empty string.

    Examples
    --------
    >>> def bump(values, colours, placed, params):
    ...     "Add 1 to any other die showing less than 6."
    ...     return [((s, values[s] + 1, colours[s]),) for s in range(21)
    ...             if values[s] and s != placed and values[s] < 6]
    >>> kind = register_skill_kind("bump_example", bump)
    >>> SKILL_KINDS["bump_example"].options([2, 6, 3] + [0] * 18, [0, 1, 2] + [-1] * 18, 2, {})
    [((0, 3, 0),)]
    >>> del SKILL_KINDS["bump_example"]   # keep the registry as packaged
    """
    if not isinstance(name, str) or not name:
        raise ValueError(f"name must be a non-empty string, got {name!r}")
    kind = SkillKind(name, options, kid, (options.__doc__ or "").strip())
    SKILL_KINDS[name] = kind
    return kind


def get_skill_kind(name) -> SkillKind:
    if name not in SKILL_KINDS:
        raise ValueError(f"skill kind must be one of {sorted(SKILL_KINDS)}, got {name!r}")
    return SKILL_KINDS[name]


def apply_action(values, colours, action: Action) -> tuple[tuple, tuple]:
    """The pyramid after ``action`` (new tuples; the inputs are not changed)."""
    v, c = list(values), list(colours)
    for s, nv, nc in action:
        v[s], c[s] = nv, nc
    return tuple(v), tuple(c)


def _targets(values, placed):
    return [s for s in range(PYRAMID.n) if values[s] and s != placed]


def _pairs(values, colours, placed, adjacent_only: bool):
    t = _targets(values, placed)
    for i, a in enumerate(t):
        for b in t[i + 1:]:
            if not adjacent_only or PYRAMID.adjacent[a, b]:
                yield a, b


# ----------------------------------------------------------------------------------------- kinds
def tip(values, colours, placed, params):
    """Tip one die a quarter turn: any face except its current value v and 7 - v."""
    return [((s, nv, colours[s]),) for s in _targets(values, placed) for nv in range(1, 7)
            if nv not in (values[s], 7 - values[s])]


def nudge(values, colours, placed, params):
    """Change one die's value by -1 or +1 (staying in 1..6)."""
    return [((s, values[s] + d, colours[s]),) for s in _targets(values, placed) for d in (-1, 1)
            if 1 <= values[s] + d <= 6]


def flip(values, colours, placed, params):
    """Rotate one die 180 degrees: v becomes 7 - v (rules: skill A3)."""
    return [((s, 7 - values[s], colours[s]),) for s in _targets(values, placed)]


def swap_adjacent(values, colours, placed, params):
    """Exchange two touching dice (value and colour move together); swaps of identical dice are left out."""
    return [((a, values[b], colours[b]), (b, values[a], colours[a]))
            for a, b in _pairs(values, colours, placed, True)
            if (values[a], colours[a]) != (values[b], colours[b])]


def set_value(values, colours, placed, params):
    """Turn one die to any other face."""
    return [((s, nv, colours[s]),) for s in _targets(values, placed) for nv in range(1, 7) if nv != values[s]]


def copy_neighbour(values, colours, placed, params):
    """Turn one die to the value shown by a die touching it (the die just placed may be the model)."""
    out = []
    for s in _targets(values, placed):
        seen = {int(values[t]) for t in PYRAMID.adjacency[s] if t >= 0 and values[t]}
        out += [((s, nv, colours[s]),) for nv in range(1, 7) if nv in seen and nv != values[s]]
    return out


def flip_level(values, colours, placed, params):
    """Rotate every die of one level 180 degrees (the die just placed excepted)."""
    out = []
    for k in range(1, 7):
        act = tuple((s, 7 - values[s], colours[s]) for s in PYRAMID.spaces_of(k) if values[s] and s != placed)
        if act:
            out.append(act)
    return out


def raise_level(values, colours, placed, params):
    """Add 1 to every die of one level (a 6 stays 6; the die just placed excepted)."""
    out = []
    for k in range(1, 7):
        act = tuple((s, values[s] + 1, colours[s]) for s in PYRAMID.spaces_of(k)
                    if values[s] and s != placed and values[s] < 6)
        if act:
            out.append(act)
    return out


def swap_any(values, colours, placed, params):
    """Exchange any two dice (value and colour move together); swaps of identical dice are left out."""
    return [((a, values[b], colours[b]), (b, values[a], colours[a]))
            for a, b in _pairs(values, colours, placed, False)
            if (values[a], colours[a]) != (values[b], colours[b])]


def flip_two(values, colours, placed, params):
    """Rotate two different dice 180 degrees each."""
    return [((a, 7 - values[a], colours[a]), (b, 7 - values[b], colours[b]))
            for a, b in _pairs(values, colours, placed, False)]


for _i, (_name, _fn) in enumerate([("tip", tip), ("nudge", nudge), ("flip", flip), ("swap_adjacent", swap_adjacent),
                                   ("set", set_value), ("copy_neighbour", copy_neighbour), ("flip_level", flip_level),
                                   ("raise_level", raise_level), ("swap_any", swap_any), ("flip_two", flip_two)]):
    register_skill_kind(_name, _fn, kid=_i)


def skill_options(token, values, colours, placed: int) -> list[Action]:
    """Every use of skill ``token`` after placing on space ``placed`` (never targeting that die)."""
    return list(get_skill_kind(token.kind).options(tuple(values), tuple(colours), placed, token.params))
