"""The expected-points player ``"exact"``: every tilt option valued by the exact outcome distribution.

For each option (edge, finger space, intended duration) the player takes the **exact** distribution of the
gems that fall from the current raft under the tilt model (per timing node, colours are independent and each
colour's count is a Poisson-binomial variable, the pmfs behind
:func:`~pyradice_lab.raft.odds.fallen_joint_pmf` and :func:`.odds.capped_count_pmfs`; mixed over the timing
nodes, so the colours' correlation through the executed duration is kept), and values every possible outcome by what the rules then
do with it: the player's **optimal loading** (:func:`.loading.load_batch`, the engine's own loader), the
black gems it cannot use back to the raft, the other leftovers **passed to the left** and loaded by each
opponent in turn.  The option's value is the expected value of the outcome (a sum over the joint outcome grid,
no sampling, no Poisson approximation).

The value of an outcome, for the player to move (``pars``: gift cost ``g``, equity ``a``, decay ``l``):

- the points of its lifeboats completed this turn, plus ``a * k`` per completion, where ``k`` is the mean over
  the deck of ``points * l ** slots`` (the replacement card's prospects);
- plus the equity of its lifeboats left incomplete: ``a * points * l ** empty_slots`` each, except a lifeboat
  that sinks at the end of this turn (sinking variant: two water tokens), which is worth nothing;
- minus ``g`` times the same quantities for the opponents after the gems passed to them (points completed
  by gifts, and their lifeboats' equity);
- a one-ply look at the end of the game: the pirate flag's depth is public, so the outcome tells whether this
  turn's completions draw the flag.  Once it is drawn, a player with no turn left in the round (the mover,
  and the opponents who already played) holds lifeboats worth only ``END_EQUITY`` of their equity, and no
  replacement prospects.

Only the outcome grid up to the counts that can still change the value is enumerated: an ordinary colour
beyond what the mover and all opponents can place, and black gems beyond the mover's empty slots, all
value alike (black gems are never passed), so the pmfs lump them (``caps``).  The grid is valued once per
turn and shared by every option; the pmfs and the sum over the grid run per game in a compiled loop
(:func:`.expectation.option_expectations`), so the readable engine (n = 1) and the batch engine choose
identically (tested).

Examples
--------
>>> from pyradice_lab.raft import simulate_games
>>> df = simulate_games(4, players=2, policies=["exact", "greedy"], rng=1)
>>> len(df), df.attrs["policies"]
(4, ['exact', 'greedy'])
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .loading import load_batch
from .physics import FALLEN, fate_table

__all__ = ["ExactContext", "node_tables", "exact_values", "outcome_values", "card_prospect", "END_EQUITY"]

#: Share of a lifeboat's equity kept by a player with no turn left (it may still be completed by gifts).
END_EQUITY = 0.0
#: Decimal places the option values are rounded to before choosing (near-ties break by option order,
#: the same way in both engines whatever the rounding of the last bits).
ROUND = 9


@dataclass(frozen=True)
class ExactContext:
    """What the exact player reads besides the boats, for ``n`` games at the mover's turn.

    ``weights`` (T, J) timing-node probabilities and ``node_fall`` (T, O, 9, J) per-node probability that a
    gem on each space falls, per option, for T tilt models (one per distinct timing noise of the seats), and
    ``table`` (n,) the model of each game's mover; ``my_doomed`` (n, B) lifeboats that sink at the end of this turn
    unless completed; ``flag_in`` (n,) cards above the pirate flag still in the deck (-1: already drawn);
    ``opp_later`` (n, P - 1) whether each opponent (in passing order) still plays in this round;
    ``boats`` lifeboat rows per seat; ``deck_slots`` / ``deck_points`` the deck's card sizes and points;
    ``standings`` (n, P, 2) points and lifeboats completed so far of the mover and the opponents (passing
    order); ``last_mover`` (n,) whether the mover is the last player of the round (the player to the right
    of the start player), whose turn ends the game once the flag is drawn.
    """

    weights: np.ndarray
    node_fall: np.ndarray
    table: np.ndarray
    my_doomed: np.ndarray
    flag_in: np.ndarray
    opp_later: np.ndarray
    boats: int
    deck_slots: np.ndarray
    deck_points: np.ndarray
    standings: np.ndarray
    last_mover: np.ndarray

    def take(self, sel) -> ExactContext:
        return ExactContext(self.weights, self.node_fall, self.table[sel], self.my_doomed[sel], self.flag_in[sel],
                            self.opp_later[sel], self.boats, self.deck_slots, self.deck_points, self.standings[sel],
                            self.last_mover[sel])


def node_tables(options, params) -> tuple[np.ndarray, np.ndarray]:
    """Timing-node weights (J,) and per-node fall probabilities (O, 9, J) of every option of an
    :class:`~pyradice_lab.raft.policies.OptionTable` (cached by :func:`.physics.fate_table`)."""
    pf = []
    w = None
    for e, f, d in options.options:
        w, fates = fate_table(e, f, d, params, options.geometry)
        pf.append(fates[:, :, FALLEN].T)
    return np.asarray(w), np.ascontiguousarray(np.stack(pf))


def card_prospect(decay, deck_slots, deck_points) -> np.ndarray:
    """Mean over the deck of ``points * decay ** slots`` (per entry of ``decay``)."""
    decay = np.asarray(decay, dtype=np.float64)
    return (deck_points[None, :] * decay[:, None] ** deck_slots[None, :]).mean(axis=1)


def _caps(raft, my_empty, opp_empty) -> np.ndarray:
    """Per game and colour the count from which more fallen gems of that colour change nothing."""
    tot = raft.sum(axis=1)
    k = my_empty.shape[2]
    caps = np.empty_like(tot)
    caps[:, :k] = np.minimum(tot[:, :k], my_empty.sum(axis=1) + opp_empty.sum(axis=1))
    caps[:, k:] = np.minimum(tot[:, k:], my_empty.sum(axis=(1, 2))[:, None])
    return caps


def _seat_outcomes(gems, game, empty, pts, doomed, decay):
    """One seat loads ``gems`` (R, C) in game ``game[r]`` (:func:`.loading.load_batch`, each distinct (game,
    gems) row once; ``gems`` must already be capped where more gems change nothing).  Per row: gems placed
    (R, C), points completed, lifeboats completed and the equity ``sum points * decay ** empty_slots`` of
    the lifeboats left incomplete (those ``doomed`` (n, B) to sink count 0)."""
    key = game.astype(np.int64)
    for c in range(gems.shape[1]):
        key = key * (int(gems[:, c].max(initial=0)) + 1) + gems[:, c]
    _, first, inv = np.unique(key, return_index=True, return_inverse=True)
    g = game[first]
    held, fill = load_batch(gems[first], empty[g], pts[g])
    p = pts[g]
    rest = (empty[g] - fill).sum(axis=2)
    done = (p > 0) & (rest == 0)
    keep = (p > 0) & ~done & ~doomed[g]
    eq = np.where(keep, p * decay[g][:, None] ** rest, 0.0).sum(axis=1)
    return (held.sum(axis=1)[inv], (p * done).sum(axis=1).astype(np.float64)[inv], done.sum(axis=1)[inv], eq[inv])


def outcome_values(gems, game, pars, my_empty, my_pts, opp_empty, opp_pts, ctx: ExactContext) -> np.ndarray:
    """Value of each outcome row: ``gems`` (R, C) fallen in game ``game[r]`` (see the module docstring).

    ``pars`` (n, 6) policy parameters (column 1 gift cost, 3 equity, 4 decay, 5 win value); the boat arrays
    and ``ctx`` are per game."""
    k = my_empty.shape[2]
    g = game
    cost, equity, decay = pars[g, 1], pars[g, 3], pars[:, 4]
    prospect = equity * card_prospect(decay, ctx.deck_slots, ctx.deck_points)[g]
    need = my_empty.sum(axis=1)
    mine = np.concatenate([np.minimum(gems[:, :k], need[g]), np.minimum(gems[:, k:], need[g].sum(axis=1)[:, None])],
                          axis=1)
    placed, my_done_pts, my_done, my_eq = _seat_outcomes(mine, g, my_empty, my_pts, ctx.my_doomed, decay)
    left = gems - placed
    left[:, k:] = 0  # black gems are never passed
    n_done = my_done.copy()
    seats = opp_empty.shape[1] // ctx.boats
    opp_done_pts = np.zeros((len(g), seats))
    opp_done = np.zeros((len(g), seats), dtype=np.int64)
    opp_eq = np.zeros((len(g), seats))
    never = np.zeros((len(my_pts), ctx.boats), dtype=bool)
    for s in range(seats):
        rows = slice(s * ctx.boats, (s + 1) * ctx.boats)
        capped = np.concatenate([np.minimum(left[:, :k], opp_empty[:, rows].sum(axis=1)[g]), left[:, k:]],
                                axis=1)  # (no black gems left)
        placed, opp_done_pts[:, s], opp_done[:, s], opp_eq[:, s] = _seat_outcomes(
            capped, g, opp_empty[:, rows], opp_pts[:, rows], never, decay)
        left = left - placed
        n_done += opp_done[:, s]
    flag_in = ctx.flag_in[g]
    drawn = (flag_in < 0) | (n_done > flag_in)
    mine_w = np.where(drawn, END_EQUITY, 1.0)
    mine = my_done_pts + mine_w * (equity * my_eq + prospect * my_done)
    opp_w = np.where(drawn[:, None] & ~ctx.opp_later[g], END_EQUITY, 1.0)
    theirs = (opp_done_pts + opp_w * (equity[:, None] * opp_eq + prospect[:, None] * opp_done)).sum(axis=1)
    value = mine - cost * theirs
    # the last player's turn after the flag ends the game: the outcome decides who wins
    ends = ctx.last_mover[g] & drawn
    if ends.any():
        st = ctx.standings[g]
        key = (st[:, :, 0] + np.concatenate([my_done_pts[:, None], opp_done_pts], axis=1)) * 1000 + st[:, :, 1] + \
            np.concatenate([my_done[:, None], opp_done], axis=1)
        top = key == key.max(axis=1, keepdims=True)
        share = top[:, 0] / top.sum(axis=1)
        value = value + np.where(ends, pars[g, 5] * share, 0.0)
    return value


def _grid(caps: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every capped outcome of every game: gems (R, C), game index (R,), offsets (n + 1,)."""
    dims = caps + 1
    size = dims.prod(axis=1)
    offsets = np.concatenate([[0], np.cumsum(size)])
    game = np.repeat(np.arange(len(caps)), size)
    local = np.arange(offsets[-1]) - offsets[game]
    gems = np.empty((len(game), caps.shape[1]), dtype=np.int64)
    for c in range(caps.shape[1] - 1, -1, -1):  # C order: the last colour varies fastest
        gems[:, c] = local % dims[game, c]
        local = local // dims[game, c]
    return gems, game, offsets


