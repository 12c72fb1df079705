"""Purramid experiments: one function per designer question, each returning an :class:`Answer`.

An answer holds the data (every row: the CSV beside the report), the findings computed from those data
(:class:`pyradice_lab.engine.findings.Finding`: the quantity, its estimate and 95% interval, the test, the sample
size and the players it was measured with) and the tables a figure needs.  Nothing here writes a
conclusion: the sentences are rendered from the findings by :func:`pyradice_lab.engine.findings.render`, which
claims a difference only when its interval excludes "no difference" on enough games (or when both numbers
are exact).  Burst odds, stop-or-continue values, yarn token values and the bonus-mode errors are exact;
the game experiments simulate whole games with confidence intervals.

The measurements (tidy tables) live in :mod:`.measures` and are re-exported here; :mod:`.pages` draws the
figures and lays the answers out.

Examples
--------
>>> from pyradice_lab.purramid import analysis as A
>>> ans = A.burst_odds()
>>> ans.exact, [f.kind for f in ans.findings]
(True, ['exact', 'exact', 'exact'])
>>> games = A.game_cells((2,), ("A",), n_games=40, seed=1)
>>> f = A.seat_advantage(games).findings[0]
>>> f.quantity, f.n, f.null
("start player's win share, 2 players, side A", 40, 0.5)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..engine.findings import Finding, difference_of, from_estimate
from ..engine.rng import seed_sequence
from ..engine.stats import Z95, mean_estimate, nonnegative_estimate, proportion_estimate
from . import advisor
from .components import Layout, load_game_config, load_layout
from .measures import (  # noqa: F401  (re-exported: the measurements behind the answers)
    GAME_POLICY,
    LUCK_MIN_GAMES,
    SMALL_LAYOUTS,
    bonus_mode_errors,
    burst_heatmap,
    compare_play,
    difference,
    game_cells,
    luck_of,
    lucky,
    policy_regret,
    press_your_luck,
    sample_positions,
    seat_table,
    side_difference,
    side_table,
    situations,
    skill_gap_games,
    skill_gap_table,
    yarn_values,
)
from .sim import split_policies

__all__ = ["Answer", "SIZES", "start_share", "STRONG_SIZES", "GAME_COLUMNS", "START_COMPONENT", "YARN_COMPONENT", "REGRET_POLICIES", "burst_odds",
           "stop_or_continue", "play_games", "seat_advantage", "game_length", "side_a_vs_b", "yarn_value",
           "rule_of_thumb_regret", "bonus_mode_accuracy", "strong_play_games", "strong_play", "skill_gap", "game_answers",
           "yarn_answer", "regret_answer", "bonus_answer",
           # the measurements, re-exported from .measures
           "GAME_POLICY", "SMALL_LAYOUTS", "burst_heatmap", "situations", "press_your_luck", "game_cells",
           "seat_table", "side_table", "sample_positions", "yarn_values", "policy_regret", "bonus_mode_errors",
           "skill_gap_games", "skill_gap_table", "compare_play", "side_difference", "difference"]

#: the per-game columns the game answers read (enough to store games and recompute every finding)
GAME_COLUMNS = ("players", "layout", "policies", "winner", "turns", "bursts", "bonus_turns", "winner_gold", "end",
                "score_0", "score_1", "score_2", "score_3", "optimal_seat")
#: the component a start-player advantage would change (the deal compensates the start player)
START_COMPONENT = "start-player compensation (tiles dealt per seat)"
#: the component the yarn-token value is stored in
YARN_COMPONENT = "yarn_value in data/game.toml"
#: the human-style rules of thumb compared with the exact optimum
REGRET_POLICIES = ("greedy", "stop_after:1", "stop_after:2", "stop_after:3", "risk:0.2", "risk:0.35", "risk:0.5")

#: sizes of the report's experiments: ``quick`` (indicative, seconds) and ``full``; ``games``: the heuristic's games
#: per players x side, ``strong_games``: the report player's (all-optimal: about 0.06 / 0.3 / 0.12 CPU s per 2 / 3 / 4
#: player game, measured with the carried memo; the 3-player cells pay for their cold start; 3 players 120 -> 80
#: on 2026-12-03 for the report's 5-minute budget)
SIZES = {
    "quick": {"games": 60, "situations": "first and last", "yarn_sides": ("A",), "yarn_positions": 3,
              "yarn_empty": False, "regret_boards": 1, "regret_turns": 400, "bonus_dice": (4,),
              "bonus_game_boards": False, "strong": "quick", "strong_games": {2: 12, 3: 4, 4: 4}},
    "full": {"games": 2000, "situations": "all", "yarn_sides": ("A", "B"), "yarn_positions": 7,
             "yarn_empty": True, "regret_boards": 3, "regret_turns": 3000, "bonus_dice": (4, 5),
             "bonus_game_boards": True, "strong": "report", "strong_games": {2: 400, 3: 80, 4: 120}},
}

#: games per cell of the strong-play experiments: heuristic baseline, all seats optimal and one optimal seat
#: (by players; 0 = not played)
STRONG_SIZES = {
    "quick": {"heuristic": 100, "optimal": {2: 12, 3: 0, 4: 0}, "gap": {2: 12, 3: 0, 4: 0}},
    "report": {"heuristic": 2000, "optimal": {2: 120, 3: 0, 4: 8}, "gap": {2: 60, 3: 0, 4: 50}},
    "full": {"heuristic": 2000, "optimal": {2: 600, 3: 60, 4: 60}, "gap": {2: 200, 3: 120, 4: 120}},
}


@dataclass
class Answer:
    """One experiment's answer: the data, the findings computed from them, and the sizes used.

    Attributes
    ----------
    question : str
        The designer's question in one line.
    data : DataFrame
        Every row the findings rest on (the CSV beside the report).
    findings : list of Finding
        The conclusions, computed from ``data`` (and ``frames``).
    sample_size : int, optional
        Games (or turns, boards) per compared group; None for exact answers.
    exact : bool
        No sampling error in the numbers (exact enumeration or recursion).
    frames : dict of DataFrame
        Further tables (per-game rows, differences) the figure or the findings use.
    info : dict
        Sizes and settings used (for the method text).
    """

    question: str
    data: pd.DataFrame
    findings: list = field(default_factory=list)
    sample_size: int | None = None
    exact: bool = False
    frames: dict = field(default_factory=dict)
    info: dict = field(default_factory=dict)

    def __post_init__(self):
        self.findings = list(self.findings)
        for f in self.findings:
            if not isinstance(f, Finding):
                raise TypeError(f"findings must be Finding objects, got {type(f).__name__}")


def _size(quick: bool) -> dict:
    if not isinstance(quick, (bool, np.bool_)):
        raise TypeError(f"quick must be True or False, got {quick!r}")
    return SIZES["quick" if quick else "full"]


def _exact(quantity: str, value: float, **kwargs) -> Finding:
    return Finding("exact", quantity, float(value), float(value), float(value), n=0, **kwargs)


def _normal(quantity: str, value: float, se: float, n: int, **kwargs) -> Finding:
    """A ``difference`` finding with the normal 95% interval ``value ± 1.96 se``."""
    return Finding("difference", quantity, float(value), float(value - Z95 * se), float(value + Z95 * se), n=int(n),
                   **kwargs)


def _sides_label(games: pd.DataFrame) -> str:
    sides = sorted(games["layout"].unique())
    return f"side {sides[0]}" if len(sides) == 1 else "both sides" if sides == ["A", "B"] else \
        "sides " + " and ".join(sides)


# ------------------------------------------------------------------------------------------ exact turns
def burst_odds(max_dice: int = 5) -> Answer:
    """Exact P(burst) when the only empty space shows a number 1..12, for 1..max_dice dice."""
    df = burst_heatmap(max_dice)
    grid = df.pivot(index="dice", columns="number", values="p_burst")
    top = grid.index.max()
    hard_top = int(grid.loc[top].idxmax())
    mid = grid.loc[top, 5:12]
    hard_two = int(grid.loc[2].idxmax()) if 2 in grid.index else None
    words = {1: "one die", 2: "two dice", 3: "three dice", 4: "four dice", 5: "five dice"}
    findings = [
        _exact(f"burst chance of {words.get(top, f'{top} dice')} when the only empty space is a '{hard_top}' "
               f"(the hardest number for {words.get(top, f'{top} dice')})", grid.loc[top, hard_top], unit="%"),
        _exact(f"highest burst chance of {words.get(top, f'{top} dice')} on a lone number from 5 to 12 "
               f"(a '{int(mid.idxmax())}')", mid.max(), unit="%"),
    ]
    if hard_two is not None:
        findings.append(_exact(f"burst chance of two dice on a lone '{hard_two}' (the hardest number for two dice)",
                               grid.loc[2, hard_two], unit="%"))
    return Answer("Which numbers are hard to hit, with how many dice left?", df, findings, exact=True,
                  frames={"grid": grid})


def stop_or_continue(quick: bool = False, side: str = "A") -> Answer:
    """Exact value of stopping and of continuing, by board situation and dice left (bonus turns included)."""
    size = _size(quick)
    df = press_your_luck(side)
    sits = list(df["situation"].unique())
    if size["situations"] != "all":
        df = df[df["situation"].isin([sits[0], sits[-1]])].reset_index(drop=True)
        sits = [sits[0], sits[-1]]
    many = df[df["dice_left"] >= 3]
    k = int((many["best"] == "continue").sum())
    findings = [_exact(f"share of the situations with three or more dice left in which continuing beats "
                       f"stopping ({k} of {len(many)})", k / len(many), unit="%")] if len(many) else []
    for sit in (sits[0], sits[-1]):
        one = df[(df["situation"] == sit) & (df["dice_left"] == 1)]
        if len(one):
            r = one.iloc[0]
            # said as a change ("0.40 tiles less"), not "1.00 tiles below stopping of 1.00 tiles"
            findings.append(_exact(f"expected tiles this turn from rolling the last die instead of stopping, {sit} "
                                   f"(stopping keeps {float(r['stop_value']):.2f} tiles)",
                                   float(r["continue_value"]) - float(r["stop_value"]), null=0.0, unit="tiles",
                                   player="exact optimum"))
    return Answer("With dice on the board, should I stop or roll again?", df, findings, exact=True,
                  info={"side": side, "yarn_value": load_game_config().yarn_value})


# ------------------------------------------------------------------------------------------ games
def play_games(n_games: int, seed=0, *, policies: str = GAME_POLICY, n_jobs: int = 1, policy=None) -> pd.DataFrame:
    """The report's game sample: ``n_games`` per (2-4 players, side A/B), every seat playing ``policies`` (one
    policy; ``policy=``, its old name, is accepted for one release with a DeprecationWarning)."""
    policy = _renamed_policy(policies, policy, "play_games")
    if isinstance(n_games, bool) or not isinstance(n_games, (int, np.integer)) or n_games < 2:
        raise ValueError(f"n_games must be an integer >= 2, got {n_games!r}")
    return game_cells(n_games=int(n_games), policies=policy, seed=seed, n_jobs=n_jobs)


def _renamed_policy(policies, policy, where: str):
    """``policy=`` is the old name of ``policies=`` (one keyword per concept, docs/guide/defaults.md): still
    accepted for one release, with a DeprecationWarning."""
    if policy is None:
        return policies
    import warnings

    warnings.warn(f"{where}: policy= is renamed policies= (the old name is removed in the next release)",
                  DeprecationWarning, stacklevel=3)
    return policy


def _policy_label(games: pd.DataFrame) -> str:
    """``"risk:0.35, every seat"`` when every seat of every game played one policy, else "mixed seats"."""
    names = {name for pols in set(games["policies"]) for name in split_policies(pols)}
    if len(names) == 1:
        name = names.pop()
        short = {f"stop_if_burst_risk_above({GAME_POLICY.split(':')[1]})": GAME_POLICY}.get(name, name)
        return f"{short}, every seat"
    return "mixed seats"


def start_share(g: pd.DataFrame):
    """The start player's win share over the games ``g`` (one player count) and the test that gives its interval.

    With every seat optimal and at least :data:`LUCK_MIN_GAMES` games, the estimate regresses the win on the
    seats' turn luck (:func:`.metrics.turn_luck`: mean 0 exactly; the intercept, with a Student-t interval of
    ``n - 1 - players`` degrees of freedom, :func:`pyradice_lab.design.controlvariates.regression_estimate`): the
    same games' dice luck taken out, about half the variance at 2 players.  Otherwise the Wilson interval."""
    y = (g["winner"].to_numpy() == 0)
    luck = luck_of(g)
    plain = proportion_estimate(int(y.sum()), len(g))
    return lucky(y, luck, plain), "Wilson interval" if luck is None else "regression on the seats' turn luck (t)"


