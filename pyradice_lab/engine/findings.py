"""Findings are data: what an experiment concludes, with the numbers it rests on, rendered into sentences.

An experiment (``<game>/analysis.py``) returns its table and a list of :class:`Finding` objects computed
from that table: the quantity, its estimate and interval, the value meaning "no difference" (``null``),
the interval or test used, the sample size, the players it was measured with and, once the designer tools
assess it, whether it is robust to the reconstructed components.  The report never writes a conclusion by
hand: :func:`render` turns each finding into a sentence, and the rules of evidence live here, in one place:

- a difference or an advantage is claimed only when its interval excludes the null value *and* the sample
  holds at least :data:`MIN_CLAIM_N` units (games), or when both numbers are exact;
- across a report the claims are controlled together: every Monte Carlo finding that could claim carries its
  p-value, :func:`control_fdr` adds the Benjamini-Hochberg q-value over all of them, and a claim then also
  needs ``q <= FDR_LEVEL`` (5%: on average at most 5% of the claims made are false); exact findings carry no
  sampling error and are not tested;
- inside one experiment's family of related findings (the pairs of one ladder, the cards of one table)
  :func:`holm` adjusts the family's p-values (familywise error), where one of them is singled out;
- a quick run makes no claim at all (``no_claim="quick run"``): its findings show their numbers and say so;
- otherwise the sentence says that no difference was detected at this sample size, gives the interval and
  the sample size, and how many games would resolve a difference of the size observed;
- below the minimum sample size a finding shows its numbers and makes no claim;
- no NaN, inf or None can reach the text: a :class:`Finding` with such numbers cannot be built.

:func:`rank` orders findings for the report's summary page: claims first, by size (relative to a scale)
and then certainty; :func:`component_findings` picks the claims that suggest changing a component.

Examples
--------
>>> from pyradice_lab.engine.findings import Finding, render
>>> f = Finding("difference", "start-player win share, 2 players", 0.537, 0.512, 0.561, n=1500, null=0.5,
...             null_label="a fair share", test="Wilson interval", player="greedy", unit="%")
>>> render(f)
'Start-player win share, 2 players: 53.7%, 3.7 percentage points above a fair share of 50.0% (95% CI 51.2% to 56.1%; 1,500 games, greedy players).'
>>> method_line(f)
'Wilson interval; 95% interval; compared with 0.5; p = 0.0037'
>>> g = Finding("difference", "start-player win share, 3 players", 0.35, 0.31, 0.39, n=500, null=1 / 3,
...             null_label="a fair share", unit="%")
>>> render(g)  # doctest: +ELLIPSIS
'Start-player win share, 3 players: no difference from a fair share of 33.3% detected at this sample size (35%, 95% CI 31% to 39%; 500 games); about 2,900 games would resolve a difference of this size.'
"""

from __future__ import annotations

import math
import numbers
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from .stats import Z95, Estimate, holm

__all__ = ["Finding", "KINDS", "MIN_CLAIM_N", "FDR_LEVEL", "render", "render_all", "method_line", "methods_note",
           "rank", "component_findings",
           "format_value", "format_interval", "from_estimate", "difference_of", "findings_table", "control_fdr",
           "fdr_sentence", "holm", "with_sensitivity", "pair_findings", "is_designer_finding", "sensitivity_text",
           "heuristic_only", "game_heuristics", "merge_players"]

#: the kinds of finding: a comparison with a null value, a plain estimate, an exact number
KINDS = ("difference", "estimate", "exact")

#: the smallest sample (games, or whatever ``sample_unit`` says) on which the report makes a claim
MIN_CLAIM_N = 100

#: the false discovery rate at which a report's Monte Carlo claims are controlled (Benjamini-Hochberg)
FDR_LEVEL = 0.05

_MAX_RESOLVE = 10_000_000  # beyond this "about N games would resolve it" is not a useful statement


def _finite(name: str, v) -> float:
    if isinstance(v, bool) or not isinstance(v, numbers.Real) or not math.isfinite(float(v)):
        raise ValueError(f"{name} must be a finite number, got {v!r}")
    return float(v)


