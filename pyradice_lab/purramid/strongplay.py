"""Purramid answers under strong play (issue 11 section 4), as report items.

Every seat playing the exact policy (``"optimal"``: each turn solved exactly on its board) against every
seat playing the human-style ``risk:0.35``; one optimal seat among heuristic seats (the skill gap).  The
games and the findings come from :mod:`.analysis` (:func:`~.analysis.strong_play_games`,
:func:`~.analysis.strong_play`, :func:`~.analysis.skill_gap`); this module draws and lays out.
"""

from __future__ import annotations

import pandas as pd

from ..engine.figures import axis_label, place_legend
from ..engine.results import ExperimentResult
from . import analysis as A
from .pages import ci_cells, figure, interval_text, result_of

__all__ = ["STRONG_SIZES", "strong_play_experiments", "strong_play_result", "skill_gap_result"]

STRONG_SIZES = A.STRONG_SIZES

_SHOWN = ("P(start player wins)", "turns per game")


def strong_play_experiments(size: str = "report", seed=0, *, n_jobs: int = 1, progress: bool = False,
                            optimal=None, **where) -> list[ExperimentResult]:
    """Seat advantage, game length and side A vs B with every seat optimal (vs heuristic play), and the skill
    gap of one optimal seat.  ``size``: ``"quick"``, ``"report"`` or ``"full"`` (:data:`STRONG_SIZES`).
    ``optimal``: all-optimal games already played (the seat-advantage page's): reused, and their start-player
    findings left to that page.  ``where``: ``backend``, ``scheduler``, ``cache_dir``."""
    games = A.strong_play_games(size, seed, n_jobs=n_jobs, progress=progress, optimal=optimal, **where)
    res = strong_play_result(A.strong_play(games["heuristic"], games["optimal"]), size)
    if optimal is not None:
        res.findings = tuple(f for f in res.findings if not f.quantity.startswith("start player's win share"))
    return [res, skill_gap_result(A.skill_gap(games["gap"]), size)]


def _cell_labels(df: pd.DataFrame) -> list[str]:
    return [f"{p}p {s}" for p, s in zip(df["players"], df["side"])]


def strong_play_result(ans: A.Answer, size: str) -> ExperimentResult:
    """The report page of :func:`~.analysis.strong_play`: figure, compact table and method."""
    cmp = ans.data
    fig, axes = figure(6.7, 2.6, ncols=2)
    for ax, q, k, ylab in ((axes[0], "P(start player wins)", 100.0, axis_label("start player's win share", "%")),
                           (axes[1], "turns per game", 1.0, axis_label("turns per game", "turns"))):
        d = cmp[cmp["quantity"] == q].reset_index(drop=True)
        for j, (lab, col) in enumerate(((f"{A.GAME_POLICY}, every seat", "heuristic"),
                                        ("optimal, every seat", "optimal"))):
            x = [i + (j - 0.5) * 0.3 for i in range(len(d))]
            ax.errorbar(x, k * d[col], yerr=[k * (d[col] - d[f"{col}_ci_low"]), k * (d[f"{col}_ci_high"] - d[col])],
                        fmt="os"[j], capsize=3, label=lab)
        if k == 100.0:
            for i, p in enumerate(d["players"]):
                ax.hlines(100 / p, i - 0.4, i + 0.4, color="0.5", ls="--", lw=1)
        ax.set_xticks(range(len(d)), _cell_labels(d))
        ax.set_xlabel("players, side")
        ax.set_ylabel(ylab)
    place_legend(axes[1])
    fig.tight_layout()
    d = cmp[cmp["quantity"].isin(_SHOWN)].reset_index(drop=True)
    pct = d["quantity"] == "P(start player wins)"
    shown = pd.DataFrame({
        "players": d["players"], "side": d["side"],
        "quantity": d["quantity"].where(~pct, "start player's win share, %"),
        f"{A.GAME_POLICY} (95% CI)": [interval_text(r.heuristic, r.heuristic_ci_low, r.heuristic_ci_high, pct=p)
                                      for r, p in zip(d.itertuples(), pct)],
        "optimal (95% CI)": [interval_text(r.optimal, r.optimal_ci_low, r.optimal_ci_high, pct=p)
                             for r, p in zip(d.itertuples(), pct)],
        "optimal - heuristic (95% CI)": [interval_text(r.diff, r.diff_ci_low, r.diff_ci_high, pct=p)
                                         for r, p in zip(d.itertuples(), pct)],
        "games (heuristic / optimal)": [f"{r.heuristic_games:,} / {r.optimal_games:,}" for r in d.itertuples()]})
    method = ("Every seat plays the exact policy ('optimal': each turn solved exactly on its board, a token "
              f"worth the documented yarn_value), compared with every seat playing {A.GAME_POLICY} (simulated "
              "again with its own seed). An exact solve per turn makes optimal games costly, so their cells hold "
              "far fewer games and wider intervals. Bursts and bonus turns per turn and the winner's gold under both "
              "kinds of play are in the CSV file.")
    res = result_of("purramid_strong_play", "Seat advantage and game length under exact play", ans, method, fig,
                    shown, size=size)
    sides = pd.concat([ans.frames["sides_optimal"].assign(play="optimal"),
                       ans.frames["sides_heuristic"].assign(play="heuristic")], ignore_index=True)
    res.meta["side_difference"] = sides
    return res


def skill_gap_result(ans: A.Answer, size: str) -> ExperimentResult:
    """The report page of :func:`~.analysis.skill_gap`: figure, compact table and method."""
    gap = ans.data
    fig, ax = figure(4.6, 2.5)
    x = range(len(gap))
    ax.errorbar(x, 100 * gap["p_win"], yerr=[100 * (gap["p_win"] - gap["p_win_ci_low"]),
                                             100 * (gap["p_win_ci_high"] - gap["p_win"])],
                fmt="o", capsize=3, label="one optimal seat")
    ax.plot(x, 100 * gap["fair_share"], "_", ms=18, color="0.4", label="fair share")
    ax.set_xticks(list(x), _cell_labels(gap))
    ax.set_xlim(-0.6, len(gap) - 0.4)
    ax.set_ylim(0, 100)
    ax.set_xlabel("players, side")
    ax.set_ylabel(axis_label("optimal seat's win share", "%"))
    place_legend(ax)
    fig.tight_layout()
    shown = pd.DataFrame({"players": gap["players"], "side": gap["side"], "games": gap["games"],
                          "win share, % (95% CI)": ci_cells(gap, "p_win", pct=True),
                          "fair share, %": (100 * gap["fair_share"]).round(1),
                          "score minus heuristic seats (95% CI)": ci_cells(gap, "score_gap")})
    method = (f"One seat plays the exact policy, the others {A.GAME_POLICY}; the optimal seat rotates through the "
              "seats in equal blocks, so the start-player effect averages out. The exact player maximises each "
              "turn's expected tiles, not the race.")
    return result_of("purramid_skill_gap", "Skill gap: one exact player among heuristic players", ans, method, fig,
                     shown, size=size)
