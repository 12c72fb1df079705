"""Fast whole-game simulation: the compiled rules of :mod:`.kernel` over many games at once.

Each game gets its own dice stream (``SeedSequence.spawn`` children of ``rng``, drawn in blocks of
:data:`~.rules.BLOCK` dice exactly like :class:`~.rules.DiceStream`), so a game's result depends only on
the seed and its index -- never on chunking -- and :func:`~.rules.play_game` replays game ``i`` from
``pyradice_lab.engine.rng.spawn(seed, n)[i]``.  Games are processed in chunks; a game whose dice buffer runs
low at a turn boundary is suspended, its buffer topped up, and resumed.

Optimal seats (``"optimal"``, ``"optimal:at_least:K"`` or :func:`~.policies.optimal` objects) play inside
a compiled loop of their own (:func:`~.kernel.run_games_optimal`, :func:`~.kernel.optimal_turn`): every turn
is solved exactly on its board by the compiled solver (:mod:`.exact`), with a memo carried from turn to turn,
game to game, chunk to chunk and call to call (bounded; :mod:`.memopool`).
Games of human-style seats only run :func:`~.kernel.run_games`, which never calls the solver: a first
greedy simulation does not compile it.  Chunks can run on ``n_jobs``
threads (the kernels release the GIL); a game's result never depends on the chunk size or ``n_jobs``.

Examples
--------
>>> df = simulate_games(20, players=4, rng=1)
>>> len(df), set(df["end"]) <= {"board_full", "second_player_out", "gold_placed", "turn_limit"}
(20, True)
"""

from __future__ import annotations

import numbers

import numpy as np
import pandas as pd

from ..engine import aot
from ..engine.assumptions import frame_assumptions
from ..engine.execution import Progress, check_execution, simulate_blocks
from ..engine.limits import check_result_size
from ..engine.rng import spawn_blocks
from . import exact as E, kernel as K
from .components import coerce_components, load_layout
from .policies import OptimalPolicy, seat_policies
from .rules import BLOCK, check_players

#: the compiled game loops called from here (human-style seats only; with optimal seats): their ahead-of-time
#: builds when ``pyradice-lab compile`` made them (:mod:`pyradice_lab.engine.aot`)
_RUN_GAMES = aot.entry(K.run_games)
_RUN_OPTIMAL = aot.entry(K.run_games_optimal)

__all__ = ["simulate_games", "check_players", "games_bench_run", "optimal_bench_run", "CHUNK", "CHUNK_OPTIMAL",
           "outcomes", "lineup_outcomes", "ROW_BYTES"]

CHUNK = 2048
CHUNK_OPTIMAL = 8   # games per chunk with optimal seats (a progress bar that moves, threads kept busy)
#: Memory of one row of the result (230 MB peak for 10**5 games, 529 MB for 10**6: ~330 bytes a game,
#: rounded up): the limit on ``n_games`` follows from it (:mod:`pyradice_lab.engine.limits`).
ROW_BYTES = 400
#: All-greedy lineups run the games loop without risk tables (a smaller compiled loop, the same games; tests
#: switch it off to compare both loops).
_PRUNE_GREEDY = True


def _check_n(n, name: str) -> int:
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 1:
        raise ValueError(f"{name} must be a positive integer, got {n!r}")
    return int(n)


def _seat_arrays(pols, L, yarn_tokens: bool, cfg=None):
    """Kernel arrays for the seats: kinds, parameters, optimal objective rows and targets, solver context."""
    from .advisor import parse_objective
    from .components import load_game_config

    specs: list = []
    kinds, params, spec_of, k_of = [], [], [], []
    yv_default = (cfg or load_game_config()).yarn_value
    for pol in pols:
        if isinstance(pol, OptimalPolicy):
            obj = parse_objective(pol.objective)
            row = (0 if obj.kind == "tiles" else 1, E.MODE_CODES[pol.bonus],
                   yv_default if pol.yarn_value is None else float(pol.yarn_value))
            if row not in specs:
                specs.append(row)
            kinds.append(K.KIND_OPTIMAL)
            params.append(0.0)
            spec_of.append(specs.index(row))
            k_of.append(obj.k)
        else:
            kinds.append(pol.kind + (0 if pol.yarn else K.NO_YARN))
            params.append(pol.param)
            spec_of.append(0)
            k_of.append(0)
    # the solver's tables only for optimal seats (without them the compiled loop never reads them)
    sc = E.static_context(L, specs, yarn_tokens=yarn_tokens) if specs else None
    return (np.array(kinds, dtype=np.int64), np.array(params, dtype=np.float64),
            np.array(spec_of, dtype=np.int64), np.array(k_of, dtype=np.int64), sc, bool(specs))


