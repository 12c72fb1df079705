"""The table companion for Pyradice: which die to take from the quarry, where to place it, and which skill use.

A **position** is what the player about to move sees: the setup (skill tokens, goal tokens, objective cards and
the colour disc on each card), the quarry as it stands (a value where a die's top face shows, a colour where
any face shows, ``?`` for the rest), every seat's pyramid, the start player and the seat to move.
:func:`load_position` reads one from a TOML or JSON file (validated by the schema machinery of the component
files: an error names the key), :func:`position_from_game` rebuilds the position at turn K of a seeded game
(turn numbers as in the transcript, ``t01`` = turn 1), and :func:`advise` ranks the options:

- every legal move: an available die, a legal space of the mover's pyramid, and no skill or one use of the
  skill of the level it lands on, with ``lookahead`` (the lookahead player's valuation of the pyramid after it,
  VP: the score now plus the chances of the unfinished goals; exact);
- the ``candidates`` best of them by that valuation (at most 2 skill uses per die and space, as the search
  player keeps them) valued by the **search player** ``flat_mc``: ``samples`` rollouts each, every hidden die
  of the quarry drawn from the exact posterior and the game played out by every seat with the rollout
  policy, all candidates on the same samples (common random numbers).  ``value`` is a Monte Carlo mean with
  ``se`` and a 95% interval; the other moves are listed below them with a NaN value (not sampled);
- ``regret`` against the best, ``vp_now`` (the pyramid's score if the game ended after the move), ``then``
  (the dice the next seat can then take) and a short ``why`` (goals met or lost, card points, the skill's
  effect).

The objective names the value: ``"search"`` is the value the search player ``policy`` itself maximises (its
rollouts' value: for rollouts played to the end of the game the win share, ties shared, plus 0.02 x the VP
margin over the best other seat; see :mod:`.search`), ``"win_share"`` the win share alone, of rollouts played
to the end of the game.

The position format and the replay of seeded games live in the private module ``_position`` (re-exported
here); this module ranks.

Examples
--------
>>> from pyradice_lab.pyradice.advisor import advise, position_from_game
>>> pos = position_from_game(3, 40, policies="greedy")      # turn 40 of the seeded 2-player game 3
>>> df = advise(pos, samples=16, rng=1)
>>> list(df.columns[:4]), bool((df["regret"].dropna() >= 0).all())
(['option', 'take', 'place', 'skill'], True)
"""

from __future__ import annotations

import numbers

import numpy as np
import pandas as pd

from ..engine.positions import check_choice, sampled_columns
from ._position import (
    _LAYERS as _LAYERS,
    Position,
    _available,
    load_position,
    position_from_game,
    position_spec,
    positions_from_game,
)
from .components import GOAL_LEVELS, SKILL_LEVELS
from .geometry import PYRAMID, quarry_geometry

__all__ = ["advise", "Position", "load_position", "position_from_game", "positions_from_game", "position_spec",
           "OBJECTIVES", "POLICIES"]

#: what :func:`advise` maximises (the rollout value of the search player)
OBJECTIVES = {"search": "the search player's own rollout value (see the policy)",
              "win_share": "win share of rollouts played to the end of the game (ties shared)"}
#: examples of the search players whose rollouts value the candidates: any spelling of the search player
#: (:class:`.search.FlatMC`) is accepted; its budget N is replaced by ``samples``
POLICIES = ("flat_mc", "flat_mc:16:greedy", "flat_mc:16:lookahead")


# ------------------------------------------------------------------------------------------ advise
def _rank_moves(dec, samples: int, tabs: dict, box, qgeo, block: int = 256) -> np.ndarray:
    """``(candidates, samples)`` rollout values of every candidate of the search decision ``dec``, all on the
    same ``samples`` determinized quarries and deals (equal allocation: no halving), in blocks of ``block``
    samples (the numbers do not depend on it): the search player's move ranking, through one thin call."""
    from .search import _ROLLOUT_CODES, _run_rollouts, determinize

    players = dec.pv.shape[0]
    turns = PYRAMID.n * players
    spec = dec.spec
    vals, cols = determinize(dec.obs_values, dec.obs_colours, dec.occ, dec.pc.ravel(), box, samples, rng=dec.rng)
    unif = dec.rng.random((samples, turns, 3))
    codes = np.full(players, _ROLLOUT_CODES[spec.rollout], np.int64)
    # the rollouts stop after the search player's ``depth`` turns (0: at the end of the game), as in its search
    stop = turns if spec.depth == 0 else min(turns, dec.turn + spec.depth)
    out = [_run_rollouts([(dec, dec.cands, vals[i:i + block], cols[i:i + block], unif[i:i + block])],
                         tabs["tab"], tabs["n_colours"], players, turns, codes, qgeo, stop, spec.margin)[0]
           for i in range(0, samples, block)]
    return np.concatenate(out, axis=1)


