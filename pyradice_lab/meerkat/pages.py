"""The Meerkat Kingdom report section (the pages): exact odds, then one experiment per designer question.

The experiments (data, findings, reading) are computed in :mod:`.analysis` (``odds_experiment``, ``run_*``); this
module draws them, one function per experiment, ``figure_<experiment>(result)`` (from the result's
``meta["figure_data"]``), attaches the figure (:func:`draw`, :data:`FIGURES` by result name) and lays the section out.
Nothing here computes a conclusion.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from ..engine.results import ExperimentResult, Section, Table, Text, save_experiment  # noqa: E402
from ..engine.rng import spawn_seeds  # noqa: E402
from .analysis import (  # noqa: E402, F401  (the experiments and their findings: re-exported for old imports)
    QUICK_BUDGET,
    SIZES,
    STRONG,
    automa_findings,
    fairness_findings,
    feature_findings,
    hazard_findings,
    odds_experiment,
    odds_findings,
    paired,
    reading_findings,
    report_players,
    run_automa,
    run_features,
    run_hazards,
    run_readings,
    run_seat_advantage,
    run_strong_play,
    run_tile_fairness,
    seat_findings,
    strong_findings,
    without_restated,
)
from .components import default_components  # noqa: E402

__all__ = ["report_section", "REPORT_PARTS", "join_parts", "draw", "FIGURES", "figure_placement_odds",
           "figure_tile_fairness", "figure_seat_advantage", "figure_automa_strength", "figure_feature_value",
           "figure_hazards", "figure_rule_readings", "figure_strong_play"]


def _n(name: str, quick: bool) -> int:
    return SIZES[name][0 if quick else 1]


# ----------------------------------------------------------------------------------------- figures

def figure_placement_odds(res: ExperimentResult):
    """Exact placement odds by tile, with and without the reroll."""
    fd = res.meta["figure_data"]
    tab = fd["tab"]
    no = fd["no"]
    fig, ax = plt.subplots(figsize=(7, 3.6))
    for c, mk in zip((1, 2, 3), ("o", "s", "^")):
        ax.plot(tab.index, tab[c], marker=mk, label=f"{c} meerkat{'s' if c > 1 else ''} (3: or the queen), reroll")
        ax.plot(no.index, no[c], marker=mk, ls=":", color=ax.lines[-1].get_color(), alpha=0.7,
                label=f"{c} meerkat{'s' if c > 1 else ''}, no reroll (dotted)")
    ax.set_xlabel("desert tile")
    ax.set_ylabel("P(can place on the tile)")
    ax.set_xticks(range(3, 13))
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    return fig


def figure_tile_fairness(res: ExperimentResult):
    """Points paid per piece committed, by tile, one bar per value exponent."""
    fd = res.meta["figure_data"]
    sweep, cvs, k1, base = fd["sweep"], fd["cvs"], fd["k1"], fd["base"]
    tiles = fd["tiles"]
    fig, ax = plt.subplots(figsize=(7, 3.6))
    x = np.arange(10)
    width = 0.8 / len(sweep)
    for k, (b, _, fair) in enumerate(sweep):
        ppp = fair["points_per_piece"]
        ax.bar(x - 0.4 + width * (k + 0.5), ppp, width, capsize=2,   # Monte Carlo: every bar its 95% CI
               yerr=[ppp - fair["points_per_piece_ci_low"], fair["points_per_piece_ci_high"] - ppp],
               label=f"exponent {b:g}{' (packaged values)' if k == k1 else ''}: CV {cvs[k]:.2f}")
    ax.set_xticks(x, [f"{t}\n{base.loc[base.tile == t, 'values'].iloc[0]}" for t in tiles], fontsize=7)
    ax.set_xlabel("desert tile and its packaged values")
    ax.set_ylabel("points paid per piece committed (95% CI)")
    ax.legend(fontsize=7)
    return fig


def figure_seat_advantage(res: ExperimentResult):
    """Win share by turn-order position per setup, with the fair share."""
    fd = res.meta["figure_data"]
    df = fd["df"]
    fig, ax = plt.subplots(figsize=(7, 3.6))
    for i, (name, grp) in enumerate(df.groupby("setup", sort=False)):
        xs = grp["position"] + i * 0.08
        yerr = [grp["win_rate"] - grp["win_rate_ci_low"], grp["win_rate_ci_high"] - grp["win_rate"]]
        ax.errorbar(xs, grp["win_rate"], yerr=yerr, fmt="o-" if "extension" not in name else "o:", capsize=3,
                    label=name)
        ax.hlines(grp["fair_share"].iloc[0], 0.8, grp["position"].max() + 0.2, colors=ax.lines[-1].get_color(),
                  linestyles=":", alpha=0.6)
    ax.set_xlabel("turn-order position (1 = start player; the automa always plays last)")
    ax.set_ylabel("win share (ties split)")
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    return fig


def figure_automa_strength(res: ExperimentResult):
    """The automa's win share against each human line-up, with the fair share."""
    fd = res.meta["figure_data"]
    df = fd["df"]
    fig, ax = plt.subplots(figsize=(7, 3.4))
    labels = [f"{p} x {pol}" + (" (ext.)" if "extension" in lab else "")
              for p, pol, lab in zip(df.players, df.policy, df.setup)]
    yerr = [df.automa_win_rate - df.automa_win_rate_ci_low, df.automa_win_rate_ci_high - df.automa_win_rate]
    ax.errorbar(range(len(df)), df.automa_win_rate, yerr=yerr, fmt="o", capsize=4, label="automa win share")
    ax.scatter(range(len(df)), df.fair_share, marker="_", s=300, color="0.3", label="fair share")
    ax.set_xticks(range(len(df)), labels)
    ax.set_xlabel("human players x their policy")
    ax.set_ylabel("automa win share")
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    return fig


