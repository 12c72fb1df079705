"""Declarative schemas for component files: one validation path per game, clear errors, dump, replace, hash.

Every game describes its components (the TOML under ``<game>/data``) with a tree of the nodes below and a
:class:`ComponentFormat` (the root table, the packaged files, cross-field checks and a builder that turns a
validated document into the game's runtime objects).  Everything goes through that one path:

- :meth:`ComponentFormat.load` reads a designer's file, merges it over the packaged defaults (a designer file
  may be partial, see :func:`merge`), validates it completely and builds the components;
- ``comp.replace({"tile.7.values": (8, 4)})`` edits the validated document and runs the same path;
- :func:`to_toml` writes a document back as commented TOML (every value with its meaning and source), and
  loading that file gives back equal components (the round trip is tested for every game);
- :meth:`SchemaComponents.content_hash` is a stable hash of the validated document (sweep caches and paired
  comparisons key on it).

Every error is a :class:`SchemaError` (a ``ValueError``) of the form
``FILE: key.path: what is wrong (allowed: ...)``; an unknown key names the closest valid one.

Why not pydantic: TOML has six value types, so eight small node types cover every component file; the errors
need the file, a key path that uses natural keys (``tile.7`` is the tile numbered 7, not the 8th entry) and a
closest-name suggestion, which pydantic gives only after post-processing its error list and walking its models
back by location; the same declarations also drive the commented dump and path-based ``replace``; and
importing pydantic cost 0.2-0.3 s (measured on the loaded 2-core machine, 2-3x this whole module) in every CLI
call that loads components.

Examples
--------
>>> spec = Table({"count": Field(Int(1, 10), "how many"), "source": Field(Source(), "where it comes from")})
>>> validate(spec, {"count": 3, "source": "rules"})
{'count': 3, 'source': 'rules'}
>>> validate(spec, {"cuont": 3, "source": "rules"}, file="x.toml")
Traceback (most recent call last):
...
pyradice_lab.engine.schema.SchemaError: x.toml: cuont: unknown key (did you mean 'count'?) (allowed: count, source)
"""

from __future__ import annotations

import copy
import difflib
import hashlib
import json
import math
import numbers
import os
import re
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .limits import MAX_INPUT_FILE_BYTES, read_input_file

__all__ = ["SchemaError", "SOURCES", "Node", "Int", "Float", "Str", "Bool", "Source", "Array", "Field", "Table",
           "MapOf", "Records", "Value", "Const", "validate", "merge", "take_replace", "read_toml", "to_toml",
           "format_path", "plain",
           "ComponentFormat", "SchemaComponents", "MAX_FILE_BYTES", "suggest"]

#: where a value comes from: the rules text, our documented reconstruction, or a designer's own file / replace()
SOURCES = ("rules", "reconstruction", "designer")
#: component files larger than this are refused before they are read (the default of
#: :func:`pyradice_lab.engine.limits.max_input_file_bytes`; ``PYRADICE_LAB_MAX_INPUT_FILE_BYTES`` overrides it)
MAX_FILE_BYTES = MAX_INPUT_FILE_BYTES
_MISSING = object()
_BARE = re.compile(r"^[A-Za-z0-9_-]+$")


# ------------------------------------------------------------------------------------------------ errors
def format_path(path: Sequence) -> str:
    """``("card", 3, "points")`` -> ``card[3].points``; string keys joined by dots."""
    out = ""
    for p in path:
        if isinstance(p, int):
            out += f"[{p}]"
        else:
            out += ("." if out else "") + str(p)
    return out


class SchemaError(ValueError):
    """A component value that breaks its schema: ``FILE: key.path: what is wrong (allowed: ...)``."""

    def __init__(self, what: str, path: Sequence = (), *, allowed: str | None = None, file=None):
        self.what, self.path, self.allowed, self.file = what, tuple(path), allowed, file
        super().__init__(self._text())

    def _text(self) -> str:
        parts = [str(self.file)] if self.file else []
        if self.path:
            parts.append(format_path(self.path))
        parts.append(self.what + (f" (allowed: {self.allowed})" if self.allowed else ""))
        return ": ".join(parts)

    def located(self, file=None, prefix: Sequence = ()) -> SchemaError:
        """The same error with a file name and/or a path prefix added."""
        return SchemaError(self.what, tuple(prefix) + self.path, allowed=self.allowed,
                           file=self.file if file is None else file)


