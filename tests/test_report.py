import subprocess
from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd
import pytest
from pypdf import PdfReader

from pyradice_lab import __version__
from pyradice_lab.report import ExperimentResult, Section, Text, save_experiment, write_pdf

ROOT = Path(__file__).resolve().parents[1]


def pdf_text(path):
    reader = PdfReader(str(path))
    return reader, "\n".join(page.extract_text() or "" for page in reader.pages)


@pytest.mark.slow
def test_make_report_quick_builds_a_readable_pdf(tmp_path):
    out = tmp_path / "report.pdf"
    res = subprocess.run(["make", "-s", "report", "QUICK=1", f"REPORT_OUT={out}", "REPORT_ARGS=--no-progress"],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr[-2000:]
    reader, text = pdf_text(out)
    assert len(reader.pages) >= 3
    assert "pyradice_lab report" in text
    assert __version__ in text
    assert "Engine self-check" in text
    meta = reader.metadata
    assert meta.title == "pyradice_lab report" and meta.author == "pyradice_lab"
    assert meta.creation_date is not None
    from pyradice_lab import registry

    for spec in registry.games().values():
        if spec.report_section is not None:
            assert spec.title in text


def test_write_pdf_paginates_tables_and_renders_every_item(tmp_path):
    fig, ax = plt.subplots()
    ax.plot([0, 1], [1, 0])
    big = pd.DataFrame({"n": range(95), "x": [i / 7 for i in range(95)]})
    exp = ExperimentResult("demo_exp", "Demo experiment", "A reading.", pd.DataFrame({"a": [1]}), None)
    sec = Section("Demo section", [Text("Hello world.", heading="Intro"), fig, big, exp], seed="0/1", trials=10)
    path = write_pdf(tmp_path / "d.pdf", [sec], meta={"seed": 0})
    reader, text = pdf_text(path)
    # title + text + figure + 3 table pages (95 rows / 40) + experiment table
    assert len(reader.pages) == 7
    assert "Hello world." in text and "(3/3)" in text and "Demo experiment" in text
    assert not list(tmp_path.glob(".tmp-*"))


def test_bad_items_and_paths(tmp_path):
    with pytest.raises(TypeError, match="report items"):
        write_pdf(tmp_path / "x.pdf", [Section("s", [object()])])
    assert not (tmp_path / "x.pdf").exists() and not list(tmp_path.glob(".tmp-*"))
    with pytest.raises(ValueError, match="out"):
        write_pdf(tmp_path / "x.txt", [])


def test_save_experiment_writes_csv_and_png(tmp_path):
    fig, ax = plt.subplots()
    ax.bar([1, 2], [3, 4])
    exp = ExperimentResult("my_q", "Q", "reading", pd.DataFrame({"a": [1, 2]}), fig)
    paths = save_experiment(exp, tmp_path)
    assert paths["csv"] == tmp_path / "my_q" / "my_q.csv" and paths["png"].stat().st_size > 1000
    assert pd.read_csv(paths["csv"])["a"].tolist() == [1, 2]


@pytest.mark.slow
def test_report_numbers_do_not_depend_on_jobs(tmp_path):
    from pyradice_lab.report import build_report

    one = build_report(tmp_path / "one" / "r.pdf", quick=True, seed=3, n_jobs=1, games=["meerkat"], progress=False)
    two = build_report(tmp_path / "two" / "r.pdf", quick=True, seed=3, n_jobs=2, games=["meerkat"], progress=False)
    a, b = PdfReader(str(one)), PdfReader(str(two))
    assert len(a.pages) == len(b.pages) > 3
    for i in range(1, len(a.pages)):  # the title page differs only in run times
        assert a.pages[i].extract_text() == b.pages[i].extract_text(), f"page {i + 1}"
    csv_one = sorted(p.relative_to(tmp_path / "one") for p in (tmp_path / "one").rglob("*.csv"))
    assert csv_one and all((tmp_path / "one" / p).read_text() == (tmp_path / "two" / p).read_text() for p in csv_one)


def test_pdf_gets_normal_file_permissions(tmp_path):
    import os
    import stat

    path = write_pdf(tmp_path / "p.pdf", [Section("s", ["text"])])
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask
