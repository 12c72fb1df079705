"""Every code block in README.md and docs/guide/*.md runs as written.

Fences and what the test does with them:

- ``pycon``: ``>>>`` examples run with doctest (ELLIPSIS, NORMALIZE_WHITESPACE); the output shown must match.
- ``python``: executed in order, one namespace per page (a notebook session); nothing is compared.
- ``console``: every ``$ command`` line is run (``pyradice-lab`` is the installed CLI, ``python`` this
  interpreter; no shell: one command, its arguments and an optional ``# comment``); the lines below it up to
  the next ``$`` are the expected output (doctest matching: ``...`` stands for anything, e.g. a timing or the
  middle of a long table).  A ``$`` line with no output below is run for its exit status.  The console blocks
  of one page run in order in one fresh working folder (so a block may use a file an earlier command wrote);
  ``python SCRIPT`` finds a repository script (``experiments/...``) from there.
- ``toml`` blocks whose first line is ``# NAME.toml ...`` are files the page asks the reader to write (a
  designer's components file): the python and console tests write them into the page's working folder when
  they reach them, so the commands and code below them run with exactly what the page shows.
- ``sh`` (set-up commands such as ``make test``, a server, a cluster), other ``toml`` (component files),
  ``text`` and unlabelled fences are instructions, data or output and are not run.

A block is skipped only when the line right above its fence is ``<!-- docs-test: skip REASON -->`` with a
reason (tested below: a skip without a reason fails).  Blocks are collected per page, so a new page or block
is tested without touching this file.
"""

from __future__ import annotations

import doctest
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs" / "guide").glob("*.md"))]
RUN = {"pycon", "python", "console"}
NOT_RUN = {"sh", "text", "toml", ""}  # toml: designer files (tests/test_schema.py loads them)
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
SKIP = re.compile(r"<!--\s*docs-test:\s*skip\b(.*?)-->")
FILE_BLOCK = re.compile(r"^#\s*([\w.-]+\.toml)\b")  # first line of a toml block the page asks you to write
FENCE = re.compile(r"^(`{3,})\s*([\w-]*)\s*$")


@dataclass
class Block:
    page: Path
    line: int  # 1-based line of the opening fence
    lang: str
    code: str
    skip: str | None  # the reason, or None

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"

    @property
    def file_name(self) -> str | None:
        """The file name of a ``toml`` block the page asks the reader to write, else None."""
        m = FILE_BLOCK.match(self.code) if self.lang == "toml" else None
        return m.group(1) if m else None

    def write_file(self, folder: Path) -> None:
        (folder / self.file_name).write_text(self.code, encoding="utf-8")


def blocks(page: Path) -> list[Block]:
    lines = page.read_text(encoding="utf-8").splitlines()
    out, i = [], 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, lang, start = m.group(1), m.group(2), i
        j = i + 1
        while j < len(lines) and lines[j].strip() != fence:
            j += 1
        prev = lines[start - 1] if start else ""
        s = SKIP.search(prev)
        out.append(Block(page, start + 1, lang, "\n".join(lines[start + 1:j]) + "\n",
                         s.group(1).strip(" -—:") if s else None))
        i = j + 1
    return out


ALL = [b for p in PAGES for b in blocks(p)]


def _id(b: Block) -> str:
    return f"{b.page.stem}:{b.line}"


def test_every_fence_is_a_known_kind_and_every_skip_has_a_reason():
    assert ALL, "no code blocks found"
    unknown = [b.where + " " + repr(b.lang) for b in ALL if b.lang not in RUN | NOT_RUN]
    assert not unknown, f"unknown fence languages (use one of {sorted(RUN | NOT_RUN)}): {unknown}"
    bare = [b.where for b in ALL if b.skip is not None and len(b.skip) < 10]
    assert not bare, f"skipped blocks without a reason: {bare}"


def test_blocks_parse_as_python():
    for b in ALL:
        if b.lang == "python":
            compile(b.code, b.where, "exec")
        elif b.lang == "pycon":
            for ex in doctest.DocTestParser().get_examples(b.code):
                compile(ex.source, b.where, "single")


def test_readme_stays_a_front_door():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    words = len(re.sub(r"```.*?```", " ", text, flags=re.S).split())
    assert words <= 2000, f"README.md prose is {words} words; move detail to docs/guide/"
    assert text.lstrip().startswith("# "), "README starts with its title"
    first = next(b for b in blocks(ROOT / "README.md"))
    assert "make report" in first.code and "make test" in first.code, "the first block is the two set-up commands"
    for b in blocks(ROOT / "README.md"):
        if b.lang == "pycon":
            n = len(doctest.DocTestParser().get_examples(b.code))
            assert n <= 3, f"{b.where}: a canonical answer takes at most 3 lines of Python, not {n}"


COST = re.compile(r"#.*?(\b\d+(\.\d+)?\s*(CPU )?(s|min)\b|\bminutes\b)")


