"""Moved to :mod:`pyradice_lab.design.checks` (running the robustness checks is a computation, not the
document's; each game declares its checks in its own ``checks`` module with the types of
:mod:`pyradice_lab.engine.checkspec`); this name is the same module object, kept so existing imports work."""

import sys

from ..design import checks as _moved

sys.modules[__name__] = _moved
