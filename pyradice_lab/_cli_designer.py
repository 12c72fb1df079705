"""The designer's subcommands of every game (``pyradice-lab <game> components|compare|robustness|balance``).

Private to :mod:`pyradice_lab.cli` (which adds them to each game's subcommand set in
:func:`~pyradice_lab.cli.game_subcommands`): the components and their sources (``--dump`` writes them as one
commented TOML file to edit), a paired comparison of two component sets (:mod:`pyradice_lab.design.compare`), the
robustness of a finding over plausible components (:mod:`pyradice_lab.design.robustness`) and the balance search
(:mod:`pyradice_lab.design.balance`), with their shared argument types.  A game is reached through the registry only.
"""

from __future__ import annotations

import argparse
import os
import re
from pathlib import Path

from .engine.cliargs import (
    PROG,
    CliError,
    check_output_path,
    comma_names,
    components_arg,
    execution_args,
    execution_kwargs,
    nonneg_int,
    output_file,
    positive_float,
    positive_int,
    show_progress,
    write_csv,
)

__all__ = ["add_components", "add_compare", "add_designer", "print_table"]


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
                  controls=args.controls, **execution_kwargs(args))
    print(res)
    if args.out:
        path = write_csv(res.to_frame(), args.out)
        print(f"wrote {path}")
    return 0


def add_compare(sub, name: str) -> None:
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
                   help="one policy for every seat or one per seat, comma-separated (default: the game's "
                        "report player)")
    c.add_argument("--seed", type=nonneg_int, default=0, help="root seed (default: %(default)s)")
    c.add_argument("--controls", action="store_true",
                   help="estimate with the game's exogenous controls (the deal, known exactly in the mean; only "
                        "games that declare them): the same games, a narrower interval; prints the factor")
    _option_arg(c)
    c.add_argument("--out", type=output_file(".csv"), default=None, help="CSV path for the result table")
    c.add_argument("--no-progress", action="store_true", help="no progress bar")
    execution_args(c)
    c.set_defaults(func=_cmd_compare, game=name)


def _cmd_components(args) -> int:
    from .engine import registry

    fmt = registry.get_game(args.game).part("format")
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


def add_components(sub, name: str) -> None:
    """``<game> components``: the components with their sources, or ``--dump PATH`` to write them as one commented
    TOML file to start from."""
    from .engine import registry

    spec = registry.get_game(name)
    c = sub.add_parser("components", help="the components and their sources; --dump writes them to a TOML file",
                       description=f"Show the {spec.title} components (every value, its source and meaning) or write "
                                   f"them as one commented TOML file to edit. Example: {PROG} {name} components "
                                   f"--dump mine.toml, then {PROG} {name} simulate --components mine.toml")
    c.add_argument("--dump", metavar="PATH", default=None, help="write the components as commented TOML to PATH")
    c.add_argument("--force", action="store_true", help="with --dump: overwrite PATH if it exists")
    components_arg(c)
    c.set_defaults(func=_cmd_components, game=name)


def print_table(df, out: str | None, what: str) -> None:
    """Print ``df`` (floats to 3 decimals); with ``out``, first write it there as CSV (``what``: its rows' noun)."""
    import pandas as pd

    if out:
        path = Path(out)
        path.parent.mkdir(parents=True, exist_ok=True)
        df.to_csv(path, index=False)
        print(f"wrote {path} ({len(df)} {what})")
    with pd.option_context("display.width", 200, "display.max_columns", 30, "display.max_colwidth", 60):
        print(df.to_string(index=False, float_format=lambda x: f"{x:.3f}"))


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


