"""The Purramid report section (the pages): each experiment of :mod:`.analysis` drawn and laid out as an
ExperimentResult.

Every page of an experiment shows the question, the findings (computed from the data in :mod:`.analysis` and
rendered by :mod:`pyradice_lab.engine.findings`), how the numbers were measured, a figure and a compact table; the
CSV beside the report holds every row.  Nothing here computes a conclusion: the functions below call the analysis,
draw its figure and lay the page out.  Used by :func:`report_section` and by ``experiments/purramid_*.py``; sizes
follow ``quick`` (:data:`.analysis.SIZES`), randomness comes from the SeedSequence passed in (the section spawns one
child per experiment).  The strong-play pages (every seat playing the exact policy; one optimal seat among
heuristic seats, issue 11 section 4) are :func:`strong_play_experiments`, :func:`strong_play_result` and
:func:`skill_gap_result`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..engine.figures import STYLE, axis_label, place_legend, plot_series, reference_line
from ..engine.findings import format_value
from ..engine.results import ExperimentResult, ReportContext, Section, Text, save_experiment
from . import analysis as A
from .analysis import Answer
from .components import load_game_config

__all__ = ["burst_odds_experiment", "press_your_luck_experiment", "game_experiments", "yarn_value_experiment",
           "policy_regret_experiment", "bonus_mode_experiment", "report_section", "components_text",
           "strong_play_experiments", "strong_play_result", "skill_gap_result", "POLICIES", "STRONG_SIZES",
           "figure", "interval_text", "ci_cells", "result_of"]

POLICIES = list(A.REGRET_POLICIES)
STRONG_SIZES = A.STRONG_SIZES

def figure(w=6.7, h=2.6, ncols=1, **kw):
    import matplotlib
    import matplotlib.pyplot as plt

    with matplotlib.rc_context(STYLE):
        fig, ax = plt.subplots(1, ncols, figsize=(w, h), **kw)
    return fig, ax


def interval_text(value: float, low: float, high: float, *, pct: bool = False) -> str:
    """``"52.1 (48.0..56.2)"``: a table cell with the digits its 95% interval supports (``pct``: x 100)."""
    k = 100.0 if pct else 1.0
    spread = k * (high - low) / 2
    f = [format_value(k * v, spread=spread) for v in (value, low, high)]
    return f[0] if low == high else f"{f[0]} ({f[1]}..{f[2]})"


def result_of(name: str, title: str, answer: Answer, method: str, fig, display: pd.DataFrame,
              **meta) -> ExperimentResult:
    """An ExperimentResult from an :class:`~.analysis.Answer`: its data (the CSV), findings, question and
    sample size, with the method text, the figure and the compact table shown on the page."""
    meta = {"exact": answer.exact, **answer.info, **meta}
    return ExperimentResult(name, title, "", answer.data, fig, meta=meta, findings=answer.findings,
                            question=answer.question, sample_size=answer.sample_size, display=display,
                            method=method)


def ci_cells(df: pd.DataFrame, col: str, pct: bool = False) -> pd.Series:
    """:func:`interval_text` of the columns ``col``, ``col_ci_low``, ``col_ci_high`` of every row."""
    return pd.Series([interval_text(r[col], r[f"{col}_ci_low"], r[f"{col}_ci_high"], pct=pct)
                      for _, r in df.iterrows()], index=df.index)



# ------------------------------------------------------------------------------------------ figures
def figure_burst_odds(ans: Answer):
    """The figure of the ``purramid_burst_odds`` page, from :mod:`.analysis`'s answer."""
    grid = ans.frames["grid"]
    fig, ax = figure(6.7, 2.5)
    im = ax.imshow(100 * grid.to_numpy(), cmap="RdYlGn_r", vmin=0, vmax=100, aspect="auto")
    ax.set_xticks(range(grid.shape[1]), grid.columns)
    ax.set_yticks(range(grid.shape[0]), grid.index)
    ax.set_xlabel("number on the only empty space")
    ax.set_ylabel(axis_label("dice rolled", "dice"))
    ax.grid(False)
    for i in range(grid.shape[0]):
        for j in range(grid.shape[1]):
            ax.text(j, i, f"{100 * grid.iat[i, j]:.0f}", ha="center", va="center", fontsize=7.5, color="k")
    fig.colorbar(im, ax=ax, label=axis_label("P(burst)", "%"), pad=0.02)
    fig.tight_layout()
    return fig


