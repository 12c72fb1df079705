"""The report's "Strength and restricted play" part: per game the ladder and what each option is worth, drawn.

The experiments are computed in :mod:`pyradice_lab.design.strength_report` (what each game plays is its report
plan, ``spec.part("plan")``; the sizes are :data:`~pyradice_lab.design.strength_report.SIZES`); this module draws
their figures, saves them beside the report and lays out the part: an introduction, then per rated game

- **the ladder**: the game's players rated by a Bradley-Terry model (figure: ratings with their 95% intervals),
  every pair's head-to-head score in ``<game>_strength_ladder_pairs.csv``;
- **restricted play** (Jaffe et al. 2012): the strongest restrictable player forbidden one option against
  unrestricted copies of itself (figure: the restricted player's win share per option against the fair share).

Each game's share is built by :func:`game_part` as its own task of the report's worker pool and joined by
:func:`combine`; :func:`report_section` builds the whole part in one go.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..design import strength_report as _design
from ..design.strength_report import SIZES  # noqa: F401 - the old import paths (report.strength.SIZES, StrengthPlan)
from ..engine.plan import ReportPlan, StrengthPlan  # noqa: F401

if TYPE_CHECKING:
    from .build import ExperimentResult, ReportContext, Section

__all__ = ["ladder_experiment", "restricted_experiment", "ladder_figure", "restricted_figure", "draw", "report_section",
           "game_part", "combine"]


def _fig(rows: int):
    import matplotlib.pyplot as plt

    return plt.subplots(figsize=(6.6, max(1.8, 0.8 + 0.24 * rows)))


def ladder_figure(table, title: str):
    """The ladder's figure: each player's Bradley-Terry rating with its 95% interval, strongest on top."""
    from ..engine.figures import axis_label

    fig, ax = _fig(len(table))
    y = np.arange(len(table))[::-1]
    ax.errorbar(table["rating"], y, xerr=[table["rating"] - table["rating_ci_low"],
                                          table["rating_ci_high"] - table["rating"]], fmt="o", capsize=3)
    ax.set_yticks(y, table["policy"])
    ax.axvline(0, color="0.6", lw=0.8)
    ax.set_xlabel(axis_label("Bradley-Terry rating, 95% CI", "Elo points; 400 = 10:1 odds"))
    ax.set_ylabel("player")
    ax.set_title(title)
    fig.tight_layout()
    return fig


def restricted_figure(table, *, players: int, policy: str, title: str):
    """Restricted play's figure: the restricted player's win share per forbidden option with its 95% interval,
    against the fair share ``1 / players``."""
    from ..engine.figures import axis_label

    fair = 1 / players
    fig, ax = _fig(len(table))
    y = np.arange(len(table))[::-1]
    ax.errorbar(table["win_rate"], y, xerr=[table["win_rate"] - table["win_rate_ci_low"],
                                            table["win_rate_ci_high"] - table["win_rate"]], fmt="o", capsize=3)
    ax.axvline(fair, color="0.5", ls="--", lw=1)
    ax.set_yticks(y, table["restriction"])
    ax.set_xlim(0, max(0.6, 1.2 * fair))
    ax.set_ylim(-0.7, len(table) - 0.3)
    ax.text(fair, len(table) - 0.35, " fair share", va="top", ha="left", color="0.35", fontsize=7.5)
    ax.set_xlabel(axis_label(f"win share of the restricted {policy}, 95% CI", "fraction of games"))
    ax.set_ylabel("option forbidden")
    ax.set_title(title)
    fig.tight_layout()
    return fig


def draw(exp: ExperimentResult, game: str) -> ExperimentResult:
    """``exp`` (a ladder or restricted-play experiment of ``game`` from :mod:`pyradice_lab.design.strength_report`)
    with its figure drawn; the same object, returned."""
    from ..engine import registry

    title = registry.get_game(game).title
    if exp.name == f"{game}_strength_ladder":
        exp.figure = ladder_figure(exp.table, f"{title}: players by strength")
    elif exp.name == f"{game}_restricted_play":
        policy = exp.meta["policy"]
        exp.figure = restricted_figure(exp.table, players=exp.meta["players"], policy=policy,
                                       title=f"{title}: what each option is worth to {policy}")
    else:
        raise ValueError(f"exp must be a strength experiment of {game!r}, got {exp.name!r}")
    return exp


def ladder_experiment(game: str, **kwargs) -> ExperimentResult:
    """:func:`pyradice_lab.design.strength_report.ladder_experiment` with its figure drawn (same arguments)."""
    return draw(_design.ladder_experiment(game, **kwargs), game)


def restricted_experiment(game: str, **kwargs) -> ExperimentResult:
    """:func:`pyradice_lab.design.strength_report.restricted_experiment` with its figure drawn (same arguments)."""
    return draw(_design.restricted_experiment(game, **kwargs), game)


def _intro():
    from .build import Text

    return Text(
        "Balance found with weak players is not balance. For each game, two experiments. The ladder: its "
        "players against each other, every player in every seat equally often, rated by a Bradley-Terry model "
        "(Elo scale: 400 points = 10:1 odds) with 95% intervals (quasi-standard errors; ratings average 0 and are "
        "not comparable across games); its findings: the strongest player's head-to-head score against the next "
        "one and against greedy. Restricted play (after Jaffe et al. 2012): the strongest player forbidden one "
        "option against unrestricted copies of itself, flagged by its win share's 95% Wilson interval against the "
        "fair share: no measurable value (the interval contains it: worth nothing measurable to this player, "
        "though one who uses it better may value it), valuable (below), dominant (below a fifth of it), harmful "
        "(above). Method and larger runs: docs/guide/strength.md.",
        heading="Strength and restricted play")


def game_part(ctx: ReportContext, game: str, games=None) -> Section:
    """One game's share of the strength part (its ladder and restricted play): a partial :class:`Section`
    that :func:`combine` joins with the others.  Its seed depends only on the root seed, the list of rated
    ``games`` and the game's place in it, so the parts can be built in any order and in any process; the
    report builds them as separate tasks of its worker pool."""
    from .build import Section, save_experiment

    rated = _design.rated_games(games)
    if game not in rated:
        raise ValueError(f"game must be one of the rated games {rated}, got {game!r}")
    seed = ctx.seed_for("strength").spawn(len(rated))[rated.index(game)]
    plan = _design.plan_of(game)
    lad, res = _design.strength_experiments(game, quick=ctx.quick, seed=seed, plan=plan)
    h2h = lad.meta.pop("head_to_head")
    for exp in (lad, res):
        save_experiment(draw(exp, game), ctx.out_dir)
        # each figure repeats its table row for row (a rating or a win share with its interval): the PNG is beside
        # the PDF, the table in it (8 figures, about 1.7 pages of a report over its 40)
        exp.pdf_figure = False
    h2h.to_csv(ctx.out_dir / lad.name / f"{lad.name}_pairs.csv", index=False)
    total = int(lad.table["games"].sum() // plan.players + res.table["games"].sum())
    return Section(f"Strength and restricted play: {game}", [lad, res], trials=total)


def combine(ctx: ReportContext, parts) -> Section:
    """The "Strength and restricted play" part from its per-game parts (in the order given): the introduction,
    then every game's experiments; trials, seconds and CPU seconds are the parts' sums."""
    from .build import Section

    items: list = [_intro()]
    for part in parts:
        items.extend(part.items)
    sec = Section("Strength and restricted play", items, seed=ctx.seed_label("strength"),
                  trials=f"{sum(int(p.trials) for p in parts):,} games")
    if parts and all(p.seconds is not None for p in parts):
        sec.seconds = sum(p.seconds for p in parts)
        sec.cpu_seconds = sum(p.cpu_seconds or 0.0 for p in parts)
    return sec


def report_section(ctx: ReportContext, games=None) -> Section:
    """The "Strength and restricted play" part of the report: the ladder and restricted play of ``games``
    (default: every registered game with players); the same as :func:`combine` of every :func:`game_part`."""
    rated = _design.rated_games(games)
    return combine(ctx, [game_part(ctx, g, rated) for g in rated])
