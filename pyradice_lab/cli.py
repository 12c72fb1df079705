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
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import logging
import os
import re
import signal
import sys
from collections.abc import Sequence
from pathlib import Path

from .engine._version import __version__
from .engine.cliargs import (
    PROG,
    ArgumentParser,
    CliError,
    check_output_path,
    comma_names,
    components_arg,
    execution_args,
    execution_kwargs,
    grid_arg,
    nonneg_int,
    output_dir,
    output_file,
    positive_float,
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


def _cmd_compare(args) -> int:
    from .design.compare import compare, metrics

    if args.list_metrics:
        print(metrics(args.game).to_string(index=False))
        return 0
    if args.variant is None:
        raise CliError("--variant PATH is required: the components to compare with --components (default: the "
                       "packaged ones); 'components --dump FILE' writes a file to edit")
    if args.max_games is not None and args.until is None:
        raise CliError("--max-games caps an --until run; without --until the run plays exactly --games games")
    pols = args.policies
    if pols is not None and "," in pols:
        pols = [p.strip() for p in pols.split(",")]
    res = compare(args.game, args.components, args.variant, args.metric, games=args.games, players=args.players,
                  policies=pols, rng=args.seed, until=args.until, max_games=args.max_games,
                  options=_options(args.option, "--option") or None, progress=show_progress(args),
                  **execution_kwargs(args))
    print(res)
    if args.out:
        path = write_csv(res.to_frame(), args.out)
        print(f"wrote {path}")
    return 0


def _compare_subcommand(sub, name: str) -> None:
    """``<game> compare``: a paired comparison of two component sets (:func:`pyradice_lab.design.compare.compare`)."""
    c = sub.add_parser("compare", help="did my change make the game better? paired comparison of two component sets",
                       description="Play the same games (common random numbers) with the --components set (default: "
                                   "the packaged one) and the --variant set and estimate the difference of a "
                                   "metric, variant minus base, with its 95% CI and the variance reduction against "
                                   f"independent runs. Example: {PROG} {name} compare --variant {name}_mine.toml "
                                   f"--games 500 --seed 1 (README.md has a {name}_mine.toml to start from; "
                                   f"'{name} components --dump FILE' writes every value). --list-metrics shows the "
                                   f"metrics.")
    components_arg(c)
    c.add_argument("--variant", metavar="PATH", default=None, help="the variant components TOML (a partial file "
                                                                      "merges over the packaged components)")
    c.add_argument("--metric", default="start_player_win", help="the metric (default: %(default)s; see "
                                                                 "--list-metrics); NAME:ARG for seat_win:1 etc.")
    c.add_argument("--list-metrics", action="store_true", help="list the metrics of this game and exit")
    c.add_argument("--games", type=positive_int, default=2000,
                   help="games per component set; with --until the minimum (default: %(default)s)")
    c.add_argument("--until", type=positive_float, default=None, metavar="HALFWIDTH",
                   help="add games in blocks until the 95%% CI of the difference is at most this half-width")
    c.add_argument("--max-games", type=positive_int, default=None,
                   help="with --until: at most this many games per set (default: 100 x --games)")
    c.add_argument("--players", type=positive_int, default=None, help="players (default: the game's default)")
    c.add_argument("--policies", type=comma_names, default=None,
                   help="one policy for every seat or one per seat, comma-separated (default: the game's)")
    c.add_argument("--seed", type=nonneg_int, default=0, help="root seed (default: %(default)s)")
    _option_arg(c)
    c.add_argument("--out", type=output_file(".csv"), default=None, help="CSV path for the result table")
    c.add_argument("--no-progress", action="store_true", help="no progress bar")
    execution_args(c)
    c.set_defaults(func=_cmd_compare, game=name)


def _cmd_components(args) -> int:
    import importlib

    fmt = importlib.import_module(f"pyradice_lab.{args.game}.components").FORMAT
    if args.dump is not None:
        out = Path(args.dump)
        if str(args.dump) == "" or out.is_dir():
            raise CliError(f"--dump must be a file path, got {str(args.dump)!r}")
        if not out.parent.is_dir():
            raise CliError(f"--dump: the folder {str(out.parent)!r} does not exist")
        if out.exists() and not args.force:
            raise CliError(f"--dump: {str(out)!r} exists (add --force to overwrite it)")
        check_output_path(out, option="--dump")  # the folder is writable (before loading anything)
    comp = fmt.load(args.components)
    if args.dump is not None:
        tmp = out.with_name(f".tmp-{os.getpid()}-{out.name}")
        try:
            tmp.write_text(comp.to_toml(), encoding="utf-8")
            os.replace(tmp, out)
        except OSError as exc:  # name the target, not the temporary file it is written through
            raise CliError(f"--dump {str(out)!r}: cannot be written ({exc.strerror or exc})") from None
        finally:
            tmp.unlink(missing_ok=True)
        print(f"wrote {out}: the {'components of ' + str(args.components) if args.components else 'packaged components'}"
              f" of {args.game}, one commented TOML file; edit it and pass --components {out} to the {args.game} "
              f"subcommands (a partial file is fine: it merges over the packaged components)")
        return 0
    rows = fmt.rows(comp._document)
    what = str(args.components) if args.components else "packaged"
    print(f"{args.game} components ({what}; {len(rows)} values, content hash {comp.content_hash()[:12]})")
    wk = max(len(r[0]) for r in rows)
    wv = min(max(len(r[1]) for r in rows), 40)
    ws = max(len(r[2]) for r in rows)
    print(f"{'key':<{wk}}  {'value':<{wv}}  {'source':<{ws}}  meaning")
    for key, value, source, meaning in rows:
        value = value if len(value) <= wv else value[:wv - 3] + "..."
        print(f"{key:<{wk}}  {value:<{wv}}  {source:<{ws}}  {meaning}")
    return 0


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


def _print_table(df, out: str | None, what: str) -> None:
    import pandas as pd

    if out:
        path = Path(out)
        path.parent.mkdir(parents=True, exist_ok=True)
        df.to_csv(path, index=False)
        print(f"wrote {path} ({len(df)} {what})")
    with pd.option_context("display.width", 200, "display.max_columns", 30, "display.max_colwidth", 60):
        print(df.to_string(index=False, float_format=lambda x: f"{x:.3f}"))


#: Games whose ``<game> ladder`` plays, by default, the report's two players (the registry's ``heuristic_player``
#: and ``report_player``) instead of every registered policy: Meerkat Kingdom's nine registered players (the
#: automa levels among them) make a long default run, and the question a designer asks is how the report's
#: player stands against the heuristic beside it.
REPORT_LADDER = ("meerkat",)


def _cmd_ladder(args) -> int:
    from .design.strength import ladder

    pols = None if args.policies is None else [p.strip() for p in args.policies.split(",") if p.strip()]
    if pols is None and args.game_name in REPORT_LADDER:
        from .engine import registry

        spec = registry.get_game(args.game_name)
        pols = [spec.heuristic_player, spec.report_player]
    table = ladder(args.game_name, pols, players=args.players, games=args.games, rng=args.seed,
                   progress=show_progress(args), anchor=args.anchor, **execution_kwargs(args))
    a = table.attrs
    print(a["assumptions"].line())
    print(f"{args.game_name} ladder: {a['players']} players, {a['games_per_seating']} games per seating, seed "
          f"{args.seed}; Bradley-Terry ratings (Elo scale, {'mean 0' if a['anchor'] is None else a['anchor'] + ' = 0'}"
          f") with 95% CIs; win rate = win share over the policy's games (fair share {1 / a['players']:.3f})")
    _print_table(table.drop(columns=["wins", "players"]), args.out, "policies")
    if a.get("separation"):
        print(f"note: {a['separation']}")
    print("\nhead to head (score of a against b, ties half; predicted: the ratings' score):")
    print(a["head_to_head"].to_string(index=False, float_format=lambda x: f"{x:.3f}"))
    return 0


def _cmd_restricted(args) -> int:
    from .design.strength import restricted_play

    rs = None if args.restrictions is None else [r.strip() for r in args.restrictions.split(",") if r.strip()]
    policy = args.policy  # None: restricted_play's default, registry.restricted_player (the report player)
    table = restricted_play(args.game_name, policy, rs, players=args.players, games=args.games, rng=args.seed,
                            progress=show_progress(args), **execution_kwargs(args))
    a = table.attrs
    print(a["assumptions"].line())
    print(f"{args.game_name} restricted play: {a['policy']} forbidden one option vs {a['players'] - 1} unrestricted "
          f"{a['policy']}; {a['games_per_seat']} games per seat, seed {args.seed}; fair share "
          f"{1 / a['players']:.3f}, 'dominant' below {a['dominant_below']:.3f}")
    _print_table(table.drop(columns=["opponent", "players", "fair_share"]), args.out, "restrictions")
    return 0


def _strength_subcommands(sub, name: str) -> None:
    """``<game> ladder`` and ``<game> restricted``, the same for every game (:mod:`pyradice_lab.design.strength`)."""
    from .engine import registry

    spec = registry.get_game(name)
    common = {"--games": dict(type=positive_int, default=1000, help="games per lineup / restriction (default: "
                                                                    "%(default)s)"),
              "--seed": dict(type=nonneg_int, default=0, help="root seed (default: %(default)s)"),
              "--players": dict(type=positive_int, default=2, help="seats per game, 2..4 (default: %(default)s)"),
              "--out": dict(type=output_file(".csv"), default=None, help="CSV path for the table"),
              "--no-progress": dict(action="store_true", help="no progress bar")}
    p = sub.add_parser("ladder", help="rate policies against each other (Bradley-Terry, Elo scale, CIs)",
                       description=f"Play every pair of policies (3-4 players: every lineup, rotated through every "
                                   f"seat) and fit a Bradley-Terry ladder. Registered policies, weakest first: "
                                   f"{', '.join(spec.policies) or '-'}.")
    default = (f"the report's players, {spec.heuristic_player},{spec.report_player}" if name in REPORT_LADDER
               else "the registered ones")
    p.add_argument("--policies", default=None, help=f"comma-separated policies (default: {default})")
    p.add_argument("--anchor", default=None, help="policy rated 0 (default: ratings average 0)")
    for flag, kw in common.items():
        p.add_argument(flag, **kw)
    execution_args(p)
    p.set_defaults(func=_cmd_ladder, game_name=name)
    p = sub.add_parser("restricted", help="restricted play: what each option is worth to a player",
                       description="The win rate of a player forbidden one option against unrestricted copies of "
                                   "itself, per restriction. Registered restrictions: " +
                                   ("; ".join(f"{k}: {v}" for k, v in spec.restrictions.items()) or "-") + ".")
    policy = registry.restricted_player(spec)
    why = ("the report player" if policy == spec.report_player else
           f"the strongest registered policy that takes restrictions (the report player, {spec.report_player}, "
           f"takes none)")
    p.add_argument("--policy", default=None, help=f"the player (default: {policy}, {why})")
    p.add_argument("--restrictions", default=None, help="comma-separated restrictions (default: all)")
    for flag, kw in common.items():
        p.add_argument(flag, **kw)
    execution_args(p)
    p.set_defaults(func=_cmd_restricted, game_name=name)


def _param_arg(text: str):
    """``PATH=LOW..HIGH`` (integers) or ``PATH=JSON list of choices`` for ``balance --param``."""
    import json

    path, sep, spec = text.partition("=")
    if not sep or not path.strip():
        raise argparse.ArgumentTypeError(f"must be PATH=LOW..HIGH or PATH=[choices, ...], got {text!r}")
    m = re.fullmatch(r"\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*", spec)
    if m:
        return path.strip(), (int(m.group(1)), int(m.group(2)))
    try:
        choices = json.loads(spec)
    except ValueError:
        choices = None
    if not isinstance(choices, list) or not choices:
        raise argparse.ArgumentTypeError(f"must be PATH=LOW..HIGH or PATH=[choices, ...] (JSON), got {text!r}")
    return path.strip(), choices


def _key_value(text: str):
    """``KEY=VALUE`` with VALUE read as JSON when it is JSON (``3``, ``true``, ``[1, 2]``), else as text."""
    import json

    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"must be KEY=VALUE, got {text!r}")
    try:
        return key.strip(), json.loads(value)
    except ValueError:
        return key.strip(), value.strip()


