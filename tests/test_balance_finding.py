"""``balance --finding ID`` and ``balance_finding``: a proposal asked for by a finding of the report's findings CSV,
written as a minimal TOML overlay (only the changed values) that loads with ``--components``."""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd
import pytest

from pyradice_lab.design._balance_finding import _COLUMNS
from pyradice_lab.design._balance_toml import changed_paths, overlay, overlay_toml
from pyradice_lab.design.balance import balance_finding, findings_of, resolve_finding
from pyradice_lab.engine.findings import Finding
from pyradice_lab.engine.registry import get_game

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # `tests.toygame` is imported as a package from the repository root
    sys.path.insert(0, str(ROOT))

from tests import toygame  # noqa: E402

TOY_ID = "toygame_start_player-start_player_win-2p"
TILE_ID = "meerkat_tile_fairness-tile_pay_excess_9-3p"


def _row(rank, experiment, quantity, estimate, lo, hi, null, player, component, n=2000):
    row = dict.fromkeys(_COLUMNS, "")
    row.update(rank=rank, section="s", experiment=experiment, kind="difference", quantity=quantity,
               estimate=estimate, ci_low=lo, ci_high=hi, n=n, null=null, player=player, component=component,
               claim=True, robust=True, q_value=0.001)
    return row


def _csv(tmp_path, *rows) -> Path:
    path = tmp_path / "r_findings.csv"
    pd.DataFrame(list(rows)).to_csv(path, index=False)
    return path


TOY_ROW = _row(1, "toygame_start_player", "start-player win share", 0.56, 0.53, 0.59, 0.5, "optimal",
               "start-player compensation")
TILE_ROW = _row(2, "meerkat_tile_fairness", "points paid per piece committed, tile 9 (7/4/2)", 2.6, 2.3, 2.9, 1.9,
                "mcts_v2", "tile 9 values")
PLAIN_ROW = {**_row(3, "meerkat_hazards", "hazards per game", 1.0, 0.9, 1.1, 0.0, "greedy", ""), "kind": "estimate"}


@pytest.fixture
def toy():
    with toygame.registered() as s:
        yield s


# ------------------------------------------------------------------------------------------------ the finding
def test_a_finding_is_found_by_its_id_or_rank_with_its_objective_games_and_lever(tmp_path):
    csv = _csv(tmp_path, TILE_ROW, PLAIN_ROW)
    (ref,) = findings_of(csv)                       # the component finding a check measures; not the plain one
    assert ref.id == TILE_ID and ref.game == "meerkat" and ref.metric == "tile_pay_excess:9"
    assert ref.check.players == 3 and ref.check.threshold == 0.0
    assert resolve_finding("meerkat", TILE_ID, csv).id == resolve_finding("meerkat", 2, csv).id == TILE_ID


def test_balance_finding_picks_objective_players_and_lever_and_writes_only_the_changed_values(toy, tmp_path):
    csv = _csv(tmp_path, TOY_ROW)
    r = balance_finding("toygame", TOY_ID, findings_csv=csv, budget=400, first_games=100, verify_games=200, rng=1)
    assert r.metric == "start_player_win" and r.target == 0.5
    assert r.policies == get_game("toygame").report_player                 # the report player plays
    assert set(r.values) == {"race.head_start.value"} and r.finding.startswith(TOY_ID)
    out = r.to_toml(tmp_path / "p.toml")
    text = out.read_text()
    head = [line for line in text.splitlines() if line.startswith("#")]
    assert head[0] == "# balance proposal: start_player_win -> 0.5"
    assert any(line.startswith(f"# finding fixed: {TOY_ID}") for line in head)
    verify = next(line for line in head if line.startswith("# objective start_player_win = 0.5: before "))
    assert "after" in verify and "95% CIs" in verify and "200 fresh games" in verify
    assert any("seed 1" in line and "policies optimal" in line for line in head)
    body = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    assert body == ["[race]", f'head_start = {{ value = {r.values["race.head_start.value"]}, source = "designer" }}']
    assert get_game("toygame").part("format").load(out) == r.components     # what --components loads


@pytest.mark.parametrize("game, metric, arg, effect", [
    ("purramid", "start_player_win", 2, 0.05), ("meerkat", "tile_pay_excess", "12", 1.0),
    ("raft", "boat_pay_excess", "2", -1.0), ("pyradice", "card_points_difference", "Height-Small", 5.0)])
