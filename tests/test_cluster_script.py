"""The local dask cluster script of docs/cluster.md runs as written, from a file, and ends without a traceback.

The block is the ``python`` fence right below the page's ``<!-- cluster-script: ... -->`` line.  It runs in a
fresh interpreter from a temporary file, as a reader would run it (``python cluster_script.py``): dask starts
its worker processes by importing that file again, which only a script (not ``python -c`` or this test's own
process) shows.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "cluster.md"
MARKED = re.compile(r"^<!--\s*cluster-script:.*?-->\n```python\n(.*?)\n```$", re.S | re.M)
TIMEOUT = 300  # seconds; about 12 CPU s on 2 cores, far more on a busy machine


def documented_script() -> str:
    found = MARKED.findall(PAGE.read_text(encoding="utf-8"))
    assert len(found) == 1, f"{PAGE.name} should mark exactly one script block with <!-- cluster-script: ... -->"
    return found[0] + "\n"


def test_every_script_example_on_the_page_has_the_main_guard():
    """Each python block that runs work (not an interactive snippet) guards it: worker processes import the
    script again."""
    text = PAGE.read_text(encoding="utf-8")
    blocks = re.findall(r"^```python\n(.*?)\n```$", text, re.S | re.M)
    assert blocks
    for code in blocks:
        assert 'if __name__ == "__main__":' in code, code


@pytest.mark.slow
def test_the_documented_cluster_script_runs_from_a_file_without_tracebacks(tmp_path):
    pytest.importorskip("distributed")
    script = tmp_path / "cluster_script.py"
    script.write_text(documented_script(), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    try:
        run = subprocess.run([sys.executable, script.name], cwd=tmp_path, env=env, capture_output=True,
                             text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"the documented script did not finish within {TIMEOUT} s; stderr so far:\n{exc.stderr}")
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr, run.stderr
    assert "rating" in run.stdout and "start_player_win > 0.3" in run.stdout, run.stdout
