"""The Pyradice report's experiments, one function per designer question: each runs its simulations (through
:mod:`.analysis`) and returns an ExperimentResult holding the data, the findings, the method and the compact table
shown on the page, and no figure (:mod:`.pages` draws it, :func:`.pages.draw`).  Re-exported by :mod:`.analysis`."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..engine.findings import format_value
from ..engine.results import ExperimentResult
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
    skill_findings,
    skill_values,
)

__all__ = ["SIZES", "START_POLICIES", "GOAL_POLICIES", "experiment_available", "experiment_goals", "experiment_skills",
           "experiment_cards", "experiment_first_player", "paired"]

#: Games per experiment: (quick, full).
SIZES = {"goals": (24, 400), "skills": (16, 200), "cards": (16, 250), "first2": (40, 2000), "first3": (10, 250),
         "first4": (8, 150),
         # the report player's runs (flat_mc, sped up: about 0.04 / 0.09 / 0.11 CPU s per 2 / 3 / 4-player game,
         # measured 2026-12-02 on a busy machine; the skills run replays every game once per skill token): about
         # 70 CPU s in all, every sample at the minimum for a claim or above
         "skills_strong": (2, 100), "cards_strong": (2, 100), "first2_strong": (4, 300), "first3_strong": (2, 100),
         "first4_strong": (2, 100)}
#: the players of the goal-rate and available-dice experiments
GOAL_POLICIES = ("random_legal", "greedy", "lookahead")
_POL = GOAL_POLICIES


def _cell(v: float, lo: float, hi: float, pct: bool = False) -> str:
    """A table cell ``"52.1 (48.0..56.2)"`` with the digits its 95% interval supports (``pct``: x 100)."""
    k = 100.0 if pct else 1.0
    spread = k * (hi - lo) / 2
    f = [format_value(k * x, spread=spread) for x in (v, lo, hi)]
    return f[0] if lo == hi else f"{f[0]} ({f[1]}..{f[2]})"


def _cells(df: pd.DataFrame, col: str, pct: bool = False) -> list[str]:
    return [_cell(r[col], r[f"{col}_ci_low"], r[f"{col}_ci_high"], pct) for _, r in df.iterrows()]


def _result(name, title, question, method, table, findings, display, n_games, **meta) -> ExperimentResult:
    """The page's result without its figure (:mod:`.pages` draws it)."""
    return ExperimentResult(name, title, "", table, None, {"n_games": n_games, **meta}, findings=findings,
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
    d = lv[lv.policy == _POL[0]]
    wide = pd.DataFrame({"level": d.level.to_numpy(), "goal": [f"{g} {n}" for g, n in zip(d.goal, d.goal_name)],
                         "filled blind, % (exact)": (100 * d.blind_exact).round(2).to_numpy()})
    for pol in _POL:
        wide[f"{pol}, % (95% CI)"] = _cells(lv[lv.policy == pol], "p_met", pct=True)
    scores = "; ".join(f"{pol} {_cells(df[df.policy == pol].head(1), 'mean_score')[0]}" for pol in _POL)
    method = (f"Share of seats meeting each level's goal token at the end, {n_games} games per policy (2 players, "
              "default setup; both seats of a game share a quarry, so the per-game share of seats is the sample: "
              "t interval over games), beside the exact chance for a level filled blind (random dice, no choice, "
              f"no skill). Mean score per seat (VP, 95% CI) in the same games: {scores}. " + _dead_text(lv))
    return _result("pyradice_goal_rates", "P(goal token met) by level and policy",
                   "How often is each goal token met, and how much does deliberate play lift it?", method, df,
                   goal_findings(df), wide, n_games), runs


def experiment_available(n_games: int, seed, runs: dict) -> ExperimentResult:
    df = available_by_turn(n_games, 2, _POL, rng=seed, runs=runs)
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
                   "How many dice can a player choose from, turn by turn?", method, df,
                   available_findings(df), shown, n_games,
                   figure_data={"distribution": available_distribution(runs["greedy"][1]["choices"], "greedy")})


def experiment_skills(n_games: int, seed, policies: str = "greedy", *, policy=None) -> ExperimentResult:
    policy = _renamed_policy(policies, policy, "experiment_skills")  # policy=: the old name, for one release
    df = skill_values(n_games, 2, policy, rng=seed)
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
                   method, df, skill_findings(df), shown, n_games)


def experiment_cards(n_games: int, seed, policies: str = "greedy", *, policy=None) -> ExperimentResult:
    policy = _renamed_policy(policies, policy, "experiment_cards")  # policy=: the old name, for one release
    df, points = card_balance(n_games, 2, policy, rng=seed, return_points=True)
    shown = pd.DataFrame({"card": df.card, "source": df.source, "VP per seat (95% CI)": _cells(df, "mean_points"),
                          "SD (VP)": df.sd_points.round(2), "P(0 VP), %": (100 * df.p_zero).round(1),
                          "max (VP)": df.max_points, "games": df.n_games})
    method = (f"Points a seat earns from each objective card under {policy} play, 2 players, pooled over three card "
              f"line-ups ({n_games} games each; a card in two line-ups has twice the games), discs random per game. "
              "Bars: mean with 95% CI; grey: +-1 SD (a high-SD card swings games). Many's and Height's tables and "
              "all purple cards are reconstructions consistent with the rules' example score.")
    return _result("pyradice_card_balance", "Objective card balance", "Are the objective cards balanced?",
                   method, df, card_findings(df, points), shown, n_games)


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
                   "Does the start player (or any turn position) win more often than a fair share?", method, df,
                   _merged(first_player_findings(df), policies), shown,
                   min(min(v.values()) for v in per.values()), games={p: dict(v) for p, v in per.items()},
                   figure_data={"policies": tuple(policies)})


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

    from ..engine import registry
    from ..engine.findings import pair_findings

    spec = registry.get_game("pyradice")
    res = make(n_strong, seed, spec.report_player)
    base = make(n_heuristic, seed, spec.heuristic_player)

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
