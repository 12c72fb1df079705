"""Purramid's report player per player count (the contract part ``report_players``,
:mod:`pyradice_lab.engine.reportplayers`): the exact turn policy ``optimal`` at 2, 3 and 4 players, each chosen by a
ladder over the field (every seating; issue 48), far above the ``risk`` players at every count."""

from __future__ import annotations

from ..engine.reportplayers import ReportPlayer

__all__ = ["REPORT_PLAYERS"]

_CMD = "python experiments/research/report_player_ladders.py purramid {p} {field} 600 {seed}"

#: measured on 2026-12-06 (issue 48), packaged components (side A); ratings: Elo scale, mean 0, 95% CIs
REPORT_PLAYERS = {
    2: ReportPlayer("optimal", ladder_date="2026-12-06", games=1800,
                    ratings={"optimal": (141, 120, 161), "risk:0.7": (-44, -60, -28), "risk:0.5": (-97, -115, -79)},
                    command=_CMD.format(p=2, field="risk:0.5,risk:0.7,optimal", seed=487), setup="2 players"),
    3: ReportPlayer("optimal", ladder_date="2026-12-06", games=600,
                    ratings={"optimal": (169, 144, 195), "risk:0.5": (-78, -96, -61), "risk:0.7": (-91, -111, -71)},
                    command=_CMD.format(p=3, field="risk:0.5,risk:0.7,optimal", seed=488), setup="3 players"),
    4: ReportPlayer("optimal", ladder_date="2026-12-06", games=600,
                    ratings={"optimal": (159, 135, 182), "risk:0.7": (-37, -57, -18), "risk:0.5": (-38, -56, -21),
                             "risk:0.3": (-83, -98, -68)},
                    command=_CMD.format(p=4, field="risk:0.3,risk:0.5,risk:0.7,optimal", seed=489), setup="4 players"),
}
