"""The full report's proposal for Meerkat Kingdom's tile-12 finding, without the rest of the report (issue 44;
docs/guide/designer.md, "Tile 12: which objective, which lever").

Builds the report's candidate for ``meerkat_tile_fairness``'s tile-12 finding (its id, so the report's seeds; the
finding as the full report of 2026-12-02 stated it, tile 12 (11/6/3) paying 2.74 per piece against the board mean
1.96 under ``mcts_v2``, and the tile-6 finding as the other finding the guards keep from getting worse) and runs
:func:`pyradice_lab.design.proposals.run_proposal` with the game's budget and report player, exactly as the report
does: the objective the lever declares for the report (``Lever.report_kind``), the search by the game's
``search_player``, the verification and the guards by the report player.  Prints the proposal, every note, the
games and the CPU seconds.

Usage (the designer guide's numbers)::

    python experiments/research/meerkat_report_proposal.py --seed 0 --seed 1 --seed 2
"""

from __future__ import annotations

import argparse
import sys
import time


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, action="append", help="the report's seed (repeatable; default 0)")
    args = ap.parse_args(argv)

    from dataclasses import replace

    from pyradice_lab.design.proposals import Candidate, _components, game_levers, run_proposal
    from pyradice_lab.engine.findings import Finding

    kw = {"automa": False, "engine": "numba"}   # the games of the report's tile-pay check

    def tile(t: int, values: str, est: float, lo: float, hi: float) -> Candidate:
        f = Finding("difference", f"points paid per piece committed, tile {t} ({values})", est, lo, hi, n=2000,
                    null=1.96, null_label="the board mean", player="mcts_v2", unit="points",
                    component=f"tile {t} values")
        c = Candidate(f"meerkat_tile_fairness-tile_pay_excess_{t}-3p", "meerkat", "meerkat_tile_fairness", f,
                      f"tile_pay_excess:{t}", 0.0, 3, dict(kw))
        try:  # the lever's grid, as the report's find_candidates gives it
            params, text, rule = game_levers("meerkat").lever("tile_pay_excess")(_components("meerkat"), str(t), f)
        except Exception:  # noqa: BLE001 - a tile the rules state (6): only an "other" finding
            return c
        return replace(c, parameters=params, lever=text, rule_change=rule)

    twelve, six = tile(12, "11/6/3", 2.74, 2.60, 2.88), tile(6, "6/3", 1.50, 1.43, 1.57)
    for seed in args.seed or [0]:
        t0 = time.process_time()
        p = run_proposal(twelve, seed=seed, others=[twelve, six])
        r = p.result
        print(f"== seed {seed}: {r.summary()}")
        for n in r.notes[1:]:
            print("  ", n)
        print(f"   games {p.games:,}, CPU {time.process_time() - t0:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
