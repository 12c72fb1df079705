"""A long, narrow table printed as blocks of rows side by side (a report's ``Table(..., fold=k)``).

The blocks split at a page break: the rows that fit the space left on the page are folded there, the rest are
folded again at the top of the next page, each block with its header.  (Kept whole, a folded table of a page's
height moved to the next page and left half a page empty before it: the 41st page of a full report.)
"""

from __future__ import annotations

from reportlab.platypus import CondPageBreak, Flowable, Table as RLTable, TableStyle

from ..engine.results import Table
from .style import frame_height, frame_width
from .tables import table_flowables

#: points between the blocks of a folded table
FOLD_GAP = 12.0

#: the fewest rows a block holds on the page a folded table starts on (or that a split leaves on a page)
MIN_BLOCK_ROWS = 4


def _outer(frame, fold: int, digits, width: float):
    """The ``fold`` blocks of ``frame``'s rows side by side, as one table, or None when a block does not fit its
    share of the width (on a portrait page, without column groups)."""
    per = -(-len(frame) // fold)
    blocks = []
    for k in range(fold):
        chunk = frame.iloc[k * per:(k + 1) * per]
        if not len(chunk):
            break
        flow, orient = table_flowables(Table(chunk, digits=digits), width=width)
        tables = [f for f in flow if isinstance(f, RLTable)]
        if orient != "portrait" or len(tables) != 1:
            return None
        blocks.append(tables[0])
    return RLTable([blocks], colWidths=[width + (FOLD_GAP if k < fold - 1 else 0) for k in range(len(blocks))],
                   hAlign="LEFT", style=TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP"),
                                                    ("LEFTPADDING", (0, 0), (-1, -1), 0),
                                                    ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                                                    ("TOPPADDING", (0, 0), (-1, -1), 0),
                                                    ("BOTTOMPADDING", (0, 0), (-1, -1), 0)]))


class FoldedRows(Flowable):
    """``frame``'s rows in ``fold`` blocks side by side; at a page break, the rows that fit are folded on this
    page and the rest on the next (each part in the rows' order: down the first block, then the next)."""

    def __init__(self, frame, fold: int, digits, width: float, outer):
        super().__init__()
        self.frame, self.fold, self.digits, self.block_width = frame, fold, digits, width
        self.outer = outer

    def wrap(self, aw, ah):
        self.width, self.height = self.outer.wrap(aw, ah)
        return self.width, self.height

    def _part(self, n: int):
        outer = _outer(self.frame.iloc[:n], self.fold, self.digits, self.block_width)
        return None if outer is None else FoldedRows(self.frame.iloc[:n], self.fold, self.digits,
                                                     self.block_width, outer)

    def split(self, aw, ah):
        if self.wrap(aw, ah)[1] <= ah:
            return [self]
        least = MIN_BLOCK_ROWS * self.fold
        if len(self.frame) < 2 * least:
            return []  # too few rows to leave some on each page: all on the next
        best, lo, hi = None, least, len(self.frame) - least
        while lo <= hi:  # the most rows whose folded blocks fit the space left (heights grow with the rows)
            mid = (lo + hi) // 2
            part = self._part(mid)
            if part is not None and part.wrap(aw, ah)[1] <= ah:
                best, lo = part, mid + 1
            else:
                hi = mid - 1
        if best is None:
            return []
        rest = _outer(self.frame.iloc[len(best.frame):], self.fold, self.digits, self.block_width)
        if rest is None:
            return []
        return [best, FoldedRows(self.frame.iloc[len(best.frame):], self.fold, self.digits, self.block_width, rest)]

    def draw(self):
        self.outer.drawOn(self.canv, 0, 0)


def folded(t: Table):
    """A long, narrow table as ``t.fold`` blocks of rows side by side (title and caption above), or None when it
    is short or a block does not fit its share of the portrait width without column groups."""
    frame = t.frame.reset_index() if t.index else t.frame
    if t.fold < 2 or len(frame) <= t.fold * 4:
        return None
    width = (frame_width("portrait") - (t.fold - 1) * FOLD_GAP) / t.fold
    outer = _outer(frame, t.fold, t.digits, width)
    if outer is None:
        return None
    head, _ = table_flowables(Table(frame.iloc[:0], title=t.title, caption=t.caption, digits=t.digits))
    head = [f for f in head if not isinstance(f, RLTable)]
    # the title and caption start on the page of the first rows: at least a few rows of each block, or the whole
    # table when it is short
    first = _outer(frame.iloc[:min(len(frame), MIN_BLOCK_ROWS * t.fold)], t.fold, t.digits, width)
    _, height = (first or outer).wrap(frame_width("portrait"), frame_height("portrait"))
    head[0] = CondPageBreak(height + 40)
    return head + [FoldedRows(frame, t.fold, t.digits, width, outer)], "portrait"
