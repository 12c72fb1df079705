"""The Pyradice section of the PDF report: each experiment's question, its findings (computed from its table in
:mod:`.analysis`), how it was measured, a figure and a compact table (the CSV beside the report holds every
row).  Nothing here computes a conclusion."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..engine.figures import STYLE, axis_label, place_legend, plot_series, reference_line
from ..engine.findings import format_value
from ..engine.results import ExperimentResult, ReportContext, Section, Table, Text, save_experiment
from ..engine.stats import Z95
from .analysis import (
    _renamed_policy,
    available_by_turn,
    available_distribution,
    available_findings,
    card_balance,
    card_findings,
    first_player_advantage,
    first_player_findings,
    goal_findings,
    goal_rates,
    reconstructed_components,
    skill_findings,
    skill_values,
)
from .components import Setup

__all__ = ["report_section", "SIZES", "START_POLICIES", "experiment_available", "experiment_goals", "experiment_skills",
           "experiment_cards", "experiment_first_player"]

#: Games per experiment: (quick, full).
SIZES = {"goals": (24, 400), "skills": (16, 200), "cards": (16, 250), "first2": (40, 2000), "first3": (10, 250),
         "first4": (8, 150),
         # the report player's runs (flat_mc, sped up: about 0.04 / 0.09 / 0.11 CPU s per 2 / 3 / 4-player game,
         # measured 2026-12-02 on a busy machine; the skills run replays every game once per skill token): about
         # 70 CPU s in all, every sample at the minimum for a claim or above
         "skills_strong": (2, 100), "cards_strong": (2, 100), "first2_strong": (4, 300), "first3_strong": (2, 100),
         "first4_strong": (2, 100)}
_POL = ("random_legal", "greedy", "lookahead")
_COLOURS = {"random_legal": "0.6", "greedy": "tab:blue", "lookahead": "tab:orange"}


def _fig(w=6.7, h=2.8, ncols=1, **kw):
    import matplotlib
    import matplotlib.pyplot as plt

    with matplotlib.rc_context(STYLE):
        return plt.subplots(1, ncols, figsize=(w, h), **kw)


def _size(ctx: ReportContext, key: str) -> int:
    return SIZES[key][0 if ctx.quick else 1]


def _cell(v: float, lo: float, hi: float, pct: bool = False) -> str:
    """A table cell ``"52.1 (48.0..56.2)"`` with the digits its 95% interval supports (``pct``: x 100)."""
    k = 100.0 if pct else 1.0
    spread = k * (hi - lo) / 2
    f = [format_value(k * x, spread=spread) for x in (v, lo, hi)]
    return f[0] if lo == hi else f"{f[0]} ({f[1]}..{f[2]})"


def _cells(df: pd.DataFrame, col: str, pct: bool = False) -> list[str]:
    return [_cell(r[col], r[f"{col}_ci_low"], r[f"{col}_ci_high"], pct) for _, r in df.iterrows()]


def _result(name, title, question, method, table, fig, findings, display, n_games, **meta) -> ExperimentResult:
    return ExperimentResult(name, title, "", table, fig, {"n_games": n_games, **meta}, findings=findings,
                            question=question, display=display, method=method)


def _dead_text(levels: pd.DataFrame) -> str:
    """The method's sentence on goal tokens that can never be met (exact check, Setup.dead_goals)."""
    dead = levels[~levels.attainable].drop_duplicates("level")
    if dead.empty:
        return ("Every token of this setup can be met on its level (checked exactly), and every token of the "
                "catalogue on every level 1-5 (tested).")
    return ("Dead tokens (never met by any dice in the box): "
            + ", ".join(f"{r.goal} {r.goal_name} on level {r.level}" for r in dead.itertuples()) + ".")


