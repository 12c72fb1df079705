"""The rules of :mod:`.rules` for a batch of games at once (numpy, batch axis first).

Every game has its own generator (a spawned child of the run's seed) and draws the same blocks of
uniforms, in the same layout, as the readable :class:`~pyradice_lab.raft.rules.Game`: one block at
setup and one per turn (random-policy draw, timing node, one per gem on the raft, one per gem dropped
into the centre).  The batch engine steps all its games turn by turn in lockstep, removes finished
games from the arrays, and uses the same option scoring (:func:`.policies.choose_options`) and the
vectorised twin of the loading algorithm (:func:`.loading.load_batch`), so a game comes out identical
in both engines whatever the batch it is played in (tested).  Gem conservation (raft + lifeboats + hand
+ box = the gem set, per colour and per game) and the 16 water tokens are checked after every step.

No compilation: this engine is plain numpy (the rules branch a lot, but at most 4 players x 2
lifeboats, so the branches are small loops over seats and lifeboats with masks over games).
"""

from __future__ import annotations

import numpy as np

from .expectimax import ExactContext
from .layouts import drop_cells, setup_batch, setup_block_size, shuffle_rows
from .loading import load_batch
from .policies import choose_options
from .rules import ConservationError
from .sampling import sample_batch, turn_block_size

__all__ = ["play_batch", "GAME_FIELDS", "CARD_FIELDS"]

#: per-game integer outputs
GAME_FIELDS = ("first_player", "turns", "flag_turn", "gems_passed", "gifts_placed", "gift_points", "sunk",
               "deck_exhausted", "truncated", "black_passed")
#: per-card totals over all games
CARD_FIELDS = ("drawn", "completed", "completed_turns", "completed_turns_sq", "sunk", "held_at_end",
               "gift_completed", "turns_held", "turns_held_sq")


