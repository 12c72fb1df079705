"""The report's robustness column: report findings re-checked on plausible reconstructions of the components.

Every game rests on components the rules do not publish (:mod:`pyradice_lab.design.robustness`).  The report checks
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
  against 0, greedy and exact players (one run per player serves both experiments: the checks share a key);
- the findings that compare two versions of the game (:class:`PairedCheck`: Pyradice's skill values, Rocking
  Raft's black gems and flag depth, Meerkat's blue bags, Purramid's side B minus side A): every set plays the
  same games twice, changed by the variant and by the reference, and the metric is the paired difference;
- Purramid's yarn-token findings are exact solves on given boards, not a simulated metric: their column says
  so (:class:`NotChecked`).

A check whose finding names a component the experiment picks from its data (the tile paying the most, the
strongest card) measures every candidate on the same games (:func:`pyradice_lab.design.robustness.robustness_many`)
and the verdict reads the one the finding names: ``metric`` is then a template filled from the named groups
of ``pattern``.

The verdict is derived from the result, never written by hand (:func:`verdict`):

- a claim (its interval excludes the null) is **robust** (``robust=True``) when it holds on every sampled set
  (the metric's interval on the claimed side of the null), **not robust** (``False``) when it is reversed on
  at least one even after Holm's correction across the sets (:func:`pyradice_lab.design.robustness.reversal_p_values`:
  one set whose own interval lies on the other side by chance is not enough), and **undecided** (``None``,
  with the counts) otherwise;
- a finding that claims nothing gets no verdict, only the counts ("no claim to test; ...");
- a finding measured with other players than the check's (e.g. optimal play, too slow to replay on every
  set) gets no verdict either: the text gives the counts with the check's players.

The checks depend only on the game, the player count and the root seed, not on the findings, so
:func:`build_report <pyradice_lab.report.build.build_report>` runs them in the same worker pool as the sections;
each check seeds itself from the root seed and its key (the same numbers whatever ``n_jobs``).  Quick mode
does not assess robustness (its samples are below the minimum for a claim): the column says so.
"""

from __future__ import annotations

import dataclasses
import math
import re
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..engine.findings import Finding

__all__ = ["Check", "PairedCheck", "NotChecked", "CHECKS", "RECONSTRUCTIONS", "GAMES", "PAIRED_GAMES", "QUICK_TEXT",
           "checks_for", "run_check", "verdict", "assess_sections", "run_check_cached", "STRONG_CHECK_GAMES",
           "report_player_label", "check_of", "needed_checks", "sized_for", "MIN_CHECK_GAMES", "NOT_RUN_TEXT"]

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
    simulations joined per component set (see :func:`pyradice_lab.design.robustness.robustness_many`); ``games``:
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


def _heuristic(game: str) -> str:
    """The registry's ``heuristic_player`` of ``game``: the player of a check the report player does not re-run
    (the same player as the finding's sensitivity column)."""
    from ..engine import registry

    return registry.get_game(game).heuristic_player


def _checks() -> tuple[Check, ...]:
    out = []
    h = _heuristic("purramid")
    for p in (2, 3, 4):
        out.append(Check(f"purramid start {p}p", "purramid", "purramid_seat_advantage",
                         rf"start player's win share, {p} players, .*", "start_player_win", 1 / p, p, h,
                         f"{h}, every seat", {"layout": "A"}, "side A"))
        out.append(Check(f"purramid start {p}p", "purramid", "purramid_strong_play",
                         rf"start player's win share, {p} players, .*", "start_player_win", 1 / p, p, h,
                         f"{h}, every seat", {"layout": "A"}, "side A"))
        out.append(Check(f"pyradice start {p}p", "pyradice", "pyradice_first_player",
                         rf"start player's win share, {p} players \(ties split\)", "start_player_win", 1 / p, p,
                         "greedy", "greedy"))
        for variant in ("standard", "sinking"):
            out.append(Check(f"raft start {p}p {variant}", "raft", "raft_start_player",
                             rf"start player's win share, {p} players, {variant}", "start_player_win", 1 / p, p,
                             "greedy", "greedy", {"variant": variant}))
    for p, automa in ((2, True), (3, False), (4, False), (2, False)):
        from ..meerkat.sim import setup_label

        out.append(Check(f"meerkat start {setup_label(p, automa)}", "meerkat", "meerkat_seat_advantage",
                         re.escape(f"start player's win share against the other players' mean, {setup_label(p, automa)}"),
                         "start_player_edge", 0.0, p, "greedy", "greedy", {"automa": automa, "engine": "numba"}))
    return tuple(out) + _component_checks()


