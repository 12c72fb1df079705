"""Pyradice's report player per player count (the contract part ``report_players``,
:mod:`pyradice_lab.engine.reportplayers`): ``flat_mc`` at 2, 3 and 4 players, each chosen by a ladder over the field
(every seating; issue 48).  At 4 players it is level with ``lookahead`` (their intervals overlap: a tie, said in the
strength guide); both stand well above the ``greedy`` heuristic."""

from __future__ import annotations

from ..engine.reportplayers import ReportPlayer

__all__ = ["REPORT_PLAYERS"]

_CMD = "python experiments/research/report_player_ladders.py pyradice {p} {field} {games} {seed}"

#: measured on 2026-12-06 (issue 48), packaged components; ratings: Elo scale, mean 0, 95% CIs
REPORT_PLAYERS = {
    2: ReportPlayer("flat_mc", ladder_date="2026-12-06", games=1800,
                    ratings={"flat_mc": (296, 261, 330), "lookahead": (-73, -89, -57), "greedy": (-223, -246, -200)},
                    command=_CMD.format(p=2, field="greedy,lookahead,flat_mc", games=600, seed=484), setup="2 players"),
    3: ReportPlayer("flat_mc", ladder_date="2026-12-06", games=600,
                    ratings={"flat_mc": (118, 94, 141), "lookahead": (5, -11, 21), "greedy": (-123, -144, -102)},
                    command=_CMD.format(p=3, field="greedy,lookahead,flat_mc", games=600, seed=485),
                    setup="3 players (a second copy)"),
    # random_legal never won a game: its rating rests on the prior (a degenerate ladder); the others' do not
    4: ReportPlayer("flat_mc", ladder_date="2026-12-06", games=400,
                    ratings={"flat_mc": (420, 398, 443), "lookahead": (414, 391, 437), "greedy": (307, 283, 331),
                             "random_legal": (-1141, -1865, -416)},
                    command=_CMD.format(p=4, field="random_legal,greedy,lookahead,flat_mc", games=400, seed=486),
                    setup="4 players (a second copy)"),
}
