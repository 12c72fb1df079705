"""``pyradice-lab purramid ...``: odds, advise, simulate, play and layout subcommands."""

from __future__ import annotations

from ..engine.cliargs import (
    CliError,
    components_arg,
    execution_args,
    execution_kwargs,
    int_list,
    nonneg_int,
    output_file,
    policies_arg,
    policy_names,
    position_source_args,
    positive_int,
    show_progress,
    write_csv,
)

__all__ = ["add_cli", "DESCRIPTION", "parse_spaces"]

#: the help text of ``pyradice-lab purramid --help``
DESCRIPTION = ("Purramid (Knizia): exact burst odds, the exact press-your-luck advisor, and fast simulation of "
               "turns and games.")


def parse_spaces(text: str | None, option: str) -> list[tuple[int, int]]:
    """``"1,1 1,2"`` (or ``"1,1;1,2"``: row,col numbered from 1, row 1 at the bottom) -> the 0-based ``(row, col)``
    pairs ``[(0, 0), (0, 1)]``; a CliError naming ``option``."""
    if not text:
        return []
    out = []
    for tok in text.replace(";", " ").split():
        parts = tok.split(",")
        try:
            if len(parts) != 2:
                raise ValueError
            r, c = int(parts[0]), int(parts[1])
            if r < 1 or c < 1:
                raise ValueError
            out.append((r - 1, c - 1))
        except ValueError:
            raise CliError(f"{option} expects spaces as row,col numbered from 1 (row 1 at the bottom, column 1 at "
                           f"the left), separated by spaces, e.g. \"1,1 1,2\"; got {tok!r}") from None
    return out


def _objective(text: str):
    if text in ("tiles", "auto"):
        return text
    name, _, k = text.partition(":")
    if name == "at_least" and k:
        try:
            return ("at_least", int(k))
        except ValueError:
            pass
    raise CliError(f"--objective must be 'tiles', 'at_least:K' or 'auto' (with --hands), got {text!r}")


def _value_label(objective_label: str) -> str:
    """The value column's header, by objective: expected tiles this turn, or a probability."""
    return "expected tiles" if objective_label == "tiles" else objective_label   # "P(at least K tiles)"


def _cmd_odds(args) -> int:
    from .odds import burst_probability

    if not args.targets:
        raise CliError("--targets must list at least one number, e.g. --targets 6,8")
    p = burst_probability(args.dice, args.targets, exact=True)
    print(f"P(burst) with {args.dice} dice on targets {','.join(map(str, sorted(set(args.targets))))}: "
          f"{p.numerator}/{p.denominator} = {100 * float(p):.4f}%")
    print(f"P(at least one placement)                : {100 * (1 - float(p)):.4f}%")
    return 0


#: the keyword form's options and their defaults (a position file or a seeded game's turn holds these)
_STATE_OPTIONS = {"layout": "A", "covered": "", "placed": "", "dice_left": None, "roll": None, "yarn": 0,
                  "turn_dice": 5, "hands": None, "seat": None, "no_yarn": False}


def _cmd_advise(args) -> int:
    if args.position is not None or args.game_seed is not None:
        return _advise_position(args)
    if args.turn is not None or args.dump_position is not None:
        raise CliError(f"{'--turn' if args.turn is not None else '--dump-position'} goes with --position FILE or "
                       f"--game-seed S --turn K")
    return _advise_keywords(args)


