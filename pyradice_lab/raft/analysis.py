"""Rocking Raft experiments: each answers one designer's question with a table, its findings and a reading (no figure:
:mod:`.pages` draws it from ``meta["figure_data"]``).

Every function takes the sizes and a seed (int, SeedSequence or Generator; each configuration gets
its own spawned child) and returns a :class:`~pyradice_lab.report.ExperimentResult`; the report
section and the scripts in ``experiments/raft_*.py`` call the same functions.  Monte Carlo numbers
carry standard errors and 95% confidence intervals.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..engine.findings import Finding, difference_of, from_estimate
from ..engine.results import ExperimentResult
from ..engine.rng import seed_sequence
from ..engine.stats import Z95, Estimate, mean_estimate, proportion_estimate
from .components import coerce_components
from .policies import fixed
from .sim import simulate, simulate_games, start_player_table

__all__ = ["tilt_model", "calibration_demo", "card_fairness", "gem_mix", "flag_depth", "greed_curve", "dexterity", "paired",
           "sinking", "points_per_turn_by_size"]


def _children(seed, k):
    return seed_sequence(seed).spawn(k)


def _cols(prefix: str, est: Estimate) -> dict:
    return est.to_dict(prefix)


def _long(t: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Tidy long table: one row per configuration and metric with value, se, 95% CI and sample size."""
    metrics = [c[:-3] for c in t.columns if c.endswith("_se")]
    rows = []
    for _, r in t.iterrows():
        for m in metrics:
            rows.append({**{k: r[k] for k in keys}, "metric": m, "value": r[m], "se": r[f"{m}_se"],
                         "ci_low": r[f"{m}_ci_low"], "ci_high": r[f"{m}_ci_high"], "n": int(r["games"])})
    return pd.DataFrame(rows)


def _est(row, metric: str, n: str = "games") -> Estimate:
    """The :class:`Estimate` of ``metric`` in a wide table row (``metric``, ``_se``, ``_ci_low``, ``_ci_high``)."""
    se = float(row[f"{metric}_se"])
    return Estimate(float(row[metric]), 0.0 if not np.isfinite(se) else se, int(row[n]), float(row[f"{metric}_ci_low"]),
                    float(row[f"{metric}_ci_high"]))


def _finite(*values) -> bool:
    return all(np.isfinite(float(v)) for v in values)


def _blocks(n_games: int, blocks: int) -> list[int]:
    """``n_games`` split into at most ``blocks`` nearly equal positive block sizes."""
    base, extra = divmod(n_games, blocks)
    return [base + (b < extra) for b in range(blocks) if base + (b < extra)]


def card_rate_blocks(cards: list[pd.DataFrame]) -> pd.DataFrame:
    """Points per own turn held by card size, minus the deck's rate, from independent blocks of games.

    ``cards``: the per-card totals of :func:`.sim.simulate`, one frame per block.  One row per size: the
    pooled ``rate`` (:func:`points_per_turn_by_size` of the summed blocks, with ``rate_ci_low``/``rate_ci_high``
    from the spread over blocks), the pooled deck ``deck_rate``,
    their difference ``excess`` with a Student-t 95% interval from the spread over blocks
    (``excess_ci_low``/``excess_ci_high``), and ``blocks``.  Also the largest minus the smallest size
    (row ``size = -1``) the same way.
    """
    keys = ["id", "name", "size", "points"]
    total = sum(c.drop(columns=keys) for c in cards)
    pooled = pd.concat([cards[0][keys], total], axis=1)

    def rates(c):
        by = points_per_turn_by_size(c)
        tpc = c["turns_held"] / c["completed"].clip(lower=1)
        return by, float(c["points"].sum() / tpc.sum())

    by, k = rates(pooled)
    per = [rates(c) for c in cards]
    rows = []
    sizes = list(by.index)
    for s in sizes + [-1]:
        if s == -1:
            v = float(by.iloc[-1] - by.iloc[0])
            d = np.array([b.iloc[-1] - b.iloc[0] for b, _ in per])
        else:
            v = float(by[s] - k)
            d = np.array([b[s] - kb for b, kb in per])
        rb = d if s == -1 else np.array([b[s] for b, _ in per])
        rate = float(by.iloc[-1] - by.iloc[0]) if s == -1 else float(by[s])
        half, rhalf = (mean_estimate(x).halfwidth if len(x) > 1 and np.all(np.isfinite(x)) else np.nan for x in (d, rb))
        rows.append({"size": int(s), "rate": rate, "rate_ci_low": rate - rhalf, "rate_ci_high": rate + rhalf,
                     "deck_rate": k, "excess": v, "excess_ci_low": v - half, "excess_ci_high": v + half,
                     "blocks": len(cards)})
    return pd.DataFrame(rows)


