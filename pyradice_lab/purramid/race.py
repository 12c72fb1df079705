"""The race situation: which objective to play this turn when the game may end soon.

Purramid is a race: the first player to place all their regular tiles wins.  The exact advisor maximises one
objective per turn, expected tiles (``"tiles"``) or the chance of at least ``k`` tiles (``("at_least", k)``);
neither knows how close the others are to finishing.  :func:`race_objective` reads the race state (the tiles
left in every player's hand and whose turn it is) and suggests the objective, with its reason:

- if a player has already finished (a winner exists), or the tiles left on the board cannot finish your hand
  this turn, maximise expected tiles (every tile left in hand costs a point);
- if you cannot place every tile in hand this turn whatever the dice (probability 0), maximise expected
  tiles too, and say so (playing for all of them would value every option at 0);
- otherwise it computes, exactly on the current board, the chance that each opponent finishes on their next
  turn (a fresh turn with the components' dice, their yarn tokens, aiming at exactly their hand) and from it
  the **threat**: the chance that at least one opponent finishes before your next turn.  When the threat is at
  least ``threshold`` (default :data:`RACE_THRESHOLD`) it suggests ``("at_least", K)`` with ``K`` your tiles in
  hand: finishing now wins, and you are unlikely to get another turn; below it, expected tiles.

The threat is a model, not the game's exact value: the opponents' boards will differ from today's by what you
place this turn, and their own bonus turns are included in their turn values.  ``experiments/purramid_race.py``
measures what following the suggestion is worth (paired seeded games against always maximising expected
tiles) and how often it changes a decision; the Purramid guide shows the result.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

from .components import coerce_components, load_layout

__all__ = ["RACE_THRESHOLD", "RaceAdvice", "RacePolicy", "race_objective", "race_value", "check_race"]

#: threat (chance that an opponent finishes before your next turn) from which the race objective is suggested
RACE_THRESHOLD = 0.5


@dataclass(frozen=True)
class RaceAdvice:
    """The suggested objective of :func:`race_objective`, the reason in one sentence, and its numbers:
    ``finish_now`` (your chance to place every tile in hand this turn, playing for it), ``threat`` (the chance
    that an opponent finishes before your next turn) and ``opponents`` (each opponent's finishing chance)."""

    objective: object
    reason: str
    finish_now: float
    threat: float
    opponents: tuple

    @property
    def label(self) -> str:
        """``"tiles"`` or ``"at_least:K"``."""
        return "tiles" if self.objective == "tiles" else f"at_least:{self.objective[1]}"


#: The most tiles a hand can hold: the largest number of regular tiles a components file allows
#: (``regular_tiles``, 1..500).
MAX_HAND = 500


def check_race(hands, seat, players_yarn=None) -> tuple[tuple[int, ...], int, tuple[int, ...]]:
    """Validate a race state: ``hands`` (2..4 tile counts >= 0, one per player in turn order), ``seat`` (whose
    turn, 0-based) and optional ``players_yarn`` (yarn tokens per player)."""
    if isinstance(hands, (str, bytes)) or not hasattr(hands, "__iter__"):
        raise ValueError(f"hands must be a list of 2 to 4 tile counts (one per player), got {hands!r}")
    hands = tuple(hands)
    if not 2 <= len(hands) <= 4 or any(isinstance(h, bool) or not isinstance(h, numbers.Integral) or h < 0
                                       for h in hands):
        raise ValueError(f"hands must be a list of 2 to 4 integer tile counts >= 0 (one per player), got "
                         f"{hands!r:.200}")
    if any(h > MAX_HAND for h in hands):
        raise ValueError(f"hands must be tile counts of at most {MAX_HAND} (no components file has more regular "
                         f"tiles), got {hands!r:.200}")
    if sum(1 for h in hands if h == 0) > 1:
        raise ValueError(f"hands: at most one player can have finished (the game ends when a second does), "
                         f"got {hands!r}")
    if isinstance(seat, bool) or not isinstance(seat, numbers.Integral) or not 0 <= seat < len(hands):
        raise ValueError(f"seat must be the 0-based position of the player to move, 0..{len(hands) - 1}, got {seat!r}")
    if players_yarn is None:
        players_yarn = (0,) * len(hands)
    players_yarn = tuple(players_yarn) if hasattr(players_yarn, "__iter__") else players_yarn
    if not isinstance(players_yarn, tuple) or len(players_yarn) != len(hands) or any(
            isinstance(y, bool) or not isinstance(y, numbers.Integral) or not 0 <= y <= 12 for y in players_yarn):
        raise ValueError(f"players_yarn must give 0..12 yarn tokens for each of the {len(hands)} players, "
                         f"got {players_yarn!r}")
    return tuple(int(h) for h in hands), int(seat), tuple(int(y) for y in players_yarn)


def race_objective(layout="A", covered=(), hands=(18, 18, 18, 18), seat: int = 0, *, players_yarn=None,
                   threshold: float = RACE_THRESHOLD, components=None, yarn_tokens: bool = True,
                   turn_dice: int | None = None) -> RaceAdvice:
    """Suggest this turn's objective from the race state (see the module docstring).

    Parameters
    ----------
    layout : "A", "B", a side of ``components`` or a layout TOML path
    covered : spaces with a cat tile, as (row, col) pairs
    hands : sequence of int
        Regular tiles left in each player's hand, in turn order (2 to 4 players; 0 for a player who finished).
    seat : int
        The player to move (0-based index into ``hands``).
    players_yarn : sequence of int, optional
        Yarn tokens held by each player (default: none).
    threshold : float
        Threat from which the race objective is suggested (0 < threshold <= 1).
    components : path or Components, optional
        The components (the dice of a turn, the sides).
    yarn_tokens : bool
        Whether yarn tokens are in play.
    turn_dice : int, optional
        Dice of a fresh turn (default: the components' ``dice``).

    Returns
    -------
    RaceAdvice
        ``objective`` (``"tiles"`` or ``("at_least", K)``), ``reason``, ``finish_now``, ``threat``, ``opponents``.

    Raises
    ------
    ValueError
        If a race field, the layout or ``covered`` is not valid, or ``threshold`` is not in (0, 1].

    Examples
    --------
    >>> race_objective("A", hands=(18, 18, 18, 18)).objective
    'tiles'
    >>> a = race_objective("A", hands=(2, 1), seat=0)
    >>> a.objective, a.threat > 0.5
    (('at_least', 2), True)
    """
    from .advisor import _check_state, solver_for

    hands, seat, yv = check_race(hands, seat, players_yarn)
    if isinstance(threshold, bool) or not isinstance(threshold, numbers.Real) or not 0 < threshold <= 1:
        raise ValueError(f"threshold must be a number in (0, 1], got {threshold!r}")
    comp = coerce_components(components)
    L = load_layout(layout, comp)
    D = comp.config.dice if turn_dice is None else turn_dice
    cov = _check_state(L, covered, (), D, D, yv[seat])[0]
    left = L.tiles_of(L.all_mask & ~cov)
    k = hands[seat]

    def finish(h: int, y: int) -> float:
        if h < 1 or h > left:
            return 0.0
        return float(solver_for(L, ("at_least", h), None, "auto", yarn_tokens=yarn_tokens).fresh(cov, D, y, h)[0])

    if k == 0:
        return RaceAdvice("tiles", "you have finished: every gold tile you place scores, so maximise expected "
                                   "tiles", 0.0, 0.0, ())
    if 0 in hands:
        w = hands.index(0)
        return RaceAdvice("tiles", f"player {w + 1} has already finished: the game ends when a second player "
                                   f"does, and each tile left in hand costs a point, so maximise expected tiles",
                          0.0, 0.0, ())
    if k > left:
        return RaceAdvice("tiles", f"your {k} tiles cannot all be placed this turn (the board has {left} tiles "
                                   f"left): maximise expected tiles", 0.0, 0.0, ())
    others = [o for o in range(len(hands)) if o != seat]
    opp = tuple((o, hands[o], finish(hands[o], yv[o])) for o in others)
    safe = 1.0
    for _, _, p in opp:
        safe *= 1.0 - p
    threat = 1.0 - safe
    now = finish(k, yv[seat])
    o, h, p = max(opp, key=lambda t: t[2])
    if threat >= threshold and now == 0.0:
        # no sequence of rolls places them all: every option's chance would be 0, so playing for them is no plan
        return RaceAdvice("tiles", f"player {o + 1} has {h} tile{'s' * (h != 1)} left and finishes on their next "
                                   f"turn with probability {_chance(p)}, but your {k} tiles cannot all be placed "
                                   f"this turn (probability 0, even with every bonus turn): maximise expected "
                                   f"tiles (each tile left in hand costs a point)", now, threat, opp)
    if threat >= threshold:
        return RaceAdvice(("at_least", k),
                          f"player {o + 1} has {h} tile{'s' * (h != 1)} left and finishes on their next turn with "
                          f"probability {_chance(p)} (some opponent: {_chance(threat)}, at least {threshold:g}): "
                          f"play for all {k} of your tiles now (you finish this turn with probability "
                          f"{_chance(now)})", now, threat, opp)
    return RaceAdvice("tiles", f"no opponent is likely to finish before your next turn (probability {threat:.2f}, "
                               f"below {threshold:g}; closest: player {o + 1} with {h} tiles): maximise expected "
                               f"tiles", now, threat, opp)


def _chance(p: float) -> str:
    """A probability as the reasons print it: two decimals, or one significant digit below 0.005 (never a
    rounded "0.00" for a chance that is not 0, nor "1.00" for one that is not 1)."""
    import math

    if 0.0 < p < 0.005 or 0.995 < p < 1.0:       # the decimals of the first digit that is not 0 (or 9)
        return f"{p:.{max(2, -math.floor(math.log10(min(p, 1.0 - p))))}f}"
    return f"{p:.2f}"


class RacePolicy:
    """A seat of the readable engine (:func:`~.rules.play_game`) that plays the exact policy with the objective
    :func:`race_objective` suggests at the start of each turn.  It counts its turns (``turns``), the turns whose
    objective differed from expected tiles (``changed_turns``), and its decisions that differed from what the
    expected-tiles policy would have done in the same spot (``decisions`` / ``changed_decisions``)."""

    def __init__(self, threshold: float = RACE_THRESHOLD, yarn_value: float | None = None):
        from .policies import optimal

        self.threshold = threshold
        self.tiles = optimal("tiles", yarn_value)
        self._yv = yarn_value
        self.turns = self.changed_turns = self.decisions = self.changed_decisions = 0
        self.name = f"race({threshold:g})"

    def for_turn(self, g):
        from .board import bits
        from .policies import optimal

        L = g.layout
        cov = [L.spaces[i] for i in bits(g.covered)]
        a = race_objective(L, cov, g.hands, g.seat, players_yarn=[min(y, 12) for y in g.yarn],
                           threshold=self.threshold, yarn_tokens=g.yarn_tokens, turn_dice=g.config.dice)
        self.turns += 1
        tiles = self.tiles.with_config(g.config)   # the game's yarn value, as play_game gives the other seats
        if a.objective == "tiles":
            return tiles
        self.changed_turns += 1
        return _Counted(self, optimal(a.objective, self._yv), tiles)


class _Counted:
    """The race objective's policy, counting where it decides differently from expected tiles."""

    def __init__(self, owner: RacePolicy, policy, tiles):
        self._owner, self._policy, self._tiles = owner, policy, tiles

    def __getattr__(self, name):
        return getattr(self._policy, name)

    def decide(self, layout, cov, placed, roll, **kw):
        got = self._policy.decide(layout, cov, placed, roll, **kw)
        kw0 = dict(kw, need=0)
        self._owner.decisions += 1
        self._owner.changed_decisions += got != self._tiles.decide(layout, cov, placed, roll, **kw0)
        return got

    def stop(self, layout, cov, placed, dice_left, placements, **kw):
        got = self._policy.stop(layout, cov, placed, dice_left, placements, **kw)
        kw0 = dict(kw, need=0)
        self._owner.decisions += 1
        self._owner.changed_decisions += got != self._tiles.stop(layout, cov, placed, dice_left, placements,
                                                                      **kw0)
        return got


def race_value(n_games: int = 200, players: int = 4, layout="A", *, seed=0, threshold: float = RACE_THRESHOLD,
               progress: bool = False):
    """What following :func:`race_objective` is worth: paired seeded games of the readable engine.

    Game ``i`` is played twice on the same dice stream: once with the race-aware seat (seat ``i % players``)
    and every other seat playing the exact expected-tiles policy, once with every seat on expected tiles.

    Parameters
    ----------
    n_games : int
        Paired games (each played twice).
    players : {2, 3, 4}
        Default 4, the game's ``default_players`` (docs/guide/defaults.md); about 1 CPU-second per paired game
        at 3 or 4 players.  The Purramid guide's table is ``players=2``.
    layout : "A", "B" or a layout
    seed : int or SeedSequence
        Game ``i`` uses ``spawn(seed, n_games)[i]`` for both of its plays.
    threshold : float
        The race threshold (see :func:`race_objective`).
    progress : bool
        A line per 50 games on stderr.

    Returns
    -------
    pandas.DataFrame
        One row per quantity: the race seat's win share with and without the race objective and their paired
        difference (Student-t interval of the per-game differences), the share of its turns whose objective
        changed, and the share of its decisions in those turns that changed; ``n`` games; ``method``.

    Raises
    ------
    ValueError
        If ``n_games`` is not a positive integer, ``players`` is not 2..4 or ``threshold`` is not in (0, 1].

    Examples
    --------
    >>> df = race_value(4, players=2, seed=1)               # doctest: +SKIP
    >>> df.set_index("quantity").loc["win share difference", "n"]   # doctest: +SKIP
    4
    """
    import sys

    import numpy as np
    import pandas as pd

    from ..engine.rng import spawn
    from ..engine.stats import mean_estimate, proportion_estimate
    from .policies import optimal
    from .rules import play_game

    if isinstance(n_games, bool) or not isinstance(n_games, numbers.Integral) or n_games < 1:
        raise ValueError(f"n_games must be a positive integer, got {n_games!r}")
    if isinstance(players, bool) or players not in (2, 3, 4):
        raise ValueError(f"players must be 2, 3 or 4, got {players!r}")
    if isinstance(threshold, bool) or not isinstance(threshold, numbers.Real) or not 0 < threshold <= 1:
        raise ValueError(f"threshold must be a number in (0, 1], got {threshold!r}")
    race = RacePolicy(threshold)
    tiles = optimal()
    wins_race, wins_base = np.zeros(n_games), np.zeros(n_games)
    for i, ss in enumerate(spawn(seed, n_games)):
        r = i % players
        pols = [race if p == r else tiles for p in range(players)]
        a = play_game(players, layout, pols, rng=np.random.default_rng(ss), trace=False)
        b = play_game(players, layout, [tiles] * players, rng=np.random.default_rng(ss), trace=False)
        wins_race[i] = a.summary["winner"] == r
        wins_base[i] = b.summary["winner"] == r
        if progress and (i + 1) % 50 == 0:
            print(f"race_value: {i + 1}/{n_games} paired games", file=sys.stderr, flush=True)
    rows = []
    for name, est in (("win share, race objective", proportion_estimate(int(wins_race.sum()), n_games)),
                      ("win share, expected tiles", proportion_estimate(int(wins_base.sum()), n_games)),
                      ("win share difference", mean_estimate(wins_race - wins_base)),
                      ("turns with another objective", proportion_estimate(race.changed_turns, max(race.turns, 1))),
                      ("decisions changed in those turns",
                       proportion_estimate(race.changed_decisions, max(race.decisions, 1)))):
        rows.append({"quantity": name, "value": est.value, "se": est.se, "ci_low": est.ci_low,
                     "ci_high": est.ci_high, "n": n_games if "win" in name else
                     (race.turns if name.startswith("turns") else race.decisions)})
    df = pd.DataFrame(rows)
    df["method"] = (f"{players} players, side {getattr(layout, 'name', layout)}, threshold {threshold:g}: paired "
                    f"seeded games (same dice), race seat rotating; other seats optimal (expected tiles)")
    return df
