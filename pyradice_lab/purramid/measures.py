"""The measurements behind the Purramid experiments: tidy DataFrames of exact values and simulated games.

:mod:`.analysis` turns them into answers with findings; no plotting and no conclusions here.  Monte Carlo
columns carry ``_se``, ``_ci_low`` and ``_ci_high`` (proportions: Wilson intervals; non-negative means such
as turns, bursts per turn or gold tiles: log-transformed intervals that never go below 0); exact columns
are plain floats.
"""

from __future__ import annotations

import time

import numpy as np
import pandas as pd

from ..engine.rng import as_generator, spawn_seeds
from ..engine.stats import Z95, mean_estimate, nonnegative_estimate, proportion_estimate
from . import advisor
from .board import dice_cost, popcount
from .components import coerce_components, load_layout
from .odds import burst_table

__all__ = ["GAME_POLICY", "burst_heatmap", "situations", "press_your_luck", "game_cells", "seat_table",
           "side_table", "sample_positions", "yarn_values", "policy_regret", "bonus_mode_errors", "SMALL_LAYOUTS",
           "skill_gap_games", "skill_gap_table", "compare_play", "side_difference", "difference", "LUCK_MIN_GAMES",
           "luck_of", "lucky"]

#: the seat-symmetric "sensible human" used in the game experiments
GAME_POLICY = "risk:0.35"

SMALL_LAYOUTS = {
    "tiny-3row": [[1, 2, 3], [4, 5], [6]],
    "small-10-12": [[2, 10, 6], [8, 3, 4], [12, 5]],
    "small-8-low": [[3, 8, 2, 5], [6, 1, 4], [7, 9]],
    "small-4row": [[4, 6, 1, 3, 2], [8, 5, 10], [9, 7, 11], [12, 6]],
}


# ------------------------------------------------------------------------------------------ exact odds
def burst_heatmap(max_dice: int = 5, numbers=range(1, 13)) -> pd.DataFrame:
    """P(burst) when the only empty space shows ``number``, for 1..max_dice dice (long format, exact)."""
    t = burst_table(max_dice, numbers)
    rows = []
    for n in numbers:
        for d in range(1, max_dice + 1):
            rows.append({"dice": d, "number": n, "p_burst": float(t.loc[[(n,)], d].iloc[0])})
    return pd.DataFrame(rows)


# ------------------------------------------------------------------------------------------ advisor
def situations(side: str = "A", *, components=None) -> list[dict]:
    """Named board situations for the press-your-luck chart (valid dice groups, so stopping scores).

    ``components`` (every experiment here): a path or loaded components whose sides ``side`` names."""
    L = load_layout(side, coerce_components(components))
    sp = L.spaces
    top = L.all_mask & ~L.bottom_rows_mask(7)
    late = [s for s in sp if not top >> L.index(s) & 1]
    return [
        {"situation": "empty board, dice on one bottom space", "covered": [], "placed": [(0, 3)], "max_used": 4},
        {"situation": "empty board, dice on two bottom spaces", "covered": [], "placed": [(0, 3), (0, 4)],
         "max_used": 3},
        {"situation": "2-player start, dice on one row-3 space", "covered": sp[:L.bottom_rows_mask(2).bit_count()],
         "placed": [(2, 2)], "max_used": 4},
        {"situation": "late game (rows 1-7 covered), dice on row 8, col 2", "covered": late, "placed": [(7, 1)],
         "max_used": 4},
    ]


def press_your_luck(side: str = "A", objective="tiles", *, components=None) -> pd.DataFrame:
    """Exact value of stopping vs continuing, by situation and dice left (bonus turns per ``auto``)."""
    rows = []
    comp = coerce_components(components)
    L = load_layout(side, comp)
    for sit in situations(side, components=comp):
        used = dice_cost(L, L.mask_of(sit["placed"]))   # a space showing n holds at least ceil(n/6) dice
        for d in range(1, 5 - used + 1):
            df = advisor.advise(side, sit["covered"], sit["placed"], dice_left=d, objective=objective,
                                components=comp)
            v = df.set_index("action")
            rows.append({"situation": sit["situation"], "dice_left": d,
                         "stop_value": float(v.loc["stop", "value"]),
                         "continue_value": float(v.loc["continue", "value"]),
                         "continue_burst": float(v.loc["continue", "burst_probability"]),
                         "best": df["action"].iloc[0], "bonus_mode": df["bonus"].iloc[0]})
    return pd.DataFrame(rows)


