"""Source fingerprints: the files a module's code depends on, and one hash of all of them.

Two caches must never return results computed by other code: numba's on-disk cache of compiled kernels
(:mod:`._jit`) and the sweep cache (:mod:`.sweep`).  Both key their entries on :func:`fingerprint` of the
file that defines the function: a SHA-256 over the contents of that file, of every module of this package
it imports (followed recursively, function-level imports included, lazy package names resolved through
their ``attach`` table) and of the ``data/`` files of every package directory involved (default
components).  Editing ``meerkat/rules.py`` therefore changes the fingerprint of ``meerkat/kernel.py``,
which imports it, while editing ``meerkat/report.py`` does not.

Only imports written in the source are followed (``import x``, ``from x import y``); modules reached
through ``importlib`` strings are not.  Importing a whole package (``import pyradice_lab.raft`` or
``from pyradice_lab import raft``) counts every file of that package, since its attributes can reach
anything in it.

Examples
--------
>>> from pyradice_lab.engine import _sources
>>> deps = [p.name for p in _sources.dependency_files(_sources.PACKAGE_DIR / "engine" / "sweep.py")]
>>> "stats.py" in deps, "report.py" in deps
(True, False)
>>> len(_sources.fingerprint(_sources.PACKAGE_DIR / "engine" / "sweep.py"))
64
"""

from __future__ import annotations

import ast
import functools
import hashlib
import os
import re
from collections.abc import Iterable
from pathlib import Path

__all__ = ["PACKAGE_DIR", "in_package", "dependency_files", "fingerprint", "file_digest", "code_text",
           "code_digest"]

#: The directory of this package (the copy that is running).
PACKAGE_DIR = Path(__file__).resolve().parents[1]
_PACKAGE = PACKAGE_DIR.name
_ROOT = PACKAGE_DIR.parent


def in_package(path: str | os.PathLike) -> bool:
    """Whether ``path`` is a file of this package."""
    try:
        return Path(path).resolve().is_relative_to(PACKAGE_DIR)
    except (OSError, ValueError):
        return False


def _stat_key(path: Path) -> tuple[str, int, int]:
    st = path.stat()
    return str(path), st.st_mtime_ns, st.st_size


@functools.lru_cache(maxsize=4096)
def _digest(path: str, mtime_ns: int, size: int) -> str:
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


def file_digest(path: str | os.PathLike) -> str:
    """SHA-256 of a file's bytes (memoised on its modification time and size)."""
    return _digest(*_stat_key(Path(path).resolve()))


#: a string literal (any prefix, triple-quoted or not, escapes included) or a comment: scanning for both at once
#: finds the comments, which never start inside a string (Python 3.11 has no comments in f-string fields)
_STRING_OR_COMMENT = re.compile(r'''[rRbBuUfF]{0,2}(?:"""(?:\\.|[^\\])*?"""|\'\'\'(?:\\.|[^\\])*?\'\'\''''
                                r'''|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')|\#[^\n]*''')


def code_text(path: str | os.PathLike) -> bytes:
    """The bytes of a file as far as running it is concerned: for a Python file, its source without comments,
    without the module docstring and without blank lines or trailing spaces; any other file (``.toml``
    components), its bytes unchanged.  A plain text scan, the same on every Python version (no ``tokenize``,
    whose output changed in 3.12, and 12 times faster).

    Function and class docstrings stay: some are data (a Pyradice card kind's description is its scoring
    function's ``__doc__``).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     a, b = Path(d, "a.py"), Path(d, "b.py")
    ...     _ = a.write_text("'Old words.'\\nx = 1  # one\\n")
    ...     _ = b.write_text("'''New words,\\nover two lines.'''\\n\\n# a comment\\nx = 1\\n")
    ...     code_text(a) == code_text(b) == b"x = 1"
    True
    """
    path = Path(path)
    raw = path.read_bytes()
    if path.suffix != ".py":
        return raw
    text = raw.decode("utf-8", errors="replace")
    kept: list[str] = []
    pos, before_code = 0, True
    for m in _STRING_OR_COMMENT.finditer(text):
        token = m.group()
        if token.startswith("#"):                     # a comment: dropped
            kept.append(text[pos:m.start()])
            pos = m.end()
            continue
        if before_code and not "".join(kept).strip() and not text[pos:m.start()].strip() \
                and not text[m.end():].partition("\n")[0].strip():   # the module docstring: dropped
            kept.append(text[pos:m.start()])
            pos = m.end()
        before_code = False
    kept.append(text[pos:])
    return "\n".join(ln.rstrip() for ln in "".join(kept).splitlines() if ln.strip()).encode("utf-8")


