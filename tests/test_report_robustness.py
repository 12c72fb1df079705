"""The report's robustness column: verdicts derived from RobustnessResult, the summary shows them, quick mode."""

import re
import zlib

import numpy as np
import pandas as pd
import pytest
from pypdf import PdfReader

from pyradice_lab.design import checks as report_robustness
from pyradice_lab.design.checks import (
    QUICK_TEXT,
    PairedCheck,
    assess_sections,
    checks_for,
    game_checks,
    report_player_label,
    run_check,
    verdict,
)
from pyradice_lab.design.robustness import Claim, RobustnessResult
from pyradice_lab.engine import registry
from pyradice_lab.engine.findings import Finding
from pyradice_lab.engine.stats import proportion_estimate
from pyradice_lab.report.build import ExperimentResult, Section, write_pdf
from pyradice_lab.report.pdf import robust_cell

#: every game's checks re-run with its report player (each game's ``checks.CHECKS.report_player_games``)
STRONG_CHECK_GAMES = {k: n for g in registry.BUILTIN_GAMES for k, n in game_checks(g).report_player_games.items()}

CHECK = next(c for c in checks_for(["raft"]) if c.key == "raft start 3p standard")


def _finding(estimate, lo, hi, n=800, player=None):
    player = CHECK.player if player is None else player   # the report player (exact): issue 27
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
    assert CHECK.policies == "exact"   # issue 27: the check re-runs the finding with the report player
    g = verdict(_finding(0.40, 0.37, 0.43, player="greedy"), CHECK, res)
    assert g.robust is None and g.robustness.startswith("not assessed for these players; with exact players on 3 sampled")


def test_a_real_check_agrees_with_its_result_and_repeats_with_its_seed():
    check = next(c for c in checks_for(["purramid"]) if c.key == "purramid start 2p")
    assert check.policies == "optimal" and check.player == "optimal, every seat"   # the report player
    res = run_check(check, seed=7, reconstructions=3, games=30)
    again = run_check(check, seed=7, reconstructions=3, games=30)
    pd.testing.assert_frame_equal(res.table, again.table)
    held = int((res.table["verdict"][1:] == "holds").sum())
    f = Finding("difference", "start player's win share, 2 players, both sides", 0.6, 0.55, 0.65, n=1000, null=0.5,
                player="optimal, every seat")
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
    assert "yes: holds on 4 of 4 card decks" in text and "not assessed" not in text   # the summary: no "sampled"
    found = pd.read_csv(tmp_path / "r_findings.csv")
    assert found["robust"].tolist() == [True]


def _start_findings():
    """Each game's start-player findings as its report builds them (tiny samples): (experiment, finding)."""
    from pyradice_lab.meerkat import analysis as MA
    from pyradice_lab.purramid import analysis as PA
    from pyradice_lab.pyradice import analysis as YA
    from pyradice_lab.raft import readings

    out = [("purramid_seat_advantage", f) for f in PA.seat_advantage(PA.play_games(3, seed=1)).findings]
    out += [("pyradice_first_player", f) for f in YA.first_player_findings(YA.first_player_advantage(6, rng=1))]
    out += [("raft_start_player", f) for f in readings.start_player(4, 1, players=(2, 3, 4)).findings]
    setups = [*MA.RULES_SETUPS, (2, False)]
    out += [("meerkat_seat_advantage", f) for f in MA.seat_findings(MA.seat_advantage(setups, 4, rng=1))]
    return out


def test_every_start_player_finding_of_every_game_has_a_check():
    found = _start_findings()
    checks = checks_for(["purramid", "pyradice", "raft", "meerkat"])
    starts = [(e, f) for e, f in found if f.quantity.startswith("start player's")]
    assert len(starts) >= 3 + 3 + 6 + 4
    for exp, f in starts:
        assert [c for c in checks if c.matches(exp, f)], f"{exp}: {f.quantity!r} has no robustness check"
        # issue 27: the checks listed in STRONG_CHECK_GAMES re-run the finding with the game's report player, the
        # others with the heuristic the experiment used
        game = exp.split("_")[0]
        assert any(c.player in (f.player, report_player_label(game)) for c in checks if c.matches(exp, f)), (exp, f.player)
    strong = [c for c in checks if c.key in STRONG_CHECK_GAMES]
    assert len(strong) == len(STRONG_CHECK_GAMES) and all(c.player == report_player_label(c.game) for c in strong)
    assert {c.game for c in strong} == {"purramid", "pyradice", "raft", "meerkat"}


