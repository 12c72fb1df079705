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

import itertools
import numbers
from collections.abc import Callable, Mapping
from dataclasses import dataclass

__all__ = ["GoalKind", "GOAL_KINDS", "register_goal_kind", "get_goal_kind", "goal_met", "goal_consistent",
           "goal_witness", "goal_attainable", "WITNESS_LIMIT"]


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
    """Register (or replace) a goal kind; without ``consistent`` a partial level is always judged achievable.

    Parameters
    ----------
    name : str
        The kind's name, as a goal token's ``kind`` in ``goals.toml`` (non-empty; an existing name is replaced).
    check : callable ``(values, colours, params) -> bool``
        Whether a full level (its dice's values and colour indices) meets the goal; ``params`` is the token's
        table from ``goals.toml``.  Its docstring documents the kind.
    consistent : callable ``(values, colours, params, n_colours) -> bool``, optional
        Whether a partly filled level (0 / -1 for empty spaces) can still meet the goal (used by the
        ``lookahead`` policy); default: always True.
    validate : callable ``(params, where) -> None``, optional
        Checks a token's parameters when components load; raises ``ValueError`` naming ``where``.
    kid : int, optional
        The compiled kernels' id of this kind; ``None``: only the readable engine knows it.
    uses : {"both", "values", "colours"}
        What ``check`` reads (exact odds enumerate only that).

    Returns
    -------
    GoalKind
        The registered kind (also in :data:`GOAL_KINDS`).

    Raises
    ------
    ValueError
        If ``name`` is not a non-empty string or ``uses`` is not one of the three values.

    Examples
    --------
    >>> def no_ones(values, colours, params):
    ...     "No die of the level shows 1."
    ...     return 1 not in values
    >>> kind = register_goal_kind("no_ones_example", no_ones, uses="values")
    >>> GOAL_KINDS["no_ones_example"].check((2, 3, 6), (0, 1, 2), {}), kind.uses
    (True, 'values')
    >>> del GOAL_KINDS["no_ones_example"]   # keep the registry as packaged
    """
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


def colour_neighbours_differ(values, colours, params) -> bool:
    """No two side-by-side dice of the level share a colour."""
    return all(a != b for a, b in zip(colours, colours[1:]))


def _colour_neighbours_differ_ok(values, colours, params, n_colours) -> bool:
    return all(not (a and b) or c != d for a, b, c, d in zip(values, values[1:], colours, colours[1:]))


register_goal_kind("values_in", values_in, _values_in_ok, _values_param, kid=0, uses="values")
register_goal_kind("all_different", all_different, _all_different_ok, kid=1, uses="values")
register_goal_kind("all_same", all_same, _all_same_ok, kid=2, uses="values")
register_goal_kind("ascending", ascending, _ascending_ok, kid=3, uses="values")
register_goal_kind("mirror", mirror, _mirror_ok, kid=4, uses="values")
register_goal_kind("all_colours_different", all_colours_different, _all_colours_different_ok, kid=5, uses="colours")
register_goal_kind("all_colours_same", all_colours_same, _all_colours_same_ok, kid=6, uses="colours")
register_goal_kind("neighbours_differ", neighbours_differ, _neighbours_differ_ok, kid=7, uses="values")
register_goal_kind("colour_neighbours_differ", colour_neighbours_differ, _colour_neighbours_differ_ok, kid=8,
                   uses="colours")


def goal_met(token, values, colours) -> bool:
    """Whether a complete level (values and colour indices, left to right) meets goal ``token``."""
    return bool(get_goal_kind(token.kind).check(tuple(values), tuple(colours), token.params))


def goal_consistent(token, values, colours, n_colours: int) -> bool:
    """Whether a partly filled level can still meet goal ``token`` (empty spaces: value 0, colour -1)."""
    return bool(get_goal_kind(token.kind).consistent(tuple(values), tuple(colours), token.params, n_colours))


#: Most (value, colour) combinations :func:`goal_witness` enumerates for a kind reading both values and colours.
WITNESS_LIMIT = 2_000_000


def _colour_sequences(n: int, caps: tuple[int, ...]):
    """Every sequence of n colour indices using colour c at most caps[c] times, in lexicographic order."""
    for seq in itertools.product(range(len(caps)), repeat=n):
        if all(seq.count(c) <= cap for c, cap in enumerate(caps) if c in seq):
            yield seq


def goal_witness(token, n_dice: int, colour_caps) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """A level of ``n_dice`` dice meeting goal ``token``, or None when no such level exists.

    A level may show any values (quarry values are random and skills turn dice) but at most ``colour_caps[c]``
    dice of colour ``c`` (the box holds no more).  The search enumerates every value sequence (and every
    colour sequence within the caps) in lexicographic order, so None is exact; for a kind reading both values
    and colours (``uses="both"``) more than :data:`WITNESS_LIMIT` combinations raise ValueError.

    Returns ``(values, colours)``: the first meeting level found.

    Examples
    --------
    >>> from .components import default_components
    >>> goals = default_components().goals
    >>> goal_witness(goals["C6"], 6, (12,) * 5)
    ((3, 3, 3, 3, 3, 3), (0, 0, 0, 0, 0, 0))
    >>> from .components import GoalToken
    >>> rainbow = GoalToken("D6", "all_colours_different", "Rainbow", "", "reconstruction", 0.7)
    >>> goal_witness(rainbow, 6, (12,) * 5) is None        # 6 dice, 5 colours: never met
    True
    """
    if isinstance(n_dice, bool) or not isinstance(n_dice, numbers.Integral) or not 1 <= n_dice <= 6:
        raise ValueError(f"n_dice must be an integer in 1..6, got {n_dice!r}")
    caps = tuple(colour_caps)
    if not caps or not all(isinstance(c, numbers.Integral) and not isinstance(c, bool) and c >= 0 for c in caps):
        raise ValueError(f"colour_caps must be a non-empty sequence of non-negative integers, got {colour_caps!r}")
    n = int(n_dice)
    kind = get_goal_kind(token.kind)
    if sum(min(c, n) for c in caps) < n:
        return None
    value_seqs = lambda: itertools.product(range(1, 7), repeat=n)  # noqa: E731
    if kind.uses == "values":
        cols = next(_colour_sequences(n, caps))
        return next(((v, cols) for v in value_seqs() if goal_met(token, v, cols)), None)
    if kind.uses == "colours":
        return next((((1,) * n, c) for c in _colour_sequences(n, caps) if goal_met(token, (1,) * n, c)), None)
    if 6 ** n * len(caps) ** n > WITNESS_LIMIT:
        raise ValueError(f"n_dice={n} with {len(caps)} colours is too many combinations to enumerate for goal "
                         f"{token.code} (kind {token.kind!r} reads values and colours); at most {WITNESS_LIMIT}")
    return next(((v, c) for c in _colour_sequences(n, caps) for v in value_seqs() if goal_met(token, v, c)), None)


def goal_attainable(token, n_dice: int, colour_caps) -> bool | None:
    """Whether some level of ``n_dice`` dice can meet goal ``token`` (:func:`goal_witness`); None when the
    enumeration would be too large to decide."""
    try:
        return goal_witness(token, n_dice, colour_caps) is not None
    except ValueError as err:
        if "too many combinations" in str(err):
            return None
        raise
