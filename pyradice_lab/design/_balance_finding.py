"""Asking for a proposal by finding: ``pyradice-lab <game> balance --finding ID`` and :func:`balance_finding`
(private; :mod:`.balance` re-exports the public names).

A finding of the report's findings CSV (``<report>_findings.csv`` beside the PDF; its ``id`` column) is found by
its **id**, ``<experiment>-<metric>-<N>p`` (:func:`pyradice_lab.design.proposals.finding_id`: the name the report
gives its proposal file, e.g. ``meerkat_tile_fairness-tile_pay_excess_9-3p``), or by its ``rank`` (the CSV's first
column).  The game's robustness check that measures the finding (the game's ``checks.py``) gives the metric,
its null value (the objective's target), the player count and the simulation options; the game's lever for that
metric (its ``levers.py``) gives the parameters and the budget; the game's report player plays.  ``--param``
still names parameters of one's own (the finding then gives the objective and the games).
"""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

__all__ = ["DEFAULT_FINDINGS_CSV", "FindingRef", "findings_of", "resolve_finding", "finding_candidate",
           "balance_finding", "id_of", "OBJECTIVE_KINDS", "check_objective_kind", "win_candidate",
           "finding_players", "check_search_policies"]

#: what a proposal by finding may target: kind -> what it means (``balance --finding ID --objective-kind``)
OBJECTIVE_KINDS = {
    "pay": "the finding's own metric at its null (e.g. a tile's pay per piece committed at the board mean)",
    "win": "the component's worth to winning by restricted play (the lever's Lever.win metric at 0: committing to "
           "it is worth the others' mean to winning)",
}


def check_objective_kind(objective_kind) -> str:
    """``objective_kind`` if it is one of :data:`OBJECTIVE_KINDS`, else a ValueError naming the parameter."""
    if not isinstance(objective_kind, str) or objective_kind not in OBJECTIVE_KINDS:
        raise ValueError("objective_kind must be " + " or ".join(f"{k!r} ({v})" for k, v in OBJECTIVE_KINDS.items())
                         + f", got {objective_kind!r}")
    return objective_kind

def check_search_policies(search_policies):
    """``search_policies`` if it is ``"auto"``, ``"none"``, None, a policy name or one per seat, else a ValueError
    naming the parameter (:func:`balance_finding`)."""
    ok = search_policies is None or (isinstance(search_policies, str) and search_policies.strip()) or (
        isinstance(search_policies, (list, tuple)) and search_policies
        and all(isinstance(x, str) and x.strip() for x in search_policies))
    if not ok:
        raise ValueError("search_policies must be 'auto' (the game's declared cheaper search player when the report "
                         "player verifies), 'none' or None (every game by the verifying players), or a policy name "
                         f"or one per seat, got {search_policies!r}")
    return search_policies


def finding_players(game: str, players: int, policies=None, search_policies="auto"):
    """``(search, policies)`` of :func:`balance_finding`: the players who verify and guard the proposal (``policies``,
    default the game's report player at ``players``) and those who play its search when others do (``search``; None:
    the same).  ``search_policies="auto"``: the game's declared cheaper search player
    (:func:`._balance_path.cheap_player`, as the report's proposals) when the report player verifies; ``"none"`` or
    None: nobody else; a policy name (or one per seat): that player."""
    from ..engine.registry import get_game
    from ._balance_path import cheap_player
    from .proposals import game_levers

    check_search_policies(search_policies)
    report = get_game(game).report_player_at(players) or None
    policies = policies or report
    if isinstance(search_policies, str) and search_policies.strip() == "auto":
        search = cheap_player(game_levers(game), policies, report)
    elif search_policies is None or (isinstance(search_policies, str) and search_policies.strip() == "none"):
        search = None
    else:
        search = search_policies
    return (None if search == policies else search), policies


def _who(policies) -> str:
    return policies if isinstance(policies, str) else ",".join(map(str, policies or ())) or "the default players"


