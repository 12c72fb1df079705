"""``pyradice-lab meerkat ...``: odds, score, simulate, play."""

from __future__ import annotations

import argparse

from ..cli import (
    CliError,
    comma_names,
    game_subcommands,
    int_list,
    nonneg_int,
    output_file,
    positive_int,
    show_progress,
    write_csv,
)

__all__ = ["add_cli", "summarise"]


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
        df = automa_placement_table()
        wide = df.pivot_table(index=["face", "tile"], columns="count", values="probability", fill_value=0.0)
        print("automa placement distribution P(tile, count | automa die face); 1+1 tile pairs are rerolled")
        print(wide.round(4).to_string())
        return 0
    reroll = not args.no_reroll
    if args.tile is None:
        print(f"P(can place at least N meerkats on the tile) {'with' if reroll else 'without'} the optional reroll")
        print(placement_table(reroll=reroll).round(4).to_string())
        return 0
    p = placement_odds_exact(args.tile, args.count, reroll=reroll)
    what = "the queen" if args.count == "queen" else f"at least {args.count} meerkat{'s' if args.count != 1 else ''}"
    print(f"P(place {what} on tile {args.tile}, {'with' if reroll else 'no'} reroll) = {p} = {float(p):.6f}")
    return 0


def _cmd_score(args) -> int:
    from .components import default_components
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
    values = tuple(args.values) if args.values else default_components().tile(args.tile).values
    pts = score_tile(args.counts, queens, values, reverse=args.reverse, bonus=args.bonus)
    print(f"tile {args.tile} values {'/'.join(map(str, values))}{' reverse' if args.reverse else ''}"
          f"{f' +{args.bonus}' if args.bonus else ''}")
    for i, (c, p) in enumerate(zip(args.counts, pts)):
        q = " + queen" if queens and queens[i] else ""
        print(f"  player {i}: {c} meerkat{'s' if c != 1 else ''}{q} -> {p} points")
    return 0


def summarise(df, n_seats: int):
    """Per-seat win rates (ties split) and mean scores with SE and 95% CI, from a simulate_games frame."""
    import numpy as np
    import pandas as pd

    from ..stats import mean_estimate

    rows = []
    for s in range(n_seats):
        share = np.where(df["winner"] == s, 1.0, 0.0)
        tied = df["winner"] == -1
        if tied.any():  # split shared wins among the seats with the top score
            top = df[[f"score_{k}" for k in range(n_seats)]].max(axis=1)
            n_top = sum((df[f"score_{k}"] == top).astype(int) for k in range(n_seats))
            share = share + np.where(tied & (df[f"score_{s}"] == top), 1.0 / n_top, 0.0)
        w = mean_estimate(share)
        sc = mean_estimate(df[f"score_{s}"].to_numpy(float))
        rows.append({"seat": s, "policy": df[f"policy_{s}"].iloc[0], **w.to_dict("win_rate"),
                     **sc.to_dict("mean_score")})
    return pd.DataFrame(rows)


def _cmd_simulate(args) -> int:
    from .sim import simulate_games

    automa = args.automa if args.automa is not None else args.players <= 2  # rules: 2p with the automa
    policies = _policy_list(args.policy)
    policies = policies * args.players if len(policies) == 1 else policies
    df = simulate_games(args.games, players=args.players, automa=automa, policies=policies, rng=args.seed,
                        progress=show_progress(args))
    n = args.players + (1 if automa else 0)
    summary = summarise(df, n)
    print(f"{args.games} games, {args.players} players{' + automa' if automa else ''}, seed {args.seed}; "
          f"mean turns {df['turns'].mean():.1f}, shared wins {(df['winner'] == -1).mean():.3f}, "
          f"hazards per game {(df['hawk'] + df['fire'] + df['jackal']).mean():.2f}")
    shown = summary[["seat", "policy", "win_rate", "win_rate_ci_low", "win_rate_ci_high", "mean_score",
                     "mean_score_se"]]
    print(shown.to_string(index=False, float_format=lambda v: f"{v:.4f}"))
    if args.out:
        write_csv(df, args.out)
        print(f"wrote {args.out}")
    return 0


