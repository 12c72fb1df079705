"""Fast simulation of whole Meerkat Kingdom games (numba-compiled :mod:`.kernel`), tidy results, transcripts.

Each game draws its own 64-bit key from the generator, and every die and random choice of the game is a hash
of that key and the draw's turn, purpose and index (:mod:`.rules`, "chance"): the dice of turn ``t`` do not
depend on what was decided before it, so two component sets played on the same seed meet the same dice turn
by turn (common random numbers that survive a different decision).  The compiled kernel plays the games one
after the other on plain arrays.  The same kernel with ``NUMBA_DISABLE_JIT=1`` is the pure-Python reference:
it plays the same games from the same keys, so both paths give identical results for the same seed.

Examples
--------
>>> from pyradice_lab.meerkat import simulate_games
>>> df = simulate_games(4, players=3, rng=1)
>>> len(df), sorted(set(df["players"]))
(4, [3])
"""

from __future__ import annotations

import types
from functools import cache
from typing import NamedTuple

import numpy as np
import pandas as pd

from ..engine.limits import check_result_size
from ..engine.rng import as_generator
from ._setup import (
    _BLUE as _BLUE,
    _TAN as _TAN,
    READINGS,
    Setup,
    _check_int,
    _components_setup,
    _default_setup,
    _readings_k,
    _seat_config,
    _tapes,
    seat_names,
    setup_label,
)
from .components import default_components as default_components
from .policies import POLICIES, SEARCH

__all__ = ["simulate_games", "play_game", "GameRecord", "TAPE", "Setup", "seat_names", "setup_label", "READINGS", "engine_functions",
           "python_twins", "fresh_state", "outcomes", "lineup_outcomes", "AUTOMA_LEVELS"]

TAPE = 2048
CHUNK = 512
#: Peak memory per game of the result (output arrays + DataFrame row: 1.5 kB measured at 10**6 games, rounded
#: up): the limit on ``n_games`` follows from it (:mod:`pyradice_lab.engine.limits`).
ROW_BYTES = 2000


