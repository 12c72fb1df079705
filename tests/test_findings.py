"""Findings: the rules of evidence (claims only when the interval excludes the null on enough data),
sentences without NaN/inf/None, ranking, and validation at the boundary."""

import math
import re

import pytest
from hypothesis import given, strategies as st

from pyradice_lab.engine.findings import (
    MIN_CLAIM_N,
    Finding,
    component_findings,
    difference_of,
    format_value,
    from_estimate,
    method_line,
    rank,
    render,
)
from pyradice_lab.engine.stats import mean_estimate, proportion_estimate


def diff(est, lo, hi, n=1000, null=0.5, **kw):
    return Finding("difference", "start-player win share", est, lo, hi, n=n, null=null, **kw)


def test_a_difference_is_claimed_only_when_the_interval_excludes_the_null():
    above = diff(0.537, 0.512, 0.561, unit="%")
    assert above.is_claim and "53.7%, 3.7 percentage points above 50.0% (95% CI 51.2% to 56.1%" in render(above)
    below = diff(0.46, 0.43, 0.49, unit="%")
    assert below.is_claim and "below" in render(below)
    inside = diff(0.462, 0.418, 0.507, n=500, unit="%")
    text = render(inside)
    assert not inside.is_claim
    assert "no difference from 50.0% detected at this sample size" in text and "; 500 games)" in text
    assert "above" not in text and "below" not in text


def test_the_sample_size_that_would_resolve_a_difference():
    f = diff(0.52, 0.49, 0.55, n=1000)  # half-width 0.03, effect 0.02: (0.03/0.02)^2 = 2.25 times the games
    need = f.games_to_resolve()
    assert 2250 <= need <= 2300 and "about 2,300 games would resolve" in render(f)
    # with that many games the interval (shrinking like 1/sqrt(n)) would just exclude the null
    assert f.halfwidth * math.sqrt(f.n / need) <= abs(f.effect)
    zero = diff(0.5, 0.47, 0.53)
    assert zero.games_to_resolve() is None and "a difference larger than 0.03 is unlikely" in render(zero)


def test_below_the_minimum_sample_size_numbers_are_shown_and_nothing_is_claimed():
    f = diff(0.9, 0.6, 0.98, n=10)  # the interval excludes 0.5 but 10 games are too few
    assert f.excludes_null and not f.is_claim
    text = render(f)
    assert f"too few games for a claim (at least {MIN_CLAIM_N})" in text and "no conclusion" in text
    assert "90%" not in text
    assert "0.90" in text


def test_exact_and_estimate_findings():
    ex = Finding("exact", "P(burst) with 5 dice on a lone 1", 0.3141, 0.3141, 0.3141, n=0, unit="%", null=0.25)
    assert ex.is_claim and render(ex) == ("P(burst) with 5 dice on a lone 1: 31.4%, exactly; 6.41 percentage points "
                                          "above 25.0%.")
    est = Finding("estimate", "game length, 3 players", 14.23, 13.9, 14.6, n=1000, unit="turns", test="t interval")
    assert not est.is_claim
    assert render(est) == "Game length, 3 players: 14.2 turns (95% CI 13.9 to 14.6 turns; 1,000 games)."
    assert method_line(est) == "t interval; 95% interval"


@pytest.mark.parametrize("field, value, match", [
    ("estimate", float("nan"), "estimate must be a finite"),
    ("ci_high", float("inf"), "ci_high must be a finite"),
    ("ci_low", None, "ci_low must be a finite"),
    ("n", -1, "n must be a non-negative"),
    ("n", 2.5, "n must be a non-negative"),
    ("kind", "claim", "kind must be one of"),
    ("null", None, "null must be given"),
    ("quantity", "", "quantity must be a non-empty"),
    ("player", "None", "player must not contain"),
    ("ci_low", 0.6, "ci_low <= estimate"),
    ("scale", 0.0, "scale must be positive"),
    ("min_n", 0, "min_n must be a positive"),
])
def test_bad_findings_name_the_parameter(field, value, match):
    kwargs = dict(kind="difference", quantity="q", estimate=0.5, ci_low=0.4, ci_high=0.55, n=100, null=0.5)
    kwargs[field] = value
    with pytest.raises((ValueError, TypeError), match=match):
        Finding(**kwargs)


finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_infinity=False)


