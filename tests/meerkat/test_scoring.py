"""The majority kernel: the rules' examples, a brute-force oracle, hypothesis properties, score_game."""

import numpy as np
import pytest
from hypothesis import assume, given, strategies as st

from pyradice_lab.meerkat import score_game, score_tile


def _oracle(counts, queens, values, reverse=False, bonus=0, reading="literal"):
    strength = [2 * c + 5 * q for c, q in zip(counts, queens)]
    alive = [i for i, s in enumerate(strength) if s > 0 and strength.count(s) == 1]
    alive.sort(key=lambda i: strength[i], reverse=not reverse)
    paid = list(values)
    if reverse and reading == "literal":   # fewest: the highest value; second fewest: the lowest; nobody else
        paid = [values[0], values[-1]] if len(values) >= 2 else [values[0]]
    out = [0] * len(counts)
    for rank, i in enumerate(alive[:len(paid)]):
        out[i] = paid[rank] + bonus
    return out


def test_rules_examples():
    assert score_tile([3, 3, 2, 1], values=(6, 3)).tolist() == [0, 0, 6, 3]           # Example 1, tile 6
    assert score_tile([2, 2, 1], values=(6, 3)).tolist() == [0, 0, 6]                # tile 7: Gabi takes high
    # Amon's two meerkats include his queen: 1 regular + queen (2.5) = 3.5 -> Amon high, Matt low, Gabi 0
    assert score_tile([1, 2, 1], queens=[True, False, False], values=(6, 3)).tolist() == [6, 3, 0]


def test_queen_decides_a_majority():
    """The queen alone (2.5) beats two meerkats (2): with a queen worth 2 the two would tie and both score 0."""
    assert score_tile([2, 0], queens=[False, True], values=(6, 3)).tolist() == [3, 6]
    assert score_tile([2, 1], queens=[False, True], values=(6, 3)).tolist() == [3, 6]    # 2 vs 3.5
    assert score_tile([3, 0], queens=[False, True], values=(6, 3)).tolist() == [6, 3]    # 3 vs 2.5
    assert score_tile([2, 0, 2], queens=[False, True, False], values=(6, 3)).tolist() == [0, 6, 0]


def test_reverse_scoring_readings():
    """The rules text: the fewest (not zero) takes the highest value, the second fewest the lowest value."""
    assert score_tile([1, 2, 3], values=(7, 4, 2), reverse=True).tolist() == [7, 2, 0]
    assert score_tile([1, 2, 3], values=(7, 4, 2), reverse=True, reverse_reading="extended").tolist() == [7, 4, 2]
    assert score_tile([5, 3, 1, 0], values=(8, 4, 2), reverse=True).tolist() == [0, 2, 8, 0]
    assert score_tile([5, 3, 1, 0], values=(8, 4, 2), reverse=True,
                      reverse_reading="extended").tolist() == [2, 4, 8, 0]
    # two-value tiles: both readings agree; ties still cancel
    for reading in ("literal", "extended"):
        assert score_tile([1, 4, 2], values=(6, 3), reverse=True, reverse_reading=reading).tolist() == [6, 0, 3]
        assert score_tile([1, 1, 2, 3], values=(8, 4, 2), reverse=True,
                          reverse_reading=reading).tolist() == [0, 0, 8, 2 if reading == "literal" else 4]
    with pytest.raises(ValueError, match="reverse_reading"):
        score_tile([1, 2], reverse=True, reverse_reading="text")


def test_three_values_reverse_bonus_and_shapes():
    assert score_tile([5, 3, 1, 0], values=(8, 4, 2)).tolist() == [8, 4, 2, 0]
    assert score_tile([2, 1], values=(6, 3), bonus=3).tolist() == [9, 6]
    assert score_tile([1, 1], values=(6, 3)).tolist() == [0, 0]
    batch = np.array([[[3, 3, 2, 1], [0, 0, 0, 0]], [[1, 2, 3, 4], [4, 0, 0, 4]]])
    out = score_tile(batch, values=(6, 3))
    assert out.shape == batch.shape and out.dtype == np.int64
    assert out[1, 0].tolist() == [0, 0, 3, 6] and out[1, 1].tolist() == [0, 0, 0, 0]
    assert score_tile([1, 2], values=(6.5, 3)).dtype == np.float64


@pytest.mark.parametrize("kwargs,name", [
    ({"counts": [-1, 2]}, "counts"), ({"counts": [[1, 2]], "queens": [True, False]}, "queens"),
    ({"counts": [1.5, 2]}, "counts"), ({"counts": [1, 2], "values": ()}, "values"),
    ({"counts": [1, 2], "values": (6, "x")}, "values"), ({"counts": [1, 2], "bonus": float("nan")}, "bonus"),
    ({"counts": [1, 2], "reverse": "yes"}, "reverse")])
