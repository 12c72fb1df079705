"""The levers a game declares with their legal ranges and natural steps (``Lever.axes``), the joint search over
them, the guards against empty wins, and the search meeting a known reachable objective."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from pyradice_lab.design import balance as balance_mod
from pyradice_lab.design._balance_grid import _paths
from pyradice_lab.design._balance_guards import run_guards
from pyradice_lab.design._balance_joint import joint_candidates, point_of, values_at
from pyradice_lab.engine.findings import Finding
from pyradice_lab.engine.levers import Range
from pyradice_lab.engine.registry import get_game

#: one finding per game's lever (metric, argument, effect): the finding's side decides nothing here
CASES = [("purramid", "start_player_win", 2, 0.05), ("meerkat", "tile_pay_excess", "12", 1.0),
         ("meerkat", "tile_pay_excess", "5", -1.0), ("raft", "boat_pay_excess", "2", -1.0),
         ("pyradice", "card_points_difference", "Height-Small", 5.0)]


def _ranges(game, metric, arg, effect):
    spec = get_game(game)
    base = spec.part("format").default()
    f = Finding("difference", "q", effect, effect - 0.1, effect + 0.1, n=500, null=0.0)
    return spec, base, spec.part("levers").lever(metric).ranges_of(base, arg, f)


@pytest.mark.parametrize("game, metric, arg, effect", CASES)
def test_each_games_levers_declare_legal_ranges_and_steps(game, metric, arg, effect):
    """Every declared range has a range and a step; the range at each end, the others packaged, is a legal
    component set that plays a game (the heuristic player, one game)."""
    spec, base, (ranges, own) = _ranges(game, metric, arg, effect)
    assert ranges and 1 <= own <= len(ranges)
    assert all(isinstance(r, Range) and r.low < r.high and r.step >= 1 and r.text() for r in ranges)
    start = point_of(base, ranges)
    for i, r in enumerate(ranges):
        assert r.low <= start[i] <= r.high or r.kind == "scale"      # the packaged value is inside its range
        for end in (r.low, r.high):
            point = start[:i] + (end,) + start[i + 1:]
            comp = base.replace(_paths(values_at(base, ranges, point)))   # legal: the game's checks pass
            assert all(isinstance(x, int) for v in values_at(base, ranges, point).values()
                       for x in (v if isinstance(v, list) else [v]))    # integers only
            if i in (0, len(ranges) - 1):  # one game at each end of the first and the last range
                kw = {"players": 2} if game == "purramid" else {}
                df = spec.simulate_games(1, rng=0, components=comp, policies=spec.heuristic_player, **kw)
                assert len(df) >= 1


def test_the_levers_are_finer_than_the_grid_of_before():
    """Rocking Raft: single cards move, not only groups; Meerkat: each value of a tile, by one point; Pyradice: a
    table by 5%; Purramid: up to 3 tiles."""
    _, _, (raft, own) = _ranges("raft", "boat_pay_excess", "2", -1.0)
    assert any("," not in r.path for r in raft[:own]) and any("," in r.path for r in raft[:own])
    assert any("3-slot" in r.label for r in raft[own:])                 # a neighbour: the next size's groups
    _, _, (tile, own) = _ranges("meerkat", "tile_pay_excess", "12", 1.0)
    assert [r.index for r in tile[:own]] == [0, 1, 2] and {r.step for r in tile} == {1}
    assert {r.path for r in tile[own:]} == {"tile.11.values"}
    _, _, (cards, _) = _ranges("pyradice", "card_points_difference", "Height-Small", 5.0)
    assert any(r.kind == "scale" and r.step == 5 for r in cards)
    # and the table's last three entries a point at a time, after its scale (they compose on it), kept in order
    table = [r for r in cards if r.path == "card.Height.table"]
    assert [(r.kind, r.index) for r in table] == [("scale", 0), ("index", 4), ("index", 5), ("index", 6)]
    assert all(r.monotone for r in table[1:]) and table[3].text() == "card Height table[6] 2..8"


def test_pyradice_refines_a_scaled_table_by_its_neighbouring_scales_and_single_entries():
    """Around a pick that scaled Height's table (0/0/1/2/3/5/6, 115-120% of 0/0/1/2/3/4/5), the refinement's first
    candidates are the neighbouring scales' tables (0/0/1/2/3/4/6 and 0/0/1/2/4/5/6: the scale is read from the
    start's table, not taken as 100%) and each of the last entries a point either way, Small's points alone; no
    table that scores a higher level less."""
    _, base, (ranges, own) = _ranges("pyradice", "card_points_difference", "Height-Small", 5.0)
    start = base.replace({"card.Height.table": [0, 0, 1, 2, 3, 5, 6], "card.Small.points": 3})
    scale = ranges[0]
    assert scale.current([0, 0, 1, 2, 3, 5, 6], [0, 0, 1, 2, 3, 4, 5]) == 115
    assert scale.current([0, 0, 1, 2, 3, 4, 5], [0, 0, 1, 2, 3, 4, 5]) == 100
    assert scale.current([0, 0, 1, 1, 3, 4, 5], [0, 0, 1, 2, 3, 4, 5]) == 100     # no scale gives it
    cands = joint_candidates(base, ranges, own=own, start_comp=start, max_candidates=19)
    tables = [tuple(c["card.Height.table"]) for c in cands]
    assert tables[0] == (0, 0, 1, 2, 3, 5, 6) and set(tables[1:3]) == {(0, 0, 1, 2, 3, 4, 6), (0, 0, 1, 2, 4, 5, 6)}
    for t in [(0, 0, 1, 2, 2, 5, 6), (0, 0, 1, 2, 3, 6, 6), (0, 0, 1, 2, 3, 5, 5), (0, 0, 1, 2, 3, 5, 7)]:
        assert t in tables[:8]
    assert {c["card.Small.points"] for c in cands} >= {2, 3, 4}
    every = joint_candidates(base, ranges, own=own, start_comp=start, max_candidates=256)
    assert all(list(c["card.Height.table"]) == sorted(c["card.Height.table"]) for c in every)


def test_raft_refines_a_card_point_at_a_time_before_whole_groups():
    """The 3-slot lifeboats' own ranges: the first k cards of each group (k = 1 .. its size - 1), finest first, then
    the whole groups; a refinement's 19 candidates are the start and every one of those moved one point."""
    _, base, (ranges, own) = _ranges("raft", "boat_pay_excess", "3", -0.3)
    fine = [r for r in ranges[:own] if "of the" in r.label]
    assert [len(r.paths) for r in fine] == [1, 2, 1, 2, 3, 4, 5, 1, 2]           # 3 at 2, 6 at 3, 3 at 4
    assert list(ranges[:len(fine)]) == fine and own == len(fine) + 3 + 1    # then the 3 whole groups, the size
    assert fine[0].label == "card 22 points (1 of the 3 at 2)" and fine[0].text().endswith("1..5")
    # the whole sizes (tests/test_raft_size_levers.py) aside, the refinement is a card-point at a time
    ranges, own = [r for r in ranges if r.kind != "steps"], own - 1
    cands = joint_candidates(base, ranges, own=own, max_candidates=19)
    moved = [sum(abs(c[p] - base.get(p)) for p in c) for c in cands]
    assert moved[0] == 0 and len(cands) == 19
    assert sorted(moved[1:]) == sorted(k for k in (1, 2, 1, 2, 3, 4, 5, 1, 2) for _ in (0, 1))   # k card-points


