"""The :class:`Finding` type: one claim with its estimate, interval, sample and test, validated on creation,
and the rules of evidence it applies (re-exported by :mod:`pyradice_lab.engine.findings`).
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field, replace

from .stats import Z95

#: the kinds of finding: a comparison with a null value, a plain estimate, an exact number
KINDS = ("difference", "estimate", "exact")

#: the distributions an interval (and so its p-value) comes from: normal, Student-t, binomial score, Poisson
DISTS = ("", "t", "score", "poisson")


#: the smallest sample (games, or whatever ``sample_unit`` says) on which the report makes a claim
MIN_CLAIM_N = 100


#: the false discovery rate at which a report's Monte Carlo claims are controlled (Benjamini-Hochberg)
FDR_LEVEL = 0.05


_MAX_RESOLVE = 10_000_000  # beyond this "about N games would resolve it" is not a useful statement


def _finite(name: str, v) -> float:
    if isinstance(v, bool) or not isinstance(v, numbers.Real) or not math.isfinite(float(v)):
        raise ValueError(f"{name} must be a finite number, got {v!r}")
    return float(v)


def _text(name: str, v, *, required: bool = False) -> str:
    if v is None:
        v = ""
    if not isinstance(v, str):
        raise TypeError(f"{name} must be a string, got {type(v).__name__}")
    v = " ".join(v.split())
    if required and not v:
        raise ValueError(f"{name} must be a non-empty string")
    for bad in ("nan", "inf", "None"):
        if bad in v.replace(",", " ").replace("(", " ").replace(")", " ").split():
            raise ValueError(f"{name} must not contain {bad!r}, got {v!r}")
    return v


@dataclass(frozen=True)
class Finding:
    """One conclusion of an experiment, with the numbers it rests on.

    Parameters
    ----------
    kind : {"difference", "estimate", "exact"}
        ``difference``: the estimate is compared with ``null`` (a fair share, 0 points, the baseline);
        a difference is claimed only when the interval excludes ``null`` and ``n >= min_n``.
        ``estimate``: a value with its interval, no comparison.  ``exact``: an exact number (``n`` may
        be 0; the interval equals the estimate); compared with ``null`` when one is given.
    quantity : str
        What is measured, in words ("start-player win share, 2 players").
    estimate, ci_low, ci_high : float
        The estimate and its confidence interval (finite; ``ci_low <= estimate <= ci_high``).
    n : int
        The sample size the interval rests on (games per compared group), ``>= 0``.
    null : float, optional
        The value that means "no difference" (required for ``difference``).
    null_label : str
        How to name the null value in the sentence ("a fair share", "the baseline"); default "".
    test : str
        The interval or test used ("Wilson interval", "paired t interval", "bootstrap").
    player : str
        The player strength / policy the games were played with ("greedy", "expectimax vs greedy").
    unit : str
        Unit of the estimate ("points", "turns"); ``"%"`` shows fractions as percentages.
    sample_unit : str
        What ``n`` counts (default "games").
    component : str
        The component a designer would change if this finding holds ("tile 12 values"); empty if none.
    robust : bool, optional
        Whether the finding holds on sampled plausible component sets (None: not assessed).
    robustness : str
        How robustness was assessed ("holds on 18 of 20 sampled tile sets").
    scale : float, optional
        A reference magnitude used to compare sizes across findings (default: ``|null|`` when not 0,
        else 1).
    confidence : float
        Confidence level of the interval (default 0.95).
    min_n : int
        Minimum sample size for a claim (default :data:`MIN_CLAIM_N`).
    notes : tuple of str
        Sentences appended to the rendered finding.
    p_value : float, optional
        Two-sided p-value of "no difference" (``difference`` findings); default: read off the interval, from the
        distribution the interval comes from (``dist``), so ``p < 0.05`` exactly when a 95% interval excludes
        the null.  An experiment with a better test (exact, permutation) gives its own.
    dist : {"", "t", "score", "poisson"}
        The distribution of the interval (:func:`~pyradice_lab.engine.findings.from_estimate` takes it from the
        estimate): ``"t"``: Student-t with ``df`` degrees of freedom (the test on the interval's side towards the
        null); ``"score"``: a share's Wilson interval (the binomial score test at the null, ``n`` trials);
        ``"poisson"``: a count's exact Poisson interval (``estimate * n`` events in ``n`` units: the exact
        two-sided Poisson test); ``""``: normal (the interval's side read as 1.96 standard errors).
    df : float, optional
        Degrees of freedom of a ``"t"`` interval (``n - 1`` for a t interval over ``n`` games; blocks or boards
        minus 1 for one over blocks or boards).
    q_value : float, optional
        The Benjamini-Hochberg q-value over the report's tests (set by :func:`control_fdr`); a claim needs
        ``q_value <= FDR_LEVEL``.  None: not controlled (a finding on its own: ``q = p``).
    no_claim : str
        Why this finding makes no claim whatever its numbers (``"quick run"``); "" = the rules decide.
    """

    kind: str
    quantity: str
    estimate: float
    ci_low: float
    ci_high: float
    n: int
    null: float | None = None
    null_label: str = ""
    test: str = ""
    player: str = ""
    unit: str = ""
    sample_unit: str = "games"
    component: str = ""
    robust: bool | None = None
    robustness: str = ""
    scale: float | None = None
    confidence: float = 0.95
    min_n: int = MIN_CLAIM_N
    notes: tuple[str, ...] = field(default=())
    p_value: float | None = None
    q_value: float | None = None
    no_claim: str = ""
    sensitivity_player: str = ""
    sensitivity: tuple[float, ...] = field(default=())
    dist: str = ""
    df: float | None = None

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, got {self.kind!r}")
        set_ = object.__setattr__
        set_(self, "quantity", _text("quantity", self.quantity, required=True))
        for name in ("null_label", "test", "player", "unit", "component", "robustness"):
            set_(self, name, _text(name, getattr(self, name)))
        set_(self, "sample_unit", _text("sample_unit", self.sample_unit, required=True))
        for name in ("estimate", "ci_low", "ci_high"):
            set_(self, name, _finite(name, getattr(self, name)))
        tol = 1e-9 * max(1.0, abs(self.estimate))
        if not self.ci_low - tol <= self.estimate <= self.ci_high + tol:
            raise ValueError(f"ci_low <= estimate <= ci_high must hold, got {self.ci_low!r} <= {self.estimate!r} "
                             f"<= {self.ci_high!r}")
        if isinstance(self.n, bool) or not isinstance(self.n, numbers.Integral) or self.n < 0:
            raise ValueError(f"n must be a non-negative integer sample size, got {self.n!r}")
        set_(self, "n", int(self.n))
        if self.null is not None:
            set_(self, "null", _finite("null", self.null))
        if self.kind == "difference":
            if self.null is None:
                raise ValueError("null must be given for a 'difference' finding (the value meaning no difference)")
            if self.n == 0:
                raise ValueError("n must be positive for a 'difference' finding (use kind='exact' for exact numbers)")
        if self.kind == "exact" and self.ci_low != self.ci_high:
            raise ValueError("ci_low and ci_high must equal the estimate for an 'exact' finding")
        if self.scale is not None and not _finite("scale", self.scale) > 0:
            raise ValueError(f"scale must be positive, got {self.scale!r}")
        if not isinstance(self.confidence, numbers.Real) or not 0 < self.confidence < 1:
            raise ValueError(f"confidence must be in (0, 1), got {self.confidence!r}")
        if isinstance(self.min_n, bool) or not isinstance(self.min_n, numbers.Integral) or self.min_n < 1:
            raise ValueError(f"min_n must be a positive integer, got {self.min_n!r}")
        if self.robust is not None and not isinstance(self.robust, bool):
            raise TypeError(f"robust must be True, False or None, got {self.robust!r}")
        set_(self, "notes", tuple(_text("notes", t, required=True) for t in self.notes))
        set_(self, "no_claim", _text("no_claim", self.no_claim))
        set_(self, "sensitivity_player", _text("sensitivity_player", self.sensitivity_player))
        sens = tuple(_finite("sensitivity", v) for v in self.sensitivity)
        if sens and (len(sens) != 3 or not sens[1] <= sens[0] <= sens[2] or not self.sensitivity_player):
            raise ValueError("sensitivity must be (estimate, ci_low, ci_high) with ci_low <= estimate <= ci_high and "
                             f"a sensitivity_player, got {self.sensitivity!r}")
        set_(self, "sensitivity", sens)
        if self.dist not in DISTS:
            raise ValueError(f"dist must be one of {DISTS}, got {self.dist!r}")
        if self.df is not None and not _finite("df", self.df) > 0:
            raise ValueError(f"df must be positive degrees of freedom, got {self.df!r}")
        if self.dist == "t" and self.df is None:
            raise ValueError("df must be given for a 't' interval (dist='t'): its degrees of freedom")
        for name in ("p_value", "q_value"):
            v = getattr(self, name)
            if v is not None:
                v = _finite(name, v)
                if not 0 <= v <= 1:
                    raise ValueError(f"{name} must lie in [0, 1], got {v!r}")
                set_(self, name, v)

    # ------------------------------------------------------------------------------ evidence
    @property
    def effect(self) -> float:
        """``estimate - null`` (0 when there is no null value)."""
        return 0.0 if self.null is None else self.estimate - self.null

    @property
    def halfwidth(self) -> float:
        return (self.ci_high - self.ci_low) / 2

    @property
    def enough_data(self) -> bool:
        """Exact, or a sample of at least ``min_n``."""
        return self.kind == "exact" or self.n >= self.min_n

    @property
    def excludes_null(self) -> bool:
        """Whether the interval excludes the null value (False without a null value)."""
        if self.null is None:
            return False
        if self.kind == "exact":
            return self.estimate != self.null
        return self.ci_low > self.null or self.ci_high < self.null

    @property
    def tested(self) -> bool:
        """Whether the finding is a Monte Carlo test of "no difference" that could claim: a ``difference`` with
        enough data (exact findings carry no sampling error and are not tested)."""
        return self.kind == "difference" and self.null is not None and self.enough_data

    @property
    def p(self) -> float | None:
        """The two-sided p-value of "no difference": ``p_value`` if given, else read off the interval (the normal
        test with the SE of the interval's side towards the null); None for exact findings and estimates."""
        if self.kind != "difference" or self.null is None:
            return None
        if self.p_value is not None:
            return self.p_value
        if self.effect == 0:
            return 1.0
        exact = _exact_p(self)
        if exact is not None:
            return exact
        side = self.estimate - self.ci_low if self.effect > 0 else self.ci_high - self.estimate
        if side <= 0:
            return 0.0
        if self.dist == "t":
            from scipy.special import stdtr, stdtrit

            q = float(stdtrit(self.df, 0.5 + self.confidence / 2))
            return float(min(1.0, 2 * stdtr(self.df, -abs(self.effect) / (side / q))))
        from statistics import NormalDist

        return float(2 * NormalDist().cdf(-abs(self.effect) / (side / _z(self.confidence))))

    @property
    def is_claim(self) -> bool:
        """Whether the finding claims a difference: the interval excludes the null value on enough data, and, once
        the report has controlled its false discovery rate, the q-value is at most :data:`FDR_LEVEL`; never with
        ``no_claim`` set."""
        if self.no_claim or not (self.null is not None and self.kind in ("difference", "exact")
                                 and self.excludes_null and self.enough_data):
            return False
        if self.kind == "difference":
            if self.p_value is not None and self.p_value > 1 - self.confidence:
                return False
            if self.q_value is not None and self.q_value > FDR_LEVEL:
                return False
        return True

    @property
    def size(self) -> float:
        """Size of the effect relative to ``scale`` (used for ranking findings of different units)."""
        if self.null is None:
            return 0.0
        scale = self.scale if self.scale is not None else (abs(self.null) if self.null != 0 else 1.0)
        return abs(self.effect) / scale

    @property
    def certainty(self) -> float:
        """``|effect| / standard error`` (infinite for exact findings with an effect, 0 without a null)."""
        if self.null is None or self.effect == 0:
            return 0.0
        if self.kind == "exact" or self.halfwidth == 0:
            return math.inf
        return abs(self.effect) / (self.halfwidth / _z(self.confidence))

    def games_to_resolve(self) -> int | None:
        """About how many units would make the interval exclude the null if the effect stayed as observed.

        Scales the sample size by ``(halfwidth / |effect|)^2`` (intervals shrink like ``1/sqrt(n)``),
        rounded up to two significant digits; None when there is no effect to resolve or the number is
        beyond any useful run.
        """
        if self.kind != "difference" or self.effect == 0 or self.halfwidth == 0:
            return None
        ratio = self.halfwidth / abs(self.effect)
        if ratio > math.sqrt(_MAX_RESOLVE / self.n):  # also keeps a vanishing effect from overflowing the square
            return None
        need = self.n * ratio ** 2
        if need > _MAX_RESOLVE:
            return None
        need = max(need, self.min_n, self.n + 1)
        digits = max(0, int(math.floor(math.log10(need))) - 1)
        return int(math.ceil(need / 10 ** digits) * 10 ** digits)

    def with_context(self, **changes) -> Finding:
        """A validated copy with some fields changed (e.g. ``player=`` or ``robust=`` added later)."""
        return replace(self, **changes)

    def to_dict(self) -> dict:
        """Flat dict (one row of a findings table), including the rendered sentence and the claim flag."""
        from .findings import method_line, render, sensitivity_text  # the prose modules import this one

        return {"kind": self.kind, "quantity": self.quantity, "estimate": self.estimate, "ci_low": self.ci_low,
                "ci_high": self.ci_high, "n": self.n, "null": self.null, "test": self.test, "player": self.player,
                "unit": self.unit, "component": self.component, "robust": self.robust,
                "robustness": self.robustness, "claim": self.is_claim, "tested": self.tested,
                "p_value": self.p, "q_value": self.q_value, "no_claim": self.no_claim,
                "sensitivity_player": self.sensitivity_player,
                "sensitivity_estimate": self.sensitivity[0] if self.sensitivity else None,
                "sensitivity_ci_low": self.sensitivity[1] if self.sensitivity else None,
                "sensitivity_ci_high": self.sensitivity[2] if self.sensitivity else None,
                "sensitivity": sensitivity_text(self), "sentence": render(self),
                "method": method_line(self)}


def _z(confidence: float) -> float:
    if confidence == 0.95:
        return Z95
    from statistics import NormalDist

    return NormalDist().inv_cdf(0.5 + confidence / 2)


def _exact_p(f: Finding) -> float | None:
    """The p-value of a share's score test or a count's exact Poisson test at the null (None: not one of those,
    or the test does not apply, e.g. a null share of 0 or 1, or a count estimate that is not whole events)."""
    if f.dist == "score" and 0 < f.null < 1:
        from statistics import NormalDist

        return float(min(1.0, 2 * NormalDist().cdf(-abs(f.effect) / math.sqrt(f.null * (1 - f.null) / f.n))))
    if f.dist == "poisson" and f.null >= 0:
        total = f.estimate * f.n
        if abs(total - round(total)) > 1e-6 * max(1.0, total):
            return None
        from scipy.special import pdtr, pdtrc

        k, mu = int(round(total)), f.null * f.n
        if mu == 0:
            return 1.0 if k == 0 else 0.0
        low = float(pdtr(k, mu))  # P(X <= k)
        high = 1.0 if k == 0 else float(pdtrc(k - 1, mu))  # P(X >= k)
        return float(min(1.0, 2 * min(low, high)))
    return None
