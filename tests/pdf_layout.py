"""Layout checks of a PDF read back with pdfplumber and pypdf (used by the report tests).

Each check returns a list of problems (empty when the layout is right), so a test can show all of them.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

MIN_FONT = 7.0


def _words(page):
    """Words of horizontal text (rotated tick labels are left out: their boxes are not their glyphs)."""
    flat = page.filter(lambda o: o.get("object_type") != "char" or abs(o["matrix"][1]) < 1e-6)
    return flat.extract_words(keep_blank_chars=False, use_text_flow=False)


def font_size(c) -> float:
    """The printed font size of a pdfplumber char, rotated text included.

    pdfminer's ``size`` is the height of the char's box, which for rotated text mixes in the advance;
    the box of a glyph of advance ``adv`` and font size ``fs`` turned by ``t`` and scaled by ``k`` is
    ``k (adv |sin t| + fs |cos t|)`` high and ``k (adv |cos t| + fs |sin t|)`` wide.
    """
    a, b = c["matrix"][:2]
    k = math.hypot(a, b) or 1.0
    cos, sin = abs(a) / k, abs(b) / k
    if cos >= sin:
        return (c["height"] - k * c["adv"] * sin) / cos
    return (c["width"] - k * c["adv"] * cos) / sin


def layout_problems(path, *, margin: float = 30.0, min_font: float = MIN_FONT) -> list[str]:
    """Text outside the page box or the side margins, fonts below ``min_font``, pages with nothing on them
    besides the running header and footer, and words that overlap other words (overlapping header cells)."""
    import pdfplumber

    problems: list[str] = []
    with pdfplumber.open(str(path)) as pdf:
        for no, page in enumerate(pdf.pages, 1):
            w, h = float(page.width), float(page.height)
            chars = page.chars
            if chars:
                x0 = np.array([c["x0"] for c in chars])
                x1 = np.array([c["x1"] for c in chars])
                top = np.array([c["top"] for c in chars])
                bottom = np.array([c["bottom"] for c in chars])
                size = np.array([font_size(c) for c in chars])
                text = np.array([c["text"] for c in chars])
                out = (x0 < 0) | (x1 > w) | (top < 0) | (bottom > h)
                if out.any():
                    problems.append(f"page {no}: {int(out.sum())} characters outside the page box "
                                    f"({''.join(text[out][:20])!r})")
                side = ((x0 < margin - 1) | (x1 > w - margin + 1)) & ~out
                if side.any():
                    problems.append(f"page {no}: {int(side.sum())} characters in the side margins "
                                    f"({''.join(text[side][:20])!r})")
                small = size < min_font - 0.01
                if small.any():
                    problems.append(f"page {no}: {int(small.sum())} characters smaller than {min_font:g} pt "
                                    f"(smallest {size.min():.1f} pt: {''.join(text[small][:20])!r})")
            body = [c for c in chars if 60 < c["top"] and c["bottom"] < h - 40]
            if not body and not page.images and len(page.curves) + len(page.lines) + len(page.rects) < 5:
                problems.append(f"page {no}: empty (nothing besides the running header and footer)")
            problems += [f"page {no}: {p}" for p in overlapping_chars(page)]
    return problems


def overlapping_chars(page, tol: float = 0.5) -> list[str]:
    """Horizontal characters whose boxes overlap by more than ``tol`` points both ways: text running into
    other text (overlapping header cells, labels on top of each other).  A character and the next one of
    the same string may overlap (kerning)."""
    chars = [dict(c, seq=i) for i, c in enumerate(page.chars) if abs(c["matrix"][1]) < 1e-6 and c["text"].strip()]
    if len(chars) < 2:
        return []
    b = np.array([[c["x0"], c["top"], c["x1"], c["bottom"]] for c in chars])
    order = np.argsort(b[:, 0])
    b = b[order]
    found = []
    for i in range(len(b) - 1):
        end = np.searchsorted(b[:, 0], b[i, 2] - tol, side="left")
        if end <= i + 1:
            continue
        cand = b[i + 1:end]
        ox = np.minimum(b[i, 2], cand[:, 2]) - np.maximum(b[i, 0], cand[:, 0])
        oy = np.minimum(b[i, 3], cand[:, 3]) - np.maximum(b[i, 1], cand[:, 1])
        for k in np.nonzero((ox > tol) & (oy > tol))[0]:
            a, c = chars[order[i]], chars[order[i + 1 + k]]
            if abs(a["seq"] - c["seq"]) == 1 and abs(a["y0"] - c["y0"]) < 0.01:
                continue  # neighbours in one string: kerning
            found.append(f"characters overlap: {a['text']!r} at ({a['x0']:.0f}, {a['top']:.0f}) and {c['text']!r}")
    return found[:20]


def overlapping_words(words, tol: float = 0.6) -> list[str]:
    """Pairs of words whose boxes overlap by more than ``tol`` points in both directions."""
    if len(words) < 2:
        return []
    b = np.array([[w["x0"], w["top"], w["x1"], w["bottom"]] for w in words])
    out = []
    order = np.argsort(b[:, 1])
    b = b[order]
    for i in range(len(b)):
        j = i + 1
        while j < len(b) and b[j, 1] < b[i, 3] - tol:
            ox = min(b[i, 2], b[j, 2]) - max(b[i, 0], b[j, 0])
            oy = min(b[i, 3], b[j, 3]) - max(b[i, 1], b[j, 1])
            if ox > tol and oy > tol:
                out.append(f"words overlap: {words[order[i]]['text']!r} and {words[order[j]]['text']!r}")
            j += 1
    return out


def outline(path) -> list[tuple[int, str, int]]:
    """The PDF bookmarks as (level, title, page number) in document order."""
    from pypdf import PdfReader

    reader = PdfReader(str(path))
    rows: list[tuple[int, str, int]] = []

    def walk(items, level):
        for it in items:
            if isinstance(it, list):
                walk(it, level + 1)
            else:
                rows.append((level, it.title, reader.get_destination_page_number(it) + 1))

    walk(reader.outline, 0)
    return rows


def _bookmark_tops(path) -> list[float | None]:
    """The height (points from the page's bottom) each bookmark opens at, in the order of :func:`outline`;
    None for a bookmark to a whole page."""
    from pypdf import PdfReader

    reader = PdfReader(str(path))
    out: list[float | None] = []

    def walk(items):
        for it in items:
            if isinstance(it, list):
                walk(it)
            else:
                top = getattr(it, "top", None)
                out.append(None if top is None else float(top))

    walk(reader.outline)
    return out


def section_pages(path) -> dict[str, tuple[int, int, list[str]]]:
    """For every top-level bookmark: (first page, last page, titles of its child bookmarks).

    A part ends on the page before the next part's first page, or on that page when the next part starts
    halfway down it (its bookmark opens below the top of the text frame)."""
    rows = outline(path)
    heights = _bookmark_tops(path)
    from pypdf import PdfReader

    reader = PdfReader(str(path))
    n_pages = len(reader.pages)
    tops = [(i, r) for i, r in enumerate(rows) if r[0] == 0]
    out = {}
    for k, (i, (_, title, page)) in enumerate(tops):
        nxt = tops[k + 1] if k + 1 < len(tops) else None
        end_idx = nxt[0] if nxt else len(rows)
        last = (nxt[1][2] if nxt else n_pages + 1) - 1
        if nxt is not None and heights[nxt[0]] is not None:
            page_top = float(reader.pages[nxt[1][2] - 1].mediabox.top)
            if heights[nxt[0]] < page_top - 64 - 40:  # below the top of the text frame: a shared page
                last += 1
        out[title] = (page, max(page, last), [r[1] for r in rows[i + 1:end_idx] if r[0] == 1])
    return out


def page_texts(path) -> list[str]:
    from pypdf import PdfReader

    return [p.extract_text() or "" for p in PdfReader(str(path)).pages]


if __name__ == "__main__":
    import sys
    import time

    t = time.perf_counter()
    probs = layout_problems(Path(sys.argv[1]))
    print("\n".join(probs) or "no problems", f"({time.perf_counter() - t:.1f} s)")