def test_joint_candidates_start_at_the_finding_and_are_legal_integers():
    _, base, (ranges, own) = _ranges("meerkat", "tile_pay_excess", "12", 1.0)
    cands = joint_candidates(base, ranges, own=own)
    assert cands[0] == values_at(base, ranges, point_of(base, ranges))     # the packaged point first
    assert 10 < len(cands) <= 64
    for c in cands:
        base.replace(_paths(c))                                             # each one legal
        v = c["tile.12.values"]
        assert v == sorted(v, reverse=True)
    moved = {tuple(c["tile.12.values"]) for c in cands}
    assert (11, 5, 3) in moved and (10, 6, 3) in moved                     # one value alone, by one point


# ------------------------------------------------------------------------------------------------ guards
def test_the_guard_refuses_a_degenerate_candidate():
    """Meerkat tile 9 at 2/1/1 pays less per piece because the players stop committing pieces there: the in-play
    guard refuses it; a one-point change keeps the tile in play."""
    base = get_game("meerkat").part("format").default()
    kw = dict(players=3, in_play="meerkats_on_tile:9", fraction=0.5, games=60, policies="greedy",
              game_kwargs={"automa": False}, rng=1)
    bad = run_guards("meerkat", base, base.replace({"tile.9.values": [2, 1, 1]}), **kw)
    row = bad.iloc[0]
    assert row["guard"] == "in play" and not row["passed"] and row["why"].startswith("REFUSED: out of play")
    assert row["after"] < 0.5 * row["before"]
    assert list(bad["guard"]) == ["in play", "start player"]
    ok = run_guards("meerkat", base, base.replace({"tile.9.values": [8, 4, 2]}), **kw)
    assert ok.iloc[0]["passed"] and ok["passed"].all()


