"""The compiled kernels against the readable spec: same options, same values, same games."""


import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from pyradice_lab.pyradice import PYRAMID, Setup, kernel as K, legal_places
from pyradice_lab.pyradice.components import GOAL_LEVELS, default_components
from pyradice_lab.pyradice.goals import GOAL_KINDS, goal_consistent
from pyradice_lab.pyradice.scoring import Table, evaluate, score_pyramid
from pyradice_lab.pyradice.sim import kernel_tables, simulate_games
from pyradice_lab.pyradice.skills import get_skill_kind, skill_options


def random_pyramid(rng):
    v = [0] * 21
    for _ in range(int(rng.integers(1, 22))):
        places = legal_places(v)
        v[places[int(rng.integers(len(places)))]] = int(rng.integers(1, 7))
    c = [int(rng.integers(5)) if x else -1 for x in v]
    return v, c


@settings(max_examples=60)
@given(seed=st.integers(0, 2**32 - 1), setup_seed=st.integers(0, 2**32 - 1), mode=st.sampled_from(["greedy", "lookahead"]))
def test_kernel_evaluation_equals_the_readable_scoring(seed, setup_seed, mode):
    rng = np.random.default_rng(seed)
    setup = Setup.random(rng=setup_seed)
    discs = tuple(int(d) for d in rng.permutation(5)[:4])
    table = Table.build(setup, discs)
    v, c = random_pyramid(rng)
    tabs = kernel_tables(setup)
    vals, cols, d = np.array(v, dtype=np.int64), np.array(c, dtype=np.int64), np.array(discs, dtype=np.int64)
    work, base, out = np.zeros(46, np.int64), np.zeros(10, np.int64), np.zeros(10, np.int64)
    got = K.evaluate(vals, cols, 1 if mode == "greedy" else 2, -1, tabs["tab"], d, K.GEO, work, base, out)
    assert got == evaluate(v, c, table, mode) == out[1:].sum()
    sc = score_pyramid(v, c, table)
    assert K.score_pyramid_arrays(v, c, tabs["tab"], discs) == (sc.total, sc.cards, sc.goals_met)
    # the search's shortcut: after changing values on one level only, recomputing that level's goal and the
    # value-reading cards from the old terms gives the full evaluation
    placed = [s for s in range(21) if v[s]]
    level = int(PYRAMID.level_of[placed[int(rng.integers(len(placed)))]])
    v2 = list(v)
    for s in PYRAMID.spaces_of(level):
        if v2[s]:
            v2[s] = int(rng.integers(1, 7))
    part = K.evaluate(np.array(v2, np.int64), cols, 1 if mode == "greedy" else 2, level, tabs["tab"], d, K.GEO,
                      work, out, np.zeros(10, np.int64))
    assert part == evaluate(v2, c, table, mode)


@settings(max_examples=60)
@given(seed=st.integers(0, 2**32 - 1), code=st.sampled_from(sorted(default_components().skills)))
def test_kernel_skill_options_equal_the_registry(seed, code):
    rng = np.random.default_rng(seed)
    v, c = random_pyramid(rng)
    placed = int(rng.choice([s for s in range(21) if v[s]]))
    token = default_components().skills[code]
    expected = skill_options(token, v, c, placed)
    tab = K.pack_setup({token.level: (get_skill_kind(token.kind).kid, token.params)}, {}, [(0, {"table": (0,)})] * 4,
                       5)
    opt = np.zeros((K.K_OPTIONS, 19), dtype=np.int64)
    n = K.skill_options(token.level, np.array(v, np.int64), np.array(c, np.int64), placed, tab, K.GEO, opt)
    got = [tuple((int(opt[o, 1 + 3 * a]), int(opt[o, 2 + 3 * a]), int(opt[o, 3 + 3 * a])) for a in range(opt[o, 0]))
           for o in range(n)]
    assert got == expected


CASES = [
    (2, "random_legal", None),
    (2, "greedy", None),
    (2, "lookahead", None),
    (3, ["greedy", "random_legal", "lookahead"], 5),
    (4, "random_legal", 6),
    (2, ["lookahead", "greedy"], 7),
    (2, "greedy", 8),
    (2, "lookahead", 9),
]


