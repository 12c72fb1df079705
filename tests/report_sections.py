"""Report sections of a fake game for the interruption tests (importable by worker processes)."""

import os
import time

import pandas as pd

from pyradice_lab.report.build import ExperimentResult, Section, save_experiment


def fake_section(ctx):
    """Saves one experiment holding the root seed, then sleeps $SECTION_SLEEP seconds."""
    res = ExperimentResult("infra_fake_exp", "Fake experiment", "The root seed of the run.",
                           pd.DataFrame({"seed": [ctx.seed]}))
    save_experiment(res, ctx.out_dir)
    time.sleep(float(os.environ.get("SECTION_SLEEP", "0")))
    return Section("Fake game", [res])


def register():
    from pyradice_lab.engine import registry

    registry.games()
    registry.register(registry.GameSpec(
        name="infra_fake", title="Fake game", summary="for tests", smoke_run=lambda seed: None,
        exact_tables=dict, bad_calls=list, report_section=registry.lazy("report_sections:fake_section")))
