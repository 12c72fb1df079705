"""The public names the API reference must list: ``__all__`` of pyradice_lab and of each game package.

``python docs/api/_listing.py`` rewrites docs/api/<package>.rst from them (run it after adding a public name;
``tests/test_docs_config.py`` fails until every public name is listed).  ``python docs/api/_listing.py
--sections`` lists the public functions whose docstring lacks a numpydoc Parameters section (not needed
when the function takes no argument), Returns (not needed when it returns nothing), Examples, or Raises
(reported for functions whose own body raises ValueError, TypeError or SchemaError; a function that
validates through helpers is not detected).  ``tests/test_docs_config.py`` fails when a public function
lacks Parameters, Returns or Examples; Raises is reported only.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
import sys
import textwrap
import types
from pathlib import Path

PACKAGES = {
    "pyradice_lab": "The public API (``pyradice_lab``)",
    "pyradice_lab.engine": "The shared engine (``pyradice_lab.engine``)",
    "pyradice_lab.design": "The designer's tools (``pyradice_lab.design``)",
    "pyradice_lab.report": "The report (``pyradice_lab.report``)",
    "pyradice_lab.purramid": "Purramid (``pyradice_lab.purramid``)",
    "pyradice_lab.pyradice": "Pyradice (``pyradice_lab.pyradice``)",
    "pyradice_lab.raft": "Rocking Raft (``pyradice_lab.raft``)",
    "pyradice_lab.meerkat": "Meerkat Kingdom (``pyradice_lab.meerkat``)",
    "pyradice_lab.web": "The table companion page (``pyradice_lab.web``)",
}
KINDS = ("Functions", "Classes", "Constants", "Modules")
SKIP = {"__version__"}


def kind(obj) -> str:
    if isinstance(obj, types.ModuleType):
        return "Modules"
    if inspect.isclass(obj):
        return "Classes"
    if callable(obj):
        return "Functions"
    return "Constants"


def public(package: str) -> dict[str, list[str]]:
    """``{kind: [name, ...]}`` of the package's ``__all__`` (lazy names are imported here)."""
    mod = importlib.import_module(package)
    out: dict[str, list[str]] = {k: [] for k in KINDS}
    for name in mod.__all__:
        if name in SKIP:
            continue
        obj = getattr(mod, name)
        if package == "pyradice_lab" and isinstance(obj, types.ModuleType) and name in (
                "purramid", "pyradice", "raft", "meerkat", "engine", "design", "report"):
            continue  # the games and the layers have their own pages
        out[kind(obj)].append(name)
    return {k: sorted(v, key=str.lower) for k, v in out.items() if v}


def page(package: str) -> str:
    title = PACKAGES[package]
    lines = [title, "=" * len(title), "", f".. automodule:: {package}", "   :no-members:", "",
             f".. currentmodule:: {package}", ""]
    for k, names in public(package).items():
        lines += [k, "-" * len(k), "", ".. autosummary::", "   :toctree: generated/", ""]
        lines += [f"   {n}" for n in names] + [""]
    return "\n".join(lines)


VALIDATION_ERRORS = {"ValueError", "TypeError", "SchemaError"}


def _function_node(fn) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The function's own AST node (None when its source is not available, e.g. a builtin)."""
    try:
        src = textwrap.dedent(inspect.getsource(inspect.unwrap(fn)))
    except (OSError, TypeError):
        return None
    node = ast.parse(src).body[0]
    return node if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else None


def _own_nodes(fn_node):
    """The nodes of ``fn_node``'s body, not descending into nested functions, lambdas or classes."""
    todo = list(fn_node.body)
    while todo:
        node = todo.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            todo.extend(ast.iter_child_nodes(node))


def needs(fn) -> dict[str, bool]:
    """Which conditional sections ``fn``'s docstring needs: ``Parameters`` (it takes an argument), ``Returns``
    (it returns or yields a value) and ``Raises`` (its own body raises ValueError, TypeError or SchemaError)."""
    try:
        sig = inspect.signature(fn)
        params = bool(sig.parameters)
        returns_none = sig.return_annotation in (None, "None")
    except (TypeError, ValueError):
        params, returns_none = True, False
    node = _function_node(fn)
    if node is None:
        return {"Parameters": params, "Returns": not returns_none, "Raises": False}
    own = list(_own_nodes(node))
    returns = any(isinstance(n, ast.Return) and n.value is not None and not (
        isinstance(n.value, ast.Constant) and n.value.value is None) for n in own)
    returns |= any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in own)
    raised = {n.exc.func.id if isinstance(n.exc, ast.Call) and isinstance(n.exc.func, ast.Name) else
              n.exc.id if isinstance(n.exc, ast.Name) else None for n in own if isinstance(n, ast.Raise) and n.exc}
    return {"Parameters": params, "Returns": returns and not returns_none,
            "Raises": bool(raised & VALIDATION_ERRORS)}


def missing_sections(sections=("Parameters", "Returns", "Examples")) -> dict[str, list[str]]:
    """``{section: [package.function, ...]}`` of public functions whose docstring lacks that section (and needs
    it: see :func:`needs`; Examples is always needed)."""
    out: dict[str, list[str]] = {s: [] for s in sections}
    for package in PACKAGES:
        mod = importlib.import_module(package)
        for name in public(package).get("Functions", []):
            fn = getattr(mod, name)
            doc = inspect.getdoc(fn) or ""
            need = needs(fn)
            for s in sections:
                if need.get(s, True) and not re.search(rf"^{s}\n-{{3,}}$", doc, flags=re.M):
                    out[s].append(f"{package}.{name}")
    return out


if __name__ == "__main__" and "--sections" in sys.argv:
    print("(Raises: only functions whose own body raises ValueError/TypeError/SchemaError are checked)")
    missing = missing_sections(("Parameters", "Returns", "Raises", "Examples"))
    for section, names in missing.items():
        print(f"{section} missing ({len(names)}): {', '.join(names)}")
elif __name__ == "__main__":
    here = Path(__file__).parent
    for pkg in PACKAGES:
        (here / f"{pkg.split('.')[-1]}.rst").write_text(page(pkg), encoding="utf-8")
    print("wrote", ", ".join(f"{p.split('.')[-1]}.rst" for p in PACKAGES), file=sys.stderr)
