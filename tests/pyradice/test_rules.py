"""Pyramid placement, skills (the rules' A3 example), goal tokens, cards and the rules' example score."""

import pytest
from hypothesis import given, settings, strategies as st

from pyradice_lab.pyradice import PYRAMID, Setup, legal_places, score_pyramid
from pyradice_lab.pyradice.components import default_components
from pyradice_lab.pyradice.rules import first_player, winners
from pyradice_lab.pyradice.scoring import Table
from pyradice_lab.pyradice.skills import SKILL_KINDS, apply_action, skill_options

RED, YELLOW, GREEN, BLUE, BLACK = range(5)
EMPTY = (0,) * 21, (-1,) * 21


def pyramid(cells: dict) -> tuple[tuple, tuple]:
    """{space: (value, colour)} -> (values, colours)."""
    v, c = list(EMPTY[0]), list(EMPTY[1])
    for s, (val, col) in cells.items():
        v[s], c[s] = val, col
    return tuple(v), tuple(c)


def test_pyramid_shape():
    assert [len(PYRAMID.spaces_of(k)) for k in range(1, 7)] == [6, 5, 4, 3, 2, 1]
    assert PYRAMID.n == 21
    assert PYRAMID.supports[PYRAMID.space(2, 0)].tolist() == [0, 1]
    assert PYRAMID.supports[20].tolist() == [18, 19]


def test_placement_rule():
    v, _ = EMPTY
    assert legal_places(v) == [0, 1, 2, 3, 4, 5]                      # only level 1 on an empty pyramid
    v, _ = pyramid({0: (3, RED), 1: (4, RED), 3: (2, RED)})
    assert legal_places(v) == [2, 4, 5, 6]                             # above spaces 0 and 1, not above 1-2 or 2-3
    v, _ = pyramid({s: (1, RED) for s in range(6)})
    assert legal_places(v) == [6, 7, 8, 9, 10]
    full = pyramid({s: (1, RED) for s in range(21)})[0]
    assert legal_places(full) == []


@settings(max_examples=60)
@given(st.lists(st.integers(0, 1000), min_size=21, max_size=21))
def test_any_placement_order_fills_the_pyramid_and_only_above_two_dice(choices):
    v = list(EMPTY[0])
    for i, u in enumerate(choices):
        places = legal_places(v)
        assert places, "a legal space always exists until the pyramid is full"
        s = places[u % len(places)]
        a, b = PYRAMID.supports[s]
        assert a < 0 or (v[a] and v[b])
        v[s] = 1 + i % 6
    assert all(v) and legal_places(v) == []


def test_rules_example_a3_turns_a_level_one_two_into_five_and_completes_c6():
    setup = Setup.default()
    assert setup.skills[1] == "A3" and setup.goals[0] == "C6"
    table = Table.build(setup, (RED, YELLOW, GREEN, BLUE))
    level1 = {0: (3, BLACK), 1: (5, BLACK), 2: (5, BLACK), 3: (2, BLACK), 4: (3, BLACK), 5: (5, BLACK)}
    before = pyramid({**level1, 6: (4, BLACK), 7: (1, BLACK), 11: (6, BLACK)})   # die just placed on level 3
    assert not score_pyramid(*before, table).goals_met[0]
    opts = skill_options(table.skills[3], *before, placed=11)
    flip = ((3, 5, BLACK),)
    assert flip in opts
    after = apply_action(*before, flip)
    assert score_pyramid(*after, table).goals_met[0]
    assert score_pyramid(*after, table).goal_vp == 5


@settings(max_examples=40)
@given(st.integers(0, 2**32 - 1), st.sampled_from(sorted(SKILL_KINDS)))
def test_skills_never_touch_the_die_just_placed_and_always_change_something(seed, kind):
    import numpy as np

    rng = np.random.default_rng(seed)
    v = [0] * 21
    for _ in range(int(rng.integers(1, 22))):
        places = legal_places(v)
        v[places[int(rng.integers(len(places)))]] = int(rng.integers(1, 7))
    c = [int(rng.integers(5)) if x else -1 for x in v]
    placed = int(rng.choice([s for s in range(21) if v[s]]))
    opts = SKILL_KINDS[kind].options(tuple(v), tuple(c), placed, {})
    assert len(opts) == len(set(opts)), "options are distinct"
    for act in opts:
        assert all(s != placed for s, _, _ in act)
        assert all(1 <= val <= 6 for _, val, _ in act)
        assert apply_action(v, c, act) != (tuple(v), tuple(c))
        new_v, new_c = apply_action(v, c, act)
        assert sorted(new_c) == sorted(c), "no skill changes colours; swaps only move them"
        if kind in ("swap_adjacent", "swap_any"):
            assert sorted(new_v) == sorted(v)


