"""Every Purramid experiment's findings agree with its own table (issue 13 section 1).

A finding's numbers are the table's (recomputed here from the rows, not taken from the finding), a claim's
sign and significance follow from its interval and sample size, and no text holds NaN, inf or None.
Checked at the quick setting (run here) and at the full setting: the game experiments on 2,000 simulated
games per cell (as in the full report), the exact experiments run in full where that takes seconds, and the
costly ones (yarn values, rule-of-thumb turns, bonus modes, optimal games) on the data of a full report run
stored in ``tests/purramid/data/`` (regenerate with ``python tests/purramid/data/make_full_data.py``).
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from pyradice_lab.engine.findings import Finding, render
from pyradice_lab.engine.stats import Z95
from pyradice_lab.purramid import analysis as A
from pyradice_lab.purramid.components import load_game_config

DATA = Path(__file__).parent / "data"
BAD = re.compile(r"\b(nan|NaN|inf|None)\b")


def consistent(findings: list[Finding]) -> None:
    """The rules of evidence, checked from each finding's own numbers and its rendered sentence."""
    assert findings
    for f in findings:
        text = render(f)
        assert not BAD.search(text), text
        excludes = f.null is not None and (f.estimate != f.null if f.kind == "exact" else
                                           (f.ci_low > f.null or f.ci_high < f.null))
        enough = f.kind == "exact" or f.n >= f.min_n
        assert f.is_claim == (excludes and enough and f.kind != "estimate"), text
        if f.is_claim:
            up, down = ("above", "more", "higher"), ("below", "less", "fewer", "lower")
            said, other = (up, down) if f.estimate > f.null else (down, up)
            head = text.split("(")[0]
            assert any(w in text for w in said) and not any(f" {w} " in f" {head} " for w in other), text
        elif f.kind == "difference":
            assert ("no difference" in text) if enough else ("no conclusion" in text), text
        assert f.ci_low <= f.estimate <= f.ci_high


def close(a, b, tol=1e-9) -> bool:
    return math.isclose(float(a), float(b), rel_tol=tol, abs_tol=tol)


def players_of(f: Finding) -> int:
    return int(re.search(r"(\d) players", f.quantity).group(1))


# ------------------------------------------------------------------------------------------ exact
def test_burst_odds_findings_are_the_table_extremes():
    ans = A.burst_odds()
    consistent(ans.findings)
    d = ans.data
    five = d[d["dice"] == 5].set_index("number")["p_burst"]
    two = d[d["dice"] == 2].set_index("number")["p_burst"]
    hard, mid, twelve = ans.findings
    assert close(hard.estimate, five.max()) and f"'{five.idxmax()}'" in hard.quantity
    assert close(mid.estimate, five.loc[5:12].max()) and f"'{five.loc[5:12].idxmax()}'" in mid.quantity
    assert close(twelve.estimate, two.max()) and f"'{two.idxmax()}'" in twelve.quantity
    assert ans.exact and all(f.kind == "exact" for f in ans.findings)


@pytest.mark.parametrize("quick", [True, False])
def test_stop_or_continue_claims_follow_the_best_action_in_the_table(quick):
    ans = A.stop_or_continue(quick)
    consistent(ans.findings)
    df = ans.data
    share, *one_die = ans.findings
    many = df[df["dice_left"] >= 3]
    assert close(share.estimate, (many["best"] == "continue").mean())
    assert len(one_die) == 2
    for f in one_die:
        sit = next(s for s in df["situation"].unique() if f", {s} (stopping keeps" in f.quantity)
        row = df[(df["dice_left"] == 1) & (df["situation"] == sit)].iloc[0]
        # said as a change: rolling the last die minus stopping, against 0
        assert close(f.estimate, row["continue_value"] - row["stop_value"]) and f.null == 0.0
        assert f"stopping keeps {row['stop_value']:.2f} tiles" in f.quantity
        # the sign of the claim is the table's decision
        assert f.is_claim and (f.estimate > f.null) == (row["best"] == "continue")
    assert df["situation"].nunique() == (2 if quick else 4)


# ------------------------------------------------------------------------------------------ games
@pytest.fixture(scope="module")
def quick_games():
    return A.play_games(A.SIZES["quick"]["games"], 5)


@pytest.fixture(scope="module")
def full_games():
    return A.play_games(A.SIZES["full"]["games"], 6)


