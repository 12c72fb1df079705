"""The PDF's page machinery: the figure flowable, the vector figures embedded after the build
(:func:`embed_figures`) and the document template with its contents page, headers and bookmarks (used by
:mod:`pyradice_lab.report.pdf`).
"""

from __future__ import annotations

import io

from reportlab.lib import colors
from reportlab.lib.utils import ImageReader
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    PageTemplate,
    Paragraph,
    Table as RLTable,
)
from reportlab.platypus.tableofcontents import TableOfContents

from ..engine.results import RasterFigure
from .style import (
    BOLD,
    FONT,
    LANDSCAPE,
    MARGIN_BOTTOM,
    MARGIN_TOP,
    MARGIN_X,
    PORTRAIT,
    QUICK_BANNER,
    Heading,
    frame_height,
    frame_width,
)
from .tables import TableWithNote

# ----------------------------------------------------------------------------------------- figures
#: a figure may shrink this much to fit the rest of a page instead of leaving it blank
_SHRINK_TO_FIT = 0.935  # MIN_FONT 7.5 pt printed at 93.5%: still 7 pt


class _Figure(Flowable):
    """A rendered figure, scaled down (never up) to the frame.

    ReportLab cannot import a PDF page, so a vector figure reserves its place and records it (page,
    position, scale) in ``_Doc.placements``; :func:`embed_figures` puts the figure's PDF there as a form
    XObject once the document is written.  A PNG-only figure is drawn as an image."""

    def __init__(self, fig: RasterFigure, max_height: float):
        super().__init__()
        self.fig = fig
        self.w, self.h = fig.size
        self.max_height = max_height
        self.scale = 1.0

    def wrap(self, aw, ah):
        s = min(1.0, aw / self.w, self.max_height / self.h)
        if self.h * s > ah >= self.h * s * _SHRINK_TO_FIT:
            s = ah / self.h
        self.scale = s
        return self.w * s, self.h * s

    def draw(self):
        s = self.scale
        if self.fig.pdf:
            doc = getattr(self.canv, "_doctemplate", None)
            if doc is not None:
                m = self.canv._currentMatrix
                doc.placements.append((self.canv.getPageNumber() - 1, m[4], m[5], s, self.fig.pdf))
        else:
            self.canv.drawImage(ImageReader(io.BytesIO(self.fig.png)), 0, 0, self.w * s, self.h * s)


def _content_bytes(page) -> bytes:
    """The decoded content stream(s) of a page, concatenated (no parsing of the operators)."""
    from pypdf.generic import ArrayObject

    contents = page.raw_get("/Contents").get_object()
    streams = list(contents) if isinstance(contents, ArrayObject) else [contents]
    return b"\n".join(s.get_object().get_data() for s in streams)


def embed_figures(path: str, placements: list) -> None:
    """Put each figure's one-page PDF on its page as a form XObject at (x, y), scaled; rewrite ``path``.

    The figure's content stream is used as it is (no parsing, no resource renaming): the form carries
    its own resources, and the page calls it with ``q s 0 0 s x y cm /Name Do Q``."""
    if not placements:
        return
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import ArrayObject, DecodedStreamObject, FloatObject, NameObject

    with open(path, "rb") as fh:  # read it all first: the file is rewritten below
        writer = PdfWriter(clone_from=PdfReader(io.BytesIO(fh.read())))
    for k, (page_no, x, y, scale, pdf) in enumerate(placements):
        src = PdfReader(io.BytesIO(pdf)).pages[0]
        box = src.mediabox
        form = DecodedStreamObject()
        form.set_data(_content_bytes(src))
        form.update({NameObject("/Type"): NameObject("/XObject"), NameObject("/Subtype"): NameObject("/Form"),
                     NameObject("/BBox"): ArrayObject([FloatObject(v) for v in
                                                       (box.left, box.bottom, box.right, box.top)]),
                     NameObject("/Resources"): src["/Resources"].clone(writer)})
        ref = writer._add_object(form.flate_encode())
        page = writer.pages[page_no]
        res = page["/Resources"].get_object()
        if "/XObject" not in res:
            res[NameObject("/XObject")] = type(res)()
        name = f"/PyrFig{k}"
        res["/XObject"].get_object()[NameObject(name)] = ref
        tx, ty = x - scale * float(box.left), y - scale * float(box.bottom)
        call = DecodedStreamObject()
        call.set_data(f"q {scale:.6f} 0 0 {scale:.6f} {tx:.4f} {ty:.4f} cm {name} Do Q\n".encode())
        contents = page.raw_get("/Contents")  # the reference: a stream must stay an indirect object
        parts = list(contents.get_object()) if isinstance(contents.get_object(), ArrayObject) else [contents]
        page[NameObject("/Contents")] = ArrayObject(parts + [writer._add_object(call)])
    with open(path, "wb") as fh:
        writer.write(fh)


# ----------------------------------------------------------------------------------------- document
#: the contents page: height (pt) of the heading's frame, gap between the two columns of entries
CONTENTS_HEAD, CONTENTS_GAP = 34.0, 18.0