def figure_press_your_luck(ans: Answer):
    """The figure of the ``purramid_press_your_luck`` page, from :mod:`.analysis`'s answer."""
    df = ans.data
    fig, ax = figure(6.7, 2.7)
    for k, (sit, d) in enumerate(df.groupby("situation", sort=False)):
        plot_series(ax, d["dice_left"], d["continue_value"] - d["stop_value"], label=sit, marker="os^D"[k % 4])
    ax.axhline(0, color="0.5", lw=1, ls="--")
    ax.set_xticks(sorted(df["dice_left"].unique()))
    ax.set_xlabel(axis_label("dice left to roll", "dice"))
    ax.set_ylabel(axis_label("continue minus stop", "expected tiles"))
    place_legend(ax)
    fig.tight_layout()
    return fig


def figure_seat_advantage(ans: Answer):
    """The figure of the ``purramid_seat_advantage`` page, from :mod:`.analysis`'s answer."""
    seats = ans.data
    fig, axes = figure(6.7, 2.6, ncols=3, sharey=True)
    for ax, players in zip(axes, (2, 3, 4)):
        for k, side in enumerate(("A", "B")):
            d = seats[(seats["players"] == players) & (seats["side"] == side)]
            ax.errorbar(d["seat"] + (k - 0.5) * 0.25, 100 * d["p_win"],
                        yerr=[100 * (d["p_win"] - d["p_win_ci_low"]), 100 * (d["p_win_ci_high"] - d["p_win"])],
                        fmt="o", capsize=3, label=f"side {side}")
        reference_line(ax, [-0.4, players - 0.6], [100 / players] * 2, label="fair share")
        ax.set_title(f"{players} players")
        ax.set_xlabel("turn position (1 = start player)")
        ax.set_xticks(range(players), [str(k + 1) for k in range(players)])
    axes[0].set_ylabel(axis_label("win share, 95% CI", "%"))
    place_legend(axes[2])
    fig.tight_layout()
    return fig


def figure_game_length(ans: Answer):
    """The figure of the ``purramid_game_length`` page, from :mod:`.analysis`'s answer."""
    sides = ans.data
    fig, ax = figure(4.6, 2.5)
    for k, side in enumerate(("A", "B")):
        d = sides[sides["side"] == side]
        plot_series(ax, d["players"] + (k - 0.5) * 0.08, d["turns"],
                    yerr=[d["turns"] - d["turns_ci_low"], d["turns_ci_high"] - d["turns"]], label=f"side {side}",
                    marker="os"[k])
    ax.set_xticks([2, 3, 4])
    ax.set_xlabel(axis_label("players"))
    ax.set_ylabel(axis_label("turns per game", "turns"))
    place_legend(ax)
    fig.tight_layout()
    return fig


def figure_side_a_vs_b(ans: Answer):
    """The figure of the ``purramid_side_a_vs_b`` page, from :mod:`.analysis`'s answer."""
    diffs = ans.frames["diffs"]
    qs = [("turns per game", 1.0, "turns"), ("bursts per turn", 1.0, "bursts per turn"),
          ("start player's win share", 100.0, "percentage points")]
    fig, axes = figure(6.7, 2.5, ncols=3)
    for ax, (q, k, unit) in zip(axes, qs):
        d = diffs[diffs["quantity"] == q]
        ax.errorbar(d["players"], k * d["diff"], yerr=[k * (d["diff"] - d["diff_ci_low"]),
                                                       k * (d["diff_ci_high"] - d["diff"])], fmt="o", capsize=3)
        ax.axhline(0, color="0.5", lw=1, ls="--")
        ax.set_xticks([2, 3, 4])
        ax.set_xlim(1.5, 4.5)
        ax.set_title(q[0].upper() + q[1:])
        ax.set_xlabel(axis_label("players"))
        ax.set_ylabel(axis_label("side B - side A", unit))
    fig.tight_layout()
    return fig


