"""Moved to :mod:`pyradice_lab.engine.findings` (the types and helpers games use sit below the games); this name
is the same module object, kept so existing imports work."""

import sys

from ..engine import findings as _moved

sys.modules[__name__] = _moved
