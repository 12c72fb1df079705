"""The report's strength experiments, computed: per game the ladder of its players and restricted play.

For every registered game with players, two experiments, each an
:class:`~pyradice_lab.engine.results.ExperimentResult` with its table, findings and reading but no figure
(:mod:`pyradice_lab.report.strength` draws them and lays out the part):

- **the ladder** (:func:`ladder_experiment`): the game's players against each other in seatings that rotate every
  player through every seat, Bradley-Terry ratings (Elo scale) with 95% intervals, win rates with Wilson
  intervals; its findings are the head-to-head scores that matter (each player against the one just below it,
  and the strongest against ``greedy``), each with its Wilson interval and sample size;
- **restricted play** (:func:`restricted_experiment`, Jaffe et al. 2012): the strongest restrictable player
  forbidden one option against unrestricted copies of itself; one finding per restriction (the restricted
  player's win share against the fair share), the table sorted by effect with the flags of
  :func:`pyradice_lab.design.strength.restricted_play`.

What is played comes from the game's report plan (``spec.part("plan")``, a
:class:`~pyradice_lab.engine.plan.ReportPlan`): the ladder's players, the seats, the restricted player, an
expensive player's smaller second ladder against one opponent (both sets of games fitted together in one
Bradley-Terry model, so its rating sits on the same scale), the full report's scale and the setup sentence.
Sizes are in :data:`SIZES` (``quick`` / ``full``); with ``quick`` the samples are below the report's minimum for a
claim, so the findings show their numbers and claim nothing.

>>> experiment_sizes(ReportPlan(full_scale=0.3, players=3), quick=False)
{'ladder': 180, 'restricted': 180, 'optimal': 100}
"""

from __future__ import annotations

import pandas as pd

from ..engine.findings import MIN_CLAIM_N, Finding
from ..engine.plan import ReportPlan
from ..engine.results import ExperimentResult

__all__ = ["report_players_note", "SIZES", "plan_of", "rated_games", "experiment_sizes", "ladder_experiment", "restricted_experiment",
           "strength_experiments"]

#: games per pair of policies (ladder), per restriction (restricted play) and per pair of a plan's ``optimal``
#: ladder (an expensive player against one opponent), by report mode; the full report's ladder and restricted
#: play are scaled by the plan's ``full_scale``
SIZES = {
    "quick": {"ladder": 40, "restricted": 40, "optimal": 12},
    "full": {"ladder": 600, "restricted": 600, "optimal": 100},
}


def plan_of(game: str) -> ReportPlan:
    """The report plan ``game`` declares (its ``plan.PLAN``), or ``ReportPlan()`` when it declares none."""
    from ..engine import registry

    return registry.get_game(game).part("plan", None) or ReportPlan()


def rated_games(games=None) -> list[str]:
    """The games among ``games`` (default: every registered game) that have players to rate, in registry order
    when ``games`` is None, else in the order given."""
    from ..engine import registry

    known = registry.games()
    return [g for g in (known if games is None else games)
            if known[g].policies and known[g].lineup_outcomes is not None]


def experiment_sizes(plan: ReportPlan, quick: bool) -> dict[str, int]:
    """Games per lineup (``ladder``), per restriction (``restricted``) and per lineup of the plan's ``optimal``
    ladder, for the quick or the full report: :data:`SIZES` times the plan's ``full_scale`` (full report only),
    at least one game per seat."""
    size = SIZES["quick" if quick else "full"]
    scale = 1.0 if quick else plan.full_scale
    return {"ladder": max(2 * plan.players, int(round(size["ladder"] * scale))),
            "restricted": max(plan.players, int(round(size["restricted"] * scale))),
            "optimal": size["optimal"]}


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _ladder_table(out: pd.DataFrame, names: list[str], players: int) -> pd.DataFrame:
    """The ladder of ``strength.ladder`` from an outcomes frame (several ladders' games fitted together)."""
    from .strength import (
        fit_bradley_terry,
        head_to_head,
        nontransitive_pairs,
        pairwise_results,
        wilson_interval,
    )

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
    table.attrs["nontransitive"] = nontransitive_pairs(h2h, r)
    table.attrs["quasi_se_error"] = fit.attrs["quasi_se_error"]
    table.attrs["separation"] = fit.attrs["separation"]
    return table


#: the head-to-head pairs the ladder's reading names when they contradict the ratings (furthest first)
NONTRANSITIVE_SHOWN = 3


def _nontransitive_note(flagged: pd.DataFrame) -> str:
    """A sentence naming the pairs whose head to head contradicts the ratings beyond their CIs (empty: none)."""
    if flagged is None or flagged.empty:
        return ""
    # the pairs furthest from the ratings' prediction first; the rest counted (every pair: the pairs CSV)
    far = flagged.assign(_gap=(flagged["score"] - flagged["predicted"]).abs()).sort_values("_gap", ascending=False,
                                                                                        kind="stable")
    pairs = "; ".join(f"{r.a} against {r.b} {_pct(r.score)} [{_pct(r.score_ci_low)}, {_pct(r.score_ci_high)}] "
                      f"(predicted {_pct(r.predicted)})" for r in far.head(NONTRANSITIVE_SHOWN).itertuples())
    more = len(far) - NONTRANSITIVE_SHOWN
    pairs += f"; and {more} more pair{'s' if more > 1 else ''} (the pairs CSV)" if more > 0 else ""
    return (f" Not transitive: {pairs}: each beyond its 95% CI from the ratings' prediction, so no one head to head "
            "ranks these players over the field.")