#: games per component set of the component checks (sized for the full report's budget; see the guide)
COMPONENT_GAMES = {"meerkat tile pay greedy": 2000, "meerkat tile pay expectimax": 400, "pyradice card difference": 200,
                   "raft boat pay greedy": 600, "raft boat pay exact": 150}


def _component_checks() -> tuple[Check, ...]:
    """Checks of the findings that may change a component, measured by one metric of one run per set."""
    from ..pyradice.analysis import CARD_GROUPS
    from ..pyradice.components import Setup

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
                 r"points per seat, strongest card \((?P<a>\w+)\) against the weakest \((?P<b>\w+)\)",
                 "card_points_difference:{a}-{b}", 0.0, 2, "greedy", "greedy",
                 note=f"over the experiment's {len(CARD_GROUPS)} card line-ups",
                 family=tuple(f"card_points_difference:{a}-{b}" for a in cards for b in cards if a != b),
                 runs=tuple({"setup": Setup(cards=tuple(g))} for g in CARD_GROUPS))]
    boats = ("boat_pay_excess:2", "boat_pay_excess:3", "boat_pay_excess:4", "boat_pay_spread")
    raft = {"variant": "standard", "card_columns": True}
    for pol in ("greedy", "exact"):  # one run per policy serves both experiments (same key)
        if pol == "greedy":
            out.append(Check("raft boat pay greedy", "raft", "raft_card_fairness",
                             r"points per own turn held, (?P<size>\d+)-slot lifeboats against the deck's [0-9.]+, "
                             r"3 players", "boat_pay_excess:{size}", 0.0, 3, pol, pol, raft, family=boats))
        out.append(Check(f"raft boat pay {pol}", "raft", "raft_strong_play",
                         r"points per own turn held, largest lifeboats against the smallest, 3 players", "boat_pay_spread",
                         0.0, 3, pol, pol, raft, family=boats))
    return tuple(dataclasses.replace(c, games=COMPONENT_GAMES[c.key]) for c in out)


# ---------------------------------------------------------------------- paired (two-variant) component findings
#: games per component set and run of the paired checks (each set plays them twice: variant and reference),
#: sized so that these checks add about a minute of CPU to the full report (docs/guide/designer.md)
PAIRED_GAMES = {"pyradice_skill": 150, "raft_gem_mix": 300, "raft_flag_depth": 250, "meerkat_hazards": 1000,
                "purramid_sides": 2000}


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


def _raft_black_gems(comp, *, players: int, black: int):
    """Rocking Raft components with ``black`` black gems in play at ``players`` players, the ordinary gems as
    in ``comp`` (as the gem-mix experiment changes them)."""
    counts = list(comp.gems.in_play(players))
    return comp.with_gems(players, counts[:-1] + [int(black)])