def _players_note(search, policies, search_policies, *, budget, b, sizes, guards: bool = True) -> str:
    """The proposal's line on who played what: "searched with S, verified with V", why, and the search's budget."""
    why = ("the game's declared cheaper search player (its levers' search_player), as in the report's proposals"
           if isinstance(search_policies, str) and search_policies.strip() == "auto" else
           "the search player asked for (search_policies=, --search-policies)")
    size = (f"the search's {sizes.grid:,} games as given (budget=, --budget)" if budget else
            f"the game's search budget ({b.search:,} games, {b.first:,} a candidate first; raised to a full halving "
            f"over the grid: {sizes.grid:,})" if b is not None and sizes.grid > b.search else
            f"the game's search budget ({sizes.grid:,} games, {sizes.first:,} a candidate first)")
    judged = f"{sizes.grid_verify:,} games per verification side" + (
        f" and {sizes.guards:,} per guard side" if guards and sizes.guards else "")
    return (f"searched with {_who(search)}, verified with {_who(policies)}: {why}; {size}; {judged} by "
            f"{_who(policies)}; the grid alone (no joint search: a refinement on {_who(search)}'s games would home "
            f"in on its crossing, not {_who(policies)}'s); search_policies='none' (--search-policies none) plays "
            f"every game with {_who(policies)}")


#: the findings CSV of the report at its default path (``pyradice-lab report`` writes ``reports/
#: pyradice_lab_report.pdf`` and this file beside it)
DEFAULT_FINDINGS_CSV = Path("reports") / "pyradice_lab_report_findings.csv"
#: the columns a findings CSV must have to be read here
_COLUMNS = ("rank", "experiment", "kind", "quantity", "estimate", "ci_low", "ci_high", "n", "null", "player",
            "component")


class FindingRef:
    """One row of a findings CSV that a balance run can answer: its ``id`` and ``rank``, the ``experiment``, the
    :class:`~pyradice_lab.engine.findings.Finding` rebuilt from the row, and the robustness ``check`` measuring it
    (its ``game``, metric, null, player count and options)."""

    def __init__(self, id: str, rank: int, experiment: str, finding, check):
        self.id, self.rank, self.experiment, self.finding, self.check = id, rank, experiment, finding, check

    @property
    def game(self) -> str:
        return self.check.game

    @property
    def metric(self) -> str:
        return self.check.metric_for(self.finding.quantity)

    def describe(self) -> str:
        f = self.finding
        claim = "a claim" if f.is_claim else "no claim"
        return (f"{self.id} (rank {self.rank}): {f.quantity}, {f.player or 'the report player'}: {f.estimate:.4g} "
                f"[{f.ci_low:.4g}, {f.ci_high:.4g}] against {f.null:.4g}, n = {f.n:,} ({claim})")

    def __repr__(self) -> str:
        return f"FindingRef({self.describe()})"


def _read(path):
    import pandas as pd

    p = Path(path)
    if not p.is_file():
        raise ValueError(f"findings_csv: no file {str(p)!r} (the report writes <report>_findings.csv beside its PDF; "
                         f"default {str(DEFAULT_FINDINGS_CSV)!r})")
    try:
        df = pd.read_csv(p, keep_default_na=False)
    except (ValueError, OSError) as exc:
        raise ValueError(f"findings_csv: {str(p)!r} is not a CSV file ({exc})") from None
    missing = [c for c in _COLUMNS if c not in df.columns]
    if missing:
        raise ValueError(f"findings_csv: {str(p)!r} is not a report's findings CSV (no column "
                         f"{', '.join(missing)})")
    return df


def _num(v, default=None):
    if v is None or (isinstance(v, str) and not v.strip()):
        return default
    try:
        x = float(v)
    except (TypeError, ValueError):
        return default
    return default if math.isnan(x) else x


def _finding(row):
    """The :class:`Finding` of one CSV row (what a lever reads: quantity, estimate, interval, null, player)."""
    from ..engine.findings import Finding

    robust = {"True": True, "False": False}.get(str(row.get("robust", "")))
    q = _num(row.get("q_value"))
    return Finding(str(row["kind"]), str(row["quantity"]), float(row["estimate"]), float(row["ci_low"]),
                   float(row["ci_high"]), n=int(float(row["n"])), null=_num(row["null"]),
                   test=str(row.get("test", "") or ""), player=str(row.get("player", "") or ""),
                   unit=str(row.get("unit", "") or ""), component=str(row.get("component", "") or ""),
                   robust=robust, robustness=str(row.get("robustness", "") or ""),
                   p_value=_num(row.get("p_value")), q_value=None if q is None else min(q, 1.0),
                   no_claim=str(row.get("no_claim", "") or ""))


