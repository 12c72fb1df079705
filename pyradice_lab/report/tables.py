"""Tables for the PDF report: columns sized from their content, wrapped headers, pages split by rows.

:func:`table_flowables` turns a :class:`~pyradice_lab.engine.results.Table` into ReportLab flowables.
Numbers never wrap; text wraps at words; column names wrap after ``_``, ``-``, ``/`` and spaces, so a
header never runs into its neighbour.  The font is the largest of 8, 7.5 and 7 pt that fits the page;
a table that does not fit a portrait page at 7 pt goes on a landscape page, and one that does not fit
that is split into column groups, each repeating the leading label columns.  Long tables split across
pages with their header row repeated, and the line under a table (sample size, CSV name) stays on the page
of its last rows (:class:`TableWithNote`).
"""

from __future__ import annotations

import re

import pandas as pd
from reportlab.pdfbase import pdfmetrics
from reportlab.platypus import CondPageBreak, Flowable, Paragraph, Spacer, Table as RLTable, TableStyle

from ..engine.results import Table, format_table
from .style import (
    BOLD,
    CAPTION,
    FONT,
    GRID,
    HEAD_BG,
    LANDSCAPE,
    MARGIN_X,
    MIN_TABLE_FONT,
    PORTRAIT,
    SMALL,
    TABLE_CAPTION,
    TABLE_SIZES,
    TABLE_TITLE,
    ZEBRA,
    Heading,
    markup,
)

__all__ = ["table_flowables", "plan_columns", "portrait_columns", "TableWithNote", "column_label"]

#: words of a column name shown differently in a table header (the CSV beside the report keeps the names)
_WORDS = {"ci": "CI", "se": "SE", "sd": "SD", "pct": "%", "vs": "vs", "n": "n", "p": "p", "q": "q", "id": "id",
          "cpu": "CPU", "rel": "relative", "approx": "approximate", "diff": "difference",
          "l1": "L1", "l2": "L2", "l3": "L3", "l4": "L4", "l5": "L5", "l6": "L6", "2p": "2p", "3p": "3p", "4p": "4p"}
_SUFFIXES = ((("ci", "low"), "95% CI low"), (("ci", "high"), "95% CI high"), (("se",), "SE"),
             (("holm",), "Holm-adjusted"))


def column_label(name) -> str:
    """A column name as words for a table header: ``applies_rate_ci_low`` -> "applies rate, 95% CI low",
    ``mean_score_se`` -> "mean score, SE", ``n_games`` -> "games", ``p_win`` -> "P(win)"; a name with no
    underscore is kept.

    >>> [column_label(c) for c in ("applies_rate_ci_low", "win share, %", "p_win_se", "n_games", "ci_low", "policy")]
    ['applies rate, 95% CI low', 'win share, %', 'P(win), SE', 'games', '95% CI low', 'policy']
    """
    text = str(name)
    if "_" not in text:
        return text
    words = [w for w in text.split("_") if w]
    if not words:
        return text
    tail = ""
    for suffix, label in _SUFFIXES:
        k = len(suffix)
        if len(words) >= k and tuple(w.lower() for w in words[-k:]) == suffix:
            words, tail = words[:-k], f", {label}"
            break
    if len(words) > 1 and words[0].lower() == "n":  # n_games -> games
        words = words[1:]
    if not words:  # ci_low alone
        return tail.lstrip(", ")
    text = " ".join(_WORDS.get(w.lower(), w) for w in words)
    if len(words) > 1 and words[0].lower() == "p":  # p_win -> P(win)
        text = f"P({text[2:]})"
    return text + tail


_KEEP_WITH_ROWS = 110.0  # points: a table's title, caption, header and first rows start on the same page


def _width(s: str, font: str, size: float) -> float:
    return max((pdfmetrics.stringWidth(line, font, size) for line in s.split("\n")), default=0.0)


def _tokens(header: str) -> list[str]:
    """Break opportunities of a column name: after ``_``, ``-``, ``/`` and spaces."""
    return [t for t in re.split(r"(?<=[_\-/ ])", header) if t]


def _fill(tokens: list[str], width: float, font: str, size: float, sep: str = "") -> list[str]:
    lines: list[str] = []
    for tok in tokens:
        if lines and _width(lines[-1] + sep + tok, font, size) <= width:
            lines[-1] = lines[-1] + sep + tok
        else:
            while _width(tok, font, size) > width and len(tok) > 1:  # a token wider than the column: break it
                k = len(tok)
                while k > 1 and _width(tok[:k], font, size) > width:
                    k -= 1
                lines.append(tok[:k])
                tok = tok[k:]
            lines.append(tok)
    return [ln.strip() for ln in lines] or [""]


def _wrap_cell(text: str, width: float, font: str, size: float) -> str:
    out = []
    for para in text.split("\n"):
        out.extend(_fill(para.split(), width, font, size, sep=" ") if para.strip() else [""])
    return "\n".join(out)


_PAD = 3.0