def seat_advantage(games: pd.DataFrame) -> Answer:
    """Win share by seat; findings: the start player's win share per player count (sides pooled) against a
    fair share: Wilson intervals, or with every seat optimal the regression on the seats' turn luck
    (:func:`start_share`)."""
    seats = seat_table(games)
    player = _policy_label(games)
    findings = []
    for p, g in games.groupby("players", sort=True):
        est, test = start_share(g)
        findings.append(from_estimate(
            "difference", f"start player's win share, {p} players, {_sides_label(g)}", est, null=1 / p,
            null_label="a fair share", unit="%", test=test, player=player, component=START_COMPONENT))
    return Answer("Does the start player, or any seat, win more often than a fair share?", seats, findings,
                  info={"games_per_cell": int(games.groupby(["players", "layout"]).size().min()), "player": player})


def game_length(games: pd.DataFrame) -> Answer:
    """Turns per game by players and side; findings: turns per game per player count (sides pooled)."""
    sides = side_table(games)
    player = _policy_label(games)
    findings = []
    for p, g in games.groupby("players", sort=True):
        est = nonnegative_estimate(g["turns"].to_numpy())
        findings.append(from_estimate("estimate", f"turns per game, {p} players, {_sides_label(g)}", est,
                                      unit="turns", test="t interval on the log scale", player=player))
    ends = games["end"].value_counts()
    data = sides.copy()
    data["turns_per_player"] = data["turns"] / data["players"]
    return Answer("How many turns does a game last, by player count and side?", data, findings,
                  frames={"ends": (ends / ends.sum()).rename("share").reset_index()}, info={"player": player})


