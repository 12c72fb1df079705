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

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

__all__ = ["NoLever", "ProposalBudget", "Lever", "GameLevers", "Range", "ranges_text", "component_source", "RANGE_KINDS"]


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


#: how a :class:`Range`'s integer sets the component value it moves
RANGE_KINDS = {"set": "the value itself (one integer; several comma-joined paths move together)",
               "index": "element ``index`` of a list value (a tile's high or low value)",
               "scale": "a list value scaled to ``v`` percent of its packaged value, rounded (a scoring table)",
               "transfer": "``v`` moved from element 0 to the last element of a list value, the total kept (a deal)",
               "steps": "``v`` one-point steps spread over the comma-joined paths from their packaged values, one path "
                        "a step (up: the lowest packaged value first; down: the highest first), every path once a "
                        "lap: ``len(paths)`` steps move them all one point, so they keep their order (a whole size "
                        "of cards, a card-point at a time)"}


@dataclass(frozen=True)
class Range:
    """One integer a proposal may move, with its legal range and natural step: ``low..high`` by ``step``.

    ``path`` is a component path (several comma-joined paths are moved together: a group of cards); ``kind`` how
    the integer sets the value (:data:`RANGE_KINDS`: the value itself, one element ``index`` of a list, a list
    scaled to that percentage, or a transfer between the first and the last element); ``label`` names it for a
    person ("tile 12 high value").  Every value of the range must be legal for the component on its own (the
    game's component checks may still refuse a combination, e.g. values that are not highest first: such a
    candidate is skipped, never played).

    >>> r = Range("tile.12.values", 8, 14, kind="index", index=0, label="tile 12 high value")
    >>> r.values(), r.apply([11, 6, 3], 9)
    ([8, 9, 10, 11, 12, 13, 14], [9, 6, 3])
    >>> Range("deal_2p.value", -2, 2, kind="transfer").apply([26, 25], 1)
    [25, 26]

    A ``"steps"`` range moves its paths a point at a time from their packaged values (:meth:`moved`), the lowest
    first going up and the highest first going down; :attr:`lap` steps move every path one point.  ``effect`` says
    how raising the range moves the finding's metric (+1 up, -1 down, 0 unknown): a joint search told on which
    side the target lies tries the moves toward it first (:func:`pyradice_lab.design._balance_joint.joint_candidates`).

    >>> w = Range("card.1.points,card.2.points,card.3.points", -2, 6, kind="steps")
    >>> packaged = {"card.1.points": 2, "card.2.points": 1, "card.3.points": 1}
    >>> w.lap, w.moved(packaged, 2), w.moved(packaged, 4), w.moved(packaged, -1)
    (3, {'card.1.points': 2, 'card.2.points': 2, 'card.3.points': 2}, {'card.1.points': 3, 'card.2.points': 3, 'card.3.points': 2}, {'card.1.points': 1, 'card.2.points': 1, 'card.3.points': 1})
    >>> w.current({"card.1.points": 3, "card.2.points": 3, "card.3.points": 2}, packaged)
    4
    """

    path: str
    low: int
    high: int
    step: int = 1
    kind: str = "set"
    index: int = 0
    label: str = ""
    effect: int = 0
    #: an ``"index"`` range of a list that must stay non-decreasing (a table of points by level or count): a joint
    #: candidate that breaks the order is left out before any game is played
    monotone: bool = False

    def __post_init__(self):
        for name in ("low", "high", "step", "index", "effect"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int):
                raise TypeError(f"Range.{name} must be an integer, got {v!r}")
        if self.low > self.high or self.step < 1:
            raise ValueError(f"Range {self.path!r}: needs low <= high and step >= 1, got {self.low}..{self.high} "
                             f"by {self.step}")
        if self.kind not in RANGE_KINDS:
            raise ValueError(f"Range.kind must be one of {', '.join(RANGE_KINDS)}, got {self.kind!r}")
        if not isinstance(self.monotone, bool):
            raise TypeError(f"Range.monotone must be True or False, got {self.monotone!r}")
        if self.effect not in (-1, 0, 1):
            raise ValueError(f"Range.effect must be -1, 0 or 1, got {self.effect!r}")

    @property
    def paths(self) -> list[str]:
        return [p.strip() for p in self.path.split(",") if p.strip()]

    def values(self) -> list[int]:
        """The legal values, ``low..high`` by ``step``."""
        return list(range(self.low, self.high + 1, self.step))

    @property
    def lap(self) -> int:
        """The steps that move every path once (a ``"steps"`` range: its number of paths; else one step)."""
        return len(self.paths) if self.kind == "steps" else self.step

    def moved(self, packaged: Mapping, v: int) -> dict:
        """A ``"steps"`` range at ``v``: the value of each of its paths, from ``packaged`` (path -> value)."""
        up = 1 if v >= 0 else -1
        order = sorted(self.paths, key=lambda p: (up * int(packaged[p]), self.paths.index(p)))
        if not order:
            return {}
        laps, rest = divmod(abs(int(v)), len(order))
        out = {p: int(packaged[p]) + up * (laps + (i < rest)) for i, p in enumerate(order)}
        return {p: out[p] for p in self.paths}

    def current(self, value, packaged=None) -> int:
        """The range's integer for the component's ``value`` (``packaged``: the list a scale refers to; a
        ``"steps"`` range: ``value`` and ``packaged`` map each of its paths to a value, and the integer is the
        points its paths moved in all)."""
        if self.kind == "steps":
            return sum(int(value[p]) - int((packaged or value)[p]) for p in self.paths)
        if self.kind == "set":
            return int(value)
        if self.kind == "index":
            return int(value[self.index])
        if self.kind == "transfer":
            return int((packaged or value)[0]) - int(value[0])
        if packaged is not None:   # a scale: the percentage of ``packaged`` nearest 100 that gives ``value``
            want = [int(x) for x in value]
            hits = [v for v in self.values() if self.apply(packaged, v, packaged=packaged) == want]
            if hits:
                return min(hits, key=lambda v: (abs(v - 100), v))
        return 100

    def apply(self, value, v: int, packaged=None):
        """The component value with the range at ``v`` (``packaged``: the list a scale refers to)."""
        if self.kind == "set":
            return int(v)
        if self.kind == "steps":
            raise ValueError("a 'steps' range moves several paths at once: use Range.moved")
        out = [int(x) for x in value]
        if self.kind == "index":
            out[self.index] = int(v)
        elif self.kind == "transfer":
            out[0] -= int(v)
            out[-1] += int(v)
        else:
            out = [int(round(x * v / 100)) for x in (packaged or value)]
        return out

    def text(self) -> str:
        step = f" by {self.step}" if self.step != 1 else ""
        unit = "%" if self.kind == "scale" else ""
        return f"{self.label or self.path} {self.low}{unit}..{self.high}{unit}{step}"


