"""The documentation site's configuration, without building it (the build is ``make docs-test``)."""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
sys.path.insert(0, str(DOCS / "api"))
sys.path.insert(0, str(DOCS))

from _listing import PACKAGES, page, public  # noqa: E402
from gallery_source import convert  # noqa: E402


@pytest.mark.parametrize("package", list(PACKAGES))
def test_every_public_name_is_in_the_api_reference(package):
    rst = (DOCS / "api" / f"{package.split('.')[-1]}.rst").read_text(encoding="utf-8")
    listed = set(re.findall(r"^   (\w+)$", rst, flags=re.M))
    names = {n for names in public(package).values() for n in names}
    missing = sorted(names - listed)
    assert not missing, f"{package}: {missing} missing from the API reference; run `python docs/api/_listing.py`"
    assert rst == page(package), "docs/api listing is stale; run `python docs/api/_listing.py`"


def test_api_index_lists_every_package_page():
    index = (DOCS / "api" / "index.rst").read_text(encoding="utf-8")
    for package in PACKAGES:
        assert f"   {package.split('.')[-1]}\n" in index


def test_every_guide_page_is_in_the_site_toctree():
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    for page_ in (DOCS / "guide").glob("*.md"):
        listed = f"guide/{page_.stem}\n" in index or f"<guide/{page_.stem}>\n" in index  # "Title <guide/x>" too
        assert listed, f"{page_.name} is not in docs/index.md's toctree"


def test_every_experiment_converts_to_a_gallery_example():
    import ast

    for path in sorted((ROOT / "experiments").glob("*.py")) + sorted((DOCS / "notebooks").glob("*.py")):
        text = convert(path.read_text(encoding="utf-8"))
        tree = ast.parse(text)
        doc = ast.get_docstring(tree)
        assert doc and re.match(r".+\n=+\n", doc.strip() + "\n"), f"{path.name}: no rST title in the docstring"


def test_a_renamed_example_leaves_no_generated_page_behind(tmp_path):
    # the build keeps what sphinx-gallery generated (unchanged examples are not rebuilt or re-run), but a renamed
    # or deleted experiment or notebook takes its copy, pages, images and execution-time rows with it; a stale
    # sg_execution_times.rst (rewritten by sphinx-gallery only when something ran) broke the -W build
    from gallery_source import prune_generated, write_gallery_source, write_notebook_source

    example = "# %% [markdown]\n# # Title {n}\n#\n# Text.\n\n# %%\nprint({n})\n"
    experiments, notebooks, docs = tmp_path / "experiments", tmp_path / "notebooks", tmp_path / "docs"
    experiments.mkdir()
    notebooks.mkdir()
    for stem in ("purramid_a", "purramid_b"):
        (experiments / f"{stem}.py").write_text(example.format(n=stem[-1]))
    for stem in ("nb_keep", "nb_old"):
        (notebooks / f"{stem}.py").write_text(example.format(n=1))
    galleries = [(docs / "gallery_src" / "experiments", docs / "gallery"),
                 (docs / "gallery_src" / "notebooks", docs / "notebooks" / "pages")]

    def build():  # what conf.py does, then what sphinx-gallery would write
        write_gallery_source(experiments, galleries[0][0])
        write_notebook_source(notebooks, galleries[1][0])
        prune_generated(docs, galleries)
        for (src, out), sub in zip(galleries, ("purramid", "")):
            stems = sorted(p.stem for p in (src / sub).glob("*.py"))
            for stem in stems:
                for suffix in (".rst", ".py", ".ipynb", ".zip", ".codeobj.json", ".py.md5"):
                    (out / sub / (stem + suffix)).parent.mkdir(parents=True, exist_ok=True)
                    (out / sub / (stem + suffix)).write_text("x")
                (out / sub / "images" / "thumb").mkdir(parents=True, exist_ok=True)
                (out / sub / "images" / f"sphx_glr_{stem}_001.png").write_text("x")
                (out / sub / "images" / "thumb" / f"sphx_glr_{stem}_thumb.png").write_text("x")
            prefix = (out / sub).relative_to(docs).as_posix().replace("/", "_")
            for where in (out / sub, docs):
                times = where / "sg_execution_times.rst"
                if not times.exists():  # sphinx-gallery rewrites an existing one only when something ran
                    times.write_text("".join(f":ref:`sphx_glr_{prefix}_{s}.py`\n" for s in stems))
            (out / sub / "index.rst").write_text("x")

    build()
    (docs / "sg_execution_times.rst").unlink()  # one table over both galleries, as sphinx-gallery writes it
    (docs / "sg_execution_times.rst").write_text(":ref:`sphx_glr_gallery_purramid_purramid_a.py`\n"
                                                 ":ref:`sphx_glr_gallery_purramid_purramid_b.py`\n"
                                                 ":ref:`sphx_glr_notebooks_pages_nb_keep.py`\n"
                                                 ":ref:`sphx_glr_notebooks_pages_nb_old.py`\n")
    before = {p for p in docs.rglob("*") if p.is_file()}
    prune_generated(docs, galleries)
    assert {p for p in docs.rglob("*") if p.is_file()} == before  # nothing renamed: nothing removed
    (experiments / "purramid_b.py").rename(experiments / "purramid_c.py")
    (notebooks / "nb_old.py").unlink()
    write_gallery_source(experiments, galleries[0][0])
    write_notebook_source(notebooks, galleries[1][0])
    removed = prune_generated(docs, galleries)
    left = {p.relative_to(docs).as_posix() for p in docs.rglob("*") if p.is_file()}
    assert not [p for p in left if "purramid_b" in p or "nb_old" in p], sorted(left)
    assert {"gallery/purramid/purramid_a.rst", "gallery/purramid/images/thumb/sphx_glr_purramid_a_thumb.png",
            "gallery/purramid/index.rst", "notebooks/pages/nb_keep.ipynb", "gallery_src/experiments/purramid/"
            "purramid_c.py", "gallery_src/notebooks/nb_keep.py"} <= left
    gone = {p.relative_to(docs).as_posix() for p in removed}
    assert {"sg_execution_times.rst", "gallery/purramid/sg_execution_times.rst",
            "notebooks/pages/sg_execution_times.rst"} <= gone  # each listed a removed example
    assert "gallery/purramid/purramid_a.py.md5" not in gone and "gallery/purramid/purramid_b.py.md5" in gone