def game_answers(n_games, seed, *, strong_games=None, player: str | None = None, heuristic: str | None = None,
                 n_jobs: int = 1, backend: str = "loky", scheduler=None, cache_dir=None
                 ) -> tuple[list[Answer], pd.DataFrame, pd.DataFrame]:
    """Seat advantage, game length and side A vs side B, measured with the report player (every seat ``player``,
    default the registry's ``report_player``, ``strong_games`` per players x side, default ``n_games``) with the
    heuristic (every seat ``heuristic``, default the registry's ``heuristic_player``, ``n_games`` per cell) beside
    every start-player and component finding as its sensitivity (:func:`pyradice_lab.engine.findings.pair_findings`).
    Returns the three answers, the report player's games and the heuristic's."""
    from ..engine import registry
    from ..engine.findings import pair_findings

    spec = registry.get_game("purramid")
    player = player or spec.report_player
    heuristic = heuristic or spec.heuristic_player
    strong_games = n_games if strong_games is None else strong_games
    s_heur, s_strong = seed_sequence(seed).spawn(2)
    where = dict(n_jobs=n_jobs, backend=backend, scheduler=scheduler, cache_dir=cache_dir)
    heur = game_cells(n_games=n_games, policies=heuristic, seed=s_heur, **where)
    strong = game_cells(n_games=strong_games, policies=player, seed=s_strong, **where)
    out = []
    for answer in (seat_advantage, game_length, side_a_vs_b):
        ans, base = answer(strong), answer(heur)
        ans.findings = list(pair_findings(ans.findings, base.findings))
        ans.info["sensitivity_player"] = heuristic
        out.append(ans)
    return out, strong, heur


