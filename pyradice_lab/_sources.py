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
>>> from pyradice_lab import _sources
>>> deps = [p.name for p in _sources.dependency_files(_sources.PACKAGE_DIR / "sweep.py")]
>>> "stats.py" in deps, "report.py" in deps
(True, False)
>>> len(_sources.fingerprint(_sources.PACKAGE_DIR / "sweep.py"))
64
"""

from __future__ import annotations

import ast
import functools
import hashlib
import os
from collections.abc import Iterable
from pathlib import Path

__all__ = ["PACKAGE_DIR", "in_package", "dependency_files", "fingerprint", "file_digest"]

#: The directory of this package (the copy that is running).
PACKAGE_DIR = Path(__file__).resolve().parent
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


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST) -> Iterable[ast.Import | ast.ImportFrom]:
    """Every import statement, skipping ``if TYPE_CHECKING:`` blocks (never executed)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        stack.extend(ast.iter_child_nodes(node))


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
        tree = ast.parse(p.read_bytes())
    except (SyntaxError, ValueError):
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

    for node in _imports(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add_module(alias.name)
            continue
        if node.level:
            if pkg is None:
                continue
            parts = pkg.split(".")
            if node.level - 1 >= len(parts):
                continue
            base = parts[:len(parts) - node.level + 1]
            mod = ".".join(base + ([node.module] if node.module else []))
        else:
            mod = node.module or ""
        target = _module_path(mod)
        if target is None:
            continue
        lazy = _lazy_table(target) if target.name == "__init__.py" else {}
        for alias in node.names:
            sub = _module_path(f"{mod}.{alias.name}")
            if sub is not None:                      # from pkg import submodule (or subpackage)
                add_module(f"{mod}.{alias.name}")
            elif alias.name in lazy:                 # from pkg import lazy_name -> its submodule
                add_module(f"{mod}.{lazy[alias.name]}")
            elif alias.name == "*" and target.name == "__init__.py":
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


def fingerprint(path: str | os.PathLike) -> str:
    """SHA-256 (hex) of the contents of :func:`dependency_files` of ``path`` (with their names relative to
    the package, so two copies of the same sources share fingerprints)."""
    h = hashlib.sha256()
    for f in dependency_files(path):
        name = f.relative_to(_ROOT).as_posix() if in_package(f) else str(f)
        h.update(name.encode() + b"\0" + file_digest(f).encode() + b"\n")
    return h.hexdigest()
