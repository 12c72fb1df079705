"""The strength subcommands of every game with players (``pyradice-lab <game> ladder|restricted``).

Private to :mod:`pyradice_lab.cli` (which adds them in :func:`~pyradice_lab.cli.game_subcommands`): the
Bradley-Terry ladder of a game's players and restricted play (:mod:`pyradice_lab.design.strength`).  What
``<game> ladder`` plays by default is the game's report plan (``spec.part("plan").cli_ladder``): every registered
policy, or the report's two players (the registry's ``heuristic_player`` and the report player at ``--players``,
``spec.report_player_at(players)``) for a game whose registered players make a long default run.
"""

from __future__ import annotations

from ._cli_designer import print_table
from .engine.cliargs import (
    execution_args,
    execution_kwargs,
    nonneg_int,
    output_file,
    positive_int,
    show_progress,
)

__all__ = ["add_strength", "report_ladder"]


def report_ladder(name: str) -> bool:
    """Whether ``<name> ladder`` plays the report's two players by default (the game's plan says
    ``cli_ladder="report"``) rather than every registered policy."""
    from .engine import registry

    plan = registry.get_game(name).part("plan", None)
    return plan is not None and plan.cli_ladder == "report"


def _cmd_ladder(args) -> int:
    from .design.strength import ladder

    pols = None if args.policies is None else [p.strip() for p in args.policies.split(",") if p.strip()]
    if pols is None and report_ladder(args.game_name):
        from .engine import registry

        spec = registry.get_game(args.game_name)
        pols = list(dict.fromkeys([spec.heuristic_player, spec.report_player_at(args.players)]))
    table = ladder(args.game_name, pols, players=args.players, games=args.games, rng=args.seed,
                   progress=show_progress(args), anchor=args.anchor, **execution_kwargs(args))
    a = table.attrs
    print(a["assumptions"].line())
    print(f"{args.game_name} ladder: {a['players']} players, {a['games_per_seating']} games per seating, seed "
          f"{args.seed}; Bradley-Terry ratings (Elo scale, {'mean 0' if a['anchor'] is None else a['anchor'] + ' = 0'}"
          f") with 95% CIs; win rate = win share over the policy's games (fair share {1 / a['players']:.3f})")
    print_table(table.drop(columns=["wins", "players"]), args.out, "policies")
    if a.get("separation"):
        print(f"note: {a['separation']}")
    print("\nhead to head (score of a against b, ties half; predicted: the ratings' score):")
    print(a["head_to_head"].to_string(index=False, float_format=lambda x: f"{x:.3f}"))
    flagged = a["nontransitive"]
    if flagged.empty:
        print("\nnon-transitive pairs: none (every pair's head to head agrees with the ratings within its 95% CI)")
    else:
        print(f"\nnon-transitive pairs: {len(flagged)} whose head to head contradicts the ratings beyond its 95% CI "
              "(order: the higher-rated policy loses the pair; size: the ratings' predicted score lies outside the "
              "pair's CI), so one head-to-head result cannot rank these policies over the field:")
        print(flagged.to_string(index=False, float_format=lambda x: f"{x:.3f}"))
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
    print_table(table.drop(columns=["opponent", "players", "fair_share"]), args.out, "restrictions")
    return 0


def add_strength(sub, name: str) -> None:
    """``<game> ladder`` and ``<game> restricted``, the same for every game (:mod:`pyradice_lab.design.strength`)."""
    from .engine import registry

    spec = registry.get_game(name)
    common = {"--games": dict(type=positive_int, default=1000, help="games per lineup / restriction (default: "
                                                                    "%(default)s)"),
              "--seed": dict(type=nonneg_int, default=0, help="root seed (default: %(default)s)"),
              "--players": dict(type=positive_int, default=spec.default_players or 2,
                                help="seats per game, 2..4 (default: %(default)s, the game's player count)"),
              "--out": dict(type=output_file(".csv"), default=None, help="CSV path for the table"),
              "--no-progress": dict(action="store_true", help="no progress bar")}
    p = sub.add_parser("ladder", help="rate policies against each other (Bradley-Terry, Elo scale, CIs)",
                       description=f"Play every pair of policies (3-4 players: every lineup, rotated through every "
                                   f"seat) and fit a Bradley-Terry ladder. Registered policies, weakest first: "
                                   f"{', '.join(spec.policies) or '-'}.")
    default = (f"the report's players at --players, {spec.heuristic_player} and the report player of that count "
               f"({spec.report_player} at {spec.default_players or 2})" if report_ladder(name) else "the registered ones")
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