_SIDE_QUANTITIES = (("turns per game", "turns", "turns", ""), ("bursts per turn", "bursts_per_turn", "", ""),
                    ("bonus turns per turn", "bonus_per_turn", "", ""), ("winner's gold tiles", "winner_gold", "tiles", ""),
                    ("start player's win share", "p_win", "%", START_COMPONENT))


def side_a_vs_b(games: pd.DataFrame) -> Answer:
    """Side B against side A: exact fresh-turn values, and simulated length, bursts, bonus turns, winner's
    gold and the start player's win share per player count, with B - A and its 95% interval.  Findings:
    the exact empty-board values and the differences averaged over player counts."""
    seats = seat_table(games)
    s0 = seats[seats["seat"] == 0].set_index(["players", "side"])
    sides = side_table(games).set_index(["players", "side"])
    player = _policy_label(games)
    diffs = []
    for players in sorted({k[0] for k in sides.index}):
        if (players, "A") not in sides.index or (players, "B") not in sides.index:
            continue
        for q, col, _unit, _comp in _SIDE_QUANTITIES:
            src = s0 if col == "p_win" else sides
            a, b = src.loc[(players, "A")], src.loc[(players, "B")]
            sa = max(a[f"{col}_se"], (a[f"{col}_ci_high"] - a[f"{col}_ci_low"]) / (2 * Z95))
            sb = max(b[f"{col}_se"], (b[f"{col}_ci_high"] - b[f"{col}_ci_low"]) / (2 * Z95))
            d = difference({"v": a[col], "v_se": sa}, {"v": b[col], "v_se": sb}, "v")
            diffs.append({"players": players, "quantity": q, "A": a[col], "A_ci_low": a[f"{col}_ci_low"],
                          "A_ci_high": a[f"{col}_ci_high"], "B": b[col], "B_ci_low": b[f"{col}_ci_low"],
                          "B_ci_high": b[f"{col}_ci_high"], "games_per_side": int(a["games"]), **d})
    diffs = pd.DataFrame(diffs)
    exact = []
    for side in ("A", "B"):
        L = load_layout(side)
        s = advisor.solver_for(L)
        for board, cov in (("empty", 0), ("2-player start", L.bottom_rows_mask(2))):
            v, burst = s.fresh(cov, 5, 0)
            exact.append({"side": side, "board": board, "fresh_turn_value": v, "fresh_turn_burst": burst,
                          "bonus_mode": s.bonus_mode(cov, 5)})
    exact = pd.DataFrame(exact)
    ev = exact.set_index(["side", "board"])["fresh_turn_value"]
    findings = [_exact("expected tiles of a fresh five-dice turn on the empty side B", ev[("B", "empty")],
                       null=float(ev[("A", "empty")]), null_label="side A", unit="tiles", player="exact optimum")]
    if len(diffs):
        n_side = int(games[games["layout"] == "A"].shape[0])
        k = diffs["players"].nunique()
        span = f"{diffs['players'].min()}-{diffs['players'].max()} players" if k > 1 else f"{diffs['players'].iloc[0]} players"
        for q, _col, unit, comp in _SIDE_QUANTITIES:
            if q in ("bonus turns per turn", "winner's gold tiles"):
                continue  # in the table; the findings keep to the three a designer asks first
            d = diffs[diffs["quantity"] == q]
            findings.append(_normal(f"{q}, side B against side A, mean over {span}", d["diff"].mean(),
                                    math.sqrt((d["diff_se"] ** 2).sum()) / len(d), n_side, null=0.0, unit=unit,
                                    test="normal interval of a difference", player=player, sample_unit="games per side",
                                    component=comp, scale=float(d[["A", "B"]].to_numpy().mean()) or 1.0))
    long_rows = []
    for (players, side), r in sides.iterrows():
        for q, col, _u, _c in _SIDE_QUANTITIES:
            src = s0.loc[(players, side)] if col == "p_win" else r
            long_rows.append({"players": players, "side": side, "quantity": q, "value": src[col],
                              "se": src[f"{col}_se"], "ci_low": src[f"{col}_ci_low"], "ci_high": src[f"{col}_ci_high"],
                              "games": int(r["games"])})
    data = pd.concat([pd.DataFrame(long_rows), diffs.assign(side="B - A", value=diffs["diff"], se=diffs["diff_se"],
                                                             ci_low=diffs["diff_ci_low"], ci_high=diffs["diff_ci_high"],
                                                             games=diffs["games_per_side"])[
        ["players", "side", "quantity", "value", "se", "ci_low", "ci_high", "games"]]], ignore_index=True)
    return Answer("Does side B play differently from side A?", data, findings,
                  frames={"diffs": diffs, "exact": exact}, info={"player": player})