# ----------------------------------------------------------------------------------------- tilt model
def tilt_model(players: int = 4, durations=None, layout: str = "setup", *, components=None) -> ExperimentResult:
    """Exact expected gems fallen vs intended duration, every edge and finger space: averaged over random
    rules setups (``layout="setup"``, the first tilt of a game) or from the fixed reference layout.
    ``components``: a path or loaded components (default packaged), as for every experiment here."""
    from .layouts import RandomSetup, reference_state
    from .odds import fallen_total_pmf

    if layout not in ("setup", "reference"):
        raise ValueError(f"layout must be 'setup' or 'reference', got {layout!r}")
    comp = coerce_components(components)
    state = RandomSetup(players, comp) if layout == "setup" else reference_state(players, comp)
    gems = int(comp.gems.in_play(players).sum())
    durations = np.round(np.arange(0.25, 4.01, 0.25), 2) if durations is None else durations
    rows = []
    for edge, fi in comp.raft.options():
        for d in durations:
            pmf = fallen_total_pmf(state, edge, fi, float(d), components=comp)
            k = np.arange(len(pmf))
            mean = float(pmf @ k)
            rows.append({"edge": edge, "finger": comp.raft.fingers[edge][fi], "duration": float(d),
                         "expected_fallen": mean, "sd_fallen": float(np.sqrt(max(pmf @ k**2 - mean**2, 0))),
                         "p_none": float(pmf[0]), "p_6_or_more": float(pmf[6:].sum())})
    df = pd.DataFrame(rows)
    d1 = float(df["duration"].iloc[int(np.argmin(np.abs(df["duration"].to_numpy() - 1.0)))])
    at1 = df[df.duration == d1].set_index(["edge", "finger"])["expected_fallen"]
    best, worst = at1.idxmax(), at1.idxmin()
    where = (f"averaged over random {players}-player rules setups (one random gem on each outer space, the other "
             f"{gems - 8} dropped into the centre, some rolled into its side neighbours)" if layout == "setup" else
             f"from the reference {players}-player layout (one ordinary gem on each outer space, {gems - 8} in the centre)")
    who = f"{players} players, {layout} layout"
    findings = [
        Finding("exact", f"expected gems fallen in a {d1:g} s tilt, the best edge and finger space ({best[0]}/"
                f"{best[1]}, {at1.max():.2f} gems) against the worst ({worst[0]}/{worst[1]})", float(at1.max() - at1.min()), float(at1.max() - at1.min()),
                float(at1.max() - at1.min()), n=0, null=0.0, null_label="no difference", unit="gems", player=who,
                component="wall gaps", scale=max(float(at1.mean()), 1e-9)),
    ]
    reading = (f"Exact expected gems fallen under the default (reconstructed) tilt model, {where}, for every edge "
               "(wall gap widths in the legend, left to right as seen by the tilting player), finger space (line "
               "style) and intended tilt time: dynamic programming over the model, no sampling error. A designer can "
               "change the gaps in raft.toml and rerun this page.")
    return ExperimentResult("raft_tilt_model", "Tilt model: expected gems fallen vs tilt time", reading, df, None,
                            {"figure_data": {"df": df, "comp": comp},
                             "players": players, "layout": layout, "exact": True}, findings=findings, max_rows=8,
                            question="How many gems does a tilt drop, by edge, finger space and time?")


