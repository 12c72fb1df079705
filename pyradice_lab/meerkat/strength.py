"""Meerkat Kingdom's report player per player count (the contract part ``report_players``,
:mod:`pyradice_lab.engine.reportplayers`; issue 48).

``mcts_v2`` at every count.  At 2 players the report measures the rules' 2-player game, 2 players + the automa, and
the ladder over the field there (``game_kwargs={"automa": True}``) puts ``mcts_v2`` clearly on top, above
``mcts_v1``.  Issue 48's ladder that ranked it third of four (``ladder(..., players=2)``) played 2 players *without*
the automa, an extension the rules do not describe: there the tuned players lose to the untuned ones
(``expectimax_v2`` wins 37.0% [34.9%, 39.1%] of 2,000 games against ``expectimax`` without the automa and 74.8%
[72.9%, 76.7%] with it; ``heuristic_v2`` 36.5% and 73.2%): ``burrow_cost`` was tuned with the automa at the table
(docs/guide/meerkat.md, "The tuned players").  The report's one finding in that extension (the start player's edge,
"2p, no automa") carries the note.
"""

from __future__ import annotations

from ..engine.reportplayers import ReportPlayer

__all__ = ["REPORT_PLAYERS"]

_CMD = "python experiments/research/report_player_ladders.py meerkat {p} greedy,expectimax,mcts_v1,mcts_v2 {games} {seed}"

#: measured on 2026-12-06 (issue 48), packaged components; ratings: Elo scale, mean 0, 95% CIs
REPORT_PLAYERS = {
    2: ReportPlayer("mcts_v2", ladder_date="2026-12-06", games=1800,
                    ratings={"mcts_v2": (267, 236, 299), "mcts_v1": (99, 75, 123), "expectimax": (-101, -125, -77),
                             "greedy": (-265, -296, -234)},
                    command=_CMD.format(p=2, games=300, seed=48) + " automa",
                    setup="2 players + the automa (the rules' 2-player game)",
                    margin_note="In 2 players without the automa (an extension) the report player mcts_v2 is not the "
                                "strongest: tuned with the automa at the table, it ranks last of four there (ladder "
                                "of 2026-12-06, 900 games: mcts_v1 +141 [108, 174], mcts_v2 -64 [-93, -35]; issue "
                                "48's 2,700 games: third, -51 [-63, -39])",
                    note_findings=r"no automa"),
    3: ReportPlayer("mcts_v2", ladder_date="2026-12-06", games=960,
                    ratings={"mcts_v2": (80, 59, 102), "mcts_v1": (34, 15, 53), "expectimax": (-13, -29, 4),
                             "greedy": (-102, -120, -84)},
                    command=_CMD.format(p=3, games=240, seed=50), setup="3 players"),
    4: ReportPlayer("mcts_v2", source="not re-measured by a ladder at 4 players: the 3-player ladder's top (above) and "
                                      "docs/guide/meerkat.md, 'The tuned players' (3-player lineups)",
                    setup="4 players"),
}