# ------------------------------------------------------------------------------------------ yarn
def yarn_value(quick: bool = False, seed=0) -> Answer:
    """Exact gain in expected tiles of holding one (two) yarn tokens at the start of a 5-dice turn, on the
    2-player start boards, boards met in simulated 4-player games and (full) the empty boards.  Findings:
    the gain on the 2-player start board of side A (exact) and the mean gain over the boards from games
    against the data default ``yarn_value``."""
    size = _size(quick)
    boards = []
    for side in size["yarn_sides"]:
        L = load_layout(side)
        if size["yarn_empty"]:  # the open board needs the costliest solves (about 1 s)
            boards.append((f"empty {side}", side, 0))
        boards.append((f"2p start {side}", side, L.bottom_rows_mask(2)))
    for side, sq in zip(size["yarn_sides"], seed_sequence(seed).spawn(len(size["yarn_sides"]))):
        pos = sample_positions(side, 4, size["yarn_positions"], seed=sq)
        boards += [(f"4p game {side} #{i}", side, c) for i, c in enumerate(pos) if c]  # c = 0: the empty board
    return yarn_answer(yarn_values(boards), load_game_config().yarn_value)


def yarn_answer(df: pd.DataFrame, yv: float) -> Answer:
    """The yarn-token findings from a :func:`yarn_values` table (boards labelled "2p start <side>" and
    "4p game ..."), against the data default ``yv``."""
    start = df[df["board"].str.startswith("2p start")].iloc[0]
    findings = [_exact(f"gain in expected tiles from one yarn token, 2-player start board, side {start['side']}",
                       start["gain_first_token"], unit="tiles", player="exact optimum")]
    game = df[df["board"].str.startswith("4p game")]
    if len(game) >= 2:
        findings.append(from_estimate(
            "difference", "gain in expected tiles from one yarn token, mean over boards from 4-player games",
            nonnegative_estimate(game["gain_first_token"].to_numpy()), null=yv, null_label="the data default", unit="tiles",
            test="t interval over boards, log scale", player="exact optimum", sample_unit="boards", min_n=10,
            component=YARN_COMPONENT))
        findings.append(from_estimate(
            "estimate", "further gain from a second yarn token, mean over boards from 4-player games",
            nonnegative_estimate(game["gain_second_token"].to_numpy()), unit="tiles",
            test="t interval over boards, log scale",
            player="exact optimum", sample_unit="boards", min_n=10))
    return Answer("What is a yarn token worth, and is the data default right?", df, findings, exact=True,
                  info={"yarn_value": yv, "boards": len(df)})