def check_seats(games: pd.DataFrame) -> A.Answer:
    ans = A.seat_advantage(games)
    consistent(ans.findings)
    seats = ans.data
    assert [players_of(f) for f in ans.findings] == [2, 3, 4]
    for f in ans.findings:
        s0 = seats[(seats["players"] == players_of(f)) & (seats["seat"] == 0)]
        wins = (s0["p_win"] * s0["games"]).sum()
        assert f.n == s0["games"].sum() and close(f.estimate, wins / f.n) and close(f.null, 1 / players_of(f))
        assert f.component == A.START_COMPONENT and f.player == f"{A.GAME_POLICY}, every seat"
    return ans


def check_length(games: pd.DataFrame) -> A.Answer:
    ans = A.game_length(games)
    consistent(ans.findings)
    t = ans.data
    for f in ans.findings:
        rows = t[t["players"] == players_of(f)]
        assert close(f.estimate, (rows["turns"] * rows["games"]).sum() / rows["games"].sum())
        assert f.ci_low > 0 and f.kind == "estimate"
    assert (t["turns_ci_low"] > 0).all() and (t["p_all_gold_ci_high"] > 0).all()  # never a zero-width share
    return ans


def check_sides(games: pd.DataFrame) -> A.Answer:
    ans = A.side_a_vs_b(games)
    consistent(ans.findings)
    data = ans.data
    exact, *diffs = ans.findings
    ex = ans.frames["exact"].set_index(["side", "board"])["fresh_turn_value"]
    assert close(exact.estimate, ex[("B", "empty")]) and close(exact.null, ex[("A", "empty")])
    assert len(diffs) == 3
    for f in diffs:
        q = f.quantity.split(", side B")[0]
        rows = data[(data["quantity"] == q)]
        a = rows[rows["side"] == "A"].set_index("players")["value"]
        b = rows[rows["side"] == "B"].set_index("players")["value"]
        d = rows[rows["side"] == "B - A"]
        assert close(f.estimate, (b - a).mean())                       # the mean of the table's B - A
        half = Z95 * math.sqrt((d["se"] ** 2).sum()) / len(d)
        assert close(f.halfwidth, half, 1e-6)
        # a claim needs the averaged interval to exclude 0; then its sign is the sign of the mean difference
        if f.is_claim:
            assert np.sign(f.estimate) == np.sign((b - a).mean())
    return ans


@pytest.mark.slow
def test_game_findings_quick(quick_games):
    seats = check_seats(quick_games)
    check_length(quick_games)
    check_sides(quick_games)
    assert all(f.n == 2 * 60 for f in seats.findings)


@pytest.mark.slow
def test_game_findings_full(full_games):
    seats = check_seats(full_games)
    length = check_length(full_games)
    sides = check_sides(full_games)
    assert all(f.n == 4000 and f.enough_data for f in seats.findings)
    two = seats.findings[0]
    assert two.is_claim and two.estimate > 0.5            # the 2-player start player's edge (26 tiles vs 25)
    assert all(f.halfwidth < 0.5 for f in length.findings)
    turns = next(f for f in sides.findings if f.quantity.startswith("turns per game"))
    assert turns.is_claim and turns.estimate < 0          # side B games are shorter


# ------------------------------------------------------------------------------------------ stored full data
def stored(name: str) -> pd.DataFrame:
    return pd.read_csv(DATA / f"{name}.csv")


def check_yarn(ans: A.Answer, yv: float) -> None:
    consistent(ans.findings)
    df = ans.data
    start, mean_first, mean_second = ans.findings
    row = df[df["board"].str.startswith("2p start")].iloc[0]
    assert close(start.estimate, row["gain_first_token"]) and start.kind == "exact"
    game = df[df["board"].str.startswith("4p game")]
    assert close(mean_first.estimate, game["gain_first_token"].mean()) and mean_first.n == len(game)
    assert close(mean_second.estimate, game["gain_second_token"].mean())
    assert close(mean_first.null, yv) and mean_first.component == A.YARN_COMPONENT
    assert mean_first.ci_low >= 0 and mean_second.ci_low >= 0    # gains of a token are never negative
    assert mean_first.is_claim == (mean_first.n >= 10 and not mean_first.ci_low <= yv <= mean_first.ci_high)


