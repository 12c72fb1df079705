"""Registered games and the conformance check every game passes.

A game package registers itself at import time with :func:`register` (at the bottom of its
``__init__.py``), giving a :class:`GameSpec`: its CLI subcommand, report section, benchmark cases,
named sweep functions, a small seeded run, its exact probability tables and a list of bad calls.
:func:`games` imports the built-in game packages on first use, so ``import pyradice_lab`` stays light.

:func:`check_game` is the conformance check run over every registered game in the test suite (its code lives in the
private module ``_conformance``, re-exported here):

- the same seed gives identical results (the small seeded run twice, compared cell by cell);
- every exact probability table sums to 1 (exactly for Fractions, to 1e-12 for floats) with no
  negative entry;
- every bad call raises ``ValueError`` whose message names the offending parameter;
- a game that declares an advisor (``position``, ``load_position``, ``position_from_game``) round-trips a
  position taken from a seeded game: its ``document()`` read back from a mapping, a TOML file (``to_toml()``) and
  a JSON file gives the same document (a game without one is skipped, saying so);
- with ``golden_dir``, one seeded game's transcript (:func:`golden_transcript`: the game's ``rules.transcript(seed)``
  where it declares one, else its small seeded run's outcomes, one line per game) equals
  ``<golden_dir>/<game>.txt``, a file reviewed by eye once;
- every registered policy plays (two games against the strongest registered policy, through
  ``lineup_outcomes``), every registered restriction parses and plays (the strongest policy restricted
  against itself), and the results are well-formed outcomes frames (:mod:`pyradice_lab.engine.outcomes`); a
  policy registered as ``unrestrictable`` rejects restrictions with ValueError.

Strength fields: ``policies`` (registered player names, weakest first), ``restrictions`` (name -> one line;
a restricted player is spelled ``"<policy>/<restriction>"`` and parsed by the game's own policy parser),
``outcomes`` (the game's frame -> the common long frame) and ``lineup_outcomes`` (play one lineup of
policies, seat by seat; the outcomes frame) feed :mod:`pyradice_lab.design.strength`.

Examples
--------
>>> from pyradice_lab.engine import registry
>>> isinstance(registry.games(), dict)
True
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover - numpy and pandas load when a check runs, not at registration
    import pandas as pd

__all__ = ["GameSpec", "SweepTarget", "CONTRACT_MODULES", "CONTRACT_PARTS", "register", "register_game", "games", "get_game", "check_game", "ConformanceError",
           "BUILTIN_GAMES", "lazy", "strongest_policy", "restricted_player", "golden_transcript"]

#: Built-in game packages, in report order; a package that is not installed yet is skipped.
BUILTIN_GAMES = ("purramid", "pyradice", "raft", "meerkat")


class lazy:  # noqa: N801 - used like a function: lazy("pkg.module:function")
    """A callable standing for ``module:function``, imported on first call.

    Game packages register their CLI, report section, bench cases and sweep functions this way, so
    ``import pyradice_lab.<game>`` does not import matplotlib, numba kernels or the CLI.  Pickles as its
    target string (sweep workers import the function themselves).

    >>> f = lazy("math:hypot")
    >>> f(3, 4), f.target
    (5.0, 'math:hypot')
    """

    def __init__(self, target: str):
        module, sep, name = target.partition(":")
        if not sep or not module or not name:
            raise ValueError(f"target must look like 'package.module:function', got {target!r}")
        self.target = target
        self._fn = None
        # the target's identity (sweep cache keys and progress bars use these)
        self.__module__ = module
        self.__qualname__ = name
        self.__name__ = name.rpartition(".")[2]

    def resolve(self) -> Callable:
        if self._fn is None:
            module, _, name = self.target.partition(":")
            obj = importlib.import_module(module)
            for part in name.split("."):
                obj = getattr(obj, part)
            self._fn = obj
        return self._fn

    def __call__(self, *args, **kwargs):
        return self.resolve()(*args, **kwargs)

    def __reduce__(self):
        return (lazy, (self.target,))

    def __repr__(self) -> str:
        return f"lazy({self.target!r})"


@dataclass(frozen=True)
class SweepTarget:
    """A function that ``pyradice-lab sweep`` and :func:`pyradice_lab.engine.sweep.run_sweep` can run per grid cell.

    ``fn(params, trials, rng) -> dict[str, float | Estimate]``; ``params`` documents the accepted
    parameters (name -> one-line description) and ``defaults`` gives a default grid for the CLI.
    """

    fn: Callable[..., Mapping[str, Any]]
    description: str
    params: Mapping[str, str] = field(default_factory=dict)
    defaults: Mapping[str, Sequence] = field(default_factory=dict)


#: role -> module name in the game's package (the shared shape, docs/architecture.md)
CONTRACT_MODULES = {
    "components": "components",  # FORMAT, default_components, coerce_components, sample_plausible, replace
    "sim": "sim",                # simulate_games, outcomes, lineup_outcomes
    "metrics": "metrics",        # METRICS: the designer metrics
    "checks": "checks",          # CHECKS: the robustness checks of the game's findings
    "levers": "levers",          # LEVERS: the balance levers
    "plan": "plan",              # PLAN: the report plan (strength part, first wave); BENCH: the bench rows
    "strength": "strength",      # REPORT_PLAYERS: the report player per player count and its ladder
    "advisor": "advisor",        # Position, load_position, position_from_game, advise
    "desk": "desk",              # DESK: the web desk
    "analysis": "analysis",      # experiments -> data + findings
    "pages": "pages",            # the report section (draws, never computes)
    "policies": "policies",      # named players
    "cli": "cli",                # the game's own subcommands
    "bench": "bench",            # bench cases
    "rules": "rules",            # the readable engine; transcript: the golden game
}
#: part -> (module role, attribute) for :meth:`GameSpec.part`
CONTRACT_PARTS = {
    "metrics": ("metrics", "METRICS"),
    "controls": ("metrics", "CONTROLS"),
    "checks": ("checks", "CHECKS"),
    "levers": ("levers", "LEVERS"),
    "plan": ("plan", "PLAN"),
    "bench_plan": ("plan", "BENCH"),
    "questions": ("plan", "QUESTIONS"),
    "report_players": ("strength", "REPORT_PLAYERS"),
    "desk": ("desk", "DESK"),
    "position": ("advisor", "Position"),
    "load_position": ("advisor", "load_position"),
    "position_from_game": ("advisor", "position_from_game"),
    "advise": ("advisor", "advise"),
    "format": ("components", "FORMAT"),
    "transcript": ("rules", "transcript"),
}
_MISSING = object()


@dataclass(frozen=True)
class GameSpec:
    """What a game package tells the rest of pyradice_lab about itself.

    Attributes
    ----------
    name : str
        Short name, also the CLI subcommand (``pyradice-lab <name> ...``).
    title : str
        Human title ("Purramid").
    summary : str
        One line for ``pyradice-lab games`` and the report overview.
    smoke_run : callable ``(seed: int) -> pandas.DataFrame``
        A small seeded run (a few games) used by the conformance check; must take < 2 s.
    exact_tables : callable ``() -> dict[str, array | Series | DataFrame | list]``
        Probability distributions computed exactly; each must sum to 1 (a DataFrame column-wise
        if ``axis`` metadata is not given: give 1-D distributions).
    bad_calls : callable ``() -> list[tuple[str, callable]]``
        ``(parameter_name, zero-argument callable)`` pairs; each call must raise ValueError (or TypeError, for
        an argument of the wrong type) whose message contains ``parameter_name``.
    add_cli : callable ``(sub) -> None`` or None
        Adds the game's own subcommands to ``sub``, the ``pyradice-lab <name>`` subcommand set that the top
        CLI made (with the shared ``components``, ``compare``, ``ladder``, ``robustness`` ... subcommands and
        the help text ``DESCRIPTION`` of the game's ``cli`` module).
    report_section : callable ``(ReportContext) -> Section`` or None
    report_parts : tuple of str
        Groups of the section's experiments that the full report builds as separate tasks (a long section split
        over the workers): ``report_section(ctx, part=p)`` builds group ``p`` and ``report_join(ctx, parts)``
        joins the built groups into the section.  Empty: the section is one task.
    report_join : callable ``(ReportContext, sections) -> Section`` or None
        The package's ``pages:join_parts`` when it has ``report_parts``.
    bench_cases : callable ``(quick: bool) -> list[BenchCase]`` or None
    sweeps : dict of name -> SweepTarget
    policies : tuple of str
        Registered player names in strength order, weakest first (the default ladder).
    restrictions : dict of name -> one-line description
        Options a player can be forbidden (restricted play): ``"<policy>/<name>"`` is that player.  A name
        ``"name:<X>"`` is a restriction with an argument, played as ``name:VALUE`` (Meerkat Kingdom's
        ``no_tile:<T>``: ``"mcts_v2/no_tile:7"``; the game's policy parser checks the value); restricted play's
        "all" (:attr:`plain_restrictions`) leaves them out.
    outcomes : callable ``(DataFrame) -> DataFrame`` or None
        The game's ``simulate_games`` frame as the common outcomes frame (:mod:`pyradice_lab.engine.outcomes`).
    lineup_outcomes : callable ``(policies, n_games, *, rng, progress, **kwargs) -> DataFrame`` or None
        Play ``n_games`` games with ``policies[s]`` in seat ``s``; the outcomes frame with the policies named
        as given.
    lineup_ok : callable ``(policies) -> bool`` or None
        Whether a lineup can be played at all (e.g. Meerkat Kingdom seats at most one automa); None: any.
    unrestrictable : tuple of str
        Registered policies that take no restriction (e.g. Purramid's exact ``optimal``).
    report_player : str
        The strongest player affordable at report scale at the game's ``default_players``: every finding a
        designer may act on (a component or the start player) is measured with it.  Empty: the last (strongest)
        registered policy.  At another player count the game's ``strength.REPORT_PLAYERS`` may name another
        (:meth:`report_player_at`, :mod:`pyradice_lab.engine.reportplayers`).
    heuristic_player : str
        The fast heuristic shown beside the report player as a sensitivity column.  Empty: the first
        registered policy.
    package : str
        The game's package (``"pyradice_lab.purramid"``): :meth:`module` and :meth:`part` find the contract's
        parts there by name (:data:`CONTRACT_MODULES`, :data:`CONTRACT_PARTS`).
    default_players : int
        The player count every entry point of the game defaults to (the rules' most common count); 0: not stated.
    """

    name: str
    title: str
    summary: str
    smoke_run: Callable[[int], pd.DataFrame]
    exact_tables: Callable[[], Mapping[str, Any]]
    bad_calls: Callable[[], Sequence[tuple[str, Callable[[], Any]]]]
    add_cli: Callable[[Any], None] | None = None
    # registry sits below report and bench in the import order: their types are named in the docstring only
    report_section: Callable[[Any], Any] | None = None
    report_parts: tuple[str, ...] = ()
    report_join: Callable[..., Any] | None = None
    bench_cases: Callable[[bool], list] | None = None
    sweeps: Mapping[str, SweepTarget] = field(default_factory=dict)
    policies: tuple[str, ...] = ()
    restrictions: Mapping[str, str] = field(default_factory=dict)
    outcomes: Callable[[Any], Any] | None = None
    lineup_outcomes: Callable[..., Any] | None = None
    lineup_ok: Callable[[Sequence[str]], bool] | None = None
    unrestrictable: tuple[str, ...] = ()
    report_player: str = ""
    heuristic_player: str = ""
    package: str = ""
    default_players: int = 0

    def __post_init__(self):
        for attr in ("report_player", "heuristic_player"):
            value = getattr(self, attr)
            if value and self.policies and value not in self.policies:
                raise ValueError(f"{attr} must be one of the registered policies {list(self.policies)}, got {value!r}")
        if not self.report_player and self.policies:
            object.__setattr__(self, "report_player", self.policies[-1])
        if not self.heuristic_player and self.policies:
            object.__setattr__(self, "heuristic_player", self.policies[0])
        if not isinstance(self.default_players, int) or self.default_players < 0:
            raise ValueError(f"default_players must be a positive int (0: not stated), got {self.default_players!r}")

    # -- the report player per player count (the game's strength.REPORT_PLAYERS) ----------------------------------
    def report_players(self) -> dict:
        """player count -> :class:`~pyradice_lab.engine.reportplayers.ReportPlayer`, as the game declares them in
        ``strength.py`` (empty: the game declares none; every count then plays :attr:`report_player`)."""
        from .reportplayers import coerce_report_players

        return coerce_report_players(self.part("report_players", {}))

    def report_player_entry(self, players: int | None = None):
        """The :class:`~pyradice_lab.engine.reportplayers.ReportPlayer` the game declares for ``players`` (None:
        ``default_players``), or None when it declares none for that count."""
        if players is not None and (isinstance(players, bool) or not isinstance(players, int) or players < 1):
            raise ValueError(f"players must be a positive int or None, got {players!r}")
        return self.report_players().get(self.default_players if players is None else players)

    @property
    def plain_restrictions(self) -> list[str]:
        """The registered restrictions without an argument (restricted play's "all")."""
        return [r for r in self.restrictions if ":<" not in r]

    def restriction_description(self, name: str) -> str | None:
        """The description of restriction ``name``: a registered one, or ``name:VALUE`` of a registered
        ``name:<X>`` (with the value); None when the game registers neither."""
        if name in self.restrictions and ":<" not in name:
            return self.restrictions[name]
        head, sep, value = str(name).partition(":")
        for r, d in self.restrictions.items():
            if sep and value and r.startswith(head + ":<") and r.endswith(">"):
                return f"{d} ({r[len(head) + 2:-1]} = {value})"
        return None

    def report_player_at(self, players: int | None = None) -> str:
        """The report player at ``players`` (None: ``default_players``): the game's ``strength.REPORT_PLAYERS``
        entry for that count, else :attr:`report_player` (the default count's player, as before per-count
        players)."""
        entry = self.report_player_entry(players)
        return entry.name if entry is not None else self.report_player

    # -- the contract's parts, each declared in the game's own package and found by name ------------------------
    def module(self, role: str):
        """The game package's module for ``role`` (one of :data:`CONTRACT_MODULES`), imported on first use.

        This is the one place above a game where a game module is imported by name: design/, report/, web/, the
        CLI and bench reach a game's components, simulator, metrics, levers, checks, report plan, advisor and desk
        through it (or through the properties below).  ValueError when the game has no such module.
        """
        if role not in CONTRACT_MODULES:
            raise ValueError(f"role must be one of {sorted(CONTRACT_MODULES)}, got {role!r}")
        if not self.package:
            raise ValueError(f"{self.name}: registered without a package, so it has no {role!r} module")
        modname = f"{self.package}.{role}"
        try:
            return importlib.import_module(modname)
        except ModuleNotFoundError as exc:
            if exc.name != modname:
                raise
            raise ValueError(f"{self.name} declares no {role!r} part (no module {modname})") from None

    def part(self, role: str, default: Any = _MISSING):
        """The attribute that declares the contract part ``role`` (:data:`CONTRACT_PARTS`), e.g. ``part("levers")``
        is the package's ``levers.LEVERS``.  ``default`` is returned when the game does not declare it; without a
        default that is a ValueError naming the part."""
        if role not in CONTRACT_PARTS:
            raise ValueError(f"role must be one of {sorted(CONTRACT_PARTS)}, got {role!r}")
        module, attr = CONTRACT_PARTS[role]
        try:
            mod = self.module(module)
        except ValueError:
            if default is not _MISSING:
                return default
            raise
        if not hasattr(mod, attr):
            if default is not _MISSING:
                return default
            raise ValueError(f"{self.name} declares no {role!r} part ({self.package}.{module} has no {attr})")
        return getattr(mod, attr)

    def has_part(self, role: str) -> bool:
        """Whether the game declares the contract part ``role``."""
        return self.part(role, None) is not None

    @property
    def components(self):
        """The components module (``FORMAT``, ``default_components``, ``coerce_components``, ``sample_plausible``)."""
        return self.module("components")

    @property
    def simulate_games(self) -> Callable[..., Any]:
        """The game's ``simulate_games``."""
        return self.module("sim").simulate_games


_REGISTRY: dict[str, GameSpec] = {}
_LOADED = False


def register(spec: GameSpec) -> GameSpec:
    """Register (or re-register, e.g. on module reload) a game."""
    if not isinstance(spec, GameSpec):
        raise TypeError(f"spec must be a GameSpec, got {type(spec).__name__}")
    _REGISTRY[spec.name] = spec
    return spec


def register_game(package: str, *, name: str, title: str, summary: str, smoke_run, exact_tables, bad_calls,
                  sweeps: Mapping[str, SweepTarget] = (), policies: Sequence[str] = (),
                  restrictions: Mapping[str, str] = (), lineup_ok: str | None = None,
                  unrestrictable: Sequence[str] = (), report_player: str = "",
                  heuristic_player: str = "", report_parts: Sequence[str] = (),
                  default_players: int = 0) -> GameSpec:
    """Register a game package that has the shared shape (docs/architecture.md).

    The CLI, report section and bench cases are the package's ``cli:add_cli``, ``pages:report_section`` and
    ``bench:bench_cases``; a sweep target whose ``fn`` is a string names a function of the package's ``sweeps``
    module; ``outcomes`` and ``lineup_outcomes`` are the package's ``sim:outcomes`` and
    ``sim:lineup_outcomes``, and ``lineup_ok``, if given, names a function of its ``sim`` module; with
    ``report_parts``, the report builds the section in those parts and joins them with ``pages:join_parts``.
    All of them load on first use.
    """
    policies = tuple(policies)
    if not all(isinstance(p, str) and p and "/" not in p for p in policies) or len(set(policies)) != len(policies):
        raise ValueError(f"policies must be distinct non-empty names without '/', got {policies!r}")
    restrictions = dict(restrictions)
    for r, d in restrictions.items():
        if not isinstance(r, str) or not r or "/" in r or not isinstance(d, str) or not d:
            raise ValueError(f"restrictions must map names without '/' to one-line descriptions, got {r!r}: {d!r}")
    targets = {k: t if callable(t.fn) else SweepTarget(lazy(f"{package}.sweeps:{t.fn}"), t.description, t.params,
                                                       t.defaults)
               for k, t in dict(sweeps).items()}
    return register(GameSpec(
        name=name, title=title, summary=summary, smoke_run=smoke_run, exact_tables=exact_tables,
        bad_calls=bad_calls, add_cli=lazy(f"{package}.cli:add_cli"),
        report_section=lazy(f"{package}.pages:report_section"), report_parts=tuple(report_parts),
        report_join=lazy(f"{package}.pages:join_parts") if report_parts else None, bench_cases=lazy(f"{package}.bench:bench_cases"),
        sweeps=targets, policies=policies, restrictions=restrictions, outcomes=lazy(f"{package}.sim:outcomes"),
        lineup_outcomes=lazy(f"{package}.sim:lineup_outcomes"),
        lineup_ok=None if lineup_ok is None else lazy(f"{package}.sim:{lineup_ok}"),
        unrestrictable=tuple(unrestrictable), report_player=report_player, heuristic_player=heuristic_player,
        package=package, default_players=int(default_players)))


def _load_builtin() -> None:
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    for name in BUILTIN_GAMES:
        modname = f"pyradice_lab.{name}"
        try:
            importlib.import_module(modname)
        except ModuleNotFoundError as exc:  # the game package has not landed yet
            if exc.name != modname:
                raise


def games() -> dict[str, GameSpec]:
    """All registered games, built-in ones first in :data:`BUILTIN_GAMES` order."""
    _load_builtin()
    order = {n: i for i, n in enumerate(BUILTIN_GAMES)}
    return dict(sorted(_REGISTRY.items(), key=lambda kv: (order.get(kv[0], len(order)), kv[0])))


def get_game(name: str) -> GameSpec:
    """The registered game called ``name`` (ValueError listing the known names otherwise)."""
    known = games()
    if name not in known:
        raise ValueError(f"game must be one of {sorted(known)}, got {name!r}")
    return known[name]


# the conformance check (check_game & co.) lives in _conformance; imported last, it needs the names above
from ._conformance import (  # noqa: E402
    GOLDEN_GAMES as GOLDEN_GAMES,
    SKIPPED as SKIPPED,
    ConformanceError,
    _first_difference as _first_difference,
    _golden_check as _golden_check,
    _number as _number,
    _player_checks as _player_checks,
    _position_checks as _position_checks,
    _table_total as _table_total,
    check_game,
    golden_transcript,
    restricted_player,
    strongest_policy,
)
