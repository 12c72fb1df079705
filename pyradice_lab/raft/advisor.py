"""The table companion for Rocking Raft: rank every tilt of the turn at hand by its exact expected points.

A **position** is what a player sees at the table when it is their turn to tilt: the gems on each space of
the raft, every player's lifeboats (which card, which slots already hold a gem, water tokens), the points and
lifeboats each player has completed, whose turn it is, who started, how many cards are still above the
pirate flag (its depth is public) and, if known, which cards are still in the deck (the replacement cards'
prospect; without it the deck's average card).  :func:`load_position` reads one from a TOML or JSON file (validated by
the schema machinery of the component files: an error names the key), :func:`position_from_game` rebuilds
the position at turn K of a seeded game, and :func:`advise` ranks the options:

- every (edge, finger space, intended hold time) of the exact player's grid
  (:data:`~.policies.EXACT_DURATIONS`: 11 durations, 0.5 to 10 s), best first;
- ``value``: the expected value of the tilt's outcome under the **exact** outcome distribution of the tilt
  model (no sampling: ``se`` and the interval are NaN), each outcome loaded on the player's lifeboats by the
  engine's optimal loader and its leftovers passed on, exactly as the ``exact`` player of
  :mod:`.expectimax` values it.  The objective names it: ``"points"`` is the exact player's value (points
  completed this turn plus the equity of the lifeboats left, minus the points the gems passed on bring the
  opponents), ``"completed"`` the expected points of the player's lifeboats completed this turn;
- ``policy="sampled"`` estimates the same values from ``samples`` simulated tilts per option (with ``se`` and
  a 95% interval: a check of the exact sums, and what a player without the exact engine would get);
- ``regret`` against the best, the chance of completing each lifeboat, the gems expected to fall, the points
  the leftovers are expected to complete for the opponents, ``then`` (the most likely outcome and how the
  player then loads it) and a short ``why``.

The exact distribution of the gems that fall for the top tilt, each outcome with its loading, is in
``advise(...).attrs["outcomes"]`` (:func:`tilt_outcomes` gives it for any tilt).

The position format and the replay of seeded games live in the private module ``_position`` (re-exported
here); this module ranks.

Examples
--------
>>> from pyradice_lab.raft.advisor import advise, position_from_game
>>> pos = position_from_game(7, 3)              # turn 3 of the seeded 3-player game 7
>>> df = advise(pos)
>>> (df["edge"].iloc[0], df["finger"].iloc[0], float(df["duration"].iloc[0])) == pos.played
True
>>> bool(df["regret"].iloc[0] == 0 and (df["regret"] >= 0).all())
True
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping

import numpy as np
import pandas as pd

from ..engine.positions import check_choice, exact_columns
from ._position import (
    Position,
    _gem_text,
    load_position,
    position_from_game,
    position_spec,
    positions_from_game,
)
from .physics import TiltParams, coerce_params

__all__ = ["advise", "Position", "load_position", "position_from_game", "positions_from_game", "tilt_outcomes",
           "position_spec", "OBJECTIVES", "POLICIES"]

#: what :func:`advise` maximises (see the module docstring)
OBJECTIVES = {"points": "expected points (exact player's value)",
              "completed": "expected points completed this turn"}
#: how :func:`advise` values the options
POLICIES = ("exact", "sampled")


# ------------------------------------------------------------------------------------------ advise
def _setting(pos: Position, objective: str, params):
    """Arrays of the mover and the opponents (passing order), the exact player's context and parameters."""
    from .expectimax import ExactContext
    from .policies import exact

    comp = pos.comp
    nb, p, n = comp.rules.boats, pos.seat, pos.players
    slots, points = comp.deck_arrays()
    k = slots.shape[1]

    def arrays(seats):
        empty = np.zeros((len(seats) * nb, k), dtype=np.int64)
        pts = np.zeros(len(seats) * nb, dtype=np.int64)
        for i, q in enumerate(seats):
            for j, (c, f, _) in enumerate(pos.boats[q]):
                empty[i * nb + j] = slots[c] - f
                pts[i * nb + j] = points[c]
        return empty, pts

    my_empty, my_pts = arrays([p])
    opp_empty, opp_pts = arrays([(p + q) % n for q in range(1, n)])
    doomed = np.zeros(nb, dtype=bool)
    if pos.variant == "sinking":
        for j, (_, _, w) in enumerate(pos.boats[p]):
            doomed[j] = w >= comp.rules.sink_at
    order = [(pos.first_seat + i) % n for i in range(n)]
    later = [order.index((p + s) % n) > order.index(p) for s in range(1, n)]
    seats = [(p + s) % n for s in range(n)]
    standings = [[pos.scores[q], pos.completed[q]] for q in seats]
    last = p == (pos.first_seat - 1) % n
    pol = exact()
    pars = pol.pars()
    if objective == "completed":
        pars = pars.copy()
        pars[[1, 3, 5]] = 0.0          # no gift cost, no equity, no win bonus: the points completed this turn
    tp = coerce_params(params)
    sp = tp.replace(timing_noise=pos.skill) if pos.skill is not None else tp
    deck_slots, deck_points = slots.sum(axis=1), points
    if pos.deck is not None:       # the replacement cards' prospect: the cards still in the deck (none: 0)
        cards = np.array(pos.deck, dtype=np.int64)
        deck_slots, deck_points = (deck_slots[cards], points[cards]) if len(cards) else \
            (np.zeros(1, dtype=deck_slots.dtype), np.zeros(1, dtype=points.dtype))
    ctx_args = (doomed[None], np.array([pos.flag]), np.array([later]), nb, deck_slots, deck_points,
                np.array([standings]), np.array([last]))
    return dict(pol=pol, pars=pars, params=sp, my=(my_empty, my_pts), opp=(opp_empty, opp_pts),
                ctx=lambda w, nf: ExactContext(w[None], nf[None], np.zeros(1, dtype=np.int64), *ctx_args))