def _paired_checks() -> tuple:
    """The component findings that compare two versions of the game (see :class:`PairedCheck`)."""
    import functools

    from ..meerkat.components import default_components as meerkat_components
    from ..pyradice.components import SKILL_LEVELS
    from ..pyradice.sim import Setup

    out: list = []
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
    blue = [e for e, _ in meerkat_components().blue]
    for k in (1, 3):
        out.append(PairedCheck(f"meerkat hazards blue {k}", "meerkat", "meerkat_hazards",
                               rf"hazards per game with {k} of each blue token instead of the default \d+",
                               "hazards_per_game", 0.0, 3, "greedy", "greedy", {"engine": "numba"},
                               note=f"paired: every set with {k} of each blue token and with its own bags",
                               variant={f"blue.{e}.copies": k for e in blue}, games=PAIRED_GAMES["meerkat_hazards"]))
    out.append(PairedCheck("purramid sides start", "purramid", "purramid_side_a_vs_b",
                           r"start player's win share, side B against side A, mean over 2-4 players",
                           "start_player_win", 0.0, 2, _heuristic("purramid"), f"{_heuristic('purramid')}, every seat",
                           note="paired: every set on side B and on side A, 2-4 players",
                           variant_options={"layout": "B"}, reference_options={"layout": "A"}, over_players=(2, 3, 4),
                           games=PAIRED_GAMES["purramid_sides"]))
    out.append(NotChecked("purramid yarn", "purramid", "purramid_yarn_value",
                          r"gain in expected tiles from one yarn token, .*",
                          "not assessed: an exact solve on given boards, not a simulated metric (robustness to the "
                          "reconstructed board numbers would need the exact solver on each plausible layout)"))
    return tuple(out)


#: the checks the full report runs (start-player findings, the component findings measured by one metric, then
#: the paired component findings; checks sharing a key share one run)
CHECKS: tuple = ()


#: games per component set of the checks re-run with the game's report player (issue 27: the robustness column
#: re-checks a finding with the players it was measured with).  The report player costs 10-1000x its heuristic
#: (optimal 0.06-0.3, exact 0.02-0.1, flat_mc 0.04-0.11, mcts 0.02-0.08 CPU s per game, 2026-12-02), so these are sized to a
#: few minutes of CPU in all: samples of this size leave the small effects undecided (the large component findings,
#: Meerkat's tile pay, Pyradice's card difference, Rocking Raft's lifeboat pay, are decided: the report proposes
#: component changes only for findings that hold under the report player); larger ones need the execution
#: layer's parallelism (``build_report(..., n_jobs=N, backend="dask")``).  A check not listed keeps its heuristic
#: players: the column then gives the heuristic's counts, without a verdict, for a report-player finding.
STRONG_CHECK_GAMES = {"purramid start 2p": 60, "purramid start 3p": 16, "purramid start 4p": 16,
                      "raft start 2p standard": 100, "raft start 2p sinking": 100, "raft start 3p standard": 60,
                      "raft start 3p sinking": 60, "raft start 4p standard": 30, "raft start 4p sinking": 30,
                      "raft boat pay greedy": 100, "raft gem mix 3p": 60, "raft flag depth 3p": 60,
                      "pyradice start 2p": 100, "pyradice start 3p": 40, "pyradice start 4p": 30,
                      "meerkat start 2p + automa": 150, "meerkat start 3p": 100, "meerkat start 4p": 50,
                      "meerkat tile pay greedy": 100, "pyradice card difference": 60}


def report_player_label(game: str) -> str:
    """The ``player`` label of a finding measured with ``game``'s report player at every seat."""
    from ..engine import registry

    rp = registry.get_game(game).report_player
    return f"{rp}, every seat" if game == "purramid" else rp


def _with_report_players(checks: tuple) -> tuple:
    """The checks with the ones of :data:`STRONG_CHECK_GAMES` re-targeted at the game's report player (the same key
    and seed stream); the checks of findings no longer in the report (Rocking Raft's and Meerkat
    Kingdom's strong-play restatements) are left out."""
    from ..engine import registry

    out = []
    for c in checks:
        if isinstance(c, Check) and c.key in STRONG_CHECK_GAMES:
            rp = registry.get_game(c.game).report_player
            c = dataclasses.replace(c, policies=rp, player=report_player_label(c.game),
                                    games=STRONG_CHECK_GAMES[c.key])
        out.append(c)
    return tuple(out)


#: experiments (and check keys) whose checked findings are no longer in the report: Rocking Raft's strong-play
#: page (its findings are now the component pages' own, measured with exact) and the expectimax restatements of
#: Meerkat Kingdom's strong-play page (the tile page measures them with mcts); their checks stay defined (the
#: experiment scripts print these findings) but the report does not run them
NOT_IN_REPORT = ("raft_strong_play",)
NOT_RUN = ("meerkat tile pay expectimax",)


