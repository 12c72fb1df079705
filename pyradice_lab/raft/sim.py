"""Many games: :func:`simulate_games` (one row per game) and per-card statistics.

Game ``i`` draws from its own generator, the ``i``-th child of the root seed (``SeedSequence.spawn``),
so a game's course depends only on the seed and its index: never on the batch size, ``n_jobs`` or the
engine, and the first games of a long run equal a short run with the same seed.  The batch engine
(:mod:`.kernel`) plays chunks of ``CHUNK`` games in lockstep; if a policy is a custom Python callable
(or ``engine="rules"`` is asked for) the readable engine (:mod:`.rules`) plays the same games, slower.

Examples
--------
>>> from pyradice_lab.raft.sim import simulate_games
>>> df = simulate_games(20, players=3, rng=1)
>>> len(df), bool((df["turns"] % 3 == 0).all())
(20, True)
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..engine.assumptions import frame_assumptions
from ..engine.execution import Progress, check_execution, join_frames, simulate_blocks
from ..engine.limits import check_result_size
from ..engine.rng import seed_sequence, spawn_blocks
from ..engine.stats import mean_estimate, proportion_estimate
from .components import coerce_components
from .expectimax import node_tables
from .kernel import CARD_FIELDS, GAME_FIELDS, play_batch
from .physics import coerce_params
from .policies import KIND_CODES, OptionTable, Policy
from .rules import MAX_TURNS, Game, check_flag, check_variant, resolve_policies, resolve_skills

__all__ = ["simulate_games", "simulate", "GameBatch", "CHUNK", "ENGINES", "start_player_table", "by_position",
           "outcomes", "lineup_outcomes"]

CHUNK = 256
#: Memory of one row of the result (measured, rounded up): the limit on ``n_games`` follows from it
#: (:mod:`pyradice_lab.engine.limits`).
ROW_BYTES = 400
ENGINES = ("auto", "batch", "rules")


@dataclass
class GameBatch:
    """Result of :func:`simulate`: one row per game, and per-card totals over all games."""

    games: pd.DataFrame
    cards: pd.DataFrame


def _check_int(v, name, lo, hi=None):
    if isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < lo or (hi is not None and v > hi):
        rng = f"{lo}..{hi}" if hi is not None else f">= {lo}"
        raise ValueError(f"{name} must be an integer {rng}, got {v!r}")
    return int(v)


class _Setup:
    """Validated inputs and the per-seat tables the batch engine needs."""

    def __init__(self, players, variant, policies, params, components, skills, flag_depth, max_turns,
                 discards_roll=False, replace_sunk=True):
        self.comp = coerce_components(components)
        self.discards_roll = check_flag(discards_roll, "discards_roll")
        self.replace_sunk = check_flag(replace_sunk, "replace_sunk")
        self.players = self.comp.check_players(players)
        self.variant = check_variant(variant)
        self.params = coerce_params(params)
        self.policies = resolve_policies(policies, self.players)
        self.skills = resolve_skills(skills, self.players, self.params)
        left = len(self.comp.deck) - self.comp.rules.boats * self.players
        depth = self.comp.rules.flag_depth[self.players] if flag_depth is None else flag_depth
        self.flag_depth = _check_int(depth, "flag_depth", 0, left)
        self.max_turns = _check_int(max_turns, "max_turns", 1)
        self.batchable = all(isinstance(p, Policy) for p in self.policies)

    def spec(self) -> tuple:
        comp = self.comp
        slots, points = comp.deck_arrays()
        return (self.players, self.variant == "sinking", comp.gems.in_play(self.players),
                np.array(comp.gems.counts, dtype=np.int64), slots, points, self.flag_depth, comp.rules.boats,
                comp.rules.water_tokens, comp.rules.sink_at, self.params.spill, self.max_turns, self.discards_roll,
                self.replace_sunk)

    def tables(self) -> tuple:
        """Per-seat policy codes and weights, allowed options, and per distinct timing noise the fall
        probabilities and cumulative sampling tables of every option (and, if a seat plays ``exact``, the
        per-node fall probabilities)."""
        seat_params = [self.params.replace(timing_noise=s) for s in self.skills]
        durations = sorted({d for p in self.policies for d in p.durations})
        table = OptionTable(self.comp.raft, durations)
        kinds = np.array([KIND_CODES[p.kind] for p in self.policies], dtype=np.int64)
        pars = np.stack([p.pars() for p in self.policies])
        allowed = np.stack([table.allowed(p) for p in self.policies])
        distinct = list(dict.fromkeys(seat_params))
        seat_tab = np.array([distinct.index(sp) for sp in seat_params], dtype=np.int64)
        fall = np.stack([table.fall_table(sp) for sp in distinct])
        samp = [table.sample_tables(sp) for sp in distinct]
        nodes = None
        if any(p.kind == "exact" for p in self.policies):
            tabs = [node_tables(table, sp) for sp in distinct]
            nodes = (np.stack([w for w, _ in tabs]), np.stack([f for _, f in tabs]))
        return (kinds, pars, allowed, fall, np.stack([a for a, _ in samp]), np.stack([b for _, b in samp]), seat_tab,
                nodes)


def _run_batch(setup: _Setup, seeds: list, tables) -> tuple[np.ndarray, ...]:
    return play_batch(setup.spec(), [np.random.default_rng(s) for s in seeds], tables)


def _run_rules(setup: _Setup, seeds: list) -> tuple[np.ndarray, ...]:
    n = len(seeds)
    games = np.zeros((n, len(GAME_FIELDS)), dtype=np.int64)
    scores = np.zeros((n, setup.players), dtype=np.int64)
    boats = np.zeros((n, setup.players), dtype=np.int64)
    gifted = np.zeros((n, setup.players), dtype=np.int64)
    game_cards = np.zeros((n, len(setup.comp.deck), 3), dtype=np.int64)
    for g in range(n):
        game = Game(setup.players, setup.variant, setup.policies, rng=np.random.default_rng(seeds[g]),
                    components=setup.comp,
                    params=setup.params, skills=setup.skills, flag_depth=setup.flag_depth,
                    max_turns=setup.max_turns, discards_roll=setup.discards_roll,
                    replace_sunk=setup.replace_sunk)
        row = game.play().summary
        game_cards[g] = game.card_tally
        games[g] = [int(row[f]) if f in row else 0 for f in GAME_FIELDS]
        scores[g] = [row[f"score_{p}"] for p in range(setup.players)]
        boats[g] = [row[f"boats_{p}"] for p in range(setup.players)]
        gifted[g] = [row[f"gifted_{p}"] for p in range(setup.players)]
    return games, scores, boats, gifted, None, game_cards


def simulate(n_games: int, players: int = 3, variant: str = "standard", policies=None, rng=None, *,
             params=None, components=None, skills=None, flag_depth: int | None = None,
             max_turns: int = MAX_TURNS, engine: str = "auto", n_jobs: int = 1, progress: bool = False,
             chunk: int = CHUNK, discards_roll: bool = False, replace_sunk: bool = True,
             card_columns: bool = False, backend: str = "loky", scheduler=None, cache_dir=None) -> GameBatch:
    """Play ``n_games`` games; return per-game rows and per-card totals (see :func:`simulate_games`)."""
    if not isinstance(card_columns, bool):
        raise TypeError(f"card_columns must be True or False, got {card_columns!r}")
    n_games = check_result_size(_check_int(n_games, "n_games", 1), ROW_BYTES, name="n_games")
    chunk = _check_int(chunk, "chunk", 1)
    execution = check_execution(n_jobs, backend, scheduler, progress=progress, cache_dir=cache_dir)
    from ..engine.notices import announce_games

    announce_games("raft", n_games, policies, players, workers=execution.n_jobs if execution.parallel else 1)
    n_jobs = execution.n_jobs
    if not isinstance(engine, str) or engine not in ENGINES:
        raise ValueError(f"engine must be one of {list(ENGINES)}, got {engine!r}")
    setup = _Setup(players, variant, policies, params, components, skills, flag_depth, max_turns, discards_roll,
                   replace_sunk)
    if engine == "batch" and not setup.batchable:
        raise ValueError("engine: custom Python policies need engine='rules' (or 'auto')")
    compiled = setup.batchable and engine != "rules"
    if execution.processes or execution.cache_dir is not None:
        return simulate_blocks(simulate, n_games, rng, {
            "players": players, "variant": variant, "policies": policies, "params": params, "components": setup.comp,
            "skills": skills, "flag_depth": flag_depth, "max_turns": max_turns, "engine": engine, "chunk": chunk,
            "discards_roll": discards_roll, "replace_sunk": replace_sunk, "card_columns": card_columns},
            execution, chunk=chunk, desc="raft games", join=_join_batches)
    root = seed_sequence(rng, name="rng")
    chunks = spawn_blocks(root, n_games, chunk)  # seeds spawned per chunk: same children as root.spawn(n_games)
    n_chunks = -(-n_games // chunk)
    tables = setup.tables() if compiled else None

    def work(seeds):
        return _run_batch(setup, seeds, tables) if compiled else _run_rules(setup, seeds)

    if n_jobs != 1 and n_chunks > 1:
        from joblib import Parallel, delayed

        parts = Parallel(n_jobs=n_jobs, prefer="threads")(delayed(work)(seeds) for seeds in chunks)
    else:
        parts = []
        with Progress(n_chunks, desc="raft games", enabled=progress) as bar:
            for seeds in chunks:
                parts.append(work(seeds))
                bar.update(1, len(seeds))
    games = np.concatenate([p[0] for p in parts])
    scores = np.concatenate([p[1] for p in parts])
    boats = np.concatenate([p[2] for p in parts])
    gifted = np.concatenate([p[3] for p in parts])
    df = pd.DataFrame({"game": np.arange(n_games), "players": setup.players, "variant": setup.variant})
    for i, f in enumerate(GAME_FIELDS[:3]):
        df[f] = games[:, i]
    df["rounds"] = -(-games[:, 1] // setup.players)
    for p in range(setup.players):
        df[f"score_{p}"] = scores[:, p]
    for p in range(setup.players):
        df[f"boats_{p}"] = boats[:, p]
    for p in range(setup.players):
        df[f"gifted_{p}"] = gifted[:, p]
    best = scores.max(axis=1)
    key = scores * 1000 + boats
    top = key.max(axis=1)
    n_top = (key == top[:, None]).sum(axis=1)
    df["winner"] = np.where(n_top == 1, key.argmax(axis=1), -1)
    df["tie"] = n_top > 1
    df["winning_score"] = best
    for i, f in enumerate(GAME_FIELDS[3:], start=3):
        df[f] = games[:, i].astype(bool) if f in ("deck_exhausted", "truncated") else games[:, i]
    if card_columns:  # per game and card: completions and own turns held (card i = deck position i)
        per = np.concatenate([p[5] for p in parts])
        df = pd.concat([df, pd.DataFrame({f"{k}_c{i}": per[:, i, j] for i in range(per.shape[1])
                                          for j, k in enumerate(("completed", "turns_held", "completed_turns"))})],
                       axis=1)
        df.attrs.update(card_sizes=[c.size for c in setup.comp.deck], card_points=[c.points for c in setup.comp.deck],
                        card_ids=[c.id for c in setup.comp.deck])
    df["seed_entropy"] = [root.entropy] * n_games
    df.attrs.update({"seed_entropy": root.entropy, "policies": [getattr(p, "name", "custom") for p in setup.policies],
                     "skills": setup.skills, "engine": "batch" if compiled else "rules"})
    if compiled:
        cards_arr = sum(p[4] for p in parts)
        cards = pd.DataFrame(cards_arr, columns=list(CARD_FIELDS))
        cards.insert(0, "id", [c.id for c in setup.comp.deck])
        cards.insert(1, "name", [c.name for c in setup.comp.deck])
        cards.insert(2, "size", [c.size for c in setup.comp.deck])
        cards.insert(3, "points", [c.points for c in setup.comp.deck])
    else:
        cards = pd.DataFrame()
    return GameBatch(df, cards)


def _join_batches(parts: list, starts: list) -> GameBatch:
    """The :class:`GameBatch` of consecutive blocks of games: games joined, per-card totals summed."""
    games = join_frames([p.games for p in parts], starts)
    cards = parts[0].cards
    if len(cards):
        cards = cards.copy()
        for f in CARD_FIELDS:
            cards[f] = sum(p.cards[f].to_numpy() for p in parts)
    return GameBatch(games, cards)


def simulate_games(n_games: int, players: int = 3, variant: str = "standard", policies=None, rng=None, *,
                   params=None, components=None, skills=None, flag_depth: int | None = None,
                   max_turns: int = MAX_TURNS, engine: str = "auto", n_jobs: int = 1,
                   progress: bool = False, chunk: int = CHUNK, discards_roll: bool = False,
                   replace_sunk: bool = True, card_columns: bool = False, backend: str = "loky",
                   scheduler=None, cache_dir=None) -> pd.DataFrame:
    """Simulate ``n_games`` full games of Rocking Raft.

    Parameters
    ----------
    n_games : int
    players : int
        2..4.
    variant : {"standard", "sinking"}
    policies : name, Policy, callable or a list of them (one per seat), optional
        Default ``"greedy"`` for every seat (see :mod:`.policies`).
    rng : seed, SeedSequence or Generator
    params : TiltParams or dict, optional
        Tilt model parameters.
    components : path or Components, optional
        A designer's components file (partial files merge over the packaged ones) or loaded components, e.g.
        ``default_components().with_gems(3, [7, 7, 7, 5])`` for a gem-mix sweep or ``comp.replace({...})``.
    skills : float or list of float, optional
        Timing noise per seat (dexterity); default the model's ``timing_noise``.
    flag_depth : int, optional
        Cards above the pirate flag (default: the rules' 10/15/20).
    max_turns : int
        Safety cap on turns (such games are flagged ``truncated``).
    engine : {"auto", "batch", "rules"}
    n_jobs : int
        Parallel workers over chunks of games (results do not depend on it).
    backend, scheduler : optional
        ``"loky"`` (worker processes; the default of every entry point), ``"threading"`` (numpy releases the
        GIL) or ``"dask"`` (``scheduler``: a cluster's address); see :mod:`pyradice_lab.engine.execution`.
    cache_dir : path, optional
        Store every finished block of games there; a killed call started again plays only the missing ones.
    chunk : int
        Games per batch (results do not depend on it).
    discards_roll : bool
        Rules reading: unused black gems and leftovers nobody places may roll out of the centre space like
        dropped gems (default False: the text puts them in the centre space).
    replace_sunk : bool
        Rules reading: a sunk lifeboat is replaced at the end of the turn (default True).
    card_columns : bool
        Add per-card columns ``completed_c<i>``, ``turns_held_c<i>`` and ``completed_turns_c<i>`` (card ``i`` =
        position ``i`` of the components' deck: its completions, the own turns it was held in this game
        completed or not, and the own turns it was held until completed, summed over its completions) and the
        deck's ``card_sizes`` / ``card_points`` / ``card_ids`` in ``attrs`` (the designer metrics
        ``boat_pay_excess:K``, ``boat_pay_spread`` and ``points_per_turn_held:K`` need them); both engines record them alike.
        Default False.

    Returns
    -------
    pandas.DataFrame
        One row per game: seat scores and completed lifeboats, ``winner`` (-1 for a shared win),
        ``turns``, ``rounds``, ``flag_turn``, ``gems_passed`` (ordinary gems the active player could not
        place), ``gifts_placed`` (of those, placed by opponents), ``gift_points`` (points completed by
        passed gems), ``gifted_<seat>`` (points that seat's leftovers completed for others), ``sunk``
        lifeboats, ``deck_exhausted``, ``truncated`` and the root ``seed_entropy``.

    Examples
    --------
    >>> df = simulate_games(10, players=4, variant="sinking", rng=3)
    >>> sorted(set(df.columns) >= {"score_0", "score_3", "winner", "sunk"} for _ in [0])
    [True]
    """
    comp = coerce_components(components)
    df = simulate(n_games, players, variant, policies, rng, params=params, components=comp, skills=skills,
                  flag_depth=flag_depth, max_turns=max_turns, engine=engine, n_jobs=n_jobs, progress=progress,
                  chunk=chunk, discards_roll=discards_roll, replace_sunk=replace_sunk,
                  card_columns=card_columns, backend=backend, scheduler=scheduler, cache_dir=cache_dir).games
    readings = [r for r, on in (("discarded gems may roll", discards_roll),
                                ("sunk lifeboats not replaced", not replace_sunk)) if on]
    return frame_assumptions(df, "raft", outcomes, components=components, loaded=comp, rng=rng, games=n_games,
                             variant=variant, **{"flag under": None if flag_depth is None else f"{flag_depth} cards",
                                                 "readings": ", ".join(readings) or None})


def by_position(games: pd.DataFrame, column: str = "score") -> np.ndarray:
    """(games, players) values of ``<column>_<seat>`` re-indexed by turn position: column 0 is the start
    player (``first_player``), column 1 the next player clockwise, and so on."""
    if "first_player" not in games or "players" not in games or games.empty:
        raise ValueError("games must be a non-empty table from simulate_games (with first_player and players)")
    players = int(games["players"].iloc[0])
    vals = games[[f"{column}_{p}" for p in range(players)]].to_numpy()
    first = games["first_player"].to_numpy()
    seats = (first[:, None] + np.arange(players)[None, :]) % players
    return np.take_along_axis(vals, seats, axis=1)


def start_player_table(games: pd.DataFrame) -> pd.DataFrame:
    """Win rate and points by turn position (1 = the start player), with 95% CIs.

    Seats are dealt the first-player token at random, so a seat's numbers average over positions and hide a
    start-player advantage; this table re-indexes every game by turn position.  Columns: ``position`` (the turn position, 1 = the start
    player, as everything a person reads numbers it),
    ``win_rate`` (outright wins, Wilson CI), ``win_share`` (ties split equally between the tied players; the
    shares sum to 1, compare them with ``fair_share`` = 1 / players), ``mean_score`` and ``score_margin``
    (the position's points minus the average of the other players'), each with ``_se``, ``_ci_low``,
    ``_ci_high``, and ``games``.

    Parameters
    ----------
    games : pandas.DataFrame
        A table from :func:`simulate_games` (one player count; needs ``first_player`` and ``players``).

    Returns
    -------
    pandas.DataFrame
        One row per turn position (the columns above).

    Raises
    ------
    ValueError
        If ``games`` is empty or not a table from :func:`simulate_games`.

    Examples
    --------
    >>> t = start_player_table(simulate_games(40, players=3, rng=2))
    >>> t["position"].tolist(), round(float(t["win_share"].sum()), 12)
    ([1, 2, 3], 1.0)
    """
    players = int(games["players"].iloc[0]) if "players" in games and len(games) else 0
    score = by_position(games, "score")
    boats = by_position(games, "boats")
    key = score * 1000 + boats
    top = key == key.max(axis=1, keepdims=True)
    share = top / top.sum(axis=1, keepdims=True)
    solo = top & (top.sum(axis=1, keepdims=True) == 1)
    n = len(games)
    rows = []
    for pos in range(players):
        others = (score.sum(axis=1) - score[:, pos]) / max(players - 1, 1)
        row = {"position": pos + 1, "games": n, "fair_share": 1.0 / players}  # turn positions are 1-based
        row.update(proportion_estimate(int(solo[:, pos].sum()), n).to_dict("win_rate"))
        row.update(_estimate(share[:, pos]).to_dict("win_share"))
        row.update(_estimate(score[:, pos]).to_dict("mean_score"))
        row.update(_estimate(score[:, pos] - others).to_dict("score_margin"))
        rows.append(row)
    out = pd.DataFrame(rows)
    out = out.drop(columns=[c for c in out.columns if c.endswith("_n")])
    return out


def _estimate(x: np.ndarray):
    """mean_estimate, also for a single game (no spread: se and CI are NaN)."""
    if len(x) > 1:
        return mean_estimate(x)
    from ..engine.stats import Estimate

    return Estimate(float(x[0]), float("nan"), 1, float("nan"), float("nan"))



def outcomes(df: pd.DataFrame) -> pd.DataFrame:
    """The game's result as the common long frame of :mod:`pyradice_lab.engine.outcomes`, one row per (game, seat).

    Turns run clockwise from ``first_player``.  Seats rank by points, then by lifeboats completed (the rules'
    tie-break); seats equal on both share the rank (and the win).  Policy names come from
    ``df.attrs["policies"]`` (``"custom"`` if absent).

    Examples
    --------
    >>> out = outcomes(simulate_games(4, players=2, policies=["greedy", "random"], rng=1))
    >>> out.groupby("game")["win"].sum().tolist(), sorted(set(out["policy"]))
    ([1.0, 1.0, 1.0, 1.0], ['greedy', 'random'])
    """
    from ..engine.outcomes import outcome_frame

    players = pd.unique(df["players"])
    if len(players) != 1:
        raise ValueError(f"df must hold games of one player count, got {sorted(players)}")
    seats = np.arange(int(players[0]))
    scores = df[[f"score_{s}" for s in seats]].to_numpy()
    boats = df[[f"boats_{s}" for s in seats]].to_numpy()
    names = list(df.attrs.get("policies", ["custom"] * len(seats)))
    pos = (seats[None, :] - df["first_player"].to_numpy()[:, None]) % len(seats)
    return outcome_frame(df["game"].to_numpy(), names, pos, scores, keys=[scores, boats])


def lineup_outcomes(policies, n_games: int, *, rng=None, progress: bool = False, **kwargs) -> pd.DataFrame:
    """Play ``n_games`` games with ``policies[s]`` in seat ``s``; the :func:`outcomes` frame, policies named
    as given (``"fixed:1.0"``, not ``"fixed(1s)"``).  ``kwargs`` go to :func:`simulate_games` (e.g.
    ``variant="sinking"``).  Used by :mod:`pyradice_lab.design.strength`."""
    from ..engine.outcomes import relabel_policies

    pols = list(policies)
    names = [p if isinstance(p, str) else getattr(p, "name", "custom") for p in pols]
    df = simulate_games(n_games, players=len(pols), policies=pols, rng=rng, progress=progress, **kwargs)
    return relabel_policies(outcomes(df), names)
