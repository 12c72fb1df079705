"""The runnable examples in the raft package's docstrings."""

import doctest
import importlib

import pytest

MODULES = ["pyradice_lab.raft", "pyradice_lab.raft.components", "pyradice_lab.raft.physics", "pyradice_lab.raft.odds",
           "pyradice_lab.raft.tilting", "pyradice_lab.raft.loading", "pyradice_lab.raft.policies",
           "pyradice_lab.raft.rules", "pyradice_lab.raft.sim", "pyradice_lab.raft.calibration",
           "pyradice_lab.raft.layouts", "pyradice_lab.raft.advisor", "pyradice_lab.raft._position"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0