def findings_of(findings_csv=None, game: str | None = None) -> list[FindingRef]:
    """The component findings of a findings CSV (default :data:`DEFAULT_FINDINGS_CSV`) that a game's robustness
    check measures with one metric (the findings a balance run can answer), of ``game`` only if given."""
    from .checks import all_checks, check_of
    from .proposals import finding_id, metric_checks

    df = _read(findings_csv if findings_csv is not None else DEFAULT_FINDINGS_CSV)
    checks = metric_checks(all_checks())
    out = []
    for _, row in df.iterrows():
        if not str(row["component"]).strip() or _num(row["null"]) is None:
            continue
        try:
            f = _finding(row)
        except (ValueError, TypeError):  # a row the Finding type refuses is not one a proposal can answer
            continue
        exp = str(row["experiment"])
        check = check_of(checks, exp, f)
        if check is None or (game is not None and check.game != game):
            continue
        out.append(FindingRef(finding_id(exp, check.metric_for(f.quantity), check.players), int(row["rank"]),
                              exp, f, check))
    return out


def id_of(experiment: str, f) -> str:
    """The id ``balance --finding`` takes for finding ``f`` of ``experiment`` (the report's findings CSV's ``id``
    column): ``<experiment>-<metric>-<N>p`` when a game's robustness check measures it with one metric and it
    names a component, else ""."""
    from .checks import all_checks, check_of
    from .proposals import finding_id, metric_checks

    if not f.component or f.null is None:
        return ""
    check = check_of(metric_checks(all_checks()), experiment, f)
    return "" if check is None else finding_id(experiment, check.metric_for(f.quantity), check.players)


def resolve_finding(game: str, finding, findings_csv=None) -> FindingRef:
    """The finding ``finding`` (its id, or its rank in the CSV) of ``game`` in ``findings_csv``; a ValueError
    naming ``finding`` and the ids there are otherwise."""
    from ..engine.registry import get_game

    get_game(game)
    if isinstance(finding, bool) or not isinstance(finding, (str, int)) or not str(finding).strip():
        raise ValueError(f"finding must be a finding's id (<experiment>-<metric>-<N>p, the id column of the findings "
                         f"CSV) or its rank there, got {finding!r}")
    key = str(finding).strip()
    every = findings_of(findings_csv)
    hit = [r for r in every if r.id == key or str(r.rank) == key]
    if hit and hit[0].game != game:
        raise ValueError(f"finding {key!r} is a finding of {hit[0].game}, not of {game}")
    mine = [r for r in every if r.game == game]
    if not hit:
        where = str(findings_csv if findings_csv is not None else DEFAULT_FINDINGS_CSV)
        ids = ", ".join(f"{r.id} (rank {r.rank})" for r in mine[:8]) + (" ..." if len(mine) > 8 else "")
        raise ValueError(f"finding {key!r}: no component finding of {game} with that id or rank in {where!r}"
                         + (f" (its ids: {ids})" if mine else f" (it has none of {game} with a metric)"))
    return hit[0]


