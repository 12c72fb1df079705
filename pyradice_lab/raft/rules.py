"""Rocking Raft rules, readable: state, a turn, passing, completing, refilling, the flag, sinking.

This module is the executable spec: :class:`Game` plays one game step by step in plain Python, checks
that every gem is accounted for after every step (raft + lifeboats + gems in hand + box = the whole gem
set), and can write a transcript.  :mod:`.kernel` is the same rules compiled with numba for many games;
both draw their randomness in the same order from the same generator, so a seeded game is identical in
both (tested).

Order of a turn (digest of the rules, with the interpretations of ambiguous points):

1. Sinking variant: 1 water token on each of the current player's lifeboats.
2. The player's policy chooses edge, finger space and duration; the raft is tilted (:func:`.tilting.tilt`).
3. The fallen gems are loaded on the player's lifeboats (:func:`.loading.load`, the best placement).
4. Unplaced black gems go straight back to the centre space; the other unplaced gems are passed left,
   each other player in turn loading what they can (interpretation: the text says they *may*; placing a
   passed gem never hurts its receiver, so everyone places as many as they can); what nobody can place
   goes back to the centre space.
5. Every full lifeboat (the player's and any completed by passed gems) is scored: its gems are dropped
   into the centre and the card goes to its owner's score pile (current player first, then in turn order).
6. Sinking variant: each incomplete lifeboat of the current player holding 2 water tokens sinks: gems
   dropped into the centre, card to the bottom of the deck.
7. Refills in turn order from the current player: each player draws one card per lifeboat completed
   (or sunk - interpretation: the rules only say the sunk card goes under the deck, but the refill rule
   is "so that you again have 2 cards" and the only stated way to end with fewer is an empty deck;
   ``replace_sunk=False`` plays the other reading) this turn.  The pirate flag is set aside (the end is
   triggered) and another card drawn; an empty deck leaves a player with fewer lifeboats.
8. After the flag, play ends when the player to the right of the first player finishes a turn.

Gems *dropped* into the centre (at setup, from completed and sunk lifeboats: the text's 落とします, "it is
fine if some roll into adjacent spaces") roll on into one of the four side neighbours of the centre with
probability ``spill`` (interpretation: a gem leaving the centre space crosses one of its four sides, so
the diagonal spaces are not reached directly).  Gems *discarded* to the centre (unused black gems and
leftovers nobody places: 捨てます, no rolling mentioned) are put in the centre space; ``discards_roll=True``
lets them roll like dropped gems (the earlier reading).  Either way each such gem consumes one uniform of
the turn block, so both readings play the same random numbers.

Examples
--------
>>> from pyradice_lab.raft.rules import play_game
>>> rec = play_game(players=2, rng=5)
>>> rec.summary["players"], rec.summary["winner"] in (-1, 0, 1)
(2, True)
>>> print(rec.transcript[0])
Rocking Raft: 2 players, standard variant; policies greedy, greedy
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..engine.rng import as_generator
from .components import coerce_components
from .expectimax import ExactContext, node_tables
from .layouts import OUTER_CELLS, SPILL_CELLS, drop_cell, setup_block_size, setup_raft, setup_state, shuffle
from .loading import load_scalar
from .physics import TiltParams, check_duration, check_edge, coerce_params, fate_table
from .policies import KIND_CODES, OptionTable, Policy, choose_options, get_policy
from .sampling import cumulative_tables, sample_tilt, turn_block_size

__all__ = ["Game", "Boat", "GameRecord", "play_game", "setup_state", "setup_raft", "drop_cell", "ConservationError",
           "FLAG", "VARIANTS", "SPILL_CELLS", "OUTER_CELLS", "check_variant", "check_flag", "resolve_policies",
           "resolve_skills", "DEFAULT_POLICY", "MAX_TURNS", "setup_block_size", "turn_block_size", "sample_tilt"]

FLAG = -1
VARIANTS = ("standard", "sinking")
DEFAULT_POLICY = "greedy"
MAX_TURNS = 400


class ConservationError(ValueError):
    """A gem was lost or duplicated (raft + lifeboats + hand + box differs from the gem set)."""


@dataclass
class Boat:
    """A lifeboat card in front of a player, with the gems placed on it and its water tokens."""

    card: int
    slots: np.ndarray
    points: int
    fill: np.ndarray
    held: np.ndarray
    water: int = 0
    turns: int = 0

    @property
    def empty(self) -> np.ndarray:
        return self.slots - self.fill

    @property
    def complete(self) -> bool:
        return bool((self.fill == self.slots).all())


@dataclass
class GameRecord:
    """One played game: the summary row and, with ``trace=True``, the transcript lines."""

    summary: dict
    transcript: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "\n".join(self.transcript)

    def __str__(self) -> str:
        return self.text


def check_variant(variant) -> str:
    if not isinstance(variant, str) or variant not in VARIANTS:
        raise ValueError(f"variant must be one of {list(VARIANTS)}, got {variant!r}")
    return variant


def check_flag(value, name: str) -> bool:
    """A yes/no rules option (``discards_roll``, ``replace_sunk``)."""
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def resolve_policies(policies, players: int) -> list:
    if policies is None:
        policies = DEFAULT_POLICY
    if isinstance(policies, (str, Policy)) or (callable(policies) and not isinstance(policies, Sequence)):
        policies = [policies] * players
    if not isinstance(policies, Sequence) or len(policies) != players:
        raise ValueError(f"policies must be one policy or a list of {players} (one per seat), got {policies!r}")
    return [get_policy(p) for p in policies]


def resolve_skills(skills, players: int, params: TiltParams) -> list[float]:
    """Per-seat timing noise (dexterity): None -> the tilt model's ``timing_noise`` for everyone."""
    if skills is None:
        return [params.timing_noise] * players
    if isinstance(skills, numbers.Real):
        skills = [skills] * players
    if not isinstance(skills, Sequence) or len(skills) != players:
        raise ValueError(f"skills must be one timing noise or a list of {players}, got {skills!r}")
    out = []
    for s in skills:
        if isinstance(s, bool) or not isinstance(s, numbers.Real) or not 0 <= s <= 2:
            raise ValueError(f"skills must be timing noises (log-sd) in [0, 2], got {s!r}")
        out.append(float(s))
    return out


