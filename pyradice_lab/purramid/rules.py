"""The rules of Purramid, executable and readable: one game, one decision at a time, with a transcript.

This is the specification the compiled simulator (:mod:`.sim`) is tested against: fed the same dice,
both produce the same game.  Dice come from a :class:`DiceStream` -- a game's dice are one sequence of
independent fair d6, drawn from its generator in blocks of :data:`BLOCK` -- so a roll of ``d`` dice is
always the next ``d`` values, whichever engine plays.

Rules implemented (the rules as the Purramid guide, docs/guide/purramid.md, states them):

- setup: 2 players cover the bottom two rows with 21 regular tiles; a yarn token on every uncovered "8";
  deal 4p 18 each then the last player passes 1 to the start player, 3p 24 each then the same, 2p 26/25;
  12 gold tiles in the supply; the start player is seat 0, play goes clockwise (seat order);
- a turn: roll all 5 dice, put one or more dice summing to its number on one empty space (no tile, no
  die), then stop or continue by rolling the dice not yet placed; burst when no placement is possible
  (or, for the policies here, none that can still satisfy the conditions) or when the conditions fail at
  stop; a yarn token may be spent after any roll to reroll the dice just rolled;
- at stop the dice must be connected and supported; then each space gets its tiles (10 -> 2, 12 -> 3,
  else 1) and the player takes the yarn token of every "8" so covered;
- bonus turn (one die fewer, repeatedly) when all dice were used, or dice were on 3 or more rows;
- the first player to place all regular tiles wins and takes the 12 gold tiles; tiles still owed in that
  placement are gold at once, and the winner keeps playing (bonus turns too) with gold;
- the game ends at once when the board is full, when a second player has placed all regular tiles, or
  when the winner has placed all gold tiles; the winner scores the gold tiles placed, everyone else minus
  the regular tiles still in hand.

Examples
--------
>>> from pyradice_lab.purramid.rules import new_game
>>> g = new_game(2, "A")
>>> g.hands, g.tiles_on_board, g.total_tiles()
([26, 25], 21, 84)
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field

import numpy as np

from ..engine.rng import as_generator
from ._layout import space_label
from .board import bits, completable, is_valid, rows_spanned
from .chance import sub_multisets
from .components import GameConfig, Layout, coerce_components, load_layout

__all__ = ["DiceStream", "GameState", "new_game", "legal_placements", "play_turn", "place_tiles", "BLOCK", "PLAYERS", "check_players"]

BLOCK = 1024
PLAYERS = (2, 3, 4)


def check_players(players) -> int:
    """``players`` as an int after checking it is 2, 3 or 4."""
    if isinstance(players, bool) or not isinstance(players, numbers.Integral) or int(players) not in PLAYERS:
        raise ValueError(f"players must be 2, 3 or 4, got {players!r}")
    return int(players)


class DiceStream:
    """The dice of one game: independent fair d6 drawn from ``rng`` in blocks of ``block`` values."""

    def __init__(self, rng=None, block: int = BLOCK):
        self._gen = as_generator(rng)
        self._block = int(block)
        self._buf = np.empty(0, dtype=np.int8)
        self._pos = 0
        self.used = 0

    def next_block(self) -> np.ndarray:
        return self._gen.integers(1, 7, size=self._block, dtype=np.int8)

    def roll(self, d: int) -> tuple[int, ...]:
        while len(self._buf) - self._pos < d:
            self._buf = np.concatenate([self._buf[self._pos:], self.next_block()])
            self._pos = 0
        vals = tuple(int(v) for v in self._buf[self._pos:self._pos + d])
        self._pos += d
        self.used += d
        return vals


@dataclass
class GameState:
    """Everything on and around the table.  ``covered`` and ``tokens`` are bit masks over spaces."""

    layout: Layout
    config: GameConfig
    players: int
    hands: list[int]
    yarn: list[int]
    covered: int
    tokens: int
    gold_supply: int
    gold_hand: int = 0
    gold_placed: int = 0
    winner: int | None = None
    tiles_on_board: int = 0
    seat: int = 0
    turns: int = 0
    over: bool = False
    end: str = "running"
    bursts: int = 0
    bonus_turns: int = 0
    yarn_won: int = 0
    yarn_spent: int = 0
    doomed_segments: int = 0
    yarn_tokens: bool = True
    expected: list[float] = field(default_factory=list)
    value: list[float] = field(default_factory=list)
    log: list[str] | None = field(default=None, repr=False)

    def total_tiles(self) -> int:
        """Tiles in hands + gold in the winner's hand + on the board + gold supply (always 84)."""
        return sum(self.hands) + self.gold_hand + self.tiles_on_board + self.gold_supply

    def scores(self) -> list[int]:
        """Winner: gold tiles placed; everyone else: minus regular tiles in hand."""
        return [self.gold_placed if p == self.winner else -self.hands[p] for p in range(self.players)]

    def say(self, text: str) -> None:
        if self.log is not None:
            self.log.append(text)


