"""The full report's proposal path for one game's findings, without the rest of the report (issue 44;
docs/guide/designer.md, "A whole lifeboat size").

Reads a report's findings CSV (``report_findings.csv`` of any report, quick or full: the rows give the findings,
their checks give the metric, the games and the null), builds each finding's proposal candidate exactly as the
report does (:func:`pyradice_lab.design.balance.finding_candidate`, the report's candidate id, so the report's
seeds), and runs :func:`pyradice_lab.design.proposals.run_proposal` with the report's budget
(:func:`~pyradice_lab.design.proposals.budget_for`), the game's report player and the game's other component
findings in the same games as the guards' "other findings".  Prints each proposal's objective before/after with
95% CIs, met or not, the guards and the games played, with the CPU seconds.

Usage (the designer guide's numbers)::

    python experiments/research/report_proposal_path.py --findings-csv report_findings.csv --game raft \\
        --metric boat_pay_excess:2 --metric boat_pay_excess:4 --seed 0
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--findings-csv", required=True)
    p.add_argument("--game", required=True)
    p.add_argument("--metric", action="append", required=True, help="a finding's metric (e.g. boat_pay_excess:2)")
    p.add_argument("--seed", type=int, action="append", help="the report's seed (repeatable; default 0)")
    p.add_argument("--history", action="store_true", help="print the kept search's history (estimates per round)")
    args = p.parse_args(argv)

    from pyradice_lab.design._balance_finding import finding_candidate, findings_of
    from pyradice_lab.design.proposals import budget_for, finding_id, run_proposal

    refs = findings_of(args.findings_csv, args.game)
    cands = {}
    for r in refs:
        try:
            c = finding_candidate(r)
        except Exception:  # noqa: BLE001 - a finding without a lever is only an "other" finding
            from pyradice_lab.design.proposals import Candidate

            c = Candidate(r.id, r.game, r.experiment, r.finding, r.metric, float(r.check.threshold),
                          r.check.players, dict(r.check.game_kwargs))
        cands[r.metric, r.check.players] = replace(c, id=finding_id(r.experiment, r.metric, r.check.players))
    others = list(cands.values())
    for seed in args.seed or [0]:
        for metric in args.metric:
            c = next((c for (m, _), c in cands.items() if m == metric), None)
            if c is None:
                p.error(f"--metric: no finding of {args.game} measures {metric!r} in {args.findings_csv}")
            t0 = time.process_time()
            prop = run_proposal(c, seed=seed, others=others, budget=budget_for(c.game, c.players))
            r = prop.result
            t = r.objectives.iloc[0]
            print(f"seed {seed} {c.id}: {t['metric']} {t['before']:+.3f} [{t['before_ci_low']:+.3f}, "
                  f"{t['before_ci_high']:+.3f}] -> {t['after']:+.3f} [{t['after_ci_low']:+.3f}, "
                  f"{t['after_ci_high']:+.3f}] ({'met' if r.reached else 'not met'}; guards "
                  f"{'passed' if getattr(r, 'guarded', False) else 'refused or not run'}); {prop.games:,} games, "
                  f"{time.process_time() - t0:.0f} CPU s", flush=True)
            from pyradice_lab.design._balance_toml import assignments_text, changed_paths

            print("    proposal:", assignments_text((q, r.components.get(q)) for q in changed_paths(r.components)))
            for n in r.notes:
                print("   ", n[:600], flush=True)
            if args.history and getattr(r, "history", None) is not None:
                h = r.history
                moved = [c for c in h.columns if c not in ("round", "games", "estimate", "se", "distance")
                         and not c.startswith("estimate[") and h[c].astype(str).nunique() > 1]
                print(h[["round", "games", "estimate", "se", *moved]].to_string(max_colwidth=12), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