def suggest(word, options) -> str:
    """`` (did you mean 'x'?)`` for the closest option, or ``""``."""
    close = difflib.get_close_matches(str(word), [str(o) for o in options], n=1, cutoff=0.7)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _type_name(v) -> str:
    if isinstance(v, bool):
        return "a boolean"
    if isinstance(v, numbers.Integral):
        return "an integer"
    if isinstance(v, numbers.Real):
        return "a number"
    if isinstance(v, str):
        return "a string"
    if isinstance(v, Mapping):
        return "a table"
    if isinstance(v, (list, tuple)):
        return "an array"
    return type(v).__name__


def _show(v) -> str:
    text = repr(v)
    return text if len(text) <= 60 else text[:57] + "..."


# ------------------------------------------------------------------------------------------------ nodes
class Node:
    """A schema node: ``check(value, path)`` returns the normalised value or raises :class:`SchemaError`."""

    doc = ""

    def check(self, value, path: tuple):  # pragma: no cover - abstract
        raise NotImplementedError

    def allowed(self) -> str:
        return ""

    def fail(self, what: str, path: tuple):
        raise SchemaError(what, path, allowed=self.allowed() or None)


@dataclass
class Int(Node):
    lo: int
    hi: int

    def allowed(self) -> str:
        return f"an integer in {self.lo}..{self.hi}"

    def check(self, value, path):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            self.fail(f"expected an integer, got {_type_name(value)} {_show(value)}", path)
        if not self.lo <= value <= self.hi:
            self.fail(f"{value} is out of range", path)
        return int(value)


@dataclass
class Float(Node):
    lo: float
    hi: float
    lo_open: bool = False

    def allowed(self) -> str:
        return f"a number in {'(' if self.lo_open else '['}{self.lo:g}, {self.hi:g}]"

    def check(self, value, path):
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            self.fail(f"expected a number, got {_type_name(value)} {_show(value)}", path)
        v = float(value)
        if not math.isfinite(v) or v < self.lo or v > self.hi or (self.lo_open and v == self.lo):
            self.fail(f"{value!r} is out of range", path)
        return v


@dataclass
class Str(Node):
    choices: Sequence[str] | None = None
    max_len: int = 200
    pattern: str | None = None
    pattern_doc: str = ""

    def allowed(self) -> str:
        if self.choices is not None:
            return ", ".join(map(str, self.choices))
        return self.pattern_doc or f"a string of at most {self.max_len} characters"

    def check(self, value, path):
        if not isinstance(value, str):
            self.fail(f"expected a string, got {_type_name(value)} {_show(value)}", path)
        if self.choices is not None and value not in self.choices:
            self.fail(f"{value!r} is not allowed{suggest(value, self.choices)}", path)
        if len(value) > self.max_len or (self.pattern and not re.fullmatch(self.pattern, value)):
            self.fail(f"{_show(value)} is not allowed", path)
        return value


class Bool(Node):
    def allowed(self) -> str:
        return "true or false"

    def check(self, value, path):
        if not isinstance(value, bool):
            self.fail(f"expected true or false, got {_type_name(value)} {_show(value)}", path)
        return value


@dataclass
class Const(Node):
    """A value the engines fix (documented in the file, not changeable): ``why`` says so in the error."""

    value: Any
    why: str = ""

    def allowed(self) -> str:
        return f"{_scalar(self.value)} only" + (f": {self.why}" if self.why else "")

    def check(self, value, path):
        norm = plain(value)
        if isinstance(self.value, float) and isinstance(norm, numbers.Real) and not isinstance(norm, bool):
            norm = float(norm)
        if norm != self.value or type(norm) is not type(self.value):
            self.fail(f"{_show(value)} cannot be changed", path)
        return copy.deepcopy(self.value)


class Source(Str):
    """``rules``, ``reconstruction`` or ``designer``."""

    def __init__(self):
        super().__init__(SOURCES)


@dataclass
class Array(Node):
    item: Node
    min_len: int = 0
    max_len: int = 1000
    unique: bool = False

    def allowed(self) -> str:
        n = f"{self.min_len}" if self.min_len == self.max_len else f"{self.min_len}..{self.max_len}"
        inner = self.item.allowed()
        return f"an array of {n} items" + (f", each {inner}" if inner else "") + (", all different" if self.unique
                                                                                   else "")

    def check(self, value, path):
        if not isinstance(value, (list, tuple)):
            self.fail(f"expected an array, got {_type_name(value)} {_show(value)}", path)
        if not self.min_len <= len(value) <= self.max_len:
            self.fail(f"has {len(value)} items", path)
        out = [self.item.check(v, path + (i,)) for i, v in enumerate(value)]
        if self.unique:
            seen = []
            for i, v in enumerate(out):
                if v in seen:
                    raise SchemaError(f"{_show(v)} appears twice (items must be different)", path + (i,))
                seen.append(v)
        return out


