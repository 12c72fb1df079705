"""Objective card kinds: small documented functions scoring the dice of one colour in a pyramid.

An objective card (``cards.toml``) names a *kind* registered here and its parameters; its disc gives the
colour.  A kind is ``score(values, colours, colour, params) -> int`` over the 21 pyramid spaces (value 0 /
colour -1 marks an empty space, so a partly built pyramid scores what it already holds) plus
``validate(params, where)``.  "Touching" dice share an edge of the pyramid drawing: side by side on a level,
or one resting on the other (:data:`.geometry.PYRAMID.adjacency`).

Examples
--------
>>> from .geometry import PYRAMID
>>> vals = [5, 5, 2, 2, 1, 1] + [0] * 15
>>> cols = [0, 0, 1, 1, 0, 1] + [-1] * 15
>>> CARD_KINDS["isolated_groups"].score(vals, cols, 0, {"size": 2, "points": 4})   # spaces 0-1: one pair
4
>>> CARD_KINDS["values_in"].score(vals, cols, 0, {"values": (4, 5, 6), "points": 1})
2
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from .geometry import PYRAMID

__all__ = ["CardKind", "CARD_KINDS", "register_card_kind", "get_card_kind", "card_score", "groups"]


@dataclass(frozen=True)
class CardKind:
    name: str
    score: Callable
    validate: Callable = lambda params, where: None
    kid: int | None = None
    doc: str = ""


CARD_KINDS: dict[str, CardKind] = {}


def register_card_kind(name: str, score: Callable, validate: Callable | None = None, *,
                       kid: int | None = None) -> CardKind:
    """Register (or replace) an objective card kind ``score(values, colours, colour, params) -> int``.

    Parameters
    ----------
    name : str
        The kind's name, as a card's ``kind`` in ``cards.toml`` (non-empty; an existing name is replaced).
    score : callable ``(values, colours, colour, params) -> int``
        Points of the dice of colour index ``colour`` in a pyramid (21 values / colour indices, 0 / -1 for
        empty spaces); ``params`` is the card's table from ``cards.toml``.  Its docstring documents the kind.
    validate : callable ``(params, where) -> None``, optional
        Checks a card's parameters when components load; raises ``ValueError`` naming ``where``.
    kid : int, optional
        The compiled kernels' id of this kind; ``None``: only the readable engine scores it
        (``simulate_games(engine="auto")`` then uses the readable engine).

    Returns
    -------
    CardKind
        The registered kind (also in :data:`CARD_KINDS`).

    Raises
    ------
    ValueError
        If ``name`` is not a non-empty string.

    Examples
    --------
    >>> def sixes(values, colours, colour, params):
    ...     "``points`` per die of the card's colour showing 6."
    ...     return params["points"] * sum(v == 6 and c == colour for v, c in zip(values, colours))
    >>> kind = register_card_kind("sixes_example", sixes)
    >>> CARD_KINDS["sixes_example"].score([6, 6, 1] + [0] * 18, [0, 1, 0] + [-1] * 18, 0, {"points": 2})
    2
    >>> del CARD_KINDS["sixes_example"]   # keep the registry as packaged
    """
    if not isinstance(name, str) or not name:
        raise ValueError(f"name must be a non-empty string, got {name!r}")
    kind = CardKind(name, score, validate or (lambda p, w: None), kid, (score.__doc__ or "").strip())
    CARD_KINDS[name] = kind
    return kind


def get_card_kind(name) -> CardKind:
    if name not in CARD_KINDS:
        raise ValueError(f"card kind must be one of {sorted(CARD_KINDS)}, got {name!r}")
    return CARD_KINDS[name]


def _lookup(table, i: int) -> int:
    return int(table[min(i, len(table) - 1)])


def _matching(values, colours, colour) -> list[int]:
    return [s for s in range(PYRAMID.n) if values[s] and colours[s] == colour]


def groups(values, colours, colour) -> list[list[int]]:
    """Groups of touching dice of ``colour`` (connected components), each a sorted list of spaces."""
    todo = set(_matching(values, colours, colour))
    out = []
    while todo:
        start = min(todo)
        todo.discard(start)
        comp, stack = [start], [start]
        while stack:
            s = stack.pop()
            for t in PYRAMID.adjacency[s]:
                t = int(t)
                if t >= 0 and t in todo:
                    todo.discard(t)
                    comp.append(t)
                    stack.append(t)
        out.append(sorted(comp))
    return out


# ----------------------------------------------------------------------------------------- kinds
def _table(params: Mapping, where: str):
    t = params.get("table")
    if not t or not all(isinstance(x, int) and x >= 0 for x in t):
        raise ValueError(f"{where}: table must be a non-empty list of non-negative integers, got {t!r}")


def count_table(values, colours, colour, params) -> int:
    """Many: ``table[number of matching dice]``."""
    return _lookup(params["table"], len(_matching(values, colours, colour)))


def level_table(values, colours, colour, params) -> int:
    """Height: the sum over matching dice of ``table[level]``."""
    return sum(_lookup(params["table"], int(PYRAMID.level_of[s])) for s in _matching(values, colours, colour))


def isolated_groups(values, colours, colour, params) -> int:
    """Pairs (size 2) / Loners (size 1): ``points`` per group of touching matching dice of exactly ``size``."""
    return params["points"] * sum(len(g) == params["size"] for g in groups(values, colours, colour))


def _isolated_params(params: Mapping, where: str):
    if not isinstance(params.get("size"), int) or params["size"] < 1:
        raise ValueError(f"{where}: size must be a positive integer")
    if not isinstance(params.get("points"), int) or params["points"] < 0:
        raise ValueError(f"{where}: points must be a non-negative integer")


def values_in(values, colours, colour, params) -> int:
    """Big (4-6) / Small (1-3): ``points`` per matching die showing one of ``values``."""
    return params["points"] * sum(values[s] in params["values"] for s in _matching(values, colours, colour))


def _values_params(params: Mapping, where: str):
    vals = params.get("values")
    if not vals or not all(isinstance(v, int) and 1 <= v <= 6 for v in vals):
        raise ValueError(f"{where}: values must be a non-empty list of values 1..6")
    if not isinstance(params.get("points"), int) or params["points"] < 0:
        raise ValueError(f"{where}: points must be a non-negative integer")


def largest_group(values, colours, colour, params) -> int:
    """Cluster: ``table[size of the largest group of touching matching dice]``."""
    sizes = [len(g) for g in groups(values, colours, colour)]
    return _lookup(params["table"], max(sizes, default=0))


def distinct_values(values, colours, colour, params) -> int:
    """Variety: ``table[number of different values among matching dice]``."""
    return _lookup(params["table"], len({values[s] for s in _matching(values, colours, colour)}))


def levels_spanned(values, colours, colour, params) -> int:
    """Spread: ``table[number of levels holding at least one matching die]``."""
    return _lookup(params["table"], len({int(PYRAMID.level_of[s]) for s in _matching(values, colours, colour)}))


register_card_kind("count_table", count_table, _table, kid=0)
register_card_kind("level_table", level_table, _table, kid=1)
register_card_kind("isolated_groups", isolated_groups, _isolated_params, kid=2)
register_card_kind("values_in", values_in, _values_params, kid=3)
register_card_kind("largest_group", largest_group, _table, kid=4)
register_card_kind("distinct_values", distinct_values, _table, kid=5)
register_card_kind("levels_spanned", levels_spanned, _table, kid=6)


def card_score(card, colour: int, values, colours) -> int:
    """Points of objective ``card`` with disc colour index ``colour`` for one pyramid."""
    return int(get_card_kind(card.kind).score(values, colours, colour, card.params))