def checks_for(games: Sequence[str]) -> list[Check]:
    """The checks to run for ``games``, one per key (two experiments may share one check's games)."""
    out: dict[str, Check] = {}
    for c in _all_checks():
        if isinstance(c, Check) and c.game in set(games) and c.experiment not in NOT_IN_REPORT \
                and c.key not in NOT_RUN:
            out.setdefault(c.key, c)
    return list(out.values())


def _all_checks() -> tuple[Check, ...]:
    global CHECKS
    if not CHECKS:
        CHECKS = _with_report_players(_checks() + _paired_checks())
    return CHECKS


def run_check(check: Check, *, seed: int = 0, reconstructions: int = RECONSTRUCTIONS, games: int | None = None):
    """Run ``check`` (:func:`pyradice_lab.robustness`, claim ``metric > threshold``); the RobustnessResult, or
    for a check with a ``family`` of metrics a dict metric -> RobustnessResult (all measured on the same games)."""
    if not isinstance(check, Check):
        raise TypeError(f"check must be a Check, got {type(check).__name__}")
    import warnings

    from ..engine.stats import SmallSampleWarning

    # a check below 30 games per set (Purramid's 3- and 4-player optimal checks: 16) states its games in the
    # robustness column ("16 games each") and decides only what its intervals, valid at that size, decide:
    # the report's terminal gets no warning for it
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SmallSampleWarning)
        return _run_check_unwarned(check, seed=seed, reconstructions=reconstructions, games=games)


def _run_check_unwarned(check, *, seed: int, reconstructions: int, games: int | None):
    from ..design.robustness import robustness, robustness_many

    if isinstance(check, PairedCheck):
        return _run_paired(check, seed=seed, reconstructions=reconstructions, games=games)
    games = (check.games or GAMES[check.game]) if games is None else games
    kw = dict(reconstructions=reconstructions, games=games, players=check.players, policies=check.policies,
              rng=check.seed(seed), game_kwargs=dict(check.game_kwargs))
    if not check.family and check.runs is None:
        return robustness(check.game, f"{check.metric} > {check.threshold!r}", **kw)
    family = check.family or (check.metric,)
    results = robustness_many(check.game, [f"{m} > {check.threshold!r}" for m in family],
                              runs=None if check.runs is None else [dict(r) for r in check.runs], **kw)
    return dict(zip(family, results))


_RUN_CHECK = run_check  # the code a stored check result depends on (see run_check_cached)


def _run_paired(check: PairedCheck, *, seed: int, reconstructions: int, games: int | None):
    from ..design.robustness import RobustnessResult, robustness
    from ..engine.stats import Z95

    games = check.games if games is None else games
    root = check.seed(seed)

    def games_rng(p):  # independent games per player count (never one of the children robustness spawns)
        return np.random.SeedSequence(root.entropy, spawn_key=(*root.spawn_key, zlib.crc32(b"games"), p))

    runs = [robustness(check.game, f"{check.metric} > {check.threshold!r}", reconstructions=reconstructions,
                       games=games, players=p, policies=check.policies, rng=check.seed(seed),
                       game_kwargs=dict(check.game_kwargs), variant=check.variant, reference=check.reference,
                       variant_options=dict(check.variant_options), reference_options=dict(check.reference_options),
                       games_rng=games_rng(p) if check.over_players else None)
            for p in (check.over_players or (check.players,))]
    if len(runs) == 1:
        return runs[0]
    # the mean of the differences over the player counts: the same component sets (one rng draws them),
    # independent games
    first = runs[0]
    table = first.table.copy()
    for col in ("value", "variant_value", "reference_value"):
        table[col] = np.mean([r.table[col].to_numpy() for r in runs], axis=0)
    table["se"] = np.sqrt(np.sum([r.table["se"].to_numpy() ** 2 for r in runs], axis=0)) / len(runs)
    table["ci_low"], table["ci_high"] = table["value"] - Z95 * table["se"], table["value"] + Z95 * table["se"]
    table["verdict"] = [first.claim.verdict(lo, hi) for lo, hi in zip(table["ci_low"], table["ci_high"])]
    return RobustnessResult.from_table(first.claim, table, first.paired, first.assumptions, base=first.base)


