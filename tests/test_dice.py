import itertools
import math

import numpy as np
import pytest
from hypothesis import given, strategies as st

from pyradice_lab.engine import dice


@pytest.mark.parametrize("k", range(0, 9))
def test_multisets_counts_and_weights(k):
    faces, weights = dice.multisets(k)
    assert faces.shape == (math.comb(k + 5, 5), k)
    assert weights.dtype == np.int64
    assert int(weights.sum()) == 6**k
    assert np.all(np.diff(faces, axis=1) >= 0)  # rows ascending
    assert len({tuple(r) for r in faces}) == len(faces)  # rows distinct


def test_five_dice_has_252_rows():
    faces, weights = dice.multisets(5)
    assert len(faces) == 252 and int(weights.sum()) == 7776
    with pytest.raises(ValueError):
        faces[0, 0] = 3  # cached arrays are read-only


def brute_masks(k):
    """Brute force over every ordered roll: sums of every non-empty subset of positions."""
    faces, _ = dice.multisets(k)
    index = {tuple(r): i for i, r in enumerate(faces)}
    masks = np.zeros(len(faces), dtype=np.uint64)
    counts = np.zeros(len(faces), dtype=np.int64)
    for roll in itertools.product(range(1, 7), repeat=k):
        i = index[tuple(sorted(roll))]
        counts[i] += 1
        m = 0
        for r in range(1, k + 1):
            for sub in itertools.combinations(roll, r):
                m |= 1 << sum(sub)
        masks[i] = m
    return masks, counts


@given(st.integers(min_value=0, max_value=5))
def test_weights_and_masks_equal_brute_force(k):
    faces, weights = dice.multisets(k)
    masks, counts = brute_masks(k)
    assert np.array_equal(weights, counts)
    assert np.array_equal(dice.subset_sum_masks(faces), masks)


@given(st.lists(st.lists(st.integers(1, 6), min_size=4, max_size=4), min_size=1, max_size=50))
def test_classify_is_inverse_of_sorting(rows):
    rolls = np.array(rows)
    faces, _ = dice.multisets(4)
    assert np.array_equal(faces[dice.classify(rolls)], np.sort(rolls, axis=1))


@given(st.integers(0, 8), st.integers(0, 30), st.integers(0, 2**32 - 1))
def test_classify_any_k_and_dtype(k, n, seed):
    rolls = np.random.default_rng(seed).integers(1, 7, size=(n, k), dtype=np.int8)
    faces, _ = dice.multisets(k)
    idx = dice.classify(rolls)
    assert idx.shape == (n,)
    assert np.array_equal(faces[idx], np.sort(rolls, axis=1))


def test_classify_frequencies_match_weights():
    rolls = dice.roll(200_000, 3, rng=1)
    faces, weights = dice.multisets(3)
    counts = np.bincount(dice.classify(rolls), minlength=len(faces))
    expected = 200_000 * weights / 216
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    assert chi2 < 110  # 55 dof: the 0.9999 quantile is about 101


@pytest.mark.parametrize("bad", [2.0, "3", None, True])
def test_non_integer_k_is_rejected(bad):
    with pytest.raises((TypeError, ValueError), match="k"):
        dice.multisets(bad)


@pytest.mark.parametrize("bad", [-1, 9, 100])
def test_k_out_of_range(bad):
    with pytest.raises(ValueError, match=r"k must be in 0\.\.8"):
        dice.multisets(bad)


def test_bad_rolls_are_rejected():
    with pytest.raises(ValueError, match="rolls"):
        dice.classify([[0, 3]])
    with pytest.raises(ValueError, match="rolls"):
        dice.classify([1, 2, 3])
    with pytest.raises(ValueError, match="number of dice"):
        dice.classify(np.ones((2, 9), dtype=int))
    with pytest.raises(TypeError, match="faces"):
        dice.subset_sum_masks([[1.5, 2.0]])
