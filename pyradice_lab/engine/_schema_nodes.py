"""The node types of a component schema, its errors and :func:`validate` (re-exported by
:mod:`pyradice_lab.engine.schema`).
"""

from __future__ import annotations

import copy
import difflib
import json
import math
import numbers
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .limits import MAX_INPUT_FILE_BYTES

#: where a value comes from: the rules text, our documented reconstruction, or a designer's own file / replace()
SOURCES = ("rules", "reconstruction", "designer")


#: component files larger than this are refused before they are read (the default of
#: :func:`pyradice_lab.engine.limits.max_input_file_bytes`; ``PYRADICE_LAB_MAX_INPUT_FILE_BYTES`` overrides it)
MAX_FILE_BYTES = MAX_INPUT_FILE_BYTES


_MISSING = object()


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


# its public name: tracebacks, doctests and the API reference say pyradice_lab.engine.schema.SchemaError
SchemaError.__module__ = "pyradice_lab.engine.schema"


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


# ------------------------------------------------------------------------------------------------ TOML values
# (here because a node's ``allowed`` text writes values as TOML does; :mod:`._schema_toml` writes whole files)
_BARE = re.compile(r"^[A-Za-z0-9_-]+$")


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
