"""What the library says before it spends a user's time: the estimated cost of a long call, and the warning
category of a kernel compile.

**Cost before work.**  Every entry point that may run longer than a few seconds (``compare``, ``robustness``,
``balance``, the strength ladder and restricted play, sweeps, the report, and every game's ``simulate_games``
that the analysis functions call) estimates its cost from its size before it starts: games to play times the
measured CPU seconds of one game with the players used.  The per-game costs are the game's cost table,
``BenchPlan.cost`` of its ``plan.py`` (CPU seconds of one game with every seat playing that policy at the game's
default player count, measured with the compiled engine on a shared 2-core machine; see
docs/guide/engine.md).  A line-up mixing policies costs the mean of its seats' costs; other player counts scale
linearly with the seats.  The estimate is

- logged on the logger ``pyradice_lab.cost`` (:data:`COST_LOGGER`, a child of ``pyradice_lab``): at INFO for an
  entry point, and for a plain ``simulate_games`` when it is estimated at :data:`ANNOUNCE_SECONDS` CPU seconds or
  more (else at DEBUG; a player missing from the cost table, often a typo about to be refused, at DEBUG), e.g. ``meerkat compare: 4,000 games of mcts_v2, 3 players, estimated 1.7 CPU min (25 ms
  CPU a game, measured), about 50 s on 2 workers``;
- shown by the progress display (:class:`~pyradice_lab.engine.execution.Progress`) in place of an ETA until the
  measured rate is stable (at least 2 blocks and 5% of the blocks done);
- printed by the CLI as one ``pyradice-lab: ...`` line on stderr (the CLI shows this logger's INFO records).

A call inside an announced call (the games of one ``compare`` block) says nothing more (:func:`announcing`).
The estimate leaves out the first compile of a game's kernels (announced on its own, below) and the time of
anything but the games (fitting, writing).

**Compile warning.**  The first compile of a game's kernels in a process (numba's on-disk cache empty or stale)
is announced once per kernel group, before it starts, as a :class:`CompileWarning` (a ``UserWarning``: shown
once by Python's default filter; ``warnings.simplefilter("ignore", pyradice_lab.CompileWarning)`` silences it),
and on the logger ``pyradice_lab.compile`` (:mod:`pyradice_lab.engine._jit`).

This module imports nothing of numpy or numba, so the CLI can read it at start-up.

Examples
--------
>>> c = Cost("demo compare", 4000, 0.025, "greedy, 3 players", workers=2)
>>> c.sentence()
'demo compare: 4,000 games of greedy, 3 players, estimated 1.7 CPU min (25 ms CPU a game, measured), about 50 s on 2 workers'
>>> Cost("demo", 10, None, "mystery, 2 players", unknown=("mystery",)).sentence()
'demo: 10 games of mystery, 2 players; cost not measured for mystery'
"""

from __future__ import annotations

import contextlib
import logging
import math
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

__all__ = ["CompileWarning", "Cost", "COST_LOGGER", "ANNOUNCE_SECONDS", "game_cost", "announce", "announcing",
           "announce_games", "announce_sweep", "duration", "intro"]

#: the logger of the cost lines (a child of the library's logger ``pyradice_lab``)
COST_LOGGER = "pyradice_lab.cost"

#: a plain ``simulate_games`` estimated below this many CPU seconds is logged at DEBUG only (entry points always
#: at INFO)
ANNOUNCE_SECONDS = 5.0

_log = logging.getLogger(COST_LOGGER)


class CompileWarning(UserWarning):
    """A game's kernels are being compiled in this process (once; numba's on-disk cache keeps them for later
    processes).  Silence it with ``warnings.simplefilter("ignore", pyradice_lab.CompileWarning)``."""


def duration(seconds: float) -> str:
    """``seconds`` in the unit a person reads: ``"40 s"``, ``"3.5 min"``, ``"2.1 h"``.

    >>> duration(42.4), duration(210), duration(7560)
    ('42 s', '3.5 min', '2.1 h')
    """
    if not math.isfinite(seconds):
        return "?"
    if seconds < 90:
        return f"{max(seconds, 0):.0f} s" if seconds >= 10 else f"{max(seconds, 0):.2g} s"
    if seconds < 5400:
        return f"{seconds / 60:.2g} min"
    return f"{seconds / 3600:.2g} h"