def test_a_finding_carried_across_its_null_to_further_from_it_is_made_worse():
    """Rocking Raft's 4-slot proposal once passed the guards while the 3-slot pay went -0.29 -> +1.11: moved to
    the other side of 0, further from it than before. The guard refuses that; a move past 0 to nearer it passes."""
    from types import SimpleNamespace as D

    from pyradice_lab.design._balance_guards import guard_table
    from pyradice_lab.design.proposals import Recheck, made_worse

    def est(v):
        return D(value=v, ci_low=v - 0.05, ci_high=v + 0.05)

    def row(after):
        d = est(after + 0.29)
        return Recheck("raft_card_fairness", "3-slot", "boat_pay_excess:3", 0.0, est(-0.29), est(after), d,
                       made_worse(-1, -0.29, 0.0, d))

    table = guard_table([row(1.11), row(0.1), row(-0.6)], in_play="", fraction=0.5, players=3)
    assert list(table["passed"]) == [False, True, False]
    assert table["why"][0].startswith("REFUSED: carried across 0 to further from it than before")
    assert table["why"][2].startswith("REFUSED: moved further from 0")
    assert not made_worse(1, 0.3, 0.0, D(ci_low=-0.7, ci_high=-0.5))      # 0.3 -> -0.3: as far, not further


# ------------------------------------------------------------------------------------------------ the search
def test_the_search_meets_a_known_reachable_objective_in_9_of_10_seeds(monkeypatch):
    """A synthetic noisy objective with common random numbers: each game's value is 0.5 + 0.02 * (first deal - 26)
    plus a noise every candidate shares on the same seed (sd 0.1, as the same seeds give in a game) and a small
    one of its own (sd 0.05), so the target 0.48 is met exactly by the deal 25/26 of the five candidates.  "Met"
    allows half the lever's step (0.01): a 95% interval alone covers the target in only 95% of seeds even at the
    exact candidate.  (The shared noise does not cancel in the distance to a target, only between candidates: at
    sd 0.5 the same budget meets it in 15 of 20 seeds; the designer guide sizes the budget by it.)"""

    def run(game, metrics, kwargs, games, seed, comp):
        from pyradice_lab.engine.rng import fresh_copy

        x = comp.get("deal_2p.value")[0]
        common = np.random.default_rng(fresh_copy(seed)).normal(0, 0.1, games)
        own = np.random.default_rng([x, *fresh_copy(seed).generate_state(2)]).normal(0, 0.05, games)
        return {"start_player_win": (0.5 + 0.02 * (x - 26) + common + own, np.ones(games))}, games

    monkeypatch.setattr(balance_mod, "_balance_run", run)
    deals = [[27, 24], [26, 25], [25, 26], [24, 27], [23, 28]]
    met = near = 0
    for seed in range(10):
        r = balance_mod.balance("purramid", {"deal_2p.value": deals}, "start_player_win = 0.48", players=2,
                                policies="greedy", budget=400, first_games=40, verify_games=400, rng=seed,
                                tolerance=0.01)
        met += r.reached
        near += r.values["deal_2p.value"][0] in (24, 25, 26)          # the right deal or one tile from it
    assert met >= 9 and near >= 9, (met, near)


