"""Benchmark rows of the toy race: ``toygame.simulate_games`` (games per second, optimal players)."""

from __future__ import annotations

from pyradice_lab.engine.benchcase import BenchCase, sized

__all__ = ["bench_cases"]


def bench_cases(quick: bool = False) -> list[BenchCase]:
    from .sim import simulate_games

    games = sized(200 if quick else 1000, tiny=2)
    simulate_games(1, rng=0)  # solve the optimal player before timing

    def fast():
        simulate_games(games, rng=1)
        return games

    return [BenchCase("toygame.simulate_games", "games", fast=fast, game="toygame")]