def _advise_position(args) -> int:
    """``advise --position FILE`` or ``--game-seed S --turn K``: the whole table (every hand and yarn token,
    the winner and gold placed); the objective defaults to ``auto``, the race the hands make."""
    from ..engine.positions import played_line, position_from_args
    from .advisor import advise, load_position, position_from_game
    from .components import load_components

    given = [k for k, d in _STATE_OPTIONS.items() if getattr(args, k) != d]
    if given:
        raise CliError(f"{', '.join('--' + k.replace('_', '-') for k in given)}: the position holds the table; "
                       f"give either a position (--position or --game-seed) or the turn state options, not both")
    comp = load_components(args.components)
    pos, where = position_from_args(
        args, turn_hint="1 = the first turn, as the transcript numbers them", components=comp, load=load_position,
        from_game=lambda: position_from_game(args.game_seed, args.turn, players=args.players,
                                             policies=policy_names(args.policies), components=comp))
    objective = "auto" if args.objective is None else args.objective
    df = advise(pos, objective=_objective(objective), yarn_value=args.yarn_value, bonus=args.bonus)
    print(f"Position: {where}")
    print(pos.text())
    print(f"\nobjective {df['objective'].iloc[0]}; bonus turns valued {df['bonus'].iloc[0]}")
    if "race" in df.attrs:
        a = df.attrs["race"]
        print(f"Race (hands {', '.join(map(str, pos.hands))}, yarn {', '.join(map(str, pos.yarn))}; player "
              f"{pos.to_move} to move): {a.label}: {a.reason}")
    _print_options(df, args.top)
    if pos.played is not None:
        kind = pos.played[0]
        if kind == "place":
            hit = df["space"].apply(lambda sp: sp == pos.played[1]) & df["dice"].apply(
                lambda d: tuple(sorted(d)) == tuple(sorted(pos.played[2])))
        else:
            hit = df["action"] == kind
        line = played_line(df, hit, df.loc[hit, "action"].iloc[0] if hit.any() else kind)
        print(line or f"played in the game: {kind}")
    return 0


def _print_options(df, top: int) -> None:
    import pandas as pd

    label = _value_label(df["objective"].iloc[0])
    cols = ["action", "value", "burst_probability", "regret"] + (["then"] if "then" in df.columns else [])
    shown = df[cols].fillna("").head(top).rename(columns={"value": label})
    with pd.option_context("display.width", 160, "display.max_colwidth", 40):
        print(shown.to_string(index=False, float_format=lambda v: f"{v:.4f}"))
    if len(df) > top:
        print(f"... {len(df) - top} more options (--top)")
    if "then" in df.columns:
        print("(then = the best next step after that placement: stop, continue, or burst when no tiles can follow)")


def _advise_keywords(args) -> int:
    from .advisor import advise
    from .components import load_components, load_layout

    comp = load_components(args.components)
    L = load_layout(args.layout, comp)
    covered = parse_spaces(args.covered, "--covered")
    placed = parse_spaces(args.placed, "--placed")
    if placed and args.dice_left is None:
        raise CliError("--dice-left is required with --placed (a space can hold one or more dice, so the dice "
                       "still to roll cannot be inferred)")
    dice_left = args.turn_dice if args.dice_left is None else args.dice_left
    race = None
    if args.hands is not None:
        race = {"hands": args.hands, "seat": None if args.seat is None else args.seat - 1}  # --seat counts from 1
    elif args.seat is not None:
        raise CliError("--seat needs --hands (the tiles left in every player's hand, in turn order)")
    objective = args.objective if args.objective is not None else ("auto" if race else "tiles")
    if objective == "auto" and race is None:
        raise CliError("--objective auto needs --hands (the race state it reads)")
    if race is not None and race["seat"] is None:
        race["seat"] = 0
    df = advise(L, covered, placed, dice_left=dice_left, roll=args.roll, yarn=args.yarn, turn_dice=args.turn_dice,
                objective=_objective(objective), yarn_value=args.yarn_value, bonus=args.bonus,
                yarn_tokens=not args.no_yarn, components=comp, race=race)
    cov_m = L.mask_of(covered, "covered")
    pl_m = L.mask_of(placed, "placed")
    print(f"Board {L.name} (## covered, <..> dice this turn), top row first:")
    print(L.render(cov_m, pl_m))
    print(f"\n{dice_left} of {args.turn_dice} dice left, {args.yarn} yarn; roll: "
          f"{' '.join(map(str, args.roll)) if args.roll else '-'}; objective {df['objective'].iloc[0]}; "
          f"bonus turns valued {df['bonus'].iloc[0]}")
    if "race" in df.attrs:
        a = df.attrs["race"]
        print(f"Race (hands {', '.join(map(str, args.hands))}; player {race['seat'] + 1} to move): suggests "
              f"{a.label}: {a.reason}" + ("" if objective == "auto" else f" (you asked for {objective})"))
    _print_options(df, args.top)
    return 0


