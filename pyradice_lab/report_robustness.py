"""The report's robustness column: report findings re-checked on plausible reconstructions of the components.

Every game rests on components the rules do not publish (:mod:`pyradice_lab.plausible`).  The report checks
the findings a designer would act on with :func:`pyradice_lab.robustness`: each is expressed as a designer
metric against its null value, and that metric is measured on the packaged components and on
:data:`RECONSTRUCTIONS` component sets drawn by the game's ``components.sample_plausible``, with the same
players the finding was measured with and the same games on every set (common random numbers).  Checked:

- the start-player findings of every game (a start-player compensation): ``start_player_win`` against the
  fair share 1/p, Meerkat's ``start_player_edge`` against 0;
- Meerkat Kingdom's tile pay (``meerkat_tile_fairness``, ``meerkat_strong_play``: a tile's points per piece
  committed against the board mean): ``tile_pay_excess:T`` against 0;
- Pyradice's objective cards (``pyradice_card_balance``: the strongest card's points per seat minus the
  weakest's, pooled over the three line-ups): ``card_points_difference:A-B`` against 0, on the same three
  line-ups.
- Rocking Raft's lifeboat pay (``raft_card_fairness``: a size's points per own turn held minus the deck's;
  ``raft_strong_play``: the largest lifeboats minus the smallest): ``boat_pay_excess:K`` / ``boat_pay_spread``
  against 0, greedy and exact players (one run per player serves both experiments: the checks share a key).

A check whose finding names a component the experiment picks from its data (the tile paying the most, the
strongest card) measures every candidate on the same games (:func:`pyradice_lab.plausible.robustness_many`)
and the verdict reads the one the finding names: ``metric`` is then a template filled from the named groups
of ``pattern``.

The verdict is derived from the result, never written by hand (:func:`verdict`):

- a claim (its interval excludes the null) is **robust** (``robust=True``) when it holds on every sampled set
  (the metric's interval on the claimed side of the null), **not robust** (``False``) when it is reversed on
  at least one, and **undecided** (``None``, with the counts) when some sets' intervals straddle the null;
- a finding that claims nothing gets no verdict, only the counts ("no claim to test; ...");
- a finding measured with other players than the check's (e.g. optimal play, too slow to replay on every
  set) gets no verdict either: the text gives the counts with the check's players.

The checks depend only on the game, the player count and the root seed, not on the findings, so
:func:`build_report <pyradice_lab.report.build_report>` runs them in the same worker pool as the sections;
each check seeds itself from the root seed and its key (the same numbers whatever ``n_jobs``).  Quick mode
does not assess robustness (its samples are below the minimum for a claim): the column says so.
"""

from __future__ import annotations

import dataclasses
import re
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from .findings import Finding

__all__ = ["Check", "CHECKS", "RECONSTRUCTIONS", "GAMES", "QUICK_TEXT", "checks_for", "run_check", "verdict",
           "assess_sections"]

#: plausible component sets drawn per check in the full report
RECONSTRUCTIONS = 8
#: games per component set, by game (sized so that the checks fit the full report's 5-minute budget)
GAMES = {"purramid": 1500, "pyradice": 300, "raft": 400, "meerkat": 1500}
#: what the robustness column says in a quick report
QUICK_TEXT = "not assessed in quick mode (samples below the minimum for a claim)"

_WHAT = {"purramid": "board layouts", "pyradice": "card tables", "raft": "card decks", "meerkat": "tile sets"}