#: a range label of the first ``k`` of a group's ``n`` (``"cards 3-4 points (2 of the 3 at 4)"``)
_NESTED = re.compile(r"(.+) \((\d+) of the (\d+) (.+)\)")


def ranges_text(ranges) -> str:
    """The :meth:`Range.text` of every range, joined by "; ", the ranges of one group (labels ``"<word> <number>
    <rest>"`` with the same word, rest, bounds, step and kind: one card each) named once with their numbers as
    ranges, in the order of the group's first range (a joint search over 18 single cards reads as three groups,
    not 18 ranges).

    Ranges labelled ``"... (k of the n ...)"`` for several ``k`` (the first ``k`` cards of a group moved
    together) are named once, by the widest:

    >>> ranges_text([Range("card.3.points", 1, 7, label="card 3 points (1 of the 3 at 4)"),
    ...              Range("card.3.points,card.4.points", 1, 7, label="cards 3-4 points (2 of the 3 at 4)")])
    'cards 3-4 points (the first 1 to 2 of the 3 at 4) 1..7'
    >>> ranges_text([Range("card.7.points", 1, 4, label="card 7 points"),
    ...              Range("card.8.points", 1, 4, label="card 8 points"),
    ...              Range("card.1.points", 1, 5, label="card 1 points"),
    ...              Range("card.9.points", 1, 4, label="card 9 points"),
    ...              Range("tile.12.values", 6, 17, kind="index", label="tile 12 high value")])
    'card 7-9 points 1..4 each; card 1 points 1..5; tile 12 high value 6..17'
    """
    groups: dict[tuple, list] = {}
    for r in ranges:
        nested = _NESTED.fullmatch(r.label or "")
        if nested:  # "the first k of the n ..." for k = 1, 2, ...: named once
            key = ("nested", nested.group(3), nested.group(4), r.low, r.high, r.step, r.kind)
            groups.setdefault(key, []).append((int(nested.group(2)), r))
            continue
        m = re.fullmatch(r"(\w+) (\d+) (.+)", r.label or "")
        key = (m.group(1), m.group(3), r.low, r.high, r.step, r.kind) if m else (id(r),)
        groups.setdefault(key, []).append((int(m.group(2)) if m else None, r))
    out = []
    for key, members in groups.items():
        first = members[0][1]
        if len(members) == 1:
            out.append(first.text())
            continue
        if key[0] == "nested":
            ks = sorted(k for k, _ in members)
            last = max(members, key=lambda m: m[0])[1]
            head = _NESTED.fullmatch(last.label).group(1)
            out.append(f"{head} (the first {ks[0]} to {ks[-1]} of the {key[1]} {key[2]}) "
                       + first.text()[len(first.label) + 1:])
            continue
        ids = sorted({n for n, _ in members})
        runs, start = [], ids[0]
        for a, b in zip(ids, ids[1:] + [None]):
            if b != a + 1:
                runs.append(str(start) if start == a else f"{start}-{a}")
                start = b
        out.append(f"{key[0]} {','.join(runs)} {key[1]} " + first.text()[len(first.label) + 1:] + " each")
    return "; ".join(out)


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
    ``axes(components, argument, finding)``: the same as :class:`Range` objects a joint search moves, the
    finding's own first (``own`` of them), then its neighbours (another tile, another card group), or None.
    ``in_play``: the metric (a template filled with ``{arg}``, the metric's argument) that says how much the
    players use the component (pieces committed, cards completed): a proposal must keep it within
    :attr:`GameLevers.in_play_fraction` of its packaged value; "" = no such guard.
    ``win``: the objective about winning the lever may target instead (``balance --finding ID --objective-kind
    win``): a metric (a template filled with ``{arg}``) of restricted play whose target 0 says the component is worth
    the others' mean to winning (Meerkat ``commit_win_excess:{arg}``); "" = none.  The finding's direction is
    about its own metric, so for it the lever's values are tried both ways.
    ``report_kind``: the objective the report's proposals for this lever's findings target, ``"pay"`` (the
    finding's own metric at its null, the default) or ``"win"`` (:attr:`win` at 0; the game's measurements say the
    finding's own metric is not one a change of these components can honestly meet), and ``report_why``: the
    reason, with its numbers, stated in the report and the proposal file (required with ``"win"``).
    ``win_grid(components, argument, finding)``: the candidates of the objective about winning, ``(parameters,
    text)`` as :attr:`propose` gives them; None: :attr:`propose`'s values both ways.
    """

    metric: str
    propose: Callable[..., tuple]
    ranges: str = ""
    by_players: bool = False
    axes: Callable[..., tuple] | None = None
    in_play: str = ""
    win: str = ""
    report_kind: str = "pay"
    report_why: str = ""
    win_grid: Callable[..., tuple] | None = None

    def __post_init__(self):
        if self.report_kind not in ("pay", "win"):
            raise ValueError(f"Lever.report_kind must be 'pay' or 'win', got {self.report_kind!r}")
        if self.report_kind == "win" and not (self.win and self.report_why.strip()):
            raise ValueError(f"Lever {self.metric!r}: report_kind 'win' needs the win metric (Lever.win) and the "
                             "reason (Lever.report_why)")

    def ranges_of(self, components, argument, finding) -> tuple[tuple[Range, ...], int]:
        """``(ranges, own)``: the :class:`Range` objects of :attr:`axes` and how many of them are the finding's
        own lever (the first ``own``); ``((), 0)`` when the lever declares none."""
        if self.axes is None:
            return (), 0
        out = self.axes(components, argument, finding)
        ranges, own = (out if len(out) == 2 and isinstance(out[1], int) else (tuple(out), len(out)))
        return tuple(ranges), int(own)

    def __call__(self, components, argument, finding) -> tuple:
        return self.propose(components, argument, finding)


@dataclass(frozen=True)
class GameLevers:
    """A game's balance levers (its ``levers.LEVERS``): ``levers`` (metric name -> :class:`Lever`), ``budget``
    (the games one proposal plays, :class:`ProposalBudget`), ``player_budgets`` (player count -> budget, where one
    count costs far more than the others) and ``examples`` (designer subcommand, ``"balance"`` or
    ``"robustness"`` -> its example arguments in ``--help``; tests/test_cli_help.py runs each) and
    ``in_play_fraction`` (a proposal is refused when the component's :attr:`Lever.in_play` metric falls below this
    fraction of its packaged value: the objective won by making the component unattractive).

    Where the report player is too dear for a search that can pick right (a proposal needs thousands of games per
    candidate when one step moves the metric by a few hundredths), ``search_player`` (a cheaper player of the
    game, "" = none) plays the report's proposal searches, the report player then judging the pick on fresh seeds
    (the verification and the guards), within ``search_budget`` (None: ``budget``)."""

    levers: Mapping[str, Lever]
    budget: ProposalBudget
    player_budgets: Mapping[int, ProposalBudget] = field(default_factory=dict)
    examples: Mapping[str, str] = field(default_factory=dict)
    in_play_fraction: float = 0.5
    search_budget: ProposalBudget | None = None
    search_player: str = ""

    def __post_init__(self):
        for name, lever in self.levers.items():
            if not isinstance(lever, Lever) or lever.metric != name:
                raise ValueError(f"levers must map a metric name to its Lever, got {name!r}: {lever!r}")
        for b in (self.budget, *self.player_budgets.values(), *([self.search_budget] if self.search_budget else [])):
            if not isinstance(b, ProposalBudget):
                raise TypeError(f"budget must be a ProposalBudget, got {type(b).__name__}")

    def lever(self, metric: str) -> Lever | None:
        """The lever of ``metric`` (``"name"`` or ``"name:argument"``), or None."""
        return self.levers.get(metric.partition(":")[0])

    def budget_for(self, players: int, cheap: bool = False) -> ProposalBudget:
        """The budget of one proposal at ``players`` players (:attr:`player_budgets`, else :attr:`budget`); ``cheap``:
        its search played by :attr:`search_player`, :attr:`search_budget` when the game declares one."""
        if cheap and self.search_budget is not None:
            return self.search_budget
        return self.player_budgets.get(int(players), self.budget)
