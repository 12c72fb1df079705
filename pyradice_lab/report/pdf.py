"""The PDF layout of the report, on ReportLab's platypus.

:func:`render_pdf` turns sections (:mod:`pyradice_lab.engine.results`) into an A4 document: a title page
(version, date, seeds, the sample size of every experiment), the summary of findings on page 2, a table
of contents, then one part per section.  Paragraphs wrap; tables split across pages with their header
repeated, headers wrap at ``_`` and spaces, columns are sized from their content and never drawn below
:data:`MIN_TABLE_FONT` points (too wide for a portrait page: a landscape page; too wide for that: column
groups); figures are embedded as vector drawings.  Every section and every experiment is a PDF bookmark;
every page has a running header (section, version) and a page number, and a quick report carries the
banner :data:`QUICK_BANNER` on every page.

The page machinery (the figure flowable, :func:`embed_figures`, the document template) lives in the private
module ``_pdf_doc``; this module lays out the story.
"""

from __future__ import annotations

import re
from xml.sax.saxutils import escape

import pandas as pd
from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import (
    CondPageBreak,
    Flowable,
    FrameBreak,
    NextPageTemplate,
    PageBreak,
    Paragraph,
    Spacer,
    Table as RLTable,
    TableStyle,
)
from reportlab.platypus.tableofcontents import TableOfContents

from ..engine._version import __version__
from ..engine.figures import PAGE_HEIGHT_IN
from ..engine.findings import MIN_CLAIM_N, component_findings, fdr_sentence, methods_note, rank, render
from ..engine.results import ExperimentResult, FigureItem, RasterFigure, Section, Table, Text, render_figure
from ._folded import FOLD_GAP as FOLD_GAP, folded as _folded
from ._pdf_doc import (
    CONTENTS_GAP as CONTENTS_GAP,
    CONTENTS_HEAD as CONTENTS_HEAD,
    _Doc,
    _Figure,
    embed_figures,
)
from .style import (
    BOLD,
    CAPTION,
    CELL,
    FINDING,
    FONT,
    GRID,
    H1,
    H2,
    H3,
    HEAD_BG,
    MARGIN_X,
    MIN_TABLE_FONT,
    NOTE,
    PORTRAIT,
    QUESTION,
    QUICK_BANNER,
    SMALL,
    SUBTITLE,
    TABLE_TITLE2,
    TITLE,
    TOC_STYLES,
    ZEBRA,
    Heading,
    frame_height,
    frame_width,
    markup,
    paragraphs,
)
from .tables import _wrap_cell, portrait_columns, table_flowables

__all__ = ["render_pdf", "findings_frame", "QUICK_BANNER", "MIN_TABLE_FONT", "SUMMARY_ROWS"]


class _Story:
    """Builds the flowables, switching page orientation only where a block needs it."""

    def __init__(self):
        self.items: list[Flowable] = []
        self.orientation = "portrait"
        self.keys = 0
        self.toc_entries: list[tuple] = []

    def key(self) -> str:
        self.keys += 1
        return f"k{self.keys}"

    def heading(self, text: str, style, level: int | None, section: str | None = None) -> Heading:
        """A heading; with a ``level`` also a bookmark and a contents entry."""
        key = self.key()
        h = Heading(text, style, level=level, key=key, section=section)
        if level is not None:
            self.toc_entries.append((level, h.outline[0], 0, key))
        return h

    def new_page(self, orientation: str = "portrait") -> None:
        self.items += [NextPageTemplate(orientation), PageBreak()]
        self.orientation = orientation

    def ensure(self, orientation: str) -> None:
        if orientation != self.orientation:
            self.new_page(orientation)

    def add(self, flowables, orientation: str = "portrait") -> None:
        self.ensure(orientation)
        self.items += list(flowables)


def _figure(fig, story: _Story, title: str | None = None, caption: str = "") -> None:
    rendered = render_figure(fig)
    flow: list[Flowable] = []
    if title:
        flow.append(Heading(title, H3, level=None, key=""))
    flow.append(_Figure(rendered, PAGE_HEIGHT_IN * 72))
    if caption:
        flow += paragraphs(caption, CAPTION)
    story.add(flow)


def _fmt_n(n, unit: str = "games") -> str:
    if n is None:
        return "not stated"
    return f"{n:,}" + (f" {unit}" if unit != "games" else "")


