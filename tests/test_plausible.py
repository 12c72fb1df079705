"""Plausible component sets, robustness over them, and automatic balancing (issue 14 §3-4)."""

import pandas as pd
import pytest

from pyradice_lab.design import balance as balancing, robustness as plausible
from pyradice_lab.design.balance import balance, candidate_grid, parse_objective
from pyradice_lab.design.robustness import Claim, parse_finding, robustness

GAMES = ["meerkat", "raft", "pyradice", "purramid"]


def _sampler(game):
    import importlib

    return importlib.import_module(f"pyradice_lab.{game}.components")


@pytest.mark.parametrize("game", GAMES)
def test_sample_plausible_is_valid_reproducible_and_varies(game):
    mod = _sampler(game)
    a = mod.sample_plausible(7, return_choices=True)
    b = mod.sample_plausible(7, return_choices=True)
    assert a.components.content_hash() == b.components.content_hash() and a.choices == b.choices
    hashes = {mod.sample_plausible(s).content_hash() for s in range(6)}
    assert len(hashes) >= 4, "different seeds draw different component sets"
    assert mod.default_components().content_hash() not in hashes or len(hashes) > 1
    # the result loads back through the game's one validation path
    again = mod.FORMAT.from_document(a.components.document)
    assert again.content_hash() == a.components.content_hash()


def test_rules_values_stay():
    from pyradice_lab.meerkat.components import sample_plausible as meerkat
    from pyradice_lab.purramid.components import default_layout_facts, sample_plausible as purramid
    from pyradice_lab.pyradice.components import sample_plausible as pyradice
    from pyradice_lab.raft.components import sample_plausible as raft

    for seed in range(5):
        m = meerkat(seed)
        assert m.tile(6).values == (6, 3)                     # Example 1 of the rules
        assert all(list(m.tile(t).values) == sorted(m.tile(t).values, reverse=True) for t in range(3, 13))
        r = raft(seed).document
        assert len(r["card"]) == 39 and r["gems"]["total"] == 27
        assert sum(r["gems"]["counts"][c] for c in r["gems"]["colours"]) == 27
        p = pyradice(seed)
        assert p.get("card.Many.table")[5] == 7 and p.get("card.Pairs.points") == 4 and p.get("card.Big.points") == 1
        assert p.get("card.Height.table") == [0, 0, 1, 2, 3, 4, 5]
        q = purramid(seed)
        for side in ("A", "B"):
            assert all(default_layout_facts(q.layout(side)).values())
            # a shuffle within rows keeps every row's numbers
            assert [sorted(r) for r in q.get(f"sides.{side}.rows.value")] == \
                [sorted(r) for r in _sampler("purramid").default_components().get(f"sides.{side}.rows.value")]


def test_meerkat_reach_odds_match_placement_odds():
    from pyradice_lab.meerkat.components import TILES, _reach_odds
    from pyradice_lab.meerkat.odds import placement_odds

    for t in TILES:
        assert _reach_odds(t) == pytest.approx(placement_odds(t), abs=1e-12)


def test_claims_parse_and_judge_intervals():
    c = parse_finding("start_player_win > 0.5")
    assert c == Claim("start_player_win", ">", 0.5)
    assert c.verdict(0.51, 0.6) == "holds" and c.verdict(0.4, 0.49) == "reversed" and c.verdict(0.45, 0.55) == "undecided"
    d = parse_finding(("game_length", "<=", 30))
    assert d.verdict(20, 30) == "holds" and d.verdict(31, 40) == "reversed" and d.verdict(25, 35) == "undecided"
    assert parse_finding("seat_win:1 < 0.3").metric == "seat_win:1"
    assert parse_finding("points_per_meerkat:12 > 5").metric == "points_per_meerkat:12"
    for bad, word in [("start_player_win = 0.5", "metric op threshold"), (("mean score", ">", 1), "metric"),
                      (("mean_score", "!=", 1), "op"), (("mean_score", ">", float("nan")), "threshold"),
                      (5, "finding")]:
        with pytest.raises((ValueError, TypeError), match=word):
            parse_finding(bad)
    # which metrics exist is the game's business (pyradice_lab.design.compare.metrics)
    for bad, word in [("foo > 1", "not a raft metric"), ("seat_win > 0.2", "needs"), ("burst_rate > 0", "not a raft")]:
        with pytest.raises(ValueError, match=word):
            robustness("raft", bad, reconstructions=2, games=10)


