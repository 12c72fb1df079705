"""Pyradice's robustness checks: the report's findings re-checked on plausible card tables.

The card, goal and skill values are partly reconstructed (:mod:`pyradice_lab.pyradice.components`); the full
report re-checks (:mod:`pyradice_lab.design.checks`) with :data:`CHECKS`:

- the start-player findings (``pyradice_first_player``): ``start_player_win`` against the fair share 1/p,
  2-4 players;
- the objective cards (``pyradice_card_balance``: the strongest card's points per seat minus the weakest's,
  pooled over the experiment's three line-ups): ``card_points_difference:A-B`` against 0, every pair measured on
  the same games of the same three line-ups (the finding names the pair the experiment picked);
- the skill values (``pyradice_skill_values``, a :class:`~pyradice_lab.engine.checkspec.PairedCheck` per
  skill token): every set plays the same games with and without the token, and the metric is the paired
  difference of the mean score.
"""

from __future__ import annotations

from ..engine.checkspec import Check, GameChecks, PairedCheck

__all__ = ["CHECKS", "GAMES", "COMPONENT_GAMES", "PAIRED_GAMES", "REPORT_PLAYER_GAMES"]

#: games per card table (sized so that the checks fit the full report's 5-minute budget)
GAMES = 300
#: games per card table and line-up of the card check
COMPONENT_GAMES = {"pyradice card difference": 200}
#: games per card table and run of the paired checks (each table plays them twice: with and without the skill)
PAIRED_GAMES = {"pyradice_skill": 150}
#: games per card table of the checks re-run with the report player (``flat_mc``; see
#: :attr:`~pyradice_lab.engine.checkspec.GameChecks.report_player_games` and docs/guide/designer.md)
REPORT_PLAYER_GAMES = {"pyradice start 2p": 100, "pyradice start 3p": 40, "pyradice start 4p": 30,
                       "pyradice card difference": 60}


def _checks() -> tuple:
    import re

    from .analysis import CARD_GROUPS
    from .components import SKILL_LEVELS, Setup

    out: list = [Check(f"pyradice start {p}p", "pyradice", "pyradice_first_player",
                       rf"start player's win share, {p} players \(ties split\)", "start_player_win", 1 / p, p,
                       "greedy", "greedy") for p in (2, 3, 4)]
    cards = list(dict.fromkeys(c for g in CARD_GROUPS for c in g))
    out.append(Check("pyradice card difference", "pyradice", "pyradice_card_balance",
                     r"points per seat, strongest card \((?P<a>\w+)\) against the weakest \((?P<b>\w+)\)",
                     "card_points_difference:{a}-{b}", 0.0, 2, "greedy", "greedy",
                     note=f"over the experiment's {len(CARD_GROUPS)} card line-ups",
                     family=tuple(f"card_points_difference:{a}-{b}" for a in cards for b in cards if a != b),
                     runs=tuple({"setup": Setup(cards=tuple(g))} for g in CARD_GROUPS),
                     games=COMPONENT_GAMES["pyradice card difference"]))
    setup = Setup.default()
    for k, _lvl in enumerate(SKILL_LEVELS):   # "points per seat lost without the skill": with it minus without
        code = setup.skills[k]
        if code is None:
            continue
        skills = tuple(None if i == k else c for i, c in enumerate(setup.skills))
        without = Setup(skills, setup.goals, setup.cards, setup.discs, setup.components)
        name = setup.catalogue.skills[code].name
        out.append(PairedCheck(f"pyradice skill {code} {name}", "pyradice", "pyradice_skill_values",
                               re.escape(f"points per seat lost without skill token {code} {name}"),
                               "mean_score", 0.0, 2, "greedy", "greedy",
                               note=f"paired: every set with and without {code}", reference_options={"setup": without},
                               games=PAIRED_GAMES["pyradice_skill"]))
    return tuple(out)


#: Pyradice's checks (the contract part ``checks``)
CHECKS = GameChecks(checks=_checks(), games=GAMES, what="card tables", report_player_games=REPORT_PLAYER_GAMES)
