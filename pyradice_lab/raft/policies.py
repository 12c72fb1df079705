"""Named policies: how a pirate chooses the edge to lower, the finger space and the tilt duration.

A turn's choice is one *option* (edge, finger space, intended duration) from a grid.  The built-in
policies score options with the tilt model's exact per-gem fall probabilities (averaged over the
player's timing noise, the same numbers behind :func:`~pyradice_lab.raft.tilt_distribution`), using a
Poisson approximation of the gems of each colour that will fall:

- ``fixed(duration)``: always the same intended duration; the edge and finger space that best serve
  the player's lifeboats at that duration (the ``aim`` score), or a fixed edge/finger if given.
- ``aim(gift_weight)``: "aim for what my boats need": expected gems the player can place (ordinary
  gems on matching empty slots, blacks on what is left) minus ``gift_weight`` x expected ordinary gems
  that will be passed on to opponents.
- ``greedy(gift_cost, progress_weight)``: expected points of the player's lifeboats completed this
  turn, minus ``gift_cost`` x expected points of opponents' lifeboats completed by the gems passed to
  them, plus ``progress_weight`` x the aim score's expected gems placed.
- ``random``: a uniformly random option (a baseline).
- ``exact(gift_cost, equity, decay)``: the expected-points player of :mod:`.expectimax`: the exact outcome
  distribution of every option (no Poisson approximation), each outcome valued by optimal loading, the gifts
  to opponents and a one-ply look at the pirate flag and at sinking lifeboats.  The strongest player.

Restricted players (restricted play, :func:`pyradice_lab.design.strength.restricted_play`) are spelled
``"<policy>/<restriction>"``, e.g. ``"greedy/centre_finger"``; :data:`RESTRICTIONS` lists them.  They only
narrow the options a policy may choose or drop a term of its score, so both engines play them unchanged.

The scoring (:func:`score_options`, vectorised over games and options) is called by both game engines
(the readable one in :mod:`.rules` with one game, the batch engine :mod:`.kernel` with many), so they
choose identically.  A custom policy is
any callable ``policy(view) -> (edge, finger, duration)``; it runs in the readable engine only.

Examples
--------
>>> from pyradice_lab.raft import policies
>>> policies.get_policy("greedy").name
'greedy'
>>> policies.get_policy("fixed:1.5").durations
(1.5,)
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from .components import EDGES, RaftGeometry
from .physics import FALLEN, TiltParams, check_duration, check_edge, fate_table

__all__ = ["Policy", "fixed", "aim", "greedy", "random_policy", "exact", "get_policy", "POLICY_NAMES", "OptionTable",
           "choose_options", "score_options", "DEFAULT_DURATIONS", "EXACT_DURATIONS", "KIND_CODES", "RESTRICTIONS",
           "restrict"]

DEFAULT_DURATIONS = (0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 5.0)
#: the exact player's duration grid
EXACT_DURATIONS = (0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0)
KIND_CODES = {"aim": 0, "greedy": 1, "random": 2, "exact": 3}
POLICY_NAMES = ("fixed", "aim", "greedy", "random", "exact")


@dataclass(frozen=True)
class Policy:
    """A built-in policy: a scoring ``kind`` over the options it may choose, with its weights."""

    name: str
    kind: str
    durations: tuple[float, ...] = DEFAULT_DURATIONS
    edge: str | None = None
    finger: str | int | None = None
    gift_weight: float = 0.5
    gift_cost: float = 1.0
    progress_weight: float = 0.25
    extra: dict = field(default_factory=dict, compare=False)
    equity: float = 0.5   # exact: weight of an incomplete lifeboat's equity
    decay: float = 0.5    # exact: equity factor per empty slot
    win_value: float = 50.0  # exact: points a win is worth on a turn that ends the game
    fingers: tuple[str, ...] | None = None  # finger space names allowed on any edge (None: all)

    def pars(self) -> np.ndarray:
        return np.array([self.gift_weight, self.gift_cost, self.progress_weight, self.equity, self.decay,
                         self.win_value], dtype=np.float64)


def _check_weight(v, name):
    if isinstance(v, bool) or not isinstance(v, numbers.Real) or not (0 <= v < math.inf):
        raise ValueError(f"{name} must be a non-negative number, got {v!r}")
    return float(v)


def _check_durations(durations, name="durations") -> tuple[float, ...]:
    if isinstance(durations, numbers.Real):
        durations = (durations,)
    if not isinstance(durations, Sequence) or not durations:
        raise ValueError(f"{name} must be a non-empty list of seconds, got {durations!r}")
    lim = TiltParams()
    return tuple(sorted({check_duration(d, lim, name) for d in durations}))


def fixed(duration: float = 1.0, edge: str | None = None, finger=None) -> Policy:
    """Always tilt for ``duration`` seconds (on the best edge/finger for one's boats, or the one given)."""
    d = _check_durations(duration, "duration")
    e = None if edge is None else check_edge(edge)
    if finger is not None and e is None:
        raise ValueError("finger can only be fixed together with edge")
    return Policy(f"fixed({d[0]:g}s" + (f", {e}/{finger}" if e else "") + ")", "aim", d, e, finger, 0.5)


def aim(durations=DEFAULT_DURATIONS, gift_weight: float = 0.5) -> Policy:
    """Aim for what my boats need: expected gems placed minus ``gift_weight`` x expected gifts."""
    return Policy("aim", "aim", _check_durations(durations), gift_weight=_check_weight(gift_weight, "gift_weight"))


def greedy(durations=DEFAULT_DURATIONS, gift_cost: float = 1.0, progress_weight: float = 0.25) -> Policy:
    """Greedy expected points this turn, minus ``gift_cost`` x expected points handed to opponents."""
    return Policy("greedy", "greedy", _check_durations(durations), gift_cost=_check_weight(gift_cost, "gift_cost"),
                  progress_weight=_check_weight(progress_weight, "progress_weight"))


def random_policy(durations=DEFAULT_DURATIONS) -> Policy:
    """A uniformly random option each turn."""
    return Policy("random", "random", _check_durations(durations))


def exact(durations=EXACT_DURATIONS, gift_cost: float = 1.0, equity: float = 0.5, decay: float = 0.5,
          win_value: float = 50.0) -> Policy:
    """The expected-points player (:mod:`.expectimax`): maximises the expected value of the exact tilt outcome,
    valued by optimal loading; ``gift_cost`` weighs what the gems passed on bring the opponents, ``equity`` and
    ``decay`` value an incomplete lifeboat at ``equity * points * decay ** empty_slots``; on a turn that ends the
    game (the last player's, once the flag is drawn) winning is worth ``win_value`` points more."""
    if isinstance(decay, bool) or not isinstance(decay, numbers.Real) or not 0 <= decay <= 1:
        raise ValueError(f"decay must be a number in [0, 1], got {decay!r}")
    return Policy("exact", "exact", _check_durations(durations), gift_cost=_check_weight(gift_cost, "gift_cost"),
                  equity=_check_weight(equity, "equity"), decay=float(decay),
                  win_value=_check_weight(win_value, "win_value"))


#: Restrictions of restricted play: name -> one-line description (see :func:`restrict`).
RESTRICTIONS = {
    "centre_finger": "presses only the centre finger space (edges without one are never lowered)",
    "fixed_duration": "one intended tilt duration, 1 s (a fixed:<s> player keeps its own)",
    "ignore_gifts": "chooses tilts without weighing the gems passed on to opponents (gift weights 0)",
}


def restrict(policy: Policy, restriction: str) -> Policy:
    """``policy`` forbidden one option (a name of :data:`RESTRICTIONS`); named ``"<policy>/<restriction>"``.

    >>> restrict(greedy(), "fixed_duration").durations
    (1.0,)
    """
    if restriction not in RESTRICTIONS:
        raise ValueError(f"policies: restriction must be one of {sorted(RESTRICTIONS)}, got {restriction!r}")
    name = f"{policy.name}/{restriction}"
    if restriction == "centre_finger":
        return replace(policy, name=name, fingers=("centre",))
    if restriction == "fixed_duration":
        return replace(policy, name=name, durations=policy.durations if len(policy.durations) == 1 else (1.0,))
    return replace(policy, name=name, gift_weight=0.0, gift_cost=0.0)


def get_policy(spec) -> Policy | Callable:
    """A policy from a name (``"fixed"``, ``"fixed:1.5"``, ``"aim"``, ``"greedy"``, ``"random"``, any of them
    restricted: ``"greedy/centre_finger"``, see :data:`RESTRICTIONS`), a :class:`Policy`, or a callable
    ``view -> (edge, finger, duration)`` (returned as is)."""
    if isinstance(spec, Policy) or (callable(spec) and not isinstance(spec, str)):
        return spec
    if isinstance(spec, str) and "/" in spec:
        base, _, restriction = spec.partition("/")
        pol = get_policy(base)
        for r in restriction.split("/"):
            pol = restrict(pol, r.strip())
        return pol
    if isinstance(spec, str):
        name, _, arg = spec.partition(":")
        name = name.strip().lower()
        if name == "fixed":
            try:
                seconds = float(arg) if arg else 1.0
            except ValueError:
                raise ValueError(f"policies: fixed:<seconds> needs a number of seconds, got {spec!r}") from None
            try:
                return fixed(seconds)
            except ValueError as exc:
                raise ValueError(f"policies: {spec!r}: {exc}") from None
        if arg:
            raise ValueError(f"policies: only 'fixed' takes an argument (fixed:<seconds>), got {spec!r}")
        if name == "aim":
            return aim()
        if name == "greedy":
            return greedy()
        if name == "random":
            return random_policy()
        if name == "exact":
            return exact()
    raise ValueError(f"policies must be names among {list(POLICY_NAMES)} (or fixed:<seconds>), Policy objects "
                     f"or callables, got {spec!r}")


# ----------------------------------------------------------------------------------------- options
class OptionTable:
    """Every (edge, finger index, duration) option of a game, and per-seat tables over them."""

    def __init__(self, geometry: RaftGeometry, durations: Sequence[float]):
        self.geometry = geometry
        self.durations = tuple(sorted(set(float(d) for d in durations)))
        self.options = [(e, f, d) for e in EDGES for f in range(len(geometry.fingers[e])) for d in self.durations]
        self._index = {o: i for i, o in enumerate(self.options)}

    def __len__(self) -> int:
        return len(self.options)

    def index(self, edge, finger, duration) -> int:
        return self._index[(edge, finger, float(duration))]

    def allowed(self, policy: Policy) -> np.ndarray:
        mask = np.zeros(len(self.options), dtype=np.bool_)
        fi = None if policy.finger is None else self.geometry.finger_index(policy.edge, policy.finger)
        for i, (e, f, d) in enumerate(self.options):
            if d in policy.durations and (policy.edge is None or e == policy.edge) and (fi is None or f == fi) and \
                    (policy.fingers is None or self.geometry.fingers[e][f] in policy.fingers):
                mask[i] = True
        if not mask.any():
            raise ValueError(f"policies: {policy.name} allows no option")
        return mask

    def fall_table(self, params: TiltParams) -> np.ndarray:
        """(options, 9): noise-averaged probability that a gem on each space falls."""
        out = np.empty((len(self.options), 9))
        for i, (e, f, d) in enumerate(self.options):
            w, fates = fate_table(e, f, d, params, self.geometry)
            out[i] = w @ fates[:, :, FALLEN]
        return out

    def sample_tables(self, params: TiltParams) -> tuple[np.ndarray, np.ndarray]:
        """Cumulative node weights (options, J) and fates (options, J, 9, 10) for the samplers."""
        from .sampling import cumulative_tables

        cw, cf = [], []
        for e, f, d in self.options:
            a, b = cumulative_tables(*fate_table(e, f, d, params, self.geometry))
            cw.append(a)
            cf.append(b)
        return np.ascontiguousarray(np.stack(cw)), np.ascontiguousarray(np.stack(cf))


# ----------------------------------------------------------------------------------------- scoring
def score_options(kinds, pars, raft, pf, my_empty, my_pts, opp_empty, opp_pts) -> np.ndarray:
    """Value of every option for each of ``n`` games (batch axis first).

    Parameters: ``kinds`` (n,) policy codes (0 aim, 1 greedy); ``pars`` (n, 3) gift_weight, gift_cost,
    progress_weight; ``raft`` (n, 9, C) gems; ``pf`` (n, O, 9) noise-averaged fall probability of a gem
    on each space under each option; ``my_empty`` (n, B, K) and ``my_pts`` (n, B) the current player's
    lifeboats (unused rows all zero); ``opp_empty`` (n, Q, K), ``opp_pts`` (n, Q) the opponents', in
    passing order.  Every sum runs in a fixed order (loops over small axes and over the Poisson count),
    so a game's values do not depend on the batch it is in: the readable engine calls this with n = 1.
    """
    n, n_opt = pf.shape[:2]
    ncol = raft.shape[2]
    k = ncol - 1
    raft = raft.astype(np.float64)
    mu = raft[:, None, 0, :] * pf[:, :, 0, None]
    for cell in range(1, 9):
        mu = mu + raft[:, None, cell, :] * pf[:, :, cell, None]
    mu_o, mu_w = mu[:, :, :k], mu[:, :, k]
    need = my_empty.sum(axis=1)
    slots = need.sum(axis=1)
    greedy = np.flatnonzero(kinds == 1)
    # ordinary colours: Poisson pmf/cdf by recurrence; E[min(X, need)] = sum_{j < need} P(X > j)
    top = int(need.max(initial=0))
    if len(greedy):
        top = max(top, int((need[:, None, :] + opp_empty).max(initial=0)))
    top = max(top, 1)
    pmf, cdf = [np.exp(-mu_o)], []
    cdf.append(pmf[0].copy())
    useful_c = np.zeros_like(mu_o)
    lim = need[:, None, :]
    for j in range(top):
        if j:
            pmf.append(pmf[-1] * (mu_o / j))
            cdf.append(cdf[-1] + pmf[-1])
        useful_c = np.where(j < lim, useful_c + (1.0 - cdf[j]), useful_c)
    useful = useful_c[:, :, 0]
    gifts = mu_o[:, :, 0] - useful_c[:, :, 0]
    for c in range(1, k):
        useful = useful + useful_c[:, :, c]
        gifts = gifts + (mu_o[:, :, c] - useful_c[:, :, c])
    # black gems fill what is left: E[min(X_black, rest)], interpolated between integers
    rest = slots[:, None] - useful
    f = np.floor(rest)
    fi = f.astype(np.int64)
    pw = np.exp(-mu_w)
    cw = [pw]
    ew = np.zeros((n, n_opt))
    lo = np.zeros((n, n_opt))
    hi = np.zeros((n, n_opt))
    for j in range(int(slots.max(initial=0)) + 1):
        if j:
            pw = pw * (mu_w / j)
            cw.append(cw[-1] + pw)
        ew = ew + (1.0 - cw[j])          # E[min(X, j + 1)]
        lo = np.where(fi == j + 1, ew, lo)
        hi = np.where(fi == j, ew, hi)
    placed = useful + lo + (rest - f) * (hi - lo)
    value = placed - pars[:, 0, None] * gifts
    if len(greedy):
        sel = slice(None) if len(greedy) == n else greedy
        value[sel] = _greedy_values(pars[sel], [x[sel] for x in pmf], [x[sel] for x in cdf], [x[sel] for x in cw],
                                    need[sel], placed[sel], my_empty[sel], my_pts[sel], opp_empty[sel], opp_pts[sel])
    return value


def _greedy_values(pars, pmf, cdf, cw, need, placed, my_empty, my_pts, opp_empty, opp_pts) -> np.ndarray:
    n, n_opt, k = pmf[0].shape
    top = len(pmf)
    rows = np.arange(n)[:, None]
    opts = np.arange(n_opt)[None, :]
    pmf_t = np.stack(pmf)  # (top, n, O, K)
    cdf_t = np.stack(cdf)

    def at_least(t, c):  # P(X_c >= t) for integer t (n,)
        t2 = np.broadcast_to(t[:, None], (n, n_opt))
        return np.where(t2 > 0, 1.0 - cdf_t[np.clip(t2 - 1, 0, top - 1), rows, opts, c], 1.0)

    dmax = int(my_empty.sum(axis=2).max(initial=0))
    wild_tail = [np.ones((n, n_opt))] + [1.0 - cw[min(d - 1, len(cw) - 1)] for d in range(1, dmax + 1)]
    mine = np.zeros((n, n_opt))
    for b in range(my_empty.shape[1]):
        dist = [np.ones((n, n_opt))] + [np.zeros((n, n_opt)) for _ in range(dmax)]
        for c in range(k):
            e = my_empty[:, b, c]
            emax = int(e.max(initial=0))
            if emax == 0:
                continue
            pdc = [at_least(e, c)]  # shortfall of colour c: 0 if X >= e, else e - X
            for d in range(1, emax + 1):
                idx = np.broadcast_to(np.maximum(e - d, 0)[:, None], (n, n_opt))
                pdc.append(np.where((d <= e)[:, None], pmf_t[idx, rows, opts, c], 0.0))
            new = [np.zeros((n, n_opt)) for _ in range(dmax + 1)]
            for d0 in range(dmax + 1):
                for d in range(min(emax, dmax - d0) + 1):
                    new[d0 + d] = new[d0 + d] + dist[d0] * pdc[d]
            dist = new
        pc = dist[0] * wild_tail[0]
        for d in range(1, dmax + 1):
            pc = pc + dist[d] * wild_tail[d]
        mine = mine + my_pts[:, b, None] * pc
    given = np.zeros((n, n_opt))
    for q in range(opp_empty.shape[1]):
        pq = np.ones((n, n_opt))
        for c in range(k):
            e = opp_empty[:, q, c]
            if e.max(initial=0) > 0:
                pq = pq * np.where((e > 0)[:, None], at_least(need[:, c] + e, c), 1.0)
        given = given + opp_pts[:, q, None] * pq
    return mine - pars[:, 1, None] * given + pars[:, 2, None] * placed


def choose_options(kinds, pars, allowed, u, raft, pf, my_empty, my_pts, opp_empty, opp_pts, exact=None) -> np.ndarray:
    """Option index per game: the best allowed option (first on ties), or for the random policy
    (code 2) the allowed option ``int(u * n_allowed)``.  Games whose mover plays ``exact`` (code 3) are
    scored by :func:`.expectimax.exact_values`, which needs ``exact``, an
    :class:`~pyradice_lab.raft.expectimax.ExactContext` of all ``n`` games."""
    ex = np.flatnonzero(kinds == KIND_CODES["exact"])
    if not len(ex):
        value = score_options(kinds, pars, raft, pf, my_empty, my_pts, opp_empty, opp_pts)
    else:  # the exact rows are valued by exact_values alone (a game's values do not depend on its batch)
        from .expectimax import exact_values

        if exact is None:
            raise ValueError("choose_options: the exact player needs its context (exact=ExactContext)")
        value = np.zeros(pf.shape[:2])
        rest = np.flatnonzero(kinds != KIND_CODES["exact"])
        if len(rest):
            value[rest] = score_options(kinds[rest], pars[rest], raft[rest], pf[rest], my_empty[rest], my_pts[rest],
                                        opp_empty[rest], opp_pts[rest])
        value[ex] = exact_values(pars[ex], raft[ex], my_empty[ex], my_pts[ex], opp_empty[ex], opp_pts[ex],
                                 exact.take(ex), allowed[ex])
    value = np.where(allowed, value, -np.inf)
    best = np.argmax(value, axis=1)
    rand = kinds == 2
    if rand.any():
        counts = allowed.sum(axis=1)
        pick = np.minimum((u * counts).astype(np.int64), counts - 1)
        ranks = np.cumsum(allowed, axis=1) - 1
        hit = allowed & (ranks == pick[:, None])
        best = np.where(rand, np.argmax(hit, axis=1), best)
    return best