def finding_candidate(ref: FindingRef, parameters=None, objective_kind: str = "pay"):
    """The proposal candidate of ``ref`` (:class:`pyradice_lab.design.proposals.Candidate`): the objective (the
    check's metric at its null; ``objective_kind="win"``: the lever's :attr:`~pyradice_lab.engine.levers.Lever.win`
    metric at 0), the games (players, options) and, unless ``parameters`` are given, the game's lever for the metric
    (:class:`~pyradice_lab.engine.levers.NoLever` when there is none, or no win metric for ``"win"``)."""
    from ..engine.levers import NoLever
    from .proposals import Candidate, _components, game_levers

    check_objective_kind(objective_kind)
    c = ref.check
    cand = Candidate(ref.id, c.game, ref.experiment, ref.finding, ref.metric, float(c.threshold), c.players,
                     dict(c.game_kwargs))
    levers = game_levers(c.game)
    lever = levers.lever(ref.metric) if levers is not None else None
    if objective_kind == "win":
        if lever is None or not lever.win:
            raise NoLever(f"{c.game} declares no objective about winning for {ref.metric.partition(':')[0]} (Lever.win "
                          f"in its levers.py); its objective is the finding's own, {ref.metric} (objective kind pay)")
        if not parameters:
            return win_candidate(cand, lever, _components(c.game))
        cand = replace(cand, metric=lever.win.format(arg=ref.metric.partition(":")[2]), target=0.0)
    if parameters:
        return replace(cand, parameters=dict(parameters), lever="the parameters given")
    if lever is None:
        raise NoLever(f"{c.game} declares no lever for {ref.metric.partition(':')[0]} (its levers.py); name the "
                      "parameters yourself (--param)")
    arg = c.players if lever.by_players else ref.metric.partition(":")[2]
    params, text, rule, *extra = lever(_components(c.game), arg, ref.finding)
    return replace(cand, parameters=params, lever=text, rule_change=rule,
                   game_kwargs={**cand.game_kwargs, **(extra[0] if extra else {})})


def win_candidate(cand, lever, comp):
    """Candidate ``cand`` (its finding's own metric) turned to the lever's objective about winning: the metric
    :attr:`~pyradice_lab.engine.levers.Lever.win` at 0, and the lever's values **both ways** (the finding's side is
    that of its own metric, not of its worth to winning): those the lever proposes for the finding, then those it
    proposes for the finding mirrored about its null; or the lever's own grid for it (``Lever.win_grid``).  The report's proposals (a lever whose ``report_kind`` is
    ``"win"``) and ``balance --finding ID --objective-kind win`` both build it here."""
    f = cand.finding
    arg = cand.players if lever.by_players else cand.metric.partition(":")[2]
    params, text, rule, *extra = lever(comp, arg, f)
    if lever.win_grid is not None:  # the lever's own candidates for it
        params, text = lever.win_grid(comp, arg, f)[:2]
    else:
        other = replace(f, estimate=2 * f.null - f.estimate, ci_low=2 * f.null - f.ci_high,
                        ci_high=2 * f.null - f.ci_low)
        back = lever(comp, arg, other)[0]
        params = {p: list(v) + [x for x in back.get(p, []) if x not in v] for p, v in params.items()}
        text += "; and as far the other way (the finding's side is its pay, not its worth to winning)"
    return replace(cand, metric=lever.win.format(arg=cand.metric.partition(":")[2]), target=0.0, parameters=params,
                   lever=text, rule_change=rule, game_kwargs={**cand.game_kwargs, **(extra[0] if extra else {})})


def kind_note(kind: str, metric: str, target: float, finding_metric: str, lever, policies, *,
              report: bool = False) -> str:
    """A proposal's line on its objective (``metric`` at ``target``): which kind, and why (``finding_metric``: the
    finding's own metric; ``lever``: the game's lever for it, or None; ``report``: the report's proposal, whose
    kind the lever declares, :attr:`~pyradice_lab.engine.levers.Lever.report_kind`, with its reason)."""
    if kind == "win":
        who = policies if isinstance(policies, str) else "the players"
        asked = ("the game's choice for the report's proposals (Lever.report_kind): " + lever.report_why
                 if report and lever is not None and lever.report_why else
                 "asked for with objective_kind='win' (--objective-kind win): the finding's "
                 f"{finding_metric} can be met by making the component unattractive, this asks that committing to it "
                 "be worth the others' mean to winning")
        return (f"objective kind win: {metric} = 0, by restricted play ({who} in every seat, some forbidden "
                f"the component in turn), {asked}")
    alt = lever.win.format(arg=finding_metric.partition(":")[2]) if lever is not None and lever.win else ""
    return (f"objective kind pay: {metric} = {target:g}, the finding's own metric (the default"
            + (f"; objective_kind='win' (--objective-kind win) targets its worth to winning, {alt} = 0)" if alt
               else "; the game declares no objective about winning for it)"))


