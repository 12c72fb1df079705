"""Meerkat Kingdom's robustness checks: the report's findings re-checked on plausible tile sets.

The tile values and bag contents are partly reconstructed (:mod:`pyradice_lab.meerkat.components`); the full
report re-checks (:mod:`pyradice_lab.design.checks`) with :data:`CHECKS`:

- the start-player findings (``meerkat_seat_advantage``): ``start_player_edge`` (the start player's win share
  against the other players' mean) against 0, for 2 players + automa, 3 and 4 players and 2 players without it;
- the tile pay (``meerkat_tile_fairness``, ``meerkat_strong_play``: a tile's points per piece committed against
  the board mean): ``tile_pay_excess:T`` against 0, every tile measured on the same games (the finding names the
  tile the experiment picked);
- the blue bags (``meerkat_hazards``, a :class:`~pyradice_lab.engine.checkspec.PairedCheck` per count): every
  set plays the same games with 1 (or 3) of each blue token and with its own bags, and the metric is the paired
  difference of the hazards per game.

The expectimax restatement of the tile pay (Meerkat's strong-play page) is no longer in the report (the tile
page measures it with the report player): its check stays declared and the report does not run it
(:attr:`~pyradice_lab.engine.checkspec.GameChecks.not_run`).
"""

from __future__ import annotations

from ..engine.checkspec import Check, GameChecks, PairedCheck

__all__ = ["CHECKS", "GAMES", "COMPONENT_GAMES", "PAIRED_GAMES", "REPORT_PLAYER_GAMES"]

#: games per tile set (sized so that the checks fit the full report's 5-minute budget)
GAMES = 1500
#: games per tile set of the tile-pay checks, by key
COMPONENT_GAMES = {"meerkat tile pay greedy": 2000, "meerkat tile pay expectimax": 400}
#: games per tile set and run of the paired checks (each set plays them twice: variant and its own bags)
PAIRED_GAMES = {"meerkat_hazards": 1000}
#: games per tile set of the checks re-run with the report player (``mcts_v2``; see
#: :attr:`~pyradice_lab.engine.checkspec.GameChecks.report_player_games` and docs/guide/designer.md)
REPORT_PLAYER_GAMES = {"meerkat start 2p + automa": 150, "meerkat start 3p": 100, "meerkat start 4p": 50,
                       "meerkat tile pay greedy": 100}


def _checks() -> tuple:
    import re

    from .components import default_components
    from .sim import setup_label

    out: list = []
    for p, automa in ((2, True), (3, False), (4, False), (2, False)):
        label = setup_label(p, automa)
        out.append(Check(f"meerkat start {label}", "meerkat", "meerkat_seat_advantage",
                         re.escape(f"start player's win share against the other players' mean, {label}"),
                         "start_player_edge", 0.0, p, "greedy", "greedy", {"automa": automa, "engine": "numba"}))
    tiles = tuple(f"tile_pay_excess:{t}" for t in range(3, 13))
    meerkat = {"automa": False, "engine": "numba"}
    out += [Check("meerkat tile pay greedy", "meerkat", "meerkat_tile_fairness",
                  r"points paid per piece committed, tile (?P<tile>\d+) \([^)]*\)", "tile_pay_excess:{tile}", 0.0, 3,
                  "greedy", "greedy", meerkat, "3 players", family=tiles,
                  games=COMPONENT_GAMES["meerkat tile pay greedy"]),
            Check("meerkat tile pay expectimax", "meerkat", "meerkat_strong_play",
                  r"points per piece, tile (?P<tile>\d+) \([^)]*\)", "tile_pay_excess:{tile}", 0.0, 3,
                  "expectimax", "expectimax", meerkat, "3 players", family=tiles,
                  games=COMPONENT_GAMES["meerkat tile pay expectimax"])]
    blue = [e for e, _ in default_components().blue]
    for k in (1, 3):
        out.append(PairedCheck(f"meerkat hazards blue {k}", "meerkat", "meerkat_hazards",
                               rf"hazards per game with {k} of each blue token instead of the default \d+",
                               "hazards_per_game", 0.0, 3, "greedy", "greedy", {"engine": "numba"},
                               note=f"paired: every set with {k} of each blue token and with its own bags",
                               variant={f"blue.{e}.copies": k for e in blue}, games=PAIRED_GAMES["meerkat_hazards"]))
    return tuple(out)


#: Meerkat Kingdom's checks (the contract part ``checks``)
CHECKS = GameChecks(checks=_checks(), games=GAMES, what="tile sets", report_player_games=REPORT_PLAYER_GAMES,
                    not_run=("meerkat tile pay expectimax",))
