"""Rocking Raft's report player per player count (the contract part ``report_players``,
:mod:`pyradice_lab.engine.reportplayers`): ``exact`` at 2, 3 and 4 players, each chosen by a ladder over the field
(every seating; issue 48).  At 2 players ``exact`` is barely above the ``greedy`` heuristic, and the report says so
beside the findings it measures there (``margin_note``)."""

from __future__ import annotations

from ..engine.reportplayers import ReportPlayer

__all__ = ["REPORT_PLAYERS"]

_CMD = "python experiments/research/report_player_ladders.py raft {p} {field} {games} {seed}"

#: measured on 2026-12-06 (issue 48), standard variant, packaged components; ratings: Elo scale, mean 0, 95% CIs
REPORT_PLAYERS = {
    2: ReportPlayer("exact", ladder_date="2026-12-06", games=3000,
                    ratings={"exact": (33, 21, 46), "greedy": (0, -12, 13), "aim": (-34, -46, -21)},
                    command=_CMD.format(p=2, field="aim,greedy,exact", games=1000, seed=481), setup="2 players",
                    margin_note="At 2 players the report player exact is barely above the greedy heuristic (it wins "
                                "55.8% [52.7%, 58.9%] of 1,000 games head to head; ratings +33 and 0, issue 48), so "
                                "findings at 2 players measured with it are close to heuristic findings"),
    3: ReportPlayer("exact", ladder_date="2026-12-06", games=1500,
                    ratings={"exact": (27, 15, 39), "aim": (-10, -21, 1), "greedy": (-17, -29, -5)},
                    command=_CMD.format(p=3, field="aim,greedy,exact", games=1500, seed=482), setup="3 players"),
    4: ReportPlayer("exact", ladder_date="2026-12-06", games=600,
                    ratings={"exact": (71, 52, 89), "aim": (64, 45, 83), "greedy": (30, 12, 47),
                             "random": (-164, -186, -143)},
                    command=_CMD.format(p=4, field="random,aim,greedy,exact", games=600, seed=483), setup="4 players"),
}
