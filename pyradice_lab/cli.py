"""The ``pyradice-lab`` command line.

Subcommands: ``games``, ``report``, ``sweep``, ``bench`` and one per registered game
(``pyradice-lab <game> --help``).  Errors print one line to stderr and exit with status 2; an
interrupted run (Ctrl-C, or SIGTERM/SIGHUP) stops its worker processes, exits with 130 (143, 129) and keeps
the work already finished.

Every path a subcommand writes is checked when the command line is parsed, before any work, by one helper
(:func:`output_file` / :func:`output_dir` as argparse types, built on :func:`check_output_path`): a file
where a folder is needed, a missing folder (only ``reports/``, the default output folder, is created), an
existing folder given as a file, a wrong suffix, a read-only place or an over-long name is refused in one
line.  Tables are written atomically (:func:`write_csv`).

The first compile of a game's kernels is announced once on stderr ("pyradice-lab: compiling the Meerkat engine
once (about 25 s); later runs reuse it"): :func:`main` shows the INFO messages of the logger
``pyradice_lab.compile`` (:mod:`pyradice_lab.engine._jit`).

Every game gets the same shared subcommands (:func:`game_subcommands`), defined in private modules: the
designer's ``components``, ``compare``, ``robustness`` and ``balance`` (``pyradice_lab._cli_designer``) and, for a
game with players, ``ladder`` and ``restricted`` (``pyradice_lab._cli_strength``); the game's own subcommands come
from its ``cli`` module.  A game is reached through the registry only.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import signal
import sys
from collections.abc import Sequence

from .engine._version import __version__
from .engine.cliargs import (
    PROG,
    ArgumentParser,
    CliError,
    check_output_path,  # noqa: F401 - the docs name it here (the module docstring, docs/guide/engine.md)
    execution_args,
    execution_kwargs,
    grid_arg,
    nonneg_int,
    output_dir,
    output_file,
    positive_int,
    show_progress,
    write_csv,
)

__all__ = ["main", "build_parser", "game_subcommands"]


def _cmd_games(args) -> int:
    from .engine import registry

    games = registry.games()
    if not games:
        print("no games registered")
        return 0
    width = max(len(n) for n in games)
    for name, spec in games.items():
        print(f"{name:<{width}}  {spec.title}: {spec.summary}")
    return 0


def _cmd_report(args) -> int:
    import warnings

    from .report.build import ReportLengthWarning, build_report

    games = None if args.games is None else [g for g in args.games.split(",") if g]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ReportLengthWarning)
        path = build_report(args.out, quick=args.quick, seed=args.seed, games=games, progress=show_progress(args),
                            **execution_kwargs(args))
    print(f"wrote {path}")
    for w in caught:  # the page count beyond MAX_PAGES: one line on stderr, the report is still written
        if issubclass(w.category, ReportLengthWarning):
            print(f"pyradice-lab: warning: {w.message}", file=sys.stderr)
        else:
            warnings.showwarning(w.message, w.category, w.filename, w.lineno)
    return 0


def sweep_targets() -> dict:
    """All sweep targets: ``core.subset-sum`` and ``<game>.<name>`` for every registered game."""
    from .engine import registry
    from .report import overview

    targets = {"core.subset-sum": registry.SweepTarget(
        overview.subset_sum_cell, "Monte Carlo vs exact P(some subset of k dice sums to target)",
        {"dice": "number of dice, 0..8", "target": "target sum, 1..48"},
        {"dice": [1, 2, 3, 4, 5], "target": [6, 8, 12]})}
    for gname, spec in registry.games().items():
        for tname, target in spec.sweeps.items():
            targets[f"{gname}.{tname}"] = target
    return targets


def _cmd_sweep(args) -> int:
    from .engine.sweep import run_sweep

    targets = sweep_targets()
    if args.list or args.target is None:
        for name, t in targets.items():
            params = ", ".join(f"{k} ({v})" for k, v in t.params.items())
            print(f"{name}: {t.description}\n    params: {params or '-'}")
        return 0
    if args.target not in targets:
        raise CliError(f"target must be one of {sorted(targets)}, got {args.target!r}")
    target = targets[args.target]
    grid = {k: list(v) for k, v in target.defaults.items()}
    for name, vals in args.grid or []:
        if target.params and name not in target.params:
            raise CliError(f"--grid parameter must be one of {sorted(target.params)}, got {name!r}")
        grid[name] = vals
    df = run_sweep(target.fn, grid, trials=args.trials, seed=args.seed, progress=show_progress(args),
                   **execution_kwargs(args))
    if args.out:
        out = write_csv(df, args.out)
        print(f"wrote {out} ({len(df)} cells)")
    import pandas as pd

    with pd.option_context("display.width", 200, "display.max_columns", 30, "display.precision", 5):
        print(df.drop(columns=["seed_entropy"]).to_string(index=False))
    return 0


def _cmd_bench(args) -> int:
    from .bench import all_cases, first_use_cases, format_bench, run_bench, write_bench

    games = None if args.games is None else [g for g in args.games.split(",") if g]
    if args.first_use and args.long:
        raise ValueError("--first-use and --long cannot be combined (--long adds memory rows)")
    cases = first_use_cases(args.quick, games) if args.first_use else all_cases(args.quick, games, long=args.long)
    df = run_bench(cases, quick=args.quick, progress=show_progress(args))
    print(format_bench(df))
    path = write_bench(df, args.out)
    print(f"\nwrote {path}; {int(df['ok'].sum())}/{len(df)} targets met")
    return 0


def _cmd_compile(args) -> int:
    from ._bench_compile import compile_ahead

    games = None if args.games is None else [g for g in args.games.split(",") if g]
    done = compile_ahead(games, force=args.force)
    return 0 if all(not v.startswith("not built") for v in done.values()) else 1


def _port(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        v = -1
    if not 0 <= v <= 65535:
        raise argparse.ArgumentTypeError(f"must be a port number in 0..65535, got {text!r}")
    return v


def _cmd_serve(args) -> int:
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        raise CliError("serve needs the web extra: pip install 'pyradice-lab[web]' (starlette, uvicorn)") from None
    from .web import serve

    serve(args.layout, host=args.host, port=args.port, allowed_hosts=tuple(args.allow_host or ()))
    return 0


def game_subcommands(subparsers, name: str, description: str):
    """Add ``pyradice-lab <name>`` (help line from the game's registry summary); returns its subcommand set.

    Every game gets ``<name> components`` here: the components with their sources, or ``--dump PATH`` to write
    them as one commented TOML file to start from; ``<name> compare`` (a paired comparison of two component
    sets, :mod:`pyradice_lab.design.compare`); and the shared ``ladder`` and ``restricted`` subcommands
    (:mod:`pyradice_lab.design.strength`).
    """
    from ._cli_designer import add_compare, add_components, add_designer
    from ._cli_questions import add_compare_settings, add_questions
    from ._cli_strength import add_strength
    from .engine import registry

    spec = registry.get_game(name)
    p = subparsers.add_parser(name, help=f"{spec.title}: {spec.summary}", description=description)
    sub = p.add_subparsers(dest=f"{name}_command", metavar="COMMAND")
    sub.required = True
    add_components(sub, name)
    add_compare(sub, name)
    add_compare_settings(sub, name)
    add_questions(sub, name)
    if spec.policies:
        add_strength(sub, name)
    add_designer(sub, name)
    return sub


def _listed(names: Sequence[str]) -> str:
    """``a, b, c and d``."""
    return " and ".join(filter(None, [", ".join(names[:-1]), *names[-1:]]))


def _description(spec) -> str:
    """The help text of ``pyradice-lab <game>``: the ``DESCRIPTION`` of the game's ``cli`` module, else its title
    and summary."""
    try:
        module = spec.module("cli")
    except ValueError:  # registered without a package or without a cli module
        module = None
    return getattr(module, "DESCRIPTION", None) or f"{spec.title}: {spec.summary}"


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole parser; with ``only`` set, games other than ``only`` get a help line and no subcommands.

    ``main`` passes the command it was given, so ``pyradice-lab --help`` or ``pyradice-lab games`` import no
    game's CLI module, and ``pyradice-lab raft ...`` imports only Rocking Raft's.
    """
    from .engine import registry

    games = registry.games()
    titles = [spec.title for spec in games.values()]
    parser = ArgumentParser(prog=PROG, description=f"Exact probability and honest Monte Carlo for {_listed(titles)}.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    p = sub.add_parser("games", help="list the registered games", description="List the registered games.")
    p.set_defaults(func=_cmd_games)

    p = sub.add_parser("report", help="build the PDF report", description="Build the PDF report.")
    p.add_argument("--quick", action="store_true", help="small trial counts (well under a minute)")
    p.add_argument("--out", type=output_file(".pdf"), default="reports/pyradice_lab_report.pdf",
                   help="PDF path (default: %(default)s)")
    p.add_argument("--seed", type=nonneg_int, default=0, help="root seed (default: %(default)s)")
    execution_args(p, what="sections", cache=False)
    p.add_argument("--cache-dir", type=output_dir(), default=None,
                   help="keep the finished robustness checks here: a report interrupted and started again runs only "
                        "the missing ones; created if missing")
    p.add_argument("--games", default=None, help="comma-separated games to include (default: all)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=_cmd_report)

    p = sub.add_parser("sweep", help="run a parameter sweep to CSV",
                       description="Run a sweep target over a grid. Example: pyradice-lab sweep core.subset-sum "
                                   "--grid dice=1,2,3 --grid target=6,8 --trials 100000 --seed 1 --jobs 2")
    p.add_argument("target", nargs="?", help="sweep target (see --list)")
    p.add_argument("--list", action="store_true", help="list the sweep targets and their parameters")
    p.add_argument("--grid", action="append", type=grid_arg, metavar="NAME=V1,V2",
                   help="grid values for one parameter (repeatable); defaults to the target's grid")
    p.add_argument("--trials", type=positive_int, default=10_000, help="trials per cell (default: %(default)s)")
    p.add_argument("--seed", type=nonneg_int, default=0, help="root seed (default: %(default)s)")
    execution_args(p, what="cells")
    p.add_argument("--out", type=output_file(".csv"), default=None, help="CSV path for the table")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=_cmd_sweep)

    p = sub.add_parser("bench", help="benchmark the kernels", description="Print the benchmark table and write "
                                                                          "reports/bench.csv.")
    p.add_argument("--quick", action="store_true", help="shorter timings")
    p.add_argument("--long", action="store_true", help="add the peak memory of 10**6 games per game (tens of minutes)")
    p.add_argument("--first-use", action="store_true",
                   help="only the first-use targets: import, CLI start-up, sweep efficiency, each game's first "
                        "simulate_games and advise with an empty numba cache (minutes, not tens of minutes)")
    p.add_argument("--games", default=None, help="comma-separated: core and/or game names (default: all)")
    p.add_argument("--out", type=output_file(".csv"), default="reports/bench.csv", help="CSV path (default: %(default)s)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=_cmd_bench)

    p = sub.add_parser("compile", help="build ahead of time what the first calls compile (make runs it)",
                       description="Build, once per machine and version, the compiled functions each game's first "
                                   "simulate_games and advise need, so that a new process answers without the "
                                   "compiler (about a minute when the sources changed, a second when not; needs a "
                                   "C compiler, else the first calls compile as before).")
    p.add_argument("--games", default=None, help="comma-separated games (default: all that declare it)")
    p.add_argument("--force", action="store_true", help="rebuild what is current")
    p.set_defaults(func=_cmd_compile)

    p = sub.add_parser("serve", help=f"the advisors of the {len(games)} games as a local web page",
                       description=f"Serve the table companion on this machine: a page with a game picker "
                                   f"({', '.join(titles)}), the game's table drawn to set the "
                                   "position by clicking, and the advisor's ranked options (needs the web extra: pip "
                                   "install 'pyradice-lab[web]'). Example: "
                                   f"{PROG} serve --port 8000 --layout A, then open http://127.0.0.1:8000/")
    p.add_argument("--port", type=_port, default=8000, help="TCP port (default: %(default)s)")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default: %(default)s, this machine only)")
    p.add_argument("--layout", default="A", help="the board layout the page opens on, for a game with several boards "
                                                 "(A, B or a layout TOML path; default: %(default)s)")
    p.add_argument("--allow-host", action="append", metavar="NAME",
                   help="another Host name the page may be opened as (repeatable; localhost, 127.0.0.1 and --host "
                        "are always allowed, any other Host is refused to defeat DNS rebinding)")
    p.set_defaults(func=_cmd_serve)

    for name, spec in games.items():
        if spec.add_cli is None:
            continue
        if only is None or only == name:
            spec.add_cli(game_subcommands(sub, name, _description(spec)))
        else:
            sub.add_parser(name, help=f"{spec.title}: {spec.summary}", add_help=False)
    return parser


#: the logger of :mod:`.engine._jit` (named here: importing it would import numba into every CLI start)
COMPILE_LOGGER = "pyradice_lab.compile"


class _StderrHandler(logging.StreamHandler):
    """Writes to whatever ``sys.stderr`` is when a record is emitted (tests and callers may replace it)."""

    def __init__(self):
        super().__init__()

    @property
    def stream(self):
        return sys.stderr

    @stream.setter
    def stream(self, value):
        pass


#: the logger of the cost said before a long run (:mod:`.engine.notices`)
COST_LOGGER = "pyradice_lab.cost"


def _show_compile_notices() -> None:
    """The compile announcements of :mod:`.engine._jit` and the cost estimates of :mod:`.engine.notices` as one
    ``pyradice-lab: ...`` line each on stderr; the compile's :class:`~.engine.notices.CompileWarning` (the Python
    user's notice) is not shown again."""
    import warnings

    from .engine.notices import CompileWarning

    warnings.filterwarnings("ignore", category=CompileWarning)
    for name in (COMPILE_LOGGER, COST_LOGGER):
        log = logging.getLogger(name)
        if not any(isinstance(h, _StderrHandler) for h in log.handlers):
            handler = _StderrHandler()
            handler.setLevel(logging.INFO)
            handler.setFormatter(logging.Formatter(f"{PROG}: %(message)s"))
            log.addHandler(handler)
        if log.getEffectiveLevel() > logging.INFO:
            log.setLevel(logging.INFO)


def _command(argv: Sequence[str]) -> str:
    """The subcommand named in ``argv`` (its first non-option word), or "" if none."""
    return next((a for a in argv if not a.startswith("-")), "")


class _Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP, raised like Ctrl-C so every clean-up on the way out runs."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def _raise_terminated(signum, frame):
    raise _Terminated(signum)


@contextlib.contextmanager
def _signals_interrupt():
    """SIGTERM and SIGHUP interrupt like Ctrl-C while a command runs (main thread only)."""
    previous = {}
    try:
        for sig in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
            if sig is not None:
                with contextlib.suppress(ValueError, OSError):  # not the main thread
                    previous[sig] = signal.signal(sig, _raise_terminated)
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _one_line(exc: BaseException) -> str:
    if isinstance(exc, MemoryError):
        return "out of memory: ask for less work at once (fewer games, trials or cells)"
    if isinstance(exc, RecursionError):
        return f"input nested too deeply ({exc})"
    if isinstance(exc, OSError) and exc.strerror:
        where = f"{exc.filename}: " if exc.filename is not None else ""
        return f"{where}{exc.strerror}"
    return " ".join(str(exc).split()) or type(exc).__name__


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit status (0 ok, 2 bad input, 130 interrupted, 143 terminated)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(only=_command(argv))
    args = parser.parse_args(argv)
    _show_compile_notices()
    try:
        with _signals_interrupt():
            return int(args.func(args) or 0)
    except (CliError, ValueError, TypeError, OSError, MemoryError, RecursionError) as exc:
        if isinstance(exc, BrokenPipeError):
            # output piped into e.g. `head`, which stopped reading: stop quietly like other Unix tools
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            return 141
        print(f"{PROG}: error: {_one_line(exc)}", file=sys.stderr)
        return 2
    except _Terminated as exc:
        _stop_children()
        print(f"{PROG}: terminated (finished work was kept)", file=sys.stderr)
        return 128 + exc.signum
    except KeyboardInterrupt:
        _stop_children()
        print(f"{PROG}: interrupted (finished work was kept)", file=sys.stderr)
        return 130


def _stop_children() -> None:
    """After an interrupt: kill every process this command started that is still alive (loky or dask workers,
    their resource tracker), so none outlives the command, whichever clean-up the interrupt cut short.  Best
    effort; needs psutil (installed with the dask extra), else the pools' own clean-up stands."""
    try:
        import psutil
    except ImportError:  # pragma: no cover - depends on the environment
        return
    with contextlib.suppress(Exception):
        for child in psutil.Process().children(recursive=True):
            with contextlib.suppress(Exception):
                child.kill()


if __name__ == "__main__":  # pragma: no cover
    # `python -m pyradice_lab.cli` runs this file as __main__: use the package's own module, so that the
    # CliError the game subcommands import is the one main() catches
    from pyradice_lab.cli import main as _main

    sys.exit(_main())