def new_game(players: int = 4, layout="A", config: GameConfig | None = None, *, trace: bool = False,
             yarn_tokens: bool = True, components=None) -> GameState:
    """The set-up table for ``players`` (2, 3 or 4) on ``layout`` (``yarn_tokens=False``: no tokens on the 8s);
    ``components`` (a path or loaded components) gives the sides and, unless ``config`` is given, the constants."""
    comp = coerce_components(components)
    L = load_layout(layout, comp)
    cfg = config or comp.config
    deal = list(cfg.deal_for(players))
    covered = L.bottom_rows_mask(cfg.two_player_covered_rows) if players == 2 else 0
    on_board = L.tiles_of(covered)
    if cfg.regular_tiles - sum(deal) != on_board:
        raise ValueError(f"layout: the 2-player setup covers {on_board} tiles in the bottom "
                         f"{cfg.two_player_covered_rows} rows but the deal leaves {cfg.regular_tiles - sum(deal)}")
    g = GameState(layout=L, config=cfg, players=players, hands=deal, yarn=[0] * players, covered=covered,
                  tokens=L.eights_mask() & ~covered if yarn_tokens else 0, gold_supply=cfg.gold_tiles,
                  tiles_on_board=on_board, yarn_tokens=bool(yarn_tokens), expected=[0.0] * players,
                  value=[0.0] * players, log=[] if trace else None)
    g.say(f"Purramid, {players} players, side {L.name}; deal {deal}"
          + (f"; {on_board} tiles cover the bottom two rows" if covered else "")
          + f"; {bin(g.tokens).count('1')} yarn tokens on the 8s")
    return g


def legal_placements(layout: Layout, covered: int, placed: int, roll) -> list[tuple[int, tuple[int, ...]]]:
    """Every legal placement of a roll: ``(space index, dice)``, one per distinct sub-multiset."""
    free = layout.all_mask & ~covered & ~placed
    return [(s, used) for s in bits(free) for used in sub_multisets(roll, layout.numbers[s])]


def _sp(layout: Layout, s: int) -> str:
    """A space as people read it: its number, then row and column from 1 (row 1 at the bottom)."""
    return space_label(layout.numbers[s], layout.spaces[s])



