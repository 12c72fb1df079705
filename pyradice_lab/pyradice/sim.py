"""Whole games, many at once: deals drawn per game, played by the compiled kernels, one tidy row per game.

:func:`simulate_games` spawns one child seed per game (``SeedSequence.spawn``), draws each game's deal with
:func:`.rules.deal` and plays the batch with :func:`.kernel.play_batch` (numba).  Game ``i`` depends only on the
root seed and ``i``: :func:`play_game` with ``rng=spawn(seed, n)[i]`` replays it move by move in the readable
engine, with a transcript.  Components whose kinds the kernels do not know (a designer's own functions) or
policies given as Python callables run in the readable engine (``engine="python"``, slower, same results).

Examples
--------
>>> df = simulate_games(3, players=2, rng=1)
>>> len(df), int(df["turns"].iloc[0])
(3, 42)
>>> rec = play_game(rng=spawn(1, 3)[0])
>>> rec.totals == [int(df.loc[0, f"score_s{s}"]) for s in range(2)]
True
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..engine.limits import check_result_size
from ..engine.rng import as_generator, seed_sequence, spawn, spawn_blocks  # noqa: F401 - spawn: docstring example
from .components import GOAL_LEVELS, Setup, coerce_components
from .geometry import PYRAMID, check_players, quarry_geometry
from .policies import POLICY_CODES, Restriction, get_policy, parse_policy
from .quarry import colour_letters
from .rules import Deal, GameState, deal, first_player, turns_of, winners
from .scoring import Table, lookahead_bonus

__all__ = ["simulate_games", "play_game", "GameRecord", "kernel_tables", "play_deals", "resolve_policies",
           "check_setup", "fast_capable", "warmup", "policy_function", "outcomes", "lineup_outcomes", "restricted_tab", "row_bytes"]

_CHUNK = 128


def row_bytes(players: int, return_arrays: bool = False) -> int:
    """Peak memory per game of :func:`simulate_games`: the DataFrame row (~300 + 80 bytes per seat) plus twice
    the int64 arrays kept (the chunks and their concatenation): 11 per seat + one per turn + 1 for the table,
    53 per seat + 4 per turn + 1 with ``return_arrays``.  (1.46 kB measured for 2 players, 10**6 games.)
    The limit on ``n_games`` follows from it (:mod:`pyradice_lab.engine.limits`)."""
    t = turns_of(players)
    kept = 53 * players + 4 * t + 1 if return_arrays else 11 * players + t + 1
    return 300 + 80 * players + 2 * 8 * kept


def check_setup(setup, components=None) -> Setup:
    """``setup`` (default: the components' default setup) on the catalogue of ``components`` (a path or loaded
    components; default: the setup's own catalogue, else the packaged one)."""
    comp = None if components is None else coerce_components(components)
    if setup is None:
        return Setup.default(comp)
    if not isinstance(setup, Setup):
        raise TypeError(f"setup must be a pyradice.Setup or None, got {type(setup).__name__}")
    if comp is not None and setup.catalogue != comp:
        return Setup(setup.skills, setup.goals, setup.cards, setup.discs, comp)
    return setup


def resolve_policies(policies, players: int, setup: Setup | None = None) -> list:
    """Policy names (or callables) per seat; one name applies to every seat (default ``"greedy"``).  With a
    ``setup``, a restriction naming a skill token the setup does not use is rejected here, before any game."""
    if policies is None:
        policies = "greedy"
    if isinstance(policies, str) or callable(policies):
        policies = [policies] * players
    if not isinstance(policies, Sequence) or len(policies) != players:
        raise ValueError(f"policies must be a policy name or a list of {players} names (one per seat), "
                         f"got {policies!r}")
    for p in policies:
        _check_policy_name(p)
        if setup is not None and isinstance(p, str) and _search_spec(p) is None:
            parse_policy(p)[1].skill_levels(setup)
    return list(policies)


def _search_spec(name):
    from .search import FlatMC

    return FlatMC.parse(name)


def _check_policy_name(name) -> None:
    from .search import FlatMC

    if FlatMC.parse(name) is None:        # parse raises ValueError for a malformed search player name
        get_policy(name)


def policy_function(name, setup: Setup):
    """The readable engine's policy for ``name`` under ``setup``: :func:`.policies.get_policy`, or for the search
    player (``"flat_mc[:N[:rollout]]"``) :func:`.search.flat_mc` bound to the setup's kernel tables."""

    from .search import FlatMC, flat_mc

    spec = FlatMC.parse(name)
    if spec is None:
        return get_policy(name)
    tabs = kernel_tables(setup)
    qgeo = {p: quarry_table(p) for p in (2, 3, 4)}

    def policy(state, u):
        return flat_mc(state, u, spec, tab=tabs["tab"], n_colours=tabs["n_colours"], qgeo=qgeo[state.players])

    policy.__name__ = spec.name
    return policy


def fast_capable(setup: Setup, policies: Sequence) -> bool:
    """Whether the compiled kernels know every kind of ``setup`` and every policy."""
    from .cards import get_card_kind
    from .goals import get_goal_kind
    from .kernel import CARD_FORMS, GOAL_FORMS, SKILL_FORMS
    from .skills import get_skill_kind

    comps = setup.catalogue
    known = [get_skill_kind(comps.skills[c].kind).kid in SKILL_FORMS for c in setup.skills if c is not None]
    known += [get_goal_kind(comps.goals[c].kind).kid in GOAL_FORMS for c in setup.goals]
    known += [get_card_kind(comps.cards[c].kind).kid in CARD_FORMS for c in setup.cards]
    return all(known) and all(isinstance(p, str) for p in policies)


def kernel_tables(setup: Setup) -> dict[str, np.ndarray | int]:
    """The setup as the kernels' packed table ``tab`` (skills, goals, lookahead bonus, cards) and ``n_colours``."""
    from .cards import get_card_kind
    from .goals import get_goal_kind
    from .kernel import pack_setup
    from .skills import get_skill_kind

    comps = setup.catalogue
    table = Table.build(setup, (0, 0, 0, 0))
    n_colours = len(comps.palette.names)
    tab = pack_setup({lvl: (get_skill_kind(tok.kind).kid, tok.params) for lvl, tok in table.skills.items()},
                     {lvl: (get_goal_kind(tok.kind).kid, tok.params, lookahead_bonus(tok.fit))
                      for lvl, tok in table.goals.items()},
                     [(get_card_kind(c.kind).kid, c.params) for c in table.cards], n_colours)
    return {"tab": tab, "n_colours": n_colours}


def restricted_tab(tab: np.ndarray, restriction: Restriction, setup: Setup) -> np.ndarray:
    """The kernels' ``tab`` as a restricted player sees it: forbidden skill levels have no skill (family -1),
    ignored goals no goal (pair set -1: no VP, no lookahead bonus), ignored cards score nothing (a weight sum
    with zero weights).  The rules (final scores, skill effects) keep using ``tab``."""
    from .kernel import R_CARD, R_GPAIR, R_SKF

    out = tab.copy()
    for lvl in restriction.skill_levels(setup):
        out[R_SKF, lvl] = -1
    if restriction.no_goals:
        out[R_GPAIR, :] = -1
    if restriction.no_cards:
        out[R_CARD:R_CARD + 4, :] = 0
        out[R_CARD:R_CARD + 4, 0] = 1      # statistic: sum of (zero) weights
        out[R_CARD:R_CARD + 4, 1] = 1      # table length 1
    return out


def quarry_table(players: int) -> np.ndarray:
    """The quarry geometry packed for the kernels: (n, 12) side neighbours, dice above, dice below."""
    geom = quarry_geometry(players)
    return np.ascontiguousarray(np.concatenate([geom.sides, geom.covers, geom.supports], axis=1), dtype=np.int64)


def play_deals(deals: Sequence[Deal], setup: Setup, policies: Sequence[str]) -> dict[str, np.ndarray]:
    """Play dealt games with the compiled kernels; raw result arrays (batch axis first)."""
    from ..engine import aot
    from .kernel import GEO, compile_options, play_batch, workspace
    from .search import is_search_policy, play_search_deals

    players = deals[0].players
    b = len(deals)
    t = turns_of(players)
    out = dict(totals=np.zeros((b, players), np.int64), met=np.zeros((b, players, 5), np.int64),
               cards=np.zeros((b, players, 4), np.int64),
               first=np.array([first_player(d.rolls) for d in deals], dtype=np.int64),
               choices=np.zeros((b, t), np.int64), moves=np.full((b, t, 3), -1, np.int64),
               final_v=np.zeros((b, players, 21), np.int64), final_c=np.full((b, players, 21), -1, np.int64),
               skills_used=np.zeros((b, players), np.int64))
    tabs = kernel_tables(setup)
    # a search seat chooses its own moves (forced in the kernel); its rollouts play the compiled greedy
    parsed = [("greedy", Restriction()) if is_search_policy(p) else parse_policy(p) for p in policies]
    pol = np.array([POLICY_CODES[base] for base, _ in parsed], dtype=np.int64)
    ptab = np.stack([restricted_tab(tabs["tab"], r, setup) for _, r in parsed])
    if any(is_search_policy(p) for p in policies):
        return play_search_deals(deals, setup, policies, tab=tabs["tab"], n_colours=tabs["n_colours"], ptab=ptab,
                                 codes=pol, qgeo=quarry_table(players))
    values = np.stack([d.values for d in deals])
    with compile_options():
        aot.entry(play_batch)(values, np.stack([d.colours for d in deals]), np.stack([d.discs for d in deals]), out["first"],
                   np.zeros(b, np.int64), t, np.ones(values.shape, np.int64), np.stack([d.uniforms for d in deals]),
                   pol, ptab, quarry_table(players), tabs["tab"], tabs["n_colours"],
                   GEO, out["final_v"], out["final_c"], out["totals"], out["met"], out["cards"], out["choices"],
                   out["moves"], out["skills_used"], *workspace(values.shape[1], tabs["n_colours"]))
    return out


def _play_python(d: Deal, setup: Setup, policies: Sequence) -> GameState:
    g = GameState.start(d, setup)
    fns = [policy_function(p, setup) for p in policies]
    while not g.done:
        take, place, option = fns[g.seat](g, d.uniforms[g.turn])
        g.play(take, place, option)
    return g


def _python_arrays(states: Sequence[GameState]) -> dict[str, np.ndarray]:
    out: dict[str, list] = {k: [] for k in ("totals", "met", "cards", "first", "choices", "moves", "final_v",
                                            "final_c", "skills_used")}
    for g in states:
        sc = g.scores()
        out["totals"].append([s.total for s in sc])
        out["met"].append([[int(m) for m in s.goals_met] for s in sc])
        out["cards"].append([list(s.cards) for s in sc])
        out["first"].append(g.first)
        out["choices"].append([m.n_available for m in g.moves])
        out["moves"].append([[m.take, m.place, m.option] for m in g.moves])
        out["final_v"].append([list(v) for v, _ in g.pyramids])
        out["final_c"].append([list(c) for _, c in g.pyramids])
        out["skills_used"].append([sum(m.option >= 0 for m in g.moves if m.seat == s) for s in range(g.players)])
    return {k: np.array(v, dtype=np.int64) for k, v in out.items()}


_FRAME_ARRAYS = ("totals", "met", "cards", "first", "choices", "skills_used")


def _frame(arrays: dict, discs: np.ndarray, setup: Setup, policies: Sequence, per_turn: bool) -> pd.DataFrame:
    b, players = arrays["totals"].shape
    names = setup.catalogue.palette.names
    cols: dict[str, object] = {"game": np.arange(b), "players": players, "turns": turns_of(players),
                               "first_player": arrays["first"]}
    n_goals = arrays["met"].sum(axis=2)
    win_seat, n_win, decided = [], [], []
    for i in range(b):
        w = winners(list(arrays["totals"][i]), list(n_goals[i]))
        top = arrays["totals"][i].max()
        n_top = int((arrays["totals"][i] == top).sum())
        win_seat.append(w[0] if len(w) == 1 else -1)
        n_win.append(len(w))
        decided.append("score" if n_top == 1 else ("goal tokens" if len(w) == 1 else "shared"))
    cols.update(winner=win_seat, n_winners=n_win, decided_by=decided)
    for j, card in enumerate(setup.cards):
        cols[f"card{j + 1}"] = card
        cols[f"card{j + 1}_colour"] = [names[c] for c in discs[:, j]]
    for s in range(players):
        pname = policies[s] if isinstance(policies[s], str) else getattr(policies[s], "__name__", "custom")
        cols[f"policy_s{s}"] = pname
        cols[f"score_s{s}"] = arrays["totals"][:, s]
        cols[f"goal_vp_s{s}"] = 5 * n_goals[:, s]
        cols[f"goals_s{s}"] = n_goals[:, s]
        for k, lvl in enumerate(GOAL_LEVELS):
            cols[f"goal_L{lvl}_s{s}"] = arrays["met"][:, s, k].astype(bool)
        for j in range(4):
            cols[f"card{j + 1}_s{s}"] = arrays["cards"][:, s, j]
        cols[f"skills_used_s{s}"] = arrays["skills_used"][:, s]
    ch = arrays["choices"]
    cols.update(choices_mean=ch.mean(axis=1), choices_min=ch.min(axis=1), choices_max=ch.max(axis=1))
    if per_turn:
        for t in range(ch.shape[1]):
            cols[f"choices_t{t + 1:02d}"] = ch[:, t]
    return pd.DataFrame(cols)


def _check_n(n_games) -> int:
    if isinstance(n_games, bool) or not isinstance(n_games, numbers.Integral) or n_games < 1:
        raise ValueError(f"n_games must be a positive integer, got {n_games!r}")
    return int(n_games)


def simulate_games(n_games: int, players: int = 2, setup: Setup | None = None, policies=None, rng=None, *,
                   engine: str = "auto", per_turn: bool = False, progress: bool = False,
                   return_arrays: bool = False, components=None, n_jobs: int = 1, backend: str = "loky",
                   scheduler=None, cache_dir=None):
    """Play ``n_games`` full games and return one row per game.

    Parameters
    ----------
    n_games : int
        Number of games (>= 1).
    players : int
        2 (2-player quarry) or 3-4 (3/4-player quarry).
    setup : Setup, optional
        Tokens and cards (default :meth:`Setup.default`); discs are drawn per game unless fixed in the setup.
    policies : str or list of str/callable, optional
        ``"random_legal"``, ``"greedy"`` (default) or ``"lookahead"``, one for all seats or one per seat.
    rng : seed, SeedSequence or Generator
        Root seed; game ``i`` uses the ``i``-th spawned child, so results do not depend on batching.
    engine : {"auto", "fast", "python"}
        ``"fast"``: compiled kernels; ``"python"``: the readable engine; ``"auto"``: fast when possible.
    per_turn : bool
        Add ``choices_tNN`` columns (available dice at each turn).
    progress : bool
        Progress on stderr (a bar on a terminal, else a line every few seconds).
    return_arrays : bool
        Also return the raw arrays (moves, final pyramids, ...) as a second value.
    components : path or Components, optional
        A designer's components file (partial files merge over the packaged ones) or loaded components: the
        catalogue the setup's codes refer to (default: the setup's own, else the packaged one; without a
        ``setup``, the components' default setup).
    n_jobs, backend, scheduler : optional
        Blocks of games on ``n_jobs`` workers of ``backend`` (``"loky"``, ``"dask"`` with a ``scheduler``
        address, ``"threading"``; :mod:`pyradice_lab.engine.execution`); results do not depend on them.
    cache_dir : path, optional
        Store every finished block of games there; a killed call started again plays only the missing ones.

    Returns
    -------
    pandas.DataFrame
        One row per game: ``first_player``, ``winner`` (-1 when shared), ``n_winners``, ``decided_by``,
        the cards and their disc colours, and per seat ``s``: ``policy_s``, ``score_s``, ``goal_vp_s``,
        ``goals_s``, ``goal_L1_s`` .. ``goal_L5_s`` (met?), ``card1_s`` .. ``card4_s`` (points),
        ``skills_used_s``; plus ``choices_mean/min/max`` (available dice per turn).  With
        ``return_arrays=True``, ``(df, arrays)``.

    Raises
    ------
    ValueError
        If ``n_games`` is not a positive integer, ``players`` is not 2..4, a policy is unknown or the number of
        policies is not 1 or ``players``, ``engine`` is not ``"auto"``, ``"fast"`` or ``"python"``
        (``"fast"`` needs built-in component kinds and named policies), or the components are invalid.
    TypeError
        If ``players`` is not an integer or ``setup`` is not a Setup.

    Examples
    --------
    >>> df = simulate_games(4, players=3, policies=["greedy", "lookahead", "random_legal"], rng=2)
    >>> df.shape[0], sorted(set(df["turns"]))
    (4, [63])
    """
    n_games = _check_n(n_games)
    from ..engine.sweep import check_progress

    check_progress(progress)
    players = check_players(players)
    check_result_size(n_games, row_bytes(players, return_arrays), name="n_games")
    setup = check_setup(setup, components)
    pols = resolve_policies(policies, players, setup)
    if not isinstance(engine, str) or engine not in ("auto", "fast", "python"):
        raise ValueError(f"engine must be 'auto', 'fast' or 'python', got {engine!r}")
    fast = fast_capable(setup, pols)
    if engine == "fast" and not fast:
        raise ValueError("engine='fast' needs built-in component kinds and named policies")
    use_fast = fast and engine != "python"
    from ..engine.execution import Progress, check_execution

    execution = check_execution(n_jobs, backend, scheduler, progress=progress, cache_dir=cache_dir)
    from ..engine.notices import announce_games

    announce_games("pyradice", n_games, policies, players, workers=execution.n_jobs if execution.parallel else 1)
    if execution.parallel or execution.cache_dir is not None:
        from ..engine.execution import simulate_blocks

        return _told(simulate_blocks(simulate_games, n_games, rng, {
            "players": players, "setup": setup, "policies": policies, "engine": engine, "per_turn": per_turn,
            "return_arrays": return_arrays}, execution, chunk=_CHUNK, desc="pyradice games",
            join=_join_arrays if return_arrays else _join_frames), components, setup, rng, n_games)
    parts: list[dict] = []
    # tqdm is imported only for a bar on a terminal (~35 ms of a first call otherwise)
    bar = Progress(-(-n_games // _CHUNK), desc="pyradice games", enabled=progress) if progress else None
    # seeds spawned per chunk (the same children as one spawn(n_games)); of each chunk only the arrays the
    # result needs are kept (not its deals), so memory grows by the result's size only
    for seeds in spawn_blocks(rng, n_games, _CHUNK):
        deals = [deal(players, setup, rng=np.random.default_rng(s)) for s in seeds]
        if use_fast:
            part = play_deals(deals, setup, pols)
        else:
            part = _python_arrays([_play_python(d, setup, pols) for d in deals])
        if not return_arrays:
            part = {k: v for k, v in part.items() if k in _FRAME_ARRAYS}
        part["discs"] = np.stack([d.discs for d in deals])
        parts.append(part)
        if bar is not None:
            bar.update(1, len(deals))
    if bar is not None:
        bar.close()
    arrays = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    df = _frame(arrays, arrays.pop("discs"), setup, pols, per_turn)
    return _told((df, arrays) if return_arrays else df, components, setup, rng, n_games)


def _told(result, components, setup, rng, n_games):
    """``result`` with its frame's ``attrs["assumptions"]`` (components: as given, else the setup's catalogue)."""
    from ..engine.assumptions import frame_assumptions

    return frame_assumptions(result, "pyradice", outcomes, components=components if components is not None
                             else setup.catalogue, loaded=setup.catalogue, rng=rng, games=n_games)


def _join_frames(parts, starts):
    from ..engine.execution import join_frames

    return join_frames(parts, starts)


def _join_arrays(parts, starts):
    from ..engine.execution import join_frames

    arrays = {k: np.concatenate([p[1][k] for p in parts]) for k in parts[0][1]}
    return join_frames([p[0] for p in parts], starts), arrays


def warmup() -> float:
    """Compile the game kernels now (or load them from numba's cache); returns the CPU seconds it took.

    The first :func:`simulate_games` of a machine compiles the kernels (a few seconds, see the bench row
    "pyradice first simulate_games(100)"); numba caches the result on disk (``__pycache__`` beside the sources,
    or ``NUMBA_CACHE_DIR``), so later processes start in a fraction of a second.  ``pyradice-lab pyradice
    warmup`` runs this once per machine, e.g. after installing.

    Returns
    -------
    float
        CPU seconds spent compiling (or loading the compiled kernels from the cache).

    Examples
    --------
    >>> warmup() >= 0
    True
    """
    import time

    t0 = time.process_time()
    simulate_games(2, 2, None, ["random_legal", "greedy"], rng=0, engine="fast")
    return time.process_time() - t0


def outcomes(df: pd.DataFrame) -> pd.DataFrame:
    """The game's result as the common long frame of :mod:`pyradice_lab.engine.outcomes`, one row per (game, seat).

    Turns rotate from ``first_player`` (the roll-off winner).  Seats rank by score, then by goal tokens met
    (the rules' tie-break); seats equal on both share the rank (and the win).

    Examples
    --------
    >>> out = outcomes(simulate_games(3, players=2, policies=["greedy", "random_legal"], rng=1))
    >>> out.groupby("game")["start"].sum().tolist(), out.groupby("game")["win"].sum().tolist()
    ([1, 1, 1], [1.0, 1.0, 1.0])
    """
    from ..engine.outcomes import outcome_frame

    players = pd.unique(df["players"])
    if len(players) != 1:
        raise ValueError(f"df must hold games of one player count, got {sorted(players)}")
    seats = np.arange(int(players[0]))
    scores = df[[f"score_s{s}" for s in seats]].to_numpy()
    goals = df[[f"goals_s{s}" for s in seats]].to_numpy()
    pols = df[[f"policy_s{s}" for s in seats]].to_numpy(dtype=object)
    pos = (seats[None, :] - df["first_player"].to_numpy()[:, None]) % len(seats)
    return outcome_frame(df["game"].to_numpy(), pols, pos, scores, keys=[scores, goals])


def lineup_outcomes(policies, n_games: int, *, rng=None, progress: bool = False, **kwargs) -> pd.DataFrame:
    """Play ``n_games`` games with ``policies[s]`` in seat ``s``; the :func:`outcomes` frame.  ``kwargs`` go to
    :func:`simulate_games` (e.g. ``setup=...``).  Used by :mod:`pyradice_lab.design.strength`."""
    pols = list(policies)
    return outcomes(simulate_games(n_games, len(pols), policies=pols, rng=rng, progress=progress, **kwargs))


@dataclass
class GameRecord:
    """One game played in the readable engine: scores, winners and (with ``trace``) a transcript."""

    players: int
    first_player: int
    totals: list[int]
    goals_met: list[tuple[bool, ...]]
    cards: list[tuple[int, ...]]
    winners: list[int]
    lines: list[str] = field(default_factory=list)
    state: GameState | None = field(default=None, repr=False)

    @property
    def transcript(self) -> str:
        return "\n".join(self.lines)

    def __str__(self) -> str:
        return self.transcript or repr(self)


def _pyramid_text(values, colours, names) -> list[str]:
    rows = []
    for k in range(6, 0, -1):
        cells = []
        for s in PYRAMID.spaces_of(k):
            cells.append(f"{values[s]}{names[colours[s]]}" if values[s] else "..")
        rows.append("    " + " " * (2 * (k - 1)) + "  ".join(cells))
    return rows


def play_game(players: int = 2, setup: Setup | None = None, policies=None, rng=None, *,
              trace: bool = True, components=None) -> GameRecord:
    """Play one game in the readable engine; with ``trace`` the record holds a readable transcript.

    The same ``rng`` as the ``i``-th child of :func:`simulate_games`' seed replays that game exactly.

    Parameters
    ----------
    players : int
        2..4.
    setup : Setup, optional
        Tokens and cards (default: the components' default setup).
    policies : str, callable or list, optional
        ``"random_legal"``, ``"greedy"`` (default), ``"lookahead"``, ``"flat_mc[:N[:rollout]]"`` or a policy
        function (:mod:`.policies`), one for all seats or one per seat.
    rng : seed, SeedSequence or Generator, optional
        The deal's randomness.
    trace : bool
        Record a readable transcript in ``lines``.
    components : path or Components, optional
        A designer's components file or loaded components, as for :func:`simulate_games`.

    Returns
    -------
    GameRecord
        ``players``, ``first_player``, ``totals``, ``goals_met``, ``cards``, ``winners`` (tied seats all
        win), ``lines`` (the transcript; ``.transcript`` joins them) and the final ``state``.

    Raises
    ------
    ValueError
        If ``players`` is not in 2..4, a policy name is unknown or the number of policies is not 1 or
        ``players``, or the components are invalid.
    TypeError
        If ``players`` is not an integer or ``setup`` is not a Setup.

    Examples
    --------
    >>> rec = play_game(rng=5)
    >>> print(rec.lines[0])
    Pyradice, 2 players; first player: seat 1 (roll-off)
    >>> len(rec.totals), rec.winners in ([0], [1], [0, 1])
    (2, True)
    """
    players = check_players(players)
    setup = check_setup(setup, components)
    pols = resolve_policies(policies, players, setup)
    gen = as_generator(rng)
    d = deal(players, setup, rng=gen)
    g = GameState.start(d, setup)
    names = colour_letters(g.table.colour_names)
    lines: list[str] = []
    if trace:
        lines.append(f"Pyradice, {players} players; first player: seat {g.first + 1} (roll-off)")  # seats from 1
        lines.append(f"Setup: {setup.describe()}")
        lines.append("Cards: " + ", ".join(g.table.card_labels()) + "; colour letters: "
                     + ", ".join(f"{x}={n}" for x, n in zip(names, g.table.colour_names)))
        lines.append("Policies: " + ", ".join(f"seat {s + 1}: {p if isinstance(p, str) else 'custom'}"
                                              for s, p in enumerate(pols)))
        lines.append("Quarry at setup ([..] = available):")
        lines.extend("  " + row for row in g.quarry.render().splitlines())
    fns = [policy_function(p, setup) for p in pols]
    while not g.done:
        seat, turn = g.seat, g.turn
        take, place, option = fns[seat](g, d.uniforms[turn])
        mv = g.play(take, place, option)
        if trace:
            pos = g.geometry.position(take)
            txt = (f"t{turn + 1:02d} seat {seat + 1}: takes {mv.value}{names[mv.colour]} at {pos} "
                   f"({mv.n_available} available) -> {PYRAMID.label(place)}")
            if mv.action is not None:
                tok = g.table.skills[int(PYRAMID.level_of[place])]
                changes = ", ".join(f"{PYRAMID.label(s)}={v}{names[c]}" for s, v, c in mv.action)
                txt += f"; skill {tok.code} {tok.name}: {changes}"
            lines.append(txt)
    scores = g.scores()
    win = winners([s.total for s in scores], [s.n_goals for s in scores])
    if trace:
        labels = g.table.card_labels()
        for s, sc in enumerate(scores):
            lines.append(f"Seat {s + 1} pyramid:")
            lines.extend(_pyramid_text(*g.pyramids[s], names))
            goals = " ".join(f"L{lvl}:{'5' if m else '0'}" for lvl, m in zip(GOAL_LEVELS, sc.goals_met))
            cards = " ".join(f"{lab}:{p}" for lab, p in zip(labels, sc.cards))
            lines.append(f"  goals {goals} | cards {cards} | total {sc.total}")
        lines.append("Winner: " + (f"seat {win[0] + 1}" if len(win) == 1 else "shared by seats " +
                                   ", ".join(str(w + 1) for w in win)))
    return GameRecord(players, g.first, [s.total for s in scores], [s.goals_met for s in scores],
                      [s.cards for s in scores], win, lines, g)