def balance_finding(game: str, finding, *, findings_csv=None, parameters=None, budget: int | None = None,
                    first_games: int | None = None, verify_games: int | None = None, policies=None, rng=0,
                    components=None, tolerance: float = 0.0, progress: bool = False, cache_dir=None, n_jobs: int = 1,
                    backend: str = "loky", scheduler=None, widen: bool = True, guards: bool = True,
                    objective_kind: str = "pay", search_policies="auto"):
    """A balance proposal for one finding of the report: :func:`~pyradice_lab.design.balance.balance` with the
    objective, games, lever and players the finding gives.

    Parameters
    ----------
    game : str
        A registered game (the finding must be one of its findings).
    finding : str or int
        The finding's id in the findings CSV (``<experiment>-<metric>-<N>p``, e.g.
        ``"meerkat_tile_fairness-tile_pay_excess_9-3p"``: the name of the report's proposal file) or its rank.
    findings_csv : path, optional
        The report's findings CSV (default :data:`DEFAULT_FINDINGS_CSV`, beside the default report's PDF).
    parameters : dict, optional
        Parameters of one's own (as for ``balance``); default: the game's lever for the finding's metric.
    budget, first_games, verify_games : int, optional
        Default: the game's proposal budget at the finding's player count (``levers.LEVERS``), else ``balance``'s;
        the default budget of the grid's search is at least a full successive halving over the lever's grid
        (:func:`._balance_grid.halving_games`: the candidates, ``first_games`` each, halved to one), since a search
        cut short picks on its first round's few games (the designer guide's 9-of-10 table).  The joint search is
        a **refinement** of the grid's pick: :data:`REFINE_CANDIDATES` candidates around it (the pick itself
        first), halved to two that play :data:`FINAL_FACTOR` x ``verify_games`` games each
        (:func:`._balance_grid.refine_games`; ``budget`` caps it when given); it runs unless the grid's verified
        pick meets the objective beyond doubt (its whole interval within ``tolerance``: :func:`._balance_path.
        confident`), and its pick, chosen over the grid's on common random numbers, is kept.  Without ``budget``,
        while the kept pick's final round puts it off the target beyond its 95% interval, the search widens: a
        further refinement around it over candidates no earlier one played, at most
        :data:`._balance_refine.MAX_REFINEMENTS` in all, the pick whose final round lies closest kept.
    policies : optional
        The players who verify and guard the proposal (and, without a separate search player, play its search).
        Default: the game's report player.
    search_policies : "auto", "none", None, str or list
        Who plays the search.  ``"auto"`` (default): the game's declared cheaper search player
        (``LEVERS.search_player``, e.g. Meerkat's ``expectimax``) when the report player verifies (``policies`` not
        given, or the report player), as the report's proposals do (:func:`._balance_path.cheap_player`); the budget
        is then the game's search budget (``LEVERS.budget_for(players, True)``; ``budget``, ``first_games``,
        ``verify_games`` as given), the lever's grid is searched alone (no joint search), and the pick is verified
        and guarded by ``policies``.  ``"none"`` or None: every game by ``policies``.  A policy name (or one per
        seat): that player searches.  The result's notes (and the file's header) say "searched with S, verified
        with V" and why.
    rng, components, tolerance, progress, cache_dir, n_jobs, backend, scheduler
        As for ``balance``.
    widen : bool
        When the lever's grid does not meet the objective beyond doubt, search the lever's declared ranges jointly
        (its own, finer steps, and its neighbours'; ``Lever.axes``) around the grid's best (the refinement above).
    guards : bool
        Check the proposal against empty wins (:mod:`._balance_guards`: the component kept in play, the start
        player's share not worse, no other finding of the CSV made worse), one paired run; the result's
        ``guards`` table and ``guarded`` flag hold the verdicts, and the file's header states them.
    objective_kind : {"pay", "win"}
        ``"pay"`` (default): the finding's own metric at its null (:data:`OBJECTIVE_KINDS`).  ``"win"``: the lever's
        objective about winning (``Lever.win``, e.g. Meerkat's ``commit_win_excess:T = 0``: committing to the tile
        is worth the other tiles' mean to winning), measured by restricted play with the same players; the lever's
        values are then tried both ways.  The result's notes (and the file's header) state the kind and why.

    Returns
    -------
    BalanceResult
        With :attr:`~pyradice_lab.design.balance.BalanceResult.finding` set (the finding answered, its estimate
        and interval); ``to_toml`` writes only the changed values under a header that states it.

    Raises
    ------
    ValueError
        ``finding`` is not in the CSV (the message lists the game's ids), is another game's, the CSV is missing
        or not a findings CSV, the finding's metric has no lever and no ``parameters`` are given, or
        ``objective_kind`` is not one of :data:`OBJECTIVE_KINDS` (or ``"win"`` where the lever declares none).

    Examples
    --------
    >>> balance_finding("meerkat", "no-such-finding", findings_csv="/nonexistent.csv")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: findings_csv: no file '/nonexistent.csv' ...
    """
    from ..engine.levers import NoLever
    from ._balance_grid import refine_games
    from ._balance_path import Sizes, propose
    from ._balance_refine import MAX_REFINEMENTS
    from .proposals import _components, game_levers

    check_objective_kind(objective_kind)
    check_search_policies(search_policies)
    ref = resolve_finding(game, finding, findings_csv)
    try:
        cand = finding_candidate(ref, parameters, objective_kind)
    except NoLever as exc:
        raise ValueError(f"finding {ref.id!r}: no lever: {exc}") from None
    levers = game_levers(game)
    # a cheaper search player (the game's, as the report's proposals): its budget, the report player verifying
    searcher, policies = finding_players(game, cand.players, policies, search_policies)
    b = levers.budget_for(cand.players, bool(searcher)) if levers is not None else None
    first = first_games or (b.first if b else 200)
    # the grid's search runs its halving to one candidate; the joint search refines its pick: REFINE_CANDIDATES
    # around it, halved to two that play FINAL_FACTOR x the verification's games each (the level's standard error a
    # third of the verification's), its budget exactly that
    verify = verify_games or (b.verify if b else 4000)
    final = FINAL_FACTOR * verify
    joint = budget or refine_games(REFINE_CANDIDATES, first, final)
    search = budget or (max(b.search, _full_halving(cand.parameters, first)) if b else 20000)
    sizes = Sizes(search, verify, joint, verify, (b.recheck or b.verify) if b is not None else verify, first,
                  final=final, refinements=1 if budget else MAX_REFINEMENTS)
    lever = levers.lever(ref.metric) if levers is not None and not parameters else None
    ranges, own = (), 0
    if lever is not None and widen and not searcher:   # a separate search player plays the lever's grid alone
        arg = cand.players if lever.by_players else ref.metric.partition(":")[2]
        ranges, own = lever.ranges_of(_components(game), arg, ref.finding)
    own_lever = levers.lever(ref.metric) if levers is not None else None
    others = [(o.experiment, o.finding, o.metric, float(o.check.threshold)) for o in findings_of(findings_csv, game)
              if o.id != ref.id and o.check.players == cand.players
              and dict(o.check.game_kwargs) == dict(ref.check.game_kwargs)]
    res, _ = propose(game, cand, sizes=sizes, ranges=ranges, own=own, policies=policies, components=components,
                     tolerance=tolerance, rng=rng, in_play=_in_play(own_lever, ref.metric),
                     fraction=levers.in_play_fraction if levers is not None else 0.5, others=others, guards=guards,
                     progress=progress, cache_dir=cache_dir, n_jobs=n_jobs, backend=backend, scheduler=scheduler,
                     search_policies=searcher)
    res.finding = ref.describe()
    res.notes.insert(0, kind_note(objective_kind, cand.metric, cand.target, ref.metric, own_lever, policies))
    if searcher:   # in place of the path's own line on the search player: who, why, and the budget's origin
        said = [i for i, n in enumerate(res.notes) if n.startswith("the search played by")]
        note = _players_note(searcher, policies, search_policies, budget=budget, b=b, sizes=sizes, guards=guards)
        if said:
            res.notes[said[0]] = note
        else:
            res.notes.insert(1, note)
    start = components if components is not None else _components(game)   # a parameter the pick leaves unchanged
    from ._balance_final import final_round_note

    said = final_round_note(getattr(res, "history", None), res.values, cand.target, final,
                            base=start.get) if getattr(res, "reached", False) else ""
    if said:  # "met" on the verification alone, where the refinement's larger final round sees the gap
        res.notes.append(said)
    if res.assumptions is not None:  # the root seed (the search, the widening and the guards are spawned from it)
        from ..engine.assumptions import seed_label

        two = any(n.startswith("first search") for n in res.notes)
        res.assumptions = replace(res.assumptions, seed=f"{seed_label(rng)} (spawned: search, widening, guards)",
                                  games=f"{res.games_used:,} in the search{' (two searches)' if two else ''}"
                                        + (f" (played by {_who(searcher)})" if searcher else "")
                                        + f", {res.verify_games:,} per verification run")
    return res


