"""Purramid experiments as report items: each builds an ExperimentResult (table, figure, reading).

Used by :func:`report_section` (the PDF report) and by ``experiments/purramid_*.py``.  Sizes follow
``quick``; randomness comes from the SeedSequence passed in (the section spawns one child per experiment).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..report import ExperimentResult, ReportContext, Section, Text, save_experiment
from ..rng import seed_sequence
from . import analysis as A
from .components import Layout, load_game_config, load_layout

__all__ = ["burst_odds_experiment", "press_your_luck_experiment", "game_experiments", "yarn_value_experiment",
           "policy_regret_experiment", "bonus_mode_experiment", "report_section", "components_text",
           "POLICIES"]

#: rows of each experiment's table printed in the report (the CSV beside it has all)
TABLE_ROWS = 18

POLICIES = ["greedy", "stop_after:1", "stop_after:2", "stop_after:3", "risk:0.2", "risk:0.35", "risk:0.5"]


def _fig(w=7.5, h=4.2):
    import matplotlib.pyplot as plt

    return plt.subplots(figsize=(w, h))


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


# ------------------------------------------------------------------------------------------ 1 burst odds
def burst_odds_experiment() -> ExperimentResult:
    import matplotlib.pyplot as plt

    df = A.burst_heatmap()
    grid = df.pivot(index="dice", columns="number", values="p_burst")
    fig, ax = plt.subplots(figsize=(8, 3.0))
    im = ax.imshow(grid.to_numpy(), cmap="RdYlGn_r", vmin=0, vmax=1, aspect="auto")
    ax.set_xticks(range(grid.shape[1]), grid.columns)
    ax.set_yticks(range(grid.shape[0]), grid.index)
    ax.set_xlabel("number on the only empty space")
    ax.set_ylabel("dice rolled")
    for i in range(grid.shape[0]):
        for j in range(grid.shape[1]):
            v = grid.iat[i, j]
            ax.text(j, i, f"{100 * v:.0f}", ha="center", va="center", fontsize=7, color="k")
    fig.colorbar(im, ax=ax, label="P(burst)")
    ax.set_title("Exact P(burst), %: no subset of the dice sums to the number")
    five = grid.loc[5]
    two = grid.loc[2]
    reading = (
        f"Exact odds (integer-weighted enumeration; no sampling error). With a single die only 1-6 can be hit "
        f"(burst {_pct(grid.loc[1, 6])} each). Small numbers do not get much easier with more dice: with five "
        f"dice a lone '1' still bursts {_pct(five[1])} of the time and a '2' {_pct(five[2])}, while every "
        f"number from 5 to 12 bursts at most {_pct(five.loc[5:12].max())}. Big numbers are the opposite: "
        f"with two dice a '12' bursts {_pct(two[12])} and a '10' {_pct(two[10])}. For a designer: 1s and 2s "
        f"are the hard spaces early in a turn, 10-12 the hard spaces late in a turn; a board mixes both so "
        f"that no dice count is always safe.")
    table = grid.reset_index()
    table.columns = ["dice"] + [f"n={c}" for c in grid.columns]
    return ExperimentResult("purramid_burst_odds", "Burst odds by dice and number", reading, table, fig,
                            meta={"exact": True})


# ------------------------------------------------------------------------------------------ 2 press your luck
def press_your_luck_experiment(quick: bool = False) -> ExperimentResult:
    import matplotlib.pyplot as plt

    df = A.press_your_luck("A")
    if quick:
        keep = df["situation"].unique()[[0, -1]]
        df = df[df["situation"].isin(keep)].reset_index(drop=True)
    sits = list(df["situation"].unique())
    fig, axes = plt.subplots(1, len(sits), figsize=(3.0 * len(sits), 3.0), sharey=False, squeeze=False)
    for ax, sit in zip(axes[0], sits):
        d = df[df["situation"] == sit]
        ax.plot(d["dice_left"], d["stop_value"], "o-", label="stop")
        ax.plot(d["dice_left"], d["continue_value"], "s-", label="continue")
        ax.set_title(sit, fontsize=7.5)
        ax.set_xlabel("dice left")
        ax.set_xticks(d["dice_left"])
    axes[0][0].set_ylabel("expected tiles this turn (bonus turns included)")
    axes[0][0].legend(fontsize=8)
    fig.suptitle("Stop or continue? Exact values on side A", fontsize=10)
    fig.tight_layout()
    many = df[df["dice_left"] >= 3]
    few = df[df["dice_left"] <= 2]
    lines = [f"'{r.situation}' with {r.dice_left} {'die' if r.dice_left == 1 else 'dice'} left: stop "
             f"{r.stop_value:.2f} vs continue {r.continue_value:.2f} tiles" for r in few.itertuples()]
    reading = (
        "Exact values from the advisor (expected tiles this turn, bonus turns included, a yarn token "
        f"counted at {load_game_config().yarn_value:g} tiles). With three or four dice left continuing is "
        f"right in {(many['best'] == 'continue').sum()} of {len(many)} cases: more placements, and using every "
        "die earns a bonus turn. With one or two dice left continuing is right in "
        f"{(few['best'] == 'continue').sum()} of {len(few)} cases; it depends on the board: on an open board a "
        "lone die still has places to go and using it earns the bonus turn, high on a crowded board it does "
        "not. " + "; ".join(lines[:4]) + ". Where bonus_mode says approx, bonus turns are valued "
        "approximately (see the bonus-mode experiment for that error).")
    return ExperimentResult("purramid_press_your_luck", "Press your luck: stop vs continue", reading, df, fig)


# ------------------------------------------------------------------------------------------ 3-5 games
def game_experiments(n_games: int, seed) -> tuple[list[ExperimentResult], int]:
    """Seat advantage, game length and side A vs side B from one set of simulated games."""
    import matplotlib.pyplot as plt

    games = A.game_cells(n_games=n_games, seed=seed)
    seats = A.seat_table(games)
    sides = A.side_table(games)

    fig, axes = plt.subplots(1, 3, figsize=(10, 3.0), sharey=True)
    for ax, players in zip(axes, (2, 3, 4)):
        for k, side in enumerate(("A", "B")):
            d = seats[(seats["players"] == players) & (seats["side"] == side)]
            x = d["seat"] + (k - 0.5) * 0.25
            ax.errorbar(x, d["p_win"], yerr=[d["p_win"] - d["p_win_ci_low"], d["p_win_ci_high"] - d["p_win"]],
                        fmt="o", capsize=3, label=f"side {side}")
        ax.axhline(1 / players, color="0.6", ls="--", lw=1)
        ax.set_title(f"{players} players")
        ax.set_xlabel("seat (0 = start player)")
        ax.set_xticks(range(players))
    axes[0].set_ylabel("P(win), 95% CI")
    axes[0].legend(fontsize=8)
    fig.suptitle(f"Who wins? {n_games:,} games per cell, every seat plays {A.GAME_POLICY}", fontsize=10)
    fig.tight_layout()
    s0 = seats[seats["seat"] == 0]
    parts = [f"{r.players}p side {r.side}: {_pct(r.p_win)} (CI {_pct(r.p_win_ci_low)}-{_pct(r.p_win_ci_high)}, "
             f"fair {_pct(1 / r.players)})" for r in s0.itertuples()]
    off = seats[(seats["p_win_ci_low"] > seats["fair_share"]) | (seats["p_win_ci_high"] < seats["fair_share"])]
    off_txt = ", ".join(f"{r.players}p side {r.side} seat {r.seat} ({_pct(r.p_win)})" for r in off.itertuples())
    two = s0[s0["players"] == 2]
    two_txt = ("In two-player games the start player (26 tiles vs 25) wins more than half on both sides "
               "(both intervals above 50%): moving first outweighs the extra tile. "
               if (two["p_win_ci_low"] > 0.5).all() else
               "In two-player games the data cannot yet separate the start player from a coin flip on every side. ")
    reading = (
        f"Simulated games, {n_games:,} per player count and side; every seat plays the same human-style policy "
        f"({A.GAME_POLICY}: greedy placement, stop when the next roll's chance of offering nothing exceeds "
        "35%). The start player's win rate: " + "; ".join(parts) + ". " + two_txt +
        (f"Seats whose 95% interval excludes the fair share: {off_txt}; all other seats are within noise."
         if len(off) else "No seat's 95% interval excludes its fair share at this sample size."))
    seats = seats[["players", "side", "seat", "p_win", "p_win_se", "p_win_ci_low", "p_win_ci_high", "score",
                   "score_se", "games"]]
    res_seats = ExperimentResult("purramid_seat_advantage", "Seat advantage by player count and side", reading,
                                 seats, fig)

    fig, ax = _fig(6.5, 2.9)
    for k, side in enumerate(("A", "B")):
        d = sides[sides["side"] == side]
        ax.errorbar(d["players"] + (k - 0.5) * 0.1, d["turns"],
                    yerr=[d["turns"] - d["turns_ci_low"], d["turns_ci_high"] - d["turns"]], fmt="o-", capsize=3,
                    label=f"side {side}")
    ax.set_xticks([2, 3, 4])
    ax.set_xlabel("players")
    ax.set_ylabel("turns per game (mean, 95% CI)")
    ax.legend()
    ax.set_title("Game length")
    fig.tight_layout()
    tl = ", ".join(f"{r.players}p side {r.side} {r.turns:.1f} ± {r.turns_se:.1f}" for r in sides.itertuples())
    ends = games["end"].value_counts(normalize=True)
    reading = (
        f"Mean number of normal turns per game (± standard error): {tl}. "
        f"{_pct(ends.get('second_player_out', 0.0))} of all simulated games end when a second player places "
        f"their last regular tile, {_pct(ends.get('gold_placed', 0.0))} when the winner has placed all 12 gold "
        f"tiles and {_pct(ends.get('board_full', 0.0))} with a full board. Per seat, a game gives each player "
        "about turns / players turns, so a 4-player game is short for each player.")
    res_len = ExperimentResult("purramid_game_length", "Game length by player count and side", reading,
                               sides[["players", "side", "games", "turns", "turns_se", "turns_ci_low",
                                      "turns_ci_high"]], fig)

    side_rows = []
    for side in ("A", "B"):
        L = load_layout(side)
        from .advisor import solver_for

        s = solver_for(L)
        side_rows.append({"side": side, "board": "empty", "fresh_turn_value": s.fresh(0, 5, 0)[0],
                          "fresh_turn_burst": s.fresh(0, 5, 0)[1], "bonus_mode": s.bonus_mode(0, 5)})
        cov = L.bottom_rows_mask(2)
        side_rows.append({"side": side, "board": "2-player start", "fresh_turn_value": s.fresh(cov, 5, 0)[0],
                          "fresh_turn_burst": s.fresh(cov, 5, 0)[1], "bonus_mode": s.bonus_mode(cov, 5)})
    exact = pd.DataFrame(side_rows)
    comp = sides.merge(exact[exact["board"] == "empty"][["side", "fresh_turn_value"]], on="side")
    fig, axes = plt.subplots(1, 3, figsize=(10, 2.9))
    for ax, col, lab in zip(axes, ("bursts_per_turn", "bonus_per_turn", "winner_gold"),
                            ("bursts per turn", "bonus turns per turn", "winner's gold tiles")):
        for k, side in enumerate(("A", "B")):
            d = comp[comp["side"] == side]
            ax.errorbar(d["players"] + (k - 0.5) * 0.1, d[col],
                        yerr=[d[col] - d[f"{col}_ci_low"], d[f"{col}_ci_high"] - d[col]], fmt="o-", capsize=3,
                        label=f"side {side}")
        ax.set_xticks([2, 3, 4])
        ax.set_xlabel("players")
        ax.set_title(lab, fontsize=9)
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    ea, eb = exact.iloc[0], exact.iloc[2]
    pa, pb = exact.iloc[1], exact.iloc[3]
    bpt = comp.groupby("side")["bursts_per_turn"].mean()
    more = "B" if bpt["B"] > bpt["A"] else "A"
    less = "A" if more == "B" else "B"
    sep = [r.players for r in comp.itertuples() if r.side == more and
           r.bursts_per_turn_ci_low > comp[(comp.side == less) & (comp.players == r.players)].bursts_per_turn_ci_high.iloc[0]]
    reading = (
        f"Exact: a fresh 5-dice turn on the empty board is worth {ea.fresh_turn_value:.2f} tiles on side A and "
        f"{eb.fresh_turn_value:.2f} on side B (bonus turns valued {ea.bonus_mode}); on the 2-player start board "
        f"{pa.fresh_turn_value:.2f} vs {pb.fresh_turn_value:.2f}. Simulated ({n_games:,} games per cell): side "
        f"{more} bursts more often, {bpt[more]:.3f} vs {bpt[less]:.3f} bursts per turn averaged over player counts"
        + (f", with non-overlapping 95% intervals for {', '.join(f'{p}p' for p in sep)}" if sep else
           ", although no single cell separates the sides at this sample size")
        + ". A likely cause: side B's 1s and 2s in the middle rows are hard to hit with many dice and its "
        "12s sit low. Bonus turns and "
        "the winner's gold are shown with their intervals in the figure; the table lists every quantity "
        "with its standard error and 95% CI.")
    long_rows = []
    for r in comp.itertuples():
        for q in ("turns", "bursts_per_turn", "bonus_per_turn", "winner_gold", "p_all_gold"):
            long_rows.append({"players": r.players, "side": r.side, "quantity": q, "value": getattr(r, q),
                              "se": getattr(r, f"{q}_se"), "ci_low": getattr(r, f"{q}_ci_low"),
                              "ci_high": getattr(r, f"{q}_ci_high"), "games": r.games})
    for r in exact.itertuples():
        long_rows.append({"players": np.nan, "side": r.side, "quantity": f"exact fresh-turn value, {r.board}",
                          "value": r.fresh_turn_value, "se": 0.0, "ci_low": r.fresh_turn_value,
                          "ci_high": r.fresh_turn_value, "games": 0})
    res_sides = ExperimentResult("purramid_side_a_vs_b", "Side A vs side B", reading, pd.DataFrame(long_rows), fig)
    return [res_seats, res_len, res_sides], len(games)


# ------------------------------------------------------------------------------------------ 6 yarn
def yarn_value_experiment(quick: bool = False, seed=0) -> ExperimentResult:

    boards = []
    sides = ("A",) if quick else ("A", "B")
    for side in sides:
        L = load_layout(side)
        if not quick:  # the open board needs the costliest solves (about 1 s)
            boards.append((f"empty {side}", side, 0))
        boards.append((f"2p start {side}", side, L.bottom_rows_mask(2)))
    n_pos = 3 if quick else 7
    seqs = seed_sequence(seed).spawn(2)
    for side, sq in zip(sides, seqs):
        pos = A.sample_positions(side, 4, n_pos, seed=sq)
        boards += [(f"4p game {side} #{i}", side, c) for i, c in enumerate(pos) if c]  # c = 0: the empty board
    df = A.yarn_values(boards)
    fig, ax = _fig(6.5, 3.0)
    for mode, mk in (("exact", "o"), ("approx", "^")):
        d = df[df["bonus_mode"] == mode]
        ax.scatter(d["free_spaces"], d["gain_first_token"], marker=mk, label=f"first token ({mode} bonus)")
        ax.scatter(d["free_spaces"], d["gain_second_token"], marker=mk, facecolors="none", edgecolors="C3",
                   label=f"second token ({mode} bonus)")
    yv = load_game_config().yarn_value
    ax.axhline(yv, color="0.5", ls="--", lw=1, label=f"data default {yv:g}")
    ax.set_xlabel("empty spaces on the board")
    ax.set_ylabel("extra expected tiles this turn")
    ax.legend(fontsize=7)
    ax.set_title("Value of holding a yarn token (exact)")
    fig.tight_layout()
    ex = df[df["bonus_mode"] == "exact"]
    ap = df[df["bonus_mode"] == "approx"]
    second = ex["gain_second_token"].median() if len(ex) else float("nan")
    reading = (
        "Exact gain in expected tiles of a fresh 5-dice turn from holding one yarn token (spent whenever a "
        "reroll helps) on the 2-player start board, boards met in simulated 4-player games and (full report) "
        "the empty board. "
        + (f"Where bonus turns are solved exactly the first token is worth {ex['gain_first_token'].median():.2f} "
           f"tiles (median of {len(ex)} boards, range {ex['gain_first_token'].min():.2f}-"
           f"{ex['gain_first_token'].max():.2f}) and a second one {second:.2f} more. " if len(ex) else "")
        + (f"On open boards, where bonus turns are valued approximately, the gain is "
           f"{ap['gain_first_token'].median():.2f} (median of {len(ap)}): a reroll that saves the last die also "
           "saves a bonus turn, and the approximation tends to overvalue bonus turns. " if len(ap) else "")
        + f"The advisor's default yarn_value of {yv:g} tiles per token (data/game.toml) is the exact-board "
        "median measured the same way over 45 boards from 2-4 player games on both sides "
        "(experiments/purramid_yarn_value.py --derive). For a designer: covering an '8' is worth about "
        f"{1 + yv:.1f} tiles, so the 8s are among the most valuable spaces.")
    return ExperimentResult("purramid_yarn_value", "Value of a yarn token", reading, df, fig)


# ------------------------------------------------------------------------------------------ 7 regret
def _exact_boards(quick: bool, seed) -> list[tuple[str, str, int]]:
    out = []
    L = load_layout("A")
    pos = A.sample_positions("A", 4, 8, seed=seed)
    from .advisor import solver_for

    s = solver_for(L)
    for c in pos:
        if c and s.bonus_mode(c, 5) == "exact":
            out.append((f"A, {L.tiles_of(c)} tiles down", "A", c))
    if quick:
        return out[:1]
    return [out[i] for i in sorted({0, len(out) // 2, len(out) - 1})] if out else out


def policy_regret_experiment(quick: bool = False, seed=0) -> ExperimentResult:

    s1, s2 = seed_sequence(seed).spawn(2)
    boards = _exact_boards(quick, s1)
    df = A.policy_regret(boards, POLICIES, n_turns=400 if quick else 3000, seed=s2)
    fig, ax = _fig(8, 3.0)
    labels = POLICIES
    for k, (board, d) in enumerate(df.groupby("board", sort=False)):
        x = np.arange(len(labels)) + (k - (df["board"].nunique() - 1) / 2) * 0.22
        d = d.set_index("policy").loc[labels]
        ax.errorbar(x, d["regret"], yerr=[d["regret"] - d["regret_ci_low"], d["regret_ci_high"] - d["regret"]],
                    fmt="o", capsize=3, label=board)
    ax.set_xticks(range(len(labels)), labels, rotation=20, fontsize=8)
    ax.axhline(0, color="0.6", lw=1)
    ax.set_ylabel("tiles lost per turn vs optimal (95% CI)")
    ax.legend(fontsize=7)
    ax.set_title("Regret of human-style policies")
    fig.tight_layout()
    mean = df.groupby("policy")["regret"].mean().reindex(labels)
    best = mean.idxmin()
    near = df[df["regret_ci_low"] <= 0].groupby("policy").size().reindex(labels).fillna(0).astype(int)
    n_b = df["board"].nunique()
    worst = mean.idxmax()
    gb = df[df["policy"] == "greedy"]["burst"].mean()
    reading = (
        "Expected tiles per turn of each human-style policy (Monte Carlo, "
        f"{int(df['turns'].iloc[0]):,} turns per cell) minus the exact optimum, on {n_b} mid- to late-game "
        "board(s) from simulated games where the advisor is exact. Average regret (tiles per turn): "
        + ", ".join(f"{p} {mean[p]:.2f}" for p in labels) +
        f". Best rule of thumb here: {best}; worst: {worst}. 'greedy' (never stop while dice are left) bursts "
        f"in {_pct(gb)} of first turn segments. Policies whose 95% interval reaches zero regret (i.e. "
        "indistinguishable from optimal) on every board: "
        + (", ".join(p for p in labels if near[p] == n_b) or "none") +
        ". 'Stop after k placements' is only good when k suits the board; the optimum also knows when to "
        "use more dice than needed to earn a bonus turn and when to reroll with a token.")
    df = df[["board", "policy", "optimal_value", "value", "value_se", "regret", "regret_ci_low", "regret_ci_high",
             "burst", "burst_se", "optimal_burst", "turns"]]
    return ExperimentResult("purramid_policy_regret", "Human policies vs the optimal policy", reading, df, fig)


# ------------------------------------------------------------------------------------------ 8 bonus modes
def bonus_mode_experiment(quick: bool = False, seed=0) -> ExperimentResult:

    cases = [(name, Layout.from_rows(rows, name=name), 0, D) for name, rows in A.SMALL_LAYOUTS.items()
             for D in ((4,) if quick else (4, 5))]
    if not quick:
        for side in ("A", "B"):
            cases.append((f"side {side}, empty", side, 0, 5))
        L = load_layout("A")
        for k in (7, 5, 4, 1):
            cases.append((f"side A, rows 0-{k - 1} covered", "A", L.bottom_rows_mask(k), 5))
        for i, c in enumerate(A.sample_positions("B", 4, 6, seed=seed)):
            if c:
                cases.append((f"side B game board #{i}", "B", c, 5))
    df = A.bonus_mode_errors(cases)
    fig, ax = _fig(7.5, 3.3)
    x = np.arange(len(df))
    ax.bar(x - 0.2, df["approx_error"], width=0.4, label="approx - exact")
    ax.bar(x + 0.2, df["none_error"], width=0.4, label="none - exact")
    ax.set_xticks(x, [f"{b} ({d}d, {g} groups)" for b, d, g in zip(df["board"], df["dice"], df["valid_groups"])],
                  rotation=60, ha="right", fontsize=6)
    ax.axhline(0, color="0.5", lw=1)
    ax.set_ylabel("error in expected tiles")
    ax.legend(fontsize=8)
    ax.set_title("Bonus-turn valuation modes vs exact")
    fig.tight_layout()
    rel = df["approx_rel_error"].abs()
    over = int((df["approx_error"] > 0).sum())
    big = df[df["valid_groups"] > 40]
    small = df[df["valid_groups"] <= 40]
    from .advisor import AUTO_EXACT_MAX_VALID

    reading = (
        "Value of a fresh turn computed with each bonus mode against the exact recursion (every bonus turn "
        f"solved on the board it is played on; compiled solver), on {len(df)} boards. 'approx' (bonus "
        "turns valued on the board at the start of the turn) is off by "
        f"{df['approx_error'].abs().mean():.3f} tiles on average (median relative error {_pct(rel.median())}, "
        f"worst {_pct(rel.max())}); it overvalues {over} of {len(df)} boards -- the tiles just placed really do "
        "take the best spaces. "
        + (f"On the {len(big)} open boards with more than 40 valid groups (where the old default used approx: "
           f"the empty boards, early game) the error is {big['approx_error'].abs().mean():.3f} tiles on average "
           f"(relative {_pct(big['approx_rel_error'].abs().median())} median, worst "
           f"{_pct(big['approx_rel_error'].abs().max())}); on the {len(small)} others "
           f"{small['approx_error'].abs().mean():.3f}. " if len(big) and len(small) else "")
        + "'none' (ignore bonus turns) underestimates by "
        f"{(-df['none_error']).mean():.3f} tiles on average: bonus turns are a large part of a turn's value. "
        f"The exact solve took at most {df['exact_cpu_seconds'].max():.2f} s CPU (cold memo) here, so the default "
        f"'auto' is exact on every board with at most {AUTO_EXACT_MAX_VALID} valid groups -- every board of both "
        "default sides (the empty boards have the most, 72 and 76) -- and approx only on bigger custom boards.")
    return ExperimentResult("purramid_bonus_modes", "Bonus-turn modes: error against exact", reading, df, fig)


# ------------------------------------------------------------------------------------------ section
def components_text() -> str:
    cfg = load_game_config()
    rec = [k for k, v in cfg.sources.items() if v == "reconstruction"]
    lines = [
        "Reconstructed components (data files in pyradice_lab/purramid/data, each value marked rules or "
        "reconstruction):",
        "- Board sides A and B (side_a.toml, side_b.toml): the rules text has no board picture. Shape from the "
        "rules: 11 rows of widths 11..1 units ('10' spaces 2 units wide), 21 single tiles in the bottom two "
        "rows, no '12' there, a '2' directly below an '8', at most 12 '8's. Our choice: capacity 78 (six '12's);"
        " numbers placed from the exact burst odds (side A easy at the bottom, side B with 1s and 2s in the "
        "middle rows).",
        f"- yarn_value = {cfg.yarn_value:g} tiles per token (derived, see 'Value of a yarn token'); "
        f"turn_limit = {cfg.turn_limit} turns (a simulation safety stop, never reached).",
        f"- Values marked reconstruction in game.toml: {', '.join(rec)}. Everything else (72 regular and 12 gold "
        "tiles, 12 yarn tokens, 5 dice, the deals) is from the rules.",
        "- Modelling choices: the human-style policies keep their dice one connected group and never make a "
        "provably doomed placement (the spaces still needed must be payable with the dice left, ceil(n/6) dice "
        "per space); they burst when no placement can still meet the conditions (the rules would let them place "
        "a doomed die first: same outcome). The exact policy ('optimal') plays whole games too: every turn "
        "solved exactly on its board. A player who runs out of regular tiles mid-placement places the rest as "
        "gold if they just won, and the game simply ends if they are the second to finish.",
    ]
    return "\n\n".join(lines)


def report_section(ctx: ReportContext) -> Section:
    """The Purramid section: exact odds and advisor, simulations with CIs, reconstructed components."""
    root = ctx.seed_for("purramid")
    s_games, s_yarn, s_regret, s_bonus, s_strong = root.spawn(5)
    quick = ctx.quick
    n_games = 60 if quick else 2000
    intro = (
        "Purramid is a press-your-luck game: roll five dice, put dice summing to a space's number on the "
        "board, and decide after every placement whether to stop (the dice become cat tiles if they form a "
        "connected, supported group) or roll the rest and risk a burst. Using all dice, or reaching three "
        "rows, earns a bonus turn with one die fewer. This section answers 'should I press my luck?' exactly "
        "(an expectimax over every roll, memoised on bit masks of the board, compiled), and balance questions "
        "by simulating whole games with compiled rules -- with human-style players and with every seat playing "
        "the exact policy. Exact numbers carry no error; simulated numbers carry a "
        "standard error and a 95% confidence interval.")
    items: list = [Text(intro, heading="Purramid"), Text(components_text(), heading="Reconstructed components")]
    results = [burst_odds_experiment(), press_your_luck_experiment(quick)]
    game_res, n_played = game_experiments(n_games, s_games)
    results += game_res
    results += [yarn_value_experiment(quick, s_yarn), policy_regret_experiment(quick, s_regret),
                bonus_mode_experiment(quick, s_bonus)]
    from .strongplay import strong_play_experiments

    results += strong_play_experiments("quick" if quick else "report", s_strong)
    for r in results:  # each experiment names its CSV (and PNG) beside the report
        r.max_rows = TABLE_ROWS  # the seat table whole (18 rows: 2-4 players, sides A and B)
        save_experiment(r, ctx.out_dir)
        items.append(r)
    return Section("Purramid", items, seed=ctx.seed_label("purramid"), trials=f"{n_played:,} games + turns")
