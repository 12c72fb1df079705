"""Rocking Raft experiments: each answers one designer's question with a table, a figure and a reading.

Every function takes the sizes and a seed (int, SeedSequence or Generator; each configuration gets
its own spawned child) and returns a :class:`~pyradice_lab.report.ExperimentResult`; the report
section and the scripts in ``experiments/raft_*.py`` call the same functions.  Monte Carlo numbers
carry standard errors and 95% confidence intervals.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..report import ExperimentResult
from ..rng import seed_sequence
from ..stats import Z95, Estimate, mean_estimate, proportion_estimate
from .components import coerce_components
from .policies import fixed
from .sim import simulate, simulate_games, start_player_table

__all__ = ["tilt_model", "calibration_demo", "card_fairness", "gem_mix", "flag_depth", "greed_curve", "dexterity",
           "sinking"]


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


def _fig(ncols=1, w=7.0, h=3.6):
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, ncols, figsize=(w, h), squeeze=False)
    return fig, axes[0]


def _err(ax, x, df, col, label, **kw):
    y = df[col].to_numpy()
    lo, hi = df[f"{col}_ci_low"].to_numpy(), df[f"{col}_ci_high"].to_numpy()
    ax.errorbar(x, y, yerr=[y - lo, hi - y], marker="o", capsize=3, label=label, **kw)


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
    fig, ax = _fig(1, 7.0, 3.8)
    ax = ax[0]
    styles = {"left": "--", "centre": "-", "right": ":"}
    for (edge, f), sub in df.groupby(["edge", "finger"], sort=False):
        ax.plot(sub["duration"], sub["expected_fallen"], ls=styles.get(f, "-."),
                color={"north": "C0", "east": "C1", "south": "C2", "west": "C3"}[edge],
                label=f"{edge} {list(comp.raft.openings[edge])} / {f}")
    ax.set_xlabel("intended tilt (s)")
    ax.set_ylabel("expected gems fallen")
    ax.legend(fontsize=6.5, ncol=2)
    fig.tight_layout()
    at1 = df[df.duration == 1.0].set_index(["edge", "finger"])["expected_fallen"]
    best, worst = at1.idxmax(), at1.idxmin()
    where = (f"averaged over random {players}-player rules setups (one random gem on each outer space, the other "
             f"{gems - 8} dropped into the centre, some rolled into its side neighbours)" if layout == "setup" else
             f"from the reference {players}-player layout (one ordinary gem on each outer space, {gems - 8} in the centre)")
    reading = (f"Under the default (reconstructed) tilt model, {where}, a one-second tilt drops on average "
               f"{at1.max():.1f} gems when lowering {best[0]} with the {best[1]} finger and only {at1.min():.1f} "
               f"lowering {worst[0]} with the {worst[1]} finger; three seconds drop "
               f"{df[df.duration == 3.0]['expected_fallen'].max():.1f} at most. These are exact model values (no "
               f"sampling error). The edges differ because their wall gaps differ (widths in the legend, left "
               f"to right as seen by the tilting player; line style = finger space): rotating the raft and choosing the finger space is a real "
               f"decision, and a designer can change the gaps in raft.toml and rerun this page.")
    return ExperimentResult("raft_tilt_model", "Tilt model: expected gems fallen vs tilt time", reading, df, fig,
                            {"players": players, "layout": layout})


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
    fig, ax = _fig(1, 6.5, 3.2)
    ax = ax[0]
    x = np.arange(len(t))
    rel = t["value"] / t["true"]
    ax.errorbar(x, rel, yerr=[rel - t["ci_low"] / t["true"], t["ci_high"] / t["true"] - rel], fmt="o", capsize=4)
    ax.axhline(1.0, color="0.5", ls="--")
    ax.set_xticks(x, t["parameter"], fontsize=8)
    ax.set_ylabel("fitted / true (95% CI)")
    fig.tight_layout()
    n_in = int(t["true_in_ci"].sum())
    reading = (f"{len(obs)} synthetic tilts ({tilts} per condition, {len(design)} conditions: edges "
               f"{', '.join(sorted(design.edge.unique()))}, {'the centre finger' if quick else 'every finger space'}, "
               f"tilts of "
               f"{', '.join(f'{d:g}' for d in sorted(design.duration.unique()))} s, counting the gems that fell"
               f"{'' if quick else ' and the gems left in the centre'}) were drawn from known parameters and fitted back by maximum likelihood. "
               f"{n_in} of {len(t)} fitted parameters have the true value inside their 95% interval (observed "
               f"information; about 95% is what honest intervals give, and the largest deviation is "
               f"{t['z'].abs().max():.1f} standard errors). Jointly the true parameters lie "
               f"{'inside' if p_joint >= 0.05 else 'outside'} the 95% confidence region (likelihood ratio "
               f"{lr:.1f} on {k} degrees of freedom, p = {p_joint:.2f}); the estimates are correlated (the slide and "
               f"drop rates trade off against each other), so marginal intervals tend to miss together. The widest "
               f"relative interval is "
               f"{((t['ci_high'] - t['ci_low']) / t['true']).max():.0%} of "
               f"the true value{' (quick mode fits only the two rates)' if quick else ''}. A designer measuring about this many real tilts can pin the model down this well; "
               f"the goodness-of-fit table of calibrate() shows where real tilts depart from the model "
               f"(e.g. gems jamming at a gap).")
    return ExperimentResult("raft_calibration", "Calibrating the tilt model from measured tilts", reading, t, fig,
                            {"observations": len(obs), "loglik": res.loglik, "lr_truth": lr, "p_joint": p_joint})


# ----------------------------------------------------------------------------------------- card fairness
def card_fairness(n_games: int, seed, players: int = 3, n_jobs: int = 1, *, components=None) -> ExperimentResult:
    """Each lifeboat's points vs how long it takes to complete; over- and under-valued cards."""
    comp = coerce_components(components)
    batch = simulate(n_games, players, rng=seed, n_jobs=n_jobs, components=comp)
    c = batch.cards.copy()
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
    c["verdict"] = np.where(c["points"] > c["fair_ci_high"], "over-valued",
                            np.where(c["points"] < c["fair_ci_low"], "under-valued", "fair"))
    c["z"] = (c["points"] - c["fair_points"]) / (k * c["turns_per_completion_se"]).replace(0, np.nan)
    table = c[["id", "name", "size", "points", "drawn", "completed", "p_complete", "turns_per_completion",
               "turns_per_completion_se", "fair_points", "fair_ci_low", "fair_ci_high", "proposed_points", "verdict"]]
    shown = table.drop(columns=["size", "drawn", "fair_points"]).rename(columns={
        "turns_per_completion": "turns_per_compl", "turns_per_completion_se": "se", "fair_ci_low": "fair_low",
        "fair_ci_high": "fair_high", "proposed_points": "proposed"})
    fig, ax = _fig(1, 7.0, 4.2)
    ax = ax[0]
    for size, sub in table.groupby("size"):
        ax.errorbar(sub["turns_per_completion"], sub["points"] + (size - 3) * 0.06,
                    xerr=Z95 * sub["turns_per_completion_se"], fmt="o", capsize=2, label=f"{size} slots")
    xs = np.linspace(0, table["turns_per_completion"].max() * 1.05, 10)
    ax.plot(xs, k * xs, color="0.4", ls="--", label=f"fair: {k:.2f} points per turn held")
    for _, r in c.reindex(c["z"].abs().sort_values(ascending=False).index).head(6).iterrows():
        ax.annotate(r["name"], (r["turns_per_completion"], r["points"]), fontsize=7, xytext=(3, 3),
                    textcoords="offset points")
    ax.set_xlabel("own turns a card is held per completion (95% CI)")
    ax.set_ylabel("points (rope knots)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    over = table[table.verdict == "over-valued"]
    under = table[table.verdict == "under-valued"]
    by_size = table.groupby("size").apply(lambda g: (g["points"].sum() / g["turns_per_completion"].sum()),
                                          include_groups=False)
    def names(d):
        groups = d.groupby(["name", "points", "proposed_points"], sort=False).size()
        shown = [f"{n}{' x' + str(k) if k > 1 else ''} ({p} -> {q})" for (n, p, q), k in groups.items() if p != q]
        same = int(sum(k for (_, p, q), k in groups.items() if p == q))
        text = ", ".join(shown) or "none"
        return text + (f" (and {same} more whose rounded fair value equals their points)" if same else "")

    reading = (f"{n_games:,} simulated {players}-player games (greedy policies; {int(table.completed.sum()):,} "
               f"completions). A card is fair if its points are proportional to the own turns it occupies one of the "
               f"player's two lifeboat places per completion (counting the turns of cards never completed); the deck's "
               f"total points fix the rate at {k:.2f} points per turn held. Points per turn held by card size: "
               + ", ".join(f"{s} slots {v:.2f}" for s, v in by_size.items())
               + f". Over-valued (points above the 95% interval of the fair value): {names(over)}. Under-valued: "
               f"{names(under)}. The proposed values keep the deck total; they depend on the policies and player "
               f"count simulated, so a designer should confirm them with real play.")
    reading += (" Table: turns_per_compl = own turns held per completion (se its standard error); fair_low..fair_high "
                "= the 95% interval of the fair value.")
    return ExperimentResult("raft_card_fairness", "Card fairness: points vs time to complete", reading, shown, fig,
                            {"games": n_games, "players": players, "rate": k})


# ----------------------------------------------------------------------------------------- sweeps
def _trend(diff: float, se: float, up: str, down: str, flat: str) -> str:
    """A sentence for the sign of ``diff`` when its 95% interval excludes 0 (``flat`` otherwise)."""
    if abs(diff) <= Z95 * se:
        return flat
    return down if diff > 0 else up


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


def gem_mix(blacks, n_games: int, seed, players: int = 3, n_jobs: int = 1, *, components=None) -> ExperimentResult:
    """How the number of black (wild) gems changes the game."""
    comp = coerce_components(components)
    base = comp.gems.in_play(players)
    rows = []
    for b, s in zip(blacks, _children(seed, len(blacks))):
        counts = list(base[:-1]) + [int(b)]
        df = simulate_games(n_games, players, rng=s, components=comp.with_gems(players, counts), n_jobs=n_jobs)
        rows.append({"black_gems": int(b), **_summary(df, players)})
    t = pd.DataFrame(rows)
    fig, ax = _fig(2, 9, 3.4)
    _err(ax[0], t["black_gems"], t, "rounds", "rounds")
    ax[0].set_ylabel("rounds per game")
    _err(ax[1], t["black_gems"], t, "winning_score", "winner")
    _err(ax[1], t["black_gems"], t, "mean_score", "average player")
    ax[1].set_ylabel("points")
    ax[1].legend(fontsize=8)
    for a in ax:
        a.set_xlabel("black gems in play")
    fig.tight_layout()
    lo, hi = t.iloc[0], t.iloc[-1]
    lo_b, hi_b = int(lo["black_gems"]), int(hi["black_gems"])
    reading = (f"{n_games:,} games per gem mix ({players} players, {int(base[0])} gems of each ordinary colour, greedy "
               f"policies). With {lo_b} black gems a game lasts {lo.rounds:.2f} rounds (95% CI "
               f"{lo.rounds_ci_low:.2f}..{lo.rounds_ci_high:.2f}) and the winner scores {lo.winning_score:.1f}; with "
               f"{hi_b} it lasts {hi.rounds:.2f} ({hi.rounds_ci_low:.2f}..{hi.rounds_ci_high:.2f}) and the "
               f"winner scores {hi.winning_score:.1f}. "
               + _trend(hi.rounds - lo.rounds, np.hypot(hi.rounds_se, lo.rounds_se),
                        "More wild gems shorten the game (lifeboats fill faster, so the flag comes sooner)",
                        "More wild gems lengthen the game", "The number of wild gems has no clear effect on game length")
               + "; the default of 3 black gems is a reconstruction this curve lets a designer revisit.")
    return ExperimentResult("raft_gem_mix", "Gem mix: number of black (wild) gems", reading, _long(t, ["black_gems"]), fig,
                            {"players": players})


def flag_depth(depths, n_games: int, seed, players: int = 3, n_jobs: int = 1, *, components=None
               ) -> ExperimentResult:
    """Pirate-flag depth vs game length."""
    comp = coerce_components(components)
    rows = []
    for d, s in zip(depths, _children(seed, len(depths))):
        df = simulate_games(n_games, players, rng=s, flag_depth=int(d), n_jobs=n_jobs, components=comp)
        rows.append({"flag_depth": int(d), **_summary(df, players)})
    t = pd.DataFrame(rows)
    fig, ax = _fig(2, 9, 3.4)
    _err(ax[0], t["flag_depth"], t, "rounds", "rounds")
    ax[0].set_ylabel("rounds per game")
    _err(ax[1], t["flag_depth"], t, "deck_exhausted", "deck ran out")
    ax[1].set_ylabel("share of games where the deck ran out")
    rule = comp.rules.flag_depth[players]
    for a in ax:
        a.axvline(rule, color="0.6", ls=":")
        a.set_xlabel("cards above the pirate flag")
    fig.tight_layout()
    slope = np.polyfit(t["flag_depth"], t["rounds"], 1)[0]
    at = t.set_index("flag_depth")
    reading = (f"{n_games:,} games per depth ({players} players, greedy policies). The rules put the flag under "
               f"{rule} cards; each extra card above the flag adds about {slope:.2f} rounds. "
               + (f"At the rules' depth a game lasts {at.loc[rule, 'rounds']:.2f} rounds (95% CI "
                  f"{at.loc[rule, 'rounds_ci_low']:.2f}..{at.loc[rule, 'rounds_ci_high']:.2f}). " if rule in at.index else "")
               + f"The deck runs out before the end in {t['deck_exhausted'].iloc[-1]:.1%} of games (95% CI "
               f"{t['deck_exhausted_ci_low'].iloc[-1]:.1%}..{t['deck_exhausted_ci_high'].iloc[-1]:.1%}) at the deepest "
               f"setting tried ({t['flag_depth'].max()} cards); then some players finish with fewer than two lifeboats.")
    return ExperimentResult("raft_flag_depth", "Pirate-flag depth vs game length", reading, _long(t, ["flag_depth"]), fig,
                            {"players": players})


def greed_curve(durations, n_games: int, seed, players: int = 3, n_jobs: int = 1, *, components=None
                ) -> ExperimentResult:
    """Seat 0 always tilts for a fixed time (best edge for its boats); the others play greedy."""
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
    fig, ax = _fig(2, 9, 3.4)
    _err(ax[0], f["duration"], f, "seat0_score", "seat 0 (fixed tilt)")
    _err(ax[0], f["duration"], f, "opponent_score", "each opponent (greedy)")
    _err(ax[0], f["duration"], f, "points_gifted", "points seat 0's leftovers complete for others")
    ax[0].axhline(base["seat0_score"], color="0.5", ls="--", label="seat 0 playing greedy")
    ax[0].set_ylabel("points per game")
    ax[0].legend(fontsize=7)
    _err(ax[1], f["duration"], f, "seat0_win", "seat 0 win rate")
    ax[1].axhline(1 / players, color="0.5", ls=":", label="fair share")
    ax[1].set_ylabel("win rate")
    ax[1].legend(fontsize=7)
    for a in ax:
        a.set_xlabel("seat 0's intended tilt (s)")
    fig.tight_layout()
    best = f.loc[f["seat0_score"].idxmax()]
    reading = (f"{n_games:,} games per duration ({players} players). Seat 0 always tilts for the same time (on the edge "
               f"and finger space best for its lifeboats); the others play greedy. Seat 0 scores most with "
               f"{best['duration']:g} s tilts: {best['seat0_score']:.1f} points (95% CI {best['seat0_score_ci_low']:.1f}.."
               f"{best['seat0_score_ci_high']:.1f}), against {base['seat0_score']:.1f} when it plays greedy itself "
               f"(win rate {best['seat0_win']:.1%} vs {base['seat0_win']:.1%}). Seat 0's leftovers complete "
               f"{f['points_gifted'].iloc[0]:.1f} points for opponents per game at {f['duration'].iloc[0]:g} s and "
               f"{f['points_gifted'].iloc[-1]:.1f} at {f['duration'].iloc[-1]:g} s"
               + (f"; beyond {best['duration']:g} s the extra gifts and wasted gems outweigh the extra gems kept"
                  if best['duration'] < f['duration'].max() else "; the best duration may lie beyond the range tried")
               + ". This is the greed curve of the reconstructed tilt model; a calibrated model moves it.")
    return ExperimentResult("raft_greed_curve", "Greed curve: tilt duration vs points, including gifts", reading,
                            _long(t, ["seat0_policy", "duration"]), fig, {"players": players})


def dexterity(noises, n_games: int, seed, players: int = 3, n_jobs: int = 1, *, components=None) -> ExperimentResult:
    """Seat 0's timing noise (dexterity) vs its win rate, everyone playing greedy."""
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
    fig, ax = _fig(2, 9, 3.4)
    _err(ax[0], t["seat0_timing_noise"], t, "seat0_win", "seat 0")
    ax[0].axhline(1 / players, color="0.5", ls=":", label="fair share")
    ax[0].set_ylabel("win rate")
    ax[0].legend(fontsize=8)
    _err(ax[1], t["seat0_timing_noise"], t, "score_margin", "seat 0 minus the average opponent")
    ax[1].axhline(0, color="0.5", ls=":")
    ax[1].set_ylabel("points")
    for a in ax:
        a.set_xlabel("seat 0 timing noise (log-sd of the executed tilt)")
        a.axvline(base, color="0.7", ls="--")
    fig.tight_layout()
    lo, hi = t.iloc[0], t.iloc[-1]
    reading = (f"{n_games:,} games per skill level ({players} players, greedy policies; opponents' timing noise "
               f"{base:g}). A perfectly steady seat 0 (noise {lo.seat0_timing_noise:g}) wins {lo.seat0_win:.1%} "
               f"(95% CI {lo.seat0_win_ci_low:.1%}..{lo.seat0_win_ci_high:.1%}) and a shaky one (noise "
               f"{hi.seat0_timing_noise:g}: the executed tilt is off by a factor e^{hi.seat0_timing_noise:g} one time in "
               f"three) wins {hi.seat0_win:.1%} ({hi.seat0_win_ci_low:.1%}..{hi.seat0_win_ci_high:.1%}); a fair share "
               f"is {1 / players:.1%}. The score margin moves from {lo.score_margin:+.2f} to {hi.score_margin:+.2f} "
               f"points. In this model dexterity is timing only (the finger space is always hit); how much it matters "
               f"depends on the calibrated noise.")
    return ExperimentResult("raft_dexterity", "How much dexterity matters", reading, _long(t, ["seat0_timing_noise"]), fig,
                            {"players": players})


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
    fig, ax = _fig(2, 9, 3.4)
    for v, off in (("standard", -0.1), ("sinking", 0.1)):
        sub = t[t.variant == v]
        _err(ax[0], sub["players"] + off, sub, "mean_score", v)
        _err(ax[1], sub["players"] + off, sub, "rounds", v)
    ax[0].set_ylabel("points per player")
    ax[1].set_ylabel("rounds per game")
    for a in ax:
        a.set_xlabel("players")
        a.set_xticks(list(players))
        a.legend(fontsize=8)
    fig.tight_layout()
    parts = []
    for p in players:
        s, k = t[(t.players == p) & (t.variant == "standard")].iloc[0], t[(t.players == p) & (t.variant == "sinking")].iloc[0]
        diff = k["mean_score"] - s["mean_score"]
        se = np.hypot(k["mean_score_se"], s["mean_score_se"])
        parts.append(f"{p} players {diff:+.2f} points per player (95% CI {diff - Z95 * se:+.2f}..{diff + Z95 * se:+.2f}), "
                     f"{k['sunk']:.2f} lifeboats sunk per game")
    longer, share = [], []
    for p in players:
        s_, k_ = t[(t.players == p) & (t.variant == "standard")].iloc[0], t[(t.players == p) & (t.variant == "sinking")].iloc[0]
        longer.append(f"{p}p {s_['rounds']:.2f} -> {k_['rounds']:.2f}")
        share.append(f"{p}p {k_['sunk'] / max(k_['sunk'] + k_['boats_completed'], 1e-9):.1%}")
    reading = (f"{n_games:,} games per cell (greedy policies). The sinking variant changes each player's score by: "
               + "; ".join(parts) + ". Rounds per game, standard -> sinking: " + ", ".join(longer) + ". Share of the "
               "lifeboats leaving play that sank rather than being completed: " + ", ".join(share) + ". The variant "
               "bites only as far as lifeboats fail to fill within two of their owner's turns, which depends on the "
               "tilt model's speed: recalibrate it before trusting this page.")
    return ExperimentResult("raft_sinking", "How much harder is the sinking variant?", reading,
                            _long(t, ["players", "variant"]), fig, {})
