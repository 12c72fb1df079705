"""The estimated cost of a report, said before the work (:func:`report_cost`): the report's measured budget
(README: quick <= 45 s, full about 6 minutes on 2 idle cores), scaled by its games and workers."""

from __future__ import annotations

__all__ = ["REPORT_SECONDS", "report_cost"]

#: Measured wall seconds of a whole report of every game on 2 idle cores (README; docs/guide/designer.md,
#: "Budget"): what :func:`report_cost` says before the work.  A report of fewer games is scaled by its share of
#: the games.
REPORT_SECONDS = {"quick": 45.0, "full": 360.0}


def report_cost(quick: bool, games, tasks: int, n_jobs: int = 2) -> tuple[str, float]:
    """``(sentence, wall seconds)``: the estimated cost of a report, said before the work (logged on
    ``pyradice_lab.cost`` and shown by the progress display until its ETA is stable).

    >>> from pyradice_lab.engine import registry
    >>> text, seconds = report_cost(True, list(registry.games()), 9, 1)
    >>> text.startswith("report (quick, 4 games, 9 tasks): estimated 1.5 min on 1 worker "), seconds
    (True, 90.0)
    """
    import logging

    from ..engine import registry
    from ..engine.notices import COST_LOGGER, duration

    kind = "quick" if quick else "full"
    share = min(1.0, len(list(games)) / max(1, len(registry.games()))) if registry.games() else 1.0
    workers = max(1, int(n_jobs)) if isinstance(n_jobs, int) and n_jobs > 0 else 2
    seconds = REPORT_SECONDS[kind] * share * 2 / workers
    scaled = ", scaled by its share of the games" if share < 1 else ""
    text = (f"report ({kind}, {len(list(games))} games, {tasks} tasks): estimated {duration(seconds)} on {workers} "
            f"worker{'s' if workers > 1 else ''} (the budget measured for every game on 2 idle cores{scaled}; "
            f"first compiles included)")
    logging.getLogger(COST_LOGGER).info(text)
    return text, seconds


