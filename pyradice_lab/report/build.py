"""The PDF report: sections of findings, text, figures and tables laid out by a document engine.

A :class:`Section` holds items in order: plain text (``str`` or :class:`Text`), matplotlib figures
(:class:`FigureItem` or a bare ``Figure``), tables (:class:`Table` or a bare ``DataFrame``) and
:class:`ExperimentResult` (a named question: findings computed from the data, a reading, a figure and a
table, also saved as CSV + PNG under ``reports/<name>/`` by :func:`save_experiment`).  :func:`write_pdf`
lays them out with ReportLab (:mod:`pyradice_lab.report.pdf`): a title page listing the version, date,
seeds, trials and run time of every section and the sample size of every experiment; on page 2 the
summary of all findings (:mod:`pyradice_lab.engine.findings`), those that may change a component first; a table
of contents; PDF bookmarks for every section and experiment; tables that wrap and split across pages; vector
figures.  The file is written to a temporary name and renamed, so an interrupted build never leaves a half
PDF behind.

:func:`build_report` is what ``make report`` and ``pyradice-lab report`` run: the overview section plus
the report section of every registered game, built in worker processes with ``n_jobs``; then, once the claims
are controlled and checked, the part "Proposed component changes" (:mod:`pyradice_lab.report.proposals`: a
``balance`` proposal per claimed, robust component finding, its TOML in ``reports/proposals/``), placed first.

Examples
--------
>>> import pandas as pd, tempfile, os
>>> from pyradice_lab.report import Section, write_pdf
>>> sec = Section("Demo", ["Some text.", pd.DataFrame({"a": [1, 2]})])
>>> path = write_pdf(os.path.join(tempfile.mkdtemp(), "demo.pdf"), [sec], meta={"seed": 0})
>>> path.suffix
'.pdf'
"""

from __future__ import annotations

import datetime as _dt
import functools
import os
import shutil
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import matplotlib
import numpy as np

# the document is drawn off screen, in this process and in the report's worker processes (which import this
# module to run a section): the Agg backend, chosen here rather than when a game's experiments load, so a notebook
# importing them keeps its own backend
matplotlib.use("Agg")

from ..design.checks import (
    Check,
    NotChecked,
    assess_sections,
    check_of,
    checks_for,
    needed_checks,
    run_check_cached,
)
from ..engine.execution import Pool, Progress, check_execution
from ..engine.findings import MIN_CLAIM_N, Finding
from ..engine.results import (
    EXPERIMENT_TABLE_ROWS,
    ExperimentResult,
    FigureItem,
    RasterFigure,
    ReportContext,
    Section,
    Table,
    Text,
    figure_png,
    format_table,
    rasterise,
    render_figure,
    save_experiment,
    swap_in,
)
from ..engine.sweep import (
    remove_stale_temporaries,
    replace_with_default_mode,
    temporary_prefix,
    watch_parent,
)
from .players import add_margin_notes

__all__ = ["Text", "FigureItem", "Table", "ExperimentResult", "Section", "ReportContext", "write_pdf",
           "build_report", "save_experiment", "DEFAULT_REPORT", "format_table", "figure_png", "RasterFigure",
           "render_figure", "Finding", "MIN_CLAIM_N", "EXPERIMENT_TABLE_ROWS", "MAX_PAGES", "ReportLengthWarning",
           "check_page_count", "control_claims"]

DEFAULT_REPORT = Path("reports") / "pyradice_lab_report.pdf"

#: the report a designer reads in ten minutes (issue 13 §4): :func:`build_report` warns beyond this many pages
MAX_PAGES = 40


class ReportLengthWarning(UserWarning):
    """The built report has more than :data:`MAX_PAGES` pages."""


def check_page_count(path: str | os.PathLike, limit: int = MAX_PAGES) -> int:
    """The number of pages of the PDF at ``path``; warns (:class:`ReportLengthWarning`) when it exceeds ``limit``.

    :func:`build_report` calls it on every report it writes, so the full report's length, too slow to build in
    the test suite, is checked whenever it is built."""
    from pypdf import PdfReader

    if isinstance(limit, bool) or not isinstance(limit, (int, np.integer)) or limit < 1:
        raise ValueError(f"limit must be a positive integer, got {limit!r}")
    pages = len(PdfReader(str(path)).pages)
    if pages > limit:
        import warnings

        warnings.warn(f"the report {str(path)!r} has {pages} pages, more than the {limit} a designer reads in ten "
                      f"minutes: shorten a section (report.pdf: fewer rows shown, folded tables, smaller figures)",
                      ReportLengthWarning, stacklevel=2)
    return pages