# ------------------------------------------------------------------------------------------ games
def game_cells(players_list=(2, 3, 4), sides=("A", "B"), n_games=1000, policies: str = GAME_POLICY,
               seed=0, *, n_jobs: int = 1, progress: bool = False, components=None, backend: str = "loky",
               scheduler=None, cache_dir=None, policy=None) -> pd.DataFrame:
    """Simulate ``n_games`` per (players, side) -- an int, or ``{players: n}`` -- with every seat playing
    ``policies`` (one name; ``"optimal"`` too; ``policy=``, its old name, is accepted for one release with a
    DeprecationWarning); one row per game (``simulate_games`` rows, concatenated).  ``n_jobs``,
    ``backend``, ``scheduler``, ``cache_dir``: where the games are played (:mod:`pyradice_lab.engine.execution`;
    the same games whatever they are)."""
    from .sim import simulate_games

    if policy is not None:
        import warnings

        warnings.warn("game_cells: policy= is renamed policies= (the old name is removed in the next release)",
                      DeprecationWarning, stacklevel=2)
        policies = policy

    comp = coerce_components(components)
    cells = [(p, s) for p in players_list for s in sides]
    seqs = spawn_seeds(seed, len(cells))
    frames = []
    for (p, s), q in zip(cells, seqs):
        n = n_games[p] if isinstance(n_games, dict) else n_games
        if n:
            frames.append(simulate_games(n, players=p, layout=s, policies=policies, rng=q, n_jobs=n_jobs,
                                         progress=progress, components=comp, backend=backend, scheduler=scheduler,
                                         cache_dir=cache_dir))
    return pd.concat(frames, ignore_index=True)


