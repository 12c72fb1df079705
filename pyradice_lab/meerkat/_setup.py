"""A game's setup in the form the compiled kernel reads (private; :mod:`.sim` re-exports every name): the static
arrays of a components set (:class:`Setup`), the seats and their policies, the readings of ambiguous rules
(:data:`READINGS`), the seats' names and labels (:func:`seat_names`, :func:`setup_label`) and the chance keys of
a batch of games.
"""

from __future__ import annotations

import numbers
from functools import cache

import numpy as np

from .components import AUTOMA_ACTIONS, Components, default_components
from .policies import policy_name, policy_row

_BLUE = {"move": 1, "recall": 2, "guardian": 3, "swap": 4}
#: Readings of ambiguous rules: keyword -> (the literal reading = the default, the other documented option).
#: ``reverse_reading``: with the reverse scoring token, "literal" = the fewest (not zero) takes the highest value
#: and the second fewest the lowest value (the text); "extended" = the k-th fewest takes the k-th value (on
#: tiles 9..12 the second fewest takes the middle value and the third fewest the lowest).
#: ``jackal_reading``: "literal" = each player loses a meerkat from the highest-numbered affected tile where they
#: have one, and nothing if their queen protects it (the text); "next_tile" = from the highest-numbered affected
#: tile with an unprotected meerkat.
READINGS = {"reverse_reading": ("literal", "extended"), "jackal_reading": ("literal", "next_tile")}
_TAN = {"move": 5, "swap": 6, "two_guardians": 7, "plus3": 8, "reverse": 9, "hawk": 10, "fire": 11, "jackal": 12}


class Setup:
    """Static arrays of a components set, in the form the compiled kernel reads."""

    def __init__(self, comp: Components):
        from .rules import K_AF, K_BV, K_MAXG, K_MAXP, K_MEERKATS, K_PA, K_QF, NK

        self.comp = comp
        V = np.zeros((13, 4), np.int64)
        for t in comp.tiles:
            V[t.number, 0] = len(t.values)
            V[t.number, 1:1 + len(t.values)] = t.values
        K = np.zeros(NK, np.int64)
        for face in range(1, 7):
            K[face] = comp.count_by_face[face - 1]
            K[K_QF + face] = 1 if face in comp.queen_faces else 0
            K[K_AF + face - 1] = "LMH".index(comp.automa_faces[face - 1])
            K[K_PA + face] = AUTOMA_ACTIONS.index(comp.pair_actions[face - 1])
        K[K_BV:K_BV + 3] = comp.bonus_values[:3]
        K[K_MAXG], K[K_MAXP], K[K_MEERKATS] = comp.max_guardians, comp.max_pups, comp.meerkats
        blue = [_BLUE[e] for e, c in comp.blue for _ in range(c)]
        brown = [(_TAN[f], _TAN[b]) for f, b, c in comp.brown for _ in range(c)]
        bags = np.zeros((3, 64), np.int64)
        bags[0, :len(blue)] = blue
        for i, (f, b) in enumerate(brown):
            bags[1, i], bags[2, i] = f, b
        self.V, self.K, self.bags = V, K, bags
        self.nblue, self.nbrown = len(blue), len(brown)
        self.pos_adj = comp.position_adjacency().astype(np.int64)
        self.oasis = np.array(comp.oasis_tiles, np.int64)


@cache
def _default_setup() -> Setup:
    return Setup(default_components())


def _components_setup(components) -> Setup:
    """The kernel arrays of ``components`` (None, a path or loaded components; validated first)."""
    from .components import coerce_components

    comp = coerce_components(components)
    return _default_setup() if comp is default_components() else Setup(comp)


