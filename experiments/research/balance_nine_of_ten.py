"""Does ``balance --finding`` pick a proposal that meets its objective on fresh seeds in 9 of 10 seeds (issue 44,
item 2)?  Measured under the game's report player, at the game's proposal budget (or one given).

Two modes, one finding of a report's findings CSV each:

``space``
    Is there a candidate meeting the objective in the search's space?  Every candidate of the lever's grid plays
    the same ``GAMES`` games (common seeds, independent of any search), then the joint search's candidates around
    the grid's best do (``Lever.axes``, as ``balance --finding`` builds them).  Each line: the candidate, its
    estimate with its 95% CI, and the chance that a verification run of the budget's size meets the objective
    (its CI contains the target) if the candidate's true value is its estimate here.

``seeds``
    For each root seed, ``balance_finding`` (the search path of ``balance --finding``: the lever's grid, then the
    joint search when the grid misses; the guards off unless ``--guards``), then the proposal played again on
    fresh seeds that neither the search nor its verification used (``--check-games`` games, default the budget's
    verification size): met or not, the values, the CIs and the CPU seconds.  One CSV row per seed, appended as
    each seed finishes: run again, the seeds already in ``--out`` are skipped (resumable).  Each seed's search
    history (every round's candidates, games and estimates) goes beside it, ``<out>_history_seed<S>.csv``, and the
    row says whether the refinement's final round put the pick off the target (``final_round_off``).

Usage::

    python experiments/research/balance_nine_of_ten.py space GAME FINDING --findings-csv CSV --games N
    python experiments/research/balance_nine_of_ten.py seeds GAME FINDING --findings-csv CSV --seeds 1..10 \\
        --out OUT.csv [--budget B --first-games F --verify-games V --check-games C --guards]

e.g. (the designer guide's table, "Does the search pick right?"; the CSV of a quick report, ``pyradice-lab report
--quick --out DIR/report.pdf``)::

    python experiments/research/balance_nine_of_ten.py seeds raft raft_card_fairness-boat_pay_excess_4-3p \\
        --findings-csv DIR/report_findings.csv --seeds 1..10 --out raft4.csv
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

#: the entropy that makes the independent check's seeds differ from every seed the search path spawns
CHECK_SALT = 4_410_044


def _setup(game: str, finding: str, csv: str):
    """The finding's candidate (objective, games, lever), its report player, the lever's budget and ranges."""
    from pyradice_lab.design._balance_finding import finding_candidate, resolve_finding
    from pyradice_lab.design.metrics import simulate_options
    from pyradice_lab.design.proposals import _components, game_levers
    from pyradice_lab.engine.registry import get_game

    ref = resolve_finding(game, finding, csv)
    cand = finding_candidate(ref)
    levers = game_levers(game)
    lever = levers.lever(ref.metric)
    arg = cand.players if lever.by_players else ref.metric.partition(":")[2]
    ranges, own = lever.ranges_of(_components(game), arg, ref.finding)
    kwargs = {**dict(cand.game_kwargs), **simulate_options(game, cand.metric), "players": cand.players,
              "policies": get_game(game).report_player_at(cand.players)}
    return ref, cand, kwargs, levers.budget_for(cand.players), ranges, own


def _estimate(game: str, metric: str, kwargs: dict, games: int, seed, comp):
    from pyradice_lab.design.balance import _balance_run
    from pyradice_lab.design.metrics import metric_estimate

    values, _ = _balance_run(game, [metric], kwargs, games, seed, comp)
    return metric_estimate(*values[metric], metric, warn=False)


def _changed(base, values: dict) -> dict:
    """The values that differ from the packaged ``base`` (a list and a tuple of the same numbers are the same)."""
    def plain(v):
        return json.dumps(np.asarray(v).tolist())

    return {k: v for k, v in values.items() if plain(base.get(k.split(",")[0].strip())) != plain(v)}


def _p_meets(est, target: float, verify: int) -> float:
    """The chance that a verification of ``verify`` games meets ``target`` (its 95% CI contains it) when the true
    value is ``est.value`` and the per-game spread is that of ``est`` (normal approximation)."""
    se = est.se * math.sqrt(est.n / verify)
    if se <= 0:
        return float(est.value == target)
    d = (est.value - target) / se
    phi = lambda x: 0.5 * (1 + math.erf(x / math.sqrt(2)))  # noqa: E731
    return phi(1.96 - d) - phi(-1.96 - d)


def space(args) -> int:
    """Every grid candidate, then the joint candidates around the grid's best, on common seeds."""
    from pyradice_lab.design._balance_grid import _axes, _candidate, _grid_size, _paths
    from pyradice_lab.design._balance_joint import joint_candidates
    from pyradice_lab.design.proposals import _components

    ref, cand, kwargs, budget, ranges, own = _setup(args.game, args.finding, args.findings_csv)
    base = _components(args.game)
    verify = args.verify_games or budget.verify
    seed = np.random.SeedSequence([args.seed, CHECK_SALT, 1])
    t0 = time.process_time()
    print(f"{ref.describe()}\nobjective {cand.metric} = {cand.target:g}; {kwargs['players']} players, "
          f"{kwargs['policies']}; {args.games} games per candidate (common seeds: root {args.seed}); P(meets): a "
          f"verification of {verify} games meets it if the estimate is the true value", flush=True)
    axes = _axes(cand.parameters)
    grid = [_candidate(axes, i) for i in range(_grid_size(axes))]
    rows = []

    def play(values, phase):
        comp = base.replace(_paths(values))
        est = _estimate(args.game, cand.metric, kwargs, args.games, seed, comp)
        changed = _changed(base, values)
        row = {"phase": phase, "values": json.dumps(changed), "estimate": est.value, "ci_low": est.ci_low,
               "ci_high": est.ci_high, "p_meets": _p_meets(est, cand.target, verify), "comp": comp}
        rows.append(row)
        print(f"{phase:5} {est.value:+.3f} [{est.ci_low:+.3f}, {est.ci_high:+.3f}] P(meets) {row['p_meets']:.2f}  "
              f"{row['values'] or 'packaged'}", flush=True)

    for values in grid:
        play(values, "grid")
    best = min(rows, key=lambda r: abs(r["estimate"] - cand.target))
    if ranges:
        most = max(8, budget.search // (2 * budget.first))
        for values in joint_candidates(base, ranges, own=own, start_comp=best["comp"], max_candidates=min(64, most))[1:]:
            play(values, "joint")
    top = max(rows, key=lambda r: r["p_meets"])
    print(f"best: {top['values']} {top['estimate']:+.3f} [{top['ci_low']:+.3f}, {top['ci_high']:+.3f}], P(meets) "
          f"{top['p_meets']:.2f}; {len(rows)} candidates, CPU {time.process_time() - t0:.0f} s")
    return 0


def _seeds(text: str) -> list[int]:
    lo, _, hi = text.partition("..")
    return list(range(int(lo), int(hi or lo) + 1))


def seeds(args) -> int:
    """The 9-of-10 measurement: one row per seed in ``--out`` (resumable)."""
    from pyradice_lab.design._balance_finding import _full_halving
    from pyradice_lab.design._balance_path import cheap_player
    from pyradice_lab.design.balance import balance_finding
    from pyradice_lab.design.proposals import _components, game_levers

    ref, cand, kwargs, budget, _, _ = _setup(args.game, args.finding, args.findings_csv)
    base = _components(args.game)
    levers = game_levers(args.game)
    cheap = cheap_player(levers, None, kwargs["policies"]) if args.search_policies == "auto" else None
    if cheap:  # the game's cheaper search player searches within its own budget (balance --finding's default)
        budget = levers.budget_for(kwargs["players"], True)
    first = args.first_games or budget.first
    search = args.budget or max(budget.search, _full_halving(cand.parameters, first))
    out = Path(args.out)
    done = pd.read_csv(out) if out.is_file() else pd.DataFrame()
    check = args.check_games or args.verify_games or budget.verify
    print(f"{ref.describe()}\nobjective {cand.metric} = {cand.target:g}; {kwargs['players']} players, "
          f"{kwargs['policies']}{f' (the search by {cheap})' if cheap else ''}; budget {search} / first {first} / "
          f"verify {args.verify_games or budget.verify}; check {check} fresh games; guards "
          f"{'on' if args.guards else 'off'}", flush=True)
    for s in _seeds(args.seeds):
        if len(done) and (done["seed"] == s).any():
            continue
        t0 = time.process_time()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = balance_finding(args.game, args.finding, findings_csv=args.findings_csv, budget=args.budget,
                                  first_games=args.first_games, verify_games=args.verify_games, rng=s,
                                  guards=args.guards, n_jobs=1, search_policies=args.search_policies)
            t1 = time.process_time()
            est = _estimate(args.game, cand.metric, kwargs, check, np.random.SeedSequence([s, CHECK_SALT]),
                            res.components)
        t2 = time.process_time()
        met = bool(est.ci_low <= cand.target <= est.ci_high)
        row = {"game": args.game, "finding": args.finding, "seed": s, "met": met, "search_met": bool(res.reached),
               "values": json.dumps(_changed(base, res.values)), "check": est.value, "check_ci_low": est.ci_low,
               "check_ci_high": est.ci_high, "check_games": check, "search_after": res.after.value,
               "search_ci_low": res.after.ci_low, "search_ci_high": res.after.ci_high, "games": res.games_used,
               "verify_games": res.verify_games, "two_searches": any(n.startswith("first search") for n in res.notes),
               "budget": search, "first_games": first,
               "final_round_off": any("refinement's final round" in n for n in res.notes),
               "refinements": sum(n.startswith("refinement ") and "not run" not in n for n in res.notes)
               + any(n.startswith("first search") for n in res.notes),
               "refinement_notes": " | ".join(n for n in res.notes if n.startswith(("refinement ", "kept: "))),
               "cpu_search": round(t1 - t0, 1), "cpu_check": round(t2 - t1, 1)}
        if isinstance(res.history, pd.DataFrame) and len(res.history):  # every round of the search, for later reading
            res.history.to_csv(out.with_name(f"{out.stem}_history_seed{s}.csv"), index=False)
        done = pd.concat([done, pd.DataFrame([row])], ignore_index=True)
        done.to_csv(out, index=False)
        print(f"seed {s}: {'MET' if met else 'not met'} {est.value:+.3f} [{est.ci_low:+.3f}, {est.ci_high:+.3f}] "
              f"(search's own verification {res.after.value:+.3f}, {'met' if res.reached else 'not met'}); "
              f"{res.values}; CPU {t1 - t0:.0f} + {t2 - t1:.0f} s", flush=True)
    mine = done[done["seed"].isin(_seeds(args.seeds))]
    print(f"met on fresh seeds: {int(mine['met'].sum())} of {len(mine)}; CPU {mine['cpu_search'].sum():.0f} s "
          f"(searches) + {mine['cpu_check'].sum():.0f} s (checks)")
    return 0


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("mode", choices=("space", "seeds"))
    p.add_argument("game")
    p.add_argument("finding")
    p.add_argument("--findings-csv", required=True)
    p.add_argument("--games", type=int, default=400, help="space: games per candidate")
    p.add_argument("--seed", type=int, default=0, help="space: the common seeds' root")
    p.add_argument("--seeds", default="1..10", help="seeds: root seeds LOW..HIGH")
    p.add_argument("--out", default="balance_nine_of_ten.csv")
    p.add_argument("--budget", type=int)
    p.add_argument("--first-games", type=int)
    p.add_argument("--verify-games", type=int)
    p.add_argument("--check-games", type=int)
    p.add_argument("--guards", action="store_true")
    p.add_argument("--search-policies", default="auto",
                   help="seeds: balance --finding's search player (auto: the game's cheaper one, none, a player)")
    args = p.parse_args(argv)
    return space(args) if args.mode == "space" else seeds(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