def figure_feature_value(res: ExperimentResult):
    """Seat 1's score edge per variant."""
    fd = res.meta["figure_data"]
    df = fd["df"]
    fig, ax = plt.subplots(figsize=(7, 3.4))
    ax.errorbar(df.score_edge, range(len(df)), xerr=[df.score_edge - df.score_edge_ci_low,
                                                     df.score_edge_ci_high - df.score_edge], fmt="o", capsize=4)
    ax.axvline(0, color="0.4", lw=0.8)
    ax.set_yticks(range(len(df)), df.variant)
    ax.set_xlabel("seat 1 score minus the mean of the two baseline heuristics (points)")
    ax.grid(alpha=0.3)
    return fig


def figure_hazards(res: ExperimentResult):
    """Hazards per game and meerkats lost per player, by blue bag contents."""
    fd = res.meta["figure_data"]
    df = fd["df"]
    fig, ax = plt.subplots(figsize=(7, 3.2))
    x = np.arange(len(df))
    for off, col, label in ((-0.2, "hazards_per_game", "hazards per game"),
                            (0.2, "lost_per_seat", "meerkats lost per player")):
        ax.bar(x + off, df[col], 0.4, yerr=[df[col] - df[f"{col}_ci_low"], df[f"{col}_ci_high"] - df[col]],
               capsize=4, label=label)
    ax.set_xticks(x, [f"{k} of each blue{' (default)' if d else ''}" for k, d in zip(df.blue_copies_each,
                                                                                    df["default"])])
    ax.set_xlabel("blue bag contents")
    ax.legend(fontsize=7)
    ax.set_ylabel("count per game (95% CI)")
    return fig


def figure_rule_readings(res: ExperimentResult):
    """The change of the start player's win share and the share of games with another winner, per reading."""
    fd = res.meta["figure_data"]
    df = fd["df"]
    fig, ax = plt.subplots(figsize=(7, 3.4))
    labels = [f"{r.setup}\n{r.reading.split('_')[0]}: {r.option}" for r in df.itertuples()]
    x = np.arange(len(df))
    ax.errorbar(x, df.start_change, yerr=[df.start_change - df.start_change_ci_low,
                                          df.start_change_ci_high - df.start_change], fmt="o", capsize=4,
                label="change of the start player's win share (option - literal)")
    w = df.winner_changed_rate
    ax.bar(x, w, 0.4, alpha=0.35, yerr=[w - df.winner_changed_rate_ci_low, df.winner_changed_rate_ci_high - w],
           capsize=2, label="share of games with another winner (95% CI)")
    ax.axhline(0, color="0.4", lw=0.8)
    ax.set_xticks(x, labels, fontsize=6)
    ax.set_ylabel("share of games / change of share")
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    return fig


