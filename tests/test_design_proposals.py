"""Issue 29, part 3: the report's "Proposed component changes": a claimed, robust component finding gets a balance
proposal (verified, its TOML loadable), an unclaimed one none, the quick report lists without running, the
re-check says which other finding a proposal makes worse, and a proposal never plays more than its budget."""

from __future__ import annotations

import dataclasses

import pandas as pd
import pytest

from pyradice_lab.design import proposals as P
from pyradice_lab.engine import registry
from pyradice_lab.engine.findings import Finding
from pyradice_lab.engine.results import ExperimentResult, Section, Table, Text
from pyradice_lab.report import checks as report_checks
from pyradice_lab.report.build import PROPOSALS_DIR, _swap_proposals

TINY = P.ProposalBudget(search=60, first=10, verify=30, recheck=30)
START = "start player's win share, 2 players, side A"


def _checks():
    """The report's robustness checks: each finding's metric, null value and games (read at call time, so a test
    can patch them)."""
    return report_checks._all_checks()


def find_candidates(sections, **kw):
    return P.find_candidates(sections, checks=_checks(), **kw)


def startable(sections, pending, **kw):
    return P.startable(sections, pending, checks=_checks(), **kw)


def proposals_section(sections, **kw):
    return P.proposals_section(sections, checks=_checks(), **kw)


def _finding(quantity, est, lo, hi, null, **kw):
    kw.setdefault("component", "start-player compensation (tiles dealt per seat)")
    kw.setdefault("player", "optimal, every seat")
    return Finding("difference", quantity, est, lo, hi, n=2000, null=null, unit="%" if null == 0.5 else "points",
                   **kw)


def _sections(experiment, *findings):
    exp = ExperimentResult(experiment, "A page", "", pd.DataFrame({"x": [1]}), findings=findings)
    return [Section("A game", [exp])]


def _claimed(f, robust=True):
    return f.with_context(p_value=1e-4, q_value=1e-3, robust=robust, robustness="holds on 8 of 8 sampled sets")


def _texts(sec):
    return " ".join(it.text for it in sec.items if isinstance(it, Text))


def _table(sec, title="Candidate proposals"):
    return next(it.frame for it in sec.items if isinstance(it, Table) and it.title == title)


def _counting(monkeypatch):
    """Every game a proposal plays: the balance runs (search and verification) and the re-check's blocks."""
    from pyradice_lab.design import balance as balance_mod

    played = []
    real_run, real_side = balance_mod._balance_run, P._recheck_side

    def run(game, metrics, kwargs, games, seed, comp):
        out = real_run(game, metrics, kwargs, games, seed, comp)
        played.append(out[1])
        return out

    def side(game, metrics, games, seed, comp, sim_kw):
        out = real_side(game, metrics, games, seed, comp, sim_kw)
        played.append(len(next(iter(out.values()))[0]))
        return out

    monkeypatch.setattr(balance_mod, "_balance_run", run)
    monkeypatch.setattr(P, "_recheck_side", side)
    return played


