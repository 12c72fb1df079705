"""Exact placement odds against a brute-force oracle, and the automa's placement distribution."""

from fractions import Fraction
from itertools import product

import pytest

from pyradice_lab.meerkat import automa_placement_table, placement_odds, placement_odds_exact, placement_table
from pyradice_lab.meerkat.rules import automa_split


def _allows(roll, tile, count):
    """Independent oracle: some die is the count die and the other two sum to the tile (or are 1+1)."""
    for i in range(3):
        c = roll[i]
        x, y = [roll[j] for j in range(3) if j != i]
        if x + y == tile or (x, y) == (1, 1):
            if count == "queen":
                if c >= 5:
                    return True
            elif (c + 1) // 2 >= count:
                return True
    return False


def _brute(tile, count, reroll):
    total = Fraction(0)
    for roll in product(range(1, 7), repeat=3):
        best = Fraction(int(_allows(roll, tile, count)))
        if reroll:
            for keep in product((0, 1), repeat=3):
                free = [i for i in range(3) if not keep[i]]
                hits = 0
                for new in product(range(1, 7), repeat=len(free)):
                    r = list(roll)
                    for i, v in zip(free, new):
                        r[i] = v
                    hits += _allows(r, tile, count)
                best = max(best, Fraction(hits, 6 ** len(free)))
        total += best
    return total / 216


@pytest.mark.parametrize("tile,count", [(3, 1), (7, 2), (12, "queen"), (9, 3)])
def test_exact_equals_brute_force(tile, count):
    assert placement_odds_exact(tile, count, reroll=False) == _brute(tile, count, False)
    assert placement_odds_exact(tile, count, reroll=True) == _brute(tile, count, True)


def test_known_values_and_monotonicity():
    assert placement_odds_exact(7, 1, reroll=False) == Fraction(103, 216)
    assert placement_odds_exact(7, 2, reroll=False) == Fraction(1, 3)
    table = placement_table()
    no = placement_table(reroll=False)
    assert (table.values >= no.values).all()
    assert (table[1] >= table[2]).all() and (table[2] >= table[3]).all()
    assert (table[3] == table["queen"]).all()  # with the default count die, 5-6 is both
    assert table[1].idxmax() == 7 and table[1].idxmin() == 12


@pytest.mark.parametrize("bad,name", [((2,), "tile"), ((13,), "tile"), ((7.0,), "tile"), ((7, 4), "count"),
                                      ((7, 0), "count"), ((7, "king"), "count"), ((7, 1, "yes"), "reroll")])
def test_bad_input_names_parameter(bad, name):
    with pytest.raises(ValueError, match=name):
        placement_odds(*bad)


def test_automa_example_and_distribution():
    # rules: automa rolls 2, 5, 5 with H -> one 5 is the count die, tile 2 + 5 = 7
    assert automa_split(2, 5, 5, 2) == (5, 2, 5)
    assert automa_split(2, 5, 5, 0) == (2, 5, 5)
    t = automa_placement_table(exact=True)
    for face in ("L", "M", "H", "any"):
        probs = list(t.loc[t.face == face, "probability"])
        assert sum(probs) == 1 and all(p > 0 for p in probs)
    h = t[t.face == "H"].set_index(["tile", "count"])["probability"]
    # brute force for face H: 216 rolls minus those whose two lowest dice are 1+1 (16 rolls)
    hits = sum(1 for r in product(range(1, 7), repeat=3)
               if sorted(r)[2] >= 5 and sorted(r)[0] + sorted(r)[1] == 7)
    assert h[(7, 3)] == Fraction(hits, 216 - 16)
    # with H, tile 12 needs 6+6 as the two lowest dice, so the count die is a 6 (3 meerkats)
    high = t[t.face == "H"]
    assert set(high.loc[high.tile == 12, "count"]) == {3}
    assert t.loc[(t.face == "H") & (t.tile == 12), "probability"].iloc[0] == Fraction(1, 200)
