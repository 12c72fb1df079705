"""Every Pyradice experiment's findings agree with its own table (issue 13 section 1), at the report's quick
and full sizes: a finding's numbers are the table's, a claim's sign and significance follow from its interval
and sample size, no text holds NaN, inf or None; and each report page has a question, a method, a compact
table and a figure that passes the figure rules."""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd
import pytest

from pyradice_lab.engine.findings import Finding, render
from pyradice_lab.engine.stats import Z95
from pyradice_lab.pyradice import analysis as A
from pyradice_lab.pyradice.analysis import SIZES

BAD = re.compile(r"\b(nan|NaN|inf|None)\b")
POLICIES = ("random_legal", "greedy", "lookahead")


def consistent(findings: list[Finding]) -> None:
    assert findings
    for f in findings:
        text = render(f)
        assert not BAD.search(text), text
        excludes = f.null is not None and (f.estimate != f.null if f.kind == "exact" else
                                           (f.ci_low > f.null or f.ci_high < f.null))
        enough = f.kind == "exact" or f.n >= f.min_n
        assert f.is_claim == (excludes and enough and f.kind != "estimate"), text
        if f.is_claim:
            words = ("above", "more", "higher") if f.estimate > f.null else ("below", "less", "fewer", "lower")
            assert any(w in text for w in words), text       # the direction, as the renderer words it
        elif f.kind == "difference":
            assert ("no difference" in text) if enough else ("no conclusion" in text), text


def close(a, b, tol=1e-9) -> bool:
    return math.isclose(float(a), float(b), rel_tol=tol, abs_tol=tol)


def size(key: str, full: bool) -> int:
    return SIZES[key][1 if full else 0]


@pytest.mark.slow
@pytest.mark.parametrize("full", [False, True])
def test_goal_and_available_findings_follow_their_tables(full):
    n = size("goals", full)
    df, runs = A.goal_rates(n, 2, POLICIES, rng=11, return_runs=True)
    fs = A.goal_findings(df)
    consistent(fs)
    la = df[(df.policy == "lookahead") & (df.level > 0) & df.attainable]
    hard, easy, score = fs[:3]
    for f, row in ((hard, la.loc[la.p_met.idxmin()]), (easy, la.loc[la.p_met.idxmax()])):
        assert close(f.estimate, row.p_met) and close(f.null, row.blind_exact) and f"level-{row.level}" in f.quantity
        assert f.n == n
    sc = df.drop_duplicates("policy").set_index("policy")          # the mean score has its own columns
    assert close(score.estimate, sc.loc["lookahead", "mean_score"] - sc.loc["greedy", "mean_score"])
    assert close(score.halfwidth, Z95 * math.hypot(sc.loc["lookahead", "mean_score_se"],
                                                   sc.loc["greedy", "mean_score_se"]))
    assert len(fs) == 3 + int((~df[df.level > 0].attainable).any())
    if full:  # 400 games: deliberate play lifts the hard token above a blind fill; lookahead outscores greedy
        assert hard.is_claim and hard.estimate > hard.null and score.is_claim and score.estimate > 0

    av = A.available_by_turn(n, 2, POLICIES, rng=12, runs=runs)
    fa = A.available_findings(av)
    consistent(fa)
    first, peak, last = fa
    assert first.kind == "exact" and first.estimate == 4.0
    g = av[av.policy == "greedy"]
    assert close(peak.estimate, g.available.max()) and close(last.estimate, g[g.turn == 42].available.iloc[0])


@pytest.mark.slow
@pytest.mark.parametrize("full", [False, True])
def test_skill_findings_follow_their_table(full):
    df = A.skill_values(size("skills", full), 2, "greedy", rng=13)
    fs = A.skill_findings(df)
    consistent(fs)
    assert [f.quantity.split(" skill token ")[1].split()[0] for f in fs] == list(df.skill)
    for f, r in zip(fs, df.itertuples()):
        assert close(f.estimate, r.score_drop) and (f.ci_low, f.ci_high) == (r.score_drop_ci_low, r.score_drop_ci_high)
    marked = [f for f in fs if f.component]
    assert {f.estimate for f in marked} == {df.score_drop.max(), df.score_drop.min()}
    if full:
        a6 = fs[list(df.skill).index("A6")]
        assert a6.is_claim and a6.estimate > 0       # the last-turn rebuild is worth points


