"""The findings in words: numbers shown to the precision their interval supports, one sentence per finding,
the method line and notes, ranking (re-exported by :mod:`pyradice_lab.engine.findings`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from ._finding import FDR_LEVEL, Finding, _finite


# ----------------------------------------------------------------------------------------- numbers
def _decimals(spread: float) -> int:
    """Decimals that show a number to the precision its uncertainty supports: the first significant
    digit of ``spread`` (the half-width), or the first two when that digit is 1 or 2."""
    exp = math.floor(math.log10(spread))
    lead = int(spread / 10 ** exp)
    return int(min(4, max(0, -exp + (1 if lead < 3 else 0))))


def format_value(x: float, *, unit: str = "", spread: float = 0.0, delta: bool = False) -> str:
    """A number for a sentence: digits suited to ``spread`` (e.g. the half-width), thousands separators,
    ``%`` units shown as percentages (``delta``: percentage points).  Never "nan", "inf" or "-0"."""
    x = _finite("x", x)
    pct = unit == "%"
    if pct:
        x, spread = 100 * x, 100 * spread
    if spread == 0 and x != 0:  # exact or zero-width: three significant digits
        dec = int(min(4, max(0, 2 - math.floor(math.log10(abs(x))))))
    elif spread == 0:
        dec = 0
    else:
        dec = _decimals(spread)
    s = f"{x:,.{dec}f}"
    if s.lstrip("-").strip("0.,") == "":
        s = s.lstrip("-")
    if pct:
        return s + (" percentage points" if delta else "%")
    return s + (f" {unit}" if unit else "")


def format_interval(low: float, high: float, *, unit: str = "", confidence: float = 0.95) -> str:
    """``95% CI a..b`` with the digits the interval supports."""
    spread = (high - low) / 2
    lo = format_value(low, unit="%" if unit == "%" else "", spread=spread)
    hi = format_value(high, unit="%" if unit == "%" else "", spread=spread)
    tail = f" {unit}" if unit and unit != "%" else ""
    return f"{100 * confidence:g}% CI {lo}..{hi}{tail}"


# ----------------------------------------------------------------------------------------- sentences
#: labels of a null value that mean "no change" (a difference from 0 is said as "more" / "less", never "above 0")
_NO_CHANGE = ("", "0", "zero", "no difference", "no change", "the baseline difference")


def _subject(f: Finding) -> str:
    return f.quantity[0].upper() + f.quantity[1:]


def _is_change(f: Finding) -> bool:
    """A difference from 0 with no named reference: said as "N more" / "N less"."""
    return f.null == 0 and f.null_label.lower() in _NO_CHANGE


def _span(f: Finding) -> str:
    """``95% CI a to b`` with the digits the interval supports (the unit after the upper end)."""
    spread = f.halfwidth
    pct = "%" if f.unit == "%" else ""
    lo = format_value(f.ci_low, unit=pct, spread=spread)
    hi = format_value(f.ci_high, unit=pct, spread=spread)
    tail = f" {f.unit}" if f.unit and f.unit != "%" else ""
    return f"{100 * f.confidence:g}% CI {lo} to {hi}{tail}"


def _players(f: Finding) -> str:
    if not f.player:
        return ""
    return f", {f.player} players" if " " not in f.player else f", players: {f.player}"


def _evidence(f: Finding, *, with_estimate: bool = False) -> str:
    """``(95% CI a to b; n games, greedy players)``: the interval, the sample and who played; the method is in
    :func:`method_line`."""
    est = format_value(f.estimate, unit=f.unit, spread=f.halfwidth) + ", " if with_estimate else ""
    return f"({est}{_span(f)}; {f.n:,} {f.sample_unit}{_players(f)})"


def _null(f: Finding) -> str:
    val = format_value(f.null, unit=f.unit)
    return f"{f.null_label} of {val}" if f.null_label and f.null_label.lower() not in _NO_CHANGE else val


def _effect(f: Finding, spread: float) -> str:
    """The effect as a person says it: "3.7 percentage points above a fair share of 50.0%", "4.6 rounds more"."""
    size = format_value(abs(f.effect), unit=f.unit, spread=spread, delta=True)
    if _is_change(f):
        word = ("higher" if f.effect > 0 else "lower") if f.unit == "%" else ("more" if f.effect > 0 else "less")
        return f"{size} {word}"
    return f"{size} {'above' if f.effect > 0 else 'below'} {_null(f)}"


def render(f: Finding) -> str:
    """The finding as one or two sentences a designer would say (see the module docstring for the rules of
    evidence); the method (interval, test, p- and q-values) is :func:`method_line`."""
    if not isinstance(f, Finding):
        raise TypeError(f"f must be a Finding, got {type(f).__name__}")
    subj = _subject(f)
    est = format_value(f.estimate, unit=f.unit, spread=f.halfwidth)
    notes = "".join(" " + (n if n.endswith(".") else n + ".") for n in f.notes)
    who = _players(f).lstrip(", ")
    if f.kind == "exact":
        if f.null is None or f.effect == 0:
            same = "" if f.null is None else (", no change" if _is_change(f) else f", equal to {_null(f)}")
            return f"{subj}: {est}, exactly{same}{' (' + who + ')' if who else ''}." + notes
        if _is_change(f):
            return f"{subj}: {_effect(f, 0.0)}, exactly{' (' + who + ')' if who else ''}." + notes
        return f"{subj}: {est}, exactly; {_effect(f, 0.0)}{' (' + who + ')' if who else ''}." + notes
    shown = _effect(f, f.halfwidth) if _is_change(f) and f.kind == "difference" else est
    if not f.enough_data:
        return (f"{subj}: {shown} {_evidence(f)}; too few {f.sample_unit} for a claim (at least {f.min_n:,}), so "
                f"no conclusion is drawn." + notes)
    if f.no_claim:
        return f"{subj}: {shown} {_evidence(f)}; {f.no_claim}: no claim." + notes
    if f.kind == "estimate":
        return f"{subj}: {est} {_evidence(f)}." + notes
    if f.is_claim:
        if _is_change(f):
            return f"{subj}: {_effect(f, f.halfwidth)} {_evidence(f)}." + notes
        return f"{subj}: {est}, {_effect(f, f.halfwidth)} {_evidence(f)}." + notes
    if f.excludes_null:  # the interval alone would claim; the multiplicity control does not
        why = (f"q = {_pq(f.q_value)} is above the report's false discovery rate of {FDR_LEVEL:.0%}"
               if f.q_value is not None and f.q_value > FDR_LEVEL else f"p = {_pq(f.p)} with its own test")
        lead = _effect(f, f.halfwidth) if _is_change(f) else f"{est}, {_effect(f, f.halfwidth)}"
        return f"{subj}: {lead} {_evidence(f)}, but not claimed: {why}." + notes
    against = "no difference detected" if _is_change(f) else f"no difference from {_null(f)} detected"
    text = f"{subj}: {against} at this sample size {_evidence(f, with_estimate=True)}"
    need = f.games_to_resolve()
    if need is not None:
        text += f"; about {need:,} {f.sample_unit} would resolve a difference of this size"
    else:
        text += (f"; a difference larger than {format_value(f.halfwidth, unit=f.unit, spread=f.halfwidth, delta=True)}"
                 " is unlikely at this sample size")
    return text + "." + notes


def method_line(f: Finding) -> str:
    """The method behind a finding, for a footnote: the interval or test, its p- and q-values, what was compared.

    >>> method_line(Finding("difference", "x", 0.6, 0.55, 0.65, n=400, null=0.5, test="Wilson interval"))
    'Wilson interval; 95% interval; compared with 0.5; p < 0.0001'
    """
    if not isinstance(f, Finding):
        raise TypeError(f"f must be a Finding, got {type(f).__name__}")
    parts = [f.test] if f.test else []
    if f.kind == "exact":
        parts.append("exact")
    else:
        parts.append(f"{100 * f.confidence:g}% interval")
    if f.null is not None:
        parts.append(f"compared with {f.null:g}")
    if f.p is not None and f.kind == "difference":
        parts.append(f"p = {_pq(f.p)}" if f.p >= 1e-4 else "p < 0.0001")
    if f.q_value is not None:
        parts.append(f"q = {_pq(f.q_value)}" if f.q_value >= 1e-4 else "q < 0.0001")
    return "; ".join(parts)


def methods_note(findings: Sequence[Finding], *, short: bool = False) -> str:
    """One footnote line for a list of findings: the methods used, numbered as the findings are listed.

    ``short``: where a document states once that intervals are 95% and where the p- and q-values are (the PDF
    report's title and summary pages), the note leaves both out, and says the level only when it is not 95%.

    >>> fs = [Finding("difference", "a", 0.6, 0.55, 0.65, n=400, null=0.5, test="Wilson interval"),
    ...       Finding("estimate", "b", 3.0, 2.0, 4.0, n=50, test="t interval")]
    >>> methods_note(fs)
    'Method: finding 1, Wilson interval; finding 2, t interval (95% intervals; p- and q-values in the findings CSV).'
    >>> methods_note([Finding("exact", "a", 1.0, 1.0, 1.0, n=0), Finding("exact", "b", 2.0, 2.0, 2.0, n=0)])
    'Method: findings 1 and 2, exact (no sampling error) (p- and q-values in the findings CSV).'
    >>> methods_note(fs, short=True)
    'Method: finding 1, Wilson interval; finding 2, t interval.'
    """
    groups: dict[str, list[int]] = {}
    for i, f in enumerate(findings, 1):
        groups.setdefault(f.test or ("exact (no sampling error)" if f.kind == "exact" else "interval"), []).append(i)
    if not groups:
        return ""
    body = "; ".join(f"{_numbered(ix)}, {t}" for t, ix in groups.items())
    conf = {f"{100 * f.confidence:g}%" for f in findings if f.kind != "exact"}
    level = f"{'/'.join(sorted(conf))} intervals; " if conf else ""
    if short:
        return f"Method: {body}" + (f" ({level[:-2]})." if conf - {"95%"} else ".")
    return f"Method: {body} ({level}p- and q-values in the findings CSV)."


def _numbered(ix: list[int]) -> str:
    """``finding 1``, ``findings 1 and 2``, ``findings 1, 2 and 4``."""
    if len(ix) == 1:
        return f"finding {ix[0]}"
    return f"findings {', '.join(map(str, ix[:-1]))} and {ix[-1]}"


def _pq(x: float) -> str:
    """A p- or q-value for a sentence: two significant digits, "< 0.0001" below that."""
    return "< 0.0001" if x < 1e-4 else f"{x:.2g}"


def render_all(findings: Iterable[Finding]) -> list[str]:
    """:func:`render` of each finding, in order."""
    return [render(f) for f in findings]


def rank(findings: Iterable[Finding]) -> list[Finding]:
    """Findings ordered for a summary: claims first, then by size (relative to scale), then by certainty."""
    items = list(findings)
    for f in items:
        if not isinstance(f, Finding):
            raise TypeError(f"findings must be Finding objects, got {type(f).__name__}")
    return sorted(items, key=lambda f: (not f.is_claim, -f.size, -min(f.certainty, 1e12)))


def component_findings(findings: Iterable[Finding]) -> list[Finding]:
    """The claims that suggest changing a component (``component`` set), ranked."""
    return [f for f in rank(findings) if f.is_claim and f.component]
