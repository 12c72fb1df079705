"""A long section built in parts (``GameSpec.report_parts``; issue 27: Meerkat Kingdom's section split over the
workers): the parts, joined, are the whole section."""

import pytest

from pyradice_lab.engine import registry
from pyradice_lab.engine.results import ExperimentResult, ReportContext
from pyradice_lab.meerkat import pages as R


def test_meerkat_registers_its_parts_and_their_join():
    spec = registry.get_game("meerkat")
    assert spec.report_parts == R.REPORT_PARTS and spec.report_join is not None
    assert {R._PART_OF.get(name, "rest") for name, _ in R._experiments(ReportContext(quick=True))} == set(R.REPORT_PARTS)
    assert registry.get_game("raft").report_parts == () and registry.get_game("raft").report_join is None


def test_the_joined_parts_are_the_whole_section_in_any_order(tmp_path):
    ctx = ReportContext(quick=True, seed=5, out_dir=tmp_path)
    whole = R.report_section(ctx)
    parts = [R.report_section(ctx, part=p) for p in reversed(R.REPORT_PARTS)]
    assert all(p.items for p in parts)
    joined = R.join_parts(ctx, parts)
    assert joined.title == whole.title == "Meerkat Kingdom" and joined.trials == whole.trials

    def exps(sec):
        return [(it.name, tuple((f.quantity, f.estimate, f.ci_low, f.ci_high) for f in it.findings))
                for it in sec.items if isinstance(it, ExperimentResult)]

    assert exps(joined) == exps(whole) and len(exps(whole)) == 8
    assert [type(it).__name__ for it in joined.items] == [type(it).__name__ for it in whole.items]


def test_an_unknown_part_is_refused_naming_the_parameter(tmp_path):
    with pytest.raises(ValueError, match="part must be one of"):
        R.report_section(ReportContext(quick=True, out_dir=tmp_path), part="tile")
