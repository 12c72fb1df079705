"""Issue 44, item 4: objectives a designer means.  A restriction per component (Meerkat ``no_tile:T``), a metric of
restricted play (``commit_win_excess:T``: what committing to the tile is worth to winning, against the other tiles),
and the choice ``balance --finding ID --objective-kind pay|win`` / ``balance_finding(objective_kind=...)``."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from pyradice_lab.design._balance_finding import _COLUMNS, balance_finding, finding_candidate, resolve_finding
from pyradice_lab.design._restricted_games import metric_lineup, play_metrics
from pyradice_lab.engine.registry import get_game
from pyradice_lab.meerkat.metrics import METRICS
from pyradice_lab.meerkat.policies import P_NOTILE, policy_row
from pyradice_lab.meerkat.sim import play_game

TILE7 = "meerkat_tile_fairness-tile_pay_excess_7-3p"
BOAT2 = "raft_card_fairness-boat_pay_excess_2-3p"


def _csv(tmp_path) -> str:
    rows = []
    for rank, exp, q, est, null, comp in (
            (1, "meerkat_tile_fairness", "points paid per piece committed, tile 7 (6/3)", 1.71, 2.2, "tile 7 values"),
            (2, "raft_card_fairness", "points per own turn held, 2-slot lifeboats against the deck's 3.42, 3 players",
             -1.5, 0.0, "lifeboat points")):
        row = dict.fromkeys(_COLUMNS, "")
        row.update(rank=rank, section="s", experiment=exp, kind="difference", quantity=q, estimate=est,
                   ci_low=est - 0.1, ci_high=est + 0.1, n=2000, null=null, player="p", component=comp, claim=True,
                   robust=True, q_value=0.001)
        rows.append(row)
    path = tmp_path / "r_findings.csv"
    pd.DataFrame(rows).to_csv(path, index=False)
    return str(path)


# ------------------------------------------------------------------------------------------------ the restriction
_ONTO = [re.compile(r"places \d meerkats? on tile (\d+)$"), re.compile(r"places the queen on tile (\d+)$"),
         re.compile(r"moves a meerkat \d+ -> (\d+)$"), re.compile(r"swaps a meerkat on \d+ with .*'s on (\d+)$"),
         re.compile(r"moves its queen \d+ -> (\d+)$")]


def _tiles_committed(text: str) -> dict[str, list[int]]:
    """Every tile each seat (p1, p2, ...) put a meerkat or the queen on (placed, moved, swapped) in a transcript."""
    seen: dict[str, list[int]] = {}
    who = None
    for line in text.splitlines():
        head, _, event = line.partition(": ")
        m = re.match(r"\[\s*\d+\]\s+(\S+)$", head)
        if m:
            who = m.group(1)
        for pat in _ONTO:
            hit = pat.search(event)
            if hit and who:
                seen.setdefault(who, []).append(int(hit.groups()[-1]))
    return seen


@pytest.mark.parametrize("policy", ["greedy", "expectimax"])
def test_a_player_restricted_no_tile_never_commits_to_the_tile(policy):
    restricted, free = [], []
    for seed in range(3):
        text, row = play_game(players=3, policies=[f"{policy}/no_tile:7", policy, policy], rng=seed, engine="python")
        tiles = _tiles_committed(text)
        restricted += tiles.get("p1", [])
        free += tiles.get("p2", []) + tiles.get("p3", [])
    assert restricted and 7 not in restricted          # the restricted seat plays, never on tile 7
    assert 7 in free                                   # the others do commit there


def test_no_tile_rows_name_the_tile_and_bad_tiles_name_policies():
    _, row = policy_row("expectimax/no_tile:7/no_tile:12")
    assert int(row[P_NOTILE]) == (1 << 7) | (1 << 12)
    pid, row = policy_row("mcts_v2/no_tile:9")
    assert int(row[P_NOTILE]) == 1 << 9 and row[:P_NOTILE].tolist() == policy_row("mcts_v2")[1][:P_NOTILE].tolist()
    assert policy_row("mcts_v2")[1][P_NOTILE] == 0
    for bad in ("greedy/no_tile:13", "greedy/no_tile:x", "greedy/no_tile:", "greedy/no_tile:<T>"):
        with pytest.raises(ValueError, match="policies: restriction no_tile:T takes a tile T of the board"):
            policy_row(bad)
    with pytest.raises(ValueError, match="restriction must be one of"):
        policy_row("greedy/no_tiles")


def test_the_registry_knows_a_restriction_with_an_argument_but_restricted_play_leaves_it_out_of_all():
    spec = get_game("meerkat")
    assert "no_tile:<T>" in spec.restrictions and "no_tile:<T>" not in spec.plain_restrictions
    assert "tile T" in spec.restriction_description("no_tile:7") and "T = 7" in spec.restriction_description("no_tile:7")
    assert spec.restriction_description("no_tile") is None and spec.restriction_description("no_sand:3") is None


# ------------------------------------------------------------------------------------------------ the metric
def _frame(wins: list[tuple], policies: tuple) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A constructed frame of ``len(wins)`` 3-player games: ``policies`` per seat, ``wins[g]`` the seats' wins."""
    df = pd.DataFrame({"game": range(len(wins)), **{f"present_t{t}": 1 for t in range(3, 13)}})
    out = pd.DataFrame([{"game": g, "seat": s, "policy": policies[s], "win": w[s]}
                        for g, w in enumerate(wins) for s in range(3)])
    return df, out