def _cmd_play(args) -> int:
    from .sim import play_game

    policies = _policy_list(args.policy)
    policies = policies * args.players if len(policies) == 1 else policies
    automa = args.automa if args.automa is not None else args.players <= 2
    text, _ = play_game(players=args.players, automa=automa, policies=policies, rng=args.seed)
    print(text)
    return 0


def add_cli(subparsers) -> None:
    """Add ``pyradice-lab meerkat`` with its sub-commands."""
    sub = game_subcommands(subparsers, "meerkat", "Meerkat Kingdom: exact placement odds, the majority scoring "
                                                  "kernel and whole-game simulation (2-4 players, optional automa).")

    q = sub.add_parser("odds", help="exact placement odds",
                       description="Exact probability that a turn's dice allow placing meerkats on a tile. "
                                   "Example: pyradice-lab meerkat odds --tile 7 --count 2")
    q.add_argument("--tile", type=int, default=None, help="desert tile 3..12 (default: the whole table)")
    q.add_argument("--count", type=_count, default=1, help="1, 2, 3 or queen (default: 1)")
    q.add_argument("--no-reroll", action="store_true", help="without the optional reroll")
    q.add_argument("--automa", action="store_true", help="the automa's placement distribution instead")
    q.set_defaults(func=_cmd_odds)

    q = sub.add_parser("score", help="score one tile",
                       description="Majority points on one tile (ties cancel, a queen counts 2.5). "
                                   "Example: pyradice-lab meerkat score --tile 6 --counts 3,3,2,1")
    q.add_argument("--tile", type=int, required=True, help="desert tile 3..12 (its values from the components)")
    q.add_argument("--counts", type=int_list, required=True, help="meerkats per player, e.g. 3,3,2,1")
    q.add_argument("--queens", type=int_list, default=None, help="0/1 per player: queen on the tile")
    q.add_argument("--values", type=int_list, default=None, help="override the tile's values, e.g. 8,4,2")
    q.add_argument("--reverse", action="store_true", help="reverse scoring token on the tile")
    q.add_argument("--bonus", type=nonneg_int, default=0, help="add to every value (the +3 token)")
    q.set_defaults(func=_cmd_score)

    q = sub.add_parser("simulate", help="simulate whole games",
                       description="Simulate games and print win rates with 95%% CIs. "
                                   "Example: pyradice-lab meerkat simulate --players 3 --games 5000 --seed 1")
    q.add_argument("--players", type=positive_int, default=3, help="human players (default: 3)")
    q.add_argument("--automa", action=argparse.BooleanOptionalAction, default=None,
                   help="add the automa (default: on for 1-2 players, as the rules recommend; off for 3-4)")
    q.add_argument("--games", type=positive_int, default=2000, help="games (default: %(default)s)")
    q.add_argument("--policy", type=comma_names, default="greedy",
                   help="random_legal, greedy or heuristic; one for all or comma-separated per player")
    q.add_argument("--seed", type=nonneg_int, default=0, help="seed (default: 0)")
    q.add_argument("--out", type=output_file(".csv"), default=None, help="CSV path for the per-game table")
    q.add_argument("--no-progress", action="store_true", help="no progress bar")
    q.set_defaults(func=_cmd_simulate)

    q = sub.add_parser("play", help="print the transcript of one game",
                       description="Play one seeded game and print its transcript. "
                                   "Example: pyradice-lab meerkat play --players 2 --automa --seed 3")
    q.add_argument("--players", type=positive_int, default=2)
    q.add_argument("--automa", action=argparse.BooleanOptionalAction, default=None,
                   help="add the automa (default: on for 1-2 players)")
    q.add_argument("--policy", type=comma_names, default="greedy",
                   help="random_legal, greedy or heuristic (comma-separated per player)")
    q.add_argument("--seed", type=nonneg_int, default=0)
    q.set_defaults(func=_cmd_play)