def exact_values(pars, raft, my_empty, my_pts, opp_empty, opp_pts, ctx: ExactContext, allowed=None) -> np.ndarray:
    """Expected outcome value (n, O) of every option of ``n`` games (batch axis first); options not
    ``allowed`` (n, O) are skipped (value 0)."""
    from ..engine import aot
    from .expectation import gem_cells, option_expectations

    expectations = aot.entry(option_expectations)   # its ahead-of-time build when ``pyradice-lab compile`` made one

    raft = np.asarray(raft, dtype=np.int64)
    caps = _caps(raft, my_empty, opp_empty)
    # the grid runs with the wild colour slowest, so the compiled sum's inner loop is an ordinary colour
    k = my_empty.shape[2]
    order = np.array([k] + list(range(k)))
    gems, game, offsets = _grid(caps[:, order])
    vals = outcome_values(gems[:, np.argsort(order)], game, pars, my_empty, my_pts, opp_empty, opp_pts, ctx)
    out = np.zeros((len(raft), ctx.node_fall.shape[1]))
    if allowed is None:
        allowed = np.ones(out.shape, dtype=bool)
    for i in range(len(raft)):
        cells, counts = gem_cells(raft[i][:, order])
        t = ctx.table[i]
        out[i] = expectations(cells, counts, caps[i, order], ctx.node_fall[t], ctx.weights[t],
                                     vals[offsets[i]:offsets[i + 1]], allowed[i])
    return np.round(out, ROUND)
