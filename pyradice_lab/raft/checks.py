"""Rocking Raft's robustness checks: the report's findings re-checked on plausible card decks.

The lifeboat cards and gem counts are partly reconstructed (:mod:`pyradice_lab.raft.components`); the full
report re-checks (:mod:`pyradice_lab.design.checks`) with :data:`CHECKS`:

- the start-player findings (``raft_start_player``): ``start_player_win`` against the fair share 1/p, 2-4
  players, standard and sinking variants;
- the lifeboat pay (``raft_card_fairness``: a size's points per own turn held minus the deck's;
  ``raft_strong_play``: the largest lifeboats minus the smallest): ``boat_pay_excess:K`` / ``boat_pay_spread``
  against 0, greedy and exact players (one run per player serves both experiments: the checks share a key);
- the findings that compare two versions of the game (:class:`~pyradice_lab.engine.checkspec.PairedCheck`): the
  black gems (``raft_gem_mix``: 6 instead of 0) and the flag depth (``raft_flag_depth``: under 30 instead of 5
  cards); every set plays the same games twice and the metric is the paired difference of the rounds.

The strong-play page (``raft_strong_play``) is no longer in the report (its findings are now the component
pages' own, measured with exact): its checks stay declared, for the experiment script, and the report does not
run them (:attr:`~pyradice_lab.engine.checkspec.GameChecks.not_in_report`).
"""

from __future__ import annotations

import functools

from ..engine.checkspec import Check, GameChecks, PairedCheck

__all__ = ["CHECKS", "GAMES", "COMPONENT_GAMES", "PAIRED_GAMES", "REPORT_PLAYER_GAMES"]

#: games per card deck (sized so that the checks fit the full report's 5-minute budget)
GAMES = 400
#: games per card deck of the lifeboat-pay checks, by key
COMPONENT_GAMES = {"raft boat pay greedy": 600, "raft boat pay exact": 150}
#: games per card deck and run of the paired checks (each deck plays them twice: variant and reference)
PAIRED_GAMES = {"raft_gem_mix": 300, "raft_flag_depth": 250}
#: games per card deck of the checks re-run with the report player (``exact``; see
#: :attr:`~pyradice_lab.engine.checkspec.GameChecks.report_player_games` and docs/guide/designer.md)
REPORT_PLAYER_GAMES = {"raft start 2p standard": 100, "raft start 2p sinking": 100, "raft start 3p standard": 60,
                       "raft start 3p sinking": 60, "raft start 4p standard": 30, "raft start 4p sinking": 30,
                       "raft boat pay greedy": 100, "raft gem mix 3p": 60, "raft flag depth 3p": 60}


def _raft_black_gems(comp, *, players: int, black: int):
    """Rocking Raft components with ``black`` black gems in play at ``players`` players, the ordinary gems as
    in ``comp`` (as the gem-mix experiment changes them)."""
    counts = list(comp.gems.in_play(players))
    return comp.with_gems(players, counts[:-1] + [int(black)])


def _checks() -> tuple:
    out: list = [Check(f"raft start {p}p {variant}", "raft", "raft_start_player",
                       rf"start player's win share, {p} players, {variant}", "start_player_win", 1 / p, p,
                       "greedy", "greedy", {"variant": variant})
                 for p in (2, 3, 4) for variant in ("standard", "sinking")]
    boats = ("boat_pay_excess:2", "boat_pay_excess:3", "boat_pay_excess:4", "boat_pay_spread")
    raft = {"variant": "standard", "card_columns": True}
    for pol in ("greedy", "exact"):  # one run per policy serves both experiments (same key)
        if pol == "greedy":
            out.append(Check("raft boat pay greedy", "raft", "raft_card_fairness",
                             r"points per own turn held, (?P<size>\d+)-slot lifeboats against the deck's [0-9.]+, "
                             r"3 players", "boat_pay_excess:{size}", 0.0, 3, pol, pol, raft, family=boats,
                             games=COMPONENT_GAMES["raft boat pay greedy"]))
        out.append(Check(f"raft boat pay {pol}", "raft", "raft_strong_play",
                         r"points per own turn held, largest lifeboats against the smallest, 3 players", "boat_pay_spread",
                         0.0, 3, pol, pol, raft, family=boats, games=COMPONENT_GAMES[f"raft boat pay {pol}"]))
    gems = {b: functools.partial(_raft_black_gems, players=3, black=b) for b in (0, 6)}
    for exp, pattern in (("raft_gem_mix", r"rounds with 6 instead of 0 black gems, 3 players"),
                         ("raft_strong_play", r"rounds with 6 black instead of 0 black gems, 3 players")):
        out.append(PairedCheck("raft gem mix 3p", "raft", exp, pattern, "rounds", 0.0, 3, "greedy", "greedy",
                               note="paired: every set with 6 and with 0 black gems", variant=gems[6],
                               reference=gems[0], games=PAIRED_GAMES["raft_gem_mix"]))
    out.append(PairedCheck("raft flag depth 3p", "raft", "raft_flag_depth",
                           r"rounds with the flag under 30 instead of 5 cards, 3 players", "rounds", 0.0, 3, "greedy",
                           "greedy", note="paired: every set with the flag under 30 and under 5 cards",
                           variant_options={"flag_depth": 30}, reference_options={"flag_depth": 5},
                           games=PAIRED_GAMES["raft_flag_depth"]))
    return tuple(out)


#: Rocking Raft's checks (the contract part ``checks``)
CHECKS = GameChecks(checks=_checks(), games=GAMES, what="card decks", report_player_games=REPORT_PLAYER_GAMES,
                    not_in_report=("raft_strong_play",))