def add_designer(sub, name: str) -> None:
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
                   help=f"one policy for every seat or one per seat, comma-separated (default: the report player, "
                        f"{spec.report_player or 'the game default'}; greedy for a quick look)")
    _option_arg(p, what="both runs")
    for flag, what in (("--variant", "variant"), ("--reference", "reference")):
        p.add_argument(flag, action="append", type=_key_value, default=None, metavar="PATH=VALUE",
                       help=f"a component change of the {what} run, applied on every set (VALUE as JSON, e.g. "
                            "card.1.points=3; repeatable): a paired finding")
    for flag, what in (("--variant-option", "variant"), ("--reference-option", "reference")):
        _option_arg(p, flag, what=f"the {what} run only")
    p.add_argument("--controls", action="store_true",
                   help="estimate every set with the game's controls read off its games (e.g. the optimal "
                        "seats' turn luck, mean 0 exactly; games that declare them): the same games, narrower "
                        "intervals; the table's controls_factor")
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
                                   f"report player) unless --policies. --finding ID takes the objective, players, "
                                   f"games and lever from a finding of the report's findings CSV. Example: {PROG} "
                                   f"{name} balance {examples.get('balance', '')} --out proposal.toml")
    p.add_argument("--finding", metavar="ID", default=None,
                   help="a finding of the report's findings CSV (its id, e.g. the report's proposal file name "
                        "without .toml, or its rank): the objective, the players, the games and (without --param) "
                        "the game's lever come from it")
    p.add_argument("--findings-csv", metavar="PATH", default=None,
                   help="the report's findings CSV for --finding (default: reports/pyradice_lab_report_findings.csv)")
    p.add_argument("--objective-kind", choices=["pay", "win"], default=None,
                   help="with --finding: pay (default) targets the finding's own metric (a tile's pay per piece), win "
                        "the component's worth to winning by restricted play (the lever's win metric = 0), where the "
                        "game declares one")
    p.add_argument("--param", action="append", type=_param_arg, default=None, metavar="PATH=RANGE",
                   help="a component path and its values: PATH=LOW..HIGH or PATH=[choices] (repeatable; required "
                        "without --finding)")
    p.add_argument("--objective", action="append", default=None,
                   help="'metric = target', e.g. 'start_player_win = 0.5', or a family 'tile_pay_excess:* = 0' "
                        "(repeatable: several objectives; required without --finding)")
    p.add_argument("--combine", choices=["max", "sumsq"], default="max",
                   help="several objectives: minimise the largest |excess| (max) or the sum of squared excesses "
                        "(default: %(default)s)")
    p.add_argument("--tolerance", type=float, default=0.0,
                   help="an objective is met when its verified 95%% CI comes within this of the target (default: 0)")
    p.add_argument("--budget", type=positive_int, default=None, help="games the search may play, a hard cap "
                                                                       "(default: 20000; with --finding the game's "
                                                                       "proposal budget, at least a full halving "
                                                                       "over the lever's grid)")
    p.add_argument("--first-games", type=positive_int, default=None,
                   help="games per candidate in the first round (default: 200; with --finding the game's)")
    p.add_argument("--verify-games", type=positive_int, default=None,
                   help="games of each verification run (default: 4000; with --finding the game's)")
    p.add_argument("--policies", type=comma_names, default=None,
                   help=f"one policy for every seat or one per seat, comma-separated (default: the report player, "
                        f"{report_player or 'the game default'})")
    p.add_argument("--search-policies", type=comma_names, default=None, metavar="NAME[,NAME...]|none",
                   help="with --finding: who plays the search, the --policies verifying and guarding its pick "
                        "(default: the game's cheaper search player where it declares one and the report player "
                        "verifies, with the game's search budget, as the report's proposals; none: every game by "
                        "--policies)")
    _option_arg(p)
    p.add_argument("--controls", action="store_true",
                   help="with --param: estimate every candidate and both verification runs with the game's controls "
                        "read off their games (e.g. the optimal seats' turn luck, mean 0 exactly; games that "
                        "declare them): the same games, narrower intervals")
    p.add_argument("--out", type=output_file(".toml"), default=None,
                   help="write the proposal here: only the values it changes, under a header with the objective "
                        "and its verification (loads with --components)")
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
                   progress=show_progress(args), controls=args.controls, **execution_kwargs(args))
    print(r.summary())
    print_table(r.table, args.out, "component sets")
    print("\nwhich free choice the metric follows (Spearman over the sampled sets; permutation p, Holm across "
          "the choices):")
    print(r.sensitivity.to_string(index=False, formatters={"spearman": "{:+.2f}".format, "p_value": "{:.2g}".format,
                                                             "p_holm": "{:.2g}".format}))
    return 0