def calibration_demo(seed, quick: bool = False) -> ExperimentResult:
    """Synthetic tilts from known parameters, then :func:`calibrate`: are the parameters recovered?"""
    from scipy.stats import chi2

    from .calibration import calibrate, default_design, loglik, simulate_observations
    from .physics import TiltParams

    truth = TiltParams(slide_rate=0.7, drop_rate=2.2, finger_skew=0.35, wall_spread=0.15, recentre=0.6, timing_noise=0.3)
    if quick:
        design = default_design(durations=(0.5, 1.5, 3.0), edges=("north",)).query("finger == 'centre'")
        tilts, fit = 40, ["slide_rate", "drop_rate"]
    else:
        design = default_design(durations=(0.5, 1.5, 3.0), edges=("north", "east"))
        tilts, fit = 30, None
    obs = simulate_observations(design, truth, tilts=tilts, rng=seed, centre=not quick)
    res = calibrate(obs, fit=fit)
    # joint check: the estimates are strongly correlated, so marginal intervals miss together
    lr = 2.0 * (res.loglik - loglik(obs, truth))
    k = int(res.table["fitted"].sum())
    p_joint = float(chi2.sf(lr, k))
    t = res.table[res.table["fitted"]].copy()
    t.insert(1, "true", [getattr(truth, p) for p in t["parameter"]])
    t["z"] = (t["value"] - t["true"]) / t["se"]
    t["true_in_ci"] = (t["ci_low"] <= t["true"]) & (t["true"] <= t["ci_high"])
    t = t.drop(columns=["fitted"])
    findings = [Finding("difference", f"fitted {r.parameter} against the true value (synthetic tilts)", float(r.value - r.true),
                        float(r.ci_low - r.true), float(r.ci_high - r.true), n=len(obs), null=0.0,
                        null_label="the true value", test="Wald interval, observed information", sample_unit="tilts",
                        scale=abs(float(r.true)) or 1.0)
                for r in t.itertuples() if _finite(r.value, r.ci_low, r.ci_high)]
    reading = (f"{len(obs)} synthetic tilts ({tilts} per condition, {len(design)} conditions: edges "
               f"{', '.join(sorted(design.edge.unique()))}, {'the centre finger' if quick else 'every finger space'}, "
               f"tilts of {', '.join(f'{d:g}' for d in sorted(design.duration.unique()))} s, counting the gems that "
               f"fell{'' if quick else ' and the gems left in the centre'}) were drawn from known parameters and fitted "
               f"back by maximum likelihood{' (quick mode fits only the two rates)' if quick else ''}. A finding above "
               "claims a difference only if the fit misses the true value beyond its interval: honest intervals do so "
               "for about one parameter in twenty. Joint check: likelihood ratio of the fit against the truth "
               f"{lr:.1f} on {k} degrees of freedom, p = {p_joint:.2f} (p below 0.05 would put the truth outside the "
               "joint 95% region; the slide and drop rates trade off, so marginal intervals tend to miss together). "
               "The goodness-of-fit table of calibrate() shows where real tilts depart from the model.")
    return ExperimentResult("raft_calibration", "Calibrating the tilt model from measured tilts", reading, t, None,
                            {"figure_data": {"t": t},
                             "observations": len(obs), "loglik": res.loglik, "lr_truth": lr, "p_joint": p_joint},
                            findings=findings, sample_size=len(obs),
                            question="Does calibrate() recover known tilt parameters from this many tilts?")


# ----------------------------------------------------------------------------------------- card fairness
def points_per_turn_by_size(cards: pd.DataFrame) -> pd.Series:
    """Points per own turn a card is held, by card size: sum of points / sum of turns held per completion
    over the cards of each size (``cards``: the per-card totals of :func:`.sim.simulate`)."""
    tpc = cards["turns_held"] / cards["completed"].clip(lower=1)
    return cards.assign(tpc=tpc).groupby("size").apply(lambda g: g["points"].sum() / g["tpc"].sum(),
                                                        include_groups=False)


