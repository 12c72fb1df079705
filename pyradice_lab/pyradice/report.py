"""The Pyradice section of the PDF report: experiments -> tables, figures and readings."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..report import ExperimentResult, ReportContext, Section, Text, save_experiment
from .analysis import (
    available_by_turn,
    available_distribution,
    card_balance,
    first_player_advantage,
    goal_rates,
    reconstructed_components,
    skill_values,
)
from .components import Setup

__all__ = ["report_section", "SIZES", "experiment_available", "experiment_goals", "experiment_skills",
           "experiment_cards", "experiment_first_player"]

#: Games per experiment: (quick, full).
SIZES = {"goals": (24, 400), "skills": (16, 200), "cards": (16, 250), "first2": (40, 1000), "first3": (10, 250),
         "first4": (8, 150)}
_POL = ("random_legal", "greedy", "lookahead")
_COLOURS = {"random_legal": "0.6", "greedy": "tab:blue", "lookahead": "tab:orange"}


def _fig(w=6.5, h=3.8):
    import matplotlib.pyplot as plt

    return plt.subplots(figsize=(w, h))


def _size(ctx: ReportContext, key: str) -> int:
    return SIZES[key][0 if ctx.quick else 1]


def _dead_text(levels: pd.DataFrame) -> str:
    """The reading's sentence on goal tokens that can never be met (exact check, Setup.dead_goals)."""
    dead = levels[~levels.attainable].drop_duplicates("level")
    if dead.empty:
        return ("Every token of this setup can be met on its level (checked exactly: some values and colours the "
                "box allows meet it), and every token of the catalogue on every level 1-5 (tested).")
    return ("Dead tokens: " + ", ".join(f"{r.goal} {r.goal_name} on level {r.level}" for r in dead.itertuples())
            + " can never be met (no level of that size meets it with the dice in the box): 5 VP nobody can score.")


def experiment_goals(n_games: int, seed) -> tuple[ExperimentResult, dict]:
    """P(goal met) per level and policy, with the blind exact baseline."""
    df, runs = goal_rates(n_games, 2, _POL, rng=seed, return_runs=True)
    lv = df[df.level > 0]
    fig, ax = _fig()
    width = 0.26
    for i, pol in enumerate(_POL):
        d = lv[lv.policy == pol]
        x = d.level.to_numpy() + (i - 1) * width
        ax.bar(x, d.p_met, width, color=_COLOURS[pol], label=pol,
               yerr=[d.p_met - d.p_met_ci_low, d.p_met_ci_high - d.p_met], capsize=2)
    d = lv[lv.policy == _POL[0]]
    ax.scatter(d.level, d.blind_exact, marker="_", s=400, color="k", zorder=5, label="blind, exact")
    ax.set_xticks(d.level, [f"L{lv_}\n{g} {n}" for lv_, g, n in zip(d.level, d.goal, d.goal_name)], fontsize=8)
    ax.set_ylabel("P(goal token met at the end)")
    ax.set_ylim(0, 1.05)
    ax.legend(fontsize=8, loc="upper left")
    ax.set_title("Goal tokens met per level (2 players, default setup)")
    sc = df[df.level == 0].set_index("policy")
    g, la = lv[lv.policy == "greedy"].set_index("level"), lv[lv.policy == "lookahead"].set_index("level")
    reading = (
        f"Each bar is the share of seats meeting the level's goal token at the end ({n_games} games per policy, "
        f"95% CI as whiskers); the black dash is the exact chance for a level filled blind (random dice, no skill). "
        f"Random play stays near the blind rate; deliberate choice of dice and skills lifts every goal far above it. The level-1 token C6 (all six "
        f"dice show 3 or 5) is the hard one: greedy, which only counts points already scored, meets it in "
        f"{g.loc[1, 'p_met']:.0%} of seats, while the lookahead, which values keeping goals reachable, meets it in "
        f"{la.loc[1, 'p_met']:.0%} (CI {la.loc[1, 'p_met_ci_low']:.0%}-{la.loc[1, 'p_met_ci_high']:.0%}). Mean score "
        f"per seat: random {sc.loc['random_legal', 'p_met']:.1f}, greedy {sc.loc['greedy', 'p_met']:.1f} "
        f"(±{1.96 * sc.loc['greedy', 'p_met_se']:.1f}), lookahead {sc.loc['lookahead', 'p_met']:.1f} "
        f"(±{1.96 * sc.loc['lookahead', 'p_met_se']:.1f}). A designer reading this: easy tokens (Zigzag, Distinct) "
        f"are near-certain for any deliberate player and barely separate players; value-set tokens on big levels "
        f"reward planning. " + _dead_text(lv))
    shown = df[["policy", "level", "goal", "goal_name", "p_met", "p_met_se", "p_met_ci_low", "p_met_ci_high",
                "blind_exact", "attainable"]].rename(columns={"p_met": "p_met (level 0: mean score)"})
    return ExperimentResult("pyradice_goal_rates", "Pyradice: P(goal token met) by level and policy", reading, shown,
                            fig, {"n_games": n_games}), runs


