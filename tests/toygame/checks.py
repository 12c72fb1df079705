"""The toy race's robustness check (the contract part ``checks``): the start player's edge re-checked on plausible
targets (the target is the one reconstructed value; :func:`.components.sample_plausible`)."""

from __future__ import annotations

from pyradice_lab.engine.checkspec import Check, GameChecks

__all__ = ["CHECKS"]

#: the report's start-player finding (``toygame_start_player``), optimal players, on plausible targets
CHECKS = GameChecks(
    checks=(Check("toygame start 2p", "toygame", "toygame_start_player", r"start-player win share",
                  "start_player_win", 0.5, 2, "optimal", "optimal"),),
    games=400, what="targets")
