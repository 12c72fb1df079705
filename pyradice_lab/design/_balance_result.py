"""What :func:`pyradice_lab.design.balance.balance` returns (:class:`BalanceResult`; re-exported there)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ._balance_grid import COMBINE

__all__ = ["BalanceResult"]


@dataclass
class BalanceResult:
    """What :func:`balance` proposes.

    Attributes
    ----------
    metric : str
        The objective's metric (one objective), or the objectives' metrics joined by ", ".
    target : float
        The objective's target (several objectives: the target of the metric in ``before``/``after``).
    values : dict
        The proposed component values, by path.
    components : the game's Components
        The starting components with ``values`` applied (validated).
    before, after : Estimate
        The objective's metric on the starting and the proposed components, on fresh seeds (never used by the
        search), each with its confidence interval; with several objectives, those of the metric whose
        verified excess over its target is the largest (``objectives`` has every metric's).
    history : DataFrame
        Every candidate at every round of the search: values, games played, each metric's estimate
        (``estimate`` for one objective, ``estimate[metric]`` for several) and the combined ``distance``.
    games_used : int
        Games the search played (never more than ``budget``); the verification played ``2 * verify_games``
        more on fresh seeds.
    objectives : DataFrame
        One row per metric (a family ``name:*`` expanded): ``metric``, ``target``, ``before`` / ``after`` with
        their 95% intervals (``before_ci_low`` ...), ``excess`` (after minus target) and ``met`` (the after
        interval reaches the target, within ``tolerance``).
    reached : bool
        Whether every objective is met on the verification games.
    combine, tolerance, budget, verify_games, policies, controls
        The search's settings (``policies``: the players every candidate was played with; ``controls``: its
        estimates with the game's controls read off the games).
    finding : str
        The finding the proposal answers (:func:`balance_finding`: its id, quantity and estimate), "" otherwise.
    notes : list of str
        Further lines of the proposal file's header and the summary (the levers tried, the guards' numbers).
    guards : DataFrame or None
        :func:`balance_finding`'s guards against empty wins (in play, start player, other findings: before and
        after with 95% CIs, the paired difference, ``passed`` and why); ``guarded``: all passed (None: not run).
    tries, rechecks : list
        The candidates the guards judged (dicts: ``values``, ``passed``, ``why``; a refused pick, then the next-best
        ones, :mod:`._balance_path`) and the other findings' paired re-checks of the proposal kept.
    """

    metric: str
    target: float
    values: dict
    components: object
    before: object
    after: object
    history: pd.DataFrame
    games_used: int
    assumptions: object = None
    objectives: pd.DataFrame | None = None
    reached: bool = True
    combine: str = "max"
    tolerance: float = 0.0
    budget: int = 0
    verify_games: int = 0
    policies: object = None
    parameters: dict | None = None
    candidates: int = 0
    finding: str = ""
    notes: list = field(default_factory=list)
    guards: pd.DataFrame | None = None
    guarded: bool | None = None
    tries: list = field(default_factory=list)
    rechecks: list = field(default_factory=list)
    verify_rng: object = field(default=None, repr=False)
    verify_policies: object = None   # the verification's players when not the search's (``balance(verify_policies=)``)
    controls: bool = False   # every estimate with the game's controls read off its games (``balance(controls=)``)

    def verdict(self) -> str:
        """One line: the objective met, or "not reached" with the best candidate and what to widen."""
        from ._balance_toml import assignments_text

        values = assignments_text(self.values.items()) or "the starting values"
        tol = f" within {self.tolerance:g}" if self.tolerance else ""
        if self.reached:
            return f"objective met{tol} on fresh seeds at {values}"
        t = self.objectives if self.objectives is not None else None
        if t is None or not len(t):
            return f"target {self.target:g} not reached at {values}"
        missed = t[~t["met"]].assign(size=lambda d: d["excess"].abs()).sort_values("size", ascending=False)
        if not len(missed):  # every objective met on the verification, yet the pick is where the search started
            return f"no change proposed: the search's pick is the starting values ({values}); " + self._advice()
        top = missed.iloc[0]
        what = "target" if len(t) == 1 else f"{top['metric']} target"
        more = f" (and {len(missed) - 1} more of {len(t)} objectives)" if len(missed) > 1 else ""
        return (f"{what} {top['target']:g}{tol} not reached{more}: best {top['after']:.3g} "
                f"[{top['after_ci_low']:.3g}, {top['after_ci_high']:.3g}] at values {values}; " + self._advice())

    def _advice(self) -> str:
        """What to change: the ranges whose end the proposal sits at, or (none) a finer step / another lever."""
        params = self.parameters or {}
        edge = [p for p, vals in params.items() if len(vals) > 1 and self.values.get(p) in (vals[0], vals[-1])]
        if not params and self.parameters is not None:  # a joint search: its notes say what was tried
            return "the levers tried and the metric's move per step are below"
        if edge or not params:
            return f"widen the ranges of {', '.join(edge or list(self.values))}"
        return (f"it lies inside the ranges of {', '.join(params)}: a finer step or another parameter is needed "
                "(or a --tolerance)")

    def to_toml(self, path, *, full: bool = False) -> Path:
        """Write the proposal as a TOML file ready for ``--components``: only the values it changes from the
        packaged components (a partial file, merged over them as ``--components`` merges any; ``full=True``: every
        value).  Its first comment lines say what the proposal is for and whether it meets the objective
        (``# NOT MEETING THE OBJECTIVE: ...``), then the finding it answers (:attr:`finding`), each objective's
        verification before and after with 95% CIs, the players, seed and games (:meth:`header`)."""
        from ._balance_toml import overlay_toml

        if full:
            p = self.components.dump(path)
            p.write_text("\n".join(f"# {line}" for line in self.header()) + "\n" + p.read_text(encoding="utf-8"),
                         encoding="utf-8")
            return p
        return overlay_toml(self.components, path, self.header())

    def header(self) -> list[str]:
        """The proposal file's header lines (without ``#``): the objective, met or not, the finding answered, the
        verification of every objective on fresh seeds (before -> after with 95% CIs), the search's settings and
        the assumptions (components, players, policies, seed, games)."""
        status = ("meets the objective on fresh seeds" if self.reached
                  else f"NOT MEETING THE OBJECTIVE: {self.verdict()}")
        several = self.objectives is not None and len(self.objectives) > 1
        lines = [f"balance proposal: {self.metric} -> {self.target:g}" if not several else
                 f"balance proposal for {len(self.objectives)} objectives ({self.combine}): {self.metric}", status]
        if self.guarded is not None:
            lines.append("passes the guards (in play, start player, other findings)" if self.guarded else
                         "REFUSED BY THE GUARDS: " + "; ".join(str(w).removeprefix("REFUSED: ") for w in
                                                              self.guards.loc[~self.guards["passed"], "why"]))
        if self.finding:
            lines.append(f"finding fixed: {self.finding}")
        t = self.objectives
        if t is not None:
            n = self.after.n if self.after is not None else self.verify_games
            tol = f", met when the 95% CI comes within {self.tolerance:g} of it" if self.tolerance else ""
            for m in t.itertuples():
                lines.append(f"objective {m.metric} = {m.target:g}{tol}: before {m.before:.4g} "
                             f"[{m.before_ci_low:.4g}, {m.before_ci_high:.4g}], after {m.after:.4g} "
                             f"[{m.after_ci_low:.4g}, {m.after_ci_high:.4g}] (95% CIs, the same {n:,} fresh games "
                             f"each){'' if m.met else ': not met'}")
        from ._balance_toml import value_changes

        lines.append("changed: " + (", ".join(f"{p} = {self.components.get(p)!r}" for p in
                                               value_changes(self.components)) or "nothing"))
        lines += self.notes
        lines.append(f"search: {self.games_used:,} of {self.budget:,} games over {self.candidates} candidates; "
                     f"verified on {self.verify_games:,} games per side on seeds the search never used")
        if self.assumptions is not None:
            lines.append(self.assumptions.line())
        lines.append("only the values the proposal changes: load it with --components FILE (it merges over the "
                     "packaged components)")
        return lines

    def summary(self) -> str:
        from .metrics import small_sample_note

        b, a = self.before, self.after
        told = "" if self.assumptions is None else self.assumptions.line() + "\n"
        budget = f" of {self.budget}" if self.budget else ""
        several = self.objectives is not None and len(self.objectives) > 1
        head = (f"{len(self.objectives)} objectives (minimising the {COMBINE[self.combine]}), worst "
                f"{self.metric_worst()}"
                if several else f"{self.metric}")
        return told + (f"{head} -> {self.target:g}: proposed {self.values}; before {b.value:.3f} "
                f"[{b.ci_low:.3f}, {b.ci_high:.3f}], after {a.value:.3f} [{a.ci_low:.3f}, {a.ci_high:.3f}] "
                f"(fresh seeds, {a.n} games each; search used {self.games_used}{budget} games)"
                + (f"; note: {note}" if (note := small_sample_note(a.n)) else "") + f"\n{self.verdict()}"
                + "".join(f"\n{line}" for line in self.notes))

    def metric_worst(self) -> str:
        """The worst-met objective's metric (the one ``before``/``after`` show): the unmet one farthest from its
        target, or when every objective is met the one farthest from its target."""
        t = self.objectives
        if t is None or not len(t):
            return self.metric
        return str(t.loc[(t["excess"].abs() * np.where(t["met"], 1, 1e9)).idxmax(), "metric"])

    def __repr__(self) -> str:
        return f"BalanceResult({self.summary()})"