def experiment_goals(n_games: int, seed) -> tuple[ExperimentResult, dict]:
    """P(goal met) per level and policy, with the blind exact baseline."""
    df, runs = goal_rates(n_games, 2, _POL, rng=seed, return_runs=True)
    lv = df[df.level > 0]
    fig, ax = _fig(6.7, 2.9)
    width = 0.26
    for i, pol in enumerate(_POL):
        d = lv[lv.policy == pol]
        x = d.level.to_numpy() + (i - 1) * width
        ax.bar(x, 100 * d.p_met, width, color=_COLOURS[pol], label=pol,
               yerr=[100 * (d.p_met - d.p_met_ci_low), 100 * (d.p_met_ci_high - d.p_met)], capsize=2)
    d = lv[lv.policy == _POL[0]]
    ax.scatter(d.level, 100 * d.blind_exact, marker="_", s=400, color="k", zorder=5, label="filled blind (exact)")
    ax.set_xticks(d.level, [f"L{lv_} {g}\n{n}" for lv_, g, n in zip(d.level, d.goal, d.goal_name)])
    ax.set_xlabel("level and its goal token")
    ax.set_ylabel(axis_label("seats meeting the goal", "%"))
    ax.set_ylim(0, 105)
    place_legend(ax)
    fig.tight_layout()
    wide = pd.DataFrame({"level": d.level.to_numpy(), "goal": [f"{g} {n}" for g, n in zip(d.goal, d.goal_name)],
                         "filled blind, % (exact)": (100 * d.blind_exact).round(2).to_numpy()})
    for pol in _POL:
        wide[f"{pol}, % (95% CI)"] = _cells(lv[lv.policy == pol], "p_met", pct=True)
    sc = df[df.level == 0]
    wide = pd.concat([wide, pd.DataFrame([{"level": "all", "goal": "mean score per seat (VP)",
                                           "filled blind, % (exact)": "",
                                           **{f"{pol}, % (95% CI)": _cells(sc[sc.policy == pol], "p_met")[0]
                                              for pol in _POL}}])], ignore_index=True)
    method = (f"Share of seats meeting each level's goal token at the end, {n_games} games per policy (2 players, "
              "default setup; both seats of a game share a quarry, so the per-game share of seats is the sample: "
              "t interval over games), beside the exact chance for a level filled blind (random dice, no choice, "
              "no skill). " + _dead_text(lv))
    return _result("pyradice_goal_rates", "P(goal token met) by level and policy",
                   "How often is each goal token met, and how much does deliberate play lift it?", method, df, fig,
                   goal_findings(df), wide, n_games), runs


def experiment_available(n_games: int, seed, runs: dict) -> ExperimentResult:
    df = available_by_turn(n_games, 2, _POL, rng=seed, runs=runs)
    fig, (ax, ax2) = _fig(6.7, 2.8, ncols=2, gridspec_kw={"width_ratios": [1.2, 1]})
    for pol in _POL:
        d = df[df.policy == pol]
        ax.plot(d.turn, d.available, color=_COLOURS[pol], label=pol)
        ax.fill_between(d.turn, d.available_ci_low, d.available_ci_high, color=_COLOURS[pol], alpha=0.25)
    d = df[(df.policy == "random_legal") & df.exact_mean.notna()]
    ax.scatter(d.turn, d.exact_mean, color="k", s=12, zorder=5, label="exact (random takes)")
    ax.set_xlabel(axis_label("turn (both players)"))
    ax.set_ylabel(axis_label("dice available", "dice"))
    place_legend(ax)
    dist = available_distribution(runs["greedy"][1]["choices"], "greedy")
    grid = dist.pivot(index="n_available", columns="turn", values="p").fillna(0.0)
    im = ax2.imshow(100 * grid.to_numpy(), origin="lower", aspect="auto", cmap="Blues",
                    extent=(0.5, grid.shape[1] + 0.5, grid.index.min() - 0.5, grid.index.max() + 0.5))
    fig.colorbar(im, ax=ax2, label=axis_label("share of games", "%"))
    ax2.set_xlabel(axis_label("turn, greedy play"))
    ax2.set_ylabel(axis_label("dice available", "dice"))
    ax2.grid(False)
    fig.tight_layout()
    turns = [t for t in sorted(df.turn.unique()) if t <= 6 or t % 4 == 2 or t == df.turn.max()]
    shown = pd.DataFrame({"turn": turns, "exact, random takes": [
        df[(df.policy == "random_legal") & (df.turn == t)].exact_mean.iloc[0] for t in turns]})
    shown["exact, random takes"] = [f"{v:.3f}" if np.isfinite(v) else "" for v in shown["exact, random takes"]]
    for pol in _POL:
        d = df[(df.policy == pol) & df.turn.isin(turns)]
        shown[f"{pol} (95% CI)"] = _cells(d, "available")
    method = (f"Mean number of dice a player may take on each turn (at least 3 faces visible), {n_games} games per "
              "policy, 2 players (47 dice, 42 taken), with 95% CIs; black dots: exact expectations for uniformly "
              "random takes (dynamic programme over quarry occupancies); right: the whole distribution per turn "
              "under greedy play. Table: the first six turns, then every fourth.")
    return _result("pyradice_available_dice", "Available dice per turn",
                   "How many dice can a player choose from, turn by turn?", method, df, fig,
                   available_findings(df), shown, n_games)


