"""Moved to :mod:`pyradice_lab.design.proposals` (the proposals run ``balance``: a computation, not rendering) and
each game's ``levers`` module (its balance levers and budgets); this name is the same module object, kept so
existing imports work."""

import sys

from ..design import proposals as _moved

sys.modules[__name__] = _moved
