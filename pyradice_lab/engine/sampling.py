"""Plausible component sets: the primitive every game's ``components.sample_plausible`` ends with.

A game draws the free choices of its reconstructed components and calls :func:`finish_sample`, which applies
them through the components' own validation path (``Components.replace``) and, when asked, returns a
:class:`PlausibleSample` carrying the choices by name.  :func:`pyradice_lab.design.robustness.robustness` then
re-checks a finding on many such sets.  It sits in the engine so that the games never import the designer's
tools above them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["PlausibleSample", "finish_sample", "designer_paths"]


@dataclass(frozen=True)
class PlausibleSample:
    """One plausible component set and the free choices drawn for it.

    Attributes
    ----------
    components : the game's Components
        Validated like any other component set (``source = "designer"`` on the changed tables).
    choices : dict of str -> float
        The free choices drawn, by name (numbers, so that robustness can rank which choice a finding
        depends on most).
    """

    components: Any
    choices: dict = field(default_factory=dict)

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v:.3g}" for k, v in list(self.choices.items())[:6])
        more = "" if len(self.choices) <= 6 else f", ... ({len(self.choices)} choices)"
        return f"PlausibleSample({type(self.components).__module__.split('.')[1]}: {shown}{more})"


def designer_paths(comp) -> list[str]:
    """The dotted keys whose value a designer set (``source = "designer"``: a designer's file, or
    ``replace()``), in the components' own order; ``[]`` for the packaged components."""
    fmt = getattr(type(comp), "FORMAT", None)
    if fmt is None or not hasattr(fmt, "rows"):
        return []
    return [key for key, _, source, _ in fmt.rows(comp._document) if source == "designer"]


def _fixed(path: str, fixed: list[str]) -> bool:
    return any(k == path or k.startswith(path + ".") or path.startswith(k + ".") for k in fixed)


def finish_sample(base, changes: Mapping, choices: Mapping, return_choices: bool):
    """Apply ``changes`` to ``base`` through its validation path; return components or a PlausibleSample.

    A change at a path whose value the designer set in ``base`` (:func:`designer_paths`: their file or a
    ``replace()``) is dropped: a plausible set redraws only the reconstruction's free choices the designer left
    open, and every value they set stays as they set it.
    """
    fixed = designer_paths(base)
    if fixed:
        changes = {k: v for k, v in changes.items() if not _fixed(str(k), fixed)}
    comp = base.replace(dict(changes)) if changes else base
    if not isinstance(return_choices, bool):
        raise TypeError(f"return_choices must be True or False, got {return_choices!r}")
    return PlausibleSample(comp, {k: float(v) for k, v in choices.items()}) if return_choices else comp