def test_robustness_plays_common_games_and_reports(monkeypatch):
    base = _sampler("raft").default_components()
    # a sampler that returns the packaged components: with common random numbers every row is identical
    monkeypatch.setattr(plausible, "_sampler", lambda game: lambda rng, base=None, return_choices=True:
                        plausible.PlausibleSample(base, {"x": float(rng.random())}))
    r = robustness("raft", "game_length > 1", reconstructions=3, games=30, policies="greedy", rng=3, base=base)
    assert len(r.table) == 4 and r.table["value"].nunique() == 1
    assert r.robust and r.holds_share.value == 1.0
    assert "holds on 3 of 3" in r.summary()


def test_robustness_takes_a_game_specific_metric():
    r = robustness("meerkat", "points_per_meerkat:6 > 0", reconstructions=2, games=20, policies="greedy", rng=4)
    assert len(r.table) == 3 and (r.table["value"] > 0).all()


def test_robustness_real_sets_reproducible_and_sensitivity():
    r1 = robustness("raft", "mean_score > 0", reconstructions=3, games=30, policies="greedy", rng=11)
    r2 = robustness("raft", "mean_score > 0", reconstructions=3, games=30, policies="greedy", rng=11)
    assert r1.table.equals(r2.table)
    assert set(r1.sensitivity["choice"]) == {"points_per_gem", "points_per_concentration", "points_offset",
                                             "black_gems"}
    assert r1.table["components_hash"].nunique() == 4


@pytest.mark.parametrize("kwargs, word", [({"reconstructions": 1}, "reconstructions"), ({"games": 5}, "games"),
                                          ({"confidence": 0.9}, "confidence"), ({"game_kwargs": {"rng": 1}}, "rng")])
def test_robustness_bad_arguments(kwargs, word):
    with pytest.raises(ValueError, match=word):
        robustness("raft", "mean_score > 0", **kwargs)
    with pytest.raises(ValueError, match="game must be one of"):
        robustness("chess", "mean_score > 0")


def test_candidate_grid_and_objective():
    assert candidate_grid({"a": (1, 2), "b": [[1], [2]]}) == [{"a": 1, "b": [1]}, {"a": 1, "b": [2]},
                                                             {"a": 2, "b": [1]}, {"a": 2, "b": [2]}]
    assert parse_objective("mean_score = 12.5") == ("mean_score", 12.5)
    for bad in [{}, {"a": (3, 1)}, {"a": []}, {"a": "x"}, {1: (1, 2)}]:
        with pytest.raises((ValueError, TypeError), match="parameters"):
            candidate_grid(bad)
    with pytest.raises(ValueError, match="objective"):
        parse_objective("mean_score > 1")
    with pytest.raises(ValueError, match="not a raft metric"):
        balance("raft", {"card.1.points": (1, 2)}, "burst_rate = 0.1", budget=20, first_games=10, verify_games=10)


def test_balance_finds_the_target_and_verifies_on_fresh_seeds():
    # raft card 1 (RR, 2 points): the mean score rises with its points; ask for a mean between two candidates'
    grid = {"card.1.points": (1, 6)}
    r = balance("raft", grid, "mean_score = 0", budget=400, first_games=20, verify_games=40, rng=5, policies="greedy")
    assert r.values == {"card.1.points": 1}          # fewest points = lowest mean score: closest to 0
    assert r.after.n == 40 and r.before.n == 40
    assert r.after.value <= r.before.value
    assert r.components.get("card.1.points") == 1
    again = balance("raft", grid, "mean_score = 0", budget=400, first_games=20, verify_games=40, rng=5,
                    policies="greedy")
    assert again.history.equals(r.history)
    assert r.games_used <= 400