def figure_yarn_value(ans: Answer):
    """The figure of the ``purramid_yarn_value`` page, from :mod:`.analysis`'s answer."""
    df = ans.data
    yv = ans.info["yarn_value"]
    fig, ax = figure(5.2, 2.6)
    ax.scatter(df["free_spaces"], df["gain_first_token"], marker="o", label="first token")
    ax.scatter(df["free_spaces"], df["gain_second_token"], marker="s", facecolors="none", edgecolors="C3",
               label="second token")
    ax.axhline(yv, color="0.5", ls="--", lw=1, label=f"data default {yv:g}")
    ax.set_xlabel(axis_label("empty spaces on the board", "spaces"))
    ax.set_ylabel(axis_label("gain this turn", "expected tiles"))
    place_legend(ax)
    fig.tight_layout()
    return fig


def figure_policy_regret(ans: Answer):
    """The figure of the ``purramid_policy_regret`` page, from :mod:`.analysis`'s answer."""
    df = ans.data
    labels = ans.info["policies"]
    fig, ax = figure(6.7, 2.7)
    n_b = df["board"].nunique()
    for k, (board, d) in enumerate(df.groupby("board", sort=False)):
        x = np.arange(len(labels)) + (k - (n_b - 1) / 2) * 0.22
        d = d.set_index("policy").loc[labels]
        ax.errorbar(x, d["regret"], yerr=[d["regret"] - d["regret_ci_low"], d["regret_ci_high"] - d["regret"]],
                    fmt="o", capsize=3, label=board)
    ax.set_xticks(range(len(labels)), labels)
    ax.axhline(0, color="0.5", lw=1, ls="--")
    ax.set_xlabel("rule of thumb")
    ax.set_ylabel(axis_label("loss against the optimum", "tiles per turn"))
    place_legend(ax)
    fig.tight_layout()
    return fig


def figure_bonus_modes(ans: Answer):
    """The figure of the ``purramid_bonus_modes`` page, from :mod:`.analysis`'s answer."""
    df = ans.data
    fig, ax = figure(5.2, 2.6)
    ax.scatter(df["valid_groups"], df["approx_error"], marker="^", label="approx - exact")
    ax.scatter(df["valid_groups"], df["none_error"], marker="v", label="none - exact")
    ax.axhline(0, color="0.5", lw=1, ls="--")
    ax.set_xlabel(axis_label("valid dice groups on the board", "groups"))
    ax.set_ylabel(axis_label("error of a fresh turn's value", "tiles"))
    place_legend(ax)
    fig.tight_layout()
    return fig


def figure_strong_play(ans: Answer):
    """The figure of the ``purramid_strong_play`` page, from :mod:`.analysis`'s answer."""
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
    return fig


def figure_skill_gap(ans: Answer):
    """The figure of the ``purramid_skill_gap`` page, from :mod:`.analysis`'s answer."""
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
    return fig



# ------------------------------------------------------------------------------------------ 1 burst odds
def burst_odds_experiment() -> ExperimentResult:
    ans = A.burst_odds()
    grid = ans.frames["grid"]
    fig = figure_burst_odds(ans)
    table = (100 * grid).round(1).reset_index()
    table.columns = ["dice rolled"] + [f"{c}" for c in grid.columns]
    method = ("Exact P(burst) when only one empty space is left, by its number and the dice rolled: no subset of "
              "the dice sums to the number (integer-weighted enumeration of sorted rolls, no sampling error). "
              "Table: P(burst) in %, columns = the number on the space.")
    return result_of("purramid_burst_odds", "Burst odds by dice and number", ans, method, fig, table)