def plan_columns(header: list[str], body: list[list[str]], numeric: list[bool], avail: float, size: float):
    """Column widths that fit ``avail`` at font ``size``, or None: numbers never wrap, text wraps at
    words (columns at least ~60 pt), headers wrap at their break opportunities."""
    hsize = size
    nat, minw = [], []
    for j, name in enumerate(header):
        cells = [row[j] for row in body]
        body_w = max((_width(c, FONT, size) for c in cells), default=0.0)
        head_w = _width(name, BOLD, hsize)
        head_min = max((_width(t, BOLD, hsize) for t in _tokens(name)), default=0.0)
        if numeric[j]:
            low = max(head_min, body_w)
        else:
            word = max((_width(w, FONT, size) for c in cells for w in c.split()), default=0.0)
            low = max(head_min, min(body_w, max(min(word, 150.0), 60.0)))
        nat.append(max(head_w, body_w) + 2 * _PAD)
        minw.append(min(low + 2 * _PAD, nat[-1]))
    if sum(minw) > avail:
        return None
    if sum(nat) <= avail:
        return nat
    t = (avail - sum(minw)) / (sum(nat) - sum(minw))
    return [m + (n - m) * t for m, n in zip(minw, nat)]


def _rl_table(header, body, numeric, widths, size, pad: tuple[float, float] = (1.5, 2.0)) -> RLTable:
    head = [_fill(_tokens(h), w - 2 * _PAD + 0.01, BOLD, size) for h, w in zip(header, widths)]
    cells = [["\n".join(h) for h in head]]
    for row in body:
        cells.append([c if numeric[j] else _wrap_cell(c, widths[j] - 2 * _PAD + 0.01, FONT, size)
                      for j, c in enumerate(row)])
    lead = size * 1.22
    style = [
        ("FONT", (0, 0), (-1, 0), BOLD, size, lead),
        ("FONT", (0, 1), (-1, -1), FONT, size, lead),
        ("BACKGROUND", (0, 0), (-1, 0), HEAD_BG),
        ("LINEBELOW", (0, 0), (-1, 0), 0.6, GRID),
        ("BOX", (0, 0), (-1, -1), 0.4, GRID),
        ("INNERGRID", (0, 0), (-1, -1), 0.25, GRID),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), _PAD),
        ("RIGHTPADDING", (0, 0), (-1, -1), _PAD),
        ("TOPPADDING", (0, 0), (-1, -1), pad[0]),
        ("BOTTOMPADDING", (0, 0), (-1, -1), pad[1]),
    ]
    for j, num in enumerate(numeric):
        style.append(("ALIGN", (j, 0), (j, -1), "RIGHT" if num else "LEFT"))
    for i in range(2, len(cells), 2):
        style.append(("BACKGROUND", (0, i), (-1, i), ZEBRA))
    return RLTable(cells, colWidths=widths, repeatRows=1, style=TableStyle(style), hAlign="LEFT")


class TableWithNote(Flowable):
    """A table and the line under it, which never starts a page on its own.

    The table splits across pages as usual; when the line does not fit under the table's last row, the
    last rows go to the next page with it (a table that fits whole above the line is split so that it does).
    A table that cannot split there (too few rows) moves whole to the next page, as a table does."""

    def __init__(self, table: RLTable, note: Flowable):
        super().__init__()
        self.table, self.note = table, note
        self.hAlign = getattr(table, "hAlign", "LEFT")

    def _gap(self) -> float:
        return max(self.table.getSpaceAfter(), self.note.getSpaceBefore())

    def wrap(self, aw, ah):
        canv = getattr(self, "canv", None)
        _, th = self.table.wrapOn(canv, aw, ah) if canv is not None else self.table.wrap(aw, ah)
        _, nh = self.note.wrapOn(canv, aw, ah) if canv is not None else self.note.wrap(aw, ah)
        self._heights = th, nh
        self.width, self.height = aw, th + self._gap() + nh
        return self.width, self.height

    def draw(self):
        th, nh = self._heights
        self.table.drawOn(self.canv, 0, nh + self._gap())
        self.note.drawOn(self.canv, 0, 0)

    def split(self, aw, ah):
        self.wrap(aw, ah)
        th, nh = self._heights
        if self.height <= ah:
            return [self]
        # the table's first part fills this page; the rest, with the line, goes on (the table alone fits:
        # it gives up room for the line, so its last rows move with it)
        parts = self.table.split(aw, ah if th > ah else ah - self._gap() - nh)
        if len(parts) < 2:
            frame = getattr(self, "_frame", None)
            if th <= ah and getattr(frame, "_atTop", False):  # a whole page cannot hold both: the line goes on
                return [self.table, self.note]
            return []  # on to the next page, whole
        return [parts[0], TableWithNote(parts[1], self.note)]

    def getSpaceBefore(self):
        return self.table.getSpaceBefore()

    def getSpaceAfter(self):
        return self.note.getSpaceAfter()