def place_tiles(g: GameState, p: int, spaces: int) -> None:
    """Seat ``p`` replaces its dice on ``spaces`` by tiles: tokens first, then regular / gold tiles."""
    L = g.layout
    won = g.tokens & spaces
    if won:
        k = won.bit_count()
        g.tokens &= ~spaces
        g.yarn[p] += k
        g.yarn_won += k
        g.say(f"    takes {k} yarn token{'s' * (k > 1)} (now holds {g.yarn[p]})")
    t = L.tiles_of(spaces)
    g.covered |= spaces
    if g.winner == p:
        k = min(t, g.gold_hand)
        g.gold_hand -= k
        g.gold_placed += k
        g.tiles_on_board += k
        g.say(f"    places {k} gold tile{'s' * (k != 1)} ({g.gold_hand} gold left)")
        if g.gold_hand == 0:
            g.over, g.end = True, "gold_placed"
        return
    h = g.hands[p]
    if t < h:
        g.hands[p] -= t
        g.tiles_on_board += t
        g.say(f"    places {t} tile{'s' * (t != 1)} ({g.hands[p]} left in hand)")
        return
    g.hands[p] = 0
    g.tiles_on_board += h
    g.say(f"    places {h} tile{'s' * (h != 1)}: all regular tiles placed")
    if g.winner is not None:
        g.over, g.end = True, "second_player_out"
        return
    g.winner = p
    g.gold_hand, g.gold_supply = g.gold_supply, 0
    g.say(f"    seat {p + 1} WINS and takes the {g.gold_hand} gold tiles")
    r = t - h
    if r > 0:
        k = min(r, g.gold_hand)
        g.gold_hand -= k
        g.gold_placed += k
        g.tiles_on_board += k
        g.say(f"    places {k} gold tile{'s' * (k != 1)} at once ({g.gold_hand} gold left)")
        if g.gold_hand == 0:
            g.over, g.end = True, "gold_placed"


def _dooms(L: Layout, cov: int, P: int, d: int, roll, s: int, c: int) -> bool:
    """Whether placing ``c`` dice on ``s`` makes the segment provably doomed while some other legal placement
    of this roll would not (checked with :func:`.board.completable`, independently of the policies)."""
    if completable(L, cov, P | 1 << s, d - c):
        return False
    return any(completable(L, cov, P | 1 << s2, d - len(u)) for s2, u in legal_placements(L, cov, P, roll))


PLACE, REROLL = 1, 2   # decision kinds of policy.decide (anything else: burst)