def test_commit_win_excess_is_the_other_restricted_seats_win_minus_the_tile_seats():
    pols = ("greedy/no_tile:7", "greedy/no_tile:3", "greedy")
    df, out = _frame([(1, 0, 0), (0, 1, 0), (0, 0, 1), (0.5, 0.5, 0)], pols)
    num, den = METRICS["commit_win_excess"].fn(df, out, "7")
    assert num.tolist() == [-1.0, 1.0, 0.0, 0.0] and den.tolist() == [1, 1, 1, 1]
    df, out = _frame([(1, 0, 0)], ("greedy", "greedy", "greedy"))        # ordinary games: a clear error
    with pytest.raises(ValueError, match="metric of restricted play"):
        METRICS["commit_win_excess"].fn(df, out, "7")
    with pytest.raises(ValueError, match="tile number 3..12"):
        METRICS["commit_win_excess"].fn(df, out, "13")


def test_the_lineups_forbid_the_tile_and_every_other_tile_to_every_seat_pair():
    lineup = metric_lineup("meerkat", "commit_win_excess:7")
    rows = [lineup(3, i) for i in range(18)]
    assert all(sorted(r)[0] == "" and "no_tile:7" in r for r in rows)
    assert {r.index("no_tile:7") for r in rows} == {0, 1, 2}
    assert {x for r in rows for x in r if x not in ("", "no_tile:7")} == {f"no_tile:{u}" for u in range(3, 13) if u != 7}
    assert metric_lineup("meerkat", "tile_pay_excess:7") is None and metric_lineup("meerkat", "tile_pay_excess:*") is None


def test_the_win_metric_has_the_sign_of_the_tiles_worth_on_constructed_tiles():
    """Tile 7 made worth 40/20 points: forbidding it costs far more than forbidding another tile (positive); made
    worth 2/1, less (negative).  The same seeded games for both (common random numbers)."""
    comp = get_game("meerkat").components.coerce_components(None)
    kw = {"players": 3, "policies": "greedy"}
    seed = np.random.SeedSequence(5)
    rich, _ = play_metrics("meerkat", ["commit_win_excess:7"], 180, seed, comp.replace({"tile.7.values": [40, 20]}), kw)
    poor, _ = play_metrics("meerkat", ["commit_win_excess:7"], 180, seed, comp.replace({"tile.7.values": [2, 1]}), kw)
    r, p = rich["commit_win_excess:7"][0], poor["commit_win_excess:7"][0]
    assert len(r) == len(p) == 180
    se = np.sqrt(r.var(ddof=1) / len(r) + p.var(ddof=1) / len(p))
    assert r.mean() > 0.2 and p.mean() < 0 and r.mean() - p.mean() > 3 * se


def test_a_restricted_metric_plays_one_policy_in_every_seat():
    comp = get_game("meerkat").components.coerce_components(None)
    with pytest.raises(ValueError, match="policies: commit_win_excess:7 is a metric of restricted play: one policy"):
        play_metrics("meerkat", ["commit_win_excess:7"], 6, np.random.SeedSequence(1), comp,
                     {"players": 3, "policies": ["greedy", "expectimax", "greedy"]})
    with pytest.raises(ValueError, match="takes no restriction"):
        play_metrics("meerkat", ["commit_win_excess:7"], 6, np.random.SeedSequence(1), comp,
                     {"players": 3, "policies": "random_legal"})