@dataclass
class Field:
    """A table entry: its node, one-line meaning, and whether it may be left out (``default``)."""

    node: Node
    doc: str = ""
    default: Any = _MISSING        # _MISSING: required; None: optional, left out when absent; else filled in

    @property
    def required(self) -> bool:
        return self.default is _MISSING


@dataclass
class Table(Node):
    """A TOML table with fixed keys; ``extra(table, path) -> dict`` may accept and check further keys."""

    fields: dict[str, Field]
    doc: str = ""
    extra: Callable[[Mapping, tuple], dict] | None = None
    extra_names: Callable[[Mapping], Sequence[str]] | None = None
    extra_doc: str | Callable[[str], str] = ""   # meaning of an extra key (``{key}`` stands for it), or a function

    def allowed(self) -> str:
        return ", ".join(self.fields)

    def names(self, value: Mapping | None = None) -> list[str]:
        extra = list(self.extra_names(value or {})) if self.extra_names else []
        return list(self.fields) + [n for n in extra if n not in self.fields]

    def check(self, value, path):
        if not isinstance(value, Mapping):
            self.fail(f"expected a table, got {_type_name(value)} {_show(value)}", path)
        out: dict = {}
        rest = {k: v for k, v in value.items() if k not in self.fields}
        if rest and self.extra is None:
            key = next(iter(rest))
            raise SchemaError(f"unknown key{suggest(key, self.fields)}", path + (key,), allowed=self.allowed())
        for key, f in self.fields.items():
            if key in value:
                out[key] = f.node.check(value[key], path + (key,))
            elif f.required:
                typo = difflib.get_close_matches(key, [str(k) for k in rest], n=1, cutoff=0.6)
                if typo:
                    raise SchemaError(f"unknown key (did you mean {key!r}?)", path + (typo[0],),
                                      allowed=", ".join(self.names(value)))
                raise SchemaError("missing", path + (key,), allowed=f.node.allowed() or None)
            elif f.default is not None:
                out[key] = copy.deepcopy(f.default)
        if rest:
            out.update(self.extra({**value, **out}, path))
        return out


@dataclass
class MapOf(Node):
    """A table whose keys are data (player counts, colours, edges): ``key`` checks each key, ``value`` each value."""

    key: Node
    value: Node
    min_len: int = 0
    max_len: int = 100
    doc: str = ""

    def allowed(self) -> str:
        return f"keys: {self.key.allowed()}"

    def check(self, value, path):
        if not isinstance(value, Mapping):
            self.fail(f"expected a table, got {_type_name(value)} {_show(value)}", path)
        if not self.min_len <= len(value) <= self.max_len:
            n = f"{self.min_len}" if self.min_len == self.max_len else f"{self.min_len}..{self.max_len}"
            raise SchemaError(f"has {len(value)} entries", path, allowed=f"{n} entries, {self.allowed()}")
        out = {}
        for k, v in value.items():
            key = self.key_of(k, path)
            out[key] = self.value.check(v, path + (key,))
        return out

    def key_of(self, k, path) -> str:
        k = str(k)
        if isinstance(self.key, Int):
            try:
                n = int(k)
            except ValueError:
                raise SchemaError("is not a whole number", path + (k,), allowed=f"keys: {self.key.allowed()}") from None
            self.key.check(n, path + (k,))
            return str(n)
        if isinstance(self.key, Str) and self.key.choices is not None and k not in self.key.choices:
            raise SchemaError(f"unknown key{suggest(k, self.key.choices)}", path + (k,),
                              allowed=", ".join(self.key.choices))
        self.key.check(k, path + (k,))
        return k