# ------------------------------------------------------------------------------------------ regret
def _exact_boards(n_boards: int, seed) -> list[tuple[str, str, int]]:
    """Mid- to late-game boards of side A from simulated games where the advisor is exact."""
    L = load_layout("A")
    s = advisor.solver_for(L)
    out = [(f"A, {L.tiles_of(c)} tiles down", "A", c) for c in sample_positions("A", 4, 8, seed=seed)
           if c and s.bonus_mode(c, 5) == "exact"]
    if n_boards == 1 or not out:
        return out[:1]
    return [out[i] for i in sorted({0, len(out) // 2, len(out) - 1})][:n_boards]


def rule_of_thumb_regret(quick: bool = False, seed=0, policies=REGRET_POLICIES) -> Answer:
    """Expected tiles per turn of human-style rules of thumb (Monte Carlo) against the exact optimum on
    boards from simulated games.  Findings: the report's game policy, the best rule here and ``greedy``,
    each averaged over the boards against the exact optimum."""
    size = _size(quick)
    s1, s2 = seed_sequence(seed).spawn(2)
    boards = _exact_boards(size["regret_boards"], s1)
    return regret_answer(policy_regret(boards, list(policies), n_turns=size["regret_turns"], seed=s2))


def regret_answer(df: pd.DataFrame) -> Answer:
    """The rule-of-thumb findings from a :func:`policy_regret` table."""
    policies = list(dict.fromkeys(df["policy"]))
    per = df.groupby("policy", sort=False).agg(value=("value", "mean"), optimal=("optimal_value", "mean"),
                                               regret=("regret", "mean"), turns=("turns", "sum"))
    per["se"] = df.groupby("policy", sort=False)["value_se"].apply(lambda s: math.sqrt((s ** 2).sum()) / len(s))
    best = per["regret"].idxmin()
    pick = [p for p in dict.fromkeys([GAME_POLICY, best, "greedy"]) if p in per.index]
    n_b = df["board"].nunique()
    findings = []
    for p in pick:
        r = per.loc[p]
        tag = " (the smallest regret of the rules here)" if p == best else ""
        findings.append(_normal(f"expected tiles per turn{tag}, mean over {n_b} board{'s' if n_b > 1 else ''}",
                                r["value"], r["se"], int(r["turns"]), null=float(r["optimal"]),
                                null_label="the exact optimum", unit="tiles", player=p,
                                test="normal interval, Monte Carlo turns", sample_unit="turns"))
    return Answer("How many tiles per turn do rules of thumb lose against the exact optimum?", df, findings,
                  info={"turns": int(df["turns"].iloc[0]), "boards": n_b, "policies": policies},
                  frames={"per_policy": per.reset_index()})


# ------------------------------------------------------------------------------------------ bonus modes
def bonus_mode_accuracy(quick: bool = False, seed=0) -> Answer:
    """Value of a fresh turn with bonus turns valued approximately ('approx') or ignored ('none') against
    the exact recursion, on small boards and (full) the default sides' boards.  Findings (exact): the mean
    value with each mode against the exact mean, and the largest relative error of 'approx'."""
    size = _size(quick)
    cases = [(name, Layout.from_rows(rows, name=name), 0, D) for name, rows in SMALL_LAYOUTS.items()
             for D in size["bonus_dice"]]
    if size["bonus_game_boards"]:
        for side in ("A", "B"):
            cases.append((f"side {side}, empty", side, 0, 5))
        L = load_layout("A")
        for k in (7, 5, 4, 1):
            cases.append((f"side A, rows 0-{k - 1} covered", "A", L.bottom_rows_mask(k), 5))
        for i, c in enumerate(sample_positions("B", 4, 6, seed=seed)):
            if c:
                cases.append((f"side B game board #{i}", "B", c, 5))
    return bonus_answer(bonus_mode_errors(cases))


def bonus_answer(df: pd.DataFrame) -> Answer:
    """The bonus-mode findings from a :func:`bonus_mode_errors` table."""
    n = len(df)
    exact_mean = float(df["exact"].mean())
    worst = df.loc[df["approx_rel_error"].abs().idxmax()]
    findings = [
        _exact(f"expected tiles of a fresh turn with bonus turns valued 'approx', mean over {n} boards",
               df["approx"].mean(), null=exact_mean, null_label="the exact recursion", unit="tiles"),
        _exact(f"expected tiles of a fresh turn with bonus turns ignored ('none'), mean over {n} boards",
               df["none"].mean(), null=exact_mean, null_label="the exact recursion", unit="tiles"),
        _exact(f"largest relative error of 'approx' ({worst['board']}, {int(worst['dice'])} dice)",
               abs(worst["approx_rel_error"]), unit="%"),
    ]
    return Answer("How wrong is a turn's value when bonus turns are valued approximately or ignored?", df, findings,
                  exact=True, info={"boards": n})


# ------------------------------------------------------------------------------------------ strong play
def strong_play_games(size="report", seed=0, *, n_jobs: int = 1, progress: bool = False, backend: str = "loky",
                      scheduler=None, cache_dir=None, optimal: pd.DataFrame | None = None) -> dict:
    """The games of the strong-play experiments (:data:`STRONG_SIZES`, or a dict of the same shape): ``heuristic``
    (every seat GAME_POLICY), ``optimal`` (every seat the exact policy; ``optimal``: these games, already played)
    and ``gap`` (one optimal seat, rotating).  ``n_jobs``, ``backend``, ``scheduler``, ``cache_dir``: where the
    optimal games are played (:mod:`pyradice_lab.engine.execution`; the same games whatever they are)."""
    if isinstance(size, dict):
        sz = size
    elif size not in STRONG_SIZES:
        raise ValueError(f"size must be one of {sorted(STRONG_SIZES)}, got {size!r}")
    else:
        sz = STRONG_SIZES[size]
    where = dict(n_jobs=n_jobs, progress=progress, backend=backend, scheduler=scheduler, cache_dir=cache_dir)
    s_heur, s_opt, s_gap = seed_sequence(seed).spawn(3)
    players_opt = tuple(p for p in (2, 3, 4) if sz["optimal"][p])
    players_gap = tuple(p for p in (2, 3, 4) if sz["gap"][p])
    if optimal is None:
        optimal = game_cells(players_opt, n_games=sz["optimal"], policies="optimal", seed=s_opt, **where)
    else:
        players_opt = tuple(sorted(set(optimal["players"])))
    return {"heuristic": game_cells(players_opt, n_games=sz["heuristic"], seed=s_heur), "optimal": optimal,
            "gap": skill_gap_games(players_gap, n_games=sz["gap"], seed=s_gap, **where)}


def strong_play(heuristic: pd.DataFrame, optimal: pd.DataFrame) -> Answer:
    """Every seat optimal against every seat GAME_POLICY: start player's win share, turns, bursts, bonus
    turns and winner's gold per players x side with both intervals and their difference.  Findings per
    player count (sides pooled): the start player's win share under optimal play against a fair share,
    and the change in turns per game from heuristic to optimal play."""
    cmp = compare_play(heuristic, optimal)
    findings = []
    for p, o in optimal.groupby("players", sort=True):
        h = heuristic[heuristic["players"] == p]
        est, test = start_share(o)
        findings.append(from_estimate(
            "difference", f"start player's win share, {p} players, {_sides_label(o)}", est, null=1 / p,
            null_label="a fair share", unit="%", test=test, player="optimal, every seat", component=START_COMPONENT))
        if len(h) >= 2 and len(o) >= 2:
            findings.append(difference_of(f"turns per game, {p} players, optimal play instead of {GAME_POLICY}",
                                          nonnegative_estimate(o["turns"].to_numpy()),
                                          nonnegative_estimate(h["turns"].to_numpy()), unit="turns",
                                          player=f"optimal vs {GAME_POLICY}, every seat",
                                          scale=float(h["turns"].mean())))
    return Answer("Do the start-player edge and game length change when every seat plays the exact policy?", cmp,
                  findings, frames={"sides_optimal": side_difference(optimal), "sides_heuristic":
                                    side_difference(heuristic)},
                  info={"optimal_games": optimal.groupby(["players", "layout"]).size().to_dict(),
                        "heuristic_games": int(heuristic.groupby(["players", "layout"]).size().min())})


def skill_gap(games: pd.DataFrame) -> Answer:
    """One optimal seat among GAME_POLICY seats (rotating through the seats).  Findings per player count
    (sides pooled): the optimal seat's win share against a fair share, and its score minus the mean score
    of the heuristic seats."""
    table = skill_gap_table(games)
    findings = []
    for p, g in games.groupby("players", sort=True):
        seat = g["optimal_seat"].to_numpy()
        scores = g[[f"score_{k}" for k in range(p)]].to_numpy(dtype=float)
        own = scores[np.arange(len(g)), seat]
        others = (scores.sum(axis=1) - own) / (p - 1)
        who = f"one optimal seat vs {GAME_POLICY}"
        findings.append(from_estimate(
            "difference", f"optimal seat's win share, {p} players, {_sides_label(g)}",
            proportion_estimate(int((g["winner"].to_numpy() == seat).sum()), len(g)), null=1 / p,
            null_label="a fair share", unit="%", test="Wilson interval", player=who))
        if len(g) >= 2:
            findings.append(from_estimate(
                "difference", f"optimal seat's score against the heuristic seats' mean, {p} players",
                mean_estimate(own - others), null=0.0, unit="points", test="t interval", player=who,
                scale=float(np.mean(np.abs(others))) or 1.0))
    return Answer("How much does one exact player gain against rule-of-thumb players?", table, findings,
                  info={"games": games.groupby(["players", "layout"]).size().to_dict()})
