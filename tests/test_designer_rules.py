"""The rules of the designer's loop, each pinned by a constructed case (issue 32): a bug in one of them used to
pass every unit test and show only in a documentation page's printed output, or nowhere.

Each test is named by a mutation of ``tests/mutate.py`` (``make mutate``) that it must catch.  The tests are
about the rule (which sets count, when a run stops, which seeds are used), never about interval numbers.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from pyradice_lab.design import balance as balance_mod
from pyradice_lab.design.compare import BLOCK, compare
from pyradice_lab.design.robustness import RobustnessResult, parse_finding
from pyradice_lab.design.strength import fit_bradley_terry
from pyradice_lab.engine.findings import MIN_CLAIM_N, Finding


# ------------------------------------------------------------------------------- robustness
def _table(verdicts: dict[str, str]) -> pd.DataFrame:
    rows = []
    for i, (label, verdict) in enumerate(verdicts.items()):
        value = {"holds": 0.6, "undecided": 0.5, "reversed": 0.4}[verdict]
        rows.append({"set": label, "value": value, "se": 0.01, "ci_low": value - 0.02, "ci_high": value + 0.02,
                     "n": 1000, "verdict": verdict, "tile_7_high": float(i)})
    return pd.DataFrame(rows)


def test_robust_needs_every_sampled_set_one_undecided_is_not_robust():
    """Mutation robustness-tolerates-one: "robust" only when the finding holds on every sampled set."""
    claim = parse_finding("start_player_win > 0.5")
    one_undecided = _table({"packaged": "holds", "plausible-1": "holds", "plausible-2": "holds",
                            "plausible-3": "undecided", "plausible-4": "holds"})
    res = RobustnessResult.from_table(claim, one_undecided)
    assert res.holds_share.value == pytest.approx(3 / 4) and res.holds_share.n == 4
    assert res.robust is False
    all_hold = one_undecided.assign(verdict="holds")
    assert RobustnessResult.from_table(claim, all_hold).robust is True


def test_robust_share_counts_the_sampled_sets_only_not_the_packaged_one():
    """Mutation robustness-share-packaged: packaged "holds" + sampled "reversed" and "holds" is 1/2 of 2."""
    claim = parse_finding("start_player_win > 0.5")
    res = RobustnessResult.from_table(claim, _table({"packaged": "holds", "plausible-1": "reversed",
                                                     "plausible-2": "holds"}))
    assert res.holds_share.n == 2 and res.holds_share.value == pytest.approx(1 / 2)
    assert res.robust is False
    assert "holds on 1 of 2" in res.summary()


# ------------------------------------------------------------------------------- findings
@pytest.mark.parametrize("n, claims", [(MIN_CLAIM_N - 1, False), (MIN_CLAIM_N, True), (MIN_CLAIM_N + 1, True)])
def test_a_finding_claims_from_exactly_min_claim_n_games(n, claims):
    """Mutation findings-min-claim-n: ``MIN_CLAIM_N`` games are enough data, one fewer is not."""
    f = Finding("difference", "start player's win rate", 0.6, 0.55, 0.65, n=n, null=0.5)
    assert f.excludes_null
    assert f.enough_data is claims and f.is_claim is claims


# ------------------------------------------------------------------------------- compare(until=)
def test_until_between_the_two_half_widths_stops_after_the_first_block():
    """Mutation compare-until-base: ``until`` is a half-width of the *difference* (paired, smaller than the base's
    own): an ``until`` between the two is met by the first block, so the run stops there."""
    from pyradice_lab import raft

    variant = raft.default_components().replace({"card.1.points": 4, "card.2.points": 4})
    kw = dict(games=BLOCK, players=2, policies="greedy", rng=5)
    first = compare("raft", None, variant, "points_per_boat", **kw)
    d, b = first.difference.halfwidth, first.base.halfwidth
    assert 0 < d < b  # common random numbers: the difference is known better than either side
    res = compare("raft", None, variant, "points_per_boat", until=(d + b) / 2, max_games=4 * BLOCK, **kw)
    assert res.n_games == BLOCK and res.reached is True
    assert res.difference.value == first.difference.value  # the same first block


# ------------------------------------------------------------------------------- balance seeds
def test_balance_rounds_and_verification_use_seeds_no_other_round_used(monkeypatch):
    """Mutations balance-verify-search-seed and balance-rounds-replay-first: every halving round plays games from
    its own seed (one seed for all candidates of the round: common random numbers), and the before/after
    verification from a seed no round used."""
    calls = []
    real = balance_mod._Runs.many

    def recording(self, pool, games, seed, comps, desc=""):   # one record per candidate run (a block)
        calls.extend((tuple(np.atleast_1d(seed.entropy).tolist()), tuple(seed.spawn_key), games) for _ in comps)
        return real(self, pool, games, seed, comps, desc=desc)

    monkeypatch.setattr(balance_mod._Runs, "many", recording)
    b = balance_mod.balance("purramid", {"deal_2p.value": [[27, 24], [26, 25], [25, 26], [24, 27]]},
                            "start_player_win = 0.5", players=2, budget=700, first_games=50, verify_games=50,
                            rng=3, policies="greedy")
    rounds = b.history["round"].nunique()
    assert rounds >= 2
    per_round = b.history.groupby("round").size().tolist()
    search, verify = calls[:sum(per_round)], calls[sum(per_round):]
    assert len(verify) == 2 and verify[0][:2] == verify[1][:2]  # before and after: the same fresh games
    keys, start = [], 0
    for size in per_round:
        round_keys = {c[:2] for c in search[start:start + size]}
        assert len(round_keys) == 1  # the same games for every candidate of a round
        keys.append(round_keys.pop())
        start += size
    assert len(set(keys)) == rounds, f"a halving round replayed another round's games: {keys}"
    assert verify[0][:2] not in keys, "the verification replays games of the search"


# ------------------------------------------------------------------------------- strength ladder
def test_duplicated_comparisons_of_a_game_do_not_shrink_the_rating_se():
    """Mutation ladder-no-sandwich: comparisons from one game are not independent (the sandwich variance is
    clustered by game), so repeating every game's rows under the same game id leaves the SEs where they were
    instead of dividing them by sqrt(copies)."""
    rng = np.random.default_rng(0)
    rows = []
    strength = {"a": 0.0, "b": 0.4, "c": 0.8}
    for game in range(300):
        seats = list(strength)
        perf = {p: strength[p] + rng.gumbel() for p in seats}
        for i, p in enumerate(seats):
            for q in seats[i + 1:]:
                rows.append({"game": game, "a": p, "b": q, "score": float(perf[p] > perf[q])})
    pairs = pd.DataFrame(rows)

    def se(copies):
        fit = fit_bradley_terry(pd.concat([pairs] * copies, ignore_index=True), anchor="a")
        return fit.set_index("policy")["rating_se"]

    once, twice, four = se(1), se(2), se(4)
    assert (four[["b", "c"]] >= 0.95 * twice[["b", "c"]]).all(), (twice, four)
    assert (twice[["b", "c"]] >= 0.8 * once[["b", "c"]]).all(), (once, twice)