def experiment_available(n_games: int, seed, runs: dict) -> ExperimentResult:
    import matplotlib.pyplot as plt

    df = available_by_turn(n_games, 2, _POL, rng=seed, runs=runs)
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(9.5, 3.9), gridspec_kw={"width_ratios": [1.2, 1]})
    for pol in _POL:
        d = df[df.policy == pol]
        ax.plot(d.turn, d.available, color=_COLOURS[pol], label=pol)
        ax.fill_between(d.turn, d.available_ci_low, d.available_ci_high, color=_COLOURS[pol], alpha=0.25)
    d = df[(df.policy == "random_legal") & df.exact_mean.notna()]
    ax.scatter(d.turn, d.exact_mean, color="k", s=12, zorder=5, label="exact (random takes)")
    ax.set_xlabel("turn (both players, 42 turns)")
    ax.set_ylabel("dice available to take (mean, 95% CI)")
    ax.legend(fontsize=7)
    ax.set_title("Choices per turn (2 players)", fontsize=10)
    dist = available_distribution(runs["greedy"][1]["choices"], "greedy")
    grid = dist.pivot(index="n_available", columns="turn", values="p").fillna(0.0)
    im = ax2.imshow(grid.to_numpy(), origin="lower", aspect="auto", cmap="Blues",
                    extent=(0.5, grid.shape[1] + 0.5, grid.index.min() - 0.5, grid.index.max() + 0.5))
    fig.colorbar(im, ax=ax2, label="probability")
    ax2.set_xlabel("turn")
    ax2.set_ylabel("dice available")
    ax2.set_title("Distribution under greedy play", fontsize=10)
    fig.tight_layout()
    g = df[df.policy == "greedy"]
    peak = g.loc[g.available.idxmax()]
    inside = int(((d.exact_mean >= d.available_ci_low - 1e-12) & (d.exact_mean <= d.available_ci_high + 1e-12)).sum())
    reading = (
        f"The opening player always has exactly 4 choices (the top-layer corners) and the second exactly 5; the "
        f"black dots are exact expectations for uniformly random takes (dynamic programme over quarry occupancies); "
        f"the random-policy Monte Carlo line ({n_games} games) covers {inside} of the {len(d)} exact values with "
        f"its 95% band. Under greedy "
        f"play the choice peaks at {peak.available:.1f} dice around turn {int(peak.turn)} and shrinks towards the "
        f"end as the quarry empties (47 dice, 42 taken); the right panel shows the whole distribution per turn. The "
        f"quarry never deadlocks: the top-left remaining die of the highest non-empty layer always shows 3 faces. "
        f"Few choices early means the first picks are nearly forced, which matters for the first-player result.")
    wide = df.pivot(index="turn", columns="policy", values="available")[list(_POL)]
    half = df.assign(h=(df.available_ci_high - df.available_ci_low) / 2).pivot(index="turn", columns="policy",
                                                                               values="h")[list(_POL)]
    table = pd.concat([wide.add_prefix("mean_"), half.add_prefix("ci95_halfwidth_")], axis=1).reset_index()
    table["exact_mean_random_takes"] = df[df.policy == "random_legal"].set_index("turn").exact_mean.to_numpy()
    return ExperimentResult("pyradice_available_dice", "Pyradice: available dice per turn", reading, table, fig,
                            {"n_games": n_games})