def test_conf_uses_the_agreed_extensions_and_theme():
    conf = (DOCS / "conf.py").read_text(encoding="utf-8")
    for ext in ("numpydoc", "myst_parser", "sphinx_gallery.gen_gallery", "sphinx.ext.autosummary"):
        assert f'"{ext}"' in conf
    assert 'html_theme = "pydata_sphinx_theme"' in conf


def test_docs_dependencies_are_an_extra_and_importable():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    extra = re.search(r"^docs = \[(.*?)\]", text, flags=re.S | re.M).group(1)
    for dist, module in [("sphinx", "sphinx"), ("numpydoc", "numpydoc"), ("pydata-sphinx-theme", "pydata_sphinx_theme"),
                         ("myst-parser", "myst_parser"), ("sphinx-gallery", "sphinx_gallery"),
                         ("jupytext", "jupytext"), ("nbclient", "nbclient"), ("ipykernel", "ipykernel")]:
        assert f'"{dist}' in extra, f"{dist} is not in the docs extra"
        importlib.import_module(module)


def test_every_public_function_documents_parameters_returns_and_examples():
    """The API reference shows what the docstrings have: every public function (``__all__`` of pyradice_lab and
    of each game) has numpydoc Parameters (when it takes an argument), Returns (when it returns a value) and
    Examples sections (``python docs/api/_listing.py --sections`` lists what is missing, Raises included)."""
    from _listing import missing_sections

    missing = {s: names for s, names in missing_sections().items() if names}
    assert not missing, f"docstring sections missing: {missing}; see `python docs/api/_listing.py --sections`"


def test_section_check_knows_which_sections_a_function_needs():
    from _listing import needs

    def no_args() -> int:
        return 1

    def returns_nothing(x):
        def inner():
            return x  # a nested function's return is not the outer function's
        if x:
            return
        raise ValueError("x")

    def gen(x):
        yield x

    assert needs(no_args) == {"Parameters": False, "Returns": True, "Raises": False}
    assert needs(returns_nothing) == {"Parameters": True, "Returns": False, "Raises": True}
    assert needs(gen)["Returns"] and not needs(gen)["Raises"]
