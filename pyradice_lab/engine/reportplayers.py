"""The report player per player count: the contract part ``report_players`` (a game's ``strength.py``).

Every finding a designer may act on is measured with the game's *report player*, the strongest player affordable
at report scale.  Strength need not be the same at every player count (nor transitive: issue 48), so a game
declares, in its own package, one :class:`ReportPlayer` per player count, chosen by a Bradley-Terry ladder over the
field (:func:`pyradice_lab.design.strength.ladder`) and stored with the ladder's date, games, ratings with their 95%
CIs and the command that measured it::

    # <game>/strength.py
    REPORT_PLAYERS = {2: ReportPlayer("mcts_v1", ladder_date="2026-12-06", games=1800,
                                      ratings={"mcts_v1": (147, 133, 160), "greedy": (-69, -81, -57)},
                                      command="python experiments/research/report_player_ladders.py ...")}

The registry reads it with ``spec.report_player_at(players)`` (the name) and ``spec.report_player_entry(players)``
(the entry, or None); a count the game does not declare, and a game without ``strength.py``, get the registry's
``report_player`` (``spec.report_player``, the player at the game's ``default_players``).  An entry without
``ratings`` records a player that was not re-measured by a ladder (``source`` says where its evidence is).
``margin_note`` is said beside every finding measured with the player (e.g. a strong player barely above the
heuristic, whose findings are then close to heuristic findings).

This module imports nothing beyond the standard library: a game's ``strength.py`` stays cheap to import.

>>> e = ReportPlayer("b", ladder_date="2026-12-06", games=900, ratings={"a": (-10, -30, 10), "b": (10, -10, 30)},
...                  command="ladder")
>>> e.top, e.within_top(), e.line()
('b', True, 'b: the top of a ladder of 2 (2026-12-06, 900 games; rating +10 [-10, +30], next a -10 [-30, +10])')
>>> ReportPlayer("c", ratings={"a": (0, -1, 1)})
Traceback (most recent call last):
...
ValueError: ratings must rate the report player 'c' (rated: ['a'])
"""

from __future__ import annotations

import numbers
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

__all__ = ["ReportPlayer", "coerce_report_players", "with_margin_notes"]


def _num(x) -> bool:
    return isinstance(x, numbers.Real) and not isinstance(x, bool)


@dataclass(frozen=True)
class ReportPlayer:
    """The report player at one player count and the ladder that chose it.

    Attributes
    ----------
    name : str
        The player (a policy name the game's simulator accepts).
    ladder_date : str
        The day of the ladder (``YYYY-MM-DD``); empty: not re-measured (see ``source``).
    games : int
        Games of that ladder (0: none).
    ratings : mapping of policy -> (rating, ci_low, ci_high)
        Its Bradley-Terry ratings (Elo scale, mean 0) with 95% CIs, every policy of the field.
    command : str
        The command that measured them.
    setup : str
        The setup the ladder played, as the reading states it ("2 players + the automa").
    margin_note : str
        Said beside every finding measured with this player at this count (empty: nothing to say); see
        :func:`with_margin_notes`.
    source : str
        Where the evidence is when the entry was not re-measured (a guide section, a docs/results file).
    note_findings : str
        A regular expression: the margin note goes beside the findings measured with this player whose quantity
        matches it; empty: those naming the count (``"2 players"``, ``"2p"``, ``"2-player"``).
    """

    name: str
    ladder_date: str = ""
    games: int = 0
    ratings: Mapping[str, tuple[float, float, float]] = field(default_factory=dict)
    command: str = ""
    setup: str = ""
    margin_note: str = ""
    source: str = ""
    note_findings: str = ""

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name:
            raise ValueError(f"name must be a policy name, got {self.name!r}")
        for attr in ("ladder_date", "command", "setup", "margin_note", "source", "note_findings"):
            if not isinstance(getattr(self, attr), str):
                raise ValueError(f"{attr} must be a string, got {getattr(self, attr)!r}")
        try:
            re.compile(self.note_findings)
        except re.error as exc:
            raise ValueError(f"note_findings must be a regular expression, got {self.note_findings!r} ({exc})") from None
        if isinstance(self.games, bool) or not isinstance(self.games, int) or self.games < 0:
            raise ValueError(f"games must be a non-negative int, got {self.games!r}")
        if not isinstance(self.ratings, Mapping):
            raise ValueError(f"ratings must map policy -> (rating, ci_low, ci_high), got {self.ratings!r}")
        ratings = {}
        for p, r in self.ratings.items():
            if not (isinstance(r, (tuple, list)) and len(r) == 3 and all(_num(x) for x in r) and r[1] <= r[0] <= r[2]):
                raise ValueError(f"ratings[{p!r}] must be (rating, ci_low, ci_high) with ci_low <= rating <= ci_high, "
                                 f"got {r!r}")
            ratings[p] = tuple(float(x) for x in r)
        object.__setattr__(self, "ratings", ratings)
        if ratings and self.name not in ratings:
            raise ValueError(f"ratings must rate the report player {self.name!r} (rated: {sorted(ratings)})")
        if ratings and not (self.ladder_date and self.games and self.command):
            raise ValueError("a measured entry (ratings) must state its ladder_date, games and command")
        if not ratings and not self.source:
            raise ValueError("an entry without ratings must name its evidence (source)")

    @property
    def measured(self) -> bool:
        """Whether a ladder over the field, stored here, chose the player."""
        return bool(self.ratings)

    @property
    def top(self) -> str:
        """The policy with the highest rating (the name itself when nothing is rated)."""
        return max(self.ratings, key=lambda p: self.ratings[p][0]) if self.ratings else self.name

    def within_top(self) -> bool:
        """Whether the player is the ladder's top or its rating lies within the top's 95% CI (True unrated)."""
        if not self.ratings:
            return True
        return self.ratings[self.name][0] >= self.ratings[self.top][1]

    def line(self) -> str:
        """One sentence: the player, where it stands on its ladder, and the margin note."""
        if not self.ratings:
            s = f"{self.name}: not re-measured by a ladder over the field ({self.source})"
        else:
            order = sorted(self.ratings, key=lambda p: -self.ratings[p][0])
            r = self.ratings[self.name]
            where = ("the top" if order[0] == self.name else
                     f"within the top's CI ({order[0]} {self.ratings[order[0]][0]:+.0f})" if self.within_top() else
                     f"below the top's CI ({order[0]} {self.ratings[order[0]][0]:+.0f})")
            nxt = next((p for p in order if p != self.name), None)
            s = (f"{self.name}: {where} of a ladder of {len(order)} ({self.ladder_date}, {self.games:,} games; rating "
                 f"{r[0]:+.0f} [{r[1]:+.0f}, {r[2]:+.0f}]")
            if nxt is not None:
                n = self.ratings[nxt]
                s += f", next {nxt} {n[0]:+.0f} [{n[1]:+.0f}, {n[2]:+.0f}]"
            s += ")"
        return s + (f". {self.margin_note}" if self.margin_note else "")


