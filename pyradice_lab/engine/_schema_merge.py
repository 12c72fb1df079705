"""Editing a component document: a designer's file merged over the packaged one (:func:`merge`, the
``replace`` table) and dotted-path access (:func:`set_path`, :func:`get_path`) (re-exported by
:mod:`pyradice_lab.engine.schema`).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from ._schema_nodes import (
    _MISSING,
    Array,
    MapOf,
    Node,
    Records,
    SchemaError,
    Table,
    Value,
    _show,
    _type_name,
    format_path,
    suggest,
)


def _fill_source(over: dict, spec: Node) -> dict:
    """A designer's table without ``source`` (or ``KEY_source``) gets ``"designer"`` for the keys it gives."""
    if isinstance(spec, Table) and isinstance(over, dict):
        over = dict(over)
        if "source" in spec.fields and "source" not in over and any(k != "source" for k in over):
            over["source"] = "designer"
        for k in list(over):
            if f"{k}_source" in spec.fields and f"{k}_source" not in over:
                over[f"{k}_source"] = "designer"
    return over


def merge(base, over, spec: Node, path: tuple = ()):
    """A designer's (partial) document merged over the packaged one.

    Tables merge key by key; a ``{value, source}`` entry given as a bare value becomes
    ``{value = ..., source = "designer"}``; keyed arrays of tables (``Records(merge="key")``) merge entry by
    entry (a new key adds an entry); every other array replaces the packaged one whole.  A table the designer
    gives without its ``source`` is marked ``source = "designer"``.
    """
    if isinstance(spec, Value):
        if not isinstance(over, Mapping):
            return {"value": over, "source": "designer"}
        out = dict(base) if isinstance(base, Mapping) else {}
        out.update(over)
        if "source" not in over:
            out["source"] = "designer"
        return out
    if isinstance(spec, Table) and isinstance(over, Mapping):
        over = _fill_source(dict(over), spec)
        out = dict(base) if isinstance(base, Mapping) else {}
        for k, v in over.items():
            f = spec.fields.get(k)
            out[k] = merge(out.get(k, _MISSING), v, f.node, path + (k,)) if f is not None else v
        return out
    if isinstance(spec, MapOf) and isinstance(over, Mapping) and isinstance(base, Mapping):
        out = dict(base)
        for k, v in over.items():
            out[str(k)] = merge(out.get(str(k), _MISSING), v, spec.value, path + (str(k),))
        return out
    if isinstance(spec, MapOf) and isinstance(over, Mapping):
        return {str(k): merge(_MISSING, v, spec.value, path + (str(k),)) for k, v in over.items()}
    if isinstance(spec, Records) and isinstance(over, list):
        if spec.merge == "key" and isinstance(base, list):
            out = list(base)
            keys = [e.get(spec.key) for e in over if isinstance(e, Mapping) and e.get(spec.key) is not None]
            twice = next((k for i, k in enumerate(keys) if k in keys[:i]), None)
            if twice is not None:
                raise SchemaError(f"{spec.key} {twice!r} appears twice in the file's entries (each merges into "
                                  f"the packaged entry with that {spec.key})", path + (str(twice),))
            for entry in over:
                i = spec.find(out, entry.get(spec.key)) if isinstance(entry, Mapping) else None
                if i is None:
                    out.append(merge(_MISSING, entry, spec.item, path))
                else:
                    out[i] = merge(out[i], entry, spec.item, path)
            return out
        return [merge(_MISSING, e, spec.item, path) if isinstance(e, Mapping) else e for e in over]
    return over


#: the top-level table of a designer file that asks for whole-list replacement: ``[replace]`` ``card = true``
REPLACE = "replace"


def _keyed_lists(spec: Table) -> dict[str, Records]:
    """The top-level keyed lists (``[[card]]``, ``[[tile]]``, ...) of a root table: name -> Records."""
    return {k: f.node for k, f in spec.fields.items() if isinstance(f.node, Records)}