def _gems(vec, letters) -> str:
    parts = [f"{c}{int(n)}" for c, n in zip(letters, vec) if n]
    return " ".join(parts) if parts else "nothing"


class Game:
    """One game of Rocking Raft, played by the rules in readable Python.

    Parameters
    ----------
    players : int
        2..4.
    variant : {"standard", "sinking"}
    policies : policy, name or list of them (one per seat), optional
        Default: ``"greedy"`` for everyone.
    rng : seed or Generator
    components : path or Components, optional
        A components file (partial files merge over the packaged components) or loaded components.
    params : TiltParams or dict, optional
    skills : float or list of float, optional
        Per-seat timing noise (overrides ``params.timing_noise``).
    flag_depth : int, optional
        Cards before the pirate flag (default: the rules' depth for the player count).
    discards_roll : bool
        Whether unused black gems and leftovers nobody places may roll out of the centre space like dropped
        gems (default False: the text puts them in the centre space).
    replace_sunk : bool
        Whether a sunk lifeboat is replaced at the end of the turn like a completed one (default True).
    max_turns : int
        Safety cap (the game is marked ``truncated`` if it is reached).
    trace : bool
        Keep a transcript.
    check : bool
        Check gem conservation after every step.
    """

    def __init__(self, players: int = 3, variant: str = "standard", policies=None, *, rng=None,
                 components=None, params=None, skills=None, flag_depth: int | None = None,
                 max_turns: int = MAX_TURNS, trace: bool = False, check: bool = True, discards_roll: bool = False,
                 replace_sunk: bool = True):
        self.comp = coerce_components(components)
        self.discards_roll = check_flag(discards_roll, "discards_roll")
        self.replace_sunk = check_flag(replace_sunk, "replace_sunk")
        self.players = self.comp.check_players(players)
        self.variant = check_variant(variant)
        self.params = coerce_params(params)
        self.policies = resolve_policies(policies, self.players)
        self.skills = resolve_skills(skills, self.players, self.params)
        self.seat_params = [self.params.replace(timing_noise=s) for s in self.skills]
        self.rng = as_generator(rng)
        left = len(self.comp.deck) - self.comp.rules.boats * self.players
        depth = self.comp.rules.flag_depth[self.players] if flag_depth is None else flag_depth
        if isinstance(depth, bool) or not isinstance(depth, numbers.Integral) or not 0 <= depth <= left:
            raise ValueError(f"flag_depth must be an integer in 0..{left}, got {flag_depth!r}")
        self.flag_depth = int(depth)
        if isinstance(max_turns, bool) or not isinstance(max_turns, numbers.Integral) or max_turns < 1:
            raise ValueError(f"max_turns must be a positive integer, got {max_turns!r}")
        self.max_turns = int(max_turns)
        self.trace = trace
        self.check = check
        self.colours = self.comp.gems.colours
        self.letters = self.comp.gems.letters
        self.ncol = len(self.letters)
        self.slots, self.points = self.comp.deck_arrays()
        #: per card (deck position): completions, own turns held (completed or not), own turns held until
        #: completed -- the batch engine's per-game card columns, played by the readable rules
        self.card_tally = np.zeros((len(self.points), 3), dtype=np.int64)
        # built-in policies share one option grid; each seat scores it with its own timing noise
        durations = sorted({d for p in self.policies if isinstance(p, Policy) for d in p.durations})
        self.options = OptionTable(self.comp.raft, durations or [1.0])
        self.allowed = [self.options.allowed(p) if isinstance(p, Policy) else None for p in self.policies]
        self.fall = [self.options.fall_table(sp) if isinstance(p, Policy) else None
                     for p, sp in zip(self.policies, self.seat_params)]
        self.nodes = [node_tables(self.options, sp) if isinstance(p, Policy) and p.kind == "exact" else None
                      for p, sp in zip(self.policies, self.seat_params)]
        self.log: list[str] = []
        self.stats = {"gems_passed": 0, "gifts_placed": 0, "gift_points": 0, "sunk": 0, "black_passed": 0}
        self.gifted = [0] * self.players
        self._setup()

    # ------------------------------------------------------------------------------------- helpers
    def note(self, text: str) -> None:
        if self.trace:
            self.log.append(text)

    def card_name(self, card: int) -> str:
        c = self.comp.deck[card]
        return f"#{c.id} {c.name} ({c.points})"

    def boat_text(self, b: Boat) -> str:
        need = "".join(f"{col}{int(f)}/{int(s)} " for col, f, s in zip(self.letters, b.fill, b.slots) if s)
        water = f" water {b.water}" if self.variant == "sinking" else ""
        return f"{self.card_name(b.card)} [{need.strip()}]{water}"

    def raft_text(self) -> str:
        cells = [("".join(f"{c}{n}" for c, n in zip(self.letters, self.raft[s]) if n) or "-")
                 for s in range(9)]
        return " / ".join(" ".join(f"{x:>8}" for x in cells[r * 3:r * 3 + 3]) for r in range(3))

    def in_boats(self) -> np.ndarray:
        tot = np.zeros(self.ncol, dtype=np.int64)
        for seat in self.boats:
            for b in seat:
                tot += b.held
        return tot

    def check_conservation(self, where: str) -> None:
        if not self.check:
            return
        total = self.raft.sum(axis=0) + self.in_boats() + self.hand + self.box
        if (total != np.array(self.comp.gems.counts)).any() or (self.raft < 0).any() or (self.hand < 0).any():
            raise ConservationError(f"gem conservation broken after {where}: raft+boats+hand+box = {total.tolist()}, "
                                    f"gem set {list(self.comp.gems.counts)}")
        water = self.water_supply + sum(b.water for seat in self.boats for b in seat)
        if water != self.comp.rules.water_tokens or self.water_supply < 0:
            raise ConservationError(f"water tokens broken after {where}: {water} in play, "
                                    f"{self.comp.rules.water_tokens} in the game")

    def next_drop_uniform(self) -> float:
        u = self.turn_u[2 + self.gems_in_play + self.drops]
        self.drops += 1
        return float(u)

    def drop_to_centre(self, gems: np.ndarray, roll: bool = True) -> None:
        """Put gems from the hand into the centre space one by one (colour order), each with the next drop
        uniform of the turn block; with ``roll`` each may roll into a side neighbour."""
        for c in range(self.ncol):
            for _ in range(int(gems[c])):
                self.raft[drop_cell(self.next_drop_uniform(), self.params.spill, roll), c] += 1
                self.hand[c] -= 1

    shuffle = staticmethod(shuffle)

    def new_boat(self, card: int) -> Boat:
        k = self.slots.shape[1]
        return Boat(card, self.slots[card].copy(), int(self.points[card]), np.zeros(k, np.int64),
                    np.zeros(self.ncol, np.int64))

    # ------------------------------------------------------------------------------------- setup
    def _setup(self) -> None:
        comp = self.comp
        in_play = comp.gems.in_play(self.players)
        self.box = np.array(comp.gems.counts, dtype=np.int64) - in_play
        self.water_supply = comp.rules.water_tokens
        g, n_cards = int(in_play.sum()), len(comp.deck)
        self.gems_in_play = g
        u = self.rng.random(setup_block_size(g, n_cards))
        self.raft = setup_raft(in_play, u, self.params.spill)
        self.hand = np.zeros(self.ncol, dtype=np.int64)
        deck = list(range(n_cards))
        self.shuffle(deck, u[2 * g:2 * g + n_cards])
        self.boats: list[list[Boat]] = [[] for _ in range(self.players)]
        self.piles: list[list[int]] = [[] for _ in range(self.players)]
        for p in range(self.players):
            for _ in range(comp.rules.boats):
                self.boats[p].append(self.new_boat(deck.pop(0)))
        self.deck = deck[:self.flag_depth] + [FLAG] + deck[self.flag_depth:]
        self.first = min(int(u[2 * g + n_cards] * self.players), self.players - 1)
        self.last = (self.first - 1) % self.players
        self.current = self.first
        self.turn = 0
        self.flag_drawn = False
        self.flag_turn = 0
        self.deck_exhausted = False
        self.truncated = False
        self.over = False
        names = ", ".join(p.name if isinstance(p, Policy) else getattr(p, "__name__", "custom") for p in self.policies)
        self.note(f"Rocking Raft: {self.players} players, {self.variant} variant; policies {names}")
        self.note(f"Setup: gems in play {_gems(in_play, self.letters)}; raft (N row / middle / S row): {self.raft_text()}")
        for p in range(self.players):
            self.note(f"  seat {p + 1} lifeboats: " + "; ".join(self.boat_text(b) for b in self.boats[p]))
        self.note(f"  pirate flag under {self.flag_depth} cards; first player: seat {self.first + 1}")  # seats from 1
        self.check_conservation("setup")

    # ------------------------------------------------------------------------------------- a turn
    def view(self, seat: int) -> dict:
        """What a custom policy sees."""
        return {"seat": seat, "players": self.players, "raft": self.raft.copy(), "turn": self.turn,
                "boats": [[{"card": self.comp.deck[b.card], "empty": b.empty.copy(), "points": b.points,
                            "water": b.water} for b in seat_boats] for seat_boats in self.boats],
                "scores": [sum(int(self.points[c]) for c in pile) for pile in self.piles],
                "deck_left": sum(1 for c in self.deck if c != FLAG), "flag_drawn": self.flag_drawn,
                "params": self.seat_params[seat], "geometry": self.comp.raft, "colours": self.colours}

    def boat_arrays(self, seats) -> tuple[np.ndarray, np.ndarray]:
        """Empty slots (len(seats) * boats, K) and points of the lifeboats of ``seats``, each seat padded
        to ``boats`` rows with zeros (the batch engine's layout)."""
        nb, k = self.comp.rules.boats, self.slots.shape[1]
        empty = np.zeros((len(seats) * nb, k), dtype=np.int64)
        pts = np.zeros(len(seats) * nb, dtype=np.int64)
        for i, q in enumerate(seats):
            for j, b in enumerate(self.boats[q]):
                empty[i * nb + j] = b.empty
                pts[i * nb + j] = b.points
        return empty, pts

    def choose(self, p: int) -> tuple[str, int, float]:
        pol = self.policies[p]
        if not isinstance(pol, Policy):
            choice = pol(self.view(p))
            if isinstance(choice, (str, bytes)) or not isinstance(choice, Sequence) or len(choice) != 3:
                raise ValueError(f"policies: a custom policy must return (edge, finger, duration), seat {p}'s "
                                 f"returned {choice!r}")
            edge, finger, duration = choice
            try:
                edge = check_edge(edge)
                return edge, self.comp.raft.finger_index(edge, finger), check_duration(duration, self.params)
            except (ValueError, TypeError) as exc:
                raise ValueError(f"policies: seat {p}'s custom policy returned {choice!r}: {exc}") from None
        my_empty, my_pts = self.boat_arrays([p])
        opp_empty, opp_pts = self.boat_arrays([(p + q) % self.players for q in range(1, self.players)])
        o = choose_options(np.array([KIND_CODES[pol.kind]]), pol.pars()[None], self.allowed[p][None],
                           np.array([self.turn_u[0]]), self.raft[None], self.fall[p][None], my_empty[None],
                           my_pts[None], opp_empty[None], opp_pts[None], exact=self.exact_context(p))[0]
        return self.options.options[o]

    def exact_context(self, p: int) -> ExactContext | None:
        """What the exact player reads at seat ``p``'s turn (public information), for one game."""
        if self.nodes[p] is None:
            return None
        nb = self.comp.rules.boats
        doomed = np.zeros(nb, dtype=bool)
        if self.variant == "sinking":
            for j, b in enumerate(self.boats[p]):
                doomed[j] = b.water >= self.comp.rules.sink_at
        pos = (p - self.first) % self.players
        later = [((p + s) % self.players - self.first) % self.players > pos for s in range(1, self.players)]
        w, node_fall = self.nodes[p]
        seats = [(p + s) % self.players for s in range(self.players)]
        standings = [[sum(int(self.points[c]) for c in self.piles[q]), len(self.piles[q])] for q in seats]
        return ExactContext(w[None], node_fall[None], np.zeros(1, dtype=np.int64), doomed[None],
                            np.array([-1 if self.flag_drawn else self.deck.index(FLAG)]), np.array([later]), nb,
                            self.slots.sum(axis=1), self.points, np.array([standings]), np.array([p == self.last]))

    def load_on(self, q: int, gems: np.ndarray) -> np.ndarray:
        """Seat ``q`` places what it can of ``gems`` (best placement); returns the gems placed."""
        boats = self.boats[q]
        k = self.slots.shape[1]
        if not boats:
            return np.zeros(self.ncol, dtype=np.int64)
        empty = np.array([b.empty for b in boats], dtype=np.int64).reshape(len(boats), k)
        pts = np.array([b.points for b in boats], dtype=np.int64)
        held, fill = load_scalar(gems.tolist(), empty.tolist(), pts.tolist())
        held = np.array(held, dtype=np.int64).reshape(len(boats), self.ncol)
        fill = np.array(fill, dtype=np.int64).reshape(len(boats), k)
        for b, h, f in zip(boats, held, fill):
            b.held += h
            b.fill += f
        placed = held.sum(axis=0)
        self.hand -= placed
        if placed.any():
            where = "; ".join(self.boat_text(b) for b, h in zip(boats, held) if h.any())
            self.note(f"    seat {q + 1} places {_gems(placed, self.letters)} -> {where}")
        return placed

    def play_turn(self) -> None:
        p = self.current
        self.turn += 1
        if self.variant == "sinking":
            for b in self.boats[p]:
                if self.water_supply > 0:
                    b.water += 1
                    self.water_supply -= 1
        for b in self.boats[p]:
            b.turns += 1
        self.turn_u = self.rng.random(turn_block_size(self.gems_in_play))
        self.drops = 0
        edge, fi, duration = self.choose(p)
        cumw, cumf = cumulative_tables(*fate_table(edge, fi, duration, self.seat_params[p], self.comp.raft))
        fallen, self.raft = sample_tilt(self.turn_u[1], self.turn_u[2:], self.raft, cumw, cumf)
        self.hand = fallen.copy()
        self.note(f"Turn {self.turn} (round {(self.turn - 1) // self.players + 1}), seat {p + 1}: tilts {edge} edge, "
                  f"{self.comp.raft.fingers[edge][fi]} finger, {duration:.2f} s -> fell {_gems(fallen, self.letters)}")
        self.check_conservation("tilt")
        self.resolve(fallen)

    def resolve(self, fallen: np.ndarray) -> None:
        """Steps 3-8 of a turn for the gems ``fallen`` now in the current player's hand."""
        p = self.current
        wild = self.ncol - 1
        self.load_on(p, self.hand.copy())
        self.check_conservation("loading")
        if self.hand[wild]:
            black = np.zeros(self.ncol, dtype=np.int64)
            black[wild] = self.hand[wild]
            self.note(f"    {_gems(black, self.letters)} back to the raft centre (black is never passed)")
            self.drop_to_centre(black, roll=self.discards_roll)
        if self.hand.any():
            self.stats["gems_passed"] += int(self.hand.sum())
            self.stats["black_passed"] += int(self.hand[wild])
            self.note(f"    passes {_gems(self.hand, self.letters)} to the left")
            for step in range(1, self.players):
                if not self.hand.any():
                    break
                q = (p + step) % self.players
                self.stats["gifts_placed"] += int(self.load_on(q, self.hand.copy()).sum())
            if self.hand.any():
                self.note(f"    nobody can place {_gems(self.hand, self.letters)}: back to the raft centre")
                self.drop_to_centre(self.hand.copy(), roll=self.discards_roll)
        self.check_conservation("passing")
        draws = [0] * self.players
        for step in range(self.players):
            q = (p + step) % self.players
            keep = []
            for b in self.boats[q]:
                if b.complete:
                    self.hand += b.held
                    self.drop_to_centre(b.held.copy())
                    self.water_supply += b.water
                    self.piles[q].append(b.card)
                    self.card_tally[b.card] += (1, b.turns, b.turns)
                    draws[q] += 1
                    if q != p:
                        self.stats["gift_points"] += b.points
                        self.gifted[p] += b.points
                    self.note(f"    seat {q + 1} completes {self.card_name(b.card)}")
                else:
                    keep.append(b)
            self.boats[q] = keep
        self.check_conservation("completing")
        if self.variant == "sinking":
            keep = []
            for b in self.boats[p]:
                if b.water >= self.comp.rules.sink_at:
                    self.hand += b.held
                    self.drop_to_centre(b.held.copy())
                    self.water_supply += b.water
                    self.deck.append(b.card)
                    self.card_tally[b.card, 1] += b.turns
                    draws[p] += int(self.replace_sunk)
                    self.stats["sunk"] += 1
                    self.note(f"    seat {p + 1}'s {self.card_name(b.card)} sinks (card to the bottom of the deck)")
                else:
                    keep.append(b)
            self.boats[p] = keep
            self.check_conservation("sinking")
        for step in range(self.players):
            q = (p + step) % self.players
            for _ in range(draws[q]):
                self.draw(q)
        self.note(f"    raft: {self.raft_text()}")
        if self.flag_drawn and p == self.last:
            self.over = True
        elif self.turn >= self.max_turns:
            self.over = self.truncated = True
            self.note(f"Stopped after {self.turn} turns (max_turns): truncated")
        self.current = (p + 1) % self.players

    def draw(self, q: int) -> None:
        while self.deck:
            card = self.deck.pop(0)
            if card == FLAG:
                self.flag_drawn = True
                self.flag_turn = self.turn
                self.note(f"    seat {q + 1} draws the pirate flag: the game ends after seat {self.last + 1}'s turn")
                continue
            self.boats[q].append(self.new_boat(card))
            self.note(f"    seat {q + 1} draws {self.card_name(card)}")
            return
        self.deck_exhausted = True
        self.note(f"    seat {q + 1} cannot draw: the deck is empty")

    # ------------------------------------------------------------------------------------- whole game
    def play(self) -> GameRecord:
        while not self.over:
            self.play_turn()
        return self.record()

    def record(self) -> GameRecord:
        for seat in self.boats:  # the lifeboats still held at the end: their own turns held
            for b in seat:
                self.card_tally[b.card, 1] += b.turns
        scores = [sum(int(self.points[c]) for c in pile) for pile in self.piles]
        boats = [len(pile) for pile in self.piles]
        best = max(scores)
        top = [p for p in range(self.players) if scores[p] == best]
        most = max(boats[p] for p in top)
        top = [p for p in top if boats[p] == most]
        winner = top[0] if len(top) == 1 else -1
        row = {"players": self.players, "variant": self.variant, "first_player": self.first, "turns": self.turn,
               "rounds": -(-self.turn // self.players), "flag_turn": self.flag_turn}
        row.update({f"score_{p}": scores[p] for p in range(self.players)})
        row.update({f"boats_{p}": boats[p] for p in range(self.players)})
        row.update({f"gifted_{p}": self.gifted[p] for p in range(self.players)})
        row.update({"winner": winner, "tie": winner == -1, "gems_passed": self.stats["gems_passed"],
                    "gifts_placed": self.stats["gifts_placed"], "gift_points": self.stats["gift_points"],
                    "sunk": self.stats["sunk"], "deck_exhausted": self.deck_exhausted, "truncated": self.truncated,
                    "black_passed": self.stats["black_passed"]})
        self.note("Final: " + ", ".join(f"seat {p + 1} {scores[p]} pts ({boats[p]} boats)" for p in range(self.players))
                  + (f"; winner seat {winner + 1}" if winner >= 0 else "; shared win"))
        return GameRecord(row, list(self.log))


def play_game(players: int = 3, variant: str = "standard", policies=None, rng=None, *, trace: bool = True,
              components=None, params=None, skills=None, flag_depth: int | None = None,
              max_turns: int = MAX_TURNS, discards_roll: bool = False, replace_sunk: bool = True) -> GameRecord:
    """Play one game by the readable rules and return its summary and (``trace=True``) transcript.

    Parameters
    ----------
    players : int
        2..4.
    variant : {"standard", "sinking"}
        The rules variant.
    policies : policy, name or list of them (one per seat), optional
        Default: ``"greedy"`` for everyone (names: :mod:`.policies`).
    rng : seed or Generator, optional
        The game's randomness.
    trace : bool
        Keep a transcript.
    components : path or Components, optional
        A components file (partial files merge over the packaged ones) or loaded components.
    params : TiltParams or dict, optional
        Tilt model parameters (default ``data/tilt.toml``).
    skills : float or list of float, optional
        Per-seat timing noise (overrides ``params.timing_noise``).
    flag_depth : int, optional
        Cards before the pirate flag (default: the rules' depth for the player count).
    max_turns : int
        Safety cap (the game is marked ``truncated`` if it is reached).
    discards_roll : bool
        Whether unused black gems and leftovers nobody places may roll out of the centre space like dropped
        gems (default False).
    replace_sunk : bool
        Whether a sunk lifeboat is replaced at the end of the turn like a completed one (default True).

    Returns
    -------
    GameRecord
        ``summary`` (the game's row as in :func:`~.sim.simulate_games`: scores, winner, turns, ``truncated``
        ...) and ``transcript`` (lines; ``.text`` joins them).

    Raises
    ------
    ValueError
        If ``players``, ``variant``, a policy, ``skills``, ``flag_depth`` or ``max_turns`` is not allowed, or
        the components or parameters are invalid (each error names the argument).

    Examples
    --------
    >>> rec = play_game(players=3, variant="sinking", policies="aim", rng=1)
    >>> rec.summary["turns"] % 3 == 0 or rec.summary["truncated"]
    True
    """
    return Game(players, variant, policies, rng=rng, components=components, params=params, skills=skills,
                flag_depth=flag_depth, max_turns=max_turns, trace=trace, discards_roll=discards_roll,
                replace_sunk=replace_sunk).play()

