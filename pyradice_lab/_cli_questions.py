"""One-call questions of every game (``pyradice-lab <game> compare-settings`` and the questions a game declares).

Private to :mod:`pyradice_lab.cli`:

- ``<game> compare-settings --a players=3 --b players=4 --metric start_player_edge``: a metric under two settings
  of the game, the difference b - a with its 95% CI, paired (common seeds) or independent
  (:func:`pyradice_lab.design.compare.compare_settings`);
- ``<game> <question> --policies P``: each question the game declares in its ``plan.py`` (``QUESTIONS``, the
  contract part ``questions``, :class:`pyradice_lab.engine.plan.Question`), e.g. how hard each goal token is under
  a chosen player: the game's experiment function, its table ranked by the estimate with its CI, the lowest and
  the highest row named, and the assumptions line.  A game is reached through the registry only.
"""

from __future__ import annotations

from .engine.cliargs import (
    PROG,
    CliError,
    comma_names,
    components_arg,
    execution_args,
    execution_kwargs,
    nonneg_int,
    output_file,
    positive_int,
    show_progress,
    write_csv,
)

__all__ = ["add_compare_settings", "add_questions", "answer_lines"]


# ------------------------------------------------------------------------------------------------ compare-settings
def _setting(pairs, flag: str) -> dict:
    from ._cli_designer import _options

    out = _options(pairs, flag)
    if not out:
        raise CliError(f"{flag} KEY=VALUE is required (e.g. {flag} players=3)")
    return out


def _cmd_compare_settings(args) -> int:
    from .design.compare import compare_settings

    pols = args.policies
    if pols is not None and "," in pols:
        pols = [p.strip() for p in pols.split(",")]
    res = compare_settings(args.game, _setting(args.a, "--a"), _setting(args.b, "--b"), args.metric,
                           games=args.games, policies=pols, components=args.components, rng=args.seed,
                           pairing=args.pairing, progress=show_progress(args), **execution_kwargs(args))
    print(res)
    if args.out:
        print(f"wrote {write_csv(res.to_frame(), args.out)}")
    return 0


def add_compare_settings(sub, name: str) -> None:
    """``<game> compare-settings``: a metric under two settings of the game (any simulate_games keywords)."""
    from ._cli_designer import _key_value

    c = sub.add_parser("compare-settings", help="how does a metric change between two settings (e.g. 3 and 4 "
                                                "players)? the difference with its 95%% CI",
                       description="Play the same components under setting --a and setting --b (keywords of the "
                                   "game's simulate_games, e.g. players=3) and estimate the difference b - a of a "
                                   "metric with its 95% CI: paired (the same seeds for game i of both settings; "
                                   "the variance reduction is printed) or independent (--pairing independent). "
                                   f"Example: {PROG} {name} compare-settings --a players=3 --b players=4 "
                                   "--metric start_player_edge --games 1000 --seed 1")
    for flag, side in (("--a", "a"), ("--b", "b")):
        c.add_argument(flag, dest=side, action="append", type=_key_value, default=None, metavar="KEY=VALUE",
                       help=f"a keyword of simulate_games for setting {side} (VALUE as JSON when it parses; "
                            "repeatable)")
    c.add_argument("--metric", default="start_player_edge", help="the metric (default: %(default)s; "
                                                                  f"'{name} compare --list-metrics' lists them)")
    c.add_argument("--games", type=positive_int, default=2000, help="games per setting (default: %(default)s)")
    c.add_argument("--policies", type=comma_names, default=None,
                   help="the players of both settings unless a setting sets policies (default: the report "
                        "player)")
    c.add_argument("--pairing", choices=("paired", "independent"), default="paired",
                   help="common seeds for game i of both settings (default) or independent seeds")
    components_arg(c)
    c.add_argument("--seed", type=nonneg_int, default=0, help="root seed (default: %(default)s)")
    c.add_argument("--out", type=output_file(".csv"), default=None, help="CSV path for the result table")
    c.add_argument("--no-progress", action="store_true", help="no progress bar")
    execution_args(c)
    c.set_defaults(func=_cmd_compare_settings, game=name)


