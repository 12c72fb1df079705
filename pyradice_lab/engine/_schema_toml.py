"""The commented TOML writer (:func:`to_toml`): every value with its meaning and source (re-exported by
:mod:`pyradice_lab.engine.schema`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from ._schema_nodes import Field, MapOf, Node, Records, Table, Value, _key, _long, _scalar


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