def coerce_report_players(declared) -> dict[int, ReportPlayer]:
    """``declared`` (a game's ``REPORT_PLAYERS``) checked: a mapping of player count (int >= 1) -> :class:`ReportPlayer`.

    >>> coerce_report_players({2: ReportPlayer("x", source="the guide")})[2].name
    'x'
    >>> coerce_report_players({"2": ReportPlayer("x", source="the guide")})
    Traceback (most recent call last):
    ...
    ValueError: REPORT_PLAYERS must map player counts (int >= 1) to ReportPlayer, got '2': ReportPlayer
    """
    if not isinstance(declared, Mapping):
        raise ValueError(f"REPORT_PLAYERS must be a mapping of player count -> ReportPlayer, got {declared!r}")
    for k, v in declared.items():
        if isinstance(k, bool) or not isinstance(k, int) or k < 1 or not isinstance(v, ReportPlayer):
            raise ValueError(f"REPORT_PLAYERS must map player counts (int >= 1) to ReportPlayer, got {k!r}: "
                             f"{type(v).__name__}")
    return dict(declared)


def _plays(label: str, name: str) -> bool:
    """Whether a finding's ``player`` label names the player ``name`` (``"mcts_v2:2"`` names ``mcts_v2``)."""
    base = name.split(":")[0]
    return any(w.split(":")[0] == base for w in re.findall(r"[A-Za-z0-9_:.]+", label or ""))


def with_margin_notes(findings, entries) -> list:
    """``findings`` with the margin note of every entry of ``entries`` (count -> :class:`ReportPlayer`, a game's
    ``REPORT_PLAYERS``) added to the notes of the findings it concerns: measured with its player (the finding's
    ``player`` names it) at its count (the quantity matches ``note_findings``, by default it names the count).
    A note already there is not repeated.

    >>> from pyradice_lab.engine.findings import Finding
    >>> e = {2: ReportPlayer("exact", source="the guide", margin_note="Barely above greedy at 2 players.")}
    >>> fs = [Finding("estimate", f"points, {p} players", 1.0, 0.5, 1.5, 100, player="exact") for p in (2, 3)]
    >>> [f.notes for f in with_margin_notes(fs, e)]
    [('Barely above greedy at 2 players.',), ()]
    """
    noted = []
    for players, e in sorted(coerce_report_players(entries).items()):
        if e.margin_note:
            pattern = e.note_findings or rf"\b{players}(?: players\b|p\b|-player\b)"
            noted.append((e, re.compile(pattern)))
    out = []
    for f in findings:
        for e, pattern in noted:
            if e.margin_note not in f.notes and _plays(f.player, e.name) and pattern.search(f.quantity):
                f = f.with_context(notes=(*f.notes, e.margin_note))
        out.append(f)
    return out
