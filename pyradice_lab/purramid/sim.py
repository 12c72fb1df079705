"""Fast whole-game simulation: the compiled rules of :mod:`.kernel` over many games at once.

Each game gets its own dice stream (``SeedSequence.spawn`` children of ``rng``, drawn in blocks of
:data:`~.rules.BLOCK` dice exactly like :class:`~.rules.DiceStream`), so a game's result depends only on
the seed and its index -- never on chunking -- and :func:`~.rules.play_game` replays game ``i`` from
``pyradice_lab.rng.spawn(seed, n)[i]``.  Games are processed in chunks; a game whose dice buffer runs
low at a turn boundary is suspended, its buffer topped up, and resumed.

Examples
--------
>>> df = simulate_games(20, players=4, rng=1)
>>> len(df), set(df["end"]) <= {"board_full", "second_player_out", "gold_placed", "turn_limit"}
(20, True)
"""

from __future__ import annotations

import numbers

import numpy as np
import pandas as pd

from ..limits import check_result_size
from ..rng import spawn_blocks
from . import kernel as K
from .components import load_game_config, load_layout
from .policies import seat_policies
from .rules import BLOCK, check_players

__all__ = ["simulate_games", "check_players", "games_bench_run", "CHUNK", "ROW_BYTES"]

CHUNK = 2048
#: Memory of one row of the result (measured, rounded up): the limit on ``n_games`` follows from it
#: (:mod:`pyradice_lab.limits`).
ROW_BYTES = 400

def _check_n(n, name: str) -> int:
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 1:
        raise ValueError(f"{name} must be a positive integer, got {n!r}")
    return int(n)


def _run_chunk(seqs, players, L, cfg, pols, arrays, risk):
    brd, full, n = arrays
    rcm, rw, rrows = risk
    m = len(seqs)
    gens = [np.random.default_rng(s) for s in seqs]
    buf = np.zeros((m, 2 * BLOCK), dtype=np.int8)
    for i, gen in enumerate(gens):
        buf[i, :BLOCK] = gen.integers(1, 7, size=BLOCK, dtype=np.int8)
    used = np.zeros(m, dtype=np.int64)
    covered0 = L.bottom_rows_mask(cfg.two_player_covered_rows) if players == 2 else 0
    st = np.zeros((m, K.N_STATE), dtype=np.int64)
    st[:, K.S_COV] = covered0
    st[:, K.S_TOKENS] = L.eights_mask() & ~covered0
    st[:, K.S_GOLD_SUPPLY] = cfg.gold_tiles
    st[:, K.S_WINNER] = -1
    st[:, K.S_TILES_BOARD] = L.tiles_of(covered0)
    st[:, K.S_BLEN] = BLOCK
    hands = np.tile(np.array(cfg.deal_for(players), dtype=np.int64), (m, 1))
    yarn = np.zeros((m, players), dtype=np.int64)
    kinds = np.array([p.kind for p in pols], dtype=np.int64)
    params = np.array([p.param for p in pols], dtype=np.float64)
    while K.run_games(players, cfg.dice, cfg.turn_limit, kinds, params, brd, full, n, rcm, rw, rrows, buf, st,
                      hands, yarn):
        for i in np.flatnonzero(st[:, K.S_END] == K.END_NONE):
            pos, blen = st[i, K.S_POS], st[i, K.S_BLEN]
            tail = buf[i, pos:blen].copy()
            used[i] += pos
            buf[i, :len(tail)] = tail
            buf[i, len(tail):len(tail) + BLOCK] = gens[i].integers(1, 7, size=BLOCK, dtype=np.int8)
            st[i, K.S_BLEN] = len(tail) + BLOCK
            st[i, K.S_POS] = 0
    used += st[:, K.S_POS]
    winner = st[:, K.S_WINNER]
    gold_placed = st[:, K.S_GOLD_PLACED]
    out = {"players": players, "layout": L.name, "policies": ",".join(p.name for p in pols),
           "turns": st[:, K.S_TURNS], "winner": winner, "winner_gold": gold_placed}
    for p in range(players):
        out[f"score_{p}"] = np.where(winner == p, gold_placed, -hands[:, p])
    out.update({"bursts": st[:, K.S_BURSTS], "bonus_turns": st[:, K.S_BONUS], "yarn_won": st[:, K.S_YWON],
                "yarn_spent": st[:, K.S_YSPENT], "end": np.array(K.END_NAMES, dtype=object)[st[:, K.S_END]],
                "tiles_on_board": st[:, K.S_TILES_BOARD], "tiles_in_hands": hands.sum(axis=1),
                "gold_in_hand": st[:, K.S_GOLD_HAND], "gold_supply": st[:, K.S_GOLD_SUPPLY], "dice_rolled": used})
    return pd.DataFrame(out)


def simulate_games(n_games: int, players: int = 4, layout="A", policies=None, rng=None, *,
                   progress: bool = False) -> pd.DataFrame:
    """Simulate ``n_games`` complete games with the compiled rules; one row per game.

    Parameters
    ----------
    n_games : int
        Number of games (>= 1).
    players : {2, 3, 4}
    layout : "A", "B", path or Layout
    policies : None, one policy for every seat, or a list with one per seat
        Human-style policies: ``"greedy"`` (default), ``"stop_after:K"``, ``"risk:P"`` or Policy objects.
    rng : seed, SeedSequence or Generator
        Game ``i`` uses child ``i`` of ``SeedSequence.spawn``.
    progress : bool
        tqdm bar over chunks of games (stderr).

    Returns
    -------
    DataFrame
        ``game``, ``players``, ``layout``, ``policies``, ``turns`` (normal turns), ``winner`` (seat, -1 if
        none), ``winner_gold`` (gold tiles the winner placed = the winner's score), ``score_0`` ..
        ``score_{players-1}``, ``bursts``, ``bonus_turns``, ``yarn_won``, ``yarn_spent``, ``end``
        (board_full / second_player_out / gold_placed / turn_limit), final tile counts
        (``tiles_on_board``, ``tiles_in_hands``, ``gold_in_hand``, ``gold_supply``; they sum to 84) and
        ``dice_rolled``.
    """
    from tqdm.auto import tqdm

    from .policies import _arrays, _risk

    n_games = check_result_size(_check_n(n_games, "n_games"), ROW_BYTES, name="n_games")
    players = check_players(players)
    L = load_layout(layout)
    cfg = load_game_config()
    pols = seat_policies(policies, players)
    arrays = _arrays(L)
    risk = _risk()
    blocks = spawn_blocks(rng, n_games, CHUNK)  # seeds spawned per chunk: same children as one spawn(n_games)
    frames = [_run_chunk(seqs, players, L, cfg, pols, arrays, risk)
              for seqs in tqdm(blocks, total=-(-n_games // CHUNK), desc="purramid games", disable=not progress,
                               leave=False)]
    df = pd.concat(frames, ignore_index=True)
    df.insert(0, "game", np.arange(n_games))
    return df


def games_bench_run(n_games: int = 50, players: int = 4, seed: int = 0) -> int:
    """Bench helper: simulate ``n_games`` greedy games; returns the number of games (the unit of work)."""
    simulate_games(n_games, players=players, rng=seed)
    return n_games