def _mine_grid(pos, st, gems, game):
    """Per outcome row: per-boat completion of the mover (R, B) and the opponents' points completed (R,)."""
    from .expectimax import _seat_outcomes
    from .loading import load_batch

    my_empty, my_pts = st["my"]
    k = my_empty.shape[1]
    need = my_empty.sum(axis=0)
    mine = np.concatenate([np.minimum(gems[:, :k], need), np.minimum(gems[:, k:], need.sum())], axis=1)
    held, fill = load_batch(mine, np.broadcast_to(my_empty, (len(gems),) + my_empty.shape).copy(),
                            np.broadcast_to(my_pts, (len(gems),) + my_pts.shape).copy())
    done = (my_pts[None] > 0) & ((my_empty[None] - fill).sum(axis=2) == 0)
    left = gems - held.sum(axis=1)
    left[:, k:] = 0
    opp_empty, opp_pts = st["opp"]
    nb = len(my_pts)
    gift = np.zeros(len(gems))
    never = np.zeros((1, nb), dtype=bool)
    decay = np.array([0.5])
    for s in range(len(opp_pts) // nb):
        rows = slice(s * nb, (s + 1) * nb)
        capped = np.concatenate([np.minimum(left[:, :k], opp_empty[rows].sum(axis=0)), left[:, k:]], axis=1)
        placed, pts, _, _ = _seat_outcomes(capped, game, opp_empty[rows][None], opp_pts[rows][None], never, decay)
        left = left - placed
        gift += pts
    return done, gift


def _load_texts(pos, st, xs) -> list[str]:
    """How the mover loads each outcome row of ``xs`` (gems per colour): placed, completed, passed on
    (the engine's optimal loader, :func:`.loading.load_batch`, for all rows at once)."""
    from .loading import load_batch

    comp = pos.comp
    letters = comp.gems.letters
    k = len(letters) - 1
    xs = np.asarray(xs, dtype=np.int64).reshape(-1, len(letters))
    my_empty, my_pts = st["my"]
    nb = len(pos.boats[pos.seat])
    n = len(xs)
    if nb:
        held, fill = load_batch(xs, np.broadcast_to(my_empty[:nb], (n, nb, k)).copy(),
                                np.broadcast_to(my_pts[:nb], (n, nb)).copy())
        full = (fill == my_empty[None, :nb]).all(axis=2)
        left = xs - held.sum(axis=1)
    else:
        left = xs
    out = []
    for i in range(n):
        if not xs[i].any():
            out.append("nothing falls")
            continue
        parts = []
        for j, (c, _, _) in enumerate(pos.boats[pos.seat]):
            if held[i, j].any():
                parts.append(f"{_gem_text(held[i, j], letters, '')} on {comp.card_label(c)}"
                             + (" (completes)" if full[i, j] else ""))
        if left[i, :k].any():
            parts.append(f"pass {_gem_text(left[i, :k], letters[:k], '')}")
        if left[i, k]:
            parts.append(f"{letters[k]}{int(left[i, k])} back to the centre")
        out.append("; ".join(parts) if parts else "nothing to place")
    return out


def _sampled(pos, st, table, samples, rng):
    from ..engine.rng import as_generator
    from ..engine.stats import mean_estimate
    from .expectimax import _caps, outcome_values
    from .tilting import tilt

    gen = as_generator(rng)
    raft = pos.raft
    my_empty, my_pts = st["my"]
    opp_empty, opp_pts = st["opp"]
    caps = _caps(raft[None], my_empty[None], opp_empty[None])[0]
    rows = []
    for e, f, d in table.options:
        fallen = tilt(raft, e, f, d, n=samples, rng=gen, params=st["params"], components=pos.comp).fallen
        gems = np.minimum(fallen.astype(np.int64), caps)
        ctx = st["ctx"](np.zeros(1), np.zeros((1, 9, 1)))
        vals = outcome_values(gems, np.zeros(len(gems), dtype=np.int64), st["pars"][None], my_empty[None],
                              my_pts[None], opp_empty[None], opp_pts[None], ctx)
        est = mean_estimate(vals)
        rows.append((est.value, est.se, est.ci_low, est.ci_high))
    return np.array(rows)


def advise(position, *, objective: str = "points", policy: str = "exact", rng=None, samples: int = 2000,
           params=None, components=None) -> pd.DataFrame:
    """Rank every tilt of the position's turn: edge, finger space and hold time, best first.

    Parameters
    ----------
    position : Position, path or mapping
        The table (see :func:`load_position`, :func:`position_from_game`).
    objective : {"points", "completed"}
        ``"points"``: the exact player's value (points completed this turn, plus the equity of the lifeboats
        left and the replacement cards' prospects, minus what the gems passed on bring the opponents; a win
        bonus on the turn that ends the game); ``"completed"``: expected points completed this turn.
    policy : {"exact", "sampled"}
        ``"exact"``: exact sums over the outcome distribution of the tilt model (``se`` NaN);
        ``"sampled"``: ``samples`` simulated tilts per option (``se`` and a 95% interval).
    rng : seed or Generator, optional
        The sampled policy's random stream (checked whatever the policy, a bad seed refused naming ``rng``; not
        drawn from by ``"exact"``).
    samples : int
        Tilts simulated per option by the sampled policy (2..1,000,000).
    params : TiltParams or dict, optional
        Tilt model parameters (default ``data/tilt.toml``; the position's ``skill`` sets the timing noise).
    components : path or Components, optional
        For a position given as a path or mapping: the components its card numbers refer to.

    Returns
    -------
    DataFrame
        One row per option, best first: ``edge``, ``finger``, ``duration``, ``value`` (the objective; its
        label is ``df.attrs["objective"]`` and the ``objective`` column), ``se``, ``ci_low``, ``ci_high``
        (NaN where exact), ``regret``, ``p_complete_<i>`` (chance of completing the mover's lifeboat ``i``,
        numbered from 1 as listed), ``gems_fallen`` (expected), ``gift_points`` (expected points the leftovers complete for the
        opponents), ``then`` (the most likely outcome and how to load it) and ``why``.
        ``attrs["outcomes"]``: the exact distribution of the gems fallen for the top tilt
        (:func:`tilt_outcomes`).

    Raises
    ------
    ValueError
        If the position is invalid (naming the key), or ``objective``, ``policy`` or ``samples`` is not
        allowed.

    Examples
    --------
    >>> df = advise(position_from_game(3, 2, players=2))
    >>> list(df.columns[:5])
    ['edge', 'finger', 'duration', 'value', 'se']
    >>> len(df)
    110
    """
    check_choice(objective, "objective", OBJECTIVES)
    check_choice(policy, "policy", POLICIES)
    if isinstance(samples, bool) or not isinstance(samples, numbers.Integral) or not 2 <= samples <= 1_000_000:
        raise ValueError(f"samples must be an integer in 2..1000000, got {samples!r}")
    if params is not None and not isinstance(params, (TiltParams, Mapping)):
        raise ValueError(f"params must be TiltParams or a mapping of its fields, got {params!r}")
    from ..engine.rng import as_generator

    if not isinstance(rng, np.random.Generator):
        as_generator(rng)  # refused naming rng when it is no seed, whatever the policy
    pos = load_position(position, components=components)
    if pos.fallen is not None:
        return _advise_loading(pos, objective, params)
    from ..engine import aot
    from .expectation import gem_cells, option_expectations
    from .expectimax import _caps, _grid, exact_values, node_tables
    from .policies import OptionTable

    st = _setting(pos, objective, params)
    comp = pos.comp
    table = OptionTable(comp.raft, st["pol"].durations)
    w, node_fall = node_tables(table, st["params"])
    ctx = st["ctx"](w, node_fall)
    my_empty, my_pts = st["my"]
    opp_empty, opp_pts = st["opp"]
    raft = pos.raft
    vals = exact_values(st["pars"][None], raft[None], my_empty[None], my_pts[None], opp_empty[None], opp_pts[None],
                        ctx)[0]
    # the same capped grid for the per-option details
    k = my_empty.shape[1]
    caps = _caps(raft[None], my_empty[None], opp_empty[None])
    order = np.array([k] + list(range(k)))
    gems, game, _ = _grid(caps[:, order])
    gems = gems[:, np.argsort(order)]
    cells, counts = gem_cells(raft[:, order])
    active = np.ones(len(table), dtype=bool)

    def expect(v):
        return aot.entry(option_expectations)(cells, counts, caps[0, order], node_fall, w, np.ascontiguousarray(v, float),
                                   active)

    done, gift = _mine_grid(pos, st, gems, game)
    nb = len(pos.boats[pos.seat])
    p_boat = [expect(done[:, j]) for j in range(nb)]
    gift_pts = expect(gift)
    fallen = np.einsum("osj,j,s->o", node_fall, w, raft.sum(axis=1))
    if policy == "sampled":
        est = _sampled(pos, st, table, int(samples), rng)
        value, se, lo, hi = est.T
    else:
        value = vals
        se = lo = hi = np.full(len(vals), np.nan)
    # the most likely full outcome of every option (uncapped joint pmf over the timing nodes)
    from .odds import capped_count_pmfs

    full = raft.sum(axis=0)
    pm = capped_count_pmfs(np.repeat(raft[None], len(table), axis=0), node_fall.transpose(0, 2, 1),
                           np.repeat(full[None], len(table), axis=0))
    joint = np.einsum("ojr,ojy,ojb,ojk,j->orybk", *pm, w)
    flat = joint.reshape(len(table), -1)
    best_cell = flat.argmax(axis=1)
    labels = [comp.raft.fingers[e][f] for e, f, _ in table.options]
    rows = []
    letters = comp.gems.letters
    likely = np.stack(np.unravel_index(best_cell, joint.shape[1:]), axis=1)
    loads = _load_texts(pos, st, likely)
    for o, (e, _, d) in enumerate(table.options):
        x = likely[o]
        then = f"most likely {_gem_text(x, letters, '') if x.any() else 'nothing'} (p {flat[o, best_cell[o]]:.2f}): " \
               f"{loads[o]}"
        rows.append([e, labels[o], float(d), value[o], se[o], lo[o], hi[o]]
                    + [p_boat[j][o] for j in range(nb)] + [fallen[o], gift_pts[o], then])
    cols = ["edge", "finger", "duration", "value", "se", "ci_low", "ci_high"] + \
        [f"p_complete_{j + 1}" for j in range(nb)] + ["gems_fallen", "gift_points", "then"]
    df = pd.DataFrame(rows, columns=cols)
    df = df.sort_values("value", ascending=False, kind="stable").reset_index(drop=True)
    df.insert(7, "regret", df["value"].iloc[0] - df["value"])
    df["why"] = [_why(pos, r, nb) for r in df.itertuples(index=False)]
    df["objective"] = OBJECTIVES[objective]
    df.attrs.update(objective=OBJECTIVES[objective], policy=policy, position=pos,
                    lifeboats=[comp.card_label(c) for c, _, _ in pos.boats[pos.seat]])
    top = df.iloc[0]
    df.attrs["outcomes"] = tilt_outcomes(pos, top["edge"], top["finger"], top["duration"], objective=objective,
                                         params=params)
    return df


def _loadings(empty: np.ndarray, x: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """Every distinct maximal loading of the gems ``x`` (colours,) on lifeboats with ``empty`` (boats, slot
    colours) free slots: ``(t, left)``, the slots filled per boat and colour and the gems left over.  Ordinary
    gems go on their colour first, black gems cover the rest; maximal: no gem left over has a free slot it fits
    (the rules: put the gems on your lifeboats, pass what you cannot place)."""
    import itertools

    nb, k = empty.shape
    out: dict = {}
    for combo in itertools.product(*[range(int(empty[b, c]) + 1) for b in range(nb) for c in range(k)]):
        t = np.array(combo, dtype=np.int64).reshape(nb, k)
        tot = t.sum(axis=0)
        ordinary = np.minimum(x[:k], tot)
        blacks = int((tot - ordinary).sum())
        if blacks > x[k]:
            continue
        full = t == empty
        if any(x[c] > tot[c] and not full[:, c].all() for c in range(k)) or (x[k] > blacks and not full.all()):
            continue
        left = np.concatenate([x[:k] - ordinary, [x[k] - blacks]]).astype(np.int64)
        out.setdefault((t.tobytes(), left.tobytes()), (t, left))
    return list(out.values())


def _advise_loading(pos: Position, objective: str, params) -> pd.DataFrame:
    """The loading decision: every maximal loading of ``pos.fallen``, valued like an outcome of the tilt."""
    from .expectimax import outcome_values
    from .loading import load_scalar

    comp = pos.comp
    st = _setting(pos, objective, params)
    my_empty, my_pts = st["my"]
    opp_empty, opp_pts = st["opp"]
    nb = len(pos.boats[pos.seat])
    letters = comp.gems.letters
    k = my_empty.shape[1]
    x = pos.fallen
    _, fill = load_scalar([int(v) for v in x], my_empty[:nb].tolist(), my_pts[:nb].tolist())
    fill = np.array(fill, dtype=np.int64).reshape(nb, k)
    engine = fill.tobytes()
    options = _loadings(my_empty[:nb], x)
    options.sort(key=lambda o: o[0].tobytes() != engine)      # the engine's loading first (ties go to it)
    ctx = st["ctx"](np.zeros(1), np.zeros((1, 9, 1)))
    rows = []
    for t, left in options:
        after = my_empty.copy()
        after[:nb] -= t
        v = outcome_values(left[None], np.zeros(1, dtype=np.int64), st["pars"][None], after[None], my_pts[None],
                           opp_empty[None], opp_pts[None], ctx)[0]
        parts, done = [], []
        for j, (c, _, _) in enumerate(pos.boats[pos.seat]):
            if t[j].any():
                full = not after[j].any()
                parts.append(f"{_gem_text(t[j], letters[:k], '')} on {comp.card_label(c)}"
                             + (" (completes)" if full else ""))
                if full:
                    done.append(comp.card_label(c))
        used = int(x[k] - left[k])
        if used:
            parts.append(f"using {letters[k]}{used}")
        if left[:k].any():
            parts.append(f"pass {_gem_text(left[:k], letters[:k], '')}")
        if left[k]:
            parts.append(f"{letters[k]}{int(left[k])} back to the centre")
        then, gifts = _passing(pos, st, left)
        why = ("completes " + " and ".join(done)) if done else "completes nothing"
        if gifts:
            why += "; the gems passed complete " + ", ".join(gifts)
        rows.append(("; ".join(parts) or "nothing to place", t, left, v, t.tobytes() == engine, then, why))
    df = pd.DataFrame(rows, columns=["action", "fill", "leftover", "value", "engine", "then", "why"])
    df = df.sort_values("value", ascending=False, kind="stable").reset_index(drop=True)
    exact_columns(df, 4)
    df["objective"] = OBJECTIVES[objective]
    df.attrs.update(objective=OBJECTIVES[objective], policy="exact", position=pos, decision="load",
                    lifeboats=[comp.card_label(c) for c, _, _ in pos.boats[pos.seat]])
    return df


def _passing(pos, st, left) -> tuple[str, list[str]]:
    """What the other players do with the gems passed on (each loads what it can, in passing order)."""
    from .loading import load_scalar

    comp = pos.comp
    letters = comp.gems.letters
    k = len(letters) - 1
    rest = left.copy()
    rest[k] = 0
    if not rest.any():
        return "nothing passed", []
    slots, points = comp.deck_arrays()
    said, gifts = [], []
    for step in range(1, pos.players):
        q = (pos.seat + step) % pos.players
        boats = pos.boats[q]
        if not rest.any() or not boats:
            continue
        empty = [(slots[c] - f).tolist() for c, f, _ in boats]
        held, fill = load_scalar(rest.tolist(), empty, [int(points[c]) for c, _, _ in boats])
        placed = np.array(held, dtype=np.int64).reshape(len(boats), -1).sum(axis=0)
        if placed.any():
            done = [comp.card_label(c) for (c, _, _), e, f in zip(boats, empty, fill) if list(f) == e]
            said.append(f"seat {q + 1} places {_gem_text(placed, letters, '')}"  # seats from 1
                        + (f" (completes {', '.join(done)})" if done else ""))
            gifts += [f"seat {q + 1}'s {d}" for d in done]
            rest = rest - placed
    if rest.any():
        said.append(f"{_gem_text(rest, letters, '')} back to the centre")
    return "; ".join(said), gifts


def _why(pos, r, nb) -> str:
    comp = pos.comp
    parts = []
    probs = [getattr(r, f"p_complete_{j + 1}") for j in range(nb)]
    order = sorted(range(nb), key=lambda j: -probs[j])
    for j in order:
        p = probs[j]
        label = comp.card_label(pos.boats[pos.seat][j][0])
        slots = int(comp.deck[pos.boats[pos.seat][j][0]].size)
        if p >= 0.9:
            parts.append(f"secures the {slots}-slot lifeboat {label} (p {p:.2f})")
        elif p >= 0.3:
            parts.append(f"aims at the {slots}-slot lifeboat {label} (p {p:.2f})")
    if not parts:
        best = max(probs, default=0.0)
        parts.append("no lifeboat likely to complete" + (f" (best p {best:.2f})" if nb else " (no lifeboat)"))
    if r.gift_points >= 0.5:
        parts.append(f"hands the others {r.gift_points:.1f} points")
    elif r.gems_fallen < 0.5:
        parts.append("almost nothing falls")
    return "; ".join(parts)


def tilt_outcomes(position, edge, finger, duration, *, objective: str = "points", params=None,
                  components=None, described: int = 50) -> pd.DataFrame:
    """The exact distribution of the gems that fall in one tilt of the position, each outcome with its value
    under ``objective`` and how the mover loads it, most likely first.

    The pmf is :func:`~pyradice_lab.raft.odds.fallen_joint_pmf` (computed independently of :func:`advise`'s
    compiled sums); the ``p``-weighted mean of ``value`` is the tilt's value in :func:`advise`.

    Parameters
    ----------
    position : Position, path or mapping
        The table (see :func:`load_position`).
    edge, finger, duration
        The tilt: an edge name, a finger space of it (name or index) and the intended hold time in seconds.
    objective : {"points", "completed"}
        As for :func:`advise`.
    params : TiltParams or dict, optional
        Tilt model parameters (default ``data/tilt.toml``).
    components : path or Components, optional
        For a position given as a path or mapping.
    described : int
        The most likely outcomes whose loading is written out in ``load`` (None for the others).

    Returns
    -------
    DataFrame
        One row per outcome with ``p > 0``: a column per colour, ``total``, ``p``, ``value``, ``completed``
        (the mover's points completed), ``passed`` (ordinary gems passed on), ``load`` (how the mover loads
        it, for the ``described`` most likely outcomes).

    Raises
    ------
    ValueError
        If the position, the tilt, ``objective`` or ``described`` is not allowed.

    Examples
    --------
    >>> pos = position_from_game(7, 3)
    >>> out = tilt_outcomes(pos, "north", "right", 1.0)
    >>> round(float(out["p"].sum()), 9)
    1.0
    """
    from .expectimax import _caps, node_tables, outcome_values
    from .odds import fallen_joint_pmf
    from .physics import check_edge
    from .policies import OptionTable

    if isinstance(described, bool) or not isinstance(described, numbers.Integral) or described < 0:
        raise ValueError(f"described must be an integer >= 0, got {described!r}")
    check_choice(objective, "objective", OBJECTIVES)
    pos = load_position(position, components=components)
    comp = pos.comp
    edge = check_edge(edge)
    fi = comp.raft.finger_index(edge, finger)
    st = _setting(pos, objective, params)
    df = fallen_joint_pmf(pos.raft, edge, fi, duration, st["params"], components=comp)
    df = df[df["p"] > 0].sort_values("p", ascending=False, kind="stable").reset_index(drop=True)
    my_empty, my_pts = st["my"]
    opp_empty, opp_pts = st["opp"]
    caps = _caps(pos.raft[None], my_empty[None], opp_empty[None])[0]
    x = df[list(comp.gems.colours)].to_numpy(dtype=np.int64)
    w, nf = node_tables(OptionTable(comp.raft, [float(duration)]), st["params"])
    df["value"] = outcome_values(np.minimum(x, caps), np.zeros(len(x), dtype=np.int64), st["pars"][None],
                                 my_empty[None], my_pts[None], opp_empty[None], opp_pts[None], st["ctx"](w, nf))
    from .loading import load_batch

    nb = len(pos.boats[pos.seat])
    k = my_empty.shape[1]
    if nb:
        held, fill = load_batch(x, np.broadcast_to(my_empty[:nb], (len(x), nb, k)).copy(),
                                np.broadcast_to(my_pts[:nb], (len(x), nb)).copy())
        done = (fill == my_empty[None, :nb]).all(axis=2)
        df["completed"] = (done * my_pts[None, :nb]).sum(axis=1)
        df["passed"] = (x - held.sum(axis=1))[:, :k].sum(axis=1)
    else:
        df["completed"] = 0
        df["passed"] = x[:, :k].sum(axis=1)
    texts = _load_texts(pos, st, x[:described])
    df["load"] = texts + [None] * (len(x) - len(texts))
    return df
