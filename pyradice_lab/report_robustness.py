"""The report's robustness column: report findings re-checked on plausible reconstructions of the components.

Every game rests on components the rules do not publish (:mod:`pyradice_lab.plausible`).  The report checks
the findings a designer would act on -- the start-player findings of every game, which are also the findings
that may change a component (a start-player compensation) -- with :func:`pyradice_lab.robustness`: each is
expressed as a designer metric against its null value (``start_player_win`` against the fair share 1/p,
Meerkat's ``start_player_edge`` against 0), and that metric is measured on the packaged components and on
:data:`RECONSTRUCTIONS` component sets drawn by the game's ``components.sample_plausible``, with the same
players the finding was measured with and the same games on every set (common random numbers).

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

    def matches(self, experiment: str, f: Finding) -> bool:
        return experiment == self.experiment and re.fullmatch(self.pattern, f.quantity) is not None

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
    return tuple(out)


#: the checks the full report runs (one per game, player count and variant of a start-player finding)
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
    """Run ``check`` (:func:`pyradice_lab.robustness`, claim ``metric > threshold``); the RobustnessResult."""
    from .plausible import robustness

    if not isinstance(check, Check):
        raise TypeError(f"check must be a Check, got {type(check).__name__}")
    games = GAMES[check.game] if games is None else games
    return robustness(check.game, f"{check.metric} > {check.threshold!r}", reconstructions=reconstructions,
                      games=games, players=check.players, policies=check.policies, rng=check.seed(seed),
                      game_kwargs=dict(check.game_kwargs))


def verdict(f: Finding, check: Check, result) -> Finding:
    """``f`` with ``robust`` and ``robustness`` derived from ``result`` (see the module docstring)."""
    from .plausible import Claim

    sampled = result.table[result.table["set"] != "packaged"]
    n = len(sampled)
    what = _WHAT[check.game]
    games = int(sampled["n"].iloc[0])
    how = f"{games:,} games each" + (f", {check.note}" if check.note else "")
    above = Claim(check.metric, ">", check.threshold)
    below = Claim(check.metric, "<", check.threshold)
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
                check = next((c for c in checks if c.matches(exp.name, f)), None)
                if check is not None and quick:
                    f = f.with_context(robust=None, robustness=QUICK_TEXT)
                elif check is not None and results and check.key in results:
                    f = verdict(f, check, results[check.key])
                new.append(f)
            if new != list(exp.findings):
                exp.findings = tuple(new)
                changed.append(exp.name)
    return changed