def _check_int(value, name, lo, hi):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not lo <= value <= hi:
        raise ValueError(f"{name} must be an integer in {lo}..{hi}, got {value!r}")
    return int(value)


def _search_spec(policy, objective: str):
    """The search player ``policy`` names, as :func:`advise` runs it (``"win_share"``: margin 0, rollouts to the
    end of the game)."""
    from dataclasses import replace

    from .search import FlatMC

    try:
        spec = FlatMC.parse(policy)
    except ValueError as exc:
        raise ValueError(f"policy: {exc}".replace("policy: policies: ", "policy: ")) from None
    if spec is None:
        raise ValueError(f"policy must name the search player, e.g. {list(POLICIES)}, got {policy!r}")
    if objective == "win_share":
        spec = replace(spec, margin=0.0, depth=0)
    return spec


def advise(position, *, objective: str = "search", policy: str = "flat_mc", rng=None, samples: int = 128,
           candidates: int | None = None, components=None) -> pd.DataFrame:
    """Rank the moves of the turn at hand: which die to take, where to place it, which skill use.

    Parameters
    ----------
    position : Position, path or mapping
        The table (see :func:`load_position`, :func:`position_from_game`).
    objective : {"search", "win_share"}
        ``"search"``: the search player's own rollout value (what it maximises; see :mod:`.search`);
        ``"win_share"``: the win share of rollouts played to the end of the game (ties shared).
    policy : str
        The search player valuing the candidates, spelled as for the games (``"flat_mc"``, the default
        player, or e.g. ``"flat_mc:16:lookahead"``: its rollout policy and depth); its budget of rollouts
        is replaced by ``samples``.
    rng : seed or Generator, optional
        The rollouts' random stream (hidden dice, deals of the rest of the game).
    samples : int
        Rollouts per candidate (2..100,000), the same samples for every candidate.
    candidates : int, optional
        Moves valued by rollouts: the best by the lookahead valuation (1..64; default: as many as the search
        player ``policy`` keeps).
    components : path or Components, optional
        For a position given as a path or mapping.

    Returns
    -------
    DataFrame
        Best first: ``option`` (e.g. ``"take 5r at (2, 0, 3) -> L1.4; skill A3 Flip: L1.2=5r"``), ``take``
        (quarry position index), ``place`` (pyramid space), ``skill`` (option index, -1 none), ``value``
        (the objective; NaN: not among the candidates), ``se``, ``ci_low``, ``ci_high`` (95%), ``regret``,
        ``lookahead`` (the lookahead valuation, VP, exact), ``vp_now``, ``then``, ``why``, ``objective``.
        ``attrs``: ``objective``, ``policy``, ``samples``, ``position``, ``chosen`` (the top row's
        (take, place, skill)).

    Raises
    ------
    ValueError
        If the position is invalid (naming the key), or ``objective``, ``policy``, ``samples`` or
        ``candidates`` is not allowed.

    Examples
    --------
    >>> df = advise(position_from_game(2, 30, policies="greedy"), samples=8, rng=0)
    >>> int(df["value"].notna().sum()), bool(df["se"].iloc[0] > 0)
    (6, True)
    """
    from ..engine.rng import as_generator
    from ..engine.stats import mean_estimate
    from .search import _Decision, box_counts, candidates as search_candidates
    from .sim import kernel_tables, quarry_table

    check_choice(objective, "objective", OBJECTIVES)
    spec = _search_spec(policy, objective)
    samples = _check_int(samples, "samples", 2, 100_000)
    candidates = spec.candidates if candidates is None else _check_int(candidates, "candidates", 1, 64)
    pos = load_position(position, components=components)
    gen = as_generator(rng)
    setup, players, s = pos.setup, pos.players, pos.seat
    tabs = kernel_tables(setup)
    pv = np.array([v for v, _ in pos.pyramids], np.int64)
    pc = np.array([c for _, c in pos.pyramids], np.int64)
    discs = np.array(pos.discs, np.int64)
    occ = pos.occupied.astype(np.int64)
    args = (pv[s], pc[s], pos.values, pos.colours, occ, tabs["tab"], discs, players)
    every = search_candidates(*args, k=10 ** 6, per_pair=10 ** 6)
    cands = search_candidates(*args, k=candidates, per_pair=spec.per_pair)
    dec = _Decision(s, pos.turns_played, pos.first_seat, occ, pos.values, pos.colours, pv, pc, discs, spec, gen, cands)
    res = _rank_moves(dec, samples, tabs, box_counts(setup, players), quarry_table(players))
    est = {tuple(int(x) for x in cands[j, :3]): mean_estimate(res[j]) for j in range(len(cands))}
    rows, estimates = [], []
    ctx = _Describer(pos)
    for take, place, opt, milli in every:
        key = (int(take), int(place), int(opt))
        e = est.get(key)
        option, vp_now, why = ctx.describe(*key)
        rows.append((option, *key, np.nan if e is None else e.value, milli / 1000, vp_now, ctx.then(key[0]), why))
        estimates.append(e)
    df = pd.DataFrame(rows, columns=["option", "take", "place", "skill", "value", "lookahead", "vp_now", "then",
                                     "why"])
    df["_est"] = estimates
    df = df.sort_values(["value", "lookahead"], ascending=False, kind="stable", na_position="last")
    df = df.reset_index(drop=True)
    sampled_columns(df, 5, list(df.pop("_est")))
    df.loc[df["value"].isna(), "why"] += " (not sampled: below the candidates by the lookahead valuation)"
    df["objective"] = OBJECTIVES[objective]
    df.attrs.update(objective=OBJECTIVES[objective], policy=policy, samples=samples, candidates=candidates,
                    position=pos,
                    chosen=tuple(int(x) for x in df[["take", "place", "skill"]].iloc[0]))
    return df


