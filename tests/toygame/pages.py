"""The toy race's report section, its pages (registered by convention as ``pages:report_section``)."""

from __future__ import annotations

from pyradice_lab.engine.results import ReportContext, Section, Table, Text, save_experiment

from .analysis import start_player
from .components import default_components

__all__ = ["report_section", "SIZES"]

#: games of the start-player experiment (quick, full)
SIZES = {"start_player": (200, 2000)}


def report_section(ctx: ReportContext) -> Section:
    games = SIZES["start_player"][0 if ctx.quick else 1]
    result = start_player(games, ctx.seed_for("toygame"))
    save_experiment(result, ctx.out_dir)
    items = [Text("A two-player press-your-luck race with one die: the example of a game added as one package.",
                  heading="Toy race"),
             Table(default_components().source_table(), title="Toy race components and where they come from"),
             result]
    return Section("Toy race", items, seed=ctx.seed_label("toygame"), trials=f"{games:,} games")