def experiment_assumptions(exp: ExperimentResult, seed=None) -> str:
    """The assumptions of an experiment's findings, as every CLI output states them: the components played (file
    and content hash: the report plays the packaged components of the game the experiment belongs to), the
    players its findings name, the seed and the games.

    >>> from pyradice_lab.engine.findings import Finding
    >>> exp = ExperimentResult("nogame_x", "X", "", None, None, {"n_games": 500},
    ...                        findings=[Finding("estimate", "a", 1.0, 0.5, 1.5, n=500, player="greedy")])
    >>> experiment_assumptions(exp, "0/12")
    'Assumptions: players greedy; seed 0/12; 500 games.'
    """
    from ..engine import registry
    from ..engine.assumptions import components_label

    parts = []
    game = next((g for g in registry.games() if exp.name.startswith(g + "_")), None)
    if game is not None:
        try:
            parts.append(f"components {components_label(game)}")
        except (LookupError, ValueError, OSError):
            pass
    players = list(dict.fromkeys(f.player for f in exp.findings if f.player))
    if players:
        parts.append(f"players {'; '.join(players)}")
    if seed is not None:
        parts.append(f"seed {seed}")
    if exp.exact:
        parts.append("exact (no games)")
    else:
        n = exp.resolved_sample_size()
        if n is not None:
            parts.append(_fmt_n(n, exp.sample_unit) if exp.sample_unit != "games" else f"{n:,} games")
    return f"Assumptions: {'; '.join(parts)}." if parts else ""


def _experiment(exp: ExperimentResult, story: _Story, seed=None) -> None:
    flow: list[Flowable] = [story.heading(exp.title, H2, 1)]
    if exp.question:
        flow += paragraphs("Question: " + exp.question, QUESTION)
    shown = rank(exp.findings)[:FINDINGS_SHOWN]  # the answer: claims first, then the largest and surest
    for f in shown:
        flow.append(Paragraph(markup(render(f)), FINDING, bulletText="▸"))
    more = ""
    if len(exp.findings) > len(shown):
        rest = [f for f in exp.findings if not any(f is g for g in shown)]
        claims = sum(f.is_claim for f in rest)
        more = (f"{len(rest)} more finding{'s' if len(rest) > 1 else ''} ({claims or 'none'} claiming a difference) "
                f"in {exp.name}/{exp.name}_findings.csv beside this PDF. ")
    if shown or more:  # the method of the findings above, footnote-sized (the sentences say what, not how)
        told = experiment_assumptions(exp, seed)
        flow.append(Paragraph(markup(more + methods_note(shown, short=True) + (" " + told if told else "")), SMALL))
    if exp.method.strip():
        flow += paragraphs(exp.method)
    n = exp.resolved_sample_size()
    if exp.claims_allowed():
        if exp.reading.strip():
            flow += paragraphs(exp.reading)
    else:
        least = min((f.min_n for f in exp.findings), default=MIN_CLAIM_N)
        what = "the reading is withheld" if exp.reading.strip() else "no conclusion is drawn from them"
        if exp.findings and all(f.no_claim for f in exp.findings):
            reason = exp.findings[0].no_claim
            text = (f"{reason[:1].upper()}{reason[1:]}: the findings show their numbers and make no claim"
                    + ("; the reading is withheld" if exp.reading.strip() else "") + ". Run the full report for "
                    "conclusions.")
        elif any(f.enough_data for f in exp.findings):  # some findings may claim, the others say they do not
            text = (f"Findings on fewer than {least:,} {exp.sample_unit} show their numbers and make no claim"
                    + ("; the reading is withheld" if exp.reading.strip() else "") + ".")
        else:
            text = (f"Sample size {_fmt_n(n, exp.sample_unit)} is below the minimum of {least:,} for a claim: the "
                    f"numbers are shown, {what}. Run the full report for conclusions.")
        flow.append(Paragraph(markup(text), NOTE))
    size = "exact (no sampling)" if exp.exact else f"sample size {_fmt_n(n, exp.sample_unit)}"
    csv = f"{exp.name}/{exp.name}.csv beside this PDF"
    frame = exp.table if exp.display is None else exp.display
    has_table = isinstance(frame, pd.DataFrame) and len(frame.columns) > 0
    if not has_table:  # otherwise the line goes under the table
        flow.append(Paragraph(markup(f"{size}; full data: {csv}."), SMALL))
    story.add(flow)
    if exp.figure is not None and exp.pdf_figure:
        _figure(exp.figure, story)
    size = size[:1].upper() + size[1:]
    what = "all rows" if exp.display is None else "all data"
    note = f"{size}; {what}: {csv}."
    if exp.figure is not None and not exp.pdf_figure:  # a figure that repeats the table: only beside the PDF
        note = f"{size}; {what} and the figure: {exp.name}/ beside this PDF."  # one line: its .csv and .png
    if has_table:
        # a compact table on the experiment's own page: columns that would need a landscape page are left
        # to the CSV (standard errors first; the intervals stay)
        keep = portrait_columns(frame, max_rows=exp.max_rows)
        if len(keep) < len(frame.columns):
            left = [str(c) for c in frame.columns if str(c) not in keep]
            frame = frame[[c for c in frame.columns if str(c) in keep]]
            note = f"{size}. Not shown here: {', '.join(left)}. All rows and columns: {csv}."
    tab, orient = table_flowables(Table(frame, title=f"{exp.title}: data"), max_rows=exp.max_rows, note=note)
    story.add(tab, orient)