def experiment_skills(n_games: int, seed, policies: str = "greedy", *, policy=None) -> ExperimentResult:
    policy = _renamed_policy(policies, policy, "experiment_skills")  # policy=: the old name, for one release
    df = skill_values(n_games, 2, policy, rng=seed)
    fig, ax = _fig(6.0, 2.7)
    ax.bar(df.skill + "\n" + df.skill_name, df.score_drop, color="tab:green",
           yerr=[df.score_drop - df.score_drop_ci_low, df.score_drop_ci_high - df.score_drop], capsize=3)
    ax.axhline(0, color="k", lw=0.8)
    ax.set_xlabel("skill token")
    ax.set_ylabel(axis_label("points lost per seat without it", "VP"))
    fig.tight_layout()
    shown = pd.DataFrame({"level": df.level, "skill": df.skill + " " + df.skill_name,
                          "VP lost without it (95% CI)": _cells(df, "score_drop"),
                          "goals lost (95% CI)": [_cell(r.goals_drop, r.goals_drop - Z95 * r.goals_drop_se,
                                                        r.goals_drop + Z95 * r.goals_drop_se)
                                                  for r in df.itertuples()],
                          "score with / without (VP)": [f"{a:.1f} / {b:.1f}" for a, b in
                                                        zip(df.score_with, df.score_without)]})
    method = (f"Mean score per seat with the default board minus the same games replayed (same seeds, so the "
              f"comparison is paired) with that skill token (named as in restricted play: A6 Rebuild is no_skill_A6) removed from every board; {policy} play, 2 "
              f"players, {n_games} games. All skill effects other than A3 (flip) are reconstructions: these are the "
              "values of the reconstructed tokens.")
    return _result("pyradice_skill_values", "Value of each skill token", "What is each skill token worth?",
                   method, df, fig, skill_findings(df), shown, n_games)


