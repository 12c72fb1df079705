"""Rocking Raft under strong play: how strong is the exact player, and do the balance findings still hold?

- :func:`strength_duels`: the strong player (``"exact"``, :mod:`.expectimax`) against a field of a weaker
  policy, in every seat in turn on the same seeds (game ``i`` of every seating starts from the same setup
  and draws the same uniforms), so its win share is a paired average over seatings; fair share 1/players.
- :func:`strong_play`: the balance findings of the other experiments, measured with every seat played by
  each policy (the heuristic ``greedy`` and the strong ``exact``), both with 95% intervals: the start
  player's advantage by turn position, card fairness (points per own turn a card is held, by card size,
  intervals from independent blocks of games), and the gem mix (game length with few and many black gems).

Both return a :class:`~pyradice_lab.report.ExperimentResult`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..engine.findings import Finding, difference_of, merge_players
from ..engine.results import ExperimentResult
from ..engine.stats import Z95, Estimate, mean_estimate
from .analysis import _blocks, _children, card_rate_blocks
from .components import default_components
from .sim import simulate, simulate_games, start_player_table

__all__ = ["strength_duels", "strong_play"]


def _verdict(low: float, high: float, ref: float) -> str:
    return "above" if low > ref else "below" if high < ref else "not distinguishable from"


def _shares(df: pd.DataFrame, players: int) -> tuple[np.ndarray, np.ndarray]:
    score = df[[f"score_{p}" for p in range(players)]].to_numpy()
    key = score * 1000 + df[[f"boats_{p}" for p in range(players)]].to_numpy()
    top = key == key.max(axis=1, keepdims=True)
    return top / top.sum(axis=1, keepdims=True), score


def strength_duels(n_games: int, seed, players=(2, 3), strong: str = "exact", rivals=("greedy", "aim"),
                   n_jobs: int = 1) -> ExperimentResult:
    """Win share of ``strong`` against a field of each rival, seat-rotated and paired by seed."""
    rows = []
    kids = _children(seed, len(players) * len(rivals))
    i = 0
    for p in players:
        for rival in rivals:
            share = np.zeros(n_games)
            margin = np.zeros(n_games)
            for seat in range(p):
                pols = [rival] * p
                pols[seat] = strong
                df = simulate_games(n_games, p, policies=pols, rng=kids[i], n_jobs=n_jobs)
                sh, score = _shares(df, p)
                share += sh[:, seat] / p
                margin += (score[:, seat] - (score.sum(axis=1) - score[:, seat]) / (p - 1)) / p
            i += 1
            row = {"players": p, "policy": strong, "rival": rival, "games": n_games * p, "seeds": n_games,
                   "fair_share": 1 / p}
            row.update(mean_estimate(share).to_dict("win_share"))
            row.update(mean_estimate(margin).to_dict("score_margin"))
            rows.append(row)
    t = pd.DataFrame(rows)
    t = t.drop(columns=[c for c in t.columns if c.endswith("_n")])
    t["verdict"] = [_verdict(r.win_share_ci_low, r.win_share_ci_high, r.fair_share) for r in t.itertuples()]
    reading = (f"The expected-points player ({strong}: exact outcome distribution of every tilt, outcomes valued by "
               f"optimal loading and the gems passed on) alone against a field of each weaker policy, taking every seat "
               f"in turn on the same {n_games:,} seeds per player count (the first player is drawn at random, so every "
               "seat also meets every turn position); its share of the wins (ties split) is averaged over its seats "
               "per seed. The table adds its points margin over the average opponent.")
    findings = [Finding("difference", f"{strong}'s win share against a field of {r.rival}, {r.players} players",
                        r.win_share, r.win_share_ci_low, r.win_share_ci_high, n=int(r.seeds), null=r.fair_share,
                        null_label="a fair share", test="t interval over seeds (seat-rotated, paired)",
                        dist="t", df=max(int(r.seeds) - 1, 1),
                        player=f"{strong} vs {r.rival}", unit="%", sample_unit="seeds")
                for r in t.itertuples()]
    return ExperimentResult("raft_strength", "Strength: the exact player against the heuristics", reading, t, None,
                            {"figure_data": {"t": t, "rivals": rivals, "players": players, "strong": strong},
                             "games_per_seating": n_games, "strong": strong}, findings=findings,
                            question="Does the expected-points player beat the heuristics?", sample_size=n_games)


def strong_play(n_games: int, seed, players=(2, 3, 4), policies=("greedy", "exact"), blacks=(0, 6),
                mix_games: int | None = None, card_players: int = 3, blocks: int = 8,
                n_jobs: int = 1) -> ExperimentResult:
    """The balance findings with every seat played by each of ``policies`` (both with 95% intervals).

    ``n_games`` games per player count and policy (start player by turn position; at ``card_players``
    players also card fairness, in ``blocks`` independent blocks for its intervals); ``mix_games`` games per
    gem mix in ``blacks`` (black gems in play, ``card_players`` players; default ``n_games``)."""
    mix_games = n_games if mix_games is None else mix_games
    rows = []
    kids = _children(seed, len(players) * len(policies) + len(blacks) * len(policies))
    i = 0
    starts = []
    card_diffs = {}
    for p in players:
        for pol in policies:
            parts, cards = [], []
            for n, s in zip(_blocks(n_games, blocks if p == card_players else 1), _children(kids[i], blocks)):
                batch = simulate(n, p, policies=pol, rng=s, n_jobs=n_jobs)
                parts.append(batch.games)
                cards.append(batch.cards)
            i += 1
            games = pd.concat(parts, ignore_index=True)
            t = start_player_table(games)
            t.insert(0, "policy", pol)
            t.insert(0, "players", p)
            starts.append(t)
            for r in t.itertuples():
                for m in ("win_share", "score_margin"):
                    rows.append({"finding": "start player", "players": p, "policy": pol, "item": f"position {r.position}",
                                 "metric": m, "value": getattr(r, m), "se": getattr(r, f"{m}_se"),
                                 "ci_low": getattr(r, f"{m}_ci_low"), "ci_high": getattr(r, f"{m}_ci_high"),
                                 "reference": 1 / p if m == "win_share" else 0.0, "n": len(games)})
            if p == card_players:
                rates = card_rate_blocks(cards)
                whole = rates[rates["size"] < 0].iloc[0]
                card_diffs[pol] = (Estimate(whole.excess, float("nan"), len(cards), whole.excess_ci_low,
                                            whole.excess_ci_high), len(games))
                for r in rates[rates["size"] > 0].itertuples():
                    rows.append({"finding": "card fairness", "players": p, "policy": pol, "item": f"{r.size} slots",
                                 "metric": "points_per_turn_held", "value": r.rate,
                                 "se": (r.rate_ci_high - r.rate_ci_low) / (2 * Z95), "ci_low": r.rate_ci_low,
                                 "ci_high": r.rate_ci_high, "reference": np.nan, "n": len(games)})
    comp = default_components()
    base = comp.gems.in_play(card_players)
    for pol in policies:
        for b in blacks:
            df = simulate_games(mix_games, card_players, policies=pol, rng=kids[i], n_jobs=n_jobs,
                                components=comp.with_gems(card_players, list(base[:-1]) + [int(b)]))
            i += 1
            for m in ("rounds", "winning_score"):
                e = mean_estimate(df[m].to_numpy(float))
                rows.append({"finding": "gem mix", "players": card_players, "policy": pol, "item": f"{b} black",
                             "metric": m, "value": e.value, "se": e.se, "ci_low": e.ci_low, "ci_high": e.ci_high,
                             "reference": np.nan, "n": len(df)})
    table = pd.DataFrame(rows)
    start = pd.concat(starts, ignore_index=True)
    findings = _findings(table, start, card_diffs, policies, blacks, card_players)
    if len(policies) == 2:  # each designer finding once: the strong player's, the other's beside it
        findings = merge_players(findings, policies[-1], policies[0])
    table["holds_under_strong_play"] = _holds(table, policies)
    reading = (f"Every seat played by the same policy, {n_games:,} games per player count and policy "
               f"({', '.join(policies)}; independent seeds), {mix_games:,} games per gem mix ({card_players} players); "
               "95% intervals. Start player = turn position 1 (share of the wins, ties split, against the fair share; "
               "points over the average opponent). Card fairness: points per own turn a card is held, by card size, "
               f"at {card_players} players, intervals from {blocks} independent blocks of games. The findings give "
               f"each balance finding under each policy, then how far it moved from {policies[-2]} to {policies[-1]} "
               f"(difference with its interval). Column holds_under_strong_play: whether {policies[-1]}'s interval "
               f"tells the same story as {policies[-2]}'s (both exclude the reference on the same side, or both "
               "contain it).")
    return ExperimentResult("raft_strong_play", "Balance under strong play: greedy and exact players", reading, table,
                            None, {"games_per_cell": n_games, "mix_games": mix_games, "policies": list(policies),
                                   "figure_data": {"table": table, "start": start, "players": players,
                                                   "policies": policies, "card_players": card_players}},
                            findings=findings, sample_size=min(n_games, mix_games), max_rows=8,
                            question="Do the start-player, card-fairness and gem-mix findings hold under strong play?")


def _holds(table: pd.DataFrame, policies) -> list:
    """Per row of the last policy: whether its interval tells the same story as the one before it (both
    exclude the reference on the same side, or both contain it); None for rows without a reference."""
    base, strong = policies[-2], policies[-1]
    key = ["finding", "players", "item", "metric"]
    ref = table[table.policy == base].set_index(key)

    def side(r):
        return 1 if r.ci_low > r.reference else -1 if r.ci_high < r.reference else 0

    out = []
    for r in table.itertuples():
        k = (r.finding, r.players, r.item, r.metric)
        if r.policy != strong or np.isnan(r.reference) or k not in ref.index:
            out.append(None)
            continue
        b = ref.loc[k]
        out.append(side(r) == (1 if b.ci_low > b.reference else -1 if b.ci_high < b.reference else 0))
    return out


def _findings(table, start, card_diffs, policies, blacks, card_players) -> list[Finding]:
    out = []
    strong, heur = policies[-1], policies[:-1]
    for r in start.itertuples():
        if r.position != 1:  # turn positions are 1-based: 1 = the start player
            continue
        who = "start player"
        out.append(Finding("difference", f"{who}'s win share, {r.players} players", r.win_share, r.win_share_ci_low,
                           r.win_share_ci_high, n=int(r.games), null=1 / r.players, null_label="a fair share",
                           test="t interval, ties split", player=r.policy, unit="%", dist="t",
                           df=max(int(r.games) - 1, 1)))
        out.append(Finding("difference", f"{who}'s points over the average opponent, {r.players} players",
                           r.score_margin, r.score_margin_ci_low, r.score_margin_ci_high, n=int(r.games),
                           null=0.0, test="t interval", player=r.policy, unit="points", scale=5.0, dist="t",
                           df=max(int(r.games) - 1, 1)))
    # how far each start-player number moved from each heuristic to the strong player
    s0 = start[start.position == 1].set_index(["players", "policy"])
    for p in sorted(set(start.players)):
        for h in heur:
            if (p, strong) not in s0.index or (p, h) not in s0.index:
                continue
            a, b = s0.loc[(p, strong)], s0.loc[(p, h)]
            out.append(difference_of(f"start player's win share with {strong} instead of {h}, {p} players",
                                     _row_est(a, "win_share"), _row_est(b, "win_share"), player=f"{strong} vs {h}",
                                     unit="%", null_label="no change", scale=1 / p,
                                     test="normal interval of a difference (independent games)"))
    for pol, (est, games) in card_diffs.items():
        out.append(Finding("difference", f"points per own turn held, largest lifeboats against the smallest, "
                           f"{card_players} players", est.value, est.ci_low, est.ci_high, n=games, null=0.0,
                           test=f"t interval over {est.n} blocks of games", player=pol, unit="points", scale=1.0,
                           dist="t", df=max(est.n - 1, 1),
                           component="lifeboat points"))
    if strong in card_diffs:
        a, n_a = card_diffs[strong]
        for h in heur:
            if h not in card_diffs:
                continue
            b, n_b = card_diffs[h]
            d, half = a.value - b.value, float(np.hypot(a.halfwidth, b.halfwidth))
            out.append(Finding("difference", f"points per own turn held, largest lifeboats against the smallest, "
                               f"{strong} instead of {h}, {card_players} players", d, d - half, d + half, n=min(n_a, n_b),
                               null=0.0, null_label="no change", test="block t intervals combined (independent games)",
                               player=f"{strong} vs {h}", unit="points", scale=1.0))
    mix = table[(table.finding == "gem mix") & (table.metric == "rounds")]
    for pol in policies:
        sub = mix[mix.policy == pol]
        if len(sub) < 2:
            continue
        lo, hi = sub.iloc[0], sub.iloc[-1]
        est = [Estimate(float(x.value), float(x.se), int(x.n), float(x.ci_low), float(x.ci_high)) for x in (hi, lo)]
        out.append(difference_of(f"rounds with {hi['item']} instead of {lo['item']} gems, {card_players} players", *est,
                                 player=pol, unit="rounds", component="black gems in play", scale=1.0))
    return out


def _row_est(r, m: str) -> Estimate:
    return Estimate(float(r[m]), float(r[f"{m}_se"]), int(r["games"]), float(r[f"{m}_ci_low"]),
                    float(r[f"{m}_ci_high"]))