def skill_gap_games(players_list=(2, 3, 4), sides=("A", "B"), n_games=240, heuristic: str = GAME_POLICY,
                    seed=0, *, n_jobs: int = 1, progress: bool = False, components=None, backend: str = "loky",
                    scheduler=None, cache_dir=None) -> pd.DataFrame:
    """One ``"optimal"`` seat against ``heuristic`` seats: ``n_games`` per (players, side) (an int or
    ``{players: n}``), the optimal seat rotating through the seats in equal blocks so seat effects cancel;
    ``simulate_games`` rows plus ``optimal_seat``."""
    from .sim import simulate_games

    comp = coerce_components(components)
    cells = [(p, s) for p in players_list for s in sides]
    seqs = spawn_seeds(seed, len(cells))
    frames = []
    for (p, s), q in zip(cells, seqs):
        n = n_games[p] if isinstance(n_games, dict) else n_games
        per_seat = -(-n // p)
        for seat, qq in enumerate(q.spawn(p)):
            pols = [heuristic] * p
            pols[seat] = "optimal"
            df = simulate_games(per_seat, players=p, layout=s, policies=pols, rng=qq, n_jobs=n_jobs,
                                progress=progress, components=comp, backend=backend, scheduler=scheduler,
                                cache_dir=cache_dir)
            df["optimal_seat"] = seat
            frames.append(df)
    return pd.concat(frames, ignore_index=True)


def skill_gap_table(games: pd.DataFrame) -> pd.DataFrame:
    """Per players x side: the optimal seat's win rate (vs the fair share 1/players) and its score minus the
    mean score of the heuristic seats in the same game, with 95% CIs."""
    rows = []
    for (players, side), g in games.groupby(["players", "layout"], sort=True):
        seat = g["optimal_seat"].to_numpy()
        scores = g[[f"score_{p}" for p in range(players)]].to_numpy(dtype=float)
        own = scores[np.arange(len(g)), seat]
        others = (scores.sum(axis=1) - own) / (players - 1)
        win = proportion_estimate(int((g["winner"].to_numpy() == seat).sum()), len(g))
        rows.append({"players": players, "side": side, "games": len(g), **win.to_dict("p_win"),
                     "fair_share": 1 / players, **mean_estimate(own - others).to_dict("score_gap"),
                     **mean_estimate(own).to_dict("score_optimal"), **mean_estimate(others).to_dict("score_others")})
    return pd.DataFrame(rows)


def difference(a: dict, b: dict, name: str) -> dict:
    """``b - a`` for two independent estimates given as ``{name, name_se}`` (normal 95% interval) and
    whether the interval excludes 0."""
    d = b[name] - a[name]
    se = float(np.hypot(a[f"{name}_se"], b[f"{name}_se"]))
    return {"diff": d, "diff_se": se, "diff_ci_low": d - Z95 * se, "diff_ci_high": d + Z95 * se,
            "differs": bool(abs(d) > Z95 * se)}


def _se(row, col: str) -> float:
    """A standard error that is never 0 for a sampled proportion of 0 or 1: at least the 95% interval's
    half-width / 1.96 (the Wilson interval has width where ``sqrt(p(1-p)/n)`` is 0)."""
    return float(max(row[f"{col}_se"], (row[f"{col}_ci_high"] - row[f"{col}_ci_low"]) / (2 * Z95)))


def compare_play(heuristic_games: pd.DataFrame, optimal_games: pd.DataFrame) -> pd.DataFrame:
    """Heuristic play vs optimal play, per players x side and quantity (start player's win rate, turns per
    game, bursts per turn, bonus turns per turn, winner's gold): both estimates with 95% CIs and their
    difference (optimal - heuristic) with its interval and ``differs``."""
    out = []
    for games, label in ((heuristic_games, "heuristic"), (optimal_games, "optimal")):
        seats = seat_table(games)
        s0 = seats[seats["seat"] == 0].set_index(["players", "side"])
        sides = side_table(games).set_index(["players", "side"])
        for key in sides.index:
            for q, src, col in (("P(start player wins)", s0, "p_win"), ("turns per game", sides, "turns"),
                                ("bursts per turn", sides, "bursts_per_turn"),
                                ("bonus turns per turn", sides, "bonus_per_turn"),
                                ("winner's gold", sides, "winner_gold")):
                r = src.loc[key]
                out.append({"players": key[0], "side": key[1], "quantity": q, "play": label, "value": r[col],
                            "se": _se(r, col), "ci_low": r[f"{col}_ci_low"], "ci_high": r[f"{col}_ci_high"],
                            "games": int(r["games"])})
    long = pd.DataFrame(out)
    rows = []
    for (players, side, q), g in long.groupby(["players", "side", "quantity"], sort=False):
        if set(g["play"]) != {"heuristic", "optimal"}:
            continue
        h = g[g["play"] == "heuristic"].iloc[0]
        o = g[g["play"] == "optimal"].iloc[0]
        row = {"players": players, "side": side, "quantity": q}
        for lab, r in (("heuristic", h), ("optimal", o)):
            row.update({lab: r["value"], f"{lab}_ci_low": r["ci_low"], f"{lab}_ci_high": r["ci_high"],
                        f"{lab}_games": r["games"]})
        row.update(difference({"v": h["value"], "v_se": h["se"]}, {"v": o["value"], "v_se": o["se"]}, "v"))
        rows.append(row)
    return pd.DataFrame(rows)


def side_difference(games: pd.DataFrame) -> pd.DataFrame:
    """Side B minus side A per player count (turns, bursts per turn, start player's win rate), with 95% CIs."""
    seats = seat_table(games)
    s0 = seats[seats["seat"] == 0].set_index(["players", "side"])
    sides = side_table(games).set_index(["players", "side"])
    rows = []
    for players in sorted({k[0] for k in sides.index}):
        if (players, "A") not in sides.index or (players, "B") not in sides.index:
            continue
        for q, src, col in (("turns per game", sides, "turns"), ("bursts per turn", sides, "bursts_per_turn"),
                            ("P(start player wins)", s0, "p_win")):
            a = {"v": src.loc[(players, "A"), col], "v_se": _se(src.loc[(players, "A")], col)}
            b = {"v": src.loc[(players, "B"), col], "v_se": _se(src.loc[(players, "B")], col)}
            rows.append({"players": players, "quantity": q, "A": a["v"], "B": b["v"], **difference(a, b, "v")})
    return pd.DataFrame(rows)


#: the fewest games of one cell (player count, or player count and side) whose win shares, scores and game length
#: are estimated with the seats' turn luck (:func:`luck_of`; the interval's coverage is tested from 30 games,
#: tests/purramid/test_turn_luck.py)
LUCK_MIN_GAMES = 30


def luck_of(g: pd.DataFrame):
    """The seats' turn luck (:func:`.metrics.turn_luck`: mean 0 exactly) of the games ``g`` of one player count
    when every seat plays ``optimal`` and there are at least :data:`LUCK_MIN_GAMES` of them; else None."""
    players = int(g["players"].iloc[0]) if len(g) else 0
    if len(g) < LUCK_MIN_GAMES or not all(f"expected_{s}" in g and g[f"expected_{s}"].notna().all()
                                          for s in range(players)):
        return None
    from .metrics import turn_luck

    return turn_luck(g)


def lucky(values, luck, plain):
    """The mean of ``values`` with the ``luck`` as control variates (the intercept of the regression on it, a
    Student-t interval: :func:`pyradice_lab.design.controlvariates.regression_estimate`), or ``plain`` (the
    Estimate without them) when ``luck`` is None."""
    if luck is None:
        return plain
    from ..engine.controls import regression_estimate

    return regression_estimate(np.asarray(values, dtype=float), luck.values, luck.means)


def seat_table(games: pd.DataFrame) -> pd.DataFrame:
    """Win probability and mean score by seat, with 95% CIs (one row per players x side x seat); with every seat
    optimal and 30+ games a cell, estimated with the seats' turn luck (:func:`lucky`)."""
    rows = []
    for (players, side), g in games.groupby(["players", "layout"], sort=True):
        n = len(g)
        luck = luck_of(g)
        for seat in range(players):
            won = (g["winner"].to_numpy() == seat)
            win = lucky(won, luck, proportion_estimate(int(won.sum()), n))
            score = lucky(g[f"score_{seat}"], luck, mean_estimate(g[f"score_{seat}"]))
            rows.append({"players": players, "side": side, "seat": seat, **win.to_dict("p_win"),
                         **score.to_dict("score"), "fair_share": 1 / players, "games": n})
    return pd.DataFrame(rows)


def side_table(games: pd.DataFrame) -> pd.DataFrame:
    """Game length, bursts, bonus turns and the winner's gold by players x side, with 95% CIs (game length with the
    seats' turn luck where :func:`luck_of` gives it)."""
    rows = []
    for (players, side), g in games.groupby(["players", "layout"], sort=True):
        turns = g["turns"].to_numpy()
        row = {"players": players, "side": side, "games": len(g)}
        row.update(lucky(turns, luck_of(g), nonnegative_estimate(turns)).to_dict("turns"))
        row.update(nonnegative_estimate(g["bursts"] / np.maximum(turns, 1)).to_dict("bursts_per_turn"))
        row.update(nonnegative_estimate(g["bonus_turns"] / np.maximum(turns, 1)).to_dict("bonus_per_turn"))
        row.update(nonnegative_estimate(g["winner_gold"]).to_dict("winner_gold"))
        row.update(proportion_estimate(int((g["end"] == "gold_placed").sum()), len(g)).to_dict("p_all_gold"))
        rows.append(row)
    return pd.DataFrame(rows)


def sample_positions(side: str = "A", players: int = 4, n_positions: int = 8, policies: str = GAME_POLICY,
                     seed=0, *, components=None, policy=None) -> list[int]:
    """Boards (covered masks) met at the start of turns of simulated games, spread over the game, every seat
    playing ``policies`` (``policy=``, its old name, is accepted for one release with a DeprecationWarning)."""
    from .policies import seat_policies
    from .rules import DiceStream, new_game, play_turn

    if policy is not None:
        import warnings

        warnings.warn("sample_positions: policy= is renamed policies= (the old name is removed in the next "
                      "release)", DeprecationWarning, stacklevel=2)
        policies = policy

    gen = as_generator(seed)
    comp = coerce_components(components)
    L = load_layout(side, comp)
    boards: list[int] = []
    while len(boards) < 4 * n_positions:
        g = new_game(players, L, components=comp)
        pols = seat_policies(policies, players)
        dice = DiceStream(gen)
        while not g.over and g.turns < 400:
            boards.append(g.covered)
            play_turn(g, pols[g.seat], dice)
            g.turns += 1
            g.seat = (g.seat + 1) % players
    boards = sorted(set(boards), key=lambda c: popcount(c))
    pick = np.linspace(0, len(boards) - 1, n_positions).round().astype(int)
    return [boards[i] for i in pick]


def yarn_values(boards: list[tuple[str, str, int]], *, yarn_value_inside: float = 0.0,
                components=None) -> pd.DataFrame:
    """Exact gain in expected tiles of holding one yarn token at the start of a 5-dice turn.

    ``boards``: (label, side, covered mask).  Tokens are free to spend inside the turn
    (``yarn_value_inside``), so the gain is what one reroll is worth when it is used well.
    """
    rows = []
    comp = coerce_components(components)
    for label, side, cov in boards:
        L = load_layout(side, comp)
        s = advisor.solver_for(L, "tiles", yarn_value_inside, "auto")
        v0 = s.fresh(cov, 5, 0)[0]
        v1 = s.fresh(cov, 5, 1)[0]
        v2 = s.fresh(cov, 5, 2)[0]
        rows.append({"board": label, "side": side, "free_spaces": popcount(L.all_mask & ~cov),
                     "value_0_tokens": v0, "value_1_token": v1, "value_2_tokens": v2,
                     "gain_first_token": v1 - v0, "gain_second_token": v2 - v1, "bonus_mode": s.bonus_mode(cov, 5)})
    return pd.DataFrame(rows)


def policy_regret(boards: list[tuple[str, str, int]], policies, n_turns: int = 2000, seed=0, *,
                  components=None) -> pd.DataFrame:
    """Expected tiles of human-style policies vs the exact optimum (Monte Carlo with CIs; regret = gap).

    Use boards where the ``auto`` bonus mode is exact, so the optimum is exact.
    """
    from .turns import simulate_turns

    rows = []
    seqs = spawn_seeds(seed, len(boards) * len(policies))
    k = 0
    comp = coerce_components(components)
    for label, side, cov in boards:
        L = load_layout(side, comp)
        s = advisor.solver_for(L, "tiles", comp.config.yarn_value, "auto")
        opt, opt_burst = s.fresh(cov, 5, 0)
        mode = s.bonus_mode(cov, 5)
        cov_list = L.spaces_of(cov)
        for pol in policies:
            df = simulate_turns(n_turns, L, cov_list, policy=pol, rng=seqs[k], components=comp)
            k += 1
            est = mean_estimate(df["value"])
            burst = proportion_estimate(int(df["burst"].sum()), len(df))
            rows.append({"board": label, "policy": pol, "optimal_value": opt, "bonus_mode": mode,
                         **est.to_dict("value"), "regret": opt - est.value,
                         "regret_ci_low": opt - est.ci_high, "regret_ci_high": opt - est.ci_low,
                         **burst.to_dict("burst"), "optimal_burst": opt_burst, "turns": n_turns})
    return pd.DataFrame(rows)


def bonus_mode_errors(cases: list[tuple[str, object, int, int]], *, components=None) -> pd.DataFrame:
    """Value of a fresh turn with each bonus mode vs ``exact`` (compiled solver, tokens worth 0, cold memo):
    ``cases`` = (label, layout, covered, dice).  ``valid_groups``: the groups ``auto`` counts."""
    from .solver import CompiledSolver

    rows = []
    obj = advisor.parse_objective("tiles")
    comp = coerce_components(components)
    for label, layout, cov, D in cases:
        L = load_layout(layout, comp)
        vals = {}
        secs = {}
        for mode in ("exact", "approx", "none"):
            s = CompiledSolver(L, obj, 0.0, mode)
            t0 = time.process_time()
            vals[mode] = s.fresh(cov, D, 0)[0]
            secs[mode] = time.process_time() - t0
        rows.append({"board": label, "dice": D, "free_spaces": popcount(L.all_mask & ~cov),
                     "valid_groups": s.valid_groups(cov, D), "exact": vals["exact"],
                     "approx": vals["approx"], "none": vals["none"],
                     "approx_error": vals["approx"] - vals["exact"], "none_error": vals["none"] - vals["exact"],
                     "approx_rel_error": vals["approx"] / vals["exact"] - 1, "exact_cpu_seconds": secs["exact"],
                     "approx_cpu_seconds": secs["approx"]})
    return pd.DataFrame(rows)
