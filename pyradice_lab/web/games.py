"""The old home of the desks, kept as a thin look-up: each game's desk now lives in its own package
(``<game>/desk.py``, declaring ``DESK``; the base class is :class:`pyradice_lab.engine.desk.Desk`).

``DESKS`` (game -> desk class, from the registry) and the names the desk modules export (``RaftDesk``,
``MAX_ROLLOUTS``, ...) are found through the registry on first use.

Examples
--------
>>> from pyradice_lab.web import games
>>> sorted(games.DESKS) == sorted(n for n, spec in registry.games().items() if spec.has_part("desk"))
True
"""

from __future__ import annotations

from ..engine import registry
from ..engine.desk import Desk

__all__ = ["Desk", "DESKS"]  # noqa: F822 - DESKS is found through the registry (__getattr__)


def _desk_modules():
    for spec in registry.games().values():
        if spec.has_part("desk"):
            yield spec, spec.module("desk")


def __getattr__(name: str):
    if name.startswith("__"):
        raise AttributeError(name)
    if name == "DESKS":
        return {spec.name: spec.part("desk") for spec, _ in _desk_modules()}
    for _, mod in _desk_modules():
        if name in getattr(mod, "__all__", ()):
            return getattr(mod, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
