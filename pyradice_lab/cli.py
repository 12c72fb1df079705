"""The ``pyradice-lab`` command line.

Subcommands: ``games``, ``report``, ``sweep``, ``bench`` and one per registered game
(``pyradice-lab <game> --help``).  Errors print one line to stderr and exit with status 2; an
interrupted run exits with 130 after the work already finished has been kept.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from . import __version__

__all__ = ["main", "build_parser", "game_subcommands", "CliError", "show_progress", "positive_int", "nonneg_int", "int_list", "float_list", "parse_grid_value"]

PROG = "pyradice-lab"


class CliError(Exception):
    """An error to report on one line (exit status 2)."""


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors and exit status 2."""

    def error(self, message):  # noqa: D401 - argparse API
        self.exit(2, f"{self.prog}: error: {message}\n")


# ----------------------------------------------------------------------------------------- arg types
def positive_int(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if v <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {v}")
    return v


def nonneg_int(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {text!r}") from None
    if v < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {v}")
    return v


def jobs_int(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer or -1, got {text!r}") from None
    if v == 0 or v < -1:
        raise argparse.ArgumentTypeError(f"expected a positive integer or -1 (all cores), got {v}")
    return v


def int_list(text: str) -> list[int]:
    """``"3,4,6"`` -> ``[3, 4, 6]``."""
    try:
        return [int(x) for x in text.replace(" ", "").split(",") if x != ""]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated integers, got {text!r}") from None


def float_list(text: str) -> list[float]:
    try:
        return [float(x) for x in text.replace(" ", "").split(",") if x != ""]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated numbers, got {text!r}") from None


def parse_grid_value(text: str):
    """A grid value from the command line: int, then float, then the string itself."""
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text


def _grid_arg(text: str) -> tuple[str, list]:
    if "=" not in text:
        raise argparse.ArgumentTypeError(f"expected name=v1,v2,..., got {text!r}")
    name, values = text.split("=", 1)
    vals = [parse_grid_value(v) for v in values.split(",") if v != ""]
    if not name or not vals:
        raise argparse.ArgumentTypeError(f"expected name=v1,v2,..., got {text!r}")
    return name.strip(), vals


# ----------------------------------------------------------------------------------------- commands
def show_progress(args) -> bool:
    """Progress bars on an interactive terminal unless --no-progress."""
    return not getattr(args, "no_progress", False) and sys.stderr.isatty()


def _cmd_games(args) -> int:
    from . import registry

    games = registry.games()
    if not games:
        print("no games registered")
        return 0
    width = max(len(n) for n in games)
    for name, spec in games.items():
        print(f"{name:<{width}}  {spec.title}: {spec.summary}")
    return 0


def _cmd_report(args) -> int:
    from .report import build_report

    games = None if args.games is None else [g for g in args.games.split(",") if g]
    path = build_report(args.out, quick=args.quick, seed=args.seed, n_jobs=args.jobs, games=games,
                        progress=show_progress(args))
    print(f"wrote {path}")
    return 0


def sweep_targets() -> dict:
    """All sweep targets: ``core.subset-sum`` and ``<game>.<name>`` for every registered game."""
    from . import overview, registry

    targets = {"core.subset-sum": registry.SweepTarget(
        overview.subset_sum_cell, "Monte Carlo vs exact P(some subset of k dice sums to target)",
        {"dice": "number of dice, 0..8", "target": "target sum, 1..48"},
        {"dice": [1, 2, 3, 4, 5], "target": [6, 8, 12]})}
    for gname, spec in registry.games().items():
        for tname, target in spec.sweeps.items():
            targets[f"{gname}.{tname}"] = target
    return targets


def _cmd_sweep(args) -> int:
    from .sweep import run_sweep

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
    df = run_sweep(target.fn, grid, trials=args.trials, seed=args.seed, n_jobs=args.jobs, backend=args.backend,
                   cache_dir=args.cache_dir, progress=show_progress(args), scheduler=args.scheduler)
    if args.out:
        out = Path(args.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        df.to_csv(out, index=False)
        print(f"wrote {out} ({len(df)} cells)")
    import pandas as pd

    with pd.option_context("display.width", 200, "display.max_columns", 30, "display.precision", 5):
        print(df.drop(columns=["seed_entropy"]).to_string(index=False))
    return 0


def _cmd_bench(args) -> int:
    from .bench import all_cases, format_bench, run_bench, write_bench

    games = None if args.games is None else [g for g in args.games.split(",") if g]
    df = run_bench(all_cases(args.quick, games, long=args.long), quick=args.quick, progress=show_progress(args))
    print(format_bench(df))
    path = write_bench(df, args.out)
    print(f"\nwrote {path}; {int(df['ok'].sum())}/{len(df)} targets met")
    return 0


def game_subcommands(subparsers, name: str, description: str):
    """Add ``pyradice-lab <name>`` (help line from the game's registry summary); returns its subcommand set."""
    from . import registry

    spec = registry.get_game(name)
    p = subparsers.add_parser(name, help=f"{spec.title}: {spec.summary}", description=description)
    sub = p.add_subparsers(dest=f"{name}_command", metavar="COMMAND")
    sub.required = True
    return sub


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole parser; with ``only`` set, games other than ``only`` get a help line and no subcommands.

    ``main`` passes the command it was given, so ``pyradice-lab --help`` or ``pyradice-lab games`` import no
    game's CLI module, and ``pyradice-lab raft ...`` imports only Rocking Raft's.
    """
    from . import registry

    parser = _Parser(prog=PROG, description="Exact probability and honest Monte Carlo for Purramid, Pyradice, "
                                            "Rocking Raft and Meerkat Kingdom.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    p = sub.add_parser("games", help="list the registered games", description="List the registered games.")
    p.set_defaults(func=_cmd_games)

    p = sub.add_parser("report", help="build the PDF report", description="Build the PDF report.")
    p.add_argument("--quick", action="store_true", help="small trial counts (well under a minute)")
    p.add_argument("--out", default="reports/pyradice_lab_report.pdf", help="PDF path (default: %(default)s)")
    p.add_argument("--seed", type=nonneg_int, default=0, help="root seed (default: %(default)s)")
    p.add_argument("--jobs", type=jobs_int, default=1, help="parallel workers for sweeps (default: 1)")
    p.add_argument("--games", default=None, help="comma-separated games to include (default: all)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=_cmd_report)

    p = sub.add_parser("sweep", help="run a parameter sweep to CSV",
                       description="Run a sweep target over a grid. Example: pyradice-lab sweep core.subset-sum "
                                   "--grid dice=1,2,3 --grid target=6,8 --trials 100000 --seed 1 --jobs 2")
    p.add_argument("target", nargs="?", help="sweep target (see --list)")
    p.add_argument("--list", action="store_true", help="list the sweep targets and their parameters")
    p.add_argument("--grid", action="append", type=_grid_arg, metavar="NAME=V1,V2",
                   help="grid values for one parameter (repeatable); defaults to the target's grid")
    p.add_argument("--trials", type=positive_int, default=10_000, help="trials per cell (default: %(default)s)")
    p.add_argument("--seed", type=nonneg_int, default=0, help="root seed (default: %(default)s)")
    p.add_argument("--jobs", type=jobs_int, default=1, help="parallel workers (default: 1)")
    p.add_argument("--backend", choices=["loky", "dask", "threading"], default="loky")
    p.add_argument("--scheduler", default=None, help="dask scheduler address, e.g. tcp://10.0.0.5:8786")
    p.add_argument("--cache-dir", default=None, help="per-cell cache directory (resume after interruption)")
    p.add_argument("--out", default=None, help="CSV path for the table")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=_cmd_sweep)

    p = sub.add_parser("bench", help="benchmark the kernels", description="Print the benchmark table and write "
                                                                          "reports/bench.csv.")
    p.add_argument("--quick", action="store_true", help="shorter timings")
    p.add_argument("--long", action="store_true", help="add the peak memory of 10**6 games per game (tens of minutes)")
    p.add_argument("--games", default=None, help="comma-separated: core and/or game names (default: all)")
    p.add_argument("--out", default="reports/bench.csv", help="CSV path (default: %(default)s)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=_cmd_bench)

    for name, spec in registry.games().items():
        if spec.add_cli is None:
            continue
        if only is None or only == name:
            spec.add_cli(sub)
        else:
            sub.add_parser(name, help=f"{spec.title}: {spec.summary}", add_help=False)
    return parser


def _command(argv: Sequence[str]) -> str:
    """The subcommand named in ``argv`` (its first non-option word), or "" if none."""
    return next((a for a in argv if not a.startswith("-")), "")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit status (0 ok, 2 bad input, 130 interrupted)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(only=_command(argv))
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except (CliError, ValueError, TypeError, FileNotFoundError, IsADirectoryError, PermissionError) as exc:
        msg = " ".join(str(exc).split()) or type(exc).__name__
        print(f"{PROG}: error: {msg}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted (finished work was kept)", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # output piped into e.g. `head`, which stopped reading: stop quietly like other Unix tools
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