# ------------------------------------------------------------------------------------------------ unreachable
def _missed(estimates):
    from types import SimpleNamespace

    import pandas as pd

    base = get_game("purramid").part("format").default()
    deals = (27, 26, 25, 24)
    hist = pd.DataFrame({"round": 0, "deal_2p.value": [repr([d, 51 - d]) for d in deals], "games": 100,
                         "estimate": estimates, "se": 0.005, "distance": [abs(e - 0.5) for e in estimates]})
    t = pd.DataFrame([{"metric": "start_player_win", "target": 0.5, "after": estimates[-1],
                       "after_ci_low": estimates[-1] - 0.01, "after_ci_high": estimates[-1] + 0.01,
                       "excess": estimates[-1] - 0.5}])
    return SimpleNamespace(history=hist, objectives=t, values={"deal_2p.value": [24, 27]},
                           components=base.replace({"deal_2p.value": [24, 27]}))


def test_an_unreachable_objective_states_the_closest_point_the_levers_and_the_steps_it_needs():
    from pyradice_lab.design._balance_finding import _unreachable

    text = _unreachable(_missed([0.60, 0.58, 0.56, 0.54]), ["the 2-player deal (4 candidates)"], ())
    assert "\n" not in text
    assert text.startswith("unreachable with these levers: closest point deal_2p.value = [24, 27]: 0.54 [0.53, 0.55]"
                           " for target 0.5; tried the 2-player deal (4 candidates)")
    # one tile more for the start player moves the share by +0.02: the target is 2 tiles fewer, beyond the range
    assert "deal_2p.value moves the metric by +0.02 +/- 0.0022 per step" in text
    assert "needs about -2 step(s) from the closest point: widen its range or add a lever" in text
    flat = _unreachable(_missed([0.541, 0.539, 0.542, 0.54]), ["the 2-player deal (4 candidates)"], ())
    assert "the metric follows none of them clearly" in flat and "another lever or a rule change" in flat


# ------------------------------------------------------------------------------------------------ the path
def _synthetic(monkeypatch, *, out_of_play):
    """Purramid's 2-player deal as a constructed case: the start player's share is 0.5 + 0.02 per tile of the
    first deal above 26 plus a noise every candidate shares (so the search ranks the deals by their distance to
    0.48: 25/26 first, then 26/25 and 24/27), and a stand-in in-play metric (``tiles_per_turn``) that falls to a
    tenth at the deals in ``out_of_play`` (the guard must refuse them) and stays at 1 elsewhere."""
    from pyradice_lab.design import proposals as P
    from pyradice_lab.engine.rng import fresh_copy

    def share(x, games, seed):
        common = np.random.default_rng(fresh_copy(seed)).normal(0, 0.05, games)
        return 0.5 + 0.02 * (x - 26) + common

    def run(game, metrics, kwargs, games, seed, comp):
        x = comp.get("deal_2p.value")[0]
        return {"start_player_win": (share(x, games, seed), np.ones(games))}, games

    def side(game, metrics, games, seed, comp, sim_kw):
        x = comp.get("deal_2p.value")[0]
        out = {"start_player_win": (share(x, games, seed), np.ones(games))}
        out["tiles_per_turn"] = (np.full(games, 0.1 if x in out_of_play else 1.0)
                                 + np.random.default_rng(fresh_copy(seed)).normal(0, 0.01, games), np.ones(games))
        return {m: out[m] for m in metrics}

    monkeypatch.setattr(balance_mod, "_balance_run", run)
    monkeypatch.setattr(P, "_recheck_side", side)


def _deal_candidate():
    from pyradice_lab.design.proposals import Candidate

    f = Finding("difference", "start player's win share", 0.52, 0.51, 0.53, n=2000, null=0.48)
    deals = [[27, 24], [26, 25], [25, 26], [24, 27], [23, 28]]
    return Candidate("toy-start_player_win-2p", "purramid", "toy", f, "start_player_win", 0.48, 2, {},
                     parameters={"deal_2p.value": deals}, lever="the first deal, 27 to 23 tiles")