class _Describer:
    """Labels, the score after a move, what the next seat can take and a short reason, for one position."""

    def __init__(self, pos: Position):
        from .scoring import Table as ScoreTable, _score_pyramid

        self.pos = pos
        self.table = ScoreTable.build(pos.setup, pos.discs)
        self.score = _score_pyramid
        v, c = pos.pyramids[pos.seat]
        self.v, self.c = [int(x) for x in v], [int(x) for x in c]
        self.before = _score_pyramid(self.v, self.c, self.table)
        self.geom = quarry_geometry(pos.players)
        self.letters = pos.letters
        self.avail = set(_available(pos))
        self._then: dict = {}

    def die(self, value, colour) -> str:
        return f"{value}{self.letters[colour]}"

    def describe(self, take: int, place: int, opt: int) -> tuple[str, int, str]:
        from .skills import apply_action, skill_options

        pos = self.pos
        val, col = int(pos.values[take]), int(pos.colours[take])
        v, c = apply_action(self.v, self.c, ((place, val, col),))
        level = int(PYRAMID.level_of[place])
        label = f"take {self.die(val, col)} at {self.geom.position(take)} -> {PYRAMID.label(place)}"
        why = []
        if opt >= 0:
            tok = self.table.skills[level]
            action = skill_options(tok, v, c, place)[opt]
            v, c = apply_action(v, c, action)
            effect = ", ".join(f"{PYRAMID.label(sp)}={self.die(nv, nc)}" for sp, nv, nc in action)
            label += f"; skill {tok.code} {tok.name}: {effect}"
        after = self.score(list(v), list(c), self.table)
        for k, (b, a) in zip(GOAL_LEVELS, zip(self.before.goals_met, after.goals_met)):
            code = self.table.goals[k].code
            if a and not b:
                why.append(f"meets goal {code} on level {k} (+5)")
            elif b and not a:
                why.append(f"breaks goal {code} on level {k} (-5)")
        for k in GOAL_LEVELS:
            spaces = PYRAMID.spaces_of(k)
            if all(v[x] for x in spaces) and not all(self.v[x] for x in spaces) and not after.goals_met[k - 1]:
                why.append(f"completes level {k} without its goal {self.table.goals[k].code}")
        for lab, b, a in zip(self.table.card_labels(), self.before.cards, after.cards):
            if a != b:
                why.append(f"{lab} {a - b:+d}")
        if opt >= 0 and level in SKILL_LEVELS:
            why.append(f"uses the level-{level} skill")
        return label, after.total, "; ".join(why) or "no points now (builds the pyramid)"

    def then(self, take: int) -> str:
        if take not in self._then:
            from .search import _available as avail

            pos = self.pos
            occ = pos.occupied.astype(np.int64).copy()
            occ[take] = 0
            new = [int(i) for i in avail(occ, self.geom)]
            opened = [i for i in new if i not in self.avail]
            nxt = (pos.seat + 1) % pos.players
            txt = f"seat {nxt + 1} chooses from {len(new)} dice"  # seats from 1
            shown = [self.die(pos.values[i], pos.colours[i]) for i in opened if pos.values[i] and pos.colours[i] >= 0]
            hidden = len(opened) - len(shown)
            if opened:
                txt += "; opens " + " and ".join(
                    ([", ".join(shown)] if shown else []) + ([f"{hidden} {'dice' if hidden > 1 else 'die'} hidden now"]
                                                             if hidden else []))
            self._then[take] = txt
        return self._then[take]
