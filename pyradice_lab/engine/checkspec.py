"""The robustness checks a game declares for its findings: the contract part ``checks.CHECKS``.

A game's findings rest on components the rules do not publish; the full report re-checks the findings a designer
would act on, on plausible reconstructions of those components (:mod:`pyradice_lab.design.checks` runs them).
What to check is the game's own knowledge, so each game declares it in its ``checks`` module with the types of
this module (a game imports only the engine):

- :class:`Check`: a finding expressed as a designer metric against its null value, measured on every sampled
  component set with the same players and the same games (common random numbers);
- :class:`PairedCheck`: a finding that compares two versions of the game, measured as the paired difference
  on every set;
- :class:`NotChecked`: findings the robustness column cannot assess by simulation, with the reason it prints;
- :class:`GameChecks`: the game's checks in order with their sizes (games per component set, the checks re-run
  with the game's report player and their sizes), what a sampled component set is called, and which checks the
  report does not run.  It is the value of ``<game>/checks.py:CHECKS``, found through the registry
  (``registry.get_game(name).part("checks")``).

>>> c = Check("demo start 2p", "demo", "demo_seat_advantage", r"start player's win share, 2 players",
...           "start_player_win", 0.5, 2, "greedy", "greedy")
>>> spec = GameChecks(checks=(c,), games=400, what="card decks")
>>> spec.keys, c.metric_for("start player's win share, 2 players")
(('demo start 2p',), 'start_player_win')
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover - numpy loads when a check is seeded
    import numpy as np

    from .findings import Finding

__all__ = ["Check", "PairedCheck", "NotChecked", "GameChecks"]


@dataclass(frozen=True)
class Check:
    """One robustness check: which findings it covers and how it measures them.

    ``experiment`` and ``pattern`` (a regular expression that must match the whole ``quantity``) select the
    findings; ``player`` is the label those findings carry when they were measured with ``policies``.
    ``metric`` may be a template (``"tile_pay_excess:{tile}"``) filled from the named groups of ``pattern``;
    ``family`` then lists every metric the check measures (all candidates, on the same games).  ``runs``: the
    simulations joined per component set (see :func:`pyradice_lab.design.robustness.robustness_many`); ``games``:
    games per component set and run (default: :attr:`GameChecks.games` of the game); ``controls``: estimate with
    the game's controls read off the games (:func:`pyradice_lab.design.robustness.robustness`'s ``controls``).
    """

    key: str
    game: str
    experiment: str
    pattern: str
    metric: str
    threshold: float
    players: int
    policies: str
    player: str
    game_kwargs: Mapping = field(default_factory=dict)
    note: str = ""
    family: tuple[str, ...] = ()
    runs: tuple[Mapping, ...] | None = None
    games: int | None = None
    controls: bool = False

    def matches(self, experiment: str, f: Finding) -> bool:
        return experiment == self.experiment and re.fullmatch(self.pattern, f.quantity) is not None

    def metric_for(self, quantity: str) -> str:
        """The metric that measures the finding with this ``quantity`` (the template filled in)."""
        m = re.fullmatch(self.pattern, quantity)
        if m is None:
            raise ValueError(f"quantity {quantity!r} does not match check {self.key!r} ({self.pattern})")
        return self.metric.format(**m.groupdict())

    def seed(self, root: int) -> np.random.SeedSequence:
        import numpy as np

        return np.random.SeedSequence(int(root), spawn_key=(zlib.crc32(b"robustness"), zlib.crc32(self.key.encode())))


@dataclass(frozen=True)
class PairedCheck(Check):
    """A check of a finding that compares two versions of the game ("X with A minus X with B").

    On every component set the same games are played twice (:func:`pyradice_lab.robustness` with ``variant=``
    / ``reference=``): ``variant`` / ``reference`` are changes on top of the set (a dict of component paths or a
    function components -> components), ``*_options`` the ``simulate_games`` arguments of one run only.  The
    claim is ``difference > threshold`` (the finding's null, usually 0).  ``over_players``: the finding
    averages the difference over these player counts; the check then runs once per count, on the same
    component sets but independent games (``games_rng`` of :func:`pyradice_lab.robustness`), and averages the
    differences: SE = sqrt(sum of the per-count SE^2) / number of counts.
    """

    variant: object = None
    reference: object = None
    variant_options: Mapping = field(default_factory=dict)
    reference_options: Mapping = field(default_factory=dict)
    over_players: tuple = ()


@dataclass(frozen=True)
class NotChecked:
    """Findings that the robustness column cannot assess by simulation, with the reason it prints."""

    key: str
    game: str
    experiment: str
    pattern: str
    reason: str

    def matches(self, experiment: str, f: Finding) -> bool:
        return experiment == self.experiment and re.fullmatch(self.pattern, f.quantity) is not None


@dataclass(frozen=True)
class GameChecks:
    """A game's robustness checks, the contract part ``<game>/checks.py:CHECKS``.

    Attributes
    ----------
    checks : tuple of Check, PairedCheck and NotChecked
        Every check of the game's findings, in order: the first check of a key is the one the report runs
        (several checks may share a key, and so one run, when two experiments state the same finding); for a
        finding, the check measured with the finding's players wins, else the first that matches.
    games : int
        Games per component set of a check that states no ``games`` of its own.
    what : str
        What a sampled component set is called in the robustness column, plural ("card decks").
    report_player_games : dict of check key -> int
        The checks re-run with the game's registered ``report_player`` (instead of the players they declare) and
        their games per component set at that player's cost; the finding's ``player`` label is then
        ``player_label`` filled with the report player.
    player_label : str
        The label of a finding measured with player ``{player}`` at every seat (``"{player}"``, or e.g.
        ``"{player}, every seat"``).
    not_in_report : tuple of str
        Experiments whose findings the report no longer shows: their checks stay declared (the experiment
        scripts print these findings) but the report does not run them.
    not_run : tuple of str
        Keys of checks the report does not run (their findings are assessed by another check's run).
    controlled : tuple of str
        Keys of ``report_player_games`` whose re-run with the report player estimates with the game's controls
        read off the games (Purramid's turn luck of its optimal seats), as the findings they check do.
    unsized : tuple of str
        Keys of checks that play their declared games whatever the claims (not sized down by
        :func:`pyradice_lab.design.checks.sized_for`): where the sampled sets' effects are known to be smaller than
        the packaged one, so that a size that decides the packaged effect leaves sets undecided.
    """

    checks: tuple
    games: int
    what: str = "component sets"
    report_player_games: Mapping[str, int] = field(default_factory=dict)
    player_label: str = "{player}"
    not_in_report: tuple[str, ...] = ()
    not_run: tuple[str, ...] = ()
    controlled: tuple[str, ...] = ()
    unsized: tuple[str, ...] = ()

    def __post_init__(self):
        object.__setattr__(self, "checks", tuple(self.checks))
        for c in self.checks:
            if not isinstance(c, (Check, NotChecked)):
                raise TypeError(f"checks must hold Check, PairedCheck or NotChecked, got {type(c).__name__}")
        if not isinstance(self.games, int) or isinstance(self.games, bool) or self.games < 1:
            raise ValueError(f"games must be a positive int (games per component set), got {self.games!r}")
        if not isinstance(self.what, str) or not self.what:
            raise ValueError(f"what must name a sampled component set (plural), got {self.what!r}")
        if "{player}" not in self.player_label:
            raise ValueError(f"player_label must contain '{{player}}', got {self.player_label!r}")
        object.__setattr__(self, "not_in_report", tuple(self.not_in_report))
        object.__setattr__(self, "not_run", tuple(self.not_run))
        object.__setattr__(self, "controlled", tuple(self.controlled))
        object.__setattr__(self, "unsized", tuple(self.unsized))
        keys = set(self.keys)
        if set(self.unsized) - keys:
            raise ValueError(f"unsized must name declared checks, got {sorted(set(self.unsized) - keys)}")
        if set(self.controlled) - set(self.report_player_games):
            raise ValueError(f"controlled must name keys of report_player_games, got "
                             f"{sorted(set(self.controlled) - set(self.report_player_games))}")
        unknown = sorted((set(self.report_player_games) | set(self.not_run)) - keys)
        if unknown:
            raise ValueError(f"report_player_games and not_run must name declared checks, got unknown keys {unknown}")
        for k, n in self.report_player_games.items():
            if not isinstance(n, int) or isinstance(n, bool) or n < 1:
                raise ValueError(f"report_player_games[{k!r}] must be a positive int, got {n!r}")

    @property
    def keys(self) -> tuple[str, ...]:
        """The distinct check keys, in order."""
        return tuple(dict.fromkeys(c.key for c in self.checks))
