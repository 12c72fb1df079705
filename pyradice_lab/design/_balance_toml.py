"""A balance proposal as a file a designer reads: only the values it changes (private; :mod:`.balance` uses it).

:func:`overlay` is the smallest document that, merged over the packaged components the way ``--components``
merges a designer's file (:meth:`ComponentFormat.load <pyradice_lab.engine.schema.ComponentFormat.load>`), gives
back the proposal exactly: every table, keyed entry (``[[tile]]`` by its number, ``[[card]]`` by its id) or value
that differs from the packaged one, with the ``source`` of every table it touches written out (the merge would
otherwise mark it ``"designer"``).  :func:`overlay_toml` writes it as commented TOML under a header.

Examples
--------
>>> from pyradice_lab.engine.registry import get_game
>>> fmt = get_game("purramid").part("format")
>>> comp = fmt.default().replace({"deal_2p.value": [27, 24]})
>>> overlay(comp)
{'deal_2p': {'value': [27, 24], 'source': 'designer'}}
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

__all__ = ["overlay", "overlay_toml", "changed_paths"]

_SAME = object()


class _NoOverlay(Exception):
    """A difference a partial file cannot say by merging (an entry removed, keyed entries reordered)."""


def _diff(base, new, node):
    """The overlay that turns ``base`` into ``new`` under schema ``node`` (``_SAME`` when equal)."""
    from ..engine.schema import MapOf, Records, Table, Value

    if base == new:
        return _SAME
    if isinstance(node, Table) and isinstance(new, Mapping) and isinstance(base, Mapping):
        if set(base) - set(new):
            raise _NoOverlay("a key removed")
        out = {}
        for k, v in new.items():
            f = node.fields.get(k)
            d = _diff(base.get(k, _SAME), v, f.node if f is not None else None)
            if d is not _SAME:
                out[k] = d
        # the merge marks a table the file gives without its source "designer": write the proposal's own
        if out and "source" in node.fields and "source" not in out and "source" in new:
            out["source"] = new["source"]
        for k in list(out):
            own = f"{k}_source"
            if own in node.fields and own not in out and own in new:
                out[own] = new[own]
        return out
    if isinstance(node, MapOf) and isinstance(new, Mapping) and isinstance(base, Mapping):
        if set(base) - set(new):
            raise _NoOverlay("a key removed")
        out = {}
        for k, v in new.items():
            d = _diff(base.get(k, _SAME), v, node.value)
            if d is not _SAME:
                out[k] = d
        return out
    if isinstance(node, Records) and node.merge == "key" and isinstance(new, list) and isinstance(base, list):
        keys_b = [e.get(node.key) for e in base]
        keys_n = [e.get(node.key) for e in new]
        if keys_n[:len(keys_b)] != keys_b:
            raise _NoOverlay("keyed entries removed or reordered")
        out = []
        for entry in new:
            k = entry.get(node.key)
            old = base[keys_b.index(k)] if k in keys_b else None
            if old is None:
                out.append(entry)
                continue
            d = _diff(old, entry, node.item)
            if d is not _SAME:
                out.append({node.key: k, **d})
        return out
    if isinstance(node, Value) and isinstance(new, Mapping):
        return dict(new)   # {value, source}: both written, as the proposal has them
    return new


def overlay(comp, base=None) -> dict:
    """The smallest designer document that loads (merged over the packaged components, as ``--components``
    loads a partial file) to exactly ``comp``; ``base``: the components it is compared with (default: the
    packaged ones; a proposal file must load alone, so the report and the CLI use the default).  A change a
    merge cannot express (an entry removed) gives the whole document."""
    fmt = type(comp).FORMAT
    old = base._document if base is not None else fmt.packaged_document()
    try:
        d = _diff(old, comp._document, fmt.spec)
    except _NoOverlay:
        return comp.document
    return {} if d is _SAME else d


def changed_paths(comp, base=None) -> list[str]:
    """The dotted paths of the values :func:`overlay` writes (keyed entries by their key), sources left out."""
    fmt = type(comp).FORMAT
    out: list[str] = []

    def walk(value, node, path):
        from ..engine.schema import MapOf, Records, Table, Value

        if isinstance(node, Table) and isinstance(value, Mapping):
            for k, v in value.items():
                if k == "source" or str(k).endswith("_source"):
                    continue
                f = node.fields.get(k)
                walk(v, f.node if f is not None else None, path + (str(k),))
        elif isinstance(node, MapOf) and isinstance(value, Mapping):
            for k, v in value.items():
                walk(v, node.value, path + (str(k),))
        elif isinstance(node, Records) and isinstance(value, list):
            for e in value:
                walk({k: v for k, v in e.items() if k != node.key}, node.item, path + (str(e.get(node.key)),))
        else:
            out.append(".".join(path + (("value",) if isinstance(node, Value) else ())))

    walk(overlay(comp, base), fmt.spec, ())
    return out


def value_changes(comp, base=None) -> list[str]:
    """The paths of :func:`changed_paths` whose values differ from ``base``'s (default: the packaged ones): a value
    set to itself changes only its source, and is left out."""
    start = base if base is not None else type(comp).FORMAT.coerce(None)
    return [p for p in changed_paths(comp, base) if comp.get(p) != start.get(p)]


def overlay_toml(comp, path, header_lines, base=None) -> Path:
    """Write :func:`overlay` of ``comp`` to ``path`` as commented TOML, ``header_lines`` first (each a ``#``
    comment); returns the path."""
    from ..engine.schema import to_toml

    fmt = type(comp).FORMAT
    p = Path(path)
    if not p.parent.is_dir():
        raise ValueError(f"path: the folder {str(p.parent)!r} does not exist")
    body = to_toml(fmt.spec, overlay(comp, base)).lstrip("\n")
    head = "".join(f"# {line}".rstrip() + "\n" for text in header_lines for line in str(text).splitlines())
    p.write_text(head + "\n" + body, encoding="utf-8")
    return p


def assignments_text(pairs) -> str:
    """``path = value`` assignments in words, the paths of one group that hold the same value named once with their
    numbers as ranges (a 12-card proposal reads as two groups, not 12 assignments); a path without a number in the
    middle, or the only one of its group, is written as it is.

    >>> assignments_text([("card.25.points", 5), ("card.26.points", 5), ("card.28.points", 3),
    ...                   ("card.27.points", 5), ("tile.12.values", [11, 5, 2])])
    'card 25-27 points = 5, card.28.points = 3, tile.12.values = [11, 5, 2]'
    """
    import json
    import re

    groups: dict[tuple, tuple[object, list]] = {}
    for path, value in pairs:
        m = re.fullmatch(r"(\w+)\.(\d+)\.(\w+)", path)
        key = (m.group(1), m.group(3), json.dumps(value, default=str)) if m else (path, None, None)
        groups.setdefault(key, (value, []))[1].append(int(m.group(2)) if m else path)
    out = []
    for (head, field, _), (value, ids) in groups.items():
        if field is None:
            out.append(f"{head} = {value!r}")
        elif len(ids) == 1:
            out.append(f"{head}.{ids[0]}.{field} = {value!r}")
        else:
            out.append(f"{head} {_ranges(sorted(set(ids)))} {field} = {value!r}")
    return ", ".join(out)


def _ranges(ids: list[int]) -> str:
    """``[1, 2, 3, 7]`` -> ``"1-3,7"``."""
    runs, start = [], ids[0]
    for a, b in zip(ids, ids[1:] + [None]):
        if b != a + 1:
            runs.append(str(start) if start == a else f"{start}-{a}")
            start = b
    return ",".join(runs)
