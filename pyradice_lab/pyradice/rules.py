"""The readable executable spec of a Pyradice game: deal, legal actions, transitions, end and winner.

A game is dealt once (:func:`deal`: every chance outcome of the game, drawn in one place) and then played
turn by turn: the player to move takes an available die from the quarry (:meth:`GameState.legal_takes`),
places it unchanged on level 1 or directly above two placed dice (:func:`legal_places`) and may use the skill
of the level it landed on, at once, on another die of their pyramid (:meth:`GameState.skill_options`).  The game
ends when every pyramid holds 21 dice; most VP wins, ties go to most goal tokens met, then the win is shared.

The compiled simulator (:mod:`.kernel`) plays the same rules on arrays; the test suite checks that both give
the same games from the same deal.

Examples
--------
>>> from .components import Setup
>>> d = deal(2, Setup.default(), rng=7)
>>> g = GameState.start(d, Setup.default())
>>> len(g.legal_takes()), legal_places(g.pyramids[0][0])
(4, [0, 1, 2, 3, 4, 5])
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..engine.rng import as_generator
from .components import Setup
from .geometry import PYRAMID, check_players, quarry_geometry
from .quarry import Quarry, colour_pool, draw_quarry
from .scoring import ScoreCard, Table, _score_pyramid
from .skills import Action, apply_action, skill_options

__all__ = ["Deal", "deal", "first_player", "legal_places", "GameState", "winners", "ROLL_ROUNDS", "turns_of"]

#: Rounds of first-player roll-off dealt in advance (ties re-roll among the tied; after this many tied rounds,
#: which happens with probability below 1e-9, the lowest tied seat starts).
ROLL_ROUNDS = 12


def turns_of(players: int) -> int:
    """Total turns of a game: 21 dice per player."""
    return PYRAMID.n * players


@dataclass(frozen=True, eq=False)
class Deal:
    """Every chance outcome of one game, drawn up front.

    ``values``/``colours``: the quarry (flat positions); ``discs``: colour index per objective card;
    ``rolls``: first-player roll-off, shape (ROLL_ROUNDS, players); ``uniforms``: shape (turns, 3), the random
    numbers policies may use on each turn (random choices and tie-breaks).
    """

    players: int
    values: np.ndarray
    colours: np.ndarray
    discs: np.ndarray
    rolls: np.ndarray
    uniforms: np.ndarray
    colour_names: tuple[str, ...] = field(default=())


def deal(players: int, setup: Setup, *, rng=None, colours=None) -> Deal:
    """Draw the chance outcomes of one game (quarry, discs, roll-off, policy random numbers).

    Parameters
    ----------
    players : int
        2..4.
    setup : Setup
        Tokens, cards and (optionally fixed) discs, e.g. :meth:`Setup.default`.
    rng : seed, SeedSequence or Generator, optional
        The draws' randomness (a seed fixes the deal).
    colours : dict, optional
        ``colour name -> number of dice`` in the box (default: the setup's palette, doubled for 3-4 players);
        at least 4 colours when the discs are drawn.

    Returns
    -------
    Deal
        ``players``, the quarry's ``values`` and ``colours`` (one per position), ``discs`` (colour indices of
        the 4 cards), the roll-off ``rolls``, ``uniforms`` (three per turn, for the policies) and the colour
        ``names``.

    Raises
    ------
    TypeError
        If ``setup`` is not a Setup or ``players`` is not an integer.
    ValueError
        If ``players`` is not in 2..4 or ``colours`` offers fewer than 4 disc colours.

    Examples
    --------
    >>> d = deal(3, Setup.default(), rng=1)
    >>> d.values.shape, d.uniforms.shape
    ((92,), (63, 3))
    """
    players = check_players(players)
    if not isinstance(setup, Setup):
        raise TypeError(f"setup must be a Setup (Setup.default()), got {type(setup).__name__}")
    gen = as_generator(rng)
    if colours is None:
        colours = dict(zip(setup.catalogue.palette.names,
                           [c * (1 if players == 2 else 2) for c in setup.catalogue.palette.counts]))
    names, pool = colour_pool(players, colours)
    values, cols = draw_quarry(players, gen, pool)
    if setup.discs is None:
        if len(names) < 4:
            raise ValueError(f"colours must offer at least 4 disc colours, got {len(names)}")
        discs = gen.permutation(len(names))[:4].astype(np.int64)
    else:
        discs = np.array([names.index(c) for c in setup.discs], dtype=np.int64)
    rolls = gen.integers(1, 7, size=(ROLL_ROUNDS, players)).astype(np.int64)
    uniforms = gen.random((turns_of(players), 3))
    return Deal(players, values, cols, discs, rolls, uniforms, tuple(names))


def first_player(rolls: np.ndarray) -> int:
    """The starting seat: highest roll; the tied re-roll (next row) until one is highest (rules)."""
    contenders = list(range(rolls.shape[1]))
    for row in rolls:
        best = max(int(row[s]) for s in contenders)
        contenders = [s for s in contenders if row[s] == best]
        if len(contenders) == 1:
            break
    return contenders[0]


def legal_places(values) -> list[int]:
    """Empty spaces where a die may go: level 1, or directly above two placed dice (rules).

    Parameters
    ----------
    values : sequence of int, length 21
        The pyramid spaces (level 1 first, :data:`.geometry.PYRAMID` order): 0 for empty, else the die's
        value 1..6.

    Returns
    -------
    list of int
        The legal spaces, ascending.

    Raises
    ------
    ValueError
        If ``values`` does not hold 21 integers in 0..6.
    TypeError
        If ``values`` is not a sequence.

    Examples
    --------
    >>> legal_places([0] * 21)                      # an empty pyramid: the 6 spaces of level 1
    [0, 1, 2, 3, 4, 5]
    >>> legal_places([3, 4, 0, 0, 0, 0] + [0] * 15)   # spaces 0 and 1 hold dice: space 6 above them opens
    [2, 3, 4, 5, 6]
    """
    try:
        items = list(values)
    except TypeError:
        raise TypeError(f"values must be a sequence of {PYRAMID.n} integers 0..6, got {type(values).__name__}"
                        ) from None
    if isinstance(values, (str, bytes)) or len(items) != PYRAMID.n or not all(
            isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_)) and 0 <= x <= 6 for x in items):
        raise ValueError(f"values must hold {PYRAMID.n} integers in 0..6 (0: empty space), got {values!r}")
    return _legal_places(items)


def _legal_places(values) -> list[int]:
    out = []
    for s in range(PYRAMID.n):
        if values[s]:
            continue
        a, b = PYRAMID.supports[s]
        if a < 0 or (values[a] and values[b]):
            out.append(s)
    return out


def winners(totals, goal_counts) -> list[int]:
    """Seats sharing the win: most VP, then most goal tokens met, then shared (rules)."""
    best = max(totals)
    tied = [s for s, t in enumerate(totals) if t == best]
    most = max(goal_counts[s] for s in tied)
    return [s for s in tied if goal_counts[s] == most]


@dataclass
class Move:
    seat: int
    take: int
    place: int
    option: int            # index in the canonical skill option list, -1 for no skill
    action: Action | None
    value: int
    colour: int
    n_available: int


class GameState:
    """A game in progress: the quarry, each seat's pyramid and the table (setup + discs)."""

    def __init__(self, d: Deal, setup: Setup):
        self.deal = d
        self.players = d.players
        self.table = Table.build(setup, d.discs)
        self.quarry = Quarry(d.players, d.values, d.colours, d.colour_names or setup.catalogue.palette.names)
        self.geometry = quarry_geometry(d.players)
        self.pyramids: list[tuple[tuple, tuple]] = [((0,) * PYRAMID.n, (-1,) * PYRAMID.n)
                                                    for _ in range(d.players)]
        self.first = first_player(d.rolls)
        self.turn = 0
        self.moves: list[Move] = []

    @classmethod
    def start(cls, d: Deal, setup: Setup) -> GameState:
        return cls(d, setup)

    @property
    def done(self) -> bool:
        return self.turn >= turns_of(self.players)

    @property
    def seat(self) -> int:
        """The seat to move: turns rotate from the first player."""
        return (self.first + self.turn) % self.players

    def legal_takes(self) -> list[int]:
        """Flat quarry indices of the available dice, ascending."""
        return [int(i) for i in np.flatnonzero(self.quarry.available_mask())]

    def skill_options(self, values, colours, placed: int) -> list[Action]:
        """Uses of the skill of ``placed``'s level (none on level 1 or for a level without a token)."""
        level = int(PYRAMID.level_of[placed])
        token = self.table.skills.get(level)
        return [] if token is None else skill_options(token, values, colours, placed)

    def after_place(self, seat: int, take: int, place: int) -> tuple[tuple, tuple]:
        """``seat``'s pyramid after putting quarry die ``take`` on ``place`` (no state change)."""
        v, c = self.pyramids[seat]
        return apply_action(v, c, ((place, int(self.quarry.values[take]), int(self.quarry.colours[take])),))

    def play(self, take: int, place: int, option: int = -1) -> Move:
        """Play one turn for the seat to move; ``option`` indexes :meth:`skill_options` (-1: no skill)."""
        if self.done:
            raise ValueError("the game is over")
        seat = self.seat
        takes = self.legal_takes()
        if take not in takes:
            raise ValueError(f"take must be an available die {takes}, got {take}")
        if place not in _legal_places(self.pyramids[seat][0]):
            raise ValueError(f"place must be one of {_legal_places(self.pyramids[seat][0])}, got {place}")
        v, c = self.after_place(seat, take, place)
        action = None
        if option >= 0:
            opts = self.skill_options(v, c, place)
            if option >= len(opts):
                raise ValueError(f"option must be -1 or in 0..{len(opts) - 1}, got {option}")
            action = opts[option]
            if any(s == place for s, _, _ in action):  # the rules forbid it; options never do it
                raise AssertionError("skill option targets the die just placed")
            v, c = apply_action(v, c, action)
        value, colour = int(self.quarry.values[take]), int(self.quarry.colours[take])
        self.quarry.occupied[take] = False
        self.pyramids[seat] = (v, c)
        move = Move(seat, take, place, option, action, value, colour, len(takes))
        self.moves.append(move)
        self.turn += 1
        return move

    def scores(self) -> list[ScoreCard]:
        return [_score_pyramid(v, c, self.table) for v, c in self.pyramids]

    def winners(self) -> list[int]:
        sc = self.scores()
        return winners([s.total for s in sc], [s.n_goals for s in sc])