def play_turn(g: GameState, policy, dice: DiceStream) -> None:
    """Seat ``g.seat`` plays a whole turn (bonus turns included) following ``policy``.

    After each roll the policy decides (``policy.decide``: place, reroll with a token, or burst); after each
    placement it stops or continues (``policy.stop``); stopping with dice that do not form a valid group is
    a burst.  For an optimal seat the engine also adds up the exact value of the turn it was solving
    (``g.expected``) and what the turn realised under the same objective (``g.value``; if the game ends
    before an earned bonus turn is played, that bonus turn counts at its exact value).
    """
    L = g.layout
    p = g.seat
    D = g.config.dice
    kw = {"yarn_tokens": g.yarn_tokens}
    opt = hasattr(policy, "turn_value")
    need = getattr(policy, "need", 0) if opt else 0
    at_least = need > 0
    if opt:
        yv = policy.solver(L, g.yarn_tokens).yarn_value
        g.expected[p] += policy.turn_value(L, g.covered, D, g.yarn[p], need, **kw)
        realized = 0.0
        spent0 = g.yarn_spent
        tiles = 0
    bonus = False
    while D >= 1:
        g.say(f"  {'bonus turn' if bonus else 'turn'} with {D} dice (seat {p + 1}, {g.yarn[p]} yarn)")
        P = 0
        d = D
        placements = 0
        success = False
        doomed = False
        while True:
            roll = dice.roll(d)
            g.say(f"    rolls {' '.join(map(str, roll))}")
            kind, s, c = policy.decide(L, g.covered, P, roll, turn_dice=D, yarn=g.yarn[p], need=need, **kw)
            while kind == REROLL and g.yarn[p] > 0:
                g.yarn[p] -= 1
                g.yarn_spent += 1
                roll = dice.roll(d)
                g.say(f"    spends a yarn token, rerolls {' '.join(map(str, roll))}")
                kind, s, c = policy.decide(L, g.covered, P, roll, turn_dice=D, yarn=g.yarn[p], need=need, **kw)
            if kind != PLACE:
                g.bursts += 1
                if legal_placements(L, g.covered, P, roll):
                    g.say("    BURST: no placement can still meet the conditions; all dice leave the board")
                else:
                    g.say("    BURST: no space can take any of these dice; all dice leave the board")
                break
            used = next(u for u in sub_multisets(roll, L.numbers[s]) if len(u) == c)
            if not doomed and _dooms(L, g.covered, P, d, roll, s, c):
                doomed = True
                g.doomed_segments += 1
                g.say("    (this placement can no longer meet the conditions, though another one could)")
            P |= 1 << s
            d -= c
            placements += 1
            g.say(f"    puts {'+'.join(map(str, used))} on {_sp(L, s)}; {d} {'die' if d == 1 else 'dice'} left")
            if policy.stop(L, g.covered, P, d, placements, turn_dice=D, yarn=g.yarn[p], need=need, **kw):
                success = is_valid(L, P, g.covered)
                if not success:
                    g.bursts += 1
                    g.say("    BURST: stops with dice that do not meet the conditions; all dice leave the board")
                break
        if not success:
            break
        g.say(f"    stops: conditions hold on {', '.join(_sp(L, i) for i in bits(P))}")
        rows = rows_spanned(L, P)
        t = L.tiles_of(P)
        if opt:
            e = (P & g.tokens).bit_count()
            stop_value = policy.stop_value(L, g.covered, P, d, D, g.yarn[p], need, **kw)
        place_tiles(g, p, P)
        if g.covered == L.all_mask and not g.over:
            g.over, g.end = True, "board_full"
        if g.over:
            if opt:  # the turn ends here: an earned bonus turn counts at its exact value (in stop_value)
                g.value[p] += stop_value + (realized - yv * (g.yarn_spent - spent0) if not at_least else 0.0)
            return
        if opt:
            realized += t + yv * e
            tiles += t
        if not (d == 0 or rows >= 3) or D == 1:
            break
        g.say(f"    earns a bonus turn ({'all dice used' if d == 0 else f'{rows} rows'})")
        g.bonus_turns += 1
        D -= 1
        bonus = True
        if at_least:
            need = max(need - t, 0)
    if opt:
        g.value[p] += (1.0 if tiles >= policy.need else 0.0) if at_least else realized - yv * (g.yarn_spent - spent0)


@dataclass
class GameRecord:
    """A played game: the transcript (if traced), the summary row and the tile total after every turn."""

    transcript: str
    summary: dict
    totals: list[int]

    @property
    def scores(self) -> list[int]:
        return [self.summary[f"score_{p}"] for p in range(self.summary["players"])]

    def __str__(self) -> str:
        return self.transcript


def summary_row(g: GameState, policies) -> dict:
    """The per-game row shared with :func:`pyradice_lab.purramid.simulate_games`."""
    row = {"players": g.players, "layout": g.layout.name, "policies": ",".join(p.name for p in policies),
           "turns": g.turns, "winner": -1 if g.winner is None else g.winner, "winner_gold": g.gold_placed}
    for p, s in enumerate(g.scores()):
        row[f"score_{p}"] = s
    row.update({"bursts": g.bursts, "bonus_turns": g.bonus_turns, "yarn_won": g.yarn_won,
                "yarn_spent": g.yarn_spent, "end": g.end, "tiles_on_board": g.tiles_on_board,
                "tiles_in_hands": sum(g.hands), "gold_in_hand": g.gold_hand, "gold_supply": g.gold_supply})
    if any(hasattr(pol, "turn_value") for pol in policies):
        for p, pol in enumerate(policies):
            opt = hasattr(pol, "turn_value")
            row[f"expected_{p}"] = g.expected[p] if opt else float("nan")
            row[f"value_{p}"] = g.value[p] if opt else float("nan")
    return row