def experiment_skills(n_games: int, seed) -> ExperimentResult:
    df = skill_values(n_games, 2, "greedy", rng=seed)
    fig, ax = _fig()
    ax.bar(df.skill + "\n" + df.skill_name, df.score_drop, color="tab:green",
           yerr=[df.score_drop - df.score_drop_ci_low, df.score_drop_ci_high - df.score_drop], capsize=3)
    ax.axhline(0, color="k", lw=0.8)
    ax.set_ylabel("VP lost per seat without the skill")
    ax.set_title("Value of each skill token (greedy, 2 players, paired seeds)")
    top = df.loc[df.score_drop.idxmax()]
    low = df.loc[df.score_drop.idxmin()]
    reading = (
        f"Each bar is the mean score per seat with the default board minus the same games replayed (same seeds) "
        f"with that level's skill token removed from every board, greedy play, {n_games} games, 95% CI whiskers. "
        f"The most valuable token is {top.skill} {top.skill_name} ({top.score_drop:.2f} VP, CI "
        f"{top.score_drop_ci_low:.2f}..{top.score_drop_ci_high:.2f}); the least is {low.skill} {low.skill_name} "
        f"({low.score_drop:.2f} VP, CI {low.score_drop_ci_low:.2f}..{low.score_drop_ci_high:.2f}"
        f"{': not distinguishable from zero' if low.score_drop_ci_low <= 0 else ''}). A6 is used once, on the very last turn, yet it rearranges the whole finished "
        f"pyramid for the cards; a skill used more often but on single dice is worth less. The rules' A3 (flip) "
        f"mostly pays through goal tokens (goals lost: {df.set_index('skill').loc['A3', 'goals_drop']:.2f} per "
        f"seat). All effects other than A3 are reconstructions, so read these as the balance of the reconstructed "
        f"tokens.")
    shown = df[["level", "skill", "skill_name", "score_drop", "score_drop_se", "score_drop_ci_low",
                "score_drop_ci_high", "goals_drop", "goals_drop_se", "score_with", "score_without"]]
    return ExperimentResult("pyradice_skill_values", "Pyradice: value of each skill token", reading, shown, fig,
                            {"n_games": n_games})


def experiment_cards(n_games: int, seed) -> ExperimentResult:
    df = card_balance(n_games, 2, "greedy", rng=seed)
    fig, ax = _fig()
    colours = ["tab:red" if s == "rules" else "tab:purple" for s in df.source]
    ax.bar(df.card, df.mean_points, color=colours,
           yerr=[df.mean_points - df.mean_points_ci_low, df.mean_points_ci_high - df.mean_points], capsize=3)
    ax.errorbar(df.card, df.mean_points, yerr=df.sd_points, fmt="none", ecolor="0.5", lw=6, alpha=0.3)
    ax.set_ylabel("points per seat (bar: mean with 95% CI; grey: ±1 SD)")
    ax.set_title("Objective card balance (greedy, 2 players; red: rules text, purple: reconstructed)")
    ax.tick_params(axis="x", labelsize=8)
    hi, lo = df.iloc[0], df.iloc[-1]
    reading = (
        f"Points a seat earns from each objective card under greedy play, pooled over three card line-ups "
        f"({n_games} games each; a card appearing in two line-ups has twice the games), discs random per game. "
        f"The strongest card is {hi.card} ({hi.mean_points:.1f} VP per seat, SD {hi.sd_points:.1f}), the weakest "
        f"{lo.card} ({lo.mean_points:.1f} VP, SD {lo.sd_points:.1f}). Big scores a point per die while Many and "
        f"Cluster are all-or-nothing (P(0 points) {df.set_index('card').loc['Many', 'p_zero']:.0%} for Many): a "
        f"designer could double Big's rate or flatten Many's table. The spreads (SD) say how much a card decides "
        f"games: a high-SD card is a swing card. Many's and Height's tables and all purple cards are "
        f"reconstructions consistent with the rules' example score (7, 9, 12 and 1 VP).")
    shown = df[["card", "source", "mean_points", "mean_points_se", "mean_points_ci_low", "mean_points_ci_high",
                "sd_points", "p_zero", "max_points", "n_games"]]
    return ExperimentResult("pyradice_card_balance", "Pyradice: objective card balance", reading, shown, fig,
                            {"n_games": n_games})


def experiment_first_player(sizes: dict, seed) -> ExperimentResult:
    seq = np.random.SeedSequence(seed.entropy, spawn_key=seed.spawn_key) if isinstance(seed, np.random.SeedSequence) \
        else np.random.SeedSequence(seed)
    parts = []
    for i, players in enumerate((2, 3, 4)):
        child = np.random.SeedSequence(seq.entropy, spawn_key=tuple(seq.spawn_key) + (i,))
        parts.append(first_player_advantage(sizes[players], (players,), "greedy", rng=child))
    df = pd.concat(parts, ignore_index=True)
    fig, ax = _fig()
    for players, marker in ((2, "o"), (3, "s"), (4, "^")):
        d = df[df.players == players]
        ax.errorbar(d.position + (players - 3) * 0.08, d.win_share, yerr=[d.win_share - d.win_share_ci_low,
                    d.win_share_ci_high - d.win_share], fmt=marker + "-", capsize=3, label=f"{players} players")
        ax.hlines(1 / players, 0.7, players + 0.3, colors="0.5", linestyles=":")
    ax.set_xlabel("turn position (1 = first player)")
    ax.set_ylabel("win share (ties split)")
    ax.set_xticks([1, 2, 3, 4])
    ax.legend(fontsize=8)
    ax.set_title("First-player advantage (greedy; dotted: fair share)")
    two = df[(df.players == 2) & (df.position == 1)].iloc[0]
    reading = (
        f"Win share by turn position (a shared win counts 1/k to each winner), greedy play, "
        f"{sizes[2]} / {sizes[3]} / {sizes[4]} games for 2 / 3 / 4 players, 95% CIs. With 2 players the first "
        f"player wins {two.win_share:.1%} (CI {two.win_share_ci_low:.1%}-{two.win_share_ci_high:.1%}) against a "
        f"fair 50%, and scores {two.score:.1f} VP on average; the interval "
        f"{'excludes' if two.win_share_ci_low > 0.5 or two.win_share_ci_high < 0.5 else 'includes'} the fair share. "
        f"Going first means the first pick of every round from a quarry that opens slowly (4, then 5 choices) and "
        f"the first shot at each freshly exposed die, while the last seat picks from the leftovers of every round. "
        f"If the advantage is confirmed, a designer might compensate later seats (e.g. a bonus VP for the last "
        f"seat, or the last seat winning ties).")
    shown = df[["players", "position", "win_share", "win_share_se", "win_share_ci_low", "win_share_ci_high",
                "fair_share", "score", "score_se", "n_games"]]
    return ExperimentResult("pyradice_first_player", "Pyradice: first-player advantage", reading, shown, fig,
                            {"games": dict(sizes)})


