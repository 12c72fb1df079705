"""Random number generator coercion and independent child streams (NumPy SPEC 7).

Every stochastic function of the package takes a keyword-only ``rng`` and coerces it once with
:func:`as_generator`.  Parallel work uses :func:`spawn`, which derives children through
``SeedSequence.spawn`` (never ``seed + i``), so streams are independent and reproducible whatever the
number of workers.

Examples
--------
>>> from pyradice_lab.engine.rng import as_generator, spawn
>>> a, b = spawn(7, 2)
>>> bool(a.integers(1 << 30) != b.integers(1 << 30))
True
>>> bool(as_generator(3).integers(100) == as_generator(3).integers(100))
True
"""

from __future__ import annotations

import numbers
from collections.abc import Iterator

import numpy as np

__all__ = ["as_generator", "spawn", "spawn_seeds", "spawn_blocks", "block_ranges", "seed_sequence", "describe_seed",
           "fresh_copy"]

RngLike = None | int | np.random.SeedSequence | np.random.Generator | np.random.BitGenerator


def _check_seed_int(seed, name: str) -> int:
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise TypeError(
            f"{name} must be None, a non-negative int, a numpy SeedSequence or Generator, got {type(seed).__name__}"
        )
    if seed < 0:
        raise ValueError(f"{name} must be a non-negative integer seed, got {seed}")
    return int(seed)


def as_generator(rng: RngLike = None, *, name: str = "rng") -> np.random.Generator:
    """Coerce ``rng`` to a :class:`numpy.random.Generator`.

    Parameters
    ----------
    rng : None, int, SeedSequence, BitGenerator or Generator
        ``None`` draws fresh OS entropy; an int or SeedSequence seeds a new PCG64 generator;
        a Generator is returned unchanged (its state is shared, not copied).
    name : str
        Parameter name used in error messages.

    Returns
    -------
    numpy.random.Generator
        ``rng`` itself if it is a Generator, else a new generator seeded from it.

    Raises
    ------
    TypeError
        If ``rng`` is none of the types above (e.g. a float or a bool).
    ValueError
        If ``rng`` is a negative integer.

    Examples
    --------
    >>> as_generator(1).integers(100, size=3).tolist()
    [47, 51, 75]
    >>> g = as_generator(1)
    >>> as_generator(g) is g
    True
    """
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None or isinstance(rng, (np.random.SeedSequence, np.random.BitGenerator)):
        return np.random.default_rng(rng)
    return np.random.default_rng(_check_seed_int(rng, name))


def seed_sequence(rng_or_seed: RngLike = None, *, name: str = "seed") -> np.random.SeedSequence:
    """A SeedSequence for ``rng_or_seed`` (a Generator contributes its own seed sequence)."""
    if isinstance(rng_or_seed, np.random.SeedSequence):
        return rng_or_seed
    if isinstance(rng_or_seed, np.random.Generator):
        rng_or_seed = rng_or_seed.bit_generator
    if isinstance(rng_or_seed, np.random.BitGenerator):
        seq = rng_or_seed.seed_seq
        if not isinstance(seq, np.random.SeedSequence):  # pragma: no cover - legacy bit generators
            raise TypeError(f"{name}: this bit generator carries no SeedSequence to spawn from")
        return seq
    if rng_or_seed is None:
        return np.random.SeedSequence()
    return np.random.SeedSequence(_check_seed_int(rng_or_seed, name))


def spawn_seeds(rng_or_seed: RngLike, n: int) -> list[np.random.SeedSequence]:
    """``n`` independent child SeedSequences of ``rng_or_seed`` (advances its spawn counter)."""
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 0:
        raise ValueError(f"n must be a non-negative integer, got {n!r}")
    from .limits import check_result_size

    check_result_size(n, 600, name="n", item="seed")  # a SeedSequence (and its Generator) in memory
    return seed_sequence(rng_or_seed, name="rng_or_seed").spawn(int(n))


