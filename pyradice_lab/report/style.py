"""Page geometry, fonts, paragraph styles and text markup of the PDF report (ReportLab).

The report's fonts are the DejaVu family that matplotlib ships (so text and figures match, every
character used in the report exists, and the fonts are embedded); body text is 9.5 pt, tables 7-8 pt,
nothing in the report is smaller than 7 pt.
"""

from __future__ import annotations

import re
from pathlib import Path
from xml.sax.saxutils import escape

import matplotlib
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import Flowable, Paragraph

__all__ = ["QUICK_BANNER", "MIN_TABLE_FONT", "PORTRAIT", "LANDSCAPE", "MARGIN_X", "MARGIN_TOP", "MARGIN_BOTTOM",
           "markup", "paragraphs", "Heading", "frame_width", "frame_height"]

QUICK_BANNER = "quick run: indicative only, small samples"
MIN_TABLE_FONT = 7.0
TABLE_SIZES = (8.0, 7.5, 7.0)

MARGIN_X, MARGIN_TOP, MARGIN_BOTTOM = 46.0, 64.0, 44.0
PORTRAIT, LANDSCAPE = A4, landscape(A4)

# ----------------------------------------------------------------------------------------- fonts, styles
FONT, BOLD, ITALIC, MONO = "DejaVuSans", "DejaVuSans-Bold", "DejaVuSans-Oblique", "DejaVuSansMono"


def _register_fonts() -> None:
    if FONT in pdfmetrics.getRegisteredFontNames():
        return
    folder = Path(matplotlib.get_data_path()) / "fonts" / "ttf"
    for name in (FONT, BOLD, ITALIC, "DejaVuSans-BoldOblique", MONO):
        pdfmetrics.registerFont(TTFont(name, str(folder / f"{name}.ttf")))
    pdfmetrics.registerFontFamily(FONT, normal=FONT, bold=BOLD, italic=ITALIC, boldItalic="DejaVuSans-BoldOblique")


_register_fonts()

BODY = ParagraphStyle("body", fontName=FONT, fontSize=9, leading=11.6, spaceAfter=4)
SMALL = ParagraphStyle("small", parent=BODY, fontSize=8, leading=10.2, textColor=colors.HexColor("#333333"))
NOTE = ParagraphStyle("note", parent=BODY, fontSize=8.5, leading=11, textColor=colors.HexColor("#7a4b00"),
                       backColor=colors.HexColor("#fff4e0"), borderPadding=(4, 5, 4, 5), spaceBefore=3, spaceAfter=8)
BULLET = ParagraphStyle("bullet", parent=BODY, leftIndent=12, bulletIndent=2, spaceAfter=3, bulletFontName=FONT)
FINDING = ParagraphStyle("finding", parent=BULLET, textColor=colors.HexColor("#0b2545"))
QUESTION = ParagraphStyle("question", parent=BODY, fontName=ITALIC, textColor=colors.HexColor("#333333"))
H1 = ParagraphStyle("h1", fontName=BOLD, fontSize=17, leading=21, spaceAfter=10, keepWithNext=1,
                     textColor=colors.HexColor("#0b2545"))
H2 = ParagraphStyle("h2", fontName=BOLD, fontSize=12, leading=14.5, spaceBefore=9, spaceAfter=4, keepWithNext=1,
                     textColor=colors.HexColor("#0b2545"))
H3 = ParagraphStyle("h3", fontName=BOLD, fontSize=10.5, leading=13, spaceBefore=8, spaceAfter=4, keepWithNext=1)
CAPTION = ParagraphStyle("caption", parent=SMALL, spaceBefore=2, spaceAfter=4, keepWithNext=1)
#: a table's title and caption: kept with the first rows by a conditional page break, not keepWithNext
#: (which moves a whole long table to the next page rather than splitting it)
TABLE_TITLE = ParagraphStyle("table_title", parent=H3, keepWithNext=0)
TABLE_TITLE2 = ParagraphStyle("table_title2", parent=H2, keepWithNext=0)
TABLE_CAPTION = ParagraphStyle("table_caption", parent=CAPTION, keepWithNext=0)
CELL = ParagraphStyle("cell", fontName=FONT, fontSize=8, leading=10)
TITLE = ParagraphStyle("title", fontName=BOLD, fontSize=24, leading=29, alignment=1, spaceAfter=4)
SUBTITLE = ParagraphStyle("subtitle", fontName=FONT, fontSize=10.5, leading=13, alignment=1,
                           textColor=colors.HexColor("#404040"), spaceAfter=14)
# compact enough that the contents of the full report fit one page
TOC_STYLES = [ParagraphStyle("toc0", fontName=BOLD, fontSize=9.5, leading=11.5, leftIndent=0, spaceBefore=3),
               ParagraphStyle("toc1", fontName=FONT, fontSize=7.5, leading=8.8, leftIndent=14)]
HEAD_BG, ZEBRA, GRID = colors.HexColor("#dde6f0"), colors.HexColor("#f5f7fa"), colors.HexColor("#9aa5b1")


# ----------------------------------------------------------------------------------------- text
_LIST_ITEM = re.compile(r"^\s*(?:[-*\u2022]|\d+[.)])\s+")
_CODE = re.compile(r"`([^`]+)`")


def markup(text: str) -> str:
    """Plain text -> Paragraph markup: XML escaped, ```code``` in the monospaced font."""
    return _CODE.sub(lambda m: f'<font face="{MONO}">{m.group(1)}</font>', escape(" ".join(text.split())))


def paragraphs(text: str, style: ParagraphStyle = BODY) -> list[Flowable]:
    """Blank lines separate paragraphs; lines starting with ``-``, ``*`` or ``1.`` are list items."""
    out: list[Flowable] = []
    for block in re.split(r"\n\s*\n", text.strip()):
        items: list[str] = []
        for raw in block.split("\n"):
            if not items or _LIST_ITEM.match(raw):
                items.append(raw.strip())
            else:
                items[-1] += " " + raw.strip()
        for item in items:
            m = _LIST_ITEM.match(item)
            if m:
                marker = m.group(0).strip()
                bullet = "•" if marker in "-*\u2022" else marker
                out.append(Paragraph(markup(item[m.end():]), BULLET, bulletText=bullet))
            elif item:
                out.append(Paragraph(markup(item), style))
    return out


class Heading(Paragraph):
    """A heading that becomes a PDF bookmark (and a contents entry) and may start a new running header."""

    def __init__(self, text: str, style: ParagraphStyle, *, level: int | None, key: str, section: str | None = None):
        super().__init__(markup(text), style)
        self.outline = (" ".join(text.split()), level, key) if level is not None else None
        self.section = section



def frame_width(orientation: str = "portrait") -> float:
    """Width (pt) of the text frame of a page."""
    return (PORTRAIT if orientation == "portrait" else LANDSCAPE)[0] - 2 * MARGIN_X


def frame_height(orientation: str = "portrait") -> float:
    """Height (pt) of the text frame of a page."""
    return (PORTRAIT if orientation == "portrait" else LANDSCAPE)[1] - MARGIN_TOP - MARGIN_BOTTOM