def test_a_candidate_the_guards_refuse_is_reported_and_the_next_best_that_passes_them_is_proposed(monkeypatch):
    from pyradice_lab.design._balance_path import Sizes, propose

    _synthetic(monkeypatch, out_of_play={25})
    sizes = Sizes(400, 200, 0, 0, 100, 40)
    res, played = propose("purramid", _deal_candidate(), sizes=sizes, policies="greedy", rng=3,
                          in_play="tiles_per_turn", fraction=0.5)
    first, refused, second = res.tries
    assert first["values"] == {"deal_2p.value": [25, 26]} and first["passed"] is False
    assert first["why"].startswith("out of play")
    # the next-best of the search's ranking, one tile from the refused pick (24/27), takes the start player's
    # share from the packaged 0.498 to 0.458, across 1/2 to further from it: the start player's guard refuses it
    assert refused["values"] == {"deal_2p.value": [24, 27]} and refused["passed"] is False
    assert refused["why"].startswith("carried across 0.5 to further from it than before")
    # the one after it passes and is the proposal
    assert second["passed"] and second["values"]["deal_2p.value"] == [27, 24]
    assert res.values == second["values"] and res.guarded
    assert res.components.get("deal_2p.value") == second["values"]["deal_2p.value"]
    # its objective is measured on the guards' paired run (fresh games), and the file's header says all of it
    assert res.verify_games == 100 and res.objectives.iloc[0]["metric"] == "start_player_win"
    head = "\n".join(res.header())
    assert "candidate 1 of the search's ranking (deal_2p.value = [25, 26]): REFUSED: out of play" in head
    assert "next-best candidate that passes" in head and "passes the guards" in head
    # the games: the search, its verification, and three paired runs of the guards
    assert played == res.games_used + 2 * 200 + 3 * 2 * 100


def test_the_next_best_candidates_stop_at_three_and_within_the_budget(monkeypatch):
    from pyradice_lab.design._balance_path import MAX_TRIES, Sizes, propose

    _synthetic(monkeypatch, out_of_play={23, 24, 25, 27})    # every deal but the packaged 26/25 is refused
    res, played = propose("purramid", _deal_candidate(), sizes=Sizes(400, 200, 0, 0, 100, 40), policies="greedy",
                          rng=3, in_play="tiles_per_turn")
    assert len(res.tries) == MAX_TRIES == 3 and not any(t["passed"] for t in res.tries), res.tries
    assert res.guarded is False and res.values == res.tries[0]["values"]   # the search's pick, refused, stated
    assert "REFUSED BY THE GUARDS" in "\n".join(res.header())
    assert played == res.games_used + 2 * 200 + 3 * 2 * 100
    # a cap that leaves games for one paired run only: the next candidate is not tried, and says why
    capped, played = propose("purramid", _deal_candidate(), sizes=Sizes(400, 200, 0, 0, 100, 40, total=1100),
                             policies="greedy", rng=3, in_play="tiles_per_turn")
    assert played <= 1100 and [t["passed"] for t in capped.tries] == [False, None]
    assert capped.tries[1]["why"] == "not tried: the proposal's 1,100 games are spent"


def test_a_joint_search_names_a_group_of_single_card_ranges_once():
    """Rocking Raft's 4-slot lever moves 18 single cards: the joint search's listing names each group of cards
    with the same range once ('card 34-39 points 1..7 each'), the tries' candidates as card ranges too, and a
    candidate not tried says so once (issue 44's 44-page report: the listing took a third of a page)."""
    from pyradice_lab.design._balance_path import _tries_notes
    from pyradice_lab.engine.levers import ranges_text

    _, _, (ranges, own) = _ranges("raft", "boat_pay_excess", "4", 1.0)
    text = ranges_text(ranges)
    # the first k cards of a group moved together, k = 1..5, named once by the widest; then the whole groups
    assert "cards 34-38 points (the first 1 to 5 of the 6 at 4) 1..7" in text
    assert "the 4-slot lifeboats (3 cards at 6) 3..9" in text
    assert "every 4-slot lifeboat (15 cards: 6 at 4, 6 at 5, 3 at 6), a card-point a step -45..45" in text
    assert "card 34 points" not in text and len(ranges) == 21 and text.count(";") == 12 - 1  # 21 ranges, 12 parts
    assert ranges_text(ranges[-1:]) == ranges[-1].text()                    # one range: as it is
    notes = _tries_notes([{"values": {f"card.{i}.points": 3 for i in range(7, 13)}, "passed": False,
                           "why": "moved further from 0"},
                          {"values": {"card.7.points": 2, "card.1.points": 4}, "passed": None,
                           "why": "not tried: the proposal's 1,200 games are spent"}])
    assert notes[0] == "candidate 1 of the search's ranking (card 7-12 points = 3): REFUSED: moved further from 0"
    assert notes[1].endswith("): not tried: the proposal's 1,200 games are spent") and "not tried: not" not in notes[1]


