"""The report's overview section and the engine self-check shared by all games.

The self-check answers a question with both engines at once: the probability that ``k`` fair d6 contain
a non-empty subset summing to ``target``, exactly (:mod:`pyradice_lab.engine.dice`, integer weights) and by Monte
Carlo through :func:`pyradice_lab.engine.sweep.run_sweep` (with its 95% confidence interval).  The exact value
should fall inside the interval in about 95% of cells.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from ..engine import dice
from ..engine.findings import from_estimate
from ..engine.rng import block_ranges
from ..engine.stats import mean_estimate, proportion_estimate

if TYPE_CHECKING:  # the report engine (matplotlib) loads only when the section is built, not in sweep workers
    from .build import ReportContext, Section

__all__ = ["subset_sum_probability", "subset_sum_cell", "report_section"]


def subset_sum_probability(k: int, target: int) -> Fraction:
    """Exact probability that some non-empty subset of ``k`` fair d6 sums to ``target``.

    Examples
    --------
    >>> subset_sum_probability(1, 6)
    Fraction(1, 6)
    >>> subset_sum_probability(2, 12)
    Fraction(1, 36)
    """
    k = dice.check_dice_count(k, "dice")
    if isinstance(target, bool) or not isinstance(target, (int, np.integer)) or not 1 <= target <= 6 * dice.MAX_DICE:
        raise ValueError(f"target must be an integer in 1..{6 * dice.MAX_DICE}, got {target!r}")
    faces, weights = dice.multisets(k)
    hit = (dice.subset_sum_masks(faces) >> np.uint64(target)) & np.uint64(1)
    return Fraction(int(weights[hit.astype(bool)].sum()), 6 ** k)


def subset_sum_cell(params: dict, trials: int, rng: np.random.Generator) -> dict:
    """Sweep target: Monte Carlo estimate of :func:`subset_sum_probability` beside the exact value.

    ``params``: ``dice`` (0..8) and ``target`` (1..48).  The rolls are drawn from ``rng`` in blocks of
    :data:`~pyradice_lab.engine.dice.ROLL_BLOCK` and only the hits are counted, so memory stays bounded (tens of MB)
    for any ``trials``; up to one block, the draws are those of a single ``dice.roll(trials, ...)``.
    """
    missing = [key for key in ("dice", "target") if key not in params]
    if missing:
        raise ValueError(f"params must give 'dice' (0..8) and 'target' (1..48); missing {missing}")
    k, target = params["dice"], params["target"]
    exact = subset_sum_probability(k, target)
    if isinstance(trials, bool) or not isinstance(trials, (int, np.integer)) or trials < 1:
        raise ValueError(f"trials must be a positive integer, got {trials!r}")
    hits = 0
    for start, stop in block_ranges(int(trials), dice.ROLL_BLOCK):
        masks = dice.subset_sum_masks(dice.roll(stop - start, k, rng=rng))
        hits += int(np.count_nonzero((masks >> np.uint64(target)) & np.uint64(1)))
    est = proportion_estimate(hits, int(trials))
    return {"p": est, "exact": float(exact), "exact_in_ci": est.contains(float(exact))}


def report_section(ctx: ReportContext) -> Section:
    from ..engine import registry
    from ..engine.sweep import run_sweep
    from .build import ExperimentResult, Section, Text, save_experiment

    trials = 20_000 if ctx.quick else 200_000
    seed = ctx.seed_for("overview")
    df = run_sweep(subset_sum_cell, {"dice": [1, 2, 3, 4, 5], "target": [2, 6, 8, 12]}, trials=trials,
                   seed=seed, n_jobs=ctx.n_jobs, progress=ctx.progress)
    covered = int(df["exact_in_ci"].sum())
    shown = df[["dice", "target", "exact", "p", "p_se", "p_ci_low", "p_ci_high", "exact_in_ci"]].rename(
        columns={"p": "monte_carlo", "p_se": "se", "p_ci_low": "ci_low", "p_ci_high": "ci_high"})
    games = registry.games()
    lines = [f"- {spec.title} (`{name}`): {spec.summary}" for name, spec in games.items()]
    text = (
        "This report answers strategy and balance questions about four games with exact probability "
        "where the maths allows and Monte Carlo with honest error bars where it does not. Every Monte "
        "Carlo number comes with its standard error and a 95% confidence interval, and every number is "
        "reproducible from the root seed on the title page: each section derives its own random stream "
        "from the root seed and its name, and each sweep cell from its position in the grid.\n\n"
        "Components the published rules do not describe (board numbers, card lists, token effects, tile "
        "values) are reconstructions stored as TOML data; each game section lists them.\n\n"
        + ("Games in this report:\n" + "\n".join(lines) if lines else
           "No game package is installed yet: this report holds the engine self-check only.")
    )
    z = ((df["p"] - df["exact"]) / df["p_se"].where(df["p_se"] > 0)).dropna().to_numpy()
    findings = [
        from_estimate("difference", "share of cells whose 95% interval holds the exact value",
                      proportion_estimate(covered, len(df)), null=0.95, null_label="the nominal", unit="%",
                      test="Wilson interval", sample_unit="cells", min_n=10),
        from_estimate("difference", "mean error of Monte Carlo against exact, in standard errors",
                      mean_estimate(z), null=0.0, test="t interval", sample_unit="cells",
                      min_n=10, scale=1.0),
    ]
    check = (
        "The probability that k fair dice contain a subset summing to a target is computed exactly "
        f"(integer-weighted enumeration of sorted rolls) and by Monte Carlo ({trials:,} rolls per cell, run as a "
        "parallel sweep). Honest 95% intervals hold the exact value in about 95% of the cells, and the errors "
        "in standard errors average about 0; a bias or a wrong standard error in the sampler shows up here."
    )
    exp = ExperimentResult("overview_self_check", "Engine self-check", check, shown, None, findings=findings,
                           question="Do the exact engine and the Monte Carlo sampler agree?",
                           meta={"rolls_per_cell": trials}, max_rows=10)  # all cells: the CSV
    save_experiment(exp, ctx.out_dir)
    return Section("Overview", [Text(text, heading="Overview"), exp],
                   seed=f"{ctx.seed_label('overview')}", trials=trials * len(df))
