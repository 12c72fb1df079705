"""The runnable examples in the foundation's docstrings."""

import doctest
import importlib

import pytest

MODULES = ["pyradice_lab", "pyradice_lab.engine.dice", "pyradice_lab.engine.rng", "pyradice_lab.engine.stats", "pyradice_lab.engine.sweep",
           "pyradice_lab.report", "pyradice_lab.engine.registry", "pyradice_lab.report.overview", "pyradice_lab.engine.findings",
           "pyradice_lab.engine.figures", "pyradice_lab.engine._lazy", "pyradice_lab.engine._sources", "pyradice_lab.engine._jit",
           "pyradice_lab.engine.outcomes", "pyradice_lab.design.strength", "pyradice_lab.engine.limits", "pyradice_lab.design.compare",
           "pyradice_lab.design.robustness", "pyradice_lab.design._robustness_result", "pyradice_lab.design._bradley_terry",
           "pyradice_lab.design.balance",
           "pyradice_lab.design._balance_grid", "pyradice_lab.design._balance_finding", "pyradice_lab.design._compare_settings", "pyradice_lab.design.controlvariates", "pyradice_lab.engine.controls",
           "pyradice_lab.engine.positions",
           "pyradice_lab.engine.checkspec", "pyradice_lab.engine.schema", "pyradice_lab.engine._schema_merge", "pyradice_lab.engine.execution",
           "pyradice_lab.engine._execution_blocks", "pyradice_lab.engine._findings_prose",
           "pyradice_lab.engine._findings_players", "pyradice_lab.engine.recommend",
           "pyradice_lab.design._balance_toml"]


# Purramid's and Meerkat's modules with examples (Pyradice's run in tests/pyradice/test_cli_components.py,
# Rocking Raft's in tests/raft/test_doctests.py).
GAME_MODULES = [f"pyradice_lab.purramid.{m}" for m in (
    "advisor", "_position", "_layout", "analysis", "board", "chance", "components", "odds", "pages", "policies", "race", "rules", "sim", "solver",
    "turns")] + [f"pyradice_lab.meerkat.{m}" for m in (
    "_position", "_setup", "advisor", "analysis", "components", "odds", "policies", "scoring", "sim")]


@pytest.mark.parametrize("name", MODULES + GAME_MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0, f"{name} has no docstring example (or doctest found none)"
    assert result.failed == 0


def _public_functions():
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "docs" / "api"))
    from _listing import PACKAGES, public

    return [(package, name) for package in PACKAGES for name in public(package).get("Functions", [])]


def test_the_shared_public_functions_are_in_modules_doctested_above():
    """So their examples run in test_docstring_examples (the games' are run below)."""
    mod = importlib.import_module("pyradice_lab")
    outside = [name for pkg, name in _public_functions() if pkg == "pyradice_lab"
               and getattr(mod, name).__module__ not in MODULES]
    assert not outside, f"add the modules of {outside} to MODULES"


@pytest.mark.parametrize("package", ["pyradice_lab.purramid", "pyradice_lab.pyradice", "pyradice_lab.raft",
                                     "pyradice_lab.meerkat"])
def test_every_public_functions_examples_run(package):
    """The Examples of every public function (the API reference's), run in its defining module's namespace:
    a safety net for modules in no doctest list (those in MODULES and GAME_MODULES already ran above)."""
    finder = doctest.DocTestFinder(recurse=False)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    mod = importlib.import_module(package)
    names = [name for pkg, name in _public_functions() if pkg == package]
    assert names
    for name in names:
        fn = getattr(mod, name)
        if fn.__module__ in MODULES + GAME_MODULES:
            continue
        home = importlib.import_module(fn.__module__)
        tests = finder.find(fn, f"{package}.{name}", module=home, globs=dict(vars(home)))
        assert any(t.examples for t in tests), f"{package}.{name} has no docstring example"
        for t in tests:
            runner.run(t)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed (doctest report above)"
    if package in ("pyradice_lab.purramid", "pyradice_lab.meerkat"):
        assert result.attempted == 0, "a public function's module is missing from GAME_MODULES"
