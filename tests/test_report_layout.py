"""The document engine's layout, read back from the PDF: margins, font sizes, wrapped headers, landscape
pages, bookmarks, the summary page, the quick-run banner; and the layout checker itself can fail."""

import sys
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from pypdf import PdfReader

from pyradice_lab.engine.findings import Finding
from pyradice_lab.report.build import ExperimentResult, FigureItem, Section, Table, Text, write_pdf
from pyradice_lab.report.style import QUICK_BANNER

sys.path.insert(0, str(Path(__file__).parent))
from pdf_layout import font_size, layout_problems, outline, page_texts, section_pages  # noqa: E402


def hard_tables():
    rng = np.random.default_rng(0)
    long_names = pd.DataFrame({f"{q}_win_share_ci_{side}": rng.random(8) for q in ("start_player", "second_seat",
                                                                                  "third_seat", "automa_player")
                               for side in ("low", "high")})
    long_names.insert(0, "setup", ["2 players + automa (rules), greedy vs greedy"] * 8)
    very_wide = pd.DataFrame({f"metric_number_{i}_ci_high": rng.random(4) * 10 ** (i % 5) for i in range(40)})
    very_wide.insert(0, "label", ["a long label that must wrap"] * 4)
    long = pd.DataFrame({"row": range(150), "text": ["some words " * (1 + i % 9) for i in range(150)],
                         "value": rng.normal(size=150), "missing": [None, np.nan, np.inf, 1.5, "x"] * 30})
    return long_names, very_wide, long


def build(tmp_path, *, mode="full", findings=(), n=1000):
    long_names, very_wide, long = hard_tables()
    fig, ax = plt.subplots(figsize=(11, 3))  # wider than the page: resized, not shrunk
    ax.plot([1, 2], [0.4, 0.6], label="two points")
    ax.set_xlabel("players (count)")
    ax.set_ylabel("win share (%)")
    ax.legend(fontsize=5)
    exp = ExperimentResult("demo_seats", "Demo: seat advantage", "How the games were played.",
                           pd.DataFrame({"seat": [1, 2], "win_share": [0.537, 0.463], "games": [n, n]}), fig,
                           findings=list(findings), question="Does the start player win more often?")
    exact = ExperimentResult("demo_exact", "Demo: exact odds", "Exact.", pd.DataFrame({"p": [0.25]}), None,
                             meta={"exact": True})
    sec = Section("Demo game", [Text("Intro text.\n\n- a list item\n- another", heading="Demo game"), exp,
                                Table(long_names, title="Long column names"), Table(very_wide, title="Forty columns"),
                                Table(long, title="A long table"), exact], seed="0/1", trials=n)
    fig2, ax2 = plt.subplots()
    ax2.bar(["a", "b"], [1, 2])
    ax2.set_ylabel("count")
    other = Section("Second part", [FigureItem(fig2, caption="A caption.", title="A figure"), "Plain text."])
    return write_pdf(tmp_path / "r.pdf", [sec, other], meta={"mode": mode, "seed": 0})


F_COMPONENT = Finding("difference", "tile 12 points per piece", 1.9, 1.7, 2.1, n=1000, null=1.0,
                      null_label="the mean tile", component="tile 12 values", player="greedy")
F_SEAT = Finding("difference", "start-player win share", 0.537, 0.512, 0.561, n=1500, null=0.5, unit="%",
                 null_label="a fair share", player="greedy")
F_NONE = Finding("difference", "second-seat win share", 0.49, 0.46, 0.52, n=1500, null=0.5, unit="%",
                 null_label="a fair share")


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    return build(tmp_path_factory.mktemp("layout"), findings=[F_NONE, F_SEAT, F_COMPONENT])


def test_hard_tables_and_figures_pass_every_layout_check(report):
    assert layout_problems(report) == []


def test_nothing_is_smaller_than_7pt_and_tables_use_at_most_8pt(report):
    import pdfplumber

    with pdfplumber.open(str(report)) as pdf:
        sizes = [font_size(c) for page in pdf.pages for c in page.chars]
    assert min(sizes) >= 7 - 0.01


