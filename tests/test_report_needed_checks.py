"""Issue 27's budget: the report runs a robustness check only for findings that could claim, sized by those claims,
as soon as the section that holds them is built (Pool.imap_scheduled: a task graph built as it runs)."""

import dataclasses
import threading

import pandas as pd
import pytest

from pyradice_lab.design import checks as C
from pyradice_lab.engine.execution import Pool
from pyradice_lab.engine.findings import Finding
from pyradice_lab.report import build as report_build
from pyradice_lab.report.build import ExperimentResult, Section

CHECKS = C.checks_for(["raft", "pyradice", "meerkat", "purramid"])
BY_KEY = {c.key: c for c in CHECKS}
RAFT3 = BY_KEY["raft start 3p standard"]
RAFT2 = BY_KEY["raft start 2p standard"]


def _start(p, estimate, halfwidth, n=300, variant="standard"):
    return Finding("difference", f"start player's win share, {p} players, {variant}", estimate,
                   estimate - halfwidth, estimate + halfwidth, n=n, null=1 / p, unit="%", player=RAFT3.player)


def _section(*findings):
    exp = ExperimentResult("raft_start_player", "Start-player advantage", "A reading.", pd.DataFrame({"a": [1]}),
                           None, findings=list(findings))
    return Section("Rocking Raft", [exp])