def _per_game_text(s: float) -> str:
    if s >= 1:
        return f"{s:.2g} s"
    if s >= 1e-3:
        return f"{s * 1e3:.2g} ms"
    return f"{s * 1e6:.2g} µs"


@dataclass(frozen=True)
class Cost:
    """The estimated cost of a call: ``games`` games at ``per_game`` CPU seconds each (None: not measured for
    the policies ``unknown``), on ``workers`` workers; ``basis`` says whose games ("greedy, 3 players")."""

    what: str
    games: int
    per_game: float | None
    basis: str = ""
    workers: int = 1
    unknown: tuple[str, ...] = ()

    @property
    def cpu_seconds(self) -> float | None:
        """Estimated CPU seconds of the games (None when a policy's cost is not measured)."""
        return None if self.per_game is None else self.games * self.per_game

    @property
    def wall_seconds(self) -> float | None:
        """Estimated wall seconds on ``workers`` workers (perfect parallelism: a lower bound)."""
        cpu = self.cpu_seconds
        return None if cpu is None else cpu / max(1, self.workers)

    def sentence(self) -> str:
        """The line said before the work (see the module docstring)."""
        of = f" of {self.basis}" if self.basis else ""
        head = f"{self.what}: {self.games:,} games{of}"
        if self.per_game is None:
            return f"{head}; cost not measured for {', '.join(self.unknown) or 'these players'}"
        cpu = self.cpu_seconds
        text = f"{head}, estimated {duration(cpu).replace(' ', ' CPU ', 1)} ({_per_game_text(self.per_game)} CPU a " \
               f"game, measured)"
        if self.workers > 1:
            text += f", about {duration(self.wall_seconds)} on {self.workers} workers"
        return text


def _names(policies, players: int) -> list[str]:
    if isinstance(policies, str):
        return [policies] * players
    names = [str(getattr(p, "name", p)) for p in policies]
    return names or ["?"]


def game_cost(game: str, policies=None, players: int | None = None) -> tuple[float | None, str, tuple[str, ...]]:
    """``(CPU seconds per game, basis, unmeasured policies)`` of ``game`` with ``policies`` (a name, a list per
    seat, or the seats of several line-ups: the mean of their costs; None: the game's heuristic player) at
    ``players`` seats (None: the game's default), from the game's
    cost table (``BenchPlan.cost``).  A policy ``name:arg`` costs what ``name`` does when only that is measured;
    the table's ``name@players`` entry, when there is one, is that player count's own cost (else the default
    count's, scaled by the seats).

    >>> s, basis, unknown = game_cost("raft", "greedy", 3)
    >>> s > 0, basis, unknown
    (True, 'greedy, 3 players', ())
    """
    from . import registry

    spec = registry.get_game(game)
    plan = spec.part("bench_plan", None)
    table: Mapping[str, float] = getattr(plan, "cost", None) or {}
    default = int(spec.default_players or 2)
    n = default if players is None or isinstance(players, bool) or not isinstance(players, int) else int(players)
    if policies is None:
        policies = spec.heuristic_player or (spec.policies[0] if spec.policies else "?")
    names = _names(policies, max(n, 1))
    costs, unknown = [], []
    for name in names:
        plain = name.split("/", 1)[0]  # a restricted player ("greedy/no_reroll") costs what its player does
        own = next((table[k] for k in (f"{plain}@{n}", f"{plain.split(':', 1)[0]}@{n}") if k in table), None)
        c = table.get(plain, table.get(plain.split(":", 1)[0]))
        if own is not None:  # measured at this player count: not scaled
            costs.append(float(own) * default / n)
        elif c is None:
            unknown.append(name)
        else:
            costs.append(float(c))
    shown = ", ".join(dict.fromkeys(names))
    basis = f"{shown}, {n} players"
    if unknown:
        return None, basis, tuple(dict.fromkeys(unknown))
    return sum(costs) / len(costs) * n / default, basis, ()


def intro(text: str) -> str:
    """``text`` for the progress display's first line, or "" when the logger shows it already (the CLI, or a
    user who configured logging at INFO): the cost is said once."""
    return "" if not text or _log.isEnabledFor(logging.INFO) else text


# ------------------------------------------------------------------------------------------ saying it once
_depth = [0]
_lock = threading.Lock()


@contextlib.contextmanager
def announcing() -> Iterator[None]:
    """Inside this block (any thread of this process), :func:`announce_games` stays silent: an outer call has
    said the cost already."""
    with _lock:
        _depth[0] += 1
    try:
        yield
    finally:
        with _lock:
            _depth[0] -= 1


