"""Refinements repeated while the pick lies off the target (``balance --finding``; private).

A refinement (:func:`._balance_finding._widen` with ``final_games``) plays the grid's pick and its nearest moves,
halved to two finalists that play many more games than a verification.  When the finalist it keeps still lies off
the target beyond its final round's 95% interval (measured on Rocking Raft and Pyradice in the designer guide's
9-of-10 table: +0.068 +/- 0.015 and +0.63 +/- 0.11), a verification of a few hundred games may call it met, but a
fresh check often does not.  So the search **widens**: a further refinement around that finalist, toward the
target's side, over the candidates no earlier refinement played (the start again, for the comparison on common
seeds), at most :data:`MAX_REFINEMENTS` refinements in all.  The result kept is the refinement's pick whose final
round lies closest to the target; its notes say each refinement's final estimate.
"""

from __future__ import annotations

__all__ = ["MAX_REFINEMENTS", "final_estimate", "off_target", "refine_more"]

#: refinements of one proposal at most (``balance --finding`` without ``budget``): the first and two widenings
MAX_REFINEMENTS = 3


def final_estimate(res, final: int):
    """``(estimate, se, games)`` of ``res``'s pick in its search's last round when that round played at least
    ``final`` games a candidate (a refinement's finalists), else None."""
    h = getattr(res, "history", None)
    if h is None or not len(h) or "se" not in h or "estimate" not in h or not final:
        return None
    last = h[h["round"] == h["round"].max()]
    if int(last["games"].min()) < int(final):
        return None
    row = last.sort_values("distance", kind="stable").iloc[0]   # the search's pick: the closest in its last round
    return float(row["estimate"]), float(row["se"]), int(row["games"])


def off_target(est, target: float, tolerance: float = 0.0) -> int:
    """+1 / -1 when the final round's 95% interval of ``est`` (:func:`final_estimate`) lies wholly below / above
    ``target`` (beyond ``tolerance``): the side the target lies on; 0 when it reaches the target or is unknown."""
    if est is None:
        return 0
    value, se, _ = est
    if value + 1.96 * se + tolerance < target:
        return 1
    if value - 1.96 * se - tolerance > target:
        return -1
    return 0


def _text(est, target: float) -> str:
    value, se, games = est
    return f"{value:.3g} [{value - 1.96 * se:.3g}, {value + 1.96 * se:.3g}] ({games:,} games) for target {target:g}"


def refine_more(game, cand, res, ranges, own, *, rng, final: int, played: set, refinements: int, kw: dict):
    """Further refinements of ``res`` (the first refinement's result) while its final round puts the pick off the
    target: ``(result kept, games played, notes)``.  ``played``: the candidates the first refinement played (keys
    of :func:`._balance_joint.candidate_key`); ``kw``: the refinement's keyword arguments for ``_widen``."""
    from ._balance_finding import _widen
    from ._balance_toml import assignments_text, value_changes

    best, best_est = res, final_estimate(res, final)
    notes, games = [], 0
    for k in range(2, int(refinements) + 1):
        side = off_target(best_est, cand.target, best.tolerance)
        if not side:
            break
        start = best
        where = assignments_text((p, start.components.get(p)) for p in value_changes(start.components)) \
            or "the packaged values"
        new, text, more = _widen(game, cand, start, ranges, own, rng=rng, final_games=final, exclude=frozenset(played),
                                 toward=side, played=played, **kw)
        if new is start:   # no candidate left that no refinement played
            notes.append(f"refinement {k}: not run, every candidate around {where} was played")
            break
        games += more
        est = final_estimate(new, final)
        notes.append(f"refinement {k} (its pick at {_text(best_est, cand.target)} lay off the target): {text} "
                     f"around {where}, toward the target: its pick at "
                     + (_text(est, cand.target) if est is not None else "an estimate of fewer games than its final"))
        total, budget = new.games_used, new.budget
        if est is not None and abs(est[0] - cand.target) < abs(best_est[0] - cand.target):
            best, best_est = new, est
        best.games_used, best.budget = total, budget   # every refinement's games counted on the one kept
    if len(notes) and best is not res:
        notes.append("kept: the pick of the refinement whose final round lies closest to the target")
    elif len(notes):
        notes.append("kept: the first refinement's pick (no later one lies closer to the target in its final round)")
    return best, games, notes
