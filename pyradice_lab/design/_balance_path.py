"""One proposal's path, shared by ``balance --finding`` (:func:`pyradice_lab.design.balance.balance_finding`) and the
report's proposals (:func:`pyradice_lab.design.proposals.run_proposal`) (private).

1. **The lever's grid**: :func:`~pyradice_lab.design.balance.balance` over the lever's parameters, verified on fresh
   seeds.
2. **The joint search** (when the grid misses the objective and the lever declares ranges): the declared ranges
   searched jointly around the grid's best (:func:`._balance_finding._widen`); the closer of the two verified
   proposals is kept.
3. **The guards** (:mod:`._balance_guards`: in play, start player, other findings), one paired run.  A candidate the
   guards refuse is reported, and the **next-best candidate** of the search that kept the proposal (ranked as the
   search ranked them: the later the round a candidate reached, then its distance there) is tried: one paired run
   on the guards' fresh seeds that measures the objective and every guard at once (the same seeds as the first
   guard run, so the packaged side is the same games), at most :data:`MAX_TRIES` candidates in all.

``total`` caps every game the path plays (the report's per-proposal budget,
:attr:`~pyradice_lab.engine.levers.ProposalBudget.games`): a step that would pass it is not played and the
proposal says so.  The report sizes the two searches and their verifications so that both together play what the
grid alone played before (:func:`report_sizes`).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, replace

import pandas as pd

__all__ = ["MAX_TRIES", "Sizes", "cheap_player", "confident", "report_sizes", "propose", "ranked_candidates"]

#: candidates the guards may judge for one proposal (the search's pick and then the next-best ones)
MAX_TRIES = 3


@dataclass(frozen=True)
class Sizes:
    """The games of one proposal's steps: the grid's search and verification (each side), the joint search's and
    its verification's, the guards' paired run (each side; 0: no guards), the first round per candidate, the cap
    on them all (None: none), and ``final``: the games each of the joint search's last two candidates plays (0: the
    halving's own).

    ``final`` > 0 makes the joint search a **refinement** (``balance --finding``): it runs unless the grid's
    verified pick meets the objective beyond doubt (:func:`confident`), its candidates include that pick (its
    start), and its pick, made on common random numbers over far more games than a verification's, is kept.
    ``refinements`` > 1: while the kept pick's final round lies off the target beyond its interval, further
    refinements around it over candidates not yet played, that many in all (:mod:`._balance_refine`)."""

    grid: int
    grid_verify: int
    joint: int
    joint_verify: int
    guards: int
    first: int
    total: int | None = None
    final: int = 0
    refinements: int = 1


def cheap_player(levers, policies, report_player) -> str | None:
    """The game's declared cheaper search player (:attr:`~pyradice_lab.engine.levers.GameLevers.search_player`) when
    the report player judges the pick (``policies`` None or the report player itself), else None: other players
    (a test's, a designer's ``--policies``) play every game themselves.  The report's proposals
    (:func:`~pyradice_lab.design.proposals.run_proposal`) and ``balance --finding``
    (:func:`~pyradice_lab.design.balance.balance_finding`) both ask here; its budget is
    ``levers.budget_for(players, True)``."""
    if levers is None or not levers.search_player or (policies is not None and policies != report_player):
        return None
    return levers.search_player


def confident(res, final: int) -> bool:
    """Whether ``res`` (a verified search) needs no refinement: met, and (``final`` > 0) met beyond doubt, its whole
    95% interval within the tolerance of the target (with no tolerance: never).  A pick merely met by a verification
    of a few hundred games may lie well off the target: Raft's 3-slot grid pick at +0.065 (800 games) verified at
    -0.011 and -0.003 in two seeds of 200 games, and a fresh check meets it only about 7 times in 10."""
    if not res.reached:
        return False
    if not final or res.after is None:
        return True
    a = res.after
    return max(abs(a.ci_low - res.target), abs(a.ci_high - res.target)) <= res.tolerance


def report_sizes(budget, *, widen: bool) -> Sizes:
    """The report's sizes from a game's :class:`~pyradice_lab.engine.levers.ProposalBudget`: without a joint search
    (no declared ranges) the grid has the whole search and verification; with one, the grid and the joint search
    each have half the search and half the verification games, so that the two together play what the grid alone
    did; the guards have the re-check's games; the cap is the budget's ``games``."""
    if not widen:
        return Sizes(budget.search, budget.verify, 0, 0, budget.recheck, budget.first, budget.games)
    half, vhalf = max(10, budget.search // 2), max(10, budget.verify // 2)
    return Sizes(half, vhalf, max(10, budget.search - half), vhalf, budget.recheck, budget.first, budget.games)


def _values_of(row, cols) -> dict | None:
    try:
        return {c: ast.literal_eval(str(row[c])) for c in cols}
    except (ValueError, SyntaxError):
        return None


def ranked_candidates(history: pd.DataFrame) -> list[dict]:
    """The candidates of a search's ``history``, best first as the search ranked them: the later the round a
    candidate reached, the better; within a round, the smaller its distance to the target there."""
    if history is None or not len(history):
        return []
    skip = {"round", "games", "estimate", "se", "distance"}
    cols = [c for c in history.columns if c not in skip and not c.startswith("estimate[")]
    last = history.sort_values("round").groupby(cols, sort=False, dropna=False).tail(1)
    last = last.sort_values(["round", "distance"], ascending=[False, True], kind="stable")
    out = []
    for _, row in last.iterrows():
        values = _values_of(row, cols)
        if values is not None:
            out.append(values)
    return out


def _probes(in_play: str, players: int, others, objective=None) -> list:
    """The paired run's probes: the in-play guard, the start player's guard, the other findings, and (a next-best
    candidate's run) the objective itself."""
    from ._balance_guards import _probe

    probes = []
    if in_play:
        probes.append(("guard", _probe(f"in play: {in_play}", 0.0), in_play, 0.0))
    probes.append(("guard", _probe("start player's win share", 1 / players), "start_player_win", 1 / players))
    probes += [o for o in others if o[2] not in (in_play, "start_player_win")]
    if objective is not None:
        probes.append(("objective", _probe(f"objective {objective[0]}", objective[1]), objective[0], objective[1]))
    return probes


def _guard_notes(table: pd.DataFrame, games: int) -> list[str]:
    return [f"guard {g.guard}, {g.metric}: {g.before:.4g} [{g.before_ci_low:.4g}, {g.before_ci_high:.4g}] -> "
            f"{g.after:.4g} [{g.after_ci_low:.4g}, {g.after_ci_high:.4g}] (paired, {games:,} games each): {g.why}"
            for g in table.itertuples()]


def _changed(base, values: dict) -> dict:
    return {k: v for k, v in values.items() if base.get(k.split(",")[0].strip()) != v}


def _short_values(values: dict) -> str:
    from ._balance_toml import assignments_text

    return assignments_text(values.items()) or "the packaged values"


def propose(game: str, cand, *, sizes: Sizes, ranges=(), own: int = 0, policies=None, components=None,
            tolerance: float = 0.0, rng=0, in_play: str = "", fraction: float = 0.5, others=(), guards: bool = True,
            progress: bool = False, cache_dir=None, n_jobs: int = 1, backend: str = "loky", scheduler=None,
            search_policies=None):
    """The proposal for candidate ``cand`` (:class:`~pyradice_lab.design.proposals.Candidate`: objective, games,
    lever parameters) along the path of this module; returns ``(result, games played)``.

    ``ranges``/``own``: the lever's declared ranges (``Lever.ranges_of``; none: no joint search); ``in_play`` and
    ``fraction``: the in-play guard; ``rng``: a seed, or three (the grid's search, the joint search, the guards); ``others``: ``(experiment, finding, metric, null)`` of the other findings to
    keep from getting worse; ``search_policies``: a cheaper player the searches play (``policies`` then plays only the
    verifications and the guards: the report player judges the pick on fresh seeds).  The result's ``tries`` lists every candidate the guards judged (values, passed, why),
    its ``guards`` those of the candidate kept, its ``notes`` what was tried and, unmet, the closest point."""
    from ._balance_memo import sharing_runs

    with sharing_runs():  # a run played twice in this proposal (the packaged side's verification) is played once
        return _propose(game, cand, sizes=sizes, ranges=ranges, own=own, policies=policies, components=components,
                        tolerance=tolerance, rng=rng, in_play=in_play, fraction=fraction, others=others,
                        guards=guards, progress=progress, cache_dir=cache_dir, n_jobs=n_jobs, backend=backend,
                        scheduler=scheduler, search_policies=search_policies)


def _propose(game, cand, *, sizes, ranges, own, policies, components, tolerance, rng, in_play, fraction, others,
             guards, progress, cache_dir, n_jobs, backend, scheduler, search_policies=None):
    from ..engine.rng import spawn_seeds
    from ._balance_controls import available
    from ._balance_finding import _excess_text, _unreachable, _widen
    from .balance import balance

    # a seed: three spawned (search, widening, guards); the report gives the three itself
    search_seed, widen_seed, guard_seed = rng if isinstance(rng, tuple) else spawn_seeds(rng, 3)
    objective = (cand.metric, cand.target)
    kw = dict(players=cand.players, policies=policies, components=components, first_games=sizes.first,
              game_kwargs=dict(cand.game_kwargs), tolerance=tolerance, progress=progress, cache_dir=cache_dir,
              n_jobs=n_jobs, backend=backend, scheduler=scheduler)
    # the game's controls read off the games (Purramid's turn luck) wherever the players give them
    kw["controls"] = available(game, cand.metric, search_policies or policies, policies)
    # a cheaper search player: the searches play it, the report player (``policies``) verifies and guards
    skw = kw if not search_policies else {**kw, "policies": search_policies, "verify_policies": policies}
    res = balance(game, cand.parameters, objective, rng=search_seed, budget=sizes.grid,
                  verify_games=sizes.grid_verify, **skw)
    played = res.games_used + 2 * res.verify_games
    notes = [f"lever: {cand.lever}" + (" (a rule change)" if cand.rule_change else "")]
    if search_policies:
        notes.append(f"the search played by {search_policies} (a cheaper player: {res.games_used:,} games); its pick "
                     f"verified and guarded by {policies} on fresh seeds")
    tried = [f"the lever's grid ({res.candidates} candidates)"]   # the lever itself is said once, in the first note
    left = None if sizes.total is None else sizes.total - 2 * (sizes.guards if guards else 0)
    if ranges and not confident(res, sizes.final) and sizes.joint:
        if left is not None and played + sizes.joint + 2 * sizes.joint_verify > left:
            notes.append(f"the joint search over the declared ranges was not run: the proposal's {sizes.total:,} "
                         "games are spent")
        else:
            first, seen = res, set()
            wkw = dict(budget=sizes.joint, verify_games=sizes.joint_verify, **skw)
            res, text, second_games = _widen(game, cand, first, ranges, own, rng=widen_seed, final_games=sizes.final,
                                             played=seen, **wkw)
            played += second_games
            tried.append(text.split(" (")[0] + " (its ranges above)")   # said in full in the note before
            notes.append(f"first search (the lever's grid): {_excess_text(first)}; then {text}: "
                         f"{_excess_text(res) if res is not first else 'no closer'}")
            if sizes.final and sizes.refinements > 1 and res is not first:
                from ._balance_refine import refine_more

                res, more, said = refine_more(game, cand, res, ranges, own, rng=widen_seed, final=sizes.final,
                                              played=seen, refinements=sizes.refinements, kw=wkw)
                played += more
                notes += said
                if said:
                    tried.append(f"{sum(n.startswith('refinement ') and 'not run' not in n for n in said) + 1} "
                                 "refinements (the last ones over candidates no earlier one played)")
    res.tries = []
    if guards and sizes.guards:
        res, played = _guarded(game, cand, res, objective, sizes, played, rng=guard_seed, in_play=in_play,
                               fraction=fraction, others=others, kw=kw)
    elif guards:
        res.notes.append("guards not run: no games for them in this proposal's budget")
    if res.reached and _no_change(res.components, kw.get("components")):
        # the pick is the packaged values themselves: nothing to adopt, whatever its verification says (a finding
        # that claims a difference was measured on more games than a proposal's verification)
        res.reached = False
        notes.append("no change proposed: the search's pick is the packaged values (its verification, "
                     f"{res.verify_games:,} games a side, cannot overrule the finding)")
    if not res.reached:
        notes.append(_unreachable(res, tried, ranges))
    elif _before_met(res):
        b = res.before
        notes.append(f"met, but the packaged values meet the objective on these verification games too (before "
                     f"{b.value:.3g} [{b.ci_low:.3g}, {b.ci_high:.3g}]): {res.verify_games:,} games a side cannot tell "
                     "the proposal from no change")
    res.notes = notes + res.notes
    return res, played


def _no_change(comp, start) -> bool:
    """Whether ``comp`` holds the same values as the components the proposal started from (``start``: None for the
    packaged ones): only sources differ (a value set to itself is marked ``designer``)."""
    from ._balance_toml import value_changes

    return not value_changes(comp, type(comp).FORMAT.coerce(start))


def _before_met(res) -> bool:
    """Whether the verification's packaged side meets the objective too (its interval reaching the target)."""
    b = res.before
    return b is not None and b.ci_low - res.tolerance <= res.target <= b.ci_high + res.tolerance


def _guarded(game, cand, res, objective, sizes, played, *, rng, in_play, fraction, others, kw):
    """The guards on ``res``; while they refuse, the next-best candidates of the search (at most :data:`MAX_TRIES`
    in all, within ``sizes.total``), each measured with its objective on the guards' paired run."""
    from ._balance_grid import _paths
    from ._balance_guards import guard_table
    from .proposals import recheck

    base = type(res.components).FORMAT.coerce(kw.get("components"))
    run = dict(games=sizes.guards, players=cand.players, policies=kw["policies"], game_kwargs=kw["game_kwargs"],
               rng=rng, n_jobs=kw["n_jobs"], backend=kw["backend"], scheduler=kw["scheduler"],
               cache_dir=kw["cache_dir"])
    rows = recheck(game, base, res.components, _probes(in_play, cand.players, others), **run)
    played += 2 * sizes.guards
    res.rechecks = [x for x in rows if x.experiment != "guard"]
    res.guards = guard_table(rows, in_play=in_play, fraction=fraction, players=cand.players)
    res.guarded = bool(res.guards["passed"].all())
    refused = _why(res.guards)
    res.tries = [{"values": dict(res.values), "passed": res.guarded, "why": refused or "passes the guards"}]
    seen = {res.components.content_hash(), base.content_hash()}
    kept = res
    for values in ranked_candidates(res.history):
        if kept.guarded or len(res.tries) >= MAX_TRIES:
            break
        try:
            comp = base.replace(_paths(values))
        except ValueError:
            continue
        changed = _changed(base, values)
        if not changed or comp.content_hash() in seen or any(t["values"] == changed for t in res.tries):
            continue
        seen.add(comp.content_hash())
        if sizes.total is not None and played + 2 * sizes.guards > sizes.total:
            res.tries.append({"values": changed, "passed": None,
                              "why": f"not tried: the proposal's {sizes.total:,} games are spent"})
            break
        rows = recheck(game, base, comp, _probes(in_play, cand.players, others, objective), **run)
        played += 2 * sizes.guards
        obj = next(x for x in rows if x.experiment == "objective")
        rest = [x for x in rows if x.experiment != "objective"]
        table = guard_table(rest, in_play=in_play, fraction=fraction, players=cand.players)
        passed = bool(table["passed"].all())
        res.tries.append({"values": changed, "passed": passed, "why": _why(table) or "passes the guards"})
        if passed:
            kept = _next_result(res, changed, comp, obj, table, rest, sizes.guards)
    if kept is not res:
        kept.tries = res.tries
    kept.notes = list(kept.notes) + _guard_notes(kept.guards, sizes.guards) + _tries_notes(kept.tries)
    return kept, played


def _why(table: pd.DataFrame) -> str:
    return "; ".join(str(w).removeprefix("REFUSED: ") for w in table.loc[~table["passed"], "why"])


def _tries_notes(tries: list) -> list[str]:
    if len(tries) < 2:
        return []
    out = []
    for i, t in enumerate(tries, 1):
        state = {True: "passes the guards", False: f"REFUSED: {t['why']}", None: t["why"]}[t["passed"]]
        out.append(f"candidate {i} of the search's ranking ({_short_values(t['values'])}): {state}")
    return out


def _next_result(res, changed: dict, comp, obj, table, rest, games: int):
    """The result of a next-best candidate that passes the guards: its objective from the guards' paired run."""
    b, a = obj.before, obj.after
    tol = res.tolerance
    met = bool(a.ci_low - tol <= obj.null <= a.ci_high + tol)
    objectives = pd.DataFrame([{"metric": obj.metric, "target": obj.null, "before": b.value, "before_ci_low": b.ci_low,
                                "before_ci_high": b.ci_high, "after": a.value, "after_ci_low": a.ci_low,
                                "after_ci_high": a.ci_high, "excess": a.value - obj.null, "met": met}])
    out = replace(res, values=changed, components=comp, before=b, after=a, objectives=objectives, reached=met,
                  verify_games=int(games), guards=table, guarded=True, notes=list(res.notes))
    out.rechecks = [x for x in rest if x.experiment != "guard"]
    out.notes.append(f"the search's pick was refused by the guards; this is the next-best candidate that passes "
                     f"them, verified with its objective on the guards' paired run ({games:,} fresh games each side)")
    return out