def play_game(players: int = 4, layout="A", policies=None, rng=None, trace: bool = True, *,
              yarn_tokens: bool = True, components=None) -> GameRecord:
    """Play one game with the readable rules engine and return its transcript and final scores.

    Parameters
    ----------
    players : {2, 3, 4}
    layout : "A", "B", path or Layout
    policies : None, a policy (name or object) for every seat, or one per seat
        ``"greedy"`` (default), ``"stop_after:K"``, ``"risk:P"``, ``"optimal"``, ``"optimal:at_least:K"``
        or policy objects (:func:`~.policies.optimal` with other settings); see :mod:`.policies`.
    rng : seed or Generator
        The game's dice stream.  ``simulate_games(n, rng=seed)`` plays its game ``i`` with
        ``pyradice_lab.engine.rng.spawn(seed, n)[i]``; passing that generator here replays the same game.
    trace : bool
        Keep the transcript (every roll, placement, stop/burst, bonus, token, tile count).
    yarn_tokens : bool
        ``False`` plays without yarn tokens (none on the 8s): a switch for analysis, not a rule.
    components : path or Components, optional
        A designer's components file or loaded components (as for :func:`~.sim.simulate_games`).

    Returns
    -------
    GameRecord
        ``summary`` has the fields of a :func:`~.sim.simulate_games` row, plus ``doomed_segments`` (turn
        segments a policy made provably doomed while a completable placement existed: 0 for every
        built-in policy).  With an optimal seat ``p``: ``expected_p`` (sum of the exact values of the
        turns it solved) and ``value_p`` (what those turns realised under its objective).

    Raises
    ------
    ValueError
        If ``players`` is not 2..4, ``layout`` is unknown, a policy is unknown or the number of policies is
        not 1 or ``players``, or the components are invalid.
    TypeError
        If ``yarn_tokens`` is not a bool.

    Examples
    --------
    >>> rec = play_game(3, "A", rng=7)
    >>> len(rec.scores), rec.summary["end"] in ("board_full", "second_player_out", "gold_placed", "turn_limit")
    (3, True)
    """
    from .policies import seat_policies

    comp = coerce_components(components)
    players = check_players(players)
    pols = [p.with_config(comp.config) if hasattr(p, "with_config") else p for p in seat_policies(policies, players)]
    if not isinstance(yarn_tokens, bool):
        raise TypeError(f"yarn_tokens must be True or False, got {yarn_tokens!r}")
    g = new_game(players, layout, trace=trace, yarn_tokens=yarn_tokens, components=comp)
    dice = DiceStream(rng)
    totals = [g.total_tiles()]
    g.say("policies: " + ", ".join(f"seat {p + 1} {pol.name}" for p, pol in enumerate(pols)))  # seats from 1
    while not g.over:
        g.say(f"Turn {g.turns + 1}: seat {g.seat + 1} (hands {g.hands}"
              + (f", winner seat {g.winner + 1} has {g.gold_hand} gold" if g.winner is not None else "") + ")")
        pol = pols[g.seat]
        play_turn(g, pol.for_turn(g) if hasattr(pol, "for_turn") else pol, dice)   # for_turn: race-aware seats
        g.turns += 1
        totals.append(g.total_tiles())
        if not g.over:
            g.seat = (g.seat + 1) % players
            if g.turns >= g.config.turn_limit:
                g.over, g.end = True, "turn_limit"
    row = summary_row(g, pols)
    row["dice_rolled"] = dice.used
    row["doomed_segments"] = g.doomed_segments
    g.say(f"Game over after {g.turns} turns: {g.end}.")
    g.say("Scores: " + ", ".join(f"seat {p + 1} {s:+d}" for p, s in enumerate(g.scores()))
          + ("" if g.winner is None else
             f"  (winner seat {g.winner + 1}, {g.gold_placed} gold tile{'s' * (g.gold_placed != 1)})"))
    return GameRecord("\n".join(g.log) if g.log is not None else "", row, totals)