def _text(name: str, v, *, required: bool = False) -> str:
    if v is None:
        v = ""
    if not isinstance(v, str):
        raise TypeError(f"{name} must be a string, got {type(v).__name__}")
    v = " ".join(v.split())
    if required and not v:
        raise ValueError(f"{name} must be a non-empty string")
    for bad in ("nan", "inf", "None"):
        if bad in v.replace(",", " ").replace("(", " ").replace(")", " ").split():
            raise ValueError(f"{name} must not contain {bad!r}, got {v!r}")
    return v


@dataclass(frozen=True)
class Finding:
    """One conclusion of an experiment, with the numbers it rests on.

    Parameters
    ----------
    kind : {"difference", "estimate", "exact"}
        ``difference``: the estimate is compared with ``null`` (a fair share, 0 points, the baseline);
        a difference is claimed only when the interval excludes ``null`` and ``n >= min_n``.
        ``estimate``: a value with its interval, no comparison.  ``exact``: an exact number (``n`` may
        be 0; the interval equals the estimate); compared with ``null`` when one is given.
    quantity : str
        What is measured, in words ("start-player win share, 2 players").
    estimate, ci_low, ci_high : float
        The estimate and its confidence interval (finite; ``ci_low <= estimate <= ci_high``).
    n : int
        The sample size the interval rests on (games per compared group), ``>= 0``.
    null : float, optional
        The value that means "no difference" (required for ``difference``).
    null_label : str
        How to name the null value in the sentence ("a fair share", "the baseline"); default "".
    test : str
        The interval or test used ("Wilson interval", "paired t interval", "bootstrap").
    player : str
        The player strength / policy the games were played with ("greedy", "expectimax vs greedy").
    unit : str
        Unit of the estimate ("points", "turns"); ``"%"`` shows fractions as percentages.
    sample_unit : str
        What ``n`` counts (default "games").
    component : str
        The component a designer would change if this finding holds ("tile 12 values"); empty if none.
    robust : bool, optional
        Whether the finding holds on sampled plausible component sets (None: not assessed).
    robustness : str
        How robustness was assessed ("holds on 18 of 20 sampled tile sets").
    scale : float, optional
        A reference magnitude used to compare sizes across findings (default: ``|null|`` when not 0,
        else 1).
    confidence : float
        Confidence level of the interval (default 0.95).
    min_n : int
        Minimum sample size for a claim (default :data:`MIN_CLAIM_N`).
    notes : tuple of str
        Sentences appended to the rendered finding.
    p_value : float, optional
        Two-sided p-value of "no difference" (``difference`` findings); default: read off the interval (the
        normal test on the interval's side towards the null, so ``p < 0.05`` exactly when a 95% interval
        excludes the null).  An experiment with a better test (exact, permutation) gives its own.
    q_value : float, optional
        The Benjamini-Hochberg q-value over the report's tests (set by :func:`control_fdr`); a claim needs
        ``q_value <= FDR_LEVEL``.  None: not controlled (a finding on its own: ``q = p``).
    no_claim : str
        Why this finding makes no claim whatever its numbers (``"quick run"``); "" = the rules decide.
    """

    kind: str
    quantity: str
    estimate: float
    ci_low: float
    ci_high: float
    n: int
    null: float | None = None
    null_label: str = ""
    test: str = ""
    player: str = ""
    unit: str = ""
    sample_unit: str = "games"
    component: str = ""
    robust: bool | None = None
    robustness: str = ""
    scale: float | None = None
    confidence: float = 0.95
    min_n: int = MIN_CLAIM_N
    notes: tuple[str, ...] = field(default=())
    p_value: float | None = None
    q_value: float | None = None
    no_claim: str = ""
    sensitivity_player: str = ""
    sensitivity: tuple[float, ...] = field(default=())

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, got {self.kind!r}")
        set_ = object.__setattr__
        set_(self, "quantity", _text("quantity", self.quantity, required=True))
        for name in ("null_label", "test", "player", "unit", "component", "robustness"):
            set_(self, name, _text(name, getattr(self, name)))
        set_(self, "sample_unit", _text("sample_unit", self.sample_unit, required=True))
        for name in ("estimate", "ci_low", "ci_high"):
            set_(self, name, _finite(name, getattr(self, name)))
        tol = 1e-9 * max(1.0, abs(self.estimate))
        if not self.ci_low - tol <= self.estimate <= self.ci_high + tol:
            raise ValueError(f"ci_low <= estimate <= ci_high must hold, got {self.ci_low!r} <= {self.estimate!r} "
                             f"<= {self.ci_high!r}")
        if isinstance(self.n, bool) or not isinstance(self.n, numbers.Integral) or self.n < 0:
            raise ValueError(f"n must be a non-negative integer sample size, got {self.n!r}")
        set_(self, "n", int(self.n))
        if self.null is not None:
            set_(self, "null", _finite("null", self.null))
        if self.kind == "difference":
            if self.null is None:
                raise ValueError("null must be given for a 'difference' finding (the value meaning no difference)")
            if self.n == 0:
                raise ValueError("n must be positive for a 'difference' finding (use kind='exact' for exact numbers)")
        if self.kind == "exact" and self.ci_low != self.ci_high:
            raise ValueError("ci_low and ci_high must equal the estimate for an 'exact' finding")
        if self.scale is not None and not _finite("scale", self.scale) > 0:
            raise ValueError(f"scale must be positive, got {self.scale!r}")
        if not isinstance(self.confidence, numbers.Real) or not 0 < self.confidence < 1:
            raise ValueError(f"confidence must be in (0, 1), got {self.confidence!r}")
        if isinstance(self.min_n, bool) or not isinstance(self.min_n, numbers.Integral) or self.min_n < 1:
            raise ValueError(f"min_n must be a positive integer, got {self.min_n!r}")
        if self.robust is not None and not isinstance(self.robust, bool):
            raise TypeError(f"robust must be True, False or None, got {self.robust!r}")
        set_(self, "notes", tuple(_text("notes", t, required=True) for t in self.notes))
        set_(self, "no_claim", _text("no_claim", self.no_claim))
        set_(self, "sensitivity_player", _text("sensitivity_player", self.sensitivity_player))
        sens = tuple(_finite("sensitivity", v) for v in self.sensitivity)
        if sens and (len(sens) != 3 or not sens[1] <= sens[0] <= sens[2] or not self.sensitivity_player):
            raise ValueError("sensitivity must be (estimate, ci_low, ci_high) with ci_low <= estimate <= ci_high and "
                             f"a sensitivity_player, got {self.sensitivity!r}")
        set_(self, "sensitivity", sens)
        for name in ("p_value", "q_value"):
            v = getattr(self, name)
            if v is not None:
                v = _finite(name, v)
                if not 0 <= v <= 1:
                    raise ValueError(f"{name} must lie in [0, 1], got {v!r}")
                set_(self, name, v)

    # ------------------------------------------------------------------------------ evidence
    @property
    def effect(self) -> float:
        """``estimate - null`` (0 when there is no null value)."""
        return 0.0 if self.null is None else self.estimate - self.null

    @property
    def halfwidth(self) -> float:
        return (self.ci_high - self.ci_low) / 2

    @property
    def enough_data(self) -> bool:
        """Exact, or a sample of at least ``min_n``."""
        return self.kind == "exact" or self.n >= self.min_n

    @property
    def excludes_null(self) -> bool:
        """Whether the interval excludes the null value (False without a null value)."""
        if self.null is None:
            return False
        if self.kind == "exact":
            return self.estimate != self.null
        return self.ci_low > self.null or self.ci_high < self.null

    @property
    def tested(self) -> bool:
        """Whether the finding is a Monte Carlo test of "no difference" that could claim: a ``difference`` with
        enough data (exact findings carry no sampling error and are not tested)."""
        return self.kind == "difference" and self.null is not None and self.enough_data

    @property
    def p(self) -> float | None:
        """The two-sided p-value of "no difference": ``p_value`` if given, else read off the interval (the normal
        test with the SE of the interval's side towards the null); None for exact findings and estimates."""
        if self.kind != "difference" or self.null is None:
            return None
        if self.p_value is not None:
            return self.p_value
        if self.effect == 0:
            return 1.0
        side = self.estimate - self.ci_low if self.effect > 0 else self.ci_high - self.estimate
        if side <= 0:
            return 0.0
        from statistics import NormalDist

        return float(2 * NormalDist().cdf(-abs(self.effect) / (side / _z(self.confidence))))

    @property
    def is_claim(self) -> bool:
        """Whether the finding claims a difference: the interval excludes the null value on enough data, and, once
        the report has controlled its false discovery rate, the q-value is at most :data:`FDR_LEVEL`; never with
        ``no_claim`` set."""
        if self.no_claim or not (self.null is not None and self.kind in ("difference", "exact")
                                 and self.excludes_null and self.enough_data):
            return False
        if self.kind == "difference":
            if self.p_value is not None and self.p_value > 1 - self.confidence:
                return False
            if self.q_value is not None and self.q_value > FDR_LEVEL:
                return False
        return True

    @property
    def size(self) -> float:
        """Size of the effect relative to ``scale`` (used for ranking findings of different units)."""
        if self.null is None:
            return 0.0
        scale = self.scale if self.scale is not None else (abs(self.null) if self.null != 0 else 1.0)
        return abs(self.effect) / scale

    @property
    def certainty(self) -> float:
        """``|effect| / standard error`` (infinite for exact findings with an effect, 0 without a null)."""
        if self.null is None or self.effect == 0:
            return 0.0
        if self.kind == "exact" or self.halfwidth == 0:
            return math.inf
        return abs(self.effect) / (self.halfwidth / _z(self.confidence))

    def games_to_resolve(self) -> int | None:
        """About how many units would make the interval exclude the null if the effect stayed as observed.

        Scales the sample size by ``(halfwidth / |effect|)^2`` (intervals shrink like ``1/sqrt(n)``),
        rounded up to two significant digits; None when there is no effect to resolve or the number is
        beyond any useful run.
        """
        if self.kind != "difference" or self.effect == 0 or self.halfwidth == 0:
            return None
        ratio = self.halfwidth / abs(self.effect)
        if ratio > math.sqrt(_MAX_RESOLVE / self.n):  # also keeps a vanishing effect from overflowing the square
            return None
        need = self.n * ratio ** 2
        if need > _MAX_RESOLVE:
            return None
        need = max(need, self.min_n, self.n + 1)
        digits = max(0, int(math.floor(math.log10(need))) - 1)
        return int(math.ceil(need / 10 ** digits) * 10 ** digits)

    def with_context(self, **changes) -> Finding:
        """A validated copy with some fields changed (e.g. ``player=`` or ``robust=`` added later)."""
        return replace(self, **changes)

    def to_dict(self) -> dict:
        """Flat dict (one row of a findings table), including the rendered sentence and the claim flag."""
        return {"kind": self.kind, "quantity": self.quantity, "estimate": self.estimate, "ci_low": self.ci_low,
                "ci_high": self.ci_high, "n": self.n, "null": self.null, "test": self.test, "player": self.player,
                "unit": self.unit, "component": self.component, "robust": self.robust,
                "robustness": self.robustness, "claim": self.is_claim, "tested": self.tested,
                "p_value": self.p, "q_value": self.q_value, "no_claim": self.no_claim,
                "sensitivity_player": self.sensitivity_player,
                "sensitivity_estimate": self.sensitivity[0] if self.sensitivity else None,
                "sensitivity_ci_low": self.sensitivity[1] if self.sensitivity else None,
                "sensitivity_ci_high": self.sensitivity[2] if self.sensitivity else None,
                "sensitivity": sensitivity_text(self), "sentence": render(self),
                "method": method_line(self)}


