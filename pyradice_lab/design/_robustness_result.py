"""What :func:`~pyradice_lab.design.robustness.robustness` returns (the seam of :mod:`pyradice_lab.design.robustness`):
:class:`RobustnessResult`, its verdict and summary, and the reversal p-values of the sampled sets.  Re-exported by
:mod:`~pyradice_lab.design.robustness`."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

if TYPE_CHECKING:  # pragma: no cover - robustness.py imports this module
    from .robustness import Claim

@dataclass
class RobustnessResult:
    """What :func:`robustness` found.

    Attributes
    ----------
    claim : Claim
    table : DataFrame
        One row per component set (``set`` = ``"packaged"``, or ``"base"`` for the components given as ``base``,
        then ``"plausible-i"``): the metric's estimate, SE and CI,
        the verdict and the free choices drawn.
    holds_share : Estimate
        Share of the sampled sets on which the finding holds (Wilson interval, given these games: the sets share
        them).
    sensitivity : DataFrame
        Per free choice, Spearman's rank correlation with the metric over the sampled sets, its exact
        permutation p-value (``p_value``) and the Holm-adjusted one across the choices (``p_holm``), strongest
        first.
    robust : bool
        True only when the finding holds on every sampled set.
    verdict : str
        ``"robust"`` (holds on every sampled set), ``"no"`` (reversed on at least one set after Holm's
        correction across the sets: ``table["p_reversed_holm"]`` < 0.025) or ``"undecided"``.
    paired : dict or None
        For a paired robustness (``variant=`` / ``reference=``): what the two runs of each set were (``variant``,
        ``reference``: short descriptions); the table's ``value`` is then variant minus reference, and the
        columns ``variant_value`` and ``reference_value`` hold the two runs' estimates.  None otherwise.
    base : str
        What the starting set is: ``"packaged components"``, or the designer's file and its content hash
        (``"your components (mine.toml, content hash 1a2b3c4d5e6f)"``).
    """

    claim: Claim
    table: pd.DataFrame
    holds_share: object
    sensitivity: pd.DataFrame
    robust: bool
    paired: dict | None = None
    verdict: str = "undecided"
    assumptions: object = None
    base: str = "packaged components"

    @classmethod
    def from_table(cls, claim: Claim, table: pd.DataFrame, paired: dict | None = None,
                   assumptions=None, base: str = "packaged components") -> RobustnessResult:
        """The result of a per-set table (``set``, ``value``, ``verdict``, the free choices, ...): the share of the
        sampled sets on which the claim holds, the sensitivity to each free choice and the verdict."""
        from ..engine.stats import holm, proportion_estimate

        table = table.copy()
        table["p_reversed"] = reversal_p_values(table, claim)
        is_set = _sampled(table).to_numpy()
        adj = np.full(len(table), np.nan)
        adj[is_set] = holm(table.loc[is_set, "p_reversed"].fillna(1.0))
        table["p_reversed_holm"] = adj
        sampled = table[is_set]
        k = int((sampled["verdict"] == "holds").sum())
        share = proportion_estimate(k, len(sampled))
        choice_cols = [c for c in table.columns if c not in _NOT_CHOICES]
        sens = pd.DataFrame([dict(zip(("choice", "spearman", "p_value"),
                                      (c, *_spearman(sampled[c].to_numpy(float), sampled["value"].to_numpy()))))
                             for c in choice_cols], columns=["choice", "spearman", "p_value"])
        tested = sens["p_value"].notna().to_numpy()
        sens["p_holm"] = np.nan
        if tested.any():
            sens.loc[tested, "p_holm"] = holm(sens.loc[tested, "p_value"])
        if len(sens):
            sens = (sens.assign(strength=sens["spearman"].abs())
                    .sort_values("strength", ascending=False, na_position="last")
                    .drop(columns="strength").reset_index(drop=True))
        robust = k == len(sampled)
        verdict = "robust" if robust else ("no" if (sampled["p_reversed_holm"] < REVERSAL_ALPHA).any() else
                                           "undecided")
        if assumptions is not None:
            table.attrs["assumptions"] = assumptions
        return cls(claim, table, share, sens, robust=robust, paired=paired, verdict=verdict, assumptions=assumptions,
                   base=base)

    @property
    def size_quantiles(self) -> pd.Series:
        """5%, 50% and 95% quantiles of the metric over the sampled sets."""
        vals = self.table.loc[_sampled(self.table), "value"]
        return vals.quantile([0.05, 0.5, 0.95])

    def summary(self) -> str:
        """One paragraph a designer can read."""
        n = int(_sampled(self.table).sum())
        k = int((_sampled(self.table) & (self.table["verdict"] == "holds")).sum())
        q = self.size_quantiles
        base = self.table.iloc[0]
        what = f"'{self.claim}'"
        if self.paired:
            what += f" (difference {self.paired['variant']} minus {self.paired['reference']}, paired on the same games)"
        s = (f"{what} holds on {k} of {n} plausible component sets "
             f"({self.holds_share.value:.0%}, 95% CI {self.holds_share.ci_low:.0%}..{self.holds_share.ci_high:.0%} "
             "for these games); "
             f"{self.base}: {base['value']:.3f} [{base['ci_low']:.3f}, {base['ci_high']:.3f}] "
             f"({base['verdict']}); over the sampled sets the metric ranges {q.iloc[0]:.3f}..{q.iloc[2]:.3f} "
             f"(5%..95%, median {q.iloc[1]:.3f}).")
        sens = self.sensitivity
        if len(sens) and np.isfinite(sens["spearman"].iloc[0]):
            top = sens.iloc[0]
            m = int(sens["p_value"].notna().sum())
            if np.isfinite(top["p_holm"]) and top["p_holm"] < 0.05:
                s += (f" It follows {top['choice']} most (Spearman {top['spearman']:+.2f}, permutation "
                      f"p = {top['p_value']:.2g}, {top['p_holm']:.2g} after Holm over {m} choices).")
            elif np.isfinite(top["p_value"]):
                s += (f" No free choice stands out (strongest: {top['choice']}, Spearman {top['spearman']:+.2f}, "
                      f"permutation p = {top['p_value']:.2g}, {top['p_holm']:.2g} after Holm over {m} "
                      "choices).")
        if self.verdict == "robust":
            s += " Robust."
        elif self.verdict == "no":
            r = int((self.table["p_reversed_holm"] < REVERSAL_ALPHA).sum())
            s += (f" Not robust: reversed on {r} of {n} sets even after Holm's correction across the sets; it "
                  "depends on the guess of the components.")
        else:
            s += (" Undecided: it does not hold on every set, but no set reverses it once the test is corrected "
                  "for the number of sets (Holm).")
        from .metrics import small_sample_note

        note = small_sample_note(int(self.table["n"].min())) if "n" in self.table and len(self.table) else ""
        if note:
            s += f" Note: {note[0].upper()}{note[1:]} per set."
        return s if self.assumptions is None else f"{self.assumptions.line()}\n{s}"

    def __repr__(self) -> str:
        return f"RobustnessResult({self.summary()})"


def _sampled(table: pd.DataFrame) -> pd.Series:
    """The rows of a robustness table that are sampled sets (``plausible-i``), not the starting set (``packaged``,
    or ``base`` for a designer's components)."""
    return table["set"].astype(str).str.startswith("plausible")


_NOT_CHOICES = ("set", "value", "se", "ci_low", "ci_high", "n", "verdict", "components_hash", "variant_value",
                "reference_value", "p_reversed", "p_reversed_holm", "controls_factor")

#: One-sided familywise level of "reversed on some set" (Holm across the sets): the far side of a 95% interval.
REVERSAL_ALPHA = 0.025


def reversal_p_values(table: pd.DataFrame, claim: Claim) -> np.ndarray:
    """Per row of a robustness table: the one-sided p-value of "the metric is on the claimed side of the
    threshold (or on it)", i.e. the evidence that the claim is reversed on that set.

    Read off the set's interval: a Student-t test (``n - 1`` degrees of freedom) with the standard error of the
    interval's side towards the threshold, so that ``p < 0.025`` exactly when the 95% interval lies on the
    other side of the threshold.

    Examples
    --------
    >>> t = pd.DataFrame({"value": [0.45, 0.52], "ci_low": [0.43, 0.50], "ci_high": [0.47, 0.54], "n": [1000, 1000]})
    >>> from pyradice_lab.design.robustness import Claim
    >>> [round(float(p), 3) for p in reversal_p_values(t, Claim("start_player_win", ">", 0.5))]
    [0.0, 0.975]
    """
    from scipy.special import stdtr, stdtrit

    above = claim.op in (">", ">=")
    v = table["value"].to_numpy(float)
    lo, hi = table["ci_low"].to_numpy(float), table["ci_high"].to_numpy(float)
    df = np.maximum(table["n"].to_numpy(float) - 1, 1) if "n" in table else np.full(len(v), np.inf)
    q = stdtrit(df, 0.975)
    with np.errstate(divide="ignore", invalid="ignore"):
        if above:  # reversed: the truth is below the threshold; H0: it is >= threshold
            side = (hi - v) / q
            stat = (v - claim.threshold) / side
        else:
            side = (v - lo) / q
            stat = (claim.threshold - v) / side
        p = stdtr(df, stat)  # small when v is far on the other side
    exact = ~(side > 0)  # a zero-width interval: reversed or not, for sure
    p[exact] = np.where((v[exact] < claim.threshold) if above else (v[exact] > claim.threshold), 0.0, 1.0)
    return p


#: Sets up to which the Spearman p-value enumerates every ordering (8! = 40,320); beyond, random orderings.
EXACT_PERMUTATIONS_UP_TO = 8
#: Random orderings of the Spearman permutation test beyond :data:`EXACT_PERMUTATIONS_UP_TO` sets (fixed seed).
PERMUTATIONS = 20_000


@functools.lru_cache(maxsize=EXACT_PERMUTATIONS_UP_TO + 1)
def _orderings(n: int) -> np.ndarray:
    """Every ordering of ``range(n)``, one per row (read-only): built once per process, not once per robustness
    result (8 sets: 40,320 rows, about 80 ms to build; a full report's checks asked for it hundreds of times)."""
    from itertools import permutations

    perms = np.array(list(permutations(range(n))), dtype=np.intp).reshape(-1, n)
    perms.flags.writeable = False
    return perms


def _spearman(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Spearman's rank correlation and its two-sided permutation p-value (ties: average ranks, kept).

    The p-value is the share of orderings of ``y`` against ``x`` whose |correlation| is at least the observed
    one: every ordering up to :data:`EXACT_PERMUTATIONS_UP_TO` values (exact), :data:`PERMUTATIONS` random
    ones beyond (seeded: the same data, the same p).  With 3 values the smallest p is 1/3, with 4 it is 1/12:
    few sets cannot show a significant correlation, and no "p = 0" is ever printed.
    """
    n = len(x)
    if n < 3 or np.ptp(x) == 0 or np.ptp(y) == 0:
        return float("nan"), float("nan")
    rx, ry = pd.Series(x).rank().to_numpy(), pd.Series(y).rank().to_numpy()
    cx, cy = rx - rx.mean(), ry - ry.mean()
    scale = math.sqrt((cx @ cx) * (cy @ cy))
    r = float(cx @ cy / scale)
    if n <= EXACT_PERMUTATIONS_UP_TO:
        perms = _orderings(n)
        count, total = int((np.abs(cy[perms] @ cx) >= abs(cx @ cy) - 1e-9 * scale).sum()), len(perms)
        return r, count / total
    gen = np.random.default_rng(20_260_101)
    perms = np.argsort(gen.random((PERMUTATIONS, n)), axis=1)
    count = int((np.abs(cy[perms] @ cx) >= abs(cx @ cy) - 1e-9 * scale).sum())
    return r, (count + 1) / (PERMUTATIONS + 1)