# ----------------------------------------------------------------- paired (two-variant) component findings
ALL_PAIRED = [c for c in report_robustness.all_checks() if isinstance(c, PairedCheck)]  # with shared keys
PAIRED = {c.key: c for c in checks_for(["purramid", "pyradice", "raft", "meerkat"]) if isinstance(c, PairedCheck)}


def _paired_findings():
    """The two-variant component findings as the games' reports build them (tiny samples)."""
    from pyradice_lab.meerkat import analysis as MA
    from pyradice_lab.purramid import analysis as PA
    from pyradice_lab.pyradice import analysis as YA
    from pyradice_lab.raft import analysis as RA

    out = [("pyradice_skill_values", f) for f in YA.skill_findings(YA.skill_values(4, 2, "greedy", rng=1))]
    out += [("raft_gem_mix", f) for f in RA.gem_mix((0, 6), 12, 1).findings]
    out += [("raft_flag_depth", f) for f in RA.flag_depth((5, 30), 12, 1).findings]
    out += [("meerkat_hazards", f) for f in MA.hazard_findings(MA.hazard_impact(12, rng=1))]
    out += [("purramid_side_a_vs_b", f) for f in PA.side_a_vs_b(PA.play_games(3, seed=1, policies="greedy")).findings]
    return out


def test_every_two_variant_component_finding_has_a_paired_check_with_its_players():
    found = _paired_findings()
    wanted = [(e, f) for e, f in found if re.match(r"points per seat lost without|rounds with|hazards per game with|"
                                                    r"start player's win share, side B", f.quantity)]
    assert len(wanted) == 5 + 1 + 1 + 2 + 1
    for exp, f in wanted:
        checks = [c for c in ALL_PAIRED if c.matches(exp, f)]
        assert len(checks) == 1, f"{exp}: {f.quantity!r} has no paired robustness check"
        assert checks[0].player in (f.player, report_player_label(exp.split("_")[0])), (exp, f.quantity, f.player)


@pytest.mark.slow
def test_the_strong_play_gem_mix_finding_shares_the_gem_mix_check():
    from pyradice_lab.raft import strong_play as sp

    res = sp.strong_play(16, 1, players=(3,), mix_games=6, card_players=3, blocks=2)
    mix = [f for f in res.findings if f.quantity.startswith("rounds with")]
    # issue 27: one finding, exact's, greedy's beside it; the page is not in the report (its check is not run)
    assert [(f.player, f.sensitivity_player) for f in mix] == [("exact", "greedy")]
    for f in mix:
        assert [c.key for c in ALL_PAIRED if c.matches("raft_strong_play", f)] == ["raft gem mix 3p"]
    assert not [c for c in checks_for(["raft"]) if c.experiment == "raft_strong_play"]


def _paired_result(intervals, claim="rounds > 0.0"):
    rows = [{"set": "packaged", "value": 1.0, "se": 0.1, "ci_low": 0.8, "ci_high": 1.2, "n": 250,
             "verdict": "holds"}]
    c = Claim(*claim.split()[:2], float(claim.split()[2]))
    rows += [{"set": f"plausible-{i}", "value": (lo + hi) / 2, "se": (hi - lo) / 4, "ci_low": lo, "ci_high": hi,
              "n": 250, "verdict": c.verdict(lo, hi)} for i, (lo, hi) in enumerate(intervals)]
    return RobustnessResult.from_table(c, pd.DataFrame(rows), {"variant": "a", "reference": "b"})


def test_verdict_of_a_paired_check_follows_the_difference_per_set():
    check = PAIRED["raft flag depth 3p"]
    f = Finding("difference", "rounds with the flag under 30 instead of 5 cards, 3 players", 4.5, 4.0, 5.0, n=300,
                null=0.0, unit="rounds", player=check.player)
    g = verdict(f, check, _paired_result([(3.0, 5.0)] * 3 + [(-0.5, 1.0)]))
    assert g.robust is None and g.robustness.startswith("undecided: holds on 3 of 4 sampled card decks, undecided "
                                                        "on 1 (250 games each, paired: every set with the flag")
    assert verdict(f, check, _paired_result([(3.0, 5.0)] * 4)).robust is True
    # a claim below 0 (fewer hazards with 3 of each blue token) counts the sets below 0 as holding
    check = PAIRED["meerkat hazards blue 3"]
    f = Finding("difference", "hazards per game with 3 of each blue token instead of the default 2", -0.1, -0.15, -0.05,
                n=3000, null=0.0, player="greedy")
    g = verdict(f, check, _paired_result([(-0.2, -0.1), (-0.2, -0.1), (0.05, 0.1)], "hazards_per_game > 0.0"))
    assert g.robust is False and g.robustness.startswith("holds on 2 of 3 sampled tile sets, reversed on 1")


