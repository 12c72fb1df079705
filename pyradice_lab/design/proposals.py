"""The report's "Proposed component changes" (issue 29, part 3): from a component finding to new values.

This module names no game: it reaches each game's levers, components and simulator through the registry
(:func:`pyradice_lab.engine.registry.get_game`).

After the report's claims are controlled (Benjamini-Hochberg over the whole report) and re-checked on plausible
components (the report's robustness checks, passed as ``checks``), every **component finding** (``component``
set) that

- claims a difference (``q <= 0.05``, :attr:`Finding.is_claim <pyradice_lab.engine.findings.Finding.is_claim>`),
- holds on every sampled plausible component set (``robust=True``), and
- is measured by a designer metric (the metric of its robustness check: ``tile_pay_excess:12``,
  ``boat_pay_excess:2``, ``start_player_win`` ...) for which its game declares a **lever** (the game contract's
  part ``levers``: ``<game>/levers.py`` declares ``LEVERS``, a :class:`~pyradice_lab.engine.levers.GameLevers`;
  :func:`game_levers`)

gets a :func:`pyradice_lab.balance` run: the objective is the metric at the finding's null value (the board mean,
the deck's rate, a fair share), the parameters a small grid around the packaged values within ranges a designer
would accept (the lever's text says which), the games those of the finding's check (player count, options) played
by the game's **report player**.  ``balance`` verifies the proposal on fresh seeds (before/after with 95% CIs, the
objective met or not: its one-line verdict) and the proposal is written beside the PDF as
``reports/proposals/<finding id>.toml``, loadable with ``--components``.  Values the rules state
(``source = "rules"`` in the components files) are never levers of a component-value proposal (Meerkat's tile 6
keeps 6/3); a start-player compensation changes a rule by nature (Purramid's deal) and says so.

Each proposal then **re-checks the game's other component findings** measured in the same kind of games (the same
player count and options, a metric known): one paired run (:func:`pyradice_lab.design.compare.paired_estimates`,
common random numbers: the packaged components and the proposal on the same fresh seeds) gives every such metric's
paired difference with its 95% CI; a finding the proposal moves further from its null, on the side the finding
lies, with an interval excluding 0, is stated as **made worse**.

Budget: each game's ``LEVERS.budget`` (and ``LEVERS.player_budgets`` for a costly player count;
:func:`proposal_budgets`, :func:`player_budgets`, :func:`budget_for`) gives the games one proposal may play (the
search's hard cap, the two verification runs and the two re-check runs); at most :data:`MAX_PROPOSALS` proposals
run per report (largest findings first, the others listed "not run").  The blocks run on the execution layer with
the report's ``n_jobs``/``backend``; with a ``cache_dir`` every finished run is stored (``balance``'s sweep-cache
files and the re-check's blocks), so a killed report resumes.  A quick report lists the candidates and runs none
("quick run: not run").
"""

from __future__ import annotations

import math
import re
import time
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from ..engine.findings import Finding, rank
from ..engine.levers import GameLevers, NoLever, ProposalBudget
from ..engine.stats import SMALL_SAMPLE
from ._proposal_items import _candidates_table, _ci, _proposal_items, _short, _short_keys, _values  # noqa: F401

__all__ = ["ProposalBudget", "NoLever", "game_levers", "proposal_budgets", "player_budgets", "budget_for",
           "MAX_PROPOSALS", "Candidate", "Proposal", "Recheck", "find_candidates", "run_proposal", "recheck",
           "made_worse", "proposals_section", "SECTION_TITLE", "QUICK_STATUS", "finding_id", "proposal_games", "proposal_kwargs",
           "startable", "write_proposal", "metric_checks"]

SECTION_TITLE = "Proposed component changes"
#: the status of every candidate in a quick report
QUICK_STATUS = "quick run: not run"


#: proposals run per report (the largest claimed findings first); the other candidates are listed, not run
MAX_PROPOSALS = 6


def game_levers(game: str) -> GameLevers | None:
    """``game``'s balance levers (its contract part ``levers``, :class:`~pyradice_lab.engine.levers.GameLevers`), or
    None when it declares none."""
    from ..engine.registry import get_game

    return get_game(game).part("levers", None)


def _levered_games() -> dict[str, GameLevers]:
    from ..engine.registry import games

    return {name: lv for name in games() if (lv := game_levers(name)) is not None}