def test_the_joint_search_verifies_on_the_grids_games_and_replays_no_packaged_run(monkeypatch):
    """The grid misses 0.38 (its deals 27/24 and 26/25 give 0.52 and 0.50): the joint search over the deal's
    declared range (-3..3 tiles moved) verifies its pick on the grid's verification games, so the packaged deal's
    verification run is played once, not twice (the report's proposals played it twice: 100 games of a 1,200-game
    Rocking Raft proposal), and the games counted are the games played."""
    from dataclasses import replace

    from pyradice_lab.design._balance_path import Sizes, propose

    _synthetic(monkeypatch, out_of_play=set())
    played, real = [], balance_mod._balance_run

    def counting(game, metrics, kwargs, games, seed, comp):
        played.append((seed.entropy, tuple(seed.spawn_key), games, comp.content_hash()))
        return real(game, metrics, kwargs, games, seed, comp)

    monkeypatch.setattr(balance_mod, "_balance_run", counting)
    cand = replace(_deal_candidate(), parameters={"deal_2p.value": [[27, 24], [26, 25]]}, target=0.38)
    ranges = [Range("deal_2p.value", -3, 3, kind="transfer", label="tiles moved")]
    res, games = propose("purramid", cand, sizes=Sizes(200, 100, 200, 100, 0, 20), ranges=ranges, own=1,
                         policies="greedy", rng=3, guards=False)
    assert any(n.startswith("first search") for n in res.notes) and res.values["deal_2p.value"][0] < 26
    assert len(played) == len(set(played)), "a run was played twice"
    packaged = get_game("purramid").part("format").default().content_hash()
    verify = [p for p in played if p[2] == 100]
    assert [p[3] for p in verify].count(packaged) == 1 and len({p[:2] for p in verify}) == 1   # one seed
    assert games == sum(p[2] for p in played)


def test_an_unmet_proposal_names_its_lever_once(monkeypatch):
    """The closest point's note says which searches were tried without repeating the lever's own description (the
    proposal's first note states it): a Rocking Raft proposal repeated three lines of it."""
    from dataclasses import replace

    from pyradice_lab.design._balance_path import Sizes, propose

    _synthetic(monkeypatch, out_of_play=set())
    cand = replace(_deal_candidate(), parameters={"deal_2p.value": [[27, 24], [26, 25]]}, target=0.1)
    ranges = [Range("deal_2p.value", -3, 3, kind="transfer", label="tiles moved")]
    res, _ = propose("purramid", cand, sizes=Sizes(200, 100, 200, 100, 0, 20), ranges=ranges, own=1,
                     policies="greedy", rng=3, guards=False)
    text = " ".join(res.notes)
    assert not res.reached and text.count(cand.lever) == 1
    assert "tried the lever's grid (2 candidates) and a joint search of 7 candidates over 1 ranges (its ranges above)" \
        in text


# ------------------------------------------------------------------------------------------------ the refinement
def test_the_last_two_candidates_play_final_games_each_within_the_budget(monkeypatch):
    """``final_games``: an objective with a target is about the candidates' level, which common random numbers do
    not cancel, so the last two play that many games each before the pick; the budget stays a hard cap, and the
    games played are :func:`refine_games`'s count."""
    from pyradice_lab.design._balance_grid import halving_games, refine_games

    _synthetic(monkeypatch, out_of_play=set())
    deals = [[27, 24], [26, 25], [25, 26], [24, 27], [23, 28]]
    kw = dict(players=2, policies="greedy", first_games=20, verify_games=50, rng=2)
    need = refine_games(5, 20, 600)
    r = balance_mod.balance("purramid", {"deal_2p.value": deals}, "start_player_win = 0.48", budget=need,
                            final_games=600, **kw)
    last = r.history[r.history["round"] == r.history["round"].max()]
    assert len(last) == 2 and set(last["games"]) == {600} and r.games_used == need == 5 * 20 + 3 * 40 + 2 * 540
    plain = balance_mod.balance("purramid", {"deal_2p.value": deals}, "start_player_win = 0.48", budget=need, **kw)
    assert plain.games_used == halving_games(5, 20) and set(plain.history["games"]) == {20, 60, 140}
    capped = balance_mod.balance("purramid", {"deal_2p.value": deals}, "start_player_win = 0.48", budget=700,
                                 final_games=600, **kw)
    assert capped.games_used <= 700 and capped.history["games"].max() < 600      # shortened, never over the cap
    with pytest.raises(ValueError, match="final_games must be an integer >= 0"):
        balance_mod.balance("purramid", {"deal_2p.value": deals}, "start_player_win = 0.48", final_games=-1, **kw)


