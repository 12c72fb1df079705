"""Goal token kinds: small documented functions deciding whether a level's dice meet a goal.

A goal token (``goals.toml``) names a *kind* registered here and its parameters.  Each kind has

- ``check(values, colours, params) -> bool`` for a complete level (values and colour indices left to right);
- ``consistent(values, colours, params, n_colours) -> bool`` for a partly filled level (``0`` value / ``-1`` colour
  marks an empty space): False once the placed dice already break the goal (used by the lookahead policy);
- ``validate(params, where)`` raising ValueError on bad parameters.

Built-in kinds carry an integer ``kid`` understood by the compiled simulator (:mod:`.kernel`); a kind
registered by a designer with :func:`register_goal_kind` has none and runs in the readable engine only.

Examples
--------
>>> GOAL_KINDS["values_in"].check((3, 5, 5, 3), (0, 1, 2, 3), {"values": (3, 5)})
True
>>> GOAL_KINDS["ascending"].consistent((1, 0, 4, 3), (0, -1, 0, 0), {}, 5)
False
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

__all__ = ["GoalKind", "GOAL_KINDS", "register_goal_kind", "get_goal_kind", "goal_met", "goal_consistent"]


@dataclass(frozen=True)
class GoalKind:
    name: str
    check: Callable
    consistent: Callable
    validate: Callable = lambda params, where: None
    kid: int | None = None
    doc: str = ""
    uses: str = "both"       # what the check reads: "values", "colours" or "both" (for exact enumeration)


GOAL_KINDS: dict[str, GoalKind] = {}


def register_goal_kind(name: str, check: Callable, consistent: Callable | None = None,
                       validate: Callable | None = None, *, kid: int | None = None, uses: str = "both") -> GoalKind:
    """Register (or replace) a goal kind; without ``consistent`` a partial level is always judged achievable."""
    if not isinstance(name, str) or not name:
        raise ValueError(f"name must be a non-empty string, got {name!r}")
    if uses not in ("values", "colours", "both"):
        raise ValueError(f"uses must be 'values', 'colours' or 'both', got {uses!r}")
    kind = GoalKind(name, check, consistent or (lambda v, c, p, n: True), validate or (lambda p, w: None), kid,
                    (check.__doc__ or "").strip(), uses)
    GOAL_KINDS[name] = kind
    return kind


def get_goal_kind(name) -> GoalKind:
    if name not in GOAL_KINDS:
        raise ValueError(f"goal kind must be one of {sorted(GOAL_KINDS)}, got {name!r}")
    return GOAL_KINDS[name]


def _placed(values, colours):
    return [(v, c) for v, c in zip(values, colours) if v]


# ----------------------------------------------------------------------------------------- kinds
def _values_param(params: Mapping, where: str):
    vals = params.get("values")
    if not vals or not all(isinstance(v, int) and 1 <= v <= 6 for v in vals):
        raise ValueError(f"{where}: values must be a non-empty list of values 1..6, got {vals!r}")


def values_in(values, colours, params) -> bool:
    """Every die shows one of ``params["values"]`` (C6: 3 or 5)."""
    return all(v in params["values"] for v in values)


def _values_in_ok(values, colours, params, n_colours) -> bool:
    return all(v in params["values"] for v, _ in _placed(values, colours))


def all_different(values, colours, params) -> bool:
    """No two dice of the level show the same value."""
    return len(set(values)) == len(values)


def _all_different_ok(values, colours, params, n_colours) -> bool:
    vs = [v for v, _ in _placed(values, colours)]
    return len(set(vs)) == len(vs) and len(values) <= 6


def all_same(values, colours, params) -> bool:
    """Every die of the level shows the same value."""
    return len(set(values)) == 1


def _all_same_ok(values, colours, params, n_colours) -> bool:
    return len({v for v, _ in _placed(values, colours)}) <= 1


def ascending(values, colours, params) -> bool:
    """Values never go down from left to right."""
    return all(a <= b for a, b in zip(values, values[1:]))


def _ascending_ok(values, colours, params, n_colours) -> bool:
    vs = [v for v, _ in _placed(values, colours)]
    return all(a <= b for a, b in zip(vs, vs[1:]))


def mirror(values, colours, params) -> bool:
    """The level reads the same from both ends."""
    return tuple(values) == tuple(values)[::-1]


def _mirror_ok(values, colours, params, n_colours) -> bool:
    n = len(values)
    return all(not (values[i] and values[n - 1 - i]) or values[i] == values[n - 1 - i] for i in range(n // 2))


def all_colours_different(values, colours, params) -> bool:
    """No two dice of the level share a colour."""
    return len(set(colours)) == len(colours)


def _all_colours_different_ok(values, colours, params, n_colours) -> bool:
    cs = [c for _, c in _placed(values, colours)]
    return len(set(cs)) == len(cs) and len(values) <= n_colours


def all_colours_same(values, colours, params) -> bool:
    """Every die of the level has the same colour."""
    return len(set(colours)) == 1


def _all_colours_same_ok(values, colours, params, n_colours) -> bool:
    return len({c for _, c in _placed(values, colours)}) <= 1


def neighbours_differ(values, colours, params) -> bool:
    """No two side-by-side dice of the level show the same value."""
    return all(a != b for a, b in zip(values, values[1:]))


def _neighbours_differ_ok(values, colours, params, n_colours) -> bool:
    return all(not (a and b) or a != b for a, b in zip(values, values[1:]))


register_goal_kind("values_in", values_in, _values_in_ok, _values_param, kid=0, uses="values")
register_goal_kind("all_different", all_different, _all_different_ok, kid=1, uses="values")
register_goal_kind("all_same", all_same, _all_same_ok, kid=2, uses="values")
register_goal_kind("ascending", ascending, _ascending_ok, kid=3, uses="values")
register_goal_kind("mirror", mirror, _mirror_ok, kid=4, uses="values")
register_goal_kind("all_colours_different", all_colours_different, _all_colours_different_ok, kid=5, uses="colours")
register_goal_kind("all_colours_same", all_colours_same, _all_colours_same_ok, kid=6, uses="colours")
register_goal_kind("neighbours_differ", neighbours_differ, _neighbours_differ_ok, kid=7, uses="values")


def goal_met(token, values, colours) -> bool:
    """Whether a complete level (values and colour indices, left to right) meets goal ``token``."""
    return bool(get_goal_kind(token.kind).check(tuple(values), tuple(colours), token.params))


def goal_consistent(token, values, colours, n_colours: int) -> bool:
    """Whether a partly filled level can still meet goal ``token`` (empty spaces: value 0, colour -1)."""
    return bool(get_goal_kind(token.kind).consistent(tuple(values), tuple(colours), token.params, n_colours))
