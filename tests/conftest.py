"""Shared test settings: hypothesis is derandomised (CI is reproducible) and has no deadline
(these machines are noisy; speed is measured by `pyradice-lab bench`, never asserted in tests)."""

import os

import matplotlib

matplotlib.use("Agg")

from hypothesis import HealthCheck, settings  # noqa: E402

settings.register_profile(
    "ci", deadline=None, derandomize=True, max_examples=100, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    """Tests that build figures and never render them must not leak them into the next test."""
    yield
    plt.close("all")
