"""A new game is one package plus one registration: the toy race (tests/toygame) works with pl.compare,
pl.robustness, pl.balance (with its lever), the robustness checks and proposals, the strength ladder, a report
section with its finding, the web desk, its bench row and the CLI, none of which was edited for it.

The toy game imports nothing but :mod:`pyradice_lab.engine`; it is registered only inside these tests
(:func:`tests.toygame.registered`), so no other test meets it.  Its conformance check (determinism, exact tables,
bad parameters, players, position round trip, golden transcript) runs in tests/test_registry.py with the other games.
"""

from __future__ import annotations

import ast
import doctest
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # `tests.toygame` is imported as a package from the repository root
    sys.path.insert(0, str(ROOT))

from tests import toygame  # noqa: E402
from tests.toygame import advisor, odds, sim  # noqa: E402

TOY = ROOT / "tests" / "toygame"


@pytest.fixture
def spec():
    with toygame.registered() as s:
        yield s


# ------------------------------------------------------------------------------------------- one package
def test_the_toy_game_imports_only_the_engine():
    bad = []
    for path in sorted(TOY.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else []
            bad += [f"{path.name}: {n}" for n in names
                    if n.split(".")[0] == "pyradice_lab" and not n.startswith("pyradice_lab.engine")]
    assert not bad


def test_every_component_value_has_its_source():
    doc = toygame.default_components().document
    sources = {f"{sec}.{key}": v["source"] for sec, table in doc.items() for key, v in table.items()}
    assert sources == {"die.faces": "rules", "die.bust": "rules", "race.target": "reconstruction",
                       "race.head_start": "rules"}


def test_registration_is_scoped_to_the_block():
    from pyradice_lab.engine import registry

    before = list(registry.games())
    with toygame.registered() as s:
        assert s.package == "tests.toygame" and registry.get_game("toygame") is s
        assert list(registry.games()) == [*before, "toygame"]
        assert s.part("position") is advisor.Position and s.part("transcript") is toygame.rules.transcript
    assert list(registry.games()) == before


@pytest.mark.parametrize("module", ["components", "odds", "rules", "sim", "advisor", "metrics", "desk", "__init__"])
def test_the_toy_game_doctests(module, spec):
    import importlib

    mod = importlib.import_module("tests.toygame" + ("" if module == "__init__" else f".{module}"))
    res = doctest.testmod(mod, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert res.failed == 0 and res.attempted > 0


# ------------------------------------------------------------------------------------------- the game itself
def test_turn_points_match_brute_force_enumeration():
    """Every sequence of rolls of a 'hold at 10' turn, enumerated: the exact table is that enumeration."""
    from fractions import Fraction
    from itertools import product

    want: dict = {}
    for rolls in product(range(1, 7), repeat=5):  # 5 rolls always decide a 'hold at 10' turn (each adds >= 2)
        total, p = 0, Fraction(1, 6 ** 5)
        for r in rolls:
            if r == 1:
                total = 0
                break
            total += r
            if total >= 10:
                break
        want[total] = want.get(total, 0) + p
    assert odds.turn_points_pmf(10) == dict(sorted(want.items()))


@pytest.mark.slow  # a 100 x 100 x 100 value iteration: about 7 CPU seconds
def test_optimal_start_player_odds_match_pig():
    """The solver reproduces the published optimal-Pig number (Neller & Presser: 53.06% for the start player)."""
    comp = toygame.default_components().replace({"race.target.value": 100})
    assert odds.solve(comp, tol=1e-8).win(0, 0, 0) == pytest.approx(0.5306, abs=5e-5)


def test_monte_carlo_start_player_share_agrees_with_the_exact_value():
    df = sim.simulate_games(1500, rng=7)
    out = sim.outcomes(df)
    share = out.loc[out["start"], "win"].mean()
    exact = odds.solve().win(0, 0, 0)
    se = (exact * (1 - exact) / 1500) ** 0.5
    assert abs(share - exact) < 4 * se


def test_the_optimal_player_beats_the_heuristic():
    out = sim.lineup_outcomes(["optimal", "hold_at:20"], 400, rng=3)
    assert out.loc[out["policy"] == "optimal", "win"].mean() > 0.5


def test_advice_is_the_optimal_players_choice_and_the_played_move_has_no_regret():
    pos = advisor.position_from_game(3, 2, decision=2)
    ranked = advisor.advise(pos)
    assert list(ranked.columns) == ["option", "value", "se", "ci_low", "ci_high", "regret", "reason"]
    assert ranked["regret"].iloc[0] == 0 and (ranked["regret"] >= 0).all()
    assert ranked["option"].iloc[0] == pos.played  # the game's players were optimal
    assert ranked["value"].iloc[0] == pytest.approx(odds.solve().win(pos.state.mine, pos.state.theirs,
                                                                      pos.turn_total))
    assert all(isinstance(r, str) and len(r) > 20 for r in ranked["reason"])


def test_same_numbers_on_worker_processes():
    import pandas as pd

    a = sim.simulate_games(130, policies="hold_at:20", rng=5)
    b = sim.simulate_games(130, policies="hold_at:20", rng=5, n_jobs=2, backend="threading")
    pd.testing.assert_frame_equal(a, b)


def test_a_head_start_for_the_second_player_is_played_and_solved():
    comp = toygame.default_components().replace({"race.head_start.value": 4})
    rec = toygame.play_game(["hold_at:20", "hold_at:20"], rng=2, components=comp)
    assert rec.decisions[0][1].scores == tuple(0 if s == rec.first_player else 4 for s in range(2))
    assert "head start 4" in rec.transcript.splitlines()[0]
    assert odds.solve(comp).win(0, 4, 0) < odds.solve().win(0, 0, 0)


# ------------------------------------------------------------------------------------------- the layers above
def test_the_contract_parts_are_found_in_the_package(spec):
    from pyradice_lab.design.metrics import metrics
    from pyradice_lab.engine.checkspec import GameChecks
    from pyradice_lab.engine.levers import GameLevers
    from pyradice_lab.engine.metrics import COMMON

    assert spec.part("metrics") is toygame.metrics.METRICS
    assert list(metrics("toygame")["metric"]) == [*COMMON, "game_length", "bust_rate"]
    assert isinstance(spec.part("levers"), GameLevers) and spec.part("levers").lever("start_player_win")
    assert isinstance(spec.part("checks"), GameChecks) and spec.part("checks").keys == ("toygame start 2p",)
    assert spec.part("desk") is toygame.desk.DESK
    assert spec.part("plan") is toygame.plan.PLAN


@pytest.mark.parametrize("metric", ["start_player_win", "game_length", "bust_rate"])
def test_compare_measures_a_change_of_the_target(spec, metric):
    import pyradice_lab as pl

    variant = toygame.default_components().replace({"race.target.value": 40})
    res = pl.compare("toygame", None, variant, metric, games=200, policies="hold_at:20", rng=1)
    assert res.game == "toygame" and res.n_games == 200
    assert res.base.ci_low <= res.base.value <= res.base.ci_high
    if metric == "game_length":  # a shorter race takes fewer turns
        assert res.difference.ci_high < 0


def test_balance_with_the_games_lever(spec):
    """The start-player lever's head starts, searched by pl.balance: the proposal gives the second player points,
    and the exact value under optimal play says it brings the start player closer to a fair share."""
    import pyradice_lab as pl

    comp = toygame.default_components()
    params, text, rule_change = spec.part("levers").lever("start_player_win")(comp, 2, None)
    assert rule_change and "head start" in text
    res = pl.balance("toygame", params, "start_player_win = 0.5", budget=1600, first_games=200, verify_games=400,
                     rng=1)
    h = res.values["race.head_start.value"]
    assert h in params["race.head_start.value"] and h > 0
    assert abs(odds.solve(comp.replace({"race.head_start.value": h})).win(0, h, 0) - 0.5) < \
        abs(odds.solve(comp).win(0, 0, 0) - 0.5)


def test_robustness_draws_plausible_targets(spec):
    import pyradice_lab as pl

    res = pl.robustness("toygame", "start_player_win > 0.5", reconstructions=2, games=150, policies="hold_at:20",
                        rng=1)
    assert len(res.table) == 3 and res.verdict in ("robust", "no", "undecided")


def test_the_report_section_carries_its_finding(spec, tmp_path):
    from pyradice_lab.engine.findings import render
    from pyradice_lab.engine.results import ExperimentResult, ReportContext, Section

    section = spec.report_section(ReportContext(quick=True, seed=1, out_dir=tmp_path))
    assert isinstance(section, Section) and section.title == "Toy race"
    results = [item for item in section.items if isinstance(item, ExperimentResult)]
    assert len(results) == 1 and len(results[0].findings) == 1
    finding = results[0].findings[0]
    assert finding.n == 200 and finding.null == 0.5 and finding.ci_low <= finding.estimate <= finding.ci_high
    assert render(finding).startswith("Start-player win share")
    assert (tmp_path / "toygame_start_player" / "toygame_start_player_findings.csv").exists()


@pytest.mark.slow  # end to end: the full-size section, a check on two targets and a small proposal (about 6 CPU s)
def test_the_report_finding_is_rechecked_and_proposed_through_the_registry(spec, tmp_path):
    """design/checks re-checks the toy's finding on plausible targets (its CHECKS), and design/proposals turns
    the claimed, robust finding into a proposal with its lever (LEVERS): no edit to design/ or report/."""
    from pyradice_lab.design import checks as C, proposals as P
    from pyradice_lab.engine.levers import ProposalBudget
    from pyradice_lab.engine.results import ExperimentResult, ReportContext

    section = spec.report_section(ReportContext(quick=False, seed=1, out_dir=tmp_path))
    checks = C.checks_for(["toygame"])
    needed = C.needed_checks(checks, [section])
    assert [c.key for c in needed] == ["toygame start 2p"]
    results = {c.key: C.run_check(c, seed=1, reconstructions=2, games=100) for c in needed}
    assert C.assess_sections([section], results) == ["toygame_start_player"]
    exp = next(it for it in section.items if isinstance(it, ExperimentResult))
    assert "sampled targets" in exp.findings[0].robustness
    # as if the report's control and checks had confirmed it (their sizes are the report's, not a test's)
    exp.findings = (exp.findings[0].with_context(p_value=1e-4, q_value=1e-3, robust=True,
                                                 robustness="holds on 2 of 2 sampled targets"),)
    (cand,) = P.find_candidates([section], checks=checks)
    assert cand.game == "toygame"
    out = P.proposals_section([section], checks=checks, seed=1, out_dir=tmp_path / "proposals",
                              budgets={"toygame": ProposalBudget(search=800, first=100, verify=200, recheck=0)})
    (proposal,) = out.proposals
    assert set(proposal.result.values) == {"race.head_start.value"} and proposal.toml.exists()


def test_the_strength_ladder_follows_the_plan(spec):
    from pyradice_lab.design import strength_report as S

    assert S.plan_of("toygame") is toygame.plan.PLAN and "toygame" in S.rated_games()
    res = S.ladder_experiment("toygame", games=100, rng=1)
    assert res.table["policy"].tolist() == ["optimal", "hold_at:20", "random"]  # strongest first, as registered


def test_the_web_desk_answers_one_json_round_trip(spec):
    pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
    pytest.importorskip("httpx", reason="starlette's test client needs httpx")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from pyradice_lab.web import create_app

    with TestClient(create_app("A"), base_url="http://127.0.0.1:8000") as client:
        assert "toygame" in [g["game"] for g in client.get("/api/games").json()["games"]]
        layout = client.get("/api/toygame/layout", params={"seed": 3, "turn": 2}).json()
        pos = advisor.position_from_game(3, 2)
        assert layout["position"] == pos.document()
        answer = client.post("/api/toygame/advise", json={"position": layout["position"]}).json()
        assert [o["option"] for o in answer["options"]] == advisor.advise(pos)["option"].tolist()
        assert answer["best"]["regret"] == 0 and answer["best"]["option"] == pos.played
        bad = client.post("/api/toygame/advise", json={"position": {**layout["position"], "turn_total": 99}})
        assert bad.status_code == 400 and "turn_total" in bad.text


def test_the_bench_row_runs(spec):
    from pyradice_lab import bench
    from pyradice_lab.engine.benchcase import tiny

    with tiny():
        cases = bench.all_cases(quick=True, games=["toygame"])
        df = bench.run_bench(cases, quick=True)
    assert df["kernel"].tolist() == ["toygame.simulate_games"] and (df["game"] == "toygame").all()
    assert (df["work_per_s"] > 0).all()


def test_the_cli_plays_advises_and_compares(spec, tmp_path, capsys):
    from pyradice_lab.cli import main

    assert main(["toygame", "play", "--seed", "12345"]) == 0
    assert capsys.readouterr().out == toygame.rules.transcript(12345) + "\n"
    path = tmp_path / "pos.toml"
    path.write_text(advisor.load_position({"to_move": 2, "scores": [30, 10], "turn_total": 15}).to_toml())
    assert main(["toygame", "advise", "--position", str(path)]) == 0
    out = capsys.readouterr().out
    assert "roll" in out and "hold" in out and "regret" in out
    # the shared subcommands every game gets, built from the registry
    assert main(["toygame", "components"]) == 0
    assert "race.target      50                  reconstruction" in capsys.readouterr().out
    variant = tmp_path / "short.toml"
    variant.write_text('[race]\ntarget = { value = 40, source = "designer" }\n')
    assert main(["toygame", "compare", "--variant", str(variant), "--metric", "game_length", "--games", "100",
                 "--policies", "hold_at:20", "--no-progress"]) == 0
    assert "the variant is lower" in capsys.readouterr().out