def test_the_size_makes_the_packaged_effect_twice_the_half_width_within_the_checks_budget():
    # effect 0.1, half-width 0.05 at 300 games: 300 (2 * 0.05 / 0.1)^2 = 300 games, above the budget of 60
    assert C.sized_for(RAFT3, [_start(3, 1 / 3 + 0.1, 0.05)]).games == RAFT3.games == 60
    # effect 0.2, half-width 0.02: 300 * 0.04 = 12 games, below the floor
    assert C.sized_for(RAFT3, [_start(3, 1 / 3 + 0.2, 0.02)]).games == C.MIN_CHECK_GAMES
    # effect 0.1, half-width 0.02 at 1000 games: 1000 * 0.16 = 160, within a budget of 200; the largest claim wins
    wide = dataclasses.replace(RAFT3, games=200)
    one, other = _start(3, 1 / 3 + 0.1, 0.02, n=1000), _start(3, 1 / 3 + 0.2, 0.02)
    assert C.sized_for(wide, [one, other]).games == 160
    # a check over several runs (card line-ups) plays the size split over its runs
    cards = BY_KEY["pyradice card difference"]
    f = Finding("difference", "points per seat, strongest card (Height) against the weakest (Small)", 7.0, 6.5,
                7.5, n=300, null=0.0, player=cards.player)
    assert C.sized_for(cards, [f]).games == -(-C.MIN_CHECK_GAMES // len(cards.runs))
    # a check averaged over player counts keeps its size
    sides = BY_KEY["purramid sides start"]
    assert C.sized_for(sides, [f]).games == sides.games


def test_only_the_checks_of_possible_claims_run_each_sized_by_its_claims():
    claim = _start(3, 1 / 3 + 0.2, 0.02)                  # its own test claims
    none = _start(2, 0.52, 0.05, n=200)                   # its interval holds the null: no claim
    needed = C.needed_checks(CHECKS, [_section(claim, none)])
    assert [c.key for c in needed] == [RAFT3.key]
    assert needed[0].games == C.MIN_CHECK_GAMES
    assert C.needed_checks(CHECKS, [_section(none)]) == []
    # a claim measured with other players still gets the check's counts ("not assessed for these players; ...")
    greedy = dataclasses.replace(claim, player="greedy")
    assert [c.key for c in C.needed_checks(CHECKS, [_section(greedy)])] == [RAFT3.key]


def test_a_finding_whose_check_did_not_run_says_so():
    claim, none = _start(3, 1 / 3 + 0.2, 0.02), _start(2, 0.52, 0.05, n=200)
    secs = [_section(claim, none)]
    C.assess_sections(secs, {})            # the full report ran no check for the finding without a claim
    got = {f.quantity: f for f in secs[0].items[0].findings}
    assert got[none.quantity].robustness == C.NOT_RUN_TEXT and got[none.quantity].robust is None
    assert not got[claim.quantity].robustness  # a claim keeps waiting for its check's result


def _cmdline(p):
    try:
        return p.cmdline()
    except Exception:  # noqa: BLE001 - the process has gone
        return []


def _square(x):
    return x * x


@pytest.mark.parametrize("backend", ["loky", "threading", None])
def test_imap_scheduled_runs_the_tasks_then_adds_with_the_same_results_on_every_backend(backend):
    import psutil

    seen, before, during = [], {p.pid for p in psutil.Process().children(recursive=True)}, []

    def then(key, result):
        seen.append(key)
        if not during:
            during.extend(psutil.Process().children(recursive=True))
        # every task k < 3 adds the task 10 + k; those run before the tasks still waiting
        return [(10 + key, (key + 10,))] if key < 3 else []

    pool = Pool(2, backend) if backend else Pool(1)
    with pool:
        out = dict(pool.imap_scheduled(_square, [(k, (k,)) for k in range(5)], then))
    assert out == {k: k * k for k in (0, 1, 2, 3, 4, 10, 11, 12)}
    assert sorted(seen) == sorted(out)
    if backend is None:  # in one process the order is the schedule's: a task's follow-up comes next
        assert seen == [0, 10, 1, 11, 2, 12, 3, 4]
    if backend == "loky":  # the worker processes it started are gone, and joblib's pool still works after it
        workers = [p for p in during if p.pid not in before and "resource_tracker" not in " ".join(_cmdline(p))]
        assert workers and not [p for p in workers if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
        with Pool(2, "loky") as again:
            assert again.map(_square, [(k,) for k in range(4)]) == [0, 1, 4, 9]


def test_imap_scheduled_starts_the_smaller_priority_first_then_the_new_tasks_first():
    """Serial: the order is the schedule's.  Keys >= 100 (the follow-ups) have priority 1, the others 0: every
    task of priority 0 runs before any follow-up; among the follow-ups the newest batch first."""
    seen = []

    def then(key, result):
        seen.append(key)
        return [(100 + key, (key,)), (200 + key, (key,))] if key < 3 else []

    with Pool(1) as pool:
        out = dict(pool.imap_scheduled(_square, [(k, (k,)) for k in range(4)], then,
                                       priority=lambda key: 1 if key >= 100 else 0))
    assert seen == [0, 1, 2, 3, 102, 202, 101, 201, 100, 200]
    assert out[102] == 4
    with Pool(1) as pool:  # without priorities: a task's follow-ups come next, as before
        seen.clear()
        dict(pool.imap_scheduled(_square, [(k, (k,)) for k in range(4)], then))
    assert seen == [0, 100, 200, 1, 101, 201, 2, 102, 202, 3]
    with Pool(1) as pool, pytest.raises(TypeError, match="priority must be a function"):
        list(pool.imap_scheduled(_square, [(0, (0,))], lambda k, r: [], priority=3))


def test_imap_scheduled_keeps_at_most_n_jobs_tasks_in_flight():
    lock, state = threading.Lock(), {"now": 0, "most": 0}
    gate = threading.Event()

    def task(k):
        with lock:
            state["now"] += 1
            state["most"] = max(state["most"], state["now"])
        gate.wait(0.05)
        with lock:
            state["now"] -= 1
        return k

    with Pool(2, "threading") as pool:
        out = sorted(k for k, _ in pool.imap_scheduled(task, [(k, (k,)) for k in range(6)],
                                                       lambda key, res: [(key + 100, (key,))] if key < 2 else []))
    assert out == [0, 1, 2, 3, 4, 5, 100, 101] and state["most"] == 2


def test_build_report_starts_only_the_checks_its_sections_need(tmp_path, monkeypatch):
    """A full build whose (stubbed) Rocking Raft section claims one start-player finding runs that check only,
    at its claims' size; the other start-player findings get the 'no claim to test' text."""
    monkeypatch.setattr(C, "RECONSTRUCTIONS", 2)
    claim, none = _start(3, 1 / 3 + 0.2, 0.02), _start(2, 0.52, 0.05, n=200)
    ran = []
    real = C.run_check

    def counting(check, **kw):
        ran.append((check.key, check.games))
        return real(dataclasses.replace(check, games=10), **kw)   # tiny: the test checks what runs, not the numbers

    monkeypatch.setattr(C, "run_check", counting)

    def stub(name, builder, ctx, parent_pid=None):
        # (trials: the strength part's join adds them up; the sections are built before the checks run)
        return _section(claim, none) if name == "raft" else Section(name, ["stub"], trials="0")

    monkeypatch.setattr(report_build, "_build_section", stub)
    try:
        report_build.build_report(tmp_path / "r.pdf", quick=False, seed=3, games=["raft"], progress=False)
    except Exception:  # noqa: BLE001 - the stubbed sections may not make a whole report; the checks ran first
        pass
    assert ran == [(RAFT3.key, C.MIN_CHECK_GAMES)]
    assert RAFT2.key not in [k for k, _ in ran]


def _boat_section():
    """A Rocking Raft section claiming a lifeboat-pay finding (a proposal's candidate) and a start-player one."""
    f = Finding("difference", "points per own turn held, 2-slot lifeboats against the deck's 3.42, 3 players", -1.5,
                -1.6, -1.4, n=300, null=0.0, component="lifeboat points", player="greedy")
    exp = ExperimentResult("raft_card_fairness", "Card fairness", "A reading.", pd.DataFrame({"a": [1]}), None,
                           findings=[f])
    return Section("Rocking Raft", [exp, _section(_start(3, 1 / 3 + 0.2, 0.02)).items[0]])


def test_build_report_runs_a_proposal_in_its_pool_once_the_verdict_is_in_with_the_serial_numbers(
        tmp_path, monkeypatch):
    """Issue 27/29: a claimed, robust component finding's proposal starts in the report's pool as soon as its check
    returns while other work is left (here a slow check of another finding); with nothing else left it runs after
    the pool, each balance round on all the jobs; the same proposal either way, and as the serial part gives."""
    import time

    from pyradice_lab.design import proposals as P

    def slow_check(check, **kw):
        if check.key != BY_KEY["raft boat pay greedy"].key:
            time.sleep(1.0)
        return "stub result"   # what runs matters here, not the check

    monkeypatch.setattr(C, "run_check", slow_check)
    monkeypatch.setattr(C, "verdict", lambda f, check, result: f.with_context(
        robust=True, robustness="holds on 8 of 8 sampled sets"))
    tiny = P.ProposalBudget(search=40, first=10, verify=20, recheck=0)
    monkeypatch.setattr(P, "budget_for", lambda game, players: tiny)
    monkeypatch.setattr(report_build, "_build_section", lambda name, builder, ctx, parent_pid=None:
                        _boat_section() if name == "raft" else Section(name, ["stub"], trials="0"))
    pooled, parts = [], []
    real_task, real_section = report_build._proposal_task, P.proposals_section
    monkeypatch.setattr(report_build, "_proposal_task", lambda c, kw: pooled.append(c.id) or real_task(c, kw))
    monkeypatch.setattr(P, "proposals_section", lambda *a, **kw: parts.append(real_section(*a, **kw)) or parts[-1])

    def build(folder, n_jobs=2):
        try:
            report_build.build_report(tmp_path / folder / "r.pdf", quick=False, seed=3, games=["raft"],
                                      progress=False, n_jobs=n_jobs, backend="threading")
        except Exception:  # noqa: BLE001 - the stubbed sections may not make a whole report; the proposals ran
            pass
        (p,) = parts[-1].proposals
        return p, (tmp_path / folder / "proposals" / f"{p.candidate.id}.toml").read_text()

    pool, pool_toml = build("pool")
    assert pooled == ["raft_card_fairness-boat_pay_excess_2-3p"]
    assert "in the report's worker pool" in " ".join(getattr(it, "text", "") for it in parts[-1].items)
    after, after_toml = build("after", n_jobs=1)   # one job: the checks run first, nothing is left beside it
    assert pooled == ["raft_card_fairness-boat_pay_excess_2-3p"]   # not pooled this time
    assert pool.result.values == after.result.values
    pd.testing.assert_frame_equal(pool.result.objectives, after.result.objectives)
    assert pool_toml == after_toml


def test_a_finding_is_checked_with_the_check_of_its_own_players():
    """Issue 46: two checks match a finding (the heuristic's and the report player's); check_of picks the one
    measured with the finding's players, and the first match only when none is."""
    base = next(c for c in C.checks_for(["raft"]) if c.key == "raft start 2p standard")
    heur = dataclasses.replace(base, pattern="start share", player="greedy players")
    strong = dataclasses.replace(base, key=base.key + " strong", pattern="start share", player="exact players")

    def finding(player):
        return Finding("difference", "start share", 0.55, 0.5, 0.6, n=500, null=0.5, player=player)

    assert C.check_of([heur, strong], base.experiment, finding("exact players")) is strong
    assert C.check_of([strong, heur], base.experiment, finding("greedy players")) is heur
    assert C.check_of([heur, strong], base.experiment, finding("random players")) is heur
    assert C.check_of([heur], "another experiment", finding("greedy players")) is None