def proposal_budgets() -> dict[str, ProposalBudget]:
    """Per game with levers, the games of one proposal under the report player (each game's
    ``LEVERS.budget``; the designer guide, "Proposed component changes in the report", gives their cost)."""
    return {g: lv.budget for g, lv in _levered_games().items()}


def player_budgets() -> dict[tuple[str, int], ProposalBudget]:
    """Where one player count costs far more than the game's others, its own budget, by ``(game, players)`` (each
    game's ``LEVERS.player_budgets``)."""
    return {(g, p): b for g, lv in _levered_games().items() for p, b in lv.player_budgets.items()}


def __getattr__(name: str):
    # the tables of earlier releases, read from the games' levers
    if name == "PROPOSAL_BUDGETS":
        return proposal_budgets()
    if name == "PLAYER_BUDGETS":
        return player_budgets()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def budget_for(game: str, players: int) -> ProposalBudget:
    """The budget of one proposal of ``game`` at ``players`` players (its levers' ``player_budgets``, else its
    ``budget``); KeyError for a game without levers."""
    lv = _levered_games().get(game)
    if lv is None:
        raise KeyError(game)
    return lv.budget_for(players)


def proposal_games(game: str, players: int = 2) -> int:
    """The most games one proposal of ``game`` at ``players`` players plays (:attr:`ProposalBudget.games`)."""
    return budget_for(game, players).games


# ------------------------------------------------------------------------------------------------ candidates
def finding_id(experiment: str, metric: str, players: int) -> str:
    """The proposal file's name (without ``.toml``): ``raft_card_fairness-boat_pay_excess_2-3p``."""
    return f"{experiment}-{re.sub(r'[^A-Za-z0-9]+', '_', metric).strip('_')}-{int(players)}p"


@dataclass(frozen=True)
class Candidate:
    """A component finding a proposal could answer: its metric, target, games and lever, and why it is not run
    (``status``: "" = to run)."""

    id: str
    game: str
    experiment: str
    finding: Finding
    metric: str
    target: float
    players: int
    game_kwargs: Mapping
    parameters: dict = field(default_factory=dict)
    lever: str = ""
    rule_change: bool = False
    status: str = ""

    @property
    def grid(self) -> int:
        return math.prod(len(v) for v in self.parameters.values()) if self.parameters else 0


def metric_checks(checks) -> list:
    """The single-metric checks among the report's robustness ``checks`` (never a paired one, which has a
    ``variant``: its metric is a difference of two versions; never a check that is not run, without
    ``metric_for``).  The proposals find a finding's metric, null value and games through its check."""
    return [c for c in checks if callable(getattr(c, "metric_for", None)) and not hasattr(c, "variant")]


def _check_of(checks, experiment: str, f: Finding):
    return next((c for c in metric_checks(checks) if c.matches(experiment, f)), None)


def _components(game: str):
    from ..engine.registry import get_game

    return get_game(game).components.default_components()


def _robust_reason(f: Finding) -> str:
    if f.robust is False:
        return "not proposed: reversed on a plausible component set"
    text = f.robustness or "not assessed"
    return f"not proposed: robustness {text.split(':')[0].split(';')[0]}"


