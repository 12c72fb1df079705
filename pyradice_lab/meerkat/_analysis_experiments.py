"""The Meerkat Kingdom report's experiments, one function per designer question (``odds_experiment``, ``run_*``):
each runs its games (through :mod:`.analysis`) and returns an ExperimentResult holding the data, the findings and
the reading, and no figure (:mod:`.pages` draws it, :func:`.pages.draw`, from the result's
``meta["figure_data"]``).  Re-exported by :mod:`.analysis`.

Every conclusion is a :class:`~pyradice_lab.engine.findings.Finding` computed from the experiment's own table by a
``*_findings`` function here (tested against the table); the ``reading`` of an experiment only says how it was run
and how to read it.  Below :data:`~pyradice_lab.engine.findings.MIN_CLAIM_N` games (the quick report) the findings show
their numbers and claim nothing.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from ..engine.findings import (
    MIN_CLAIM_N,
    Finding,
    difference_of,
    format_interval,
    format_value,
    from_estimate,
)
from ..engine.results import ExperimentResult
from ..engine.rng import spawn_seeds
from ..engine.stats import Z95, Estimate
from . import analysis as A
from .odds import placement_table

__all__ = ["SIZES", "QUICK_BUDGET", "STRONG", "run_tile_fairness", "run_seat_advantage", "run_automa", "run_features",
           "run_hazards", "run_readings", "run_strong_play", "odds_experiment", "odds_findings", "fairness_findings",
           "seat_findings", "automa_findings", "feature_findings", "hazard_findings", "reading_findings",
           "strong_findings", "report_players", "paired", "without_restated"]

# games per experiment: (quick, full report, experiment scripts).  The quick report runs the pure-Python twin
# of the kernel when numba's cache is cold (identical numbers, no compile inside the quick budget); the full
# report always runs the compiled kernel (a cold compile of ~25 s fits its 5-minute budget) with sizes large
# enough for readable confidence intervals; the scripts in experiments/ use the largest sizes.
SIZES = {"fairness": (3, 1000, 3000), "seats": (4, 600, 4000), "automa": (4, 1000, 3000), "features": (3, 1000, 3000),
         "hazards": (4, 1000, 3000), "readings": (4, 1500, 5000), "strong": (4, 400, 400), "versus": (6, 100, 200),
         # (2026-12-03, the 5-minute budget: the heuristic's start-player run 1500 -> 600 games a setup; the
         # strong-play page 600 -> 400 expectimax games, its head-to-head games kept at 100, the minimum for a
         # claim; the report player's tile run 300 -> 200 games (tile 12 paid 3.02 +-0.11 against the board's
         # 2.09) and start-player run 200 -> 150 games a setup (the 2p + automa edge 0.30 +-0.13; the others
         # undecided at either size))
         # the report player's runs of the tile, start-player and blue-bag pages (mcts_v2: about 0.02 / 0.07 /
         # 0.12 CPU s per 2p + automa / 3p / 4p game with every seat searching, compiled, measured 2026-12-02; the
         # quick report plays it with a budget of QUICK_BUDGET rollouts, in the pure-Python twin when numba's cache
         # is cold): about 130 CPU s, the largest part of the report (the start-player edges stay undecided at
         # 300 games a setup, +-0.07..0.11: 200 keeps them within +-0.08..0.14; the blue-bag effects are decided
         # at 100 games)
         "fairness_strong": (2, 200, 1000), "seats_strong": (2, 150, 1000), "hazards_strong": (2, 100, 1000)}
#: rollouts per decision of the report player in the quick report (the pure-Python twin costs seconds per rollout)
QUICK_BUDGET = 2
#: The strong players of the strong-play experiment: (restated findings, search player in the head-to-head table)
#: for (quick, full report, experiment script).  The search player costs seconds per game, so the report restates
#: the findings with the expectimax player and the script with the search player; the quick report, which never
#: compiles, leaves the search player out.
STRONG = {0: ("expectimax", None), 1: ("expectimax", "mcts:32"), 2: ("mcts:32", "mcts")}


# ----------------------------------------------------------------------------------------- findings helpers
def _estimate(row, prefix: str, n) -> Estimate:
    """The :class:`~pyradice_lab.engine.stats.Estimate` of the ``prefix`` columns of a table row (a table without the
    standard error, as shown in the report: the SE of a normal 95% interval of the same width)."""
    lo, hi = float(row[f"{prefix}_ci_low"]), float(row[f"{prefix}_ci_high"])
    se = float(row[f"{prefix}_se"]) if f"{prefix}_se" in row else (hi - lo) / (2 * Z95)
    return Estimate(float(row[prefix]), se, int(n), lo, hi)


def _compact(df: pd.DataFrame) -> pd.DataFrame:
    """The table shown and saved: standard-error columns dropped (every estimate keeps its 95% interval; the
    findings are computed from the full table before this), numbers rounded to 5 decimals."""
    return df[[c for c in df.columns if not c.endswith("_se") and c != "se"]].round(5)


def _finite(*values) -> bool:
    return bool(np.isfinite(np.asarray(values, dtype=float)).all())


def _interval(est: float, lo: float, hi: float, unit: str = "") -> str:
    """``value (95% CI a..b)`` with the digits the interval supports (the findings' own formatting)."""
    half = (hi - lo) / 2
    return f"{format_value(est, unit=unit, spread=half)} ({format_interval(lo, hi, unit=unit)})"


# ----------------------------------------------------------------------------------------- experiments
def odds_findings(tab: pd.DataFrame, no: pd.DataFrame) -> list[Finding]:
    """Exact findings of the placement odds: the chance to place on tiles 3, 7 and 12, with the reroll
    against without it."""
    return [Finding("exact", f"chance to place at least one meerkat on tile {t} in a turn, reroll used",
                    float(tab.loc[t, 1]), float(tab.loc[t, 1]), float(tab.loc[t, 1]), n=0, null=float(no.loc[t, 1]),
                    null_label="the chance without the reroll", unit="%") for t in (3, 7, 12)]


def odds_experiment() -> ExperimentResult:
    tab = placement_table(reroll=True)
    no = placement_table(reroll=False)
    df = pd.DataFrame({"tile": tab.index, **{f"p{c}_reroll": tab[c].to_numpy() for c in tab.columns},
                       **{f"p{c}_no_reroll": no[c].to_numpy() for c in no.columns}})
    reading = ("Exact odds (216 rolls x 8 keep-sets, no simulation), the optional reroll used to maximise the chance "
               "(solid: with the reroll, dotted: without). Three meerkats and the queen need the same 5-6 count die, "
               "so they share a curve; snake eyes (1+1 as the tile pair) reach any tile.")
    return ExperimentResult("meerkat_placement_odds", "Meerkat Kingdom: exact placement odds", reading, df, None,
                            meta={"exact": True, "figure_data": {"tab": tab, "no": no}}, findings=odds_findings(tab, no),
                            question="How likely is a placement on each tile, and how much does the reroll add?")


def fairness_findings(df: pd.DataFrame, n: int, player: str = "greedy") -> list[Finding]:
    """The tiles paying the most and the fewest points per piece committed, each against the board mean (taken
    as fixed): findings that may change a tile's values."""
    mean = float(df["paid"].sum() / df["pieces"].sum())
    out = []
    for r in (df.loc[df.points_per_piece.idxmax()], df.loc[df.points_per_piece.idxmin()]):
        if not _finite(r.points_per_piece, r.points_per_piece_ci_low, r.points_per_piece_ci_high, mean):
            continue
        out.append(Finding("difference", f"points paid per piece committed, tile {int(r.tile)} ({r['values']})",
                           r.points_per_piece, r.points_per_piece_ci_low, r.points_per_piece_ci_high, n=n,
                           null=mean, null_label="the board mean", test="log-scale delta-method interval",
                           player=player, unit="points", component=f"tile {int(r.tile)} values"))
    return out


def run_tile_fairness(n: int, seed, engine: str = "auto", exponents=(0.0, 0.5, 1.0, 1.5),
                      policies: str = "greedy") -> ExperimentResult:
    sweep = A.value_sweep(n, exponents, rng=seed, engine=engine, policies=policies)
    cvs = [f.points_per_piece.std() / f.points_per_piece.mean() for _, _, f in sweep]
    k1 = [b for b, _, _ in sweep].index(1.0) if 1.0 in exponents else 0
    base = sweep[k1][2]
    df = base[["tile", "values", "p_place_1", "pieces", "pieces_se", "paid", "paid_se", "p_high_taken",
               "points_per_piece", "points_per_piece_ci_low", "points_per_piece_ci_high"]].copy()
    for b, comp, fair in sweep:
        if b != exponents[k1]:
            df[f"values_b{b:g}"] = ["/".join(map(str, comp.tile(t).values)) for t in df["tile"]]
            df[f"points_per_piece_b{b:g}"] = fair["points_per_piece"].to_numpy()
    reading = (f"Three-player {policies} games, {n} per value set. A tile's 'price' is the pieces committed to it by the "
               "time it is scored, its 'pay' the points it hands out. The sweep varies how steeply values rise with "
               "difficulty (high value = 6 (p(6)/p(t))^b; b = 0: every tile like tile 6; b = 1: the packaged "
               "reconstruction) and re-simulates each set, because players chase the values; the legend gives each "
               "set's spread of points per piece (coefficient of variation, CV, without an interval: compare sets "
               "only at the full size). Three-place tiles (9..12) also pay second and third places, so some spread "
               "is structural.")
    return ExperimentResult("meerkat_tile_fairness", "Meerkat Kingdom: tile value fairness", reading, df, None,
                            meta={"games": n, "exponents": list(exponents),
                                  "figure_data": {"sweep": sweep, "cvs": cvs, "k1": k1, "base": base,
                                                  "tiles": df.tile}}, findings=fairness_findings(base, n, policies),
                            question="Does every tile pay about the same points for the pieces players commit to it?")


def seat_findings(df: pd.DataFrame, player: str = "greedy") -> list[Finding]:
    """Per setup: the start player's win share minus the other players' mean, paired per game (null: 0)."""
    out = []
    for setup, grp in df.groupby("setup", sort=False):
        r = grp.iloc[0]
        if _finite(r.start_edge, r.start_edge_ci_low, r.start_edge_ci_high):
            out.append(from_estimate("difference", f"start player's win share against the other players' mean, "
                                     f"{setup}", _estimate(r, "start_edge", r.games), null=0.0,
                                     null_label="an even start", test="paired t interval", player=player,
                                     unit="%", dist="t", df=max(int(r.games) - 1, 1)))
    return out


def run_seat_advantage(n: int, seed, engine: str = "auto", policies: str = "greedy") -> ExperimentResult:
    setups = [*A.RULES_SETUPS, (2, False)]  # the rules' setups, then 2 players without the automa (extension)
    df = A.seat_advantage(setups, n, rng=seed, engine=engine, policies=policies)
    reading = (f"{n} games per setup, every player {policies}; the rules' 2-player game is 2 players + the automa "
               "(bonus tokens 9 and 6). Positions are turn positions: the start roll decides who starts. The edge is "
               "the start player's win share minus the mean of the other human players, paired per game, so it does "
               "not depend on how often the automa wins; dotted lines: the fair share.")
    return ExperimentResult("meerkat_seat_advantage", "Meerkat Kingdom: start-player advantage by setup", reading,
                            _compact(df), None, meta={"games": n, "figure_data": {"df": df}}, findings=seat_findings(df, policies),
                            question="Does the start player win more often than the others?")


def automa_findings(df: pd.DataFrame) -> list[Finding]:
    """Per row: the automa's win share against the fair share (its score margin is in the table)."""
    out = []
    for r in df.to_dict("records"):
        who = f"{r['players']} {r['policy']} player{'s' if r['players'] > 1 else ''}"
        ext = " (extension)" if "extension" in r["setup"] else ""
        out.append(from_estimate("difference", f"automa win share against {who}{ext}",
                                 _estimate(r, "automa_win_rate", r["games"]), null=r["fair_share"],
                                 null_label="a fair share", test="t interval (Wilson for 0/1 shares)",
                                 player=r["policy"], unit="%"))
    return out


def run_automa(n: int, seed, engine: str = "auto") -> ExperimentResult:
    df = A.automa_strength(n, rng=seed, engine=engine)
    reading = (f"{n} games per row. The automa places by its die and never uses guardians, burrow actions, the "
               "wandering male or oases; 1 player against the automa is an extension, not in the rules.")
    return ExperimentResult("meerkat_automa_strength", "Meerkat Kingdom: automa strength", reading, _compact(df),
                            None, meta={"games": n, "figure_data": {"df": df}}, findings=automa_findings(df),
                            question="How strong is the automa against players of each strength?")


def feature_findings(df: pd.DataFrame, player: str = "heuristic") -> list[Finding]:
    """Per variant: its score edge minus the baseline's (independent games; null 0): the value of the feature."""
    base = df.iloc[0]
    b = _estimate(base, "score_edge", base.games)
    return [difference_of(f"score edge of a player who {r['variant']}, against the baseline's",
                          _estimate(r, "score_edge", r["games"]), b, player=player, unit="points", scale=10.0)
            for r in df.iloc[1:].to_dict("records")]


def run_features(n: int, seed, engine: str = "auto") -> ExperimentResult:
    df = A.feature_value(n, rng=seed, engine=engine)
    reading = (f"{n} three-player games per variant; seat 1 plays the variant, seats 2-3 the baseline heuristic. "
               "The difference of a variant's score edge to the baseline row is the value of the feature to this "
               "player.")
    return ExperimentResult("meerkat_feature_value", "Meerkat Kingdom: value of the reroll, the queen, guardians+pups",
                            reading, _compact(df), None, meta={"games": n, "figure_data": {"df": df}},
                            findings=feature_findings(df),
                            question="What is the reroll, the queen, or a guardian worth to a player?")


def hazard_findings(df: pd.DataFrame, player: str = "greedy") -> list[Finding]:
    """Hazards per game with the default bags; the change in hazards with 1 or 3 of each blue token (meerkats
    lost are in the table); the score of players hit by a hazard minus those spared."""
    d = df[df["default"]].iloc[0]
    n = int(d.games)
    out = [from_estimate("estimate", f"hazards per game, {d.blue_copies_each} of each blue token (default bags)",
                         _estimate(d, "hazards_per_game", n), player=player, test="log-scale t interval")]
    for r in df[~df["default"]].to_dict("records"):
        for col, what in (("hazards_per_game", "hazards per game"),):
            out.append(difference_of(f"{what} with {r['blue_copies_each']} of each blue token instead of the default "
                                     f"{d.blue_copies_each}", _estimate(r, col, r["games"]), _estimate(d, col, n),
                                     player=player, component="blue bag contents"))
    hit = _estimate(d, "score_hit_minus_spared", n) if _finite(d.score_hit_minus_spared) else None
    if hit is not None and hit.ci_high > hit.ci_low:
        out.append(from_estimate("difference", "score of players hit by a hazard against those spared (default bags)",
                                 hit, null=0.0, test="normal interval (Welch SE)", player=player, unit="points",
                                 scale=10.0, notes=("Hazards hit crowded tiles, so this mixes cause and effect",)))
    return out


def run_hazards(n: int, seed, engine: str = "auto", policies: str = "greedy") -> ExperimentResult:
    df = A.hazard_impact(n, rng=seed, engine=engine, policies=policies)
    reading = (f"{n} three-player {policies} games per row. Hazards (and every brown token: tan effects, reverse "
               "scoring) only come out once the blue bag is empty, so the number of blue tokens sets the hazard "
               "pressure. The bag contents are reconstructed; counts have intervals on the log scale (never below 0).")
    return ExperimentResult("meerkat_hazards", "Meerkat Kingdom: hazard impact", reading, _compact(df), None,
                            meta={"games": n, "figure_data": {"df": df}}, findings=hazard_findings(df, policies),
                            question="How much do hazards bite, and how does the blue bag set their pressure?")


def reading_findings(df: pd.DataFrame, player: str = "greedy") -> list[Finding]:
    """Per setup and reading: the share of games whose winner changes (Wilson); the paired change of the start
    player's win share is in the table and the figure."""
    out = []
    for r in df.to_dict("records"):
        what = f"{r['reading'].replace('_', ' ')} = {r['option']}, {r['setup']}"
        out.append(from_estimate("estimate", f"share of games with another winner, {what}",
                                 _estimate(r, "winner_changed_rate", r["games"]), test="Wilson interval",
                                 player=player, unit="%"))
    return out


def run_readings(n: int, seed, engine: str = "auto") -> ExperimentResult:
    df = A.reading_impact(n, rng=seed, engine=engine)
    reading = (f"{n} greedy games per setup, each played twice from the same seeds: under the literal reading of "
               "the rules text (the default) and under the other reading. Reverse scoring token on tiles 9-12: "
               "literal = the fewest takes the highest value, the second fewest the lowest; extended = the "
               "second fewest the middle value, the third the lowest. Jackal: literal = a player whose "
               "highest-numbered affected tile is protected by their queen loses nothing; next_tile = they lose a "
               "meerkat from the next affected tile down. Both readings need the brown bag, and the reverse token "
               "reaches a three-value tile only by the burrow action that moves oasis tokens. The table gives how "
               "often the readings differ at all (applies_rate).")
    shown = df[["setup", "reading", "option", "applies_rate", "applies_rate_ci_low", "applies_rate_ci_high",
                "winner_changed_rate", "winner_changed_rate_ci_low", "winner_changed_rate_ci_high", "start_change",
                "start_change_se", "start_change_ci_low", "start_change_ci_high", "games"]]  # all: reading_impact
    return ExperimentResult("meerkat_rule_readings", "Meerkat Kingdom: do the readings of ambiguous rules matter?",
                            reading, _compact(shown), None, meta={"games": n, "figure_data": {"df": df}},
                            findings=reading_findings(df),
                            question="Do the two readings of the ambiguous rules change who wins?")


def run_strong_play(n: int, n_versus: int, seed, engine: str = "auto", strong: str = "expectimax",
                    search: str | None = "mcts") -> ExperimentResult:
    """Issue 12 for Meerkat: the strong players against greedy and heuristic (targets), then the balance findings
    restated with ``strong`` players next to heuristic players."""
    seeds = spawn_seeds(seed, 2)
    # expectimax against both heuristics; the search player (seconds per game) against the stronger heuristic only
    pairs = [("expectimax", o, pl) for o in ("greedy", "heuristic") for pl in (2, 3)]
    if search is not None and search != "expectimax":
        pairs += [(search, "heuristic", pl) for pl in (2, 3)]
    vs = pd.concat([A.head_to_head(p, o, n_versus, players=pl, rng=ss, engine=engine)
                    for (p, o, pl), ss in zip(pairs, spawn_seeds(seeds[0], len(pairs)))], ignore_index=True)
    df = A.strong_play(n, strong=strong, base="heuristic", rng=seeds[1], engine=engine)
    reading = (f"Head to head: {n_versus} games per row, the strong player's seat rotated, the others all greedy or "
               f"all heuristic (the search player against heuristic players only) (2 players: the rules' 2 players + automa). Restated findings: every seat played by "
               f"heuristic players and again by {strong} players, {n} games per setup and per restricted player "
               "(3 players); the start-player edge by turn position, paired per game; tile pay against the board "
               "mean for the tiles paying the most and the fewest points per piece with heuristic players. Each "
               f"finding under {strong} play says whether it holds (its interval on the same side of the reference "
               "as with heuristic players); the change from heuristic to strong play is a difference of independent "
               "estimates.")
    table = pd.concat([vs.assign(finding="head-to-head").rename(columns={"win_rate": "value", "win_rate_se": "se",
                                                                         "win_rate_ci_low": "ci_low",
                                                                         "win_rate_ci_high": "ci_high"}), df],
                      ignore_index=True)
    cols = ["finding", "policy", "opponent", "setup", "player", "value", "se", "ci_low", "ci_high", "reference",
            "fair_share", "beats_fair", "side", "holds", "games"]
    return ExperimentResult("meerkat_strong_play", "Meerkat Kingdom: strong players and the findings under strong play",
                            reading, _compact(table[cols]), None,
                            meta={"games": n, "versus_games": n_versus, "strong": strong, "search": search,
                                  "figure_data": {"vs": vs, "df": df}},
                            findings=strong_findings(vs, df, base="heuristic"),
                            question="How strong are the search players, and do the balance findings hold under "
                                     "strong play?")


def _holds(base_side: str, strong_side: str, strong: str, base: str) -> str:
    """Whether a finding holds under strong play, from the sides of the reference the two intervals lie on."""
    where = {"above": "above the reference", "below": "below the reference", "contains": "containing the reference"}
    if base_side == strong_side == "contains":
        return f"no difference from the reference is detected with either player ({base} or {strong})"
    if base_side == strong_side:
        return f"holds under strong play (both intervals {where[base_side]})"
    return (f"changes under strong play (the {base} players' interval {where[base_side]}, the {strong} players' "
            f"{where[strong_side]})")


def strong_findings(vs: pd.DataFrame, df: pd.DataFrame, base: str = "heuristic") -> list[Finding]:
    """Findings of the strong-play experiment: each head-to-head share against the fair share; each restated
    finding (start-player edge, restricted players, the heuristic's best- and worst-paying tiles) under the strong
    player against its reference, with the heuristic players' numbers and whether it holds, then the change from
    heuristic to strong play (difference of independent estimates, null 0)."""
    out = []
    for r in vs.itertuples():
        out.append(Finding("difference", f"win share of {r.policy} against {r.opponent} players, {r.setup}",
                           r.win_rate, r.win_rate_ci_low, r.win_rate_ci_high, n=int(r.games), null=r.fair_share,
                           null_label="a fair share", test="t interval, seat rotated", player=f"{r.policy} vs "
                           f"{r.opponent}", unit="%", dist="t", df=max(int(r.games) - 1, 1)))
    ppp = df[df.finding.str.startswith("points per piece") & (df.player == base)]
    tiles = set(ppp.loc[[ppp.value.idxmax(), ppp.value.idxmin()], "finding"]) if len(ppp) else set()
    keep = df[~df.finding.str.startswith("points per piece") | df.finding.isin(tiles)]
    for finding, grp in keep.groupby("finding", sort=False):
        b, st = grp[grp.player == base], grp[grp.player != base]
        if b.empty or st.empty:
            continue
        b, st = b.iloc[0], st.iloc[0]
        if not _finite(b.value, b.ci_low, b.ci_high, st.value, st.ci_low, st.ci_high, st.reference):
            continue
        tile = finding.startswith("points per piece")
        edge = finding.startswith("start-player edge")
        unit = "points" if tile else "%"
        ref_label = "the board mean" if tile else ("an even start" if edge else "a fair share")
        note = f"With {base} players: {_interval(b.value, b.ci_low, b.ci_high, unit)}"
        if min(st.games, b.games) >= MIN_CLAIM_N:
            note += "; " + _holds(b.side, st.side, st.player, base)
        out.append(Finding("difference", finding, st.value, min(st.ci_low, st.value), max(st.ci_high, st.value),
                           n=int(st.games), null=st.reference, null_label=ref_label,
                           test="paired t interval" if edge else ("log-scale delta-method interval" if tile
                                                                  else "t interval"),
                           player=st.player, unit=unit, notes=(note,),
                           component=finding.split("(")[0].replace("points per piece, ", "").strip() + " values"
                           if tile else ""))
        moved = difference_of(f"{finding}: {st.player} instead of {base} players",
                              Estimate(st.value, st.se, int(st.games), st.ci_low, st.ci_high),
                              Estimate(b.value, b.se, int(b.games), b.ci_low, b.ci_high),
                              player=f"{st.player} vs {base}", unit=unit)
        if unit == "%":  # shares change by at most 1, edges (differences of shares) by 2: the normal interval can
            bound = 2.0 if edge else 1.0  # pass these bounds on tiny samples
            moved = moved.with_context(ci_low=max(-bound, moved.ci_low), ci_high=min(bound, moved.ci_high))
        out.append(moved)
    return out


# ----------------------------------------------------------------------------------------- report players
def report_players(quick: bool = False) -> tuple[str, str]:
    """(report player, heuristic) from the registry; the quick report plays the search player with
    :data:`QUICK_BUDGET` rollouts per decision (``"mcts_v2:2"``)."""
    from ..engine import registry
    from .policies import NAMED_PLAYERS

    spec = registry.get_game("meerkat")
    strong = spec.report_player
    if quick and (strong == "mcts" or NAMED_PLAYERS.get(strong, ("",))[0] == "mcts"):  # a search player
        strong = f"{strong}:{QUICK_BUDGET}"
    return strong, spec.heuristic_player


def paired(make, strong_args: tuple, heuristic_args: tuple, strong: str, heuristic: str) -> ExperimentResult:
    """``make(*strong_args, policies=strong)``, the page, with the tile, start-player and blue-bag findings of
    ``make(*heuristic_args, policies=heuristic)`` beside its own (:func:`pyradice_lab.engine.findings.pair_findings`,
    matched by quantity without the tile's values; a finding that names another tile under the heuristic says
    which)."""
    from ..engine.findings import pair_findings

    res = make(*strong_args, policies=strong)
    base = make(*heuristic_args, policies=heuristic)

    def keyed(findings):  # the most- and the least-paying tile are matched by rank (first, second), not by number
        tiles = iter(range(len(findings)))
        return [(f"tile finding {next(tiles)}" if f.quantity.startswith("points paid per piece")
                 else re.sub(r"\d+\.\d+", "#", f.quantity), f) for f in findings]

    mine, theirs = keyed(res.findings), dict(keyed(base.findings)[::-1])
    paired_ = pair_findings([f for _, f in mine], [theirs[k] for k, _ in mine if k in theirs],
                            key=lambda f: next((k for k, g in mine if g is f), None)
                            or next((k for k, g in theirs.items() if g is f), None))
    out = []
    for (k, _), f in zip(mine, paired_):
        if f.sensitivity and k in theirs and theirs[k].quantity != f.quantity:
            f = f.with_context(notes=(*f.notes, f"Under {heuristic}: {theirs[k].quantity}."))
        out.append(f)
    res.findings = tuple(out)
    res.meta["sensitivity_player"] = heuristic
    return res


def without_restated(res: ExperimentResult, strong: str) -> ExperimentResult:
    """The strong-play page without its restated start-player and tile findings when they are measured with
    another player than the report player ``strong`` (the seat-advantage and tile pages now measure them with
    it, the heuristic beside): its head-to-head and restricted-player findings stay."""
    from ..engine.findings import is_designer_finding

    base = strong.split(":")[0]
    res.findings = tuple(f for f in res.findings
                         if not is_designer_finding(f) or base in re.findall(r"[A-Za-z_]+", f.player))
    return res
