"""Keyed chance of Meerkat Kingdom's kernel (private; :mod:`.rules` re-exports every name): a counter-based hash
of (key, turn, purpose, draw index) for keyed games, tapes read by position for hand-built positions; the dice,
random numbers and random tiles every rule draws.
"""

from __future__ import annotations

import numpy as np

from ..engine._jit import njit
from ._rules_layout import (
    G_CP,
    G_CPURP,
    G_DP,
    G_KEY0,
    G_KEY1,
    G_PURP,
    G_TKEY,
    G_WRAP,
    GC0,
    INTERNAL,
    KEY_WIDTH,
    NPURP,
    P_CHOICE,
    P_ROLL,
)

# ----------------------------------------------------------------------------------------- chance
# A game's chance source ``g[1]`` is either a key (uint32 array (2, KEY_WIDTH): the game's seed in row 0) or
# tapes (uint32 (2, L), L > KEY_WIDTH: dice tape, choice tape).  Keyed games (every simulated game) draw every
# number from a counter-based hash of (key, turn, purpose, draw index): turn t's three dice, its rerolls (die i's
# reroll always the same number), its wandering-male and hazard rolls, the automa's dice and the random choices
# are separate streams, so a game that takes another decision at turn t meets the very same dice at every later
# turn (the paired comparisons of :mod:`pyradice_lab.design.compare` rest on it).  Tapes are read by position:
# hand-built positions (:func:`.sim.fresh_state`) and the search player's determinizations (:mod:`.search`).
M32 = 0xFFFFFFFF


@njit(**INTERNAL)
def mul32(a: int, c: int) -> int:
    """``a * c`` mod 2**32 for ``a``, ``c`` in 0..2**32-1 without an intermediate above 2**48 (the compiled
    kernel's int64 and the pure-Python twin's ints give the same numbers)."""
    return ((((a >> 16) * c) & 0xFFFF) * 65536 + (a & 0xFFFF) * c) & M32


@njit(**INTERNAL)
def mix32(x: int) -> int:
    """A bijective 32-bit integer hash (Wellons' "lowbias32": xor-shift, multiply, xor-shift, multiply,
    xor-shift); ``x`` is taken mod 2**32."""
    x = int(x) & M32
    x ^= x >> 16
    x = mul32(x, 0x7FEB352D)
    x ^= x >> 15
    x = mul32(x, 0x846CA68B)
    x ^= x >> 16
    return x


@njit(**INTERNAL)
def keyed(g) -> bool:
    """Whether the game draws from its key (every simulated game) rather than from tapes read by position."""
    return g[1].shape[1] == KEY_WIDTH


@njit(**INTERNAL)
def start_streams(g, turn: int) -> None:
    """Open the streams of turn ``turn`` (:data:`SETUP_TURN` for the setup): every purpose's draw counter back
    to 0, dice from the placement-roll stream, choices from the choice stream.  No effect on tapes."""
    G = g[0][21]
    if not keyed(g):
        return
    G[G_TKEY] = mix32(mix32(mix32(G[G_KEY0]) ^ G[G_KEY1]) ^ (int(turn) & M32))
    for p in range(NPURP):
        G[GC0 + p] = 0
    G[G_PURP] = P_ROLL
    G[G_CPURP] = P_CHOICE


@njit(**INTERNAL)
def use_dice(g, purpose: int) -> None:
    """The next dice of this turn come from the stream of ``purpose`` (``P_ROLL``, ``P_MALE`` ...)."""
    g[0][21, G_PURP] = purpose


@njit(**INTERNAL)
def seek_dice(g, purpose: int, i: int) -> None:
    """The next die is draw ``i`` of this turn's stream of ``purpose`` (rerolls: die i's reroll is draw i)."""
    G = g[0][21]
    G[G_PURP] = purpose
    G[GC0 + purpose] = i


@njit(**INTERNAL)
def stream_word(g, purpose: int) -> int:
    """The next 32-bit number of this turn's stream of ``purpose`` (keyed games)."""
    G = g[0][21]
    i = G[GC0 + purpose]
    G[GC0 + purpose] = i + 1
    h = mix32(G[G_TKEY] + mul32(purpose + 1, 0x9E3779B9))
    return mix32(mix32(h ^ i) + 0x6A09E667)


@njit(**INTERNAL)
def roll_die(g) -> int:
    """Next die (1..6): keyed games from the current dice stream (:func:`use_dice`), else from the dice tape
    (wraps round, flagging ``G_WRAP``, if ever exhausted)."""
    G = g[0][21]
    if keyed(g):
        return 1 + (stream_word(g, G[G_PURP]) * 6 >> 32)
    dt = g[1][0]
    i = G[G_DP]
    G[G_DP] = i + 1
    if i + 1 >= dt.shape[0]:
        G[G_WRAP] = 1
    return np.int64(dt[i % dt.shape[0]])


@njit(**INTERNAL)
def rand_below(g, n: int) -> int:
    """A uniform choice in 0..n-1 (each value's probability within n / 2**32 of 1 / n): keyed games from the
    current choice stream (``G_CPURP``: the turn's random choices; the setup's shuffles have their own; a 32-bit
    word times n, shifted down 32 bits), else the choice tape (uint32 modulo n)."""
    G = g[0][21]
    if keyed(g):
        return int(stream_word(g, G[G_CPURP]) * n >> 32)
    ct = g[1][1]
    i = G[G_CP]
    G[G_CP] = i + 1
    if i + 1 >= ct.shape[0]:
        G[G_WRAP] = 1
    return int(np.int64(ct[i % ct.shape[0]]) % n)


@njit(**INTERNAL)
def roll_tile(g, avoid: int) -> int:
    """Two dice summed to a tile 3..12.  Interpretation: a total of 2 (no tile 2) and ``avoid`` are rerolled."""
    while True:
        t = roll_die(g) + roll_die(g)
        if t >= 3 and t != avoid:
            return t
