"""One runner for the scripts in ``experiments/``: each script is its question and one call, nothing else.

An experiment script defines a function ``make(quick, seed)`` returning an :class:`ExperimentResult` (or a list
of them) and calls :func:`run_experiment`, which parses the command line (``--quick``, ``--seed N``, ``--out
DIR``), runs it, writes every result's CSV and PNG under ``<out>/<name>/`` (:func:`save_experiment`) and prints
what the report would say: the reading, the findings, the table and the files written.

Examples
--------
>>> from pyradice_lab.report.runner import parse_experiment_args
>>> parse_experiment_args(["--quick", "--seed", "3"], seed=1)
ExperimentArgs(quick=True, seed=3, out=PosixPath('reports'))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple

import matplotlib

from ..engine.cliargs import ArgumentParser, nonneg_int, output_dir
from ..engine.findings import render
from ..engine.results import ExperimentResult, save_experiment

matplotlib.use("Agg")  # experiments write PNG files; no window

__all__ = ["run_experiment", "parse_experiment_args", "ExperimentArgs"]


class ExperimentArgs(NamedTuple):
    """What an experiment script was asked: the quick size, the root seed and the output folder."""

    quick: bool
    seed: int
    out: Path


def parse_experiment_args(argv: Sequence[str] | None = None, *, seed: int = 0,
                          description: str | None = None) -> ExperimentArgs:
    """Parse an experiment script's command line: ``--quick``, ``--seed N`` (default ``seed``), ``--out DIR``.

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments (default: ``sys.argv[1:]``).  Unknown arguments are refused in one line (exit 2).
    seed : int
        The script's default root seed.
    description : str, optional
        The ``--help`` text (the script's question).

    Returns
    -------
    ExperimentArgs

    Examples
    --------
    >>> parse_experiment_args([], seed=7).seed
    7
    """
    p = ArgumentParser(description=description)
    p.add_argument("--quick", action="store_true", help="the report's quick sizes (seconds, indicative only)")
    p.add_argument("--seed", type=nonneg_int, default=seed, help="root seed (default: %(default)s)")
    p.add_argument("--out", type=output_dir("--out"), default="reports",
                   help="folder for the CSV and PNG files (default: %(default)s)")
    a = p.parse_args(argv)
    return ExperimentArgs(bool(a.quick), int(a.seed), Path(a.out))


def _show(result: ExperimentResult, echo: Callable[[str], None]) -> None:
    if result.reading:
        echo(result.reading)
    for f in result.findings:
        echo(f"- {render(f)}")
    table = getattr(result, "display", None)
    table = result.table if table is None else table
    echo(table.to_string(index=False))


def run_experiment(make: Callable[..., ExperimentResult | Sequence[ExperimentResult]],
                   argv: Sequence[str] | None = None, *, seed: int = 0, description: str | None = None,
                   echo: Callable[[str], None] = print) -> list[ExperimentResult]:
    """Run an experiment script: parse its arguments, call ``make(quick=..., seed=...)``, save and print.

    Parameters
    ----------
    make : callable ``(quick: bool, seed: int) -> ExperimentResult | list[ExperimentResult]``
        The experiment: the same function the report section calls, at full or quick size.
    argv : sequence of str, optional
        The arguments (default: ``sys.argv[1:]``): ``--quick``, ``--seed N``, ``--out DIR``.
    seed : int
        The script's default root seed (recorded in every result's files through ``make``).
    description : str, optional
        The ``--help`` text.
    echo : callable
        Where the printed lines go (default :func:`print`).

    Returns
    -------
    list of ExperimentResult
        The results, each also written to ``<out>/<name>/`` (CSV, findings CSV, PNG).

    Raises
    ------
    TypeError
        If ``make`` returns something other than an ExperimentResult or a list of them.

    Examples
    --------
    >>> import tempfile, pandas as pd
    >>> from pyradice_lab.report import ExperimentResult
    >>> make = lambda quick, seed: ExperimentResult("demo", "A demo", "Read me.", pd.DataFrame({"x": [seed]}))
    >>> [r.name for r in run_experiment(make, ["--seed", "2", "--out", tempfile.mkdtemp()], echo=lambda s: None)]
    ['demo']
    """
    args = parse_experiment_args(argv, seed=seed, description=description)
    out = make(quick=args.quick, seed=args.seed)
    results = [out] if isinstance(out, ExperimentResult) else list(out)
    if not results or not all(isinstance(r, ExperimentResult) for r in results):
        raise TypeError(f"make must return an ExperimentResult or a list of them, got {type(out).__name__}")
    for r in results:
        _show(r, echo)
        paths = save_experiment(r, args.out)
        echo("wrote " + ", ".join(str(p) for p in paths.values()))
    return results