def find_candidates(sections, *, checks, quick: bool = False, max_proposals: int = MAX_PROPOSALS,
                    budgets: Mapping[str, ProposalBudget] | None = None) -> list[Candidate]:
    """The component findings of ``sections`` with a metric and a lever, ranked (claims first, by size): quick, all
    of them (``status`` :data:`QUICK_STATUS`); otherwise the claims, each with ``status`` "" (to run, the first
    ``max_proposals``) or why not (not robust, no lever, beyond the report's proposals).  One candidate per game,
    metric and games (two experiments stating the same finding share one).  ``checks``: the report's robustness
    checks (:func:`metric_checks` of them give each finding's metric, null and games); the lever is the game's
    (its contract part ``levers``, :func:`game_levers`).  A claim whose game's own budget (not one of ``budgets``,
    by game) verifies a proposal on fewer than ``SMALL_SAMPLE`` games a side is listed "not proposed" (Purramid at
    4 players: 10 all-optimal games a side)."""
    from ..engine.results import ExperimentResult

    found = [(it.name, f) for s in sections for it in s.items if isinstance(it, ExperimentResult)
             for f in it.findings if f.component]
    order = {id(f): i for i, f in enumerate(rank([f for _, f in found]))}
    found.sort(key=lambda ef: order[id(ef[1])])
    out, seen, comps = [], set(), {}
    for exp, f in found:
        if not quick and not f.is_claim:
            continue
        check = _check_of(checks, exp, f)
        if check is None:
            continue
        metric = check.metric_for(f.quantity)
        name, _, arg = metric.partition(":")
        levers = game_levers(check.game)
        lever = levers.lever(name) if levers is not None else None
        key = (check.game, metric, check.players, repr(sorted(dict(check.game_kwargs).items())))
        if lever is None or key in seen:
            continue
        seen.add(key)
        comp = comps.setdefault(check.game, _components(check.game))
        c = Candidate(finding_id(exp, metric, check.players), check.game, exp, f, metric, float(check.threshold),
                      check.players, dict(check.game_kwargs))
        try:
            params, text, rule, *extra = lever(comp, check.players if lever.by_players else arg, f)
            c = replace(c, parameters=params, lever=text, rule_change=rule,
                        game_kwargs={**c.game_kwargs, **(extra[0] if extra else {})})
        except NoLever as exc:
            c = replace(c, status=f"not proposed: {exc}")
        if quick:
            c = replace(c, status=c.status or QUICK_STATUS)
        elif not c.status and f.robust is not True:
            c = replace(c, status=_robust_reason(f))
        elif not c.status and c.game not in (budgets or {}) and \
                (v := _verify_games(c, lever, comp, arg)) < SMALL_SAMPLE:
            c = replace(c, status=f"not proposed: the game's proposal budget at {c.players} players verifies on {v} "
                                  f"games a side, fewer than {SMALL_SAMPLE} (too few to decide whether a proposal "
                                  "meets its objective)")
        out.append(c)
    runnable = [c for c in out if not c.status]
    for c in runnable[max_proposals:]:
        out[out.index(c)] = replace(c, status=f"not run: beyond the report's {max_proposals} proposals")
    return out


def _verify_games(c: Candidate, lever, comp, arg: str) -> int:
    """The games a side of the report's verification of ``c`` (:func:`run_proposal`'s sizes: the grid's half of
    the verification when a joint search over the lever's ranges follows)."""
    from ..engine.registry import get_game
    from ._balance_path import cheap_player, report_sizes

    levers = game_levers(c.game)
    search = cheap_player(levers, None, get_game(c.game).report_player_at(c.players))
    ranges, _ = _joint_ranges(c, lever, search, comp, arg)
    return report_sizes(levers.budget_for(c.players, bool(search)), widen=bool(ranges)).grid_verify


def _joint_ranges(c: Candidate, lever, search, comp, arg: str) -> tuple:
    """``(ranges, own)``: the lever's declared ranges that a proposal's joint search widens to after the grid;
    ``((), 0)`` when none runs (no lever, an objective about winning, or a cheaper ``search`` player, which plays
    the grid alone)."""
    if lever is None or search or lever.report_kind == "win":
        return (), 0
    return lever.ranges_of(comp, c.players if lever.by_players else arg, c.finding)


# ------------------------------------------------------------------------------------------------ re-check
@dataclass(frozen=True)
class Recheck:
    """Another component finding re-checked on a proposal: its metric on the packaged components (``before``) and on
    the proposal (``after``), the paired difference, and whether the proposal made it worse."""

    experiment: str
    quantity: str
    metric: str
    null: float
    before: object
    after: object
    difference: object
    worse: bool

    def sentence(self) -> str:
        d = self.difference
        return (f"{self.quantity} ({self.metric}): {self.before.value:.3g} -> {self.after.value:.3g}, paired difference "
                f"{d.value:+.3g} [{d.ci_low:+.3g}, {d.ci_high:+.3g}]" + (": made worse" if self.worse else ""))


def _recheck_side(game: str, metrics: list, games: int, seed, comp, sim_kw: dict) -> dict:
    """One side of a re-check: ``games`` games on ``comp`` from a fresh copy of ``seed`` (both sides get the same
    seed), every metric's per-game ``(numerator, denominator)`` computed on the whole frame (a metric of restricted
    play on its own games, :func:`._restricted_games.play_metrics`)."""
    from ._restricted_games import play_metrics

    return play_metrics(game, metrics, games, seed, comp, sim_kw)[0]


