"""Guards against empty wins (private; :mod:`._balance_finding` uses them): a proposal that meets its objective
by driving the players away from the component, by tilting the start player's share or by making another
finding worse is refused, and the numbers that show what the players do differently are given.

One paired run (:func:`pyradice_lab.design.proposals.recheck`: the packaged components and the proposal on the
same fresh seeds, common random numbers) measures

- **in play**: the lever's ``in_play`` metric (Meerkat: meerkats on the tile when it is scored; Rocking Raft: the
  lifeboats of the size completed per game): the proposal must keep it at or above ``fraction`` (the game's
  ``LEVERS.in_play_fraction``, 0.5 unless it says otherwise) of its packaged value;
- **start player**: the start player's win share must not move further from the fair share 1/p (its paired
  difference's 95% interval excluding 0 on the side it already lies, or beyond twice its distance the other way);
- **other findings**: every other component finding of the game measured in the same games must not be made
  worse (the report's re-check rule, :func:`pyradice_lab.design.proposals.made_worse`: further from its null on
  its side, or carried across the null to further from it than before).
"""

from __future__ import annotations

import pandas as pd

__all__ = ["GUARD_COLUMNS", "guard_table", "run_guards"]

GUARD_COLUMNS = ["guard", "metric", "before", "before_ci_low", "before_ci_high", "after", "after_ci_low",
                 "after_ci_high", "difference", "difference_ci_low", "difference_ci_high", "passed", "why"]


def _probe(quantity: str, null: float):
    """A finding that claims nothing (the re-check then judges by the packaged value's side of ``null``)."""
    from ..engine.findings import Finding

    return Finding("estimate", quantity, float(null), float(null), float(null), n=1)


def guard_table(rows, *, in_play: str, fraction: float, players: int) -> pd.DataFrame:
    """The guards' table from re-check rows (:class:`pyradice_lab.design.proposals.Recheck`, in the order
    in-play (if ``in_play``), start player, then the other findings)."""
    out = []
    for x in rows:
        d = x.difference
        if x.metric == in_play and x.experiment == "guard":
            floor = fraction * x.before.value
            passed = bool(x.after.value >= floor)
            why = (f"kept in play: {x.after.value:.3g} >= {fraction:.0%} of {x.before.value:.3g}" if passed else
                   f"REFUSED: out of play, {x.after.value:.3g} < {fraction:.0%} of the packaged {x.before.value:.3g}")
            guard = "in play"
        else:
            passed = not x.worse
            guard = "start player" if x.experiment == "guard" else f"other finding ({x.experiment})"
            crossed = (x.before.value - x.null) * (x.after.value - x.null) < 0
            why = ("not worse" if passed else
                   f"REFUSED: {'carried across' if crossed else 'moved further from'} {x.null:.4g}"
                   f"{' to further from it than before' if crossed else ''}, paired difference {d.value:+.3g} "
                   f"[{d.ci_low:+.3g}, {d.ci_high:+.3g}]")
        out.append({"guard": guard, "metric": x.metric, "before": x.before.value, "before_ci_low": x.before.ci_low,
                    "before_ci_high": x.before.ci_high, "after": x.after.value, "after_ci_low": x.after.ci_low,
                    "after_ci_high": x.after.ci_high, "difference": d.value, "difference_ci_low": d.ci_low,
                    "difference_ci_high": d.ci_high, "passed": passed, "why": why})
    return pd.DataFrame(out, columns=GUARD_COLUMNS)


def run_guards(game: str, base, proposal, *, players: int, in_play: str = "", fraction: float = 0.5,
               others=(), games: int, policies=None, game_kwargs=None, rng=None, n_jobs: int = 1,
               backend: str = "loky", scheduler=None, cache_dir=None) -> pd.DataFrame:
    """The guards of ``proposal`` against ``base`` (:func:`guard_table`), measured on ``games`` paired games.

    ``in_play``: the metric of the component's use ("" = none); ``others``: ``(experiment, finding, metric,
    null)`` of the game's other component findings measured in the same games."""
    from .proposals import recheck

    probes = []
    if in_play:
        probes.append(("guard", _probe(f"in play: {in_play}", 0.0), in_play, 0.0))
    probes.append(("guard", _probe("start player's win share", 1 / players), "start_player_win", 1 / players))
    probes += [o for o in others if o[2] not in (in_play, "start_player_win")]
    rows = recheck(game, base, proposal, probes, games=games, players=players, policies=policies,
                   game_kwargs=game_kwargs, rng=rng, n_jobs=n_jobs, backend=backend, scheduler=scheduler,
                   cache_dir=cache_dir)
    return guard_table(rows, in_play=in_play, fraction=fraction, players=players)