def _z(confidence: float) -> float:
    if confidence == 0.95:
        return Z95
    from statistics import NormalDist

    return NormalDist().inv_cdf(0.5 + confidence / 2)


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


def methods_note(findings: Sequence[Finding]) -> str:
    """One footnote line for a list of findings: the methods used, numbered as the findings are listed.

    >>> fs = [Finding("difference", "a", 0.6, 0.55, 0.65, n=400, null=0.5, test="Wilson interval"),
    ...       Finding("estimate", "b", 3.0, 2.0, 4.0, n=50, test="t interval")]
    >>> methods_note(fs)
    'Method: 1 Wilson interval; 2 t interval (95% intervals; p- and q-values in the findings CSV).'
    """
    groups: dict[str, list[int]] = {}
    for i, f in enumerate(findings, 1):
        groups.setdefault(f.test or ("exact" if f.kind == "exact" else "interval"), []).append(i)
    if not groups:
        return ""
    body = "; ".join(f"{', '.join(map(str, ix))} {t}" for t, ix in groups.items())
    conf = {f"{100 * f.confidence:g}%" for f in findings if f.kind != "exact"}
    level = f"{'/'.join(sorted(conf))} intervals; " if conf else ""
    return f"Method: {body} ({level}p- and q-values in the findings CSV)."


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