@functools.lru_cache(maxsize=4096)
def _code_digest(path: str, mtime_ns: int, size: int) -> str:
    return hashlib.sha256(code_text(path)).hexdigest()


def code_digest(path: str | os.PathLike) -> str:
    """SHA-256 of :func:`code_text` (memoised on the file's modification time and size): unchanged by edits of
    comments, of the module docstring and of blank lines."""
    return _code_digest(*_stat_key(Path(path).resolve()))


# ----------------------------------------------------------------------------------------- module names
def _module_path(name: str) -> Path | None:
    """The file of module ``name`` of this package (a package's ``__init__.py``), or None."""
    parts = name.split(".")
    if parts[0] != _PACKAGE:
        return None
    base = _ROOT.joinpath(*parts)
    if base.with_suffix(".py").is_file():
        return base.with_suffix(".py")
    if (base / "__init__.py").is_file():
        return base / "__init__.py"
    return None


def _module_name(path: Path) -> str | None:
    if not in_package(path):
        return None
    parts = path.resolve().relative_to(_ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


_TYPE_CHECKING = re.compile(r"if\s+(?:typing\.)?TYPE_CHECKING\s*:")
_FROM = re.compile(r"from\s+(\.*[\w.]*)\s+import\s+(.*)")
_IMPORT = re.compile(r"import\s+(.*)")


def _imports(text: str) -> Iterable[tuple[str | None, int, list[str]]]:
    """``(module, level, names)`` of every import statement, function-level ones included, skipping
    ``if TYPE_CHECKING:`` blocks (never executed).  ``import a.b`` gives ``(None, 0, ["a.b"])``.

    A line scanner rather than ``ast.parse`` (this runs when the kernels are decorated, for every module they
    import): a docstring line that reads like an import statement can only add a file, never lose one.
    """
    lines = text.splitlines()
    skip: int | None = None
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        stripped = line.lstrip()
        indent = len(line) - len(stripped)
        if skip is not None:
            if stripped and not stripped.startswith("#") and indent <= skip:
                skip = None
            else:
                continue
        if _TYPE_CHECKING.match(stripped):
            skip = indent
            continue
        m = _FROM.match(stripped)
        if m:
            module, rest = m.group(1), m.group(2)
        else:
            m = _IMPORT.match(stripped)
            if not m:
                continue
            module, rest = None, m.group(1)
        rest = rest.split("#", 1)[0]
        if rest.lstrip().startswith("(") and ")" not in rest:
            while i < len(lines) and ")" not in lines[i]:
                rest += " " + lines[i].split("#", 1)[0]
                i += 1
            if i < len(lines):
                rest += " " + lines[i].split("#", 1)[0]
                i += 1
        while rest.rstrip().endswith("\\") and i < len(lines):
            rest = rest.rstrip()[:-1] + " " + lines[i].split("#", 1)[0]
            i += 1
        names = [n.split(" as ")[0].strip() for n in rest.replace("(", " ").replace(")", " ").split(",")]
        names = [n.split()[0] for n in names if n.split()]
        if module is None:
            yield None, 0, names
        else:
            level = len(module) - len(module.lstrip("."))
            yield module.lstrip(".") or None, level, names


def _lazy_table(init: Path) -> dict[str, str]:
    """public name -> submodule, from a package's ``attach(globals(), {...})`` call."""
    table: dict[str, str] = {}
    try:
        tree = ast.parse(init.read_bytes())
    except (OSError, SyntaxError, ValueError):
        return table
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "attach"
                and len(node.args) >= 2 and isinstance(node.args[1], ast.Dict)):
            for key, value in zip(node.args[1].keys, node.args[1].values):
                if isinstance(key, ast.Constant) and isinstance(value, (ast.List, ast.Tuple)):
                    for elt in value.elts:
                        if isinstance(elt, ast.Constant) and isinstance(elt.value, str):
                            table[elt.value] = str(key.value)
    return table