#: findings stated on an experiment's page (ranked: claims first); the others are in its findings CSV
FINDINGS_SHOWN = 2

#: a section starts on the page where the previous one ends when at least this share of the page is left
SECTION_ROOM = 0.3


def _section(sec: Section, story: _Story, *, new_page: bool = True) -> None:
    if new_page or story.orientation != "portrait":
        story.new_page("portrait")
    else:  # no half-empty page at the end of every section
        story.items.append(CondPageBreak(SECTION_ROOM * frame_height("portrait")))
        story.items.append(Spacer(1, 10))
    story.items.append(story.heading(sec.title, H1, 0, section=sec.title))
    for idx, item in enumerate(sec.items):
        if isinstance(item, str):
            item = Text(item)
        if isinstance(item, Text):
            flow = []
            if item.heading and not (idx == 0 and item.heading.strip() == sec.title.strip()):
                flow.append(story.heading(item.heading, H2, 1))
            flow += paragraphs(item.text) if item.text.strip() else []
            story.add(flow)
        elif isinstance(item, ExperimentResult):
            _experiment(item, story, seed=sec.seed)
        elif isinstance(item, (FigureItem, RasterFigure)) or _is_mpl_figure(item):
            fi = item if isinstance(item, FigureItem) else FigureItem(item)
            _figure(fi.figure, story, fi.title, fi.caption)
        elif isinstance(item, Table) or _is_frame(item):
            t = item if isinstance(item, Table) else Table(item)
            flow, orient = _folded(t) or table_flowables(t)
            if t.title:  # a titled table is a contents entry and a bookmark
                flow[1] = story.heading(t.title, TABLE_TITLE2, 1)
            story.add(flow, orient)
        else:
            raise TypeError(f"report items must be str, Text, Figure, FigureItem, DataFrame, Table or "
                            f"ExperimentResult, got {type(item).__name__}")


def _is_mpl_figure(x) -> bool:
    from matplotlib.figure import Figure

    return isinstance(x, Figure)


def _is_frame(x) -> bool:
    import pandas as pd

    return isinstance(x, pd.DataFrame)


#: rows of the summary's ranked list of the other findings (those not in its "Findings that may change a
#: component" table; the rest are with their experiments and in the CSV)
SUMMARY_ROWS = 10
#: the summary's cells: a little smaller than the tables' so twenty findings fit about a page
SUMMARY_CELL = ParagraphStyle("summary_cell", parent=CELL, fontSize=7.5, leading=9)
H2_LOOSE = ParagraphStyle("h2_loose", parent=H2, keepWithNext=0)


def findings_frame(sections) -> pd.DataFrame:
    """Every finding of ``sections``, ranked as on the summary page, with where it is (section, experiment) and
    the ``id`` a balance run takes (``<game> balance --finding ID``; "" for a finding it cannot answer)."""
    from ..engine.findings import findings_table

    found = [(sec, exp, f) for sec, exp in _experiments(sections) for f in exp.findings]
    where = {id(f): (sec.title, exp.title, exp.name) for sec, exp, f in found}
    ranked = rank([f for _, _, f in found])
    if not ranked:
        return pd.DataFrame()
    table = findings_table(ranked)
    from ..design._balance_finding import id_of

    table.insert(0, "experiment", [where[id(f)][2] for f in ranked])
    table.insert(0, "section", [where[id(f)][0] for f in ranked])
    # the id `<game> balance --finding ID` takes (component findings a check measures with one metric)
    table.insert(0, "id", [id_of(where[id(f)][2], f) for f in ranked])
    table.insert(0, "rank", range(1, len(ranked) + 1))
    return table


