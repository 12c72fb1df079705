"""A synthetic race: does ``balance``'s successive halving pick a candidate that a fresh check meets (issue 44,
item 2), and would another allocation do better?  The designer guide, "How much noise the real games' candidates
share", quotes its output.

Candidates with known true values (Rocking Raft's 3-slot lifeboat refinement as a model: a centre 0.065 off the
target, six one-card moves down and up 0.04-0.06, six group moves 0.15-0.2), per-game noise ``sigma`` of which a
share ``rho`` is common to every candidate of a round (the same seeds), the halving of
:func:`pyradice_lab.design.balance.balance` (first round ``first`` games, the better half by distance to the target
survives, twice the games, the last two up to ``final`` games, ``budget`` in all), successive elimination by
confidence bounds, and the halving with the shared level pinned by extra games of the centre candidate.  For each:
the mean chance that a ``check``-game fresh check (its 95% interval) meets the target, and the chance of 9 or more
met in 10 seeds.

Usage::

    python experiments/research/halving_race.py --rho 0.45 [--races 4000]
"""

from __future__ import annotations

import argparse
import math
import sys

import numpy as np
from scipy.stats import norm

CENTRE = 0.065
TRUE = np.array([CENTRE] + [CENTRE - d for d in (0.04, 0.045, 0.05, 0.055, 0.06, 0.06)]
                + [CENTRE + d for d in (0.04, 0.045, 0.05, 0.055, 0.06, 0.06)]
                + [CENTRE + d for d in (-0.15, -0.17, -0.2, 0.15, 0.17, 0.2)])


class Race:
    def __init__(self, rho: float, sigma: float, rng):
        self.rho, self.sigma, self.rng = rho, sigma, rng

    def play(self, alive, games, tot, n):
        shared = self.rng.normal(0, self.sigma * math.sqrt(self.rho), games).sum()
        for i in alive:
            tot[i] += TRUE[i] * games + shared + self.rng.normal(0, self.sigma * math.sqrt(1 - self.rho), games).sum()
            n[i] += games

    def halving(self, first=20, final=1800, budget=4660, anchor=0):
        alive, tot, n = list(range(len(TRUE))), np.zeros(len(TRUE)), np.zeros(len(TRUE))
        games, used, each = first, 0, 0
        level = TRUE[0] + self.rng.normal(0, self.sigma / math.sqrt(anchor)) if anchor else None
        while games >= 10 and used + games * len(alive) <= budget:
            self.play(alive, games, tot, n)
            used += games * len(alive)
            est = tot / np.maximum(n, 1)
            if level is not None and 0 in alive and n[0] < anchor:
                est = est - est[0] + level
            if len(alive) == 1:
                break
            alive = sorted(alive, key=lambda i: (abs(est[i]), i))[:max(1, (len(alive) + 1) // 2)]
            if len(alive) == 1:
                break
            each += games
            top = final - each if len(alive) == 2 else 0
            games = min(max(games * 2, top), (budget - used) // len(alive))
        est = tot / np.maximum(n, 1)
        return min(alive, key=lambda i: abs(est[i]))

    def elimination(self, first=20, budget=4660, z=2.0):
        alive, tot, n = list(range(len(TRUE))), np.zeros(len(TRUE)), np.zeros(len(TRUE))
        games, used = first, 0
        while len(alive) > 1 and used + games * len(alive) <= budget:
            self.play(alive, games, tot, n)
            used += games * len(alive)
            est, se = tot / n, self.sigma / np.sqrt(n)
            best = min(abs(est[i]) + z * se[i] for i in alive)
            alive = [i for i in alive if abs(est[i]) - z * se[i] <= best]
            games = min(games * 2, (budget - used) // max(1, len(alive)))
            if games < 10:
                break
        est = tot / np.maximum(n, 1)
        return min(alive, key=lambda i: abs(est[i]))


def main(argv) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rho", type=float, default=0.45)
    p.add_argument("--sigma", type=float, default=0.62)
    p.add_argument("--check", type=int, default=200)
    p.add_argument("--races", type=int, default=4000)
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args(argv)
    rng = np.random.default_rng(a.seed)
    race = Race(a.rho, a.sigma, rng)
    check_se = a.sigma / math.sqrt(a.check)

    def p_met(v):
        return norm.cdf(1.96 - v / check_se) - norm.cdf(-1.96 - v / check_se)

    ways = {"halving (balance)": race.halving, "halving, twice the budget": lambda: race.halving(final=3600, budget=9320),
            "elimination, 2 SE bounds": race.elimination, "elimination, 1 SE bounds": lambda: race.elimination(z=1.0),
            "halving, level pinned by 800 games": lambda: race.halving(anchor=800)}
    for name, way in ways.items():
        met = np.array([p_met(TRUE[way()]) for _ in range(a.races)])
        nine = np.mean([(rng.random(10) < rng.choice(met, 10)).sum() >= 9 for _ in range(a.races)])
        print(f"rho {a.rho}: {name:36} mean P(met) {met.mean():.3f}, P(9+ of 10 seeds) {nine:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
