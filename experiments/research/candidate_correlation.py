"""How much of a proposal search's noise do its candidates share (issue 44)?  Nine candidates of a finding's lever
(six of its grid, sampled, then joint moves around the first) each play the same ``--games`` seeds under the
finding's report player; against the first, each line gives the candidate's standard error, that of the paired
difference, the correlation ``rho`` of the two estimates (from the three standard errors) and the common seeds'
variance-reduction factor on the difference, ``(se_a**2 + se_b**2) / se_d**2``.  The designer guide, "How much
noise the real games' candidates share", quotes it.

Usage::

    python experiments/research/candidate_correlation.py raft raft_card_fairness-boat_pay_excess_3-3p \\
        --findings-csv DIR/report_findings.csv --games 200
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import balance_nine_of_ten as nine  # noqa: E402


def main(argv) -> int:
    from pyradice_lab.design._balance_grid import _axes, _candidate, _grid_size, _paths
    from pyradice_lab.design._balance_joint import joint_candidates
    from pyradice_lab.design.balance import _balance_run
    from pyradice_lab.design.metrics import paired_estimates
    from pyradice_lab.design.proposals import _components

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("game")
    p.add_argument("finding")
    p.add_argument("--findings-csv", required=True)
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=7)
    a = p.parse_args(argv)
    ref, cand, kwargs, _, ranges, own = nine._setup(a.game, a.finding, a.findings_csv)
    base = _components(a.game)
    axes = _axes(cand.parameters)
    grid = [_candidate(axes, i) for i in range(_grid_size(axes))]
    cands = [grid[i] for i in random.Random(0).sample(range(len(grid)), min(6, len(grid)))]
    if ranges:
        cands += joint_candidates(base, ranges, own=own, start_comp=base.replace(_paths(cands[0])),
                                  max_candidates=8)[1:5]
    print(f"{ref.describe()}\n{cand.metric}, {kwargs['players']} players, {kwargs['policies']}, {a.games} games "
          "per candidate on common seeds", flush=True)
    seed = np.random.SeedSequence([a.seed, nine.CHECK_SALT, 9])
    t0 = time.process_time()
    runs = [_balance_run(a.game, [cand.metric], kwargs, a.games, seed, base.replace(_paths(v)))[0][cand.metric]
            for v in cands]
    for v, run in zip(cands[1:], runs[1:]):
        b, x, d, _ = paired_estimates(runs[0], run, cand.metric, warn=False)
        rho = (x.se ** 2 + b.se ** 2 - d.se ** 2) / (2 * x.se * b.se)
        print(f"{x.value:+.3f} se {x.se:.3f}; difference {d.value:+.3f} se {d.se:.3f}; rho {rho:.2f}; factor "
              f"{(x.se ** 2 + b.se ** 2) / d.se ** 2:.1f}  {nine._changed(base, v)}", flush=True)
    print(f"CPU {time.process_time() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