def test_the_minimal_toml_round_trips_for_every_game(game, metric, arg, effect, tmp_path):
    """The furthest candidate of each game's lever, written as an overlay: it loads (as --components loads a file)
    to the same values as the full candidate, and holds only what changed."""
    from pyradice_lab.design._balance_grid import _paths

    spec = get_game(game)
    fmt = spec.part("format")
    base = fmt.default()
    f = Finding("difference", "q", effect, effect - 0.1, effect + 0.1, n=500, null=0.0)
    params, *_ = spec.part("levers").lever(metric)(base, arg, f)
    comp = base.replace(_paths({p: v[-1] if v[-1] != base.get(p.split(",")[0]) else v[0] for p, v in params.items()}))
    path = overlay_toml(comp, tmp_path / "o.toml", ["a header line"])
    back = fmt.load(path)
    assert back == comp and back.document == comp.document
    moved = {p.strip() for key in params for p in key.split(",")}
    assert set(changed_paths(comp)) <= moved and changed_paths(comp)
    values = [line for line in path.read_text().splitlines() if "=" in line and not line.startswith("#")]
    assert len(values) < len(comp.to_toml().splitlines()) / 4
    assert overlay(base) == {}


# ------------------------------------------------------------------------------------------------ bad ids
def test_a_bad_finding_id_is_a_one_line_error_naming_finding(tmp_path, capsys):
    from pyradice_lab.cli import main

    csv = _csv(tmp_path, TILE_ROW)
    assert main(["meerkat", "balance", "--finding", "no-such-finding", "--findings-csv", str(csv)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and err.startswith("pyradice-lab: error: --finding 'no-such-finding': ")
    assert TILE_ID in err                                          # the ids it could have been
    assert main(["raft", "balance", "--finding", TILE_ID, "--findings-csv", str(csv)]) == 2
    assert "is a finding of meerkat, not of raft" in capsys.readouterr().err
    assert main(["meerkat", "balance", "--finding", TILE_ID, "--findings-csv", str(tmp_path / "none.csv")]) == 2
    assert capsys.readouterr().err.startswith("pyradice-lab: error: --findings-csv: no file")
    assert main(["meerkat", "balance", "--objective", "tile_pay_excess:9 = 0"]) == 2
    assert "--param" in capsys.readouterr().err
    with pytest.raises(ValueError, match="finding 'nope': no component finding of meerkat"):
        balance_finding("meerkat", "nope", findings_csv=csv)


def test_the_report_findings_csv_gives_each_answerable_finding_its_id(toy):
    """The report's findings CSV has the id `balance --finding` takes, for a component finding a check measures
    with one metric; "" for the others."""
    from pyradice_lab.engine.results import ExperimentResult, Section
    from pyradice_lab.report.pdf import findings_frame

    f = Finding("difference", "start-player win share", 0.56, 0.53, 0.59, n=2000, null=0.5, player="optimal",
                component="start-player compensation")
    g = Finding("difference", "turns per game", 9.0, 8.0, 10.0, n=2000, null=8.0)
    exp = ExperimentResult("toygame_start_player", "A page", "", pd.DataFrame({"x": [1]}), findings=(f, g))
    frame = findings_frame([Section("Toy race", [exp])])
    assert list(frame.columns[:4]) == ["rank", "id", "section", "experiment"]
    assert sorted(frame["id"]) == ["", TOY_ID]


def test_the_default_search_budget_lets_the_halving_run_to_one_candidate(toy, tmp_path, monkeypatch):
    """Issue 44, item 2: without --budget, balance --finding searches at least a full successive halving over the
    lever's grid (the game's budget when that is larger; --budget as given), since a search cut short after its
    first round picks on a few games per candidate (the designer guide's 9-of-10 table)."""
    from types import SimpleNamespace

    from pyradice_lab.design import _balance_path
    from pyradice_lab.design._balance_grid import halving_games, refine_games

    seen = []

    def fake_propose(game, cand, *, sizes, **kw):
        seen.append(sizes)
        return SimpleNamespace(assumptions=None, notes=[]), 0

    monkeypatch.setattr(_balance_path, "propose", fake_propose)
    csv = _csv(tmp_path, TOY_ROW)
    for first, budget in ((1000, None), (20, None), (1000, 500)):
        balance_finding("toygame", TOY_ID, findings_csv=csv, first_games=first, budget=budget, rng=1)
    # the toy lever's 7 head starts: 7 x 1000 + 4 x 2000 + 2 x 4000 games > the toy game's 4,000
    assert halving_games(7, 1000) == 23000
    # the joint search refines the grid's pick: 19 candidates halved to two that play 9 x the 2,000 verification
    # games each (the level's standard error a third of the verification's); --budget caps it
    assert [(s.grid, s.first, s.final) for s in seen] == [(23000, 1000, 18000), (4000, 20, 18000), (500, 1000, 18000)]
    assert [s.joint for s in seen] == [refine_games(19, 1000, 18000), refine_games(19, 20, 18000), 500]
    assert refine_games(19, 20, 18000) == 19 * 20 + 10 * 40 + 5 * 80 + 3 * 160 + 2 * (18000 - 300)
    assert [halving_games(n, 20) for n in (1, 2, 3, 27)] == [0, 40, 140, 2940]