def test_bad_input(kwargs, name):
    with pytest.raises(ValueError, match=name):
        score_tile(**kwargs)


counts_st = st.lists(st.integers(0, 6), min_size=1, max_size=5)


@given(counts_st, st.data(), st.sampled_from([(6, 3), (8, 4, 2), (11, 6, 3)]), st.booleans(), st.integers(0, 3),
       st.sampled_from(["literal", "extended"]))
def test_matches_oracle_and_permutation(counts, data, values, reverse, bonus, reading):
    queens = data.draw(st.lists(st.booleans(), min_size=len(counts), max_size=len(counts)))
    got = score_tile(counts, queens, values, reverse=reverse, bonus=bonus, reverse_reading=reading).tolist()
    assert got == _oracle(counts, queens, values, reverse, bonus, reading)
    perm = data.draw(st.permutations(range(len(counts))))
    permuted = score_tile([counts[i] for i in perm], [queens[i] for i in perm], values, reverse, bonus,
                          reverse_reading=reading).tolist()
    assert permuted == [got[i] for i in perm]
    assert sum(got) <= sum(values) + bonus * len(values)


@given(counts_st, st.sampled_from([(6, 3), (8, 4, 2)]))
def test_sole_leader_adding_a_meerkat_keeps_high(counts, values):
    """The sole leader (strictly most meerkats, so nobody cancels above them) keeps the high value."""
    top = max(counts)
    assume(top > 0 and counts.count(top) == 1)
    i = counts.index(top)
    assert score_tile(counts, values=values)[i] == values[0]
    more = list(counts)
    more[i] += 1
    assert score_tile(more, values=values)[i] == values[0]


def test_score_game_example2_guardian_and_pups():
    # Example 2: Tori (player 0) wins tile 7; adjacent tile 10 is unscored; her guardian there gives her the
    # majority on 10 (default layout: tile t on position t - 3, so 7 and 10 are neighbours).
    counts = np.zeros((2, 10), dtype=int)
    counts[0, 7 - 3], counts[1, 7 - 3] = 3, 1
    counts[0, 10 - 3], counts[1, 10 - 3] = 1, 1     # tied on 10: nobody scores there without the guardian
    counts[1, 11 - 3] = 3                            # tile 11 is out of reach for one guardian
    df = score_game(counts, guardians=[1, 0], pups=[0, 0])
    assert df.loc[0, "guardians_moved"] == 1 and df.loc[0, "guardians_left"] == 0
    assert df.loc[0, "won"] == "7,10"                # the guardian went to 10 (8 points), not 8 (6) or 11
    assert df["tile_points"].tolist() == [6 + 8, 3 + 4 + 9]
    # with 3 guardians and 3 pups the gains are net of the pups lost: 10 (+8 - 3), then after winning 10 its
    # neighbour 11 (second place there: +5 - 3); nothing is adjacent and unscored after 11
    more = score_game(counts, guardians=[3, 0], pups=[3, 0])
    assert more.loc[0, "won"] == "7,10" and more.loc[0, "guardians_left"] == 1
    assert more.loc[0, "tile_points"] == 6 + 8 + 5 and more.loc[0, "pup_points"] == 3
    none = score_game(counts, guardians=[2, 0], pups=[3, 0], guardian_policy="none")
    assert none.loc[0, "guardians_moved"] == 0 and none.loc[0, "pup_points"] == 6  # 3 pups x 2 guardians


def test_score_game_tokens_and_tie_break():
    counts = np.zeros((2, 10), dtype=int)
    counts[0, 0], counts[1, 0] = 2, 1       # tile 3: 9/4
    plain = score_game(counts)
    assert plain["tile_points"].tolist() == [9, 4]
    rev = score_game(counts, tokens={3: "reverse"})
    assert rev["tile_points"].tolist() == [4, 9] and rev.loc[1, "won"] == "3"
    three = np.zeros((3, 10), dtype=int)
    three[:, 9 - 3] = [1, 2, 3]                  # tile 9 (7/4/2) with the reverse token
    assert score_game(three, tokens={9: "reverse"})["tile_points"].tolist() == [7, 2, 0]
    assert score_game(three, tokens={9: "reverse"}, reverse_reading="extended")["tile_points"].tolist() == [7, 4, 2]
    assert score_game(counts, tokens={3: "plus3"})["tile_points"].tolist() == [12, 7]
    tie = score_game(np.zeros((2, 10), dtype=int), bonus=[0, 0], out_order=[2, 1])
    assert tie["winner"].tolist() == [False, True]
    with pytest.raises(ValueError, match="counts"):
        score_game(np.zeros((2, 9), dtype=int))
    with pytest.raises(ValueError, match="tokens"):
        score_game(counts, tokens={2: "plus3"})