def experiment_cards(n_games: int, seed, policies: str = "greedy", *, policy=None) -> ExperimentResult:
    policy = _renamed_policy(policies, policy, "experiment_cards")  # policy=: the old name, for one release
    df, points = card_balance(n_games, 2, policy, rng=seed, return_points=True)
    fig, ax = _fig(6.7, 2.8)
    colours = ["tab:red" if s == "rules" else "tab:purple" for s in df.source]
    ax.bar(df.card, df.mean_points, color=colours,
           yerr=[df.mean_points - df.mean_points_ci_low, df.mean_points_ci_high - df.mean_points], capsize=3)
    ax.errorbar(df.card, df.mean_points, yerr=df.sd_points, fmt="none", ecolor="0.5", lw=6, alpha=0.3)
    ax.set_xlabel("objective card (red: from the rules; purple: reconstructed)")
    ax.set_ylabel(axis_label("points per seat", "VP"))
    fig.tight_layout()
    shown = pd.DataFrame({"card": df.card, "source": df.source, "VP per seat (95% CI)": _cells(df, "mean_points"),
                          "SD (VP)": df.sd_points.round(2), "P(0 VP), %": (100 * df.p_zero).round(1),
                          "max (VP)": df.max_points, "games": df.n_games})
    method = (f"Points a seat earns from each objective card under {policy} play, 2 players, pooled over three card "
              f"line-ups ({n_games} games each; a card in two line-ups has twice the games), discs random per game. "
              "Bars: mean with 95% CI; grey: +-1 SD (a high-SD card swings games). Many's and Height's tables and "
              "all purple cards are reconstructions consistent with the rules' example score.")
    return _result("pyradice_card_balance", "Objective card balance", "Are the objective cards balanced?",
                   method, df, fig, card_findings(df, points), shown, n_games)


#: the players the start-player advantage is measured with: the greedy heuristic and the strongest compiled one
START_POLICIES = ("greedy", "lookahead")


def experiment_first_player(sizes: dict, seed, policies=START_POLICIES) -> ExperimentResult:
    """The start player's win share by turn position under each of ``policies`` (every seat); ``sizes``: games
    per player count, ``{players: n}``, or per policy, ``{policy: {players: n}}``."""
    per = {pol: sizes[pol] if pol in sizes else sizes for pol in policies}
    seq = np.random.SeedSequence(seed.entropy, spawn_key=seed.spawn_key) if isinstance(seed, np.random.SeedSequence) \
        else np.random.SeedSequence(seed)
    parts = []
    for i, players in enumerate((2, 3, 4)):
        child = np.random.SeedSequence(seq.entropy, spawn_key=tuple(seq.spawn_key) + (i,))
        for pol in policies:   # the same deals for every policy (common random numbers)
            parts.append(first_player_advantage(per[pol][players], (players,), pol, rng=child))
    df = pd.concat(parts, ignore_index=True)
    fig, axes = _fig(6.7, 2.8, ncols=len(policies), sharey=True)
    axes = np.atleast_1d(axes)
    for ax, pol in zip(axes, policies):
        for players, marker in ((2, "o"), (3, "s"), (4, "^")):
            d = df[(df.players == players) & (df.policy == pol)]
            plot_series(ax, d.position + (players - 3) * 0.08, 100 * d.win_share,
                        yerr=[100 * (d.win_share - d.win_share_ci_low), 100 * (d.win_share_ci_high - d.win_share)],
                        marker=marker, label=f"{players} players")
            reference_line(ax, [0.7, players + 0.3], [100 / players] * 2, ls=":")
        ax.set_title(f"{pol} play")
        ax.set_xlabel("turn position (1 = start player)")
        ax.set_xticks([1, 2, 3, 4])
    axes[0].set_ylabel(axis_label("win share, ties split", "%"))
    place_legend(axes[-1])
    fig.tight_layout()
    shown = df[df.position == 1]
    shown = pd.DataFrame({"players": shown.players, "policy": shown.policy,
                          "start player's win share, % (95% CI)": _cells(shown, "win_share", pct=True),
                          "fair share, %": (100 * shown.fair_share).round(1),
                          "start player's score, VP (95% CI)": _cells(shown, "score"), "games": shown.n_games})
    counts = "; ".join(f"{pol} {per[pol][2]} / {per[pol][3]} / {per[pol][4]}" for pol in policies)
    method = (f"Win share by turn position (position 1 = each game's start player, drawn by roll-off; a shared win "
              f"counts 1/k to each winner), every seat playing {' or '.join(policies)} (the same deals for each), "
              f"games for 2 / 3 / 4 players: {counts}; 95% CIs; dotted: the fair share. "
              "Table: the start player (every position in the CSV).")
    return _result("pyradice_first_player", "Start-player advantage by turn position",
                   "Does the start player (or any turn position) win more often than a fair share?", method, df, fig,
                   _merged(first_player_findings(df), policies), shown,
                   min(min(v.values()) for v in per.values()), games={p: dict(v) for p, v in per.items()})


