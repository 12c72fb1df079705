"""``balance --finding ID`` with a game's cheaper search player (issue 44, item 5): when the report player verifies,
the search is played by the game's declared ``LEVERS.search_player`` within its search budget, as the report's
proposals do (``_balance_path.cheap_player``); the verification, the guards and the file's numbers are the report
player's, and the notes name both players.  Explicit other ``policies`` (or ``search_policies="none"``) play every
game themselves."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest

from pyradice_lab.design._balance_finding import _COLUMNS
from pyradice_lab.design.balance import balance_finding
from pyradice_lab.engine.levers import ProposalBudget

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # `tests.toygame` is imported as a package from the repository root
    sys.path.insert(0, str(ROOT))

from tests import toygame  # noqa: E402

TOY_ID = "toygame_start_player-start_player_win-2p"
TILE_ID = "meerkat_tile_fairness-tile_pay_excess_9-3p"
#: the toy game's stand-in for a cheaper search player and its budget (the report player is ``optimal``)
CHEAP = ProposalBudget(search=300, first=50, verify=100, recheck=60)


def _csv(tmp_path, *rows) -> Path:
    path = tmp_path / "r_findings.csv"
    pd.DataFrame(list(rows)).to_csv(path, index=False)
    return path


def _row(rank, experiment, quantity, estimate, lo, hi, null, player, component):
    row = dict.fromkeys(_COLUMNS, "")
    row.update(rank=rank, section="s", experiment=experiment, kind="difference", quantity=quantity,
               estimate=estimate, ci_low=lo, ci_high=hi, n=2000, null=null, player=player, component=component,
               claim=True, robust=True, q_value=0.001)
    return row


TOY_ROW = _row(1, "toygame_start_player", "start-player win share", 0.56, 0.53, 0.59, 0.5, "optimal",
               "start-player compensation")
TILE_ROW = _row(2, "meerkat_tile_fairness", "points paid per piece committed, tile 9 (7/4/2)", 2.6, 2.3, 2.9, 1.9,
                "mcts_v2", "tile 9 values")


@pytest.fixture
def cheap_toy(monkeypatch):
    """The toy race with a declared search player (``hold_at:20``, searching for the report player ``optimal``)."""
    import pyradice_lab.design.proposals as P

    with toygame.registered() as spec:
        levers = replace(spec.part("levers"), search_player="hold_at:20", search_budget=CHEAP)
        real = P.game_levers
        monkeypatch.setattr(P, "game_levers", lambda game: levers if game == "toygame" else real(game))
        yield spec


def _spy(monkeypatch):
    """Every ``balance`` search and every guard run of the proposal, with the players they were given."""
    import pyradice_lab.design.balance as B
    import pyradice_lab.design.proposals as P

    runs = {"balance": [], "recheck": []}
    real_balance, real_recheck = B.balance, P.recheck

    def balance(game, *a, **kw):
        runs["balance"].append(kw)
        return real_balance(game, *a, **kw)

    def recheck(game, *a, **kw):
        runs["recheck"].append(kw)
        return real_recheck(game, *a, **kw)

    monkeypatch.setattr(B, "balance", balance)
    monkeypatch.setattr(P, "recheck", recheck)
    return runs


def test_the_search_player_searches_and_the_report_player_verifies_and_guards(cheap_toy, tmp_path, monkeypatch):
    from pyradice_lab.design._balance_grid import halving_games

    runs = _spy(monkeypatch)
    r = balance_finding("toygame", TOY_ID, findings_csv=_csv(tmp_path, TOY_ROW), rng=1)
    (search,) = runs["balance"]
    assert search["policies"] == "hold_at:20" and search["verify_policies"] == "optimal"
    # the game's search budget: its first round and verification, the search a full halving over the 7 head starts
    assert (search["first_games"], search["verify_games"], search["budget"]) == (50, 100, halving_games(7, 50))
    assert [(k["policies"], k["games"]) for k in runs["recheck"]] == [("optimal", 60)]
    assert r.policies == "hold_at:20" and r.verify_policies == "optimal" and r.after.n == 100
    (note,) = [n for n in r.notes if n.startswith("searched with")]
    assert not any(n.startswith("the search played by") for n in r.notes)    # said once, in this line
    assert note.startswith("searched with hold_at:20, verified with optimal: the game's declared cheaper search "
                           "player") and "raised to a full halving over the grid: 1,150" in note
    assert "optimal" in r.assumptions.policies and "hold_at" not in r.assumptions.policies
    assert "in the search (played by hold_at:20)" in r.assumptions.games
    head = r.to_toml(tmp_path / "p.toml").read_text()
    assert "# searched with hold_at:20, verified with optimal" in head and "the same 100 fresh games" in head


def test_explicit_other_policies_or_none_play_every_game_themselves(cheap_toy, tmp_path, monkeypatch):
    runs = _spy(monkeypatch)
    csv = _csv(tmp_path, TOY_ROW)
    a = balance_finding("toygame", TOY_ID, findings_csv=csv, policies="hold_at:25", budget=200, first_games=40,
                        verify_games=60, rng=1)
    b = balance_finding("toygame", TOY_ID, findings_csv=csv, search_policies="none", budget=200, first_games=40,
                        verify_games=60, rng=1)
    assert [(k["policies"], k.get("verify_policies")) for k in runs["balance"]] == [("hold_at:25", None),
                                                                                    ("optimal", None)]
    assert [k["policies"] for k in runs["recheck"]] == ["hold_at:25", "optimal"]
    for r in (a, b):
        assert r.verify_policies is None and not any(n.startswith("searched with") for n in r.notes)
    # the game's own budget then, not the search budget's 60 (its re-check 0: the guards play its verification's)
    assert [k["games"] for k in runs["recheck"]] == [cheap_toy.part("levers").budget.verify] * 2


def _sizes_of(monkeypatch):
    """``balance_finding``'s plan without a game: what it gives ``propose``."""
    from pyradice_lab.design import _balance_path

    seen = []

    def fake_propose(game, cand, **kw):
        seen.append(kw)
        return SimpleNamespace(assumptions=None, notes=[]), 0

    monkeypatch.setattr(_balance_path, "propose", fake_propose)
    return seen