def _option_arg(parser, flag: str = "--option", what: str = "every run") -> None:
    parser.add_argument(flag, action="append", type=_key_value, default=None, metavar="KEY=VALUE",
                        help=f"a keyword argument of the game's simulate_games for {what} (VALUE as JSON when it "
                             "parses, e.g. layout=B, card_columns=true; repeatable)")


def _options(pairs, flag: str) -> dict:
    out: dict = {}
    for key, value in pairs or []:
        if key in out:
            raise CliError(f"{flag} {key} is given twice")
        out[key] = value
    return out


def _policies(text):
    if text is None:
        return None
    items = [p.strip() for p in text.split(",")]
    return items[0] if len(items) == 1 else items


def _designer_subcommands(sub, name: str) -> None:
    """``<game> robustness`` and ``<game> balance``, the same for every game (the designer's loop)."""
    from .engine import registry

    spec = registry.get_game(name)
    report_player = spec.report_player
    # each game's ``balance`` / ``robustness`` example in ``--help`` (its own components and metrics; it runs:
    # tests/test_cli_help.py runs every one with tiny budgets) is declared with its levers
    levers = spec.part("levers", None)
    examples = dict(levers.examples) if levers is not None else {}
    common = {"--seed": dict(type=nonneg_int, default=0, help="root seed (default: %(default)s)"),
              "--players": dict(type=positive_int, default=None, help="seats per game (default: the game's)"),
              "--no-progress": dict(action="store_true", help="no progress bar")}
    p = sub.add_parser("robustness", help="does a finding hold on plausible reconstructions of the components?",
                       description=f"Evaluate a finding 'metric op threshold' on the starting components (the "
                                   f"packaged ones, or --components FILE: every value the file sets stays fixed) "
                                   f"and on plausible component sets (the reconstruction's free choices the file "
                                   f"does not set redrawn). --variant / --reference (component changes) and "
                                   f"--variant-option / --reference-option (simulate options) make it a paired "
                                   f"finding about variant minus reference. Example: {PROG} {name} robustness "
                                   f"{examples.get('robustness', repr('start_player_win > 0.5'))} --reconstructions "
                                   f"20 --games 2000")
    p.add_argument("finding", nargs="?", default=None,
                   help="'metric op threshold' (see --list-metrics), e.g. 'start_player_win > 0.5'")
    p.add_argument("--list-metrics", action="store_true", help="list the metrics of this game and exit")
    p.add_argument("--reconstructions", type=positive_int, default=20, help="component sets (default: %(default)s)")
    p.add_argument("--games", type=positive_int, default=2000, help="games per set (default: %(default)s)")
    p.add_argument("--policies", type=comma_names, default=None,
                   help="one policy for every seat or one per seat, comma-separated (default: the game's)")
    _option_arg(p, what="both runs")
    for flag, what in (("--variant", "variant"), ("--reference", "reference")):
        p.add_argument(flag, action="append", type=_key_value, default=None, metavar="PATH=VALUE",
                       help=f"a component change of the {what} run, applied on every set (VALUE as JSON, e.g. "
                            "card.1.points=3; repeatable): a paired finding")
    for flag, what in (("--variant-option", "variant"), ("--reference-option", "reference")):
        _option_arg(p, flag, what=f"the {what} run only")
    p.add_argument("--out", type=output_file(".csv"), default=None, help="CSV path for the per-set table")
    components_arg(p)
    for flag, kw in common.items():
        p.add_argument(flag, **kw)
    execution_args(p, what="component sets")
    p.set_defaults(func=_cmd_robustness, game_name=name)
    p = sub.add_parser("balance", help="search component values that bring metrics to targets",
                       description=f"Successive halving with common random numbers over the candidate values "
                                   f"(the --budget a hard cap on the games the search plays), then a verification "
                                   f"on fresh seeds; says in one line when the target is out of reach of the "
                                   f"ranges given. Several --objective (or a family NAME:*) minimise the --combine "
                                   f"of their excesses. Played by {report_player or 'the default player'} (the "
                                   f"report player) unless --policies. Example: {PROG} {name} balance "
                                   f"{examples.get('balance', '')} --out proposal.toml")
    p.add_argument("--param", action="append", type=_param_arg, required=True, metavar="PATH=RANGE",
                   help="a component path and its values: PATH=LOW..HIGH or PATH=[choices] (repeatable)")
    p.add_argument("--objective", action="append", required=True,
                   help="'metric = target', e.g. 'start_player_win = 0.5', or a family 'tile_pay_excess:* = 0' "
                        "(repeatable: several objectives)")
    p.add_argument("--combine", choices=["max", "sumsq"], default="max",
                   help="several objectives: minimise the largest |excess| (max) or the sum of squared excesses "
                        "(default: %(default)s)")
    p.add_argument("--tolerance", type=float, default=0.0,
                   help="an objective is met when its verified 95%% CI comes within this of the target (default: 0)")
    p.add_argument("--budget", type=positive_int, default=20000, help="games the search may play, a hard cap "
                                                                        "(default: %(default)s)")
    p.add_argument("--first-games", type=positive_int, default=200, help="games per candidate in the first round "
                                                                           "(default: %(default)s)")
    p.add_argument("--verify-games", type=positive_int, default=4000, help="games of each verification run "
                                                                              "(default: %(default)s)")
    p.add_argument("--policies", type=comma_names, default=None,
                   help=f"one policy for every seat or one per seat, comma-separated (default: the report player, "
                        f"{report_player or 'the game default'})")
    _option_arg(p)
    p.add_argument("--out", type=output_file(".toml"), default=None, help="write the proposed components here")
    components_arg(p)
    for flag, kw in common.items():
        p.add_argument(flag, **kw)
    execution_args(p, what="runs")
    p.set_defaults(func=_cmd_balance, game_name=name)