def report_section(ctx: ReportContext) -> Section:
    root = ctx.seed_for("pyradice")
    seeds = root.spawn(6)
    items: list = []
    setup = Setup.default()
    items.append(Text(
        "Pyradice is a dice-drafting game: each turn a player takes a die whose at least 3 faces are visible from a "
        "3-layer quarry (47 dice for 2 players, 92 for 3-4), places it unchanged on level 1 or above two placed "
        "dice of their 21-space pyramid, and may use the skill token of that level on another die. Goal tokens "
        "(5 VP per level whose dice all meet it) and four objective cards with random colour discs score the "
        "finished pyramid. Everything below is simulated with the compiled engine, which replays the readable "
        "rules move for move (checked in the test suite); exact numbers come from enumeration.\n\n"
        f"Default setup: {setup.describe()}.\n\n"
        "Policies: random_legal (uniform legal choices), greedy (the die, space and skill use that maximise the "
        "score the pyramid would have if the game ended now, random tie-break) and lookahead (greedy plus "
        "5 x fit^empty VP for every unfinished level whose goal the placed dice still allow).",
        heading="Pyradice: what is modelled"))
    goals, runs = experiment_goals(_size(ctx, "goals"), seeds[0])
    avail = experiment_available(_size(ctx, "goals"), seeds[1], runs)
    skills = experiment_skills(_size(ctx, "skills"), seeds[2])
    cards = experiment_cards(_size(ctx, "cards"), seeds[3])
    first = experiment_first_player({2: _size(ctx, "first2"), 3: _size(ctx, "first3"), 4: _size(ctx, "first4")},
                                    seeds[4])
    for res in (avail, goals, skills, cards, first):
        save_experiment(res, ctx.out_dir)
        items.append(res)
    comp = reconstructed_components()
    items.append(Text(
        "The rules text describes only skill A3 (flip: v -> 7-v), goal C6 (every die shows 3 or 5), and the cards "
        "Many, Height, Pairs (4 VP per isolated pair of touching matching dice) and Big (1 VP per matching die "
        "showing 4-6). Everything below is a documented reconstruction in pyradice_lab/pyradice/data/*.toml, "
        "replaceable by a designer's file (load_components(folder)); each token or card names a small registered "
        "function.\n\n" + "\n".join(f"- {c} {n}: {d}" for c, n, d in comp.itertuples(index=False)),
        heading="Pyradice: reconstructed components"))
    items.append(Text(
        "- Goal recesses sit beside levels 1-5 (the single top die has none), matching the rules' example score "
        "with five goal values.\n"
        "- Availability is the face count of the rules, applied literally: a die with 3 free sides may be taken "
        "even if a die rests on it (the rules give no stability rule).\n"
        "- Goal tokens may go on any level 1-5 (rules); every reconstructed token can be met on every level (checked "
        "exactly): D6 is 'no two side-by-side dice share a colour', because 'all colours different' could never be "
        "met on level 1 (6 dice, 5 colours).\n"
        "- First player: roll-off, ties re-roll among the tied (12 rounds dealt in advance); start-player numbers "
        "are by turn position (position 1 = each game's start player), never by seat.\n"
        "- Not modelled: players choosing token sides or cards together (a setup is given or drawn at random); "
        "physical dexterity (dice falling) and table talk.",
        heading="Pyradice: interpretations and what is not modelled"))
    trials = {k: _size(ctx, k) for k in SIZES}
    return Section("Pyradice", items, seed=ctx.seed_label("pyradice"), trials=trials)