# ----------------------------------------------------------------------------------------- constructors
def from_estimate(kind: str, quantity: str, est: Estimate, **kwargs) -> Finding:
    """A :class:`Finding` from a :class:`~pyradice_lab.engine.stats.Estimate` (value, interval, n, confidence).

    Examples
    --------
    >>> from pyradice_lab.engine.stats import proportion_estimate
    >>> f = from_estimate("difference", "start-player win share", proportion_estimate(58, 100), null=0.5,
    ...                   unit="%", test="Wilson interval")
    >>> f.is_claim, f.games_to_resolve()
    (False, 150)
    """
    if not isinstance(est, Estimate):
        raise TypeError(f"est must be an Estimate, got {type(est).__name__}")
    return Finding(kind, quantity, est.value, est.ci_low, est.ci_high, n=est.n, confidence=est.confidence,
                   **kwargs)


def difference_of(quantity: str, a: Estimate, b: Estimate, **kwargs) -> Finding:
    """The difference ``a - b`` of two independent estimates as a ``difference`` finding with null 0.

    Normal interval with ``se = sqrt(se_a^2 + se_b^2)``; ``n`` is the smaller sample.  Paired
    comparisons (common random numbers) have a narrower interval: build their Finding from the paired
    estimate instead.
    """
    for name, e in (("a", a), ("b", b)):
        if not isinstance(e, Estimate):
            raise TypeError(f"{name} must be an Estimate, got {type(e).__name__}")
    d = a.value - b.value
    se = math.hypot(a.se, b.se)
    z = _z(a.confidence)
    kwargs.setdefault("test", "normal interval of a difference")
    kwargs.setdefault("null", 0.0)
    return Finding("difference", quantity, d, d - z * se, d + z * se, n=min(a.n, b.n), confidence=a.confidence,
                   **kwargs)


