"""A sampling-based Pyradice player: flat Monte Carlo search with rollouts from the compiled engine.

``"flat_mc"`` (budget spelled ``"flat_mc:N"``, rollout policy ``"flat_mc:N:greedy"``, rollout depth
``"flat_mc:N:lookahead:D"`` or ``":full"``) chooses its move like this, on every turn:

1. **What it sees** (:func:`observe`): the pyramids, the cards and discs, which quarry positions hold a die, the
   value of every die whose top face is visible (no die rests on it) and the colour of every die showing at
   least one face.  The rest of the quarry is hidden; the player never reads it.  (Every *available* die has
   its top face visible: a die with a die resting on it has two side neighbours under that same die, so at
   most two free sides.  The values of the dice it can take are therefore always known.)
2. **Candidates** (:func:`move_values`, compiled): every legal (die, space, skill option) valued as the
   ``lookahead`` policy values it; the ``candidates`` best are kept, at most ``per_pair`` skill options per
   (die, space).
3. **Sampling the hidden quarry** (:func:`determinize`): hidden values are fair d6 rolls and hidden colours a
   draw without replacement from the dice of the box it has not seen (box minus the colours visible in the
   quarry and in every pyramid).  This is the exact posterior: the quarry was set up that way and nothing
   else has been revealed.  (The side faces of a covered die are not modelled, so its value is not narrowed by
   them.)
4. **Rollouts, truncated** (issue 27): for each sampled quarry, every surviving candidate is played, then
   ``depth`` - 1 more turns (3 turns in all by default: the candidate, the next seat's reply, the following
   move) by every seat with the ``rollout`` policy (``lookahead`` by default) through :func:`.kernel.play_batch`
   (forced first move), and the position is valued by the ``lookahead`` valuation of every pyramid: own minus
   the best other, in VP (:func:`evaluate_rows`).  A rollout that reaches the end of the game is valued by its
   result instead: ``win + margin * (own VP - best other VP)`` (``win``: 1, 1/k when k seats share it, 0).
   ``depth = 0`` (``"flat_mc:N:R:full"``) plays every rollout to the end: issue 12's player, spelled
   :data:`FLAT_MC_FULL` (16 greedy rollouts to the end; the same games as before).  All candidates share the
   same samples and tie-break numbers (common random numbers).  The budget of ``rollouts`` per decision (8 by
   default) is spread by **sequential halving** (Karnin et al. 2013; :func:`halving_schedule`): every round
   gives each survivor the same number of new samples and keeps the better half.

   Why truncated: the cut is cheaper (3 turns instead of up to 41) *and* less noisy than a finished game (a
   win share of 0 or 1 on one sample); the default beat issue 12's player in 2,000 games at about 1/12 of its
   CPU (docs/guide/pyradice.md).

The player's random numbers come from the turn's dealt uniforms (:class:`.rules.Deal`), so a game is still a
pure function of its deal: the readable engine (:func:`flat_mc` as a policy of :func:`.sim.play_game`) and the
batched driver (:func:`play_search_deals`, used by :func:`.sim.simulate_games`) play identical games.

Examples
--------
>>> spec = FlatMC.parse("flat_mc:32")
>>> spec.rollouts, spec.rollout, spec.depth, spec.name
(32, 'lookahead', 3, 'flat_mc:32')
>>> FlatMC.parse(FLAT_MC_FULL)
FlatMC(rollouts=16, rollout='greedy', candidates=8, per_pair=2, margin=0.02, depth=0)
>>> FlatMC.parse("greedy") is None
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..engine import aot
from ..engine._jit import njit
from ._search_candidates import (
    _available as _available,
    box_counts,
    candidates,
    determinize,
    move_values,
    observe,
)
from .geometry import PYRAMID
from .kernel import GEO, KERNEL_OPTIONS, compile_options, evaluate, play_batch, workspace

__all__ = ["FlatMC", "SEARCH_POLICY", "FLAT_MC_FULL", "observe", "determinize", "move_values", "candidates", "decide",
           "halving_schedule",
           "play_search_deals", "flat_mc", "is_search_policy"]

#: The policy name of the search player (``"flat_mc"``, ``"flat_mc:N"``, ``"flat_mc:N:greedy|lookahead"``,
#: ``"flat_mc:N:greedy|lookahead:D|full"``).
SEARCH_POLICY = "flat_mc"
#: The search player of issue 12 (before issue 27): 16 rollouts a decision played to the end of the game by
#: greedy seats.  ~12x the CPU of today's default and weaker than it (docs/guide/pyradice.md); kept for comparisons.
FLAT_MC_FULL = "flat_mc:16:greedy:full"
_ROLLOUT_CODES = {"greedy": 1, "lookahead": 2}
_SPELLING = ("'flat_mc', 'flat_mc:N', 'flat_mc:N:greedy|lookahead' or 'flat_mc:N:greedy|lookahead:D|full' "
             "(N rollouts a decision, D turns a rollout, full: to the end of the game)")


@dataclass(frozen=True)
class FlatMC:
    """Parameters of the flat Monte Carlo player (see the module docstring).

    Attributes
    ----------
    rollouts : int
        Rollouts per decision (the budget, spread over the candidates by sequential halving).
    rollout : {"greedy", "lookahead"}
        The policy every seat plays in the rollouts.
    candidates : int, optional
        Moves kept for the rollouts (the best by the lookahead valuation); default 6, or 8 with ``depth=0``
        (issue 12's player).
    per_pair : int
        At most this many skill options of one (die, space) among the candidates.
    margin : float
        Weight of the VP margin (own score minus the best other score) added to the win (0, 1/k or 1) of a
        rollout played to the end of the game.
    depth : int
        Turns a rollout plays (the candidate's included) before it is valued by the ``lookahead`` valuation of
        every pyramid (own minus the best other, VP); 0: to the end of the game (``"full"`` in the name).  A
        rollout reaching the last turn is valued by the game's result either way.
    """

    rollouts: int = 8
    rollout: str = "lookahead"
    candidates: int | None = None
    per_pair: int = 2
    margin: float = 0.02
    depth: int = 3

    def __post_init__(self):
        if self.candidates is None:            # 6 for truncated rollouts; 8 for full ones (issue 12's player)
            object.__setattr__(self, "candidates", 6 if self.depth else 8)
        for name in ("rollouts", "candidates", "per_pair", "depth"):
            v = getattr(self, name)
            low = 0 if name == "depth" else 1
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < low:
                raise ValueError(f"{name} must be an integer >= {low}, got {v!r}")
        if self.rollout not in _ROLLOUT_CODES:
            raise ValueError(f"rollout must be one of {sorted(_ROLLOUT_CODES)}, got {self.rollout!r}")
        if not (isinstance(self.margin, (int, float)) and math.isfinite(self.margin) and self.margin >= 0):
            raise ValueError(f"margin must be a finite number >= 0, got {self.margin!r}")

    @property
    def name(self) -> str:
        """The policy name that parses back to these parameters (defaults left out; ``candidates``,
        ``per_pair`` and ``margin`` have no spelling).

        >>> FlatMC(rollouts=16, rollout="greedy", depth=0).name
        'flat_mc:16:greedy:full'
        """
        parts = [self.rollouts, self.rollout, self.depth or "full"]
        default = [FlatMC.rollouts, FlatMC.rollout, FlatMC.depth]
        while parts and [self.rollouts, self.rollout, self.depth][len(parts) - 1] == default[len(parts) - 1]:
            parts.pop()
        return ":".join([SEARCH_POLICY, *(str(x) for x in parts)])

    @classmethod
    def parse(cls, name) -> FlatMC | None:
        """The parameters of a search policy name, or None if ``name`` is not one (ValueError if malformed)."""
        if not isinstance(name, str) or name.split(":")[0] != SEARCH_POLICY:
            return None
        parts = name.split(":")[1:]
        if len(parts) > 3:
            raise ValueError(f"policies: a search player is spelled {_SPELLING}, got {name!r}")
        kw = {}
        if parts:
            if not parts[0].isdigit() or int(parts[0]) < 1:
                raise ValueError(f"policies: the budget of {name!r} must be a positive integer (rollouts per "
                                 f"decision), got {parts[0]!r}")
            kw["rollouts"] = int(parts[0])
        if len(parts) >= 2:
            if parts[1] not in _ROLLOUT_CODES:
                raise ValueError(f"policies: the rollout policy of {name!r} must be one of "
                                 f"{sorted(_ROLLOUT_CODES)}, got {parts[1]!r}")
            kw["rollout"] = parts[1]
        if len(parts) == 3:
            if parts[2] != "full" and not (parts[2].isdigit() and int(parts[2]) >= 1):
                raise ValueError(f"policies: the rollout depth of {name!r} must be a positive integer (turns) or "
                                 f"'full' (to the end of the game), got {parts[2]!r}")
            kw["depth"] = 0 if parts[2] == "full" else int(parts[2])
        return cls(**kw)


def is_search_policy(name) -> bool:
    """Whether ``name`` names the search player (any budget)."""
    return isinstance(name, str) and name.split(":")[0] == SEARCH_POLICY


# ----------------------------------------------------------------------------------------- rollouts
@dataclass
class _Decision:
    """One pending decision: what the mover sees, its candidates and the rollout results so far."""

    seat: int
    turn: int
    first: int
    occ: np.ndarray
    obs_values: np.ndarray
    obs_colours: np.ndarray
    pv: np.ndarray              # (players, 21)
    pc: np.ndarray
    discs: np.ndarray
    spec: FlatMC
    rng: np.random.Generator
    cands: np.ndarray           # (k, 4)
    alive: np.ndarray = None    # indices into cands
    total: np.ndarray = None    # summed rollout value per candidate
    count: np.ndarray = None


def halving_schedule(k: int, rollouts: int) -> list[int]:
    """Samples per surviving candidate in each round of sequential halving over ``k`` candidates.

    ``ceil(log2 k)`` rounds; round r gives each of its survivors ``max(1, rollouts // (rounds * survivors))``
    samples, then keeps the better half (rounded up).

    >>> halving_schedule(8, 8), halving_schedule(8, 16), halving_schedule(1, 8)
    ([1, 1, 1], [1, 1, 2], [])
    """
    if k <= 1:
        return []
    rounds = max(1, math.ceil(math.log2(k)))
    out, alive = [], k
    while alive > 1:
        out.append(max(1, rollouts // (rounds * alive)))
        alive = math.ceil(alive / 2)
    return out


@njit(**KERNEL_OPTIONS)  # as the game kernels: no reference counting (it allocates nothing), no rewrite passes
def evaluate_rows(pv, pc, mode, tab, discs, geo, work, terms, out):
    """``out[r, s]``: the ``mode`` valuation (milli-VP) of seat ``s``'s pyramid in row ``r`` (truncated rollouts)."""
    for r in range(pv.shape[0]):
        for s in range(pv.shape[1]):
            out[r, s] = evaluate(pv[r, s], pc[r, s], mode, np.int64(-1), tab, discs[r], geo, work, terms, terms)


#: the compiled functions called from here: their ahead-of-time builds when ``pyradice-lab compile`` made them
#: (:mod:`pyradice_lab.engine.aot`)
_PLAY = aot.entry(play_batch)
_EVALUATE_ROWS = aot.entry(evaluate_rows)


def _outcome_values(totals, goals, seat, margin: float) -> np.ndarray:
    """Rollout value to ``seat`` (one per row): win share (rules' tie-breaks) + margin x (own VP - best other VP)."""
    rows = np.arange(len(totals))
    top = totals.max(axis=1, keepdims=True)
    tied = totals == top
    g = np.where(tied, goals, -1)
    win = tied & (g == g.max(axis=1, keepdims=True))
    share = win[rows, seat] / win.sum(axis=1)
    return share + margin * _margin(totals, seat)


def _margin(scores, seat) -> np.ndarray:
    """Own score minus the best other score, per row (``seat``: one seat per row)."""
    rows = np.arange(len(scores))
    others = scores.astype(float)
    own = others[rows, seat].copy()
    others[rows, seat] = -np.inf
    return own - others.max(axis=1)


def _run_rollouts(jobs, setup_tab, n_colours: int, players: int, turns: int, codes: np.ndarray, qgeo, stop: int,
                  margin: float):
    """Play every (decision, candidate, sample) rollout of one round in one kernel call (turns up to ``stop``);
    returns per job the values, shape (candidates, samples)."""
    sizes = [len(cand) * len(vals) for _, cand, vals, _, _ in jobs]
    r = sum(sizes)
    n = jobs[0][0].occ.shape[0]
    rep = np.repeat(np.arange(len(jobs)), sizes)                  # the job of every row
    n_s = np.array([len(vals) for _, _, vals, _, _ in jobs])
    offset = np.concatenate([[0], np.cumsum(n_s)[:-1]])
    first_row = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    sample = offset[rep] + (np.arange(r) - first_row[rep]) % n_s[rep]   # row = candidate * samples + sample
    values = np.concatenate([vals for _, _, vals, _, _ in jobs])[sample]
    colours = np.concatenate([cols for _, _, _, cols, _ in jobs])[sample]
    uniforms = np.concatenate([unif for _, _, _, _, unif in jobs])[sample]
    decs = [job[0] for job in jobs]
    discs = np.stack([d.discs for d in decs])[rep]
    first = np.array([d.first for d in decs], np.int64)[rep]
    start = np.array([d.turn for d in decs], np.int64)[rep]
    seat = np.array([d.seat for d in decs], np.int64)[rep]
    qocc = np.stack([d.occ for d in decs])[rep]
    pv = np.stack([d.pv for d in decs])[rep]
    pc = np.stack([d.pc for d in decs])[rep]
    moves = np.full((r, turns, 3), -1, np.int64)
    moves[np.arange(r), start] = np.concatenate([np.repeat(cand[:, :3], len(vals), axis=0)
                                                 for _, cand, vals, _, _ in jobs])
    totals = np.zeros((r, players), np.int64)
    met = np.zeros((r, players, 5), np.int64)
    with compile_options():
        _PLAY(values, colours, discs, first, start, stop, qocc, uniforms, codes,
                   np.stack([setup_tab] * players), qgeo, setup_tab, n_colours, GEO, pv, pc, totals, met,
                   np.zeros((r, players, 4), np.int64), np.zeros((r, turns), np.int64),
                   moves, np.zeros((r, players), np.int64), *workspace(n, n_colours))
    if stop < turns:                       # truncated: the lookahead valuation of every pyramid, in VP
        ev = np.zeros((r, players), np.int64)
        w = workspace(n, n_colours)
        _EVALUATE_ROWS(pv, pc, np.int64(2), setup_tab, discs, GEO, w[5], w[8], ev)
        v = _margin(ev / 1000.0, seat)
    else:
        v = _outcome_values(totals, met.sum(axis=2), seat, margin)
    out = []
    lo = 0
    for (_, cand, vals, _, _), size in zip(jobs, sizes):
        out.append(v[lo:lo + size].reshape(len(cand), len(vals)))
        lo += size
    return out


def decide(decisions: Sequence[_Decision], setup_tab, n_colours: int, players: int, box,
           qgeo) -> list[tuple[int, int, int]]:
    """Sequential halving over the candidates of several decisions at once; the chosen (take, place, option).

    Each decision draws its samples (hidden quarries and the rollouts' tie-break numbers) for every round
    (:func:`halving_schedule`) up front, in one draw (the full-rollout player: one draw per round, in order).  ``qgeo``: the packed quarry geometry (:func:`.sim.quarry_table`).
    """
    turns = PYRAMID.n * players
    groups: dict[tuple, list] = {}
    for dec in decisions:
        dec.alive = np.arange(len(dec.cands))
        dec.total = np.zeros(len(dec.cands))
        dec.count = np.zeros(len(dec.cands), np.int64)
        if len(dec.cands) > 1:
            stop = turns if dec.spec.depth == 0 else min(turns, dec.turn + dec.spec.depth)
            groups.setdefault((dec.spec.rollout, stop, dec.spec.margin), []).append(dec)
    for (rollout, stop, margin), group in groups.items():
        codes = np.full(players, _ROLLOUT_CODES[rollout], np.int64)
        plan = {}
        for dec in group:
            sched = halving_schedule(len(dec.cands), dec.spec.rollouts)
            # the full-rollout player draws round by round (issue 12's random stream: its games are unchanged)
            chunks = sched if dec.spec.depth == 0 else [sum(sched)]
            draws = [(*determinize(dec.obs_values, dec.obs_colours, dec.occ, dec.pc.ravel(), box, per, rng=dec.rng),
                      dec.rng.random((per, turns, 3))) for per in chunks]
            plan[id(dec)] = (sched, *(x[0] if len(x) == 1 else np.concatenate(x) for x in zip(*draws)))
        active, rnd = list(group), 0
        while active:
            jobs = []
            for dec in active:
                sched, vals, cols, unif = plan[id(dec)]
                lo = sum(sched[:rnd])
                hi = lo + sched[rnd]
                jobs.append((dec, dec.cands[dec.alive], vals[lo:hi], cols[lo:hi], unif[lo:hi]))
            results = _run_rollouts(jobs, setup_tab, n_colours, players, turns, codes, qgeo, stop, margin)
            still = []
            for (dec, _, _, _, _), res in zip(jobs, results):
                dec.total[dec.alive] += res.sum(axis=1)
                dec.count[dec.alive] += res.shape[1]
                mean = dec.total[dec.alive] / dec.count[dec.alive]
                keep = np.argsort(-mean, kind="stable")[:max(1, math.ceil(len(dec.alive) / 2))]
                dec.alive = dec.alive[np.sort(keep)]
                if len(dec.alive) > 1:
                    still.append(dec)
            active, rnd = still, rnd + 1
    return [tuple(int(x) for x in dec.cands[dec.alive[0], :3]) for dec in decisions]


def _turn_rng(u) -> np.random.Generator:
    """The search's generator for one turn, from that turn's dealt uniforms (a game stays a function of its deal)."""
    words = [int(x * (1 << 53)) for x in np.asarray(u, dtype=float)]
    return np.random.default_rng(np.random.SeedSequence(words))


def _decision(spec: FlatMC, seat: int, turn: int, first: int, occ, values, colours, pv, pc, discs, u, tab,
              players: int) -> _Decision:
    obs_v, obs_c = observe(values, colours, occ, players)
    cands = candidates(pv[seat], pc[seat], obs_v, obs_c, occ, tab, discs, players, k=spec.candidates,
                       per_pair=spec.per_pair)
    return _Decision(seat, turn, first, np.asarray(occ, np.int64), obs_v, obs_c, np.array(pv, np.int64),
                     np.array(pc, np.int64), np.asarray(discs, np.int64), spec, _turn_rng(u), cands)


# ----------------------------------------------------------------------------------------- whole games
def play_search_deals(deals, setup, policies: Sequence[str], *, tab, n_colours: int, ptab, codes,
                      qgeo) -> dict[str, np.ndarray]:
    """Play dealt games where some seats are search players; the arrays of :func:`.sim.play_deals`.

    ``tab``/``n_colours``: the setup's kernel tables (:func:`.sim.kernel_tables`); ``ptab``/``codes``: per seat
    the table it chooses with and its compiled policy code (a search seat: the plain table, greedy);
    ``qgeo``: :func:`.sim.quarry_table`.  (:func:`.sim.play_deals` passes them all.)

    All games advance turn by turn together: the search seats to move decide (their rollouts of every game in
    one kernel call per halving round), then one :func:`.kernel.play_batch` call plays the turn of every game
    (forced moves for the search seats, the compiled policies for the others).
    """
    from .rules import first_player, turns_of

    players = deals[0].players
    b = len(deals)
    turns = turns_of(players)
    specs = [FlatMC.parse(p) for p in policies]
    box = box_counts(setup, players)
    values = np.stack([d.values for d in deals])
    colours = np.stack([d.colours for d in deals])
    discs = np.stack([d.discs for d in deals])
    uniforms = np.stack([d.uniforms for d in deals])
    n = values.shape[1]
    out = dict(totals=np.zeros((b, players), np.int64), met=np.zeros((b, players, 5), np.int64),
               cards=np.zeros((b, players, 4), np.int64),
               first=np.array([first_player(d.rolls) for d in deals], dtype=np.int64),
               choices=np.zeros((b, turns), np.int64), moves=np.full((b, turns, 3), -1, np.int64),
               final_v=np.zeros((b, players, 21), np.int64), final_c=np.full((b, players, 21), -1, np.int64),
               skills_used=np.zeros((b, players), np.int64))
    occ = np.ones((b, n), np.int64)
    for t in range(turns):
        seats = (out["first"] + t) % players
        todo = [g for g in range(b) if specs[seats[g]] is not None]
        if todo:
            decs = [_decision(specs[seats[g]], int(seats[g]), t, int(out["first"][g]), occ[g], values[g], colours[g],
                              out["final_v"][g], out["final_c"][g], discs[g], uniforms[g, t], tab, players)
                    for g in todo]
            for g, mv in zip(todo, decide(decs, tab, n_colours, players, box, qgeo)):
                out["moves"][g, t] = mv
        with compile_options():
            _PLAY(values, colours, discs, out["first"], np.full(b, t, np.int64), t + 1, occ, uniforms, codes,
                       ptab, qgeo, tab, n_colours, GEO, out["final_v"], out["final_c"], out["totals"], out["met"],
                       out["cards"], out["choices"], out["moves"], out["skills_used"],
                       *workspace(n, n_colours))         # fresh: the search cache's stamps restart at 0
        occ[np.arange(b), out["moves"][:, t, 0]] = 0
    return out


# ----------------------------------------------------------------------------------------- readable engine
def flat_mc(state, u, spec: FlatMC | None = None, *, tab, n_colours: int, qgeo) -> tuple[int, int, int]:
    """The search player as a policy of the readable engine: ``(take, place, option)`` for ``state``'s mover.

    ``tab``, ``n_colours`` and ``qgeo`` are the setup's kernel tables and the packed quarry geometry
    (:func:`.sim.policy_function` binds them).  It reads only what the mover sees (:func:`observe`) and plays the
    same move as :func:`play_search_deals` from the same deal.

    Parameters
    ----------
    state : GameState
        The game in progress; the search chooses for ``state.seat``.
    u : sequence of 3 floats in [0, 1)
        The turn's dealt uniform numbers (they seed the rollouts and break ties).
    spec : FlatMC, optional
        The search's parameters (rollouts, rollout policy, candidates; default ``FlatMC()``).
    tab : numpy.ndarray
        The setup's kernel table (``kernel_tables(setup)["tab"]``, :func:`.sim.kernel_tables`).
    n_colours : int
        Number of dice colours of the setup (``kernel_tables(setup)["n_colours"]``).
    qgeo : numpy.ndarray
        The packed quarry geometry of ``state.players`` (:func:`.sim.quarry_table`).

    Returns
    -------
    tuple of (int, int, int)
        ``(take, place, option)`` as for the other policies (:mod:`.policies`): quarry position, pyramid space,
        skill option index (-1: none).

    Examples
    --------
    >>> from .components import Setup
    >>> from .rules import GameState, deal
    >>> from .sim import kernel_tables, quarry_table
    >>> setup = Setup.default()
    >>> g = GameState.start(deal(2, setup, rng=1), setup)
    >>> tabs = kernel_tables(setup)
    >>> take, place, option = flat_mc(g, g.deal.uniforms[0], FlatMC(rollouts=8), tab=tabs["tab"],
    ...                               n_colours=tabs["n_colours"], qgeo=quarry_table(2))
    >>> take in g.legal_takes(), place in range(6)
    (True, True)
    """
    spec = spec or FlatMC()
    setup = state.table.setup
    players = state.players
    pv = np.array([v for v, _ in state.pyramids], np.int64)
    pc = np.array([c for _, c in state.pyramids], np.int64)
    dec = _decision(spec, state.seat, state.turn, state.first, state.quarry.occupied.astype(np.int64),
                    state.quarry.values, state.quarry.colours, pv, pc, np.array(state.table.discs, np.int64), u,
                    tab, players)
    return decide([dec], tab, n_colours, players, box_counts(setup, players), qgeo)[0]