# ----------------------------------------------------------------------------------------- front matter
def _trials(trials) -> str:
    if trials is None:
        return "–"
    if isinstance(trials, bool):
        return str(trials)
    if isinstance(trials, int) or (hasattr(trials, "dtype") and getattr(trials, "ndim", 1) == 0):
        return f"{int(trials):,}"
    if isinstance(trials, dict):
        return ", ".join(f"{k} {_trials(v)}" for k, v in trials.items())
    return str(trials)


def _experiments(sections) -> list[tuple[Section, ExperimentResult]]:
    return [(s, it) for s in sections for it in s.items if isinstance(it, ExperimentResult)]


def _short_title(sec: Section, exp: ExperimentResult) -> str:
    """The experiment's title without its section's name in front ("Meerkat Kingdom: hazards" -> "hazards")."""
    return exp.title[len(sec.title) + 1:].strip() if exp.title.startswith(sec.title + ":") else exp.title


def _game_titles() -> str:
    """The registered games' titles, as a person writes a list ("A, B, C and D")."""
    from ..engine import registry

    titles = [spec.title for spec in registry.games().values()]
    return ", ".join(titles[:-1]) + " and " + titles[-1] if len(titles) > 1 else "".join(titles)


def _title_page(sections, meta: dict, story: _Story) -> None:
    """Version, date, mode, seeds and run times; then every section (seed, trials, run time) with every one
    of its experiments (sample size, kind of conclusions), in one compact table that fits page 1."""
    import datetime as dt

    flow: list[Flowable] = [Paragraph(escape(meta.get("title", "pyradice_lab report")), TITLE),
                            Paragraph(escape(f"Exact probability and Monte Carlo for {_game_titles()}"), SUBTITLE)]
    wall = f"{meta['wall_seconds']:.1f} s wall; " if "wall_seconds" in meta else ""
    info = [("version", f"pyradice_lab {__version__}", "mode", str(meta.get("mode", ""))),
            ("date", meta.get("date", dt.datetime.now().strftime("%Y-%m-%d %H:%M")), "root seed",
             str(meta.get("seed", ""))),
            ("run time", wall + f"{sum(s.seconds or 0 for s in sections):.1f} s in sections"
             + (f" ({sum(getattr(s, 'cpu_seconds', None) or 0 for s in sections):.1f} s CPU)"
                if any(getattr(s, "cpu_seconds", None) is not None for s in sections) else ""), "jobs",
             str(meta.get("n_jobs", "")))]
    if meta.get("checks_cpu") and meta["checks_cpu"][0]:  # where the rest of the report's CPU went
        n_checks, cpu = meta["checks_cpu"]
        by_game = sorted((meta.get("checks_cpu_by_game") or {}).items(), key=lambda kv: -kv[1])
        per = f" ({', '.join(f'{g} {c:.0f}' for g, c in by_game)})" if by_game else ""
        info.append(("checks", f"{n_checks} robustness checks, {cpu:.1f} s CPU in the workers{per}", "", ""))
    grey = colors.HexColor("#555555")
    flow.append(RLTable([list(r) for r in info], colWidths=[55, 260, 55, 70], hAlign="CENTER",
                        style=TableStyle([("FONT", (0, 0), (-1, -1), FONT, 8.5),
                                          ("TEXTCOLOR", (0, 0), (0, -1), grey), ("TEXTCOLOR", (2, 0), (2, -1), grey),
                                          ("ALIGN", (0, 0), (0, -1), "RIGHT"), ("ALIGN", (2, 0), (2, -1), "RIGHT"),
                                          ("TOPPADDING", (0, 0), (-1, -1), 1), ("BOTTOMPADDING", (0, 0), (-1, -1), 1)])))
    flow.append(Spacer(1, 6))
    if meta.get("mode") == "quick":
        flow.append(Paragraph(markup(
            "Quick run: indicative only, small samples. Experiments below the minimum sample size of "
            f"{MIN_CLAIM_N} make no claim; build the full report for conclusions."), NOTE))
    flow.append(Paragraph(markup(
        "Every Monte Carlo number carries its SE and a 95% CI (p- and q-values: the findings CSV); the same seed "
        "reproduces every number. A difference is claimed only when its interval excludes 'no difference' on "
        f"at least {MIN_CLAIM_N} games and survives the false discovery rate control over the whole report (5%, "
        "Benjamini-Hochberg); a quick run claims nothing. Sample size: games (or trials) per compared group, the smallest group "
        "when they differ. Conclusions: k of m findings computed from the data claim a difference; numbers only "
        "(below the minimum sample: no claim); by hand (a reading not yet derived from findings); exact."), SMALL))
    story.add(flow)
    story.add([_sections_table(sections)])