def card_fairness(n_games: int, seed, players: int = 3, n_jobs: int = 1, policies=None,
                  blocks: int = 8, *, components=None) -> ExperimentResult:
    """Each lifeboat's points vs how long it takes to complete; over- and under-valued cards (``policies``:
    one for every seat or one per seat, default greedy).  The games are played in ``blocks`` independent
    blocks (seeds spawned from ``seed``): the by-size findings take their intervals from the spread over
    blocks."""
    if isinstance(blocks, bool) or not isinstance(blocks, int) or blocks < 2:
        raise ValueError(f"blocks must be an integer >= 2, got {blocks!r}")
    comp = coerce_components(components)
    parts = [simulate(n, players, policies=policies, rng=s, n_jobs=n_jobs, components=comp)
             for n, s in zip(_blocks(n_games, blocks), _children(seed, blocks))]
    who = "greedy" if policies is None else ", ".join(dict.fromkeys(parts[0].games.attrs["policies"]))
    rates = card_rate_blocks([b.cards for b in parts])
    keys = ["id", "name", "size", "points"]
    c = pd.concat([parts[0].cards[keys], sum(b.cards.drop(columns=keys) for b in parts)], axis=1)
    c["rule_points"] = [comp.deck[i].points for i in range(len(c))]
    rows = []
    for _, r in c.iterrows():
        p = proportion_estimate(int(r["completed"]), int(max(r["drawn"], 1)))
        n_c = max(int(r["completed"]), 1)
        tpc = r["turns_held"] / n_c
        var = max(r["turns_held_sq"] - 2 * tpc * r["completed_turns"] + tpc * tpc * r["completed"], 0.0)
        rows.append({"p_complete": p.value, "p_complete_ci_low": p.ci_low, "p_complete_ci_high": p.ci_high,
                     "turns_per_completion": tpc, "turns_per_completion_se": np.sqrt(var) / n_c})
    c = pd.concat([c, pd.DataFrame(rows)], axis=1)
    k = c["points"].sum() / c["turns_per_completion"].sum()
    c["fair_points"] = k * c["turns_per_completion"]
    c["fair_ci_low"] = k * (c["turns_per_completion"] - Z95 * c["turns_per_completion_se"])
    c["fair_ci_high"] = k * (c["turns_per_completion"] + Z95 * c["turns_per_completion_se"])
    c["proposed_points"] = np.maximum(1, np.round(c["fair_points"])).astype(int)
    c["z"] = (c["points"] - c["fair_points"]) / (k * c["turns_per_completion_se"]).replace(0, np.nan)
    # one test per card, Holm-adjusted over the deck's cards (the family): a verdict only where it survives
    from scipy.stats import norm

    from ..engine.findings import holm

    c["p_holm"] = holm(np.nan_to_num(2 * norm.sf(c["z"].abs().to_numpy(float)), nan=1.0))
    c["verdict"] = np.where(c["p_holm"] > 0.05, "fair",
                            np.where(c["points"] > c["fair_points"], "over-valued", "under-valued"))
    table = c[["id", "name", "size", "points", "drawn", "completed", "p_complete", "turns_per_completion",
               "turns_per_completion_se", "fair_points", "fair_ci_low", "fair_ci_high", "proposed_points", "verdict",
               "p_holm"]]
    shown = table.drop(columns=["size", "drawn", "fair_points"]).rename(columns={
        "turns_per_completion": "turns_per_compl", "turns_per_completion_se": "se", "fair_ci_low": "fair_low",
        "fair_ci_high": "fair_high", "proposed_points": "proposed"})
    findings = []
    for r in rates[rates["size"] > 0].itertuples():
        if not _finite(r.excess, r.excess_ci_low, r.excess_ci_high):
            continue
        what = f"{r.size}-slot lifeboats against the deck's {r.deck_rate:.2f}"
        findings.append(Finding("difference", f"points per own turn held, {what}, {players} players", r.excess,
                                r.excess_ci_low, r.excess_ci_high, n=n_games, null=0.0,
                                test=f"t interval over {r.blocks} blocks of games", player=who, unit="points",
                                dist="t", df=max(int(r.blocks) - 1, 1),
                                scale=r.deck_rate, component="lifeboat points"))
    n_off = int((table.verdict != "fair").sum())
    reading = (f"{n_games:,} simulated {players}-player games ({who} policies; {int(table.completed.sum()):,} "
               f"completions) in {len(parts)} independent blocks. A card is fair if its points are proportional to "
               "the own turns it occupies one of the player's two lifeboat places per completion (counting the turns "
               f"of cards never completed); the deck's total points fix the rate at {k:.2f} points per turn held. "
               "The findings compare each card size's rate with the deck's. Per card, the table's verdict says "
               "over- or under-valued when its points differ from its fair value with a p-value, Holm-adjusted over "
               f"the deck's {len(table)} cards (p_holm), below 5%: {n_off} of {len(table)} cards (the chance of "
               "flagging any fair card is at most 5%; the 95% interval of the fair value alone would flag about "
               f"{0.05 * len(table):.0f} by chance). The proposed values keep the deck total; they depend "
               "on the policies and player count simulated. Table: turns_per_compl = own turns held per completion "
               "(se its standard error); fair_low..fair_high = the 95% interval of the fair value.")
    return ExperimentResult("raft_card_fairness", "Card fairness: points vs time to complete", reading, shown, None,
                            {"figure_data": {"table": table, "k": k, "c": c},
                             "games": n_games, "players": players, "rate": k, "policies": who}, findings=findings,
                            sample_size=n_games, max_rows=8,
                            question="Are the lifeboat cards' points fair for how long they take to complete?")


