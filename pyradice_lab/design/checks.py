"""The report's robustness column: findings re-checked on plausible reconstructions of the components.

Every game rests on components the rules do not publish (:mod:`pyradice_lab.design.robustness`).  The report checks
the findings a designer would act on with :func:`pyradice_lab.robustness`: each is expressed as a designer
metric against its null value, and that metric is measured on the packaged components and on
:data:`RECONSTRUCTIONS` component sets drawn by the game's ``components.sample_plausible``, with the same
players the finding was measured with and the same games on every set (common random numbers).

What to check is each game's own knowledge: its ``checks`` module declares ``CHECKS``, a
:class:`~pyradice_lab.engine.checkspec.GameChecks` (the check types live in :mod:`pyradice_lab.engine.checkspec`,
below the games), found through the registry (:func:`game_checks`).  This module runs them, for every registered
game alike:

- :class:`Check`: a finding as a metric against its null (e.g. the start player's win share against the fair
  share 1/p);
- :class:`PairedCheck`: a finding that compares two versions of the game: every set plays the same games twice,
  changed by the variant and by the reference, and the metric is the paired difference;
- :class:`NotChecked`: findings that are not a simulated metric (e.g. exact solves on given boards): their column
  says why.

A check whose finding names a component the experiment picks from its data (the tile paying the most, the
strongest card) measures every candidate on the same games (:func:`pyradice_lab.design.robustness.robustness_many`)
and the verdict reads the one the finding names: ``metric`` is then a template filled from the named groups
of ``pattern``.  A check listed in the game's ``report_player_games`` is re-run with the game's registered report
player (:func:`all_checks`).

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
import zlib
from collections.abc import Mapping, Sequence

import numpy as np

from ..engine.checkspec import Check, GameChecks, NotChecked, PairedCheck
from ..engine.findings import Finding

__all__ = ["Check", "PairedCheck", "NotChecked", "GameChecks", "CHECKS", "RECONSTRUCTIONS", "QUICK_TEXT",
           "game_checks", "all_checks", "checks_for", "run_check", "verdict", "assess_sections", "run_check_cached",
           "report_player_label", "check_of", "needed_checks", "sized_for", "MIN_CHECK_GAMES", "NOT_RUN_TEXT"]

#: plausible component sets drawn per check in the full report
RECONSTRUCTIONS = 8
#: what the robustness column says in a quick report
QUICK_TEXT = "not assessed in quick mode (samples below the minimum for a claim)"


def game_checks(game: str) -> GameChecks:
    """The checks ``game`` declares (its ``checks.CHECKS``, through the registry); a game that declares none has
    an empty :class:`GameChecks`."""
    from ..engine import registry

    spec = registry.get_game(game)
    declared = spec.part("checks", None)
    if declared is None:
        return GameChecks(checks=(), games=1)
    if not isinstance(declared, GameChecks):
        raise TypeError(f"{game}: checks.CHECKS must be a GameChecks, got {type(declared).__name__}")
    return declared


def _games(check: Check) -> int:
    """Games per component set (and run) of ``check``: its own, else its game's default."""
    return check.games or game_checks(check.game).games


def report_player_label(game: str, players: int | None = None) -> str:
    """The ``player`` label of a finding measured with ``game``'s report player at ``players`` (None: the game's
    ``default_players``) at every seat."""
    from ..engine import registry

    return game_checks(game).player_label.format(player=registry.get_game(game).report_player_at(players))


def _with_report_player(c, declared: GameChecks):
    """``c``, re-targeted at the game's report player at the check's player count when
    ``declared.report_player_games`` lists it (the same key and seed stream; its games per component set at that
    player's cost)."""
    from ..engine import registry

    if isinstance(c, Check) and c.key in declared.report_player_games:
        rp = registry.get_game(c.game).report_player_at(c.players)
        c = dataclasses.replace(c, policies=rp, player=report_player_label(c.game, c.players),
                                games=declared.report_player_games[c.key], controls=c.key in declared.controlled)
    return c


#: every registered game's checks (:func:`all_checks`; filled on first use)
CHECKS: tuple = ()
_CHECKS_OF: tuple = ()   # what CHECKS was built from (:func:`all_checks`)


def all_checks() -> tuple:
    """Every check of every registered game, in registry order (each game's in its declared order), those that
    ``report_player_games`` lists re-targeted at the game's report player; also the checks the report does not
    run (see :func:`checks_for`)."""
    global CHECKS, _CHECKS_OF
    from ..engine import registry

    # the cache follows what it is built from: the registered games, each one's declared checks and report
    # players (a declaration swapped and restored, as tests do, renews it; equal declarations keep it)
    names = tuple(registry.games())
    key = tuple((n, game_checks(n), registry.get_game(n).part("report_players", None)) for n in names)
    if not CHECKS or _CHECKS_OF != key:
        out = []
        for name in names:
            declared = game_checks(name)
            out += [_with_report_player(c, declared) for c in declared.checks]
        CHECKS, _CHECKS_OF = tuple(out), key
    return CHECKS


