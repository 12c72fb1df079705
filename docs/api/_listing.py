"""The public names the API reference must list: ``__all__`` of pyradice_lab and of each game package.

``python docs/api/_listing.py`` rewrites docs/api/<package>.rst from them (run it after adding a public name;
``tests/test_docs_config.py`` fails until every public name is listed).  ``python docs/api/_listing.py
--sections`` lists the public functions whose docstring lacks a numpydoc Parameters, Returns or Examples
section (the reference shows what the docstring has).
"""

from __future__ import annotations

import importlib
import inspect
import re
import sys
import types
from pathlib import Path

PACKAGES = {
    "pyradice_lab": "The shared engine (``pyradice_lab``)",
    "pyradice_lab.purramid": "Purramid (``pyradice_lab.purramid``)",
    "pyradice_lab.pyradice": "Pyradice (``pyradice_lab.pyradice``)",
    "pyradice_lab.raft": "Rocking Raft (``pyradice_lab.raft``)",
    "pyradice_lab.meerkat": "Meerkat Kingdom (``pyradice_lab.meerkat``)",
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
                "purramid", "pyradice", "raft", "meerkat"):
            continue  # the games have their own pages
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


def missing_sections(sections=("Parameters", "Returns", "Examples")) -> dict[str, list[str]]:
    """``{section: [package.function, ...]}`` of public functions whose docstring lacks that section."""
    out: dict[str, list[str]] = {s: [] for s in sections}
    for package in PACKAGES:
        mod = importlib.import_module(package)
        for name in public(package).get("Functions", []):
            doc = inspect.getdoc(getattr(mod, name)) or ""
            for s in sections:
                if not re.search(rf"^{s}\n-{{3,}}$", doc, flags=re.M):
                    out[s].append(f"{package}.{name}")
    return out


if __name__ == "__main__" and "--sections" in sys.argv:
    for section, names in missing_sections().items():
        print(f"{section} missing ({len(names)}): {', '.join(names)}")
elif __name__ == "__main__":
    here = Path(__file__).parent
    for pkg in PACKAGES:
        (here / f"{pkg.split('.')[-1]}.rst").write_text(page(pkg), encoding="utf-8")
    print("wrote", ", ".join(f"{p.split('.')[-1]}.rst" for p in PACKAGES), file=sys.stderr)