def verdict(f: Finding, check: Check, result) -> Finding:
    """``f`` with ``robust`` and ``robustness`` derived from ``result`` (see the module docstring); for a check
    with a ``family``, ``result`` is :func:`run_check`'s dict and the finding's own metric is read from it."""
    from ..design.robustness import Claim

    if isinstance(result, Mapping):
        metric = check.metric_for(f.quantity)
        if metric not in result:
            return f.with_context(robust=None, robustness=f"not assessed: {metric} was not measured")
        result = result[metric]
    sampled = result.table[result.table["set"].astype(str).str.startswith("plausible")]
    n = len(sampled)
    what = _WHAT[check.game]
    games = int(sampled["n"].iloc[0])
    per = " per player count" if getattr(check, "over_players", ()) else ""
    how = f"{games:,} games each{per}" + (f", {check.note}" if check.note else "")
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
    # "no" only when the evidence of a reversal survives Holm's correction across the sampled sets
    from ..design.robustness import REVERSAL_ALPHA, reversal_p_values
    from ..engine.stats import holm

    side = above if f.effect > 0 else below
    sure = sum(p < REVERSAL_ALPHA for p in holm(np.nan_to_num(reversal_p_values(sampled, side), nan=1.0)))
    text = f"holds on {held} of {n} sampled {what}"
    if reversed_:
        text += f", reversed on {reversed_}" + ("" if sure == reversed_ else
                                               f" ({sure} after Holm's correction across the {n} sets)")
    if undecided:
        text += f", undecided on {undecided}"
    text += f" ({how})"
    robust = True if held == n else (False if sure else None)
    return f.with_context(robust=robust, robustness=text if robust is not None else "undecided: " + text)


#: the fewest games per component set (and run) that a check sized by its claims plays (:func:`sized_for`)
MIN_CHECK_GAMES = 30
#: what the robustness column says of a finding whose check did not run: no finding it covers could claim
NOT_RUN_TEXT = "no claim to test (the report checks claims only)"


def check_of(checks, experiment: str, f: Finding):
    """The check (or :class:`NotChecked`) that assesses finding ``f`` of ``experiment`` among ``checks``: the one
    measured with the finding's players, else the first that matches; None if none matches."""
    matching = [c for c in checks if c.matches(experiment, f)]
    return next((c for c in matching if getattr(c, "player", None) == f.player), matching[0] if matching else None)


def sized_for(check: Check, claims: Sequence[Finding]) -> Check:
    """``check`` with its games per component set sized by the ``claims`` it tests (issue 27: the report's CPU
    goes where it decides something).

    A set whose metric equals the claimed estimate is decided with 97.5% power when its 95% interval's
    half-width is at most half the effect: ``n = n_f (2 h_f / |effect|)^2`` games, from the finding's own
    sample (``n_f`` units, half-width ``h_f``); the largest over ``claims``, at least :data:`MIN_CHECK_GAMES`
    per set and at most the check's own size (:data:`COMPONENT_GAMES`, :data:`STRONG_CHECK_GAMES`, ...: the
    budget).  A set with half the packaged effect is then decided about half the time.  A check that averages
    over player counts keeps its size.  The size depends only on the findings, which depend only on the seed:
    the same seed gives the same checks."""
    cap = check.games or GAMES[check.game]
    if getattr(check, "over_players", ()) or not claims:
        return check
    runs = len(check.runs) if check.runs else 1
    need = max(math.ceil(f.n * (2 * f.halfwidth / abs(f.effect)) ** 2 - 1e-9) if f.effect else cap * runs
               for f in claims)  # (- 1e-9: 160.00000000000003 games are 160)
    games = min(cap, max(math.ceil(MIN_CHECK_GAMES / runs), math.ceil(need / runs)))
    return dataclasses.replace(check, games=games)