def test_meerkat_asked_directly_searches_with_its_search_player_and_budget(tmp_path, monkeypatch):
    """Meerkat declares expectimax for the search of its report player mcts_v2: asked for directly (no --policies, or
    --policies mcts_v2) the search is expectimax's within LEVERS.search_budget, the lever's grid alone; --policies
    greedy, or search_policies='none', play every game with the report player's budget and the joint search."""
    from pyradice_lab.meerkat.levers import LEVERS

    seen = _sizes_of(monkeypatch)
    csv = _csv(tmp_path, TILE_ROW)
    cheap, own = LEVERS.budget_for(3, True), LEVERS.budget_for(3)
    r = balance_finding("meerkat", TILE_ID, findings_csv=csv)
    balance_finding("meerkat", TILE_ID, findings_csv=csv, policies="mcts_v2")
    balance_finding("meerkat", TILE_ID, findings_csv=csv, policies="greedy")
    balance_finding("meerkat", TILE_ID, findings_csv=csv, search_policies="none")
    given = balance_finding("meerkat", TILE_ID, findings_csv=csv, budget=3000)
    asked = balance_finding("meerkat", TILE_ID, findings_csv=csv, policies="greedy", search_policies="random_legal")
    assert [(k["search_policies"], k["policies"]) for k in seen] == [
        ("expectimax", "mcts_v2"), ("expectimax", "mcts_v2"), (None, "greedy"), (None, "mcts_v2"),
        ("expectimax", "mcts_v2"), ("random_legal", "greedy")]
    s = seen[0]["sizes"]
    assert (s.first, s.grid_verify, s.guards) == (cheap.first, cheap.verify, cheap.recheck) and s.grid >= cheap.search
    assert seen[0]["ranges"] == () and seen[2]["ranges"]            # the cheap search: the grid alone
    assert seen[2]["sizes"].first == own.first and seen[3]["sizes"].grid_verify == own.verify
    assert seen[4]["sizes"].grid == 3000 and seen[4]["sizes"].first == cheap.first
    assert r.notes[1].startswith("searched with expectimax, verified with mcts_v2")
    assert "the search's 3,000 games as given (budget=, --budget)" in given.notes[1]
    assert asked.notes[1].startswith("searched with random_legal, verified with greedy: the search player asked for")
    with pytest.raises(ValueError, match="search_policies must be 'auto'"):
        balance_finding("meerkat", TILE_ID, findings_csv=csv, search_policies=3)


