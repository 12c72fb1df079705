"""The ladders that choose a game's report player per player count (issue 48).

One Bradley-Terry ladder (:func:`pyradice_lab.design.strength.ladder`) over the field at one player count, every
seating, printed with its head-to-head table, the pairs whose head to head contradicts the ratings beyond their
CIs (``attrs["nontransitive"]``), the CPU it took, and the entry to store in the game's ``strength.py``
(:class:`pyradice_lab.engine.strength.ReportPlayer`) for the ladder's top.

Usage::

    python experiments/research/report_player_ladders.py GAME PLAYERS POLICIES GAMES SEED [automa]

``POLICIES`` comma-separated; ``GAMES`` per lineup; ``automa`` (Meerkat Kingdom) adds the automa to every game:
2 policies then play the rules' 2-player game (2 players + the automa) instead of 2 players alone.  E.g. the
Meerkat ladders of issue 48 (docs/guide/strength.md, "Report players per player count")::

    python experiments/research/report_player_ladders.py meerkat 2 greedy,expectimax,mcts_v1,mcts_v2 300 48 automa
"""

from __future__ import annotations

import sys
import time

import pandas as pd

from pyradice_lab.design.strength import ladder


def main(argv: list[str]) -> int:
    if len(argv) not in (5, 6) or (len(argv) == 6 and argv[5] != "automa"):
        print(__doc__.split("Usage::")[1].split("``POLICIES``")[0].strip(), file=sys.stderr)
        return 2
    game, players, pols, games, seed = argv[0], int(argv[1]), argv[2].split(","), int(argv[3]), int(argv[4])
    kwargs = {"automa": True} if len(argv) == 6 else None
    t0, w0 = time.process_time(), time.time()
    table = ladder(game, pols, players=players, games=games, rng=seed, game_kwargs=kwargs)
    cpu, wall = time.process_time() - t0, time.time() - w0
    a = table.attrs
    with pd.option_context("display.width", 200, "display.max_columns", 20):
        print(a["assumptions"].line())
        print(f"{game} ladder, players={players}{' + automa' if kwargs else ''}, {games} games per lineup, seed "
              f"{seed}: CPU {cpu:.0f} s, wall {wall:.0f} s")
        print(table.round(3).to_string(index=False))
        print("head to head:")
        print(a["head_to_head"].round(3).to_string(index=False))
        flagged = a["nontransitive"]
        print("non-transitive pairs:", "none" if flagged.empty else "")
        if not flagged.empty:
            print(flagged.round(3).to_string(index=False))
    top = table.iloc[0]
    ratings = ", ".join(f'"{r.policy}": ({r.rating:.0f}, {r.rating_ci_low:.0f}, {r.rating_ci_high:.0f})'
                        for r in table.itertuples())
    print(f'entry: {players}: ReportPlayer("{top.policy}", ladder_date="{time.strftime("%Y-%m-%d")}", '
          f'games={int(table["games"].sum() // players)}, ratings={{{ratings}}}, ...)')
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
