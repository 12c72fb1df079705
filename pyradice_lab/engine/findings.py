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
  needs ``q <= FDR_LEVEL`` (5%: the expected proportion of false claims among those made is at most 5%, if
  the tests are independent or positively dependent); exact findings carry no
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

This module holds the constructors and the multiplicity control (:func:`from_estimate`,
:func:`difference_of`, :func:`control_fdr`); it re-exports the rest from private modules: ``_finding`` (the
:class:`Finding` type and the rules it checks), ``_findings_prose`` (numbers and sentences, :func:`rank`) and
``_findings_players`` (the report player beside the heuristic: :func:`pair_findings`, :func:`merge_players`).

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
from collections.abc import Sequence

from ._finding import FDR_LEVEL, KINDS, MIN_CLAIM_N, Finding, _z
from ._findings_players import (
    game_heuristics,
    heuristic_only,
    is_designer_finding,
    merge_players,
    pair_findings,
    sensitivity_text,
    with_sensitivity,
)
from ._findings_prose import (
    component_findings,
    format_interval,
    format_value,
    method_line,
    methods_note,
    rank,
    render,
    render_all,
)
from .stats import Estimate, holm

__all__ = ["Finding", "KINDS", "MIN_CLAIM_N", "FDR_LEVEL", "render", "render_all", "method_line", "methods_note",
           "rank", "component_findings",
           "format_value", "format_interval", "from_estimate", "difference_of", "findings_table", "control_fdr",
           "fdr_sentence", "holm", "with_sensitivity", "pair_findings", "is_designer_finding", "sensitivity_text",
           "heuristic_only", "game_heuristics", "merge_players"]


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
    if "dist" not in kwargs and "df" not in kwargs:  # the p-value comes from the interval's own distribution
        kwargs.update(dist=est.dist, df=est.df)
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
    """One sentence for a report's summary: how many claims, at which false discovery rate, and exactly what
    Benjamini-Hochberg guarantees (the expected false discovery *proportion* is at most ``level`` when the tests
    are independent or positively regression dependent: an assumption, as a report's tests share games; not a
    bound on the number of false claims); exact findings are not tested.

    Examples
    --------
    >>> fs = control_fdr([Finding("difference", f"effect {i}", e, e - 0.1, e + 0.1, n=500, null=0.0)
    ...                   for i, e in enumerate([0.3, 0.105, 0.102, 0.0, 0.0])])
    >>> fdr_sentence(fs)  # doctest: +NORMALIZE_WHITESPACE
    'The report makes 1 claim from 5 Monte Carlo tests, with the false discovery rate controlled at 5%
    (Benjamini-Hochberg q-values, q_value in the findings CSV): the expected proportion of false claims among
    the claims made (0 when none is made) is at most 5% if the tests are independent or positively dependent
    (positive regression dependence), an assumption here, as the tests share games.'
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
    return (f"The report makes {claims} claim{'s' if claims != 1 else ''} from {tests} Monte Carlo test"
            f"{'s' if tests != 1 else ''}, with the false discovery rate controlled at {level:.0%} "
            f"(Benjamini-Hochberg q-values, q_value in the findings CSV): the expected proportion of false claims "
            f"among the claims made (0 when none is made) is at most {level:.0%} if the tests are independent or "
            f"positively dependent (positive regression dependence), an assumption here, as the tests share "
            f"games{tail}.")