@pytest.mark.slow
@pytest.mark.parametrize("full", [False, True])
def test_card_findings_follow_their_table(full):
    n = size("cards", full)
    df, points = A.card_balance(n, 2, "greedy", rng=14, return_points=True)
    fs = A.card_findings(df, points)
    consistent(fs)
    strong, weak, diff = fs
    assert close(strong.estimate, df.mean_points.max()) and close(weak.estimate, df.mean_points.min())
    assert close(diff.estimate, df.mean_points.max() - df.mean_points.min()) and diff.component
    # the paired interval: the same number as a direct computation over the games of each card
    s, w = df.iloc[0], df.iloc[-1]
    a, b = points[s.card], points[w.card]
    var = s.mean_points_se ** 2 + w.mean_points_se ** 2
    for g in set(a) & set(b):
        var -= 2 * np.cov(a[g], b[g])[0, 1] * len(a[g]) / (s.n_games * w.n_games)
    assert close(diff.halfwidth, Z95 * math.sqrt(var), 1e-9)
    # without the per-game points the two means are independent
    indep = A.card_findings(df)[2]
    assert close(indep.halfwidth, Z95 * math.hypot(s.mean_points_se, w.mean_points_se))
    if full:
        assert diff.is_claim and diff.estimate > 0


@pytest.mark.slow
@pytest.mark.parametrize("full", [False, True])
def test_first_player_findings_follow_their_table(full):
    parts = [A.first_player_advantage(size(f"first{p}", full), (p,), "greedy", rng=15 + p) for p in (2, 3, 4)]
    df = pd.concat(parts, ignore_index=True)
    fs = A.first_player_findings(df)
    consistent(fs)
    for f, r in zip(fs, df[df.position == 1].itertuples()):
        assert f"{r.players} players" in f.quantity and close(f.estimate, r.win_share)
        assert close(f.null, 1 / r.players) and f.n == r.n_games and f.component == A.START_COMPONENT
    assert all(f.enough_data for f in fs) == full     # quick sizes are below the minimum for a claim


@pytest.mark.slow
def test_quick_report_pages():
    from pathlib import Path
    from tempfile import mkdtemp

    from pyradice_lab.engine.figures import figure_problems, tidy_figure
    from pyradice_lab.pyradice.pages import report_section
    from pyradice_lab.report.build import ExperimentResult, ReportContext

    out = Path(mkdtemp())
    sec = report_section(ReportContext(quick=True, seed=2, out_dir=out))
    exps = [i for i in sec.items if isinstance(i, ExperimentResult)]
    assert len(exps) == 5
    for e in exps:
        assert e.question.endswith("?") and e.findings and len(e.method) > 80 and not e.reading
        assert e.display is not None and len(e.display) <= 25 and not e.table.empty
        texts = [e.method, *map(render, e.findings), *e.display.astype(str).to_numpy().ravel()]
        assert not any(BAD.search(t) for t in texts), e.name
        assert figure_problems(tidy_figure(e.figure)) == [], e.name
        assert (out / e.name / f"{e.name}_findings.csv").exists()


@pytest.mark.slow
def test_start_player_change_under_stronger_play_follows_the_table():
    parts = [A.first_player_advantage(n, (p,), pol, rng=40 + p) for p, n in ((2, 120), (3, 30))
             for pol in ("greedy", "lookahead")]
    df = pd.concat(parts, ignore_index=True)
    fs = A.first_player_findings(df)
    consistent(fs)
    assert len(fs) == 4 + 2
    first = df[df.position == 1].set_index(["policy", "players"])
    for f, p in zip(fs[4:], (2, 3)):
        la, gr = first.loc[("lookahead", p)], first.loc[("greedy", p)]
        assert "lookahead" in f.quantity and f"{p} players" in f.quantity and f.null == 0.0
        assert close(f.estimate, la.win_share - gr.win_share)
        assert close(f.halfwidth, Z95 * math.hypot(la.win_share_se, gr.win_share_se))
        assert f.n == min(la.n_games, gr.n_games) and f.enough_data == (p == 2)