def test_balance_resumes_from_its_cache_with_the_same_result(tmp_path, monkeypatch):
    """An interrupted search started again replays nothing it finished: the second run plays no game and
    returns the same proposal, history and verification; edited components are not served from the cache."""
    import pyradice_lab.design.balance as balancing

    grid = {"card.1.points": (1, 4)}
    kw = dict(budget=200, first_games=20, verify_games=40, rng=5, cache_dir=tmp_path / "cache", policies="greedy")
    plain = balance("raft", grid, "mean_score = 0", **{**kw, "cache_dir": None})
    first = balance("raft", grid, "mean_score = 0", **kw)
    assert first.history.equals(plain.history) and first.after == plain.after   # the cache changes no number
    played = []
    real = balancing._Runs.run

    def counting(self, games, seed, comp):
        hit = self.cache.read(self._name(games, seed, comp), self.provenance)
        played.append(hit is None)
        return real(self, games, seed, comp)

    monkeypatch.setattr(balancing._Runs, "run", counting)
    again = balance("raft", grid, "mean_score = 0", **kw)
    assert played and not any(played)                                    # every run came from the cache
    assert again.history.equals(first.history) and again.values == first.values
    assert (again.before, again.after) == (first.before, first.after)
    played.clear()
    other = balance("raft", {"card.2.points": (1, 2)}, "mean_score = 0", **kw)
    assert any(played) and other.values                                   # other components: played afresh


def test_balance_skips_refused_candidates_and_writes_toml(tmp_path):
    # a 2-player deal that does not sum to the tiles left is refused by Purramid's checks, never played
    grid = {"deal_2p.value": [[30, 30], [26, 25]]}
    r = balance("purramid", grid, "start_player_win = 0.5", players=2, budget=40, first_games=10, verify_games=10,
                policies="greedy",
                rng=1)
    assert r.values == {"deal_2p.value": [26, 25]}
    out = r.to_toml(tmp_path / "proposal.toml")
    from pyradice_lab.purramid.components import load_components

    assert load_components(out).get("deal_2p.value") == [26, 25]
    with pytest.raises(ValueError, match="no candidate passes"):
        balance("purramid", {"deal_2p.value": [[30, 30]]}, "start_player_win = 0.5", players=2, budget=40,
                first_games=10, verify_games=10)


def test_balancing_module_is_public():
    import pyradice_lab as pl

    assert pl.balance is balancing.balance and pl.robustness is plausible.robustness
    assert "balance" in dir(pl) and "robustness" in dir(pl)


def test_cli_robustness_and_balance(capsys):
    from pyradice_lab.cli import main

    assert main(["raft", "robustness", "mean_score > 0", "--reconstructions", "2", "--games", "20",
                 "--no-progress"]) == 0
    assert "plausible component sets" in capsys.readouterr().out
    for argv in (["raft", "balance", "--param", "card.1.points=x", "--objective", "mean_score = 1"],
                 ["raft", "robustness", "nonsense"]):
        try:
            code = main(argv)
        except SystemExit as e:
            code = e.code
        assert code == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "error" in err[0]


@pytest.mark.parametrize("game", GAMES)
def test_sample_plausible_docstring_examples(game):
    import doctest

    fn = _sampler(game).sample_plausible
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    tests = finder.find(fn, globs=vars(_sampler(game)))
    for t in tests:
        runner.run(t)
    assert runner.tries > 0 and runner.failures == 0


# ------------------------------------------------------------------------------- paired robustness
def test_paired_robustness_of_an_identical_variant_is_exactly_zero_on_every_set():
    for kw in ({"variant": {}}, {"variant_options": {"layout": "A"}, "reference_options": {"layout": "A"}}):
        r = robustness("purramid", "start_player_win > 0", reconstructions=3, games=40, players=2, policies="greedy",
                       rng=5, **kw)
        assert len(r.table) == 4 and r.paired is not None
        assert (r.table["value"] == 0).all() and (r.table["se"] == 0).all()
        assert (r.table["variant_value"] == r.table["reference_value"]).all()
        assert (r.table["verdict"] == "undecided").all() and not r.robust
        assert "paired on the same games" in r.summary()
        assert "variant_value" not in set(r.sensitivity["choice"])


