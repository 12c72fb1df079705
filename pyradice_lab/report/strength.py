"""The report's "Strength and restricted play" part: per game the ladder and what each option is worth.

For every registered game with players (:mod:`pyradice_lab.design.strength`), two experiments:

- **the ladder**: the game's players against each other in seatings that rotate every player through every
  seat, Bradley-Terry ratings (Elo scale) with 95% intervals, win rates with Wilson intervals; its findings
  are the head-to-head scores that matter (each player against the one just below it, and the strongest
  against ``greedy``), each with its Wilson interval and sample size;
- **restricted play** (Jaffe et al. 2012): the strongest restrictable player forbidden one option against
  unrestricted copies of itself; one finding per restriction (the restricted player's win share against
  the fair share), the table sorted by effect with the flags of :func:`pyradice_lab.design.strength.restricted_play`.

Purramid's exact player (``optimal``, a few games per second) joins its ladder in the full report through a
smaller second ladder against the best human-style player; both sets of games are fitted together (one
Bradley-Terry model, so its rating sits on the same scale).  Meerkat Kingdom is played with 3 seats, the
rules' setups: three players, or two players and the automa.

Sizes are in :data:`SIZES` (``quick`` / ``full``); with ``quick`` the samples are below the report's minimum
for a claim, so the findings show their numbers and claim nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from ..engine.findings import MIN_CLAIM_N, Finding

if TYPE_CHECKING:
    from .build import ExperimentResult, ReportContext, Section

__all__ = ["SIZES", "PLANS", "StrengthPlan", "ladder_experiment", "restricted_experiment", "report_section",
           "game_part", "combine"]

#: games per pair of policies (ladder), per restriction (restricted play) and per pair for Purramid's exact
#: player, by report mode
SIZES = {
    "quick": {"ladder": 40, "restricted": 40, "optimal": 12},
    "full": {"ladder": 600, "restricted": 600, "optimal": 100},
}


@dataclass(frozen=True)
class StrengthPlan:
    """What the report plays for one game: ladder policies (weakest first), seats, the optimal ladder."""

    policies: tuple[str, ...] | None = None  # None: the game's registered policies
    players: int = 2
    restricted_policy: str | None = None  # None: registry.restricted_player (the report player if restrictable)
    optimal: tuple[str, ...] = ()  # Purramid: (best heuristic, "optimal"), played with SIZES[...]["optimal"]
    full_scale: float = 1.0  # multiplies the full report's games (fast engines play more, slow ones fewer)
    setup: str = ""


#: per game: the report's ladder and restricted play
PLANS = {
    "purramid": StrengthPlan(policies=("greedy", "stop_after:2", "stop_after:1", "risk:0.3", "risk:0.5", "risk:0.7"),
                             optimal=("risk:0.7", "optimal"), full_scale=4.0, setup="2 players, side A"),
    # the search player flat_mc (~15x a greedy game since issue 27) is measured in docs/guide/pyradice.md
    "pyradice": StrengthPlan(policies=("random_legal", "greedy", "lookahead"), setup="2 players, default setup"),
    "raft": StrengthPlan(setup="2 players, standard variant"),
    # mcts (~0.2 s a game) is measured in docs/guide/meerkat.md; expectimax is the strongest the budget allows.
    # Restricted play: expectimax, not the report player mcts_v2 (the CLI's and restricted_play's default):
    # mcts_v2 (like mcts_late) plays 50-85 ms a 3-player game against expectimax's 10 ms, minutes more CPU for the
    # full report's 5 x 180 games (docs/guide/meerkat.md, "restricted")
    "meerkat": StrengthPlan(policies=("random_legal", "automa", "automa:H", "heuristic", "greedy", "expectimax"),
                            players=3, full_scale=0.3, restricted_policy="expectimax",
                            setup="3 seats: three players, or two players and the automa (the rules' setups)"),
}


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _fig(rows: int):
    import matplotlib.pyplot as plt

    return plt.subplots(figsize=(6.6, max(1.8, 0.8 + 0.24 * rows)))


def _ladder_table(out: pd.DataFrame, names: list[str], players: int) -> pd.DataFrame:
    """The ladder of ``strength.ladder`` from an outcomes frame (several ladders' games fitted together)."""
    from ..design.strength import fit_bradley_terry, head_to_head, pairwise_results, wilson_interval

    fit = fit_bradley_terry(pairwise_results(out), names)
    by = out.groupby("policy")["win"]
    played, wins = by.size().reindex(names).to_numpy(), by.sum().reindex(names).to_numpy()
    low, high = wilson_interval(wins, played)
    table = fit.drop(columns="comparisons").assign(win_rate=wins / played, win_rate_ci_low=low,
                                                   win_rate_ci_high=high, games=played, players=players)
    table = table.sort_values("rating", ascending=False, kind="stable", ignore_index=True)
    h2h = head_to_head(out)
    r = dict(zip(fit["policy"], fit["rating"]))
    h2h["predicted"] = 1 / (1 + 10 ** ((h2h["b"].map(r) - h2h["a"].map(r)) / 400))
    table.attrs["head_to_head"] = h2h
    table.attrs["quasi_se_error"] = fit.attrs["quasi_se_error"]
    table.attrs["separation"] = fit.attrs["separation"]
    return table


def _pair(h2h: pd.DataFrame, a: str, b: str):
    """(score of a against b, low, high, comparisons), or None if they never met."""
    row = h2h[(h2h["a"] == a) & (h2h["b"] == b)]
    if len(row):
        r = row.iloc[0]
        return float(r["score"]), float(r["score_ci_low"]), float(r["score_ci_high"]), int(r["comparisons"])
    row = h2h[(h2h["a"] == b) & (h2h["b"] == a)]
    if len(row):
        r = row.iloc[0]
        return 1 - float(r["score"]), 1 - float(r["score_ci_high"]), 1 - float(r["score_ci_low"]), int(r["comparisons"])
    return None


def _h2h_finding(h2h, a: str, b: str, players: int, min_n: int | None = None) -> Finding | None:
    got = _pair(h2h, a, b)
    if got is None:
        return None
    s, lo, hi, n = got
    what = "head-to-head score" if players == 2 else f"share of {players}-seat games finishing above the other"
    kw = {} if min_n is None else {"min_n": min_n}
    return Finding("difference", what, s, min(lo, s), max(hi, s), n=n, null=0.5, null_label="an even match",
                   unit="%", test="Wilson interval" + ("" if players == 2 else ", pairs within a game"), scale=1.0,
                   player=f"{a} against {b}", sample_unit="games" if players == 2 else "comparisons", **kw)


def _ladder_figure(table: pd.DataFrame, title: str):
    from ..engine.figures import axis_label

    fig, ax = _fig(len(table))
    y = np.arange(len(table))[::-1]
    ax.errorbar(table["rating"], y, xerr=[table["rating"] - table["rating_ci_low"],
                                          table["rating_ci_high"] - table["rating"]], fmt="o", capsize=3)
    ax.set_yticks(y, table["policy"])
    ax.axvline(0, color="0.6", lw=0.8)
    ax.set_xlabel(axis_label("Bradley-Terry rating, 95% CI", "Elo points; 400 = 10:1 odds"))
    ax.set_ylabel("player")
    ax.set_title(title)
    fig.tight_layout()
    return fig


def ladder_experiment(game: str, *, games: int, rng, plan: StrengthPlan | None = None,
                      optimal_games: int = 0) -> ExperimentResult:
    """The ladder of ``game``'s players as a report experiment (see the module docstring).

    ``games``: games per lineup; ``optimal_games``: games per lineup of ``plan.optimal`` (Purramid's exact
    player against the best human-style one; 0 leaves it out)."""
    from ..design.strength import ladder
    from ..engine import registry
    from ..engine.rng import seed_sequence
    from .build import ExperimentResult

    spec = registry.get_game(game)
    plan = plan or PLANS.get(game, StrengthPlan())
    names = list(plan.policies or spec.policies)
    s_main, s_opt = seed_sequence(rng, name="rng").spawn(2)
    _, out = ladder(game, names, players=plan.players, games=games, rng=s_main, return_outcomes=True)
    per_pair = {"": games}
    if plan.optimal and optimal_games > 0:
        _, extra = ladder(game, list(plan.optimal), players=plan.players, games=optimal_games, rng=s_opt,
                          return_outcomes=True)
        extra = extra.assign(game=extra["game"] + int(out["game"].max()) + 1, block=extra["block"] + out["block"].max() + 1)
        out = pd.concat([out, extra], ignore_index=True)
        names += [p for p in plan.optimal if p not in names]
        per_pair = {"": games, plan.optimal[-1]: optimal_games}
    table = _ladder_table(out, names, plan.players)
    h2h = table.attrs["head_to_head"]
    order = list(table["policy"])
    # the findings: is the strongest player stronger than the next one, and than greedy (issue 12's target)?
    pairs = [(order[0], order[1])]
    if "greedy" in order[2:]:
        pairs.append((order[0], "greedy"))
    if plan.optimal and plan.optimal[0] in order and "greedy" in order[2:] and order[0] == plan.optimal[-1]:
        pairs.append((plan.optimal[0], "greedy"))  # the exact player met only the best human-style one
    findings = [f for a, b in dict.fromkeys(pairs) if (f := _h2h_finding(h2h, a, b, plan.players)) is not None]
    if plan.players >= 3 and len(findings) > 1:  # pairs within the same games: Holm over the ladder's family
        from ..engine.findings import holm

        findings = [f.with_context(p_value=p, test=f"{f.test}; p Holm-adjusted over the ladder's {len(findings)} "
                                                   "pairs") for f, p in zip(findings, holm([f.p for f in findings]))]
    fair = 1 / plan.players
    worst = float(table.attrs["quasi_se_error"])
    opt_note = ""
    if plan.optimal:
        opt_note = (f" The exact player `{plan.optimal[-1]}` played {optimal_games:,} games against "
                    f"`{plan.optimal[0]}` only, fitted with the rest in one model." if optimal_games else
                    f" The exact player `{plan.optimal[-1]}` is left out.")
    reading = (
        f"{spec.title}, {plan.setup}: {games:,} games per lineup of players.{opt_note} Fair share "
        f"{_pct(fair)}; quasi-standard errors (worst relative error {100 * worst:.0f}%). Every pair's "
        f"head-to-head score: {game}_strength_ladder_pairs.csv.")
    if table.attrs.get("separation"):
        sep = table.attrs["separation"]
        reading += f" Note: {sep[0].upper()}{sep[1:]}."
    shown = table[["policy", "rating", "rating_ci_low", "rating_ci_high", "win_rate", "win_rate_ci_low",
                   "win_rate_ci_high", "games"]]
    fig = _ladder_figure(table, f"{spec.title}: players by strength")
    return ExperimentResult(
        f"{game}_strength_ladder", f"{spec.title}: strength ladder", reading, shown, fig, findings=findings,
        question=f"How strong is each {spec.title} player, and who beats whom?",
        meta={"games_per_lineup": per_pair, "players": plan.players, "head_to_head": h2h,
              "setup": plan.setup}, sample_size=int(min(f.n for f in findings)) if findings else None)


def restricted_experiment(game: str, *, games: int, rng, plan: StrengthPlan | None = None) -> ExperimentResult:
    """Restricted play of ``game``'s strongest restrictable player as a report experiment."""
    from ..design.strength import restricted_play
    from ..engine import registry
    from ..engine.figures import axis_label
    from .build import ExperimentResult

    spec = registry.get_game(game)
    plan = plan or PLANS.get(game, StrengthPlan())
    policy = plan.restricted_policy or registry.restricted_player(spec)
    table = restricted_play(game, policy, None, players=plan.players, games=games, rng=rng)
    fair = 1 / plan.players
    # the findings: the costliest restriction, the cheapest, and any without a measurable value or harmful
    # (the table has every restriction with its interval and flag)
    others = [i for i, f in enumerate(table["flag"]) if f in ("no measurable value", "harmful")][::-1]
    picked = {0, len(table) - 1} | set(others[:2])  # at most four sentences; the table has every row
    findings = [Finding("difference", f"win share of a player that {r.description.rstrip('.')}",
                        float(r.win_rate), min(float(r.win_rate_ci_low), float(r.win_rate)),
                        max(float(r.win_rate_ci_high), float(r.win_rate)), n=int(r.games), null=fair,
                        null_label="a fair share", unit="%", test="Wilson interval", scale=1.0,
                        player=f"{r.player} against {policy}")
                for i, r in enumerate(table.itertuples()) if i in picked]
    fig, ax = _fig(len(table))
    y = np.arange(len(table))[::-1]
    ax.errorbar(table["win_rate"], y, xerr=[table["win_rate"] - table["win_rate_ci_low"],
                                            table["win_rate_ci_high"] - table["win_rate"]], fmt="o", capsize=3)
    ax.axvline(fair, color="0.5", ls="--", lw=1)
    ax.set_yticks(y, table["restriction"])
    ax.set_xlim(0, max(0.6, 1.2 * fair))
    ax.set_ylim(-0.7, len(table) - 0.3)
    ax.text(fair, len(table) - 0.35, " fair share", va="top", ha="left", color="0.35", fontsize=7.5)
    ax.set_xlabel(axis_label(f"win share of the restricted {policy}, 95% CI", "fraction of games"))
    ax.set_ylabel("option forbidden")
    ax.set_title(f"{spec.title}: what each option is worth to {policy}")
    fig.tight_layout()
    flags = table.groupby("flag")["restriction"].apply(lambda s: ", ".join(f"`{x}`" for x in s)).to_dict()
    parts = [f"{flag}: {flags[flag]}" for flag in ("dominant", "valuable", "no measurable value", "harmful")
             if flag in flags]
    shown = table[["restriction", "description", "win_rate", "win_rate_ci_low", "win_rate_ci_high", "effect", "flag",
                   "games"]].copy()
    if int(table["games"].min()) < MIN_CLAIM_N:  # below the report's minimum sample the flags claim nothing either
        shown["flag"] = f"none (n < {MIN_CLAIM_N})"
        parts = [f"no flags below {MIN_CLAIM_N} games"]
    reading = (
        f"{spec.title}, {plan.setup}: one seat `{policy}` forbidden one option, the others `{policy}`; "
        f"{int(table['games'].iloc[0]):,} games per restriction. Fair share {_pct(fair)}; dominant: below "
        f"{_pct(float(table.attrs['dominant_below']))}. " + "; ".join(parts) + ".")
    # the page's table: one line a restriction (the descriptions are in the findings' sentences and in the CSV)
    display = pd.DataFrame({
        "restriction": shown["restriction"],
        "win rate [95% CI]": [f"{_pct(v)} [{_pct(lo)}, {_pct(hi)}]" for v, lo, hi in
                              zip(shown["win_rate"], shown["win_rate_ci_low"], shown["win_rate_ci_high"])],
        "effect (percentage points)": [f"{100 * e:+.1f}" for e in shown["effect"]],
        "flag": shown["flag"], "games": shown["games"]})
    return ExperimentResult(
        f"{game}_restricted_play", f"{spec.title}: restricted play", reading, shown, fig, findings=findings,
        display=display,
        question=f"Which options does a strong {spec.title} player rely on, and which are worth nothing?",
        meta={"policy": policy, "players": plan.players, "setup": plan.setup})


def _rated(games=None) -> list[str]:
    from ..engine import registry

    known = registry.games()
    return [g for g in (known if games is None else games)
            if known[g].policies and known[g].lineup_outcomes is not None]


def _intro():
    from .build import Text

    return Text(
        "Balance found with weak players is not balance. For each game, two experiments. The ladder: its "
        "players against each other, every player in every seat equally often, rated by a Bradley-Terry model "
        "(Elo scale: 400 points = 10:1 odds, 100 points = 64%) with 95% intervals; ratings average 0 and carry "
        "quasi-standard errors, so two players whose intervals do not overlap differ; ratings of different games "
        "are not comparable. Its findings: the strongest player's head-to-head score against the next one and "
        "against greedy. Restricted play (after Jaffe et al. 2012): the strongest player forbidden one option "
        "against unrestricted copies of itself; the flags compare the win share's 95% Wilson interval with the "
        "fair share: no measurable value (it contains the fair share: the option is worth nothing measurable "
        "to this player), valuable (below), dominant (below a fifth of it: without the option the player "
        "almost never wins), harmful (above). An option without measurable value is dead weight only for this "
        "player: one who uses it better may value it. The method and larger runs: docs/guide/strength.md.",
        heading="Strength and restricted play")


def game_part(ctx: ReportContext, game: str, games=None) -> Section:
    """One game's share of the strength part (its ladder and restricted play): a partial :class:`Section`
    that :func:`combine` joins with the others.  Its seed depends only on the root seed, the list of rated
    ``games`` and the game's place in it, so the parts can be built in any order and in any process; the
    report builds them as separate tasks of its worker pool."""
    from .build import Section, save_experiment

    rated = _rated(games)
    if game not in rated:
        raise ValueError(f"game must be one of the rated games {rated}, got {game!r}")
    size = SIZES["quick" if ctx.quick else "full"]
    seed = ctx.seed_for("strength").spawn(len(rated))[rated.index(game)]
    plan = PLANS.get(game, StrengthPlan())
    s_lad, s_res = seed.spawn(2)
    scale = 1.0 if ctx.quick else plan.full_scale
    n_lad = max(2 * plan.players, int(round(size["ladder"] * scale)))
    n_res = max(plan.players, int(round(size["restricted"] * scale)))
    lad = ladder_experiment(game, games=n_lad, rng=s_lad, plan=plan, optimal_games=size["optimal"])
    h2h = lad.meta.pop("head_to_head")
    res = restricted_experiment(game, games=n_res, rng=s_res, plan=plan)
    for exp in (lad, res):
        save_experiment(exp, ctx.out_dir)
    h2h.to_csv(ctx.out_dir / lad.name / f"{lad.name}_pairs.csv", index=False)
    total = int(lad.table["games"].sum() // plan.players + res.table["games"].sum())
    return Section(f"Strength and restricted play: {game}", [lad, res], trials=total)


def combine(ctx: ReportContext, parts) -> Section:
    """The "Strength and restricted play" part from its per-game parts (in the order given): the introduction,
    then every game's experiments; trials, seconds and CPU seconds are the parts' sums."""
    from .build import Section

    items: list = [_intro()]
    for part in parts:
        items.extend(part.items)
    sec = Section("Strength and restricted play", items, seed=ctx.seed_label("strength"),
                  trials=f"{sum(int(p.trials) for p in parts):,} games")
    if parts and all(p.seconds is not None for p in parts):
        sec.seconds = sum(p.seconds for p in parts)
        sec.cpu_seconds = sum(p.cpu_seconds or 0.0 for p in parts)
    return sec


def report_section(ctx: ReportContext, games=None) -> Section:
    """The "Strength and restricted play" part of the report: the ladder and restricted play of ``games``
    (default: every registered game with players); the same as :func:`combine` of every :func:`game_part`."""
    rated = _rated(games)
    return combine(ctx, [game_part(ctx, g, rated) for g in rated])