@pytest.mark.parametrize("players, policies, setup_seed", CASES)
def test_fast_and_readable_engines_play_identical_games(players, policies, setup_seed):
    setup = None if setup_seed is None else Setup.random(rng=setup_seed)
    fast_df, fast = simulate_games(2, players, setup, policies, rng=100 + players, engine="fast", return_arrays=True)
    slow_df, slow = simulate_games(2, players, setup, policies, rng=100 + players, engine="python",
                                   return_arrays=True)
    for key in fast:
        assert np.array_equal(fast[key], slow[key]), key
    assert fast_df.equals(slow_df)


def test_every_built_in_kind_is_exercised_by_the_engine_cases():
    kinds = set()
    comps = default_components()
    for _, _, seed in CASES:
        s = Setup.default() if seed is None else Setup.random(rng=seed)
        kinds |= {comps.skills[c].kind for c in s.skills} | {comps.goals[c].kind for c in s.goals}
        kinds |= {comps.cards[c].kind for c in s.cards}
    assert len(kinds) >= 18, sorted(kinds)


@settings(max_examples=80)
@given(seed=st.integers(0, 2**32 - 1),
       kind=st.sampled_from(sorted(k for k, v in GOAL_KINDS.items() if v.kid is not None)),
       level=st.sampled_from(GOAL_LEVELS), mode=st.sampled_from(["greedy", "lookahead"]))
def test_kernel_goal_forms_equal_the_readable_goals(seed, kind, level, mode):
    """Every built-in goal kind, whether or not the default catalogue uses it, on every goal level."""
    comps = default_components()
    comps = comps.replace({"goal.C1": {"code": "C1", "kind": kind, "name": kind, "source": "reconstruction",
                                       "fit": 0.7, **({"values": [3, 5]} if kind == "values_in" else {})}})
    others = iter(["C2", "C3", "C4", "C5"])
    setup = Setup(goals=tuple("C1" if lvl == level else next(others) for lvl in GOAL_LEVELS), components=comps)
    rng = np.random.default_rng(seed)
    v, c = random_pyramid(rng)
    if rng.random() < 0.7:               # few values and colours, so that goals are often met or still open
        v = [int(rng.choice([3, 5])) if x else 0 for x in v]
        c = [int(rng.choice([0, 1])) if x else -1 for x in c]
    discs = (0, 1, 2, 3)
    table = Table.build(setup, discs)
    tab = kernel_tables(setup)["tab"]
    out = np.zeros(10, np.int64)
    got = K.evaluate(np.array(v, np.int64), np.array(c, np.int64), 1 if mode == "greedy" else 2, -1, tab,
                     np.array(discs, np.int64), K.GEO, np.zeros(46, np.int64), out, out)
    assert got == evaluate(v, c, table, mode)
    sc = score_pyramid(v, c, table)
    assert K.score_pyramid_arrays(v, c, tab, discs) == (sc.total, sc.cards, sc.goals_met)


def test_kernel_knows_a_colour_distinct_level_bigger_than_the_palette_is_lost():
    """Rainbow on level 1 (6 dice, 5 colours): even a partial level of distinct colours has no future."""
    comps = default_components()
    comps = comps.replace({"goal.C1": {"code": "C1", "kind": "all_colours_different", "name": "Rainbow",
                                       "source": "reconstruction", "fit": 0.7}})
    rainbow = comps.goals["C1"]
    for level in (1, 2):
        others = iter(["C2", "C3", "C4", "C5"])
        setup = Setup(goals=tuple("C1" if lvl == level else next(others) for lvl in GOAL_LEVELS), components=comps)
        v, c = [0] * 21, [-1] * 21
        for i, s in enumerate(list(PYRAMID.spaces_of(level))[:3]):
            v[s], c[s] = 4, i                                  # three dice, three different colours
        sp = PYRAMID.spaces_of(level)
        assert goal_consistent(rainbow, [v[s] for s in sp], [c[s] for s in sp], 5) == (level == 2)
        out = np.zeros(10, np.int64)
        got = K.evaluate(np.array(v, np.int64), np.array(c, np.int64), 2, -1, kernel_tables(setup)["tab"],
                         np.arange(4, dtype=np.int64), K.GEO, np.zeros(46, np.int64), out, out)
        assert got == evaluate(v, c, Table.build(setup, (0, 1, 2, 3)), "lookahead")
        assert (out[level] > 0) == (level == 2)                # the lookahead bonus only where 5 dice fit