@given(est=finite, a=st.floats(0, 1e4), b=st.floats(0, 1e4), null=finite, n=st.integers(1, 10**7),
       unit=st.sampled_from(["", "%", "points"]))
def test_sentences_never_hold_nan_inf_or_none_and_claims_follow_the_numbers(est, a, b, null, n, unit):
    f = Finding("difference", "score edge", est, est - a, est + b, n=n, null=null, unit=unit)
    text = render(f)
    words = set(text.replace(",", " ").replace("(", " ").replace(")", " ").split())
    assert not words & {"nan", "inf", "None", "-0", "-0.0"}
    claims = re.search(r"\b(above|below|more|less|higher|lower)\b", text) is not None and "not claimed" not in text and \
        "no conclusion" not in text
    assert claims == f.is_claim == ((est - a > null or est + b < null) and n >= MIN_CLAIM_N)


def test_ranking_puts_claims_first_by_size_and_component_findings_are_the_claims_with_a_component():
    small = diff(0.52, 0.51, 0.53)
    big = diff(0.60, 0.58, 0.62)
    none = diff(0.50, 0.40, 0.60)
    comp = Finding("difference", "tile 12 points per piece", 1.9, 1.7, 2.1, n=1000, null=1.0,
                   component="tile 12 values")
    comp_no_claim = Finding("difference", "tile 3 points per piece", 1.05, 0.9, 1.2, n=1000, null=1.0,
                            component="tile 3 values")
    assert rank([none, small, comp, big]) == [comp, big, small, none]
    assert component_findings([none, comp_no_claim, small, comp]) == [comp]
    with pytest.raises(TypeError, match="findings"):
        rank(["text"])


def test_constructors_from_estimates():
    f = from_estimate("difference", "start-player win share", proportion_estimate(3, 3), null=0.5, unit="%")
    assert f.n == 3 and f.ci_low > 0.4 and f.ci_high == 1.0 and not f.is_claim
    a, b = mean_estimate([10.0, 12.0, 11.0, 13.0] * 50), mean_estimate([9.0, 10.0, 11.0, 10.0] * 50)
    d = difference_of("score, variant minus base", a, b, unit="points")
    assert d.null == 0 and d.estimate == pytest.approx(1.5) and d.is_claim and d.n == 200
    with pytest.raises(TypeError, match="est must be an Estimate"):
        from_estimate("estimate", "x", 0.5)


def test_a_change_reads_as_more_or_less_never_above_0():
    # issue 30: "4.55 rounds, above 0 rounds by 4.55 rounds (95% CI 4.44..4.66 rounds, normal interval of a
    # difference, n = 300 games)" reads as a designer says it; the method goes to method_line
    f = Finding("difference", "rounds with the flag under 30 instead of 5 cards, 3 players", 4.55, 4.44, 4.66, n=300,
                null=0.0, null_label="no difference", test="normal interval of a difference", player="greedy",
                unit="rounds")
    assert render(f) == ("Rounds with the flag under 30 instead of 5 cards, 3 players: 4.55 rounds more (95% CI 4.44 "
                         "to 4.66 rounds; 300 games, greedy players).")
    assert method_line(f).startswith("normal interval of a difference; 95% interval; compared with 0; p ")
    fewer = f.with_context(estimate=-3.31, ci_low=-4.0, ci_high=-2.6, unit="gems")
    assert "3.3 gems less (95% CI -4.0 to -2.6 gems" in render(fewer)
    pct = Finding("difference", "win share of the variant", 0.05, 0.02, 0.08, n=400, null=0.0, unit="%")
    assert "5 percentage points higher" in render(pct)
    for g in (f, fewer, pct, f.with_context(estimate=0.01, ci_low=-0.1, ci_high=0.12),
              f.with_context(no_claim="quick run"), f.with_context(n=20)):
        text = render(g)
        assert not any(bad in text for bad in ("above 0", "by 0", "no difference of", "n = ")), text


def test_format_value_uses_the_digits_the_interval_supports():
    assert format_value(0.537, unit="%", spread=0.024) == "53.7%"
    assert format_value(14.23, unit="turns", spread=0.35) == "14.2 turns"
    assert format_value(1234.5, spread=40) == "1,234"  # half-width 40: no decimals
    assert format_value(-0.0001, spread=0.5) == "0.0"
    with pytest.raises(ValueError, match="x must be a finite"):
        format_value(float("nan"))