def test_a_pick_met_by_its_verification_is_still_refined_unless_met_beyond_doubt():
    from types import SimpleNamespace

    from pyradice_lab.design._balance_path import confident

    def res(value, half=0.08, reached=True, tolerance=0.0):
        return SimpleNamespace(reached=reached, target=0.0, tolerance=tolerance,
                               after=SimpleNamespace(value=value, ci_low=value - half, ci_high=value + half))

    assert not confident(res(0.0), 800) and not confident(res(0.07), 800)    # met, but a refinement is asked for
    assert confident(res(0.07), 0)                          # no refinement asked: met is enough
    assert not confident(res(0.0, reached=False), 0) and not confident(res(0.0, reached=False), 800)
    assert confident(res(0.01, tolerance=0.09), 800)        # its whole interval within the tolerance
    assert not confident(res(0.02, tolerance=0.09), 800) and not confident(res(-0.02, tolerance=0.09), 800)


def test_a_refinement_runs_on_a_met_but_not_confident_pick_and_keeps_its_own_pick(monkeypatch):
    """The start player's share is 0.5 + 0.02 per tile of the first deal above 26 and the target 0.55: the grid's
    best, 27/24 (0.52), lies 0.03 off; its 200-game verification (95% interval about +/- 0.07) meets it, but not
    beyond doubt, so the joint search over the declared range (up to 3 tiles either way: 28/23
    and 29/22 lie 0.01 off) runs with its last two candidates at 9 x 200 games, and its pick is kept."""
    from pyradice_lab.design._balance_grid import refine_games
    from pyradice_lab.design._balance_path import Sizes, propose
    from pyradice_lab.purramid.levers import deal_ranges

    _synthetic(monkeypatch, out_of_play=set())
    cand = _deal_candidate()
    cand = replace(cand, target=0.55)
    base = get_game("purramid").part("format").default()
    ranges, own = deal_ranges(base, 2, cand.finding)
    sizes = Sizes(400, 200, refine_games(7, 40, 1800), 200, 0, 40, final=1800)
    res, played = propose("purramid", cand, sizes=sizes, ranges=ranges, own=own, policies="greedy", rng=4,
                          guards=False)
    note = next(n for n in res.notes if n.startswith("first search"))
    grid = note.split("; then")[0]
    assert grid.endswith("(met)")                                   # the grid's pick met its verification
    assert "a joint search of 7 candidates" in note
    assert res.history["games"].max() == 1800                       # the refinement's finalists
    assert res.values["deal_2p.value"] in ([28, 23], [29, 22]) and res.reached
    plain, _ = propose("purramid", cand, sizes=replace(sizes, final=0), ranges=ranges, own=own, policies="greedy",
                       rng=4, guards=False)
    assert not any(n.startswith("first search") for n in plain.notes)    # met: no joint search without refinement