# ------------------------------------------------------------------------------------------ 2 press your luck
def press_your_luck_experiment(quick: bool = False) -> ExperimentResult:
    ans = A.stop_or_continue(quick)
    df = ans.data
    fig = figure_press_your_luck(ans)
    shown = pd.DataFrame({"situation": df["situation"], "dice left": df["dice_left"],
                          "stop (tiles)": df["stop_value"].round(3), "continue (tiles)": df["continue_value"].round(3),
                          "P(burst) if continuing, %": (100 * df["continue_burst"]).round(1), "best": df["best"],
                          "bonus turns": df["bonus_mode"]})
    method = ("Exact expected tiles this turn (bonus turns included, a yarn token counted at "
              f"{ans.info['yarn_value']:g} tiles) of stopping now and of rolling the dice left and then playing "
              f"on optimally, in named situations on side {ans.info['side']} (the advisor's expectimax over every "
              "roll). Above the dashed line continuing is worth more.")
    return result_of("purramid_press_your_luck", "Press your luck: stop vs continue", ans, method, fig, shown)


# ------------------------------------------------------------------------------------------ 3-5 games
def game_experiments(n_games, seed, *, strong_games=None, player: str | None = None, heuristic: str | None = None,
                     n_jobs: int = 1, backend: str = "loky", scheduler=None, cache_dir=None):
    """Seat advantage, game length and side A vs side B (:func:`~.analysis.game_answers`: the report player's games,
    the heuristic's findings beside each), as pages.  Returns the three results, the games played and the report
    player's games (reused by the strong-play page)."""
    answers, strong, heur = A.game_answers(n_games, seed, strong_games=strong_games, player=player,
                                           heuristic=heuristic, n_jobs=n_jobs, backend=backend, scheduler=scheduler,
                                           cache_dir=cache_dir)
    out = [page(ans) for page, ans in zip((seat_page, length_page, sides_page), answers)]
    return out, len(heur) + len(strong), strong


def seat_experiment(games: pd.DataFrame) -> ExperimentResult:
    """The page of :func:`~.analysis.seat_advantage` on ``games``."""
    return seat_page(A.seat_advantage(games))


def seat_page(ans: Answer) -> ExperimentResult:
    seats = ans.data
    fig = figure_seat_advantage(ans)
    shown = pd.DataFrame({"players": seats["players"], "side": seats["side"], "turn position": seats["seat"] + 1,
                          "win share, % (95% CI)": ci_cells(seats, "p_win", pct=True),
                          "fair share, %": (100 * seats["fair_share"]).round(1),
                          "mean score (95% CI)": ci_cells(seats, "score")})
    method = (f"Simulated whole games (compiled rules), {ans.info['games_per_cell']:,} per player count and side, "
              f"{ans.info['player']} (the report player; 'optimal' solves every turn exactly). Seat 1 starts (turn position 1); the "
              "deal gives the start player one tile more (rules). Win shares with Wilson 95% intervals; with every "
              "seat optimal, win shares and scores regress on the seats' turn luck (realised minus solved turn "
              "values, mean 0 exactly: the dice's luck taken out of the same games; Student-t intervals). The "
              "findings pool both sides, and give the heuristic player's result beside (sensitivity), from its "
              "own, larger sample.")
    return result_of("purramid_seat_advantage", "Seat advantage by player count and side", ans, method, fig, shown)


def length_experiment(games: pd.DataFrame) -> ExperimentResult:
    """The page of :func:`~.analysis.game_length` on ``games``."""
    return length_page(A.game_length(games))