def figure_strong_play(res: ExperimentResult):
    """Head-to-head win shares, and the restated findings against their references."""
    fd = res.meta["figure_data"]
    vs, df = fd["vs"], fd["df"]
    fig, axes = plt.subplots(1, 2, figsize=(8, 3.8), gridspec_kw={"width_ratios": [1, 1.2]})
    ax = axes[0]
    # one line a pair (two-line labels overlapped at the report's size), the fair share said in the axis label
    labels = [f"{r.policy} v {r.opponent}, {r.setup}" for r in vs.itertuples()]
    ax.errorbar(vs.win_rate, range(len(vs)), xerr=[vs.win_rate - vs.win_rate_ci_low, vs.win_rate_ci_high - vs.win_rate],
                fmt="o", capsize=3)
    ax.scatter(vs.fair_share, range(len(vs)), marker="|", s=200, color="0.3")
    ax.set_yticks(range(len(vs)), labels, fontsize=6)
    ax.set_xticks([0.25, 0.5, 0.75])
    ax.set_xlim(0.1, 0.9)
    ax.set_xlabel("win share (seat rotated); |: fair share")
    ax.grid(alpha=0.3)
    ax = axes[1]
    shown = df[~df.finding.str.startswith("points per piece")]
    names = list(dict.fromkeys(shown.finding))
    for k, (player, grp) in enumerate(shown.groupby("player", sort=False)):
        y = np.array([names.index(f) for f in grp.finding]) + (k - 0.5) * 0.3
        ax.errorbar(grp.value - grp.reference, y, xerr=[grp.value - grp.ci_low, grp.ci_high - grp.value], fmt="o",
                    capsize=3, label=player)
    ax.axvline(0, color="0.4", lw=0.8)
    ax.set_yticks(range(len(names)), [f.replace("win share of a player who ", "") for f in names], fontsize=6)
    ax.set_xlabel("estimate minus its reference (0 or the fair share)")
    ax.legend(fontsize=6)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig


#: result name -> its drawing function
FIGURES = {"meerkat_placement_odds": figure_placement_odds, "meerkat_tile_fairness": figure_tile_fairness,
           "meerkat_seat_advantage": figure_seat_advantage, "meerkat_automa_strength": figure_automa_strength,
           "meerkat_feature_value": figure_feature_value, "meerkat_hazards": figure_hazards,
           "meerkat_rule_readings": figure_rule_readings, "meerkat_strong_play": figure_strong_play}


def draw(res: ExperimentResult) -> ExperimentResult:
    """Attach the figure of an experiment of :mod:`.analysis` (its :data:`FIGURES` entry); returns ``res``."""
    res.figure = FIGURES[res.name](res)
    return res


# ----------------------------------------------------------------------------------------- section
#: The section's experiments in groups that the full report builds as separate tasks (issue 27: the longest section
#: split over the workers; the tile page first, so that its check and proposal start early): ``report_section(ctx,
#: part=p)`` builds one group, :func:`join_parts` joins them.  Every experiment seeds itself from the section's
#: root, so the parts give the numbers of the whole section.
REPORT_PARTS = ("tiles", "seats", "rest")
_PART_OF = {"meerkat_placement_odds": "tiles", "meerkat_tile_fairness": "tiles", "meerkat_seat_advantage": "seats"}


def _intro() -> Text:
    return Text(
        "Dice area majority for 2 players + the automa (the rules' 2-player game), 3 or 4 players (the automa "
        "may join any count). Ambiguous rules are read literally (a separate experiment measures the other "
        "readings). Placement odds are exact (216 rolls x 8 "
        "keep-sets); whole games are simulated with a numba-compiled engine whose pure-Python twin is the reference. "
        "Policies: greedy = best immediate change of (own projected points - mean opponent projected points), "
        "with the reroll chosen by exact expectation; heuristic = the same with weights for guardians, pups, the "
        "queen and burrow actions; expectimax = the heuristic's weights with the expected end-of-game majority "
        "standings as its evaluation (exact expectation over the reroll); mcts:N = determinized Monte Carlo search, "
        "N rollouts per decision played by the compiled engine. The automa's exact placement distribution is "
        "meerkat.placement_table(automa=True). Reconstructed components are listed at the end of this section.",
        heading="Meerkat Kingdom")


