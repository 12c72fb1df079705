"""Calibration recovers known tilt parameters from synthetic measurements, with honest uncertainty."""

import numpy as np
import pandas as pd
import pytest

from pyradice_lab.raft.calibration import (
    calibrate,
    default_design,
    loglik,
    simulate_observations,
    standard_start,
)
from pyradice_lab.raft.physics import TiltParams

TRUE = TiltParams(slide_rate=0.7, drop_rate=2.2, finger_skew=0.35, wall_spread=0.15, recentre=0.6, timing_noise=0.3,
                  noise_nodes=8)   # 8 timing nodes (default 16): half the fitting time, same model class


@pytest.mark.slow
def test_calibration_recovers_known_parameters_from_synthetic_tilts():
    obs = simulate_observations(default_design(), TRUE, tilts=30, rng=42)
    res = calibrate(obs, start=TiltParams(noise_nodes=8))
    fitted = res.table[res.table["fitted"]].set_index("parameter")
    assert set(fitted.index) == {"slide_rate", "drop_rate", "finger_skew", "wall_spread", "recentre", "timing_noise"}
    assert res.converged
    for name, row in fitted.iterrows():
        truth = getattr(TRUE, name)
        assert abs(row["value"] - truth) < 4 * row["se"], name
        assert row["se"] < 0.25 * truth, name                      # the design pins each parameter down
        assert row["ci_low"] < row["value"] < row["ci_high"]
    assert (res.goodness["z"].abs() < 4).all()
    assert res.params.spill == TRUE.spill                          # not seen in tilts: kept as given


def test_mean_counts_are_enough_for_the_rates():
    """A designer who only wrote down the mean count per duration (as the issue allows)."""
    design = pd.DataFrame([{"edge": "north", "finger": "centre", "duration": d, "start": standard_start()}
                           for d in (0.5, 1.0, 1.5, 2.0, 3.0, 4.0)])
    per_tilt = simulate_observations(design, TRUE, tilts=40, rng=7, centre=False)
    agg = per_tilt.groupby("duration", as_index=False).agg(mean_fallen=("fallen", "mean"), tilts=("fallen", "size"))
    agg["edge"] = "north"
    res = calibrate(agg, fit=["slide_rate", "drop_rate"], start=TRUE.replace(slide_rate=0.4, drop_rate=1.0))
    t = res.table.set_index("parameter")
    for name in ("slide_rate", "drop_rate"):
        assert abs(t.loc[name, "value"] - getattr(TRUE, name)) < 4 * t.loc[name, "se"]
    assert not t.loc["finger_skew", "fitted"] and np.isnan(t.loc["finger_skew", "se"])


def test_bootstrap_runs_with_spawned_streams_and_is_reproducible():
    obs = [{"edge": "west", "finger": "left", "duration": d, "fallen": f}
           for d, f in [(0.5, 1), (0.5, 0), (1.0, 2), (1.0, 3), (2.0, 5), (2.0, 6), (3.0, 8), (3.0, 7)]]
    a = calibrate(obs, fit=["drop_rate"], bootstrap=3, rng=5)
    b = calibrate(obs, fit=["drop_rate"], bootstrap=3, rng=5)
    pd.testing.assert_frame_equal(a.table, b.table)
    assert a.table.loc[0, "method"] == "parametric bootstrap (B=3)" and a.table.loc[0, "se"] > 0


@pytest.mark.parametrize(("obs", "kwargs", "needle"), [
    ([{"duration": 1.0, "fallen": 2}], {}, "edge"),
    ([{"edge": "north", "duration": 1.0}], {}, "fallen"),
    ([{"edge": "north", "duration": -1.0, "fallen": 2}], {}, "duration"),
    ([{"edge": "north", "duration": 1.0, "fallen": -2}], {}, "fallen"),
    ([{"edge": "north", "duration": 1.0, "fallen": 40}], {}, "fallen"),
    ([{"edge": "north", "duration": 1.0, "fallen": 2, "start": (1, 2)}], {}, "start"),
    ([{"edge": "north", "duration": 1.0, "mean_fallen": 2.0}], {}, "tilts"),
    ([{"edge": "north", "duration": 1.0, "fallen": 2}], {"fit": ["spill"]}, "fit"),
    ([{"edge": "north", "duration": 1.0, "fallen": 2}], {"bootstrap": -1}, "bootstrap"),
    ([], {}, "observations"),
])
def test_bad_observations_name_the_problem(obs, kwargs, needle):
    with pytest.raises(ValueError, match=needle):
        calibrate(obs, **kwargs)


def test_loglik_is_what_calibrate_maximises():
    design = pd.DataFrame([{"edge": "north", "finger": "left", "duration": d, "start": standard_start()}
                           for d in (0.5, 1.5, 3.0)])
    obs = simulate_observations(design, TRUE, tilts=15, rng=3)
    res = calibrate(obs, fit=["slide_rate", "drop_rate"], start=TiltParams(noise_nodes=8))
    assert abs(loglik(obs, res.params) - res.loglik) < 1e-9
    assert loglik(obs, res.params.replace(drop_rate=res.params.drop_rate * 1.5)) < res.loglik


def test_a_single_tilt_is_not_reported_as_a_converged_fit():
    """One measured tilt cannot identify four parameters: the optimiser stops, but the fit is not usable."""
    res = calibrate([{"edge": "north", "duration": 1.0, "fallen": 3}])
    assert not res.converged
    assert "not identifiable" in res.message and "1 distinct tilt condition" in res.message
    four = [{"edge": "north", "duration": d, "fallen": f} for d, f in [(0.5, 2), (1.0, 5), (2.0, 9), (3.0, 13)]]
    one = calibrate(four, fit=["drop_rate"])
    assert one.converged and np.isfinite(one.table.loc[0, "se"])
