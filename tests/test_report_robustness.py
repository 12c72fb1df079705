"""The report's robustness column: verdicts derived from RobustnessResult, the summary shows them, quick mode."""

import pandas as pd
import pytest
from pypdf import PdfReader

from pyradice_lab.findings import Finding
from pyradice_lab.plausible import Claim, RobustnessResult
from pyradice_lab.report import ExperimentResult, Section, write_pdf
from pyradice_lab.report_pdf import robust_cell
from pyradice_lab.report_robustness import QUICK_TEXT, assess_sections, checks_for, run_check, verdict
from pyradice_lab.stats import proportion_estimate

CHECK = next(c for c in checks_for(["raft"]) if c.key == "raft start 3p standard")


def _finding(estimate, lo, hi, n=800, player="greedy"):
    return Finding("difference", "start player's win share, 3 players, standard", estimate, lo, hi, n=n,
                   null=1 / 3, null_label="a fair share", unit="%", player=player)


def _result(intervals):
    """A RobustnessResult whose sampled sets have the given (ci_low, ci_high) intervals."""
    rows = [{"set": "packaged", "value": 0.4, "se": 0.01, "ci_low": 0.38, "ci_high": 0.42, "n": 600,
             "verdict": "holds"}]
    rows += [{"set": f"plausible-{i}", "value": (lo + hi) / 2, "se": (hi - lo) / 4, "ci_low": lo, "ci_high": hi,
              "n": 600, "verdict": Claim("start_player_win", ">", 1 / 3).verdict(lo, hi)}
             for i, (lo, hi) in enumerate(intervals)]
    table = pd.DataFrame(rows)
    k = int((table["verdict"][1:] == "holds").sum())
    return RobustnessResult(Claim("start_player_win", ">", 1 / 3), table, proportion_estimate(k, len(intervals)),
                            pd.DataFrame(columns=["choice", "spearman", "p_value"]), robust=k == len(intervals))


ABOVE, BELOW, STRADDLE = (0.36, 0.40), (0.25, 0.30), (0.30, 0.36)


@pytest.mark.parametrize("intervals,robust,start", [
    ([ABOVE] * 4, True, "holds on 4 of 4 sampled card decks (600 games each)"),
    ([ABOVE, ABOVE, BELOW, STRADDLE], False, "holds on 2 of 4 sampled card decks, reversed on 1, undecided on 1"),
    ([ABOVE, STRADDLE, ABOVE, ABOVE], None, "undecided: holds on 3 of 4 sampled card decks, undecided on 1")])
def test_a_claim_above_the_null_gets_the_verdict_of_its_robustness_result(intervals, robust, start):
    res = _result(intervals)
    f = verdict(_finding(0.40, 0.37, 0.43), CHECK, res)
    assert f.robust is robust and f.robustness.startswith(start)
    assert (f.robust is True) == res.robust  # the claim's direction is the result's: the same verdict
    assert robust_cell(f).startswith({True: "yes: ", False: "no: ", None: "undecided: "}[robust])


def test_a_claim_below_the_null_counts_the_sets_below_as_holding():
    f = verdict(_finding(0.28, 0.25, 0.31), CHECK, _result([BELOW, BELOW, ABOVE]))
    assert f.robust is False and f.robustness.startswith("holds on 2 of 3 sampled card decks, reversed on 1")


def test_no_claim_and_another_player_get_counts_but_no_verdict():
    res = _result([ABOVE, BELOW, STRADDLE])
    f = verdict(_finding(0.34, 0.30, 0.38), CHECK, res)
    assert f.robust is None and f.robustness.startswith("no claim to test; on 3 sampled card decks: 1 above, "
                                                        "1 below, 1 undecided")
    g = verdict(_finding(0.40, 0.37, 0.43, player="exact"), CHECK, res)
    assert g.robust is None and g.robustness.startswith("not assessed for these players; with greedy players on 3 sampled")


def test_a_real_check_agrees_with_its_result_and_repeats_with_its_seed():
    check = next(c for c in checks_for(["purramid"]) if c.key == "purramid start 2p")
    res = run_check(check, seed=7, reconstructions=3, games=120)
    again = run_check(check, seed=7, reconstructions=3, games=120)
    pd.testing.assert_frame_equal(res.table, again.table)
    held = int((res.table["verdict"][1:] == "holds").sum())
    f = Finding("difference", "start player's win share, 2 players, both sides", 0.6, 0.55, 0.65, n=1000, null=0.5,
                player="risk:0.35, every seat")
    f = verdict(f, check, res)
    assert f.robustness.removeprefix("undecided: ").startswith(f"holds on {held} of 3 sampled board layouts")
    assert f.robust is (True if res.robust else (False if (res.table["verdict"][1:] == "reversed").any() else None))


def _section(finding):
    exp = ExperimentResult("raft_start_player", "Start-player advantage", "A reading.", pd.DataFrame({"a": [1]}),
                           None, findings=[finding])
    return Section("Rocking Raft", [exp])


def test_quick_mode_says_not_assessed_and_the_summary_prints_assessed_values(tmp_path):
    quick = [_section(_finding(0.40, 0.37, 0.43))]
    assert assess_sections(quick, None, quick=True) == ["raft_start_player"]
    assert quick[0].items[0].findings[0].robustness == QUICK_TEXT
    full = [_section(_finding(0.40, 0.37, 0.43))]
    assert assess_sections(full, {CHECK.key: _result([ABOVE] * 4)}) == ["raft_start_player"]
    f = full[0].items[0].findings[0]
    assert f.robust is True
    path = write_pdf(tmp_path / "r.pdf", full, meta={"seed": 0})
    text = " ".join((PdfReader(str(path)).pages[1].extract_text() or "").split())
    assert "yes: holds on 4 of 4 sampled card decks" in text and "not assessed" not in text
    found = pd.read_csv(tmp_path / "r_findings.csv")
    assert found["robust"].tolist() == [True]


def _start_findings():
    """Each game's start-player findings as its report builds them (tiny samples): (experiment, finding)."""
    from pyradice_lab.meerkat import analysis as MA, report as MR
    from pyradice_lab.purramid import analysis as PA
    from pyradice_lab.pyradice import analysis as YA
    from pyradice_lab.raft import readings

    out = [("purramid_seat_advantage", f) for f in PA.seat_advantage(PA.play_games(3, seed=1)).findings]
    out += [("pyradice_first_player", f) for f in YA.first_player_findings(YA.first_player_advantage(6, rng=1))]
    out += [("raft_start_player", f) for f in readings.start_player(4, 1, players=(2, 3, 4)).findings]
    setups = [*MA.RULES_SETUPS, (2, False)]
    out += [("meerkat_seat_advantage", f) for f in MR.seat_findings(MA.seat_advantage(setups, 4, rng=1))]
    return out


def test_every_start_player_finding_of_every_game_has_a_check():
    found = _start_findings()
    checks = checks_for(["purramid", "pyradice", "raft", "meerkat"])
    starts = [(e, f) for e, f in found if f.quantity.startswith("start player's")]
    assert len(starts) >= 3 + 3 + 6 + 4
    for exp, f in starts:
        assert [c for c in checks if c.matches(exp, f)], f"{exp}: {f.quantity!r} has no robustness check"
        assert any(c.player == f.player for c in checks if c.matches(exp, f)), (exp, f.player)