def test_a_real_paired_check_repeats_with_its_seed_and_averages_player_counts():
    from pyradice_lab.design.robustness import robustness

    check = PAIRED["purramid sides start"]
    res = run_check(check, seed=3, reconstructions=2, games=40)
    pd.testing.assert_frame_equal(res.table, run_check(check, seed=3, reconstructions=2, games=40).table)
    root = check.seed(3)
    per = [robustness("purramid", "start_player_win > 0.0", reconstructions=2, games=40, players=p,
                      policies="greedy", rng=check.seed(3), variant_options={"layout": "B"},
                      reference_options={"layout": "A"},
                      games_rng=np.random.SeedSequence(root.entropy, spawn_key=(*root.spawn_key, zlib.crc32(b"games"), p)))
           for p in (2, 3, 4)]
    assert res.table["value"].to_numpy() == pytest.approx(sum(r.table["value"].to_numpy() for r in per) / 3)
    assert res.table["se"].to_numpy() == pytest.approx(sum(r.table["se"].to_numpy() ** 2 for r in per) ** 0.5 / 3)
    assert (per[0].table["components_hash"] == per[2].table["components_hash"]).all()  # the same sets
    f = Finding("difference", "start player's win share, side B against side A, mean over 2-4 players", 0.05, 0.01, 0.09,
                n=1000, null=0.0, player="greedy, every seat")
    assert "40 games each per player count, paired" in verdict(f, check, res).robustness


def test_exact_yarn_findings_say_why_they_are_not_assessed():
    from pyradice_lab.purramid.analysis import yarn_answer

    df = pd.DataFrame({"board": ["2p start A", "4p game A #0", "4p game A #1"], "side": ["A"] * 3,
                       "gain_first_token": [0.3, 0.2, 0.25], "gain_second_token": [0.1, 0.05, 0.07]})
    findings = yarn_answer(df, 0.5).findings
    for quick in (True, False):
        exp = ExperimentResult("purramid_yarn_value", "Yarn", "A reading.", pd.DataFrame({"a": [1]}), None,
                               findings=findings)
        assert assess_sections([Section("Purramid", [exp])], {}, quick=quick) == ["purramid_yarn_value"]
        yarn = [f for f in exp.findings if f.quantity.startswith("gain in expected tiles from one yarn token")]
        assert len(yarn) == 2
        assert all(f.robust is None and f.robustness.startswith("not assessed: an exact solve") for f in yarn)
    assert "purramid yarn" not in {c.key for c in checks_for(["purramid"])}   # nothing to run


def test_checks_not_rerun_with_the_report_player_play_the_registrys_heuristic():
    """A check the report player does not re-run plays the game's ``heuristic_player``, the player of the finding's
    sensitivity column (Purramid's used to play risk:0.35 while its sensitivity was greedy)."""
    checks = checks_for(list(registry.BUILTIN_GAMES))
    assert {c.game for c in checks} == set(registry.BUILTIN_GAMES)
    for c in checks:
        spec = registry.get_game(c.game)
        want = spec.report_player if c.key in STRONG_CHECK_GAMES else spec.heuristic_player
        assert c.policies == want and c.player.split(",")[0] == want, (c.key, c.policies, c.player)


def test_the_summary_cell_keeps_the_verdict_and_games_and_leaves_the_check_details_to_the_csv():
    f = Finding("difference", "q", 1.0, 0.5, 1.5, n=200, null=0.0, player="exact").with_context(
        robust=True, robustness="holds on 8 of 8 sampled card decks (60 games each, paired: every set with the flag "
                                "under 30 and under 5 cards)")
    assert robust_cell(f) == "yes: holds on 8 of 8 card decks (60 games each)"
    g = f.with_context(robust=None, robustness="undecided: holds on 1 of 8 sampled board layouts (60 games each)")
    assert robust_cell(g) == "undecided: holds on 1 of 8 board layouts (60 games each)"
    # the why of a finding not assessed is on its experiment's page and in the CSV, not in the summary's column
    h = f.with_context(robust=None, robustness="not assessed: an exact solve on given boards, not a simulated metric "
                                               "(robustness to the board numbers would need the exact solver)")
    assert robust_cell(h) == "not assessed: an exact solve on given boards, not a simulated metric"
    k = f.with_context(robust=None, robustness="not assessed for these players; with greedy players on 8 sampled "
                                               "tile sets: 8 above, 0 below, 0 undecided (40 games each, paired: x)")
    assert robust_cell(k) == ("not assessed for these players; with greedy players on 8 tile sets: 8 above, 0 below, "
                              "0 undecided (40 games each)")