def take_replace(raw: dict, spec: Table) -> set[str]:
    """Remove a designer file's ``[replace]`` table from ``raw`` and return the names of the keyed lists it
    replaces whole (``replace.card = true``); anything else in it is a :class:`SchemaError` naming it.

    Examples
    --------
    >>> from pyradice_lab.engine.schema import Field, Int, Records, Table
    >>> spec = Table({"card": Field(Records(Table({"id": Field(Int(1, 9), "id")}), key="id"), "cards")})
    >>> raw = {"replace": {"card": True}, "card": [{"id": 1}]}
    >>> take_replace(raw, spec), raw
    ({'card'}, {'card': [{'id': 1}]})
    """
    if REPLACE not in raw or REPLACE in spec.fields:
        return set()
    table = raw.pop(REPLACE)
    lists = _keyed_lists(spec)
    allowed = ", ".join(f"{k} = true" for k in lists) or "none: this game has no keyed lists"
    if not isinstance(table, Mapping):
        raise SchemaError(f"expected a table such as [replace] {next(iter(lists), 'card')} = true, got "
                          f"{_type_name(table)} {_show(table)}", (REPLACE,), allowed=allowed)
    out = set()
    for k, v in table.items():
        if k not in lists:
            raise SchemaError(f"unknown list{suggest(k, lists)}", (REPLACE, k), allowed=allowed)
        if not isinstance(v, bool):
            raise SchemaError(f"expected true or false, got {_type_name(v)} {_show(v)}", (REPLACE, k),
                              allowed="true (replace the packaged list whole) or false (merge by key)")
        if v:
            out.add(k)
    return out


def _merge_note(packaged: Mapping, given: Sequence, spec: Table, replaced: set[str], name: str) -> str:
    """One sentence saying how the designer's ``[[name]]`` entries (``given``) were combined with the packaged
    list."""
    node = _keyed_lists(spec)[name]
    given = [e for e in given if isinstance(e, Mapping)]
    if name in replaced:
        return f"[[{name}]]: replace.{name} = true, so your {len(given)} entries replace the packaged list whole"
    old = packaged.get(name, []) if isinstance(packaged.get(name), list) else []
    new = list(dict.fromkeys(e.get(node.key) for e in given if node.find(old, e.get(node.key)) is None))
    shown = ", ".join(str(k) for k in new[:5]) + (", ..." if len(new) > 5 else "")
    return (f"[[{name}]]: your {len(given)} entries merge into the packaged {len(old)} by {node.key!r} "
            f"({len(new)} new{': ' + shown if new else ''}), {len(old) + len(new)} in all; to replace the "
            f"packaged list whole add [replace] {name} = true")


# ------------------------------------------------------------------------------------------------ paths
def _split(path) -> tuple:
    if isinstance(path, tuple):
        if not path or not all(isinstance(p, (str, int)) for p in path):
            raise TypeError(f"a path must be a dotted string or a tuple of keys, got {path!r}")
        return tuple(str(p) for p in path)
    if not isinstance(path, str) or not path or any(not part for part in path.split(".")):
        raise ValueError(f"a path must be a dotted string such as 'tile.7.values', got {path!r}")
    return tuple(path.split("."))


def _unknown(seg, done: tuple, options, full: tuple) -> SchemaError:
    where = format_path(done) or "the top level"
    return SchemaError(f"no key {seg!r} in {where}{suggest(seg, options)}", full,
                       allowed=", ".join(map(str, options)) or None)