@dataclass(frozen=True)
class Check:
    """One robustness check: which findings it covers and how it measures them.

    ``experiment`` and ``pattern`` (a regular expression that must match the whole ``quantity``) select the
    findings; ``player`` is the label those findings carry when they were measured with ``policies``.
    ``metric`` may be a template (``"tile_pay_excess:{tile}"``) filled from the named groups of ``pattern``;
    ``family`` then lists every metric the check measures (all candidates, on the same games).  ``runs``: the
    simulations joined per component set (see :func:`pyradice_lab.plausible.robustness_many`); ``games``:
    games per component set and run (default :data:`GAMES` of the game).
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

    def matches(self, experiment: str, f: Finding) -> bool:
        return experiment == self.experiment and re.fullmatch(self.pattern, f.quantity) is not None

    def metric_for(self, quantity: str) -> str:
        """The metric that measures the finding with this ``quantity`` (the template filled in)."""
        m = re.fullmatch(self.pattern, quantity)
        if m is None:
            raise ValueError(f"quantity {quantity!r} does not match check {self.key!r} ({self.pattern})")
        return self.metric.format(**m.groupdict())

    def seed(self, root: int) -> np.random.SeedSequence:
        return np.random.SeedSequence(int(root), spawn_key=(zlib.crc32(b"robustness"), zlib.crc32(self.key.encode())))


def _checks() -> tuple[Check, ...]:
    out = []
    for p in (2, 3, 4):
        out.append(Check(f"purramid start {p}p", "purramid", "purramid_seat_advantage",
                         rf"start player's win share, {p} players, .*", "start_player_win", 1 / p, p, "risk:0.35",
                         "risk:0.35, every seat", {"layout": "A"}, "side A"))
        out.append(Check(f"purramid start {p}p", "purramid", "purramid_strong_play",
                         rf"start player's win share, {p} players, .*", "start_player_win", 1 / p, p, "risk:0.35",
                         "risk:0.35, every seat", {"layout": "A"}, "side A"))
        out.append(Check(f"pyradice start {p}p", "pyradice", "pyradice_first_player",
                         rf"start player's win share, {p} players \(ties split\)", "start_player_win", 1 / p, p,
                         "greedy", "greedy"))
        for variant in ("standard", "sinking"):
            out.append(Check(f"raft start {p}p {variant}", "raft", "raft_start_player",
                             rf"start player's win share, {p} players, {variant}", "start_player_win", 1 / p, p,
                             "greedy", "greedy", {"variant": variant}))
    for p, automa in ((2, True), (3, False), (4, False), (2, False)):
        from .meerkat.sim import setup_label

        out.append(Check(f"meerkat start {setup_label(p, automa)}", "meerkat", "meerkat_seat_advantage",
                         re.escape(f"start player's win share minus the other players' mean, {setup_label(p, automa)}"),
                         "start_player_edge", 0.0, p, "greedy", "greedy", {"automa": automa, "engine": "numba"}))
    return tuple(out) + _component_checks()


#: games per component set of the component checks (sized for the full report's budget; see the guide)
COMPONENT_GAMES = {"meerkat tile pay greedy": 2000, "meerkat tile pay expectimax": 400, "pyradice card difference": 200,
                   "raft boat pay greedy": 600, "raft boat pay exact": 150}


def _component_checks() -> tuple[Check, ...]:
    """Checks of the findings that may change a component, measured by one metric of one run per set."""
    from .pyradice.analysis import CARD_GROUPS
    from .pyradice.components import Setup

    tiles = tuple(f"tile_pay_excess:{t}" for t in range(3, 13))
    meerkat = {"automa": False, "engine": "numba"}
    cards = list(dict.fromkeys(c for g in CARD_GROUPS for c in g))
    out = [Check("meerkat tile pay greedy", "meerkat", "meerkat_tile_fairness",
                 r"points paid per piece committed, tile (?P<tile>\d+) \([^)]*\)", "tile_pay_excess:{tile}", 0.0, 3,
                 "greedy", "greedy", meerkat, "3 players", family=tiles),
           Check("meerkat tile pay expectimax", "meerkat", "meerkat_strong_play",
                 r"points per piece, tile (?P<tile>\d+) \([^)]*\)", "tile_pay_excess:{tile}", 0.0, 3,
                 "expectimax", "expectimax", meerkat, "3 players", family=tiles),
           Check("pyradice card difference", "pyradice", "pyradice_card_balance",
                 r"points per seat, strongest card \((?P<a>\w+)\) minus weakest \((?P<b>\w+)\)",
                 "card_points_difference:{a}-{b}", 0.0, 2, "greedy", "greedy",
                 note=f"over the experiment's {len(CARD_GROUPS)} card line-ups",
                 family=tuple(f"card_points_difference:{a}-{b}" for a in cards for b in cards if a != b),
                 runs=tuple({"setup": Setup(cards=tuple(g))} for g in CARD_GROUPS))]
    boats = ("boat_pay_excess:2", "boat_pay_excess:3", "boat_pay_excess:4", "boat_pay_spread")
    raft = {"variant": "standard", "card_columns": True}
    for pol in ("greedy", "exact"):  # one run per policy serves both experiments (same key)
        if pol == "greedy":
            out.append(Check("raft boat pay greedy", "raft", "raft_card_fairness",
                             r"points per own turn held, (?P<size>\d+)-slot lifeboats minus the deck's [0-9.]+, "
                             r"3 players", "boat_pay_excess:{size}", 0.0, 3, pol, pol, raft, family=boats))
        out.append(Check(f"raft boat pay {pol}", "raft", "raft_strong_play",
                         r"points per own turn held, largest minus smallest lifeboats, 3 players", "boat_pay_spread",
                         0.0, 3, pol, pol, raft, family=boats))
    return tuple(dataclasses.replace(c, games=COMPONENT_GAMES[c.key]) for c in out)


#: the checks the full report runs (start-player findings, then the component findings; checks sharing a key
#: share one run)
CHECKS: tuple[Check, ...] = ()


def checks_for(games: Sequence[str]) -> list[Check]:
    """The checks to run for ``games``, one per key (two experiments may share one check's games)."""
    out: dict[str, Check] = {}
    for c in _all_checks():
        if c.game in set(games):
            out.setdefault(c.key, c)
    return list(out.values())


def _all_checks() -> tuple[Check, ...]:
    global CHECKS
    if not CHECKS:
        CHECKS = _checks()
    return CHECKS


def run_check(check: Check, *, seed: int = 0, reconstructions: int = RECONSTRUCTIONS, games: int | None = None):
    """Run ``check`` (:func:`pyradice_lab.robustness`, claim ``metric > threshold``); the RobustnessResult, or
    for a check with a ``family`` of metrics a dict metric -> RobustnessResult (all measured on the same games)."""
    from .plausible import robustness, robustness_many

    if not isinstance(check, Check):
        raise TypeError(f"check must be a Check, got {type(check).__name__}")
    games = (check.games or GAMES[check.game]) if games is None else games
    kw = dict(reconstructions=reconstructions, games=games, players=check.players, policies=check.policies,
              rng=check.seed(seed), game_kwargs=dict(check.game_kwargs))
    if not check.family and check.runs is None:
        return robustness(check.game, f"{check.metric} > {check.threshold!r}", **kw)
    family = check.family or (check.metric,)
    results = robustness_many(check.game, [f"{m} > {check.threshold!r}" for m in family],
                              runs=None if check.runs is None else [dict(r) for r in check.runs], **kw)
    return dict(zip(family, results))


def verdict(f: Finding, check: Check, result) -> Finding:
    """``f`` with ``robust`` and ``robustness`` derived from ``result`` (see the module docstring); for a check
    with a ``family``, ``result`` is :func:`run_check`'s dict and the finding's own metric is read from it."""
    from .plausible import Claim

    if isinstance(result, Mapping):
        metric = check.metric_for(f.quantity)
        if metric not in result:
            return f.with_context(robust=None, robustness=f"not assessed: {metric} was not measured")
        result = result[metric]
    sampled = result.table[result.table["set"] != "packaged"]
    n = len(sampled)
    what = _WHAT[check.game]
    games = int(sampled["n"].iloc[0])
    how = f"{games:,} games each" + (f", {check.note}" if check.note else "")
    above = Claim(result.claim.metric, ">", check.threshold)
    below = Claim(result.claim.metric, "<", check.threshold)
    n_above = sum(above.verdict(lo, hi) == "holds" for lo, hi in zip(sampled["ci_low"], sampled["ci_high"]))
    n_below = sum(below.verdict(lo, hi) == "holds" for lo, hi in zip(sampled["ci_low"], sampled["ci_high"]))
    counts = f"{n_above} above, {n_below} below, {n - n_above - n_below} undecided"
    if f.player != check.player:
        return f.with_context(robust=None, robustness=f"not assessed for these players; with {check.policies} "
                              f"players on {n} sampled {what}: {counts} ({how})")
    if not f.is_claim:
        return f.with_context(robust=None, robustness=f"no claim to test; on {n} sampled {what}: {counts} ({how})")
    held, reversed_ = (n_above, n_below) if f.effect > 0 else (n_below, n_above)
    undecided = n - held - reversed_
    text = f"holds on {held} of {n} sampled {what}"
    if reversed_:
        text += f", reversed on {reversed_}"
    if undecided:
        text += f", undecided on {undecided}"
    text += f" ({how})"
    robust = True if held == n else (False if reversed_ else None)
    return f.with_context(robust=robust, robustness=text if robust is not None else "undecided: " + text)


def assess_sections(sections, results: Mapping[str, object] | None, *, quick: bool = False) -> list[str]:
    """Fill in ``robust`` / ``robustness`` of every finding a check covers (in place); return the names of the
    experiments changed.  ``results``: check key -> RobustnessResult; quick mode writes :data:`QUICK_TEXT`."""
    from .report_items import ExperimentResult

    changed = []
    checks = _all_checks()
    for sec in sections:
        for exp in (it for it in sec.items if isinstance(it, ExperimentResult)):
            new = []
            for f in exp.findings:
                matching = [c for c in checks if c.matches(exp.name, f)]  # the check with the finding's players
                check = next((c for c in matching if c.player == f.player), matching[0] if matching else None)
                if check is not None and quick:
                    f = f.with_context(robust=None, robustness=QUICK_TEXT)
                elif check is not None and results and check.key in results:
                    f = verdict(f, check, results[check.key])
                new.append(f)
            if new != list(exp.findings):
                exp.findings = tuple(new)
                changed.append(exp.name)
    return changed