def _run_chunk(seqs, players, L, cfg, pols, arrays, risk, seats, yarn_tokens, workers=1):
    kinds, params, spec_of, k_of, sc, any_opt = seats
    if not any_opt:
        return _play_chunk(seqs, players, L, cfg, pols, arrays, risk, seats, yarn_tokens, None, workers)
    from .memopool import POOL, setting_key

    key = setting_key(sc)
    mem = POOL.take(key, arrays[2], workers)
    box = [mem]
    try:
        return _play_chunk(seqs, players, L, cfg, pols, arrays, risk, seats, yarn_tokens, box, workers, key)
    finally:
        POOL.give(key, box[0], taken=mem)


def _play_chunk(seqs, players, L, cfg, pols, arrays, risk, seats, yarn_tokens, box, workers, key=None):
    """One chunk of games; ``box[0]`` holds the solver memo (replaced as it grows or is pruned)."""
    brd, full, n = arrays
    rcm, rw, rrows = risk
    kinds, params, spec_of, k_of, sc, any_opt = seats
    if any_opt:
        from .memopool import POOL, memo_keep, memo_max, prune

        limit = memo_max(workers)
    m = len(seqs)
    gens = [np.random.default_rng(s) for s in seqs]
    buf = np.zeros((m, 2 * BLOCK), dtype=np.int8)
    for i, gen in enumerate(gens):
        buf[i, :BLOCK] = gen.integers(1, 7, size=BLOCK, dtype=np.int8)
    used = np.zeros(m, dtype=np.int64)
    covered0 = L.bottom_rows_mask(cfg.two_player_covered_rows) if players == 2 else 0
    st = np.zeros((m, K.N_STATE), dtype=np.int64)
    st[:, K.S_COV] = covered0
    st[:, K.S_TOKENS] = L.eights_mask() & ~covered0 if yarn_tokens else 0
    st[:, K.S_GOLD_SUPPLY] = cfg.gold_tiles
    st[:, K.S_WINNER] = -1
    st[:, K.S_TILES_BOARD] = L.tiles_of(covered0)
    st[:, K.S_BLEN] = BLOCK
    hands = np.tile(np.array(cfg.deal_for(players), dtype=np.int64), (m, 1))
    yarn = np.zeros((m, players), dtype=np.int64)
    tv = np.zeros((m, players, 2), dtype=np.float64)
    while True:
        if any_opt:  # the compiled exact solver is compiled (or loaded) only for games with optimal seats
            suspended, box[0], memo_full = _RUN_OPTIMAL(players, cfg.dice, cfg.turn_limit, kinds, params,
                                                               spec_of, k_of, brd, full, n, rcm, rw, rrows, buf, st,
                                                               hands, yarn, tv, sc, box[0], limit)
            if memo_full:  # at a turn boundary: keep the openings (on disk too), drop the rest, play on
                POOL.save(key, box[0])
                box[0] = prune(box[0], memo_keep(workers))
                continue
        else:
            # all seats greedy: no risk tables, a smaller compiled loop (the same games; see kernel.human_turn)
            greedy = _PRUNE_GREEDY and bool(np.all(kinds % K.NO_YARN == K.KIND_GREEDY))
            suspended = _RUN_GAMES(players, cfg.dice, cfg.turn_limit, kinds, params, brd, full, n,
                                    None if greedy else rcm, rw, rrows, buf, st, hands, yarn)
        if not suspended:
            break
        for i in np.flatnonzero(st[:, K.S_END] == K.END_NONE):
            pos, blen = st[i, K.S_POS], st[i, K.S_BLEN]
            tail = buf[i, pos:blen].copy()
            used[i] += pos
            buf[i, :len(tail)] = tail
            buf[i, len(tail):len(tail) + BLOCK] = gens[i].integers(1, 7, size=BLOCK, dtype=np.int8)
            st[i, K.S_BLEN] = len(tail) + BLOCK
            st[i, K.S_POS] = 0
    used += st[:, K.S_POS]
    winner = st[:, K.S_WINNER]
    gold_placed = st[:, K.S_GOLD_PLACED]
    out = {"players": players, "layout": L.name, "policies": ",".join(p.name for p in pols),
           "turns": st[:, K.S_TURNS], "winner": winner, "winner_gold": gold_placed}
    for p in range(players):
        out[f"score_{p}"] = np.where(winner == p, gold_placed, -hands[:, p])
    out.update({"bursts": st[:, K.S_BURSTS], "bonus_turns": st[:, K.S_BONUS], "yarn_won": st[:, K.S_YWON],
                "yarn_spent": st[:, K.S_YSPENT], "end": np.array(K.END_NAMES, dtype=object)[st[:, K.S_END]],
                "tiles_on_board": st[:, K.S_TILES_BOARD], "tiles_in_hands": hands.sum(axis=1),
                "gold_in_hand": st[:, K.S_GOLD_HAND], "gold_supply": st[:, K.S_GOLD_SUPPLY]})
    if any_opt:
        for p in range(players):
            opt = kinds[p] == K.KIND_OPTIMAL
            out[f"expected_{p}"] = tv[:, p, 0] if opt else np.full(m, np.nan)
            out[f"value_{p}"] = tv[:, p, 1] if opt else np.full(m, np.nan)
    out["dice_rolled"] = used
    return pd.DataFrame(out)


