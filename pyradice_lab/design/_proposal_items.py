"""The report's rendering of one proposal and of the candidates table (private; :mod:`.proposals` re-exports it):
the finding, the objective it targets and why, the lever, the packaged and proposed values, the verdict on fresh
seeds, the guards' before -> after, the candidates the guards refused, and for an unmet objective the closest point
and the levers tried."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd


def _ci(v: float, lo: float, hi: float) -> str:
    return f"{v:.3g} [{lo:.3g}, {hi:.3g}]"


def _values(comp, params: Mapping) -> str:
    """``tile.12.values = 11/6/3``; paths holding the same value are named together (``card 7,8 points = 1``)."""
    import json

    groups: dict[str, tuple] = {}
    seen: set[str] = set()
    for key in params:
        for path in (p.strip() for p in key.split(",")):
            if path in seen:   # a group's key and its own paths both listed: each path once
                continue
            seen.add(path)
            v = comp.get(path)
            groups.setdefault(json.dumps(v), (v, []))[1].append(path)
    return "; ".join(f"{_short(ps)} = {'/'.join(map(str, v)) if isinstance(v, list) else v}"
                     for v, ps in groups.values())


def _short(paths: list[str]) -> str:
    if len(paths) == 1:
        return paths[0]
    from ._balance_toml import _ranges

    head = paths[0].split(".")[0]
    ids = [p.split(".")[1] for p in paths]
    if all(i.isdigit() for i in ids):
        ids = [_ranges(sorted({int(i) for i in ids}))]
    return f"{head} {','.join(ids)} {paths[0].split('.')[-1]}"


def _short_keys(text: str, params: Mapping) -> str:
    """``text`` with every grouped parameter key (``card.7.points,card.8.points``) named as :func:`_short` names it
    (``card 7,8 points``): a verdict naming a 6-card group once, not its 6 paths."""
    for key in sorted(params, key=len, reverse=True):
        paths = [p.strip() for p in key.split(",")]
        if len(paths) > 1:
            text = text.replace(key, _short(paths))
    return text


def _status(p) -> str:
    r = p.result
    out = "objective met" if r.reached else "objective not met"
    if r.guarded is False:
        out += "; refused by the guards"
    elif r.guarded and len(r.tries) > 1:
        out += f"; the search's pick refused by the guards, candidate {len(r.tries)} of its ranking passes them"
    if p.worse:
        out += f"; makes {len(p.worse)} other finding{'s' if len(p.worse) > 1 else ''} worse"
    return out


def _candidates_table(cands: Sequence, done: Mapping) -> pd.DataFrame:
    rows = []
    for c in cands:
        p = done.get(c.id)
        status = _status(p) if p is not None else c.status
        # a proposal that ran states its lever in its own paragraph below: the table gives its size only
        lever = ("–" if not c.parameters else f"{c.grid} candidates, below" if p is not None else
                 f"{c.lever} ({c.grid} candidates)")
        o = p.candidate if p is not None else c   # a proposal run states the objective it targeted (its kind)
        rows.append({"finding": c.finding.quantity, "objective": f"{o.metric} = {o.target:.4g}",
                     "lever": lever, "status": status})
    return pd.DataFrame(rows, columns=["finding", "objective", "lever", "status"])


#: the notes of a proposal the report prints (what was tried, the closest point, the guards' refusals)
_SAID = ("first search", "the joint search", "unreachable", "candidate ", "the search's pick", "guards not run",
         "met, but the packaged")


def _proposal_items(p, out_name: str) -> list:
    from ..engine.registry import get_game
    from ..engine.results import Table, Text
    from ._balance_toml import value_changes
    from .proposals import _components

    c, r = p.candidate, p.result
    base = _components(c.game)
    head = f"{c.game}: {c.finding.component}"
    b = p.budget
    moved = {k: None for k in value_changes(r.components)}   # a value set to itself is no change
    shown = {**{k: None for k in c.parameters}, **moved}
    why = ("the finding's own metric at the value it was tested against (its null), so that what the finding "
           "claims no longer holds")
    kind = next((n for n in r.notes if n.startswith("objective kind win")), "")
    if kind:  # the game's objective about winning (Lever.report_kind): its line says which and why
        why = kind.split(", the game's choice for the report's proposals (Lever.report_kind): ", 1)[-1]
        why = f"an objective about winning instead of the finding's own metric: {why}"
    lines = [f"Finding: {c.finding.quantity} (measured with {c.finding.player or 'the report player'}; "
             f"{c.experiment}). Objective targeted: {c.metric} = {c.target:.4g}, {why}; lever: {c.lever}.",
             f"Packaged: {_values(base, shown)}. Proposed: "
             + (_values(r.components, moved) + (" (a rule change)" if c.rule_change else "") if moved else
                "no change (the search's pick is the packaged values)") + ".",
             f"Verdict (fresh seeds, {r.verify_games:,} games each, {r.verify_policies or r.policies} players"
             + (f"; the search played by {r.policies}" if r.verify_policies else "")
             + (f"; every estimate with the games' {get_game(c.game).part('controls').label}" if r.controls else "")
             + "): "
             f"{_short_keys(r.verdict(), c.parameters)}.",
             f"Games: the search used {r.games_used:,} of {b.search:,}; {p.games:,} in all of this proposal's "
             f"{b.games:,} ({p.seconds:.0f} s). File: {out_name}/{c.id}.toml (pyradice-lab {c.game} ... --components "
             "FILE)."]
    said = [n for n in r.notes if n.startswith(_SAID)]
    if said:
        lines.append("Tried: " + "; ".join(_short_keys(n, c.parameters) for n in said) + ".")
    if r.guarded is not None:
        lines.append("Guards (paired, " + f"{b.recheck:,} fresh games each side; rows 'guard:' below): "
                     + ("passes them." if r.guarded else "REFUSED: " + "; ".join(
                         str(w).removeprefix("REFUSED: ") for w in r.guards.loc[~r.guards["passed"], "why"]) + "."))
    if p.rechecks:
        worse = p.worse
        lines.append("Makes worse: " + "; ".join(x.sentence() for x in worse) + "." if worse else
                      f"Re-check of the game's other {len(p.rechecks)} component finding"
                      f"{'s' if len(p.rechecks) > 1 else ''} in the same games (paired, {b.recheck:,} games): none "
                      "made worse.")
    if p.not_rechecked:
        lines.append(f"{p.not_rechecked} other component finding{'s' if p.not_rechecked > 1 else ''} of the game "
                     "measured in other games (player count, options) or with the re-check off: not re-checked.")
    t = r.objectives
    rows = [{"metric": m.metric, "target": f"{m.target:.4g}", "before [95% CI]": _ci(m.before, m.before_ci_low,
             m.before_ci_high), "after [95% CI]": _ci(m.after, m.after_ci_low, m.after_ci_high),
             "met": ("no change" if not moved else bool(m.met))} for m in t.itertuples()]
    if r.guards is not None:
        rows += [{"metric": f"guard: {g.guard}, {g.metric}", "target": "",
                  "before [95% CI]": _ci(g.before, g.before_ci_low, g.before_ci_high),
                  "after [95% CI]": _ci(g.after, g.after_ci_low, g.after_ci_high),
                  "met": "passes" if g.passed else "REFUSED"}
                 for g in r.guards.itertuples() if not str(g.guard).startswith("other finding")]
    rows += [{"metric": f"re-check: {x.metric}", "target": f"{x.null:.4g}",
              "before [95% CI]": _ci(x.before.value, x.before.ci_low, x.before.ci_high),
              "after [95% CI]": _ci(x.after.value, x.after.ci_low, x.after.ci_high),
              "met": "worse" if x.worse else "not worse"} for x in p.rechecks]
    return [Text("\n\n".join(lines), heading=head),
            Table(pd.DataFrame(rows), caption="Before: the packaged components; after: the proposal; the same fresh "
                                              "games on both (guard and re-check rows: paired, on the guards' games; "
                                              "the differences in the proposal's file).")]