def _cmd_robustness(args) -> int:
    from .design.robustness import robustness

    if args.list_metrics:
        from .design.compare import metrics

        print(metrics(args.game_name).to_string(index=False))
        return 0
    if args.finding is None:
        raise CliError("a finding 'metric op threshold' is required (see --list-metrics)")
    r = robustness(args.game_name, args.finding, reconstructions=args.reconstructions, games=args.games,
                   players=args.players, policies=_policies(args.policies), rng=args.seed, base=args.components,
                   game_kwargs=_options(args.option, "--option") or None,
                   variant=_options(args.variant, "--variant") or None,
                   reference=_options(args.reference, "--reference") or None,
                   variant_options=_options(args.variant_option, "--variant-option") or None,
                   reference_options=_options(args.reference_option, "--reference-option") or None,
                   progress=show_progress(args), **execution_kwargs(args))
    print(r.summary())
    _print_table(r.table, args.out, "component sets")
    print("\nwhich free choice the metric follows (Spearman over the sampled sets; permutation p, Holm across "
          "the choices):")
    print(r.sensitivity.to_string(index=False, formatters={"spearman": "{:+.2f}".format, "p_value": "{:.2g}".format,
                                                             "p_holm": "{:.2g}".format}))
    return 0


def _cmd_balance(args) -> int:
    from .design.balance import balance

    objective = args.objective[0] if len(args.objective) == 1 else args.objective
    r = balance(args.game_name, dict(args.param), objective, budget=args.budget, players=args.players,
                policies=_policies(args.policies), rng=args.seed, components=args.components,
                first_games=args.first_games, verify_games=args.verify_games, combine=args.combine,
                tolerance=args.tolerance, game_kwargs=_options(args.option, "--option") or None,
                progress=show_progress(args), **execution_kwargs(args))
    print(r.summary())
    if r.objectives is not None and len(r.objectives) > 1:
        print(r.objectives.to_string(index=False, float_format=lambda x: f"{x:.4f}"))
    print(r.history.to_string(index=False, float_format=lambda x: f"{x:.4f}"))
    if args.out is not None:
        print(f"proposed components written to {r.to_toml(args.out)}"
              + ("" if r.reached else " (marked: not meeting the objective)"))
    return 0


