"""Can Rocking Raft's 2-slot finding (``boat_pay_excess:2 = 0``) be met while passing ``balance --finding``'s guards?
(issue 44; docs/guide/designer.md, "Is the 2-slot objective reachable at all?")

Each candidate is a list of ``FIRST-LAST:DELTA`` card ranges (every card id FIRST..LAST moved DELTA points from the
packaged deck).  ``probe`` plays every candidate and the packaged deck on the same seeds (common random numbers)
under the report player and prints every size's ``boat_pay_excess``, the start player's win share and the 2-slot
lifeboats completed a game, each with its 95% CI.  ``guards`` runs ``balance --finding``'s guards
(:func:`pyradice_lab.design._balance_guards.run_guards`: in play, start player, the other findings of the CSV)
on one candidate, paired against the packaged deck on fresh seeds.

Usage (the designer guide's numbers; the CSV of a quick report)::

    python experiments/research/raft_size_shifts.py probe --games 300 --seed 9 --stream 5 \\
        "1-12:1" "1-12:2" "1-12:2 25-39:-1" "1-12:2 25-39:-1 13-24:1"
    python experiments/research/raft_size_shifts.py probe --games 400 --seed 11 --stream 6 \\
        "7-12:2 1-6:1 25-39:-1 13-24:1" "7-12:2 1-2:2 3-6:1 25-39:-1 16-24:1"
    python experiments/research/raft_size_shifts.py guards --findings-csv CSV --games 400 --seed 44 \\
        "7-12:2 1-2:2 3-6:1 25-39:-1 16-24:1"
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

METRICS = ["boat_pay_excess:2", "boat_pay_excess:3", "boat_pay_excess:4", "start_player_win", "boats_completed:2"]


def changes(base, text: str) -> dict:
    """The component values of ``"FIRST-LAST:DELTA ..."`` (every card FIRST..LAST moved DELTA points)."""
    out = {}
    for part in text.split():
        ids, _, delta = part.partition(":")
        lo, _, hi = ids.partition("-")
        for i in range(int(lo), int(hi or lo) + 1):
            out[f"card.{i}.points"] = int(base.get(f"card.{i}.points")) + int(delta)
    return out


def probe(args) -> int:
    from pyradice_lab.design.balance import _balance_run
    from pyradice_lab.design.metrics import metric_estimate, simulate_options
    from pyradice_lab.design.proposals import _components
    from pyradice_lab.engine.registry import get_game

    base = _components("raft")
    # the games of the report's raft_card_fairness check (its game_kwargs), under the report player
    kw = {"variant": "standard", "card_columns": True, "players": 3, "policies": get_game("raft").report_player_at(3)}
    for m in METRICS:
        kw.update(simulate_options("raft", m))
    # the guide's rows: entropy [seed, 4410044, stream] (the 9-of-10 script's check salt), seeds 9/5 and 11/6
    seed = np.random.SeedSequence([args.seed, 4_410_044, args.stream])
    print(f"{args.games} games per candidate, 3 players, {kw['policies']}, common seeds (root {args.seed})")
    t0 = time.process_time()
    for text in ["", *args.candidates]:
        comp = base.replace(changes(base, text)) if text else base
        vals, _ = _balance_run("raft", METRICS, kw, args.games, seed, comp)
        cells = []
        for m in METRICS:
            e = metric_estimate(*vals[m], m, warn=False)
            cells.append(f"{m} {e.value:+.3f} [{e.ci_low:+.3f}, {e.ci_high:+.3f}]")
        print(f"{text or 'packaged'}: " + "; ".join(cells) + f" (CPU {time.process_time() - t0:.0f} s)", flush=True)
    return 0


def guards(args) -> int:
    import pandas as pd

    from pyradice_lab.design._balance_guards import run_guards
    from pyradice_lab.design.balance import findings_of
    from pyradice_lab.design.proposals import _components
    from pyradice_lab.engine.registry import get_game

    base = _components("raft")
    comp = base.replace(changes(base, args.candidates[0]))
    others = [(o.experiment, o.finding, o.metric, float(o.check.threshold))
              for o in findings_of(args.findings_csv, "raft") if o.check.players == 3]
    t = run_guards("raft", base, comp, players=3, in_play="boats_completed:2", fraction=0.5, others=others,
                   games=args.games, policies=get_game("raft").report_player_at(3), rng=args.seed)
    cols = ["guard", "metric", "before", "after", "after_ci_low", "after_ci_high", "difference", "difference_ci_low",
            "difference_ci_high", "passed"]
    with pd.option_context("display.width", 200):
        print(f"{args.candidates[0]}: {args.games} paired games each side, seed {args.seed}\n{t[cols].to_string()}")
    return 0


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("mode", choices=("probe", "guards"))
    p.add_argument("candidates", nargs="+", help='"FIRST-LAST:DELTA ..." card ranges moved, one string a candidate')
    p.add_argument("--games", type=int, default=400)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--stream", type=int, default=0, help="probe: the seed entropy's third number")
    p.add_argument("--findings-csv", help="guards: the report's findings CSV (the other findings)")
    args = p.parse_args(argv)
    if args.mode == "guards" and not args.findings_csv:
        p.error("guards needs --findings-csv")
    return probe(args) if args.mode == "probe" else guards(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
