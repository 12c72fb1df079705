"""The toy race's report player per player count (the contract part ``report_players``,
:mod:`pyradice_lab.engine.reportplayers`): the race is a 2-player game, so one entry, chosen by a ladder over the
field (every registered player, both seatings)."""

from __future__ import annotations

from pyradice_lab.engine.reportplayers import ReportPlayer

__all__ = ["REPORT_PLAYERS"]

#: ``ladder("toygame", ["random", "hold_at:20", "optimal"], players=2, games=2000, rng=48)``: 6,000 games, 4 CPU s
REPORT_PLAYERS = {
    2: ReportPlayer("optimal", ladder_date="2026-12-06", games=6000,
                    ratings={"optimal": (104, 94, 114), "hold_at:20": (75, 65, 84), "random": (-179, -191, -166)},
                    command='ladder("toygame", ["random", "hold_at:20", "optimal"], players=2, games=2000, rng=48)',
                    setup="2 players, a race to 50"),
}