def report_players_note(game: str) -> str:
    """A sentence naming ``game``'s report player at every player count it declares (``<game>/strength.py``) and
    where each stands on the ladder over the field that chose it (empty: the game declares none)."""
    from ..engine import registry

    entries = registry.get_game(game).report_players()
    if not entries:
        return ""
    return " Report players (ladders over the field, in the game's strength.py): " + "; ".join(
        f"{p} players: {entries[p].line()}" for p in sorted(entries)) + "."


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


def ladder_experiment(game: str, *, games: int, rng, plan: ReportPlan | None = None,
                      optimal_games: int = 0) -> ExperimentResult:
    """The ladder of ``game``'s players as a report experiment (see the module docstring), without its figure.

    ``games``: games per lineup; ``plan``: default the game's own (:func:`plan_of`); ``optimal_games``: games per
    lineup of ``plan.optimal`` (an expensive player against one opponent; 0 leaves it out).  ``meta`` holds the
    head-to-head table (``"head_to_head"``) beside the games per lineup, players and setup."""
    from ..engine import registry
    from ..engine.rng import seed_sequence
    from .strength import ladder

    spec = registry.get_game(game)
    plan = plan or plan_of(game)
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
    reading += _nontransitive_note(table.attrs["nontransitive"]) + report_players_note(game)
    shown = table[["policy", "rating", "rating_ci_low", "rating_ci_high", "win_rate", "win_rate_ci_low",
                   "win_rate_ci_high", "games"]]
    # the page's table: a rating and a win rate with their intervals in one cell each (the CSV keeps the columns)
    display = pd.DataFrame({
        "policy": shown["policy"],
        "rating [95% CI]": [f"{v:+.0f} [{lo:+.0f}, {hi:+.0f}]" for v, lo, hi in
                            zip(shown["rating"], shown["rating_ci_low"], shown["rating_ci_high"])],
        "win rate [95% CI]": [f"{_pct(v)} [{_pct(lo)}, {_pct(hi)}]" for v, lo, hi in
                              zip(shown["win_rate"], shown["win_rate_ci_low"], shown["win_rate_ci_high"])],
        "games": shown["games"]})
    return ExperimentResult(
        f"{game}_strength_ladder", f"{spec.title}: strength ladder", reading, shown, None, findings=findings,
        display=display,
        question=f"How strong is each {spec.title} player, and who beats whom?",
        meta={"games_per_lineup": per_pair, "players": plan.players, "head_to_head": h2h,
              "setup": plan.setup}, sample_size=int(min(f.n for f in findings)) if findings else None)


def restricted_experiment(game: str, *, games: int, rng, plan: ReportPlan | None = None) -> ExperimentResult:
    """Restricted play of ``game``'s strongest restrictable player (``plan.restricted_policy``, default
    :func:`~pyradice_lab.engine.registry.restricted_player`) as a report experiment, without its figure; ``meta``
    names the ``policy`` and the ``players``."""
    from ..engine import registry
    from .strength import restricted_play

    spec = registry.get_game(game)
    plan = plan or plan_of(game)
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
    flags = " (each restriction's flag: the table)"  # the page's table lists them; the reading does not repeat it
    shown = table[["restriction", "description", "win_rate", "win_rate_ci_low", "win_rate_ci_high", "effect", "flag",
                   "games"]].copy()
    if int(table["games"].min()) < MIN_CLAIM_N:  # below the report's minimum sample the flags claim nothing either
        shown["flag"] = f"none (n < {MIN_CLAIM_N})"
        flags = f"; no flags below {MIN_CLAIM_N} games"
    reading = (
        f"{spec.title}, {plan.setup}: one seat `{policy}` forbidden one option, the others `{policy}`; "
        f"{int(table['games'].iloc[0]):,} games per restriction. Fair share {_pct(fair)}; dominant: below "
        f"{_pct(float(table.attrs['dominant_below']))}{flags}.")
    # the page's table: one line a restriction (the descriptions are in the findings' sentences and in the CSV)
    display = pd.DataFrame({
        "restriction": shown["restriction"],
        "win rate [95% CI]": [f"{_pct(v)} [{_pct(lo)}, {_pct(hi)}]" for v, lo, hi in
                              zip(shown["win_rate"], shown["win_rate_ci_low"], shown["win_rate_ci_high"])],
        "effect (percentage points)": [f"{100 * e:+.1f}" for e in shown["effect"]],
        "flag": shown["flag"], "games": shown["games"]})
    return ExperimentResult(
        f"{game}_restricted_play", f"{spec.title}: restricted play", reading, shown, None, findings=findings,
        display=display,
        question=f"Which options does a strong {spec.title} player rely on, and which are worth nothing?",
        meta={"policy": policy, "players": plan.players, "setup": plan.setup})


def strength_experiments(game: str, *, quick: bool, seed, plan: ReportPlan | None = None
                         ) -> tuple[ExperimentResult, ExperimentResult]:
    """``game``'s ladder and restricted play at the report's sizes (:func:`experiment_sizes`), seeded from
    ``seed`` (a ``SeedSequence``: its first child plays the ladder, its second restricted play)."""
    plan = plan or plan_of(game)
    n = experiment_sizes(plan, quick)
    s_lad, s_res = seed.spawn(2)
    lad = ladder_experiment(game, games=n["ladder"], rng=s_lad, plan=plan, optimal_games=n["optimal"])
    res = restricted_experiment(game, games=n["restricted"], rng=s_res, plan=plan)
    return lad, res
