"""The toy race's one experiment: does the start player win more than half the games?  Data and findings only
(no matplotlib): the report section (:mod:`.report`) lays it out."""

from __future__ import annotations

import pandas as pd

from pyradice_lab.engine.findings import Finding
from pyradice_lab.engine.results import ExperimentResult
from pyradice_lab.engine.stats import proportion_estimate

from .components import coerce_components
from .odds import solve
from .sim import outcomes, simulate_games

__all__ = ["start_player"]


def start_player(games: int, rng, *, policies="optimal", components=None) -> ExperimentResult:
    """The start player's win share over ``games`` games (Wilson interval) beside the exact optimal value."""
    df = simulate_games(games, policies=policies, rng=rng, components=components)
    out = outcomes(df)
    won = int(out.loc[out["start"], "win"].sum())
    est = proportion_estimate(won, games)
    comp = coerce_components(components)
    exact = solve(comp).win(0, comp.head_start, 0)
    player = policies if isinstance(policies, str) else " vs ".join(map(str, policies))
    table = pd.DataFrame([{"games": games, "start_wins": won, **est.to_dict("win_share"),
                           "exact_optimal": exact}])
    finding = Finding("difference", "start-player win share", est.value, est.ci_low, est.ci_high, n=games,
                      null=0.5, null_label="a fair share", test="Wilson interval", player=player, unit="%",
                      component="start-player compensation (the second player's head start)")
    return ExperimentResult(
        name="toygame_start_player", title="Toy race: the start player's edge", table=table, findings=(finding,),
        question="Does the player who rolls first win more than half the races?",
        method=f"{games:,} games, {player} players, start seat drawn per game; Wilson 95% interval; the exact "
               "value under optimal play from value iteration.",
        reading=f"Under optimal play on both sides the start player wins {exact:.1%} of the races (exact).",
        meta={"games": games})