class _Batch:
    """State of ``n`` games in arrays with the batch axis first."""

    def __init__(self, spec, gens, tables):
        (self.players, self.sinking, self.in_play, self.set_counts, self.slots, self.points, self.flag_depth,
         self.boats, self.water_tokens, self.sink_at, self.spill, self.max_turns, self.discards_roll,
         self.replace_sunk) = spec
        (self.kinds, self.pars, self.allowed, self.fall, self.cumw, self.cumf, self.seat_tab, self.nodes) = tables
        self.gens = gens
        n = len(gens)
        self.ids = np.arange(n)
        self.ncol = len(self.in_play)
        self.k = self.slots.shape[1]
        self.n_cards = len(self.points)
        self.g = int(self.in_play.sum())
        self.box = self.set_counts - self.in_play
        self.games = np.zeros((n, len(GAME_FIELDS)), dtype=np.int64)
        self.scores = np.zeros((n, self.players), dtype=np.int64)
        self.boats_done = np.zeros((n, self.players), dtype=np.int64)
        self.gifted = np.zeros((n, self.players), dtype=np.int64)
        self.cards = np.zeros((self.n_cards, len(CARD_FIELDS)), dtype=np.int64)
        # per game and card: completions, own turns held (completed or not) and own turns held until completed
        # (the per-card totals' "completed", "turns_held", "completed_turns")
        self.game_cards = np.zeros((n, self.n_cards, 3), dtype=np.int64)

    # ----------------------------------------------------------------------------------- helpers
    @property
    def rows(self) -> np.ndarray:
        return np.arange(len(self.ids))

    def uniforms(self, size: int) -> np.ndarray:
        return np.stack([self.gens[i].random(size) for i in self.ids]) if len(self.ids) else np.zeros((0, size))

    def check(self, where: str) -> None:
        total = self.raft.sum(axis=1) + self.bheld.sum(axis=(1, 2)) + self.hand + self.box
        bad = (total != self.set_counts).any(axis=1) | (self.hand < 0).any(axis=1) | (self.raft < 0).any(axis=(1, 2))
        if bad.any():
            raise ConservationError(f"gem conservation broken after {where} in games {self.ids[bad].tolist()}")
        if hasattr(self, "supply"):
            water = self.supply + self.bwater.sum(axis=(1, 2))
            if (water != self.water_tokens).any() or (self.supply < 0).any():
                raise ConservationError(f"water tokens broken after {where} in games "
                                        f"{self.ids[water != self.water_tokens].tolist()}")

    def drop(self, vec: np.ndarray, roll: bool = True) -> None:
        """Put gems (n, C) from the hands into the centre, one turn-block uniform per gem (``roll``: each
        may roll into a side neighbour, as :func:`.rules.drop_cell`)."""
        rows = self.rows
        base = 2 + self.g
        for c in range(self.ncol):
            for t in range(int(vec[:, c].max(initial=0))):
                m = np.flatnonzero(vec[:, c] > t)
                u = self.u[m, base + self.dptr[m]]
                cell = drop_cells(u, self.spill) if roll else np.full(len(m), 4, dtype=np.int64)
                self.raft[rows[m], cell, c] += 1
                self.hand[m, c] -= 1
                self.dptr[m] += 1

    def seat_boats(self, q: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Empty slots (n, B, K), points (n, B) and validity of each game's seat ``q[i]`` lifeboats."""
        rows = self.rows
        card = self.bcard[rows, q]
        valid = card >= 0
        empty = np.where(valid[..., None], self.slots[np.maximum(card, 0)] - self.bfill[rows, q], 0)
        pts = np.where(valid, self.points[np.maximum(card, 0)], 0)
        return empty, pts, valid

    def load(self, m: np.ndarray, q: np.ndarray) -> np.ndarray:
        """Games ``m`` load what seat ``q[m]`` can of their hands; returns the gems placed per game."""
        empty, pts, _ = self.seat_boats(q)
        held, fill = load_batch(self.hand[m], empty[m], pts[m])
        self.bheld[m, q[m]] += held
        self.bfill[m, q[m]] += fill
        placed = held.sum(axis=1)
        self.hand[m] -= placed
        return placed.sum(axis=1)

    def compact_seat(self, q: np.ndarray, gone: np.ndarray) -> None:
        """Remove the lifeboats marked ``gone`` (n, B) of seat ``q[i]``, keeping the others in order."""
        rows = self.rows
        order = np.argsort(gone, axis=1, kind="stable")
        for arr in (self.bcard, self.bfill, self.bheld, self.bwater, self.bturns):
            seat = arr[rows, q]
            arr[rows, q] = np.take_along_axis(seat, order.reshape(order.shape + (1,) * (seat.ndim - 2)), axis=1)
        moved_gone = np.take_along_axis(gone, order, axis=1)
        self.bcard[rows[:, None], q[:, None], np.arange(self.boats)[None, :]] = np.where(
            moved_gone, -1, self.bcard[rows, q])
        for arr in (self.bfill, self.bheld):
            arr[rows, q] = np.where(moved_gone[..., None], 0, arr[rows, q])
        for arr in (self.bwater, self.bturns):
            arr[rows, q] = np.where(moved_gone, 0, arr[rows, q])

    def exact_context(self, p: np.ndarray, tab: np.ndarray) -> ExactContext | None:
        """What the exact player reads at the movers' turns (public information), per game."""
        if self.nodes is None:
            return None
        rows, P = self.rows, self.players
        doomed = np.zeros((len(rows), self.boats), dtype=bool)
        if self.sinking:
            doomed = (self.bcard[rows, p] >= 0) & (self.bwater[rows, p] >= self.sink_at)
        flag_in = np.where(self.flag_turn > 0, -1, self.flag_depth - self.head)
        pos = (p - self.first) % P
        later = np.stack([(((p + s) % P - self.first) % P) > pos for s in range(1, P)], axis=1)
        seats = (p[:, None] + np.arange(P)[None, :]) % P
        standings = np.stack([self.pile_pts[rows[:, None], seats], self.pile_n[rows[:, None], seats]], axis=2)
        return ExactContext(self.nodes[0], self.nodes[1], tab, doomed, flag_in, later, self.boats,
                            self.slots.sum(axis=1), self.points, standings, p == self.last)

    # ----------------------------------------------------------------------------------- setup
    def setup(self) -> None:
        n, g, ncol, P, B = len(self.ids), self.g, self.ncol, self.players, self.boats
        u = self.uniforms(setup_block_size(g, self.n_cards))
        self.raft = setup_batch(self.in_play, u, self.spill)
        self.hand = np.zeros((n, ncol), dtype=np.int64)
        order = np.tile(np.arange(self.n_cards), (n, 1))
        shuffle_rows(order, u[:, 2 * g:2 * g + self.n_cards])
        self.bcard = order[:, :P * B].reshape(n, P, B).copy()
        self.bfill = np.zeros((n, P, B, self.k), dtype=np.int64)
        self.bheld = np.zeros((n, P, B, ncol), dtype=np.int64)
        self.bwater = np.zeros((n, P, B), dtype=np.int64)
        self.bturns = np.zeros((n, P, B), dtype=np.int64)
        np.add.at(self.cards[:, 0], self.bcard.ravel(), 1)
        rest = order[:, P * B:]
        d = self.flag_depth
        self.cap = self.n_cards + 1
        self.deck = np.concatenate([rest[:, :d], np.full((n, 1), -1), rest[:, d:]], axis=1)
        self.deck = np.concatenate([self.deck, np.zeros((n, self.cap - self.deck.shape[1]), dtype=np.int64)], axis=1)
        self.head = np.zeros(n, dtype=np.int64)
        self.count = np.full(n, rest.shape[1] + 1, dtype=np.int64)
        self.first = np.minimum((u[:, 2 * g + self.n_cards] * P).astype(np.int64), P - 1)
        self.cur = self.first.copy()
        self.last = (self.first - 1) % P
        self.turn = np.zeros(n, dtype=np.int64)
        self.flag_turn = np.zeros(n, dtype=np.int64)
        self.supply = np.full(n, self.water_tokens, dtype=np.int64)
        self.stats = np.zeros((n, 6), dtype=np.int64)  # passed, gifts, gift pts, black passed, sunk, exhausted
        self.pile_pts = np.zeros((n, P), dtype=np.int64)
        self.pile_n = np.zeros((n, P), dtype=np.int64)
        self.gave = np.zeros((n, P), dtype=np.int64)
        self.check("setup")

    # ----------------------------------------------------------------------------------- a turn
    def turn_step(self) -> None:
        rows, P, B, ncol = self.rows, self.players, self.boats, self.ncol
        p = self.cur
        self.turn += 1
        self.u = self.uniforms(turn_block_size(self.g))
        self.dptr = np.zeros(len(rows), dtype=np.int64)
        valid = self.bcard[rows, p] >= 0
        if self.sinking:
            for b in range(B):
                give = valid[:, b] & (self.supply > 0)
                self.bwater[rows, p, b] += give
                self.supply -= give
        self.bturns[rows, p] += valid
        # choose
        my_empty, my_pts, _ = self.seat_boats(p)
        opp = [self.seat_boats((p + s) % P) for s in range(1, P)]
        opp_empty = np.concatenate([o[0] for o in opp], axis=1)
        opp_pts = np.concatenate([o[1] for o in opp], axis=1)
        tab = self.seat_tab[p]
        o = choose_options(self.kinds[p], self.pars[p], self.allowed[p], self.u[:, 0], self.raft, self.fall[tab],
                           my_empty, my_pts, opp_empty, opp_pts, exact=self.exact_context(p, tab))
        # tilt
        fallen, after = sample_batch(self.u[:, 1], self.u[:, 2:2 + self.g], self.raft, self.cumw[tab, o],
                                     self.cumf[tab, o])
        self.raft = after
        self.hand = fallen
        self.check("tilt")
        # load, black back, pass left, leftovers back
        self.load(rows, p)
        wild = ncol - 1
        black = np.zeros_like(self.hand)
        black[:, wild] = self.hand[:, wild]
        self.drop(black, roll=self.discards_roll)
        left = self.hand.sum(axis=1)
        self.stats[:, 0] += left
        self.stats[:, 3] += self.hand[:, wild]
        for s in range(1, P):
            m = np.flatnonzero(self.hand.sum(axis=1) > 0)
            if not len(m):
                break
            self.stats[m, 1] += self.load(m, (p + s) % P)
        self.drop(self.hand.copy(), roll=self.discards_roll)
        self.check("passing")
        # completions, current player first
        draws = np.zeros((len(rows), P), dtype=np.int64)
        for s in range(P):
            q = (p + s) % P
            card = self.bcard[rows, q]
            full = (card >= 0) & (self.bfill[rows, q] == self.slots[np.maximum(card, 0)]).all(axis=2)
            for b in range(B):
                f = full[:, b]
                if not f.any():
                    continue
                held = np.where(f[:, None], self.bheld[rows, q, b], 0)
                self.hand += held
                self.drop(held)
                self.supply += np.where(f, self.bwater[rows, q, b], 0)
                pts = self.points[np.maximum(card[:, b], 0)]
                self.pile_pts[rows, q] += np.where(f, pts, 0)
                self.pile_n[rows, q] += f
                draws[rows, q] += f
                gift = f & (q != p)
                self.stats[:, 2] += np.where(gift, pts, 0)
                self.gave[rows, p] += np.where(gift, pts, 0)
                c = card[f, b]
                turns = self.bturns[rows, q, b][f]
                np.add.at(self.game_cards, (self.ids[f], c, 0), 1)
                np.add.at(self.game_cards, (self.ids[f], c, 1), turns)
                np.add.at(self.game_cards, (self.ids[f], c, 2), turns)
                np.add.at(self.cards[:, 1], c, 1)
                np.add.at(self.cards[:, 2], c, turns)
                np.add.at(self.cards[:, 3], c, turns * turns)
                np.add.at(self.cards[:, 6], card[gift, b], 1)
                np.add.at(self.cards[:, 7], c, turns)
                np.add.at(self.cards[:, 8], c, turns * turns)
                self.bheld[rows[f], q[f], b] = 0
            if full.any():
                self.compact_seat(q, full)
        self.check("completing")
        if self.sinking:
            card = self.bcard[rows, p]
            sink = (card >= 0) & (self.bwater[rows, p] >= self.sink_at)
            for b in range(B):
                f = sink[:, b]
                if not f.any():
                    continue
                held = np.where(f[:, None], self.bheld[rows, p, b], 0)
                self.hand += held
                self.drop(held)
                self.supply += np.where(f, self.bwater[rows, p, b], 0)
                fr = rows[f]
                self.deck[fr, (self.head[fr] + self.count[fr]) % self.cap] = card[f, b]
                self.count[fr] += 1
                if self.replace_sunk:
                    draws[rows, p] += f
                self.stats[:, 4] += f
                np.add.at(self.cards[:, 4], card[f, b], 1)
                turns = self.bturns[fr, p[f], b]
                np.add.at(self.game_cards, (self.ids[fr], card[f, b], 1), turns)
                np.add.at(self.cards[:, 7], card[f, b], turns)
                np.add.at(self.cards[:, 8], card[f, b], turns * turns)
                self.bheld[fr, p[f], b] = 0
            if sink.any():
                self.compact_seat(p, sink)
            self.check("sinking")
        # refills in turn order from the current player
        for s in range(P):
            q = (p + s) % P
            for d in range(int(draws[rows, q].max(initial=0))):
                need = draws[rows, q] > d
                while need.any():
                    has = need & (self.count > 0)
                    self.stats[need & ~has, 5] = 1
                    need = has
                    if not has.any():
                        break
                    hr = rows[has]
                    c = self.deck[hr, self.head[hr]]
                    self.head[hr] = (self.head[hr] + 1) % self.cap
                    self.count[hr] -= 1
                    flag = c == -1
                    self.flag_turn[hr[flag & (self.flag_turn[hr] == 0)]] = self.turn[hr[flag & (self.flag_turn[hr] == 0)]]
                    got = hr[~flag]
                    slot_b = (self.bcard[got, q[got]] >= 0).sum(axis=1)
                    self.bcard[got, q[got], slot_b] = c[~flag]
                    self.bfill[got, q[got], slot_b] = 0
                    self.bheld[got, q[got], slot_b] = 0
                    self.bwater[got, q[got], slot_b] = 0
                    self.bturns[got, q[got], slot_b] = 0
                    np.add.at(self.cards[:, 0], c[~flag], 1)
                    need = np.zeros(len(rows), dtype=bool)
                    need[hr[flag]] = True
        # end of turn
        over = (self.flag_turn > 0) & (p == self.last)
        trunc = ~over & (self.turn >= self.max_turns)
        self.cur = (p + 1) % P
        done = over | trunc
        if done.any():
            self.finish(done, trunc)

    def finish(self, done: np.ndarray, trunc: np.ndarray) -> None:
        r = np.flatnonzero(done)
        ids = self.ids[r]
        live = self.bcard[r] >= 0
        held = self.bcard[r][live]
        np.add.at(self.cards[:, 5], held, 1)
        turns = self.bturns[r][live]
        np.add.at(self.game_cards, (np.broadcast_to(ids[:, None, None], live.shape)[live], held, 1), turns)
        np.add.at(self.cards[:, 7], held, turns)
        np.add.at(self.cards[:, 8], held, turns * turns)
        st = self.stats[r]
        self.games[ids] = np.stack([self.first[r], self.turn[r], self.flag_turn[r], st[:, 0], st[:, 1], st[:, 2],
                                    st[:, 4], st[:, 5], trunc[r].astype(np.int64), st[:, 3]], axis=1)
        self.scores[ids] = self.pile_pts[r]
        self.boats_done[ids] = self.pile_n[r]
        self.gifted[ids] = self.gave[r]
        keep = ~done
        self.ids = self.ids[keep]
        for name in ("raft", "hand", "bcard", "bfill", "bheld", "bwater", "bturns", "deck", "head", "count", "first",
                     "cur", "last", "turn", "flag_turn", "supply", "stats", "pile_pts", "pile_n", "gave"):
            setattr(self, name, getattr(self, name)[keep])


def play_batch(spec: tuple, gens: list, tables: tuple) -> tuple[np.ndarray, ...]:
    """Play one game per generator in ``gens``; returns (games, scores, boats, gifted, cards, game_cards) arrays
    (``game_cards``: per game and card, completions, own turns held, and own turns held until completed)."""
    batch = _Batch(spec, gens, tables)
    batch.setup()
    while len(batch.ids):
        batch.turn_step()
    return batch.games, batch.scores, batch.boats_done, batch.gifted, batch.cards, batch.game_cards
