"""Argument types, output paths and progress for the command line: what the top CLI and every game's CLI share.

It sits in the engine, below the games, so that a game's ``cli.py`` takes its argument types from here and
never imports the top-level :mod:`pyradice_lab.cli` (which imports the games).  Every path a subcommand
writes is checked when the command line is parsed, before any work, by one helper (:func:`output_file` /
:func:`output_dir` as argparse types, built on :func:`check_output_path`): a file where a folder is needed, a
missing folder (only ``reports/``, the default output folder, is created), an existing folder given as a
file, a wrong suffix, a read-only place or an over-long name is refused in one line.  Tables are written
atomically (:func:`write_csv`).

>>> positive_int("3")
3
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

__all__ = ["CliError", "ArgumentParser", "components_arg", "show_progress", "positive_int", "nonneg_int", "jobs_int",
           "int_list", "float_list", "positive_float", "parse_grid_value", "grid_arg", "check_output_path",
           "output_file", "output_dir", "comma_names", "write_csv", "DEFAULT_OUTPUT_DIR", "PROG", "execution_args",
           "execution_kwargs", "policies_arg", "policy_names", "position_source_args"]

PROG = "pyradice-lab"


class CliError(Exception):
    """An error to report on one line (exit status 2)."""


class ArgumentParser(argparse.ArgumentParser):
    """argparse with one-line errors and exit status 2."""

    def error(self, message):  # noqa: D401 - argparse API
        self.exit(2, f"{self.prog}: error: {message}\n")


# ----------------------------------------------------------------------------------------- arg types
#: The most digits a command-line integer may have (every count and turn fits, and every seed: a 128-bit one has
#: 39 digits; Python's own limit on converting text to int is 4,300 digits, with a message about
#: sys.set_int_max_str_digits)
MAX_INT_DIGITS = 40


def _digits(text: str, what: str) -> None:
    if isinstance(text, str) and len(text.strip().lstrip("+-")) > MAX_INT_DIGITS:
        raise argparse.ArgumentTypeError(f"expected {what} of at most {MAX_INT_DIGITS} digits, got "
                                         f"{len(text.strip().lstrip('+-')):,} characters")


def positive_int(text: str) -> int:
    _digits(text, "a positive integer")
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if v <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {v}")
    return v


def nonneg_int(text: str) -> int:
    _digits(text, "a non-negative integer")
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {text!r}") from None
    if v < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {v}")
    return v


def jobs_int(text: str) -> int:
    from .limits import MAX_JOBS

    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer up to {MAX_JOBS} or -1 (all cores), "
                                         f"got {text!r}") from None
    if v == 0 or v < -1 or v > MAX_JOBS:
        raise argparse.ArgumentTypeError(f"expected a positive integer up to {MAX_JOBS} or -1 (all cores), got {v}")
    return v


def int_list(text: str) -> list[int]:
    """``"3,4,6"`` -> ``[3, 4, 6]``."""
    items = [x for x in text.replace(" ", "").split(",") if x != ""]
    for x in items:
        _digits(x, "comma-separated integers")
    try:
        return [int(x) for x in items]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated integers, got {text!r:.200}") from None


def float_list(text: str) -> list[float]:
    try:
        return [float(x) for x in text.replace(" ", "").split(",") if x != ""]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated numbers, got {text!r}") from None


def comma_names(text: str) -> str:
    """argparse type for ``NAME`` or ``NAME1,NAME2,...`` (policies): no empty item; returns the text."""
    items = [x.strip() for x in text.split(",")]
    if not text.strip() or not all(items):
        raise argparse.ArgumentTypeError(f"expected a name or comma-separated names, none empty, got {text!r}")
    return text


def policies_arg(parser, *, default: str | None = "greedy", help: str, old: str | None = "--policy") -> None:
    """``--policies NAME[,NAME...]`` (one policy for every seat or one per seat; ``args.policies``, the text), the
    one flag for the seats' players; ``old`` (``--policy``) stays a hidden alias for one release and warns."""
    parser.add_argument("--policies", type=comma_names, default=default, help=help)
    if old:
        class _Deprecated(argparse.Action):
            def __call__(self, parser, namespace, values, option_string=None):
                print(f"warning: {option_string} is renamed --policies (accepted for one release)", file=sys.stderr)
                setattr(namespace, self.dest, values)

        parser.add_argument(old, dest="policies", type=comma_names, action=_Deprecated, help=argparse.SUPPRESS)


def policy_names(text: str | None):
    """The ``--policies`` text as ``simulate_games`` takes it: None, one name (every seat) or a list per seat."""
    if text is None:
        return None
    items = [x.strip() for x in text.split(",") if x.strip()]
    return items[0] if len(items) == 1 else items


