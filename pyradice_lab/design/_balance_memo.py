"""The simulation runs of one proposal kept in memory while it is built (private to :mod:`.balance`).

A proposal (:func:`._balance_path.propose`) runs two searches; the joint search verifies its pick on the grid's
verification seeds, so both verifications measure the packaged components on the same games: within
:func:`sharing_runs` a run of ``balance`` (its name: game, metrics, options, games, seed and the components'
content hash, as the on-disk cache names it) is played once and read back after, instead of played again.  Outside
it nothing is kept (a test that swaps the simulation for a stand-in never reads a real run back).  Also the
compact encoding of a run's metric arrays for the on-disk cache.
"""

from __future__ import annotations

import contextlib
from collections import OrderedDict

import numpy as np

__all__ = ["sharing_runs", "remembered", "remember", "MAX_RUNS"]

#: runs kept at most (a proposal plays a few tens: each candidate of each round, and the verifications)
MAX_RUNS = 256
_ACTIVE: list[OrderedDict] = []


@contextlib.contextmanager
def sharing_runs():
    """Within this block (nested blocks share the outer one's runs), :func:`remembered` returns the runs
    :func:`remember` kept."""
    _ACTIVE.append(_ACTIVE[-1] if _ACTIVE else OrderedDict())
    try:
        yield _ACTIVE[-1]
    finally:
        _ACTIVE.pop()


def remembered(name: str):
    """The run kept under ``name`` in the current :func:`sharing_runs` block, or None."""
    return _ACTIVE[-1].get(name) if _ACTIVE and name else None


def remember(name: str, res) -> None:
    """Keep run ``res`` under ``name`` in the current :func:`sharing_runs` block (none: nothing is kept)."""
    if not _ACTIVE or not name:
        return
    runs = _ACTIVE[-1]
    runs[name] = res
    while len(runs) > MAX_RUNS:
        runs.popitem(last=False)


def _pack(a: np.ndarray) -> str:
    import base64
    import zlib

    return base64.b64encode(zlib.compress(np.ascontiguousarray(a, dtype="<f8").tobytes())).decode()


def _unpack(text: str) -> np.ndarray:
    import base64
    import zlib

    return np.frombuffer(zlib.decompress(base64.b64decode(text.encode(), validate=True)), dtype="<f8").copy()