def recheck(game: str, base, proposal, others: Sequence[tuple[str, Finding, str, float]], *, games: int,
            players: int, policies=None, game_kwargs: Mapping | None = None, rng=None, n_jobs: int = 1,
            backend: str = "loky", scheduler=None, cache_dir=None) -> list[Recheck]:
    """Re-check ``others`` (``(experiment, finding, metric, null)``) on ``proposal`` against ``base``: ``games`` paired
    games (the same fresh seed on both sides, common random numbers, the two sides run as two blocks of the
    execution layer), every metric from the same games; a finding is *made worse* (:func:`made_worse`) when the
    paired difference's 95% interval (:func:`pyradice_lab.design.compare.paired_estimates`) excludes 0 on the side
    that moves the metric further from its null, the side the finding lies on (its effect; for a finding without
    a claim, the base estimate's side), or lies beyond twice the base estimate's distance to the null the other
    way (carried across the null to further from it)."""
    from ..engine.execution import Pool, check_execution
    from ..engine.registry import get_game
    from ..engine.rng import describe_seed, seed_sequence
    from .compare import paired_estimates
    from .metrics import simulate_options

    if not others:
        return []
    metrics = list(dict.fromkeys(m for _, _, m, _ in others))
    sim_kw = dict(game_kwargs or {})
    for m in metrics:
        for k, v in simulate_options(game, m).items():
            sim_kw.setdefault(k, v)
    sim_kw["players"] = players
    if policies is not None:
        sim_kw["policies"] = policies
    seed = seed_sequence(rng, name="rng").spawn(1)[0]
    execution = check_execution(n_jobs, backend, scheduler, cache_dir=cache_dir)
    keys = [{"entry": "proposal recheck", "game": game, "metrics": metrics, "games": int(games), **describe_seed(seed),
             "components": comp.content_hash(), "options": repr(sorted(sim_kw.items()))} for comp in (base, proposal)]
    simulate = get_game(game).simulate_games
    with Pool(execution=execution) as pool:
        b_vals, v_vals = pool.map(_recheck_side, [(game, metrics, int(games), seed, comp, sim_kw)
                                                  for comp in (base, proposal)],
                                  keys=keys, desc=f"{game} proposal re-check", sizes=[int(games)] * 2,
                                  code=[simulate], cost={"game": game, "policies": policies, "players": players})
    out = []
    for exp, f, m, null in others:
        be, ve, d, _ = paired_estimates(b_vals[m], v_vals[m], m, warn=False)
        side = np.sign(f.effect) if f.is_claim and f.effect != 0 else np.sign(be.value - null)
        out.append(Recheck(exp, f.quantity, m, float(null), be, ve, d, made_worse(side, be.value, null, d)))
    return out


def made_worse(side: int, before: float, null: float, d) -> bool:
    """Whether a paired difference ``d`` (after - before, with ``ci_low``/``ci_high``) makes a finding on ``side`` of
    its ``null`` (+1 above, -1 below, 0 none) worse: its 95% interval excludes 0 on that side (further from the
    null), or lies beyond twice the packaged distance the other way (carried across the null to further from it
    than before: a 3-slot pay of -0.29 made +1.11).

    >>> from types import SimpleNamespace as D
    >>> made_worse(-1, -0.3, 0.0, D(ci_low=-0.5, ci_high=-0.1)), made_worse(-1, -0.3, 0.0, D(ci_low=0.1, ci_high=0.5))
    (True, False)
    >>> made_worse(-1, -0.3, 0.0, D(ci_low=0.8, ci_high=1.4)), made_worse(0, 0.0, 0.0, D(ci_low=0.8, ci_high=1.4))
    (True, False)
    """
    if side == 0:
        return False
    dist = side * (before - null)
    if (d.ci_low > 0) if side > 0 else (d.ci_high < 0):
        return True
    return bool(dist > 0 and (d.ci_high < -2 * dist if side > 0 else d.ci_low > 2 * dist))