def set_path(doc: dict, spec: Table, path, value) -> tuple:
    """Set ``value`` at ``path`` in ``doc`` (in place), checked against ``spec``; ``None`` deletes an optional key.

    Returns the path of the table whose provenance the change affects (for ``source = "designer"``).
    """
    segs = _split(path)
    node: Node = spec
    cur: Any = doc
    done: tuple = ()
    owner: tuple = ()
    for i, seg in enumerate(segs):
        last = i == len(segs) - 1
        if isinstance(node, Table):
            names = node.names(cur if isinstance(cur, Mapping) else None)
            if seg not in names and not (node.extra is not None and last and seg in cur):
                raise _unknown(seg, done, names, segs)
            owner = done
            f = node.fields.get(seg)
            child = f.node if f is not None else None
            if last:
                if value is None:
                    if f is not None and f.required:
                        raise SchemaError("cannot be removed (it is required)", segs)
                    cur.pop(seg, None)
                else:
                    cur[seg] = merge(_MISSING, value, child) if child is not None else value
                return owner
            if seg not in cur:
                cur[seg] = [] if isinstance(child, (Records, Array)) else {}
            cur, node = cur[seg], child
        elif isinstance(node, MapOf):
            key = node.key_of(seg, done)
            if last:
                if value is None:
                    cur.pop(key, None)
                else:
                    cur[key] = merge(_MISSING, value, node.value)
                return owner
            if key not in cur:
                cur[key] = {}
            cur, node, seg = cur[key], node.value, key
        elif isinstance(node, Records):
            idx = node.find(cur, seg)
            if last:
                if value is None:
                    if idx is None:
                        raise _unknown(seg, done, [e.get(node.key) for e in cur], segs)
                    cur.pop(idx)
                elif idx is None:
                    cur.append(merge(_MISSING, value, node.item))
                else:
                    cur[idx] = merge(_MISSING, value, node.item)
                return done + (seg,)
            if idx is None:
                raise _unknown(seg, done, [e.get(node.key) for e in cur], segs)
            owner = done + (seg,)
            cur, node = cur[idx], node.item
        elif isinstance(node, Value):
            if seg not in ("value", "source"):
                raise _unknown(seg, done, ("value", "source"), segs)
            if last:
                cur[seg] = value
                return owner
            cur, node = cur[seg], node.node
        elif isinstance(node, Array):
            try:
                idx = int(seg)
            except ValueError:
                raise SchemaError(f"{seg!r} is not an index of the array {format_path(done)}", segs,
                                  allowed=f"0..{len(cur) - 1}") from None
            if not 0 <= idx < len(cur):
                raise SchemaError(f"index {idx} is outside the array {format_path(done)}", segs,
                                  allowed=f"0..{len(cur) - 1}")
            if last:
                cur[idx] = value
                return owner
            cur, node = cur[idx], node.item
        else:
            raise SchemaError(f"{format_path(done)} holds a value, not a table", segs)
        done = done + (seg,)
    return owner  # pragma: no cover - the loop always returns


def get_path(doc, spec: Table, path):
    """The value at a dotted path of a validated document (keyed arrays of tables by their key)."""
    segs = _split(path)
    node: Node | None = spec
    cur: Any = doc
    done: tuple = ()
    for seg in segs:
        if isinstance(node, Records):
            idx = node.find(cur, seg)
            if idx is None:
                raise _unknown(seg, done, [e.get(node.key) for e in cur], segs)
            cur, node = cur[idx], node.item
        elif isinstance(cur, Mapping):
            if seg not in cur:
                raise _unknown(seg, done, list(cur), segs)
            if isinstance(node, Table):
                f = node.fields.get(seg)
                node = f.node if f is not None else None
            elif isinstance(node, MapOf):
                node = node.value
            elif isinstance(node, Value):
                node = node.node if seg == "value" else None
            cur = cur[seg]
        elif isinstance(cur, list):
            try:
                cur = cur[int(seg)]
            except (ValueError, IndexError):
                raise SchemaError(f"{seg!r} is not an index of the array {format_path(done)}", segs,
                                  allowed=f"0..{len(cur) - 1}") from None
            node = node.item if isinstance(node, Array) else None
        else:
            raise SchemaError(f"{format_path(done)} holds a value, not a table", segs)
        done = done + (seg,)
    return copy.deepcopy(cur)


def _designer_mark(doc: dict, spec: Table, owner: tuple, segs: tuple):
    """``(table, key, path)`` of the source that a change at ``segs`` makes ``"designer"`` (the ``source`` of the
    table holding the value, its ``KEY_source``, or a ``{value, source}`` entry's own), or None."""
    node: Node | None = spec
    cur: Any = doc
    for seg in owner:
        if isinstance(node, Table):
            f = node.fields.get(seg)
            cur, node = cur[seg], (f.node if f is not None else None)
        elif isinstance(node, MapOf):
            cur, node = cur[seg], node.value
        elif isinstance(node, Records):
            idx = node.find(cur, seg)
            if idx is None:          # the entry was removed
                return None
            cur, node = cur[idx], node.item
        else:
            return None
        if node is None:
            return None
    rest = segs[len(owner):]
    if not isinstance(node, Table) or not rest or not isinstance(cur, dict):
        return None
    f = node.fields.get(rest[0])
    if f is not None and isinstance(f.node, Value):
        entry = cur.get(rest[0])
        return (entry, "source", owner + (rest[0], "source")) if isinstance(entry, dict) else None
    if f"{rest[0]}_source" in node.fields:
        return cur, f"{rest[0]}_source", owner + (f"{rest[0]}_source",)
    if "source" in node.fields and rest[0] != "source":
        return cur, "source", owner + ("source",)
    return None
