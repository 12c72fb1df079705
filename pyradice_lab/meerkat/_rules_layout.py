"""The layout of Meerkat Kingdom's game arrays and the kernel's constants (private; :mod:`.rules` re-exports every
name): the columns of the seat, tile and game rows, the streams of keyed chance, token kinds, the ``K`` row of
component constants, action codes, trace events, the compile options of internal kernel functions and the trace
switch.
"""

from __future__ import annotations

# ----------------------------------------------------------------------------------------- layout of arrays
SUP, QUEEN, RES, PUP, BOX, BONUS, OUT, AUTO, POL, BUR = 0, 1, 2, 3, 4, 5, 6, 7, 8, 9
TILEPTS, PUPPTS, MOVED, TOTAL, WONMASK, HAZLOST, MALEACT, NSF = 14, 15, 16, 17, 18, 19, 20, 21
TOK, LOCK, USED, PIC, PAID, PRESENT, NTF = 0, 1, 2, 3, 4, 5, 6
(G_NS, G_MALE, G_DP, G_CP, G_TURN, G_BLUE, G_NBLUE, G_BROWN, G_NBROWN, G_TOKENS, G_NTOK, G_HAWK, G_FIRE,
 G_JACKAL, G_WRAP, G_CAP, G_LOG, G_TRACE, G_FIRST, G_END, G_OUTCNT, G_REVDIFF, G_JACKDIFF, G_POS, G_FINAL,
 G_KEY0, G_KEY1, G_TKEY, G_PURP, G_CPURP, NG) = range(31)
# keyed chance (see _rules_chance.py): the draws made so far in this turn's stream of purpose p are G[GC0 + p]
GC0 = 32
(P_ROLL, P_REROLL, P_MALE, P_HAZARD, P_AUTOMA, P_CHOICE, P_LAYOUT, P_BLUE, P_BROWN, P_AQUEEN, P_START,
 NPURP) = range(12)
#: The turn coordinate of the setup's streams (turns are numbered 0, 1, ... from the first turn).
SETUP_TURN = 0xFFFFF
#: A game whose chance source ``g[1]`` is this wide holds a key (the game's seed), not tapes.
KEY_WIDTH = 2
# token kinds
NONE, B_MOVE, B_RECALL, B_GUARD, B_SWAP = 0, 1, 2, 3, 4
T_MOVE, T_SWAP, T_TWO, T_PLUS3, T_REVERSE = 5, 6, 7, 8, 9
H_HAWK, H_FIRE, H_JACKAL = 10, 11, 12
TOKEN_NAMES = ("none", "blue move", "blue recall", "blue guardian", "blue swap", "tan move", "tan swap",
               "tan two-guardians", "tan +3", "reverse scoring", "hawk", "fire", "jackal")
# K constants: count by face at K[face], queen face flag at K[6 + face], automa faces at K[13..18]
# (0 = L, 1 = M, 2 = H), pair action by pair value at K[18 + v], bonus values at K[25..27], limits, and the
# readings of ambiguous rules (K_REVREAD: 0 literal / 1 extended reverse scoring; K_JACKREAD: 0 literal / 1
# next-tile jackal; see READINGS).
K_QF, K_AF, K_PA, K_BV, K_MAXG, K_MAXP, K_MEERKATS, K_REVREAD, K_JACKREAD, NK = 6, 13, 18, 25, 29, 30, 31, 32, 33, 34
# burrow action spaces
BA_MOVE, BA_QUEEN, BA_SWAP, BA_OASIS, BA_MALE = 0, 1, 2, 3, 4
# automa pair actions
PA_REROLL, PA_MOVE_HIGH, PA_SWAP_LOW, PA_SWAP_HIGH, PA_QUEEN_LOW, PA_QUEEN_HIGH = 0, 1, 2, 3, 4, 5
# trace events: log row = (turn, seat, event, a, b, c, d, e)
(EV_ROLL, EV_REROLL, EV_PLACE, EV_QUEEN, EV_GUARD, EV_MALE, EV_DRIVE, EV_PUP, EV_OASIS, EV_MOVE, EV_SWAP,
 EV_RECALL, EV_TOKMOVE, EV_DRAW, EV_HAZARD, EV_LOSE, EV_OUT, EV_FORFEIT, EV_BURROW, EV_AUTOMA, EV_APAIR,
 EV_QMOVE, EV_PASS, EV_SCORE, EV_GMOVE, EV_FINAL, EV_START, EV_LAYOUT, EV_UNLOCK, EV_AREROLL) = range(30)
# internal kernel functions are only called from compiled code: no CPython/cfunc wrappers (saves about a
# third of the cold compile time); the pure-Python twins (:mod:`.sim`) call their ``py_func`` instead.
INTERNAL_NRT = {"cache": True, "no_cpython_wrapper": True, "no_cfunc_wrapper": True, "error_model": "numpy", "_nrt": True}
INTERNAL = {**INTERNAL_NRT, "_nrt": False}
# Trace events are only recorded by the pure-Python twins (sim.python_twins sets TRACE = True in their namespaces);
# in compiled code ``if TRACE:`` is a constant False, so numba prunes every trace call (shorter compile).
TRACE = False
LOG_COLS = 8
MAX_TURNS = 600
# rows of the game's one int64 work array W (width 64): C 0..3, S 4..7, T 8..20, G 21, bags 22..24,
# V 25..37, A 38..50, D 51..63, K 64, then trace log rows (8 events of 8 numbers per row).
W_WIDTH, LOG0 = 64, 65