def _cmd_balance(args) -> int:
    from .design.balance import balance

    if args.finding is not None:
        return _cmd_balance_finding(args)
    for flag, given in (("--findings-csv", args.findings_csv), ("--objective-kind", args.objective_kind),
                        ("--search-policies", args.search_policies)):
        if given is not None:
            raise CliError(f"{flag} goes with --finding ID")
    if not args.param or not args.objective:
        raise CliError(f"balance needs --finding ID, or --param PATH=RANGE and --objective 'metric = target' (missing "
                       f"{'--param' if not args.param else '--objective'})")
    objective = args.objective[0] if len(args.objective) == 1 else args.objective
    r = balance(args.game_name, dict(args.param), objective, budget=args.budget or 20000, players=args.players,
                policies=_policies(args.policies), rng=args.seed, components=args.components,
                first_games=args.first_games or 200, verify_games=args.verify_games or 4000, combine=args.combine,
                tolerance=args.tolerance, game_kwargs=_options(args.option, "--option") or None,
                progress=show_progress(args), controls=args.controls, **execution_kwargs(args))
    return _print_balance(r, args)


def _print_balance(r, args) -> int:
    print(r.summary())
    if r.objectives is not None and len(r.objectives) > 1:
        print(r.objectives.to_string(index=False, float_format=lambda x: f"{x:.4f}"))
    h = r.history
    if len([c for c in h.columns if c not in ("round", "games", "estimate", "se", "distance")]) <= 4:
        print(h.to_string(index=False, float_format=lambda x: f"{x:.4f}"))
    else:  # a joint search names every path it may move: too wide to read
        n = h["round"].nunique()
        print(f"search history: {len(h)} rows over {n} round{'s' if n != 1 else ''}, one column per path "
              "(BalanceResult.history in Python)")
    if args.out is not None:
        print(f"proposed components written to {r.to_toml(args.out)}"
              + ("" if r.reached else " (marked: not meeting the objective)")
              + ": only the changed values, load with --components")
    return 0


def _cmd_balance_finding(args) -> int:
    """``balance --finding ID``: the finding's objective, games and lever (``--param`` replaces the lever)."""
    from .design._balance_finding import balance_finding, finding_candidate, finding_players, resolve_finding
    from .engine.levers import NoLever

    if args.controls:
        raise CliError("--controls goes with --param and --objective (balance --finding uses the game's controls "
                       "by itself wherever its players give them)")
    for flag, given in (("--objective", args.objective), ("--players", args.players), ("--option", args.option),
                        ("--combine", args.combine != "max")):
        if given:
            raise CliError(f"{flag} does not go with --finding (the finding gives the objective and its games)")
    try:  # before any work: the finding and its lever
        ref = resolve_finding(args.game_name, args.finding, args.findings_csv)
        finding_candidate(ref, dict(args.param or {}), args.objective_kind or "pay")
    except NoLever as exc:
        raise CliError(f"--finding {args.finding}: no lever: {exc}" if args.objective_kind != "win" else
                       f"--objective-kind win: {exc}") from None
    except ValueError as exc:
        text = str(exc)
        if text.startswith("findings_csv:"):
            raise CliError("--findings-csv" + text[len("findings_csv"):]) from None
        raise CliError(f"--{text}" if text.startswith("finding ") else f"--finding {args.finding}: {text}") from None
    print(f"finding {ref.describe()}")
    search = _policies(args.search_policies) or "auto"
    searcher, judge = finding_players(args.game_name, ref.check.players, _policies(args.policies), search)
    if searcher:
        def who(p):
            return p if isinstance(p, str) else ",".join(p) if p else "the game's default players"

        print(f"searched with {who(searcher)}, verified with {who(judge)}"
              + (" (the game's cheaper search player; --search-policies none: every game by the verifying players)"
                 if search == "auto" else ""))
    r = balance_finding(args.game_name, ref.id, findings_csv=args.findings_csv, parameters=dict(args.param or {}),
                        budget=args.budget, first_games=args.first_games, verify_games=args.verify_games,
                        policies=_policies(args.policies), rng=args.seed, components=args.components,
                        tolerance=args.tolerance, progress=show_progress(args),
                        objective_kind=args.objective_kind or "pay", search_policies=search,
                        **execution_kwargs(args))
    return _print_balance(r, args)