def first_wave(names: Sequence[str], known=None) -> tuple[str, ...]:
    """The tasks of the worker pool's first wave for the games ``names``, by task name.

    The pool builds the report in two waves (the numbers never depend on the order: every task seeds itself).
    The first wave holds the tasks that compile each game's kernels, longest first, then the overview: each game
    declares in its report plan (``spec.part("plan")``, :class:`~pyradice_lab.engine.plan.ReportPlan`) which of its
    tasks compiles them (``compiles``: its section, or its first part, or its strength part; e.g. a strength part
    whose quick section would otherwise play a pure-Python twin) and that task's CPU seconds with an empty numba
    cache (``compile_cpu``).  The second wave holds the tasks that reuse those kernels (the other strength parts and
    section parts, the robustness checks): a second-wave task waits for the first-wave task of its game and loads
    the kernels from numba's cache, or finds them in the worker's memory, instead of compiling them a second time
    in the other worker at the same moment (numba writes its cache only once a compile has finished).  Task names:
    a section's name, ``<game>#<part>`` for a part of a section built in parts (``report_parts``), or
    ``strength:<game>``; a game whose plan states no compiling task has all its tasks in the second wave, waiting
    for nothing.
    """
    from ..engine import registry
    from ..engine.plan import ReportPlan

    known = registry.games() if known is None else known
    ranked = []
    for g in names:
        spec = known[g]
        plan = spec.part("plan", None) or ReportPlan()
        if plan.compiles == "strength":
            ranked.append((plan.compile_cpu, f"strength:{g}"))
        elif plan.compiles == "section":
            ranked.append((plan.compile_cpu, f"{g}#{spec.report_parts[0]}" if spec.report_parts else g))
    ranked.sort(key=lambda t: -t[0])  # stable: equal costs keep the games' order
    return (*(task for _, task in ranked), "overview")


def _build_section(name: str, builder, ctx: ReportContext, parent_pid: int | None = None) -> Section:
    if parent_pid is not None:
        watch_parent(parent_pid)  # a worker process: exit if the report is killed
    t0, c0 = time.perf_counter(), time.process_time()
    sec = add_margin_notes(builder(ctx))  # issue 48: a report player's margin note beside the findings it measured
    rasterise(sec)
    sec.seconds = time.perf_counter() - t0
    sec.cpu_seconds = time.process_time() - c0
    if sec.seed is None:
        sec.seed = ctx.seed_label(name)
    return sec


def _run_check(check, seed: int, parent_pid: int | None = None, cache_dir=None):
    if parent_pid is not None:
        watch_parent(parent_pid)
    return run_check_cached(check, seed=seed, cache_dir=cache_dir)


#: the folder beside the PDF that holds the proposals' TOML files (``reports/proposals/<finding id>.toml``)
PROPOSALS_DIR = "proposals"


def _swap_proposals(new: Path, target: Path, *, full: bool) -> None:
    """Move the proposals written by this run into ``target`` file by file: the folder also holds the experiments'
    worked-case proposals (``meerkat_tile_values.toml``), which stay.  A full run first removes the report's
    proposals of an earlier run (their names: ``<experiment>-<metric>-<N>p.toml``) that it did not write again."""
    import re

    target.mkdir(parents=True, exist_ok=True)
    mine = {f.name for f in new.iterdir()}
    if full:
        for old in target.glob("*-*p.toml"):
            if re.fullmatch(r"[a-z]+_[A-Za-z0-9_]+-[A-Za-z0-9_]+-\d+p\.toml", old.name) and old.name not in mine:
                old.unlink()
    for f in sorted(new.iterdir()):
        replace_with_default_mode(f, target / f.name)


def _by_game(cpu: dict, game_of: dict) -> dict:
    """The checks' CPU seconds (by check key) summed per game.

    >>> _by_game({"raft a": 1.0, "purramid b": 2.0, "raft c": 0.5}, {"raft a": "raft", "purramid b": "purramid",
    ...                                                            "raft c": "raft"})
    {'raft': 1.5, 'purramid': 2.0}
    """
    out: dict[str, float] = {}
    for key, seconds in cpu.items():
        out[game_of[key]] = out.get(game_of[key], 0.0) + seconds
    return out