def table_flowables(table: Table, *, max_rows: int | None = None, note: str = "",
                    sizes: tuple[float, ...] = TABLE_SIZES, compact: bool = False,
                    width: float | None = None) -> tuple[list[Flowable], str]:
    """The flowables of a table and the page orientation it needs ("portrait" or "landscape").

    ``max_rows``: show only the first rows (with a note saying so); ``note``: a line under the table;
    ``sizes``: font sizes to try, largest first (none below :data:`MIN_TABLE_FONT`); ``compact``: less
    padding in the cells (the title page); ``width``: fit this width (points) instead of a page's.
    """
    pad = (0.6, 1.2) if compact else (1.5, 2.0)
    if min(sizes) < MIN_TABLE_FONT:
        raise ValueError(f"sizes must be >= {MIN_TABLE_FONT} pt, got {sizes!r}")
    frame = table.frame
    source = frame.reset_index() if table.index else frame
    total = len(source)
    if max_rows is not None and total > max_rows:
        source = source.iloc[:max_rows]
    shown = format_table(source, table.digits)
    header = [column_label(c) for c in shown.columns]
    body = shown.to_numpy().tolist()
    numeric = [pd_numeric(source[c]) for c in source.columns]
    out: list[Flowable] = [CondPageBreak(_KEEP_WITH_ROWS)]
    if table.title:
        out.append(Heading(table.title, TABLE_TITLE, level=None, key=""))
    if table.caption:
        out += [Paragraph(markup(p), TABLE_CAPTION) for p in re.split(r"\n\s*\n", table.caption.strip())]
    if max_rows is not None and total > max_rows:
        note = f"First {max_rows} of {total} rows. " + note
    if not header:
        return out + [Paragraph("(empty table)", SMALL)], "portrait"
    pages = (("portrait", (width + 2 * MARGIN_X, 0)),) if width else (("portrait", PORTRAIT), ("landscape", LANDSCAPE))
    for orientation, page in pages:
        avail = page[0] - 2 * MARGIN_X
        for size in sizes:
            widths = plan_columns(header, body, numeric, avail, size)
            if widths is not None:
                table = _rl_table(header, body, numeric, widths, size, pad)
                out.append(TableWithNote(table, Paragraph(markup(note), CAPTION)) if note else table)
                return out, orientation
    # too wide even for a landscape page: column groups repeating the leading label columns
    avail = LANDSCAPE[0] - 2 * MARGIN_X
    size = TABLE_SIZES[1]
    keys = [j for j in range(min(2, len(header))) if not numeric[j]] or [0]
    rest = [j for j in range(len(header)) if j not in keys]
    groups: list[list[int]] = []
    for j in rest:
        trial = (groups[-1] + [j]) if groups else [j]
        cols = keys + trial
        fits = plan_columns([header[c] for c in cols], [[r[c] for c in cols] for r in body], [numeric[c] for c in cols],
                     avail, size)
        if groups and fits is not None:
            groups[-1] = trial
        else:
            groups.append([j])
    for g, group in enumerate(groups, 1):
        cols = keys + group
        sub_h, sub_b, sub_n = [header[c] for c in cols], [[r[c] for c in cols] for r in body], [numeric[c] for c in cols]
        widths = None
        for s in TABLE_SIZES:
            widths = plan_columns(sub_h, sub_b, sub_n, avail, s)
            if widths is not None:
                size = s
                break
        if widths is None:  # a single column wider than the page: its text wraps at the page width
            widths = [avail / len(cols)] * len(cols)
            sub_n = [False] * len(cols)
        out.append(Paragraph(f"Columns {group[0] + 1}–{group[-1] + 1} of {len(header)} (group {g} of "
                             f"{len(groups)}; the first {len(keys)} repeated)", CAPTION))
        table = _rl_table(sub_h, sub_b, sub_n, widths, size)
        out.append(TableWithNote(table, Paragraph(markup(note), CAPTION)) if note and g == len(groups) else table)
        out.append(Spacer(1, 6))
    return out, "landscape"


def portrait_columns(frame: pd.DataFrame, *, max_rows: int | None = None, digits: int = 4) -> list[str]:
    """The columns of ``frame`` to show so that it fits a portrait page at the smallest table font.

    All of them when they fit; otherwise columns are left out, standard errors first (the interval
    stays), then from the right, never the first column.  (An experiment's table shows these; its CSV
    has all.)"""
    source = frame if max_rows is None else frame.iloc[:max_rows]
    shown = format_table(source, digits)
    cols = [str(c) for c in shown.columns]
    numeric = {str(c): pd_numeric(source[c]) for c in source.columns}
    avail = PORTRAIT[0] - 2 * MARGIN_X

    def fits(keep: list[str]) -> bool:
        return plan_columns(keep, shown[keep].to_numpy().tolist(), [numeric[c] for c in keep], avail,
                            MIN_TABLE_FONT) is not None

    keep = list(cols)
    if fits(keep):
        return keep
    ses = [c for c in cols[1:] if re.search(r"(^|_)se(_|$)", c)]
    order = ses[::-1] + [c for c in cols[1:][::-1] if c not in ses]
    for c in order:
        keep.remove(c)
        if fits(keep):
            break
    return keep


def pd_numeric(col) -> bool:
    return bool(pd.api.types.is_numeric_dtype(col) and not pd.api.types.is_bool_dtype(col))


