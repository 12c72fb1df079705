"""Meerkat Kingdom's overpaying tile 12 (``tile_pay_excess:12 = 0``): which values, of tile 12 and its neighbours,
meet the pay objective or the win objective (``commit_win_excess:12 = 0``) while the tile stays in play?
(issue 44; docs/guide/designer.md, "Tile 12: which objective, which lever")

Each candidate is a list of ``T=H/M/L`` tile values (``"12=8/4/2 11=8/4/2"``; an empty string: the packaged tiles).
``probe`` plays the packaged tiles and every candidate on the same seeds (common random numbers:
:func:`pyradice_lab.design._restricted_games.play_metrics`, as ``balance`` and its guards do) with the games of the
report's tile-pay check (3 players, no automa) and prints, with 95% CIs, each estimate and its paired difference
from the packaged tiles: tile 12's pay excess, the meerkats on tile 12 a game (the in-play guard), the start
player's win share, (``--others``) the pay excess of every other tile, and (``--win``; ``--win-only``: nothing else)
``commit_win_excess:12`` on its restricted-play games.

Usage (the designer guide's numbers; ``R=experiments/research/meerkat_tile_levers.py``)::

    python $R probe --policies expectimax --games 2000 --seed 2026 --win "12=11/5/2" "12=11/4/2" "12=11/4/1" \
        "12=11/3/2" "12=11/3/1" "12=11/2/1" "12=10/4/1" "12=10/3/1" "12=9/4/2" "12=9/3/1" "12=8/4/2" "12=8/3/1" \
        "12=7/3/1"
    python $R probe --policies expectimax --games 2000 --seed 2026 "12=11/6/0" "12=11/0/0" "12=6/0/0" "12=3/0/0" \
        "12=2/1/0" "12=11/3/1" "12=8/4/0 11=9/5/0 10=8/4/0 9=7/4/0" "12=6/3/0 11=7/4/0" "12=30/15/8"
    python $R probe --policies mcts_v2 --games 500 --seed 2026 --win "12=11/5/2" "12=11/4/2" "12=10/5/2" "12=11/3/1"
    python $R probe --policies mcts_v2 --games 500 --seed 2026 --win "12=11/2/1" "12=11/2/2"
    python $R probe --recheck --others --win --policies mcts_v2 --games 400 --seed 2026 "12=9/5/2" "12=8/4/2" \
        "12=7/4/2"
"""

from __future__ import annotations

import argparse
import sys
import time


def changes(text: str) -> dict:
    """``"12=8/4/2 11=8/4/2"`` -> ``{"tile.12.values": [8, 4, 2], "tile.11.values": [8, 4, 2]}``."""
    out = {}
    for part in text.split():
        t, _, vals = part.partition("=")
        out[f"tile.{int(t)}.values"] = [int(v) for v in vals.split("/")]
    return out


def probe(args) -> int:
    import numpy as np

    from pyradice_lab.design._restricted_games import play_metrics
    from pyradice_lab.design.metrics import paired_estimates
    from pyradice_lab.design.proposals import _components

    base = _components("meerkat")
    t = args.tile
    metrics = [] if args.win_only else [f"tile_pay_excess:{t}", f"meerkats_on_tile:{t}", "start_player_win"]
    if args.others and not args.win_only:
        metrics += [f"tile_pay_excess:{u}" for u in range(3, 13) if u != t]
    if args.win or args.win_only:
        metrics.append(f"commit_win_excess:{t}")
    if args.recheck:
        return _recheck(args, metrics)
    kw = {"automa": False, "engine": "numba", "players": 3, "policies": args.policies}
    # one seed for every candidate and the packaged tiles: common random numbers (the same dice)
    seed = np.random.SeedSequence([args.seed, 4_410_044, 12])
    print(f"{args.games} games per candidate on the same seeds, 3 players (no automa), {args.policies} in every "
          f"seat, seed {args.seed}; each line: estimate [95% CI], paired difference from the packaged tiles",
          flush=True)
    t0 = time.process_time()
    ref, _ = play_metrics("meerkat", metrics, args.games, seed, base, kw)
    print(f"== packaged (CPU {time.process_time() - t0:.0f} s)")
    for m in metrics:
        b, _, _, _ = paired_estimates(ref[m], ref[m], m, warn=False)
        print(f"  {m:22s} {b.value:+.3f} [{b.ci_low:+.3f}, {b.ci_high:+.3f}]")
    for text in args.candidates:
        comp = base.replace(changes(text))
        vals, _ = play_metrics("meerkat", metrics, args.games, seed, comp, kw)
        print(f"== {text}  (CPU {time.process_time() - t0:.0f} s)")
        for m in metrics:
            _, a, d, _ = paired_estimates(ref[m], vals[m], m, warn=False)
            print(f"  {m:22s} {a.value:+.3f} [{a.ci_low:+.3f}, {a.ci_high:+.3f}]  diff {d.value:+.3f} "
                  f"[{d.ci_low:+.3f}, {d.ci_high:+.3f}]")
        sys.stdout.flush()
    return 0


def _recheck(args, metrics) -> int:
    """``--recheck``: each candidate on its own paired run against the packaged tiles
    (:func:`pyradice_lab.design.proposals.recheck`, the guards' run: the packaged side replayed per candidate)."""
    from pyradice_lab.design._balance_guards import _probe
    from pyradice_lab.design.proposals import _components, recheck

    base = _components("meerkat")
    probes = [("probe", _probe(m, 0.0), m, 0.0) for m in metrics]
    print(f"{args.games} paired games per candidate (one paired run each), 3 players (no automa), {args.policies} in "
          f"every seat, seed {args.seed}", flush=True)
    t0 = time.process_time()
    for text in args.candidates:
        rows = recheck("meerkat", base, base.replace(changes(text)), probes, games=args.games, players=3,
                       policies=args.policies, game_kwargs={"automa": False, "engine": "numba"}, rng=args.seed)
        print(f"== {text}  (CPU {time.process_time() - t0:.0f} s)")
        for x in rows:
            b, a, d = x.before, x.after, x.difference
            print(f"  {x.metric:22s} {b.value:+.3f} [{b.ci_low:+.3f}, {b.ci_high:+.3f}] -> {a.value:+.3f} "
                  f"[{a.ci_low:+.3f}, {a.ci_high:+.3f}]  diff {d.value:+.3f} [{d.ci_low:+.3f}, {d.ci_high:+.3f}]")
        sys.stdout.flush()
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("probe", help="candidates against the packaged tiles, paired")
    p.add_argument("candidates", nargs="+", help="'T=H/M/L ...' per candidate")
    p.add_argument("--tile", type=int, default=12)
    p.add_argument("--policies", default="expectimax")
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--win", action="store_true", help="also commit_win_excess (restricted-play games)")
    p.add_argument("--win-only", action="store_true", help="commit_win_excess only")
    p.add_argument("--others", action="store_true", help="also every other tile's pay excess")
    p.add_argument("--recheck", action="store_true",
                   help="each candidate on its own paired run (the guards' run), the packaged side replayed")
    args = ap.parse_args(argv)
    return probe(args)


if __name__ == "__main__":
    sys.exit(main())
