"""Declarative schemas for component files: one validation path per game, clear errors, dump, replace, hash.

Every game describes its components (the TOML under ``<game>/data``) with a tree of nodes (:class:`Table`,
:class:`Int`, ...) and a :class:`ComponentFormat` (the root table, the packaged files, cross-field checks and a
builder that turns a validated document into the game's runtime objects).  Everything goes through that one path:

- :meth:`ComponentFormat.load` reads a designer's file, merges it over the packaged defaults (a designer file
  may be partial, see :func:`merge`), validates it completely and builds the components;
- ``comp.replace({"tile.7.values": (8, 4)})`` edits the validated document and runs the same path;
- :func:`to_toml` writes a document back as commented TOML (every value with its meaning and source), and
  loading that file gives back equal components (the round trip is tested for every game);
- :meth:`SchemaComponents.content_hash` is a stable hash of the validated document (sweep caches and paired
  comparisons key on it).

This module is the public face; the code lives in private modules: ``_schema_nodes`` (the node types, the
errors, :func:`validate`), ``_schema_merge`` (:func:`merge`, dotted paths), ``_schema_read`` (reading files)
and ``_schema_toml`` (the writer); the formats (:class:`ComponentFormat`, :class:`SchemaComponents`) stay here.

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
import hashlib
import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ._schema_merge import (
    REPLACE as REPLACE,
    _designer_mark,
    _keyed_lists,
    _merge_note,
    _split,
    get_path,
    merge,
    set_path,
    take_replace,
)
from ._schema_nodes import (
    MAX_FILE_BYTES,
    SOURCES,
    Array,
    Bool,
    Const,
    Field,
    Float,
    Int,
    MapOf,
    Node,
    Records,
    SchemaError,
    Source,
    Str,
    Table,
    Value,
    _scalar,
    format_path,
    plain,
    suggest,
    validate,
)
from ._schema_read import parse_toml as parse_toml, read_document as read_document, read_toml
from ._schema_toml import _extra_doc, _node_doc, to_toml

__all__ = ["SchemaError", "SOURCES", "Node", "Int", "Float", "Str", "Bool", "Source", "Array", "Field", "Table",
           "MapOf", "Records", "Value", "Const", "validate", "merge", "take_replace", "read_toml", "to_toml",
           "format_path", "plain",
           "ComponentFormat", "SchemaComponents", "MAX_FILE_BYTES", "suggest"]


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