# ----------------------------------------------------------------------------------------- sweeps
def _summary(df: pd.DataFrame, players: int) -> dict:
    seat = df[[f"score_{p}" for p in range(players)]].to_numpy().mean(axis=1)
    out = {"games": len(df)}
    out.update(_cols("rounds", mean_estimate(df["rounds"])))
    out.update(_cols("winning_score", mean_estimate(df["winning_score"])))
    out.update(_cols("mean_score", mean_estimate(seat)))
    out.update(_cols("gift_points", mean_estimate(df["gift_points"])))
    out.update(_cols("shared_win", proportion_estimate(int(df["tie"].sum()), len(df))))
    out.update(_cols("deck_exhausted", proportion_estimate(int(df["deck_exhausted"].sum()), len(df))))
    out.update(_cols("boats_completed", mean_estimate(df[[f"boats_{p}" for p in range(players)]].to_numpy().sum(axis=1))))
    start = start_player_table(df).iloc[0]   # the start player's share of the wins (ties split), by turn position
    out.update({k.replace("win_share", "start_win_share"): start[k] for k in
                ("win_share", "win_share_se", "win_share_ci_low", "win_share_ci_high")})
    return out


def gem_mix(blacks, n_games: int, seed, players: int = 3, n_jobs: int = 1, *, components=None,
            policies: str = "greedy") -> ExperimentResult:
    """How the number of black (wild) gems changes the game."""
    comp = coerce_components(components)
    base = comp.gems.in_play(players)
    rows = []
    for b, s in zip(blacks, _children(seed, len(blacks))):
        counts = list(base[:-1]) + [int(b)]
        df = simulate_games(n_games, players, policies=policies, rng=s, components=comp.with_gems(players, counts),
                            n_jobs=n_jobs)
        rows.append({"black_gems": int(b), **_summary(df, players)})
    t = pd.DataFrame(rows)
    lo, hi = t.iloc[0], t.iloc[-1]
    lo_b, hi_b = int(lo["black_gems"]), int(hi["black_gems"])
    findings = [difference_of(f"{m.replace('_', ' ')} with {hi_b} instead of {lo_b} black gems, {players} players",
                              _est(hi, m), _est(lo, m), player=policies, unit=u, component="black gems in play",
                              scale=float(lo[m]) or 1.0)
                for m, u in (("rounds", "rounds"),)]
    reading = (f"{n_games:,} games per gem mix ({players} players, {int(base[0])} gems of each ordinary colour, "
               f"{policies} players), independent seeds per mix; the default of 3 black gems is a reconstruction this "
               "curve lets a designer revisit.")
    return ExperimentResult("raft_gem_mix", "Gem mix: number of black (wild) gems", reading, _long(t, ["black_gems"]), None,
                            {"figure_data": {"t": t},
                             "players": players}, findings=findings, sample_size=n_games, max_rows=8,
                            question="How does the number of black (wild) gems change the game?")