# ----------------------------------------------------------------------------------------- output paths
#: The default output folder; the only missing folder an output path may name (it is created on write).
DEFAULT_OUTPUT_DIR = Path("reports")


def _name_limits(path: Path) -> tuple[int, int]:
    """(longest file name, longest path) in bytes on the file system holding ``path``."""
    probe = path
    while not os.path.exists(probe) and probe != probe.parent:
        probe = probe.parent
    where = probe if os.path.exists(probe) else "."
    name_max, path_max = 255, 4096
    with contextlib.suppress(OSError, ValueError, AttributeError):
        name_max = os.pathconf(where, "PC_NAME_MAX")
    with contextlib.suppress(OSError, ValueError, AttributeError):
        path_max = os.pathconf(where, "PC_PATH_MAX")
    return name_max, path_max


def check_output_path(path: str | os.PathLike, *, kind: str = "file", suffixes: Sequence[str] = (),
                      option: str = "--out") -> Path:
    """Check before any work that ``path`` can be written; return it as a Path, or raise :class:`CliError`.

    ``kind="file"``: the path is not a folder, has one of ``suffixes`` (if given), and its folder exists
    (or is :data:`DEFAULT_OUTPUT_DIR`) and is writable.  ``kind="dir"``: the path is a folder or can be
    created as one.  Both: no part of the path is an existing file used as a folder, no name is longer than
    the file system allows.
    """
    text = os.fspath(path)
    if not isinstance(text, str) or not text.strip():
        raise CliError(f"{option} must be a path, got {text!r}")
    if "\0" in text:
        raise CliError(f"{option} must not contain a NUL character")
    p = Path(text)
    name_max, path_max = _name_limits(p)
    size = len(os.fsencode(os.path.abspath(text)))
    if size >= path_max:
        raise CliError(f"{option}: the path is too long ({size} bytes; at most {path_max - 1})")
    for part in p.parts:
        if len(os.fsencode(part)) > name_max:
            raise CliError(f"{option}: the name {part[:24] + '...'!r} is too long ({len(os.fsencode(part))} bytes; "
                           f"at most {name_max})")
    # an existing file used as a folder anywhere on the way
    for anc in reversed((p, *p.parents) if kind == "dir" else p.parents):
        if os.path.exists(anc) and not os.path.isdir(anc):
            if anc == p:
                raise CliError(f"{option} {text!r} exists and is a file, not a folder")
            raise CliError(f"{option} {text!r}: {str(anc)!r} is a file, not a folder")
    if kind == "file":
        if os.path.isdir(p):
            raise CliError(f"{option} {text!r} is an existing folder; give a file name")
        if suffixes and p.suffix.lower() not in suffixes:
            raise CliError(f"{option} must end in {' or '.join(suffixes)}, got {text!r}")
        folder = p.parent
        if not os.path.exists(folder) and folder != DEFAULT_OUTPUT_DIR:
            raise CliError(f"{option} {text!r}: the folder {str(folder)!r} does not exist (create it first)")
        if os.path.exists(p) and not os.access(p, os.W_OK):
            raise CliError(f"{option} {text!r} exists and is not writable")
    else:
        folder = p
    probe = folder
    while not os.path.exists(probe) and probe != probe.parent:
        probe = probe.parent
    try:
        with tempfile.TemporaryFile(dir=probe):
            pass
    except OSError as exc:
        raise CliError(f"{option} {text!r}: cannot write in {str(probe)!r} ({exc.strerror or exc})") from None
    return p


def _path_type(kind: str, suffixes: Sequence[str], option: str) -> Callable[[str], str]:
    def check(text: str) -> str:
        try:
            check_output_path(text, kind=kind, suffixes=suffixes, option=option)
        except CliError as exc:
            raise argparse.ArgumentTypeError(str(exc).removeprefix(option).lstrip(": ")) from None
        return text

    check.__name__ = f"output {kind}"
    check.output_path = True  # tests find every writing option by this mark
    return check


def output_file(*suffixes: str, option: str = "--out") -> Callable[[str], str]:
    """argparse ``type=`` for a file the command writes (checked when parsed, see :func:`check_output_path`)."""
    return _path_type("file", tuple(s.lower() for s in suffixes), option)


def output_dir(option: str = "--cache-dir") -> Callable[[str], str]:
    """argparse ``type=`` for a folder the command writes into (created if missing)."""
    return _path_type("dir", (), option)


