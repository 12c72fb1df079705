"""Which players the report's designer findings rest on (issue 27): the report player, never a heuristic alone.

Every finding of the report that names a component or the start player
(:func:`~pyradice_lab.engine.findings.is_designer_finding`) is measured with its game's report player
(``registry.get_game(g).report_player``: all seats, or one strong seat in a field), the heuristic's result beside
it (``sensitivity_player``).  :func:`heuristic_only_findings` lists the rows of a findings table (the report's
findings CSV) that break this rule; :func:`~pyradice_lab.report.build.build_report` warns about them
(:class:`ReportPlayerWarning`) and the tests require none in the quick report.

Examples
--------
>>> import pandas as pd
>>> t = pd.DataFrame({"experiment": ["raft_start_player", "raft_start_player", "raft_tilt_model"],
...                   "quantity": ["start player's win share, 2 players", "start player's win share, 3 players",
...                                "expected gems fallen"], "component": ["", "", "wall gaps"],
...                   "player": ["exact", "greedy", "4 players, setup layout"]})
>>> heuristic_only_findings(t)["player"].tolist()
['greedy']
"""

from __future__ import annotations

import re

import pandas as pd

from ..engine.findings import game_heuristics, heuristic_only

__all__ = ["heuristic_only_findings", "ReportPlayerWarning", "game_of", "check_report_players", "add_margin_notes"]

_START = re.compile(r"\bstart[- ]player", re.IGNORECASE)


class ReportPlayerWarning(UserWarning):
    """A finding that names a component or the start player rests on a heuristic player only."""


def game_of(experiment: str) -> str | None:
    """The registered game an experiment belongs to (its name's prefix: ``raft_start_player`` -> ``raft``)."""
    from ..engine import registry

    head = str(experiment).split("_", 1)[0]
    return head if head in registry.games() else None


def add_margin_notes(section):
    """``section`` with each game's report-player margin notes beside the findings they concern (in place; returns
    it): a finding measured with a game's report player at a count whose stored entry carries a ``margin_note``
    (``<game>/strength.py``, :func:`~pyradice_lab.engine.reportplayers.with_margin_notes`), e.g. a strong player
    barely above the heuristic at that count."""
    from ..engine import registry
    from ..engine.reportplayers import with_margin_notes
    from ..engine.results import ExperimentResult

    for item in getattr(section, "items", ()):
        g = game_of(item.name) if isinstance(item, ExperimentResult) and item.findings else None
        entries = registry.get_game(g).report_players() if g else {}
        if any(e.margin_note for e in entries.values()):
            item.findings = tuple(with_margin_notes(item.findings, entries))
    return section


def heuristic_only_findings(table: pd.DataFrame) -> pd.DataFrame:
    """The rows of a findings table (columns ``experiment``, ``quantity``, ``component``, ``player``) whose finding
    names a component or the start player and whose player label names heuristics only (no report player of its
    game nor a stronger one; :func:`~pyradice_lab.engine.findings.heuristic_only`); the registry gives each game's
    report player, its ``heuristic_player`` and the policies registered weaker than the report player (the
    heuristics) and stronger (:func:`~pyradice_lab.engine.findings.game_heuristics`)."""
    from ..engine import registry

    if table is None or not len(table):
        return pd.DataFrame()
    games = registry.games()
    bad = []
    for i, r in table.iterrows():
        g = game_of(r["experiment"])
        comp = r.get("component")
        named = (isinstance(comp, str) and comp.strip() != "") or bool(_START.search(str(r["quantity"])))
        if g is None or not named:
            continue
        spec = games[g]
        player = r.get("player")
        player = player if isinstance(player, str) else ""
        heuristics, strong = game_heuristics(spec)
        if heuristic_only(player, spec.report_player, heuristics, strong=strong):
            bad.append(i)
    return table.loc[bad]


def check_report_players(pdf) -> pd.DataFrame:
    """The heuristic-only designer findings of the report at ``pdf`` (its ``<name>_findings.csv``); warns
    (:class:`ReportPlayerWarning`) when there are any.  :func:`~pyradice_lab.report.build.build_report` calls it
    on every report it writes."""
    from pathlib import Path

    csv = Path(pdf).with_name(f"{Path(pdf).stem}_findings.csv")
    if not csv.exists():
        return pd.DataFrame()
    bad = heuristic_only_findings(pd.read_csv(csv, keep_default_na=False))
    if len(bad):
        import warnings

        names = ", ".join(sorted(set(bad["experiment"])))
        warnings.warn(f"{len(bad)} finding(s) naming a component or the start player rest on a heuristic player "
                      f"only (not the game's report player): {names}", ReportPlayerWarning, stacklevel=2)
    return bad