def _merged(findings, policies):
    """With the report player among ``policies``: each start-player finding once, the report player's, with the
    heuristic's beside it (:func:`pyradice_lab.engine.findings.merge_players`)."""
    from ..engine import registry
    from ..engine.findings import merge_players

    spec = registry.get_game("pyradice")
    if spec.report_player in policies and spec.heuristic_player in policies:
        return merge_players(findings, spec.report_player, spec.heuristic_player)
    return findings


def paired(make, n_strong: int, n_heuristic: int, seed) -> ExperimentResult:
    """``make(n_strong, seed, <report player>)``, the page, with the component findings of ``make(n_heuristic,
    seed, <heuristic player>)`` beside its own (players from the registry); a finding that names other
    components under the heuristic (another strongest card) says which."""
    import re

    import matplotlib.pyplot as plt

    from ..engine import registry
    from ..engine.findings import pair_findings

    spec = registry.get_game("pyradice")
    res = make(n_strong, seed, spec.report_player)
    base = make(n_heuristic, seed, spec.heuristic_player)
    plt.close(base.figure)

    def key(f):
        return re.sub(r" \([^)]*\)", "", f.quantity)

    named = {key(f): f.quantity for f in base.findings}
    out = []
    for f in pair_findings(res.findings, base.findings, key=key):
        if f.sensitivity and named.get(key(f), f.quantity) != f.quantity:
            f = f.with_context(notes=(*f.notes, f"Under {spec.heuristic_player}: {named[key(f)]}."))
        out.append(f)
    res.findings = tuple(out)
    res.meta["sensitivity_player"] = spec.heuristic_player
    return res


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
        heading="What is modelled"))
    goals, runs = experiment_goals(_size(ctx, "goals"), seeds[0])
    avail = experiment_available(_size(ctx, "goals"), seeds[1], runs)
    # the component and start-player findings: the report player (its sample sized to the budget), the
    # heuristic's result beside each (the larger sample)
    skills = paired(experiment_skills, _size(ctx, "skills_strong"), _size(ctx, "skills"), seeds[2])
    cards = paired(experiment_cards, _size(ctx, "cards_strong"), _size(ctx, "cards"), seeds[3])
    from ..engine import registry

    spec = registry.get_game("pyradice")
    first = experiment_first_player(
        {spec.heuristic_player: {p: _size(ctx, f"first{p}") for p in (2, 3, 4)},
         spec.report_player: {p: _size(ctx, f"first{p}_strong") for p in (2, 3, 4)}}, seeds[4],
        policies=(spec.heuristic_player, spec.report_player))
    for res in (avail, goals, skills, cards, first):
        save_experiment(res, ctx.out_dir)
        items.append(res)
    comp = reconstructed_components()
    items.append(Table(comp, title="Reconstructed components", caption=(
        "The rules text describes only skill A3 (flip: v -> 7-v), goal C6 (every die shows 3 or 5), and the cards "
        "Many, Height, Pairs (4 VP per isolated pair of touching matching dice) and Big (1 VP per matching die "
        "showing 4-6). Everything below is a documented reconstruction in pyradice_lab/pyradice/data/*.toml, "
        "replaceable by a designer's file (load_components(folder)); each token or card names a small registered "
        "function.")))
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
        heading="Interpretations and what is not modelled"))
    trials = {k: _size(ctx, k) for k in SIZES}
    return Section("Pyradice", items, seed=ctx.seed_label("pyradice"), trials=trials)
