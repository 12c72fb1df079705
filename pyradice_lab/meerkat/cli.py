"""``pyradice-lab meerkat ...``: odds, score, simulate, play, advise."""

from __future__ import annotations

import argparse

from ..engine.cliargs import (
    CliError,
    comma_names,
    components_arg,
    execution_args,
    execution_kwargs,
    int_list,
    nonneg_int,
    output_file,
    policies_arg,
    position_source_args,
    positive_int,
    show_progress,
    write_csv,
)
from ..engine.positions import played_line, position_from_args

__all__ = ["add_cli", "DESCRIPTION", "summarise"]

#: the help text of ``pyradice-lab meerkat --help``
DESCRIPTION = ("Meerkat Kingdom: exact placement odds, the majority scoring kernel and whole-game simulation (2 "
               "players + automa, 3-4 players).")


def _count(text: str):
    if text == "queen":
        return "queen"
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected 1, 2, 3 or queen, got {text!r}") from None


def _policy_list(text: str) -> list[str]:
    return [p for p in text.replace(" ", "").split(",") if p]


def _cmd_odds(args) -> int:
    from .odds import automa_placement_table, placement_odds_exact, placement_table

    if args.automa:
        df = automa_placement_table(components=args.components)
        wide = df.pivot_table(index=["face", "tile"], columns="count", values="probability", fill_value=0.0)
        print("automa placement distribution P(tile, count | automa die face); 1+1 tile pairs are rerolled")
        print(wide.round(4).to_string())
        return 0
    reroll = not args.no_reroll
    if args.tile is None:
        print(f"P(can place at least N meerkats on the tile) {'with' if reroll else 'without'} the optional reroll")
        print(placement_table(reroll=reroll, components=args.components).round(4).to_string())
        return 0
    p = placement_odds_exact(args.tile, args.count, reroll=reroll, components=args.components)
    what = "the queen" if args.count == "queen" else f"at least {args.count} meerkat{'s' if args.count != 1 else ''}"
    print(f"P(place {what} on tile {args.tile}, {'with' if reroll else 'no'} reroll) = {p} = {float(p):.6f}")
    return 0


def _cmd_score(args) -> int:
    from .components import load_components
    from .scoring import score_tile

    if not args.counts:
        raise CliError("--counts must list each player's meerkats on the tile, e.g. 3,3,2,1")
    queens = None
    if args.queens is not None:
        if len(args.queens) != len(args.counts):
            raise CliError(f"--queens must give one 0/1 per player ({len(args.counts)}), got {len(args.queens)}")
        if any(q not in (0, 1) for q in args.queens):
            raise CliError(f"--queens must be 0 or 1 per player (queen on the tile or not), got {args.queens}")
        queens = [bool(q) for q in args.queens]
    if args.values is not None and (len(args.values) not in (2, 3) or min(args.values) < 0
                                    or list(args.values) != sorted(args.values, reverse=True)):
        raise CliError(f"--values must be high,low or high,mid,low (2 or 3 non-negative values, highest first), "
                       f"got {','.join(map(str, args.values)) or 'none'}")
    values = tuple(args.values) if args.values else load_components(args.components).tile(args.tile).values
    pts = score_tile(args.counts, queens, values, reverse=args.reverse, bonus=args.bonus,
                     reverse_reading=args.reverse_reading)
    rev = f" reverse ({args.reverse_reading} reading)" if args.reverse else ""
    print(f"tile {args.tile} values {'/'.join(map(str, values))}{rev}"
          f"{f' +{args.bonus}' if args.bonus else ''}")
    for i, (c, p) in enumerate(zip(args.counts, pts)):
        q = " + queen" if queens and queens[i] else ""
        print(f"  player {i}: {c} meerkat{'s' if c != 1 else ''}{q} -> {p} points")
    return 0


def summarise(df, n_seats: int):
    """Per-seat win rates (ties split) and mean scores with SE and 95% CI, from a simulate_games frame."""
    import pandas as pd

    from ..engine.stats import mean_estimate
    from .analysis import win_shares

    share = win_shares(df, n_seats)
    rows = []
    for s in range(n_seats):
        sc = mean_estimate(df[f"score_{s}"].to_numpy(float))
        rows.append({"seat": s, "policy": df[f"policy_{s}"].iloc[0], **_rate(share[:, s]),
                     **sc.to_dict("mean_score")})
    return pd.DataFrame(rows)


