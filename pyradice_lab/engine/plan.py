"""What a game declares about the runs made of it: its report plan and its bench plan (the contract part ``plan``).

A game's ``plan.py`` declares two values, read through the registry (``spec.part("plan")`` and
``spec.part("bench_plan")``), so that report/, the CLI and bench.py plan the game's runs without naming it:

- ``PLAN``, a :class:`ReportPlan`: the players of the report's "Strength and restricted play" part (the ladder's
  policies, the seats, the restricted player, an expensive player's second ladder, the scale of the full
  report's games, the setup sentence), the players the CLI's ``<game> ladder`` plays by default, and which task
  of the report's worker pool compiles the game's kernels (the first wave, longest first);
- ``BENCH``, a :class:`BenchPlan`: the arguments of the rows every game gets in ``pyradice-lab bench`` (first
  ``simulate_games`` call with an empty numba cache, peak memory of many games and its bounds) and, for the
  game that hosts them, the calls that measure the execution layer's parallel efficiency.

A game without ``plan.py`` gets ``ReportPlan()`` (its registered policies, 2 players, nothing compiled in the
first wave) and no uniform bench rows.  This module imports nothing: a game's ``plan.py`` stays cheap to import.

>>> plan = ReportPlan(policies=("greedy", "risk:0.5"), setup="2 players")
>>> plan.players, plan.full_scale, plan.compiles
(2, 1.0, '')
>>> ReportPlan(players=1)
Traceback (most recent call last):
...
ValueError: players must be an int >= 2, got 1
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

__all__ = ["ReportPlan", "StrengthPlan", "BenchPlan", "Question", "COMPILE_TASKS", "CLI_LADDERS"]

#: the report tasks a game's kernels can be compiled by: its section, its strength part, or none stated
COMPILE_TASKS = ("", "section", "strength")
#: what ``<game> ladder`` plays without ``--policies``: every registered policy, or the report's two players
CLI_LADDERS = ("registered", "report")


@dataclass(frozen=True)
class ReportPlan:
    """What the report (and the CLI's strength subcommands) play for one game.

    Attributes
    ----------
    policies : tuple of str or None
        The strength ladder's players, weakest first; None: the game's registered policies.
    players : int
        Seats of every strength game (ladder and restricted play).
    restricted_policy : str or None
        The player of restricted play; None: :func:`pyradice_lab.engine.registry.restricted_player` (the report
        player when it takes restrictions).
    optimal : tuple of str
        ``()`` or ``(opponent, expensive player)``: a second, smaller ladder of an expensive player (Purramid's exact
        ``optimal``) against one opponent only, fitted with the main ladder in one model; its games per lineup are
        the ``optimal`` size of :data:`pyradice_lab.design.strength_report.SIZES`.
    full_scale : float
        Multiplies the full report's games per lineup and per restriction (fast engines play more, slow ones
        fewer); the quick report ignores it.
    setup : str
        The setup the strength games are played in, as the reading states it ("2 players, side A").
    cli_ladder : str
        ``"registered"``: ``<game> ladder`` plays every registered policy by default; ``"report"``: it plays the
        registry's ``heuristic_player`` and ``report_player`` (a game with many slow players).
    compiles : str
        The report task that compiles the game's kernels, in the worker pool's first wave: ``"section"`` (the
        game's section, or its first part), ``"strength"`` (its strength part) or ``""`` (none: every task of
        the game is in the second wave and waits for nothing).  The game's other tasks wait for it.
    compile_cpu : float
        CPU seconds of that task with an empty numba cache (measured; docs/guide/engine.md): the first wave
        runs longest first.
    """

    policies: tuple[str, ...] | None = None
    players: int = 2
    restricted_policy: str | None = None
    optimal: tuple[str, ...] = ()
    full_scale: float = 1.0
    setup: str = ""
    cli_ladder: str = "registered"
    compiles: str = ""
    compile_cpu: float = 0.0

    def __post_init__(self):
        if self.policies is not None:
            if isinstance(self.policies, str) or not all(isinstance(p, str) and p for p in self.policies):
                raise ValueError(f"policies must be a tuple of policy names or None, got {self.policies!r}")
            object.__setattr__(self, "policies", tuple(self.policies))
        if isinstance(self.players, bool) or not isinstance(self.players, int) or self.players < 2:
            raise ValueError(f"players must be an int >= 2, got {self.players!r}")
        if self.restricted_policy is not None and (not isinstance(self.restricted_policy, str)
                                                   or not self.restricted_policy):
            raise ValueError(f"restricted_policy must be a policy name or None, got {self.restricted_policy!r}")
        if isinstance(self.optimal, str) or len(tuple(self.optimal)) not in (0, 2):
            raise ValueError(f"optimal must be () or (opponent, player), got {self.optimal!r}")
        object.__setattr__(self, "optimal", tuple(self.optimal))
        if not isinstance(self.full_scale, (int, float)) or isinstance(self.full_scale, bool) or not self.full_scale > 0:
            raise ValueError(f"full_scale must be a positive number, got {self.full_scale!r}")
        if not isinstance(self.setup, str):
            raise ValueError(f"setup must be a string, got {self.setup!r}")
        if self.cli_ladder not in CLI_LADDERS:
            raise ValueError(f"cli_ladder must be one of {CLI_LADDERS}, got {self.cli_ladder!r}")
        if self.compiles not in COMPILE_TASKS:
            raise ValueError(f"compiles must be one of {COMPILE_TASKS}, got {self.compiles!r}")
        if not isinstance(self.compile_cpu, (int, float)) or isinstance(self.compile_cpu, bool) or self.compile_cpu < 0:
            raise ValueError(f"compile_cpu must be a non-negative number of seconds, got {self.compile_cpu!r}")


#: The name of :class:`ReportPlan` before issue 42 (``report.strength.StrengthPlan``), kept for old imports.
StrengthPlan = ReportPlan


@dataclass(frozen=True)
class BenchPlan:
    """The arguments of the bench rows every game gets (``pyradice-lab bench``, :mod:`pyradice_lab.bench`).

    Attributes
    ----------
    cold : mapping or None
        Keyword arguments (besides ``n_games=100, rng=0``) of the full bench's row "first ``simulate_games(100
        games)``, empty numba cache"; None: the game's own bench cases have that row.
    first_call : mapping
        The same call's keyword arguments in the first-use rows (``pyradice-lab bench --first-use``, every game
        measured one way: cold and with a filled numba cache).
    memory : mapping or None
        Keyword arguments of the peak-memory rows (many games with the cheapest policy: the memory is the
        result's, not the policy's); None: no memory rows.
    memory_bound_mb : mapping of int to float
        The peak-memory target (MB) by number of games (10**4 for ``--quick``, 10**5, 10**6 with ``--long``).
    first_use_extra : tuple of (label, kwargs)
        Informational first calls of ``simulate_games`` (no target) in the first-use rows, each in a fresh process
        with an empty numba cache: paths a user meets soon after the first simulation.
    execution : mapping of str to (kwargs, blocks)
        The game's calls of the execution layer's parallel-efficiency rows, by entry point (``"robustness"``,
        ``"ladder"``): keyword arguments besides ``game`` and the number of blocks the call runs.  The bench
        takes each entry from the first registered game that declares it.
    multifidelity : mapping or None
        Keyword arguments of :func:`pyradice_lab.design.multifidelity.multifidelity` (``metric``,
        ``strong_games``, ...) for the row "variance-reduction factor of the multi-fidelity estimate at equal
        CPU"; None: no such row.
    controls : mapping or None
        Keyword arguments of :func:`pyradice_lab.design.controlvariates.exogenous_estimate` (``metric``,
        ``games``, ...) for the row "variance-reduction factor of the exogenous control variates at equal CPU"
        (the game declares ``metrics.CONTROLS``); None: no such row.
    ahead_of_time : bool
        Whether ``pyradice-lab compile`` builds what the game's first ``simulate_games`` and first ``advise`` call
        from Python through :func:`pyradice_lab.engine.aot.entry` ahead of time (:mod:`pyradice_lab.engine.aot`).
    ahead_of_time_extra : tuple of str
        Zero-argument functions of the game's package (``"module.function"``, relative to the package) that
        ``pyradice-lab compile`` also runs while it records: compiled paths the first calls do not reach but a long
        run soon does (Purramid: ``"memopool.exercise"``, the memo's prune and openings file).
    cost : mapping of str to float
        CPU seconds of one game with every seat playing that policy, at the game's default player count (compiled
        engine, warm, measured): the cost table every long entry point estimates its cost from before it starts
        (:mod:`pyradice_lab.engine.notices`).  Other player counts scale it by the seats, unless the table holds
        ``"<policy>@<players>"``: that count's own measured cost (a player whose cost is not linear in the seats).
    """

    cold: Mapping | None = None
    first_call: Mapping = field(default_factory=dict)
    memory: Mapping | None = None
    memory_bound_mb: Mapping[int, float] = field(default_factory=dict)
    first_use_extra: tuple[tuple[str, Mapping], ...] = ()
    execution: Mapping[str, tuple[Mapping, int]] = field(default_factory=dict)
    multifidelity: Mapping | None = None
    controls: Mapping | None = None
    cost: Mapping[str, float] = field(default_factory=dict)
    ahead_of_time: bool = False
    ahead_of_time_extra: tuple[str, ...] = ()

    def __post_init__(self):
        if not isinstance(self.ahead_of_time, bool):
            raise ValueError(f"ahead_of_time must be True or False, got {self.ahead_of_time!r}")
        extra = self.ahead_of_time_extra
        if isinstance(extra, str) or not all(isinstance(x, str) and "." in x.strip(".") for x in extra):
            raise ValueError("ahead_of_time_extra must be a tuple of 'module.function' names, got "
                             f"{extra!r}")
        for name in ("cold", "memory", "multifidelity", "controls"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, Mapping):
                raise ValueError(f"{name} must be a mapping of keyword arguments or None, got {value!r}")
        if not isinstance(self.first_call, Mapping):
            raise ValueError(f"first_call must be a mapping of keyword arguments, got {self.first_call!r}")
        if self.memory is not None and not self.memory_bound_mb:
            raise ValueError("memory_bound_mb must give the peak-memory bounds of the memory rows")
        object.__setattr__(self, "first_use_extra", tuple((str(k), dict(kw)) for k, kw in self.first_use_extra))
        for entry, call in dict(self.execution).items():
            if not (isinstance(call, tuple) and len(call) == 2 and isinstance(call[0], Mapping)
                    and isinstance(call[1], int)):
                raise ValueError(f"execution[{entry!r}] must be (kwargs, blocks), got {call!r}")
        for policy, seconds in dict(self.cost).items():
            name, at, count = policy.partition("@") if isinstance(policy, str) else ("", "", "")
            if not (isinstance(policy, str) and name and (not at or (count.isdigit() and int(count) >= 1))
                    and isinstance(seconds, (int, float)) and not isinstance(seconds, bool) and seconds > 0):
                raise ValueError(f"cost must map policy names to positive CPU seconds per game, got "
                                 f"{policy!r}: {seconds!r}")


@dataclass(frozen=True)
class Question:
    """A designer question a game answers in one CLI call, ``pyradice-lab <game> <name> --policies P``: one of the
    game's experiment functions, run under a chosen player, its table ranked by an estimate with its 95% CI.
    A game declares them in ``plan.py`` as ``QUESTIONS`` (name -> Question; the contract part ``questions``).

    Attributes
    ----------
    help : str
        One line for ``--help``.
    target : str
        ``"module:function"`` in the game's package, called ``fn(games, players, policies, rng=, components=)``.
    value : str
        The estimate column the table is ranked by (its ``_ci_low`` / ``_ci_high`` columns give the CI).
    label : tuple of str
        The columns that name a row (``("goal", "goal_name")``).
    first, last : str
        What the lowest and the highest row are ("hardest goal", "easiest goal").
    unit : str
        ``"%"`` (a probability shown in percent) or the value's unit.
    many : bool
        Whether ``policies`` is a sequence of players (each a row block) rather than one player for every seat.
    where : str
        A boolean column: only its true rows are ranked (the others are listed after them).
    games : int
        The default number of games.
    runs : int
        How many runs of ``games`` games the function plays (its cost, said before the work, is ``runs x games``
        games of the player).

    >>> q = Question("hardest goal", "analysis:goal_rates", "p_met", ("goal",), "hardest goal", "easiest goal")
    >>> q.target
    'analysis:goal_rates'
    """

    help: str
    target: str
    value: str
    label: tuple[str, ...]
    first: str
    last: str
    unit: str = ""
    many: bool = False
    where: str = ""
    games: int = 500
    runs: int = 1

    def __post_init__(self):
        module, sep, fn = self.target.partition(":")
        if not sep or not module or not fn:
            raise ValueError(f"target must be 'module:function' in the game's package, got {self.target!r}")
        if isinstance(self.label, str) or not self.label:
            raise ValueError(f"label must be a tuple of column names, got {self.label!r}")
        object.__setattr__(self, "label", tuple(self.label))
        for name in ("games", "runs"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive int, got {value!r}")