def _call_task(fn, args):
    return fn(*args)


def _section_task(i: int, name: str, builder, ctx: ReportContext) -> Section:
    return _build_section(name, builder, ctx)


def _check_task(check, seed: int, cache_dir=None):
    c0 = time.process_time()
    result = _run_check(check, seed, cache_dir=cache_dir)
    return result, time.process_time() - c0  # the CPU: the title page says where the report's CPU goes


def _proposal_task(candidate, kw: dict):
    from ..design.proposals import run_proposal

    return run_proposal(candidate, n_jobs=1, **kw)  # one proposal per worker; its TOML is written by the report


def _rewrite_findings(folder: Path, sections) -> None:
    """Rewrite ``<folder>/<name>_findings.csv`` (if the experiment saved one) with the assessed findings."""
    from ..engine.findings import findings_table

    path = folder / f"{folder.name}_findings.csv"
    exp = next((it for s in sections for it in s.items
                if isinstance(it, ExperimentResult) and it.name == folder.name), None)
    if exp is None or not path.exists() or not exp.findings:
        return
    findings_table(exp.findings).to_csv(path, index=False)


def control_claims(sections, *, quick: bool = False) -> list[str]:
    """Control the false discovery rate over every Monte Carlo finding of ``sections`` (in place): each finding
    gets its p-value and Benjamini-Hochberg q-value over the whole report (:func:`findings.control_fdr`), a
    claim needs ``q <= FDR_LEVEL``; ``quick``: no finding claims (``"quick run: no claim"``).  Returns the names
    of the experiments with findings (their findings CSVs are to be rewritten)."""
    from ..engine.findings import control_fdr

    exps = [it for s in sections for it in s.items if isinstance(it, ExperimentResult) and it.findings]
    flat = [f for e in exps for f in e.findings]
    done = iter(control_fdr(flat, quick=quick))
    for e in exps:
        e.findings = tuple(next(done) for _ in e.findings)
    return [e.name for e in exps]


