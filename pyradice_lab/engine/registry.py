"""Registered games and the conformance check every game passes.

A game package registers itself at import time with :func:`register` (at the bottom of its
``__init__.py``), giving a :class:`GameSpec`: its CLI subcommand, report section, benchmark cases,
named sweep functions, a small seeded run, its exact probability tables and a list of bad calls.
:func:`games` imports the built-in game packages on first use, so ``import pyradice_lab`` stays light.

:func:`check_game` is the conformance check run over every registered game in the test suite:

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
from fractions import Fraction
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
    "checks": ("checks", "CHECKS"),
    "levers": ("levers", "LEVERS"),
    "plan": ("plan", "PLAN"),
    "bench_plan": ("plan", "BENCH"),
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
        Options a player can be forbidden (restricted play): ``"<policy>/<name>"`` is that player.
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
        The strongest player affordable at report scale: every finding a designer may act on (a component or
        the start player) is measured with it.  Empty: the last (strongest) registered policy.
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


class ConformanceError(AssertionError):
    """Raised by :func:`check_game` when a game fails a conformance check."""


def _table_total(table) -> tuple[Any, bool]:
    """Sum of a probability table and whether all entries are non-negative."""
    import numpy as np
    import pandas as pd

    if isinstance(table, pd.DataFrame):
        values = table.to_numpy().ravel()
    elif isinstance(table, pd.Series):
        values = table.to_numpy()
    elif isinstance(table, Mapping):
        values = list(table.values())
    else:
        values = table
    values = list(values) if not isinstance(values, np.ndarray) else values
    if len(values) and isinstance(values[0], Fraction):
        return sum(values, Fraction(0)), all(v >= 0 for v in values)
    arr = np.asarray(values, dtype=float)
    return float(arr.sum()), bool(np.all(arr >= 0))


def strongest_policy(spec: GameSpec) -> str:
    """The strongest registered policy that takes restrictions and can sit twice in one game (restricted
    play's default player)."""
    for p in reversed(spec.policies):
        if p not in spec.unrestrictable and (spec.lineup_ok is None or spec.lineup_ok([p, p])):
            return p
    raise ValueError(f"policies: {spec.name} registers no restrictable policy that can play against itself")


def restricted_player(spec: GameSpec) -> str:
    """Restricted play's default player: the game's ``report_player`` when it takes restrictions and can sit twice
    in one game (Meerkat Kingdom's ``mcts_v2``, Rocking Raft's ``exact``), else :func:`strongest_policy` (Purramid's
    ``optimal`` and Pyradice's ``flat_mc`` take no restriction: ``risk:0.7`` and ``lookahead``)."""
    p = spec.report_player
    if p and p in spec.policies and p not in spec.unrestrictable and (spec.lineup_ok is None or spec.lineup_ok([p, p])):
        return p
    return strongest_policy(spec)


def _player_checks(spec: GameSpec, seed: int) -> list[tuple[str, bool, str]]:
    """Every registered policy plays and every registered restriction parses and plays (2 games each)."""
    from .outcomes import check_outcomes

    if spec.lineup_outcomes is None and not spec.policies:
        return []  # a game without players (nothing to check)
    if spec.lineup_outcomes is None or not spec.policies:
        return [("policies registered", False, "policies and lineup_outcomes must both be registered")]
    rows = []
    try:
        strong = strongest_policy(spec)
    except ValueError as exc:
        return [("policies registered", False, str(exc))]
    lineups = [(f"policy {p!r} plays", [p, strong]) for p in spec.policies]
    lineups += [(f"restriction {r!r} parses and plays", [f"{strong}/{r}", strong]) for r in spec.restrictions]
    for label, lineup in lineups:
        if spec.lineup_ok is not None and not spec.lineup_ok(lineup):
            lineup = [lineup[0], next(q for q in spec.policies if spec.lineup_ok([lineup[0], q]))]
        try:
            out = spec.lineup_outcomes(lineup, 2, rng=seed)
            check_outcomes(out)
            ok = sorted(set(out["policy"])) == sorted(set(lineup)) and len(out) == 2 * len(lineup)
            rows.append((label, ok, f"{lineup}: {len(out)} seat rows" if ok else f"{lineup}: policies "
                         f"{sorted(set(out['policy']))}, {len(out)} rows"))
        except Exception as exc:  # noqa: BLE001 - any exception fails the check
            rows.append((label, False, f"{lineup}: {type(exc).__name__}: {exc}"))
    for p in spec.unrestrictable if spec.restrictions else ():
        bad = f"{p}/{next(iter(spec.restrictions))}"
        try:
            spec.lineup_outcomes([bad, strong], 1, rng=seed)
        except ValueError:
            rows.append((f"{bad!r} is rejected (unrestrictable)", True, "ValueError"))
        except Exception as exc:  # noqa: BLE001
            rows.append((f"{bad!r} is rejected (unrestrictable)", False, f"raised {type(exc).__name__}: {exc}"))
        else:
            rows.append((f"{bad!r} is rejected (unrestrictable)", False, "played without error"))
    return rows


def check_game(name: str, *, seed: int = 12345, strict: bool = True, golden_dir=None) -> pd.DataFrame:
    """Run the conformance checks on one registered game.

    Returns a DataFrame (check, passed, detail; a check that does not apply passes with a detail starting
    ``"skipped: "``); with ``strict=True`` raises :class:`ConformanceError` listing every failed check.
    ``golden_dir``: the folder of the golden transcripts (``<game>.txt``; none compared when None).
    """
    import pandas as pd

    spec = get_game(name)
    rows = []

    a = spec.smoke_run(seed)
    b = spec.smoke_run(seed)
    try:
        pd.testing.assert_frame_equal(a, b, check_exact=True)
        same, detail = True, f"{len(a)} rows identical"
    except AssertionError as exc:
        same, detail = False, str(exc).splitlines()[0]
    if not isinstance(a, pd.DataFrame) or a.empty:
        same, detail = False, "smoke_run must return a non-empty DataFrame"
    rows.append(("same seed -> identical results", same, detail))

    tables = spec.exact_tables()
    if not tables:
        rows.append(("exact tables present", False, "exact_tables() returned nothing"))
    for tname, table in tables.items():
        total, nonneg = _table_total(table)
        ok = (total == 1) if isinstance(total, Fraction) else abs(total - 1) <= 1e-12
        rows.append((f"exact table {tname!r} sums to 1", bool(ok and nonneg),
                     f"sum = {total}" + ("" if nonneg else ", negative entries")))

    calls = spec.bad_calls()
    if not calls:
        rows.append(("bad calls present", False, "bad_calls() returned nothing"))
    for pname, call in calls:
        try:
            call()
        except (ValueError, TypeError) as exc:
            ok = pname in str(exc)
            rows.append((f"bad {pname} -> ValueError", ok, f"{type(exc).__name__}: {exc}" if ok else
                         f"message does not name {pname!r}: {type(exc).__name__}: {exc}"))
        except Exception as exc:  # noqa: BLE001 - any other exception is a failure of the check
            rows.append((f"bad {pname} -> ValueError", False, f"raised {type(exc).__name__}: {exc}"))
        else:
            rows.append((f"bad {pname} -> ValueError", False, "no exception raised"))

    rows.extend(_player_checks(spec, seed))
    rows.extend(_position_checks(spec, seed))
    if golden_dir is not None:
        rows.append(_golden_check(spec, seed, golden_dir))

    result = pd.DataFrame(rows, columns=["check", "passed", "detail"])
    if strict and not result["passed"].all():
        failed = result.loc[~result["passed"]]
        raise ConformanceError(f"{name} fails: " + "; ".join(f"{c} ({d})" for c, d in zip(failed.check, failed.detail)))
    return result


SKIPPED = "skipped: "


def _position_checks(spec: GameSpec, seed: int) -> list[tuple[str, bool, str]]:
    """A position from turn 3 (else 2, 1) of the game seeded ``seed`` survives document, TOML and JSON round trips."""
    import json
    import tempfile
    from pathlib import Path

    label = "position round trip"
    parts = {p: spec.part(p, None) for p in ("position", "load_position", "position_from_game")}
    if parts["position"] is None:
        return [(label, True, f"{SKIPPED}{spec.name} declares no advisor Position (advisor.Position) yet")]
    missing = [p for p, v in parts.items() if v is None]
    if missing:
        return [(label, False, f"advisor.Position is declared without {', '.join(missing)}")]
    load, error = parts["load_position"], ""
    for turn in (3, 2, 1):  # a later turn first: a table with something on it
        try:
            pos = parts["position_from_game"](seed, turn)
            break
        except ValueError as exc:  # e.g. a turn at which no player decides (an automa's)
            error = f"{type(exc).__name__}: {exc}"
    else:
        return [(label, False, f"position_from_game({seed}, turn) failed for turns 3, 2 and 1: {error}")]
    rows = []
    try:
        doc = pos.document()
        with tempfile.TemporaryDirectory() as tmp:
            toml_file, json_file = Path(tmp) / "position.toml", Path(tmp) / "position.json"
            toml_file.write_text(pos.to_toml(), encoding="utf-8")
            json_file.write_text(json.dumps(doc), encoding="utf-8")
            for how, source in (("mapping", doc), ("TOML file", toml_file), ("JSON file", json_file)):
                back = load(source)
                ok = isinstance(back, parts["position"]) and back.document() == doc
                rows.append((f"{label} ({how})", ok, f"turn {turn} of game seed {seed}" if ok else
                             f"turn {turn} of game seed {seed}: read back as {type(back).__name__} "
                             f"{_first_difference(back.document(), doc)}"))
    except Exception as exc:  # noqa: BLE001 - any exception fails the check
        rows.append((label, False, f"turn {turn} of game seed {seed}: {type(exc).__name__}: {exc}"))
    return rows


def _first_difference(a: Mapping, b: Mapping) -> str:
    keys = [k for k in dict.fromkeys([*a, *b]) if a.get(k, _MISSING) != b.get(k, _MISSING)]
    return f"differing at {keys[0]!r}: {a.get(keys[0])!r} != {b.get(keys[0])!r}" if keys else "(documents equal)"


def _number(x) -> str:
    """A score as a person reads it: integers without a decimal point, other numbers to 6 significant digits."""
    x = float(x)
    return str(int(x)) if x.is_integer() else f"{x:.6g}"


#: games in a generic golden transcript (a game without its own ``rules.transcript``)
GOLDEN_GAMES = 3


def golden_transcript(name: str, seed: int = 12345) -> str:
    """One seeded game's transcript, the text :func:`check_game` compares with ``<golden_dir>/<name>.txt``.

    The game's own ``rules.transcript(seed)`` (the contract part ``transcript``) where it declares one; otherwise a
    small generic one from the outcomes of :data:`GOLDEN_GAMES` seeded games of its heuristic player in every seat
    (``default_players`` seats, else 2; ``lineup_outcomes``): one line per game, every seat's player, turn
    position, score, rank and win share, seats and positions numbered from 1.
    """
    spec = get_game(name)
    own = spec.part("transcript", None)
    head = f"{spec.title} ({spec.name}), seed {seed}: "
    if own is not None:
        return head + "the game's own transcript (rules.transcript)\n" + own(seed).rstrip("\n") + "\n"
    lineup = [spec.heuristic_player] * (spec.default_players or 2)
    if spec.lineup_ok is not None and not spec.lineup_ok(lineup):
        raise ValueError(f"{spec.name}: {lineup} cannot play; declare rules.transcript(seed)")
    out = spec.lineup_outcomes(lineup, GOLDEN_GAMES, rng=seed)
    lines = [head + f"outcomes of {GOLDEN_GAMES} games, {spec.heuristic_player} in every seat (the game declares no "
             "rules.transcript); seats and turn positions from 1"]
    for g, rows in out.groupby("game", sort=True):
        seats = [f"seat {int(r.seat) + 1} {r.policy} position {int(r.position) + 1} score {_number(r.score)} "
                 f"rank {int(r.rank)}" + (f" win {_number(r.win)}" if r.win else "") for r in rows.itertuples()]
        lines.append(f"game {int(g) + 1}: " + "; ".join(seats))
    return "\n".join(lines) + "\n"


def _golden_check(spec: GameSpec, seed: int, golden_dir) -> tuple[str, bool, str]:
    from pathlib import Path

    label = "golden transcript"
    path = Path(golden_dir) / f"{spec.name}.txt"
    try:
        text = golden_transcript(spec.name, seed)
    except Exception as exc:  # noqa: BLE001 - any exception fails the check
        return label, False, f"{type(exc).__name__}: {exc}"
    if not path.exists():
        return label, False, (f"{path} is missing: write it with golden_transcript({spec.name!r}, {seed}) (tests/"
                              "test_registry.py --regenerate) and review it by eye")
    want = path.read_text(encoding="utf-8")
    if text == want:
        return label, True, f"{path.name}: {text.count(chr(10))} lines identical"
    got_lines, want_lines = text.splitlines(), want.splitlines()
    i = next((i for i, (a, b) in enumerate(zip(got_lines, want_lines)) if a != b), min(len(got_lines), len(want_lines)))
    got = got_lines[i] if i < len(got_lines) else "<end>"
    exp = want_lines[i] if i < len(want_lines) else "<end>"
    return label, False, f"{path.name} differs at line {i + 1}: got {got!r}, expected {exp!r}"