class _Doc(BaseDocTemplate):
    """A4 pages in two orientations; bookmarks and contents entries from headings; running headers."""

    def __init__(self, filename: str, *, header: str, quick: bool, **meta):
        super().__init__(filename, pagesize=PORTRAIT, leftMargin=MARGIN_X, rightMargin=MARGIN_X, topMargin=MARGIN_TOP,
                         bottomMargin=MARGIN_BOTTOM, **meta)
        self.header, self.quick, self.section = header, quick, ""
        self.page_section, self._fresh = "", True
        self.placements: list = []
        templates = []
        for name, size in (("portrait", PORTRAIT), ("landscape", LANDSCAPE)):
            frame = Frame(MARGIN_X, MARGIN_BOTTOM, size[0] - 2 * MARGIN_X, size[1] - MARGIN_TOP - MARGIN_BOTTOM,
                          id=name, leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
            templates.append(PageTemplate(id=name, frames=[frame], pagesize=size, onPageEnd=self._decorate))
        # the contents: the heading across the page, the entries in two columns
        width, height = frame_width("portrait"), frame_height("portrait")
        col = (width - CONTENTS_GAP) / 2
        pad = dict(leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
        top = Frame(MARGIN_X, MARGIN_BOTTOM + height - CONTENTS_HEAD, width, CONTENTS_HEAD, id="contents_head", **pad)
        cols = [Frame(MARGIN_X + i * (col + CONTENTS_GAP), MARGIN_BOTTOM, col, height - CONTENTS_HEAD,
                      id=f"contents_{i}", **pad) for i in (0, 1)]
        templates.append(PageTemplate(id="contents", frames=[top, *cols], pagesize=PORTRAIT,
                                      onPageEnd=self._decorate))
        self.addPageTemplates(templates)

    def handle_pageBegin(self):
        # the running header names the section in effect at the top of the page (a section that starts
        # lower on the page shows from the next page on)
        super().handle_pageBegin()
        self.page_section, self._fresh = self.section, True

    def afterFlowable(self, flowable):
        if isinstance(flowable, Heading):
            if flowable.section is not None:
                self.section = flowable.section
                if self._fresh:
                    self.page_section = flowable.section
            if flowable.outline is not None:
                text, level, key = flowable.outline
                # the bookmark shows the heading at the top of the window (not its whole page): a part that
                # starts halfway down a page opens at its heading
                top = getattr(self.frame, "_y", None)
                self.canv.bookmarkPage(key, fit="FitH", top=None if top is None else round(top + flowable.height + 4, 1))
                self.canv.addOutlineEntry(text, key, level=level, closed=level > 0)
                self.notify("TOCEntry", (level, text, self.page, key))
        if isinstance(flowable, (Paragraph, RLTable, TableWithNote, _Figure)):
            self._fresh = False

    def build_all(self, story: list, toc: TableOfContents, entries: list) -> int:
        """Lay out ``story`` until the contents are stable; the figure placements of the kept pass remain.

        ``entries``: the contents entries the story will produce, with placeholder page numbers, so the
        first pass already reserves the contents' final length (usually two passes in all).  Returns the
        number of passes."""
        self._indexingFlowables = [toc]
        self._doSave = 0
        edits: list = []
        self._multiBuildEdits = edits.append
        toc._entries = list(entries)
        for passes in range(1, 8):
            self.placements = []
            toc.beforeBuild()
            self.build(story[:])
            toc.afterBuild()
            if self._allSatisfied():
                self.canv.save()
                del self._multiBuildEdits
                return passes
            while edits:
                e = edits.pop(0)
                e[0](*e[1:])
        raise RuntimeError("the table of contents did not settle after 7 passes")

    def _decorate(self, canv, doc):
        w, h = canv._pagesize
        canv.saveState()
        grey = colors.HexColor("#555555")
        canv.setFont(FONT, 7.5)
        canv.setFillColor(grey)
        if self.page > 1:
            canv.drawString(MARGIN_X, h - 26, getattr(self, "page_section", self.section)[:90])
            canv.drawRightString(w - MARGIN_X, h - 26, self.header)
            canv.setStrokeColor(colors.HexColor("#c0c7d0"))
            canv.setLineWidth(0.4)
            canv.line(MARGIN_X, h - 30, w - MARGIN_X, h - 30)
        canv.drawCentredString(w / 2, 22, f"{self.page}")
        if self.quick:
            canv.setFillColor(colors.HexColor("#fde7c8"))
            canv.setStrokeColor(colors.HexColor("#e0a040"))
            canv.rect(MARGIN_X, h - 51, w - 2 * MARGIN_X, 14, fill=1, stroke=1)
            canv.setFillColor(colors.HexColor("#7a4b00"))
            canv.setFont(BOLD, 8)
            canv.drawCentredString(w / 2, h - 47, QUICK_BANNER)
        canv.restoreState()