def write_csv(df, path: str | os.PathLike) -> Path:
    """Write ``df`` to ``path`` atomically (a temporary file renamed into place); creates ``reports/``."""
    from .sweep import replace_with_default_mode, temporary_prefix

    path = Path(path)
    if path.parent == DEFAULT_OUTPUT_DIR:
        path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=temporary_prefix(), suffix=".csv")
    try:
        with os.fdopen(fd, "w", newline="") as fh:
            df.to_csv(fh, index=False)
        replace_with_default_mode(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return path


def parse_grid_value(text: str):
    """A grid value from the command line: int, then float, then the string itself."""
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text


def grid_arg(text: str) -> tuple[str, list]:
    if "=" not in text:
        raise argparse.ArgumentTypeError(f"expected name=v1,v2,..., got {text!r}")
    name, values = text.split("=", 1)
    vals = [parse_grid_value(v) for v in values.split(",") if v != ""]
    if not name or not vals:
        raise argparse.ArgumentTypeError(f"expected name=v1,v2,..., got {text!r}")
    return name.strip(), vals


# ----------------------------------------------------------------------------------------- commands
def show_progress(args) -> bool:
    """Progress unless --no-progress: a bar on a terminal, a short line every few seconds when stderr is piped
    (:class:`~pyradice_lab.engine.execution.Progress`)."""
    return not getattr(args, "no_progress", False)


def components_arg(parser) -> None:
    """Add ``--components PATH`` (a designer's components file) to a game subcommand."""
    parser.add_argument("--components", metavar="PATH", default=None,
                        help="a components TOML file ('components --dump FILE' writes one to edit); a partial "
                             "file merges over the packaged components")


def position_source_args(parser, *, turn_help: str = "the turn of that game (1 = the first)",
                         position_help: str = "a position file (.toml or .json)") -> None:
    """Add an ``advise`` command's position options: ``--position FILE``, ``--game-seed S`` with ``--turn K`` and
    ``--dump-position FILE`` (read by :func:`~pyradice_lab.engine.positions.position_from_args`)."""
    parser.add_argument("--position", default=None, help=position_help)
    parser.add_argument("--game-seed", type=nonneg_int, default=None, help="rebuild the position from this seeded game")
    parser.add_argument("--turn", type=positive_int, default=None, help=turn_help)
    parser.add_argument("--dump-position", type=output_file(".toml"), default=None,
                        help="also write the position as a TOML file (to edit and ask again)")


def check_position_source(args, turn_hint: str) -> None:
    """An ``advise`` command's position: exactly one of ``--position FILE`` and ``--game-seed S`` (with
    ``--turn K``, described by ``turn_hint``); a :class:`CliError` otherwise."""
    if (args.position is None) == (args.game_seed is None):
        raise CliError("advise needs either --position FILE or --game-seed S with --turn K")
    if args.game_seed is not None and args.turn is None:
        raise CliError(f"--game-seed needs --turn K ({turn_hint})")
    if args.position is not None and args.turn is not None:
        raise CliError("--turn goes with --game-seed, not with --position")


def positive_float(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {text!r}") from None
    if not 0 < v < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number, got {text}")
    return v


#: :data:`pyradice_lab.engine.execution.BACKENDS`, spelled here so that ``--help`` imports no numpy (tested equal).
BACKENDS = ("loky", "dask", "threading")


def execution_args(parser, *, backend: str = "loky", what: str = "blocks", cache: bool = True) -> None:
    """Add ``--jobs``, ``--backend``, ``--scheduler`` and ``--cache-dir`` (the keywords of
    :func:`pyradice_lab.engine.execution.check_execution`) to a subcommand; :func:`execution_kwargs` reads them.

    >>> p = ArgumentParser(prog="x")
    >>> execution_args(p)
    >>> execution_kwargs(p.parse_args(["--jobs", "2"]))
    {'n_jobs': 2, 'backend': 'loky', 'scheduler': None, 'cache_dir': None}
    """
    parser.add_argument("--jobs", type=jobs_int, default=1,
                        help=f"parallel workers running the {what} (-1: all cores; default: 1); the numbers do "
                             "not depend on it")
    parser.add_argument("--backend", choices=list(BACKENDS), default=backend,
                        help="where the workers run: loky processes, a dask cluster or threads (default: "
                             "%(default)s)")
    parser.add_argument("--scheduler", default=None, metavar="ADDRESS",
                        help="with --backend dask: the scheduler's address, e.g. tcp://10.0.0.5:8786 (default: a "
                             "local cluster of --jobs workers)")
    if cache:
        parser.add_argument("--cache-dir", type=output_dir(), default=None,
                            help=f"keep finished {what} here: a run interrupted and started again computes only "
                                 "what is missing; created if missing")


def execution_kwargs(args) -> dict:
    """The execution keywords of the library from the options :func:`execution_args` added."""
    kw = {"n_jobs": args.jobs, "backend": args.backend, "scheduler": args.scheduler}
    if hasattr(args, "cache_dir"):  # only where execution_args added --cache-dir (cache=True)
        kw["cache_dir"] = args.cache_dir
    return kw