# ------------------------------------------------------------------------------------------------ running
@dataclass
class Proposal:
    """A candidate run: ``balance``'s result, the TOML written, the re-checks, the games played and the time."""

    candidate: Candidate
    result: object = None
    toml: Path | None = None
    rechecks: list = field(default_factory=list)
    not_rechecked: int = 0
    games: int = 0
    seconds: float = 0.0
    budget: ProposalBudget | None = None

    @property
    def worse(self) -> list:
        return [r for r in self.rechecks if r.worse]


def _seed(root: int, cid: str) -> np.random.SeedSequence:
    return np.random.SeedSequence(int(root), spawn_key=(zlib.crc32(b"proposal"), zlib.crc32(cid.encode())))


def run_proposal(c: Candidate, *, seed: int = 0, out_dir=None, others: Sequence[Candidate] = (),
                 budget: ProposalBudget | None = None, policies=None, n_jobs: int = 1, backend: str = "loky",
                 scheduler=None, cache_dir=None) -> Proposal:
    """The proposal for ``c`` along ``balance --finding``'s path (:mod:`._balance_path`: the lever's grid, the joint
    search over its declared ranges when the grid misses, the guards with the next-best candidate when they refuse),
    within ``budget`` (:func:`._balance_path.report_sizes`; ``policies`` default: the game's report player); writes
    it to ``<out_dir>/<c.id>.toml``.  The guards' paired run re-checks ``others`` (the game's other candidates and
    component findings, as :class:`Candidate`) measured in the same games (player count and options)."""
    from ..engine.registry import get_game
    from ._balance_path import cheap_player, propose, report_sizes

    t0 = time.perf_counter()
    root = _seed(seed, c.id)
    search_seed, check_seed, widen_seed = root.spawn(3)  # the first two: the seeds of earlier reports
    levers = game_levers(c.game)
    name, _, arg = c.metric.partition(":")
    lever = levers.lever(name) if levers is not None else None
    kind = lever.report_kind if lever is not None else "pay"
    report_player = get_game(c.game).report_player_at(c.players)
    policies = policies or report_player
    # a cheaper search player the game declares, the report player's verification judging its pick (a test's
    # players: every game theirs); its own budget unless the caller gave another than the game's
    search = cheap_player(levers, policies, report_player)
    if budget is None or (search and budget == budget_for(c.game, c.players)):
        budget = levers.budget_for(c.players, bool(search)) if levers is not None else budget_for(c.game, c.players)
    ranges, own = _joint_ranges(c, lever, search, _components(c.game), arg)
    finding_metric, finding_null = c.metric, c.target
    if kind == "win":  # the game says its finding's own metric is out of honest reach: the objective about winning
        from ._balance_finding import win_candidate

        c = win_candidate(c, lever, _components(c.game))
    same = [o for o in others if o.id != c.id and o.game == c.game and o.players == c.players
            and dict(o.game_kwargs) == dict(c.game_kwargs)]
    in_play = lever.in_play.format(arg=arg) if lever is not None and lever.in_play else ""
    res, played = propose(c.game, c, sizes=report_sizes(budget, widen=bool(ranges)), ranges=ranges, own=own,
                          policies=policies, rng=(search_seed, widen_seed, check_seed), in_play=in_play,
                          fraction=levers.in_play_fraction if levers is not None else 0.5,
                          others=[(o.experiment, o.finding, o.metric, o.target) for o in same]
                          # an objective about winning: the finding's own metric is guarded (the mechanism);
                          # the finding's own objective: the component's worth to winning is (not made a trap)
                          + ([(c.experiment, c.finding, finding_metric, finding_null)] if kind == "win" else
                             [("worth to winning", _probe_finding(c, lever.win.format(arg=arg)),
                               lever.win.format(arg=arg), 0.0)] if lever is not None and lever.win else []),
                          n_jobs=n_jobs,
                          backend=backend, scheduler=scheduler, cache_dir=cache_dir, search_policies=search)
    from ._balance_finding import kind_note

    if isinstance(getattr(res, "notes", None), list):  # the report's objective kind, said in the file
        res.notes.insert(0, kind_note(kind, c.metric, c.target, finding_metric, lever, policies, report=True))
    p = Proposal(c, res, budget=budget, games=played)
    p.rechecks = list(res.rechecks)
    p.not_rechecked = sum(1 for o in others if o.id != c.id and o.game == c.game) - len(same)
    if same and not budget.recheck:
        p.not_rechecked += len(same)
    if out_dir is not None:
        write_proposal(p, out_dir)
    p.seconds = time.perf_counter() - t0
    return p


