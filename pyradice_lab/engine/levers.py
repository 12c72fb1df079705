"""The balance levers a game declares (its contract part ``levers``): what a proposal may move, and how far.

A game's ``levers`` module declares ``LEVERS``, a :class:`GameLevers`: for every designer metric a proposal can
bring to its null value, a :class:`Lever` (the function that turns a finding into candidate component paths and
values, within the legal ranges and natural steps its ``ranges`` text states), the games one proposal of the game
may play (:class:`ProposalBudget`, per player count where one costs more) and the example arguments of the
game's ``balance`` / ``robustness`` subcommands.  :mod:`pyradice_lab.design.proposals` reads it through the
registry (``registry.get_game(name).part("levers")``) and never names a game.

These types live in the engine because a game may import only the engine.

Examples
--------
>>> from pyradice_lab.engine.levers import GameLevers, Lever, ProposalBudget
>>> budget = ProposalBudget(search=100, first=10, verify=50, recheck=0)
>>> budget.games
200
>>> lever = Lever("score_excess", lambda comp, arg, finding: ({"die.points": [1, 2]}, "die points", False),
...               "die points 1 or 2")
>>> levers = GameLevers({"score_excess": lever}, budget=budget)
>>> levers.lever("score_excess:3") is lever, levers.lever("start_player_win"), levers.budget_for(4) is budget
(True, None, True)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

__all__ = ["NoLever", "ProposalBudget", "Lever", "GameLevers", "component_source"]


class NoLever(Exception):
    """A finding's metric has no lever a proposal may move (the reason is the message), e.g. the values the rules
    state."""


def component_source(comp, path: str) -> str:
    """The ``source`` of the table holding component ``path`` ("rules", "reconstruction", "designer"; "" if none):
    a lever never moves a value the rules or the designer's file state."""
    head = path.rsplit(".", 1)[0]
    for p in (f"{head}.source", f"{path}_source"):
        try:
            s = comp.get(p)
        except Exception:  # noqa: BLE001 - a path without a source
            continue
        if isinstance(s, str):
            return s
    return ""


@dataclass(frozen=True)
class ProposalBudget:
    """The games one proposal plays: ``search`` (``balance``'s hard cap), ``first`` (per candidate in its first
    round), ``verify`` (each of the two verification runs on fresh seeds), ``recheck`` (each side of the paired
    re-check run).  :attr:`games` is the most it can play in all."""

    search: int
    first: int
    verify: int
    recheck: int

    @property
    def games(self) -> int:
        return self.search + 2 * self.verify + 2 * self.recheck


@dataclass(frozen=True)
class Lever:
    """How a proposal may move the components behind one designer metric.

    ``metric``: the metric's name (before any ``:argument``, e.g. ``"tile_pay_excess"``).  ``propose(components,
    argument, finding)`` returns ``(parameters, text, rule_change[, game_kwargs])`` or raises :class:`NoLever`:
    ``parameters`` maps a component path (or several, comma-separated, moved together) to the candidate values
    (the packaged value among them), ``text`` says what moves and how far (the proposal's lever column),
    ``rule_change`` whether the values are stated by the rules (a start-player compensation), ``game_kwargs``
    simulation options the lever adds (a line-up).  ``argument`` is the metric's argument (``"12"`` of
    ``tile_pay_excess:12``), or the finding's player count when :attr:`by_players` (a start-player metric).
    ``ranges``: the legal ranges and natural steps, in one line (the designer guide's table of levers).
    """

    metric: str
    propose: Callable[..., tuple]
    ranges: str = ""
    by_players: bool = False

    def __call__(self, components, argument, finding) -> tuple:
        return self.propose(components, argument, finding)


@dataclass(frozen=True)
class GameLevers:
    """A game's balance levers (its ``levers.LEVERS``): ``levers`` (metric name -> :class:`Lever`), ``budget``
    (the games one proposal plays, :class:`ProposalBudget`), ``player_budgets`` (player count -> budget, where one
    count costs far more than the others) and ``examples`` (designer subcommand, ``"balance"`` or
    ``"robustness"`` -> its example arguments in ``--help``; tests/test_cli_help.py runs each)."""

    levers: Mapping[str, Lever]
    budget: ProposalBudget
    player_budgets: Mapping[int, ProposalBudget] = field(default_factory=dict)
    examples: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self):
        for name, lever in self.levers.items():
            if not isinstance(lever, Lever) or lever.metric != name:
                raise ValueError(f"levers must map a metric name to its Lever, got {name!r}: {lever!r}")
        for b in (self.budget, *self.player_budgets.values()):
            if not isinstance(b, ProposalBudget):
                raise TypeError(f"budget must be a ProposalBudget, got {type(b).__name__}")

    def lever(self, metric: str) -> Lever | None:
        """The lever of ``metric`` (``"name"`` or ``"name:argument"``), or None."""
        return self.levers.get(metric.partition(":")[0])

    def budget_for(self, players: int) -> ProposalBudget:
        """The budget of one proposal at ``players`` players (:attr:`player_budgets`, else :attr:`budget`)."""
        return self.player_budgets.get(int(players), self.budget)