def fresh_copy(seq: np.random.SeedSequence) -> np.random.SeedSequence:
    """A copy of ``seq`` with its own spawn counter: every run handed a fresh copy spawns the same children.

    Common random numbers: two simulations given ``fresh_copy(seq)`` play the same per-game streams, while
    handing both the same object would not (``spawn`` advances its counter).

    >>> s = np.random.SeedSequence(1)
    >>> [c.spawn_key for c in fresh_copy(s).spawn(2)] == [c.spawn_key for c in fresh_copy(s).spawn(2)]
    True
    """
    return np.random.SeedSequence(seq.entropy, spawn_key=seq.spawn_key, pool_size=seq.pool_size)


def block_ranges(n: int, block: int) -> Iterator[tuple[int, int]]:
    """``(start, stop)`` of consecutive blocks of at most ``block`` items covering ``range(n)``.

    Examples
    --------
    >>> list(block_ranges(5, 2))
    [(0, 2), (2, 4), (4, 5)]
    """
    for name, v, low in (("n", n, 0), ("block", block, 1)):
        if isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < low:
            raise ValueError(f"{name} must be an integer >= {low}, got {v!r}")
    n, block = int(n), int(block)
    return ((start, min(start + block, n)) for start in range(0, n, block))


def spawn_blocks(rng_or_seed: RngLike, n: int, block: int) -> Iterator[list[np.random.SeedSequence]]:
    """The ``n`` children of :func:`spawn_seeds`, spawned lazily ``block`` at a time.

    ``SeedSequence.spawn`` numbers its children consecutively, so the blocks concatenated are exactly
    ``spawn_seeds(rng_or_seed, n)``, while memory holds one block of seeds at a time (a SeedSequence
    costs a few hundred bytes: a billion of them do not fit).  The root is resolved once, before the
    first block, so a ``None`` seed draws its entropy once.

    Examples
    --------
    >>> blocks = [b for b in spawn_blocks(3, 5, 2)]
    >>> [len(b) for b in blocks]
    [2, 2, 1]
    >>> [s.spawn_key for b in blocks for s in b] == [s.spawn_key for s in spawn_seeds(3, 5)]
    True
    """
    root = seed_sequence(rng_or_seed, name="rng_or_seed")
    ranges = block_ranges(n, block)  # validated here, before the first block is asked for
    return (root.spawn(stop - start) for start, stop in ranges)


def spawn(rng_or_seed: RngLike, n: int) -> list[np.random.Generator]:
    """``n`` independent child Generators via ``SeedSequence.spawn``.

    Spawning from the same int seed always gives the same children; spawning twice from the same
    Generator gives new, still independent, children each time.

    Parameters
    ----------
    rng_or_seed : None, int, SeedSequence, BitGenerator or Generator
        The parent: ``None`` draws fresh OS entropy; an int (>= 0) or SeedSequence is the root seed; a
        Generator (or BitGenerator) spawns from its own seed sequence (advancing its spawn counter).
    n : int
        Number of children, >= 0 (bounded by :mod:`pyradice_lab.engine.limits`).

    Returns
    -------
    list of numpy.random.Generator
        ``n`` PCG64 generators on independent streams.

    Raises
    ------
    ValueError
        If ``n`` is not a non-negative integer (or too large for memory), or ``rng_or_seed`` is a negative int.
    TypeError
        If ``rng_or_seed`` is none of the types above.

    Examples
    --------
    >>> [g.integers(10) for g in spawn(1, 3)] == [g.integers(10) for g in spawn(1, 3)]
    True
    """
    return [np.random.default_rng(s) for s in spawn_seeds(rng_or_seed, n)]


def describe_seed(seq: np.random.SeedSequence) -> dict:
    """The root entropy and spawn key of ``seq``: enough to rebuild it with
    ``SeedSequence(entropy, spawn_key=spawn_key)``."""
    return {"seed_entropy": seq.entropy, "seed_spawn_key": tuple(int(k) for k in seq.spawn_key)}