def flag_depth(depths, n_games: int, seed, players: int = 3, n_jobs: int = 1, *, components=None,
               policies: str = "greedy") -> ExperimentResult:
    """Pirate-flag depth vs game length."""
    comp = coerce_components(components)
    rows = []
    for d, s in zip(depths, _children(seed, len(depths))):
        df = simulate_games(n_games, players, policies=policies, rng=s, flag_depth=int(d), n_jobs=n_jobs,
                            components=comp)
        rows.append({"flag_depth": int(d), **_summary(df, players)})
    t = pd.DataFrame(rows)
    rule = comp.rules.flag_depth[players]
    lo, hi = t.iloc[0], t.iloc[-1]
    findings = [difference_of(f"rounds with the flag under {int(hi.flag_depth)} instead of {int(lo.flag_depth)} cards, "
                              f"{players} players", _est(hi, "rounds"), _est(lo, "rounds"), player=policies,
                              unit="rounds", scale=float(lo.rounds) or 1.0, component="pirate flag depth"),
                from_estimate("estimate", f"share of games where the deck runs out, flag under {int(hi.flag_depth)} "
                              f"cards, {players} players", _est(hi, "deck_exhausted"), player=policies, unit="%",
                              test="Wilson interval")]
    reading = (f"{n_games:,} games per depth ({players} players, {policies} players); the rules put the flag under "
               f"{rule} cards (dotted line). When the deck runs out before the end, some players finish with fewer "
               "than two lifeboats.")
    return ExperimentResult("raft_flag_depth", "Pirate-flag depth vs game length", reading, _long(t, ["flag_depth"]), None,
                            {"figure_data": {"t": t, "comp": comp, "players": players},
                             "players": players}, findings=findings, sample_size=n_games, max_rows=8,
                            question="How does the depth of the pirate flag set the length of the game?")


def greed_curve(durations, n_games: int, seed, players: int = 3, n_jobs: int = 1, *, components=None
                ) -> ExperimentResult:
    """The first seat (index 0; "seat 1" on the page) always tilts for a fixed time (best edge for its boats); the
    others play greedy."""
    comp = coerce_components(components)
    rows = []
    kids = _children(seed, len(durations) + 1)
    configs = [(f"fixed {d:g} s", float(d), fixed(float(d))) for d in durations] + [("greedy (adaptive)", np.nan,
                                                                                     "greedy")]
    for (label, d, pol), s in zip(configs, kids):
        df = simulate_games(n_games, players, policies=[pol] + ["greedy"] * (players - 1), rng=s, n_jobs=n_jobs,
                            components=comp)
        others = df[[f"score_{p}" for p in range(1, players)]].to_numpy().mean(axis=1)
        row = {"seat0_policy": label, "duration": d, "games": len(df)}
        row.update(_cols("seat0_score", mean_estimate(df["score_0"])))
        row.update(_cols("opponent_score", mean_estimate(others)))
        row.update(_cols("points_gifted", mean_estimate(df["gifted_0"])))
        row.update(_cols("seat0_win", proportion_estimate(int((df["winner"] == 0).sum()), len(df))))
        rows.append(row)
    t = pd.DataFrame(rows)
    f = t[t["duration"].notna()]
    base = t[t["duration"].isna()].iloc[0]
    best = f.loc[f["seat0_score"].idxmax()]
    findings = [difference_of(f"seat 1's points, best fixed tilt ({best['duration']:g} s, the best of {len(f)} tried) "
                              f"instead of playing greedy, {players} players", _est(best, "seat0_score"),
                              _est(base, "seat0_score"), player="fixed tilt vs greedy", unit="points",
                              scale=float(base["seat0_score"]) or 1.0),
                difference_of(f"points seat 1's leftovers complete for others, {f['duration'].iloc[-1]:g} s instead of "
                              f"{f['duration'].iloc[0]:g} s tilts, {players} players", _est(f.iloc[-1], "points_gifted"),
                              _est(f.iloc[0], "points_gifted"), player="fixed tilt vs greedy", unit="points")]
    reading = (f"{n_games:,} games per duration ({players} players). Seat 1 always tilts for the same time (on the edge "
               "and finger space best for its lifeboats); the others play greedy. The greed curve belongs to the "
               "reconstructed tilt model: a calibrated model moves it.")
    return ExperimentResult("raft_greed_curve", "Greed curve: tilt duration vs points, including gifts", reading,
                            _long(t, ["seat0_policy", "duration"]), None, {"figure_data": {"f": f, "base": base, "players": players},
                                                                           "players": players}, findings=findings,
                            sample_size=n_games, max_rows=8, question="How long should one tilt, counting the gems passed on?")


