"""Purramid's robustness checks: the report's findings re-checked on plausible board layouts.

The board numbers are a reconstruction (:mod:`pyradice_lab.purramid.components`); the full report re-checks
(:mod:`pyradice_lab.design.checks`) with :data:`CHECKS`:

- the start-player findings (``purramid_seat_advantage`` and ``purramid_strong_play``, side A):
  ``start_player_win`` against the fair share 1/p, 2-4 players; one run per player count serves both experiments
  (the checks share a key);
- side B minus side A (``purramid_side_a_vs_b``, a :class:`~pyradice_lab.engine.checkspec.PairedCheck`): every
  set plays the same games on side B and on side A, for 2, 3 and 4 players, and the metric is the mean paired
  difference;
- the yarn-token findings are exact solves on given boards, not a simulated metric: their column says so
  (:class:`~pyradice_lab.engine.checkspec.NotChecked`).

A finding's players are the registry's heuristic at every seat (``"greedy, every seat"``) or, for the checks of
:data:`REPORT_PLAYER_GAMES`, the report player (``"optimal, every seat"``).
"""

from __future__ import annotations

from ..engine import registry
from ..engine.checkspec import Check, GameChecks, NotChecked, PairedCheck

__all__ = ["CHECKS", "GAMES", "PAIRED_GAMES", "REPORT_PLAYER_GAMES"]

#: games per board layout (sized so that the checks fit the full report's 5-minute budget)
GAMES = 1500
#: games per layout and run of the paired check (each layout plays them twice, side B and side A, per player count)
PAIRED_GAMES = {"purramid_sides": 2000}
#: games per layout of the checks re-run with the report player (``optimal``; see
#: :attr:`~pyradice_lab.engine.checkspec.GameChecks.report_player_games` and docs/guide/designer.md).  The 2-player
#: check plays 3,000 games per layout whatever the claim (``unsized``; about 1.5 ms CPU a game with the solver's
#: openings cached, 22 CPU s for the 9 layouts) and estimates with the seats' turn luck (``controlled``: variance
#: about 2x smaller): the sampled layouts' edges (0.52-0.56) are smaller than the packaged one, so the size that
#: decides the packaged edge (about 800) left one layout undecided.  The 4-player check is sized by its claim
#: (:func:`~pyradice_lab.design.checks.sized_for`: about 290 games a layout for the packaged finding, at most 300)
#: and controlled too (variance 1.5-2.2x smaller per layout, measured at 200 games): about 55 ms CPU a game on a
#: layout's solver memo, some 150 CPU s in one worker of the full report.  At 3 players (about 90 ms a game; no
#: claim at the report's seed) 16 games, Wilson intervals (turn-luck controls need 30+ games: their coverage is
#: tested from 30)
REPORT_PLAYER_GAMES = {"purramid start 2p": 3000, "purramid start 3p": 16, "purramid start 4p": 300}


def _checks() -> tuple:
    h = registry.get_game("purramid").heuristic_player  # the finding's sensitivity column plays it too
    out: list = []
    for p in (2, 3, 4):
        for exp in ("purramid_seat_advantage", "purramid_strong_play"):
            out.append(Check(f"purramid start {p}p", "purramid", exp, rf"start player's win share, {p} players, .*",
                             "start_player_win", 1 / p, p, h, f"{h}, every seat", {"layout": "A"}, "side A"))
    out.append(PairedCheck("purramid sides start", "purramid", "purramid_side_a_vs_b",
                           r"start player's win share, side B against side A, mean over 2-4 players",
                           "start_player_win", 0.0, 2, h, f"{h}, every seat",
                           note="paired: every set on side B and on side A, 2-4 players",
                           variant_options={"layout": "B"}, reference_options={"layout": "A"}, over_players=(2, 3, 4),
                           games=PAIRED_GAMES["purramid_sides"]))
    out.append(NotChecked("purramid yarn", "purramid", "purramid_yarn_value",
                          r"gain in expected tiles from one yarn token, .*",
                          "not assessed: an exact solve on given boards, not a simulated metric (robustness to the "
                          "reconstructed board numbers would need the exact solver on each plausible layout)"))
    return tuple(out)


#: Purramid's checks (the contract part ``checks``)
CHECKS = GameChecks(checks=_checks(), games=GAMES, what="board layouts", report_player_games=REPORT_PLAYER_GAMES,
                    player_label="{player}, every seat", controlled=("purramid start 2p", "purramid start 4p"),
                    unsized=("purramid start 2p",))
