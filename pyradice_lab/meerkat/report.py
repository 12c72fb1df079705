"""The Meerkat Kingdom report section: exact odds, then one experiment per designer question."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from ..report import ExperimentResult, Finding, Section, Table, Text, save_experiment  # noqa: E402
from ..rng import spawn_seeds  # noqa: E402
from . import analysis as A  # noqa: E402
from .components import default_components  # noqa: E402
from .odds import automa_placement_table, placement_table  # noqa: E402

__all__ = ["report_section", "SIZES", "run_tile_fairness", "run_seat_advantage", "run_automa",
           "run_features", "run_hazards", "run_readings", "run_strong_play", "odds_experiment", "STRONG"]

# games per experiment: (quick, full report, experiment scripts).  The quick report runs the pure-Python twin
# of the kernel when numba's cache is cold (identical numbers, no compile inside the quick budget); the full
# report always runs the compiled kernel (a cold compile of ~25 s fits its 5-minute budget) with sizes large
# enough for readable confidence intervals; the scripts in experiments/ use the largest sizes.
SIZES = {"fairness": (3, 1000, 3000), "seats": (4, 1500, 4000), "automa": (4, 1000, 3000), "features": (3, 1000, 3000),
         "hazards": (4, 1000, 3000), "readings": (4, 1500, 5000), "strong": (4, 600, 400), "versus": (6, 80, 200)}
#: The strong players of the strong-play experiment: (restated findings, search player in the head-to-head table)
#: for (quick, full report, experiment script).  The search player costs seconds per game, so the report restates
#: the findings with the expectimax player and the script with the search player; the quick report, which never
#: compiles, leaves the search player out.
STRONG = {0: ("expectimax", None), 1: ("expectimax", "mcts:32"), 2: ("mcts:32", "mcts")}


def _n(name: str, quick: bool) -> int:
    return SIZES[name][0 if quick else 1]


def _ci(v, lo, hi):
    return f"{v:.3f} (95% CI {lo:.3f}..{hi:.3f})"


# ----------------------------------------------------------------------------------------- experiments
def odds_experiment() -> ExperimentResult:
    tab = placement_table(reroll=True)
    no = placement_table(reroll=False)
    df = pd.DataFrame({"tile": tab.index, **{f"p{c}_reroll": tab[c].to_numpy() for c in tab.columns},
                       **{f"p{c}_no_reroll": no[c].to_numpy() for c in no.columns}})
    fig, ax = plt.subplots(figsize=(7, 3.6))
    for c, mk in zip((1, 2, 3), ("o", "s", "^")):
        ax.plot(tab.index, tab[c], marker=mk, label=f"{c} meerkat{'s' if c > 1 else ''} (3: or the queen), reroll")
        ax.plot(no.index, no[c], marker=mk, ls=":", color=ax.lines[-1].get_color(), alpha=0.7)
    ax.set_xlabel("desert tile")
    ax.set_ylabel("P(can place on the tile)")
    ax.set_xticks(range(3, 13))
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    gain = (tab[1] - no[1])
    reading = (f"Exact odds (no simulation). With the optional reroll used to maximise the chance, a player can put "
               f"at least one meerkat on tile 7 in {tab.loc[7, 1]:.1%} of turns and on tile 12 in {tab.loc[12, 1]:.1%}; "
               f"without the reroll {no.loc[7, 1]:.1%} and {no.loc[12, 1]:.1%}. The reroll adds "
               f"{gain.min():.0%}..{gain.max():.0%} points to every target. Three meerkats and the queen need the "
               f"same 5-6 count die, so their odds are equal (solid: with reroll, dotted: without). Snake eyes (1+1 "
               "as the tile pair) reach any tile, which lifts the extreme tiles 3 and 12.")
    return ExperimentResult("meerkat_placement_odds", "Meerkat Kingdom: exact placement odds", reading, df, fig)


def run_tile_fairness(n: int, seed, engine: str = "auto", exponents=(0.0, 0.5, 1.0, 1.5)) -> ExperimentResult:
    sweep = A.value_sweep(n, exponents, rng=seed, engine=engine)
    cvs = [f.points_per_piece.std() / f.points_per_piece.mean() for _, _, f in sweep]
    best = int(np.argmin(cvs))
    k1 = [b for b, _, _ in sweep].index(1.0) if 1.0 in exponents else 0
    base = sweep[k1][2]
    df = base[["tile", "values", "p_place_1", "pieces", "pieces_se", "paid", "paid_se", "p_high_taken",
               "points_per_piece"]].copy()
    for b, comp, fair in sweep:
        if b != exponents[k1]:
            df[f"values_b{b:g}"] = ["/".join(map(str, comp.tile(t).values)) for t in df["tile"]]
            df[f"points_per_piece_b{b:g}"] = fair["points_per_piece"].to_numpy()
    fig, ax = plt.subplots(figsize=(7, 3.6))
    x = np.arange(10)
    width = 0.8 / len(sweep)
    for k, (b, _, fair) in enumerate(sweep):
        ax.bar(x - 0.4 + width * (k + 0.5), fair["points_per_piece"], width,
               label=f"exponent {b:g}{' (packaged values)' if k == k1 else ''}: CV {cvs[k]:.2f}")
    ax.set_xticks(x, [f"{t}\n{'/'.join(map(str, sweep[best][1].tile(t).values))}" for t in df.tile], fontsize=7)
    ax.set_ylabel("points paid per piece committed")
    ax.set_title(f"tile / values of the most even set (exponent {sweep[best][0]:g})", fontsize=8)
    ax.legend(fontsize=7)
    hi = df.loc[df.points_per_piece.idxmax()]
    lo = df.loc[df.points_per_piece.idxmin()]
    reading = (f"{n} three-player greedy games per value set. A tile's 'price' is the pieces committed to it by the "
               f"time it is scored, its 'pay' the points it hands out. With the packaged values tile {int(hi.tile)} "
               f"pays {hi.points_per_piece:.2f} points per piece and tile {int(lo.tile)} only "
               f"{lo.points_per_piece:.2f} (pieces committed carry an SE of about {df.pieces_se.mean():.2f}). The sweep "
               "varies how steeply values rise with difficulty (high value = 6 (p(6)/p(t))^b, b = 0: all tiles like "
               "tile 6; b = 1: the packaged reconstruction) and re-simulates each set, because players chase the "
               "values. Spread of points per piece (coefficient of variation) by exponent: "
               + ", ".join(f"b={b:g}: {c:.2f}" for (b, _, _), c in zip(sweep, cvs))
               + f". The most even set is b = {sweep[best][0]:g}: "
               + ", ".join(f"{t}: {'/'.join(map(str, sweep[best][1].tile(t).values))}" for t in (3, 7, 12))
               + ". Three-place tiles (9..12) also pay second and third places, so some spread is structural.")
    return ExperimentResult("meerkat_tile_fairness", "Meerkat Kingdom: tile value fairness", reading, df, fig,
                            meta={"games": n, "exponents": list(exponents)})


def run_seat_advantage(n: int, seed, engine: str = "auto") -> ExperimentResult:
    setups = [*A.RULES_SETUPS, (2, False)]  # the rules' setups, then 2 players without the automa (extension)
    df = A.seat_advantage(setups, n, rng=seed, engine=engine)
    fig, ax = plt.subplots(figsize=(7, 3.6))
    for i, (name, grp) in enumerate(df.groupby("setup", sort=False)):
        xs = grp["position"] + i * 0.08
        yerr = [grp["win_rate"] - grp["win_rate_ci_low"], grp["win_rate_ci_high"] - grp["win_rate"]]
        ax.errorbar(xs, grp["win_rate"], yerr=yerr, fmt="o-" if "extension" not in name else "o:", capsize=3,
                    label=name)
        ax.hlines(grp["fair_share"].iloc[0], 0.8, grp["position"].max() + 0.2, colors=ax.lines[-1].get_color(),
                  linestyles=":", alpha=0.6)
    ax.set_xlabel("turn-order position (1 = start player; the automa always plays last)")
    ax.set_ylabel("win share (ties split)")
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    lines = []
    for name, grp in df.groupby("setup", sort=False):
        first = grp.iloc[0]
        lines.append(f"{name}: start player {_ci(first.win_rate, first.win_rate_ci_low, first.win_rate_ci_high)} "
                     f"vs a fair {first.fair_share:.3f}, "
                     f"{first.start_edge:+.3f} (95% CI {first.start_edge_ci_low:+.3f}..{first.start_edge_ci_high:+.3f}) "
                     "over the other players' mean")
    reading = (f"{n} games per setup, every player greedy; the rules' 2-player game is 2 players + the automa "
               "(bonus tokens 9 and 6). " + "; ".join(lines) + ". A position whose CI excludes the dotted fair "
               "share has a real advantage or handicap at this sample size; the edge over the other players is paired per "
               "game, so with the (weak) automa it shows the advantage among the humans. Positions are turn positions: the "
               "start roll decides who starts, so a seat number says nothing about order.")
    return ExperimentResult("meerkat_seat_advantage", "Meerkat Kingdom: start-player advantage by setup", reading,
                            df, fig, meta={"games": n})


def run_automa(n: int, seed, engine: str = "auto") -> ExperimentResult:
    df = A.automa_strength(n, rng=seed, engine=engine)
    fig, ax = plt.subplots(figsize=(7, 3.4))
    labels = [f"{p} x {pol}" + (" (ext.)" if "extension" in lab else "")
              for p, pol, lab in zip(df.players, df.policy, df.setup)]
    yerr = [df.automa_win_rate - df.automa_win_rate_ci_low, df.automa_win_rate_ci_high - df.automa_win_rate]
    ax.errorbar(range(len(df)), df.automa_win_rate, yerr=yerr, fmt="o", capsize=4, label="automa win share")
    ax.scatter(range(len(df)), df.fair_share, marker="_", s=300, color="0.3", label="fair share")
    ax.set_xticks(range(len(df)), labels)
    ax.set_ylabel("automa win share")
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    parts = [f"against {p} {pol} player{'s' if p > 1 else ''} it wins "
             f"{_ci(r.automa_win_rate, r.automa_win_rate_ci_low, r.automa_win_rate_ci_high)} and scores "
             f"{r.automa_score:.1f} ± {r.automa_score_se:.1f} vs the players' {r.player_score:.1f} ± {r.player_score_se:.1f}"
             for p, pol, r in zip(df.players, df.policy, df.itertuples())]
    reading = (f"{n} games per row. The automa places by its die and never uses guardians, burrow actions, the "
               f"wandering male or oases; " + "; ".join(parts) + " (1 player against the automa is an extension, not "
               "in the rules). The automa is a fair opponent only for weak "
               "(random) play: a designer wanting a challenging solo/2p automa should give it more points (e.g. a "
               "bonus per tile won) or one of the burrow actions.")
    return ExperimentResult("meerkat_automa_strength", "Meerkat Kingdom: automa strength", reading, df, fig,
                            meta={"games": n})


def run_features(n: int, seed, engine: str = "auto") -> ExperimentResult:
    df = A.feature_value(n, rng=seed, engine=engine)
    fig, ax = plt.subplots(figsize=(7, 3.4))
    ax.errorbar(df.score_edge, range(len(df)), xerr=1.96 * df.score_edge_se, fmt="o", capsize=4)
    ax.axvline(0, color="0.4", lw=0.8)
    ax.set_yticks(range(len(df)), df.variant)
    ax.set_xlabel("seat 0 score minus the mean of the two baseline heuristics (points)")
    ax.grid(alpha=0.3)
    base = df.iloc[0]
    parts = [f"{r.variant}: edge {r.score_edge - base.score_edge:+.1f} points vs baseline (±{1.96 * r.score_edge_se:.1f}),"
             f" win share {r.win_rate:.3f}" for r in df.iloc[1:].itertuples()]
    reading = (f"{n} three-player games per variant; seat 0 plays the variant, seats 1-2 the baseline heuristic. "
               + "; ".join(parts) + ". The difference to the baseline row is the value of the feature to a player "
               "(95% half-widths in brackets); where it is inside the noise the feature is not decisive for this "
               "heuristic.")
    return ExperimentResult("meerkat_feature_value", "Meerkat Kingdom: value of the reroll, the queen, guardians+pups",
                            reading, df, fig, meta={"games": n})


def run_hazards(n: int, seed, engine: str = "auto") -> ExperimentResult:
    df = A.hazard_impact(n, rng=seed, engine=engine)
    fig, ax = plt.subplots(figsize=(7, 3.2))
    x = np.arange(len(df))
    ax.bar(x - 0.2, df.hazards_per_game, 0.4, yerr=1.96 * df.hazards_per_game_se, capsize=4,
           label="hazards per game")
    ax.bar(x + 0.2, df.lost_per_seat, 0.4, yerr=1.96 * df.lost_per_seat_se, capsize=4,
           label="meerkats lost per player")
    ax.set_xticks(x, [f"{k} of each blue{' (default)' if d else ''}" for k, d in zip(df.blue_copies_each,
                                                                                    df["default"])])
    ax.legend(fontsize=7)
    ax.set_ylabel("per game")
    parts = [f"{r.blue_copies_each} of each blue token: {r.hazards_per_game:.2f} ± {r.hazards_per_game_se:.2f} "
             f"hazards per game (P(any) {r.p_any_hazard:.2f}), {r.lost_per_seat:.2f} ± {r.lost_per_seat_se:.2f} "
             f"meerkats lost per player" for r in df.itertuples()]
    d = df[df["default"]].iloc[0]
    reading = (f"{n} three-player greedy games per row. Hazards (and every brown token: tan effects, reverse "
               "scoring) only come out once the blue bag is empty, so the number of blue tokens sets the hazard "
               "pressure: " + "; ".join(parts) + ". With the default bags, players hit by a hazard score "
               f"{d.score_hit_minus_spared:+.1f} ± {d.score_hit_minus_spared_se:.1f} points vs those spared (hazards "
               "hit crowded tiles, so this mixes cause and effect). The bag contents are reconstructed.")
    return ExperimentResult("meerkat_hazards", "Meerkat Kingdom: hazard impact", reading, df, fig, meta={"games": n})


def run_readings(n: int, seed, engine: str = "auto") -> ExperimentResult:
    df = A.reading_impact(n, rng=seed, engine=engine)
    fig, ax = plt.subplots(figsize=(7, 3.4))
    labels = [f"{r.setup}\n{r.reading.split('_')[0]}: {r.option}" for r in df.itertuples()]
    x = np.arange(len(df))
    ax.errorbar(x, df.start_change, yerr=[df.start_change - df.start_change_ci_low,
                                          df.start_change_ci_high - df.start_change], fmt="o", capsize=4,
                label="change of the start player's win share (option - literal)")
    ax.bar(x, df.winner_changed_rate, 0.4, alpha=0.35, label="share of games with another winner")
    ax.axhline(0, color="0.4", lw=0.8)
    ax.set_xticks(x, labels, fontsize=6)
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    parts = []
    for r in df.itertuples():
        if r.winner_changed_rate == 0:  # nothing changed: the t interval of the start change is degenerate
            effect = f"no game changed its winner (95% upper bound {r.winner_changed_rate_ci_high:.2%})"
        elif r.start_change_se == 0:
            effect = (f"another winner in {r.winner_changed_rate:.2%} ({r.winner_changed_rate_ci_low:.2%}.."
                      f"{r.winner_changed_rate_ci_high:.2%}), never the start player (no change of their win share)")
        else:
            effect = (f"another winner in {r.winner_changed_rate:.2%} ({r.winner_changed_rate_ci_low:.2%}.."
                      f"{r.winner_changed_rate_ci_high:.2%}), start player's win share {r.start_change:+.4f} "
                      f"({r.start_change_ci_low:+.4f}..{r.start_change_ci_high:+.4f})")
        parts.append(f"{r.setup}, {r.reading} = {r.option}: the readings differ in {r.applies_rate:.2%} of games "
                     f"(95% CI {r.applies_rate_ci_low:.2%}..{r.applies_rate_ci_high:.2%}); {effect}")
    matters = df[(df.start_change_se > 0) & ((df.start_change_ci_low > 0) | (df.start_change_ci_high < 0))]
    verdict = ("No reading moves the start player's win share measurably at this sample size"
               if matters.empty else "The start player's win share moves measurably in: "
               + ", ".join(f"{r.setup} ({r.reading})" for r in matters.itertuples()))
    reading = (f"{n} greedy games per setup, each played twice from the same seeds: under the literal reading of "
               "the rules text (the default) and under the other reading. Reverse scoring token on tiles 9-12: "
               "literal = the fewest takes the highest value, the second fewest the lowest; extended = the "
               "second fewest the middle value, the third the lowest. Jackal: literal = a player whose "
               "highest-numbered affected tile is protected by their queen loses nothing; next_tile = they lose a "
               "meerkat from the next affected tile down. " + "; ".join(parts) + f". {verdict}. Both readings need "
               "the brown bag (opened in a minority of games with the reconstructed bags), and the reverse token "
               "reaches a three-value tile only by the burrow action that moves oasis tokens (the oasis pictures "
               "are on tiles 3, 4, 6 and 8); where a reading applies it can still decide the game.")
    shown = df[["setup", "reading", "option", "applies_rate", "applies_rate_ci_low", "applies_rate_ci_high",
                "winner_changed_rate", "winner_changed_rate_ci_low", "winner_changed_rate_ci_high", "start_change",
                "start_change_se", "start_change_ci_low", "start_change_ci_high", "games"]]  # all: reading_impact
    return ExperimentResult("meerkat_rule_readings", "Meerkat Kingdom: do the readings of ambiguous rules matter?",
                            reading, shown.round(5), fig, meta={"games": n})


def run_strong_play(n: int, n_versus: int, seed, engine: str = "auto", strong: str = "expectimax",
                    search: str | None = "mcts") -> ExperimentResult:
    """Issue 12 for Meerkat: the strong players against greedy and heuristic (targets), then the balance findings
    restated with ``strong`` players next to heuristic players."""
    seeds = spawn_seeds(seed, 2)
    players = [p for p in dict.fromkeys(("expectimax", search)) if p is not None]
    pairs = [(p, o, pl) for p in players for o in ("greedy", "heuristic") for pl in (2, 3)]
    vs = pd.concat([A.head_to_head(p, o, n_versus, players=pl, rng=ss, engine=engine)
                    for (p, o, pl), ss in zip(pairs, spawn_seeds(seeds[0], len(pairs)))], ignore_index=True)
    df = A.strong_play(n, strong=strong, base="heuristic", rng=seeds[1], engine=engine)
    fig, axes = plt.subplots(1, 2, figsize=(8, 3.8), gridspec_kw={"width_ratios": [1, 1.4]})
    ax = axes[0]
    labels = [f"{r.policy} vs {r.opponent}\n{r.setup}" for r in vs.itertuples()]
    ax.errorbar(vs.win_rate, range(len(vs)), xerr=[vs.win_rate - vs.win_rate_ci_low, vs.win_rate_ci_high - vs.win_rate],
                fmt="o", capsize=3)
    ax.scatter(vs.fair_share, range(len(vs)), marker="|", s=200, color="0.3", label="fair share")
    ax.set_yticks(range(len(vs)), labels, fontsize=6)
    ax.set_xlabel("win share (seat rotated)")
    ax.legend(fontsize=6)
    ax.grid(alpha=0.3)
    ax = axes[1]
    shown = df[~df.finding.str.startswith("points per piece")]
    names = list(dict.fromkeys(shown.finding))
    for k, (player, grp) in enumerate(shown.groupby("player", sort=False)):
        y = np.array([names.index(f) for f in grp.finding]) + (k - 0.5) * 0.3
        ax.errorbar(grp.value - grp.reference, y, xerr=[grp.value - grp.ci_low, grp.ci_high - grp.value], fmt="o",
                    capsize=3, label=player)
    ax.axvline(0, color="0.4", lw=0.8)
    ax.set_yticks(range(len(names)), [f.replace("win share of a player who ", "") for f in names], fontsize=6)
    ax.set_xlabel("estimate minus its reference (0 or the fair share)")
    ax.legend(fontsize=6)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    targets = "; ".join(f"{r.policy} vs {r.opponent} ({r.setup}): {_ci(r.win_rate, r.win_rate_ci_low, r.win_rate_ci_high)}"
                        f" vs a fair {r.fair_share:.3f}{'' if r.beats_fair else ' (CI not above it)'}"
                        for r in vs.itertuples())
    base_name = "heuristic"
    parts = []
    for f, grp in df.groupby("finding", sort=False):
        if f.startswith("points per piece"):
            continue
        b, st = grp[grp.player == base_name].iloc[0], grp[grp.player != base_name].iloc[0]
        parts.append(f"{f}: heuristic {_ci(b.value, b.ci_low, b.ci_high)}, {st.player} "
                     f"{_ci(st.value, st.ci_low, st.ci_high)} -> {'holds' if st.holds else 'changes'}")
    ppp = df[df.finding.str.startswith("points per piece")]
    tiles = []
    for player, grp in ppp.groupby("player", sort=False):
        hi, lo = grp.loc[grp.value.idxmax()], grp.loc[grp.value.idxmin()]
        tiles.append(f"{player}: most per piece {hi.finding.split(', ')[1]} {hi.value:.2f} ± {hi.se:.2f}, least "
                     f"{lo.finding.split(', ')[1]} {lo.value:.2f} ± {lo.se:.2f}")
    moved = ppp.groupby("finding").filter(lambda g: not g.holds.all()).finding.unique()
    reading = (f"Strong players (issue 12). Head-to-head, {n_versus} games per row, the strong player's seat rotated, "
               f"the others all greedy or all heuristic: {targets}. Balance findings with every seat played by "
               f"heuristic players and again by {strong} players ({n} games per setup and per restriction; start-player "
               f"edge by turn position, paired per game): " + "; ".join(parts) + ". Tile fairness (3 players, points "
               "per piece committed): " + "; ".join(tiles) + (f"; tiles paying on another side of the board mean "
               f"under strong play: {', '.join(moved)}" if len(moved) else "; every tile stays on the same side of "
               "the board mean") + ". 'Holds' = the strong players' 95% CI lies on the same side of the reference "
               "(0, the fair share or the board mean) as the heuristic players'.")
    table = pd.concat([vs.assign(finding="head-to-head").rename(columns={"win_rate": "value", "win_rate_se": "se",
                                                                         "win_rate_ci_low": "ci_low",
                                                                         "win_rate_ci_high": "ci_high"}), df],
                      ignore_index=True)
    cols = ["finding", "policy", "opponent", "setup", "player", "value", "se", "ci_low", "ci_high", "reference",
            "fair_share", "beats_fair", "side", "holds", "games"]
    return ExperimentResult("meerkat_strong_play", "Meerkat Kingdom: strong players and the findings under strong play",
                            reading, table[cols].round(5), fig,
                            meta={"games": n, "versus_games": n_versus, "strong": strong, "search": search},
                            findings=_strong_findings(vs, df),
                            question="How strong are the search players, and do the balance findings hold under "
                                     "strong play?")


def _strong_findings(vs: pd.DataFrame, df: pd.DataFrame) -> list[Finding]:
    """Findings of the strong-play experiment: each head-to-head share against the fair share, and each restated
    finding (start-player edge, restricted players) for both players against its reference."""
    out = []
    for r in vs.itertuples():
        out.append(Finding("difference", f"win share of {r.policy} against {r.opponent} players, {r.setup}",
                           r.win_rate, r.win_rate_ci_low, r.win_rate_ci_high, n=int(r.games), null=r.fair_share,
                           null_label="a fair share", test="t interval, seat rotated", player=f"{r.policy} vs "
                           f"{r.opponent}", unit="%"))
    for r in df[~df.finding.str.startswith("points per piece")].itertuples():
        if not np.isfinite([r.value, r.ci_low, r.ci_high]).all():
            continue
        edge = r.finding.startswith("start-player edge")
        out.append(Finding("difference", r.finding, r.value, min(r.ci_low, r.value), max(r.ci_high, r.value),
                           n=int(r.games), null=r.reference, null_label="no edge" if edge else "a fair share",
                           test="paired t interval" if edge else "t interval", player=r.player, unit="%",
                           notes=() if r.player == "heuristic" else (
                               "Holds under strong play (the interval lies on the same side of the reference as "
                               "with heuristic players)" if r.holds else "Does not hold under strong play (the "
                               "heuristic players' interval lies on another side of the reference)",)))
    return out


# ----------------------------------------------------------------------------------------- section
def report_section(ctx) -> Section:
    root = ctx.seed_for("meerkat")
    seeds = spawn_seeds(root, 7)
    q = ctx.quick
    comp = default_components()
    items: list = [Text(
        "Dice area majority for 2 players + the automa (the rules' 2-player game), 3 or 4 players (the automa "
        "may join any count). Ambiguous rules are read literally (a separate experiment measures the other "
        "readings). Placement odds are exact (216 rolls x 8 "
        "keep-sets); whole games are simulated with a numba-compiled engine whose pure-Python twin is the reference. "
        "Policies: greedy = best immediate change of (own projected points - mean opponent projected points), "
        "with the reroll chosen by exact expectation; heuristic = the same with weights for guardians, pups, the "
        "queen and burrow actions; expectimax = the heuristic's weights with the expected end-of-game majority "
        "standings as its evaluation (exact expectation over the reroll); mcts:N = determinized Monte Carlo search, "
        "N rollouts per decision played by the compiled engine. Reconstructed components are listed at the end of "
        "this section.",
        heading="Meerkat Kingdom")]
    from .sim import compiled_engine_ready

    # the quick report never compiles; the full report always runs compiled
    eng = "numba" if (not q or compiled_engine_ready()) else "python"
    results = [odds_experiment(),
               run_tile_fairness(_n("fairness", q), seeds[0], eng, (0.5, 1.0) if q else (0.0, 0.5, 1.0, 1.5)),
               run_seat_advantage(_n("seats", q), seeds[1], eng),
               run_automa(_n("automa", q), seeds[2], eng),
               run_features(_n("features", q), seeds[3], eng),
               run_hazards(_n("hazards", q), seeds[4], eng),
               run_readings(_n("readings", q), seeds[5], eng),
               run_strong_play(_n("strong", q), _n("versus", q), seeds[6], eng, *STRONG[0 if q else 1])]
    for res in results:
        save_experiment(res, ctx.out_dir)
        items.append(res)
    at = automa_placement_table()
    any_face = at[at.face == "any"].pivot_table(index="tile", columns="count", values="probability", fill_value=0)
    items.append(Table(any_face.reset_index(), title="Automa placement distribution (exact, faces mixed)",
                       caption="P(tile, meerkats) of one automa placement; a 1+1 tile pair is rerolled."))
    src = comp.source_table()
    items.append(Table(src, title="Meerkat Kingdom components and their sources", rows_per_page=45,
                       caption="'reconstruction' = not stated in the rules text; defaults documented in "
                               "pyradice_lab/meerkat/data/components.toml and replaceable by a designer's file."))
    trials = sum(_n(k, q) * m for k, m in (("fairness", 2 if q else 4), ("seats", 4), ("automa", 4),
                                           ("features", 5), ("hazards", 3), ("readings", 9), ("strong", 10),
                                           ("versus", 4 if q else 8)))
    return Section("Meerkat Kingdom", items, seed=ctx.seed_label("meerkat"), trials=f"{trials:,} games")