def game_subcommands(subparsers, name: str, description: str):
    """Add ``pyradice-lab <name>`` (help line from the game's registry summary); returns its subcommand set.

    Every game gets ``<name> components`` here: the components with their sources, or ``--dump PATH`` to write
    them as one commented TOML file to start from; ``<name> compare`` (a paired comparison of two component
    sets, :mod:`pyradice_lab.design.compare`); and the shared ``ladder`` and ``restricted`` subcommands
    (:mod:`pyradice_lab.design.strength`).
    """
    from .engine import registry

    spec = registry.get_game(name)
    p = subparsers.add_parser(name, help=f"{spec.title}: {spec.summary}", description=description)
    sub = p.add_subparsers(dest=f"{name}_command", metavar="COMMAND")
    sub.required = True
    c = sub.add_parser("components", help="the components and their sources; --dump writes them to a TOML file",
                       description=f"Show the {spec.title} components (every value, its source and meaning) or write "
                                   f"them as one commented TOML file to edit. Example: {PROG} {name} components "
                                   f"--dump mine.toml, then {PROG} {name} simulate --components mine.toml")
    c.add_argument("--dump", metavar="PATH", default=None, help="write the components as commented TOML to PATH")
    c.add_argument("--force", action="store_true", help="with --dump: overwrite PATH if it exists")
    components_arg(c)
    c.set_defaults(func=_cmd_components, game=name)
    _compare_subcommand(sub, name)
    if spec.policies:
        _strength_subcommands(sub, name)
    _designer_subcommands(sub, name)
    return sub


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole parser; with ``only`` set, games other than ``only`` get a help line and no subcommands.

    ``main`` passes the command it was given, so ``pyradice-lab --help`` or ``pyradice-lab games`` import no
    game's CLI module, and ``pyradice-lab raft ...`` imports only Rocking Raft's.
    """
    from .engine import registry

    parser = ArgumentParser(prog=PROG, description="Exact probability and honest Monte Carlo for Purramid, Pyradice, "
                                            "Rocking Raft and Meerkat Kingdom.")
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
                        "simulate_games with an empty numba cache (minutes, not tens of minutes)")
    p.add_argument("--games", default=None, help="comma-separated: core and/or game names (default: all)")
    p.add_argument("--out", type=output_file(".csv"), default="reports/bench.csv", help="CSV path (default: %(default)s)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=_cmd_bench)

    p = sub.add_parser("serve", help="the advisors of the four games as a local web page",
                       description="Serve the table companion on this machine: a page with a game picker (Purramid, "
                                   "Meerkat Kingdom, Rocking Raft, Pyradice), the game's table drawn to set the "
                                   "position by clicking, and the advisor's ranked options (needs the web extra: pip "
                                   "install 'pyradice-lab[web]'). Example: "
                                   f"{PROG} serve --port 8000 --layout A, then open http://127.0.0.1:8000/")
    p.add_argument("--port", type=_port, default=8000, help="TCP port (default: %(default)s)")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default: %(default)s, this machine only)")
    p.add_argument("--layout", default="A", help="Purramid board the page opens on: A, B or a layout TOML path "
                                                 "(default: %(default)s)")
    p.add_argument("--allow-host", action="append", metavar="NAME",
                   help="another Host name the page may be opened as (repeatable; localhost, 127.0.0.1 and --host "
                        "are always allowed, any other Host is refused to defeat DNS rebinding)")
    p.set_defaults(func=_cmd_serve)

    for name, spec in registry.games().items():
        if spec.add_cli is None:
            continue
        if only is None or only == name:
            module = getattr(spec.add_cli, "target", "").partition(":")[0]
            description = getattr(importlib.import_module(module), "DESCRIPTION", None) if module else None
            spec.add_cli(game_subcommands(sub, name, description or f"{spec.title}: {spec.summary}"))
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


def _show_compile_notices() -> None:
    """The compile announcements of :mod:`.engine._jit` as one ``pyradice-lab: ...`` line each on stderr."""
    log = logging.getLogger(COMPILE_LOGGER)
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
        print(f"{PROG}: terminated (finished work was kept)", file=sys.stderr)
        return 128 + exc.signum
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted (finished work was kept)", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    # `python -m pyradice_lab.cli` runs this file as __main__: use the package's own module, so that the
    # CliError the game subcommands import is the one main() catches
    from pyradice_lab.cli import main as _main

    sys.exit(_main())