def test_the_cli_names_both_players_before_the_work_and_passes_search_policies(tmp_path, monkeypatch, capsys):
    import pyradice_lab.design._balance_finding as F
    from pyradice_lab.cli import main

    asked = []

    def fake(game, finding, **kw):
        asked.append(kw)
        return SimpleNamespace(summary=lambda: "summary", objectives=None, history=pd.DataFrame({"round": [0]}))

    monkeypatch.setattr(F, "balance_finding", fake)
    csv = str(_csv(tmp_path, TILE_ROW))
    assert main(["meerkat", "balance", "--finding", TILE_ID, "--findings-csv", csv]) == 0
    out = capsys.readouterr().out
    assert "searched with expectimax, verified with mcts_v2 (the game's cheaper search player" in out
    assert main(["meerkat", "balance", "--finding", TILE_ID, "--findings-csv", csv, "--search-policies", "none"]) == 0
    assert main(["meerkat", "balance", "--finding", TILE_ID, "--findings-csv", csv, "--policies", "greedy"]) == 0
    assert "searched with" not in capsys.readouterr().out
    assert [k["search_policies"] for k in asked] == ["auto", "none", "auto"]
    assert main(["meerkat", "balance", "--param", "tile.9.values=[[7,4,2]]", "--objective", "tile_pay_excess:9 = 0",
                 "--search-policies", "expectimax"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and err.endswith("--search-policies goes with --finding ID")


def test_a_verified_pick_the_refinements_final_round_places_off_target_says_so():
    import pandas as pd

    from pyradice_lab.design._balance_final import final_round_note

    hist = pd.DataFrame({"round": [3, 4, 4], "card.Height.table": ["[0, 1, 2]", "[0, 1, 3]", "[0, 1, 2]"],  # as shown
                         "card.Small.points": [3, 3, 3], "games": [300, 1080, 1080],
                         "estimate": [0.2, -1.07, 0.633], "se": [0.3, 0.10, 0.1135]})
    pick = {"card.Height.table": (0, 1, 2), "card.Small.points": 3}
    note = final_round_note(hist, pick, 0.0, 1080)
    assert "final round (1,080 games)" in note and "0.633 [0.411, 0.855]" in note and "off the target 0" in note
    assert final_round_note(hist, pick, 0.5, 1080) == ""  # its interval reaches the target: no caveat
    assert final_round_note(hist, pick, 0.0, 0) == "" and final_round_note(None, pick, 0.0, 1080) == ""
    assert final_round_note(hist, {"card.Height.table": [9, 9, 9], "card.Small.points": 3}, 0.0, 1080) == ""
    # a parameter the pick leaves at its starting value (a proposal of no change: values {})
    start = {"card.Height.table": [0, 1, 2], "card.Small.points": 3}
    assert "off the target 0" in final_round_note(hist, {}, 0.0, 1080, base=start.get)
    # the history holds each candidate's repr: a tuple value reads as the same numbers
    tup = hist.assign(**{"card.Height.table": ["(0, 1, 2)", "(0, 1, 3)", "(0, 1, 2)"]})
    assert "off the target 0" in final_round_note(tup, pick, 0.0, 1080)