def length_page(ans: Answer) -> ExperimentResult:
    sides = ans.data
    fig = figure_game_length(ans)
    ends = ans.frames["ends"]
    shown = pd.DataFrame({"players": sides["players"], "side": sides["side"], "games": sides["games"],
                          "turns per game (95% CI)": ci_cells(sides, "turns"),
                          "turns per player": sides["turns_per_player"].round(1),
                          "all gold placed, % (95% CI)": ci_cells(sides, "p_all_gold", pct=True)})
    end_txt = ", ".join(f"{r.end.replace('_', ' ')} {100 * r.share:.0f}%" for r in ends.itertuples())
    method = ("Normal turns per game (bonus turns not counted) in the same simulated games as the seat "
              f"advantage ({ans.info['player']}); intervals on the log scale (never below 0), or with every seat "
              "optimal the regression on the seats' turn luck (t). How the games "
              f"ended: {end_txt}.")
    return result_of("purramid_game_length", "Game length by player count and side", ans, method, fig, shown)


def sides_experiment(games: pd.DataFrame) -> ExperimentResult:
    """The page of :func:`~.analysis.side_a_vs_b` on ``games``."""
    return sides_page(A.side_a_vs_b(games))


def sides_page(ans: Answer) -> ExperimentResult:
    diffs = ans.frames["diffs"]
    fig = figure_side_a_vs_b(ans)
    ex = ans.frames["exact"]
    rows = [{"players": "any", "quantity": f"exact fresh-turn value, {r.board} board (tiles)",
             "side A (95% CI)": "", "side B (95% CI)": "", "B - A (95% CI)": ""} for r in ex[ex.side == "A"].itertuples()]
    for r in rows:
        board = r["quantity"].split(", ")[1].removesuffix(" board (tiles)")
        va = float(ex[(ex.side == "A") & (ex.board == board)]["fresh_turn_value"].iloc[0])
        vb = float(ex[(ex.side == "B") & (ex.board == board)]["fresh_turn_value"].iloc[0])
        r.update({"side A (95% CI)": f"{va:.3f}", "side B (95% CI)": f"{vb:.3f}", "B - A (95% CI)": f"{vb - va:+.3f}"})
    order = {q: i for i, q in enumerate(dict.fromkeys(diffs["quantity"]))}  # by quantity, then players
    for _, r in diffs.sort_values(["quantity", "players"], key=lambda c: c.map(order) if c.name == "quantity"
                                  else c).iterrows():
        pct = r["quantity"] == "start player's win share"
        rows.append({"players": str(r["players"]), "quantity": r["quantity"] + (", %" if pct else ""),
                     "side A (95% CI)": interval_text(r["A"], r["A_ci_low"], r["A_ci_high"], pct=pct),
                     "side B (95% CI)": interval_text(r["B"], r["B_ci_low"], r["B_ci_high"], pct=pct),
                     "B - A (95% CI)": interval_text(r["diff"], r["diff_ci_low"], r["diff_ci_high"], pct=pct)})
    method = ("Exact: the value of a fresh five-dice turn on each side's empty and 2-player start board. "
              "Simulated: the games of the seat-advantage experiment, side B minus side A per player count "
              "with a normal 95% interval of the difference; the findings average the differences over player "
              "counts. Side B puts 1s and 2s in the middle rows and its 12s lower (a reconstruction).")
    return result_of("purramid_side_a_vs_b", "Side A vs side B", ans, method, fig, pd.DataFrame(rows))


# ------------------------------------------------------------------------------------------ 6 yarn
def yarn_value_experiment(quick: bool = False, seed=0) -> ExperimentResult:
    ans = A.yarn_value(quick, seed)
    df = ans.data
    yv = ans.info["yarn_value"]
    fig = figure_yarn_value(ans)
    shown = pd.DataFrame({"board": df["board"], "empty spaces": df["free_spaces"],
                          "turn value, no token (tiles)": df["value_0_tokens"].round(3),
                          "gain, first token": df["gain_first_token"].round(3),
                          "gain, second token": df["gain_second_token"].round(3), "bonus turns": df["bonus_mode"]})
    method = ("Exact gain in expected tiles of a fresh five-dice turn from holding one (two) yarn tokens, spent "
              "whenever a reroll helps, on the 2-player start board, boards met in simulated 4-player games "
              f"({A.GAME_POLICY}) and, in the full report, the empty board. Each value is exact; the boards from "
              "games are a sample, so their mean carries a t interval over boards (a claim needs 10 boards). The "
              f"data default yarn_value = {yv:g} (data/game.toml) is what the advisor counts a token won or spent "
              "at; experiments/purramid_yarn_value.py --derive measures it over boards from 2-4 player games.")
    return result_of("purramid_yarn_value", "Value of a yarn token", ans, method, fig, shown)