def test_wide_tables_go_on_landscape_pages_and_very_wide_ones_split_into_column_groups(report):
    reader = PdfReader(str(report))
    texts = page_texts(report)
    landscape = [i for i, p in enumerate(reader.pages) if float(p.mediabox.width) > float(p.mediabox.height)]
    assert landscape, "no landscape page for the 40-column table"
    groups = [t for t in texts if "Columns " in t and " of 41 (group " in t]
    assert groups and all("label" in t for t in groups)  # the label column repeats in every group
    assert any("number 39," in " ".join(t.split()) for t in texts)  # the last column made it (in words)


def test_long_header_names_wrap_at_underscores_instead_of_overlapping(report):
    texts = "\n".join(page_texts(report))
    # a header is shown in words (start_player_win_share_ci_low: "start player win share, 95% CI low"), wrapped
    # at spaces over several lines with its pieces in order, never running into its neighbour
    flat = " ".join(texts.split())
    assert "start player win share, 95% CI low" in flat and "start_player" not in flat
    assert "start player win share, 95% CI low" not in texts  # too wide for one line: it wrapped


def test_missing_values_never_print_as_nan_none_or_inf(report):
    words = set("\n".join(page_texts(report)).split())
    assert not words & {"nan", "NaN", "None", "inf"}


def test_bookmarks_cover_every_section_and_experiment(report):
    marks = outline(report)
    titles = [(lvl, t) for lvl, t, _ in marks]
    assert (0, "Summary of findings") in titles and (0, "Contents") in titles
    assert (0, "Demo game") in titles and (0, "Second part") in titles
    parts = section_pages(report)
    assert {"Demo: seat advantage", "Demo: exact odds", "Long column names"} <= set(parts["Demo game"][2])
    assert "Contents" in page_texts(report)[2]


def test_summary_on_page_2_lists_component_findings_first_and_claims_before_non_claims(report):
    p2 = page_texts(report)[1]
    other = "The other findings, ranked"
    assert p2.index("Findings that may change a component") < p2.index(other)
    comp = p2.index("Tile 12 points per piece")
    assert comp < p2.index(other)
    ranked = p2[p2.index(other):]
    # the component findings are not repeated in the ranked list of the others
    assert "Tile 12" not in ranked and ranked.index("Start-player") < ranked.index("Second-seat")
    assert "no difference from a fair share" in ranked and "not assessed" in ranked


def test_title_page_lists_every_experiment_with_its_sample_size(report):
    p1 = page_texts(report)[0]
    assert "Demo: seat advantage" in p1 and "1,000" in p1
    assert "Demo: exact odds" in p1 and "exact" in p1


def test_quick_banner_on_every_page_only_in_quick_mode(tmp_path, report):
    quick = build(tmp_path, mode="quick", n=3)
    texts = page_texts(quick)
    assert all(QUICK_BANNER in t for t in texts)
    assert not any(QUICK_BANNER in t for t in page_texts(report))
    # below the minimum sample size: the numbers, no reading; the title page says so
    assert "How the games were played." not in "\n".join(texts)
    assert "below the minimum of 100" in "\n".join(texts)
    assert "numbers only" in texts[0]


def test_figures_are_vector_with_their_text_kept_as_text(report):
    import pdfplumber

    with pdfplumber.open(str(report)) as pdf:
        text = "\n".join(p.extract_text() or "" for p in pdf.pages)
    assert "players (count)" in text and "1.0 1.2 1.4" in text  # axis label and ticks of the embedded figure


