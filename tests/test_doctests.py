"""The runnable examples in the foundation's docstrings."""

import doctest
import importlib

import pytest

MODULES = ["pyradice_lab", "pyradice_lab.dice", "pyradice_lab.rng", "pyradice_lab.stats", "pyradice_lab.sweep",
           "pyradice_lab.report", "pyradice_lab.registry", "pyradice_lab.overview", "pyradice_lab.findings",
           "pyradice_lab.figures", "pyradice_lab._lazy", "pyradice_lab._sources", "pyradice_lab._jit",
           "pyradice_lab.outcomes", "pyradice_lab.strength", "pyradice_lab.limits", "pyradice_lab.designer",
           "pyradice_lab.plausible", "pyradice_lab.balancing"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0, f"{name} has no docstring example (or doctest found none)"
    assert result.failed == 0