def needed_checks(checks: Sequence[Check], sections) -> list[Check]:
    """The ``checks`` that the findings of ``sections`` (not yet controlled) need, each sized by its claims
    (:func:`sized_for`): a check runs only when a finding it assesses could claim.  Before the report's
    false-discovery control a finding claims at most what its own test does (``q >= p``), so the checks
    of findings that claim nothing on their own are never needed; a check that runs for a claim that
    the control then withdraws only costs time."""
    from ..engine.results import ExperimentResult

    claims: dict[str, list] = {}
    for sec in sections:
        for exp in (it for it in sec.items if isinstance(it, ExperimentResult)):
            for f in exp.findings:
                c = check_of(checks, exp.name, f)
                if isinstance(c, Check) and f.is_claim and f.kind == "difference":
                    claims.setdefault(c.key, []).append(f)
    return [sized_for(c, claims[c.key]) for c in checks if c.key in claims]


def assess_sections(sections, results: Mapping[str, object] | None, *, quick: bool = False) -> list[str]:
    """Fill in ``robust`` / ``robustness`` of every finding a check covers (in place); return the names of the
    experiments changed.  ``results``: check key -> RobustnessResult; quick mode writes :data:`QUICK_TEXT`."""
    from ..engine.results import ExperimentResult

    changed = []
    checks = _all_checks()
    for sec in sections:
        for exp in (it for it in sec.items if isinstance(it, ExperimentResult)):
            new = []
            for f in exp.findings:
                check = check_of(checks, exp.name, f)  # the check with the finding's players
                if isinstance(check, NotChecked):
                    f = f.with_context(robust=None, robustness=check.reason)
                elif check is not None and quick:
                    f = f.with_context(robust=None, robustness=QUICK_TEXT)
                elif check is not None and results and check.key in results:
                    f = verdict(f, check, results[check.key])
                elif check is not None and results is not None and not f.is_claim:
                    f = f.with_context(robust=None, robustness=NOT_RUN_TEXT)
                new.append(f)
            if new != list(exp.findings):
                exp.findings = tuple(new)
                changed.append(exp.name)
    return changed


# ---------------------------------------------------------------------- resume (issue 26): stored check results
def _result_data(result):
    """A check's result as plain data (the execution layer's block encoding: no pickle)."""
    if isinstance(result, Mapping):
        return {"family": {m: _result_data(r) for m, r in result.items()}}
    c = result.claim
    return {"claim": [c.metric, c.op, float(c.threshold)], "table": result.table, "paired": result.paired}


def _result_from(data):
    from ..design.robustness import Claim, RobustnessResult

    if "family" in data:
        return {m: _result_from(d) for m, d in data["family"].items()}
    metric, op, threshold = data["claim"]
    return RobustnessResult.from_table(Claim(metric, op, float(threshold)), data["table"], data["paired"])


def _check_key(check: Check, seed: int) -> dict:
    return {"check": check.key, "game": check.game, "seed": int(seed), "metric": check.metric,
            "threshold": float(check.threshold), "players": check.players, "policies": check.policies,
            "games": check.games or GAMES[check.game], "reconstructions": RECONSTRUCTIONS,
            "options": repr(sorted(dict(check.game_kwargs).items()))}


def run_check_cached(check: Check, *, seed: int = 0, cache_dir=None):
    """:func:`run_check` at the report's size, its result stored in ``cache_dir`` (the execution layer's signed,
    atomic block files, keyed by the check, the root seed and the code that computes it): a report killed and
    rebuilt with the same ``cache_dir`` reads the checks it had finished instead of running them again, with
    identical numbers.  ``cache_dir=None``: just :func:`run_check`."""
    if cache_dir is None:
        return run_check(check, seed=seed, reconstructions=RECONSTRUCTIONS)
    from pathlib import Path

    from ..design.robustness import robustness_many
    from ..engine.execution import _Blocks

    # named after this function and keyed by the code of run_check as imported (the block's provenance)
    store = _Blocks(Path(cache_dir), run_check_cached, [_check_key(check, seed)],
                    code=(_RUN_CHECK, _run_check_unwarned, robustness_many, _run_paired))
    try:
        hit, data = store.read(0)
        if hit:
            return _result_from(data)
        result = run_check(check, seed=seed, reconstructions=RECONSTRUCTIONS)
        store.write(0, _result_data(result))
        return result
    finally:
        store.close()
