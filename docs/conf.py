"""Sphinx configuration of the pyradice_lab documentation site (``make docs``; fast check: ``make docs-test``).

Pages: the user guides (MyST markdown, docs/guide/*.md), the API reference (autosummary + numpydoc, the names
listed in docs/api/*.rst), the gallery (sphinx-gallery, built from a copy of experiments/*.py) and the notebooks
(docs/notebooks/*.py, jupytext percent format, shown as source pages with a download link).

The gallery executes nothing: each experiment page ends with the figure, findings and table of a quick run
stored in ``docs/results/<experiment>/`` (``docs/results.py``, which ``make docs`` runs first: it re-runs only the
experiments whose code fingerprint changed; a page whose results are stale says so).
"""

from __future__ import annotations

import importlib
import importlib.util
import re
import sys
import types
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(DOCS))

from gallery_source import prune_generated, write_gallery_source, write_notebook_source  # noqa: E402
from results import RESULTS, status  # noqa: E402

import pyradice_lab  # noqa: E402

project = "pyradice_lab"
author = "pyradice_lab developers"
copyright = "2026, pyradice_lab developers"  # noqa: A001
release = version = pyradice_lab.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.intersphinx",
    "sphinx.ext.mathjax",
    "numpydoc",
    "myst_parser",
    "sphinx_gallery.gen_gallery",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "gallery_src", "notebooks/*.py", "**/README.md", "**.ipynb_checkpoints"]
templates_path = ["_templates"]
root_doc = "index"

# ---- MyST: the guides are plain markdown that also reads well on GitHub
myst_enable_extensions = ["colon_fence", "deflist", "dollarmath"]
myst_heading_anchors = 4

# ---- API reference
autosummary_generate = True
autosummary_imported_members = True
autodoc_default_options = {"member-order": "bysource"}
autodoc_typehints = "none"  # numpydoc sections carry the types
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
# Docstring shapes numpydoc does not parse are fixed at the source; none are silenced wholesale.

intersphinx_mapping = {}  # offline builds: no inventories fetched

# ---- gallery: a copy of experiments/*.py (percent format) with the header turned into the docstring
# sphinx-gallery needs, and the stored quick-run results (docs/results/) appended to each page (the notebooks: each
# cell's stored output under it); nothing executes.
GALLERIES = [(DOCS / "gallery_src" / "experiments", DOCS / "gallery"),
             (DOCS / "gallery_src" / "notebooks", DOCS / "notebooks" / "pages")]
write_gallery_source(ROOT / "experiments", GALLERIES[0][0], RESULTS, status())
write_notebook_source(DOCS / "notebooks", GALLERIES[1][0], RESULTS, status("notebooks"))
# a renamed or deleted experiment or notebook: its copy, pages and execution-time rows go (the rest is kept, so
# nothing unchanged is rebuilt)
prune_generated(DOCS, GALLERIES)

sphinx_gallery_conf = {
    "examples_dirs": [str(src) for src, _ in GALLERIES],
    "gallery_dirs": [out.relative_to(DOCS).as_posix() for _, out in GALLERIES],
    "filename_pattern": r"^$",  # no example executes: the pages show the stored results
    "plot_gallery": "True",
    "download_all_examples": False,
    "remove_config_comments": True,
    "abort_on_example_error": True,
    "only_warn_on_example_error": False,
    "within_subsection_order": "FileNameSortKey",
    "show_memory": False,
    "min_reported_time": 1,
    "matplotlib_animations": False,
    "image_scrapers": ("matplotlib",),
    "capture_repr": ("_repr_html_", "__repr__"),
}

# ---- HTML
html_theme = "pydata_sphinx_theme"
html_title = f"pyradice_lab {version}"
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "secondary_sidebar_items": ["page-toc"],
    # the top bar: the four games, the designer guide and the gallery (docs/index.md lists them first); the rest
    # under "More"
    "header_links_before_dropdown": 6,
}
# the left sidebar: the whole site on every page (docs/_templates/sidebar-site-nav.html)
html_sidebars = {"**": ["sidebar-site-nav"]}
html_static_path: list[str] = []
html_show_sourcelink = False

suppress_warnings: list[str] = []
nitpicky = False

_RELATIVE = re.compile(r":(mod|func|class|data|attr|meth|obj):`(~?)\.(\w+)")


def _package_of(name: str, obj) -> str:
    """The package a docstring's relative references (``:mod:`.sim```) are written against."""
    if isinstance(obj, types.ModuleType):
        return obj.__name__ if hasattr(obj, "__path__") else obj.__name__.rsplit(".", 1)[0]
    module = getattr(obj, "__module__", None) or name.rsplit(".", 1)[0]
    return module.rsplit(".", 1)[0]


def _resolve_relative(app, what, name, obj, options, lines):
    """Resolve ``:mod:`.sim``` against the documented object's package (what the authors meant).

    Sphinx resolves a leading dot against the current module and then by suffix over the whole project, which is
    ambiguous here: every game package has a ``sim``, ``rules``, ``kernel`` module.
    """
    package = _package_of(name, obj)

    def fix(m):
        role, tilde, short = m.groups()
        target = f"{package}.{short}"
        try:
            found = importlib.util.find_spec(target) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            found = hasattr(importlib.import_module(package), short) if package.startswith("pyradice_lab") else False
        return f":{role}:`~{target}" if found else m.group(0)

    lines[:] = [_RELATIVE.sub(fix, line) for line in lines]


def setup(app):
    app.connect("autodoc-process-docstring", _resolve_relative)
