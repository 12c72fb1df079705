"""The refinement's own evidence on a verified pick (``balance --finding``): its final round plays the pick on many
more games than the verification, so a pick the verification calls met may lie off the target beyond the final
round's interval (measured on all three games of the designer guide's 9-of-10 table)."""

from __future__ import annotations

import ast
import json

import numpy as np

__all__ = ["final_round_note"]


def final_round_note(history, values: dict, target: float, final: int, *, base=None) -> str:
    """A caveat when the refinement's final round (``final`` games or more a candidate, in ``history``) played the
    proposal ``values`` (a parameter it leaves out: ``base(path)``, the starting value) and its 95% interval
    excludes ``target``: a verification of a few hundred games calls it met, the final round does not ("" otherwise:
    no such round, or its interval reaches the target)."""
    if history is None or not final or "games" not in history or "estimate" not in history or "se" not in history:
        return ""
    last = history[history["games"] >= final]
    params = [c for c in history.columns if c not in ("round", "games", "estimate", "se", "distance")]
    if base is not None:
        values = {k: values[k] if k in values else base(k) for k in params}
    def plain(x):  # the history holds each value's repr ("[26, 25]", "(0, 1, 2)", "3")
        if isinstance(x, str):
            try:
                x = ast.literal_eval(x)
            except (ValueError, SyntaxError):
                return x
        return json.dumps(np.asarray(x).tolist())

    same = lambda a, b: plain(a) == plain(b)  # noqa: E731
    for row in last.to_dict("records"):
        if values and all(k in row and same(row[k], v) for k, v in values.items()):
            lo, hi = row["estimate"] - 1.96 * row["se"], row["estimate"] + 1.96 * row["se"]
            if lo <= target <= hi:
                return ""
            return (f"but the refinement's final round ({int(row['games']):,} games) puts these values at "
                    f"{row['estimate']:.3g} [{lo:.3g}, {hi:.3g}], off the target {target:g} beyond its interval: the "
                    "verification's games cannot see the gap (no candidate the search reached meets it)")
    return ""