def _quiet() -> bool:
    return _depth[0] > 0


def announce(what: str, games: int, game: str | None = None, policies=None, players: int | None = None, *,
             workers: int = 1, level: int = logging.INFO) -> Cost:
    """Estimate the cost of ``games`` games of ``game`` (:func:`game_cost`), log its sentence on
    :data:`COST_LOGGER` at ``level`` and return it.  Never raises: an unknown game gives an unmeasured cost.

    >>> announce("raft compare", 1000, "raft", "greedy", 3).games
    1000
    """
    try:
        per_game, basis, unknown = game_cost(game, policies, players) if game else (None, "", ())
    except Exception:  # noqa: BLE001 - the estimate never stops the work
        per_game, basis, unknown = None, "", ()
    cost = Cost(what, int(games), per_game, basis, max(1, int(workers)), unknown)
    # an unmeasured player (often a typo the call is about to refuse) is said at DEBUG only: no line before the
    # error that names the bad player
    _log.log(level if per_game is not None else min(level, logging.DEBUG), cost.sentence())
    return cost


def announce_games(game: str, n_games: int, policies=None, players: int | None = None, *,
                   workers: int = 1) -> Cost | None:
    """What every game's ``simulate_games`` calls first: the cost of its ``n_games`` games, at INFO when
    estimated at :data:`ANNOUNCE_SECONDS` CPU seconds or more (else DEBUG); nothing inside an announced call."""
    if _quiet():
        return None
    try:
        per_game, _, _ = game_cost(game, policies, players)
    except Exception:  # noqa: BLE001
        per_game = None
    big = per_game is not None and per_game * n_games >= ANNOUNCE_SECONDS
    if not big and not _log.isEnabledFor(logging.DEBUG):
        return None
    return announce(f"{game} simulate_games", n_games, game, policies, players, workers=workers,
                    level=logging.INFO if big else logging.DEBUG)


def _games_of(fn) -> str | None:
    """The game whose ``"games"`` sweep target ``fn`` is (one trial = one game), or None."""
    from . import registry

    here = (getattr(fn, "__module__", None), getattr(fn, "__qualname__", None))
    for name, spec in registry.games().items():
        target = dict(spec.sweeps).get("games")
        if target is None:
            continue
        # a lazy target is compared by name first: resolving every game's would import every game (numba, scipy:
        # the bench's subset-sum sweep peaked at 245 MB instead of 122)
        if (getattr(target.fn, "__module__", None), getattr(target.fn, "__qualname__", None)) != here:
            continue
        resolved = target.fn.resolve() if hasattr(target.fn, "resolve") else target.fn
        if resolved is fn or target.fn is fn:
            return name
    return None


def announce_sweep(fn, cells: list[dict], trials: int, *, workers: int = 1) -> Cost | None:
    """The cost of a sweep of a game's ``"games"`` target (``trials`` games per cell, each cell's ``players`` and
    ``policy``), said before its first cell; None (and nothing said) for any other function.

    >>> from pyradice_lab.engine import registry
    >>> fn = registry.get_game("raft").sweeps["games"].fn.resolve()
    >>> announce_sweep(fn, [{"players": 2, "policy": "greedy"}, {"players": 3, "policy": "greedy"}], 100).games
    200
    """
    if not cells:
        return None
    try:
        game = _games_of(fn)
    except Exception:  # noqa: BLE001 - the estimate never stops the work
        game = None
    if game is None:
        return None
    total, unknown, basis = 0.0, [], []
    for cell in cells:
        players = cell.get("players")
        players = int(players) if isinstance(players, (int, float)) and not isinstance(players, bool) else None
        try:
            per_game, b, miss = game_cost(game, cell.get("policy"), players)
        except Exception:  # noqa: BLE001
            per_game, b, miss = None, "", ("?",)
        basis.append(b)
        unknown += miss
        total += (per_game or 0.0) * trials
    per = None if unknown else total / (trials * len(cells))
    cost = Cost(f"{game} sweep of {len(cells)} cells", trials * len(cells), per,
                "; ".join(dict.fromkeys(basis)), max(1, int(workers)), tuple(dict.fromkeys(unknown)))
    _log.log(logging.INFO if per is not None else logging.DEBUG, cost.sentence())
    return cost