@dataclass
class Records(Node):
    """An array of tables (``[[card]]``), each identified by its ``key`` field; paths use that key (``card.7``).

    ``merge="key"`` (every game's lists): a designer's entry merges into the packaged entry with the same key
    (new keys are added); a designer file replaces the packaged list whole only when it says so, with
    ``replace.<name> = true`` (:func:`take_replace`).  ``merge="replace"``: a designer's array always replaces
    the packaged one whole.
    """

    item: Table
    key: str
    min_len: int = 1
    max_len: int = 200
    merge: str = "key"
    doc: str = ""

    def allowed(self) -> str:
        return f"{self.min_len}..{self.max_len} [[tables]] with distinct '{self.key}'"

    def check(self, value, path):
        if not isinstance(value, (list, tuple)):
            self.fail(f"expected an array of tables, got {_type_name(value)} {_show(value)}", path)
        if len(value) > 10 * self.max_len:      # before looking at the entries: bounded work
            self.fail(f"has {len(value)} entries", path)
        out, seen = [], set()
        for i, entry in enumerate(value):
            if not isinstance(entry, Mapping):
                raise SchemaError(f"expected a table, got {_type_name(entry)} {_show(entry)}", path + (i,))
            if self.key not in entry:
                raise SchemaError("missing", path + (i, self.key), allowed=self.item.fields[self.key].node.allowed())
            k = self.item.fields[self.key].node.check(entry[self.key], path + (i, self.key))
            if str(k) in seen:
                raise SchemaError(f"{k!r} appears twice", path + (i, self.key), allowed=f"distinct '{self.key}' values")
            seen.add(str(k))
            out.append(self.item.check(entry, path + (str(k),)))
        if not self.min_len <= len(value) <= self.max_len:
            self.fail(f"has {len(value)} entries", path)
        return out

    def find(self, entries: list, seg: str) -> int | None:
        for i, e in enumerate(entries):
            if isinstance(e, Mapping) and str(e.get(self.key)) == str(seg):
                return i
        return None


@dataclass
class Value(Node):
    """``{ value = ..., source = ... }``: one value with its source (a bare value means ``source = "designer"``)."""

    node: Node
    doc: str = ""

    def allowed(self) -> str:
        return "{ value = ..., source = ... } with value " + (self.node.allowed() or "as documented")

    def check(self, value, path):
        if not isinstance(value, Mapping):
            self.fail(f"expected a table {{ value = ..., source = ... }}, got {_type_name(value)} {_show(value)}",
                      path)
        for k in value:
            if k not in ("value", "source"):
                raise SchemaError(f"unknown key{suggest(k, ('value', 'source'))}", path + (k,),
                                  allowed="value, source")
        if "value" not in value:
            raise SchemaError("missing", path + ("value",), allowed=self.node.allowed() or None)
        if "source" not in value:
            raise SchemaError("missing", path + ("source",), allowed=", ".join(SOURCES))
        return {"value": self.node.check(value["value"], path + ("value",)),
                "source": Source().check(value["source"], path + ("source",))}


def validate(spec: Node, doc, *, file=None):
    """Check ``doc`` against ``spec``; returns the normalised document (plain dicts, lists and scalars)."""
    try:
        return spec.check(doc, ())
    except SchemaError as exc:
        raise exc.located(file=file) from None
    except RecursionError:
        raise SchemaError("nested too deeply", file=file) from None


# ------------------------------------------------------------------------------------------------ plain data
def plain(value):
    """Tuples -> lists, numpy scalars -> Python scalars, mappings -> dicts (for ``replace`` values)."""
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):   # numpy arrays and scalars
        return plain(value.tolist())
    return value


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


# ------------------------------------------------------------------------------------------------ reading
def read_toml(path, *, what: str = "components") -> dict:
    """Read a TOML file; every failure is a :class:`SchemaError` naming the file (and line and column)."""
    p, text = _read_text(path, what, "TOML")
    return parse_toml(text, file=p)


def read_document(path, *, what: str = "position") -> dict:
    """Read a ``.json`` file as JSON, anything else as TOML, through the same input-file checks as
    :func:`read_toml`; every failure is a :class:`SchemaError` naming the file."""
    p = Path(path) if isinstance(path, (str, os.PathLike)) and not isinstance(path, bytes) else None
    if p is None or p.suffix.lower() != ".json":
        return read_toml(path, what=what)
    p, text = _read_text(path, what, "JSON")
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise SchemaError(f"not valid JSON: {exc}", file=p) from None


def _read_text(path, what: str, kind: str) -> tuple[Path, str]:
    """The UTF-8 text of an input file (a device, a pipe or a file above the limit refused before reading)."""
    if not isinstance(path, (str, os.PathLike)) or isinstance(path, bytes):
        raise TypeError(f"{what} must be a path (str or pathlib.Path), got {type(path).__name__}")
    p = Path(path)
    if str(path) == "":
        raise SchemaError("an empty path is not a file", file="''")
    if not p.exists():
        raise SchemaError("no such file", file=p)
    if p.is_dir():
        raise SchemaError(f"is a directory, expected a .{kind.lower()} file", file=p)
    try:
        # refuses a device (/dev/zero), a pipe or a file above limits.max_input_file_bytes() before reading
        raw = read_input_file(p, what=f"{what} file")
    except ValueError as exc:
        raise SchemaError(str(exc).removeprefix(f"{p}: "), file=p) from None
    except OSError as exc:
        raise SchemaError(f"cannot be read ({exc.strerror or exc})", file=p) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SchemaError(f"is not a {kind} text file (not UTF-8 at byte {exc.start})", file=p) from None
    return p, text