def findings_table(findings: Sequence[Finding]):
    """A tidy DataFrame of findings (one row each, with the sentence)."""
    import pandas as pd

    return pd.DataFrame([f.to_dict() for f in findings])


# ----------------------------------------------------------------------------------------- multiplicity
def control_fdr(findings: Sequence[Finding], *, level: float = FDR_LEVEL, quick: bool = False) -> list[Finding]:
    """The findings with their p-values and Benjamini-Hochberg q-values over all the tested ones.

    The tested findings are the Monte Carlo ``difference`` findings with enough data (:attr:`Finding.tested`):
    each gets ``p_value`` (its own, or read off its interval) and ``q_value`` (scipy's
    ``false_discovery_control``, method ``"bh"``, over all of them), so that a claim then needs
    ``q <= level``: on average at most ``level`` of the claims made are false (Benjamini & Hochberg 1995; valid
    for independent or positively dependent tests).  Exact findings and estimates are not tested and keep
    ``q_value = None``.  ``quick``: every finding gets ``no_claim="quick run"`` (the numbers stay, no claim).

    Examples
    --------
    >>> fs = [Finding("difference", f"effect {i}", e, e - 0.1, e + 0.1, n=500, null=0.0)
    ...       for i, e in enumerate([0.3, 0.105, 0.102, 0.0, 0.0])]
    >>> [f.is_claim for f in fs]          # each on its own: three intervals exclude 0
    [True, True, True, False, False]
    >>> out = control_fdr(fs)             # five tests together: one claim survives
    >>> [f.is_claim for f in out], [round(f.q_value, 3) for f in out]
    ([True, False, False, False, False], [0.0, 0.076, 0.076, 1.0, 1.0])
    """
    if not isinstance(level, numbers.Real) or not 0 < level < 1:
        raise ValueError(f"level must be in (0, 1), got {level!r}")
    findings = list(findings)
    for f in findings:
        if not isinstance(f, Finding):
            raise TypeError(f"findings must be Finding objects, got {type(f).__name__}")
    tested = [i for i, f in enumerate(findings) if f.tested and not f.no_claim]
    out = list(findings)
    if tested:
        import numpy as np
        from scipy.stats import false_discovery_control

        ps = np.array([findings[i].p for i in tested], dtype=float)
        qs = false_discovery_control(ps, method="bh")
        for i, p, q in zip(tested, ps, qs):
            out[i] = findings[i].with_context(p_value=float(p), q_value=float(min(q, 1.0)))
    if quick:
        out = [f.with_context(no_claim="quick run") for f in out]
    if level != FDR_LEVEL:  # the claim rule reads FDR_LEVEL: a stricter level withholds the claims it rejects
        out = [f.with_context(no_claim=f"q above {level:g}") if f.q_value is not None and f.q_value > level
               and f.is_claim else f for f in out]
    return out


