"""``pyradice-lab pyradice ...``: quarry, simulate, play, odds, warmup, advise.

Examples::

    pyradice-lab pyradice advise --game-seed 3 --turn 40
    pyradice-lab pyradice advise --position my_turn.toml
"""

from __future__ import annotations

import time

from ..engine.cliargs import (
    comma_names,
    components_arg,
    execution_args,
    nonneg_int,
    output_file,
    position_source_args,
    positive_int,
)
from ..engine.positions import played_line, position_from_args

__all__ = ["add_cli", "DESCRIPTION"]

#: the help text of ``pyradice-lab pyradice --help``
DESCRIPTION = ("Pyradice: dice drafting from a 3-layer quarry into a 21-die pyramid.")


def _policies(text: str) -> list[str]:
    return [p.strip() for p in text.split(",") if p.strip()]


def _cmd_quarry(args) -> int:
    from .components import load_components
    from .geometry import check_players
    from .quarry import Quarry

    pal = load_components(args.components).palette
    copies = 1 if check_players(args.players) == 2 else 2
    q = Quarry.random(args.players, rng=args.seed, colours=dict(zip(pal.names, [c * copies for c in pal.counts])))
    print(f"Pyradice quarry, {args.players} players, seed {args.seed}: {q.remaining} dice, "
          f"{len(q.available())} available ([value colour] = available)")
    from .quarry import colour_letters

    print("colours: " + ", ".join(f"{x}={n}" for x, n in zip(colour_letters(q.colour_names), q.colour_names)))
    print(q.render())
    print("available:", ", ".join(str(p) for p in q.available()))
    return 0


def _setup(args):
    from .components import Setup, load_components

    comp = load_components(args.components)
    return Setup.random(rng=args.random_setup, components=comp) if args.random_setup is not None else \
        Setup.default(comp)


def _cmd_simulate(args) -> int:
    import pandas as pd

    from ..engine.cliargs import execution_kwargs, show_progress
    from ..engine.stats import mean_estimate
    from .sim import resolve_policies, simulate_games

    setup = _setup(args)
    pols = resolve_policies(_policies(args.policies) if "," in args.policies else args.policies, args.players)
    t0 = time.perf_counter()
    df, arr = simulate_games(args.games, args.players, setup, pols, rng=args.seed, progress=show_progress(args),
                             return_arrays=True, **execution_kwargs(args))
    dt = time.perf_counter() - t0
    from ..engine.assumptions import Assumptions, components_label, start_player_lines
    from .analysis import by_position, win_shares
    from .sim import outcomes

    out = outcomes(df)
    print(Assumptions.build("pyradice", components=components_label("pyradice", args.components),
                            out=out, rng=args.seed, games=args.games,
                            random_setup=args.random_setup).line() + f" ({dt:.2f} s, {args.games / dt:,.0f} games/s)")
    print(f"Setup: {setup.describe()}")
    print("\n".join(start_player_lines(out)) + "\n")

    share = win_shares(arr)
    rows = []
    for s in range(args.players):
        rows.append({"seat": s + 1, "policy": pols[s], "score": format(mean_estimate(df[f"score_s{s}"]), ".3g"),
                     "goal tokens met": f"{df[f'goals_s{s}'].mean():.2f}",
                     "win share": format(mean_estimate(share[:, s]), ".3g"),
                     "skills used": f"{df[f'skills_used_s{s}'].mean():.2f}"})
    with pd.option_context("display.width", 200, "display.max_colwidth", 60):
        print("By seat (seat k plays the k-th policy, from 1; shared wins split; the start seat is drawn by roll-off):")
        print(pd.DataFrame(rows).to_string(index=False))
        pos = by_position(arr)
        print("\nStart-player advantage, by turn position (1 = the start player of each game; shared wins split):")
        est = "{:.3g} ± {:.3g} (95% CI {:.3g}..{:.3g})".format
        print(pd.DataFrame({"position": pos["position"],
                            "win share": [est(*r) for r in pos[["win_share", "win_share_se", "win_share_ci_low",
                                                                 "win_share_ci_high"]].to_numpy()],
                            "fair share": [f"{f:.3g}" for f in pos.fair_share],
                            "score": [est(*r) for r in pos[["score", "score_se", "score_ci_low",
                                                             "score_ci_high"]].to_numpy()]}).to_string(index=False))
        print("\nP(goal token met) by level (all seats):")
        lv = []
        for k, code in enumerate(setup.goals):
            share_met = arr["met"][:, :, k].mean(axis=1)
            lv.append({"level": k + 1, "goal": code, "name": setup.catalogue.goals[code].name,
                       "P(met)": format(mean_estimate(share_met), ".3g")})
        print(pd.DataFrame(lv).to_string(index=False))
        print("\nObjective card points per seat:")
        cards = [{"card": c, "mean points": format(mean_estimate(arr["cards"][:, :, j].mean(axis=1)), ".3g")}
                 for j, c in enumerate(setup.cards)]
        print(pd.DataFrame(cards).to_string(index=False))
    print(f"\nShared wins: {int((df['winner'] == -1).sum())}; decided by goal tokens: "
          f"{int((df['decided_by'] == 'goal tokens').sum())}")
    print(f"Available dice per turn: mean {arr['choices'].mean():.2f}, min {arr['choices'].min()}, "
          f"max {arr['choices'].max()}")
    if args.out:
        from ..engine.cliargs import write_csv

        out = write_csv(df, args.out)
        print(f"wrote {out} ({len(df)} games)")
    return 0


