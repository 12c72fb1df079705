"""``pyradice-lab raft ...``: tilt distributions, simulated games, a transcript, calibration from a CSV.

Examples (shell)::

    pyradice-lab raft tilt --duration 1.5 --edge south --trials 100000
    pyradice-lab raft simulate --players 4 --games 5000 --seed 1 --variant sinking --flag-depth 25
    pyradice-lab raft play --players 3 --seed 7
    pyradice-lab raft calibrate tilts.csv
    pyradice-lab raft advise --game-seed 7 --turn 3
    pyradice-lab raft advise --position my_turn.toml
"""

from __future__ import annotations

import argparse

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

#: the help text of ``pyradice-lab raft --help``
DESCRIPTION = ("Rocking Raft: the stochastic tilt model, simulated games, transcripts and calibration of the "
               "tilt model from measured tilts.")


def _float_arg(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None


def add_cli(sub) -> None:
    """Add the raft subcommands to ``sub``, the ``pyradice-lab raft`` subcommand set (the shared ones, such as ``components`` and ``compare``, are there already)."""

    t = sub.add_parser("tilt", help="distribution of the gems that fall in one tilt",
                       description="Monte Carlo distribution of the gems falling in one tilt, beside the exact model "
                                   "probability. Example: pyradice-lab raft tilt --duration 1.5 --edge south")
    t.add_argument("--duration", type=_float_arg, required=True, help="intended tilt time in seconds")
    t.add_argument("--edge", default="north", help="edge lowered: north, east, south or west (default: north)")
    t.add_argument("--finger", default=None, help="finger space of that edge (default: centre, else the first)")
    t.add_argument("--trials", type=positive_int, default=100_000, help="tilts simulated (default: %(default)s)")
    t.add_argument("--players", type=positive_int, default=4, help="gems in play for this many players (default 4)")
    t.add_argument("--layout", choices=["setup", "one-setup", "reference"], default="setup",
                   help="setup (default): averaged over random rules setups, what the first tilt of a game faces; "
                        "one-setup: one rules setup drawn with --seed; reference: the fixed layout (one ordinary gem "
                        "per outer space, the rest in the centre) used for measuring real tilts")
    t.add_argument("--seed", type=nonneg_int, default=0, help="root seed (default: %(default)s)")
    t.add_argument("--top", type=positive_int, default=15, help="outcomes to list (default: %(default)s)")
    components_arg(t)
    t.set_defaults(func=_cmd_tilt)

    s = sub.add_parser("simulate", help="simulate many games and summarise them",
                       description="Simulate games and print seat scores, win rates, game length and gifts with 95% CIs."
                                   " Example: pyradice-lab raft simulate --players 4 --games 5000 --seed 1")
    s.add_argument("--players", type=positive_int, default=3)
    s.add_argument("--games", type=positive_int, default=1000, help="games (default: %(default)s)")
    s.add_argument("--variant", choices=["standard", "sinking"], default="standard")
    s.add_argument("--policies", type=comma_names, default="greedy",
                   help="one policy or a comma-separated list per seat: exact (the strongest), greedy, aim, random, "
                        "fixed:<seconds>")
    s.add_argument("--skills", default=None, help="timing noise per seat, comma-separated (default: the model's)")
    s.add_argument("--flag-depth", type=nonneg_int, default=None,
                   help="cards above the pirate flag (default: the rules' 10/15/20 for 2/3/4 players)")
    s.add_argument("--discards-roll", action="store_true",
                   help="reading: unused black gems and leftovers may roll out of the centre (default: they stay)")
    s.add_argument("--sunk-not-replaced", action="store_true",
                   help="reading: a sunk lifeboat is not replaced (default: replaced like a completed one)")
    s.add_argument("--seed", type=nonneg_int, default=0)
    s.add_argument("--out", type=output_file(".csv"), default=None, help="CSV path for the per-game table")
    s.add_argument("--no-progress", action="store_true", help="no progress bar")
    components_arg(s)
    execution_args(s, what="blocks of games")
    s.set_defaults(func=_cmd_simulate)

    g = sub.add_parser("play", help="play one game and print its transcript",
                       description="Play one seeded game by the readable rules and print the transcript.")
    g.add_argument("--players", type=positive_int, default=3)
    g.add_argument("--variant", choices=["standard", "sinking"], default="standard")
    g.add_argument("--policies", type=comma_names, default="greedy", help="as for simulate")
    g.add_argument("--seed", type=nonneg_int, default=0)
    components_arg(g)
    g.set_defaults(func=_cmd_play)

    c = sub.add_parser("calibrate", help="fit the tilt model to measured tilts (CSV)",
                       description="Fit the tilt model to a CSV of measured tilts: columns edge, finger, duration, "
                                   "fallen [, centre_after, gems] (or mean_fallen, tilts). Prints the fitted parameters "
                                   "with standard errors and 95% CIs, and the goodness of fit.")
    c.add_argument("csv", help="the measurements")
    c.add_argument("--fit", default=None, help="comma-separated parameters to fit (default: what the data identify)")
    c.add_argument("--bootstrap", type=nonneg_int, default=0, help="parametric bootstrap refits (default 0)")
    c.add_argument("--seed", type=nonneg_int, default=0, help="seed for the bootstrap")
    components_arg(c)
    c.set_defaults(func=_cmd_calibrate)

    a = sub.add_parser("advise", help="rank every tilt of a turn by its exact expected points",
                       description="Rank every edge, finger space and hold time of the turn at hand by the exact "
                                   "expected value of its outcome, and show the exact distribution of the gems "
                                   "fallen for the best tilt. The position comes from a file (--position, TOML or "
                                   "JSON; format in docs/guide/raft.md) or from turn K of a seeded game. Examples: "
                                   "pyradice-lab raft advise --game-seed 7 --turn 3; "
                                   "pyradice-lab raft advise --position my_turn.toml")
    position_source_args(a)
    a.add_argument("--players", type=positive_int, default=3, help="players of that game (default: 3)")
    a.add_argument("--variant", choices=["standard", "sinking"], default="standard", help="variant of that game")
    a.add_argument("--policies", type=comma_names, default="exact",
                   help="the policies that played that game (default: exact)")
    a.add_argument("--after-tilt", action="store_true",
                   help="the position after that turn's tilt: how to load the gems that fell")
    a.add_argument("--objective", choices=["points", "completed"], default="points",
                   help="points: the exact player's value (default); completed: points completed this turn")
    a.add_argument("--policy", choices=["exact", "sampled"], default="exact",
                   help="exact sums (default) or Monte Carlo estimates with CIs")
    a.add_argument("--samples", type=positive_int, default=2000, help="tilts per option for --policy sampled")
    a.add_argument("--seed", type=nonneg_int, default=0, help="seed of --policy sampled (default: 0)")
    a.add_argument("--top", type=positive_int, default=10, help="options to show (default: %(default)s)")
    a.add_argument("--outcomes", type=nonneg_int, default=8,
                   help="most likely outcomes of the best tilt to show (default: %(default)s)")
    components_arg(a)
    a.set_defaults(func=_cmd_advise)


def _policies(text: str):
    parts = [x.strip() for x in text.split(",") if x.strip()]
    if not parts:
        raise ValueError("policies must name at least one policy")
    return parts[0] if len(parts) == 1 else parts


def _cmd_tilt(args) -> int:
    import numpy as np
    import pandas as pd

    from ..engine.rng import spawn
    from .components import load_components
    from .layouts import RandomSetup, reference_state, setup_state
    from .odds import expected_fallen, setup_mean_state
    from .physics import check_edge, default_params
    from .tilting import tilt_distribution

    comp = load_components(args.components)
    edge = check_edge(args.edge)
    fingers = comp.raft.fingers[edge]
    finger = args.finger if args.finger is not None else ("centre" if "centre" in fingers else fingers[0])
    layout_rng, tilt_rng = spawn(args.seed, 2)
    if args.layout == "setup":
        state = RandomSetup(args.players, comp)
        shown = setup_mean_state(state, default_params().spill)
        where = "mean raft over random setups"
    else:
        state = reference_state(args.players, comp) if args.layout == "reference" else \
            setup_state(args.players, layout_rng, components=comp)
        shown = state
        where = "raft before"
    label = {"setup": "random rules setups", "one-setup": "one rules setup", "reference": "the reference layout"}
    df = tilt_distribution(state, edge, finger, args.duration, trials=args.trials, rng=tilt_rng, components=comp)
    print(f"Rocking Raft tilt: {edge} edge, {finger} finger, {args.duration:g} s, {args.trials:,} tilts from "
          f"{label[args.layout]} ({args.players} players' gems), seed {args.seed}")
    print(f"{where} (gems per space, rows north to south): " +
          " / ".join(" ".join(f"{x:.3g}" for x in shown.sum(axis=1)[r * 3:r * 3 + 3]) for r in range(3)))
    totals = np.repeat(df["total"].to_numpy(), df["count"].to_numpy())
    mean, se = totals.mean(), totals.std(ddof=1) / np.sqrt(len(totals))
    exact = expected_fallen(state, edge, finger, args.duration, components=comp).sum()
    print(f"gems fallen: mean {mean:.3f} +/- {se:.3f} (95% CI {mean - 1.96 * se:.3f}..{mean + 1.96 * se:.3f}); "
          f"exact model mean {exact:.3f}")
    shown = df.head(args.top).copy()
    with pd.option_context("display.width", 160, "display.max_columns", 20):
        print(shown.drop(columns=["count"]).to_string(index=False, float_format=lambda v: f"{v:.4f}"))
    if len(df) > args.top:
        print(f"... {len(df) - args.top} more outcomes (probability {df['p'].iloc[args.top:].sum():.4f} in all)")
    return 0


def _cmd_advise(args) -> int:
    import pandas as pd

    from .advisor import advise, load_position, position_from_game
    from .components import load_components

    comp = load_components(args.components)
    pos, where = position_from_args(
        args, turn_hint="1 = the first turn", components=comp, load=load_position,
        from_game=lambda: position_from_game(args.game_seed, args.turn, players=args.players, variant=args.variant,
                                             policies=_policies(args.policies), after_tilt=args.after_tilt,
                                             components=comp),
        after=" after the tilt" if args.after_tilt else "")
    df = advise(pos, objective=args.objective, policy=args.policy, rng=args.seed, samples=args.samples)
    print(f"Position: {where}")
    print(pos.text())
    if df.attrs.get("decision") == "load":
        print(f"\nobjective: {df.attrs['objective']}; every loading of the gems that fell, exact")
        with pd.option_context("display.width", 200, "display.max_colwidth", 100):
            print(df[["action", "value", "regret", "engine"]].head(args.top).to_string(
                index=False, float_format=lambda v: f"{v:.3f}"))
        if len(df) > args.top:
            print(f"... {len(df) - args.top} more loadings (--top)")
        print(f"then: {df['then'].iloc[0]}\nwhy: {df['why'].iloc[0]}")
        print("(engine = the rules engine's loader: most points completed, then slots filled, then ordinary gems)")
        return 0
    print(f"\nobjective: {df.attrs['objective']}; values {'exact' if args.policy == 'exact' else 'sampled'}"
          + (f" ({args.samples:,} tilts per option, seed {args.seed})" if args.policy == "sampled" else ""))
    cols = ["edge", "finger", "duration", "value"] + (["se"] if args.policy == "sampled" else []) + \
        ["regret"] + [c for c in df.columns if c.startswith("p_complete_")] + ["gems_fallen", "gift_points"]
    with pd.option_context("display.width", 200, "display.max_colwidth", 90):
        print(df[cols].head(args.top).to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    if len(df) > args.top:
        print(f"... {len(df) - args.top} more options (--top)")
    lifeboats = ", ".join(f"p_complete_{i} = {b}" for i, b in enumerate(df.attrs["lifeboats"], start=1))
    if lifeboats:
        print(f"({lifeboats})")
    for i, r in enumerate(df.head(min(3, args.top)).itertuples(index=False)):
        print(f"{i + 1}. {r.edge} {r.finger} {r.duration:g} s: {r.why}\n   then: {r.then}")
    if pos.played is not None:
        e, f, d = pos.played
        line = played_line(df, (df["edge"] == e) & (df["finger"] == f) & (df["duration"] == d), f"{e} {f} {d:g} s")
        if line:
            print(line)
    top = df.iloc[0]
    out = df.attrs["outcomes"]
    if args.outcomes:
        print(f"\nbest tilt {top['edge']} {top['finger']} {top['duration']:g} s: exact distribution of the gems "
              f"fallen ({len(out)} outcomes), most likely first")
        with pd.option_context("display.width", 200, "display.max_colwidth", 90):
            print(out.head(args.outcomes).to_string(index=False, float_format=lambda v: f"{v:.4f}"))
        totals = out.groupby("total")["p"].sum()
        print("P(total fallen): " + ", ".join(f"{int(t)}: {p:.3f}" for t, p in totals.items() if p >= 0.0005))
    return 0


def _cmd_simulate(args) -> int:
    import pandas as pd

    from ..engine.cliargs import execution_kwargs, show_progress
    from ..engine.stats import mean_estimate, proportion_estimate
    from .sim import simulate_games, start_player_table

    skills = None if args.skills is None else [float(x) for x in args.skills.split(",")]
    df = simulate_games(args.games, args.players, args.variant, _policies(args.policies), rng=args.seed,
                        skills=skills[0] if skills and len(skills) == 1 else skills,
                        progress=show_progress(args), flag_depth=args.flag_depth, discards_roll=args.discards_roll,
                        replace_sunk=not args.sunk_not_replaced, components=args.components,
                        **execution_kwargs(args))
    readings = [r for r, on in (("discarded gems may roll", args.discards_roll),
                                ("sunk lifeboats not replaced", args.sunk_not_replaced)) if on]
    from ..engine.assumptions import Assumptions, components_label, start_player_lines
    from .sim import outcomes

    out = outcomes(df)
    print(Assumptions.build("raft", components=components_label("raft", args.components),
                            out=out, rng=args.seed, games=args.games, variant=args.variant,
                            **{"flag under": None if args.flag_depth is None else f"{args.flag_depth} cards",
                               "readings": ", ".join(readings) or None}).line())
    rows = []
    for p in range(args.players):
        sc = mean_estimate(df[f"score_{p}"]) if args.games > 1 else None
        win = proportion_estimate(int((df["winner"] == p).sum()), args.games)
        rows.append({"seat": p + 1, "policy": df.attrs["policies"][p],
                     "mean_score": sc.value if sc else float(df[f"score_{p}"].iloc[0]),
                     "se": sc.se if sc else float("nan"), "ci_low": sc.ci_low if sc else float("nan"),
                     "ci_high": sc.ci_high if sc else float("nan"), "lifeboats": df[f"boats_{p}"].mean(),
                     "win_rate": win.value, "win_ci_low": win.ci_low, "win_ci_high": win.ci_high})
    with pd.option_context("display.width", 200):
        print(pd.DataFrame(rows).to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    pos = start_player_table(df)
    first = pos.iloc[0]
    print("\n".join(start_player_lines(out, decimals=3)))
    print(f"start player's win share with ties split {first.win_share:.3f}, score {first.mean_score:.2f} (margin "
          f"over the others {first.score_margin:+.2f})")
    cols = ["position", "win_rate", "win_rate_ci_low", "win_rate_ci_high", "win_share", "mean_score", "score_margin",
            "score_margin_ci_low", "score_margin_ci_high"]
    with pd.option_context("display.width", 200):
        print("by turn position (1 = start player):")
        print(pos[cols].to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    tie = proportion_estimate(int(df["tie"].sum()), args.games)
    lines = [("turns per game", df["turns"]), ("rounds per game", df["rounds"]), ("winning score", df["winning_score"]),
             ("gems passed per game", df["gems_passed"]), ("points completed by gifts", df["gift_points"])]
    if args.variant == "sinking":
        lines.append(("lifeboats sunk per game", df["sunk"]))
    for name, col in lines:
        if args.games > 1:
            print(f"{name}: {mean_estimate(col):.4g}")
    print(f"shared wins: {tie:.3f}; deck ran out in {int(df['deck_exhausted'].sum())} games; "
          f"stopped by the turn cap: {int(df['truncated'].sum())}")
    if args.out:
        from ..engine.cliargs import write_csv

        out = write_csv(df, args.out)
        print(f"wrote {out}")
    return 0


def _cmd_play(args) -> int:
    from .rules import play_game

    print(play_game(args.players, args.variant, _policies(args.policies), rng=args.seed,
                    components=args.components).text)
    return 0


def read_observations(path):
    """The measurements CSV of ``raft calibrate`` as a DataFrame (``start`` parsed to tuples); every failure is a
    ValueError naming the file (a device, a pipe or a file above the input-file limit is refused unread)."""
    import io

    import pandas as pd

    from ..engine.limits import read_input_file

    try:
        raw = read_input_file(path, what="CSV of measurements")
    except OSError as exc:
        raise ValueError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path}: is not a CSV text file (not UTF-8 at byte {exc.start})") from None
    if not text.strip():
        raise ValueError(f"{path}: is empty; expected a CSV with a header row (see `raft calibrate --help`)")
    try:
        obs = pd.read_csv(io.StringIO(text))
    except (ValueError, pd.errors.ParserError) as exc:
        raise ValueError(f"{path}: is not a readable CSV ({' '.join(str(exc).split())})") from None
    if "start" in obs:
        try:
            obs["start"] = [tuple(int(x) for x in str(s).strip("()[] ").replace(" ", "").split(","))
                            for s in obs["start"]]
        except ValueError:
            raise ValueError(f"{path}: column 'start' must hold comma-separated integers such as (2,1,0)") from None
    return obs


def _cmd_calibrate(args) -> int:
    import pandas as pd

    from .calibration import calibrate

    obs = read_observations(args.csv)
    fit = None if args.fit is None else [x.strip() for x in args.fit.split(",") if x.strip()]
    try:
        res = calibrate(obs, fit=fit, bootstrap=args.bootstrap, rng=args.seed, components=args.components)
    except (ValueError, TypeError) as exc:  # a bad column or value of the file: name the file
        raise type(exc)(f"{args.csv}: {exc}") from None
    print(f"Rocking Raft tilt model fitted to {res.n_obs} rows (log-likelihood {res.loglik:.2f}, "
          f"{'converged' if res.converged else 'NOT converged: ' + res.message})")
    with pd.option_context("display.width", 160):
        print(res.table.to_string(index=False, float_format=lambda v: f"{v:.4g}"))
        print("\ngoodness of fit (mean gems fallen per condition):")
        print(res.goodness.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    return 0