def simulate_games(n_games: int, players: int = 4, layout="A", policies=None, rng=None, *,
                   progress: bool = False, n_jobs: int = 1, yarn_tokens: bool = True,
                   components=None, backend: str = "loky", scheduler=None, cache_dir=None) -> pd.DataFrame:
    """Simulate ``n_games`` complete games with the compiled rules; one row per game.

    Parameters
    ----------
    n_games : int
        Number of games (>= 1).
    players : {2, 3, 4}
    layout : "A", "B", a side of ``components``, a layout file path or a Layout
    policies : None, one policy for every seat, or a list with one per seat
        ``"greedy"`` (default), ``"stop_after:K"``, ``"risk:P"``, ``"optimal"`` (expected tiles, a token
        worth the documented ``yarn_value``), ``"optimal:at_least:K"``, or policy objects
        (``pm.greedy()``, ``pm.optimal(bonus="exact")`` ...).
    rng : seed, SeedSequence or Generator
        Game ``i`` uses child ``i`` of ``SeedSequence.spawn``.
    progress : bool
        Progress on stderr (a bar on a terminal, else a line every few seconds).
    n_jobs : int
        Workers running blocks of games (-1: all cores); results do not depend on it.
    yarn_tokens : bool
        ``False`` plays without yarn tokens (none on the 8s): a switch for analysis, not a rule.
    components : path or Components, optional
        A designer's components file (partial files merge over the packaged ones: game constants and sides)
        or loaded components (:func:`~.components.load_components`, ``comp.replace(...)``).
    backend, scheduler : optional
        ``"loky"`` (worker processes; the default of every entry point), ``"threading"`` (the kernels release the
        GIL) or ``"dask"`` (``scheduler``: a cluster's address); see :mod:`pyradice_lab.engine.execution`.
    cache_dir : path, optional
        Store every finished block of games there; a killed call started again plays only the missing ones.

    Returns
    -------
    DataFrame
        ``game``, ``players``, ``layout``, ``policies``, ``turns`` (normal turns), ``winner`` (seat, -1 if
        none), ``winner_gold`` (gold tiles the winner placed = the winner's score), ``score_0`` ..
        ``score_{players-1}``, ``bursts``, ``bonus_turns``, ``yarn_won``, ``yarn_spent``, ``end``
        (board_full / second_player_out / gold_placed / turn_limit), final tile counts
        (``tiles_on_board``, ``tiles_in_hands``, ``gold_in_hand``, ``gold_supply``; they sum to 84) and
        ``dice_rolled``.  With optimal seats also ``expected_{p}`` (sum of the exact values of the turns
        seat ``p`` solved) and ``value_{p}`` (what those turns realised under its objective; NaN for
        other seats): their difference averages 0 (tested).

    Raises
    ------
    ValueError
        If ``n_games`` is not a positive integer, ``players`` is not 2..4, ``layout`` is unknown, a policy is
        unknown or the number of policies is not 1 or ``players``, ``n_jobs`` is neither a positive integer
        nor -1, or the components are invalid.
    TypeError
        If ``yarn_tokens`` is not a bool.

    Examples
    --------
    >>> df = simulate_games(2, players=4, policies=["optimal", "greedy", "greedy", "risk:0.35"], rng=3)
    >>> list(df.columns[-3:])
    ['expected_3', 'value_3', 'dice_rolled']
    """
    from .policies import _arrays, _risk

    n_games = check_result_size(_check_n(n_games, "n_games"), ROW_BYTES, name="n_games")
    players = check_players(players)
    from ..engine.sweep import check_progress

    check_progress(progress)
    if not isinstance(yarn_tokens, bool):
        raise TypeError(f"yarn_tokens must be True or False, got {yarn_tokens!r}")
    execution = check_execution(n_jobs, backend, scheduler, progress=progress, cache_dir=cache_dir)
    from ..engine.notices import announce_games

    announce_games("purramid", n_games, policies, players, workers=execution.n_jobs if execution.parallel else 1)
    comp = coerce_components(components)
    L = load_layout(layout, comp)
    cfg = comp.config
    pols = seat_policies(policies, players)
    for p in pols:
        if hasattr(p, "for_turn"):
            raise ValueError(f"policies: {p.name} chooses its objective each turn and plays in the readable engine "
                             f"only (rules.play_game), not in simulate_games")
    arrays = _arrays(L)
    risk = _risk()
    seats = _seat_arrays(pols, L, yarn_tokens, cfg)
    chunk = CHUNK_OPTIMAL if seats[-1] else CHUNK
    def told(df):
        return frame_assumptions(df, "purramid", outcomes, components=components, loaded=comp, rng=rng,
                                 games=n_games, side=L.name, yarn_tokens=None if yarn_tokens else "off")

    if execution.processes or execution.cache_dir is not None:
        return told(simulate_blocks(simulate_games, n_games, rng, {
            "players": players, "layout": L, "policies": policies, "yarn_tokens": yarn_tokens, "components": comp},
            execution, chunk=chunk, desc="purramid games"))
    n_jobs = execution.n_jobs
    blocks = spawn_blocks(rng, n_games, chunk)  # seeds spawned per chunk: the children of one spawn(n_games)

    parallel = n_jobs != 1 and n_games > chunk
    workers = 1
    if parallel:
        import os

        workers = max(1, min((os.cpu_count() or 1) if n_jobs == -1 else n_jobs, -(-n_games // chunk)))

    def work(seqs):
        return _run_chunk(seqs, players, L, cfg, pols, arrays, risk, seats, yarn_tokens, workers)

    bar = Progress(-(-n_games // chunk), desc="purramid games", enabled=progress)
    frames = []
    if parallel:
        from joblib import Parallel, delayed

        # joblib takes the blocks one at a time, in order (under its lock): seeds are spawned in order
        for df in Parallel(n_jobs=n_jobs, prefer="threads", return_as="generator")(delayed(work)(q) for q in blocks):
            frames.append(df)
            bar.update(1, len(df))
    else:
        for seqs in blocks:
            frames.append(work(seqs))
            bar.update(1, len(frames[-1]))
    bar.close()
    df = pd.concat(frames, ignore_index=True)
    df.insert(0, "game", np.arange(n_games))
    return told(df)


def split_policies(label) -> list[str]:
    """The seats' policy names of a ``policies`` column entry: the names joined by commas, where a name's own
    parameters may hold commas inside parentheses (``"greedy,optimal(bonus=exact, yarn_value=1)"``).

    >>> split_policies("greedy,optimal(bonus=exact, yarn_value=1)")
    ['greedy', 'optimal(bonus=exact, yarn_value=1)']
    """
    names, depth, start, text = [], 0, 0, str(label)
    for i, ch in enumerate(text):
        depth += (ch in "([{") - (ch in ")]}")
        if ch == "," and depth == 0:
            names.append(text[start:i])
            start = i + 1
    names.append(text[start:])
    return names


def outcomes(df: pd.DataFrame) -> pd.DataFrame:
    """The game's result as the common long frame of :mod:`pyradice_lab.engine.outcomes`, one row per (game, seat).

    Seat 0 takes the first turn (the simulator's start player; a ``first_player`` column, if present, is
    used instead).  The winner is the first seat to place all its regular tiles (``winner``), whatever the
    scores; the other seats rank by score (minus the regular tiles left in hand), equal scores sharing a
    rank.  When nobody placed all tiles (board full or turn limit), every seat ranks by score and the best
    scores share the win.

    Examples
    --------
    >>> out = outcomes(simulate_games(3, players=2, policies=["greedy", "stop_after:2"], rng=1))
    >>> list(out.columns), out.groupby("game")["win"].sum().tolist()
    (['game', 'seat', 'policy', 'start', 'position', 'score', 'rank', 'win'], [1.0, 1.0, 1.0])
    """
    from ..engine.outcomes import outcome_frame

    players = _one_value(df, "players")
    seats = np.arange(players)
    first = df["first_player"].to_numpy()[:, None] if "first_player" in df else np.zeros((len(df), 1), np.int64)
    scores = df[[f"score_{p}" for p in seats]].to_numpy()
    winner = df["winner"].to_numpy()[:, None] == seats[None, :]
    pols = np.array([split_policies(x) for x in df["policies"]], dtype=object)
    return outcome_frame(df["game"].to_numpy(), pols, (seats[None, :] - first) % players, scores,
                         keys=[winner, scores])


def _one_value(df: pd.DataFrame, col: str) -> int:
    vals = pd.unique(df[col])
    if len(vals) != 1:
        raise ValueError(f"df must hold games of one {col} count, got {sorted(vals)}")
    return int(vals[0])


def lineup_outcomes(policies, n_games: int, *, rng=None, progress: bool = False, **kwargs) -> pd.DataFrame:
    """Play ``n_games`` games with ``policies[s]`` in seat ``s``; the :func:`outcomes` frame, policies named
    as given (``"stop_after:2"``, not ``"stop_after(2)"``).  ``kwargs`` go to :func:`simulate_games`
    (e.g. ``layout="B"``).  Used by :mod:`pyradice_lab.design.strength`."""
    from ..engine.outcomes import relabel_policies

    names = [p if isinstance(p, str) else p.name for p in policies]
    df = simulate_games(n_games, players=len(names), policies=list(policies), rng=rng, progress=progress, **kwargs)
    return relabel_policies(outcomes(df), names)


def games_bench_run(n_games: int = 50, players: int = 4, seed: int = 0) -> int:
    """Bench helper: simulate ``n_games`` greedy games; returns the number of games (the unit of work)."""
    simulate_games(n_games, players=players, rng=seed)
    return n_games


def optimal_bench_run(n_games: int = 4, players: int = 4, seed: int = 0, optimal_seats: int = 4,
                      n_jobs: int = 1) -> int:
    """Bench helper: ``n_games`` games with the first ``optimal_seats`` seats optimal, the rest ``risk:0.35``."""
    pols = ["optimal"] * optimal_seats + ["risk:0.35"] * (players - optimal_seats)
    simulate_games(n_games, players=players, policies=pols, rng=seed, n_jobs=n_jobs)
    return n_games
