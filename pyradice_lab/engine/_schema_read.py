"""Reading component and position files: size limit, UTF-8, TOML or JSON, errors located in the file
(re-exported by :mod:`pyradice_lab.engine.schema`).
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from pathlib import Path

from ._schema_nodes import SchemaError
from .limits import read_input_file


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