def _probe_finding(c: Candidate, metric: str):
    """A finding claiming nothing about ``metric`` (its guard judges it by the packaged value's side of 0)."""
    from ._balance_guards import _probe

    return _probe(f"{metric}: the component's worth to winning (restricted play)", 0.0)


def _others(sections, *, checks) -> list[Candidate]:
    """Every component finding of ``sections`` with a single metric (claimed or not), as candidates to re-check
    (``checks``: the report's robustness checks, as for :func:`find_candidates`)."""
    from ..engine.results import ExperimentResult

    out, seen = [], set()
    for s in sections:
        for it in (i for i in s.items if isinstance(i, ExperimentResult)):
            for f in it.findings:
                check = _check_of(checks, it.name, f) if f.component else None
                if check is None:
                    continue
                metric = check.metric_for(f.quantity)
                cid = finding_id(it.name, metric, check.players)
                if (check.game, metric, check.players) in seen:
                    continue
                seen.add((check.game, metric, check.players))
                out.append(Candidate(cid, check.game, it.name, f, metric, float(check.threshold), check.players,
                                     dict(check.game_kwargs)))
    return out


# ------------------------------------------------------------------------------------------------ the section
def write_proposal(p: Proposal, out_dir) -> Path:
    """Write ``p``'s components to ``<out_dir>/<candidate id>.toml`` (in the report's process: a proposal run on a
    worker writes nothing) and return the path."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    p.toml = p.result.to_toml(out / f"{p.candidate.id}.toml")
    return p.toml


def proposal_kwargs(c: Candidate, others: Sequence[Candidate], *, seed: int = 0,
                    budgets: Mapping[str, ProposalBudget] | None = None, policies: Mapping[str, str] | None = None,
                    cache_dir=None) -> dict:
    """The keyword arguments of :func:`run_proposal` for ``c`` in a report (``others``: :func:`_others` of its
    sections): the same wherever the proposal runs."""
    return dict(seed=seed, others=others, budget=(budgets or {}).get(c.game) or budget_for(c.game, c.players),
                policies=(policies or {}).get(c.game), cache_dir=cache_dir)


def startable(sections, pending, *, checks, max_proposals: int = MAX_PROPOSALS) -> list[Candidate]:
    """The candidates of the controlled ``sections`` that run whatever the robustness checks still playing find.

    ``pending(c)``: whether the check of candidate ``c``'s finding has not returned yet.  A candidate whose own
    verdict is in runs when fewer than ``max_proposals`` candidates ranked before it run or are pending (even if
    all of those then run, it is within the report's proposals): exactly the ones :func:`find_candidates` then
    gives an empty status.  Lets the report start a proposal beside the checks, not after all of them."""
    ahead = 0
    out = []
    for c in find_candidates(sections, checks=checks, max_proposals=10 ** 9):
        if pending(c):
            ahead += 1
        elif not c.status:
            if ahead < max_proposals:
                out.append(c)
            ahead += 1
    return out


def proposals_section(sections, *, checks, seed: int = 0, quick: bool = False, out_dir=None,
                      out_name: str = "proposals", n_jobs: int = 1, backend: str = "loky", scheduler=None,
                      cache_dir=None, budgets: Mapping[str, ProposalBudget] | None = None,
                      policies: Mapping[str, str] | None = None, max_proposals: int = MAX_PROPOSALS,
                      ran: Mapping[str, Proposal] | None = None):
    """The report part "Proposed component changes" from the built, controlled and checked ``sections``.

    Runs :func:`run_proposal` for every candidate of :func:`find_candidates` with an empty status (none in a quick
    report; ``checks``: the report's robustness checks), writing the TOML files into ``out_dir``; ``budgets`` /
    ``policies`` (by game) replace the games' budgets (:func:`proposal_budgets`) and the report players (tests).
    ``ran``: proposals already run (candidate id -> :class:`Proposal`, with :func:`proposal_kwargs`: the report
    runs those of :func:`startable` in its worker pool while the last robustness checks play), used as they are.
    Returns the :class:`~pyradice_lab.engine.results.Section` (its ``proposals`` attribute: the
    :class:`Proposal` objects run)."""
    from ..engine.results import Section, Table, Text

    t0, c0 = time.perf_counter(), time.process_time()
    budgets = dict(budgets or {})
    cands = find_candidates(sections, checks=checks, quick=quick, max_proposals=max_proposals, budgets=budgets)
    others = _others(sections, checks=checks)
    done: dict[str, Proposal] = {}
    ran = dict(ran or {})
    for c in (c for c in cands if not c.status):
        p = ran.get(c.id)
        if p is None:  # not run beside the checks: here, each balance round on the report's jobs
            p = run_proposal(c, n_jobs=n_jobs, backend=backend, scheduler=scheduler,
                             **proposal_kwargs(c, others, seed=seed, budgets=budgets, policies=policies,
                                               cache_dir=cache_dir))
        if out_dir is not None:
            write_proposal(p, out_dir)
        done[c.id] = p
    per = ", ".join(f"{g} {(budgets.get(g) or b).games:,}" for g, b in proposal_budgets().items())
    per += "".join(f", {g} at {p} players {b.games:,}" if g not in budgets else ""
                   for (g, p), b in player_budgets().items())
    per += "".join(f", {g} with its search played by {lv.search_player} {lv.search_budget.games:,} ("
                   f"{lv.search_budget.search:,} of them the search's)"
                   for g, lv in _levered_games().items() if lv.search_budget is not None and lv.search_player
                   and g not in budgets)
    intro = (
        "For every component finding that claims a difference (q <= 0.05 over the whole report) and holds on every "
        "sampled plausible component set, a balance run proposes new values for its component along the path of "
        "balance --finding: the objective targeted is the finding's metric at its null value (the board mean, the "
        "deck's rate, a fair share), or, where the game's measurements say that metric cannot be met honestly by "
        "its components, an objective about winning the game declares (each proposal states which, and why); the "
        "lever's small grid around the packaged values is searched first (successive "
        "halving with common random numbers; the values the rules state are kept; a start-player compensation is a "
        "rule change and says so), and when its best misses the objective the lever's declared ranges are searched "
        "jointly around it (finer steps, neighbouring components), the two searches sharing what the grid alone "
        "played before; every game is played by the game's report player (or, where the game declares one, the "
        "search by a cheaper player whose pick the report player verifies and guards). The proposal is verified on "
        "fresh seeds "
        "(before and after with 95% CIs; 'met' when the after interval reaches the target), then checked by the "
        "guards on one paired run: the component kept in play, the start player's share not further from fair, "
        "the game's other component findings in the same games not made worse. A candidate the guards refuse is "
        "stated and the next-best candidate of the search is tried (at most 3 in all, within the budget). An unmet "
        "objective states the closest point, the levers tried and the metric's move per step. The proposal is "
        f"written beside this PDF as {out_name}/<finding>.toml, ready for --components. Budget: at most "
        f"{max_proposals} proposals per report, each at most these games: {per} (pyradice_lab.design.proposals).")
    items: list = [Text(intro, heading=SECTION_TITLE)]
    if not cands:
        items.append(Text("No component finding claims a difference and has a lever here." if not quick else
                          "No component finding with a lever in this report."))
    else:
        if quick:
            items.append(Text(f"Quick run: the {len(cands)} candidate proposals are listed, none is run "
                              "(the quick report makes no claim)."))
        items.append(Table(_candidates_table(cands, done), title="Candidate proposals",
                           caption="One row per component finding with a lever (claims only in a full report)."))
        for c in cands:
            if c.id in done:
                items += _proposal_items(done[c.id], out_name)
    games = sum(p.games for p in done.values())
    if done:  # the front page's table lists experiments only: this part states its own games and time
        pooled = sum(1 for c in done if c in ran)
        items.append(Text(f"This part played {games:,} games; its proposals took "
                          f"{sum(p.seconds for p in done.values()):.0f} s of wall time together (each timed from its "
                          "start to its end" + (f"; {pooled} of its {len(done)} proposals in the report's worker "
                                                "pool, beside the robustness checks" if pooled else "") + ")."))
    sec = Section(SECTION_TITLE, items, seed=f"{seed}/{zlib.crc32(b'proposal')}",
                  trials=f"{games:,} games" if done else "none run")
    sec.seconds = time.perf_counter() - t0
    sec.cpu_seconds = time.process_time() - c0
    sec.proposals = list(done.values())
    return sec
