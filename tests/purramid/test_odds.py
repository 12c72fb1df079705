"""Exact burst odds against brute force over ordered rolls."""

from fractions import Fraction
from itertools import combinations, product

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from pyradice_lab.purramid import odds


def brute_burst(n, targets):
    bursts = 0
    for roll in product(range(1, 7), repeat=n):
        sums = {sum(c) for k in range(1, n + 1) for c in combinations(roll, k)}
        bursts += not (sums & set(targets))
    return Fraction(bursts, 6 ** n)


@settings(max_examples=60)
@given(n=st.integers(0, 5), targets=st.sets(st.integers(1, 32), max_size=6))
def test_burst_probability_matches_brute_force(n, targets):
    assert odds.burst_probability(n, targets, exact=True) == brute_burst(n, targets)


def test_worked_values():
    assert odds.burst_probability(1, [6], exact=True) == Fraction(5, 6)
    assert odds.burst_probability(0, [1, 2], exact=True) == 1
    assert odds.burst_probability(3, [], exact=True) == 1
    assert odds.burst_probability(5, range(1, 7)) == 0.0
    assert isinstance(odds.burst_probability(2, [7]), float)


@settings(max_examples=40)
@given(n=st.integers(1, 4), targets=st.sets(st.integers(1, 24), min_size=1, max_size=5), extra=st.integers(1, 24))
def test_monotone_in_dice_and_targets(n, targets, extra):
    p = odds.burst_probability(n, targets, exact=True)
    assert odds.burst_probability(n + 1, targets, exact=True) <= p
    assert odds.burst_probability(n, targets | {extra}, exact=True) <= p


def test_burst_table_shape_and_brute_force_rows():
    t = odds.burst_table()
    assert t.shape == (4095, 5) and list(t.columns) == [1, 2, 3, 4, 5]
    assert t.index[0] == (1,) and t.index[-1] == tuple(range(1, 13))
    rng = np.random.default_rng(3)
    for i in rng.choice(len(t), size=12, replace=False):
        tgt = t.index[i]
        for n in (1, 3):
            assert t.iloc[i][n] == pytest.approx(float(brute_burst(n, tgt)), abs=1e-15)


def test_burst_table_scalar_lookup_form_of_the_readme():
    """Issue 9 item 9: ``.loc[(6, 8), 3]`` is read by pandas as one key per axis; ``.at`` is the form."""
    from fractions import Fraction

    t = odds.burst_table()
    assert t.at[(6, 8), 3] == pytest.approx(float(Fraction(23, 216)), abs=1e-15)
    assert t.loc[[(6, 8)], 3].item() == t.at[(6, 8), 3]


def test_burst_table_exact_fractions_agree_with_burst_probability():
    t = odds.burst_table(4, [2, 6, 8, 11], exact=True)
    for tgt, row in t.iterrows():
        for n in range(1, 5):
            assert row[n] == odds.burst_probability(n, tgt, exact=True)


def test_burst_table_monotone():
    t = odds.burst_table().to_numpy()
    assert np.all(np.diff(t, axis=1) <= 1e-15)          # more dice never raise P(burst)
    # adding a number never raises P(burst): subset index s | bit <= s
    for s in range(1, 4096):
        for j in range(12):
            sup = s | (1 << j)
            assert t[sup - 1, 2] <= t[s - 1, 2] + 1e-15


def test_reach_distribution_sums_to_one():
    d = odds.reach_distribution(3, [2, 6, 8, 12])
    assert sum(d) == 1


@pytest.mark.parametrize("call, name", [
    (lambda: odds.burst_probability(9, [6]), "n_dice"),
    (lambda: odds.burst_probability(-1, [6]), "n_dice"),
    (lambda: odds.burst_probability(2, [0]), "targets"),
    (lambda: odds.burst_probability(2, [49]), "targets"),
    (lambda: odds.burst_table(0), "max_dice"),
    (lambda: odds.burst_table(3, []), "numbers"),
    (lambda: odds.burst_table(3, range(1, 18)), "numbers"),
])
def test_bad_input_names_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()
