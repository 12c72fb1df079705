"""Sweep functions used by the sweep tests (importable by worker processes and subprocesses)."""

import os
import time

import numpy as np

from pyradice_lab.engine.stats import mean_estimate, proportion_estimate


def dice_cell(params, trials, rng):
    rolls = rng.integers(1, 7, size=(trials, params["dice"]))
    total = rolls.sum(axis=1)
    return {"p_at_least": proportion_estimate(int((total >= params["target"]).sum()), trials),
            "mean_total": mean_estimate(total), "max_total": int(total.max()), "label": f"d{params['dice']}"}


def slow_cell(params, trials, rng):
    """Logs each computed cell to $SWEEP_LOG, then sleeps so a kill can land mid-sweep."""
    log = os.environ.get("SWEEP_LOG")
    if log:
        with open(log, "a") as fh:
            fh.write(f"{params['i']}\n")
    time.sleep(float(os.environ.get("SWEEP_SLEEP", "0")))
    x = rng.normal(params["i"], 1.0, size=trials)
    return {"mean": mean_estimate(x), "draw": float(rng.random())}


def bad_output_cell(params, trials, rng):
    return {"oops": np.zeros(3)}


def empty_cell(params, trials, rng):
    return {}
