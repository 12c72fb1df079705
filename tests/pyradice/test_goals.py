"""Goal tokens: every token of the catalogue can be met on every level it may be placed on; dead tokens are
reported.

The rules let any goal token go in any goal recess (levels 1..5: 6, 5, 4, 3, 2 dice).  A level may show any
values but at most as many dice of a colour as the box holds.  ``goal_witness`` enumerates every value (and colour)
sequence, so "no witness" is exact; each witness found is scored by both engines on a whole pyramid.
"""

import itertools

import numpy as np
import pytest

from pyradice_lab.pyradice import PYRAMID, Setup, kernel as K
from pyradice_lab.pyradice.analysis import goal_rates
from pyradice_lab.pyradice.components import GOAL_LEVELS, GoalToken, default_components
from pyradice_lab.pyradice.goals import goal_attainable, goal_met, goal_witness
from pyradice_lab.pyradice.quarry import colour_pool
from pyradice_lab.pyradice.scoring import Table, score_pyramid
from pyradice_lab.pyradice.sim import kernel_tables

COMPS = default_components()


def box_caps(players: int) -> tuple[int, ...]:
    """Dice of each colour in the box (the quarry is drawn from it), from the sampler's own pool."""
    names, pool = colour_pool(players)
    return tuple(int(x) for x in np.bincount(pool, minlength=len(names)))


def setup_with(code: str, level: int, components=COMPS) -> Setup:
    """A setup holding goal ``code`` on ``level`` and tokens of other numbers elsewhere."""
    others = iter(c for c in sorted(components.goals) if c[0] == "C" and c[1] != code[1])
    goals = tuple(code if lvl == level else next(others) for lvl in GOAL_LEVELS)
    return Setup(goals=goals, components=components)


def pyramid_with(level: int, values, colours) -> tuple[list[int], list[int]]:
    v, c = [1] * 21, [0] * 21
    for s, x, y in zip(PYRAMID.spaces_of(level), values, colours):
        v[s], c[s] = x, y
    return v, c


@pytest.mark.parametrize("level", GOAL_LEVELS)
@pytest.mark.parametrize("code", sorted(COMPS.goals))
def test_every_goal_token_can_be_met_on_every_goal_level(code, level):
    token = COMPS.goals[code]
    caps = box_caps(2)                                   # the 2-player box is the smaller one
    witness = goal_witness(token, 7 - level, caps)
    assert witness is not None, f"{code} {token.name} can never be met on level {level}"
    values, colours = witness
    assert len(values) == 7 - level and all(1 <= x <= 6 for x in values)
    assert all(colours.count(col) <= cap for col, cap in enumerate(caps))
    assert goal_met(token, values, colours)
    setup = setup_with(code, level)                      # both engines score the witness on a whole pyramid
    v, c = pyramid_with(level, values, colours)
    assert score_pyramid(v, c, Table.build(setup, (0, 1, 2, 3))).goals_met[level - 1]
    assert K.score_pyramid_arrays(v, c, kernel_tables(setup)["tab"], (0, 1, 2, 3))[2][level - 1]
    assert setup.dead_goals() == () and setup.dead_goals(players=3) == ()


RAINBOW = GoalToken("D6", "all_colours_different", "Rainbow", "No two dice of the level share a colour.",
                    "reconstruction", 0.75)
MONO = COMPS.goals["C7"]


def brute_force_attainable(token, n, caps) -> bool:
    """Every (values, colours) pair within the caps, without the kind's shortcut."""
    for cols in itertools.product(range(len(caps)), repeat=n):
        if any(cols.count(col) > cap for col, cap in enumerate(caps)):
            continue
        if any(goal_met(token, v, cols) for v in itertools.product(range(1, 7), repeat=n)):
            return True
    return False


@pytest.mark.parametrize("token, n, caps", [
    (RAINBOW, 3, (1, 1, 1)), (RAINBOW, 3, (2, 1, 0)), (RAINBOW, 2, (2, 0, 0)), (MONO, 3, (2, 2, 2)),
    (MONO, 3, (3, 0, 1)), (COMPS.goals["C6"], 3, (1, 1, 1)), (COMPS.goals["D3"], 2, (1, 1)),
    (COMPS.goals["D6"], 3, (3, 0)), (COMPS.goals["D6"], 3, (1, 2)), (COMPS.goals["D6"], 3, (2, 1)),
])
def test_witness_search_agrees_with_brute_force(token, n, caps):
    assert goal_attainable(token, n, caps) == brute_force_attainable(token, n, caps)


def test_dead_tokens_are_found_exactly():
    caps = box_caps(2)
    assert goal_witness(RAINBOW, 6, caps) is None                     # 6 dice, 5 colours
    assert goal_witness(RAINBOW, 5, caps) == ((1,) * 5, (0, 1, 2, 3, 4))
    assert goal_witness(MONO, 6, (5,) * 5) is None                    # no colour has 6 dice
    assert goal_witness(MONO, 6, (5, 5, 6)) == ((1,) * 6, (2,) * 6)
    with pytest.raises(ValueError, match="n_dice"):
        goal_witness(MONO, 7, caps)
    with pytest.raises(ValueError, match="colour_caps"):
        goal_witness(MONO, 3, (-1, 2))


def test_a_designers_dead_token_is_reported_at_setup_and_in_the_goal_rates():
    comps = COMPS.replace({"goal.D6": {"code": "D6", "kind": RAINBOW.kind, "name": RAINBOW.name,
                                       "description": RAINBOW.description, "source": RAINBOW.source,
                                       "fit": RAINBOW.fit}})
    dead = setup_with("D6", 1, comps)
    assert dead.dead_goals() == ((1, "D6"),)
    assert dead.dead_goals(players=4) == ((1, "D6"),)                 # two boxes: still 5 colours
    assert "L1 D6 Rainbow [can never be met here]" in dead.describe()
    assert setup_with("D6", 2, comps).dead_goals() == ()
    df = goal_rates(4, 2, ("greedy",), rng=1, setup=dead)
    lv = df[df.level > 0].set_index("level")
    assert lv.attainable.tolist() == [False, True, True, True, True]
    assert lv.loc[1, "p_met"] == 0.0


def test_random_setups_deal_only_attainable_tokens():
    for seed in range(40):
        s = Setup.random(rng=seed)
        assert s.dead_goals() == (), s.describe()