def test_skill_option_counts_on_a_full_pyramid():
    v, c = pyramid({s: (1 + s % 6, s % 5) for s in range(21)})
    comps = default_components()
    n = {code: len(skill_options(tok, v, c, 20)) for code, tok in comps.skills.items()}
    assert n["A3"] == 20                       # flip any other die
    assert n["A4"] == 100                      # any other face on 20 dice
    assert n["A2"] == 80                       # quarter turn: 4 faces each
    assert n["B6"] == 190                      # two of 20 dice
    assert n["A5"] == 5                        # levels 1..5 (level 6 holds only the placed die)


def test_rules_example_final_score_5_5_5_0_5_and_cards_7_9_12_1():
    """A pyramid reproducing the rules' example score with the default setup and discs Many=red, Height=yellow,
    Pairs=green, Big=blue (the example pyramid itself is not in the text; the score line is)."""
    table = Table.build(Setup.default(), (RED, YELLOW, GREEN, BLUE))
    cells = {
        # level 1 (C6: 3 or 5)
        0: (3, GREEN), 1: (5, GREEN), 2: (5, RED), 3: (3, RED), 4: (3, GREEN), 5: (5, GREEN),
        # level 2 (D7: no equal neighbours)
        6: (1, YELLOW), 7: (4, BLUE), 8: (1, RED), 9: (2, BLUE), 10: (1, BLACK),
        # level 3 (C2: 4 or more)
        11: (4, YELLOW), 12: (5, RED), 13: (6, RED), 14: (4, BLACK),
        # level 4 (C3: all different) -- missed
        15: (2, YELLOW), 16: (2, BLACK), 17: (3, YELLOW),
        # level 5 (D1: even)
        18: (2, GREEN), 19: (6, GREEN),
        20: (1, BLACK),
    }
    sc = score_pyramid(*pyramid(cells), table)
    assert [5 if m else 0 for m in sc.goals_met] == [5, 5, 5, 0, 5]
    assert sc.cards == (7, 9, 12, 1)
    assert sc.total == 20 + 29 == sc.goal_vp + sum(sc.cards)


def test_pairs_counts_only_isolated_pairs():
    table = Table.build(Setup.default(), (RED, YELLOW, GREEN, BLUE))
    three = pyramid({0: (1, GREEN), 1: (1, GREEN), 2: (1, GREEN)})      # a group of three is not a pair
    assert score_pyramid(*three, table).cards[2] == 0
    two = pyramid({0: (1, GREEN), 1: (1, GREEN), 3: (1, GREEN)})        # pair 0-1 plus a lone die
    assert score_pyramid(*two, table).cards[2] == 4
    diag = pyramid({0: (1, GREEN), 1: (1, BLACK), 6: (1, GREEN)})       # touching diagonally (6 rests on 0)
    assert score_pyramid(*diag, table).cards[2] == 4


def test_goals_count_only_complete_levels():
    table = Table.build(Setup.default(), (RED, YELLOW, GREEN, BLUE))
    partial = pyramid({0: (3, RED), 1: (5, RED)})
    assert not any(score_pyramid(*partial, table).goals_met)


def test_tie_breaks():
    assert winners([40, 38], [2, 4]) == [0]               # most VP
    assert winners([40, 40], [2, 3]) == [1]               # tie: most goal tokens
    assert winners([40, 40, 12], [3, 3, 5]) == [0, 1]     # still tied: shared


def test_first_player_roll_off():
    import numpy as np

    assert first_player(np.array([[3, 6], [1, 1]])) == 1
    assert first_player(np.array([[5, 5, 2], [2, 4, 6]])) == 1          # the 6 of seat 2 does not count
    assert first_player(np.array([[4, 4], [4, 4]])) == 0                # tied to the end: lowest seat


def test_setup_validation_names_the_parameter():
    with pytest.raises(ValueError, match="skills"):
        Setup(skills=("A2", "A3", "A4", "A5"))
    with pytest.raises(ValueError, match="goals"):
        Setup(goals=("C6", "C6", "C2", "C3", "D1"))
    with pytest.raises(ValueError, match="cards"):
        Setup(cards=("Many", "Height", "Pairs", "Nope"))
    with pytest.raises(ValueError, match="discs"):
        Setup(discs=("red", "blue", "green"))
    with pytest.raises(TypeError, match="setup"):
        from pyradice_lab.pyradice import simulate_games

        simulate_games(1, setup="default")