# ------------------------------------------------------------------------------------------ 7 regret
def policy_regret_experiment(quick: bool = False, seed=0) -> ExperimentResult:
    ans = A.rule_of_thumb_regret(quick, seed)
    df = ans.data
    fig = figure_policy_regret(ans)
    shown = pd.DataFrame({"board": df["board"], "policy": df["policy"],
                          "optimum (tiles)": df["optimal_value"].round(3),
                          "expected tiles (95% CI)": ci_cells(df, "value"),
                          "loss (95% CI)": ci_cells(df, "regret"),
                          "P(burst), % (95% CI)": ci_cells(df, "burst", pct=True)})
    method = (f"Monte Carlo turns ({ans.info['turns']:,} per rule and board) of human-style rules of thumb -- "
              "greedy (roll while dice are left), stop after k placements, stop when the next roll's chance of "
              "offering nothing exceeds p -- against the exact optimum of the same turn, on "
              f"{ans.info['boards']} mid- to late-game board(s) of side A met in simulated games (where the "
              "advisor is exact).")
    return result_of("purramid_policy_regret", "Human policies vs the optimal policy", ans, method, fig, shown)


# ------------------------------------------------------------------------------------------ 8 bonus modes
def bonus_mode_experiment(quick: bool = False, seed=0) -> ExperimentResult:
    from .advisor import AUTO_EXACT_MAX_VALID

    ans = A.bonus_mode_accuracy(quick, seed)
    df = ans.data
    fig = figure_bonus_modes(ans)
    shown = pd.DataFrame({"board": df["board"], "dice": df["dice"], "valid groups": df["valid_groups"],
                          "exact (tiles)": df["exact"].round(3), "approx - exact": df["approx_error"].round(3),
                          "none - exact": df["none_error"].round(3),
                          "approx error, %": (100 * df["approx_rel_error"]).round(1),
                          "exact solve, s CPU": df["exact_cpu_seconds"].round(2)})
    method = ("Value of a fresh turn computed with bonus turns valued on the board at the start of the turn "
              "('approx') or ignored ('none'), against the exact recursion (every bonus turn solved on the board "
              f"it is played on; compiled solver, cold memo), on {ans.info['boards']} boards. The default 'auto' "
              f"is exact on every board with at most {AUTO_EXACT_MAX_VALID} valid groups, which includes every "
              "board of both default sides (the empty boards have the most, 72 and 76).")
    return result_of("purramid_bonus_modes", "Bonus-turn modes: error against exact", ans, method, fig, shown)

# ------------------------------------------------------------------------------------------ strong play
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
    fig = figure_strong_play(ans)
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
    fig = figure_skill_gap(ans)
    shown = pd.DataFrame({"players": gap["players"], "side": gap["side"], "games": gap["games"],
                          "win share, % (95% CI)": ci_cells(gap, "p_win", pct=True),
                          "fair share, %": (100 * gap["fair_share"]).round(1),
                          "score minus heuristic seats (95% CI)": ci_cells(gap, "score_gap")})
    method = (f"One seat plays the exact policy, the others {A.GAME_POLICY}; the optimal seat rotates through the "
              "seats in equal blocks, so the start-player effect averages out. The exact player maximises each "
              "turn's expected tiles, not the race.")
    return result_of("purramid_skill_gap", "Skill gap: one exact player among heuristic players", ans, method, fig,
                     shown, size=size)