_all_checks = all_checks  # the old name


def checks_for(games: Sequence[str]) -> list[Check]:
    """The checks the report runs for ``games``, one per key (two experiments may share one check's games): not
    those of experiments the game lists in ``not_in_report`` nor the keys it lists in ``not_run``."""
    out: dict[str, Check] = {}
    wanted = set(games)
    skip = {g: game_checks(g) for g in wanted}
    for c in all_checks():
        if isinstance(c, Check) and c.game in wanted and c.experiment not in skip[c.game].not_in_report \
                and c.key not in skip[c.game].not_run:
            out.setdefault(c.key, c)
    return list(out.values())


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
    from .robustness import robustness, robustness_many

    if isinstance(check, PairedCheck):
        return _run_paired(check, seed=seed, reconstructions=reconstructions, games=games)
    games = _games(check) if games is None else games
    kw = dict(reconstructions=reconstructions, games=games, players=check.players, policies=check.policies,
              rng=check.seed(seed), game_kwargs=dict(check.game_kwargs),
              **({"controls": True} if check.controls else {}))
    if not check.family and check.runs is None:
        return robustness(check.game, f"{check.metric} > {check.threshold!r}", **kw)
    family = check.family or (check.metric,)
    results = robustness_many(check.game, [f"{m} > {check.threshold!r}" for m in family],
                              runs=None if check.runs is None else [dict(r) for r in check.runs], **kw)
    return dict(zip(family, results))


_RUN_CHECK = run_check  # the code a stored check result depends on (see run_check_cached)


def _run_paired(check: PairedCheck, *, seed: int, reconstructions: int, games: int | None):
    from ..engine.stats import Z95
    from .robustness import RobustnessResult, robustness

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
    from .robustness import Claim

    if isinstance(result, Mapping):
        metric = check.metric_for(f.quantity)
        if metric not in result:
            return f.with_context(robust=None, robustness=f"not assessed: {metric} was not measured")
        result = result[metric]
    sampled = result.table[result.table["set"].astype(str).str.startswith("plausible")]
    n = len(sampled)
    what = game_checks(check.game).what
    games = int(sampled["n"].iloc[0])
    per = " per player count" if getattr(check, "over_players", ()) else ""
    how = f"{games:,} games each{per}" + (f", {check.note}" if check.note else "")
    if getattr(check, "controls", False) and "controls_factor" in sampled:
        from ..engine import registry

        short = registry.get_game(check.game).part("controls").short
        how += f", {short}: variance {float(np.median(sampled['controls_factor'])):.1f}x smaller (median)"
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
    from ..engine.stats import holm
    from .robustness import REVERSAL_ALPHA, reversal_p_values

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
    per set and at most the check's own size (its ``games``, else its game's ``GameChecks.games``: the
    budget).  A set with half the packaged effect is then decided about half the time.  A check that averages
    over player counts keeps its size, and so does one its game declares ``unsized``.  The size depends only on the findings, which depend only on the seed:
    the same seed gives the same checks."""
    cap = _games(check)
    if getattr(check, "over_players", ()) or not claims or check.key in game_checks(check.game).unsized:
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
    checks = all_checks()
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
    from .robustness import Claim, RobustnessResult

    if "family" in data:
        return {m: _result_from(d) for m, d in data["family"].items()}
    metric, op, threshold = data["claim"]
    return RobustnessResult.from_table(Claim(metric, op, float(threshold)), data["table"], data["paired"])


def _check_key(check: Check, seed: int) -> dict:
    return {"check": check.key, "game": check.game, "seed": int(seed), "metric": check.metric,
            "threshold": float(check.threshold), "players": check.players, "policies": check.policies,
            "games": _games(check), "reconstructions": RECONSTRUCTIONS, **({"controls": 1} if check.controls else {}),
            "options": repr(sorted(dict(check.game_kwargs).items()))}


def run_check_cached(check: Check, *, seed: int = 0, cache_dir=None):
    """:func:`run_check` at the report's size, its result stored in ``cache_dir`` (the execution layer's signed,
    atomic block files, keyed by the check, the root seed and the code that computes it): a report killed and
    rebuilt with the same ``cache_dir`` reads the checks it had finished instead of running them again, with
    identical numbers.  ``cache_dir=None``: just :func:`run_check`."""
    if cache_dir is None:
        return run_check(check, seed=seed, reconstructions=RECONSTRUCTIONS)
    from pathlib import Path

    from ..engine.execution import _Blocks
    from .robustness import robustness_many

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