def _sections_table(sections) -> RLTable:
    size, lead = 7.0, 8.6
    width = frame_width("portrait")
    cols = [width - 150, 70, 80]
    cells = [["section / experiment", "sample size", "conclusions"]]
    style = [("FONT", (0, 0), (-1, 0), BOLD, size, lead), ("FONT", (0, 1), (-1, -1), FONT, size, lead),
             ("BACKGROUND", (0, 0), (-1, 0), HEAD_BG), ("LINEBELOW", (0, 0), (-1, -1), 0.25, GRID),
             ("BOX", (0, 0), (-1, -1), 0.4, GRID), ("VALIGN", (0, 0), (-1, -1), "TOP"),
             ("LEFTPADDING", (0, 0), (-1, -1), 3), ("RIGHTPADDING", (0, 0), (-1, -1), 3),
             ("TOPPADDING", (0, 0), (-1, -1), 0.6), ("BOTTOMPADDING", (0, 0), (-1, -1), 1.2)]
    for sec in sections:
        if not any(isinstance(it, ExperimentResult) for it in sec.items):
            continue  # a part without experiments (the proposals: its games and time are in its own text)
        row = len(cells)
        seconds = f"{sec.seconds:.1f} s" if sec.seconds is not None else "–"
        if getattr(sec, "cpu_seconds", None) is not None:
            seconds += f" ({sec.cpu_seconds:.1f} s CPU)"
        cells.append([_wrap_cell(f"{sec.title}  ·  seed {sec.seed if sec.seed is not None else '–'}  ·  trials "
                                 f"{_trials(sec.trials)}  ·  run time {seconds}", width - 6, BOLD, size), "", ""])
        style += [("SPAN", (0, row), (-1, row)), ("FONT", (0, row), (-1, row), BOLD, size, lead),
                  ("BACKGROUND", (0, row), (-1, row), ZEBRA)]
        for exp in (it for it in sec.items if isinstance(it, ExperimentResult)):
            n = exp.resolved_sample_size()
            n_text = "exact" if exp.exact else _fmt_n(n, exp.sample_unit)
            if exp.findings and any(f.enough_data for f in exp.findings):  # each finding decides for itself
                status = f"{sum(f.is_claim for f in exp.findings)} of {len(exp.findings)} claim"
            elif exp.exact:
                status = "exact"
            else:
                status = "numbers only" if exp.findings or not exp.claims_allowed() else "by hand"
            title = _short_title(sec, exp)
            cells.append(["   " + _wrap_cell(title, cols[0] - 12, FONT, size), _wrap_cell(n_text, cols[1] - 6, FONT, size),
                          status])
    return RLTable(cells, colWidths=cols, repeatRows=1, hAlign="LEFT", style=TableStyle(style))