def _cmd_play(args) -> int:
    from .sim import play_game

    pols = _policies(args.policies)
    rec = play_game(args.players, _setup(args), pols if len(pols) > 1 else pols[0], rng=args.seed)
    print(rec.transcript)
    return 0


def _cmd_odds(args) -> int:
    from .odds import available_exact

    df = available_exact(args.turns, args.players)
    df = df.assign(probability=df["probability"].astype(str), p=df["p"].round(6))
    print(f"Exact distribution of available dice per turn, {args.players} players, uniformly random takes:")
    print(df.to_string(index=False))
    return 0


def _cmd_warmup(args) -> int:
    from .sim import warmup

    print(f"pyradice kernels ready ({warmup():.1f} s CPU; numba caches them for later processes)")
    return 0


def _cmd_advise(args) -> int:
    import pandas as pd

    from .advisor import advise, load_position, position_from_game
    from .components import load_components

    pols = _policies(args.policies)
    pos, where = position_from_args(
        args, turn_hint="1 = the first turn, as the transcript's t01", components=load_components(args.components),
        load=load_position, from_game=lambda: position_from_game(args.game_seed, args.turn, players=args.players,
                                                                 policies=pols if len(pols) > 1 else pols[0],
                                                                 setup=_setup(args)))
    df = advise(pos, objective=args.objective, policy=args.policy, rng=args.seed, samples=args.samples,
                candidates=args.candidates)
    print(f"Position: {where}")
    print(pos.text())
    print(f"\nobjective: {df.attrs['objective']}; the {df.attrs['candidates']} best moves by the lookahead valuation "
          f"sampled by {args.policy} ({args.samples} rollouts each, seed {args.seed}; 95% CI)")
    cols = ["option", "value", "se", "ci_low", "ci_high", "regret", "lookahead", "vp_now"]
    with pd.option_context("display.width", 220, "display.max_colwidth", 90):
        print(df[cols].head(args.top).to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    if len(df) > args.top:
        print(f"... {len(df) - args.top} more moves (--top)")
    for i, r in enumerate(df.head(min(3, args.top)).itertuples(index=False)):
        print(f"{i + 1}. {r.option}: {r.why}\n   then: {r.then}")
    if pos.played is not None:
        hit = (df["take"] == pos.played[0]) & (df["place"] == pos.played[1]) & (df["skill"] == pos.played[2])
        line = played_line(df, hit, df.loc[hit, "option"].iloc[0] if hit.any() else "")
        if line:
            print(line)
    return 0


def add_cli(sub) -> None:
    """Add the pyradice subcommands to ``sub``, the ``pyradice-lab pyradice`` subcommand set (the shared ones, such as ``components`` and ``compare``, are there already)."""

    def players_arg(q):
        q.add_argument("--players", type=positive_int, default=2, help="2, 3 or 4 (default: %(default)s)")

    q = sub.add_parser("quarry", help="print a random quarry with the available dice marked",
                       description="Print a freshly set-up quarry; [v c] marks an available die.")
    q.add_argument("--seed", type=nonneg_int, default=0, help="seed (default: %(default)s)")
    players_arg(q)
    components_arg(q)
    q.set_defaults(func=_cmd_quarry)

    q = sub.add_parser("simulate", help="simulate many games and summarise them",
                       description="Simulate games (compiled kernels) and print scores, wins, goals and cards.")
    players_arg(q)
    q.add_argument("--games", type=positive_int, default=1000, help="number of games (default: %(default)s)")
    q.add_argument("--seed", type=nonneg_int, default=0, help="root seed (default: %(default)s)")
    q.add_argument("--policies", type=comma_names, default="greedy",
                   help="random_legal, greedy or lookahead; one, or one per seat comma-separated (default: greedy)")
    q.add_argument("--random-setup", type=nonneg_int, default=None, metavar="SEED",
                   help="use a random token/card setup drawn with this seed instead of the default")
    q.add_argument("--out", type=output_file(".csv"), default=None, help="CSV path for the per-game table")
    q.add_argument("--no-progress", action="store_true", help="no progress bar")
    components_arg(q)
    execution_args(q, what="blocks of games")
    q.set_defaults(func=_cmd_simulate)

    q = sub.add_parser("play", help="play one game and print its transcript",
                       description="Play one seeded game in the readable engine and print the transcript.")
    players_arg(q)
    q.add_argument("--seed", type=nonneg_int, default=0, help="seed (default: %(default)s)")
    q.add_argument("--policies", type=comma_names, default="greedy", help="one policy or one per seat, comma-separated")
    q.add_argument("--random-setup", type=nonneg_int, default=None, metavar="SEED",
                   help="use a random token/card setup drawn with this seed")
    components_arg(q)
    q.set_defaults(func=_cmd_play)

    q = sub.add_parser("warmup", help="compile the game kernels once (numba caches them on disk)",
                       description="Compile the compiled game engine now, so the first simulation of a new process "
                                   "starts at once (run once per machine, e.g. after installing).")
    q.set_defaults(func=_cmd_warmup)

    q = sub.add_parser("odds", help="exact distribution of available dice in the first turns",
                       description="Exact distribution of the number of available dice per turn (random takes).")
    players_arg(q)
    q.add_argument("--turns", type=positive_int, default=6, help="turns, 1..10 (default: %(default)s)")
    q.set_defaults(func=_cmd_odds)

    q = sub.add_parser("advise", help="rank the moves of a turn: which die, where, which skill use",
                       description="Rank every move of the turn at hand (die, space, skill use): the best by the "
                                   "lookahead valuation valued by the search player's rollouts, with 95 percent CIs. The "
                                   "position comes from a file (--position, TOML or JSON; format in "
                                   "docs/guide/pyradice.md) or from turn K of a seeded game. Examples: "
                                   "pyradice-lab pyradice advise --game-seed 3 --turn 40; "
                                   "pyradice-lab pyradice advise --position my_turn.toml")
    position_source_args(q)
    players_arg(q)
    q.add_argument("--policies", type=comma_names, default="flat_mc",
                   help="the policies that played that game (default: flat_mc)")
    q.add_argument("--random-setup", type=nonneg_int, default=None, metavar="SEED",
                   help="that game's random token/card setup seed")
    q.add_argument("--objective", choices=["search", "win_share"], default="search",
                   help="search: the search player's own rollout value (default); win_share: the win share of "
                        "rollouts played to the end of the game")
    q.add_argument("--policy", default="flat_mc",
                   help="the search player valuing the moves, spelled as for games (default: flat_mc; e.g. "
                        "flat_mc:16:lookahead); --samples replaces its budget")
    q.add_argument("--samples", type=positive_int, default=128, help="rollouts per candidate (default: %(default)s)")
    q.add_argument("--candidates", type=positive_int, default=None,
                   help="moves sampled (default: as many as the search player keeps)")
    q.add_argument("--seed", type=nonneg_int, default=0, help="seed of the rollouts (default: 0)")
    q.add_argument("--top", type=positive_int, default=10, help="moves to show (default: %(default)s)")
    components_arg(q)
    q.set_defaults(func=_cmd_advise)
