"""The compiled games are frozen: the same seeds give the same games, bit for bit, as before the internal kernel
functions stopped reference counting (issue 47: ``_rules_layout.INTERNAL`` compiles without numba's reference
counting, ``INTERNAL_NRT`` keeps it for the functions that allocate; a third to a half less CPU a game).

The digests below were computed with the kernels of ``main`` at d8b9fdd (before that change); any change of the
kernels that changes a single placement, token, score or search decision of these games fails here.  If the rules
or the policies change on purpose, recompute them (``python tests/meerkat/test_kernel_frozen.py``) and say why in
the commit.
"""

import hashlib

import numpy as np
import pandas as pd
import pytest

from pyradice_lab.meerkat.sim import simulate_games

#: (games, players, automa, policies, seed, sha256[:16] of the games' table).
FROZEN = [
    (2, 4, False, "mcts_v2:8", 11, "0615cf1e358ce0db"),           # the report player (fewer rollouts), 4 players
    (3, 2, True, "mcts_v2:8", 12, "e6e0481db8ac9e9f"),            # the rules' 2-player game with the automa
    (20, 3, False, "expectimax", 13, "90f9f95b4effca6c"),         # the search player of balance
    (40, 4, False, "heuristic", 14, "dc6e73364117f293"),
    (40, 2, True, "greedy", 15, "6b5b2535a59d488c"),
    (2, 3, False, "mcts:8/no_reroll", 16, "a9f6ad68f33629fb"),    # a restricted search player
    (20, 3, False, "heuristic/no_tile:7", 17, "84d48bfcc579628b"),  # restricted play's tile restriction
]


def digest(n_games, players, automa, policies, seed) -> str:
    df = simulate_games(n_games, players, rng=seed, policies=policies, automa=automa, engine="numba")
    h = hashlib.sha256()
    h.update(",".join(map(str, df.columns)).encode())
    h.update(pd.util.hash_pandas_object(df, index=True).to_numpy(np.uint64).tobytes())
    return h.hexdigest()[:16]


@pytest.mark.parametrize("n_games, players, automa, policies, seed, expected", FROZEN)
def test_compiled_games_are_bit_identical_to_the_frozen_ones(n_games, players, automa, policies, seed, expected):
    assert digest(n_games, players, automa, policies, seed) == expected


if __name__ == "__main__":
    for case in FROZEN:
        print(case[:5], digest(*case[:5]))