def _work_lines(b: Block) -> list[str]:
    """The lines of a README block that start work: each ``$`` command of a console block, each command line of a
    sh block naming ``pyradice-lab`` or ``make`` (a pycon block's cost may sit on any of its calls)."""
    lines = b.code.splitlines()
    if b.lang == "console":
        return [x for x in lines if x.startswith("$ ")]
    if b.lang == "sh":
        return [x for x in lines if x.split()[:1] and x.split()[0] in {"pyradice-lab", "make"}]
    return []


def test_readme_blocks_state_their_cost():
    """Issue 45: every README command says what it costs (CPU seconds, warm numba cache) in a comment; a pycon
    block says it on one of its lines."""
    missing = []
    for b in blocks(ROOT / "README.md"):
        if b.lang == "pycon":
            calls = [x for x in b.code.splitlines() if x.startswith(">>> ") and "(" in x
                     and not x[4:].startswith(("import ", "from "))]
            if calls and not any(COST.search(x) for x in calls):
                missing.append(b.where)
        missing += [f"{b.where}: {x[:60]}" for x in _work_lines(b) if not COST.search(x)]
    assert not missing, f"README blocks without their cost (# about N CPU s): {missing}"


def _page_ids(lang_set):
    return [p for p in PAGES if any(b.lang in lang_set and b.skip is None for b in blocks(p))]


@pytest.mark.slow
@pytest.mark.parametrize("page", _page_ids({"pycon", "python"}), ids=lambda p: p.stem)
def test_python_blocks_run(page, tmp_path, monkeypatch):
    """The page's python and pycon blocks in order, sharing one namespace (cwd: a temporary folder)."""
    import matplotlib

    matplotlib.use("Agg")
    monkeypatch.chdir(tmp_path)
    ns: dict = {"__name__": "__docs__"}
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    for b in blocks(page):
        if b.skip is None and b.file_name:
            b.write_file(tmp_path)
        if b.skip is not None or b.lang not in {"pycon", "python"}:
            continue
        if b.lang == "python":
            exec(compile(b.code, b.where, "exec"), ns)  # noqa: S102 - the documentation's own code
        else:
            test = doctest.DocTestParser().get_doctest(b.code, ns, b.where, str(page), b.line)
            result = runner.run(test, clear_globs=False)
            assert result.failed == 0, f"{b.where}: the output shown differs (doctest report above)"
    import matplotlib.pyplot as plt

    plt.close("all")


def _commands(b: Block) -> list[tuple[str, str]]:
    """The block's ``$`` commands, each with the output shown below it."""
    out, cmd, expected = [], None, []
    for line in b.code.splitlines():
        if line.startswith("$ "):
            if cmd is not None:
                out.append((cmd, "\n".join(expected)))
            cmd, expected = line[2:], []
        elif cmd is not None:
            expected.append(line)
    if cmd is not None:
        out.append((cmd, "\n".join(expected)))
    return out


def _argv(cmd: str, cwd: Path) -> list[str]:
    argv = shlex.split(cmd, comments=True)
    bindir = Path(sys.executable).parent
    if argv[0] == "pyradice-lab":
        argv[0] = str(bindir / "pyradice-lab")
    elif argv[0] == "python":
        argv[0] = sys.executable
        if len(argv) > 1 and not (cwd / argv[1]).exists() and (ROOT / argv[1]).is_file():
            argv[1] = str(ROOT / argv[1])  # a repository script (experiments/...)
    return argv


def test_console_blocks_are_commands_and_file_blocks_are_named():
    for b in ALL:
        if b.lang == "console" and b.skip is None:
            assert b.code.startswith("$ "), f"{b.where}: a console block starts with a `$ command` line"
            for cmd, _ in _commands(b):
                argv = shlex.split(cmd, comments=True)
                assert argv and argv[0] in {"pyradice-lab", "python"}, (
                    f"{b.where}: `{cmd}`: console blocks run pyradice-lab or python (no shell); use sh for the rest")
                assert not {"|", ">", ">>", "<", "&&", ";"} & set(argv), f"{b.where}: `{cmd}`: no shell syntax"
    names = [b.file_name for b in ALL if b.file_name]
    assert names, "the guides show designer files (toml blocks starting `# NAME.toml`)"


@pytest.mark.slow
@pytest.mark.parametrize("page", _page_ids({"console"}), ids=lambda p: p.stem)
def test_console_commands_print_what_the_page_shows(page, tmp_path):
    """The page's console blocks in order, in one fresh folder; every command's output must match the page."""
    env = {**os.environ, "COLUMNS": "110"}
    failures = []
    for b in blocks(page):
        if b.skip is None and b.file_name:
            b.write_file(tmp_path)
        if b.skip is not None or b.lang != "console":
            continue
        for cmd, expected in _commands(b):
            p = subprocess.run(_argv(cmd, tmp_path), cwd=tmp_path, capture_output=True, text=True, timeout=300,
                               env=env)
            if p.returncode != 0:
                failures.append(f"{b.where}: `{cmd}` exited {p.returncode}: {p.stderr[-2000:]}")
            elif expected.strip() and not doctest.OutputChecker().check_output(
                    expected.strip() + "\n", p.stdout.strip() + "\n", FLAGS):
                failures.append(f"{b.where}: `{cmd}` printed\n{p.stdout}\ninstead of\n{expected}")
    assert not failures, "\n\n".join(failures)