def parse_toml(text: str, *, file=None) -> dict:
    """``tomllib.loads`` with errors that name the file, the line, the column and what the parser expected."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        msg = str(exc)
        m = re.search(r"\s*\(at line (\d+), column (\d+)\)\s*$", msg)
        where = None
        if m:
            line, col = int(m.group(1)), int(m.group(2))
            msg = msg[:m.start()]
            lines = text.splitlines()
            shown = lines[line - 1].strip() if 0 < line <= len(lines) else ""
            where = f"line {line}, column {col}"
            msg += f" (line {line} reads {shown[:80]!r})" if shown else ""
        else:
            msg = re.sub(r"\s*\(at end of document\)\s*$", "", msg)
            where = "end of file"
        msg = msg[:1].lower() + msg[1:]
        raise SchemaError(f"not valid TOML: {msg}", file=(f"{file}: {where}" if file else where)) from None
    except RecursionError:
        raise SchemaError("not valid TOML: nested too deeply", file=file) from None


# ------------------------------------------------------------------------------------------------ writing
def _key(k) -> str:
    return str(k) if _BARE.match(str(k)) else _scalar(str(k))


def _scalar(v, inline: bool = False) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        text = repr(v)
        return text if any(c in text for c in ".en") else text + ".0"
    if isinstance(v, str):     # JSON string escapes are TOML's; DEL must be escaped too
        return json.dumps(v, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(v, list):
        if not inline and _long(v):
            return "[\n" + "".join(f"  {_scalar(x, True)},\n" for x in v) + "]"
        return "[" + ", ".join(_scalar(x, True) for x in v) + "]"
    if isinstance(v, Mapping):   # TOML inline tables hold no line breaks
        return "{ " + ", ".join(f"{_key(k)} = {_scalar(x, True)}" for k, x in v.items()) + " }" if v else "{}"
    raise TypeError(f"cannot write {type(v).__name__} as TOML")


def _long(v) -> bool:
    """A list of lists worth one line per item."""
    return isinstance(v, list) and len(v) > 3 and all(isinstance(x, list) for x in v)


def _comment(doc: str, source: str | None) -> str:
    text = doc.strip()
    if source:
        text = f"{text} [source: {source}]" if text else f"[source: {source}]"
    return f"# {text}\n" if text else ""


def _node_doc(f: Field | None, node: Node | None) -> str:
    return (f.doc if f is not None and f.doc else "") or (getattr(node, "doc", "") or "")


def _is_section(node: Node, value) -> bool:
    """Written under its own [header] (tables and maps of tables) rather than inline."""
    if isinstance(node, Table):
        return True
    if isinstance(node, MapOf):
        return True
    return False


def _extra_doc(spec: Table, key) -> str:
    return spec.extra_doc(str(key)) if callable(spec.extra_doc) else spec.extra_doc.format(key=key)


def _emit_table(lines: list, header: tuple, spec: Table, value: Mapping, *, record: bool = False,
                inherited: str | None = None, comments: set | None = None) -> None:
    src = value.get("source", inherited) if isinstance(value.get("source", inherited), str) else inherited
    inline, sections, records = [], [], []
    names = list(spec.fields) + [k for k in value if k not in spec.fields]
    names = [k for k in names if not str(k).endswith("source")] + [k for k in names if str(k).endswith("source")]
    for k in names:
        if k not in value:
            continue
        f = spec.fields.get(k)
        node = f.node if f is not None else None
        v = value[k]
        if isinstance(node, Records):
            records.append((k, f, node, v))
        elif isinstance(node, Value) and isinstance(v, Mapping) and _long(v.get("value")) and not record:
            sections.append((k, f, node, v))
        elif node is not None and _is_section(node, v) and not record:
            sections.append((k, f, node, v))
        else:
            inline.append((k, f, node, v))
    if header:
        doc = spec.doc
        if doc and not record:
            lines.append(_comment(doc, None))
        lines.append(("[[" + ".".join(_key(h) for h in header) + "]]\n") if record else
                     ("[" + ".".join(_key(h) for h in header) + "]\n"))
    for k, f, node, v in inline:
        if k == "source" or k.endswith("_source"):
            lines.append(f"{_key(k)} = {_scalar(v)}\n")
            continue
        own = value.get(f"{k}_source") or (v.get("source") if isinstance(node, Value) and isinstance(v, Mapping)
                                           else None) or src
        meaning = _node_doc(f, node)
        if f is None and node is None:
            own, meaning = src, _extra_doc(spec, k)
        if comments is None or k not in comments:   # in [[arrays]]: once per key, on its first entry
            lines.append(_comment(meaning, own))
            if comments is not None:
                comments.add(k)
        lines.append(f"{_key(k)} = {_scalar(v)}\n")
    for k, f, node, v in sections:
        lines.append("\n")
        if isinstance(node, Value):   # a long value: [header.k] with value = [ one item per line ] and source
            lines.append(_comment(_node_doc(f, node), v.get("source")))
            lines.append("[" + ".".join(_key(h) for h in header + (k,)) + "]\n")
            lines.append(f"value = {_scalar(v['value'])}\nsource = {_scalar(v['source'])}\n")
        elif isinstance(node, Table):
            sub = Table(node.fields, doc=_node_doc(f, node), extra=node.extra, extra_names=node.extra_names,
                        extra_doc=node.extra_doc)
            _emit_table(lines, header + (k,), sub, v, inherited=src)
        else:  # MapOf
            if isinstance(node.value, (Table, MapOf)):
                if _node_doc(f, node):
                    lines.append(_comment(_node_doc(f, node), None))
                for mk, mv in v.items():
                    sub_spec = node.value if isinstance(node.value, Table) else Table({}, extra=lambda t, p: dict(t))
                    if _node_doc(f, node) and isinstance(sub_spec, Table) and sub_spec.doc:
                        sub_spec = Table(sub_spec.fields, extra=sub_spec.extra, extra_names=sub_spec.extra_names,
                                         extra_doc=sub_spec.extra_doc)
                    if isinstance(node.value, MapOf):
                        lines.append("[" + ".".join(_key(h) for h in header + (k, mk)) + "]\n")
                        for kk, vv in mv.items():
                            lines.append(f"{_key(kk)} = {_scalar(vv)}\n")
                        continue
                    _emit_table(lines, header + (k, mk), sub_spec, mv, inherited=src)
                    lines.append("\n")
            else:
                lines.append(_comment(_node_doc(f, node), value.get(f"{k}_source") or src))
                lines.append("[" + ".".join(_key(h) for h in header + (k,)) + "]\n")
                vdoc = getattr(node.value, "doc", "")
                for mk, mv in v.items():
                    if vdoc:
                        lines.append(_comment(vdoc, None))
                    lines.append(f"{_key(mk)} = {_scalar(mv)}\n")
    for k, f, node, v in records:
        lines.append("\n")
        if _node_doc(f, node):
            lines.append(_comment(_node_doc(f, node), None))
        seen: set = set()
        for entry in v:
            _emit_table(lines, header + (k,), node.item, entry, record=True, inherited=src, comments=seen)
            lines.append("\n")


def to_toml(spec: Table, doc: Mapping, header: str = "") -> str:
    """A validated document as commented TOML: before each value a line with its meaning and its source.

    ``tomllib.loads(to_toml(spec, doc))`` validates back to ``doc`` (tested for every game).
    """
    lines: list[str] = []
    if header:
        lines += [f"# {line}".rstrip() + "\n" for line in header.strip("\n").splitlines()]
        lines.append("\n")
    _emit_table(lines, (), spec, doc)
    text = "".join(lines)
    return re.sub(r"\n{3,}", "\n\n", text).rstrip("\n") + "\n"


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


# ------------------------------------------------------------------------------------------------ formats
class SchemaComponents:
    """Mixin for a game's components object: the validated document, ``replace``, dump and content hash.

    Subclasses are frozen dataclasses with ``eq=False``; :meth:`ComponentFormat.build` sets ``_document``.
    Two components are equal when their validated documents are equal.
    """

    FORMAT: ComponentFormat

    @property
    def document(self) -> dict:
        """A deep copy of the validated document (plain dicts, lists and scalars)."""
        return copy.deepcopy(self._document)

    def get(self, path):
        """The value at a dotted path of the document (``comp.get("tile.7.values")``); a copy."""
        return get_path(self._document, type(self).FORMAT.spec, path)

    def content_hash(self) -> str:
        """SHA-256 of the validated document (canonical JSON): equal components, equal hash, on any machine."""
        text = json.dumps(self._document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def replace(self, changes: Mapping | None = None, /, **more):
        """A validated copy with values changed at dotted paths; the original is unchanged.

        ``comp.replace({"tile.7.values": (8, 4)})`` or ``comp.replace(**{"tile.7.values": (8, 4)})``.  Keyed
        arrays of tables are addressed by their key (``tile.7`` is the tile numbered 7); a value of ``None``
        removes an optional key or an entry.  The table holding a changed value is marked
        ``source = "designer"`` unless the change sets its source.  A path that does not exist raises
        :class:`SchemaError` naming it and the closest valid key.
        """
        if changes is not None and not isinstance(changes, Mapping):
            raise TypeError(f"changes must be a mapping path -> value, got {type(changes).__name__}")
        items = list((changes or {}).items()) + list(more.items())
        items.sort(key=lambda kv: str(kv[0][-1] if isinstance(kv[0], tuple) else kv[0]).endswith("source"))
        if not items:
            raise ValueError("replace needs at least one change, e.g. replace({'path.to.key': value})")
        fmt = type(self).FORMAT
        doc = self.document
        touched = []
        for path, value in items:
            segs = _split(path)
            owner = set_path(doc, fmt.spec, segs, plain(value))
            touched.append((owner, segs))
        explicit = {segs for _, segs in touched}
        for owner, segs in touched:
            if segs[-1].endswith("source"):
                continue
            mark = _designer_mark(doc, fmt.spec, owner, segs)
            if mark is not None and mark[2] not in explicit:     # a source the change sets itself is kept
                mark[0][mark[1]] = "designer"
        return fmt.from_document(doc, file=None)

    def to_toml(self) -> str:
        """The components as one commented TOML file (loadable with the game's ``load_components``)."""
        fmt = type(self).FORMAT
        return to_toml(fmt.spec, self._document, fmt.header)

    def dump(self, path) -> Path:
        """Write :meth:`to_toml` to ``path`` (the folder must exist); returns the path."""
        if not isinstance(path, (str, os.PathLike)) or isinstance(path, bytes) or str(path) == "":
            raise TypeError(f"path must be a file path (str or pathlib.Path), got {path!r}")
        p = Path(path)
        if p.is_dir():
            raise ValueError(f"path must be a file, got the directory {str(p)!r}")
        if not p.parent.is_dir():
            raise ValueError(f"path: the folder {str(p.parent)!r} does not exist")
        p.write_text(self.to_toml(), encoding="utf-8")
        return p

    def table(self):
        """DataFrame of every value: ``key`` (dotted path), ``value``, ``source``, ``meaning``."""
        import pandas as pd

        fmt = type(self).FORMAT
        return pd.DataFrame(fmt.rows(self._document), columns=["key", "value", "source", "meaning"])

    def __eq__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return getattr(self, "_document", None) == getattr(other, "_document", None) and \
            getattr(self, "_document", None) is not None

    def __hash__(self):
        return hash((type(self).__name__, self.content_hash()))


@dataclass
class ComponentFormat:
    """How one game's components are stored, checked and built.

    ``spec`` is the root table of the single-file form; ``packaged`` the data files (each holds some of its
    top-level sections) merged into the packaged document; ``check(doc)`` raises :class:`SchemaError` for what
    one value cannot say alone (sums, cross references); ``build(doc)`` returns the components object (a
    :class:`SchemaComponents`).
    """

    game: str
    spec: Table
    data_dir: Path
    packaged: tuple[str, ...]
    check: Callable[[dict], None]
    build: Callable[[dict], SchemaComponents]
    cls: type
    header: str = ""
    assemble: Callable[[], dict] | None = None     # builds the raw packaged document when not a plain union
    _default: Any = field(default=None, repr=False)
    _packaged_doc: Any = field(default=None, repr=False)

    def __post_init__(self):
        self.cls.FORMAT = self

    # -- documents
    def packaged_document(self) -> dict:
        """The packaged data files merged into one validated document (cached)."""
        if self._packaged_doc is None and self.assemble is not None:
            self._packaged_doc = self.validate(self.assemble(), file=self.data_dir)
        if self._packaged_doc is None:
            doc: dict = {}
            for name in self.packaged:
                part = read_toml(self.data_dir / name)
                for k, v in part.items():
                    if k in doc:
                        raise SchemaError(f"section {k!r} is also in another packaged file", (k,),
                                          file=self.data_dir / name)
                    doc[k] = v
            self._packaged_doc = self.validate(doc, file=self.data_dir)
        return copy.deepcopy(self._packaged_doc)

    def validate(self, doc, *, file=None) -> dict:
        """Validate a whole document (schema, then the cross-field checks); returns the normalised document."""
        out = validate(self.spec, doc, file=file)
        try:
            self.check(out)
        except SchemaError as exc:
            raise exc.located(file=file) from None
        return out

    def from_document(self, doc, *, file=None) -> SchemaComponents:
        """Validate a whole document and build the components (the one path every loader ends in)."""
        out = self.validate(doc, file=file)
        comp = self.build(out)
        object.__setattr__(comp, "_document", out)
        return comp

    # -- loading
    def default(self) -> SchemaComponents:
        """The packaged components (cached)."""
        if self._default is None:
            self._default = self.from_document(self.packaged_document(), file=self.data_dir)
        return self._default

    def load(self, path=None, *, what: str = "components") -> SchemaComponents:
        """A designer's file merged over the packaged defaults (``None``: the packaged components)."""
        if path is None:
            return self.default()
        return self.load_files([(path, what)], file=path)

    def load_files(self, files: Sequence[tuple[Any, str]], *, file=None) -> SchemaComponents:
        """Designer files ``(path, what)`` merged in order over the packaged defaults (``file``: the name errors
        give).  Keyed lists merge by key unless a file says ``[replace]`` ``<list> = true``; an error about a
        keyed list the files gave entries for says which rule combined them."""
        doc = self.packaged_document()
        packaged = {k: doc.get(k) for k in _keyed_lists(self.spec)}
        replaced: set[str] = set()
        given: dict[str, list] = {}
        for path, what in files:
            raw = read_toml(path, what=what)
            try:
                now = take_replace(raw, self.spec)
            except SchemaError as exc:
                raise exc.located(file=path) from None
            for k in now:  # absent, so the file's entries are taken as they are (a key given twice is an error)
                doc.pop(k, None)
                given[k] = []
            replaced |= now
            for k in packaged:
                if isinstance(raw.get(k), list):
                    given.setdefault(k, []).extend(raw[k])
            doc = merge(doc, raw, self.spec)
        try:
            return self.from_document(doc, file=file)
        except SchemaError as exc:
            for name in given:
                if f"[[{name}]]" in exc.what:  # about the number of entries
                    note = _merge_note(packaged, given[name], self.spec, replaced, name)
                    raise SchemaError(f"{exc.what} ({note})", exc.path, allowed=exc.allowed,
                                      file=exc.file) from None
            raise

    def coerce(self, value, name: str = "components") -> SchemaComponents:
        """``None`` -> packaged; a components object as is; a path -> :meth:`load`; else ``TypeError`` naming it."""
        if value is None:
            return self.default()
        if isinstance(value, self.cls):
            if not hasattr(value, "_document"):
                raise TypeError(f"{name} was built without its document; load it with load_components or "
                                f"derive it with replace()")
            return value
        if isinstance(value, (str, os.PathLike)) and not isinstance(value, bytes):
            return self.load(value, what=name)
        raise TypeError(f"{name} must be a path to a {self.game} components file (str or pathlib.Path) or a "
                        f"{self.cls.__module__}.{self.cls.__name__}, got {type(value).__name__}")

    # -- describing
    def rows(self, doc: Mapping) -> list[tuple[str, str, str, str]]:
        """(dotted key, value, source, meaning) for every leaf value of ``doc``."""
        out: list = []
        _rows(out, (), self.spec, doc, None)
        return out


def _rows(out: list, path: tuple, node: Node | None, value, src, doc: str = "") -> None:
    if isinstance(node, Table) and isinstance(value, Mapping):
        src = value.get("source", src) if isinstance(value.get("source", src), str) else src
        for k, v in value.items():
            if k == "source" or k.endswith("_source"):
                continue
            f = node.fields.get(k)
            own = value.get(f"{k}_source", src)
            meaning = _node_doc(f, f.node) if f else _extra_doc(node, k)
            _rows(out, path + (k,), f.node if f else None, v, own, meaning)
    elif isinstance(node, Records) and isinstance(value, list):
        for e in value:
            _rows(out, path + (str(e.get(node.key)),), node.item, e, src, doc)
    elif isinstance(node, MapOf) and isinstance(value, Mapping) and isinstance(node.value, (Table, MapOf, Value)):
        for k, v in value.items():
            _rows(out, path + (k,), node.value, v, src, doc)
    elif isinstance(node, Value) and isinstance(value, Mapping):
        text = _scalar(value["value"]).replace("\n", " ")
        out.append((".".join(path), text if len(text) <= 70 else text[:67] + "...", value["source"], doc or node.doc))
    else:
        text = _scalar(value).replace("\n", " ") if value is not None else ""
        out.append((".".join(path), text if len(text) <= 70 else text[:67] + "...", src or "", doc))