def _rate(x) -> dict:
    """A win rate with SE and the 95% t interval clipped to [0, 1]."""
    from ..engine.stats import mean_estimate

    d = mean_estimate(x).to_dict("win_rate")
    d["win_rate_ci_low"], d["win_rate_ci_high"] = max(0.0, d["win_rate_ci_low"]), min(1.0, d["win_rate_ci_high"])
    return d


def by_position(df, players: int, automa: bool):
    """Win rates and mean scores by turn position (1 = the start player; the automa plays last), with CIs.

    ``fair`` is the players' fair share: 1 / players of what the automa leaves them (NaN on the automa's row)."""
    import pandas as pd

    from ..engine.stats import mean_estimate
    from .analysis import turn_positions, win_shares

    n = players + automa
    share, pos = win_shares(df, n), turn_positions(df, players, automa)
    scores = df[[f"score_{s}" for s in range(n)]].to_numpy(float)
    human = (1.0 - share[pos == n - 1].mean()) / players if automa else 1.0 / n  # the players' fair share
    rows = []
    for k in range(n):
        bot = automa and k == n - 1
        rows.append({"position": k + 1, "who": "automa" if bot else ("start player" if k == 0 else "player"),
                     **_rate(share[pos == k]), "fair": float("nan") if bot else human,
                     **mean_estimate(scores[pos == k]).to_dict("mean_score")})
    return pd.DataFrame(rows)


def _readings(args) -> dict:
    return {"reverse_reading": args.reverse_reading, "jackal_reading": args.jackal_reading}


def _cmd_simulate(args) -> int:
    from .sim import setup_label, simulate_games

    policies = _policy_list(args.policies)
    policies = policies * args.players if len(policies) == 1 else policies
    df = simulate_games(args.games, players=args.players, automa=args.automa, policies=policies, rng=args.seed,
                        progress=show_progress(args), components=args.components, **_readings(args),
                        **execution_kwargs(args))
    automa = bool(df["automa"].iloc[0])
    n = args.players + automa
    from ..engine.assumptions import Assumptions, components_label, start_player_lines
    from .sim import outcomes

    out = outcomes(df)
    print(Assumptions.build("meerkat", components=components_label("meerkat", args.components),
                            out=out, rng=args.seed, games=args.games,
                            **{k.replace("_", " "): v for k, v in _readings(args).items() if v != "literal"}).line())
    print(f"{setup_label(args.players, automa)}; mean turns {df['turns'].mean():.1f}, shared wins "
          f"{(df['winner'] == -1).mean():.3f}, hazards per game {(df['hawk'] + df['fire'] + df['jackal']).mean():.2f}")
    fmt = {"float_format": lambda v: f"{v:.4f}", "index": False}
    pos = by_position(df, args.players, automa)
    print("\n".join(start_player_lines(out)))
    if args.players > 1:
        from .analysis import start_edge

        e = start_edge(df, args.players, automa)
        others = "the other player's" if args.players == 2 else "the other players' mean"
        print(f"start player's edge over {others} win share (paired per game, shared wins split"
              f"{'; the automa left out' if automa else ''}): {e.value:+.4f} (95% CI {e.ci_low:+.4f}..{e.ci_high:+.4f})")
    print("by turn position:")
    print(pos[["position", "who", "win_rate", "win_rate_ci_low", "win_rate_ci_high", "fair", "mean_score",
               "mean_score_se"]].to_string(**fmt))
    print("by seat (the start roll decides who starts, so seats are not turn positions):")
    summary = summarise(df, n)
    print(summary.assign(seat=summary["seat"] + 1)[["seat", "policy", "win_rate", "win_rate_ci_low",  # seats from 1
                                                    "win_rate_ci_high", "mean_score", "mean_score_se"]].to_string(**fmt))
    if args.out:
        write_csv(df, args.out)
        print(f"wrote {args.out}")
    return 0