def _full_halving(parameters, first: int) -> int:
    """The games of a successive halving over the grid of ``parameters`` run to one survivor
    (:func:`._balance_grid.halving_games`; the grid capped at :data:`._balance_grid.MAX_CANDIDATES`)."""
    from ._balance_grid import MAX_CANDIDATES, _axes, _grid_size, halving_games

    return halving_games(min(_grid_size(_axes(parameters)), MAX_CANDIDATES), first)


def _in_play(lever, metric: str) -> str:
    """The lever's in-play metric for ``metric``'s argument ("" = none)."""
    return lever.in_play.format(arg=metric.partition(":")[2]) if lever is not None and lever.in_play else ""


def _excess_text(r) -> str:
    t = r.objectives.iloc[0]
    return (f"best {t['after']:.3g} [{t['after_ci_low']:.3g}, {t['after_ci_high']:.3g}] for target {t['target']:g} "
            f"({'met' if r.reached else 'not met'})")


#: a refinement's last two candidates play this many times the verification's games each (``balance --finding``):
#: their level's standard error is then a third of the verification's, enough to pick one a fresh verification
#: of that size meets about 9 times in 10 when one lies within half its standard error of the target
FINAL_FACTOR = 9
#: candidates of a refinement (a joint search with ``final_games``): the first search's pick and its nearest moves
REFINE_CANDIDATES = 19