def test_paired_robustness_is_the_difference_of_the_two_runs_and_repeats_with_its_seed():
    kw = dict(reconstructions=2, games=40, players=3, policies="greedy", rng=8, variant_options={"flag_depth": 30},
              reference_options={"flag_depth": 5})
    r = robustness("raft", "rounds > 0", **kw)
    pd.testing.assert_frame_equal(r.table, robustness("raft", "rounds > 0", **kw).table)
    assert r.table["value"].to_numpy() == pytest.approx((r.table["variant_value"] - r.table["reference_value"]).to_numpy())
    # the variant run is the same games as an unpaired robustness of the variant (same seed, same sets)
    one = robustness("raft", "rounds > 0", reconstructions=2, games=40, players=3, policies="greedy", rng=8,
                     game_kwargs={"flag_depth": 30})
    assert one.table["value"].to_numpy() == pytest.approx(r.table["variant_value"].to_numpy())
    # a known effect: a flag under 30 cards makes far longer games than one under 5, on every set
    assert r.robust and (r.table["ci_low"] > 2).all()


def test_paired_robustness_takes_a_change_that_depends_on_the_set():
    def six_black(comp):
        counts = list(comp.gems.in_play(3))
        return comp.with_gems(3, counts[:-1] + [6])

    r = robustness("raft", "rounds < 0", reconstructions=2, games=30, players=3, policies="greedy", rng=2,
                   variant=six_black)
    assert "six_black" in r.paired["variant"] and r.paired["reference"] == "the set as drawn"
    assert r.table["value"].abs().sum() > 0


@pytest.mark.parametrize("kwargs, error, word", [
    ({"variant": [1, 2]}, TypeError, "variant must be a dict"),
    ({"reference": {3: 1}}, TypeError, "reference's keys must be component paths"),
    ({"variant": {"no.such.path": 1}}, ValueError, "variant: "),
    ({"variant": lambda c: 3}, TypeError, "variant must return the game's components"),
    ({"variant_options": {"players": 4}}, ValueError, "variant_options must not set 'players'"),
    ({"reference_options": {"colour": 1}}, ValueError, "reference_options: simulate_games has no 'colour'"),
    ({"variant_options": 3}, TypeError, "variant_options must be a dict")])
def test_paired_robustness_bad_arguments(kwargs, error, word):
    with pytest.raises(error, match=word):
        robustness("raft", "rounds > 0", reconstructions=2, games=10, **kwargs)


def test_games_rng_keeps_the_component_sets_and_changes_the_games():
    kw = dict(reconstructions=2, games=30, players=2, policies="greedy", rng=4)
    a = robustness("purramid", "start_player_win > 0.5", **kw)
    b = robustness("purramid", "start_player_win > 0.5", games_rng=99, **kw)
    assert (a.table["components_hash"] == b.table["components_hash"]).all()
    assert not a.table["value"].equals(b.table["value"])
    pd.testing.assert_frame_equal(b.table, robustness("purramid", "start_player_win > 0.5", games_rng=99, **kw).table)


def test_robustness_builds_each_frames_outcomes_once_for_all_its_metrics(monkeypatch):
    """A check of a family (Meerkat's 12 tiles' pay, Pyradice's card pairs) computes every metric on one frame per
    set: the game's outcomes frame is built once per frame, not once per metric, with the same numbers."""
    from pyradice_lab.design.robustness import robustness_many
    from pyradice_lab.engine.registry import get_game

    sim = get_game("raft").module("sim")
    kw = dict(reconstructions=2, games=20, policies="greedy", rng=5)
    before = [r.table for r in robustness_many("raft", ["mean_score > 0", "start_player_win > 0.2"], **kw)]
    calls, real = [], sim.outcomes
    monkeypatch.setattr(sim, "outcomes", lambda df: calls.append(1) or real(df))
    after = [r.table for r in robustness_many("raft", ["mean_score > 0", "start_player_win > 0.2"], **kw)]
    two = len(calls)
    robustness_many("raft", ["mean_score > 0"], **kw)
    assert two == len(calls) - two                    # one metric or two: the same outcomes frames built
    assert all(a.equals(b) for a, b in zip(after, before))
