"""The compiled games are frozen: the same seeds give the same games, bit for bit, as before the kernels were
reworked for compile time (issue 16: literal-free counters, no reference counting, packed arguments).

The digests below were computed with the kernels of ``main`` at 2804616 (before that work); any change of the
kernels that changes a single move, placement, skill option or score of these games fails here.  If the rules or
the policies change on purpose, recompute them (``python tests/pyradice/test_kernel_frozen.py``) and say why in the
commit.
"""

import hashlib

import numpy as np
import pytest

from pyradice_lab.pyradice import simulate_games

#: (games, players, policies, seed, sha256[:16] of every raw array of ``return_arrays=True``).
FROZEN = [
    (40, 2, ["greedy", "lookahead"], 11, "e4400513c86ea290"),
    (30, 2, ["random_legal", "greedy/no_goals"], 12, "810208f3d50a62aa"),
    (20, 3, ["lookahead/no_cards", "random_legal", "greedy/no_skill_A3"], 13, "216b36104f93ade0"),
    (15, 4, "greedy", 14, "5bda09ca9ced6fe3"),
    (2, 2, ["flat_mc:4:greedy:full", "greedy"], 15, "a0f4ebf896b4eb87"),  # issue 12's search player: rollouts
    (2, 2, ["flat_mc:4", "greedy"], 15, "fcf356c639dc63c5"),        # the search player (issue 27): truncated rollouts
]


def digest(n_games, players, policies, seed) -> str:
    _, arrays = simulate_games(n_games, players, None, policies, rng=seed, engine="fast", return_arrays=True)
    h = hashlib.sha256()
    for key in sorted(arrays):
        h.update(key.encode())
        h.update(np.ascontiguousarray(arrays[key], dtype=np.int64).tobytes())
    return h.hexdigest()[:16]


@pytest.mark.parametrize("n_games, players, policies, seed, expected", FROZEN)
def test_compiled_games_are_bit_identical_to_the_frozen_ones(n_games, players, policies, seed, expected):
    assert digest(n_games, players, policies, seed) == expected


if __name__ == "__main__":
    for case in FROZEN:
        print(case[:4], digest(*case[:4]))