def fdr_sentence(findings: Sequence[Finding], *, level: float = FDR_LEVEL, quick: bool = False) -> str:
    """One sentence for a report's summary: how many claims, at which false discovery rate, how many of them
    could be false on average; exact findings are not tested.

    Examples
    --------
    >>> fs = control_fdr([Finding("difference", f"effect {i}", e, e - 0.1, e + 0.1, n=500, null=0.0)
    ...                   for i, e in enumerate([0.3, 0.105, 0.102, 0.0, 0.0])])
    >>> fdr_sentence(fs)  # doctest: +NORMALIZE_WHITESPACE
    'The report makes 1 claim from 5 Monte Carlo tests, with the false discovery rate controlled at 5%
    (Benjamini-Hochberg q-values, q_value in the findings CSV): the expected number of false claims among them
    is at most 0.05.'
    """
    findings = list(findings)
    tests = sum(f.tested for f in findings)
    exact = sum(f.kind == "exact" and f.null is not None for f in findings)
    tail = (f"; its {exact} exact finding{'s are' if exact != 1 else ' is'} not tested (no sampling error)"
            if exact else "")
    if quick:
        return (f"Quick run: no claims; its {tests} Monte Carlo findings that could be tested show their numbers, "
                f"p- and q-values (false discovery rate {level:.0%}, Benjamini-Hochberg) and make no claim{tail}.")
    claims = sum(f.is_claim and f.kind == "difference" for f in findings)
    expected = level * claims
    return (f"The report makes {claims} claim{'s' if claims != 1 else ''} from {tests} Monte Carlo test"
            f"{'s' if tests != 1 else ''}, with the false discovery rate controlled at {level:.0%} "
            f"(Benjamini-Hochberg q-values, q_value in the findings CSV): the expected number of false claims "
            f"among them is at most {expected:.2g}{tail}.")


# ----------------------------------------------------------------------------------------- players (issue 27)
_START = re.compile(r"\bstart[- ]player", re.IGNORECASE)


def is_designer_finding(f: Finding) -> bool:
    """Whether a designer may act on ``f``: it names a component (``component`` set) or the start player (its
    quantity speaks of the start player).  These findings are measured with the game's report player
    (``registry.get_game(g).report_player``), its heuristic beside it (:func:`with_sensitivity`)."""
    return bool(f.component) or _START.search(f.quantity) is not None