# ----------------------------------------------------------------------------------------- multiplicity (issue 28)
def test_the_p_value_read_off_the_interval_agrees_with_the_interval():
    from statistics import NormalDist

    f = diff(0.537, 0.512, 0.561)  # Wilson-like: asymmetric; the side towards the null decides
    z = 0.037 / (0.025 / 1.959964)
    assert f.p == pytest.approx(2 * NormalDist().cdf(-z), rel=1e-4)
    for est, lo, hi in [(0.52, 0.500001, 0.54), (0.52, 0.499999, 0.54), (0.48, 0.46, 0.5000001)]:
        g = diff(est, lo, hi)
        assert (g.p < 0.05) == g.excludes_null
    assert Finding("exact", "x", 0.3, 0.3, 0.3, n=0, null=0.25).p is None  # exact: not tested
    assert not Finding("exact", "x", 0.3, 0.3, 0.3, n=0, null=0.25).tested
    assert diff(0.5, 0.45, 0.55).p == 1.0


def test_control_fdr_is_benjamini_hochberg_over_the_tested_findings():
    from scipy.stats import false_discovery_control

    from pyradice_lab.engine.findings import control_fdr

    fs = [diff(0.5 + e, 0.5 + e - 0.03, 0.5 + e + 0.03) for e in (0.1, 0.032, 0.031, 0.0, -0.04)]
    fs += [Finding("exact", "exact odds", 0.3, 0.3, 0.3, n=0, null=0.25), diff(0.6, 0.5, 0.7, n=50)]
    out = control_fdr(fs)
    tested = [f for f in out if f.tested]
    assert len(tested) == 5  # not the exact finding, not the one below the minimum sample
    q = false_discovery_control([f.p for f in tested], method="bh")
    assert [f.q_value for f in tested] == pytest.approx(list(q))
    assert out[5].q_value is None and out[5].is_claim  # exact: a claim, not tested
    assert out[6].q_value is None and not out[6].is_claim
    # each alone would claim (interval excludes 0.5); controlled, the marginal ones are withheld and say why
    assert [f.is_claim for f in fs[:5]] == [True, True, True, False, True]
    assert [f.is_claim for f in out[:5]] == [True, False, False, False, True]
    text = render(out[1])
    assert "not claimed: q = " in text and "false discovery rate of 5%" in text
    assert "q < " in method_line(out[0]) and "q " not in render(out[0]) and "above" in render(out[0])
    row = out[1].to_dict()
    assert {"p_value", "q_value", "tested", "no_claim", "method"} <= set(row) and row["claim"] is False


def test_a_quick_run_claims_nothing_and_shows_the_numbers():
    from pyradice_lab.engine.findings import control_fdr, fdr_sentence

    fs = control_fdr([diff(0.6, 0.55, 0.65), Finding("exact", "exact odds", 0.3, 0.3, 0.3, n=0, null=0.25)],
                     quick=True)
    assert not any(f.is_claim for f in fs)
    text = render(fs[0])
    assert text.endswith("quick run: no claim.") and "0.6" in text and "above" not in text
    assert fdr_sentence(fs, quick=True).startswith("Quick run: no claims")


def test_the_summary_sentence_counts_claims_and_states_what_bh_guarantees():
    from pyradice_lab.engine.findings import control_fdr, fdr_sentence

    fs = control_fdr([diff(0.6, 0.55, 0.65), diff(0.62, 0.57, 0.67), diff(0.5, 0.45, 0.55),
                      Finding("exact", "exact odds", 0.3, 0.3, 0.3, n=0, null=0.25)])
    s = fdr_sentence(fs)
    assert s.startswith("The report makes 2 claims from 3 Monte Carlo tests")
    assert "controlled at 5%" in s and "1 exact finding is not tested" in s
    # Benjamini-Hochberg bounds the expected false discovery PROPORTION, under independence or positive
    # (regression) dependence, which the report's tests (sharing games) are assumed to have: not a count
    assert "expected proportion of false claims among the claims made" in s and "at most 5%" in s
    assert "independent or positively dependent" in s and "share games" in s and "assumption" in s
    assert "expected number" not in s and "at most 0.1" not in s
    assert s.count(".") <= 3  # one sentence (the decimals aside)