def _summary_table(df):
    import pandas as pd

    from ..engine.stats import mean_estimate, proportion_estimate

    n = len(df)
    players = int(df["players"].iloc[0])
    rows = []

    def add(name, est):
        rows.append({"quantity": name, "value": est.value, "se": est.se, "ci_low": est.ci_low,
                     "ci_high": est.ci_high})

    add("turns per game", mean_estimate(df["turns"]))
    for p in range(players):
        add(f"P(seat {p + 1} wins)" + (" (the start player)" if p == 0 else ""),
            proportion_estimate(int((df["winner"] == p).sum()), n))
    for p in range(players):
        add(f"mean score seat {p + 1}", mean_estimate(df[f"score_{p}"]))
    add("winner's gold tiles", mean_estimate(df["winner_gold"]))
    add("bursts per game", mean_estimate(df["bursts"]))
    add("bonus turns per game", mean_estimate(df["bonus_turns"]))
    add("yarn tokens won", mean_estimate(df["yarn_won"]))
    add("yarn tokens spent", mean_estimate(df["yarn_spent"]))
    for end in ("second_player_out", "gold_placed", "board_full", "turn_limit"):
        add(f"P(end: {end})", proportion_estimate(int((df["end"] == end).sum()), n))
    for p in range(players):
        if f"expected_{p}" in df.columns and df[f"expected_{p}"].notna().all():
            add(f"seat {p + 1} (optimal): realised - exact turn values per game",
                mean_estimate(df[f"value_{p}"] - df[f"expected_{p}"]))
    return pd.DataFrame(rows)


def _cmd_simulate(args) -> int:
    import time

    from .sim import simulate_games

    pols = policy_names(args.policies)
    t0 = time.perf_counter()
    df = simulate_games(args.games, players=args.players, layout=args.layout, policies=pols, rng=args.seed,
                        progress=show_progress(args), yarn_tokens=not args.no_yarn,
                        components=args.components, **execution_kwargs(args))
    dt = time.perf_counter() - t0
    from ..engine.assumptions import Assumptions, components_label, start_player_lines
    from .sim import outcomes

    out = outcomes(df)
    print(Assumptions.build("purramid", components=components_label("purramid", args.components),
                            out=out, rng=args.seed, games=args.games, side=args.layout,
                            yarn_tokens="off" if args.no_yarn else None).line() + f" ({dt:.1f} s)")
    print("\n".join(start_player_lines(out)))
    summ = _summary_table(df)
    print(summ.to_string(index=False, float_format=lambda v: f"{v:.4f}"))
    print("(se = standard error; ci = 95% confidence interval; seats are numbered from 1, seat 1 = the start player)")
    if args.out:
        write_csv(df, args.out)
        print(f"wrote {args.out}")
    return 0


def _cmd_play(args) -> int:
    from .rules import play_game

    pols = policy_names(args.policies)
    rec = play_game(args.players, args.layout, policies=pols, rng=args.seed, trace=True,
                    yarn_tokens=not args.no_yarn, components=args.components)
    print(rec.transcript)
    return 0


def _cmd_layout(args) -> int:
    from .components import default_layout_facts, load_layout

    L = load_layout(args.layout, args.components)
    print(f"Side {L.name}: {L.n_rows} rows, {L.n_spaces} spaces, capacity {L.capacity} tiles ({L.source})")
    if L.notes:
        print(L.notes)
    print(L.render())
    for fact, ok in default_layout_facts(L).items():
        print(f"  [{'x' if ok else ' '}] {fact}")
    return 0


def add_cli(sub) -> None:
    """Add the purramid subcommands to ``sub``, the ``pyradice-lab purramid`` subcommand set (the shared ones, such as ``components`` and ``compare``, are there already)."""

    q = sub.add_parser("odds", help="exact P(burst) for some dice and target numbers",
                       description="Exact chance that no subset of the dice sums to any target number. "
                                   "Example: pyradice-lab purramid odds --dice 3 --targets 6,8")
    q.add_argument("--dice", type=nonneg_int, required=True, help="number of dice rolled (0..8)")
    q.add_argument("--targets", type=int_list, required=True, help="comma-separated space numbers, e.g. 6,8")
    q.set_defaults(func=_cmd_odds)

    q = sub.add_parser("advise", help="rank the options of a turn exactly",
                       description="Rank stop/continue (without --roll) or every placement (with --roll). The "
                                   "turn comes from the options below, from a position file (--position, TOML or "
                                   "JSON; format in docs/guide/purramid.md: every hand and yarn token, the winner "
                                   "and gold placed) or from turn K of a seeded game. Examples: pyradice-lab "
                                   "purramid advise --layout A --covered \"1,1 1,2\" --placed \"2,1\" --dice-left "
                                   "2 --roll 3,4; pyradice-lab purramid advise --position my_turn.toml")
    position_source_args(q, turn_help="the turn of that game (1 = the first, as the transcript numbers them)",
                         position_help="a position file (.toml or .json): the whole table")
    q.add_argument("--players", type=int, choices=[2, 3, 4], default=4, help="players of that game (default: 4)")
    policies_arg(q, help="the policies that played that game (default: %(default)s)")
    q.add_argument("--layout", default="A", help="A, B, a side of --components or a layout .toml (default: A)")
    q.add_argument("--covered", default="",
                   help="covered spaces as \"row,col row,col ...\", numbered from 1 (row 1 at the bottom)")
    q.add_argument("--placed", default="", help="spaces holding this turn's dice, \"row,col ...\" from 1")
    q.add_argument("--dice-left", type=nonneg_int, default=None,
                   help="dice not yet placed (required with --placed; default: the turn dice)")
    q.add_argument("--roll", type=int_list, default=None, help="the dice just rolled, e.g. 3,4")
    q.add_argument("--yarn", type=nonneg_int, default=0, help="yarn tokens held (default: 0)")
    q.add_argument("--turn-dice", type=positive_int, default=5, help="dice this turn started with (default: 5)")
    q.add_argument("--objective", default=None,
                   help="tiles (expected tiles this turn, tokens at --yarn-value; the default), at_least:K (the "
                        "chance of at least K tiles this turn) or auto (what the race state suggests; the "
                        "default with --hands and with a position)")
    q.add_argument("--hands", type=int_list, default=None,
                   help="the race state: tiles left in every player's hand, in turn order, e.g. 5,3,12; the "
                        "advisor then suggests the objective and says why")
    q.add_argument("--seat", type=positive_int, default=None,
                   help="with --hands: the player to move, by position in --hands, 1 = the first (default: 1)")
    q.add_argument("--yarn-value", type=float, default=None, help="tiles per yarn token (default: from data)")
    q.add_argument("--bonus", choices=["auto", "exact", "approx", "none"], default="auto",
                   help="how bonus turns are valued (default: auto)")
    q.add_argument("--top", type=positive_int, default=15, help="options to show (default: 15)")
    q.add_argument("--no-yarn", action="store_true", help="play without yarn tokens (analysis switch)")
    components_arg(q)
    q.set_defaults(func=_cmd_advise)

    q = sub.add_parser("simulate", help="simulate whole games and print a summary with CIs",
                       description="Simulate complete games. Example: pyradice-lab purramid simulate "
                                   "--players 4 --games 10000 --seed 1 --policies greedy; the exact policy: "
                                   "--policies optimal --games 200 --jobs 2")
    q.add_argument("--players", type=int, choices=[2, 3, 4], default=4)
    q.add_argument("--games", type=positive_int, default=10_000)
    q.add_argument("--seed", type=nonneg_int, default=0)
    q.add_argument("--layout", default="A", help="A, B, a side of --components or a layout .toml (default: A)")
    policies_arg(q, help="greedy, stop_after:K, risk:P, optimal or optimal:at_least:K: one for every seat or one "
                         "per seat, comma-separated (default: %(default)s)")
    q.add_argument("--no-yarn", action="store_true", help="play without yarn tokens (analysis switch)")
    q.add_argument("--out", type=output_file(".csv"), default=None, help="write the per-game table to this CSV")
    q.add_argument("--no-progress", action="store_true")
    components_arg(q)
    execution_args(q, what="blocks of games")
    q.set_defaults(func=_cmd_simulate)

    q = sub.add_parser("play", help="play one game and print its transcript",
                       description="Play one seeded game with the readable rules engine and print every roll.")
    q.add_argument("--players", type=int, choices=[2, 3, 4], default=4)
    q.add_argument("--seed", type=nonneg_int, default=0)
    q.add_argument("--layout", default="A")
    policies_arg(q, help="as for simulate (optimal too; default: %(default)s)")
    q.add_argument("--no-yarn", action="store_true", help="play without yarn tokens (analysis switch)")
    components_arg(q)
    q.set_defaults(func=_cmd_play)

    q = sub.add_parser("layout", help="show a board side and check the rules' facts",
                       description="Print a board side (top row first) and the facts a default side respects.")
    q.add_argument("--layout", default="A")
    components_arg(q)
    q.set_defaults(func=_cmd_layout)