def sensitivity_text(f: Finding) -> str:
    """``"greedy: 37% [35%, 39%]"``: the heuristic's result beside the report player's ("" when none)."""
    if not f.sensitivity:
        return ""
    est, lo, hi = f.sensitivity
    spread = (hi - lo) / 2
    pct = "%" if f.unit == "%" else ""
    tail = f" {f.unit}" if f.unit and f.unit != "%" else ""
    return (f"{f.sensitivity_player}: {format_value(est, unit=pct, spread=spread)} "
            f"[{format_value(lo, unit=pct, spread=spread)}, {format_value(hi, unit=pct, spread=spread)}]{tail}")


def _side(est: float, lo: float, hi: float, null: float | None) -> int:
    """+1 / -1: the interval lies above / below ``null``; 0: it covers it (or there is no null)."""
    if null is None:
        return 0
    return 1 if lo > null else -1 if hi < null else 0


def with_sensitivity(strong: Finding, heuristic: Finding, *, heuristic_player: str | None = None) -> Finding:
    """``strong`` (measured with the report player) with ``heuristic``'s result beside it as its sensitivity
    (:func:`sensitivity_text`) and, when the two disagree, a sentence saying how: the intervals point to
    different sides of the null value (or, for a finding without one, do not overlap).

    Examples
    --------
    >>> s = Finding("difference", "start player's win share", 0.52, 0.49, 0.55, n=800, null=0.5, player="optimal",
    ...             unit="%", null_label="a fair share")
    >>> h = Finding("difference", "start player's win share", 0.60, 0.57, 0.63, n=2000, null=0.5, player="greedy",
    ...             unit="%", null_label="a fair share")
    >>> f = with_sensitivity(s, h)
    >>> f.sensitivity_player, sensitivity_text(f)
    ('greedy', 'greedy: 60% [57%, 63%]')
    >>> f.notes[-1]
    'Sensitivity, greedy: 60% [57%, 63%]. The two players disagree: with greedy the result is above a fair share of 50.0%, where optimal leaves it undecided at its sample size.'
    """
    if not isinstance(strong, Finding) or not isinstance(heuristic, Finding):
        raise TypeError("strong and heuristic must be Finding objects")
    who = heuristic_player or heuristic.player or "heuristic"
    out = strong.with_context(sensitivity_player=who,
                              sensitivity=(heuristic.estimate, heuristic.ci_low, heuristic.ci_high))
    # a side counts only on a sample large enough for a claim (below it a finding draws no conclusion)
    a = _side(strong.estimate, strong.ci_low, strong.ci_high, strong.null) if strong.enough_data else 0
    b = _side(heuristic.estimate, heuristic.ci_low, heuristic.ci_high, strong.null) if heuristic.enough_data else 0
    null = _null(strong) if strong.null is not None else ""
    if strong.null is not None and _is_change(strong):  # a change from 0 is said as more / less
        words = {1: "an increase", -1: "a decrease", 0: "undecided"}
    else:
        words = {1: f"above {null}", -1: f"below {null}", 0: "undecided"}
    shown = sensitivity_text(out).split(": ", 1)[1]
    note = f"Sensitivity, {who}: {shown}"
    mine = strong.player or "the report player"
    if strong.null is not None and a != b:
        note += f". The two players disagree: with {who} the result is {words[b]}, "
        if a == 0:
            note += f"where {mine} leaves it undecided at its sample size"
        elif b == 0:
            note += f"where {mine} finds it {words[a]}"
        else:
            note += f"where {mine} finds it {words[a]}: the finding depends on the players"
    elif strong.null is None and (heuristic.ci_low > strong.ci_high or heuristic.ci_high < strong.ci_low):
        note += f". The two players disagree: with {who} the interval does not overlap {mine}'s"
    return out.with_context(notes=(*out.notes, note + "."))


