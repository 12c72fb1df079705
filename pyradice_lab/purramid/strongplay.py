"""Old name of :mod:`.pages` (the strong-play pages moved there), kept for old imports: the same module object."""

import sys

from . import pages

sys.modules[__name__] = pages