def write_pdf(path: str | os.PathLike, sections: Sequence[Section], *, meta: dict | None = None) -> Path:
    """Write the title page, summary, contents and every section to ``path`` (atomically); return the path.

    Parameters
    ----------
    path : path
        The ``.pdf`` file to write; written under a temporary name and renamed, so an interrupted write
        leaves no half PDF.
    sections : sequence of Section
        The report's sections, in order.
    meta : dict, optional
        ``title``, ``date``, ``mode`` ("quick" puts the quick-run banner on every page and makes no claim),
        ``seed``, ``n_jobs``, ``wall_seconds``; shown on the title page.  Findings not yet controlled get their
        q-values here (:func:`control_claims`, in place).

    Returns
    -------
    pathlib.Path
        The PDF written.

    Raises
    ------
    ValueError
        If ``path`` is not a ``.pdf`` path or a section's title is not a non-empty string.
    TypeError
        If ``sections`` is not a list of :class:`Section` or a section's items are not a list.

    Examples
    --------
    >>> import os, tempfile
    >>> from pyradice_lab.report import Section, write_pdf
    >>> write_pdf(os.path.join(tempfile.mkdtemp(), "demo.pdf"), [Section("Demo", ["Text."])]).name
    'demo.pdf'
    """
    from .pdf import findings_frame, render_pdf

    meta = dict(meta or {})
    path = Path(path)
    if path.suffix.lower() != ".pdf":
        raise ValueError(f"out must be a .pdf path, got {str(path)!r}")
    if isinstance(sections, (str, bytes, Section)) or not isinstance(sections, Sequence):
        raise TypeError(f"sections must be a list of Section objects, got {type(sections).__name__}")
    for i, s in enumerate(sections):
        if not isinstance(s, Section):
            raise TypeError(f"sections must be Section objects, got {type(s).__name__}")
        if not isinstance(s.title, str) or not s.title.strip():
            raise ValueError(f"sections[{i}].title must be a non-empty string, got {s.title!r}")
        if isinstance(s.items, (str, bytes)) or not isinstance(s.items, Sequence):
            raise TypeError(f"sections[{i}].items must be a list of report items, got {type(s.items).__name__}")
    found = [f for s in sections for it in s.items if isinstance(it, ExperimentResult) for f in it.findings]
    if any(f.tested and f.q_value is None and not f.no_claim for f in found):  # not yet controlled
        control_claims(sections, quick=meta.get("mode") == "quick")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=temporary_prefix(), suffix=".pdf")
    os.close(fd)
    try:
        render_pdf(tmp, sections, meta)
        found = findings_frame(sections)
        if len(found):  # every finding, ranked (the summary page shows the first SUMMARY_ROWS)
            csv = path.with_name(f"{path.stem}_findings.csv")
            fd, tmp_csv = tempfile.mkstemp(dir=path.parent, prefix=temporary_prefix(), suffix=".csv")
            os.close(fd)
            try:
                found.to_csv(tmp_csv, index=False)
                replace_with_default_mode(tmp_csv, csv)
            finally:
                if os.path.exists(tmp_csv):
                    os.unlink(tmp_csv)
        replace_with_default_mode(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return path


def build_report(out: str | os.PathLike = DEFAULT_REPORT, *, quick: bool = False, seed: int = 0, n_jobs: int = 1,
                 games: Sequence[str] | None = None, progress: bool = True, backend: str = "loky",
                 scheduler=None, cache_dir=None) -> Path:
    """Build the default report: overview plus every registered game's section.

    Parameters
    ----------
    out : path
        PDF to write (default ``reports/pyradice_lab_report.pdf``); experiment CSV/PNG files go in its folder.
    quick : bool
        Small trial counts (used by the tests; builds in well under a minute).
    seed : int
        Root seed; each section derives its own stream from it and its name.
    n_jobs : int
        Workers: sections are built in parallel (the numbers do not depend on it).
    games : list of str, optional
        Only these games (default: all registered).
    progress : bool
        A progress bar on a terminal.
    backend, scheduler : optional
        Where the sections are built with ``n_jobs > 1``: ``"loky"`` worker processes (default), a ``"dask"``
        cluster (``scheduler``: its address; the workers write the experiments' files into the output folder, so
        they must share its file system) or ``"threading"`` (:mod:`pyradice_lab.engine.execution`).
    cache_dir : path, optional
        Resume (issue 26): the robustness checks (most of the full report's CPU) are stored there as they finish
        (the execution layer's signed block files, keyed by the check, the root seed and the code); a killed
        build, rerun with the same arguments and ``cache_dir``, runs only the checks it had not finished, with
        identical numbers; the proposals' balance runs and re-checks are stored there too.

    The part "Proposed component changes" (:mod:`pyradice_lab.report.proposals`) comes first after the summary:
    full report, a ``balance`` proposal for each claimed component finding that holds on the plausible
    components (at most ``MAX_PROPOSALS``, each within ``PROPOSAL_BUDGETS`` games, on ``n_jobs`` workers of
    ``backend``), its TOML written to ``proposals/<finding id>.toml`` beside the PDF; quick report, the candidates
    listed, none run.

    Returns
    -------
    pathlib.Path
        The PDF written (its experiments' CSV and PNG files are in the same folder).

    Raises
    ------
    ValueError
        For a bad ``seed``, ``n_jobs``, ``out`` or an unknown game in ``games``, before any work.

    Examples
    --------
    >>> from pyradice_lab.report import build_report
    >>> build_report("report.txt")
    Traceback (most recent call last):
    ...
    ValueError: out must be a .pdf path, got 'report.txt'
    """
    from ..engine import registry

    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    execution = check_execution(n_jobs, backend, scheduler, progress=progress, cache_dir=cache_dir)
    cache_dir = execution.cache_dir
    out = Path(out)
    if out.suffix.lower() != ".pdf":
        raise ValueError(f"out must be a .pdf path, got {str(out)!r}")
    if out.is_dir():
        raise ValueError(f"out {str(out)!r} is a directory, not a .pdf file path")
    known = registry.games()
    names = list(known) if games is None else list(games)
    for g in names:
        if g not in known:
            raise ValueError(f"games must be among {sorted(known)}, got {g!r}")
    n_jobs = execution.n_jobs
    started = time.perf_counter()
    # the overview is a section like the games' ones: named by its target, imported when built
    builders = [("overview", registry.lazy("pyradice_lab.report.overview:report_section"))]
    # a game with report_parts (a long section) is built as one task per part, joined by its report_join
    game_parts: dict[str, list[int]] = {}
    part_names: dict[int, str] = {}
    for g in names:
        spec = known[g]
        if spec.report_section is None:
            continue
        for part in spec.report_parts:
            game_parts.setdefault(g, []).append(len(builders))
            part_names[len(builders)] = f"{g}#{part}"
            builders.append((g, functools.partial(spec.report_section, part=part)))
        if not spec.report_parts:
            builders.append((g, spec.report_section))
    rated = tuple(g for g in names if known[g].policies and known[g].lineup_outcomes is not None)
    # the players of every game, rated and restricted: one part after the games, built as one task per game
    # (so that the pool balances them with the games' sections) and joined by report.strength.combine
    strength_parts = []
    for g in rated:
        strength_parts.append(len(builders))
        builders.append(("strength", functools.partial(registry.lazy("pyradice_lab.report.strength:game_part"),
                                                       game=g, games=rated)))
    task_names = [f"strength:{b.keywords['game']}" if i in strength_parts else part_names.get(i, n)
                  for i, (n, b) in enumerate(builders)]
    # first_wave's docstring: a second-wave task waits for the first-wave task of its game (the one that
    # compiles the game's kernels), the others start at once
    first = [task_names.index(n) for n in first_wave(names, known) if n in task_names]
    game_of = {i: n.rpartition(":")[2].partition("#")[0] for i, n in enumerate(task_names)}
    compiles = {game_of[i]: i for i in first}
    waiting = {i: compiles[game_of[i]] for i in range(len(builders)) if i not in first and game_of[i] in compiles}
    # one run, one set of files: experiments are written into a run folder beside the PDF, and the PDF and
    # the experiment folders replace the previous ones only once everything is built (a killed run leaves
    # the previous report and its files as they were; its run folder is removed by the next run)
    root = out.parent
    root.mkdir(parents=True, exist_ok=True)
    remove_stale_temporaries(root)
    stage = Path(tempfile.mkdtemp(prefix=temporary_prefix() + "run-", dir=root))
    ctx = ReportContext(quick=quick, seed=int(seed), n_jobs=1, out_dir=stage)
    from ..engine.notices import intro
    from ._cost import report_cost

    said = report_cost(quick, names, len(builders), n_jobs)
    bar = Progress(len(builders), desc="report", what="tasks (sections, checks, proposals)", enabled=progress,
                   estimate=said[1], intro=intro(said[0]))
    try:
        # the robustness checks (full report only) test claims: a check starts once a finished section shows a
        # finding it assesses that could claim, sized by those claims (design.checks.needed_checks), in the same
        # worker pool as the sections; a check no finding needs does not run
        checks = [] if quick else checks_for(names)
        checked: dict[str, object] = {}
        check_cpu: dict[str, float] = {}
        done: dict[int, Section] = {}
        started_checks: set[str] = set()
        # once every section is built, its findings are controlled (q-values over the whole report; the checks do
        # not change them) and a proposal (issue 29) starts in the same pool as soon as its finding's verdict is in
        # and it is sure to be among the report's proposals (report.proposals.startable): beside the last checks
        # (a proposal plays one worker; one that would start with nothing else left to run waits for the end, where
        # each of its balance rounds is split over all the workers instead)
        controlled: dict[str, object] = {}
        ran: dict[str, object] = {}
        started_proposals: set[str] = set()
        outstanding = [len(builders)]   # sections and checks submitted and not yet returned

        def grow(n):
            bar.total += n
            if bar.bar is not None:
                bar.bar.total = bar.total

        def control():
            # the built sections in order: a game's parts joined where its first part is, the strength parts
            # joined at the end (by name, as their builders are: report.strength imports this module)
            secs, strength = [], [done[i] for i in strength_parts]
            for i in range(len(builders)):
                g = game_of[i]
                if i in strength_parts or (g in game_parts and i != game_parts[g][0]):
                    continue
                secs.append(known[g].report_join(ctx, [done[j] for j in game_parts[g]]) if g in game_parts
                            else done[i])
            if strength:
                secs.append(registry.lazy("pyradice_lab.report.strength:combine")(ctx, strength))
            # first the claims (q-values over the whole report), then their robustness: a check tests claims only
            controlled.update(sections=secs, names=control_claims(secs, quick=quick))
            if not quick:
                from ..design.checks import _all_checks
                from ..design.proposals import _others

                controlled["others"] = _others(secs, checks=_all_checks())

        def proposals_now():
            if quick or not controlled or outstanding[0] == 0:
                return []
            from ..design.checks import _all_checks
            from ..design.proposals import proposal_kwargs, startable

            secs = controlled["sections"]
            assess_sections(secs, checked)

            def pending(c):
                check = check_of(checks, c.experiment, c.finding)
                return isinstance(check, Check) and not isinstance(check, NotChecked) and check.key not in checked

            new = [c for c in startable(secs, pending, checks=_all_checks()) if c.id not in started_proposals]
            started_proposals.update(c.id for c in new)
            grow(len(new))
            return [(("proposal", c.id), (_proposal_task, (c, proposal_kwargs(c, controlled["others"], seed=int(seed),
                                                                               cache_dir=cache_dir))))
                    for c in new]

        released: dict = {}  # check or proposal key -> the order in which it was released (priority)

        def then(key, result):
            bar.update(1)
            if isinstance(key, tuple):  # a proposal
                ran[key[1]] = result
                return []
            outstanding[0] -= 1
            if isinstance(key, str):  # a check
                checked[key], check_cpu[key] = result
                return release(proposals_now())
            done[key] = result
            new = [i for i, after in waiting.items() if after == key]
            for i in new:
                del waiting[i]
            more = [c for c in needed_checks(checks, list(done.values())) if c.key not in started_checks]
            started_checks.update(c.key for c in more)
            grow(len(more))
            outstanding[0] += len(more)
            if len(done) == len(builders):
                control()
            # the checks first (they wait for nothing), then the tasks this one released, then the proposals
            return release([(c.key, (_check_task, (c, int(seed), cache_dir))) for c in more]
                           + [(i, (_section_task, (i, *builders[i], ctx))) for i in new] + proposals_now())

        def release(tasks):
            for key, _ in tasks:
                if not isinstance(key, int):  # a section's priority is its wave
                    released.setdefault(key, len(released))
            return tasks

        order = first + [i for i in range(len(builders)) if i not in first and i not in waiting]

        def priority(key):
            # the sections first (the compiling wave before the rest): the proposals can start in the pool only
            # once every section is built; then the checks and proposals in the order they were released (the
            # checks of the game built first first, so that no long check of an early game is left to the end)
            return (0 if key in first else 1, 0) if isinstance(key, int) else (2, released[key])

        with Pool(execution=execution) as pool:
            for _ in pool.imap_scheduled(_call_task, [(i, (_section_task, (i, *builders[i], ctx))) for i in order],
                                         then, priority=priority):
                pass
        bar.close()
        sections, names = controlled["sections"], controlled["names"]
        assess_sections(sections, checked, quick=quick)
        for name in names:  # the findings CSVs get the q-values and the verdicts too
            _rewrite_findings(stage / name, sections)
        # issue 29: the proposals part, from the controlled and checked component findings (quick: listed only);
        # those not run in the pool above run here, their balance rounds on the report's n_jobs / backend; all
        # resume from cache_dir
        from ..design.checks import _all_checks
        from ..design.proposals import proposals_section

        if not quick:  # the folder even when no proposal runs: the previous report's proposals are then removed
            (stage / PROPOSALS_DIR).mkdir(exist_ok=True)
        sections = [proposals_section(sections, checks=_all_checks(), seed=int(seed), quick=quick,
                                      out_dir=stage / PROPOSALS_DIR, out_name=PROPOSALS_DIR, n_jobs=n_jobs,
                                      backend=execution.backend, scheduler=scheduler, cache_dir=cache_dir,
                                      ran=ran)] + sections
        # where the rest of the CPU went: the robustness checks and the proposals run in the workers
        meta = {"seed": seed, "n_jobs": n_jobs, "mode": "quick" if quick else "full",
                "checks_cpu": (len(check_cpu), sum(check_cpu.values())),
                "checks_cpu_by_game": _by_game(check_cpu, {c.key: c.game for c in checks}),
                "wall_seconds": time.perf_counter() - started,
                "date": _dt.datetime.now().strftime("%Y-%m-%d %H:%M")}
        staged_pdf = write_pdf(stage / out.name, sections, meta=meta)
        for item in sorted(stage.iterdir()):
            if item.name == PROPOSALS_DIR and item.is_dir():
                _swap_proposals(item, root / PROPOSALS_DIR, full=not quick)
            elif item != staged_pdf:
                swap_in(item, root / item.name)
        os.replace(staged_pdf, out)
    finally:
        bar.close()
        shutil.rmtree(stage, ignore_errors=True)
    check_page_count(out)
    from .players import check_report_players

    check_report_players(out)  # issue 27: no component or start-player finding rests on a heuristic only
    return out