def simulate_games(n_games: int, players: int = 3, automa: bool | None = None, policies=None, rng=None, *,
                   components=None, progress: bool = False, engine: str = "auto",
                   reverse_reading: str = "literal", jackal_reading: str = "literal", n_jobs: int = 1,
                   backend: str = "loky", scheduler=None, cache_dir=None) -> pd.DataFrame:
    """Simulate ``n_games`` whole games; one row per game.

    Parameters
    ----------
    n_games : int
        Number of games (>= 1).
    players : int
        Human seats, 2..4 (1..3 with the automa; at most 4 seats in all).
    automa : bool or None
        Add the automa as the last seat (it plays last and follows its own rules).  ``None`` (default) = the
        rules' setup: a 2-player game is 2 players + the automa (with the 9 and 6 bonus tokens), 3-4 players
        play without it.  ``players=2, automa=False`` (2 players alone) and ``players=1`` (solo against the
        automa) are extensions the rules do not describe (see :func:`setup_label`).
    policies : str, dict or list, optional
        One policy for every player or one per player: ``"random_legal"``, ``"greedy"`` (default),
        ``"heuristic"``, ``("heuristic", {params})`` or a heuristic params dict (see :mod:`.policies`).
    rng : seed or Generator
        Same seed -> the same games.
    components : path or Components, optional
        A designer's components file (partial files merge over the packaged components) or loaded components
        (:func:`~.components.load_components`, ``comp.replace(...)``); default: the packaged TOML.
    progress : bool
        Progress on stderr (a bar on a terminal, else a line every few seconds).
    engine : {"auto", "numba", "python"}
        The compiled kernel or its pure-Python twin (identical results); ``auto`` runs the twin when the
        compiled kernel is not in numba's cache and the workload is small, so a first call never waits for the
        compiler.
    reverse_reading, jackal_reading : str
        Readings of two ambiguous rules (see :data:`READINGS`): ``"literal"`` (default, the rules text) or
        ``"extended"`` / ``"next_tile"``.
    n_jobs, backend, scheduler : optional
        Blocks of games on ``n_jobs`` workers of ``backend`` (``"loky"``, ``"dask"`` with a ``scheduler``
        address, ``"threading"``; :mod:`pyradice_lab.engine.execution`); results do not depend on them (each
        block starts from the generator state a single call has at its first game).
    cache_dir : path, optional
        Store every finished block of games there; a killed call started again plays only the missing ones.

    Returns
    -------
    DataFrame
        Columns: ``game``, ``players``, ``automa``, ``setup`` (:func:`setup_label`), ``winner`` (seat, -1 =
        shared), ``turns``, ``first_seat`` (the start player's seat; the start roll decides it, the automa
        never starts), ``start_player_won`` (1, 0, or the start player's share of a shared win), ``hawk`` /
        ``fire`` / ``jackal`` (hazards fired), ``capped``, ``conserved``, ``reverse_readings_differ`` (tiles
        whose reverse scoring the two readings pay differently at the end), ``jackal_readings_differ``
        (players a jackal hit differently under the two readings), and per seat ``s``: ``score_s``,
        ``tile_points_s``, ``pup_points_s``, ``bonus_s``, ``pups_s``, ``guardians_s`` (left in the reserve),
        ``guardians_moved_s``, ``won_s`` (tiles whose high value the seat took), ``n_won_s``, ``out_order_s``,
        ``lost_to_hazards_s``, ``male_activations_s``, ``policy_s``; per tile ``t``: ``present_tt`` (meerkats
        and queens on it when it is scored, guardians moved there excluded when they arrive later) and
        ``paid_tt`` (points it paid out).

    Examples
    --------
    >>> df = simulate_games(3, players=2, rng=7)      # the rules' 2-player game: 2 players + automa
    >>> bool(df["automa"].all()), df["setup"].iloc[0], "score_2" in df.columns
    (True, '2p + automa', True)
    """
    from .kernel import GAME_COLUMNS, SEAT_COLUMNS

    n_games = check_result_size(_check_int(n_games, "n_games", 1), ROW_BYTES, name="n_games")
    from ..engine.sweep import check_progress

    check_progress(progress)
    setup = _components_setup(components)
    n, pols, prm, names = _seat_config(players, automa, policies)
    automa = n > players
    K = _readings_k(setup.K, reverse_reading, jackal_reading)
    from ..engine.execution import check_execution

    execution = check_execution(n_jobs, backend, scheduler, progress=progress, cache_dir=cache_dir)
    from ..engine.notices import announce_games

    announce_games("meerkat", n_games, policies, players, workers=execution.n_jobs if execution.parallel else 1)

    def told(df):
        from ..engine.assumptions import frame_assumptions

        return frame_assumptions(df, "meerkat", outcomes, components=components, loaded=setup.comp, rng=rng,
                                 games=n_games, **{k.replace("_", " "): v for k, v in (
                                     ("reverse_reading", reverse_reading), ("jackal_reading", jackal_reading))
                                     if v != "literal"})

    if execution.parallel or execution.cache_dir is not None:
        from ..engine.execution import generator_blocks, simulate_blocks

        if not isinstance(engine, str) or engine not in ENGINES:
            raise ValueError(f"engine must be one of {ENGINES}, got {engine!r}")
        return told(simulate_blocks(simulate_games, n_games, rng, {
            "players": players, "automa": automa, "policies": policies, "components": setup.comp, "engine": engine,
            "reverse_reading": reverse_reading, "jackal_reading": jackal_reading}, execution, chunk=CHUNK,
            desc="meerkat games", blocks=generator_blocks(_tapes, CHUNK)))
    run_games = _engine(engine, n_games, pols, n, prm)[0]
    gen = as_generator(rng)
    seat_out = np.zeros((n_games, 4, len(SEAT_COLUMNS)), np.int64)
    game_out = np.zeros((n_games, len(GAME_COLUMNS)), np.int64)
    tile_out = np.zeros((n_games, 10, 2), np.int64)
    from ..engine.execution import Progress

    bar = Progress(-(-n_games // CHUNK), desc="meerkat games", enabled=progress)
    for start in range(0, n_games, CHUNK):
        m = min(CHUNK, n_games - start)
        run_games(_tapes(gen, m), n, automa, pols, prm, setup.V, K, setup.bags, setup.nblue,
                  setup.nbrown, setup.comp.male_start_tile, setup.pos_adj, setup.oasis, setup.comp.shuffle_tiles,
                  seat_out[start:start + m], game_out[start:start + m], tile_out[start:start + m], search_arg(pols))
        bar.update(1, m)
    bar.close()
    return told(_frame(seat_out, game_out, players, automa, names, tile_out))


ENGINES = ("auto", "numba", "python")
#: ``engine="auto"`` plays the pure-Python twin when the compiled kernel is not cached yet and the estimated
#: twin time -- of this call plus every earlier twin call of the process -- stays below this many CPU seconds
#: (a cold compile costs about 2-20): many small calls (a sweep, the report) compile once instead of each
#: paying the twin.
TWIN_BUDGET = 10.0
_twin_spent = [0.0]  # estimated CPU seconds this process has played through the twin


def search_arg(pols):
    """The ``search`` argument of :func:`.kernel.run_games` for these seat policies: ``True`` if a seat is a
    search player, else ``None`` (the kernel without the search: a much shorter cold compile, same games)."""
    return True if bool(np.any(np.asarray(pols) == SEARCH)) else None


def compiled_engine_ready() -> bool:
    """Whether the compiled kernel is in memory or in numba's on-disk cache (no compilation needed)."""
    from .kernel import run_games

    if run_games.signatures:
        return True
    try:
        return bool(run_games._cache._cache_file._load_index())
    except Exception:  # noqa: BLE001 - any cache trouble means "not ready"
        return False


def _engine(engine: str, n_games: int, pols, n: int, prm=None):
    """Pick the kernel: ``auto`` runs the pure-Python twin when compiling would cost more than it saves."""
    from .policies import P_FUTURE

    if not isinstance(engine, str) or engine not in ENGINES:
        raise ValueError(f"engine must be one of {ENGINES}, got {engine!r}")
    if engine == "auto":
        # pure-Python CPU seconds per game and seat (measured on the 2-core machine under load: 3 greedy players
        # 27 ms a game, random_legal seats 1.5 ms, expectimax seats about 0.2 s) against a cold compile of about
        # 20 CPU seconds; every search decision plays hundreds of rollouts: always compile for a search player
        per_game = 0.0
        for s in range(n):
            if pols[s] == SEARCH:
                per_game = np.inf
            elif pols[s] > 0:
                per_game += 0.2 if prm is not None and prm[s, P_FUTURE] > 0 else 0.009
            else:
                per_game += 0.0015
        compiled = compiled_engine_ready() or _twin_spent[0] + n_games * per_game > TWIN_BUDGET
        if not compiled:
            _twin_spent[0] += n_games * per_game
    else:
        compiled = engine == "numba"
    return engine_functions(compiled)


def _won(mask: int) -> str:
    return ",".join(str(t) for t in range(3, 13) if mask >> t & 1)


def _frame(seat_out, game_out, players, automa, names, tile_out) -> pd.DataFrame:
    from .kernel import GAME_COLUMNS, SEAT_COLUMNS

    n = players + (1 if automa else 0)
    data = {"game": np.arange(len(game_out)), "players": players, "automa": automa}
    for j, c in enumerate(GAME_COLUMNS):
        data[c] = game_out[:, j]
    for s in range(n):
        for j, c in enumerate(SEAT_COLUMNS):
            if c == "won_mask":
                data[f"won_{s}"] = [_won(int(x)) for x in seat_out[:, s, j]]
                data[f"n_won_{s}"] = [bin(int(x)).count("1") for x in seat_out[:, s, j]]
            elif c != "queen_tile":
                data[f"{c}_{s}"] = seat_out[:, s, j]
        data[f"policy_{s}"] = names[s]
    for j in range(10):
        data[f"present_t{j + 3}"] = tile_out[:, j, 0]
        data[f"paid_t{j + 3}"] = tile_out[:, j, 1]
    scores = seat_out[:, :n, 0]
    first = game_out[:, 2]
    top = scores == scores.max(axis=1, keepdims=True)
    rows = np.arange(len(game_out))
    data["start_player_won"] = np.where(game_out[:, 0] >= 0, (game_out[:, 0] == first).astype(float),
                                        top[rows, first] / top.sum(axis=1))
    df = pd.DataFrame(data)
    df.insert(3, "setup", setup_label(players, automa))
    df.insert(list(df.columns).index("first_seat") + 1, "start_player_won", df.pop("start_player_won"))
    df["capped"] = df["capped"].astype(bool)
    df["conserved"] = df["conserved"].astype(bool)
    df["tape_wrapped"] = df["tape_wrapped"].astype(bool)
    return df


class GameRecord(NamedTuple):
    """One game played by :func:`play_game`: its transcript (``""`` without ``trace``) and its summary row (the
    game's row of :func:`simulate_games`).  A record like the other games' ``play_game`` results, and still a
    pair: ``text, row = play_game(...)`` unpacks it."""

    transcript: str
    summary: pd.Series

    @property
    def text(self) -> str:
        """The transcript (as Rocking Raft's record names it)."""
        return self.transcript

    def __str__(self) -> str:
        return self.transcript


def play_game(players: int = 3, automa: bool | None = None, policies=None, rng=None, *, trace: bool = True,
              components=None, engine: str = "auto", reverse_reading: str = "literal",
              jackal_reading: str = "literal") -> GameRecord:
    """Play one game; a :class:`GameRecord` ``(transcript, summary)``: the transcript text (with ``trace=True``)
    and the game's result row.

    The transcript lists the layout, every roll, reroll, placement, activation, token draw, hazard and the
    end scoring, in order.  The game is exactly the first game :func:`simulate_games` plays with the same
    arguments and seed (``automa=None``: the rules' setup, so 2 players play with the automa).

    Parameters
    ----------
    players : int
        Human seats, 2..4 (1..3 with the automa); default 3, the game's registered ``default_players``.
    automa : bool or None
        Add the automa as the last seat; ``None``: the rules' setup (see :func:`simulate_games`).
    policies : str, dict or list, optional
        One policy for every player or one per player, as for :func:`simulate_games`.
    rng : seed or Generator, optional
        Same seed -> the same game (the first game of :func:`simulate_games` with that seed).
    trace : bool
        Also record the transcript (``False``: the record's ``transcript`` is empty).
    components : path or Components, optional
        A designer's components file or loaded components, as for :func:`simulate_games`.
    engine : {"auto", "numba", "python"}
        The compiled kernel or its pure-Python twin (identical results).
    reverse_reading, jackal_reading : str
        Readings of two ambiguous rules (see :data:`READINGS`).

    Returns
    -------
    GameRecord
        ``transcript`` (str; empty with ``trace=False``) and ``summary``: the game's row of :func:`simulate_games`
        (``winner``, ``turns``, ``score_0`` ...).  It unpacks as ``(transcript, summary)``.

    Raises
    ------
    ValueError
        If ``players``, ``policies``, ``engine`` or a reading is not allowed, or the components are invalid.
    TypeError
        If ``automa`` is not a bool or None, or ``trace`` is not a bool.

    Examples
    --------
    >>> text, row = play_game(players=2, rng=3)
    >>> text.splitlines()[0]
    'Meerkat Kingdom: 2p + automa; seats p1 = greedy, p2 = greedy, automa = automa'
    """
    from .kernel import GAME_COLUMNS, SEAT_COLUMNS

    if not isinstance(trace, (bool, np.bool_)):
        raise TypeError(f"trace must be True or False, got {trace!r}")
    st = _components_setup(components)
    n, pols, prm, names = _seat_config(players, automa, policies)
    automa = n > players
    K = _readings_k(st.K, reverse_reading, jackal_reading)
    run_games = _engine(engine, 1, pols, n, prm)[0]
    gen = as_generator(rng)
    tapes = _tapes(gen, 1)
    seat_out = np.zeros((1, 4, len(SEAT_COLUMNS)), np.int64)
    game_out = np.zeros((1, len(GAME_COLUMNS)), np.int64)
    tile_out = np.zeros((1, 10, 2), np.int64)
    run_games(tapes, n, automa, pols, prm, st.V, K, st.bags, st.nblue, st.nbrown,
              st.comp.male_start_tile, st.pos_adj, st.oasis, st.comp.shuffle_tiles, seat_out, game_out, tile_out,
              search_arg(pols))
    row = _frame(seat_out, game_out, players, automa, names, tile_out).iloc[0]
    if not trace:
        return GameRecord("", row)
    from .rules import TOTAL

    _, new_game, setup, play, winner_of = engine_functions(False)  # traces are recorded by the pure-Python twin
    g = new_game(n, automa, pols, prm, st.V, K, tapes[0], st.bags, st.nblue, st.nbrown,
                 st.comp.male_start_tile, 2500)
    setup(g, st.pos_adj, st.oasis, st.comp.shuffle_tiles)
    play(g)
    if winner_of(g) != row["winner"] or g[0][4:8, TOTAL][:n].tolist() != [row[f"score_{s}"] for s in range(n)]:
        raise RuntimeError("traced replay diverged from the simulated game")  # pragma: no cover
    from .transcript import format_log

    labels = seat_names(players, automa)
    readings = "".join(f"; {k} {v}" for k, v in (("reverse_reading", reverse_reading),
                                                    ("jackal_reading", jackal_reading)) if v != "literal")
    head = (f"Meerkat Kingdom: {setup_label(players, automa)}{readings}; seats "
            + ", ".join(f"{lab} = {nm}" for lab, nm in zip(labels, names)))
    from .rules import G_LOG, LOG0

    events = g[0][LOG0:].reshape(-1, 8)[:g[0][21, G_LOG]]
    return GameRecord(head + "\n" + format_log(events, labels), row)


POLICY_NAMES = POLICIES

#: Automa "players" for the strength ladder: ``automa`` rolls the automa die of the components; ``automa:L``,
#: ``automa:M`` and ``automa:H`` always read that face (the lowest, middle or highest die as the count die).
AUTOMA_LEVELS = ("automa", "automa:L", "automa:M", "automa:H")


def outcomes(df: pd.DataFrame) -> pd.DataFrame:
    """The game's result as the common long frame of :mod:`pyradice_lab.engine.outcomes`, one row per (game, seat).

    Human seats take turns from ``first_seat`` (the roll-off winner); the automa, when present, is the last
    seat and plays last (position ``players``), with policy ``"automa"``.  Seats rank by points, then by who
    ran out of meerkats first (the rules' tie-break); seats equal on both share the rank (and the win).

    Examples
    --------
    >>> out = outcomes(simulate_games(3, players=1, automa=True, policies=["greedy"], rng=1))
    >>> out[out.game == 0][["seat", "policy"]].values.tolist()
    [[0, 'greedy'], [1, 'automa']]
    """
    from ..engine.outcomes import outcome_frame

    players, automa = (pd.unique(df[c]) for c in ("players", "automa"))
    if len(players) != 1 or len(automa) != 1:
        raise ValueError("df must hold games of one player count, all with or all without the automa")
    players, automa = int(players[0]), bool(automa[0])
    n = players + automa
    seats = np.arange(n)
    scores = df[[f"score_{s}" for s in seats]].to_numpy()
    out = df[[f"out_order_{s}" for s in seats]].to_numpy()
    ran_out = np.where(out > 0, 999 - out, 0)  # winner_of's tie-break: the first seat to run out
    pos = np.empty((len(df), n), dtype=np.int64)
    pos[:, :players] = (seats[None, :players] - df["first_seat"].to_numpy()[:, None]) % players
    if automa:
        pos[:, players] = players
    pols = df[[f"policy_{s}" for s in seats]].to_numpy(dtype=object)
    return outcome_frame(df["game"].to_numpy(), pols, pos, scores, keys=[scores, ran_out])


def _automa_level(spec) -> str | None:
    """The automa die face forced by an automa spec ("" for the components' die), None if not the automa."""
    if not isinstance(spec, str) or spec.partition(":")[0] != "automa":
        return None
    if spec not in AUTOMA_LEVELS:
        raise ValueError(f"policies: the automa is one of {list(AUTOMA_LEVELS)}, got {spec!r}")
    return spec.partition(":")[2]


def lineup_outcomes(policies, n_games: int, *, rng=None, progress: bool = False, components=None,
                    **kwargs) -> pd.DataFrame:
    """Play ``n_games`` games with ``policies[s]`` in seat ``s``; the :func:`outcomes` frame, policies named
    as given.  One entry may be an automa (:data:`AUTOMA_LEVELS`): it takes the last seat, as the rules
    require (it always plays last), the others keep their order.  ``automa=True`` (a keyword, e.g. a ladder's
    ``game_kwargs={"automa": True}``) adds the automa to a lineup of human players only: two policies then play
    the rules' 2-player game (2 players + the automa, seat 3 named ``"automa"``); without it a lineup of humans
    plays alone (2 players: the extension the rules do not describe).  Other ``kwargs`` go to
    :func:`simulate_games`.  Used by :mod:`pyradice_lab.design.strength`."""
    from ..engine.outcomes import relabel_policies
    from .components import coerce_components

    pols = list(policies)
    levels = [_automa_level(p) for p in pols]
    autos = [i for i, lv in enumerate(levels) if lv is not None]
    if len(autos) > 1:
        raise ValueError(f"policies: at most one automa per game, got {[pols[i] for i in autos]}")
    add = kwargs.pop("automa", None)
    if add is not None and not isinstance(add, bool):
        raise ValueError(f"automa must be True, False or None, got {add!r}")
    if add is False and autos:
        raise ValueError(f"automa: False, but the lineup seats an automa ({pols[autos[0]]})")
    humans = [p for i, p in enumerate(pols) if i not in autos]
    labels = [p if isinstance(p, str) else "heuristic*" for p in humans] + [pols[i] for i in autos]
    if add and not autos:
        labels.append("automa")
    if autos and levels[autos[0]]:
        comp = coerce_components(components)
        components = comp.replace({"automa.die_faces": [levels[autos[0]]] * 6})
    df = simulate_games(n_games, players=len(humans), automa=bool(autos) or bool(add), policies=humans, rng=rng,
                        progress=progress, components=components, **kwargs)
    return relabel_policies(outcomes(df), labels)


def lineup_ok(policies) -> bool:
    """Whether the lineup can be played: at most one automa (it has one colour and the last seat)."""
    return sum(_automa_level(p) is not None for p in policies) <= 1


# ----------------------------------------------------- compiled kernel or its pure-Python twin
@cache
def python_twins() -> dict:
    """name -> pure-Python twin of every numba function of the game engine modules."""
    from numba.core.registry import CPUDispatcher

    from . import _rules_chance, automa, evaluation, kernel, oasis, policies, rules, search, turns

    modules = (_rules_chance, rules, oasis, automa, evaluation, policies, turns, search, kernel)
    spaces = {m.__name__: dict(vars(m)) for m in modules}
    for space in spaces.values():
        space["TRACE"] = True  # the twins record trace events (compiled code prunes them)
    twins: dict[int, types.FunctionType] = {}
    by_name: dict[str, types.FunctionType] = {}
    for m in modules:
        for name, obj in vars(m).items():
            if isinstance(obj, CPUDispatcher) and obj.py_func.__module__ == m.__name__:
                f = obj.py_func
                twin = types.FunctionType(f.__code__, spaces[m.__name__], f.__name__, f.__defaults__, f.__closure__)
                twins[id(obj)] = twin
                by_name[name] = twin
    for space in spaces.values():
        for name, obj in list(space.items()):
            if id(obj) in twins:
                space[name] = twins[id(obj)]
    return by_name


def engine_functions(compiled: bool):
    """``(run_games, new_game, setup, play, winner_of)``: compiled dispatchers or pure-Python twins.

    Both play the same games from the same tapes (tested), so choosing one never changes a number: the twin
    (each compiled function's ``py_func`` with its module globals re-pointed at the other twins) is used for
    small workloads where compiling would cost more than it saves, and it is the in-process form of the
    ``NUMBA_DISABLE_JIT=1`` reference path.
    """
    names = ("run_games", "new_game", "setup", "play", "winner_of")
    if compiled:
        from . import kernel

        return tuple(getattr(kernel, n) for n in names)
    twins = python_twins()
    return tuple(twins[n] for n in names)


def fresh_state(players: int = 3, automa: bool | None = None, dice=(), policies="greedy", log_rows: int = 0, *,
                reverse_reading: str = "literal", jackal_reading: str = "literal"):
    """A hand-built pure-Python game state for tests and what-ifs: tile t on layout position t - 3 (no
    shuffle), no tokens, full supplies.  ``dice`` are the first values of the dice tape (then 6s); the
    choice tape counts 0, 1, 2, ...  Views: ``W = g[0]``, ``C = W[0:4]``, ``S = W[4:8]``, ``T = W[8:21]``,
    ``G = W[21]`` (see :mod:`.rules`).

    Examples
    --------
    >>> g = fresh_state(2, automa=True)
    >>> int(g[0][4 + 0, 0])   # seat 0's supply
    20
    """
    st = _default_setup()
    n, pols, prm, _ = _seat_config(players, automa, policies)
    K = _readings_k(st.K, reverse_reading, jackal_reading)
    tapes = np.full((2, TAPE), 6, dtype=np.uint32)
    tapes[0, :len(dice)] = dice
    tapes[1, :] = np.arange(TAPE, dtype=np.uint32)
    g = python_twins()["new_game"](n, n > players, pols, prm, st.V, K, tapes, st.bags, st.nblue, st.nbrown,
                                   st.comp.male_start_tile, log_rows)
    W = g[0]
    A, D = W[38:51], W[51:64]
    for t in range(3, 13):
        for u in range(3, 13):
            A[t, u] = st.pos_adj[t - 3, u - 3]
            D[t, u] = 0 if t == u else (1 if A[t, u] else 99)
    for k in range(3, 13):
        for i in range(3, 13):
            for j in range(3, 13):
                D[i, j] = min(D[i, j], D[i, k] + D[k, j])
    python_twins()["store_model"](g)
    return g