def _check_int(v, name: str, low: int, high: int | None = None) -> int:
    if isinstance(v, bool) or not isinstance(v, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {type(v).__name__}")
    if v < low or (high is not None and v > high):
        raise ValueError(f"{name} must be in {low}..{'' if high is None else high}, got {v}")
    return int(v)


def _seat_config(players, automa, policies):
    players = _check_int(players, "players", 1, 4)
    if automa is None:  # the rules' setup: a 2-player game is 2 players + the automa (solo: the only way to play)
        automa = players <= 2
    if not isinstance(automa, (bool, np.bool_)):
        raise TypeError(f"automa must be True, False or None (the rules' setup), got {automa!r}")
    n = players + (1 if automa else 0)
    if n < 2 or n > 4:
        raise ValueError(f"players must be 2..4, or 1..3 with automa=True (2..4 seats in all), got players={players}"
                         f" automa={bool(automa)}")
    if policies is None:
        policies = ["greedy"] * players
    elif isinstance(policies, (str, dict)) or (isinstance(policies, tuple) and len(policies) == 2
                                                and policies[0] in ("heuristic", "expectimax", "mcts")):
        policies = [policies] * players
    policies = list(policies)
    if len(policies) != players:
        raise ValueError(f"policies must give one policy per player ({players}), got {len(policies)}")
    rows = [policy_row(p) for p in policies]
    pols = np.zeros(4, np.int64)
    prm = np.zeros((4, len(rows[0][1])))
    for s, (pid, row) in enumerate(rows):
        pols[s], prm[s] = pid, row
    if automa:
        pols[players] = -1
    names = [policy_name(p) for p in policies] + (["automa"] if automa else [])
    return n, pols, prm, names


def _readings_k(K, reverse_reading, jackal_reading):
    """A copy of the constants row ``K`` with the readings of ambiguous rules set (validated)."""
    from .rules import K_JACKREAD, K_REVREAD

    K = K.copy()
    for name, value, k in (("reverse_reading", reverse_reading, K_REVREAD),
                           ("jackal_reading", jackal_reading, K_JACKREAD)):
        if not isinstance(value, str) or value not in READINGS[name]:
            raise ValueError(f"{name} must be one of {READINGS[name]} (the first is the rules text), got {value!r}")
        K[k] = READINGS[name].index(value)
    return K


def seat_names(players: int, automa: bool) -> list[str]:
    """The seats' names in transcripts: ``p1``, ``p2``, ... (numbered from 1, as everything a person reads) and
    ``automa``; the seat with index ``s`` is ``p{s + 1}``."""
    return [f"p{s + 1}" for s in range(players)] + (["automa"] if automa else [])


def setup_label(players: int, automa: bool | None = None) -> str:
    """How a setup is named in tables and reports: ``"2p + automa"``, ``"3p"`` ...; setups the rules do not
    describe (2 players without the automa, 1 player + automa) say "extension (not in the rules)".

    Parameters
    ----------
    players : int
        Human seats, 1..4.
    automa : bool or None
        Whether the automa plays; ``None``: the rules' setup (with the automa for 1-2 players).

    Returns
    -------
    str
        The setup's label.

    Raises
    ------
    ValueError
        If ``players`` is not an integer in 1..4.
    TypeError
        If ``automa`` is not True, False (or 0/1) or None.

    Examples
    --------
    >>> setup_label(2), setup_label(2, False)
    ('2p + automa', '2p, no automa: extension (not in the rules)')
    """
    players = _check_int(players, "players", 1, 4)
    if automa is not None and not (isinstance(automa, (bool, np.bool_))
                                   or (isinstance(automa, numbers.Integral) and automa in (0, 1))):
        raise TypeError(f"automa must be True, False or None (the rules' setup), got {automa!r}")
    automa = players <= 2 if automa is None else bool(automa)
    if players == 1:
        return "1p + automa (solo): extension (not in the rules)"
    if players == 2 and not automa:
        return "2p, no automa: extension (not in the rules)"
    return f"{players}p" + (" + automa" if automa else "")


def _tapes(gen, m):
    """The chance sources of ``m`` games: a 64-bit key each, uint32 array (m, 2, KEY_WIDTH) with the key in row 0.

    Every die and random choice of game ``i`` is a hash of its key and the draw's (turn, purpose, index)
    (:mod:`.rules`, "chance"): a decision taken differently at one turn leaves every other turn's dice alone."""
    from .rules import KEY_WIDTH

    keys = np.zeros((m, 2, KEY_WIDTH), np.uint32)
    keys[:, 0, :] = gen.integers(0, 2 ** 32, size=(m, KEY_WIDTH), dtype=np.uint32)
    return keys
