"""The compiled inner loop of the exact player (:mod:`.expectimax`): expected outcome value of every option.

For one raft and every option and timing node, :func:`option_expectations` computes the capped pmf of each
colour's fallen gems (the dynamic programme of :func:`.odds.capped_count_pmfs`, gem by gem in the same
order) and sums ``value(x) * prod_c pmf_c(x_c)`` over the outcome grid, then mixes over the nodes.  It is
compiled with numba (single-threaded: a BLAS matrix product was 15x slower on a busy machine because of its
threads) and called once per game by both game engines, so they choose identically.  Only the exact player
imports this module: the other policies never compile anything.
"""

from __future__ import annotations

import numpy as np

from ..engine._jit import njit

__all__ = ["option_expectations", "gem_cells"]


def gem_cells(raft: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One raft's gems as lists of spaces per colour: ``cells`` (C, max gems) and ``counts`` (C,)."""
    counts = raft.sum(axis=0).astype(np.int64)
    cells = np.zeros((raft.shape[1], max(int(counts.max(initial=0)), 1)), dtype=np.int64)
    for c in range(raft.shape[1]):
        cells[c, :counts[c]] = np.repeat(np.arange(9), raft[:, c])
    return cells, counts


@njit(cache=True)
def option_expectations(cells, counts, caps, node_fall, weights, values, active):  # pragma: no cover - compiled
    """Expected ``values`` of every ``active`` option (O,) for one raft (0 for the others).

    ``cells`` (C, M) / ``counts`` (C,): the spaces of each colour's gems; ``caps`` (C,) the counts from which
    outcomes are lumped; ``node_fall`` (O, 9, J) per-node fall probability of a gem on each space (nodes
    last: the inner loops run over the nodes, elementwise, so they vectorise without reordering any sum);
    ``weights`` (J,) node probabilities; ``values`` (prod(caps + 1),) the outcome values in C order (last
    colour fastest); ``active`` (O,) bool: the options the player may choose."""
    n_opt, n_node = node_fall.shape[0], node_fall.shape[2]
    ncol = len(caps)
    size = caps + 1
    dmax = 1
    for c in range(ncol):
        dmax = max(dmax, size[c])
    # two shapes of np.zeros with explicit dtypes and every fill an explicit loop: each distinct np.zeros signature
    # and each slice assignment is one more function numba compiles on a first call (issue 45)
    pm = np.zeros((ncol, dmax, n_node), np.float64)
    prefix = np.zeros((ncol, 1, n_node), np.float64)
    below = np.zeros(n_node, np.float64)
    acc = np.zeros(n_node, np.float64)
    out = np.zeros(n_opt, np.float64)
    idx = np.zeros(ncol, np.int64)
    last = ncol - 1
    inner = size[last]
    for o in range(n_opt):
        if not active[o]:
            continue
        # pmf of each colour's count given each node: gem by gem, counts above the cap dropped, then the
        # cap entry replaced by P(count >= cap)
        for c in range(ncol):
            d = size[c]
            for x in range(d):
                for j in range(n_node):
                    pm[c, x, j] = 1.0 if x == 0 else 0.0
            for t in range(counts[c]):
                p = node_fall[o, cells[c, t]]
                for x in range(d - 1, 0, -1):
                    for j in range(n_node):
                        pm[c, x, j] = pm[c, x, j] * (1.0 - p[j]) + pm[c, x - 1, j] * p[j]
                for j in range(n_node):
                    pm[c, 0, j] = pm[c, 0, j] * (1.0 - p[j])
            for j in range(n_node):
                below[j] = 0.0
            for x in range(caps[c]):
                for j in range(n_node):
                    below[j] += pm[c, x, j]
            for j in range(n_node):
                pm[c, caps[c], j] = max(1.0 - below[j], 0.0)
        # sum over the grid: an odometer over the colours but the last, the last colour innermost
        for c in range(last):
            idx[c] = 0
        for j in range(n_node):
            prefix[0, 0, j] = 1.0
            acc[j] = 0.0
        for c in range(last):
            for j in range(n_node):
                prefix[c + 1, 0, j] = prefix[c, 0, j] * pm[c, 0, j]
        base = 0
        while True:
            for x in range(inner):
                v = values[base + x]
                for j in range(n_node):
                    acc[j] += prefix[last, 0, j] * pm[last, x, j] * v
            base += inner
            c = last - 1
            while c >= 0:
                idx[c] += 1
                if idx[c] < size[c]:
                    break
                idx[c] = 0
                c -= 1
            if c < 0:
                break
            for cc in range(c, last):
                for j in range(n_node):
                    prefix[cc + 1, 0, j] = prefix[cc, 0, j] * pm[cc, idx[cc], j]
        total = 0.0
        for j in range(n_node):
            total += weights[j] * acc[j]
        out[o] = total
    return out