def dexterity(noises, n_games: int, seed, players: int = 3, n_jobs: int = 1, *, components=None) -> ExperimentResult:
    """The first seat's (index 0; "seat 1" on the page) timing noise (dexterity) vs its win rate, everyone greedy."""
    from .physics import default_params

    base = default_params().timing_noise
    comp = coerce_components(components)
    rows = []
    for sd, s in zip(noises, _children(seed, len(noises))):
        df = simulate_games(n_games, players, rng=s, skills=[float(sd)] + [base] * (players - 1), n_jobs=n_jobs,
                            components=comp)
        others = df[[f"score_{p}" for p in range(1, players)]].to_numpy().mean(axis=1)
        row = {"seat0_timing_noise": float(sd), "games": len(df)}
        row.update(_cols("seat0_win", proportion_estimate(int((df["winner"] == 0).sum()), len(df))))
        row.update(_cols("score_margin", mean_estimate(df["score_0"] - others)))
        rows.append(row)
    t = pd.DataFrame(rows)
    lo, hi = t.iloc[0], t.iloc[-1]
    findings = [difference_of(f"seat 1's {'win rate' if m == 'seat0_win' else 'points margin'}, timing noise "
                              f"{lo.seat0_timing_noise:g} instead of {hi.seat0_timing_noise:g}, {players} players",
                              _est(lo, m), _est(hi, m), player="greedy", unit=u, scale=sc)
                for m, u, sc in (("seat0_win", "%", 1 / players), ("score_margin", "points", 5.0))]
    reading = (f"{n_games:,} games per skill level ({players} players, greedy policies; opponents' timing noise "
               f"{base:g}, dashed line). Timing noise {hi.seat0_timing_noise:g} means the executed tilt is off by a "
               f"factor e^{hi.seat0_timing_noise:g} one time in three. In this model dexterity is timing only (the "
               "finger space is always hit); how much it matters depends on the calibrated noise.")
    return ExperimentResult("raft_dexterity", "How much dexterity matters", reading, _long(t, ["seat0_timing_noise"]), None,
                            {"figure_data": {"t": t, "players": players, "base": base},
                             "players": players}, findings=findings, sample_size=n_games, max_rows=8,
                            question="How much does a steady hand win?")


def sinking(n_games: int, seed, players=(2, 3, 4), n_jobs: int = 1, *, components=None) -> ExperimentResult:
    """Standard vs sinking-lifeboats variant, per player count."""
    comp = coerce_components(components)
    rows = []
    kids = _children(seed, 2 * len(players))
    i = 0
    for p in players:
        for variant in ("standard", "sinking"):
            df = simulate_games(n_games, p, variant, rng=kids[i], n_jobs=n_jobs, components=comp)
            i += 1
            row = {"players": p, "variant": variant, **_summary(df, p)}
            row.update(_cols("sunk", mean_estimate(df["sunk"])))
            rows.append(row)
    t = pd.DataFrame(rows)
    findings = []
    for p in players:
        st, sk = t[(t.players == p) & (t.variant == "standard")].iloc[0], t[(t.players == p) & (t.variant == "sinking")].iloc[0]
        findings.append(difference_of(f"points per player, sinking instead of standard, {p} players", _est(sk, "mean_score"),
                                      _est(st, "mean_score"), player="greedy", unit="points",
                                      scale=float(st.mean_score) or 1.0))
    reading = (f"{n_games:,} games per cell (greedy policies), independent seeds per variant. The variant bites only "
               "as far as lifeboats fail to fill within two of their owner's turns, which depends on the tilt "
               "model's speed: recalibrate it before trusting this page. The table also gives rounds and lifeboats "
               "sunk per game.")
    return ExperimentResult("raft_sinking", "How much harder is the sinking variant?", reading,
                            _long(t, ["players", "variant"]), None, {"figure_data": {"t": t, "players": players}}, findings=findings, sample_size=n_games, max_rows=8,
                            question="How many points does the sinking variant cost?")


# ----------------------------------------------------------------------------------------- the report player
def paired(make, strong_args: tuple, heuristic_args: tuple, **kwargs):
    """``make(*strong_args, policies=<report player>, **kwargs)``, the experiment's page, with the start-player and
    component findings of ``make(*heuristic_args, policies=<heuristic player>, **kwargs)`` beside its own (the
    sensitivity; players from the registry: ``report_player``, ``heuristic_player``)."""
    from ..engine import registry
    from ..engine.findings import pair_findings

    spec = registry.get_game("raft")
    res = make(*strong_args, policies=spec.report_player, **kwargs)
    base = make(*heuristic_args, policies=spec.heuristic_player, **kwargs)
    res.findings = tuple(pair_findings(res.findings, base.findings))
    res.meta["sensitivity_player"] = spec.heuristic_player
    return res
