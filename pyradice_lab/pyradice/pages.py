"""The Pyradice section of the PDF report (the pages): the experiments of :mod:`.analysis` (each an
ExperimentResult holding its data, findings, method and compact table), drawn here and laid out.  Nothing here
computes a conclusion: one drawing function per experiment, ``figure_<experiment>(result)``, reads the result's table
(and ``meta["figure_data"]``); :func:`draw` attaches it (:data:`FIGURES`, by result name)."""

from __future__ import annotations

import numpy as np

from ..engine.figures import STYLE, axis_label, place_legend, plot_series, reference_line
from ..engine.results import ExperimentResult, ReportContext, Section, Table, Text, save_experiment
from .analysis import (  # noqa: F401  (SIZES, START_POLICIES, experiment_*, paired: re-exported for old imports)
    GOAL_POLICIES,
    SIZES,
    START_POLICIES,
    experiment_available,
    experiment_cards,
    experiment_first_player,
    experiment_goals,
    experiment_skills,
    paired,
    reconstructed_components,
)
from .components import Setup

__all__ = ["report_section", "draw", "FIGURES", "figure_goal_rates", "figure_available_dice", "figure_skill_values",
           "figure_card_balance", "figure_first_player"]

_POL = GOAL_POLICIES
_COLOURS = {"random_legal": "0.6", "greedy": "tab:blue", "lookahead": "tab:orange"}


def _fig(w=6.7, h=2.8, ncols=1, **kw):
    import matplotlib
    import matplotlib.pyplot as plt

    with matplotlib.rc_context(STYLE):
        return plt.subplots(1, ncols, figsize=(w, h), **kw)


def _size(ctx: ReportContext, key: str) -> int:
    return SIZES[key][0 if ctx.quick else 1]


def figure_goal_rates(res: ExperimentResult):
    """P(goal met) per level and policy, bars with 95% CIs, and the blind exact baseline."""
    df = res.table
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
    return fig


def figure_available_dice(res: ExperimentResult):
    """Dice available per turn and policy (with the exact expectation), and the distribution under greedy play."""
    df = res.table
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
    dist = res.meta["figure_data"]["distribution"]
    grid = dist.pivot(index="n_available", columns="turn", values="p").fillna(0.0)
    im = ax2.imshow(100 * grid.to_numpy(), origin="lower", aspect="auto", cmap="Blues",
                    extent=(0.5, grid.shape[1] + 0.5, grid.index.min() - 0.5, grid.index.max() + 0.5))
    fig.colorbar(im, ax=ax2, label=axis_label("share of games", "%"))
    ax2.set_xlabel(axis_label("turn, greedy play"))
    ax2.set_ylabel(axis_label("dice available", "dice"))
    ax2.grid(False)
    fig.tight_layout()
    return fig


def figure_skill_values(res: ExperimentResult):
    """Points lost per seat without each skill token, with 95% CIs."""
    df = res.table
    fig, ax = _fig(6.0, 2.7)
    ax.bar(df.skill + "\n" + df.skill_name, df.score_drop, color="tab:green",
           yerr=[df.score_drop - df.score_drop_ci_low, df.score_drop_ci_high - df.score_drop], capsize=3)
    ax.axhline(0, color="k", lw=0.8)
    ax.set_xlabel("skill token")
    ax.set_ylabel(axis_label("points lost per seat without it", "VP"))
    fig.tight_layout()
    return fig


def figure_card_balance(res: ExperimentResult):
    """Points per seat from each objective card: mean with 95% CI and +-1 SD."""
    df = res.table
    fig, ax = _fig(6.7, 2.8)
    colours = ["tab:red" if s == "rules" else "tab:purple" for s in df.source]
    ax.bar(df.card, df.mean_points, color=colours,
           yerr=[df.mean_points - df.mean_points_ci_low, df.mean_points_ci_high - df.mean_points], capsize=3)
    ax.errorbar(df.card, df.mean_points, yerr=df.sd_points, fmt="none", ecolor="0.5", lw=6, alpha=0.3)
    ax.set_xlabel("objective card (red: from the rules; purple: reconstructed)")
    ax.set_ylabel(axis_label("points per seat", "VP"))
    fig.tight_layout()
    return fig


def figure_first_player(res: ExperimentResult):
    """Win share by turn position, one panel per policy, with the fair share."""
    df = res.table
    policies = res.meta["figure_data"]["policies"]
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
    return fig


#: result name -> its drawing function
FIGURES = {"pyradice_goal_rates": figure_goal_rates, "pyradice_available_dice": figure_available_dice,
           "pyradice_skill_values": figure_skill_values, "pyradice_card_balance": figure_card_balance,
           "pyradice_first_player": figure_first_player}


def draw(res: ExperimentResult) -> ExperimentResult:
    """Attach the figure of an experiment of :mod:`.analysis` (its :data:`FIGURES` entry); returns ``res``."""
    res.figure = FIGURES[res.name](res)
    return res


def report_section(ctx: ReportContext) -> Section:
    """The Pyradice section: the experiments of :mod:`.analysis`, each drawn here (:func:`draw`), and the
    reconstructed components."""
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
        draw(res)
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