def _summary(sections, story: _Story, quick: bool = False) -> None:
    story.new_page("portrait")
    story.items.append(story.heading("Summary of findings", H1, 0, section="Summary of findings"))
    found = [(sec, exp, f) for sec, exp in _experiments(sections) for f in exp.findings]
    where = {id(f): f"{sec.title}: {_short_title(sec, exp)}" for sec, exp, f in found}
    allf = [f for _, _, f in found]
    n_exp = len(_experiments(sections))
    n_with = sum(1 for _, e in _experiments(sections) if e.findings)
    story.add(paragraphs(
        f"{n_with} of {n_exp} experiments state structured findings, computed from their data; the others "
        "have a reading written by hand, which is not ranked here. A finding claims a difference only when its "
        f"95% interval excludes 'no difference' on at least {MIN_CLAIM_N} games and its q-value (the "
        "Benjamini-Hochberg correction over all the report's Monte Carlo tests) is at most 5%; sizes are relative to each "
        "finding's scale (its fair share, baseline or stated reference). The last column re-checks the start-player "
        "and component findings on plausible reconstructions of the components the rules do not publish: 'yes' "
        "when the finding holds on every sampled set, 'no' when it is reversed on one even after Holm's correction "
        "across the sets, 'undecided' otherwise (pyradice_lab.report.checks)."))
    if any(f.tested or f.no_claim for f in allf):
        story.add(paragraphs(fdr_sentence(allf, quick=quick)))

    def block(title: str, items) -> None:
        # the heading stays with the table's first rows, not with the whole table (which may take a page)
        story.add([CondPageBreak(90), story.heading(title, H2_LOOSE, 1)])
        if not items:
            story.add(paragraphs("None at this sample size." if allf else "None yet."))
            return
        head = [Paragraph("<b>#</b>", SUMMARY_CELL), Paragraph("<b>finding</b>", SUMMARY_CELL),
                Paragraph("<b>where</b>", SUMMARY_CELL), Paragraph("<b>robust to the reconstructed components</b>",
                                                                   SUMMARY_CELL)]
        rows = [head]
        for i, f in enumerate(items, 1):
            robust = robust_cell(f)
            rows.append([Paragraph(str(i), SUMMARY_CELL), Paragraph(markup(render(f)), SUMMARY_CELL),
                         Paragraph(markup(where[id(f)]), SUMMARY_CELL), Paragraph(markup(robust), SUMMARY_CELL)])
        width = PORTRAIT[0] - 2 * MARGIN_X
        story.add([RLTable(rows, colWidths=[22, width - 22 - 92 - 96, 92, 96], repeatRows=1, hAlign="LEFT",
                           style=TableStyle([("BACKGROUND", (0, 0), (-1, 0), HEAD_BG),
                                             ("INNERGRID", (0, 0), (-1, -1), 0.25, GRID),
                                             ("BOX", (0, 0), (-1, -1), 0.4, GRID),
                                             ("TOPPADDING", (0, 0), (-1, -1), 1.5),
                                             ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
                                             ("VALIGN", (0, 0), (-1, -1), "TOP")]))])

    designer = component_findings(allf)
    block("Findings that may change a component", designer)
    shown = {id(f) for f in designer}
    ranked = [f for f in rank(allf) if id(f) not in shown]
    block("The other findings, ranked by size and certainty" if designer else
          "All findings, ranked by size and certainty", ranked[:SUMMARY_ROWS])
    if len(ranked) > SUMMARY_ROWS:
        rest = ranked[SUMMARY_ROWS:]
        story.add(paragraphs(
            f"The other {len(rest)} findings ({sum(f.is_claim for f in rest)} of them claims) are stated with "
            "their experiments; all findings, ranked, are in the findings CSV beside this PDF "
            "(<report>_findings.csv).", SMALL))


def robust_cell(f) -> str:
    """The summary's robustness column for a finding: "yes: holds on 10 of 10 sampled tile sets (...)", "no:
    ...", the assessment's own words when it gave no verdict ("undecided: ...", "no claim to test; ..."), or
    "not assessed".  The check's own description after its games count ("paired: every set with ...") and the
    why of a "not assessed: ..." (in brackets) are left to the findings CSV's ``robustness`` column and the
    experiment's page, and the sets are not called "sampled" again (the summary's introduction says they are), so
    a row of the summary stays a few lines high in its narrow column."""
    text = re.sub(r"\((\d[\d,]* games each)[^()]*\)", r"(\1)", f.robustness or "")
    text = re.sub(r"^(not assessed: [^()]*?)\s*\(.*\)$", r"\1", text).replace(" sampled ", " ")
    if f.robust is None:
        return text or "not assessed"
    return ("yes" if f.robust else "no") + (f": {text}" if text else "")


def _contents(story: _Story) -> None:
    story.new_page("contents")
    story.items.append(story.heading("Contents", H1, 0, section="Contents"))
    story.items.append(FrameBreak())
    story.toc = TableOfContents(levelStyles=TOC_STYLES, dotsMinLevel=0)
    story.items.append(story.toc)


def render_pdf(path, sections, meta: dict) -> None:
    """Lay out the title page, summary, contents and ``sections`` into the PDF at ``path``."""
    sections = list(sections)
    quick = meta.get("mode") == "quick"
    doc = _Doc(str(path), header=f"pyradice_lab {__version__}", quick=quick,
               title=meta.get("title", "pyradice_lab report"), author="pyradice_lab",
               subject=f"Strategy and balance analysis of {_game_titles()}",
               creator=f"pyradice_lab {__version__}")
    story = _Story()
    _title_page(sections, meta, story)
    _summary(sections, story, quick)
    _contents(story)
    for i, sec in enumerate(sections):
        _section(sec, story, new_page=i == 0)
    doc.build_all(story.items, story.toc, story.toc_entries)
    embed_figures(str(path), doc.placements)