# ------------------------------------------------------------------------------------------------ questions
def _ci(r, value: str, unit: str) -> str:
    lo, hi, v = r[f"{value}_ci_low"], r[f"{value}_ci_high"], r[value]
    if unit == "%":
        return f"{100 * v:.1f}% (95% CI {100 * lo:.1f}..{100 * hi:.1f})"
    return f"{v:.2f} {unit} (95% CI {lo:.2f}..{hi:.2f})".replace("  ", " ")


def answer_lines(df, q, policy: str) -> list[str]:
    """The ranked rows of a question's table (``df`` from its function) under ``policy``, lowest first, and the
    sentences naming the lowest and the highest (rows outside ``q.where`` listed after, not ranked)."""
    if "policy" in df:
        df = df[df["policy"] == policy]
    ranked = df[df[q.where].astype(bool)] if q.where else df
    others = df[~df[q.where].astype(bool)] if q.where else df.iloc[:0]
    ranked = ranked.sort_values(q.value, kind="stable")
    if ranked.empty:
        raise CliError(f"no row to rank under {policy}")

    def name(r) -> str:
        return " ".join(str(r[c]) for c in q.label)

    lines = [f"  {name(r):<28} {_ci(r, q.value, q.unit)}" for _, r in ranked.iterrows()]
    lines += [f"  {name(r):<28} not ranked ({q.where} is false)" for _, r in others.iterrows()]
    lo, hi = ranked.iloc[0], ranked.iloc[-1]
    lines.append(f"{q.first} under {policy}: {name(lo)}, {_ci(lo, q.value, q.unit)}")
    lines.append(f"{q.last} under {policy}: {name(hi)}, {_ci(hi, q.value, q.unit)}")
    overlap = lo[f"{q.value}_ci_high"] >= hi[f"{q.value}_ci_low"]
    if overlap:
        lines.append("note: the two intervals overlap: more games (--games) may be needed to tell them apart")
    return lines


def _cmd_question(args) -> int:
    from .engine import registry
    from .engine.assumptions import Assumptions, components_label
    from .engine.registry import lazy

    spec = registry.get_game(args.game)
    q = spec.part("questions")[args.question]
    module, _, fn = q.target.partition(":")
    run = lazy(f"{spec.package}.{module}:{fn}").resolve()
    policy = args.policies or spec.report_player
    if "," in policy:
        raise CliError(f"--policies: {args.question} plays one player in every seat, got {policy!r}")
    players = args.players or spec.default_players or 2
    from .engine.notices import announce, announcing

    announce(f"{args.game} {args.question}", args.games * q.runs, args.game, policy, players)
    with announcing():
        df = run(args.games, players, (policy,) if q.many else policy, rng=args.seed, components=args.components)
    told = Assumptions.build(args.game, components=components_label(args.game, args.components), players=players,
                             policies=policy, rng=args.seed, games=args.games)
    print(f"{spec.title}: {q.help}")
    print(told.line("  assumptions: "))
    print("\n".join(answer_lines(df, q, policy)))
    if args.out:
        print(f"wrote {write_csv(df, args.out)}")
    return 0


def add_questions(sub, name: str) -> None:
    """``<game> <question>`` for every question the game declares (``plan.QUESTIONS``); none: nothing added."""
    from .engine import registry

    spec = registry.get_game(name)
    for key, q in dict(spec.part("questions", None) or {}).items():
        c = sub.add_parser(key, help=q.help.replace("%", "%%"), description=f"{q.help}. Example: {PROG} {name} {key} --policies "
                                                          f"{spec.report_player} --games {q.games} --seed 1")
        c.add_argument("--policies", type=comma_names, default=None,
                       help=f"the player of every seat (default: the report player, {spec.report_player})")
        c.add_argument("--players", type=positive_int, default=None, help="players (default: the game's)")
        c.add_argument("--games", type=positive_int, default=q.games, help="games (default: %(default)s)")
        c.add_argument("--seed", type=nonneg_int, default=0, help="root seed (default: %(default)s)")
        components_arg(c)
        c.add_argument("--out", type=output_file(".csv"), default=None, help="CSV path for the whole table")
        c.set_defaults(func=_cmd_question, game=name, question=key)