@functools.lru_cache(maxsize=4096)
def _direct(path: str, mtime_ns: int, size: int) -> tuple[tuple[str, str], ...]:
    """Direct dependencies of one file: ``("file", path)`` or ``("package", directory)`` pairs."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ()
    me = _module_name(p)
    pkg = None if me is None else (me if p.name == "__init__.py" else me.rpartition(".")[0])
    deps: set[tuple[str, str]] = set()

    def add_module(name: str) -> None:
        target = _module_path(name)
        if target is None:
            return
        if target.name == "__init__.py":
            deps.add(("package", str(target.parent)))
        else:
            deps.add(("file", str(target)))

    for module, level, names in _imports(text):
        if module is None and level == 0:
            for name in names:
                add_module(name)
            continue
        if level:
            if pkg is None:
                continue
            parts = pkg.split(".")
            if level - 1 >= len(parts):
                continue
            base = parts[:len(parts) - level + 1]
            mod = ".".join(base + ([module] if module else []))
        else:
            mod = module or ""
        target = _module_path(mod)
        if target is None:
            continue
        lazy = _lazy_table(target) if target.name == "__init__.py" else {}
        for name in names:
            if _module_path(f"{mod}.{name}") is not None:   # from pkg import submodule (or subpackage)
                add_module(f"{mod}.{name}")
            elif name in lazy:                             # from pkg import lazy_name -> its submodule
                add_module(f"{mod}.{lazy[name]}")
            elif name == "*" and target.name == "__init__.py":
                deps.add(("package", str(target.parent)))
            else:
                deps.add(("file", str(target)))
    return tuple(sorted(deps))


def _data_files(directory: Path) -> list[Path]:
    data = directory / "data"
    return sorted(f for f in data.rglob("*") if f.is_file() and "__pycache__" not in f.parts) if data.is_dir() else []


def dependency_files(path: str | os.PathLike) -> list[Path]:
    """``path`` and every file of this package its code can reach through imports, plus the ``data/``
    files of each package directory among them; sorted."""
    start = Path(path).resolve()
    seen: set[Path] = set()
    dirs: set[Path] = set()
    todo = [start]
    while todo:
        f = todo.pop()
        if f in seen or not f.is_file():
            continue
        seen.add(f)
        if in_package(f):
            dirs.add(f.parent)
        if f.suffix != ".py":
            continue
        for kind, target in _direct(*_stat_key(f)):
            t = Path(target)
            if kind == "file":
                todo.append(t)
            else:
                todo.extend(sorted(q for q in t.rglob("*.py") if "__pycache__" not in q.parts))
    files = set(seen)
    for d in dirs:
        files.update(_data_files(d))
    return sorted(files)


_MEMO: dict[str, tuple[tuple, str]] = {}


def _stamp(files: Iterable[Path], dirs: Iterable[Path]) -> tuple | None:
    try:
        return tuple(_stat_key(f)[1:] for f in files) + tuple(d.stat().st_mtime_ns for d in dirs)
    except OSError:
        return None


def fingerprint(path: str | os.PathLike) -> str:
    """SHA-256 (hex) of the contents of :func:`dependency_files` of ``path`` (with their names relative to
    the package, so two copies of the same sources share fingerprints).

    Memoised per file: a repeated call re-checks the modification time and size of every file involved
    (and of the ``data/`` folders) and recomputes only if one changed."""
    key = str(Path(path).resolve())
    memo = _MEMO.get(key)
    if memo is not None:
        (files, dirs, stamp), digest = memo
        if stamp is not None and _stamp(files, dirs) == stamp:
            return digest
    files = dependency_files(path)
    dirs = sorted({f.parent / "data" for f in files if (f.parent / "data").is_dir()}
                  | {f.parent for f in files if f.parent.name == "data"})
    stamp = _stamp(files, dirs)
    h = hashlib.sha256()
    for f in files:
        name = f.relative_to(_ROOT).as_posix() if in_package(f) else str(f)
        h.update(name.encode() + b"\0" + file_digest(f).encode() + b"\n")
    digest = h.hexdigest()
    _MEMO[key] = ((tuple(files), tuple(dirs), stamp), digest)
    return digest