# ------------------------------------------------------------------------------------------ section
def components_text() -> str:
    cfg = load_game_config()
    rec = [k for k, v in cfg.sources.items() if v == "reconstruction"]
    lines = [
        "Components the rules do not publish are data (pyradice_lab/purramid/data, each value marked rules or "
        "reconstruction):",
        "- Board sides A and B (side_a.toml, side_b.toml): the rules text has no board picture. From the rules: "
        "11 rows of widths 11..1 units ('10' spaces 2 units wide), 21 single tiles in the bottom two rows, no "
        "'12' there, a '2' directly below an '8', at most 12 '8's. Our choice: capacity 78 (six '12's); "
        "numbers placed from the exact burst odds (side A easy at the bottom, side B with 1s and 2s in the "
        "middle rows).",
        f"- yarn_value = {cfg.yarn_value:g} tiles per token (derived, see 'Value of a yarn token'); "
        f"turn_limit = {cfg.turn_limit} turns (a simulation safety stop, never reached). Reconstructed values "
        f"in game.toml: {', '.join(rec)}; everything else (72 regular and 12 gold tiles, 12 yarn tokens, 5 dice, "
        "the deals) is from the rules.",
        "- Players: the human-style policies keep their dice one connected group and never make a provably "
        "doomed placement; the exact policy ('optimal') solves every turn exactly on its board. A player who "
        "runs out of regular tiles mid-placement places the rest as gold if they just won; the game ends if "
        "they are the second to finish.",
    ]
    return "\n\n".join(lines)


def report_section(ctx: ReportContext) -> Section:
    """The Purramid section: exact odds and advisor, simulations with CIs, reconstructed components.

    Parameters
    ----------
    ctx : pyradice_lab.report.ReportContext
        The report's settings: ``quick`` (small sizes), the root ``seed`` (this section draws from
        ``ctx.seed_for("purramid")``), ``n_jobs`` and ``out_dir`` (each experiment writes its CSV and figure
        to ``out_dir/<experiment>/``).

    Returns
    -------
    pyradice_lab.report.Section
        Titled ``"Purramid"``: an introduction, the reconstructed components, then one
        :class:`~pyradice_lab.report.ExperimentResult` per experiment (question, findings, method, figure,
        table).

    Examples
    --------
    >>> from pyradice_lab.report import ReportContext
    >>> sec = report_section(ReportContext(quick=True, seed=3))  # doctest: +SKIP
    >>> sec.title  # doctest: +SKIP
    'Purramid'

    (Skipped in the doctests: even the quick section plays thousands of games, about a minute;
    ``tests/purramid/test_cli_report.py`` runs it.)
    """
    root = ctx.seed_for("purramid")
    s_games, s_yarn, s_regret, s_bonus, s_strong = root.spawn(5)
    quick = ctx.quick
    intro = (
        "Purramid is a press-your-luck game: roll five dice, put dice summing to a space's number on the "
        "board, and after every placement stop (the dice become cat tiles if they form a connected, supported "
        "group) or roll the rest and risk a burst. Using all dice, or reaching three rows, earns a bonus turn "
        "with one die fewer. Turn questions are answered exactly (an expectimax over every roll); balance "
        "questions by simulating whole games, with human-style players and with every seat playing the exact "
        "policy. Exact numbers carry no error; simulated numbers carry a 95% confidence interval.")
    items: list = [Text(intro, heading="Purramid"), Text(components_text(), heading="Reconstructed components")]
    results = [burst_odds_experiment(), press_your_luck_experiment(quick)]
    size = A.SIZES["quick" if quick else "full"]
    game_res, n_played, strong_games = game_experiments(size["games"], s_games, strong_games=size["strong_games"])
    results += game_res
    results += [yarn_value_experiment(quick, s_yarn), policy_regret_experiment(quick, s_regret),
                bonus_mode_experiment(quick, s_bonus)]
    # the strong-play page compares the same report-player games with risk:0.35 play (its start-player findings
    # are the seat-advantage page's: not repeated there)
    results += strong_play_experiments(size["strong"], s_strong, optimal=strong_games)
    for r in results:
        save_experiment(r, ctx.out_dir)
        items.append(r)
    return Section("Purramid", items, seed=ctx.seed_label("purramid"), trials=f"{n_played:,} games + turns")