def _widen(game, cand, first, ranges, own, *, rng, final_games: int = 0, exclude=frozenset(), toward=None,
           played=None, **kw):
    """A second search over the lever's declared ranges jointly (its own and its neighbours'), around the first
    search's best: ``(result, what was tried, games the second search and its verification played)``.  The closer
    of the two verified proposals (met first) is kept; a refinement (``final_games`` > 0: its last two candidates
    play that many games each) keeps its own pick, which it chose over the first's on common random numbers.

    ``exclude``: candidates (:func:`._balance_joint.candidate_key`) an earlier refinement played, left out (the start is always
    played); ``toward``: the target's side of the start (+1 above, -1 below; default from ``first``'s
    verification); ``played``: a set the candidates played are added to."""
    from ..engine.levers import ranges_text
    from ._balance_joint import candidate_key, joint_candidates
    from .balance import balance

    base = type(first.components).FORMAT.coerce(kw.get("components"))
    # as many candidates as leave two halving rounds of the first round's size in the budget
    most = REFINE_CANDIDATES if final_games else max(8, int(kw["budget"]) // (2 * int(kw["first_games"])))
    # the side of the target from the first search's verified pick: moves toward it are tried first
    if toward is None:
        after = getattr(first, "after", None)
        gap = (float(cand.target) - float(after.value)) if after is not None else 0.0
        toward = (gap > 0) - (gap < 0)
    cands = joint_candidates(base, ranges, own=own, start_comp=first.components,
                             max_candidates=min(64, most) if not exclude else 256, toward=toward)
    if exclude:   # the start, then what no earlier refinement played
        cands = (cands[:1] + [c for c in cands[1:] if candidate_key(c) not in exclude])[:min(64, most)]
    if played is not None:
        played.update(candidate_key(c) for c in cands)
    text = (f"a joint search of {len(cands)} candidates over {len(ranges)} ranges ("
            + ranges_text(ranges) + ")")
    if len(cands) < 2:
        return first, text, 0
    # verified on the grid's verification games: its packaged side is the grid's run, kept (._balance_memo), and
    # the two picks are compared on the same games
    second = balance(game, cands, (cand.metric, cand.target), rng=rng, verify_rng=first.verify_rng,
                     final_games=final_games, **kw)
    same = second.verify_games == first.verify_games   # then its packaged side is the grid's run, not replayed
    picked = second.components.content_hash() != first.components.content_hash()
    games = second.games_used + (picked + (not same)) * second.verify_games
    second.games_used += first.games_used
    second.budget += first.budget
    a, b = (abs(float(r.objectives["excess"].abs().max())) for r in (first, second))
    keep = second if final_games or (second.reached, -b) > (first.reached, -a) else first
    return keep, text, games


def _unreachable(res, tried, ranges) -> str:
    """What the data say when the objective is not met: the closest point, the levers tried and their ranges, and
    a suggestion with numbers (the metric's move per step of the lever from the search's first round)."""
    from ._balance_toml import assignments_text, value_changes

    t = res.objectives.iloc[0]
    values = (assignments_text((p, res.components.get(p)) for p in value_changes(res.components))
              or "the packaged values")
    head = (f"unreachable with these levers: closest point {values}: {t['after']:.4g} "
            f"[{t['after_ci_low']:.4g}, {t['after_ci_high']:.4g}] for target {t['target']:g}; tried "
            + " and ".join(tried))
    slope = _slope(res)
    if slope is None:
        return head + "; suggestion: widen the ranges or add another lever"
    per, se, path = slope
    gap = t["target"] - t["after"]
    if abs(per) <= 2 * se:
        return (head + f"; the metric follows none of them clearly (the clearest, {path}: {per:+.3g} +/- {se:.2g} per "
                "step): another lever or a rule change is needed (the guards show whether the players use the "
                "component less)")
    steps = gap / per
    return (head + f"; {path} moves the metric by {per:+.3g} +/- {se:.2g} per step, so the target needs about "
            f"{steps:+.2g} step(s) from the closest point"
            + (": a finer step or a second lever" if abs(steps) < 1 else ": widen its range or add a lever"))


def _slope(res):
    """``(per step, its SE, path)`` of the path the metric follows most clearly (largest |slope| / SE): a weighted
    line through the first round's estimates of the candidates that differ from its first candidate (a joint
    search's start) in that one integer path only; None when no path has two such values."""
    import ast

    import numpy as np
    import pandas as pd

    h = res.history
    if h is None or not len(h) or "estimate" not in h.columns:
        return None
    first = h[h["round"] == 0]
    cols = [c for c in first.columns if c not in ("round", "games", "estimate", "se", "distance")]
    best = {c: first.iloc[0][c] for c in cols}  # the search's first candidate: its start
    found = []
    for path in cols:
        others = [k for k in cols if k != path]
        rows = first[(first[others] == pd.Series({c: best[c] for c in others})).all(axis=1)] if others else first
        xs, ys, ws = [], [], []
        for _, r in rows.iterrows():
            try:
                v = ast.literal_eval(str(r[path]))  # the history's own repr of an int or a list
            except (ValueError, SyntaxError):
                continue
            x = v[0] if isinstance(v, list) and v else v
            if isinstance(x, (int, float)) and r["se"] > 0:
                xs.append(float(x))
                ys.append(float(r["estimate"]))
                ws.append(1 / float(r["se"]) ** 2)
        if len(set(xs)) >= 2:
            x, y, w = np.array(xs), np.array(ys), np.array(ws)
            xm = (w * x).sum() / w.sum()
            sxx = (w * (x - xm) ** 2).sum()
            per = (w * (x - xm) * (y - (w * y).sum() / w.sum())).sum() / sxx
            found.append((abs(per) * np.sqrt(sxx), float(per), float(np.sqrt(1 / sxx)), path))
    if not found:
        return None
    _, per, se, path = max(found)
    return per, se, path