def pair_findings(strong: Sequence[Finding], heuristic: Sequence[Finding], *, key=None,
                  heuristic_player: str | None = None) -> list[Finding]:
    """The findings of ``strong`` (the report player's run of an experiment), each designer finding
    (:func:`is_designer_finding`) with the matching finding of ``heuristic`` (the same experiment with the
    heuristic player) beside it; matched by ``key(f)`` (default: the quantity, its decimal numbers left out: a
    reference such as "the deck's 3.04" depends on the players).  Findings of ``heuristic``
    without a match are left out (the page is the report player's)."""
    key = key or _quantity_key
    by = {}
    for h in heuristic:
        by.setdefault(key(h), h)
    return [with_sensitivity(f, by[key(f)], heuristic_player=heuristic_player)
            if is_designer_finding(f) and key(f) in by else f for f in strong]


def _quantity_key(f: Finding) -> str:
    return re.sub(r"\d+\.\d+", "#", f.quantity)


def heuristic_only(player: str, report_player: str, heuristics: Iterable[str], *, strong: Iterable[str] = ()) -> bool:
    """Whether a finding's ``player`` label names heuristic players only: it mentions neither ``report_player``
    nor any of ``strong`` (players at least as strong, e.g. Meerkat's ``mcts`` beside its report player
    ``mcts_late``) and mentions one of ``heuristics`` (policy names; ``"risk"`` also matches ``"risk:0.35"``).
    A label naming no given policy (an exact computation: ``"exact optimum"``) is not a heuristic.

    >>> heuristic_only("greedy", "mcts", ["greedy", "expectimax"]), heuristic_only("mcts vs greedy", "mcts", ["greedy"])
    (True, False)
    >>> heuristic_only("mcts vs greedy", "mcts_late", ["greedy"], strong=["mcts"])
    False
    """
    words = set(re.findall(r"[A-Za-z_]+", player or ""))
    base = {h.split(":")[0] for h in heuristics}
    top = {p.split(":")[0] for p in (report_player, *strong)}
    return not (words & top) and bool(words & base)


def game_heuristics(spec) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``(heuristics, strong)`` of a registered game (:class:`~pyradice_lab.engine.registry.GameSpec`), from the
    registry explicitly: the heuristics are its ``heuristic_player`` and the policies registered weaker than its
    ``report_player`` (``policies`` are in strength order, weakest first); ``strong`` the policies registered
    after the report player (stronger, unaffordable at report scale: not heuristics)."""
    pols = tuple(spec.policies)
    rp = spec.report_player
    k = pols.index(rp) if rp in pols else len(pols)
    weaker = tuple(p for p in pols[:k] if p != rp)
    heuristics = tuple(dict.fromkeys((spec.heuristic_player, *weaker))) if spec.heuristic_player else weaker
    strong = tuple(p for p in pols[k + 1:] if p not in heuristics)
    return heuristics, strong


def merge_players(findings: Sequence[Finding], report_player: str, heuristic_player: str) -> list[Finding]:
    """An experiment that measured each finding under both players (one finding per player, the same quantity):
    the designer findings of ``heuristic_player`` become the sensitivity of the ``report_player``'s finding of the
    same quantity (:func:`with_sensitivity`) and leave the list; every other finding stays, in order.  Players
    are matched on the label's first word (``"exact"``, ``"greedy, every seat"``).

    >>> f = [Finding("difference", "start player's win share", 0.55, 0.5, 0.6, n=300, null=0.5, player=p)
    ...      for p in ("greedy", "exact")]
    >>> [(g.player, g.sensitivity_player) for g in merge_players(f, "exact", "greedy")]
    [('exact', 'greedy')]
    """
    def first(label: str) -> str:
        return re.split(r"[ ,]", label.strip(), maxsplit=1)[0] if label else ""

    strong = {f.quantity: i for i, f in enumerate(findings) if first(f.player) == report_player}
    base = {f.quantity: f for f in findings if first(f.player) == heuristic_player and is_designer_finding(f)
            and f.quantity in strong}
    out = []
    for f in findings:
        if first(f.player) == heuristic_player and f.quantity in base and base[f.quantity] is f:
            continue
        out.append(with_sensitivity(f, base[f.quantity]) if first(f.player) == report_player and f.quantity in base
                   else f)
    return out