def test_a_pick_that_is_the_packaged_values_proposes_no_change(monkeypatch):
    """The search's best deal is the packaged 26/25 (its share is the target here): nothing to adopt, so the
    proposal is not 'met' whatever its verification says, and its notes say why and give the closest point (the
    full report's 2-player Purramid proposal once said 'met' for the packaged deal, from 75 games a side)."""
    import dataclasses

    from pyradice_lab.design._balance_path import Sizes, _no_change, propose

    _synthetic(monkeypatch, out_of_play=set())
    cand = dataclasses.replace(_deal_candidate(), target=0.5)
    res, _ = propose("purramid", cand, sizes=Sizes(400, 200, 0, 0, 0, 40), policies="greedy", rng=3, guards=False)
    assert res.components.get("deal_2p.value") == [26, 25] and _no_change(res.components, None)
    assert not res.reached
    notes = "\n".join(res.notes)
    assert "no change proposed: the search's pick is the packaged values" in notes
    assert "closest point the packaged values" in notes
    head = "\n".join(res.header())
    assert "NOT MEETING THE OBJECTIVE: no change proposed: the search's pick is the starting values" in head
    assert "changed: nothing" in head
    moved = type(res.components).FORMAT.coerce(None).replace({"deal_2p.value": [27, 24]})
    assert not _no_change(moved, None)
    # the report's part says so too: no "Proposed: 26/25 (a rule change)", no "met: yes" (the full report once did)
    from types import SimpleNamespace

    from pyradice_lab.design._proposal_items import _proposal_items
    from pyradice_lab.design.proposals import ProposalBudget

    p = SimpleNamespace(candidate=dataclasses.replace(cand, rule_change=True), result=res, games=res.games_used,
                        budget=ProposalBudget(400, 200, 40, 0), seconds=1.0, rechecks=[], worse=[], not_rechecked=0)
    text, table = _proposal_items(p, "proposals")
    assert "Proposed: no change (the search's pick is the packaged values)." in text.text
    assert "(a rule change)" not in text.text
    assert "every estimate with the games'" not in text.text          # greedy seats: no controls
    assert list(table.frame["met"]) == ["no change"]


def test_a_refinement_whose_pick_lies_off_the_target_widens_around_it(monkeypatch):
    """The share is 0.5 + 0.02 per tile of the first deal above 26 and the target 0.56 (29/22). With refinements of
    three candidates, the first plays the grid's best 27/24 and its two nearest deals and keeps 28/23 (0.54: off
    the target beyond its final round's interval); a second refinement around 28/23, over deals not yet played,
    reaches 29/22. With one refinement the pick stays 28/23."""
    from pyradice_lab.design import _balance_finding as F
    from pyradice_lab.design._balance_grid import refine_games
    from pyradice_lab.design._balance_path import Sizes, propose
    from pyradice_lab.design._balance_refine import final_estimate, off_target
    from pyradice_lab.purramid.levers import deal_ranges

    _synthetic(monkeypatch, out_of_play=set())
    monkeypatch.setattr(F, "REFINE_CANDIDATES", 3)
    cand = replace(_deal_candidate(), target=0.56)
    base = get_game("purramid").part("format").default()
    ranges, own = deal_ranges(base, 2, cand.finding)
    sizes = Sizes(400, 200, refine_games(3, 40, 1800), 200, 0, 40, final=1800, refinements=3)
    once, _ = propose("purramid", cand, sizes=replace(sizes, refinements=1), ranges=ranges, own=own,
                      policies="greedy", rng=4, guards=False)
    assert once.values["deal_2p.value"] == [28, 23]
    assert off_target(final_estimate(once, 1800), 0.56) == 1
    res, played = propose("purramid", cand, sizes=sizes, ranges=ranges, own=own, policies="greedy", rng=4,
                          guards=False)
    assert res.values["deal_2p.value"] == [29, 22] and res.reached
    assert off_target(final_estimate(res, 1800), 0.56) == 0
    notes = "\n".join(res.notes)
    assert "refinement 2 (its pick at 0.538 [" in notes and "around deal_2p.value = [28, 23]" in notes and "refinement 3" not in notes   # on target: no third
    assert "kept: the pick of the refinement whose final round lies closest to the target" in notes
    assert res.games_used > once.games_used and played > 0
    # refinements of two candidates, target 0.46 (24/27) from a grid that stops at 25/26: the first plays 25/26 and
    # its nearer neighbour 26/25 and keeps 25/26, off the target; the second, around it, plays only a deal no
    # earlier one played (24/27, not 26/25 again)
    monkeypatch.setattr(F, "REFINE_CANDIDATES", 2)
    low = replace(cand, target=0.46, parameters={"deal_2p.value": [[27, 24], [26, 25], [25, 26]]})
    two, _ = propose("purramid", low, sizes=sizes, ranges=ranges, own=own, policies="greedy", rng=4, guards=False)
    assert two.values["deal_2p.value"] == [24, 27]
    assert "refinement 2 (its pick at 0.48 [" in "\n".join(two.notes)
    # a pick whose final round reaches the target is not refined further; one with no final round is unknown
    assert off_target((0.55, 0.01, 1800), 0.56) == 0 and off_target(None, 0.56) == 0
    assert off_target((0.60, 0.01, 1800), 0.56) == -1
