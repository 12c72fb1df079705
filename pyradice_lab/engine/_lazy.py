"""Lazy public names for packages: ``import`` stays cheap, ``dir()`` and tab completion still see everything.

A package calls :func:`attach` once with the names it exports and the submodule that defines each; the
returned ``__getattr__`` imports a submodule on first use and caches the name in the package namespace, and
``__dir__`` lists every public name (loaded or not) and the role submodules.  Type checkers read the same names from an
``if TYPE_CHECKING:`` import block in the package.

A public name never equals a submodule's name (``raft.calibrate`` is a function, its module is
``raft.calibration``): importing a submodule binds it as a package attribute, which would otherwise replace
the function after first use.

>>> ns = {"__name__": "json"}
>>> getattr_, dir_, all_ = attach(ns, {"decoder": ["JSONDecodeError"]})
>>> getattr_("JSONDecodeError").__name__, "JSONDecodeError" in dir_()
('JSONDecodeError', True)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping

__all__ = ["attach", "lazy_names", "ROLE_MODULES"]

#: The modules every game package has (one role, one file name; see docs/architecture.md), reachable as attributes.
ROLE_MODULES = ("components", "rules", "kernel", "sim", "odds", "policies", "analysis", "sweeps", "pages", "metrics", "cli",
                "bench", "checks", "levers", "strength")


def attach(namespace: dict, names: Mapping[str, Iterable[str]], submodules: Iterable[str] = ()
           ) -> tuple[Callable[[str], object], Callable[[], list[str]], list[str]]:
    """``(__getattr__, __dir__, __all__)`` for a package whose public names load on first use.

    Parameters
    ----------
    namespace : dict
        The package's ``globals()``.
    names : mapping of submodule name -> public names it defines
        ``{"sim": ["simulate_games"], ...}``: ``package.simulate_games`` imports ``package.sim``.
    submodules : iterable of str
        Submodules reachable as attributes (``package.policies``) without an explicit import.

    Returns
    -------
    __getattr__, __dir__, __all__
        Assign them in the package (``__getattr__, __dir__, __all__ = attach(globals(), ...)``);
        ``__all__`` holds the eagerly defined public names already in ``namespace`` plus the lazy ones.
    """
    package = namespace["__name__"]
    where = {name: module for module, members in names.items() for name in members}
    clash = sorted(set(where) & (set(names) | set(submodules)))
    if clash:
        raise ValueError(f"names: public names {clash} equal submodule names; rename the submodule")
    mods = tuple(submodules)
    eager = [n for n in namespace.get("__all__", ()) if n not in where]
    public = list(dict.fromkeys([*eager, *where, *mods]))

    def __getattr__(name: str):
        if name in where:
            value = getattr(importlib.import_module(f"{package}.{where[name]}"), name)
            namespace[name] = value  # cached: later lookups do not come back here
            return value
        if name in mods:
            return importlib.import_module(f"{package}.{name}")
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        return sorted(public)

    return __getattr__, __dir__, public


def lazy_names(namespace: dict, module: str, names: Iterable[str]) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for a module that re-exports ``names`` of its sibling ``module`` on first use
    (PEP 562), e.g. when that sibling imports the module itself (an import cycle if re-exported eagerly).
    Appends ``names`` to the module's ``__all__``."""
    names = frozenset(names)
    package = namespace["__name__"].rpartition(".")[0]
    namespace.setdefault("__all__", []).extend(sorted(names))

    def __getattr__(name: str):
        if name in names:
            return getattr(importlib.import_module(f"{package}.{module}"), name)
        raise AttributeError(f"module {namespace['__name__']!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        return sorted(set(namespace) | names)

    return __getattr__, __dir__
