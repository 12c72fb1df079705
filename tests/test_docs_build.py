"""The documentation site builds with warnings as errors (``make docs-test``; not part of ``make test``).

Fast mode: the gallery renders every experiment without executing it (``make docs`` executes the cheap ones),
so the build takes about a minute; a broken cross-reference, a docstring docutils cannot parse or a guide page
missing from the toctree fails it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.docs


def test_sphinx_build_has_no_warnings(tmp_path):
    pytest.importorskip("sphinx")
    env = {k: v for k, v in os.environ.items() if k != "PYRADICE_DOCS_GALLERY"}
    out = tmp_path / "html"
    p = subprocess.run([sys.executable, "-m", "sphinx", "-b", "html", "-W", "--keep-going", "-q", "-E",
                        "-d", str(tmp_path / "doctrees"), str(ROOT / "docs"), str(out)],
                       capture_output=True, text=True, env=env, timeout=900)
    assert p.returncode == 0, f"sphinx-build failed:\n{p.stderr[-6000:]}"
    for page in ["index.html", "api/index.html", "api/generated/pyradice_lab.purramid.advise.html",
                 "guide/purramid.html", "gallery/index.html", "notebooks/index.html"]:
        assert (out / page).is_file(), f"{page} was not built"
    advise = (out / "api/generated/pyradice_lab.purramid.advise.html").read_text(encoding="utf-8")
    assert "Parameters" in advise and "Returns" in advise, "numpydoc sections missing from the API page"