def _cmd_play(args) -> int:
    from .sim import play_game

    policies = _policy_list(args.policies)
    policies = policies * args.players if len(policies) == 1 else policies
    text, _ = play_game(players=args.players, automa=args.automa, policies=policies, rng=args.seed,
                        components=args.components, **_readings(args))
    print(text)
    return 0


def _cmd_advise(args) -> int:
    import pandas as pd

    from .advisor import advise, load_position, position_from_game
    from .components import load_components

    policies = _policy_list(args.policies)
    policies = policies * args.players if len(policies) == 1 else policies
    comp = load_components(args.components)
    pos, where = position_from_args(
        args, turn_hint="a turn at which a player rolls, as the transcript numbers them", components=comp,
        load=load_position,
        from_game=lambda: position_from_game(args.game_seed, args.turn, players=args.players, automa=args.automa,
                                             policies=policies, after_reroll=args.after_reroll, components=comp),
        after=" after the reroll" if args.after_reroll else "")
    df = advise(pos, objective=args.objective, policy=args.policy)
    print(f"Position: {where}")
    print(pos.text())
    decision = df.attrs["decision"]
    print(f"\n{'which dice to keep for the reroll' if decision == 'reroll' else 'which action'} "
          f"(ranked by: {args.policy}, exact); value: {df.attrs['objective']}")
    cols = ["option", "value", "regret"] + (["p_better"] if decision == "reroll" else []) + ["why"]
    with pd.option_context("display.width", 200, "display.max_colwidth", 90):
        print(df[cols].head(args.top).to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    if len(df) > args.top:
        print(f"... {len(df) - args.top} more options (--top)")
    print(f"then: {df['then'].iloc[0]}")
    if pos.played is not None:
        hit = df["keep" if decision == "reroll" else "action"] == pos.played
        line = played_line(df, hit, df.loc[hit, "option"].iloc[0] if hit.any() else "")
        if line:
            print(line)
    return 0


def _reading_args(q) -> None:
    q.add_argument("--reverse-reading", choices=("literal", "extended"), default="literal",
                   help="reverse scoring token on tiles 9-12: literal (default, the rules text) or extended")
    q.add_argument("--jackal-reading", choices=("literal", "next_tile"), default="literal",
                   help="jackal vs a queen-protected tile: literal (default: lose nothing) or next_tile")


def add_cli(sub) -> None:
    """Add the meerkat subcommands to ``sub``, the ``pyradice-lab meerkat`` subcommand set (the shared ones, such as ``components`` and ``compare``, are there already)."""

    q = sub.add_parser("odds", help="exact placement odds",
                       description="Exact probability that a turn's dice allow placing meerkats on a tile. "
                                   "Example: pyradice-lab meerkat odds --tile 7 --count 2")
    q.add_argument("--tile", type=int, default=None, help="desert tile 3..12 (default: the whole table)")
    q.add_argument("--count", type=_count, default=1, help="1, 2, 3 or queen (default: 1)")
    q.add_argument("--no-reroll", action="store_true", help="without the optional reroll")
    q.add_argument("--automa", action="store_true", help="the automa's placement distribution instead")
    components_arg(q)
    q.set_defaults(func=_cmd_odds)

    q = sub.add_parser("score", help="score one tile",
                       description="Majority points on one tile (ties cancel, a queen counts 2.5). "
                                   "Example: pyradice-lab meerkat score --tile 6 --counts 3,3,2,1")
    q.add_argument("--tile", type=int, required=True, help="desert tile 3..12 (its values from the components)")
    q.add_argument("--counts", type=int_list, required=True, help="meerkats per player, e.g. 3,3,2,1")
    q.add_argument("--queens", type=int_list, default=None, help="0/1 per player: queen on the tile")
    q.add_argument("--values", type=int_list, default=None, help="override the tile's values, e.g. 8,4,2")
    q.add_argument("--reverse", action="store_true", help="reverse scoring token on the tile")
    q.add_argument("--reverse-reading", choices=("literal", "extended"), default="literal",
                   help="literal (default, the rules text): fewest takes the highest value, second fewest the "
                        "lowest; extended: the k-th fewest takes the k-th value")
    q.add_argument("--bonus", type=nonneg_int, default=0, help="add to every value (the +3 token)")
    components_arg(q)
    q.set_defaults(func=_cmd_score)

    q = sub.add_parser("simulate", help="simulate whole games",
                       description="Simulate games and print win rates with 95% CIs. "
                                   "Example: pyradice-lab meerkat simulate --players 3 --games 5000 --seed 1")
    q.add_argument("--players", type=positive_int, default=3, help="human players (default: 3)")
    q.add_argument("--automa", action=argparse.BooleanOptionalAction, default=None,
                   help="add the automa (default: the rules' setup, on for 2 players, off for 3-4; "
                        "--no-automa with 2 players and 1 player + automa are extensions, not in the rules)")
    _reading_args(q)
    q.add_argument("--games", type=positive_int, default=2000, help="games (default: %(default)s)")
    policies_arg(q, help="random_legal, heuristic, greedy, expectimax or mcts[:N] (search, N rollouts per "
                         "decision), optionally /restriction (e.g. heuristic/no_queen); one for every seat or one per "
                         "seat, comma-separated (default: %(default)s)")
    q.add_argument("--seed", type=nonneg_int, default=0, help="seed (default: 0)")
    q.add_argument("--out", type=output_file(".csv"), default=None, help="CSV path for the per-game table")
    q.add_argument("--no-progress", action="store_true", help="no progress bar")
    components_arg(q)
    execution_args(q, what="blocks of games")
    q.set_defaults(func=_cmd_simulate)

    q = sub.add_parser("play", help="print the transcript of one game",
                       description="Play one seeded game and print its transcript. "
                                   "Example: pyradice-lab meerkat play --players 2 --seed 3")
    q.add_argument("--players", type=positive_int, default=3, help="human players (default: 3)")
    q.add_argument("--automa", action=argparse.BooleanOptionalAction, default=None,
                   help="add the automa (default: the rules' setup, on for 2 players)")
    _reading_args(q)
    policies_arg(q, help="random_legal, heuristic, greedy, expectimax or mcts[:N], one for every seat or one per "
                         "seat, comma-separated (the transcript is replayed by the pure-Python engine: keep N "
                         "small, e.g. mcts:8; default: %(default)s)")
    q.add_argument("--seed", type=nonneg_int, default=0)
    components_arg(q)
    q.set_defaults(func=_cmd_play)

    q = sub.add_parser("advise", help="rank the reroll or the action of a turn (expectimax evaluation, exact)",
                       description="Rank which dice to keep for the optional reroll (exact over every reroll "
                                   "outcome) or, once the reroll is behind, every placement, queen and guardian, "
                                   "by a strong player's evaluation. The position comes from a file (--position, "
                                   "TOML or JSON; format in docs/guide/meerkat.md) or from turn K of a seeded game. "
                                   "Examples: pyradice-lab meerkat advise --game-seed 1 --turn 5; "
                                   "pyradice-lab meerkat advise --position my_turn.toml")
    position_source_args(q, turn_help="the turn of that game, from 1 (as its transcript numbers it)")
    q.add_argument("--players", type=positive_int, default=3, help="players of that game (default: %(default)s)")
    q.add_argument("--automa", action=argparse.BooleanOptionalAction, default=None,
                   help="the automa in that game (default: the rules' setup)")
    q.add_argument("--policies", type=comma_names, default="expectimax",
                   help="the policies that played that game (default: expectimax)")
    q.add_argument("--after-reroll", action="store_true", help="the action decision of that turn (after the reroll)")
    q.add_argument("--objective", choices=["margin", "points"], default="margin",
                   help="margin: own minus the others' expected points (default); points: own only")
    q.add_argument("--policy", choices=["expectimax_v2", "expectimax", "heuristic", "greedy"],
                   default="expectimax_v2", help="whose evaluation ranks the options (default: expectimax_v2, the "
                                                 "evaluation the report player mcts_v2 plays where it does not "
                                                 "search)")
    q.add_argument("--top", type=positive_int, default=8, help="options to show (default: %(default)s)")
    components_arg(q)
    q.set_defaults(func=_cmd_advise)