def test_a_claimed_robust_component_finding_gets_a_verified_proposal_whose_toml_loads(tmp_path, monkeypatch):
    played = _counting(monkeypatch)
    f = _claimed(_finding(START, 0.56, 0.53, 0.59, 0.5))
    secs = _sections("purramid_seat_advantage", f)
    sec = proposals_section(secs, seed=1, out_dir=tmp_path / PROPOSALS_DIR, budgets={"purramid": TINY},
                              policies={"purramid": "greedy"})
    assert sec.title == P.SECTION_TITLE and len(sec.proposals) == 1
    p = sec.proposals[0]
    c = p.candidate
    assert c.id == "purramid_seat_advantage-start_player_win-2p" and c.rule_change
    assert c.metric == "start_player_win" and c.target == 0.5 and c.players == 2
    assert c.parameters["deal_2p.value"] and [26, 25] in c.parameters["deal_2p.value"]   # around the packaged deal
    # verified by balance on fresh seeds: before/after with their CIs and the verdict
    r = p.result
    # the lever declares ranges (a joint search may follow the grid): each search verifies on half the games
    assert r.policies == "greedy" and r.verify_games == (TINY.verify // 2 if len(r.tries) < 2 else TINY.recheck)
    assert {"before_ci_low", "after_ci_high", "met"} <= set(r.objectives.columns)
    text = _texts(sec)
    assert "Verdict (fresh seeds" in text and r.verdict() in text and "a rule change" in text
    assert f"{PROPOSALS_DIR}/{c.id}.toml" in text and f"--components {PROPOSALS_DIR}/{c.id}.toml" not in text
    assert f"{PROPOSALS_DIR}/{c.id}.toml (pyradice-lab purramid ... --components FILE)" in text   # the name once
    # the TOML beside the PDF loads through the game's components loader, with the proposed values
    assert p.toml == tmp_path / PROPOSALS_DIR / f"{c.id}.toml" and p.toml.exists()
    from pyradice_lab.purramid.components import load_components

    assert load_components(p.toml).get("deal_2p.value") == r.values["deal_2p.value"]
    head = p.toml.read_text().splitlines()[:2]
    assert head[0].startswith("# balance proposal: start_player_win -> 0.5")
    assert head[1].startswith("# meets the objective" if r.reached else "# NOT MEETING THE OBJECTIVE")
    # its row in the candidates table says what happened
    row = _table(sec).iloc[0]
    assert row["status"].startswith("objective ") and "candidates" in row["lever"]
    # the budget: never more games than the proposal's share
    assert sum(played) == p.games <= TINY.games and r.games_used <= TINY.search


def test_unclaimed_unrobust_and_rules_findings_get_no_proposal(tmp_path, monkeypatch):
    def no_balance(*a, **k):
        raise AssertionError("balance must not run")

    monkeypatch.setattr("pyradice_lab.design.balance.balance", no_balance)
    unclaimed = _finding(START, 0.51, 0.48, 0.54, 0.5).with_context(p_value=0.5, q_value=0.6)
    sec = proposals_section(_sections("purramid_seat_advantage", unclaimed), out_dir=tmp_path)
    assert sec.proposals == [] and not list(tmp_path.iterdir())
    assert find_candidates(_sections("purramid_seat_advantage", unclaimed)) == []
    assert "No component finding claims a difference" in _texts(sec)
    # a claim the robustness check leaves undecided is listed, not run
    undecided = _claimed(_finding(START, 0.56, 0.53, 0.59, 0.5), robust=None).with_context(
        robustness="undecided: holds on 5 of 8 sampled board layouts")
    (c,) = find_candidates(_sections("purramid_seat_advantage", undecided))
    assert c.status == "not proposed: robustness undecided"
    # Meerkat's tile 6 keeps the rules' 6/3: no lever
    tile6 = _claimed(_finding("points paid per piece committed, tile 6 (6/3)", 2.9, 2.7, 3.1, 2.4,
                              component="tile 6 values", player="mcts"))
    (c,) = find_candidates(_sections("meerkat_tile_fairness", tile6))
    assert c.status == "not proposed: tile 6's values are stated by the rules" and not c.parameters
    sec = proposals_section(_sections("meerkat_tile_fairness", tile6), out_dir=tmp_path)
    assert sec.proposals == [] and _table(sec).iloc[0]["status"] == c.status
    # a player count whose proposal budget verifies on fewer than 30 games a side (Purramid 4 players: 20, halved
    # for the joint search): listed, not run
    two = [_claimed(_finding(START.replace("2 players", f"{p} players"), 0.6, 0.55, 0.65, 1 / p)) for p in (2, 4)]
    cands = find_candidates(_sections("purramid_seat_advantage", *two))
    assert {c.players: c.status for c in cands} == {
        2: "", 4: "not proposed: the game's proposal budget at 4 players verifies on 10 games a side, fewer than 30 "
                  "(too few to decide whether a proposal meets its objective)"}
    # beyond MAX_PROPOSALS: listed "not run"
    secs = _sections("purramid_seat_advantage", two[0]) + _sections("meerkat_tile_fairness", _tile(12, 3.4))
    cands = find_candidates(secs, max_proposals=1)
    assert [c.status for c in cands] == ["", "not run: beyond the report's 1 proposals"]


def test_the_quick_report_lists_the_candidates_without_running_them(tmp_path, monkeypatch):
    def no_balance(*a, **k):
        raise AssertionError("balance must not run in a quick report")

    monkeypatch.setattr("pyradice_lab.design.balance.balance", no_balance)
    quick = [_finding(START, 0.56, 0.53, 0.59, 0.5, no_claim="quick run"),
             _finding("points paid per piece committed, tile 12 (11/6/3)", 3.4, 3.2, 3.6, 2.4, no_claim="quick run",
                      component="tile 12 values", player="mcts")]
    secs = [_sections("purramid_seat_advantage", quick[0])[0], _sections("meerkat_tile_fairness", quick[1])[0]]
    sec = proposals_section(secs, quick=True, out_dir=tmp_path)
    assert sec.proposals == [] and not list(tmp_path.iterdir())
    t = _table(sec)
    assert list(t["status"]) == [P.QUICK_STATUS] * 2
    assert set(t["objective"]) == {"start_player_win = 0.5", "tile_pay_excess:12 = 0"}
    assert "none is run" in _texts(sec)
    tile = next(c for c in find_candidates(secs, quick=True) if c.game == "meerkat")
    choices = tile.parameters["tile.12.values"]
    assert [11, 6, 3] in choices and all(v[0] <= 12 for v in choices)    # an overpaying tile comes down


def _tile(t, est, null=2.4):
    return _claimed(_finding(f"points paid per piece committed, tile {t} (x)", est, est - 0.2, est + 0.2, null,
                             component=f"tile {t} values", player="greedy"))


def test_the_recheck_says_which_other_finding_a_proposal_makes_worse():
    from pyradice_lab.meerkat.components import default_components

    base = default_components()
    rich = base.replace({"tile.12.values": [30, 20, 10]})     # tile 12 pays far more: it overpays further
    others = [("meerkat_tile_fairness", _tile(12, 3.4), "tile_pay_excess:12", 0.0)]
    kw = dict(games=40, players=3, policies="greedy", game_kwargs={"automa": False}, rng=5)
    (x,) = P.recheck("meerkat", base, rich, others, **kw)
    assert x.worse and x.difference.ci_low > 0 and "made worse" in x.sentence()
    (same,) = P.recheck("meerkat", base, base, others, **kw)    # no change: nothing made worse
    assert not same.worse and same.difference.value == 0


def test_a_proposal_that_makes_another_finding_worse_says_so_within_its_budget(tmp_path, monkeypatch):
    played = _counting(monkeypatch)
    # a lever with one extreme candidate: tile 12 raised far beyond the board mean
    from pyradice_lab.engine.levers import Lever
    from pyradice_lab.meerkat import levers as meerkat_levers

    extreme = Lever("tile_pay_excess", lambda comp, arg, f: ({f"tile.{arg}.values": [[30, 20, 10]]}, "test lever",
                                                             False))
    monkeypatch.setattr(meerkat_levers, "LEVERS", dataclasses.replace(meerkat_levers.LEVERS,
                                                                      levers={"tile_pay_excess": extreme}))
    from pyradice_lab.design import checks

    real = checks.all_checks()
    # the pure-Python engine (the report's checks run the compiled one)
    monkeypatch.setattr(checks, "CHECKS", tuple(c if c.game != "meerkat" or "tile" not in c.key else
                                                dataclasses.replace(c, game_kwargs={"automa": False})
                                                for c in real))
    secs = _sections("meerkat_tile_fairness", _tile(12, 1.6), _tile(5, 1.8))   # both underpay
    sec = proposals_section(secs, seed=2, out_dir=tmp_path, budgets={"meerkat": TINY},
                              policies={"meerkat": "greedy"}, max_proposals=1)
    (p,) = sec.proposals
    assert p.candidate.metric == "tile_pay_excess:12" and p.result.values == {"tile.12.values": [30, 20, 10]}
    (x,) = p.rechecks
    assert x.metric == "tile_pay_excess:5" and x.worse     # the board mean rises: tile 5 underpays further
    text = _texts(sec)
    assert "Makes worse: points paid per piece committed, tile 5" in text and "paired difference" in text
    assert "makes 1 other finding worse" in _table(sec).iloc[0]["status"]
    rows = next(it.frame for it in sec.items if isinstance(it, Table) and it.title is None)
    assert "re-check: tile_pay_excess:5" in set(rows["metric"]) and "worse" in set(rows["met"])
    # the path of balance --finding: the objective targeted, the guards' before -> after, the refusal stated (the
    # lever has one candidate: no next-best one to try)
    assert "Objective targeted: tile_pay_excess:12 = 0" in text and "guard: start player, start_player_win" in \
        set(rows["metric"])
    assert "Guards (paired, 30 fresh games each side" in text and "REFUSED: moved further from" in text
    assert "refused by the guards" in _table(sec).iloc[0]["status"] and p.result.guarded is False
    assert sum(played) == p.games <= TINY.games and p.games == p.result.games_used + 2 * TINY.verify + 2 * TINY.recheck


def test_proposals_swap_in_beside_the_worked_cases(tmp_path):
    target = tmp_path / PROPOSALS_DIR
    target.mkdir()
    (target / "meerkat_tile_values.toml").write_text("# worked case\n")
    (target / "raft_card_fairness-boat_pay_excess_2-3p.toml").write_text("# last report's\n")
    new = tmp_path / "stage"
    new.mkdir()
    (new / "purramid_seat_advantage-start_player_win-2p.toml").write_text("# this report's\n")
    _swap_proposals(new, target, full=True)
    assert sorted(p.name for p in target.iterdir()) == ["meerkat_tile_values.toml",
                                                        "purramid_seat_advantage-start_player_win-2p.toml"]


def test_every_budget_is_a_bounded_share_of_the_report():
    assert all(b.games == b.search + 2 * b.verify + 2 * b.recheck for b in P.PROPOSAL_BUDGETS.values())
    assert set(P.PROPOSAL_BUDGETS) == {"purramid", "pyradice", "raft", "meerkat"}
    assert P.MAX_PROPOSALS * max(b.games for b in P.PROPOSAL_BUDGETS.values()) <= 10_000
    assert P.budget_for("purramid", 4).games < P.budget_for("purramid", 2).games == P.proposal_games("purramid")
    assert P.budget_for("raft", 3) is P.PROPOSAL_BUDGETS["raft"]
    with pytest.raises(KeyError):
        P.proposal_games("chess")


def test_every_game_declares_its_levers_and_the_proposals_read_them_through_the_registry():
    """The game contract's ``levers`` part: each game's ``levers.LEVERS`` (a GameLevers: levers by metric, budgets,
    the designer subcommands' examples), and design.proposals reaches it only through the registry."""
    import pathlib
    import re

    from pyradice_lab.engine.levers import GameLevers, Lever, ProposalBudget

    for name, spec in registry.games().items():
        if name not in registry.BUILTIN_GAMES:
            continue
        lv = spec.part("levers")
        assert isinstance(lv, GameLevers) and lv.levers, name
        assert P.game_levers(name) is lv and P.budget_for(name, 2) is lv.budget_for(2)
        assert all(isinstance(v, Lever) and v.metric == m and v.ranges for m, v in lv.levers.items())
        assert isinstance(lv.budget, ProposalBudget) and set(lv.examples) == {"balance", "robustness"}
        # the balance example's objective is a metric with a lever
        objective = re.search(r"--objective '([\w_]+)", lv.examples["balance"]).group(1)
        assert lv.lever(objective) is not None, name
    assert P.PLAYER_BUDGETS == {("purramid", p): P.budget_for("purramid", p) for p in (2, 3, 4)}
    import pyradice_lab.report.proposals as old

    assert old is P   # the old name is the same module object
    src = pathlib.Path(P.__file__).read_text()
    code = re.sub(r'"""(?:.|\n)*?"""', "", src)    # docstrings aside
    assert not re.search(r"purramid|pyradice\"|raft|meerkat|import_module", code)


def test_a_verdict_names_a_group_of_paths_once():
    from pyradice_lab.design.proposals import _short_keys

    key = "card.7.points,card.8.points,card.9.points"
    text = f"target 0 not reached: best -0.7 [-0.8, -0.6] at values {key} = 2; widen the ranges of {key}, tile.1.v"
    got = _short_keys(text, {key: (1, 3), "tile.1.v": (1, 2)})
    assert got.count("card 7-9 points") == 2 and "card.7.points" not in got and got.endswith("tile.1.v")


def test_the_meerkat_tile_lever_moves_only_towards_the_board_mean():
    from pyradice_lab.engine.findings import Finding
    from pyradice_lab.meerkat.components import load_components
    from pyradice_lab.meerkat.levers import TILE_STEPS, tile_values as _meerkat_tile

    comp = load_components()
    over = Finding("difference", "points paid per piece committed, tile 12 (11/6/3)", 3.4, 3.3, 3.5, n=300, null=2.4)
    params, text, rule = _meerkat_tile(comp, "12", over)
    (choices,) = params.values()
    highs = [v[0] for v in choices[:TILE_STEPS + 1]]
    assert highs == [11 - k for k in range(TILE_STEPS + 1)] and choices[0] == [11, 6, 3] and not rule
    # then the lower places down with the high value kept (issue 44: they move the pay, the level does not)
    assert all(v[0] == 11 and v[1] < 6 for v in choices[TILE_STEPS + 1:])
    assert "down by up to" in text and "other way" not in text and "lower values down" in text
    under = Finding("difference", "points paid per piece committed, tile 5 (7/3)", 1.7, 1.6, 1.8, n=300, null=2.4)
    (choices,) = _meerkat_tile(comp, "5", under)[0].values()
    assert [v[0] for v in choices[:TILE_STEPS + 1]] == [7 + k for k in range(TILE_STEPS + 1)]
    assert all(v[0] == 7 and v[1] > 3 for v in choices[TILE_STEPS + 1:])


def test_proposals_on_two_jobs_are_the_ones_played_on_one(tmp_path):
    """The proposals part on two jobs (each balance round split over the workers) gives the numbers of one job."""
    fs = [_claimed(_finding(START, 0.56, 0.53, 0.59, 0.5)),
          _claimed(_finding("start player's win share, 3 players, side A", 0.40, 0.37, 0.43, 1 / 3))]
    secs = _sections("purramid_seat_advantage", *fs)
    kw = dict(seed=3, budgets={"purramid": TINY}, policies={"purramid": "greedy"})
    one = proposals_section(secs, out_dir=tmp_path / "one", **kw)
    two = proposals_section(secs, out_dir=tmp_path / "two", n_jobs=2, backend="threading", **kw)
    assert len(one.proposals) == len(two.proposals) == 2
    for a, b in zip(one.proposals, two.proposals):
        assert a.candidate.id == b.candidate.id and a.result.values == b.result.values
        pd.testing.assert_frame_equal(a.result.objectives, b.result.objectives)
        assert (tmp_path / "one" / f"{a.candidate.id}.toml").read_text() == \
            (tmp_path / "two" / f"{b.candidate.id}.toml").read_text()


def _boat(size, est, robust=True):
    return _claimed(_finding(f"points per own turn held, {size}-slot lifeboats against the deck's 3.42, 3 players",
                             est, est - 0.1, est + 0.1, 0.0, component="lifeboat points", player="greedy"),
                    robust=robust)


def test_startable_runs_only_the_candidates_sure_to_be_among_the_reports_proposals():
    """A proposal may start beside the checks once its own verdict is in and the candidates ranked before it that
    run or are still pending leave it a place among ``max_proposals`` (then the serial report runs it too)."""
    big, mid, small = _boat(4, 1.5), _boat(2, -1.0), _boat(3, 0.5)   # ranked by size: 4-slot, 2-slot, 3-slot
    secs = _sections("raft_card_fairness", big, mid, small)
    ids = [c.id for c in find_candidates(secs)]
    assert len(ids) == 3
    nothing_pending = [c.id for c in startable(secs, lambda c: False)]
    assert nothing_pending == ids
    # the first pending: the second and third start only if two places remain after it
    first_pending = lambda c: c.id == ids[0]  # noqa: E731
    assert [c.id for c in startable(secs, first_pending, max_proposals=3)] == ids[1:]
    assert [c.id for c in startable(secs, first_pending, max_proposals=2)] == ids[1:2]
    assert startable(secs, first_pending, max_proposals=1) == []
    # a candidate that will not run (not robust) takes no place
    secs = _sections("raft_card_fairness", big, _boat(2, -1.0, robust=None), small)
    assert [c.id for c in startable(secs, lambda c: False, max_proposals=2)] == [ids[0], ids[2]]


# ------------------------------------------------------------------------------------------------ issue 46
def _candidate(cid, players=2, game_kwargs=None, game="meerkat"):
    f = _finding(START, 0.56, 0.53, 0.59, 0.5)
    return P.Candidate(cid, game, "exp", f, "start_player_win", 0.5, players, dict(game_kwargs or {}),
                       parameters={"x": [1, 2]})


def _fake_run(monkeypatch):
    """run_proposal with its search-and-guards path (``_balance_path.propose``) replaced by a recorder (no games
    played): the seeds it is given (grid search, joint search, guards and re-check) and the findings to keep."""
    import types

    seen = {}

    def fake_propose(game, cand, *, rng, others, **kw):
        seen["search"], seen["widen"], seen["check"] = rng
        seen["others"] = [o[0] for o in others]
        return types.SimpleNamespace(games_used=10, components="proposal components", rechecks=[]), 10

    monkeypatch.setattr("pyradice_lab.design._balance_path.propose", fake_propose)
    monkeypatch.setattr(P, "_components", lambda game: "packaged components")
    return seen


def test_the_recheck_draws_seeds_independent_of_the_search(monkeypatch):
    """Issue 46: the re-check plays games of its own (a child of the proposal's seed that the search never
    uses), not the search's games: those chose the proposal and would flatter it."""
    import numpy as np

    seen = _fake_run(monkeypatch)
    c, other = _candidate("a"), dataclasses.replace(_candidate("b"), experiment="other exp")
    P.run_proposal(c, seed=3, others=[other], budget=TINY)
    s, k = seen["search"], seen["check"]
    assert isinstance(s, np.random.SeedSequence) and isinstance(k, np.random.SeedSequence)
    assert (s.entropy, s.spawn_key) != (k.entropy, k.spawn_key)
    a, b = np.random.default_rng(s).random(4), np.random.default_rng(k).random(4)
    assert not np.allclose(a, b)


def test_findings_of_other_player_counts_or_options_are_not_rechecked_on_a_proposals_games(monkeypatch):
    """Issue 46: only the findings measured in the proposal's games (same game, player count and options) are
    re-checked; the others are counted as not re-checked."""
    seen = _fake_run(monkeypatch)
    c = _candidate("a", players=2, game_kwargs={"variant": "x"})
    others = [dataclasses.replace(_candidate("same", 2, {"variant": "x"}), experiment="same"),
              dataclasses.replace(_candidate("3p", 3, {"variant": "x"}), experiment="3p"),
              dataclasses.replace(_candidate("opt", 2, {"variant": "y"}), experiment="opt"),
              dataclasses.replace(_candidate("game", 2, {"variant": "x"}, game="raft"), experiment="game")]
    p = P.run_proposal(c, seed=1, others=others, budget=TINY)
    assert seen["others"] == ["same"]
    assert p.not_rechecked == 2  # the 3-player one and the other options (another game is not counted)


def test_candidate_keys_include_the_game_options():
    """Issue 46: two checks of one metric and player count that differ only in their game options are two
    candidates (two proposals), not one."""
    base = next(c for c in _checks() if c.key == "meerkat tile pay greedy")
    a = dataclasses.replace(base, key="opt a", game_kwargs={**base.game_kwargs, "automa": True})
    b = dataclasses.replace(base, key="opt b", experiment="exp b", game_kwargs={**base.game_kwargs, "automa": False})
    quantity = "points paid per piece committed, tile 12 (9, 6, 3)"
    f = _claimed(Finding("difference", quantity, 1.2, 1.0, 1.4, n=2000, null=0.0, player=base.player,
                         component="tile 12 values"))
    sections = [Section("A game", [ExperimentResult(base.experiment, "A page", "", pd.DataFrame({"x": [1]}),
                                                    findings=[f]),
                                   ExperimentResult("exp b", "B page", "", pd.DataFrame({"x": [1]}), findings=[f])])]
    cands = P.find_candidates(sections, checks=[a, b], quick=True)
    assert sorted(c.game_kwargs["automa"] for c in cands) == [False, True], cands
def test_the_reports_path_splits_each_games_proposal_budget_without_growing_it():
    """The grid and the joint search (with their verifications) share what the grid alone played before; the guards
    play the re-check's games: every step together stays within the game's per-proposal budget."""
    from pyradice_lab.design._balance_path import report_sizes

    for b in [*P.proposal_budgets().values(), *P.player_budgets().values()]:
        s = report_sizes(b, widen=True)
        assert s.grid + s.joint == b.search and s.grid_verify + s.joint_verify <= b.verify
        assert s.grid + 2 * s.grid_verify + s.joint + 2 * s.joint_verify + 2 * s.guards <= b.games == s.total
        whole = report_sizes(b, widen=False)      # no declared ranges: the grid has it all, as before
        assert (whole.grid, whole.grid_verify, whole.joint, whole.guards) == (b.search, b.verify, 0, b.recheck)


def test_a_proposal_names_each_value_once_with_its_card_numbers_as_ranges():
    """The report printed 'card 34,35,36,37,38,39,34,35,36,37,38,39 points = 4': a group's key and its own paths
    both listed, each card twice."""
    from pyradice_lab.design._balance_toml import assignments_text
    from pyradice_lab.design._proposal_items import _values

    class Comp:
        def get(self, path):
            return {"card.34.points": 4, "card.35.points": 4, "card.36.points": 4, "card.25.points": 6}[path]

    keys = {"card.34.points,card.35.points,card.36.points": None, "card.34.points": None, "card.25.points": None}
    assert _values(Comp(), keys) == "card 34-36 points = 4; card.25.points = 6"
    assert assignments_text([("card.34.points", 3), ("card.36.points", 3), ("card.35.points", 3)]) == \
        "card 34-36 points = 3"