def test_holm_is_the_step_down_adjustment():
    from pyradice_lab.engine.findings import holm

    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.2, 0.001]) == pytest.approx([0.2, 0.002])
    assert holm([]) == []
    with pytest.raises(ValueError, match="p_values"):
        holm([1.5])


def test_write_pdf_controls_the_claims_and_states_them_on_the_summary_page(tmp_path):
    import sys
    from pathlib import Path

    from pyradice_lab.report.build import ExperimentResult, Section, write_pdf

    sys.path.insert(0, str(Path(__file__).parent))
    from pdf_layout import page_texts

    fs = [diff(0.5 + e, 0.5 + e - 0.03, 0.5 + e + 0.03) for e in (0.1, 0.032, 0.031, 0.0)]
    import pandas as pd

    exp = ExperimentResult("demo_fdr", "Demo", "A reading.", pd.DataFrame({"a": [1]}), None, findings=fs)
    path = write_pdf(tmp_path / "r.pdf", [Section("Demo", [exp])], meta={"seed": 0})
    assert [f.q_value is not None for f in exp.findings] == [True] * 4
    text = " ".join(" ".join(page_texts(path)).split())
    assert "The report makes 1 claim from 4 Monte Carlo tests" in text
    csv = (tmp_path / "r_findings.csv").read_text()
    assert "p_value" in csv.splitlines()[0] and "q_value" in csv.splitlines()[0]


# ------------------------------------------------------------------------ p-values from the interval's distribution
def test_a_t_interval_finding_reads_its_p_value_off_t_with_its_degrees_of_freedom():
    """Issue 46: Purramid's yarn value over 12 boards (a log-scale t interval) reported p = 0.00064 read off the
    normal; t(11) on the same interval gives about 4x more.  The finding takes dist and df from its estimate."""
    from scipy.stats import norm, t as student_t

    from pyradice_lab.engine.findings import from_estimate
    from pyradice_lab.engine.stats import nonnegative_estimate

    gains = [0.61, 0.55, 0.72, 0.49, 0.66, 0.58, 0.70, 0.52, 0.63, 0.57, 0.68, 0.60]
    est = nonnegative_estimate(gains)
    assert (est.dist, est.df, est.n) == ("t", 11, 12)
    f = from_estimate("difference", "gain from a yarn token", est, null=0.5, sample_unit="boards", min_n=10)
    side = (f.estimate - f.ci_low) / student_t.ppf(0.975, 11)
    assert f.p == pytest.approx(2 * student_t.sf(f.effect / side, 11), rel=1e-9)
    normal = 2 * norm.sf(f.effect / ((f.estimate - f.ci_low) / 1.959964))
    assert f.p > 2 * normal  # the normal p understated it
    # the same interval built by hand, with its df
    g = Finding("difference", "x", f.estimate, f.ci_low, f.ci_high, n=12, null=0.5, dist="t", df=11)
    assert g.p == pytest.approx(f.p)
    with pytest.raises(ValueError, match="df"):
        Finding("difference", "x", 0.6, 0.55, 0.65, n=12, null=0.5, dist="t")
    with pytest.raises(ValueError, match="dist"):
        Finding("difference", "x", 0.6, 0.55, 0.65, n=12, null=0.5, dist="laplace")


def test_shares_take_the_score_test_and_counts_the_exact_poisson_test():
    from scipy.stats import norm, poisson

    from pyradice_lab.engine.findings import from_estimate
    from pyradice_lab.engine.stats import count_estimate

    f = from_estimate("difference", "win share", proportion_estimate(62, 100), null=0.5)
    assert f.dist == "score" and f.p == pytest.approx(2 * norm.sf(0.12 / math.sqrt(0.25 / 100)))
    c = from_estimate("difference", "hazards per game", count_estimate(3, 40), null=0.25)
    exact = 2 * min(poisson.cdf(3, 10.0), poisson.sf(2, 10.0))
    assert c.dist == "poisson" and c.p == pytest.approx(min(1.0, exact))
    # each p is below 0.05 exactly when its 95% interval excludes the null
    for k in range(0, 101, 3):
        s = from_estimate("difference", "share", proportion_estimate(k, 100), null=0.4)
        assert (s.p < 0.05) == s.excludes_null, k
    for k in range(0, 30):
        r = from_estimate("difference", "count", count_estimate(k, 40), null=0.3)
        assert (r.p < 0.05) == r.excludes_null, k