# ------------------------------------------------------------------------------------------------ the choice
def test_a_bad_objective_kind_is_a_clear_error_before_any_work(tmp_path):
    with pytest.raises(ValueError, match="objective_kind must be 'pay' .* or 'win' .*, got 'winning'"):
        balance_finding("meerkat", TILE7, findings_csv="/nonexistent.csv", objective_kind="winning")
    ref = resolve_finding("raft", BOAT2, _csv(tmp_path))
    from pyradice_lab.engine.levers import NoLever

    with pytest.raises(NoLever, match="raft declares no objective about winning for boat_pay_excess"):
        finding_candidate(ref, None, "win")


def test_the_win_kind_targets_the_levers_win_metric_both_ways(tmp_path):
    ref = resolve_finding("meerkat", TILE7, _csv(tmp_path))
    pay = finding_candidate(ref)
    win = finding_candidate(ref, None, "win")
    assert (pay.metric, pay.target) == ("tile_pay_excess:7", 0.0)
    assert (win.metric, win.target) == ("commit_win_excess:7", 0.0)
    up, both = pay.parameters["tile.7.values"], win.parameters["tile.7.values"]
    assert both[:len(up)] == up and [5, 2] in both and [5, 2] not in up and up[0] == [6, 3]


def test_balance_finding_with_the_win_kind_states_it_and_why(tmp_path):
    r = balance_finding("meerkat", TILE7, findings_csv=_csv(tmp_path), objective_kind="win", policies="greedy",
                        budget=120, first_games=20, verify_games=60, widen=False, rng=3)
    assert r.metric == "commit_win_excess:7" and r.target == 0.0
    assert r.notes[0].startswith("objective kind win: commit_win_excess:7 = 0, by restricted play (greedy")
    assert "unattractive" in r.notes[0]
    assert r.after.n == 60 and r.guards is not None and "in play" in set(r.guards["guard"])
    head = r.to_toml(tmp_path / "w.toml").read_text().splitlines()
    assert "# objective kind win" in "\n".join(head) and head[0] == "# balance proposal: commit_win_excess:7 -> 0"
    p = balance_finding("meerkat", TILE7, findings_csv=_csv(tmp_path), policies="greedy", budget=60,
                        first_games=20, verify_games=20, widen=False, guards=False, rng=3)
    assert p.notes[0].startswith("objective kind pay: tile_pay_excess:7 = 0, the finding's own metric (the default; "
                                 "objective_kind='win' (--objective-kind win) targets its worth to winning, "
                                 "commit_win_excess:7 = 0)")


def test_the_cli_takes_objective_kind_with_finding_only(tmp_path, capsys):
    from pyradice_lab.cli import main

    csv = _csv(tmp_path)
    with pytest.raises(SystemExit) as exc:
        main(["meerkat", "balance", "--finding", TILE7, "--findings-csv", csv, "--objective-kind", "winning"])
    assert exc.value.code == 2 and "--objective-kind: invalid choice: 'winning'" in capsys.readouterr().err
    assert main(["meerkat", "balance", "--objective-kind", "win", "--param", "tile.7.values=[[6,3],[7,3]]",
                 "--objective", "tile_pay_excess:7 = 0"]) == 2
    assert "--objective-kind goes with --finding ID" in capsys.readouterr().err
    assert main(["raft", "balance", "--finding", BOAT2, "--findings-csv", csv, "--objective-kind", "win"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("pyradice-lab: error: --objective-kind win: raft declares no objective about winning")
    assert len(err.splitlines()) == 1
    assert main(["meerkat", "balance", "--finding", TILE7, "--findings-csv", csv, "--objective-kind", "win",
                 "--policies", "greedy", "--budget", "40", "--first-games", "20", "--verify-games", "20",
                 "--seed", "1", "--no-progress", "--out", str(tmp_path / "p.toml")]) == 0
    out = capsys.readouterr().out
    assert "commit_win_excess:7 -> 0" in out and "objective kind win: commit_win_excess:7 = 0" in out
    assert "# objective kind win" in (tmp_path / "p.toml").read_text()