def check_regret(ans: A.Answer) -> None:
    consistent(ans.findings)
    df = ans.data
    assert ans.findings[0].player == A.GAME_POLICY and ans.findings[-1].player == "greedy"
    best = df.groupby("policy")["regret"].mean().idxmin()
    assert any(f.player == best and "smallest regret" in f.quantity for f in ans.findings)
    for f in ans.findings:
        rows = df[df["policy"] == f.player]
        assert close(f.estimate, rows["value"].mean()) and close(f.null, rows["optimal_value"].mean())
        assert close(f.null - f.estimate, rows["regret"].mean())   # the table's mean regret
        assert close(f.halfwidth, Z95 * math.sqrt((rows["value_se"] ** 2).sum()) / len(rows), 1e-6)
        assert f.n == rows["turns"].sum()


def check_bonus(ans: A.Answer) -> None:
    consistent(ans.findings)
    df = ans.data
    approx, none, worst = ans.findings
    assert close(approx.estimate, df["approx"].mean()) and close(approx.null, df["exact"].mean())
    assert close(none.estimate, df["none"].mean()) and none.is_claim and none.estimate < none.null
    assert close(worst.estimate, df["approx_rel_error"].abs().max())


def test_exact_turn_findings_quick():
    check_yarn(A.yarn_value(True, 3), load_game_config().yarn_value)
    check_regret(A.rule_of_thumb_regret(True, 3))
    check_bonus(A.bonus_mode_accuracy(True, 3))


def test_exact_turn_findings_full_on_stored_report_data():
    yarn = A.yarn_answer(stored("purramid_yarn_value"), 0.6)
    check_yarn(yarn, 0.6)
    assert yarn.findings[1].n >= 10 and yarn.findings[1].enough_data   # the full report has boards enough
    regret = A.regret_answer(stored("purramid_policy_regret"))
    check_regret(regret)
    assert all(f.is_claim and f.estimate < f.null for f in regret.findings if f.player == "greedy")
    check_bonus(A.bonus_answer(stored("purramid_bonus_modes")))


# ------------------------------------------------------------------------------------------ strong play
def check_strong(heur: pd.DataFrame, opt: pd.DataFrame) -> A.Answer:
    ans = A.strong_play(heur, opt)
    consistent(ans.findings)
    cmp = ans.data
    for f in ans.findings:
        p = players_of(f)
        if f.quantity.startswith("start player"):
            rows = cmp[(cmp["players"] == p) & (cmp["quantity"] == "P(start player wins)")]
            assert f.n == rows["optimal_games"].sum()
            assert close(f.estimate, (rows["optimal"] * rows["optimal_games"]).sum() / f.n)
            assert close(f.null, 1 / p) and f.component == A.START_COMPONENT
        else:
            rows = cmp[(cmp["players"] == p) & (cmp["quantity"] == "turns per game")]
            o = (rows["optimal"] * rows["optimal_games"]).sum() / rows["optimal_games"].sum()
            h = (rows["heuristic"] * rows["heuristic_games"]).sum() / rows["heuristic_games"].sum()
            assert close(f.estimate, o - h) and f.null == 0
    return ans


def check_gap(games: pd.DataFrame) -> A.Answer:
    ans = A.skill_gap(games)
    consistent(ans.findings)
    t = ans.data
    for f in ans.findings:
        rows = t[t["players"] == players_of(f)]
        col = "p_win" if "win share" in f.quantity else "score_gap"
        assert close(f.estimate, (rows[col] * rows["games"]).sum() / rows["games"].sum())
        assert f.n == rows["games"].sum()
    return ans


@pytest.mark.slow
def test_strong_play_findings_quick():
    games = A.strong_play_games("quick", 4)
    strong = check_strong(games["heuristic"], games["optimal"])
    gap = check_gap(games["gap"])
    # 12 optimal games per side: numbers, no claim
    assert not any(f.is_claim for f in strong.findings + gap.findings)


@pytest.mark.slow
def test_strong_play_findings_full_on_stored_optimal_games():
    opt = stored("purramid_optimal_games_report")
    gap_games = stored("purramid_gap_games_report")
    heur = A.game_cells(tuple(sorted(opt["players"].unique())), n_games=A.STRONG_SIZES["report"]["heuristic"], seed=9)
    strong = check_strong(heur, opt)
    gap = check_gap(gap_games)
    two = [f for f in strong.findings + gap.findings if players_of(f) == 2]
    assert all(f.enough_data for f in two)                     # 240 games: claims are allowed
    assert any(f.is_claim for f in gap.findings)                # one optimal seat beats the heuristic seats