def make_bad_pdf(path):
    """A PDF that breaks every rule: tiny text, text off the page, overlapping words, an empty page."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 5)
    c.drawString(100, 400, "tiny text")
    c.setFont("Helvetica", 10)
    c.drawString(560, 300, "runs off the page")
    c.drawString(100, 200, "column_one")
    c.drawString(120, 200, "column_two")
    c.showPage()
    c.setFont("Helvetica", 8)
    c.drawString(100, 820, "header only")
    c.showPage()
    c.save()
    return path


def test_layout_checker_finds_each_kind_of_problem(tmp_path):
    problems = "\n".join(layout_problems(make_bad_pdf(tmp_path / "bad.pdf")))
    assert "smaller than 7 pt" in problems
    assert "outside the page box" in problems
    assert "characters overlap" in problems
    assert "page 2: empty" in problems


def test_bad_findings_are_rejected_by_the_experiment():
    with pytest.raises(TypeError, match="findings"):
        ExperimentResult("x", "X", "r", pd.DataFrame({"a": [1]}), findings=["a sentence"])
    with pytest.raises(ValueError, match="sample_size"):
        ExperimentResult("x", "X", "r", pd.DataFrame({"a": [1]}), sample_size=-1)


def test_prerendered_png_figures_and_bare_items_still_work(tmp_path):
    import io

    from pyradice_lab.report.build import RasterFigure

    fig, ax = plt.subplots(figsize=(4, 3))
    ax.plot([0, 1, 2], [0, 1, 0])
    ax.set_xlabel("x (units)")
    ax.set_ylabel("y (units)")
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100)
    sec = Section("Old style", [RasterFigure(buf.getvalue()), pd.DataFrame({"a": [1, 2]}), "text"])
    path = write_pdf(tmp_path / "old.pdf", [sec])
    assert layout_problems(path) == [] and any("Old style" in t for t in page_texts(path))
    reader = PdfReader(str(path))
    assert len(reader.pages) == 4 and len(reader.pages[3].images) == 1  # title, summary, contents, section


def test_claims_are_allowed_by_each_findings_own_minimum_or_else_by_the_sample_size():
    df = pd.DataFrame({"a": [1], "games": [3]})
    assert not ExperimentResult("x", "X", "r", df).claims_allowed()  # 3 games, hand-written reading
    assert ExperimentResult("x", "X", "r", df, meta={"exact": True}).claims_allowed()
    cells = Finding("difference", "coverage", 0.9, 0.7, 0.97, n=20, null=0.95, sample_unit="cells", min_n=10)
    exp = ExperimentResult("x", "X", "r", df, findings=[cells])
    assert exp.claims_allowed() and exp.resolved_sample_size() == 20 and exp.sample_unit == "cells"
    few = Finding("difference", "win share", 0.9, 0.6, 0.98, n=30, null=0.5)
    assert not ExperimentResult("x", "X", "r", df, findings=[cells, few]).claims_allowed()
    assert ExperimentResult("x", "X", "r", df, sample_size=500).claims_allowed()


def test_a_figure_whose_text_reaches_out_is_narrowed_to_print_at_full_size():
    from pyradice_lab.engine.figures import PAGE_WIDTH_IN
    from pyradice_lab.report.build import render_figure

    fig, ax = plt.subplots(figsize=(6.5, 3))
    ax.plot([0, 1, 2], [0, 1, 0])
    ax.set_xlabel("x (units)")
    ax.set_ylabel("y (units)")
    fig.text(1.02, 0.5, "a note placed right of the figure")
    r = render_figure(fig)
    assert r.size[0] <= PAGE_WIDTH_IN * 72 * 1.005 and r.pdf.startswith(b"%PDF")


def test_the_title_page_holds_45_experiments_and_the_summary_stays_on_page_2(tmp_path):
    df = pd.DataFrame({"a": [1], "games": [500]})
    secs = [Section(f"Game {g}", [ExperimentResult(f"g{g}_e{i}", f"Game {g}: a fairly long experiment title number {i}",
                                                   "r", df) for i in range(9)], seed=f"0/{g}", trials="1,000 games")
            for g in range(5)]
    path = write_pdf(tmp_path / "many.pdf", secs, meta={"mode": "quick"})
    texts = page_texts(path)
    assert "number 8" in texts[0] and texts[0].count("500") == 45
    assert texts[1].split("\n")[2].startswith("Summary of findings") or "Summary of findings" in texts[1][:200]


def test_an_experiment_table_too_wide_for_portrait_leaves_columns_to_its_csv(tmp_path):
    from pyradice_lab.report.tables import portrait_columns

    rng = np.random.default_rng(1)
    wide = pd.DataFrame({"setup": ["2 players"] * 4, **{f"metric_{i}_value": rng.random(4) for i in range(14)},
                         **{f"metric_{i}_se": rng.random(4) for i in range(6)}})
    keep = portrait_columns(wide)
    assert keep[0] == "setup" and len(keep) < len(wide.columns)
    assert not any(c.endswith("_se") for c in keep), "standard errors go first (the intervals stay)"
    exp = ExperimentResult("demo_wide", "Demo: a wide table", "r", wide)
    path = write_pdf(tmp_path / "w.pdf", [Section("Demo", [exp])])
    assert all(page.mediabox.width < page.mediabox.height for page in PdfReader(str(path)).pages), "no landscape page"
    text = "\n".join(page_texts(path))
    assert "Not shown here:" in text and "demo_wide/demo_wide.csv" in text
    assert layout_problems(path) == []
    # a table that fits is shown whole
    assert portrait_columns(wide.iloc[:, :4]) == list(wide.columns[:4])


def test_the_summary_lists_the_first_findings_and_the_csv_beside_the_pdf_has_all(tmp_path):
    from pyradice_lab.report.pdf import SUMMARY_ROWS

    fs = [Finding("difference", f"quantity number {i}", 0.5 + i / 1000, 0.49 + i / 1000, 0.51 + i / 1000, n=1000,
                  null=0.5, unit="%") for i in range(SUMMARY_ROWS + 7)]
    exp = ExperimentResult("demo_many", "Demo: many findings", "r", pd.DataFrame({"games": [1000]}), findings=fs)
    path = write_pdf(tmp_path / "s.pdf", [Section("Demo", [exp])])
    csv = pd.read_csv(tmp_path / "s_findings.csv")
    assert len(csv) == SUMMARY_ROWS + 7 and list(csv["rank"]) == list(range(1, SUMMARY_ROWS + 8))
    assert csv["claim"].iloc[0] and (csv["experiment"] == "demo_many").all()
    parts = section_pages(path)
    first, last, _ = parts["Summary of findings"]
    summary = "\n".join(page_texts(path)[first - 1:last])
    assert "The other 7 findings" in summary and "_findings.csv" in summary
    assert summary.count("Quantity number") == SUMMARY_ROWS


def test_an_experiment_page_states_its_first_findings_and_names_the_csv_of_the_others(tmp_path):
    from pyradice_lab.report.pdf import FINDINGS_SHOWN

    fs = [Finding("difference", f"quantity number {i}", 0.5 + i / 100, 0.49 + i / 100, 0.51 + i / 100, n=1000,
                  null=0.5, unit="%") for i in range(FINDINGS_SHOWN + 3)]
    exp = ExperimentResult("demo_many", "Demo: many findings", "r", pd.DataFrame({"games": [1000]}), findings=fs)
    path = write_pdf(tmp_path / "f.pdf", [Section("Demo", [exp])])
    first, last, _ = section_pages(path)["Demo"]
    page = "\n".join(page_texts(path)[first - 1:last])
    # ranked: the largest differences are stated, the 3 others are named in the experiment's findings CSV
    assert f"Quantity number {FINDINGS_SHOWN + 2}" in page and "Quantity number 0:" not in page
    rest = sum(f.is_claim for f in fs[:3])
    assert rest == 1 and fs[3].is_claim  # number 1 is the one claim among the first three
    assert "3 more findings (1 claiming a difference) in demo_many/demo_many_findings.csv" in page.replace("\n", " ")


def test_a_folded_table_prints_its_rows_side_by_side_and_a_figure_can_stay_beside_the_pdf(tmp_path):
    rows = pd.DataFrame({"component": [f"tile {i}" for i in range(40)], "value": [f"{i}/{i // 2}" for i in range(40)],
                         "source": ["rules", "reconstruction"] * 20})
    fig, ax = plt.subplots()
    ax.plot([0, 1, 2], [1, 0, 1])
    ax.set_xlabel("x (units)")
    ax.set_ylabel("y (units)")
    exp = ExperimentResult("demo_fig", "Demo: a figure only beside the PDF", "r", pd.DataFrame({"a": [1]}), fig,
                           pdf_figure=False)
    path = write_pdf(tmp_path / "t.pdf", [Section("Demo", [Table(rows, title="Components", fold=2), exp])])
    assert layout_problems(path) == []
    import pdfplumber

    with pdfplumber.open(str(path)) as pdf:
        demo = [p for p in pdf.pages if "Components" in (p.extract_text() or "")][-1]
        words = demo.extract_words()
        tiles = [w for w in words if w["text"] in ("tile", "component")]
        assert len({round(w["x0"]) for w in tiles}) == 2, "two blocks of rows side by side"
        assert sum(w["text"] == "component" for w in words) == 2  # each block has the header
        assert not any(p.images or len(p.curves) > 3 for p in pdf.pages[3:])  # no figure printed
    assert "and the figure: demo_fig/ beside this PDF" in "\n".join(page_texts(path))  # one line: .csv and .png
    with pytest.raises(ValueError, match="fold"):
        Table(rows, fold=0)
    with pytest.raises(TypeError, match="pdf_figure"):
        ExperimentResult("x", "X", "r", pd.DataFrame({"a": [1]}), pdf_figure="no")


def test_a_folded_table_splits_at_a_page_break_instead_of_leaving_half_a_page_empty(tmp_path):
    # a folded table taller than the space left under some text: the rows that fit are folded on that page, the
    # rest folded again on the next, each part with its headers, every row once, in order down each block
    rows = pd.DataFrame({"component": [f"c{i:03d}" for i in range(120)], "value": [f"{i}/{i // 2}" for i in range(120)],
                         "source": ["rules", "reconstruction"] * 60})
    text = Text("\n\n".join(f"Paragraph {i}: " + "words that fill the page " * 12 for i in range(9)))
    path = write_pdf(tmp_path / "t.pdf", [Section("Demo", [text, Table(rows, title="Components", fold=2)])])
    pages = page_texts(path)
    first = next(i for i, t in enumerate(pages) if "Components" in t and "Paragraph 8" in t)
    on = [[int(w[1:]) for w in t.split() if w[:1] == "c" and w[1:].isdigit() and len(w) == 4] for t in pages]
    assert on[first], "the table starts on the page of the text before it, not on the next"
    assert sorted(r for rs in on for r in rs) == list(range(120))  # every row once
    parts = [rs for rs in on if rs]
    assert len(parts) >= 2 and all(max(a) < min(b) for a, b in zip(parts, parts[1:]))  # in order across pages
    for i, rs in enumerate(on):
        if rs:
            assert pages[i].split().count("component") == 2, f"page {i + 1}: each block has its header"
    assert layout_problems(path) == []


def test_the_line_under_a_table_never_starts_a_page_on_its_own(tmp_path):
    # a table sized to end at the bottom of a page: its closing line (sample size, CSV name) used to open the
    # next page alone; it now takes the table's last row(s) with it (header repeated)
    def build_rows(n):
        frame = pd.DataFrame({"row": [f"r{i:03d}" for i in range(n)], "value": [i / 7 for i in range(n)]})
        exp = ExperimentResult("orphan_demo", "Orphan demo", "A reading.", frame, None, max_rows=1000)
        path = write_pdf(tmp_path / f"t{n}.pdf", [Section("Demo", [exp], seed="0/1", trials=10)], meta={"seed": 0})
        return page_texts(path)

    def rows_on(text):
        return [int(w[1:]) for w in text.split() if w[:1] == "r" and w[1:].isdigit() and len(w) == 4]

    probe = build_rows(150)
    table_pages = [rows_on(t) for t in probe if rows_on(t)]
    assert len(table_pages) >= 3
    full = table_pages[1][-1] + 1  # rows up to the bottom of the table's second page (a full page of rows)
    for n in (full - 1, full, full + 1, full + 2):
        pages = build_rows(n)
        closing = [i for i, t in enumerate(pages) if "orphan_demo/orphan_demo.csv beside this PDF" in t]
        assert len(closing) == 1, n
        rows = rows_on(pages[closing[0]])
        assert rows and rows[-1] == n - 1, f"{n} rows: the closing line is on page {closing[0] + 1} without the last row"
        assert "row" in pages[closing[0]].split() and "value" in pages[closing[0]].split()  # the header repeated
        assert sorted(r for t in pages for r in rows_on(t)) == list(range(n))  # every row once
    assert layout_problems(tmp_path / f"t{full}.pdf") == []


def test_a_table_that_fills_a_page_alone_still_builds_with_its_line_on_the_next(tmp_path):
    # a one-row table (it cannot split) that fits a page only without its line: the line goes on, as before
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Table as RLTable

    from pyradice_lab.report.style import CAPTION
    from pyradice_lab.report.tables import TableWithNote

    cells = [["a tall cell\n" * 30]]
    _, th = RLTable(cells).wrap(400, 10_000)
    doc = SimpleDocTemplate(str(tmp_path / "t.pdf"), pagesize=(500, th + 89), topMargin=36, bottomMargin=36,
                            leftMargin=50, rightMargin=50)  # the frame (6 pt padding) is 5 pt taller than the table
    doc.build([TableWithNote(RLTable(cells), Paragraph("the line under the table", CAPTION))])
    pages = page_texts(tmp_path / "t.pdf")
    assert len(pages) == 2 and "a tall cell" in pages[0] and "the line under the table" in pages[1]