def _experiments(ctx) -> list[tuple[str, Callable[[], ExperimentResult]]]:
    """(experiment name, build) of the section, in page order."""
    from .sim import compiled_engine_ready

    seeds = spawn_seeds(ctx.seed_for("meerkat"), 7)
    q = ctx.quick
    # the quick report never compiles; the full report always runs compiled
    eng = "numba" if (not q or compiled_engine_ready()) else "python"
    # the tile, start-player and blue-bag findings: the report player (all seats), the heuristic beside each
    strong, heur = report_players(q)
    return [
        ("meerkat_placement_odds", odds_experiment),
        ("meerkat_tile_fairness", lambda: paired(
            run_tile_fairness, (_n("fairness_strong", q), seeds[0], eng, (1.0,)),
            (_n("fairness", q), seeds[0], eng, (0.5, 1.0) if q else (0.0, 0.5, 1.0, 1.5)), strong, heur)),
        ("meerkat_seat_advantage", lambda: paired(run_seat_advantage, (_n("seats_strong", q), seeds[1], eng),
                                                  (_n("seats", q), seeds[1], eng), strong, heur)),
        ("meerkat_automa_strength", lambda: run_automa(_n("automa", q), seeds[2], eng)),
        ("meerkat_feature_value", lambda: run_features(_n("features", q), seeds[3], eng)),
        ("meerkat_hazards", lambda: paired(run_hazards, (_n("hazards_strong", q), seeds[4], eng),
                                           (_n("hazards", q), seeds[4], eng), strong, heur)),
        ("meerkat_rule_readings", lambda: run_readings(_n("readings", q), seeds[5], eng)),
        ("meerkat_strong_play", lambda: without_restated(run_strong_play(_n("strong", q), _n("versus", q), seeds[6],
                                                                         eng, *STRONG[0 if q else 1]), strong)),
    ]


def report_section(ctx, part: str | None = None) -> Section:
    """The Meerkat Kingdom section; ``part`` (one of :data:`REPORT_PARTS`): only that group's experiments, as a
    section for :func:`join_parts` (the full report builds the parts as separate tasks)."""
    if part is None:
        return join_parts(ctx, [report_section(ctx, p) for p in REPORT_PARTS])
    if part not in REPORT_PARTS:
        raise ValueError(f"part must be one of {list(REPORT_PARTS)} or None, got {part!r}")
    items: list = []
    for name, build in _experiments(ctx):
        if _PART_OF.get(name, "rest") != part:
            continue
        res = draw(build())
        save_experiment(res, ctx.out_dir)
        # the automa's and the hazards' figures repeat their few-row tables: their PNGs are beside the PDF
        res.pdf_figure = res.name not in ("meerkat_automa_strength", "meerkat_hazards")
        items.append(res)
    return Section(f"Meerkat Kingdom ({part})", items, seed=ctx.seed_label("meerkat"), trials="0")


def join_parts(ctx, parts: Sequence[Section]) -> Section:
    """The Meerkat Kingdom section from its parts (:data:`REPORT_PARTS`, in any order): the introduction, the
    experiments in page order, the components' sources; the seconds and CPU seconds are the parts' sums."""
    q = ctx.quick
    order = {name: i for i, (name, _) in enumerate(_experiments(ctx))}
    found = sorted((it for part in parts for it in part.items), key=lambda it: order.get(it.name, len(order)))
    src = default_components().source_table()
    items = [_intro(), *found,
             Table(src, title="Meerkat Kingdom components and their sources", rows_per_page=45, fold=2,
                   caption="'reconstruction' = not stated in the rules text; defaults documented in "
                           "pyradice_lab/meerkat/data/components.toml and replaceable by a designer's file.")]
    trials = sum(_n(k, q) * m for k, m in (("fairness", 2 if q else 4), ("seats", 4), ("automa", 4),
                                           ("features", 5), ("hazards", 3), ("readings", 9), ("strong", 10),
                                           ("versus", 4 if q else 6), ("fairness_strong", 1), ("seats_strong", 4),
                                           ("hazards_strong", 3)))
    sec = Section("Meerkat Kingdom", items, seed=ctx.seed_label("meerkat"), trials=f"{trials:,} games")
    if parts and all(getattr(p, "seconds", None) is not None for p in parts):
        sec.seconds = sum(p.seconds for p in parts)
        sec.cpu_seconds = sum(p.cpu_seconds or 0.0 for p in parts)
    return sec
